//! Proofs by induction over the draws of a fill loop, from bytecode.
//!
//! The executor runs a program from a *symbolic state* at a program point
//! ([`exec::execute_from`]): a loop head whose stack entries and memory words
//! are unknowns. A [`Template`] says which entries are the same constant on
//! every visit (return addresses, the free memory pointer) and which vary;
//! [`Template::instance`] makes the varying ones free variables. A *step
//! lemma* relates a state of one program to a state of the other at their cut
//! points: if the relation holds before, then after one step of each (the
//! implementation to its next cut point, the reference a fixed number of
//! segments to its loop head, or both to the end of the call) it holds again,
//! or both calls returned the same thing. Each lemma is one SMT-LIB2 query
//! "some state satisfies the relation and a pair of paths breaks it"; `unsat`
//! proves it for every state at once. The chain of lemmas is an induction
//! over the draws; [`golf`] has the one for the golfed fill, [`fair`] the
//! one for the fair fill. The golfed fill's cut points are the harness's
//! program counters, or, in an author's contract called as
//! `generate(address)` ([`Input::Address`]), found by what its states hold
//! ([`shape`]).

pub mod fair;
pub mod golf;
pub mod shape;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use octoku_core::octoku::generate::seed_of;
use octoku_core::{Address, U256};
use octoku_evm::{Machine, RawOutcome};

use crate::engine::{model_value, model_values};
use crate::exec::{self, Call, Cell, ExecError, Limits, Outcome, Reached, Snapshot};
use crate::program::{Input, Program};
use crate::prove::deployer;
use crate::smt;
use crate::solver::{Answer, Solver};
use crate::term::{Bin, TermId, Terms};
use crate::validate::{Agreement, Validated};

/// The variable that stands for keccak256 of the 20 bytes of `address` (the
/// calldata word of a [`Program::call`]), as the executor names it, when the
/// executor has met that hash: the seed of an [`Input::Address`] program
/// that hashes what the reference's `generate` does.
pub fn address_seed(terms: &mut Terms, address: TermId) -> Option<TermId> {
    let name = address_hash(address);
    terms
        .var_names()
        .contains(&name)
        .then(|| terms.var_shared(&name))
}

/// The name of [`address_seed`]'s variable.
fn address_hash(address: TermId) -> String {
    let cells: Vec<Cell> = (12..32)
        .map(|byte| Cell {
            term: address,
            byte,
        })
        .collect();
    exec::hash_variable_name(&cells)
}

/// 0/1: `address` is below 2^160 (a well-formed `generate(address)` call).
pub fn is_address(terms: &mut Terms, address: TermId) -> TermId {
    let high = shr(terms, address, 160);
    terms.is_zero(high)
}

/// The address the sample runs of an [`Input::Address`] program are called
/// with (its hash is set to each sample seed).
const SAMPLE_ADDRESS: u64 = 0x0c70_c0de;

/// Why an induction proof could not be set up or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InductionError {
    /// The executor refused a program.
    #[error("cannot execute the {which} symbolically: {error}")]
    Exec {
        /// Which program.
        which: &'static str,
        /// Why.
        error: ExecError,
    },
    /// A cut point the proof needs is never visited by the sample seeds, or
    /// is visited with different stack depths (the bytecode is not of the
    /// shape the proof handles).
    #[error("{0}")]
    Shape(String),
    /// The query directory could not be made, locked or written.
    #[error(transparent)]
    Queries(#[from] crate::engine::ProveError),
    /// The solver could not be run.
    #[error(transparent)]
    Solver(#[from] crate::solver::SolverError),
    /// A concrete run of both programs on a sample seed breaks what the
    /// lemmas claim (the checks of the invariants on real runs).
    #[error("seed {seed:#x}: {what}")]
    Invariant {
        /// The seed of the run.
        seed: U256,
        /// Which state breaks what.
        what: String,
    },
    /// A refuted lemma's state could not be replayed in revm.
    #[error("replay in revm failed: {0}")]
    Replay(#[source] octoku_evm::EvmError),
    /// A refuted lemma's state starts at a program counter the code cannot
    /// be started at in revm.
    #[error("replay in revm failed: cannot start the code at pc {0}")]
    NoStart(usize),
}

/// The state at a cut point, as seen on sample runs: each stack entry and
/// memory word is `Some(c)` when it was `c` on every visit, else `None` (an
/// unknown of the lemmas).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Program counter.
    pub pc: usize,
    /// Stack entries, bottom first.
    pub stack: Vec<Option<U256>>,
    /// Memory words.
    pub memory: Vec<Option<U256>>,
}

impl Template {
    /// A symbolic state at this cut: constants where the template has them,
    /// fresh variables `<prefix>s<j>` / `<prefix>m<j>` elsewhere.
    pub fn instance(&self, terms: &mut Terms, prefix: &str) -> Snapshot {
        let word = |terms: &mut Terms, c: Option<U256>, name: String| match c {
            Some(c) => terms.constant(c),
            None => terms.var(&name),
        };
        let stack = (0..self.stack.len())
            .map(|j| word(terms, self.stack[j], format!("{prefix}s{j}")))
            .collect();
        let memory = (0..self.memory.len())
            .map(|j| word(terms, self.memory[j], format!("{prefix}m{j}")))
            .collect();
        Snapshot {
            pc: self.pc,
            stack,
            memory,
        }
    }

    /// 0/1: `s` is at this cut with this stack depth and memory size, and
    /// every constant entry of the template holds its constant.
    pub fn fits(&self, terms: &mut Terms, s: &Snapshot) -> TermId {
        if s.pc != self.pc
            || s.stack.len() != self.stack.len()
            || s.memory.len() != self.memory.len()
        {
            return terms.small(0);
        }
        let mut acc = terms.small(1);
        let pairs = self
            .stack
            .iter()
            .zip(&s.stack)
            .chain(self.memory.iter().zip(&s.memory));
        for (c, &t) in pairs {
            if let Some(c) = c {
                let c = terms.constant(*c);
                let e = terms.bin(Bin::Eq, t, c);
                acc = terms.and_bool(acc, e);
            }
        }
        acc
    }
}

/// The concrete states at the cut points `cuts` of one run of `program` on
/// `seed`, in order, and how the run ended (success, return data). An
/// [`Input::Address`] program is called on a fixed address whose hash is
/// taken to be `seed` (keccak256 as an unknown function), so that its runs
/// reach the seeds no known address hashes to.
pub fn trace(program: Program<'_>, seed: U256, cuts: &HashSet<usize>) -> Result<Run, ExecError> {
    let mut terms = Terms::new();
    let (arg, hash) = match program.input {
        Input::Seed => (terms.constant(seed), None),
        Input::Address => {
            let a = terms.var("address");
            (a, Some(address_hash(a)))
        }
    };
    // KECCAK256 of the concrete inputs is computed (the fair fill's hash).
    let call = program.call(&mut terms, arg).hashes_as_variables();
    let mut at = Snapshot {
        pc: 0,
        stack: Vec::new(),
        memory: Vec::new(),
    };
    let mut states = Vec::new();
    // One run's instructions over all its segments: a program that loops
    // forever through its cuts is refused here, as one that loops between
    // them is by the executor, instead of filling memory with states.
    let limits = Limits::default();
    let mut steps = 0;
    loop {
        let (segments, stats) =
            exec::execute_from(&mut terms, program.code, &call, limits, &at, cuts)?;
        steps += stats.steps;
        if steps > limits.steps_per_path {
            return Err(ExecError::LoopBound {
                pc: at.pc,
                steps: limits.steps_per_path,
            });
        }
        // The address and its hash are the only variables.
        let hashed = hash.as_ref().is_none_or(|h| terms.var_names().contains(h));
        let values: Vec<U256> = terms
            .var_names()
            .iter()
            .map(|n| match n.as_str() {
                "address" => U256::from(SAMPLE_ADDRESS),
                n if Some(n) == hash.as_deref() => seed,
                _ => U256::ZERO,
            })
            .collect();
        let mut memo = HashMap::new();
        let mut value = |t: TermId| terms.eval_memo(t, &values, &mut memo);
        // The paths' conditions are disjoint and cover every assignment.
        let segment = segments
            .into_iter()
            .find(|s| !value(s.guard).is_zero())
            .expect("one path holds");
        match segment.reached {
            Reached::Cut(next) => {
                let state = ConcreteState {
                    pc: next.pc,
                    stack: next.stack.iter().map(|&t| value(t)).collect(),
                    memory: next.memory.iter().map(|&t| value(t)).collect(),
                };
                // Until the address is hashed, the state stays a function
                // of it (a concrete address would get its real hash).
                at = if hashed {
                    state.snapshot(&mut terms)
                } else {
                    next
                };
                states.push(state);
            }
            Reached::Ended(o) => {
                let mut end = vec![value(o.success), value(o.len)];
                end.extend(o.words.iter().map(|&w| value(w)));
                return Ok((states, end));
            }
        }
    }
}

/// One concrete run: its states at the cuts, in order, and how it ended
/// (success, return length, the return data's words).
pub type Run = (Vec<ConcreteState>, Vec<U256>);

/// A concrete state at a cut point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConcreteState {
    /// Program counter.
    pub pc: usize,
    /// Stack entries, bottom first.
    pub stack: Vec<U256>,
    /// Memory words.
    pub memory: Vec<U256>,
}

impl ConcreteState {
    /// The state as constants in `terms`.
    pub fn snapshot(&self, terms: &mut Terms) -> Snapshot {
        Snapshot {
            pc: self.pc,
            stack: constants(terms, &self.stack),
            memory: constants(terms, &self.memory),
        }
    }
}

/// The two programs of a proof, their cut points and the templates of those
/// cuts from the sample runs ([`golf::sample_seeds`]); the reference's cut
/// is its inner loop head `H` ([`golf::REF_HEAD`]).
pub(super) struct Pair<'a> {
    pub reference: Program<'a>,
    pub implementation: Program<'a>,
    pub ref_cuts: HashSet<usize>,
    pub imp_cuts: HashSet<usize>,
    pub ref_templates: HashMap<usize, Template>,
    pub imp_templates: HashMap<usize, Template>,
    /// What the implementation is called in messages.
    which: &'static str,
}

impl<'a> Pair<'a> {
    /// Templates from the sample runs; refuses a reference without its loop
    /// head of 10 stack entries.
    pub fn new(
        reference: Program<'a>,
        implementation: Program<'a>,
        which: &'static str,
        imp_cuts: HashSet<usize>,
    ) -> Result<Pair<'a>, InductionError> {
        let head = golf::REF_HEAD;
        let ref_cuts: HashSet<usize> = [head].into();
        let seeds = golf::sample_seeds();
        let ref_templates = templates(reference, "reference", &seeds, &ref_cuts)?;
        let imp_templates = templates(implementation, which, &seeds, &imp_cuts)?;
        if ref_templates.get(&head).is_none_or(|t| t.stack.len() != 10) {
            return Err(InductionError::Shape(format!(
                "the reference has no loop head at pc {head} with 10 stack entries: not the bytecode this proof is written for"
            )));
        }
        Ok(Pair {
            reference,
            implementation,
            ref_cuts,
            imp_cuts,
            ref_templates,
            imp_templates,
            which,
        })
    }

    /// The runs of both programs on `seed`, each at its cuts ([`trace`]),
    /// for the concrete checks of a proof's invariants.
    pub fn traces(&self, seed: U256) -> Result<[Run; 2], InductionError> {
        let r =
            trace(self.reference, seed, &self.ref_cuts).map_err(|error| InductionError::Exec {
                which: "reference",
                error,
            })?;
        let i = trace(self.implementation, seed, &self.imp_cuts).map_err(|error| {
            InductionError::Exec {
                which: self.which,
                error,
            }
        })?;
        Ok([r, i])
    }

    /// Asks `queries` (built in `built`) of `solver` in order, written under
    /// `dir`, up to the first that is not proved; a refuted lemma's state is
    /// replayed in revm (the implementation from the query's first start,
    /// the reference from its second).
    ///
    /// When every lemma asked is proved, both programs' terms are checked
    /// against revm on seeds (or addresses) first, and their results must
    /// agree by `agree` ([`crate::validate`]): a report without that is
    /// never "proved".
    pub fn prove(
        &self,
        queries: &[Query],
        built: Duration,
        dir: &Path,
        solver: &Solver,
        agree: Agreement,
    ) -> Result<Report, InductionError> {
        let (lemmas, name) = decide(queries, dir, solver)?;
        let validated =
            if lemmas.len() == queries.len() && lemmas.iter().all(|l| l.proved == Some(true)) {
                Some(crate::validate::validate_fills(
                    [self.reference, self.implementation],
                    |_| true,
                    agree,
                )?)
            } else {
                None
            };
        let replay = match lemmas.last() {
            Some(l) if l.proved == Some(false) => {
                let q = queries
                    .iter()
                    .find(|q| q.name == l.name)
                    .expect("a query per lemma");
                Some(replay(self.reference, self.implementation, q, &l.model)?)
            }
            _ => None,
        };
        Ok(Report {
            lemmas,
            total: queries.len(),
            solver: name,
            setup: built,
            queries: dir.to_path_buf(),
            replay,
            validated,
        })
    }
}

/// The constants `v` in `terms`.
pub(super) fn constants(terms: &mut Terms, v: &[U256]) -> Vec<TermId> {
    v.iter().map(|&x| terms.constant(x)).collect()
}

/// The templates of the cut points `cuts` from runs on `seeds`: an entry is
/// constant when every visit saw the same value. Each template is an
/// assumption the lemmas check: a lemma that ends at a cut proves the end
/// state fits its template.
pub fn templates(
    program: Program<'_>,
    which: &'static str,
    seeds: &[U256],
    cuts: &HashSet<usize>,
) -> Result<HashMap<usize, Template>, InductionError> {
    let mut out: HashMap<usize, Template> = HashMap::new();
    for &seed in seeds {
        let (states, _) =
            trace(program, seed, cuts).map_err(|error| InductionError::Exec { which, error })?;
        for st in states {
            let seen = |v: &[U256]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
            let t = out.entry(st.pc).or_insert_with(|| Template {
                pc: st.pc,
                stack: seen(&st.stack),
                memory: seen(&st.memory),
            });
            if t.stack.len() != st.stack.len() || t.memory.len() != st.memory.len() {
                return Err(InductionError::Shape(format!(
                    "the {which} reaches pc {} with stack depths {} and {} (or memory sizes {} and {} words): not a loop of the shape the proof handles",
                    st.pc,
                    t.stack.len(),
                    st.stack.len(),
                    t.memory.len(),
                    st.memory.len()
                )));
            }
            let keep = |slot: &mut Option<U256>, v: U256| {
                if *slot != Some(v) {
                    *slot = None;
                }
            };
            for (slot, &v) in t.stack.iter_mut().zip(&st.stack) {
                keep(slot, v);
            }
            for (slot, &v) in t.memory.iter_mut().zip(&st.memory) {
                keep(slot, v);
            }
        }
    }
    Ok(out)
}

/// The paths of `program` from `start` through `segments` segments (each
/// ends at a cut in `cuts`); a path that ends the call stops early.
pub fn run(
    terms: &mut Terms,
    program: Program<'_>,
    call: &Call,
    start: &Snapshot,
    cuts: &HashSet<usize>,
    segments: usize,
) -> Result<Vec<(TermId, Reached)>, ExecError> {
    let mut frontier = vec![(terms.small(1), Reached::Cut(start.clone()))];
    for _ in 0..segments {
        let mut next = Vec::new();
        for (guard, reached) in frontier {
            match reached {
                Reached::Cut(at) => {
                    let (paths, _) = exec::execute_from(
                        terms,
                        program.code,
                        call,
                        Limits::default(),
                        &at,
                        cuts,
                    )?;
                    for p in paths {
                        let g = terms.and_bool(guard, p.guard);
                        if terms.as_const(g) != Some(U256::ZERO) {
                            next.push((g, p.reached));
                        }
                    }
                }
                ended @ Reached::Ended(_) => next.push((guard, ended)),
            }
        }
        frontier = next;
    }
    Ok(frontier)
}

/// 0/1: the two outcomes are equal (success, length, every data word).
pub fn same_outcome(terms: &mut Terms, a: &Outcome, b: &Outcome) -> TermId {
    let zero = terms.small(0);
    let width = a.words.len().max(b.words.len());
    let word = |o: &Outcome, k: usize| o.words.get(k).copied().unwrap_or(zero);
    let mut acc = terms.bin(Bin::Eq, a.success, b.success);
    let len = terms.bin(Bin::Eq, a.len, b.len);
    acc = terms.and_bool(acc, len);
    for k in 0..width {
        let e = terms.bin(Bin::Eq, word(a, k), word(b, k));
        acc = terms.and_bool(acc, e);
    }
    acc
}

/// One lemma, ready to ask: the 0/1 term that is 1 on a state and a pair of
/// paths that break it.
pub struct Query {
    /// The start states (implementation, reference if it runs), for
    /// replaying a counterexample.
    pub starts: (Snapshot, Option<Snapshot>),
    /// Name, also the query file's stem.
    pub name: String,
    /// What the lemma says, one line.
    pub says: String,
    /// The store the terms live in.
    pub terms: Terms,
    /// The counterexample term: `unsat` of "it is non-zero" proves the lemma.
    pub broken: TermId,
    /// Time spent executing symbolically and building the term.
    pub built: Duration,
    /// The hypothesis and, per pair of paths, (implementation guard,
    /// reference guard, conclusion), for explaining a counterexample.
    pub parts: (TermId, Vec<[TermId; 3]>),
}

impl Query {
    /// The values of the hypothesis and of each pair's guards and conclusion
    /// under `model` (variable name, value; missing variables are 0).
    pub fn explain(&self, model: &[(String, U256)]) -> (U256, Vec<[U256; 3]>) {
        let values = model_values(&self.terms, model);
        let mut memo = HashMap::new();
        let mut eval = |t: TermId| self.terms.eval_memo(t, &values, &mut memo);
        let hyp = eval(self.parts.0);
        let pairs = self
            .parts
            .1
            .iter()
            .map(|p| [eval(p[0]), eval(p[1]), eval(p[2])])
            .collect();
        (hyp, pairs)
    }
}

/// What the solver said about one lemma.
#[derive(Debug, Clone)]
pub struct LemmaResult {
    /// The lemma's name.
    pub name: String,
    /// What it says.
    pub says: String,
    /// Its query file.
    pub file: PathBuf,
    /// `Some(true)` proved, `Some(false)` refuted, `None` undecided.
    pub proved: Option<bool>,
    /// A state that breaks it (variable name, value), when refuted.
    pub model: Vec<(String, U256)>,
    /// Time to build the query (symbolic execution, terms).
    pub built: Duration,
    /// Solver time.
    pub check: Duration,
}

/// Writes every query under `dir` (all of them, so that each can be
/// re-checked with another solver), then asks `solver` about each in order
/// and stops at the first one that is not proved (refuted or undecided).
/// Returns the results of the lemmas asked and the solver's name.
pub fn decide(
    queries: &[Query],
    dir: &Path,
    solver: &Solver,
) -> Result<(Vec<LemmaResult>, String), InductionError> {
    let mut queries_dir = crate::engine::QueryDir::open(dir)?;
    // Queries of an earlier run (perhaps of another proof) would be
    // mistaken for this run's.
    queries_dir.clear("smt2")?;
    let mut files = Vec::new();
    for q in queries {
        let header = vec![
            format!("octoku induction lemma {}: {}", q.name, q.says),
            "unsat proves the lemma for every state that satisfies its relation".to_string(),
        ];
        let text = smt::nonzero_query(&q.terms, q.broken, &header);
        files.push(queries_dir.write(&format!("{}.smt2", q.name), &text)?);
    }
    let mut name = String::new();
    let mut out = Vec::new();
    for (q, file) in queries.iter().zip(files) {
        let s = solver.solve(&file)?;
        name = s.solver.clone();
        let (proved, model) = match s.answer {
            Answer::Unsat => (Some(true), Vec::new()),
            Answer::Sat(m) => (Some(false), m),
            Answer::Unknown => (None, Vec::new()),
        };
        out.push(LemmaResult {
            name: q.name.clone(),
            says: q.says.clone(),
            file,
            proved,
            model,
            built: q.built,
            check: s.check,
        });
        if proved != Some(true) {
            break;
        }
    }
    Ok((out, name))
}

/// `a >> k` for a constant k.
pub(crate) fn shr(terms: &mut Terms, a: TermId, k: u64) -> TermId {
    let k = terms.small(k);
    terms.bin(Bin::Shr, a, k)
}

/// 0/1: a == b.
pub(crate) fn eq(terms: &mut Terms, a: TermId, b: TermId) -> TermId {
    terms.bin(Bin::Eq, a, b)
}

/// 0/1: a == c for a constant c.
pub(crate) fn eq_c(terms: &mut Terms, a: TermId, c: u64) -> TermId {
    let c = terms.small(c);
    terms.bin(Bin::Eq, a, c)
}

/// 0/1: a < c for a constant c.
pub(crate) fn lt_c(terms: &mut Terms, a: TermId, c: u64) -> TermId {
    let c = terms.small(c);
    terms.bin(Bin::Lt, a, c)
}

/// The conjunction of 0/1 terms.
pub(crate) fn all(terms: &mut Terms, parts: &[TermId]) -> TermId {
    let mut acc = terms.small(1);
    for &p in parts {
        acc = terms.and_bool(acc, p);
    }
    acc
}

/// `code` changed to start at the state (`pc`, `stack`, `memory`) instead
/// of at pc 0: its first four bytes become `PUSH2 entry JUMP`, and a
/// prologue appended after the code (behind 33 STOPs, so that no PUSH of the
/// original swallows it) writes the memory words, pushes the stack entries
/// and jumps to `pc`. Every JUMPDEST of the original keeps its place. For
/// replaying a state in revm; `None` when the code is too short or `pc` is
/// no JUMPDEST.
pub fn started_at(code: &[u8], pc: usize, stack: &[U256], memory: &[U256]) -> Option<Vec<u8>> {
    let dests = exec::jumpdests(code);
    if code.len() < 5 || !dests.contains(&pc) || dests.iter().any(|&d| d < 4) {
        return None;
    }
    // The first four bytes must be whole instructions (PUSH1 x PUSH1 y
    // in solc's output) so that pc 4 stays an instruction boundary.
    if code[0] != 0x60 || code[2] != 0x60 {
        return None;
    }
    let mut out = code.to_vec();
    out.extend_from_slice(&[0u8; 33]);
    let entry = u16::try_from(out.len()).ok()?;
    let push32 = |out: &mut Vec<u8>, v: U256| {
        out.push(0x7f);
        out.extend_from_slice(&v.to_be_bytes::<32>());
    };
    out.push(0x5b);
    for (w, &v) in memory.iter().enumerate() {
        push32(&mut out, v);
        out.push(0x61);
        out.extend_from_slice(&u16::try_from(32 * w).ok()?.to_be_bytes());
        out.push(0x52);
    }
    for &v in stack {
        push32(&mut out, v);
    }
    out.push(0x61);
    out.extend_from_slice(&u16::try_from(pc).ok()?.to_be_bytes());
    out.push(0x56);
    let [hi, lo] = entry.to_be_bytes();
    out[..4].copy_from_slice(&[0x61, hi, lo, 0x56]);
    Some(out)
}

/// The value of every entry of `snapshot` under `model` (variable name,
/// value; a variable the model does not name is 0).
pub fn values(terms: &Terms, snapshot: &Snapshot, model: &[(String, U256)]) -> ConcreteState {
    let vars = model_values(terms, model);
    let mut memo = HashMap::new();
    let mut eval = |t: TermId| terms.eval_memo(t, &vars, &mut memo);
    ConcreteState {
        pc: snapshot.pc,
        stack: snapshot.stack.iter().map(|&t| eval(t)).collect(),
        memory: snapshot.memory.iter().map(|&t| eval(t)).collect(),
    }
}

/// A refuted lemma's state, replayed in revm to the end of both calls.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The seed of the state (for an [`Input::Address`] program's entry
    /// lemma, the real keccak256 of the address).
    pub seed: U256,
    /// The address an [`Input::Address`] program is called with.
    pub address: Option<Address>,
    /// The implementation's state at the lemma's start.
    pub implementation_state: ConcreteState,
    /// The reference's state, when the lemma runs it.
    pub reference_state: Option<ConcreteState>,
    /// What the implementation returns from there, in revm.
    pub implementation: RawOutcome,
    /// What the reference returns from there, in revm.
    pub reference: Option<RawOutcome>,
}

/// The outcome of an induction proof.
#[derive(Debug, Clone)]
pub struct Report {
    /// The lemmas asked, in order (all of them when proved; up to the first
    /// that is not proved otherwise).
    pub lemmas: Vec<LemmaResult>,
    /// How many lemmas the proof has.
    pub total: usize,
    /// Solver name and version.
    pub solver: String,
    /// Sample runs, templates and symbolic execution of every lemma.
    pub setup: Duration,
    /// Where the query files are.
    pub queries: PathBuf,
    /// The first refuted lemma's state, replayed.
    pub replay: Option<Replay>,
    /// When every lemma was proved: both programs' terms checked against
    /// revm ([`crate::validate`]).
    pub validated: Option<Validated>,
}

impl Report {
    /// Every lemma asked was proved, all of them were asked, and the proof
    /// was validated against revm.
    pub fn proved(&self) -> bool {
        self.validated.is_some()
            && self.lemmas.len() == self.total
            && self.lemmas.iter().all(|l| l.proved == Some(true))
    }

    /// The first lemma that was not proved.
    pub fn failed(&self) -> Option<&LemmaResult> {
        self.lemmas.iter().find(|l| l.proved != Some(true))
    }
}

/// Replays the start states of `q` under `model` in revm, each to the end
/// of its call.
fn replay(
    reference: Program<'_>,
    implementation: Program<'_>,
    q: &Query,
    model: &[(String, U256)],
) -> Result<Replay, InductionError> {
    let named = |name: &str| model_value(model, name);
    let implementation_state = values(&q.terms, &q.starts.0, model);
    let (seed, address) = match implementation.input {
        Input::Seed => (named("seed"), None),
        Input::Address => {
            let a = Address::from_word(named("address").into());
            // From the call's start the program hashes the address for
            // real, so the reference gets the real hash too.
            let seed = if implementation_state.pc == 0 {
                seed_of(&a)
            } else {
                named("seed")
            };
            (seed, Some(a))
        }
    };
    let mut machine = Machine::new().map_err(InductionError::Replay)?;
    let mut run_from = |program: Program<'_>,
                        arg: U256,
                        state: &ConcreteState|
     -> Result<RawOutcome, InductionError> {
        let code = if state.pc == 0 {
            program.code.to_vec()
        } else {
            started_at(program.code, state.pc, &state.stack, &state.memory)
                .ok_or(InductionError::NoStart(state.pc))?
        };
        let at = machine
            .deploy(&deployer(&code))
            .map_err(InductionError::Replay)?
            .0;
        machine
            .call_raw(at, program.calldata(arg))
            .map_err(InductionError::Replay)
    };
    // The argument is the model's address word (below 2^160, as the lemmas
    // assume), or the seed.
    let arg = address.map_or(seed, |_| named("address"));
    let implementation_out = run_from(implementation, arg, &implementation_state)?;
    let (reference_state, reference_out) = match &q.starts.1 {
        Some(r) => {
            let st = values(&q.terms, r, model);
            let out = run_from(reference, seed, &st)?;
            (Some(st), Some(out))
        }
        None => (None, None),
    };
    Ok(Replay {
        seed,
        address,
        implementation_state,
        reference_state,
        implementation: implementation_out,
        reference: reference_out,
    })
}

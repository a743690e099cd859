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
//! over the draws; [`golf`] has the one for the golfed fill.

pub mod fair;
pub mod golf;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use octoku_core::U256;

use crate::exec::{self, Call, ExecError, Limits, Outcome, Reached, Snapshot};
use crate::smt;
use crate::solver::{Answer, Solver};
use crate::term::{Bin, TermId, Terms};

/// One program: runtime bytecode and the selector of the call that runs its
/// fill on a raw seed (calldata `selector ++ seed`).
#[derive(Debug, Clone, Copy)]
pub struct Program<'a> {
    /// Runtime bytecode.
    pub code: &'a [u8],
    /// Selector of the fill call.
    pub selector: [u8; 4],
}

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
    /// A refuted lemma's state could not be replayed in revm.
    #[error("replay in revm failed: {0}")]
    Replay(String),
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
/// `seed`, in order, and how the run ended (success, return data).
pub fn trace(
    program: Program<'_>,
    seed: U256,
    cuts: &HashSet<usize>,
) -> Result<(Vec<ConcreteState>, Vec<U256>), ExecError> {
    let mut terms = Terms::new();
    let s = terms.constant(seed);
    // KECCAK256 of the concrete inputs is computed (the fair fill's hash).
    let call = Call::abi(&mut terms, program.selector, &[s]).hashes_as_variables();
    let mut at = Snapshot {
        pc: 0,
        stack: Vec::new(),
        memory: Vec::new(),
    };
    let mut states = Vec::new();
    loop {
        let (segments, _) = exec::execute_from(
            &mut terms,
            program.code,
            &call,
            Limits::default(),
            &at,
            cuts,
        )?;
        // Concrete inputs: no branch depends on a variable, so one path.
        let segment = segments.into_iter().next().expect("one path");
        match segment.reached {
            Reached::Cut(next) => {
                let value = |t: TermId| terms.as_const(t).expect("concrete run");
                states.push(ConcreteState {
                    pc: next.pc,
                    stack: next.stack.iter().map(|&t| value(t)).collect(),
                    memory: next.memory.iter().map(|&t| value(t)).collect(),
                });
                at = next;
            }
            Reached::Ended(o) => {
                let value = |t: TermId| terms.as_const(t).expect("concrete run");
                let mut end = vec![value(o.success), value(o.len)];
                end.extend(o.words.iter().map(|&w| value(w)));
                return Ok((states, end));
            }
        }
    }
}

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
        let values: Vec<U256> = self
            .terms
            .var_names()
            .iter()
            .map(|n| {
                model
                    .iter()
                    .find(|(m, _)| m == n)
                    .map_or(U256::ZERO, |(_, v)| *v)
            })
            .collect();
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
    let vars: Vec<U256> = terms
        .var_names()
        .iter()
        .map(|n| {
            model
                .iter()
                .find(|(m, _)| m == n)
                .map_or(U256::ZERO, |(_, v)| *v)
        })
        .collect();
    let mut memo = HashMap::new();
    let mut eval = |t: TermId| terms.eval_memo(t, &vars, &mut memo);
    ConcreteState {
        pc: snapshot.pc,
        stack: snapshot.stack.iter().map(|&t| eval(t)).collect(),
        memory: snapshot.memory.iter().map(|&t| eval(t)).collect(),
    }
}

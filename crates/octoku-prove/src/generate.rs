//! `generate`'s fill, proved equal to the reference `_fill` from bytecode, one
//! class of seeds at a time.
//!
//! The reference loop draws 6-bit chunks `c_j = (seed >> 6j) & 63` from the
//! low end of the seed. A draw is *fresh* when its cell is still empty (c_j
//! differs from every earlier chunk) and a *redraw* otherwise; the loop stops
//! after the 8th fresh draw, or when the seed is spent (no non-zero bits left
//! before a draw). So every seed has one [`Pattern`]: the fresh/redraw flags
//! of its draws and how the loop ended. The seeds of one pattern are given by
//! a formula over the chunks ([`Pattern::condition`]), and they all run the
//! same path through the reference's bytecode.
//!
//! For each pattern, both contracts are executed symbolically along the path
//! of a witness seed of the pattern ([`exec::execute_guided`]): the terms are
//! symbolic, the branches are those the witness takes, and the path
//! condition is kept. One query per pattern asks whether some seed of the
//! pattern leaves those paths or gets different boards on them; `unsat`
//! proves the two fills equal on every seed of the pattern. A model that
//! leaves the paths (possible where the implementation branches on things
//! the pattern does not fix) becomes one more witness, and the query is asked
//! again with every path found so far; a model on which the contracts differ
//! is replayed in revm.
//!
//! docs/proofs/generate.md has the classes proved and the figures.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alloy_primitives::Address;
use octoku_core::U256;
use octoku_core::octoku::generate::seed_of;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, RawOutcome};

use crate::engine::{self, ProveError, QueryDir, deployer};
use crate::exec::{self, Call, Guided, Limits, Outcome};
use crate::program::{Input, Program};
use crate::smt;
use crate::solver::{Answer, Solver};
use crate::term::{Bin, TermId, Terms};
use crate::validate::{self, Agreement, Validated};

/// Digits the fill places.
const DIGITS: usize = 8;

/// Chunks in a seed: 42 of 6 bits and a 43rd of 4.
const CHUNKS: usize = 43;

/// How the reference loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The seed is 0: no draw at all.
    Zero,
    /// The 8th fresh draw placed digit 8 (the seed may have bits left).
    Full,
    /// The seed was spent after the last draw with fewer than 8 fresh draws
    /// (the seed has exactly as many chunks as draws).
    Spent,
}

/// The fresh/redraw flags of a seed's draws and how the loop ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// `fresh[j]`: draw j lands on an empty cell.
    pub fresh: Vec<bool>,
    /// How the loop ended.
    pub ending: Ending,
}

impl Pattern {
    /// Draws that land on a filled cell.
    pub fn redraws(&self) -> usize {
        self.fresh.iter().filter(|&&f| !f).count()
    }

    /// A short name: `zero`, or `full-` / `spent-` and one letter per draw
    /// (F fresh, R redraw).
    pub fn name(&self) -> String {
        let flags: String = self
            .fresh
            .iter()
            .map(|&f| if f { 'F' } else { 'R' })
            .collect();
        match self.ending {
            Ending::Zero => "zero".to_string(),
            Ending::Full => format!("full-{flags}"),
            Ending::Spent => format!("spent-{flags}"),
        }
    }

    /// The seeds of this pattern, as a 0/1 term over `seed`: the chunk of
    /// every fresh draw differs from the chunks of all earlier fresh draws,
    /// the chunk of every redraw equals one of them, and
    /// - `Zero`: seed = 0;
    /// - `Full` with D draws: seed >> 6(D-1) != 0 (draw D-1 happens);
    /// - `Spent` with D draws: seed >> 6(D-1) != 0 and seed >> 6D = 0.
    pub fn condition(&self, terms: &mut Terms, seed: TermId) -> TermId {
        let zero = terms.small(0);
        let mut acc = terms.small(1);
        let d = self.fresh.len();
        match self.ending {
            Ending::Zero => {
                let z = terms.is_zero(seed);
                return terms.and_bool(acc, z);
            }
            Ending::Full | Ending::Spent => {
                let last = shifted(terms, seed, 6 * (d - 1));
                let drawn = terms.to_bool(last);
                acc = terms.and_bool(acc, drawn);
                if self.ending == Ending::Spent {
                    let rest = shifted(terms, seed, 6 * d);
                    let spent = terms.is_zero(rest);
                    acc = terms.and_bool(acc, spent);
                }
            }
        }
        let chunks: Vec<TermId> = (0..d).map(|j| chunk(terms, seed, j)).collect();
        for j in 0..d {
            let earlier: Vec<TermId> = (0..j)
                .filter(|&f| self.fresh[f])
                .map(|f| terms.bin(Bin::Eq, chunks[j], chunks[f]))
                .collect();
            let hit = earlier.into_iter().fold(zero, |a, e| terms.or_bool(a, e));
            let literal = if self.fresh[j] {
                terms.is_zero(hit)
            } else {
                hit
            };
            acc = terms.and_bool(acc, literal);
        }
        acc
    }

    /// A seed of this pattern, its free choices drawn from `rng`: fresh
    /// chunks distinct and non-zero (but chunk 0 is 0 when `cell_zero` and
    /// there are two draws or more, so that cell 0 is filled), each redraw a
    /// copy of an earlier fresh chunk, and for `Full` the chunks after the
    /// last draw random.
    pub fn witness(&self, rng: &mut SplitMix64, cell_zero: bool) -> U256 {
        let mut used: Vec<u64> = Vec::new();
        let mut seed = U256::ZERO;
        let last = self.fresh.len().saturating_sub(1);
        // Chunk 0 can be 0 unless the seed would then end before its last
        // draw: that draw is non-zero, so a last redraw needs a non-zero
        // fresh chunk to copy.
        let cell_zero = cell_zero
            && last > 0
            && (self.fresh[last] || self.fresh[..last].iter().filter(|&&f| f).count() >= 2);
        for (j, &fresh) in self.fresh.iter().enumerate() {
            let bound = if j == CHUNKS - 1 { 16 } else { 64 };
            // A redraw as the last draw copies chunk 0 only if it is non-zero.
            let zero_ok = |c: &u64| *c != 0 || j != last;
            let c = if fresh && j == 0 && cell_zero {
                0
            } else if !fresh && used.iter().any(zero_ok) {
                let choices: Vec<u64> = used.iter().copied().filter(|c| zero_ok(c)).collect();
                choices[rng.below(choices.len() as u64) as usize]
            } else if fresh {
                loop {
                    let c = 1 + rng.below(bound - 1);
                    if !used.contains(&c) {
                        break c;
                    }
                }
            } else {
                unreachable!("a redraw has a non-zero fresh chunk to copy")
            };
            if fresh {
                used.push(c);
            }
            seed |= U256::from(c) << (6 * j);
        }
        if self.ending == Ending::Full {
            for j in self.fresh.len()..CHUNKS {
                let bound = if j == CHUNKS - 1 { 16 } else { 64 };
                seed |= U256::from(rng.below(bound)) << (6 * j);
            }
        }
        seed
    }
}

fn shifted(terms: &mut Terms, seed: TermId, bits: usize) -> TermId {
    let k = terms.small(bits as u64);
    terms.bin(Bin::Shr, seed, k)
}

/// Chunk j of the seed, `(seed >> 6j) & 63`, as a term.
fn chunk(terms: &mut Terms, seed: TermId, j: usize) -> TermId {
    let s = shifted(terms, seed, 6 * j);
    let mask = terms.small(63);
    terms.bin(Bin::And, s, mask)
}

/// The pattern of a concrete seed: the reference loop, run on its chunks.
pub fn pattern_of(seed: U256) -> Pattern {
    if seed.is_zero() {
        return Pattern {
            fresh: Vec::new(),
            ending: Ending::Zero,
        };
    }
    let mut filled = [false; 64];
    let mut fresh = Vec::new();
    let mut placed = 0;
    let mut s = seed;
    while !s.is_zero() && placed < DIGITS {
        let c = (s & U256::from(63u8)).to::<usize>();
        s >>= 6;
        let new = !filled[c];
        filled[c] = true;
        fresh.push(new);
        if new {
            placed += 1;
        }
    }
    let ending = if placed == DIGITS {
        Ending::Full
    } else {
        Ending::Spent
    };
    Pattern { fresh, ending }
}

/// Every pattern with at most `max_redraws` redraws, in order of redraws,
/// then ending, then flags: the zero seed; `Full` with 8 + r draws (draw 0
/// and the last fresh, r redraws among the others); `Spent` with D draws,
/// D = 1 ..= 7 + max_redraws, at most 7 fresh and at most `max_redraws`
/// redraws (draw 0 is always fresh). Every seed whose reference fill makes
/// at most `max_redraws` redraws has exactly one of them.
pub fn patterns(max_redraws: usize) -> Vec<Pattern> {
    let mut out = vec![Pattern {
        fresh: Vec::new(),
        ending: Ending::Zero,
    }];
    for r in 0..=max_redraws {
        let d = DIGITS + r;
        for flags in flag_sets(d - 2, r) {
            let mut fresh = vec![true];
            fresh.extend(flags);
            fresh.push(true);
            out.push(Pattern {
                fresh,
                ending: Ending::Full,
            });
        }
        for d in 1..=(DIGITS - 1 + r).min(CHUNKS) {
            for flags in flag_sets(d - 1, r) {
                let mut fresh = vec![true];
                fresh.extend(flags);
                if fresh.iter().filter(|&&f| f).count() < DIGITS {
                    out.push(Pattern {
                        fresh,
                        ending: Ending::Spent,
                    });
                }
            }
        }
    }
    out
}

/// All flag vectors of length `n` with exactly `r` false entries.
fn flag_sets(n: usize, r: usize) -> Vec<Vec<bool>> {
    if r > n {
        return Vec::new();
    }
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for mut rest in flag_sets(n - 1, r) {
        rest.insert(0, true);
        out.push(rest);
    }
    if r > 0 {
        for mut rest in flag_sets(n - 1, r - 1) {
            rest.insert(0, false);
            out.push(rest);
        }
    }
    out
}

/// What the implementation is compared with the reference on (in a
/// report's JSON: "board" or "cells").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compare {
    /// The whole call result: success, length and the board word.
    Board,
    /// Success, length, and which cells are filled (the non-zero nibbles of
    /// the board): the choice of cells, not the digits in them. For the fair
    /// fill, whose digits come from a hash.
    Cells,
}

impl Compare {
    /// What "equal" means, in words: "the same board" or "the same filled
    /// cells".
    pub fn sameness(self) -> &'static str {
        match self {
            Compare::Board => "the same board",
            Compare::Cells => "the same filled cells",
        }
    }
}

/// How one pattern ended up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseResult {
    /// Equal on every seed of the pattern (the solver answered unsat).
    Proved,
    /// The solver gave up within the time limit.
    Undecided,
    /// Every model found lay on paths already covered or its hash value is
    /// not the real hash: no progress; nothing is claimed.
    Stuck,
    /// A seed on which the two contracts differ in revm.
    Counterexample(U256),
}

/// One pattern's proof.
#[derive(Debug, Clone)]
pub struct Case {
    /// The pattern.
    pub pattern: Pattern,
    /// Its result.
    pub result: CaseResult,
    /// Paths of the reference and of the implementation used.
    pub paths: (usize, usize),
    /// Solver rounds (queries asked).
    pub rounds: usize,
    /// Solver check time over its rounds.
    pub check: Duration,
    /// Size of its last query in bytes.
    pub query_bytes: usize,
}

/// A concrete difference: replayed in revm, or (a generate(address) proof
/// whose model's hash value is not the real keccak256 of its address)
/// evaluated from the path terms.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The seed (for generate(address), the hash value the fill ran on).
    pub seed: U256,
    /// For generate(address): the address whose real keccak256 is `seed`,
    /// replayed in revm; `None` when no such address is known (the results
    /// are then the path terms evaluated, `gas` 0, and do not replay).
    pub address: Option<Address>,
    /// The pattern it belongs to.
    pub pattern: String,
    /// The reference harness's result.
    pub reference: RawOutcome,
    /// The implementation harness's result.
    pub implementation: RawOutcome,
}

/// A finished run over all patterns up to some number of redraws.
#[derive(Debug, Clone)]
pub struct GenerateReport {
    /// The largest number of redraws in the class.
    pub max_redraws: usize,
    /// What was compared.
    pub compare: Compare,
    /// Every pattern's result.
    pub cases: Vec<Case>,
    /// The first counterexample, if any.
    pub counterexample: Option<Counterexample>,
    /// Directory of the query files.
    pub query: PathBuf,
    /// Solver name and version.
    pub solver: String,
    /// Symbolic execution time (all paths of all patterns).
    pub exec_time: Duration,
    /// Sum of the solver's check times.
    pub check_time: Duration,
    /// Wall time of the solver processes.
    pub solve_time: Duration,
    /// When every pattern was proved: both fills' terms checked against
    /// revm on seeds of the class ([`crate::validate`]).
    pub validated: Option<Validated>,
}

impl GenerateReport {
    /// Whether every pattern was proved (and the proof validated).
    pub fn proved(&self) -> bool {
        self.validated.is_some() && self.cases.iter().all(|c| c.result == CaseResult::Proved)
    }

    /// Number of patterns with this result kind.
    pub fn count(&self, pred: impl Fn(&CaseResult) -> bool) -> usize {
        self.cases.iter().filter(|c| pred(&c.result)).count()
    }
}

impl fmt::Display for GenerateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let proved = self.count(|r| *r == CaseResult::Proved);
        write!(
            f,
            "{} of {} patterns proved (at most {} redraws), {} ({:.1} s of checks, {:.1} s solver wall, {:.2} s execution)",
            proved,
            self.cases.len(),
            self.max_redraws,
            self.solver,
            self.check_time.as_secs_f64(),
            self.solve_time.as_secs_f64(),
            self.exec_time.as_secs_f64()
        )
    }
}

/// The stream of [`SplitMix64`] the witnesses are drawn from.
const WITNESS_STREAM: u64 = 0x6f63_746f_6b75;

/// Random hash values a hash-only word is evaluated on to guess its byte
/// ranges (then proved by a lemma query).
const RANGE_SAMPLES: usize = 4096;

/// Rounds (model-guided refinements) per pattern before it is given up.
const MAX_ROUNDS: usize = 6;

/// In a `generate(address)` proof, the instructions a guided run may spend
/// running both sides of one branch until they rejoin
/// ([`Limits::merge_steps`]): an author's contract branches on a drawn cell
/// where the reference shifts (solc's checked `16 ** cell` tests
/// `cell == 0`, `cell < 32` and each bit of the exponent), and those sides
/// rejoin within a few hundred instructions.
const MERGE_STEPS: u64 = 20_000;

/// Leaves an if-then-else tree of constants may grow to when operations
/// are folded into it ([`Terms::fold_constant_ites`]): the 6 bits of a
/// drawn cell give 64 values, and solc's `16 ** cell` is a tree of about
/// 100 (`cell == 0`, the 32 values below 32, the bits of the larger ones).
const FOLD_LEAVES: usize = 256;

struct Pending {
    pattern: Pattern,
    condition: TermId,
    reference: Vec<Guided>,
    implementation: Vec<Guided>,
    rounds: usize,
    check: Duration,
    query_bytes: usize,
    result: Option<CaseResult>,
}

/// Proves `implementation`'s fill equal to `reference`'s on every seed whose
/// reference fill makes at most `max_redraws` redraws, one query per
/// [`Pattern`], written under `query`. Both programs take the same
/// [`Input`]:
///
/// - [`Input::Seed`] (the harnesses: `reference` is the reference harness's
///   `_fill`): KECCAK256 in the implementation is a free variable (the fair
///   fill; see [`Call::hashes_as_variables`]), words computed from such
///   variables alone are replaced by variables bounded by lemmas the solver
///   proves first, and remainders by constants by bounded variables: each
///   step only widens the set of values the query ranges over, so `unsat`
///   still proves the claim.
/// - [`Input::Address`] (`generate(address)` of two runtimes, the reference's
///   and an author's): the claim holds for every address whose seed,
///   keccak256 of its 20 bytes, has a reference fill with at most
///   `max_redraws` redraws. keccak256 is an unknown function of its input
///   bytes: both contracts hash the address, and when they hash the same
///   bytes they get the same variable `h`; each [`Pattern`] is a condition on
///   `h`, and an `unsat` holds for every value of `h`, the real hash among
///   them. A contract that hashes other bytes (or more than once) gets other
///   variables, and its patterns end [`CaseResult::Stuck`] rather than
///   proved. A model whose `h` is the real hash of its address is replayed
///   in revm; otherwise the difference is evaluated from the path terms and
///   [`Counterexample::address`] is `None`.
pub fn prove_generate(
    reference: Program<'_>,
    implementation: Program<'_>,
    compare: Compare,
    max_redraws: usize,
    query: &Path,
    solver: &Solver,
) -> Result<GenerateReport, ProveError> {
    prove_patterns(
        reference,
        implementation,
        compare,
        patterns(max_redraws),
        query,
        solver,
    )
}

/// An address the hash variable is first met on (any address will do).
const PROBE: Address = Address::repeat_byte(0x0c);

/// 2^160: addresses are below it.
fn address_bound() -> U256 {
    U256::from(1u8) << 160
}

/// [`prove_generate`] on the given patterns only (the report's
/// `max_redraws` is the largest number of redraws among them).
pub fn prove_patterns(
    reference: Program<'_>,
    implementation: Program<'_>,
    compare: Compare,
    list: Vec<Pattern>,
    query: &Path,
    solver: &Solver,
) -> Result<GenerateReport, ProveError> {
    let max_redraws = list.iter().map(Pattern::redraws).max().unwrap_or(0);
    let mut proof = PatternProof::new(reference, implementation, compare, query)?;
    let mut pending = proof.first_paths(list)?;
    while proof.round(&mut pending, solver)? {}
    proof.report(pending, max_redraws)
}

/// The state of [`prove_patterns`]: both programs' calls on one argument,
/// the seed the patterns are conditions on, revm for replays, the query
/// directory, the lemmas proved so far and the figures.
struct PatternProof<'p> {
    reference: Program<'p>,
    implementation: Program<'p>,
    compare: Compare,
    input: Input,
    query: &'p Path,
    terms: Terms,
    /// The argument variable (the seed or the address).
    arg: TermId,
    ref_call: Call,
    imp_call: Call,
    limits: Limits,
    /// The seed the patterns are conditions on: the argument, or the
    /// variable of the reference's one hash (met on a probe run).
    seed: TermId,
    seed_name: String,
    /// The variable index of `seed`.
    seed_index: usize,
    /// The argument's range (an address below 2^160), a 0/1 term.
    arg_bound: TermId,
    machine: Machine,
    /// The reference's and the implementation's addresses in `machine`.
    addresses: [Address; 2],
    queries: QueryDir,
    solver_name: String,
    exec_time: Duration,
    solve_time: Duration,
    check_time: Duration,
    counterexample: Option<Counterexample>,
    /// Hash-only words and their proved byte ranges (None: not proved).
    lemmas: HashMap<TermId, Option<(TermId, TermId)>>,
    lemma_rng: SplitMix64,
}

impl<'p> PatternProof<'p> {
    /// The calls, the seed, both programs deployed in revm and the query
    /// directory emptied of an earlier run's queries.
    fn new(
        reference: Program<'p>,
        implementation: Program<'p>,
        compare: Compare,
        query: &'p Path,
    ) -> Result<PatternProof<'p>, ProveError> {
        let input = reference.input;
        if implementation.input != input {
            return Err(ProveError::Inconclusive {
                why: "the two programs take different inputs (a seed and an address)",
                query: query.to_path_buf(),
            });
        }
        let mut terms = Terms::new();
        let arg = terms.var(match input {
            Input::Seed => "seed",
            Input::Address => "address",
        });
        let (ref_call, imp_call) = match input {
            Input::Seed => (
                reference.call(&mut terms, arg),
                implementation.call(&mut terms, arg).hashes_as_variables(),
            ),
            Input::Address => (
                reference.call(&mut terms, arg).hashes_from_witness(),
                implementation.call(&mut terms, arg).hashes_from_witness(),
            ),
        };
        let limits = match input {
            Input::Seed => Limits::default(),
            Input::Address => Limits {
                merge_steps: MERGE_STEPS,
                ..Limits::default()
            },
        };
        let (seed, seed_name, arg_bound) = match input {
            Input::Seed => (arg, "seed".to_string(), terms.small(1)),
            Input::Address => hash_seed(&mut terms, reference, &ref_call, limits, arg, query)?,
        };
        let seed_index = match terms.node(seed) {
            crate::term::Node::Var(n) => n as usize,
            _ => unreachable!("the seed is a variable"),
        };
        let mut machine = Machine::new()?;
        let mut deploy =
            |code: &[u8]| -> Result<Address, ProveError> { Ok(machine.deploy(&deployer(code))?.0) };
        let addresses = [deploy(reference.code)?, deploy(implementation.code)?];
        let mut queries = QueryDir::open(query)?;
        // Queries of an earlier run (perhaps of a wider class) would be mistaken
        // for this run's.
        queries.clear("smt2")?;
        Ok(PatternProof {
            reference,
            implementation,
            compare,
            input,
            query,
            terms,
            arg,
            ref_call,
            imp_call,
            limits,
            seed,
            seed_name,
            seed_index,
            arg_bound,
            machine,
            addresses,
            queries,
            solver_name: String::new(),
            exec_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            check_time: Duration::ZERO,
            counterexample: None,
            lemmas: HashMap::new(),
            lemma_rng: SplitMix64::new(WITNESS_STREAM),
        })
    }

    /// Both contracts' guided runs on one witness: (reference,
    /// implementation).
    fn run(&mut self, witness: &[U256]) -> Result<(Guided, Guided), ProveError> {
        let began = Instant::now();
        let mut guided = |fill: Program<'_>, call: &Call, which: &'static str| {
            exec::execute_guided(&mut self.terms, fill.code, call, self.limits, witness)
                .map_err(|error| ProveError::Exec { which, error })
        };
        let r = guided(self.reference, &self.ref_call, "reference")?;
        let i = guided(self.implementation, &self.imp_call, "implementation")?;
        self.exec_time += began.elapsed();
        Ok((r, i))
    }

    /// The witness values of a run: the argument, and in an address proof
    /// the hash variable's value (the seed the fill runs on).
    fn values(&self, address: U256, s: U256) -> Vec<U256> {
        match self.input {
            Input::Seed => vec![s],
            Input::Address => {
                let mut v = vec![U256::ZERO; self.seed_index + 1];
                v[0] = address;
                v[self.seed_index] = s;
                v
            }
        }
    }

    /// Each pattern's condition and the paths of two witnesses of it.
    fn first_paths(&mut self, list: Vec<Pattern>) -> Result<Vec<Pending>, ProveError> {
        let probe = U256::from_be_slice(PROBE.as_slice());
        let mut pending: Vec<Pending> = Vec::new();
        for (k, pattern) in list.into_iter().enumerate() {
            let mut rng = SplitMix64::for_index(WITNESS_STREAM, k as u64);
            let condition = pattern.condition(&mut self.terms, self.seed);
            let condition = self.terms.and_bool(self.arg_bound, condition);
            // Two witnesses: cell 0 empty and filled (the golfed fast path reads
            // cell 0 once the seed is spent, so its path depends on that).
            let mut refs: Vec<Guided> = Vec::new();
            let mut imps: Vec<Guided> = Vec::new();
            for cell_zero in [false, true] {
                let witness = pattern.witness(&mut rng, cell_zero);
                debug_assert_eq!(pattern_of(witness), pattern);
                let values = self.values(probe, witness);
                let (r, i) = self.run(&values)?;
                add_path(&mut refs, r);
                add_path(&mut imps, i);
            }
            pending.push(Pending {
                pattern,
                condition,
                reference: refs,
                implementation: imps,
                rounds: 0,
                check: Duration::ZERO,
                query_bytes: 0,
                result: None,
            });
        }
        Ok(pending)
    }

    /// One round over the open patterns: the lemmas their claims need, one
    /// query each, and each answer recorded. False when none was open.
    fn round(&mut self, pending: &mut [Pending], solver: &Solver) -> Result<bool, ProveError> {
        let open: Vec<usize> = (0..pending.len())
            .filter(|&k| pending[k].result.is_none())
            .collect();
        if open.is_empty() {
            return Ok(false);
        }
        let claims: Vec<TermId> = open
            .iter()
            .map(|&k| case_claim(&mut self.terms, &pending[k], self.compare))
            .collect();
        self.prove_lemmas(&claims, solver)?;
        let mut files = Vec::new();
        for (&k, &claim) in open.iter().zip(&claims) {
            files.push(self.write_claim(&mut pending[k], claim)?);
        }
        let began = Instant::now();
        let answers = solver.solve_batch(&files)?;
        self.solve_time += began.elapsed();
        for (&k, solved) in open.iter().zip(answers) {
            self.solver_name.clone_from(&solved.solver);
            self.check_time += solved.check;
            let p = &mut pending[k];
            p.rounds += 1;
            p.check += solved.check;
            match solved.answer {
                Answer::Unsat => p.result = Some(CaseResult::Proved),
                Answer::Unknown => p.result = Some(CaseResult::Undecided),
                Answer::Sat(model) => self.follow_model(p, &model)?,
            }
        }
        Ok(true)
    }

    /// Hash-only words: replace each by a variable bounded by its byte
    /// ranges, once a lemma query proves the ranges for every value of the
    /// hash (sound: the real word is one value of the variable).
    fn prove_lemmas(&mut self, claims: &[TermId], solver: &Solver) -> Result<(), ProveError> {
        let terms = &mut self.terms;
        let mut lemma_files = Vec::new();
        let mut lemma_parts = Vec::new();
        for &claim in claims {
            for x in hash_parts(terms, claim, &[self.arg, self.seed]) {
                if self.lemmas.contains_key(&x) || lemma_parts.iter().any(|&(y, _, _)| y == x) {
                    continue;
                }
                let v = terms.var_shared(&format!("part_{}", x.index()));
                let ranges = sampled_ranges(terms, x, v, &mut self.lemma_rng);
                let own = substitute(terms, ranges, &HashMap::from([(v, x)]));
                let broken = terms.is_zero(own);
                let lemma = abstract_remainders(terms, broken);
                let header = vec![
                    "octoku: generate, a lemma about a word computed from the hash alone"
                        .to_string(),
                    format!(
                        "Satisfiable exactly when term t{} leaves the byte ranges seen on {RANGE_SAMPLES} random hashes.",
                        x.index()
                    ),
                ];
                let text = smt::nonzero_query(terms, lemma, &header);
                lemma_files.push(
                    self.queries
                        .write(&format!("lemma-t{}.smt2", x.index()), &text)?,
                );
                lemma_parts.push((x, v, ranges));
            }
        }
        if !lemma_files.is_empty() {
            let began = Instant::now();
            let answers = solver.solve_batch(&lemma_files)?;
            self.solve_time += began.elapsed();
            for ((x, v, ranges), solved) in lemma_parts.into_iter().zip(answers) {
                self.check_time += solved.check;
                let proved = solved.answer == Answer::Unsat;
                self.lemmas.insert(x, proved.then_some((v, ranges)));
            }
        }
        Ok(())
    }

    /// The query of pattern `p`'s `claim`, its proved hash-only words
    /// replaced by their bounded variables, written to its file.
    fn write_claim(&mut self, p: &mut Pending, claim: TermId) -> Result<PathBuf, ProveError> {
        let terms = &mut self.terms;
        let mut map = HashMap::new();
        let mut bounds = terms.small(1);
        for x in hash_parts(terms, claim, &[self.arg, self.seed]) {
            if let Some(Some((v, ranges))) = self.lemmas.get(&x) {
                map.insert(x, *v);
                bounds = terms.and_bool(bounds, *ranges);
            }
        }
        let claim = substitute(terms, claim, &map);
        let claim = terms.and_bool(bounds, claim);
        // The fair fill's remainders by constants become bounded
        // variables; an author's contract may draw its cells with `%`,
        // where that would lose the draw itself, so its are kept, and
        // the tables of constants its merged branches leave (solc's
        // checked `16 ** cell`) are folded.
        let claim = match self.input {
            Input::Seed => abstract_remainders(terms, claim),
            Input::Address => terms.fold_constant_ites(claim, FOLD_LEAVES),
        };
        let header = vec![
            "octoku: generate, one pattern of draws".to_string(),
            format!(
                "Pattern {} ({} redraws): satisfiable exactly when a seed of the pattern",
                p.pattern.name(),
                p.pattern.redraws()
            ),
            format!(
                "leaves the {} reference and {} implementation paths found or gets different {} on them.",
                p.reference.len(),
                p.implementation.len(),
                match self.compare {
                    Compare::Board => "results",
                    Compare::Cells => "filled cells",
                }
            ),
        ];
        let text = smt::nonzero_query(terms, claim, &header);
        p.query_bytes = text.len();
        self.queries
            .write(&format!("{}.smt2", p.pattern.name()), &text)
    }

    /// A satisfying model of pattern `p`'s query: replayed (or its path
    /// terms evaluated), it is a counterexample when the contracts differ;
    /// else its paths are added for the next round (or the pattern is stuck).
    fn follow_model(
        &mut self,
        p: &mut Pending,
        model: &[(String, U256)],
    ) -> Result<(), ProveError> {
        let value = |name: &str| engine::model_value(model, name);
        let s = value(&self.seed_name);
        if pattern_of(s) != p.pattern {
            return Err(ProveError::Unsound(format!(
                "the model seed {s:#x} is not of pattern {} (it is {})",
                p.pattern.name(),
                pattern_of(s).name()
            )));
        }
        // The argument of a replay: the seed, or an address
        // whose real hash is the model's seed.
        let address = value("address");
        let replay = match self.input {
            Input::Seed => Some(s),
            Input::Address => {
                let a = Address::from_word(address.to_be_bytes::<32>().into());
                (address < address_bound() && seed_of(&a) == s).then_some(address)
            }
        };
        let values = self.values(address, s);
        let (r, i) = self.run(&values)?;
        let Some(runs) = self.results(s, replay, [&r, &i])? else {
            p.result = Some(CaseResult::Stuck);
            return Ok(());
        };
        if differ(&runs[0], &runs[1], self.compare) {
            p.result = Some(CaseResult::Counterexample(s));
            if self.counterexample.is_none() {
                let [r, i] = runs;
                self.counterexample = Some(Counterexample {
                    seed: s,
                    address: match self.input {
                        Input::Seed => None,
                        Input::Address => {
                            replay.map(|x| Address::from_word(x.to_be_bytes::<32>().into()))
                        }
                    },
                    pattern: p.pattern.name(),
                    reference: r,
                    implementation: i,
                });
            }
            return Ok(());
        }
        // The contracts agree on the model: it lies off the
        // paths found (or its hash variables are not the real
        // hash). Follow its real paths.
        let new_r = add_path(&mut p.reference, r);
        let new_i = add_path(&mut p.implementation, i);
        if !(new_r || new_i) || p.rounds >= MAX_ROUNDS {
            p.result = Some(CaseResult::Stuck);
        }
        Ok(())
    }

    /// Both contracts' results on the model of seed `s`: replayed in revm
    /// on the argument `replay` (after checking the path terms `guided`
    /// against revm), or the path terms evaluated when no argument is known
    /// to give the seed. None when the implementation hashes other bytes.
    fn results(
        &mut self,
        s: U256,
        replay: Option<U256>,
        guided: [&Guided; 2],
    ) -> Result<Option<[RawOutcome; 2]>, ProveError> {
        Ok(Some(match replay {
            Some(x) => {
                let runs = [
                    self.machine
                        .call_raw(self.addresses[0], self.reference.calldata(x))?,
                    self.machine
                        .call_raw(self.addresses[1], self.implementation.calldata(x))?,
                ];
                for (g, run) in guided.iter().zip(&runs) {
                    let got = engine::evaluate(&self.terms, &g.outcome, &g.values);
                    if got.0 != run.success || got.1 != run.output.as_ref() {
                        return Err(ProveError::Unsound(format!(
                            "the path terms of seed {s:#x} disagree with revm"
                        )));
                    }
                }
                runs
            }
            // The implementation hashes other bytes (its hash
            // variables are not the seed): evaluating its terms
            // on the model would not be its real result.
            None if self
                .terms
                .var_names()
                .iter()
                .any(|n| n.starts_with("keccak_") && *n != self.seed_name) =>
            {
                return Ok(None);
            }
            // No address is known to hash to the model's seed:
            // the results are the path terms, evaluated.
            None => guided.map(|g| {
                let (success, output) = engine::evaluate(&self.terms, &g.outcome, &g.values);
                RawOutcome {
                    success,
                    output: output.into(),
                    gas: 0,
                }
            }),
        }))
    }

    /// The report, once every pattern is decided; before "proved", both
    /// fills' terms against revm on seeds of the class proved.
    fn report(
        self,
        pending: Vec<Pending>,
        max_redraws: usize,
    ) -> Result<GenerateReport, ProveError> {
        let all_proved = self.counterexample.is_none()
            && pending.iter().all(|p| p.result == Some(CaseResult::Proved));
        let validated = if all_proved {
            let class: std::collections::HashSet<Pattern> =
                pending.iter().map(|p| p.pattern.clone()).collect();
            Some(validate::validate_fills(
                [self.reference, self.implementation],
                |seed| class.contains(&pattern_of(seed)),
                match self.compare {
                    Compare::Board => Agreement::Same,
                    Compare::Cells => Agreement::Cells,
                },
            )?)
        } else {
            None
        };
        let cases = pending
            .into_iter()
            .map(|p| Case {
                pattern: p.pattern,
                result: p.result.expect("every case decided"),
                paths: (p.reference.len(), p.implementation.len()),
                rounds: p.rounds,
                check: p.check,
                query_bytes: p.query_bytes,
            })
            .collect();
        Ok(GenerateReport {
            max_redraws,
            compare: self.compare,
            cases,
            counterexample: self.counterexample,
            query: self.query.to_path_buf(),
            solver: self.solver_name,
            exec_time: self.exec_time,
            check_time: self.check_time,
            solve_time: self.solve_time,
            validated,
        })
    }
}

/// In an address proof, the seed the patterns are conditions on: the
/// variable of the reference's one hash, met on a run of the probe address;
/// with its name and the argument's bound (below 2^160).
fn hash_seed(
    terms: &mut Terms,
    reference: Program<'_>,
    ref_call: &Call,
    limits: Limits,
    arg: TermId,
    query: &Path,
) -> Result<(TermId, String, TermId), ProveError> {
    let probe = U256::from_be_slice(PROBE.as_slice());
    let before = terms.var_names().len();
    exec::execute_guided(terms, reference.code, ref_call, limits, &[probe]).map_err(|error| {
        ProveError::Exec {
            which: "reference",
            error,
        }
    })?;
    let hashes: Vec<String> = terms.var_names()[before..]
        .iter()
        .filter(|n| n.starts_with("keccak_"))
        .cloned()
        .collect();
    let [name] = hashes.as_slice() else {
        return Err(ProveError::Inconclusive {
            why: "the reference's generate does not hash exactly once",
            query: query.to_path_buf(),
        });
    };
    let bound = terms.constant(address_bound());
    let below = terms.bin(Bin::Lt, arg, bound);
    Ok((terms.var_shared(name), name.clone(), below))
}

/// `path` added to `paths` unless a path with the same condition is there;
/// whether it was added.
fn add_path(paths: &mut Vec<Guided>, path: Guided) -> bool {
    let new = !paths.iter().any(|q| q.guard == path.guard);
    if new {
        paths.push(path);
    }
    new
}

/// "Some seed of the pattern leaves the paths found or gets different
/// results on them", as a 0/1 term.
fn case_claim(terms: &mut Terms, p: &Pending, compare: Compare) -> TermId {
    let (r_cover, r_out) = combine(terms, &p.reference);
    let (i_cover, i_out) = combine(terms, &p.implementation);
    let same = same_outcome(terms, &r_out, &i_out, compare);
    let covered = terms.and_bool(r_cover, i_cover);
    let good = terms.and_bool(covered, same);
    let bad = terms.is_zero(good);
    terms.and_bool(p.condition, bad)
}

/// The maximal sub-terms of `claim` that depend on some variable but on none
/// of `inputs` (the seed, or the address and its hash): in the fair fill, words computed from the hash alone
/// (its row, column and label tables).
fn hash_parts(terms: &Terms, claim: TermId, inputs: &[TermId]) -> Vec<TermId> {
    use crate::term::Node;
    // Per node: (depends on the seed, depends on any variable).
    let mut deps: HashMap<TermId, (bool, bool)> = HashMap::new();
    let mut stack = vec![(claim, false)];
    while let Some((t, ready)) = stack.pop() {
        if deps.contains_key(&t) {
            continue;
        }
        let children = terms.node(t).children();
        if !ready {
            stack.push((t, true));
            stack.extend(children.iter().map(|&c| (c, false)));
            continue;
        }
        let d = match terms.node(t) {
            Node::Const(_) => (false, false),
            Node::Var(_) => (inputs.contains(&t), true),
            _ => children.iter().fold((false, false), |acc, c| {
                let d = deps[c];
                (acc.0 || d.0, acc.1 || d.1)
            }),
        };
        deps.insert(t, d);
    }
    let mut parts = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![claim];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        match deps[&t] {
            (false, true) => {
                if !matches!(terms.node(t), crate::term::Node::Var(_)) {
                    parts.push(t);
                }
            }
            (true, _) => stack.extend(terms.node(t).children()),
            (false, false) => {}
        }
    }
    parts.sort();
    parts
}

/// What a hash-only word `x` was seen to be on random values of the
/// variables, as a 0/1 term over `v`: the bits that were always 0 are 0, the
/// bits that were always 1 are 1, and for every byte b whose range is not all
/// of 0..=255, lo_b <= byte b of v <= hi_b.
fn sampled_ranges(terms: &mut Terms, x: TermId, v: TermId, rng: &mut SplitMix64) -> TermId {
    let mut lo = [255u8; 32];
    let mut hi = [0u8; 32];
    let (mut any, mut all) = (U256::ZERO, U256::MAX);
    let vars = terms.var_names().len();
    for _ in 0..RANGE_SAMPLES {
        let values: Vec<U256> = (0..vars).map(|_| rng.u256()).collect();
        let word = terms.eval(x, &values);
        any |= word;
        all &= word;
        let w = word.to_be_bytes::<32>();
        for b in 0..32 {
            lo[b] = lo[b].min(w[b]);
            hi[b] = hi[b].max(w[b]);
        }
    }
    // Bits seen 0 on every sample stay 0, bits seen 1 stay 1 (alignment).
    let never = terms.constant(!any);
    let off = terms.bin(Bin::And, v, never);
    let mut acc = terms.is_zero(off);
    let always = terms.constant(all);
    let on = terms.bin(Bin::And, v, always);
    let kept = terms.bin(Bin::Eq, on, always);
    acc = terms.and_bool(acc, kept);
    let ff = terms.small(0xff);
    for b in 0..32 {
        if (lo[b], hi[b]) == (0, 255) {
            continue;
        }
        let k = terms.small(8 * (31 - b as u64));
        let sh = terms.bin(Bin::Shr, v, k);
        let byte = terms.bin(Bin::And, sh, ff);
        let l = terms.small(u64::from(lo[b]));
        let h = terms.small(u64::from(hi[b]));
        let below = terms.bin(Bin::Lt, byte, l);
        let above = terms.bin(Bin::Lt, h, byte);
        let out = terms.or_bool(below, above);
        let inside = terms.is_zero(out);
        acc = terms.and_bool(acc, inside);
    }
    acc
}

/// `root` rebuilt bottom-up, with every node for which `replace` gives a
/// term replaced by it (and not looked into).
fn rewrite(
    terms: &mut Terms,
    root: TermId,
    replace: impl FnMut(&mut Terms, TermId) -> Option<TermId>,
) -> TermId {
    terms.rebuild(root, replace, Terms::make)
}

/// `claim` with every sub-term in `map` replaced by its variable.
fn substitute(terms: &mut Terms, claim: TermId, map: &HashMap<TermId, TermId>) -> TermId {
    rewrite(terms, claim, |_, t| map.get(&t).copied())
}

/// `claim` with every remainder by a non-zero constant, `x mod c`, replaced
/// by a fresh variable `r` constrained to `r < c`, and those constraints
/// conjoined. Sound for an `unsat` answer: the real remainder is one value of
/// `r`, so a claim that no assignment satisfies stays unsatisfiable. (The
/// fair fill picks permutations by `mod 24` of its hash; the solver handles
/// the free choice below 24 far better than 256-bit remainder circuits.)
/// Terms without a remainder come back unchanged.
fn abstract_remainders(terms: &mut Terms, claim: TermId) -> TermId {
    use crate::term::Node;
    let mut ranges = terms.small(1);
    let abstracted = rewrite(terms, claim, |terms, t| match terms.node(t) {
        Node::Bin(Bin::Mod, _, b) if terms.as_const(b).is_some_and(|c| !c.is_zero()) => {
            let r = terms.var_shared(&format!("rem_{}", t.index()));
            let below = terms.bin(Bin::Lt, r, b);
            ranges = terms.and_bool(ranges, below);
            Some(r)
        }
        _ => None,
    });
    terms.and_bool(ranges, abstracted)
}

/// The disjunction of the paths' conditions, and the outcome of whichever
/// path holds (the last one where none does).
fn combine(terms: &mut Terms, paths: &[Guided]) -> (TermId, Outcome) {
    let mut cover = terms.small(0);
    let last = paths.last().expect("at least one path");
    let mut out = last.outcome.clone();
    for g in paths.iter().rev() {
        cover = terms.or_bool(cover, g.guard);
    }
    let width = paths
        .iter()
        .map(|g| g.outcome.words.len())
        .max()
        .unwrap_or(0);
    let zero = terms.small(0);
    out.words.resize(width, zero);
    for g in paths.iter().rev().skip(1) {
        let mut words = g.outcome.words.clone();
        words.resize(width, zero);
        out = Outcome {
            success: terms.ite(g.guard, g.outcome.success, out.success),
            len: terms.ite(g.guard, g.outcome.len, out.len),
            words: words
                .iter()
                .zip(&out.words)
                .map(|(&a, &b)| terms.ite(g.guard, a, b))
                .collect(),
        };
    }
    (cover, out)
}

/// The non-zero nibbles of a word, as bit 0 of each nibble.
fn filled_cells(terms: &mut Terms, w: TermId) -> TermId {
    let mut acc = w;
    for k in 1..4 {
        let s = terms.small(k);
        let x = terms.bin(Bin::Shr, w, s);
        acc = terms.bin(Bin::Or, acc, x);
    }
    let ones = terms.constant(U256::MAX / U256::from(15u8));
    terms.bin(Bin::And, acc, ones)
}

fn same_outcome(terms: &mut Terms, a: &Outcome, b: &Outcome, compare: Compare) -> TermId {
    let mut acc = terms.bin(Bin::Eq, a.success, b.success);
    let len = terms.bin(Bin::Eq, a.len, b.len);
    acc = terms.and_bool(acc, len);
    let zero = terms.small(0);
    let width = a.words.len().max(b.words.len());
    for k in 0..width {
        let x = a.words.get(k).copied().unwrap_or(zero);
        let y = b.words.get(k).copied().unwrap_or(zero);
        let (x, y) = match compare {
            Compare::Board => (x, y),
            Compare::Cells => (filled_cells(terms, x), filled_cells(terms, y)),
        };
        let e = terms.bin(Bin::Eq, x, y);
        acc = terms.and_bool(acc, e);
    }
    acc
}

fn differ(a: &RawOutcome, b: &RawOutcome, compare: Compare) -> bool {
    if a.success != b.success || a.output.len() != b.output.len() {
        return true;
    }
    match compare {
        Compare::Board => a.output != b.output,
        Compare::Cells => {
            a.output.iter().zip(b.output.iter()).any(|(x, y)| {
                ((x >> 4) == 0) != ((y >> 4) == 0) || ((x & 15) == 0) != ((y & 15) == 0)
            })
        }
    }
}

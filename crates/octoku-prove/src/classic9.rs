//! Equivalence of two 9×9 validators' `verify(bytes,bytes)` (and
//! `isValidSolution(bytes)`) on every pair of 81-byte grids, from their
//! runtime bytecode: a well-formed ABI call with concrete offsets and lengths
//! whose 81 bytes per argument are unknowns, a proof in six SMT queries
//! through the specifications of [`crate::spec9`], and a replay in revm of
//! any counterexample.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alloy_primitives::hex;
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::RawOutcome;
use octoku_evm::bindings::IClassic9;
use octoku_evm::classic9::{encode_is_valid, encode_verify};

pub use crate::engine::Figures;
use crate::engine::{self, Arg, Pair, ProveError, QueryDir, Shape};
use crate::exec::{Call, Outcome};
use crate::smt;
use crate::solver::{Answer, Solver};
use crate::spec9::{self, Cut};
use crate::term::{TermId, Terms};
use crate::validate::{self, Validated};

pub use crate::spec9::CELLS;

/// 32-byte words that hold one argument's 81 bytes (the last one 17 bytes).
const WORDS: usize = CELLS.div_ceil(32);

/// Which function of the 9×9 validators is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `verify(bytes start, bytes solution)`: 162 unknown bytes.
    Verify,
    /// `isValidSolution(bytes grid)`: 81 unknown bytes.
    IsValidSolution,
}

impl Function {
    /// The Solidity signature.
    pub fn signature(self) -> &'static str {
        match self {
            Function::Verify => IClassic9::verifyCall::SIGNATURE,
            Function::IsValidSolution => IClassic9::isValidSolutionCall::SIGNATURE,
        }
    }

    /// The names of the arguments, each 81 unknown bytes.
    pub fn arguments(self) -> &'static [&'static str] {
        match self {
            Function::Verify => &["start", "solution"],
            Function::IsValidSolution => &["grid"],
        }
    }

    /// The standard ABI encoding of a call with these 81-byte grids.
    pub fn calldata(self, grids: &[Vec<u8>]) -> Vec<u8> {
        match self {
            Function::Verify => encode_verify(&grids[0], &grids[1]),
            Function::IsValidSolution => encode_is_valid(&grids[0]),
        }
    }
}

/// The queries of a 9×9 proof, in the order they run.
pub const STEPS: [&str; 6] = [
    "cut-points",
    "implementation",
    "reference",
    "unit-lemma",
    "count-identities",
    "w-equals-v",
];

/// One query of a 9×9 proof, answered `unsat`.
#[derive(Debug, Clone)]
pub struct Step {
    /// Short name (also the query file's stem).
    pub name: &'static str,
    /// What its `unsat` shows.
    pub claim: String,
    /// The saved query.
    pub query: PathBuf,
    /// Its size in bytes.
    pub bytes: usize,
    /// Wall time of the solver run (process included).
    pub time: Duration,
}

/// A finished 9×9 equivalence check.
#[derive(Debug, Clone)]
pub struct Report {
    /// Which function was compared.
    pub function: Function,
    /// `None` when proved; else the differing grids and both replayed results.
    pub counterexample: Option<Counterexample>,
    /// When proved: both sides' terms checked against revm
    /// ([`crate::validate`]); a report says "proved" only with it.
    pub validated: Option<Validated>,
    /// Both sides, the queries (one file per step), the solver and the
    /// times (the steps' solver runs added up).
    pub figures: Figures,
    /// The queries answered `unsat`, in the order run (all six when proved).
    pub steps: Vec<Step>,
    /// Cut points used: what each node of the implementation's terms is.
    pub cuts: Vec<(Cut, String)>,
}

/// Grids on which the two contracts differ, as replayed in revm.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// One 81-byte grid per argument.
    pub grids: Vec<Vec<u8>>,
    /// The reference's concrete result.
    pub reference: RawOutcome,
    /// The implementation's concrete result.
    pub implementation: RawOutcome,
}

/// The call shape of `function`: each argument 81 bytes.
pub fn shape(function: Function) -> Shape {
    let args: Vec<(&str, Arg)> = function
        .arguments()
        .iter()
        .map(|&a| (a, Arg::Bytes(CELLS)))
        .collect();
    match function {
        Function::Verify => Shape::new::<IClassic9::verifyCall>(&args),
        Function::IsValidSolution => Shape::new::<IClassic9::isValidSolutionCall>(&args),
    }
}

/// A store whose variables are the argument words `name0`, `name1`, `name2`
/// of each argument (81 bytes = 32 + 32 + 17), and the call's calldata:
/// the standard encoding (the selector, one head word per argument (its
/// offset), then per argument its length word (81) and its 81 bytes padded
/// with zeros to 96), only the 81 data bytes unknown.
pub fn symbolic_call(function: Function) -> (Terms, Call) {
    shape(function).symbolic()
}

/// The argument grids from the values of the variables (in declaration order).
pub fn grids_of(function: Function, values: &[U256]) -> Vec<Vec<u8>> {
    values
        .chunks(WORDS)
        .take(function.arguments().len())
        .map(|words| {
            let mut grid: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes::<32>()).collect();
            grid.truncate(CELLS);
            grid
        })
        .collect()
}

/// Grids on which to evaluate the implementation's terms to find its cut
/// points: every solution byte 0..9 (the case the cut lemmas are about).
fn samples(function: Function) -> Vec<Vec<U256>> {
    let mut rng = SplitMix64::new(0x0c7_0c75);
    (0..24)
        .map(|_| {
            let grids: Vec<Vec<u8>> = function
                .arguments()
                .iter()
                .map(|_| (0..CELLS).map(|_| rng.below(10) as u8).collect())
                .collect();
            words_of(&grids)
        })
        .collect()
}

/// The variables' values (three words per argument) for these grids.
fn words_of(grids: &[Vec<u8>]) -> Vec<U256> {
    grids
        .iter()
        .flat_map(|g| {
            let mut padded = g.clone();
            padded.resize(32 * WORDS, 0);
            padded
                .chunks(32)
                .map(U256::from_be_slice)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Nodes of the implementation's terms (reachable from `roots`) that take
/// each cut point's value on every sample: candidates only, proved by a query.
fn find_cuts(
    terms: &Terms,
    roots: &[TermId],
    function: Function,
    grid_of: impl Fn(&[U256]) -> Vec<u8>,
) -> Vec<(Cut, TermId)> {
    let samples = samples(function);
    let nodes = smt::reachable(terms, roots);
    let mut memos: Vec<_> = samples.iter().map(|_| HashMap::new()).collect();
    let mut found = Vec::new();
    for cut in Cut::all() {
        let wanted: Vec<U256> = samples.iter().map(|v| cut.value(&grid_of(v))).collect();
        let mask = cut.mask();
        // The last matching node: the one the rest of the code uses.
        let hit = nodes.iter().rev().copied().find(|&t| {
            terms.as_const(t).is_none()
                && samples
                    .iter()
                    .zip(&mut memos)
                    .zip(&wanted)
                    .all(|((v, memo), w)| terms.eval_memo(t, v, memo) & mask == *w)
        });
        if let Some(t) = hit {
            found.push((cut, t));
        }
    }
    found
}

/// The queries of one proof as they are decided: where they are written,
/// the solver, and the steps answered `unsat` so far.
struct Steps<'a> {
    solver: &'a Solver,
    queries: QueryDir,
    done: Vec<Step>,
    solver_name: String,
}

impl Steps<'_> {
    /// Writes and decides the query `name`; `Ok(None)` for `unsat` (the
    /// step is recorded), `Ok(Some(values))` for a model.
    fn decide(
        &mut self,
        name: &'static str,
        claim: String,
        text: &str,
    ) -> Result<Option<Vec<(String, U256)>>, ProveError> {
        let query = self.queries.write(&format!("{name}.smt2"), text)?;
        let solved = self.solver.solve(&query)?;
        self.solver_name = solved.solver.clone();
        match solved.answer {
            Answer::Unsat => {
                self.done.push(Step {
                    name,
                    claim,
                    query,
                    bytes: text.len(),
                    time: solved.wall,
                });
                Ok(None)
            }
            Answer::Sat(values) => Ok(Some(values)),
            Answer::Unknown => Err(ProveError::Unknown {
                solver: solved.solver,
                query,
                claim,
                seconds: solved.wall.as_secs_f64(),
            }),
        }
    }
}

/// Proves `implementation`'s `function` equal to `reference`'s on every
/// choice of the 81-byte grids, or finds and replays grids where they
/// differ. The queries are written to the directory `dir` (created), one
/// file per step (see [`crate::spec9`]).
pub fn prove_equal(
    function: Function,
    reference: &[u8],
    implementation: &[u8],
    dir: &Path,
    title: &str,
    solver: &Solver,
) -> Result<Report, ProveError> {
    let began = Instant::now();
    let shape = shape(function);
    let (terms, call) = shape.symbolic();
    let pair = engine::execute_pair(terms, &call, reference, implementation)?;
    let (terms, ref_out, imp_out) = (&pair.terms, &pair.reference, &pair.implementation);
    let (ref_side, imp_side) = (pair.reference_side, pair.implementation_side);
    let args = function.arguments();
    let solution = args[args.len() - 1];
    let start = (args.len() == 2).then_some(args[0]);
    let grid_of = |values: &[U256]| grids_of(function, values).pop().expect("one grid");
    let imp_roots = smt::roots(imp_out);
    let cuts = find_cuts(terms, &imp_roots, function, grid_of);
    let exec_time = began.elapsed();
    let queries = QueryDir::open(dir)?;
    let text = QueryText {
        terms,
        function,
        title,
        spec: spec9::definitions(solution, start),
        width: ref_out.words.len().max(imp_out.words.len()),
    };
    let cut_names: Vec<(Cut, String)> = cuts
        .iter()
        .map(|(c, t)| (*c, smt::node_name(terms, *t)))
        .collect();
    let dir_path = dir.to_path_buf();
    let report = move |counterexample,
                       validated,
                       Steps {
                           done: steps,
                           solver_name: solver,
                           ..
                       }| Report {
        function,
        counterexample,
        validated,
        figures: Figures {
            reference: ref_side,
            implementation: imp_side,
            query: dir_path,
            query_bytes: steps.iter().map(|s| s.bytes).sum(),
            solve_time: steps.iter().map(|s| s.time).sum(),
            solver,
            exec_time,
        },
        steps,
        cuts: cut_names,
    };
    let mut steps = Steps {
        solver,
        queries,
        done: Vec::new(),
        solver_name: String::new(),
    };
    let cut_facts: Vec<String> = cuts
        .iter()
        .map(|(cut, t)| cut.fact(&smt::node_name(terms, *t)))
        .collect();
    prove_cut_points(&text, &mut steps, &imp_roots, &cuts, &cut_facts, dir)?;
    let w = if start.is_some() { "(and G W)" } else { "W" };
    if let Some(values) = prove_implementation(&text, &mut steps, imp_out, &cut_facts, w)? {
        // The implementation differs from W there: a counterexample if it
        // also differs from the reference.
        let grids = grids_of(function, &engine::model_values(terms, &values));
        let counterexample = replay_checked(&pair, &shape, (reference, implementation), grids)?;
        return match counterexample {
            Some(c) => Ok(report(Some(c), None, steps)),
            None => Err(ProveError::Inconclusive {
                why: "the implementation differs from the specification W on an input where it agrees with the reference, so this proof's decomposition does not apply",
                query: dir.join("implementation.smt2"),
            }),
        };
    }
    let v = if start.is_some() { "(and G V)" } else { "V" };
    prove_reference(&text, &mut steps, ref_out, v, dir)?;
    prove_w_equals_v(&mut steps, solution, dir)?;
    let validated = engine::validate_pair(
        &pair,
        &shape,
        (reference, implementation),
        &validate::grid_values(args.len()),
    )?;
    Ok(report(None, Some(validated), steps))
}

/// The text of one proof's queries: the terms, the specifications and the
/// header every query starts with.
struct QueryText<'a> {
    terms: &'a Terms,
    function: Function,
    title: &'a str,
    /// The specifications' definitions ([`spec9::definitions`]).
    spec: String,
    /// Data words of the wider outcome.
    width: usize,
}

impl QueryText<'_> {
    /// The header: the title, the call and the variables, then `lines`.
    fn header(&self, lines: &[&str]) -> Vec<String> {
        let mut h = vec![
            format!("octoku: {}", self.title),
            format!(
                "{} of the validators (no value, standard ABI encoding, each argument 81 bytes in the variables NAME0 NAME1 NAME2: bytes 0..31, 32..63, 64..80; arguments: {}).",
                self.function.signature(),
                self.function.arguments().join(", ")
            ),
            "Packed outcome: success (1 returned, 0 reverted or halted) ++ data length ++ data words. b0..b80: solution bytes, s0..s80: start bytes.".to_string(),
        ];
        h.extend(lines.iter().map(|l| l.to_string()));
        h
    }

    /// One query over the implementation's (or reference's) terms and the
    /// specifications: assumptions, then the goal whose negation is asserted.
    fn query(&self, roots: &[TermId], note: &str, facts: &[String], goal: &str) -> String {
        let mut text = smt::preamble(self.terms, roots, &self.header(&[note]));
        text.push_str(&self.spec);
        for fact in facts {
            writeln!(text, "(assert {fact})").expect("String");
        }
        writeln!(text, "(assert (not {goal}))\n(check-sat)\n(exit)").expect("String");
        text
    }

    /// "The packed outcome `o` is what the specification `predicate` returns".
    fn packed(&self, o: &Outcome, predicate: &str) -> String {
        format!(
            "(= {} {})",
            smt::packed(self.terms, o, self.width),
            spec9::returned(predicate, self.width)
        )
    }
}

/// Step 2: the cut points found on samples hold on every grid.
fn prove_cut_points(
    text: &QueryText<'_>,
    steps: &mut Steps<'_>,
    imp_roots: &[TermId],
    cuts: &[(Cut, TermId)],
    cut_facts: &[String],
    dir: &Path,
) -> Result<(), ProveError> {
    let query = text.query(
        imp_roots,
        "Cut points: nodes of the implementation's terms, per band; unsat = each equals its value over the bytes whenever the band's bytes are 0..9.",
        &[],
        &format!("(and true {})", cut_facts.join(" ")),
    );
    let claim = format!(
        "cut points of the implementation: {}",
        cuts.iter()
            .map(|(c, _)| c.describe())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if steps.decide("cut-points", claim, &query)?.is_some() {
        return Err(ProveError::Inconclusive {
            why: "a cut point found on sample grids does not hold on all grids",
            query: dir.join("cut-points.smt2"),
        });
    }
    Ok(())
}

/// Step 3: the implementation against `w` (W, or W under the start's
/// givens), with the cut points assumed; a model where it differs.
fn prove_implementation(
    text: &QueryText<'_>,
    steps: &mut Steps<'_>,
    imp_out: &Outcome,
    cut_facts: &[String],
    w: &str,
) -> Result<Option<Vec<(String, U256)>>, ProveError> {
    let query = text.query(
        &smt::roots(imp_out),
        "Implementation = specification W (1..8 in every unit, a 9 in every column), assuming the cut points (cut-points.smt2); unsat = equal on every input.",
        cut_facts,
        &text.packed(imp_out, w),
    );
    steps.decide(
        "implementation",
        format!("implementation = returned {w}"),
        &query,
    )
}

/// Step 1: the reference against `v` (V, or V under the start's givens).
fn prove_reference(
    text: &QueryText<'_>,
    steps: &mut Steps<'_>,
    ref_out: &Outcome,
    v: &str,
    dir: &Path,
) -> Result<(), ProveError> {
    let query = text.query(
        &smt::roots(ref_out),
        "Reference = specification V (1..9 in every row, column and box); unsat = equal on every input.",
        &[],
        &text.packed(ref_out, v),
    );
    if steps
        .decide("reference", format!("reference = returned {v}"), &query)?
        .is_some()
    {
        return Err(ProveError::Inconclusive {
            why: "the reference differs from the specification V",
            query: dir.join("reference.smt2"),
        });
    }
    Ok(())
}

/// Steps 4, 5, 6: W = V, from the unit lemma and the count identities
/// (facts about the specifications alone).
fn prove_w_equals_v(steps: &mut Steps<'_>, solution: &str, dir: &Path) -> Result<(), ProveError> {
    for (name, claim, text) in [
        (
            "unit-lemma",
            "nine bytes in 0..9 holding 1..8 hold at most one 9, exactly one iff 9 is among them, and then no 0",
            spec9::unit_lemma_query(),
        ),
        (
            "count-identities",
            "the count of 9s is the sum of the rows', the columns' and the boxes' counts",
            spec9::identities_query(solution),
        ),
        (
            "w-equals-v",
            "W = V, assuming the unit lemma for the 27 units and the count identities",
            spec9::equivalence_query(solution),
        ),
    ] {
        if steps.decide(name, claim.to_string(), &text)?.is_some() {
            return Err(ProveError::Unsound(format!(
                "the solver refutes {} ({claim}), a fact about the specifications alone",
                dir.join(format!("{name}.smt2")).display()
            )));
        }
    }
    Ok(())
}

/// The calls a 9×9 proof of `function` covers, in words.
pub fn domain(function: Function) -> String {
    let n = function.arguments().len();
    format!(
        "every call {} with {} 81-byte argument{} in the standard ABI encoding ({} bytes of calldata) and no value",
        function.signature(),
        if n == 2 { "two" } else { "one" },
        if n == 2 { "s" } else { "" },
        4 + 32 * n + n * (32 + 96)
    )
}

/// Replays `grids` in revm on both contracts (checking each side's terms
/// against revm) and returns the counterexample when the two differ.
fn replay_checked(
    pair: &Pair,
    shape: &Shape,
    codes: (&[u8], &[u8]),
    grids: Vec<Vec<u8>>,
) -> Result<Option<Counterexample>, ProveError> {
    let input = format!(
        "grids {}",
        grids.iter().map(hex::encode).collect::<Vec<_>>().join(", ")
    );
    let (r, i) = engine::replay_checked(pair, shape, codes, &words_of(&grids), &input)?;
    Ok(
        (r.success != i.success || r.output != i.output).then_some(Counterexample {
            grids,
            reference: r,
            implementation: i,
        }),
    )
}

//! Equivalence of two contracts' `verify(uint256,uint256)`, from their
//! runtime bytecode: symbolic execution of both, one SMT query, and a
//! concrete replay in revm of any counterexample.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alloy_primitives::{Bytes, hex};
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_evm::{Machine, RawOutcome, bindings::IPuzzle};

use crate::exec::{self, Call, Limits, Outcome, Stats};
use crate::smt;
use crate::solver::{self, Answer, Solver};
use crate::term::Terms;

/// The selector of `verify(uint256,uint256)`.
pub const VERIFY_SELECTOR: [u8; 4] = IPuzzle::verifyCall::SELECTOR;

/// What went wrong, short of an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// The executor refused one of the contracts.
    #[error("cannot execute the {which} symbolically: {error}")]
    Exec {
        /// Which contract.
        which: &'static str,
        /// Why.
        error: exec::ExecError,
    },
    /// The solver could not be run, or gave up.
    #[error("{0}")]
    Solver(String),
    /// The query file could not be written.
    #[error("{0}")]
    Io(String),
    /// A counterexample that does not reproduce in revm, or terms that
    /// disagree with revm: a bug in the prover.
    #[error("prover bug: {0}")]
    Unsound(String),
    /// revm itself failed.
    #[error("replay in revm failed: {0}")]
    Evm(String),
}

/// One contract's verify, executed symbolically.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// Executor counters.
    pub stats: Stats,
    /// Distinct term nodes reachable from its outcome.
    pub nodes: usize,
}

/// The answer to "do these two verify functions ever differ?".
#[derive(Debug, Clone)]
pub enum Verdict {
    /// They agree on all 2^512 inputs.
    Proved,
    /// They differ on this input, as replayed in revm.
    Counterexample {
        /// The `start` argument.
        start: U256,
        /// The `solution` argument.
        solution: U256,
        /// The reference's concrete result.
        reference: RawOutcome,
        /// The implementation's concrete result.
        implementation: RawOutcome,
    },
}

/// A finished equivalence check, with every figure a report needs.
#[derive(Debug, Clone)]
pub struct Report {
    /// Proved or refuted.
    pub verdict: Verdict,
    /// The reference side.
    pub reference: Side,
    /// The implementation side.
    pub implementation: Side,
    /// The directory of the saved queries (`digits.smt2`, `nondigit.smt2`).
    pub query: PathBuf,
    /// Size of the queries in bytes.
    pub query_bytes: usize,
    /// Solver name and version.
    pub solver: String,
    /// Wall time of the solver runs (both halves at once, processes included).
    pub solve_time: Duration,
    /// Time of the symbolic execution of both contracts.
    pub exec_time: Duration,
}

/// `verify(start, solution)` of `code`, with both arguments the variables
/// `start` and `solution` of `terms` (which must be variables 0 and 1).
pub fn verify_outcome(terms: &mut Terms, code: &[u8]) -> Result<(Outcome, Stats), exec::ExecError> {
    let start = terms.id_at(0);
    let solution = terms.id_at(1);
    let call = Call::abi(terms, VERIFY_SELECTOR, &[start, solution]);
    exec::execute(terms, code, &call, Limits::default())
}

/// A store whose variables 0 and 1 are `start` and `solution`.
pub fn verify_terms() -> Terms {
    let mut terms = Terms::new();
    terms.var("start");
    terms.var("solution");
    terms
}

/// The calldata of `verify(start, solution)`.
pub fn verify_calldata(start: U256, solution: U256) -> Bytes {
    IPuzzle::verifyCall { start, solution }.abi_encode().into()
}

/// Initcode that deploys `runtime` as is: CODECOPY it to memory 0 and return it.
pub fn deployer(runtime: &[u8]) -> Vec<u8> {
    let len = u16::try_from(runtime.len()).expect("runtime code below 64 KiB");
    let [hi, lo] = len.to_be_bytes();
    // PUSH2 len, PUSH1 14 (this prefix's length), PUSH1 0, CODECOPY,
    // PUSH2 len, PUSH1 0, RETURN.
    let mut code = vec![
        0x61, hi, lo, 0x60, 14, 0x60, 0x00, 0x39, 0x61, hi, lo, 0x60, 0x00, 0xf3,
    ];
    code.extend_from_slice(runtime);
    code
}

/// Runs `verify(start, solution)` of each runtime code in revm.
pub fn replay(codes: &[&[u8]], start: U256, solution: U256) -> Result<Vec<RawOutcome>, ProveError> {
    let mut machine = Machine::new().map_err(|e| ProveError::Evm(e.to_string()))?;
    let mut out = Vec::new();
    for code in codes {
        let (address, _) = machine
            .deploy(&deployer(code))
            .map_err(|e| ProveError::Evm(e.to_string()))?;
        out.push(
            machine
                .call_raw(address, verify_calldata(start, solution))
                .map_err(|e| ProveError::Evm(e.to_string()))?,
        );
    }
    Ok(out)
}

/// The outcome's terms evaluated at (start, solution), in revm's form.
pub fn evaluate(terms: &Terms, outcome: &Outcome, start: U256, solution: U256) -> (bool, Vec<u8>) {
    let vars = [start, solution];
    let mut memo = Default::default();
    let success = !terms.eval_memo(outcome.success, &vars, &mut memo).is_zero();
    let len = terms
        .eval_memo(outcome.len, &vars, &mut memo)
        .saturating_to::<usize>();
    let mut data = Vec::new();
    for &w in &outcome.words {
        data.extend_from_slice(&terms.eval_memo(w, &vars, &mut memo).to_be_bytes::<32>());
    }
    data.truncate(len);
    (success, data)
}

/// Proves `implementation`'s verify equal to `reference`'s on every input, or
/// finds and replays an input where they differ. The queries are written to
/// the directory `query` (created if missing).
pub fn prove_verify(
    reference: &[u8],
    implementation: &[u8],
    query: &Path,
    title: &str,
    solver: &Solver,
) -> Result<Report, ProveError> {
    let began = Instant::now();
    let mut terms = verify_terms();
    let (ref_out, ref_stats) =
        verify_outcome(&mut terms, reference).map_err(|error| ProveError::Exec {
            which: "reference",
            error,
        })?;
    let (imp_out, imp_stats) =
        verify_outcome(&mut terms, implementation).map_err(|error| ProveError::Exec {
            which: "implementation",
            error,
        })?;
    let exec_time = began.elapsed();
    let side = |o: &Outcome, stats| {
        let mut roots = vec![o.success, o.len];
        roots.extend(&o.words);
        Side {
            stats,
            nodes: terms.reachable(&roots),
        }
    };
    let (ref_side, imp_side) = (side(&ref_out, ref_stats), side(&imp_out, imp_stats));
    let header = vec![
        format!("octoku: {title}"),
        "Satisfiable exactly when the two verify(uint256,uint256) calls (no value,".to_string(),
        "calldata = selector ++ start ++ solution) can give different results.".to_string(),
        "Packed outcome: success (1 returned, 0 reverted or halted) ++ data length ++ data words."
            .to_string(),
        format!(
            "reference: {} forks, {} merges, {} distinct ends, {} nodes; implementation: {} forks, {} merges, {} distinct ends, {} nodes",
            ref_stats.forks,
            ref_stats.merges,
            ref_stats.ended,
            ref_side.nodes,
            imp_stats.forks,
            imp_stats.merges,
            imp_stats.ended,
            imp_side.nodes
        ),
    ];
    // Two cases, P and not P, so together every input: every nibble of the
    // solution is a digit 1..8, or some nibble is not. Measured: bitwuzla
    // decides the two halves about 6x faster than the whole (docs/proofs.md).
    let digits = smt::all_nibbles_digits("solution");
    let not_digits = format!("(not {digits})");
    let cases = [
        ("digits", digits.as_str()),
        ("nondigit", not_digits.as_str()),
    ];
    let mut files = Vec::new();
    let mut bytes = 0;
    for (tag, case) in cases {
        let mut header = header.clone();
        header.push(format!(
            "Case {tag}: the solution's nibbles are {} digits 1..8; the other case is the file *.{}.smt2.",
            if tag == "digits" { "all" } else { "not all" },
            if tag == "digits" { "nondigit" } else { "digits" },
        ));
        let text = smt::distinct_query(&terms, &ref_out, &imp_out, &header, Some(case));
        let path = query.join(format!("{tag}.smt2"));
        bytes += text.len();
        files.push((path, text));
    }
    let _lock = solver::query_dir(query).map_err(ProveError::Io)?;
    for (path, text) in &files {
        std::fs::write(path, text)
            .map_err(|e| ProveError::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    // Both halves at once (one solver process each).
    let solve_began = Instant::now();
    let answers: Vec<Result<solver::Solved, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|(path, _)| scope.spawn(move || solver.solve(path)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a solver thread panicked".into()))
            })
            .collect()
    });
    let mut solved_all = Vec::new();
    for a in answers {
        solved_all.push(a.map_err(ProveError::Solver)?);
    }
    let solve_time = solve_began.elapsed();
    let solver_name = solved_all[0].solver.clone();
    // A sat half gives the counterexample; otherwise both must be unsat.
    let solved = solved_all
        .iter()
        .find(|s| matches!(s.answer, Answer::Sat(_)))
        .or_else(|| solved_all.iter().find(|s| s.answer == Answer::Unknown))
        .unwrap_or(&solved_all[0])
        .clone();
    let verdict = match solved.answer {
        Answer::Unsat => Verdict::Proved,
        Answer::Unknown => {
            return Err(ProveError::Solver(format!(
                "undecided: {} answered unknown on a query in {} (OCTOKU_SOLVER_TIME_LIMIT seconds per query, default 600); nothing is proved",
                solved.solver,
                query.display()
            )));
        }
        Answer::Sat(values) => {
            let get = |name: &str| {
                values
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| *v)
                    .unwrap_or(U256::ZERO)
            };
            let (start, solution) = (get("start"), get("solution"));
            let concrete = replay(&[reference, implementation], start, solution)?;
            let mut outcomes = concrete.into_iter();
            let (r, i) = (
                outcomes.next().expect("two replays"),
                outcomes.next().expect("two replays"),
            );
            for (which, outcome, run) in [
                ("reference", &ref_out, &r),
                ("implementation", &imp_out, &i),
            ] {
                let (success, data) = evaluate(&terms, outcome, start, solution);
                if success != run.success || data != run.output.as_ref() {
                    return Err(ProveError::Unsound(format!(
                        "the {which}'s terms give ({success}, 0x{}) at start = {start:#x}, solution = {solution:#x}, revm gives ({}, {})",
                        hex::encode(&data),
                        run.success,
                        run.output
                    )));
                }
            }
            if r.success == i.success && r.output == i.output {
                return Err(ProveError::Unsound(format!(
                    "the counterexample start = {start:#x}, solution = {solution:#x} does not reproduce in revm"
                )));
            }
            Verdict::Counterexample {
                start,
                solution,
                reference: r,
                implementation: i,
            }
        }
    };
    Ok(Report {
        verdict,
        reference: ref_side,
        implementation: imp_side,
        query: query.to_path_buf(),
        query_bytes: bytes,
        solver: solver_name,
        solve_time,
        exec_time,
    })
}

/// `code` with the bytes `pattern` (which must occur exactly once) changed:
/// byte `at` of the occurrence becomes `to`. For building mutants.
pub fn mutate(code: &[u8], pattern: &[u8], at: usize, to: u8) -> Result<Vec<u8>, String> {
    let hits: Vec<usize> = (0..code.len().saturating_sub(pattern.len() - 1))
        .filter(|&i| code[i..].starts_with(pattern))
        .collect();
    match hits.as_slice() {
        [i] => {
            let mut out = code.to_vec();
            out[i + at] = to;
            Ok(out)
        }
        _ => Err(format!(
            "the pattern {} occurs {} times in the code, expected once",
            hex::encode(pattern),
            hits.len()
        )),
    }
}

//! `octoku prove verify` on an 8×8 puzzle: its `verify(uint256,uint256)`
//! against the reference's on every call ([`crate::prove`]), as a report.

use std::path::Path;

use octoku_core::Board;
use octoku_evm::Puzzle;
use serde::Serialize;

use super::{Conclusion, SideFigures, outcome, tag};
use crate::engine::ProveError;
use crate::prove::{DOMAIN, Verdict, prove_verify};
use crate::solver::Solver;

/// The report of `octoku prove verify --json` for an 8×8 puzzle.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyProof {
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// Proved or counterexample.
    pub result: Conclusion,
    /// The calls the proof covers, in words.
    pub domain: &'static str,
    /// Inputs on which both contracts' terms were checked against revm
    /// before "proved" (null when refuted).
    pub validated_inputs: Option<usize>,
    /// The solver and its version.
    pub solver: String,
    /// Wall time of the solver runs.
    pub solve_seconds: f64,
    /// Symbolic execution time.
    pub execution_seconds: f64,
    /// The two query files (`digits.smt2`, `nondigit.smt2`).
    pub queries: Vec<String>,
    /// Their size in bytes.
    pub query_bytes: usize,
    /// The reference's side.
    pub reference: SideFigures,
    /// The implementation's side.
    pub implementation: SideFigures,
    /// The counterexample's start board in hex.
    pub start: Option<String>,
    /// The counterexample's solution board in hex.
    pub solution: Option<String>,
    /// The reference's result on the counterexample, replayed in revm.
    pub reference_output: Option<String>,
    /// The implementation's result on it, replayed in revm.
    pub implementation_output: Option<String>,
    /// The directory of the queries.
    #[serde(skip)]
    pub query_dir: String,
}

/// The query directory name [`prove`] is meant for, for the puzzle `label`.
///
/// ```
/// assert_eq!(octoku_prove::report::verify::query_name("golf"), "verify-golf");
/// ```
pub fn query_name(label: &str) -> String {
    format!("verify-{}", tag(label))
}

/// Proves the runtime code `runtime` (called `label`) equal to the 8×8
/// reference's `verify`, or refutes it with a counterexample replayed in
/// revm, with the queries written under `dir`.
///
/// ```no_run
/// use octoku_prove::{report::verify, solver::Solver};
/// let runtime = octoku_evm::Puzzle::Golf.artifact().runtime;
/// let dir = std::env::temp_dir().join(verify::query_name("golf"));
/// let proof = verify::prove("golf", runtime, &dir, &Solver::choose(None)?)?;
/// println!("{}", serde_json::to_string(&proof)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove(
    label: &str,
    runtime: &[u8],
    dir: &Path,
    solver: &Solver,
) -> Result<VerifyProof, ProveError> {
    let title = format!("{label} verify = reference verify");
    let r = prove_verify(
        Puzzle::Reference.artifact().runtime,
        runtime,
        dir,
        &title,
        solver,
    )?;
    let f = &r.figures;
    let mut proof = VerifyProof {
        puzzle: label.to_string(),
        result: Conclusion::Proved,
        domain: DOMAIN,
        validated_inputs: None,
        solver: f.solver.clone(),
        solve_seconds: f.solve_time.as_secs_f64(),
        execution_seconds: f.exec_time.as_secs_f64(),
        queries: ["digits.smt2", "nondigit.smt2"]
            .iter()
            .map(|q| f.query.join(q).display().to_string())
            .collect(),
        query_bytes: f.query_bytes,
        reference: SideFigures::from(&f.reference),
        implementation: SideFigures::from(&f.implementation),
        start: None,
        solution: None,
        reference_output: None,
        implementation_output: None,
        query_dir: f.query.display().to_string(),
    };
    match &r.verdict {
        Verdict::Proved(v) => proof.validated_inputs = Some(v.inputs()),
        Verdict::Counterexample {
            start,
            solution,
            reference,
            implementation,
        } => {
            proof.result = Conclusion::Counterexample;
            proof.start = Some(Board(*start).to_hex());
            proof.solution = Some(Board(*solution).to_hex());
            proof.reference_output = Some(outcome(reference));
            proof.implementation_output = Some(outcome(implementation));
        }
    }
    Ok(proof)
}

//! `octoku prove verify --puzzle classic9` (or `--size 9` on an author's
//! validator): a 9×9 validator's `verify(bytes,bytes)` against the 9×9
//! reference's on every pair of 81-byte arguments ([`crate::classic9`]), as
//! a report.

use std::path::Path;

use octoku_evm::artifacts;
use serde::Serialize;

use super::{Conclusion, ReportError, SideFigures, outcome, tag};
use crate::classic9::{Function, domain, prove_equal};
use crate::solver::Solver;

/// The report of `octoku prove verify --puzzle classic9 --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Classic9Proof {
    /// "classic9" for the built-in golfed validator, else the author's
    /// contract's name.
    pub puzzle: String,
    /// The function compared: `verify(bytes,bytes)`.
    pub function: &'static str,
    /// Proved or counterexample.
    pub result: Conclusion,
    /// The calls the proof covers, in words.
    pub domain: String,
    /// Inputs on which both contracts' terms were checked against revm
    /// before "proved" (null when refuted).
    pub validated_inputs: Option<usize>,
    /// The solver and its version.
    pub solver: String,
    /// Wall time of the solver runs.
    pub solve_seconds: f64,
    /// Symbolic execution time.
    pub execution_seconds: f64,
    /// The directory of the saved queries.
    pub query: String,
    /// Their size in bytes.
    pub query_bytes: usize,
    /// The queries answered unsat, in order.
    pub steps: Vec<Step>,
    /// The reference's side.
    pub reference: SideFigures,
    /// The implementation's side.
    pub implementation: SideFigures,
    /// The differing 81-byte grids in hex (no 0x), one per argument.
    pub grids: Option<Vec<String>>,
    /// The reference's result on them, replayed in revm.
    pub reference_output: Option<String>,
    /// The implementation's result on them, replayed in revm.
    pub implementation_output: Option<String>,
    /// The name the proof was asked for (`golf` for the built-in).
    #[serde(skip)]
    pub label: String,
}

/// One query of the 9×9 proof, answered unsat.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Its short name.
    pub name: &'static str,
    /// What its unsat shows.
    pub claim: String,
    /// The query file.
    pub query: String,
    /// Its size in bytes.
    pub query_bytes: usize,
    /// Wall time of its solver run.
    pub seconds: f64,
}

/// The query directory name [`prove`] is meant for, for the validator
/// `label`.
///
/// ```
/// use octoku_prove::report::classic9::query_name;
/// assert_eq!(query_name("golf"), "classic9-verify-golf");
/// ```
pub fn query_name(label: &str) -> String {
    format!("classic9-verify-{}", tag(label))
}

/// Proves the 9×9 validator `runtime` (called `label`: `golf` with the
/// golfed validator's code is the built-in) equal to the 9×9 reference's
/// `verify(bytes,bytes)`, or refutes it with grids replayed in revm; the
/// queries go under `dir`.
///
/// ```no_run
/// use octoku_prove::{report::classic9, solver::Solver};
/// let golf = octoku_evm::artifacts::CLASSIC9_GOLF.runtime;
/// let dir = std::env::temp_dir().join(classic9::query_name("golf"));
/// let proof = classic9::prove("golf", golf, &dir, &Solver::choose(None)?)?;
/// assert_eq!(proof.puzzle, "classic9");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove(
    label: &str,
    runtime: &[u8],
    dir: &Path,
    solver: &Solver,
) -> Result<Classic9Proof, ReportError> {
    let builtin = is_builtin(label, runtime);
    let r = prove_equal(
        Function::Verify,
        artifacts::CLASSIC9_REFERENCE.runtime,
        runtime,
        dir,
        &format!("classic9 {label} verify = classic9 reference verify"),
        solver,
    )?;
    if r.counterexample.is_none() && r.validated.is_none() {
        return Err(ReportError::NotValidated(
            "no counterexample and no validation against revm",
        ));
    }
    let c = r.counterexample.as_ref();
    let hex = |g: &[u8]| octoku_core::hex::encode(g);
    Ok(Classic9Proof {
        puzzle: if builtin { "classic9" } else { label }.to_string(),
        function: Function::Verify.signature(),
        result: if c.is_some() {
            Conclusion::Counterexample
        } else {
            Conclusion::Proved
        },
        domain: domain(Function::Verify),
        validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
        solver: r.figures.solver.clone(),
        solve_seconds: r.figures.solve_time.as_secs_f64(),
        execution_seconds: r.figures.exec_time.as_secs_f64(),
        query: r.figures.query.display().to_string(),
        query_bytes: r.figures.query_bytes,
        steps: r
            .steps
            .iter()
            .map(|s| Step {
                name: s.name,
                claim: s.claim.clone(),
                query: s.query.display().to_string(),
                query_bytes: s.bytes,
                seconds: s.time.as_secs_f64(),
            })
            .collect(),
        reference: SideFigures::from(&r.figures.reference),
        implementation: SideFigures::from(&r.figures.implementation),
        grids: c.map(|c| c.grids.iter().map(|g| hex(g)).collect()),
        reference_output: c.map(|c| outcome(&c.reference)),
        implementation_output: c.map(|c| outcome(&c.implementation)),
        label: label.to_string(),
    })
}

/// Whether `label` and `runtime` name the built-in golfed 9×9 validator.
pub fn is_builtin(label: &str, runtime: &[u8]) -> bool {
    label == "golf" && runtime == artifacts::CLASSIC9_GOLF.runtime
}

//! Checking an 8×8 solution with a puzzle contract's own verify in the
//! in-memory EVM, held to the Rust mirror, every problem explained
//! (`octoku verify`).

use octoku_core::Board;
use octoku_core::octoku::explain::{describe, explain};
use octoku_core::rules::Problem;
use serde::Serialize;

use crate::{EvmError, Machine, Target};

/// The contract's verdict on a solution (`octoku verify --json`): boards as
/// `0x` and 64 hex digits, `reason` the first problem (`null` for none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The contract accepts the solution.
    pub valid: bool,
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// The start.
    #[serde(serialize_with = "crate::json::shown")]
    pub start: Board,
    /// The solution checked.
    #[serde(serialize_with = "crate::json::shown")]
    pub solution: Board,
    /// Execution gas of the contract's verify.
    pub gas: u64,
    /// The first problem.
    pub reason: Option<String>,
    /// Every reason the rule refuses the solution, in one line each.
    pub problems: Vec<String>,
    /// What the Rust mirror of the rule says (an author's contract may differ).
    #[serde(skip)]
    pub mirror: bool,
    /// The problems, for marking the cells.
    #[serde(skip)]
    pub found: Vec<Problem>,
}

/// Why a solution got no verdict.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The EVM failed.
    #[error(transparent)]
    Evm(#[from] EvmError),
    /// A built-in contract and its Rust mirror disagree.
    #[error(
        "the contract says {contract} and the Rust mirror says {mirror} for start {start} solution {solution}"
    )]
    Disagree {
        /// The contract's answer.
        contract: bool,
        /// The mirror's.
        mirror: bool,
        /// The start.
        start: Board,
        /// The solution.
        solution: Board,
    },
}

/// Runs `verify(start, solution)` of `target` on `machine`; a built-in
/// must agree with the Rust mirror, an author's contract may differ (that
/// is its answer, and [`Verdict::mirror`] says the rule's).
///
/// ```
/// use octoku_evm::{Machine, Puzzle, Target, verify};
/// let mut evm = Machine::new().unwrap();
/// let start: octoku_core::Board = "0x0310000228073004026000350035621016705403458016070000700030400001".parse().unwrap();
/// let got = verify::verify(&mut evm, &Target::Builtin(Puzzle::Reference), start, start).unwrap();
/// assert!(!got.valid && !got.problems.is_empty());
/// ```
pub fn verify(
    machine: &mut Machine,
    target: &Target,
    start: Board,
    solution: Board,
) -> Result<Verdict, VerifyError> {
    let at = machine.load(target)?;
    let call = machine.verify_at(at, start, solution)?;
    let mirror = octoku_core::verify(start, solution);
    if call.value != mirror && matches!(target, Target::Builtin(_)) {
        return Err(VerifyError::Disagree {
            contract: call.value,
            mirror,
            start,
            solution,
        });
    }
    let found = explain(start, solution);
    let problems: Vec<String> = found.iter().map(describe).collect();
    Ok(Verdict {
        valid: call.value,
        puzzle: target.label(),
        start,
        solution,
        gas: call.gas,
        reason: problems.first().cloned(),
        problems,
        mirror,
        found,
    })
}

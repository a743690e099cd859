//! Solving the 8×8 board of a puzzle contract: the core's solver finds a
//! solution (and counts them within a time limit), and the contract's own
//! verify must accept it in the in-memory EVM (`octoku solve`).

use octoku_core::octoku::explain;
use octoku_core::solve::deadline::Deadline;
use octoku_core::solve::octoku::{self as solver, SolveError};
use octoku_core::{Address, Board};
use serde::Serialize;

use crate::{EvmError, Machine};

/// A solved (or unsolvable) board and the contract's verdict on the
/// solution (`octoku solve --json`): boards as `0x` and 64 hex digits, the
/// address checksummed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Solved {
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// The address whose board this is, when it came from generate.
    #[serde(serialize_with = "crate::json::shown_opt")]
    pub address: Option<Address>,
    /// The start.
    #[serde(serialize_with = "crate::json::shown")]
    pub start: Board,
    /// The solution found.
    #[serde(serialize_with = "crate::json::shown_opt")]
    pub solution: Option<Board>,
    /// The contract accepts the solution.
    pub valid: bool,
    /// Execution gas of the contract's verify on it.
    pub gas: Option<u64>,
    /// With a count limit (and always with no solution): the solutions,
    /// exactly up to it.
    pub solutions: Option<u64>,
    /// Whether the count stopped at its limit.
    pub solutions_capped: Option<bool>,
    /// Why there is no solution, in one line.
    pub reason: Option<String>,
}

/// Why a board was not answered.
#[derive(Debug, thiserror::Error)]
pub enum SolvedError {
    /// The start holds a value that is no digit.
    #[error(transparent)]
    Start(SolveError),
    /// The count passed the deadline's limit.
    #[error("the count of solutions passed its time limit")]
    Stopped,
    /// The EVM failed.
    #[error(transparent)]
    Evm(#[from] EvmError),
    /// The contract rejects the solver's solution.
    #[error("the contract rejects the solver's solution {solution} for {start}")]
    Rejected {
        /// The start.
        start: Board,
        /// The solver's solution.
        solution: Board,
    },
}

/// Solves `start` for the puzzle contract at `at` on `machine` (named
/// `puzzle`; `address` the one whose board it is, if any), counts the
/// solutions up to `count` within `deadline`'s limit, and has the contract
/// verify the solution.
///
/// ```
/// use std::time::Duration;
/// use octoku_core::solve::deadline::Deadline;
/// use octoku_evm::{Machine, Puzzle, Target, solve};
/// let mut evm = Machine::new().unwrap();
/// let at = evm.load(&Target::Builtin(Puzzle::Reference)).unwrap();
/// let address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045".parse().unwrap();
/// let start = octoku_core::generate(&address);
/// let deadline = Deadline::new(Duration::from_secs(10)).unwrap();
/// let solved = solve::solve(&mut evm, at, "reference", start, Some(address), Some(2), &deadline).unwrap();
/// assert_eq!(solved.valid, solved.solution.is_some());
/// ```
pub fn solve(
    machine: &mut Machine,
    at: Address,
    puzzle: &str,
    start: Board,
    address: Option<Address>,
    count: Option<u64>,
    deadline: &Deadline,
) -> Result<Solved, SolvedError> {
    let mut solved = Solved {
        puzzle: puzzle.to_owned(),
        address,
        start,
        solution: None,
        valid: false,
        gas: None,
        solutions: Some(0),
        solutions_capped: Some(false),
        reason: None,
    };
    // An 8×8 solve takes microseconds (no stop needed); a count to a large
    // limit can take a second, so it runs under the deadline.
    let Some(solution) = solver::solve(start).map_err(SolvedError::Start)? else {
        solved.reason = explain::contradiction(start);
        return Ok(solved);
    };
    let solutions = match count {
        Some(n) => Some(
            deadline
                .run(|stop| match solver::count_until(start, n, stop) {
                    Ok(counted) => counted.map(Ok),
                    Err(e) => Ok(Err(e)),
                })
                .map_err(|_| SolvedError::Stopped)?
                .map_err(SolvedError::Start)?,
        ),
        None => None,
    };
    let verdict = machine.verify_at(at, start, solution)?;
    if !verdict.value {
        return Err(SolvedError::Rejected { start, solution });
    }
    solved.solution = Some(solution);
    solved.valid = true;
    solved.gas = Some(verdict.gas);
    solved.solutions = solutions;
    solved.solutions_capped = solutions.zip(count).map(|(n, limit)| n >= limit);
    Ok(solved)
}

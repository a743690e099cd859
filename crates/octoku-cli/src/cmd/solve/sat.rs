//! `octoku solve --sat`: checker-driven solving. The rule is
//! written as an SMT-LIB2 checker over unknown cells (octoku_prove::sat) and
//! the pinned SMT solver finds solutions, excluding each one found for the
//! next; the bitboard solver must count the same, and the compiled contract
//! verifies every solution.

use std::process::ExitCode;
use std::time::Instant;

use octoku_core::Address;
use octoku_core::grid::geometry::Geometry;
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::Machine;
use octoku_prove::sat::{self, Cells};
use serde::Serialize;

use crate::opts::solver::SolverArgs;
use crate::output::Checked;
use crate::{error::CliError, output::print_json};

/// `octoku solve --sat --json`.
#[derive(Debug, Serialize)]
struct SatSolved {
    /// The built-in's name, or the author's contract's.
    puzzle: String,
    method: &'static str,
    #[serde(flatten)]
    checked: Checked,
    /// Every solution found, in the solver's order.
    found: Vec<String>,
    solutions: usize,
    /// Whether the solver proved there are no others.
    all_found: bool,
    unique: bool,
    solver: String,
    solver_calls: usize,
    solver_seconds: f64,
    seconds: f64,
}

/// Solves `start` by SAT: up to `count` solutions (1 when not given).
/// Exit 0 solved, 1 no solution, 3 if the solvers or the contract disagree.
pub fn run(
    start: Board,
    count: Option<u64>,
    (puzzle, at): (&str, Address),
    evm: &mut Machine,
    solver: &SolverArgs,
    json: bool,
) -> Result<ExitCode, CliError> {
    let limit = count.unwrap_or(1).clamp(1, 10_000);
    let cells = Cells {
        geometry: Geometry::OCTOKU,
        values: start.cells().to_vec(),
    };
    let smt = solver.solver()?;
    let (dir, _scratch) = solver.scratch_dir("solve-sat")?;
    let began = Instant::now();
    let found =
        sat::solve(&cells, limit as usize, &dir, &smt).map_err(|e| CliError::Evm(e.to_string()))?;
    let seconds = began.elapsed().as_secs_f64();
    let bitboard =
        solve::count(start, limit).map_err(|e| CliError::Input(format!("START {start}: {e}")))?;
    if bitboard != found.solutions.len() as u64 {
        return Err(CliError::Evm(format!(
            "the SAT solver found {} solutions of {start} and the bitboard solver {bitboard}",
            found.solutions.len()
        )));
    }
    let mut boards = Vec::new();
    for c in &found.solutions {
        let mut values = [0u8; 64];
        values.copy_from_slice(&c.values);
        boards.push(Board::from_cells(&values));
    }
    let mut gas = None;
    for &b in &boards {
        let verdict = evm.verify_at(at, start, b)?;
        if !verdict.value {
            return Err(CliError::Evm(format!(
                "the contract rejects the SAT solution {b} for {start}"
            )));
        }
        gas.get_or_insert(verdict.gas);
    }
    let unique = found.complete && boards.len() == 1;
    if json {
        print_json(&SatSolved {
            puzzle: puzzle.to_string(),
            method: "sat",
            checked: Checked {
                start,
                solution: boards.first().copied(),
                valid: !boards.is_empty(),
                gas,
            },
            found: boards.iter().map(|b| b.to_hex()).collect(),
            solutions: boards.len(),
            all_found: found.complete,
            unique,
            solver: found.solver.clone(),
            solver_calls: found.calls,
            solver_seconds: found.solver_time.as_secs_f64(),
            seconds,
        })?;
    } else {
        match boards.first() {
            None => crate::outln!(
                "no solution for {start}: the solver proved the checker unsatisfiable"
            )?,
            Some(first) => {
                crate::cmd::solve::print_verified(start, *first, puzzle, gas.unwrap_or_default())?;
                if count.is_some() {
                    let bound = if found.complete {
                        ""
                    } else {
                        " (stopped at the limit)"
                    };
                    let one = if unique { ", unique" } else { "" };
                    crate::outln!("solutions {}{bound}{one}", boards.len())?;
                }
            }
        }
        crate::outln!(
            "solver    {} by SAT: {} queries, {:.2} s in the solver, {seconds:.2} s in all; the bitboard solver agrees",
            found.solver,
            found.calls,
            found.solver_time.as_secs_f64()
        )?;
    }
    Ok(if boards.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

//! `octoku solve --sat`: checker-driven solving. The rule is written as an
//! SMT-LIB2 checker over unknown cells and the SMT solver finds solutions,
//! each cross-checked by octoku's own solver and, on the 8×8 contract board,
//! by the contract's verify (`octoku_prove::sat::cross_check`). One JSON
//! shape for every board (`octoku_prove::sat::SatSolved`).

use std::process::ExitCode;

use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::Symbols;
use octoku_core::{Address, Board};
use octoku_evm::Machine;
use octoku_prove::sat::{self, CrossCheckError};

use crate::opts::size::{self, SizeArgs};
use crate::opts::solver::SolverArgs;
use crate::{error::CliError, output::print_json};

/// The cross-check's failures: a bad 8×8 start is bad input (exit 2), the
/// rest are the solvers or the EVM failing or disagreeing (exit 3), each
/// with its causes.
fn cross_check_error(e: CrossCheckError) -> CliError {
    match e {
        CrossCheckError::Start { .. } => CliError::input(e),
        CrossCheckError::Evm(e) => CliError::from(e),
        e => CliError::EvmCause(Box::new(e)),
    }
}

/// The 8×8 board of a contract, solved by SAT: up to `count` solutions (1
/// when not given). Exit 0 solved, 1 no solution, 3 if the solvers or the
/// contract disagree.
pub fn run(
    start: Board,
    count: Option<u64>,
    (puzzle, at): (&str, Address),
    evm: &mut Machine,
    solver: &SolverArgs,
    json: bool,
) -> Result<ExitCode, CliError> {
    let smt = solver.solver()?;
    let (dir, _scratch) = solver.scratch_dir("solve-sat")?;
    let checked = sat::cross_check_contract(start, count.unwrap_or(1), &dir, &smt, evm, at)
        .map_err(cross_check_error)?;
    let boards = checked
        .found
        .iter()
        .map(Board::try_from)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::EvmCause(Box::new(e)))?;
    if json {
        print_json(&checked.report(Some(puzzle), |g| {
            Board::try_from(g)
                .map(|b| b.to_hex())
                .map_err(|e| CliError::EvmCause(Box::new(e)))
        })?)?;
    } else {
        match boards.first() {
            None => crate::outln!(
                "no solution for {start}: the solver proved the checker unsatisfiable"
            )?,
            Some(first) => {
                let gas = checked.gas.unwrap_or_default();
                crate::style::print_verified(start, *first, puzzle, gas)?;
                if count.is_some() {
                    let bound = if checked.all_found {
                        ""
                    } else {
                        " (stopped at the limit)"
                    };
                    let one = if checked.unique() { ", unique" } else { "" };
                    crate::outln!("solutions {}{bound}{one}", boards.len())?;
                }
            }
        }
        crate::outln!(
            "solver    {} by SAT: {} queries, {:.2} s in the solver, {:.2} s in all; the bitboard solver agrees",
            checked.solver,
            checked.solver_calls,
            checked.solver_time.as_secs_f64(),
            checked.time.as_secs_f64()
        )?;
    }
    crate::exit(!boards.is_empty())
}

/// `octoku solve --sat --size N START`: the SMT solver from the rule alone
/// on any shape, its solutions checked against the core solver's count and
/// first solution. Exit 0 solved, 1 no solution, 3 if the two solvers disagree.
pub fn run_text(
    args: &SizeArgs,
    g: Option<Geometry>,
    start: &str,
    count: Option<u64>,
    solver: &SolverArgs,
    json: bool,
) -> Result<ExitCode, CliError> {
    let parsed = args.read_start(g, start)?;
    let symbols: &Symbols = &parsed.symbols;
    let g = parsed.board.geometry();
    let limit = count.unwrap_or(1).clamp(1, 10_000);
    let smt = solver.solver()?;
    let (dir, _scratch) = solver.scratch_dir("solve-sat")?;
    let checked = sat::cross_check(&parsed.board, limit, &dir, &smt).map_err(cross_check_error)?;
    if json {
        print_json(&checked.report(None, |b| size::json_board(b, symbols))?)?;
    } else {
        match checked.solution() {
            Some(s) => crate::outln!(
                "{}",
                size::text_of(s, symbols, size::display_form(args, Some(parsed.form)))?
            )?,
            None => crate::outln!(
                "no solution for this {g} board: the SMT solver proved the checker unsatisfiable"
            )?,
        }
        if count.is_some() {
            let n = checked.found.len() as u64;
            let bound = if n >= limit {
                " (stopped at the limit)"
            } else {
                ""
            };
            crate::outln!(
                "solutions {n}{bound} (sat: {} solver calls)",
                checked.solver_calls
            )?;
        }
    }
    crate::exit(!checked.found.is_empty())
}

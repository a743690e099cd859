//! `octoku solve`: solve a board, then have the compiled contract verify it.

mod batch;
mod sat;

use std::process::ExitCode;

use octoku_core::grid::geometry::Geometry;
use octoku_core::solve::answer;
use octoku_evm::solve::{Solved, SolvedError};
use octoku_evm::{Machine, Puzzle, Target};

use crate::opts::size::{self, Shape};
use crate::opts::solver::SolverArgs;
use crate::opts::target::OwnArgs;
use crate::opts::timeout;
use crate::{error::CliError, input, output::print_json};
use batch::Batch;

use crate::output::DEAD_END_SHARE;

/// `--timeout`'s default, in seconds: far above any board's time (every
/// count to 2 takes milliseconds: docs/family.md, "Worst case"), but a
/// count to a large `--count` may need it raised.
const DEFAULT_TIMEOUT: f64 = 60.0;

/// Arguments of `octoku solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The starting board (0x hex, decimal, or 64 cells of 0-8 / '.'; with --size: line, grid or header text, @FILE, or - for standard input; a file or standard input says its own size).
    #[arg(required_unless_present_any = ["address", "batch"], conflicts_with = "address")]
    start: Option<String>,
    /// Solve every puzzle of FILE (- for standard input), one line-form board a line ('#' comments and blank lines skipped), with --size: one answer a line (the solution, unsolvable, or multiple with --count 2).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["start", "address", "sat"])]
    batch: Option<String>,
    /// With --batch: solve the whole file again and again for at least SECONDS before the time is taken (answers printed once).
    // Checked in `run`, not by clap's `requires`: clap lets a required
    // argument be absent when it conflicts with one present (START here).
    #[arg(long, value_name = "SECONDS", value_parser = batch::bench_seconds)]
    bench: Option<f64>,
    /// Solve the board this address gets from generate instead.
    #[arg(long)]
    address: Option<String>,
    /// The time limit of each solve and count, in seconds (0.001 to 86,400; 8x8 boards too): past it the search stops, and the command prints one line and exits 7.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIMEOUT, value_parser = timeout::seconds)]
    timeout: f64,
    /// Also count solutions, exactly up to N.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=1_000_000))]
    count: Option<u64>,
    /// Solve with the SMT solver from the rule alone (checker-driven).
    #[arg(long)]
    sat: bool,
    /// Which implementation to run.
    #[arg(long, value_enum, ignore_case = true, default_value_t)]
    puzzle: Puzzle,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    size: size::SizeArgs,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    target: OwnArgs,
}

/// Solves the start, verifies the solution in the in-memory EVM.
/// With `--size`: solves a board of any shape with the core (no contract).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if let Some(file) = &args.batch {
        let batch = Batch {
            file,
            count: args.count,
            bench: args.bench,
            json: args.json,
            timeout: args.timeout,
        };
        return batch::run(&args.size, &batch);
    }
    if args.bench.is_some() {
        return Err(CliError::Input(
            "--bench times a batch of puzzles; expected --batch FILE with it".into(),
        ));
    }
    match args
        .size
        .shape(&[args.start.as_deref().unwrap_or_default()])?
    {
        Shape::Text(_) if args.target.given() => Err(CliError::Input(
            "--artifact, --bytecode, --contract and --puzzle-address take an 8x8 IPuzzle; expected no --size with them".into(),
        )),
        Shape::Text(g) => match (&args.start, &args.address) {
            (Some(start), None) if args.sat => {
                sat::run_text(&args.size, g, start, args.count, &args.solver, args.json)
            }
            (Some(start), None) => run_text(&args, g, start),
            _ => Err(CliError::Input(
                "--address gives an 8x8 contract board; expected a START board with --size".into(),
            )),
        },
        Shape::Contract => run_contract(&args),
    }
}

/// `--size N` (or a board file): any shape, solved by the core (no
/// contract); a solution (exit 0), or none with a reason (exit 1).
fn run_text(args: &Args, g: Option<Geometry>, start: &str) -> Result<ExitCode, CliError> {
    let parsed = args.size.read_start(g, start)?;
    let (start, symbols) = (&parsed.board, &parsed.symbols);
    let g = start.geometry();
    // The first solution and the count, from one search within the time limit.
    let answer = timeout::deadline(args.timeout)?
        .run(|stop| answer::answer(start, symbols, args.count, stop))
        .map_err(|_| timeout::passed("START", args.timeout))?;
    if args.json {
        print_json(&answer)?;
    } else {
        match &answer.solution {
            Some(s) => crate::outln!(
                "{}",
                size::text_of(
                    s,
                    symbols,
                    size::display_form(&args.size, Some(parsed.form))
                )?
            )?,
            None => crate::outln!(
                "no solution for this {g} board: {}",
                answer.reason.as_deref().unwrap_or_default()
            )?,
        }
        if let (Some(n), Some(capped)) = (answer.solutions, answer.capped()) {
            let bound = if capped {
                " (stopped at the limit)"
            } else {
                ""
            };
            crate::outln!("solutions {n}{bound}")?;
        }
    }
    crate::exit(answer.solution.is_some())
}

/// The 8×8 contract board: solved by the core's 8×8 path, the solution
/// verified by the puzzle contract in the in-memory EVM.
fn run_contract(args: &Args) -> Result<ExitCode, CliError> {
    let target = args.target.target(args.puzzle)?;
    let fair = target == Target::Builtin(Puzzle::Fair);
    let puzzle = target.label();
    let mut evm = Machine::new()?;
    let at = evm.load(&target)?;
    let (start, address) = match (&args.start, &args.address) {
        (_, Some(a)) => {
            let address = input::address(a)?;
            (evm.generate_at(at, &address)?.value, Some(address))
        }
        (Some(s), None) => (input::board("START", s)?, None),
        (None, None) => {
            return Err(CliError::Input(
                "give a START board or --address; expected one of them".into(),
            ));
        }
    };
    if args.sat {
        return sat::run(
            start,
            args.count,
            (&puzzle, at),
            &mut evm,
            &args.solver,
            args.json,
        );
    }
    let deadline = timeout::deadline(args.timeout)?;
    let solved =
        octoku_evm::solve::solve(&mut evm, at, &puzzle, start, address, args.count, &deadline)
            .map_err(|e| match e {
                SolvedError::Start(e) => CliError::input_in(format!("START {start}"), e),
                SolvedError::Stopped => {
                    let what = match address {
                        Some(a) => format!("the board {a} gets"),
                        None => "START".into(),
                    };
                    timeout::passed(&what, args.timeout)
                }
                SolvedError::Evm(e) => CliError::from(e),
                e => CliError::EvmCause(Box::new(e)),
            })?;
    let Some(solution) = solved.solution else {
        return no_solution(&solved, fair, args.json);
    };
    if args.json {
        print_json(&solved)?;
    } else {
        if let Some(a) = address {
            crate::outln!("address   {a}")?;
        }
        crate::style::print_verified(start, solution, &puzzle, solved.gas.unwrap_or_default())?;
        if let (Some(n), Some(capped)) = (solved.solutions, solved.solutions_capped) {
            let bound = if capped {
                " (stopped at the limit)"
            } else {
                ""
            };
            crate::outln!("solutions {n}{bound}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reports an unsolvable start in one line (or JSON) and exits 1.
fn no_solution(solved: &Solved, fair: bool, json: bool) -> Result<ExitCode, CliError> {
    if json {
        print_json(solved)?;
    } else {
        let address = solved.address;
        let whose = address
            .as_ref()
            .map(|a| format!(" (the board {a} gets)"))
            .unwrap_or_default();
        let why = solved
            .reason
            .as_ref()
            .map(|r| format!(": {r}"))
            .unwrap_or_else(|| ": the search found no completion".into());
        // The fair puzzle reveals the same cells of a valid grid.
        let hint = if address.is_some() && !fair {
            format!(" ({DEAD_END_SHARE}; --puzzle fair cannot)")
        } else {
            String::new()
        };
        crate::outln!("no solution for {}{whose}{why}{hint}", solved.start)?;
    }
    Ok(ExitCode::from(1))
}

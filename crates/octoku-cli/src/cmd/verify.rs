//! `octoku verify <START> <SOLUTION>`: the contract's verdict, explained.

use std::process::ExitCode;

use octoku_core::Board;
use octoku_core::explain::explain;
use octoku_evm::{Machine, Puzzle};
use serde::Serialize;

use crate::{
    error::CliError,
    input,
    output::{self, print_json},
};

/// How many problems the text output lists.
const SHOWN: usize = 12;

/// Arguments of `octoku verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The starting board (0x hex, decimal, or 64 cells of 0-8 / '.').
    start: String,
    /// The proposed solution, in the same forms.
    solution: String,
    /// Which implementation to run.
    #[arg(long, value_enum, ignore_case = true, default_value_t)]
    puzzle: Puzzle,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `octoku verify --json`.
#[derive(Debug, Serialize)]
struct Verdict<'a> {
    valid: bool,
    puzzle: Puzzle,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    #[serde(serialize_with = "output::hex")]
    solution: Board,
    gas: u64,
    reason: Option<&'a String>,
    problems: &'a [String],
}

/// Runs verify in the in-memory EVM; exit 0 valid, 1 invalid.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let start = input::board("START", &args.start)?;
    let solution = input::board("SOLUTION", &args.solution)?;
    let puzzle = args.puzzle;
    let mut evm = Machine::new()?;
    let call = evm.verify(puzzle, start, solution)?;
    let mirror = puzzle.mirror_verify(start, solution);
    if call.value != mirror {
        return Err(CliError::Evm(format!(
            "the contract says {} and the Rust mirror says {mirror} for start {start} solution {solution}",
            call.value
        )));
    }
    let problems: Vec<String> = explain(start, solution)
        .iter()
        .map(ToString::to_string)
        .collect();
    if args.json {
        print_json(&Verdict {
            valid: call.value,
            puzzle,
            start,
            solution,
            gas: call.gas,
            reason: problems.first(),
            problems: &problems,
        })?;
    } else if call.value {
        println!("valid    the contract accepts this solution");
        println!("gas      {} (execution gas of verify)", call.gas);
    } else {
        println!("invalid  the contract rejects this solution");
        for problem in problems.iter().take(SHOWN) {
            println!("  - {problem}");
        }
        if problems.len() > SHOWN {
            println!(
                "  ... and {} more (--json lists them all)",
                problems.len() - SHOWN
            );
        }
        println!("gas      {} (execution gas of verify)", call.gas);
    }
    crate::exit(call.value)
}

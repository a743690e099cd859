//! `octoku generate <ADDRESS>`: the board the contract hands an address.

use std::process::ExitCode;

use octoku_core::{Address, Board};
use octoku_evm::{Machine, Puzzle};
use serde::Serialize;

use crate::{
    error::CliError,
    input,
    output::{self, print_json},
};

/// Arguments of `octoku generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The player's address (20-byte hex, checksummed or not).
    address: String,
    /// Which implementation to run.
    #[arg(long, value_enum, ignore_case = true, default_value_t)]
    puzzle: Puzzle,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `octoku generate --json`.
#[derive(Debug, Serialize)]
struct Generated {
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    puzzle: Puzzle,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    givens: usize,
    gas: u64,
}

/// Runs generate in the in-memory EVM and cross-checks it with the mirror.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let address = input::address(&args.address)?;
    let puzzle = args.puzzle;
    let mut evm = Machine::new()?;
    let call = evm.generate(puzzle, &address)?;
    let mirror = puzzle.mirror_generate(&address);
    if call.value != mirror {
        return Err(CliError::Evm(format!(
            "the contract and the Rust mirror disagree for {address}: contract {}, mirror {}",
            call.value, mirror
        )));
    }
    if args.json {
        print_json(&Generated {
            address,
            puzzle,
            start: call.value,
            givens: call.value.givens(),
            gas: call.gas,
        })?;
    } else {
        println!("address  {address}");
        println!(
            "puzzle   {} (in-memory EVM; the Rust mirror agrees)",
            puzzle
        );
        println!();
        println!("{}", call.value.grid());
        println!();
        println!("start    {}", call.value.to_hex());
        println!("gas      {} (execution gas of generate)", call.gas);
    }
    Ok(ExitCode::SUCCESS)
}

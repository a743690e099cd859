//! `octoku generate <ADDRESS>`: the board the contract hands an address.

use std::process::ExitCode;

use octoku_core::{Address, Board};
use octoku_evm::{Machine, Puzzle, Target};
use serde::Serialize;

use crate::opts::target::OwnArgs;
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
    #[command(flatten)]
    target: OwnArgs,
}

/// `octoku generate --json`.
#[derive(Debug, Serialize)]
struct Generated {
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    /// The built-in's name, or the author's contract's.
    puzzle: String,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    givens: usize,
    gas: u64,
}

/// Runs generate in the in-memory EVM and cross-checks it with the mirror.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let address = input::address(&args.address)?;
    let target = match args.target.code()? {
        Some(code) => Target::Code(code),
        None => Target::Builtin(args.puzzle),
    };
    let mut evm = Machine::new()?;
    let at = evm.load(&target)?;
    let call = evm.generate_at(at, &address)?;
    let (mirror, check) = match &target {
        Target::Builtin(p) => (p.mirror_generate(&address), "the Rust mirror agrees"),
        // An author's contract is compared with the reference, not held to it.
        Target::Code(_) => (call.value, ""),
    };
    let puzzle = target.label();
    let note = match &target {
        Target::Code(_) if call.value == octoku_core::generate(&address) => {
            "the reference gives the same board"
        }
        Target::Code(_) => "the reference gives another board",
        Target::Builtin(_) => check,
    };
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
        crate::outln!("address  {address}")?;
        crate::outln!("puzzle   {} (in-memory EVM; {note})", puzzle)?;
        crate::outln!()?;
        crate::outln!("{}", crate::style::grid(call.value, call.value, None))?;
        crate::outln!()?;
        crate::outln!("start    {}", call.value.to_hex())?;
        crate::outln!("gas      {} (execution gas of generate)", call.gas)?;
    }
    Ok(ExitCode::SUCCESS)
}

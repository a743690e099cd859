//! `octoku sample`: the boards of many addresses, solved: how many have a
//! solution, how many exactly one, and whether the contract agrees.

use std::{process::ExitCode, sync::Mutex};

use octoku_core::{Address, Board};
use octoku_evm::{
    Puzzle,
    sample::{Tally, sample},
};
use serde::Serialize;

use super::parallel;
use crate::{
    error::CliError,
    output::{self, print_json},
};

/// Addresses a worker claims at a time.
const BATCH: u64 = 1024;

/// Arguments of `octoku sample`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which implementation's generate to sample.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Puzzle::Fair)]
    puzzle: Puzzle,
    /// Number of addresses.
    #[arg(long, default_value_t = 1_000_000)]
    addresses: u64,
    /// Seed of the address stream (address i of seed s is always the same).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also compare every N-th board with the compiled contract in revm (0: never).
    #[arg(long, default_value_t = 100)]
    check_every: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `octoku sample --json`.
#[derive(Debug, Serialize)]
struct Sampled {
    puzzle: Puzzle,
    seed: u64,
    addresses: u64,
    solvable: u64,
    unsolvable: u64,
    unique: u64,
    short_boards: u64,
    contract_checked: u64,
    contract_mismatch: Option<Indexed>,
    unsolvable_examples: Vec<Sample>,
    threads: usize,
    seconds: f64,
    per_second: f64,
}

/// An address of the stream, by its index.
#[derive(Debug, Serialize)]
struct Indexed {
    index: u64,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
}

/// An address of the stream and the board it gets.
#[derive(Debug, Serialize)]
struct Sample {
    index: u64,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
}

/// Samples on `threads` workers; exit 1 if any board has no solution or the
/// contract disagrees with the mirror.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let threads = parallel::threads(args.threads)?;
    if args.addresses == 0 {
        return Err(CliError::Input(
            "--addresses 0: expected at least 1 address".into(),
        ));
    }
    let puzzle = args.puzzle;
    let total: Mutex<Tally> = Mutex::new(Tally::default());
    let unit = parallel::show_progress(args.json).then_some("addresses");

    let run = parallel::in_batches(
        threads,
        0..args.addresses,
        BATCH,
        unit,
        |machine, first, last| {
            let t = sample(machine, puzzle, args.seed, first, last, args.check_every)
                .map_err(|e| format!("addresses {first}..{last}: {e}"))?;
            total.lock().unwrap_or_else(|p| p.into_inner()).merge(t);
            Ok(false)
        },
    )?;
    let seconds = run.seconds;
    let t = total.into_inner().unwrap_or_else(|p| p.into_inner());
    let rate = t.addresses as f64 / seconds.max(1e-9);
    let ok = t.unsolvable() == 0 && t.contract_mismatch.is_none();
    if args.json {
        print_json(&Sampled {
            puzzle,
            seed: args.seed,
            addresses: t.addresses,
            solvable: t.solvable,
            unsolvable: t.unsolvable(),
            unique: t.unique,
            short_boards: t.short,
            contract_checked: t.contract_checked,
            contract_mismatch: t
                .contract_mismatch
                .map(|(index, address)| Indexed { index, address }),
            unsolvable_examples: t
                .unsolvable_examples
                .iter()
                .map(|&(index, address, start)| Sample {
                    index,
                    address,
                    start,
                })
                .collect(),
            threads,
            seconds,
            per_second: rate,
        })?;
    } else {
        let share = |n: u64| 100.0 * n as f64 / t.addresses as f64;
        println!(
            "puzzle       {} (seed {}, {threads} threads)",
            puzzle, args.seed
        );
        println!("addresses    {}", t.addresses);
        println!("solvable     {} ({:.4}%)", t.solvable, share(t.solvable));
        println!(
            "unsolvable   {} ({:.4}%)",
            t.unsolvable(),
            share(t.unsolvable())
        );
        println!("unique       {} ({:.4}%)", t.unique, share(t.unique));
        println!(
            "short boards {} (fewer than 8 givens: the seed ran out)",
            t.short
        );
        match t.contract_mismatch {
            None => println!(
                "contract     {} boards compared with the compiled contract, all equal",
                t.contract_checked
            ),
            Some((i, a)) => println!(
                "contract     DISAGREES with the mirror at address {i} ({})",
                a
            ),
        }
        for (i, a, b) in &t.unsolvable_examples {
            println!("no solution  address {i} {}: {}", a, b.to_hex());
        }
        println!("{seconds:.2} s, {rate:.0} addresses/s");
    }
    crate::exit(ok)
}

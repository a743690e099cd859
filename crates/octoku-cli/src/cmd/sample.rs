//! `octoku sample`: the boards of many addresses, solved: how many have a
//! solution, how many exactly one, and whether the contract agrees.

use std::{process::ExitCode, time::Instant};

use octoku_core::{Address, Board};
use octoku_evm::{
    EvmError, Machine, Puzzle,
    sample::{Tally, sample},
};
use rayon::prelude::*;
use serde::Serialize;

use crate::parallel;
use crate::{
    error::CliError,
    output::{self, print_json},
};

/// Addresses a worker takes at a time.
const BATCH: u64 = 1024;

/// Arguments of `octoku sample`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which implementation's generate to sample.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Puzzle::Fair)]
    puzzle: Puzzle,
    /// Number of addresses.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=1_000_000_000_000))]
    addresses: u64,
    /// Seed of the address stream (address i of seed s is always the same).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first address (to resume an interrupted run).
    #[arg(long, default_value_t = 0, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(0..=1_000_000_000_000))]
    from: u64,
    /// Also compare every N-th board with the compiled contract in revm (0: never).
    #[arg(long, default_value_t = 100, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(0..=1_000_000_000_000))]
    check_every: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
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
    /// Index of the first address.
    from: u64,
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

/// Why a sampling worker stopped: its machine could not be built, or a batch failed.
#[derive(Debug, thiserror::Error)]
enum SampleError {
    /// The worker's in-memory EVM.
    #[error("{0}")]
    Machine(EvmError),
    /// A batch of addresses.
    #[error("addresses {first}..{last}: {error}")]
    Batch {
        /// The first address index of the batch.
        first: u64,
        /// One past its last.
        last: u64,
        /// What the EVM said.
        error: EvmError,
    },
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
    let pool = parallel::pool(threads)?;
    let bar = parallel::progress(args.addresses, "addresses", args.json);
    parallel::catch_interrupts();
    let started = Instant::now();
    let (from, end) = (args.from, args.from + args.addresses);
    // One tally per batch, in order; None for a batch skipped after Ctrl-C.
    let batches: Vec<Option<Tally>> = pool
        .install(|| {
            (0..args.addresses.div_ceil(BATCH))
                .into_par_iter()
                .map_init(Machine::new, |machine, batch| {
                    if parallel::interrupted() {
                        return Ok(None);
                    }
                    let machine = machine
                        .as_mut()
                        .map_err(|e| SampleError::Machine(e.clone()))?;
                    let first = from + batch * BATCH;
                    let last = (first + BATCH).min(end);
                    let t = sample(machine, puzzle, args.seed, first, last, args.check_every)
                        .map_err(|error| SampleError::Batch { first, last, error })?;
                    bar.inc(last - first);
                    Ok(Some(t))
                })
                .collect::<Result<Vec<_>, SampleError>>()
        })
        .map_err(|e| CliError::EvmCause(Box::new(e)))?;
    // The finished prefix: every address below the first skipped batch.
    let done = batches.iter().take_while(|b| b.is_some()).count();
    let t = batches
        .into_iter()
        .take(done)
        .flatten()
        .fold(Tally::default(), |mut a, b| {
            a.merge(b);
            a
        });
    if done as u64 != args.addresses.div_ceil(BATCH) {
        bar.finish_and_clear();
        let next = from + done as u64 * BATCH;
        crate::errln!(
            "octoku: interrupted: addresses {from}..{next} sampled ({} solvable, {} unsolvable{}); resume with: octoku sample --puzzle {puzzle} --seed {} --from {next} --addresses {}",
            t.solvable,
            t.unsolvable(),
            if t.contract_mismatch.is_some() {
                ", the contract disagreed with the mirror"
            } else {
                ""
            },
            args.seed,
            end - next
        );
        return Ok(ExitCode::from(parallel::INTERRUPTED_EXIT));
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let rate = t.addresses as f64 / seconds.max(1e-9);
    let ok = t.unsolvable() == 0 && t.contract_mismatch.is_none();
    if args.json {
        print_json(&Sampled {
            puzzle,
            seed: args.seed,
            from: args.from,
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
        crate::outln!(
            "puzzle       {} (seed {}, {threads} threads)",
            puzzle,
            args.seed
        )?;
        crate::outln!("addresses    {}", t.addresses)?;
        crate::outln!("solvable     {} ({:.4}%)", t.solvable, share(t.solvable))?;
        crate::outln!(
            "unsolvable   {} ({:.4}%)",
            t.unsolvable(),
            share(t.unsolvable())
        )?;
        crate::outln!("unique       {} ({:.4}%)", t.unique, share(t.unique))?;
        crate::outln!(
            "short boards {} (fewer than 8 givens: the seed ran out)",
            t.short
        )?;
        match t.contract_mismatch {
            None => crate::outln!(
                "contract     {} boards compared with the compiled contract, all equal",
                t.contract_checked
            )?,
            Some((i, a)) => crate::outln!(
                "contract     DISAGREES with the mirror at address {i} ({})",
                a
            )?,
        }
        for (i, a, b) in &t.unsolvable_examples {
            crate::outln!("no solution  address {i} {}: {}", a, b.to_hex())?;
        }
        crate::outln!("{seconds:.2} s, {rate:.0} addresses/s")?;
    }
    crate::exit(ok)
}

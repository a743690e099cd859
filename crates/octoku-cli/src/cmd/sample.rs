//! `octoku sample`: the boards of many addresses, solved: how many have a
//! solution, how many exactly one, and whether the contract agrees.

use std::{process::ExitCode, time::Instant};

use octoku_evm::{
    Puzzle,
    sample::{Report, sample_many},
};

use crate::parallel;
use crate::{error::CliError, output::print_json};

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
    let run = pool
        .install(|| {
            sample_many(
                puzzle,
                args.seed,
                from,
                args.addresses,
                args.check_every,
                &|n| bar.inc(n),
                &parallel::interrupted,
            )
        })
        .map_err(|e| CliError::EvmCause(Box::new(e)))?;
    let t = &run.tally;
    if !run.finished {
        bar.finish_and_clear();
        let next = run.next;
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
    let report = Report::new(puzzle, args.seed, args.from, t, threads, seconds);
    let rate = report.per_second;
    if args.json {
        print_json(&report)?;
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
    crate::exit(t.ok())
}

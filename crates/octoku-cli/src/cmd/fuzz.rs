//! `octoku fuzz`: differential fuzzing of the mirror against every compiled
//! implementation, on all cores, stopping at the first disagreement.

use std::{
    io::{IsTerminal, Write},
    process::ExitCode,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use octoku_evm::{
    Machine, Puzzle,
    fuzz::{Mismatch, check_only},
};
use serde_json::json;

use crate::{error::CliError, input::PuzzleArg};

/// Cases a worker claims at a time.
const BATCH: u64 = 512;

/// Arguments of `octoku fuzz`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Number of cases to run.
    #[arg(long, default_value_t = 1_000_000)]
    cases: u64,
    /// Seed of the case stream (case i of seed s is always the same input).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first case (to replay one case: --from I --cases 1).
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Compare only these implementations with their mirrors (repeat the
    /// flag or separate with commas; default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    puzzle: Vec<PuzzleArg>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the cases on `threads` workers, each with its own in-memory EVM.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if threads == 0 {
        return Err(CliError::Input(
            "--threads 0: expected at least 1 thread".into(),
        ));
    }
    let end = args.from.checked_add(args.cases).ok_or_else(|| {
        CliError::Input("--from plus --cases overflows; expected a smaller range".into())
    })?;
    let mut puzzles: Vec<Puzzle> = args.puzzle.iter().map(|&p| Puzzle::from(p)).collect();
    if puzzles.is_empty() {
        puzzles = Puzzle::ALL.to_vec();
    }
    puzzles.sort_by_key(|p| Puzzle::ALL.iter().position(|q| q == p));
    puzzles.dedup();
    let puzzles = puzzles.as_slice();
    let next = AtomicU64::new(args.from);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let found: Mutex<Option<Mismatch>> = Mutex::new(None);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let show = !args.json && std::io::stderr().is_terminal();
    let started = Instant::now();

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut machine = match Machine::new() {
                    Ok(m) => m,
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.to_string());
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let first = next.fetch_add(BATCH, Ordering::Relaxed);
                    if first >= end {
                        break;
                    }
                    for index in first..(first + BATCH).min(end) {
                        match check_only(&mut machine, args.seed, index, puzzles) {
                            Ok(None) => {}
                            Ok(Some(m)) => {
                                let mut slot = found.lock().unwrap_or_else(|p| p.into_inner());
                                if slot.as_ref().is_none_or(|old| m.index < old.index) {
                                    *slot = Some(m);
                                }
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                            Err(e) => {
                                *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                                    Some(format!("case {index}: {e}"));
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                        }
                    }
                    done.fetch_add((first + BATCH).min(end) - first, Ordering::Relaxed);
                }
            });
        }
        if show {
            while !stop.load(Ordering::Relaxed) && done.load(Ordering::Relaxed) < args.cases {
                std::thread::sleep(Duration::from_millis(200));
                let n = done.load(Ordering::Relaxed);
                let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let percent = n.saturating_mul(100) / args.cases.max(1);
                let filled = (percent / 4) as usize;
                eprint!(
                    "\r[{}{}] {percent:>3}% {n} cases, {rate:.0} cases/s ",
                    "#".repeat(filled),
                    ".".repeat(25 - filled.min(25))
                );
                let _ = std::io::stderr().flush();
            }
            eprint!("\r{}\r", " ".repeat(78));
        }
    });

    if let Some(message) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(CliError::Evm(message));
    }
    let seconds = started.elapsed().as_secs_f64();
    let ran = done.load(Ordering::Relaxed);
    let rate = ran as f64 / seconds.max(1e-9);
    let implementations: Vec<&str> = puzzles.iter().map(|p| p.label()).collect();
    match found.into_inner().unwrap_or_else(|p| p.into_inner()) {
        None => {
            if args.json {
                println!(
                    "{}",
                    json!({"cases": ran, "seed": args.seed, "from": args.from, "threads": threads, "seconds": seconds, "cases_per_second": rate, "mismatch": null, "implementations": implementations})
                );
            } else {
                println!(
                    "{ran} cases, no disagreement (mirror vs {}), seed {}, {threads} threads",
                    implementations.join(", "),
                    args.seed
                );
                println!("{seconds:.2} s, {rate:.0} cases/s");
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(m) => {
            let replay = format!(
                "octoku fuzz --seed {} --from {} --cases 1",
                args.seed, m.index
            );
            if args.json {
                let answers: Vec<_> = m
                    .answers
                    .iter()
                    .map(|(w, a)| json!({"who": w, "answer": a}))
                    .collect();
                println!(
                    "{}",
                    json!({"cases": ran, "seed": args.seed, "mismatch": {"index": m.index, "description": m.to_string(), "answers": answers, "reproduce": replay}})
                );
            } else {
                println!("case {}: {m}", m.index);
                println!("reproduce: {replay}");
            }
            Ok(ExitCode::from(1))
        }
    }
}

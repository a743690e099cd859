//! `octoku fuzz`: differential fuzzing of the mirror against every compiled
//! implementation, on all cores, stopping at the first disagreement.

use std::{process::ExitCode, sync::Mutex};

use octoku_evm::{
    Puzzle,
    fuzz::{Mismatch, check_only},
};
use serde::Serialize;

use super::parallel;
use crate::{error::CliError, output::print_json};

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
    #[arg(long, value_enum, ignore_case = true, value_delimiter = ',')]
    puzzle: Vec<Puzzle>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `octoku fuzz --json`.
#[derive(Debug, Serialize)]
struct Fuzzed<'a> {
    puzzles: &'a [Puzzle],
    seed: u64,
    from: u64,
    cases: u64,
    threads: usize,
    seconds: f64,
    per_second: f64,
    mismatch: Option<Disagreement>,
}

/// The first disagreement found.
#[derive(Debug, Serialize)]
struct Disagreement {
    index: u64,
    description: String,
    answers: Vec<Answer>,
    reproduce: String,
}

/// What one side answered.
#[derive(Debug, Serialize)]
struct Answer {
    who: String,
    answer: String,
}

/// Runs the cases on `threads` workers, each with its own in-memory EVM.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let threads = parallel::threads(args.threads)?;
    let end = args.from.checked_add(args.cases).ok_or_else(|| {
        CliError::Input("--from plus --cases overflows; expected a smaller range".into())
    })?;
    // The chosen implementations in Puzzle::ALL order, each once; all by default.
    let puzzles: Vec<Puzzle> = Puzzle::ALL
        .into_iter()
        .filter(|&p| args.puzzle.is_empty() || args.puzzle.contains(&p))
        .collect();
    let found: Mutex<Option<Mismatch>> = Mutex::new(None);
    let unit = parallel::show_progress(args.json).then_some("cases");

    let run = parallel::in_batches(
        threads,
        args.from..end,
        BATCH,
        unit,
        |machine, first, last| {
            for index in first..last {
                match check_only(machine, args.seed, index, &puzzles) {
                    Ok(None) => {}
                    Ok(Some(m)) => {
                        let mut slot = found.lock().unwrap_or_else(|p| p.into_inner());
                        if slot.as_ref().is_none_or(|old| m.index < old.index) {
                            *slot = Some(m);
                        }
                        return Ok(true);
                    }
                    Err(e) => return Err(format!("case {index}: {e}")),
                }
            }
            Ok(false)
        },
    )?;
    let (seconds, ran) = (run.seconds, run.done);
    let rate = ran as f64 / seconds.max(1e-9);
    let implementations: Vec<&str> = puzzles.iter().map(|p| p.label()).collect();
    let mut out = Fuzzed {
        puzzles: &puzzles,
        seed: args.seed,
        from: args.from,
        cases: ran,
        threads,
        seconds,
        per_second: rate,
        mismatch: None,
    };
    match found.into_inner().unwrap_or_else(|p| p.into_inner()) {
        None => {
            if args.json {
                print_json(&out)?;
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
            // A subset run replays on the same subset.
            let only = if puzzles.len() == Puzzle::ALL.len() {
                String::new()
            } else {
                format!(" --puzzle {}", implementations.join(","))
            };
            let replay = format!(
                "octoku fuzz --seed {} --from {} --cases 1{only}",
                args.seed, m.index
            );
            if args.json {
                out.mismatch = Some(Disagreement {
                    index: m.index,
                    description: m.to_string(),
                    answers: m
                        .answers
                        .iter()
                        .map(|(who, answer)| Answer {
                            who: who.clone(),
                            answer: answer.clone(),
                        })
                        .collect(),
                    reproduce: replay,
                });
                print_json(&out)?;
            } else {
                println!("case {}: {m}", m.index);
                println!("reproduce: {replay}");
            }
            Ok(ExitCode::from(1))
        }
    }
}

//! What the long-running commands (`audit`, `fuzz`, `sample`) share: the
//! `--threads` default, workers that each own an in-memory EVM and claim
//! batches of a numbered range, and the progress line on stderr.

use std::{
    io::{IsTerminal, Write},
    ops::Range,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use octoku_evm::Machine;

use crate::error::CliError;

/// `--threads`: the given count, or the machine's cores; 0 is bad input.
pub fn threads(arg: Option<usize>) -> Result<usize, CliError> {
    let threads =
        arg.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if threads == 0 {
        return Err(CliError::Input(
            "--threads 0: expected at least 1 thread".into(),
        ));
    }
    Ok(threads)
}

/// Whether to draw progress: on a terminal, and not when printing JSON.
pub fn show_progress(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// `[#####....]  20%`: a 25-character bar for `percent`.
pub fn bar(percent: u64) -> String {
    let filled = ((percent / 4) as usize).min(25);
    format!(
        "[{}{}] {percent:>3}%",
        "#".repeat(filled),
        ".".repeat(25 - filled)
    )
}

/// Erases the progress line.
pub fn clear_line(width: usize) {
    eprint!("\r{}\r", " ".repeat(width));
}

/// How a batched run went.
#[derive(Debug, Clone, Copy)]
pub struct Run {
    /// Items of the batches that completed.
    pub done: u64,
    /// Wall time.
    pub seconds: f64,
}

/// Runs `work(machine, first, last)` over `range` in batches of `batch` on
/// `threads` workers, each with its own [`Machine`]. `work` returns `Ok(true)`
/// to stop every worker (its batch is not counted as done) and `Err(message)`
/// to fail the run. With `unit` set, a progress line counts the items.
pub fn in_batches(
    threads: usize,
    range: Range<u64>,
    batch: u64,
    unit: Option<&str>,
    work: impl Fn(&mut Machine, u64, u64) -> Result<bool, String> + Sync,
) -> Result<Run, CliError> {
    let total = range.end - range.start;
    let next = AtomicU64::new(range.start);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    let fail = |message: String| {
        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(message);
        stop.store(true, Ordering::Relaxed);
    };

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut machine = match Machine::new() {
                    Ok(m) => m,
                    Err(e) => return fail(e.to_string()),
                };
                while !stop.load(Ordering::Relaxed) {
                    let first = next.fetch_add(batch, Ordering::Relaxed);
                    if first >= range.end {
                        break;
                    }
                    let last = (first + batch).min(range.end);
                    match work(&mut machine, first, last) {
                        Ok(false) => {
                            done.fetch_add(last - first, Ordering::Relaxed);
                        }
                        Ok(true) => {
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                        Err(message) => return fail(message),
                    }
                }
            });
        }
        if let Some(unit) = unit {
            while !stop.load(Ordering::Relaxed) && done.load(Ordering::Relaxed) < total {
                std::thread::sleep(Duration::from_millis(200));
                let n = done.load(Ordering::Relaxed);
                let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let percent = n.saturating_mul(100) / total.max(1);
                eprint!("\r{} {n} {unit}, {rate:.0} {unit}/s ", bar(percent));
                let _ = std::io::stderr().flush();
            }
            clear_line(78);
        }
    });

    if let Some(message) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(CliError::Evm(message));
    }
    Ok(Run {
        done: done.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    })
}

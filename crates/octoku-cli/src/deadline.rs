//! `--timeout` for searches: a watchdog thread that raises a running
//! search's stop flag past its limit (`solve`, `solve --batch` and the
//! text-board paths share it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::error::CliError;

/// The largest `--timeout`, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// A `--timeout` value that is not a number of seconds in range.
#[derive(Debug, thiserror::Error)]
#[error("expected a number of seconds from 0.001 to 86400")]
pub struct BadTimeout;

/// Parses `--timeout SECONDS`: a number of seconds (a fraction allowed)
/// from a millisecond to a day.
pub fn seconds(text: &str) -> Result<f64, BadTimeout> {
    match text.parse::<f64>() {
        Ok(s) if (0.001..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(BadTimeout),
    }
}

/// The time limit of each search (`--timeout`): a watchdog thread raises
/// the stop flag of a search that runs past it. Starting a search costs a
/// lock and a clock read (no wake-up of the watchdog, which looks a few
/// times per limit, so a search stops within a twentieth of the limit,
/// at most 100 ms, after it).
pub struct Deadline {
    /// The limit as given, for the message.
    seconds: f64,
    shared: Arc<Watched>,
    watchdog: Option<std::thread::JoinHandle<()>>,
}

/// What the watchdog and the searches share.
struct Watched {
    /// The running search's stop flag.
    stop: AtomicBool,
    /// When the running search started (`None`: none, or flagged), and
    /// whether the watchdog should end.
    state: Mutex<(Option<Instant>, bool)>,
    wake: Condvar,
}

impl Deadline {
    /// A watchdog for searches of at most `seconds` each (checked by
    /// [`seconds`]).
    pub fn new(seconds: f64) -> Result<Deadline, CliError> {
        let limit = Duration::from_secs_f64(seconds.clamp(0.001, MAX_SECONDS));
        let shared = Arc::new(Watched {
            stop: AtomicBool::new(false),
            state: Mutex::new((None, false)),
            wake: Condvar::new(),
        });
        let tick = (limit / 20).clamp(Duration::from_millis(1), Duration::from_millis(100));
        let watched = shared.clone();
        let watchdog = std::thread::Builder::new()
            .name("octoku-deadline".into())
            .spawn(move || {
                let mut state = watched.state.lock().unwrap_or_else(|e| e.into_inner());
                while !state.1 {
                    if state.0.is_some_and(|t| t.elapsed() >= limit) {
                        watched.stop.store(true, Ordering::Relaxed);
                        state.0 = None;
                    }
                    state = match watched.wake.wait_timeout(state, tick) {
                        Ok((s, _)) => s,
                        Err(e) => e.into_inner().0,
                    };
                }
            })
            .map_err(|e| CliError::input_in("cannot start the --timeout watchdog", e))?;
        Ok(Deadline {
            seconds,
            shared,
            watchdog: Some(watchdog),
        })
    }

    /// Runs one search with the stop flag the watchdog raises past the
    /// limit; `what` names the board in the error then.
    pub fn run<T>(
        &self,
        what: impl FnOnce() -> String,
        search: impl FnOnce(&AtomicBool) -> Result<T, octoku_core::solve::Stopped>,
    ) -> Result<T, CliError> {
        {
            let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            self.shared.stop.store(false, Ordering::Relaxed);
            state.0 = Some(Instant::now());
        }
        let answer = search(&self.shared.stop);
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 = None;
        answer.map_err(|_| {
            CliError::TimedOut(format!(
                "{}: the search passed its time limit of {} s and stopped, no answer; expected a board that answers sooner, or a larger --timeout",
                what(),
                self.seconds
            ))
        })
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1 = true;
        self.shared.wake.notify_one();
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
    }
}

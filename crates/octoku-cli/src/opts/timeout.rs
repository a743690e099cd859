//! `--timeout SECONDS`: the time limit of each search (`solve`, `solve
//! --batch`), kept by the core's deadline watchdog
//! (`octoku_core::solve::deadline`); a search past it exits 7.

use std::time::Duration;

use octoku_core::solve::deadline::Deadline;

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

/// The watchdog for searches of at most `seconds` each (checked by [`seconds`]).
pub fn deadline(seconds: f64) -> Result<Deadline, CliError> {
    Deadline::new(Duration::from_secs_f64(seconds.clamp(0.001, MAX_SECONDS)))
        .map_err(|e| CliError::input_in("cannot start the --timeout watchdog", e))
}

/// A search on `what` stopped at the limit of `seconds`: one line, exit 7.
pub fn passed(what: &str, seconds: f64) -> CliError {
    CliError::TimedOut(format!(
        "{what}: the search passed its time limit of {seconds} s and stopped, no answer; expected a board that answers sooner, or a larger --timeout"
    ))
}

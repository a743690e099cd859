//! What the long-running commands (`audit`, `fuzz`, `sample`) share: the
//! `--threads` default, a rayon pool of that many workers, and an indicatif
//! progress bar (on a terminal only, never with `--json`).

use std::{
    fmt,
    ops::Range,
    sync::{
        Arc, LazyLock,
        atomic::{AtomicBool, Ordering},
    },
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use rayon::prelude::*;

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

/// Set by the first Ctrl-C once [`catch_interrupts`] ran.
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Exit status of an interrupted run (128 + SIGINT, as a shell reports it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// From now on the first Ctrl-C only sets a flag the long runs poll (so
/// they can say what was done and how to resume); a second one ends the
/// process at once with status 130.
pub fn catch_interrupts() {
    use signal_hook::{consts::SIGINT, flag};
    let flag = Arc::clone(&INTERRUPTED);
    // Registration fails only for forbidden signals; SIGINT is not one.
    let _ =
        flag::register_conditional_shutdown(SIGINT, i32::from(INTERRUPTED_EXIT), Arc::clone(&flag));
    let _ = flag::register(SIGINT, flag);
}

/// Whether Ctrl-C was pressed (after [`catch_interrupts`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Why [`first_failure`] stopped without a failure to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt<E> {
    /// A check errored (the EVM failed).
    Error(E),
    /// Ctrl-C: every index below `next` was checked and passed.
    Interrupted {
        /// The first index not known to pass: where to resume.
        next: u64,
    },
}

/// A rayon pool of `threads` workers.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::evm_in(format!("cannot start {threads} worker threads"), e))
}

/// A progress bar over `total` items named `unit`, with rate and ETA, drawn
/// on stderr when it is a terminal and hidden with `--json`.
pub fn progress(total: u64, unit: &str, json: bool) -> ProgressBar {
    let target = if json {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let template =
        format!("[{{bar:25}}] {{percent:>3}}% {{human_pos}} {unit}, {{rate}}, ETA {{eta}}");
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
            let _ = write!(w, "{:.0}/s", state.per_sec());
        })
        .progress_chars("#>.");
    ProgressBar::with_draw_target(Some(total), target).with_style(style)
}

/// Runs `check(state, i)` for every `i` in `range` on `pool`, in batches of
/// `batch`; each worker job makes its state with `init` (an in-memory EVM).
/// Returns the failure (`Ok(Some)`) or error of the lowest failing index,
/// the same whatever the threads' timing: batches are searched in order
/// (rayon's `find_first`) and each stops at its own first failure. The bar
/// counts every batch that passed. After Ctrl-C no batch starts; the lowest
/// batch that did not run is where to resume ([`Halt::Interrupted`]), every
/// index below it having passed.
pub fn first_failure<S, T: Send, E: Clone + Send>(
    pool: &rayon::ThreadPool,
    range: Range<u64>,
    batch: u64,
    bar: &ProgressBar,
    init: impl Fn() -> Result<S, E> + Sync + Send,
    check: impl Fn(&mut S, u64) -> Result<Option<T>, E> + Sync + Send,
) -> Result<Option<T>, Halt<E>> {
    let batches = (range.end - range.start).div_ceil(batch);
    let first: Option<Result<Option<T>, Halt<E>>> = pool.install(|| {
        (0..batches)
            .into_par_iter()
            .map_init(&init, |state, b| {
                let from = range.start + b * batch;
                if interrupted() {
                    return Err(Halt::Interrupted { next: from });
                }
                let state = state.as_mut().map_err(|e| Halt::Error(e.clone()))?;
                let to = (from + batch).min(range.end);
                for index in from..to {
                    if let Some(failure) = check(state, index).map_err(Halt::Error)? {
                        return Ok(Some(failure));
                    }
                }
                bar.inc(to - from);
                Ok(None)
            })
            .find_first(|outcome: &Result<Option<T>, Halt<E>>| !matches!(outcome, Ok(None)))
    });
    Ok(first.transpose()?.flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check's error in these tests.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Failed {
        Case(u64),
        NoEvm,
    }

    /// `first_failure` on `pool` with a hidden bar and no worker state.
    fn scan(
        pool: &rayon::ThreadPool,
        range: Range<u64>,
        batch: u64,
        check: impl Fn(u64) -> Result<Option<u64>, Failed> + Sync + Send,
    ) -> Result<Option<u64>, Halt<Failed>> {
        let bar = ProgressBar::hidden();
        first_failure(pool, range, batch, &bar, || Ok(()), |_, i| check(i))
    }

    /// Whatever order the workers finish in, the lowest failing index is
    /// reported: here higher failures come from batches that finish first.
    #[test]
    fn first_failure_is_the_lowest_failing_index() {
        let pool = pool(4).unwrap();
        for _ in 0..20 {
            let found = scan(&pool, 100..200_000, 512, |i| {
                if i < 2_000 {
                    // Slow early batches: later ones fail before these do.
                    std::thread::sleep(std::time::Duration::from_micros(20));
                }
                Ok([1_777, 5_000, 123_456, 199_999].contains(&i).then_some(i))
            });
            assert_eq!(found, Ok(Some(1_777)));
            assert!(!interrupted());
        }
        let error = scan(&pool, 0..10_000, 64, |i| {
            if i == 9_000 {
                Err(Failed::Case(i))
            } else {
                Ok((i == 9_500).then_some(i))
            }
        });
        assert_eq!(error, Err(Halt::Error(Failed::Case(9_000))));
        assert_eq!(scan(&pool, 0..1_000, 64, |_| Ok(None)), Ok(None));
        let broken = first_failure(
            &pool,
            0..10,
            4,
            &ProgressBar::hidden(),
            || Err::<(), _>(Failed::NoEvm),
            |_, _| Ok(None::<u64>),
        );
        assert_eq!(broken, Err(Halt::Error(Failed::NoEvm)));
    }
}

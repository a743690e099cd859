//! The worker threads of a fuzz run: a rayon pool whose threads each keep
//! one in-memory EVM for the whole run, and the search for the lowest
//! failing case whatever the threads' timing.

use std::{
    cell::RefCell,
    ops::{Deref, DerefMut, Range},
    sync::atomic::{AtomicU64, Ordering},
};

use rayon::prelude::*;

use crate::{Machine, Target, machine::EvmError};

/// Why [`first_failure`] stopped without a failure to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Halt<E> {
    /// A check errored (the EVM failed).
    Error(E),
    /// Cancelled: every index below `next` was checked and passed.
    Interrupted {
        /// The first index not known to pass: where to resume.
        next: u64,
    },
}

/// Runs `check(state, i)` for every `i` in `range` on `pool`, in batches of
/// `batch`; each worker job makes its state with `init` (an in-memory EVM).
/// Returns the failure (`Ok(Some)`) or error of the lowest failing index,
/// the same whatever the threads' timing: batches are searched in order
/// (rayon's `find_first`) and each stops at its own first failure.
/// `progress` is told the size of every batch that passed. Once `cancelled`
/// says so no batch starts; the lowest batch that did not run is where to
/// resume ([`Halt::Interrupted`]), every index below it having passed.
pub(crate) fn first_failure<S, T: Send, E: Clone + Send>(
    pool: &rayon::ThreadPool,
    range: Range<u64>,
    batch: u64,
    (progress, cancelled): (&(dyn Fn(u64) + Sync), &(dyn Fn() -> bool + Sync)),
    init: impl Fn() -> Result<S, E> + Sync + Send,
    check: impl Fn(&mut S, u64) -> Result<Option<T>, E> + Sync + Send,
) -> Result<Option<T>, Halt<E>> {
    let batches = (range.end - range.start).div_ceil(batch);
    let first: Option<Result<Option<T>, Halt<E>>> = pool.install(|| {
        (0..batches)
            .into_par_iter()
            .map_init(&init, |state, b| {
                let from = range.start + b * batch;
                if cancelled() {
                    return Err(Halt::Interrupted { next: from });
                }
                let state = state.as_mut().map_err(|e| Halt::Error(e.clone()))?;
                let to = (from + batch).min(range.end);
                for index in from..to {
                    if let Some(failure) = check(state, index).map_err(Halt::Error)? {
                        return Ok(Some(failure));
                    }
                }
                progress(to - from);
                Ok(None)
            })
            .find_first(|outcome: &Result<Option<T>, Halt<E>>| !matches!(outcome, Ok(None)))
    });
    Ok(first.transpose()?.flatten())
}

/// Fuzz runs started in this process: a worker's machine belongs to one run.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// A number for a new run, whose workers' machines no other run reuses.
pub(crate) fn next_run() -> u64 {
    RUNS.fetch_add(1, Ordering::Relaxed)
}

thread_local! {
    /// This worker thread's machine, set up for the run it names.
    static MACHINE: RefCell<Option<(u64, Machine)>> = const { RefCell::new(None) };
}

/// A worker thread's machine for one run: built and loaded once per thread
/// (the contracts deployed, the author's code loaded, the EVM context and
/// its frame made), lent to each batch the thread runs and kept between
/// them; every case then runs on that machine's cleared frame.
pub(crate) struct Worker {
    run: u64,
    machine: Option<Machine>,
}

impl Worker {
    /// This thread's machine for `run`, set up now if the thread has none.
    pub(crate) fn take(run: u64, load: Option<&Target>) -> Result<Worker, EvmError> {
        let kept = MACHINE.with(|m| m.borrow_mut().take());
        let machine = match kept {
            Some((r, machine)) if r == run => machine,
            _ => {
                let mut machine = Machine::new()?;
                if let Some(target) = load {
                    machine.load(target)?;
                }
                machine
            }
        };
        Ok(Worker {
            run,
            machine: Some(machine),
        })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some(machine) = self.machine.take() {
            MACHINE.with(|m| *m.borrow_mut() = Some((self.run, machine)));
        }
    }
}

impl Deref for Worker {
    type Target = Machine;
    fn deref(&self) -> &Machine {
        self.machine.as_ref().expect("lent until dropped")
    }
}

impl DerefMut for Worker {
    fn deref_mut(&mut self) -> &mut Machine {
        self.machine.as_mut().expect("lent until dropped")
    }
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

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// `first_failure` on `pool` with no progress, no cancel and no worker state.
    fn scan(
        pool: &rayon::ThreadPool,
        range: Range<u64>,
        batch: u64,
        check: impl Fn(u64) -> Result<Option<u64>, Failed> + Sync + Send,
    ) -> Result<Option<u64>, Halt<Failed>> {
        first_failure(
            pool,
            range,
            batch,
            (&|_| {}, &|| false),
            || Ok(()),
            |_, i| check(i),
        )
    }

    /// Whatever order the workers finish in, the lowest failing index is
    /// reported: here higher failures come from batches that finish first.
    #[test]
    fn first_failure_is_the_lowest_failing_index() {
        let pool = pool(4);
        for _ in 0..20 {
            let found = scan(&pool, 100..200_000, 512, |i| {
                if i < 2_000 {
                    // Slow early batches: later ones fail before these do.
                    std::thread::sleep(std::time::Duration::from_micros(20));
                }
                Ok([1_777, 5_000, 123_456, 199_999].contains(&i).then_some(i))
            });
            assert_eq!(found, Ok(Some(1_777)));
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
            (&|_| {}, &|| false),
            || Err::<(), _>(Failed::NoEvm),
            |_, _| Ok(None::<u64>),
        );
        assert_eq!(broken, Err(Halt::Error(Failed::NoEvm)));
    }

    /// Cancelled before the first batch: nothing ran, resume at the start;
    /// every batch that passed is counted once.
    #[test]
    fn a_cancelled_scan_says_where_to_resume() {
        let pool = pool(2);
        let stopped = first_failure(
            &pool,
            100..1_000,
            64,
            (&|_| {}, &|| true),
            || Ok::<(), Failed>(()),
            |_, _| Ok(None::<u64>),
        );
        assert_eq!(stopped, Err(Halt::Interrupted { next: 100 }));
        let counted = AtomicU64::new(0);
        let progress = |n: u64| {
            counted.fetch_add(n, Ordering::Relaxed);
        };
        let done = first_failure(
            &pool,
            100..1_000,
            64,
            (&progress, &|| false),
            || Ok::<(), Failed>(()),
            |_, _| Ok(None::<u64>),
        );
        assert_eq!(done, Ok(None));
        assert_eq!(counted.load(Ordering::Relaxed), 900);
    }
}

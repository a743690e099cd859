//! A time limit for searches: a watchdog thread raises a running search's
//! stop flag once it runs past the limit (the flag
//! [`solve_counting_until`](super::solve_counting_until) polls).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::Stopped;

/// The time limit of each search run through it: a watchdog thread raises
/// the stop flag of a search that runs past it. Starting a search costs a
/// lock and a clock read (no wake-up of the watchdog, which looks a few
/// times per limit, so a search stops within a twentieth of the limit,
/// at most 100 ms, after it). The watchdog ends when the deadline is dropped.
///
/// ```
/// use std::time::Duration;
/// use octoku_core::{Grid, Geometry, solve::{self, deadline::Deadline}};
/// let deadline = Deadline::new(Duration::from_secs(10)).unwrap();
/// let empty = Grid::empty(Geometry::CLASSIC);
/// let (first, n) = deadline
///     .run(|stop| solve::solve_counting_until(&empty, 3, stop))
///     .unwrap();
/// assert!(first.is_some());
/// assert_eq!(n, 3);
/// ```
pub struct Deadline {
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
    /// A watchdog for searches of at most `limit` each (at least a
    /// millisecond); the error is the thread's failure to start.
    pub fn new(limit: Duration) -> std::io::Result<Deadline> {
        let limit = limit.max(Duration::from_millis(1));
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
            })?;
        Ok(Deadline {
            shared,
            watchdog: Some(watchdog),
        })
    }

    /// Runs one search with the stop flag the watchdog raises past the
    /// limit: its answer, or [`Stopped`].
    pub fn run<T>(
        &self,
        search: impl FnOnce(&AtomicBool) -> Result<T, Stopped>,
    ) -> Result<T, Stopped> {
        {
            let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            self.shared.stop.store(false, Ordering::Relaxed);
            state.0 = Some(Instant::now());
        }
        let answer = search(&self.shared.stop);
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 = None;
        answer
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that never ends on its own is stopped past the limit, and
    /// the next search starts with the flag down.
    #[test]
    fn a_search_past_the_limit_is_stopped() {
        let deadline = Deadline::new(Duration::from_millis(20)).unwrap();
        let spin = |stop: &AtomicBool| {
            while !stop.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
            Err::<(), _>(Stopped)
        };
        assert_eq!(deadline.run(spin), Err(Stopped));
        assert_eq!(
            deadline.run(|stop| Ok(stop.load(Ordering::Relaxed))),
            Ok(false)
        );
    }
}

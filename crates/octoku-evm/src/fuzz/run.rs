//! A whole differential fuzz run: cases `from..from + cases` of one seed on
//! worker threads, each with its own in-memory EVM, stopping at the first
//! disagreement, which is the lowest failing case whatever the threads'
//! timing. The caller sees progress and may cancel (`octoku fuzz` draws a
//! bar and stops on Ctrl-C); the answer is a typed [`Report`].

use std::{sync::Arc, time::Instant};

use serde::Serialize;

use super::workers::{self, Halt, Worker};
use crate::{EvmError, Machine, Puzzle, Target, classic9, fuzz};

/// Cases a worker takes at a time.
const BATCH: u64 = 512;

/// What a run compares with the mirror.
#[derive(Debug, Clone)]
pub enum Subject {
    /// The 8×8 built-in implementations (`fuzz::check_only`), in
    /// [`Puzzle::ALL`] order.
    Builtin(Vec<Puzzle>),
    /// The classic 9×9 validators of these implementations
    /// ([`classic9::check_at`]); those without one are left out.
    Classic9(Vec<Puzzle>),
    /// An author's 8×8 IPuzzle against the reference's rule
    /// ([`fuzz::check_target`]); with `own_generate` its generate only has
    /// to be stable and give solvable boards.
    Target {
        /// The author's contract.
        target: Target,
        /// Its generate is its own, not the reference's.
        own_generate: bool,
    },
    /// An author's 9×9 validator (IClassic9) on the classic 9×9 cases.
    Target9(Target),
}

/// Which cases a run takes and on how many threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Seed of the case stream (case `i` of seed `s` is always the same input).
    pub seed: u64,
    /// Index of the first case.
    pub from: u64,
    /// Number of cases.
    pub cases: u64,
    /// Worker threads.
    pub threads: usize,
}

/// What the caller of [`run`] is told while it runs, and how it stops one.
#[derive(Clone, Copy)]
pub struct Hooks<'a> {
    /// Called with the size of each batch of cases that passed.
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Polled before each batch: `true` stops the run ([`Outcome::Interrupted`]).
    pub cancelled: &'a (dyn Fn() -> bool + Sync),
}

impl Hooks<'_> {
    /// No progress shown, never cancelled.
    pub const NONE: Hooks<'static> = Hooks {
        progress: &|_| {},
        cancelled: &|| false,
    };
}

/// How a run ended.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Every case ran, or a disagreement stopped the run.
    Finished(Report),
    /// Cancelled: every case below `next` ran and agreed.
    Interrupted {
        /// The first case not known to agree: where to resume.
        next: u64,
    },
}

/// A finished run: what ran, and the first disagreement (`octoku fuzz --json`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// What ran.
    #[serde(flatten)]
    pub ran: Ran,
    /// The lowest case on which the sides disagree.
    pub mismatch: Option<Disagreement>,
}

/// What a run compared, how many cases and how fast.
#[derive(Debug, Clone, Serialize)]
pub struct Ran {
    /// The built-in implementations compared (none for an author's contract).
    pub puzzles: Vec<Puzzle>,
    /// The author's contract fuzzed against the reference's rule instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// 9 for the 9×9 validators; absent for 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    /// The seed.
    pub seed: u64,
    /// The first case.
    pub from: u64,
    /// Cases that ran: every one below the disagreement, and it.
    pub cases: u64,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of the run.
    pub seconds: f64,
    /// Cases per second.
    pub per_second: f64,
    /// The contracts compared with the mirror, as a summary names them.
    #[serde(skip)]
    pub compared: Vec<String>,
}

/// The first disagreement of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Disagreement {
    /// The case index within its seed.
    pub index: u64,
    /// The case and every answer, in one line.
    pub description: String,
    /// What each side answered.
    pub answers: Vec<Answer>,
    /// Whether the case is a call of generate.
    #[serde(skip)]
    pub on_generate: bool,
}

/// What one side answered.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The side: a contract, a mirror, a harness.
    pub who: String,
    /// Its answer.
    pub answer: String,
}

/// Why a run could not finish.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RunError {
    /// The worker threads could not start.
    #[error("cannot start {threads} worker threads")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What rayon said.
        #[source]
        source: Arc<rayon::ThreadPoolBuildError>,
    },
    /// The author's contract could not be loaded before the run.
    #[error(transparent)]
    Setup(EvmError),
    /// A worker's machine could not be built.
    #[error("{error}")]
    Machine {
        /// What the EVM said.
        error: EvmError,
    },
    /// A case made the EVM fail.
    #[error("case {index}: {error}")]
    Case {
        /// The case.
        index: u64,
        /// What the EVM said.
        error: EvmError,
    },
}

/// Runs the cases of `options` on the mirror and `subject`, on
/// `options.threads` workers with an in-memory EVM each; reports the lowest
/// failing case. Case indices end at `u64::MAX` (`from + cases` saturates).
///
/// ```
/// use octoku_evm::{Puzzle, fuzz::run::{self, Hooks, Options, Outcome, Subject}};
/// let options = Options { seed: 9, from: 0, cases: 200, threads: 1 };
/// let subject = Subject::Builtin(Puzzle::ALL.to_vec());
/// let Outcome::Finished(report) = run::run(&subject, &options, Hooks::NONE).unwrap() else {
///     unreachable!("never cancelled")
/// };
/// assert!(report.mismatch.is_none());
/// assert_eq!(report.ran.cases, 200);
/// ```
pub fn run(subject: &Subject, options: &Options, hooks: Hooks<'_>) -> Result<Outcome, RunError> {
    match subject {
        Subject::Builtin(chosen) => {
            let puzzles = in_order(chosen, &Puzzle::ALL);
            let ran = ran(
                options,
                &puzzles,
                None,
                puzzles.iter().map(|p| p.label().to_string()).collect(),
            );
            scan(options, hooks, ran, None, |machine, seed, index| {
                fuzz::check_only(machine, seed, index, &puzzles)
            })
        }
        Subject::Classic9(chosen) => {
            let puzzles = in_order(chosen, &classic9::IMPLEMENTATIONS);
            // Every worker's machine deploys the validators at the same addresses.
            let validators =
                classic9::validators(&Machine::new().map_err(RunError::Setup)?, &puzzles);
            let labels = validators.iter().map(|(name, _)| name.clone()).collect();
            let ran = Ran {
                size: Some(9),
                ..ran(options, &puzzles, None, labels)
            };
            scan(options, hooks, ran, None, move |machine, seed, index| {
                classic9::check_at(machine, seed, index, &validators)
            })
        }
        Subject::Target {
            target,
            own_generate,
        } => {
            let at = load(target)?;
            let label = target.label();
            let labels = vec![format!("{label} (the reference's rule)")];
            let ran = ran(options, &[], Some(label), labels);
            let own = *own_generate;
            scan(
                options,
                hooks,
                ran,
                Some(target),
                move |machine, seed, index| fuzz::check_target(machine, at, seed, index, own),
            )
        }
        Subject::Target9(target) => {
            let at = load(target)?;
            let label = target.label();
            let labels = vec![format!("{label} (9x9)")];
            let ran = Ran {
                size: Some(9),
                ..ran(options, &[], Some(label.clone()), labels)
            };
            let validators = [(label, at)];
            scan(
                options,
                hooks,
                ran,
                Some(target),
                move |machine, seed, index| classic9::check_at(machine, seed, index, &validators),
            )
        }
    }
}

/// The chosen implementations in `order`, each once.
fn in_order(chosen: &[Puzzle], order: &[Puzzle]) -> Vec<Puzzle> {
    order
        .iter()
        .copied()
        .filter(|p| chosen.contains(p))
        .collect()
}

/// Where every worker's machine will have the author's code: a machine
/// loads it at the same address each time.
fn load(target: &Target) -> Result<alloy_primitives::Address, RunError> {
    Machine::new()
        .and_then(|mut m| m.load(target))
        .map_err(RunError::Setup)
}

/// What a run of `options` compares, before it runs.
fn ran(
    options: &Options,
    puzzles: &[Puzzle],
    target: Option<String>,
    compared: Vec<String>,
) -> Ran {
    Ran {
        puzzles: puzzles.to_vec(),
        target,
        size: None,
        seed: options.seed,
        from: options.from,
        cases: 0,
        threads: options.threads,
        seconds: 0.0,
        per_second: 0.0,
        compared,
    }
}

/// Runs `check` on the cases of `options`, each worker's machine loaded
/// with `load`, and fills in `ran`.
fn scan<M: Found>(
    options: &Options,
    hooks: Hooks<'_>,
    mut ran: Ran,
    load: Option<&Target>,
    check: impl Fn(&mut Machine, u64, u64) -> Result<Option<M>, EvmError> + Sync + Send,
) -> Result<Outcome, RunError> {
    let end = options.from.saturating_add(options.cases);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| RunError::Threads {
            threads: options.threads,
            source: Arc::new(e),
        })?;
    let run = workers::next_run();
    let started = Instant::now();
    let found = workers::first_failure(
        &pool,
        options.from..end,
        BATCH,
        (hooks.progress, hooks.cancelled),
        || Worker::take(run, load).map_err(|error| RunError::Machine { error }),
        |machine, index| {
            check(machine, options.seed, index).map_err(|error| RunError::Case { index, error })
        },
    );
    let seconds = started.elapsed().as_secs_f64();
    let found = match found {
        Ok(found) => found,
        Err(Halt::Error(e)) => return Err(e),
        Err(Halt::Interrupted { next }) => return Ok(Outcome::Interrupted { next }),
    };
    // Every case below the first failure ran and agreed.
    ran.cases = found
        .as_ref()
        .map_or(end - options.from, |m| m.index() - options.from + 1);
    ran.seconds = seconds;
    ran.per_second = ran.cases as f64 / seconds.max(1e-9);
    Ok(Outcome::Finished(Report {
        ran,
        mismatch: found.map(|m| Disagreement {
            index: m.index(),
            description: m.to_string(),
            answers: m.answers(),
            on_generate: m.is_generate(),
        }),
    }))
}

/// A disagreement of either board size.
trait Found: std::fmt::Display + Send {
    /// The case index within its seed.
    fn index(&self) -> u64;
    /// What each side answered.
    fn answers(&self) -> Vec<Answer>;
    /// Whether the case is a call of generate.
    fn is_generate(&self) -> bool {
        false
    }
}

impl Found for fuzz::Mismatch {
    fn index(&self) -> u64 {
        self.index
    }

    fn is_generate(&self) -> bool {
        matches!(self.case, fuzz::Case::Generate(_))
    }

    fn answers(&self) -> Vec<Answer> {
        self.answers
            .iter()
            .map(|(who, answer)| Answer {
                who: who.clone(),
                answer: answer.clone(),
            })
            .collect()
    }
}

impl Found for classic9::Mismatch {
    fn index(&self) -> u64 {
        self.index
    }

    fn answers(&self) -> Vec<Answer> {
        self.answers
            .iter()
            .map(|(who, success, output)| Answer {
                who: who.clone(),
                answer: format!(
                    "{} {output}",
                    if *success { "returned" } else { "reverted" }
                ),
            })
            .collect()
    }
}

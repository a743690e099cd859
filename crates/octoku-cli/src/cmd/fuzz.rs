//! `octoku fuzz`: differential fuzzing of the mirror against every compiled
//! implementation, on all cores, stopping at the first disagreement.

use std::{
    cell::RefCell,
    ops::{Deref, DerefMut},
    process::ExitCode,
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use octoku_evm::{
    EvmError, Machine, Puzzle, Target, classic9,
    fuzz::{check_only, check_target},
};
use serde::Serialize;

use crate::opts::target::{GenerateRule, OwnArgs};
use crate::parallel;
use crate::{error::CliError, output::print_json};

/// Cases a worker takes at a time.
const BATCH: u64 = 512;

/// Arguments of `octoku fuzz`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Number of cases to run.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=1_000_000_000_000))]
    cases: u64,
    /// Seed of the case stream (case i of seed s is always the same input).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first case (to replay one case: --from I --cases 1).
    #[arg(long, default_value_t = 0, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(0..=1_000_000_000_000))]
    from: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    threads: Option<usize>,
    /// Compare only these implementations with their mirrors (repeat the
    /// flag or separate with commas; default: all).
    #[arg(long, value_enum, ignore_case = true, value_delimiter = ',')]
    puzzle: Vec<Puzzle>,
    /// Board size: 8 (the 8×8 puzzles) or 9 (the classic 9×9 validators,
    /// contracts/classic9/: the mirror against the reference and the golfed
    /// twin, on calldata of every shape).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(8..=9))]
    size: u8,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    target: OwnArgs,
    /// With your own contract: generate must give the reference's boards,
    /// or (own) its own, the same every time and every one solvable.
    #[arg(long, value_enum, default_value = "reference")]
    generate: GenerateRule,
}

/// `octoku fuzz --json`.
#[derive(Debug, Serialize)]
struct Fuzzed<'a> {
    puzzles: &'a [Puzzle],
    /// The author's contract fuzzed against the reference's rule instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    /// 9 for `--size 9` (the 9×9 validators of `puzzles`); absent for 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u8>,
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
    /// What to try when the author's generate is meant to differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
}

/// Said when an author's generate differs from the reference's, as `check` says it.
const GENERATE_OWN_HINT: &str = "if your puzzle has its own generate, add --generate own (then each board must be the same every time and solvable)";

/// What one side answered.
#[derive(Debug, Serialize)]
struct Answer {
    who: String,
    answer: String,
}

/// Runs the cases on `threads` workers, each with its own in-memory EVM;
/// reports the lowest failing case, whatever the threads' timing.
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
    if args.target.given() {
        return run_target(&args, threads, end);
    }
    if args.size == 9 {
        return run_classic9(&args, threads, end, &puzzles);
    }
    let labels: Vec<String> = puzzles.iter().map(|p| p.label().to_string()).collect();
    // A subset run resumes and replays on the same subset.
    let only = if puzzles.len() == Puzzle::ALL.len() {
        String::new()
    } else {
        format!(" --puzzle {}", labels.join(","))
    };
    let plan = Plan {
        threads,
        end,
        puzzles: &puzzles,
        target: None,
        load: None,
        size: None,
        labels,
        before: "",
        after: only,
    };
    fuzz(&args, &plan, check_only)
}

/// `octoku fuzz --artifact/--bytecode/--contract`: the author's IPuzzle
/// against the mirror of the reference (octoku_evm::fuzz::check_target).
fn run_target(args: &Args, threads: usize, end: u64) -> Result<ExitCode, CliError> {
    let code = args.target.code()?.expect("given");
    let target = Target::Code(code);
    // Every worker's machine deploys it at the same address.
    let at = Machine::new()?.load(&target)?;
    if args.size == 9 {
        return run_target9(args, (threads, end), target, at);
    }
    let own = args.generate == GenerateRule::Own;
    let plan = Plan {
        threads,
        end,
        puzzles: &[],
        target: Some(target.label()),
        load: Some(&target),
        size: None,
        labels: vec![format!("{} (the reference's rule)", target.label())],
        before: "",
        after: format!(
            "{}{}",
            args.target.flags(),
            if own { " --generate own" } else { "" }
        ),
    };
    fuzz(args, &plan, move |machine, seed, index, _| {
        check_target(machine, at, seed, index, own)
    })
}

/// `octoku fuzz --size 9 --artifact/...`: the author's 9×9 validator
/// (IClassic9) against the mirror on the classic 9×9 cases.
fn run_target9(
    args: &Args,
    (threads, end): (usize, u64),
    target: Target,
    at: octoku_core::Address,
) -> Result<ExitCode, CliError> {
    if args.generate == GenerateRule::Own {
        return Err(CliError::Input(
            "--size 9: a 9x9 validator has no generate; expected no --generate own".into(),
        ));
    }
    let label = target.label();
    let plan = Plan {
        threads,
        end,
        puzzles: &[],
        target: Some(label.clone()),
        load: Some(&target),
        size: Some(9),
        labels: vec![format!("{label} (9x9)")],
        before: " --size 9",
        after: args.target.flags(),
    };
    let validators = [(label, at)];
    fuzz(args, &plan, move |machine, seed, index, _| {
        classic9::check_at(machine, seed, index, &validators)
    })
}

/// `octoku fuzz --size 9`: the classic 9×9 cases (octoku_evm::classic9::case)
/// on the mirror and the chosen 9×9 validators.
fn run_classic9(
    args: &Args,
    threads: usize,
    end: u64,
    puzzles: &[Puzzle],
) -> Result<ExitCode, CliError> {
    let puzzles: Vec<Puzzle> = puzzles
        .iter()
        .copied()
        .filter(|p| classic9::IMPLEMENTATIONS.contains(p))
        .collect();
    if puzzles.is_empty() {
        return Err(CliError::Input(
            "--size 9 --puzzle fair: the fair puzzle has no 9x9 validator; expected reference or golf".into(),
        ));
    }
    // Every worker's machine deploys the validators at the same addresses.
    let validators = classic9::validators(&Machine::new()?, &puzzles);
    let plan = Plan {
        threads,
        end,
        puzzles: &puzzles,
        target: None,
        load: None,
        size: Some(9),
        labels: validators.iter().map(|(name, _)| name.clone()).collect(),
        before: " --size 9",
        after: String::new(),
    };
    fuzz(args, &plan, move |machine, seed, index, _| {
        classic9::check_at(machine, seed, index, &validators)
    })
}

/// What one run compares, on how many workers, and how its resume and replay
/// commands read.
struct Plan<'a> {
    threads: usize,
    /// One past the last case index.
    end: u64,
    puzzles: &'a [Puzzle],
    /// The author's contract, when it is the one fuzzed.
    target: Option<String>,
    /// The code every worker's machine loads once, at the same address.
    load: Option<&'a Target>,
    /// The `size` of the JSON output.
    size: Option<u8>,
    /// The implementations as the summary line names them.
    labels: Vec<String>,
    /// Flags of a resume or replay command before `--seed`.
    before: &'static str,
    /// Flags of a resume or replay command at its end.
    after: String,
}

/// A disagreement of either board size, as `octoku fuzz` reports it.
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

impl Found for octoku_evm::fuzz::Mismatch {
    fn index(&self) -> u64 {
        self.index
    }

    fn is_generate(&self) -> bool {
        matches!(self.case, octoku_evm::fuzz::Case::Generate(_))
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

/// Why a fuzz run stopped: the EVM of a worker failed to start, or failed on a case.
#[derive(Debug, Clone, thiserror::Error)]
enum FuzzError {
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

/// Fuzz runs started in this process: a worker's machine belongs to one run.
static RUNS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This worker thread's machine, set up for the run it names.
    static MACHINE: RefCell<Option<(u64, Machine)>> = const { RefCell::new(None) };
}

/// A worker thread's machine for one run: built and loaded once per thread
/// (the contracts deployed, the author's code loaded, the EVM context and
/// its frame made), lent to each batch the thread runs and kept between
/// them; every case then runs on that machine's cleared frame.
struct Worker {
    run: u64,
    machine: Option<Machine>,
}

impl Worker {
    /// This thread's machine for `run`, set up now if the thread has none.
    fn take(run: u64, load: Option<&Target>) -> Result<Worker, EvmError> {
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

/// Runs `check` on cases `args.from..plan.end` and reports as `octoku fuzz` does.
fn fuzz<M: Found>(
    args: &Args,
    plan: &Plan<'_>,
    check: impl Fn(&mut Machine, u64, u64, &[Puzzle]) -> Result<Option<M>, EvmError> + Sync + Send,
) -> Result<ExitCode, CliError> {
    let (threads, end) = (plan.threads, plan.end);
    let (before, after) = (plan.before, &plan.after);
    let pool = parallel::pool(threads)?;
    let bar = parallel::progress(args.cases, "cases", args.json);
    parallel::catch_interrupts();
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    let found = parallel::first_failure(
        &pool,
        args.from..end,
        BATCH,
        &bar,
        || Worker::take(run, plan.load).map_err(|error| FuzzError::Machine { error }),
        |machine, index| {
            check(machine, args.seed, index, plan.puzzles)
                .map_err(|error| FuzzError::Case { index, error })
        },
    );
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let found = match found {
        Ok(found) => found,
        Err(parallel::Halt::Error(e)) => return Err(CliError::EvmCause(Box::new(e))),
        Err(parallel::Halt::Interrupted { next }) => {
            crate::errln!(
                "octoku: interrupted: cases {}..{next} ran ({} of {}), no disagreement; resume with: octoku fuzz{before} --seed {} --from {next} --cases {}{after}",
                args.from,
                next - args.from,
                args.cases,
                args.seed,
                end - next
            );
            return Ok(ExitCode::from(parallel::INTERRUPTED_EXIT));
        }
    };
    // Every case below the first failure ran and agreed.
    let ran = found
        .as_ref()
        .map_or(args.cases, |m| m.index() - args.from + 1);
    let rate = ran as f64 / seconds.max(1e-9);
    let mut out = Fuzzed {
        puzzles: plan.puzzles,
        target: plan.target.clone(),
        size: plan.size,
        seed: args.seed,
        from: args.from,
        cases: ran,
        threads,
        seconds,
        per_second: rate,
        mismatch: None,
    };
    match found {
        None => {
            if args.json {
                print_json(&out)?;
            } else {
                crate::outln!(
                    "{ran} cases, no disagreement (mirror vs {}), seed {}, {threads} threads",
                    plan.labels.join(", "),
                    args.seed
                )?;
                crate::outln!("{seconds:.2} s, {rate:.0} cases/s")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(m) => {
            let replay = format!(
                "octoku fuzz{before} --seed {} --from {} --cases 1{after}",
                args.seed,
                m.index()
            );
            let hint = (m.is_generate()
                && plan.target.is_some()
                && args.generate == GenerateRule::Reference)
                .then_some(GENERATE_OWN_HINT);
            if args.json {
                out.mismatch = Some(Disagreement {
                    index: m.index(),
                    description: m.to_string(),
                    answers: m.answers(),
                    reproduce: replay,
                    hint,
                });
                print_json(&out)?;
            } else {
                crate::outln!("case {}: {m}", m.index())?;
                crate::outln!("reproduce: {replay}")?;
                if let Some(hint) = hint {
                    crate::outln!("hint: {hint}")?;
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}

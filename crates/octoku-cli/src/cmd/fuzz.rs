//! `octoku fuzz`: differential fuzzing of the mirror against every compiled
//! implementation, on all cores, stopping at the first disagreement (the
//! run is `octoku_evm::fuzz::run`; here its flags, bar, Ctrl-C and output).

use std::process::ExitCode;

use octoku_evm::fuzz::run::{
    self as fuzz, Disagreement, Hooks, Options, Outcome, Ran, RunError, Subject,
};
use octoku_evm::{Puzzle, Target, classic9};
use serde::Serialize;

use crate::opts::target::{GenerateRule, OwnArgs};
use crate::parallel;
use crate::{error::CliError, output::print_json};

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

/// `octoku fuzz --json`: the run's report, with the command that replays
/// its disagreement.
#[derive(Debug, Serialize)]
struct Fuzzed<'a> {
    #[serde(flatten)]
    ran: &'a Ran,
    mismatch: Option<Replayable<'a>>,
}

/// The first disagreement found, and how to run it again.
#[derive(Debug, Serialize)]
struct Replayable<'a> {
    #[serde(flatten)]
    found: &'a Disagreement,
    reproduce: String,
    /// What to try when the author's generate is meant to differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
}

/// Said when an author's generate differs from the reference's, as `check` says it.
const GENERATE_OWN_HINT: &str = "if your puzzle has its own generate, add --generate own (then each board must be the same every time and solvable)";

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
    let own = args.generate == GenerateRule::Own;
    // The subject, and the flags of a resume or replay command before
    // `--seed` and at its end.
    let (subject, before, after) = match (args.target.given(), args.size) {
        (true, 9) if own => {
            return Err(CliError::Input(
                "--size 9: a 9x9 validator has no generate; expected no --generate own".into(),
            ));
        }
        (true, 9) => (
            Subject::Target9(code(&args)?),
            " --size 9",
            args.target.flags(),
        ),
        (true, _) => (
            Subject::Target {
                target: code(&args)?,
                own_generate: own,
            },
            "",
            format!(
                "{}{}",
                args.target.flags(),
                if own { " --generate own" } else { "" }
            ),
        ),
        (false, 9) => {
            if !puzzles
                .iter()
                .any(|p| classic9::IMPLEMENTATIONS.contains(p))
            {
                return Err(CliError::Input(
                    "--size 9 --puzzle fair: the fair puzzle has no 9x9 validator; expected reference or golf".into(),
                ));
            }
            (Subject::Classic9(puzzles), " --size 9", String::new())
        }
        (false, _) => {
            // A subset run resumes and replays on the same subset.
            let only = if puzzles.len() == Puzzle::ALL.len() {
                String::new()
            } else {
                let labels: Vec<&str> = puzzles.iter().map(|p| p.label()).collect();
                format!(" --puzzle {}", labels.join(","))
            };
            (Subject::Builtin(puzzles), "", only)
        }
    };
    let options = Options {
        seed: args.seed,
        from: args.from,
        cases: args.cases,
        threads,
    };
    let bar = parallel::progress(args.cases, "cases", args.json);
    parallel::catch_interrupts();
    let outcome = fuzz::run(
        &subject,
        &options,
        Hooks {
            progress: &|n| bar.inc(n),
            cancelled: &parallel::interrupted,
        },
    );
    bar.finish_and_clear();
    let report = match outcome.map_err(run_error)? {
        Outcome::Finished(report) => report,
        Outcome::Interrupted { next } => {
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
    let ran = &report.ran;
    let Some(m) = &report.mismatch else {
        if args.json {
            print_json(&Fuzzed {
                ran,
                mismatch: None,
            })?;
        } else {
            crate::outln!(
                "{} cases, no disagreement (mirror vs {}), seed {}, {threads} threads",
                ran.cases,
                ran.compared.join(", "),
                args.seed
            )?;
            crate::outln!("{:.2} s, {:.0} cases/s", ran.seconds, ran.per_second)?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let replay = format!(
        "octoku fuzz{before} --seed {} --from {} --cases 1{after}",
        args.seed, m.index
    );
    let hint = (m.on_generate && ran.target.is_some() && !own).then_some(GENERATE_OWN_HINT);
    if args.json {
        print_json(&Fuzzed {
            ran,
            mismatch: Some(Replayable {
                found: m,
                reproduce: replay,
                hint,
            }),
        })?;
    } else {
        crate::outln!("case {}: {}", m.index, m.description)?;
        crate::outln!("reproduce: {replay}")?;
        if let Some(hint) = hint {
            crate::outln!("hint: {hint}")?;
        }
    }
    Ok(ExitCode::from(1))
}

/// The author's contract the options name (`--artifact`, `--bytecode`, ...).
fn code(args: &Args) -> Result<Target, CliError> {
    let code = args.target.code()?.expect("given");
    Ok(Target::Code(code))
}

/// A run that could not finish: the author's code does not load (bad input
/// when it does not deploy), or the EVM or the threads failed (exit 3).
fn run_error(e: RunError) -> CliError {
    match e {
        RunError::Setup(e) => CliError::from(e),
        e => CliError::EvmCause(Box::new(e)),
    }
}

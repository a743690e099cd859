//! `octoku audit`: is every board generate can produce solvable?

use std::{process::ExitCode, sync::Mutex};

use octoku_core::octoku::audit::{self, EXHAUSTION_BOUND, Progress};

use crate::parallel;
use crate::progress::Phase;
use crate::{error::CliError, output::print_json};

/// Arguments of `octoku audit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    threads: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// On Ctrl-C, says how far the audit got and ends the process with status
/// 130 (the audit is exhaustive in one pass: there is nothing to resume).
fn watch_interrupts(bar: indicatif::ProgressBar) {
    std::thread::spawn(move || {
        loop {
            if parallel::interrupted() {
                let (done, total) = (bar.position(), bar.length().unwrap_or(0));
                bar.finish_and_clear();
                crate::errln!(
                    "octoku: interrupted: {done} of {total} classes of 8-cell sets solved, nothing reported (the audit has no partial answer; run it again, it takes seconds)"
                );
                std::process::exit(i32::from(parallel::INTERRUPTED_EXIT));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
}

/// Audits every 8-cell set up to symmetry, and the smaller sets generate
/// makes when its seed runs out ([`audit::audit`]).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let threads = parallel::threads(args.threads)?;
    let bar = parallel::progress(0, "classes of 8-cell sets", args.json);
    parallel::catch_interrupts();
    watch_interrupts(bar.clone());
    // Enumerating the classes takes most of the time: a spinner says so,
    // then the bar counts the classes solved, then a spinner the smaller sets.
    let phase = Mutex::new(Some(Phase::start(
        "enumerating the classes of 8-cell sets under symmetry",
        args.json,
    )));
    let found = audit::audit(threads, &|step| match step {
        Progress::Solving { done, total } => {
            if done == 0 {
                // Solving starts now (the classes were just enumerated):
                // time the rate and ETA from here.
                if let Ok(mut phase) = phase.lock() {
                    phase.take();
                }
                bar.set_length(total);
                bar.reset();
            }
            bar.set_position(done);
        }
        Progress::Fewer => {
            bar.finish_and_clear();
            if let Ok(mut phase) = phase.lock() {
                *phase = Some(Phase::start(
                    "auditing the boards with fewer givens",
                    args.json,
                ));
            }
        }
    });
    bar.finish_and_clear();
    if let Some(phase) = phase.into_inner().ok().flatten() {
        phase.done();
    }
    let found = found.map_err(|e| CliError::EvmCause(Box::new(e)))?;
    if args.json {
        print_json(&found)?;
    } else {
        print_text(&found)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The audit as text.
fn print_text(found: &audit::Audit) -> Result<(), CliError> {
    crate::outln!(
        "8-cell sets        {} (= C(64,8): every set is covered)",
        found.cell_sets
    )?;
    crate::outln!(
        "classes            {} under {} symmetries",
        found.classes,
        found.symmetries
    )?;
    crate::outln!(
        "unsolvable         {} classes, {} cell sets ({:.4}% of boards with 8 givens)",
        found.unsolvable.len(),
        found.unsolvable_cell_sets,
        100.0 * found.unsolvable_cell_sets as f64 / found.expected_cell_sets as f64
    )?;
    for class in found.unsolvable.iter().take(5) {
        let why = octoku_core::octoku::explain::contradiction(class.example).unwrap_or_default();
        crate::outln!("  e.g. {} ({} sets): {why}", class.example, class.size)?;
    }
    if found.unsolvable.len() > 5 {
        crate::outln!(
            "  ... {} more classes (--json lists them all)",
            found.unsolvable.len() - 5
        )?;
    }
    crate::outln!("fewer givens (the seed ran out early):")?;
    for r in &found.fewer_givens {
        crate::outln!(
            "  {} cells: {} sets, {} classes, {} unsolvable sets",
            r.givens,
            r.cell_sets,
            r.classes,
            r.unsolvable_cell_sets
        )?;
    }
    crate::outln!(
        "seed exhaustion    a digit ORed into a filled cell (e.g. 8 | 1 = 9): below {EXHAUSTION_BOUND:e} per address"
    )?;
    crate::outln!(
        "time               {:.2} s on {} threads",
        found.seconds,
        found.threads
    )?;
    Ok(())
}

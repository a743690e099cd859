//! `octoku audit`: is every board generate can produce solvable?

use std::{process::ExitCode, time::Instant};

use octoku_core::{
    Board,
    octoku::audit::{AuditReport, audit_k, binomial},
};
use serde::Serialize;

use crate::parallel;
use crate::{
    error::CliError,
    output::{self, print_json},
};

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

/// Upper bound on the chance that a random address hits the seed-exhaustion
/// path, where generate ORs a digit into a filled cell; derivation in docs/fair.md.
const EXHAUSTION_BOUND: f64 = 1e-26;

/// `octoku audit --json`.
#[derive(Debug, Serialize)]
struct Audit {
    cell_sets: u64,
    expected_cell_sets: u64,
    classes: u64,
    symmetries: u32,
    unsolvable: Vec<Class>,
    unsolvable_cell_sets: u64,
    unsolvable_fraction: f64,
    fewer_givens: Vec<Fewer>,
    exhaustion_probability_bound: f64,
    threads: usize,
    seconds: f64,
}

/// One unsolvable class of 8-cell sets.
#[derive(Debug, Serialize)]
struct Class {
    size: u64,
    #[serde(serialize_with = "output::hex")]
    example: Board,
}

/// The audit of the boards with fewer givens.
#[derive(Debug, Serialize)]
struct Fewer {
    givens: usize,
    cell_sets: u64,
    classes: u64,
    unsolvable_classes: usize,
    unsolvable_cell_sets: u64,
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
/// makes when its seed runs out.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let threads = parallel::threads(args.threads)?;
    let started = Instant::now();
    let bar = parallel::progress(0, "classes of 8-cell sets", args.json);
    parallel::catch_interrupts();
    watch_interrupts(bar.clone());
    // Enumerating the classes takes most of the time: a spinner says so,
    // then the bar counts the classes solved.
    let enumerating = std::sync::Mutex::new(Some(crate::progress::Phase::start(
        "enumerating the classes of 8-cell sets under symmetry",
        args.json,
    )));
    let eight = audit_k(8, threads, &|done, total| {
        if done == 0 {
            // Solving starts now (the classes were just enumerated): time
            // the rate and ETA from here.
            if let Ok(mut phase) = enumerating.lock() {
                phase.take();
            }
            bar.set_length(total);
            bar.reset();
        }
        bar.set_position(done);
    });
    drop(enumerating);
    bar.finish_and_clear();
    let phase = crate::progress::Phase::start("auditing the boards with fewer givens", args.json);
    let fewer: Vec<(usize, AuditReport)> = (1..8)
        .map(|k| (k, audit_k(k, threads, &|_, _| {})))
        .collect();
    phase.done();
    let seconds = started.elapsed().as_secs_f64();
    let total = binomial(64, 8);
    if eight.cell_sets != total {
        return Err(CliError::Evm(format!(
            "the classes cover {} cell sets, not C(64,8) = {total}",
            eight.cell_sets
        )));
    }

    if args.json {
        print_json(&Audit {
            cell_sets: eight.cell_sets,
            expected_cell_sets: total,
            classes: eight.classes,
            symmetries: octoku_core::octoku::symmetry::ORDER,
            unsolvable: eight
                .unsolvable
                .iter()
                .map(|c| Class {
                    size: c.size,
                    example: c.example,
                })
                .collect(),
            unsolvable_cell_sets: eight.unsolvable_cell_sets,
            unsolvable_fraction: eight.unsolvable_cell_sets as f64 / total as f64,
            fewer_givens: fewer
                .iter()
                .map(|(k, r)| Fewer {
                    givens: *k,
                    cell_sets: r.cell_sets,
                    classes: r.classes,
                    unsolvable_classes: r.unsolvable.len(),
                    unsolvable_cell_sets: r.unsolvable_cell_sets,
                })
                .collect(),
            exhaustion_probability_bound: EXHAUSTION_BOUND,
            threads,
            seconds,
        })?;
    } else {
        crate::outln!(
            "8-cell sets        {} (= C(64,8): every set is covered)",
            eight.cell_sets
        )?;
        crate::outln!(
            "classes            {} under {} symmetries",
            eight.classes,
            octoku_core::octoku::symmetry::ORDER
        )?;
        crate::outln!(
            "unsolvable         {} classes, {} cell sets ({:.4}% of boards with 8 givens)",
            eight.unsolvable.len(),
            eight.unsolvable_cell_sets,
            100.0 * eight.unsolvable_cell_sets as f64 / total as f64
        )?;
        for class in eight.unsolvable.iter().take(5) {
            let why =
                octoku_core::octoku::explain::contradiction(class.example).unwrap_or_default();
            crate::outln!("  e.g. {} ({} sets): {why}", class.example, class.size)?;
        }
        if eight.unsolvable.len() > 5 {
            crate::outln!(
                "  ... {} more classes (--json lists them all)",
                eight.unsolvable.len() - 5
            )?;
        }
        crate::outln!("fewer givens (the seed ran out early):")?;
        for (k, r) in &fewer {
            crate::outln!(
                "  {k} cells: {} sets, {} classes, {} unsolvable sets",
                r.cell_sets,
                r.classes,
                r.unsolvable_cell_sets
            )?;
        }
        crate::outln!(
            "seed exhaustion    a digit ORed into a filled cell (e.g. 8 | 1 = 9): below {EXHAUSTION_BOUND:e} per address"
        )?;
        crate::outln!("time               {seconds:.2} s on {threads} threads")?;
    }
    Ok(ExitCode::SUCCESS)
}

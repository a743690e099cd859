//! `octoku solve --size N --batch FILE`: a collection of puzzles, one
//! line-form board per line, solved in one run (`octoku_core::solve::batch`);
//! one answer per line, and a summary whose time counts solving only (no
//! reading, no printing).
//! `--bench SECONDS` solves the whole collection again and again for at
//! least that long before the time is taken (the answers are printed once).

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use octoku_core::grid::Grid;
use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::{self, Form, ReadOptions, Symbols};
use octoku_core::solve::batch::{self as solve_batch, BatchError, Summary};
use octoku_evm::limits;
use serde::Serialize;

use crate::error::CliError;
use crate::opts::size::{FormatArg, SizeArgs};
use crate::opts::timeout;

/// The longest `--bench` asked for: a day.
const MAX_BENCH_SECONDS: f64 = 86_400.0;

/// A `--bench` value that is not a number of seconds in range.
#[derive(Debug, thiserror::Error)]
#[error("expected a number of seconds above 0 and at most {MAX_BENCH_SECONDS}")]
pub struct BadBenchSeconds;

/// Parses `--bench SECONDS`: a positive number of seconds, at most a day.
pub fn bench_seconds(text: &str) -> Result<f64, BadBenchSeconds> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_BENCH_SECONDS => Ok(s),
        _ => Err(BadBenchSeconds),
    }
}

/// What `--batch` was asked to do.
pub struct Batch<'a> {
    /// The file of puzzles, or `-` for standard input.
    pub file: &'a str,
    /// `--count N`: count each puzzle's solutions up to N.
    pub count: Option<u64>,
    /// `--bench SECONDS`.
    pub bench: Option<f64>,
    /// `--json`.
    pub json: bool,
    /// `--timeout`: each puzzle's time limit, in seconds.
    pub timeout: f64,
}

/// One line of `--json` per puzzle.
#[derive(Serialize)]
struct Line {
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u64>,
}

/// The last line of `--json`.
#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: &'a Summary,
}

/// Solves every puzzle of the batch: exit 0 when each has a solution, 1
/// when one has none.
pub fn run(size: &SizeArgs, batch: &Batch) -> Result<ExitCode, CliError> {
    let g = size.geometry()?;
    if size.format.is_some_and(|f| f != FormatArg::Line) {
        return Err(CliError::Input(
            "--batch prints one answer per line; expected --format line or no --format".into(),
        ));
    }
    let symbols = size.symbols(g)?;
    let puzzles = read_puzzles(batch.file, g, &symbols)?;
    let symbols = symbols.unwrap_or_else(|| Symbols::standard(g.size()));
    let deadline = timeout::deadline(batch.timeout)?;
    // A puzzle past the limit stops the batch (nothing is printed).
    let solved = solve_batch::solve_all(
        &puzzles,
        batch.count,
        Duration::from_secs_f64(batch.bench.unwrap_or(0.0)),
        &deadline,
    )
    .map_err(|e| {
        timeout::passed(
            &format!("--batch {}: puzzle {}", batch.file, e.puzzle),
            batch.timeout,
        )
    })?;
    let summary = &solved.summary;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for answer in &solved.answers {
        let solution = answer
            .solution
            .as_ref()
            .map(|s| text::write(s, &symbols, Form::Line))
            .transpose()
            .map_err(CliError::input)?;
        if batch.json {
            let line = Line {
                solution,
                solutions: answer.solutions,
            };
            serde_json::to_writer(&mut out, &line).map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
        } else if answer.multiple() {
            writeln!(out, "multiple")?;
        } else {
            writeln!(out, "{}", solution.as_deref().unwrap_or("unsolvable"))?;
        }
    }
    if batch.json {
        serde_json::to_writer(&mut out, &SummaryLine { summary }).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
        out.flush()?;
    } else {
        out.flush()?;
        // The summary goes to stderr, so stdout holds the answers only.
        crate::errln!(
            "{} puzzles: {} solved, {} unsolvable, {} multiple; {} µs per puzzle solving",
            summary.puzzles,
            summary.solved,
            summary.unsolvable,
            summary.multiple,
            summary.solver_us_per_puzzle
        );
    }
    crate::exit(summary.unsolvable == 0)
}

/// The puzzles of a batch file (`-`: standard input), at most
/// [`limits::BATCH_FILE`] bytes, read by the core; a bad line is refused
/// with its number.
fn read_puzzles(file: &str, g: Geometry, symbols: &Option<Symbols>) -> Result<Vec<Grid>, CliError> {
    let bound = limits::size(limits::BATCH_FILE);
    let text = if file == "-" {
        limits::read_text(std::io::stdin().lock(), limits::BATCH_FILE).map_err(|e| {
            CliError::input_framed(
                "--batch -: standard input: ",
                e,
                format!("; expected UTF-8 text of at most {bound}, one board per line"),
            )
        })?
    } else {
        limits::read_file(Path::new(file), limits::BATCH_FILE).map_err(|e| {
            CliError::input_framed(
                format!("--batch {file}: cannot read it: "),
                e,
                format!("; expected a readable UTF-8 file of at most {bound}, one board per line"),
            )
        })?
    };
    let options = ReadOptions {
        geometry: Some(g),
        symbols: symbols.clone(),
    };
    solve_batch::read(&text, &options).map_err(|e| match e {
        BatchError::Line { line, error } => {
            CliError::input_in(format!("--batch {file}: line {line}"), error)
        }
        BatchError::Empty => CliError::Input(format!(
            "--batch {file}: no puzzle in it; expected one {g} board in the line form per line"
        )),
    })
}

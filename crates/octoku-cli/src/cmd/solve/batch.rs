//! `octoku solve --size N --batch FILE`: a collection of puzzles, one
//! line-form board per line, solved in one run; one answer per line, and a
//! summary whose time counts solving only (no reading, no printing).
//! `--bench SECONDS` solves the whole collection again and again for at
//! least that long before the time is taken (the answers are printed once).

use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use octoku_core::grid::Grid;
use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::{self, Form, ReadOptions, Symbols};
use octoku_core::solve;
use octoku_evm::limits;
use serde::Serialize;

use crate::deadline::Deadline;
use crate::error::CliError;
use crate::family::{FormatArg, SizeArgs};

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

/// One puzzle's answer: its first solution and, with `--count`, how many
/// it has up to the limit.
struct Answer {
    solution: Option<Grid>,
    solutions: Option<u64>,
}

impl Answer {
    /// More than one solution (only known with `--count` 2 or more).
    fn multiple(&self) -> bool {
        self.solutions.is_some_and(|n| n >= 2)
    }
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
struct Summary {
    puzzles: usize,
    solved: usize,
    unsolvable: usize,
    multiple: usize,
    solver_us_per_puzzle: f64,
}

#[derive(Serialize)]
struct SummaryLine {
    summary: Summary,
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
    let deadline = Deadline::new(batch.timeout)?;
    let (answers, per_puzzle) = solve_all(&puzzles, batch, &deadline)?;
    let summary = Summary {
        puzzles: answers.len(),
        solved: answers
            .iter()
            .filter(|a| a.solution.is_some() && !a.multiple())
            .count(),
        unsolvable: answers.iter().filter(|a| a.solution.is_none()).count(),
        multiple: answers.iter().filter(|a| a.multiple()).count(),
        solver_us_per_puzzle: (per_puzzle * 1e3).round() / 1e3,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for answer in &answers {
        let solution = answer
            .solution
            .as_ref()
            .map(|s| text::write(s, &symbols, Form::Line))
            .transpose()
            .map_err(|e| CliError::Input(e.to_string()))?;
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
        let line = SummaryLine { summary };
        serde_json::to_writer(&mut out, &line).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
        out.flush()?;
        crate::exit(line.summary.unsolvable == 0)
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
        crate::exit(summary.unsolvable == 0)
    }
}

/// The puzzles of a batch file (`-`: standard input), at most
/// [`limits::BATCH_FILE`] bytes: one line-form board per line, `#` comments
/// and blank lines skipped. A bad line is refused with its number.
fn read_puzzles(file: &str, g: Geometry, symbols: &Option<Symbols>) -> Result<Vec<Grid>, CliError> {
    let bound = limits::size(limits::BATCH_FILE);
    let text = if file == "-" {
        limits::read_text(std::io::stdin().lock(), limits::BATCH_FILE).map_err(|e| {
            CliError::Input(format!(
                "--batch -: standard input: {e}; expected UTF-8 text of at most {bound}, one board per line"
            ))
        })?
    } else {
        limits::read_file(Path::new(file), limits::BATCH_FILE).map_err(|e| {
            CliError::Input(format!(
                "--batch {file}: cannot read it: {e}; expected a readable UTF-8 file of at most {bound}, one board per line"
            ))
        })?
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let options = ReadOptions {
        geometry: Some(g),
        symbols: symbols.clone(),
    };
    // `#` starts a comment line unless it is one of the board's symbols.
    let comments = symbols.as_ref().is_none_or(|s| s.value("#").is_none());
    let mut puzzles = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (comments && line.starts_with('#')) {
            continue;
        }
        // One line is read in the line form (a grid needs a line per row);
        // the reader's error says what it expected.
        let parsed = text::read(line, &options)
            .map_err(|e| CliError::input_in(format!("--batch {file}: line {}", k + 1), e))?;
        puzzles.push(parsed.board);
    }
    if puzzles.is_empty() {
        return Err(CliError::Input(format!(
            "--batch {file}: no puzzle in it; expected one {g} board in the line form per line"
        )));
    }
    Ok(puzzles)
}

/// Solves every puzzle (with `--count`, counts up to it in the same
/// search), each within the time limit, then again until `--bench`
/// seconds have passed; the answers of the first pass and the solving time
/// per puzzle over every pass, in µs. A puzzle past the limit stops the
/// batch (nothing is printed).
fn solve_all(
    puzzles: &[Grid],
    batch: &Batch,
    deadline: &Deadline,
) -> Result<(Vec<Answer>, f64), CliError> {
    let limit = batch.count.unwrap_or(1);
    let answer = |k: usize, p: &Grid| {
        let what = || format!("--batch {}: puzzle {}", batch.file, k + 1);
        let (solution, n) =
            deadline.run(what, |stop| solve::solve_counting_until(p, limit, stop))?;
        Ok::<_, CliError>(Answer {
            solution,
            solutions: batch.count.map(|_| n),
        })
    };
    let started = Instant::now();
    let answers = puzzles
        .iter()
        .enumerate()
        .map(|(k, p)| answer(k, p))
        .collect::<Result<Vec<Answer>, _>>()?;
    let mut passes = 1u64;
    let least = Duration::from_secs_f64(batch.bench.unwrap_or(0.0));
    while started.elapsed() < least {
        for (k, p) in puzzles.iter().enumerate() {
            black_box(answer(k, black_box(p))?);
        }
        passes += 1;
    }
    let spent = started.elapsed().as_secs_f64() * 1e6;
    Ok((answers, spent / (passes as f64 * puzzles.len() as f64)))
}

//! A collection of puzzles solved in one run (`octoku solve --batch`): read
//! from text, one line-form board per line; every puzzle's answer, and a
//! summary whose time counts solving only. A bench repeats the whole
//! collection for at least a given time before the time is taken.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::deadline::Deadline;
use super::{Stopped, solve_counting_until};
use crate::grid::Grid;
use crate::grid::text::{self, ReadOptions, TextError};

/// Why a batch's text holds no puzzles to solve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// A line is not a board of the shape asked for.
    #[error("line {line}: {error}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What the reader said.
        #[source]
        error: TextError,
    },
    /// No line holds a board.
    #[error("no puzzle in it")]
    Empty,
}

/// The puzzles of a batch's text: one line-form board per line of the
/// geometry and symbols of `options`; a byte-order mark, blank lines and
/// `#` comment lines (unless `#` is one of the symbols) skipped.
///
/// ```
/// use octoku_core::{Geometry, grid::text::ReadOptions, solve::batch};
/// let options = ReadOptions { geometry: Some(Geometry::for_size(4).unwrap()), symbols: None };
/// let puzzles = batch::read("# two puzzles\n1...\n............\n\n....\n............\n", &options);
/// assert!(puzzles.is_err(), "a line is one board, not a row");
/// let puzzles = batch::read("# two\n1...............\n\n................\n", &options).unwrap();
/// assert_eq!(puzzles.len(), 2);
/// ```
pub fn read(text: &str, options: &ReadOptions) -> Result<Vec<Grid>, BatchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // `#` starts a comment line unless it is one of the board's symbols.
    let comments = options
        .symbols
        .as_ref()
        .is_none_or(|s| s.value("#").is_none());
    let mut puzzles = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (comments && line.starts_with('#')) {
            continue;
        }
        // One line is read in the line form (a grid needs a line per row);
        // the reader's error says what it expected.
        let parsed =
            text::read(line, options).map_err(|error| BatchError::Line { line: k + 1, error })?;
        puzzles.push(parsed.board);
    }
    if puzzles.is_empty() {
        return Err(BatchError::Empty);
    }
    Ok(puzzles)
}

/// One puzzle's answer: its first solution and, with a count limit, how
/// many it has up to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The first solution found.
    pub solution: Option<Grid>,
    /// With a count limit: the solutions, exactly up to it.
    pub solutions: Option<u64>,
}

impl Answer {
    /// More than one solution (only known with a count limit of 2 or more).
    pub fn multiple(&self) -> bool {
        self.solutions.is_some_and(|n| n >= 2)
    }
}

/// A batch's summary (`octoku solve --batch --json`, its last line).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Puzzles in the batch.
    pub puzzles: usize,
    /// With one solution (or at least one, without a count limit of 2 or more).
    pub solved: usize,
    /// With none.
    pub unsolvable: usize,
    /// With more than one.
    pub multiple: usize,
    /// Solving time per puzzle in µs, to the nanosecond, over every pass.
    pub solver_us_per_puzzle: f64,
}

/// Every puzzle's answer, in order, and the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// The answers of the first pass.
    pub answers: Vec<Answer>,
    /// Their summary.
    pub summary: Summary,
}

/// A puzzle passed the deadline's limit: the batch stops there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("puzzle {puzzle}: the search was stopped before it finished")]
pub struct StoppedAt {
    /// The puzzle, from 1.
    pub puzzle: usize,
}

/// Solves every puzzle (with `count`, counts up to it in the same search),
/// each within the deadline's limit, then again until `bench` has passed;
/// the answers of the first pass, and the solving time per puzzle over
/// every pass.
///
/// ```
/// use std::time::Duration;
/// use octoku_core::{Grid, Geometry, solve::{batch, deadline::Deadline}};
/// let g = Geometry::for_size(4).unwrap();
/// let deadline = Deadline::new(Duration::from_secs(10)).unwrap();
/// let got = batch::solve_all(&[Grid::empty(g)], Some(2), Duration::ZERO, &deadline).unwrap();
/// assert_eq!(got.summary.multiple, 1);
/// assert!(got.answers[0].multiple());
/// ```
pub fn solve_all(
    puzzles: &[Grid],
    count: Option<u64>,
    bench: Duration,
    deadline: &Deadline,
) -> Result<Solved, StoppedAt> {
    let limit = count.unwrap_or(1);
    let answer = |k: usize, p: &Grid| {
        let (solution, n) = deadline
            .run(|stop| solve_counting_until(p, limit, stop))
            .map_err(|Stopped| StoppedAt { puzzle: k + 1 })?;
        Ok::<_, StoppedAt>(Answer {
            solution,
            solutions: count.map(|_| n),
        })
    };
    let started = Instant::now();
    let answers = puzzles
        .iter()
        .enumerate()
        .map(|(k, p)| answer(k, p))
        .collect::<Result<Vec<Answer>, _>>()?;
    let mut passes = 1u64;
    while started.elapsed() < bench {
        for (k, p) in puzzles.iter().enumerate() {
            black_box(answer(k, black_box(p))?);
        }
        passes += 1;
    }
    let spent = started.elapsed().as_secs_f64() * 1e6;
    let per_puzzle = spent / (passes as f64 * puzzles.len() as f64);
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
    Ok(Solved { answers, summary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::Geometry;
    use crate::grid::text::Symbols;

    fn options(symbols: Option<&str>) -> ReadOptions {
        ReadOptions {
            geometry: Some(Geometry::for_size(4).unwrap()),
            symbols: symbols.map(|s| Symbols::parse(s).unwrap()),
        }
    }

    /// A byte-order mark, blank lines and comments are skipped; a bad line
    /// is named by its number in the file; `#` is a board's symbol when the
    /// symbols say so.
    #[test]
    fn reading_skips_what_is_no_board_and_names_a_bad_line() {
        let text = "\u{feff}# a comment\n\n1...............\n  \n................\n";
        assert_eq!(read(text, &options(None)).unwrap().len(), 2);
        let bad = read("# c\n1...............\n1..\n", &options(None));
        assert!(
            matches!(bad, Err(BatchError::Line { line: 3, .. })),
            "{bad:?}"
        );
        assert_eq!(read("# only\n\n", &options(None)), Err(BatchError::Empty));
        let hash = read("#...............\n", &options(Some("#ABC"))).unwrap();
        assert_eq!(hash[0].cells()[0], 1);
    }

    /// The summary counts solved, unsolvable and multiple apart, and a
    /// count limit of 1 calls no puzzle multiple.
    #[test]
    fn the_summary_counts_each_kind() {
        let puzzles = read(
            "1234341221434321\n11..............\n................\n",
            &options(None),
        )
        .unwrap();
        let deadline = Deadline::new(Duration::from_secs(60)).unwrap();
        let got = solve_all(&puzzles, Some(2), Duration::ZERO, &deadline).unwrap();
        assert_eq!(
            (
                got.summary.puzzles,
                got.summary.solved,
                got.summary.unsolvable,
                got.summary.multiple
            ),
            (3, 1, 1, 1)
        );
        assert_eq!(got.answers[0].solution.as_ref(), Some(&puzzles[0]));
        let once = solve_all(&puzzles, None, Duration::ZERO, &deadline).unwrap();
        assert_eq!((once.summary.solved, once.summary.multiple), (2, 0));
        assert!(once.answers.iter().all(|a| a.solutions.is_none()));
    }
}

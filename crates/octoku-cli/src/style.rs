//! Color in the terminal: givens, filled digits and wrong cells on the grid,
//! and the ok/fail words of verdict rows.
//!
//! Text is styled with `anstyle` and written through `anstream` (see
//! [`crate::out`]), which drops the styles when the stream is not a
//! terminal, when `NO_COLOR` is set, or with `--color never`; `--color
//! always` keeps them (as cargo's and cast's `--color` do).

use std::fmt::Display;

use anstyle::{AnsiColor, Style};
use octoku_core::{Board, Geometry, rules::Problem};

/// `--color`: when to color the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// The choice for clap's own help and errors.
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }
}

/// Makes `when` the choice of every stream octoku writes.
pub fn init(when: ColorWhen) {
    match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::AlwaysAnsi,
        ColorWhen::Never => anstream::ColorChoice::Never,
    }
    .write_global();
}

/// A given of the start: bold.
pub const GIVEN: Style = Style::new().bold();
/// A digit filled in by the solver or the player.
pub const FILLED: Style = AnsiColor::Cyan.on_default();
/// A wrong cell, or a failed check.
pub const FAIL: Style = AnsiColor::Red.on_default().bold();
/// A passed check.
pub const OK: Style = AnsiColor::Green.on_default().bold();
/// A note or warning worth a look.
pub const WARN: Style = AnsiColor::Yellow.on_default().bold();

/// `text` in `style` (the codes are dropped on the way out when color is off).
pub fn paint(style: Style, text: impl Display) -> String {
    format!("{style}{text}{style:#}")
}

/// The cells a problem points at: a changed given, a bad cell, the cells
/// of a repeat. A missing digit belongs to no cell.
fn problem_cells(problem: &Problem) -> Vec<(usize, usize)> {
    match problem {
        Problem::ChangedGiven { row, col, .. } | Problem::BadCell { row, col, .. } => {
            vec![(*row, *col)]
        }
        Problem::Repeated { cells, .. } => cells.clone(),
        Problem::Missing { .. } | Problem::Shape { .. } => Vec::new(),
    }
}

/// Which of the 64 cells the problems mark as wrong.
pub fn wrong_cells(problems: &[Problem]) -> [bool; 64] {
    let g = Geometry::OCTOKU;
    let mut wrong = [false; 64];
    for (row, col) in problems.iter().flat_map(problem_cells) {
        if row < g.size() && col < g.size() {
            wrong[g.index(row, col)] = true;
        }
    }
    wrong
}

/// The 8×8 grid of `shown` (as [`Board::grid`]): the givens of `start` in
/// bold, the other digits in cyan. With wrong cells, every cell takes three
/// columns and a wrong one is bracketed (`[5]`, red in color), so the mark
/// shows without color too.
pub fn grid(start: Board, shown: Board, wrong: Option<&[bool; 64]>) -> String {
    let g = Geometry::OCTOKU;
    let (starts, cells) = (start.cells(), shown.cells());
    let marked = wrong.is_some_and(|w| w.iter().any(|&x| x));
    let width = if marked { 3 } else { 2 };
    let stacks = g.size() / g.box_cols();
    let rule_width = if marked {
        width * g.box_cols() + 1
    } else {
        width * g.box_cols()
    };
    let rule = vec!["-".repeat(rule_width); stacks].join("+");
    let mut lines = Vec::with_capacity(11);
    for row in 0..g.size() {
        if row > 0 && row % g.box_rows() == 0 {
            lines.push(rule.clone());
        }
        let mut line = String::new();
        for col in 0..g.size() {
            let i = g.index(row, col);
            if col > 0 && col % g.box_cols() == 0 {
                line.push_str(if marked { " |" } else { " | " });
            } else if col > 0 && !marked {
                line.push(' ');
            }
            let digit = match cells[i] {
                0 => '.',
                v => char::from_digit(u32::from(v), 16).unwrap_or('?'),
            };
            let is_wrong = wrong.is_some_and(|w| w[i]);
            let style = if is_wrong {
                FAIL
            } else if starts[i] != 0 {
                GIVEN
            } else if cells[i] != 0 {
                FILLED
            } else {
                Style::new()
            };
            let text = match (marked, is_wrong) {
                (false, _) => digit.to_string(),
                (true, true) => format!("[{digit}]"),
                (true, false) => format!(" {digit} "),
            };
            line.push_str(&paint(style, text));
        }
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n")
}

/// One line counting the problems by kind: "61 empty or bad cells, 1
/// changed given, 2 repeated digits, 9 missing digits".
pub fn summary(problems: &[Problem]) -> String {
    let (mut changed, mut bad, mut repeated, mut missing) = (0, 0, 0, 0);
    for problem in problems {
        match problem {
            Problem::ChangedGiven { .. } => changed += 1,
            Problem::BadCell { .. } | Problem::Shape { .. } => bad += 1,
            Problem::Repeated { .. } => repeated += 1,
            Problem::Missing { .. } => missing += 1,
        }
    }
    let part = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    };
    [
        part(changed, "changed given", "changed givens"),
        part(bad, "empty or bad cell", "empty or bad cells"),
        part(repeated, "repeated digit", "repeated digits"),
        part(missing, "missing digit", "missing digits"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ")
}

/// How many repeats are listed in words under the grid.
const UNIT_LINES: usize = 6;

/// A refused 8×8 solution: its grid with the wrong cells marked, one line
/// counting the problems, and the first repeats in words (a digit missing
/// from a unit is the shadow of a repeat or a wrong cell there, so misses
/// are only counted).
pub fn print_marked(
    start: Board,
    solution: Board,
    problems: &[Problem],
) -> Result<(), crate::error::CliError> {
    let wrong = wrong_cells(problems);
    crate::outln!()?;
    crate::outln!("{}", grid(start, solution, Some(&wrong)))?;
    crate::outln!()?;
    let marked = wrong.iter().filter(|&&w| w).count();
    crate::outln!(
        "problems {} ({} {} marked [ ] above; --json lists them all)",
        summary(problems),
        marked,
        if marked == 1 { "cell" } else { "cells" }
    )?;
    let g = Geometry::OCTOKU;
    let units: Vec<&Problem> = problems
        .iter()
        .filter(|p| matches!(p, Problem::Repeated { .. }))
        .collect();
    for problem in units.iter().take(UNIT_LINES) {
        crate::outln!("  - {}", problem.describe(g))?;
    }
    if units.len() > UNIT_LINES {
        crate::outln!("  ... and {} more", units.len() - UNIT_LINES)?;
    }
    if units.is_empty()
        && let Some(first) = problems.first()
    {
        crate::outln!("  - {}", first.describe(g))?;
    }
    Ok(())
}

/// The text lines of a solution the contract accepted: start, grid, solution, gas.
pub fn print_verified(
    start: Board,
    solution: Board,
    puzzle: &str,
    gas: u64,
) -> Result<(), crate::error::CliError> {
    crate::outln!("start     {}", start.to_hex())?;
    crate::outln!()?;
    crate::outln!("{}", grid(start, solution, None))?;
    crate::outln!()?;
    crate::outln!("solution  {}", solution.to_hex())?;
    crate::outln!(
        "{}  the {puzzle} contract accepts it in the in-memory EVM ({gas} gas)",
        paint(OK, "verified")
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";

    /// `s` without its color codes, as a pipe gets it.
    fn plain(s: String) -> String {
        let mut out = Vec::new();
        let mut stream = anstream::StripStream::new(&mut out);
        std::io::Write::write_all(&mut stream, s.as_bytes()).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Without wrong cells and without color, the grid is `Board::grid`'s.
    #[test]
    fn plain_grid_is_the_boards_grid() {
        let start: Board = START.parse().unwrap();
        assert_eq!(plain(grid(start, start, None)), start.grid());
        assert_eq!(
            plain(grid(start, Board::BASE_GRID, Some(&[false; 64]))),
            Board::BASE_GRID.grid()
        );
    }

    /// A wrong cell is bracketed, the others padded to the same width.
    #[test]
    fn wrong_cells_are_bracketed() {
        let mut wrong = [false; 64];
        wrong[0] = true;
        let shown = grid(Board::BASE_GRID, Board::BASE_GRID, Some(&wrong));
        assert!(shown.contains("\u{1b}[1m"), "givens are bold: {shown:?}");
        let shown = plain(shown);
        let first = shown.lines().next().unwrap();
        let mark = format!("[{}]", Board::BASE_GRID.cell(0, 0));
        assert!(first.contains(&mark), "{first}");
        assert_eq!(first.matches('[').count(), 1, "one cell marked: {first}");
        assert_eq!(first.len(), 8 * 3 + 2, "three columns a cell: {first}");
    }
}

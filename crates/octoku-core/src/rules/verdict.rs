//! The verdict on a proposed solution of any shape: valid or not, and every
//! problem in one line naming the board's symbols (`octoku verify --size N`).

use serde::Serialize;

use crate::grid::Grid;
use crate::grid::text::Symbols;

/// A solution's verdict. Its JSON (`octoku verify --size N --json`):
/// `size`, `box` (`RxC`), `valid`, `reason` (the first problem, `null` for
/// none) and `problems`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The board's side.
    pub size: usize,
    /// Its box shape, `RxC`.
    #[serde(rename = "box")]
    pub box_shape: String,
    /// Every given kept and every unit holding each symbol once.
    pub valid: bool,
    /// The first problem.
    pub reason: Option<String>,
    /// Every problem found ([`super::check`]), in one line each.
    pub problems: Vec<String>,
}

/// Checks `solution` against `start` (an empty start: is it a valid solved
/// grid), naming symbols from `symbols`.
///
/// ```
/// use octoku_core::{Grid, Geometry, grid::text::Symbols, rules::verdict::verdict};
/// let g = Geometry::for_size(4).unwrap();
/// let grid = Grid::from_cells(g, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
/// let got = verdict(&Grid::empty(g), &grid, &Symbols::standard(4));
/// assert!(got.valid && got.problems.is_empty());
/// assert_eq!(got.box_shape, "2x2");
/// ```
pub fn verdict(start: &Grid, solution: &Grid, symbols: &Symbols) -> Verdict {
    let g = solution.geometry();
    let problems: Vec<String> = super::check(start, solution)
        .iter()
        .map(|p| p.message(g, &|v| symbols.name(v).to_owned()))
        .collect();
    Verdict {
        size: g.size(),
        box_shape: g.box_label(),
        valid: problems.is_empty(),
        reason: problems.first().cloned(),
        problems,
    }
}

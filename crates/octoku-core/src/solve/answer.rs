//! The answer to "solve this board", for a board of any shape in its own
//! symbols: its first solution, with a count limit how many it has up to
//! it, and with none a one-line reason (`octoku solve --size N`).

use std::sync::atomic::AtomicBool;

use serde::ser::{Error as _, SerializeStruct};
use serde::{Serialize, Serializer};

use super::{Stopped, solve_counting_until};
use crate::grid::Grid;
use crate::grid::text::{self, Symbols};
use crate::rules;

/// A start's answer. Its JSON (`octoku solve --size N --json`): `size`,
/// `box` (`RxC`), `start` and `solution` in the compact text form
/// ([`text::compact`]), `solutions` and `solutions_capped` (`null` without
/// a count limit) and `reason` (`null` when solved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The start.
    pub start: Grid,
    /// The symbols its text is written in.
    pub symbols: Symbols,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// With a count limit: the solutions, exactly up to it.
    pub solutions: Option<u64>,
    /// The count limit asked for.
    pub limit: Option<u64>,
    /// Why there is no solution, in one line naming the board's symbols.
    pub reason: Option<String>,
}

impl Answer {
    /// Whether the count stopped at its limit (`None` without a limit).
    pub fn capped(&self) -> Option<bool> {
        self.solutions.zip(self.limit).map(|(n, limit)| n >= limit)
    }
}

/// Solves `start` (its symbols name the problems), counting its solutions
/// up to `count` in the same search; [`Stopped`] when `stop` is raised
/// first (a [`super::deadline::Deadline`]).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use octoku_core::{Grid, Geometry, grid::text::Symbols, solve::answer::answer};
/// let g = Geometry::for_size(4).unwrap();
/// let start = Grid::empty(g);
/// let got = answer(&start, &Symbols::standard(4), Some(1_000), &AtomicBool::new(false)).unwrap();
/// assert_eq!(got.solutions, Some(288));
/// assert_eq!(got.capped(), Some(false));
/// assert!(got.solution.is_some() && got.reason.is_none());
/// ```
pub fn answer(
    start: &Grid,
    symbols: &Symbols,
    count: Option<u64>,
    stop: &AtomicBool,
) -> Result<Answer, Stopped> {
    let g = start.geometry();
    // The first solution and the count, from one search.
    let (solution, n) = solve_counting_until(start, count.unwrap_or(1), stop)?;
    let reason = match &solution {
        Some(_) => None,
        None => Some(
            rules::contradiction(start)
                .map(|c| c.message(g, &|v| symbols.name(v).to_owned()))
                .unwrap_or_else(|| "the search found no completion".to_owned()),
        ),
    };
    Ok(Answer {
        start: start.clone(),
        symbols: symbols.clone(),
        solution,
        solutions: count.map(|_| n),
        limit: count,
        reason,
    })
}

impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.start.geometry();
        let board = |b: &Grid| text::compact(b, &self.symbols).map_err(S::Error::custom);
        let mut out = s.serialize_struct("Answer", 7)?;
        out.serialize_field("size", &g.size())?;
        out.serialize_field("box", &g.box_label())?;
        out.serialize_field("start", &board(&self.start)?)?;
        out.serialize_field("solution", &self.solution.as_ref().map(board).transpose()?)?;
        out.serialize_field("solutions", &self.solutions)?;
        out.serialize_field("solutions_capped", &self.capped())?;
        out.serialize_field("reason", &self.reason)?;
        out.end()
    }
}

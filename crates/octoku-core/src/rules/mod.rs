//! The rules of every board in the family, in one place: checking a proposed
//! solution with every reason it fails ([`check`]), and a simple reason why
//! a start has no solution ([`contradiction()`]). The 8×8 explanations of
//! [`crate::octoku::explain`] are these same walks over the 8×8 cells.
//!
//! A solution is accepted when it keeps every given of the start and every
//! row, column and box holds each of the N symbols once. An empty start asks
//! only the second question: is this a valid solved grid.
//!
//! ```
//! use octoku_core::grid::geometry::Geometry;
//! use octoku_core::grid::Grid;
//! use octoku_core::rules::check;
//! let g = Geometry::for_size(4).unwrap();
//! let grid = Grid::from_cells(g, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
//! assert!(check(&Grid::empty(g), &grid).is_empty());
//! ```

use crate::grid::Grid;
use crate::grid::geometry::{Geometry, Unit};

pub mod contradiction;
pub mod verdict;
pub use contradiction::{Contradiction, Words, contradiction, contradiction_in};

/// One reason a solution is rejected.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// The solution is of another shape than the start.
    Shape {
        /// The start's geometry.
        start: Geometry,
        /// The solution's geometry.
        solution: Geometry,
    },
    /// A given of the start was changed (or emptied).
    ChangedGiven {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The start's symbol (1..=N).
        given: u8,
        /// The solution's value there (0 = empty).
        found: u8,
    },
    /// A solution cell that holds no symbol: empty (0), or a value above N
    /// (only an 8×8 uint256 board can hold one, 9 to 15).
    BadCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The cell's value.
        found: u8,
    },
    /// A symbol more than once in a unit.
    Repeated {
        /// The unit.
        unit: Unit,
        /// The symbol (1..=N).
        symbol: u8,
        /// Every cell `(row, col)` of the unit holding it, in reading order.
        cells: Vec<(usize, usize)>,
    },
    /// A symbol missing from a unit.
    Missing {
        /// The unit.
        unit: Unit,
        /// The symbol (1..=N).
        symbol: u8,
    },
}

/// The default name of symbol `v`: `1`-`9`, then `A`-`G`.
pub(crate) fn default_name(v: u8) -> String {
    match v {
        1..=9 => char::from(b'0' + v).to_string(),
        _ => char::from(b'A' + v - 10).to_string(),
    }
}

impl Problem {
    /// The problem in one line, 1-based, naming symbols with `name`.
    pub fn message(&self, geometry: Geometry, name: &dyn Fn(u8) -> String) -> String {
        let at = |r: usize, c: usize| format!("row {} column {}", r + 1, c + 1);
        let range = || format!("{}-{}", name(1), name(geometry.size() as u8));
        match self {
            Problem::Shape { start, solution } => {
                format!(
                    "the solution is a {solution} board; expected a {start} board like the start"
                )
            }
            Problem::ChangedGiven {
                row,
                col,
                given,
                found: 0,
            } => format!("{}: the given {} was emptied", at(*row, *col), name(*given)),
            Problem::ChangedGiven {
                row,
                col,
                given,
                found,
            } => format!(
                "{}: the given {} was changed to {}",
                at(*row, *col),
                name(*given),
                value_name(geometry, name, *found)
            ),
            Problem::BadCell { row, col, found: 0 } => {
                format!("{} is empty; cells must hold {}", at(*row, *col), range())
            }
            Problem::BadCell { row, col, found } => {
                format!(
                    "{} holds {found}; cells must hold {}",
                    at(*row, *col),
                    range()
                )
            }
            Problem::Repeated {
                unit,
                symbol,
                cells,
            } => {
                format!(
                    "{} repeats {} ({})",
                    geometry.describe(*unit),
                    name(*symbol),
                    cells_phrase(*unit, cells)
                )
            }
            Problem::Missing { unit, symbol } => {
                format!("{} misses {}", geometry.describe(*unit), name(*symbol))
            }
        }
    }

    /// The problem in one line with the default symbols (`1`-`9`, then `A`-`G`).
    pub fn describe(&self, geometry: Geometry) -> String {
        self.message(geometry, &default_name)
    }
}

/// A cell value by its symbol's name, or as a number when it is no symbol.
fn value_name(g: Geometry, name: &dyn Fn(u8) -> String, v: u8) -> String {
    if (1..=g.size()).contains(&usize::from(v)) {
        name(v)
    } else {
        v.to_string()
    }
}

/// Every reason `solution` fails for `start`; empty exactly when it is accepted.
///
/// Order: a shape mismatch alone; else as [`check_cells`].
pub fn check(start: &Grid, solution: &Grid) -> Vec<Problem> {
    let g = solution.geometry();
    if start.geometry() != g {
        return vec![Problem::Shape {
            start: start.geometry(),
            solution: g,
        }];
    }
    check_cells(g, start.cells(), solution.cells())
}

/// Every reason the cells `solution` fail for the cells `start`, both of
/// geometry `g` (values above N are reported, not refused).
///
/// Order: changed givens, then cells holding no symbol (both in reading
/// order), then each unit's repeats and misses (rows, columns, boxes; in a
/// unit its repeats, then its misses, symbols ascending).
pub fn check_cells(g: Geometry, start: &[u8], solution: &[u8]) -> Vec<Problem> {
    let n = g.size();
    let mut out = Vec::new();
    for (i, (&given, &found)) in start.iter().zip(solution).enumerate() {
        if given != 0 && given != found {
            let (row, col) = g.position(i);
            out.push(Problem::ChangedGiven {
                row,
                col,
                given,
                found,
            });
        }
    }
    for (i, &found) in solution.iter().enumerate() {
        if !(1..=n).contains(&usize::from(found)) {
            let (row, col) = g.position(i);
            out.push(Problem::BadCell { row, col, found });
        }
    }
    for unit in g.units() {
        let members: Vec<(usize, usize)> = g.unit_cells(unit).collect();
        let mut misses = Vec::new();
        for symbol in 1..=n as u8 {
            let cells: Vec<(usize, usize)> = members
                .iter()
                .copied()
                .filter(|&(r, c)| solution[g.index(r, c)] == symbol)
                .collect();
            match cells.len() {
                0 => misses.push(symbol),
                1 => {}
                _ => out.push(Problem::Repeated {
                    unit,
                    symbol,
                    cells,
                }),
            }
        }
        out.extend(
            misses
                .into_iter()
                .map(|symbol| Problem::Missing { unit, symbol }),
        );
    }
    out
}

/// Whether `solution` keeps every given of `start` and is a valid solved grid.
pub fn is_solution(start: &Grid, solution: &Grid) -> bool {
    solution.keeps_givens(start) && solution.is_valid_grid()
}

/// Joins items as `a`, `a and b` or `a, b and c` (`last` in place of `and`).
pub(crate) fn join_and(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// Names cells `(row, col)` of a unit: `column 5` or `columns 5, 6 and 7` in
/// a row, `rows 1 and 2` in a column, `row 1 column 1 and row 2 column 4` in
/// a box (`no column` or `no row` for none).
pub(crate) fn cells_phrase(unit: Unit, cells: &[(usize, usize)]) -> String {
    let (word, nums): (&str, Vec<String>) = match unit {
        Unit::Row(_) => (
            "column",
            cells.iter().map(|&(_, c)| (c + 1).to_string()).collect(),
        ),
        Unit::Column(_) => (
            "row",
            cells.iter().map(|&(r, _)| (r + 1).to_string()).collect(),
        ),
        Unit::Box(_) => {
            let names: Vec<String> = cells
                .iter()
                .map(|&(r, c)| format!("row {} column {}", r + 1, c + 1))
                .collect();
            return join_and(&names, "and");
        }
    };
    match nums.as_slice() {
        [] => format!("no {word}"),
        [one] => format!("{word} {one}"),
        _ => format!("{word}s {}", join_and(&nums, "and")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid4(cells: [u8; 16]) -> Grid {
        Grid::from_cells(Geometry::for_size(4).unwrap(), &cells).unwrap()
    }

    const VALID: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn a_valid_grid_keeping_its_givens_has_no_problem() {
        let sol = grid4(VALID);
        let mut start = Grid::empty(sol.geometry());
        start.set(0, 0, 1);
        assert!(check(&start, &sol).is_empty());
        assert!(is_solution(&start, &sol));
    }

    #[test]
    fn problems_name_changed_givens_empty_cells_repeats_and_misses() {
        let g = Geometry::for_size(4).unwrap();
        let mut sol = VALID;
        sol[1] = 1; // row 1 now 1 1 3 4
        sol[15] = 0;
        let sol = grid4(sol);
        let mut start = Grid::empty(g);
        start.set(0, 1, 2);
        let name = |v: u8| v.to_string();
        let msgs: Vec<String> = check(&start, &sol)
            .iter()
            .map(|p| p.message(g, &name))
            .collect();
        assert_eq!(
            msgs,
            [
                "row 1 column 2: the given 2 was changed to 1",
                "row 4 column 4 is empty; cells must hold 1-4",
                "row 1 repeats 1 (columns 1 and 2)",
                "row 1 misses 2",
                "row 4 misses 1",
                "column 2 repeats 1 (rows 1 and 3)",
                "column 2 misses 2",
                "column 4 misses 1",
                "subgrid 1 (rows 1-2, columns 1-2) repeats 1 (row 1 column 1 and row 1 column 2)",
                "subgrid 1 (rows 1-2, columns 1-2) misses 2",
                "subgrid 4 (rows 3-4, columns 3-4) misses 1",
            ]
        );
        assert!(!is_solution(&start, &sol));
        let other = Grid::empty(Geometry::CLASSIC);
        assert_eq!(
            check(&other, &sol)[0].message(g, &name),
            "the solution is a 4x4 (2x2 boxes) board; expected a 9x9 (3x3 boxes) board like the start"
        );
    }

    #[test]
    fn join_and_uses_commas_then_the_last_word() {
        let s =
            |v: &[&str], last| join_and(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>(), last);
        assert_eq!(s(&[], "and"), "");
        assert_eq!(s(&["2"], "and"), "2");
        assert_eq!(s(&["2", "7"], "and"), "2 and 7");
        assert_eq!(s(&["2", "5", "7"], "and"), "2, 5 and 7");
        assert_eq!(s(&["2", "5", "7"], "or"), "2, 5 or 7");
    }

    #[test]
    fn cells_phrase_names_cells_by_what_varies_in_the_unit() {
        assert_eq!(cells_phrase(Unit::Row(2), &[(2, 4)]), "column 5");
        assert_eq!(
            cells_phrase(Unit::Row(2), &[(2, 4), (2, 5), (2, 6)]),
            "columns 5, 6 and 7"
        );
        assert_eq!(
            cells_phrase(Unit::Column(0), &[(0, 0), (1, 0)]),
            "rows 1 and 2"
        );
        assert_eq!(
            cells_phrase(Unit::Box(0), &[(0, 0), (1, 3)]),
            "row 1 column 1 and row 2 column 4"
        );
    }
}

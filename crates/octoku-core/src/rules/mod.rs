//! Checking a proposed solution of a board of any geometry, with every reason
//! it fails: the N-board counterpart of [`crate::octoku::explain`].
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
use crate::octoku::explain::cells_phrase;

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
    /// An empty cell of the solution (where the start had none given).
    Empty {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
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

impl Problem {
    /// The problem in one line, 1-based, naming symbols with `name`.
    pub fn message(&self, geometry: Geometry, name: &dyn Fn(u8) -> String) -> String {
        let at = |r: usize, c: usize| format!("row {} column {}", r + 1, c + 1);
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
                name(*found)
            ),
            Problem::Empty { row, col } => format!(
                "{} is empty; every cell of a solution holds a symbol",
                at(*row, *col)
            ),
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
}

/// Every reason `solution` fails for `start`; empty exactly when it is accepted.
///
/// Order: a shape mismatch alone; else changed givens, then empty cells
/// (both in reading order), then each unit's repeats and misses (rows,
/// columns, boxes; in a unit its repeats, then its misses, symbols ascending).
pub fn check(start: &Grid, solution: &Grid) -> Vec<Problem> {
    let g = solution.geometry();
    if start.geometry() != g {
        return vec![Problem::Shape {
            start: start.geometry(),
            solution: g,
        }];
    }
    let mut out = Vec::new();
    for (row, col, given, found) in changed_givens(g, start.cells(), solution.cells()) {
        out.push(Problem::ChangedGiven {
            row,
            col,
            given,
            found,
        });
    }
    for (i, (&s, &v)) in start.cells().iter().zip(solution.cells()).enumerate() {
        if v == 0 && s == 0 {
            let (row, col) = g.position(i);
            out.push(Problem::Empty { row, col });
        }
    }
    for unit in g.units() {
        let (repeats, misses) = tally(g, solution.cells(), unit);
        for (symbol, cells) in repeats {
            out.push(Problem::Repeated {
                unit,
                symbol,
                cells,
            });
        }
        for symbol in misses {
            out.push(Problem::Missing { unit, symbol });
        }
    }
    out
}

/// The givens of `start` that `solution` changed (or emptied), in reading
/// order, as `(row, col, given, found)`; both are cells of geometry `g`.
pub(crate) fn changed_givens<'a>(
    g: Geometry,
    start: &'a [u8],
    solution: &'a [u8],
) -> impl Iterator<Item = (usize, usize, u8, u8)> + 'a {
    start
        .iter()
        .zip(solution)
        .enumerate()
        .filter(|&(_, (&s, &v))| s != 0 && s != v)
        .map(move |(i, (&s, &v))| {
            let (row, col) = g.position(i);
            (row, col, s, v)
        })
}

/// The symbols a unit repeats, each with the (row, column) cells holding it.
pub(crate) type Repeats = Vec<(u8, Vec<(usize, usize)>)>;

/// Unit `unit` of the cells of geometry `g`: the symbols it repeats, each
/// with the cells holding it, and the symbols it misses, both ascending.
pub(crate) fn tally(g: Geometry, cells: &[u8], unit: Unit) -> (Repeats, Vec<u8>) {
    let members: Vec<(usize, usize)> = g.unit_cells(unit).collect();
    let (mut repeats, mut misses) = (Vec::new(), Vec::new());
    for symbol in 1..=g.size() as u8 {
        let holding: Vec<(usize, usize)> = members
            .iter()
            .copied()
            .filter(|&(r, c)| cells[g.index(r, c)] == symbol)
            .collect();
        match holding.len() {
            0 => misses.push(symbol),
            1 => {}
            _ => repeats.push((symbol, holding)),
        }
    }
    (repeats, misses)
}

/// Whether `solution` keeps every given of `start` and is a valid solved grid.
pub fn is_solution(start: &Grid, solution: &Grid) -> bool {
    solution.keeps_givens(start) && solution.is_valid_grid()
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
                "row 4 column 4 is empty; every cell of a solution holds a symbol",
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
}

//! Human-readable reasons why a solution fails, kept apart from the
//! contract mirror in [`verify`](mod@crate::octoku::verify), and why a start board
//! has no solution ([`contradiction`]).
//!
//! Indices inside [`Problem`] and [`Unit`] are 0-based, like the rest of the
//! crate; messages are 1-based ("row 1" to "row 8", see
//! [`Geometry::describe`]) for people.

use std::fmt;

use crate::grid::geometry::{Geometry, Unit};
use crate::octoku::board::Board;
use crate::rules::{changed_givens, tally};

mod contradiction;
pub use contradiction::contradiction;

/// The board shape every message here describes.
const G: Geometry = Geometry::OCTOKU;

/// One reason a solution is rejected.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// A given of the starting board was not kept.
    ChangedGiven {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The starting board's digit.
        given: u8,
        /// The solution's digit.
        found: u8,
    },
    /// A solution cell that is empty (0) or out of range (9..=15).
    BadCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The cell's value.
        found: u8,
    },
    /// A digit 1..=8 that appears more than once in a unit.
    Repeated {
        /// The unit.
        unit: Unit,
        /// The repeated digit.
        digit: u8,
        /// Every cell `(row, col)` of the unit holding it, in reading order.
        cells: Vec<(usize, usize)>,
    },
    /// A digit 1..=8 that does not appear in a unit.
    Missing {
        /// The unit.
        unit: Unit,
        /// The missing digit.
        digit: u8,
    },
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
/// a subgrid (`no column` or `no row` for none).
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

impl fmt::Display for Problem {
    /// Prints one line with 1-based positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::ChangedGiven {
                row,
                col,
                given,
                found,
            } => write!(
                f,
                "row {} column {}: the given {given} was changed to {found}",
                row + 1,
                col + 1
            ),
            Problem::BadCell { row, col, found: 0 } => write!(
                f,
                "row {} column {} is empty; cells must hold 1-8",
                row + 1,
                col + 1
            ),
            Problem::BadCell { row, col, found } => write!(
                f,
                "row {} column {} holds {found}; cells must hold 1-8",
                row + 1,
                col + 1
            ),
            Problem::Repeated { unit, digit, cells } => write!(
                f,
                "{} repeats {digit} ({})",
                G.describe(*unit),
                cells_phrase(*unit, cells)
            ),
            Problem::Missing { unit, digit } => {
                write!(f, "{} misses {digit}", G.describe(*unit))
            }
        }
    }
}

/// Lists every reason `solution` fails for `start`; empty exactly when
/// [`crate::octoku::verify::verify`] accepts.
///
/// Order: changed givens, then bad cells (both in reading order), then each
/// unit's repeats and misses (rows, then columns, then subgrids; digits
/// ascending, repeats before misses within a unit).
pub fn explain(start: Board, solution: Board) -> Vec<Problem> {
    let given = start.cells();
    let cells = solution.cells();
    let mut problems = Vec::new();
    for (row, col, given, found) in changed_givens(G, &given, &cells) {
        problems.push(Problem::ChangedGiven {
            row,
            col,
            given,
            found,
        });
    }
    for (i, &s) in cells.iter().enumerate() {
        if !(1..=8).contains(&s) {
            let (row, col) = G.position(i);
            problems.push(Problem::BadCell { row, col, found: s });
        }
    }
    for unit in G.units() {
        let (repeats, misses) = tally(G, &cells, unit);
        for (digit, cells) in repeats {
            problems.push(Problem::Repeated { unit, digit, cells });
        }
        for digit in misses {
            problems.push(Problem::Missing { unit, digit });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octoku::verify::verify;
    use proptest::prelude::*;
    use ruint::aliases::U256;

    const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";

    fn board(s: &str) -> Board {
        s.parse().expect("test board parses")
    }

    #[test]
    fn valid_solution_has_no_problems() {
        assert!(explain(board(START), Board::BASE_GRID).is_empty());
    }

    #[test]
    fn units_are_named_one_based() {
        assert_eq!(G.describe(Unit::Row(0)), "row 1");
        assert_eq!(G.describe(Unit::Column(7)), "column 8");
        assert_eq!(
            G.describe(Unit::Box(3)),
            "subgrid 4 (rows 3-4, columns 5-8)"
        );
    }

    #[test]
    fn changed_last_cell_reports_given_repeats_and_misses() {
        let bad = Board::BASE_GRID.with_cell(7, 7, 7);
        let problems = explain(board(START), bad);
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            vec![
                "row 8 column 8: the given 8 was changed to 7",
                "row 8 repeats 7 (columns 5 and 8)",
                "row 8 misses 8",
                "column 8 repeats 7 (rows 2 and 8)",
                "column 8 misses 8",
                "subgrid 8 (rows 7-8, columns 5-8) repeats 7 (row 8 column 5 and row 8 column 8)",
                "subgrid 8 (rows 7-8, columns 5-8) misses 8",
            ]
        );
    }

    #[test]
    fn bad_cells_are_reported_in_reading_order_before_units() {
        let b = Board::BASE_GRID.with_cell(1, 0, 9).with_cell(0, 3, 0);
        let problems = explain(Board::EMPTY, b);
        assert_eq!(
            problems[0].to_string(),
            "row 1 column 4 is empty; cells must hold 1-8"
        );
        assert_eq!(
            problems[1].to_string(),
            "row 2 column 1 holds 9; cells must hold 1-8"
        );
        assert!(matches!(
            problems[2],
            Problem::Missing {
                unit: Unit::Row(0),
                digit: 5
            }
        ));
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

    fn any_board() -> impl Strategy<Value = Board> {
        any::<[u64; 4]>().prop_map(|l| Board(U256::from_limbs(l)))
    }

    /// A known-valid grid with a few random edits, plus a start that keeps a
    /// random subset of the original cells.
    fn near_valid_pair() -> impl Strategy<Value = (Board, Board)> {
        (
            prop::collection::vec((0usize..8, 0usize..8, 0u8..16), 0..=2),
            any::<u64>(),
        )
            .prop_map(|(edits, keep)| {
                let valid = Board::BASE_GRID;
                let mut start = valid.cells();
                for (i, c) in start.iter_mut().enumerate() {
                    if keep >> i & 1 == 0 {
                        *c = 0;
                    }
                }
                let solution = edits
                    .into_iter()
                    .fold(valid, |b, (r, c, d)| b.with_cell(r, c, d));
                (Board::from_cells(&start), solution)
            })
    }

    proptest! {
        #[test]
        fn explain_is_empty_iff_verify_on_random_boards(start in any_board(), solution in any_board()) {
            prop_assert_eq!(explain(start, solution).is_empty(), verify(start, solution));
        }

        #[test]
        fn explain_is_empty_iff_verify_near_valid((start, solution) in near_valid_pair()) {
            prop_assert_eq!(explain(start, solution).is_empty(), verify(start, solution));
        }

        #[test]
        fn every_problem_prints_one_line((start, solution) in near_valid_pair()) {
            for p in explain(start, solution) {
                let line = p.to_string();
                prop_assert!(!line.contains('\n'));
                prop_assert!(!line.is_empty());
            }
        }
    }
}

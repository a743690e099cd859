//! Human-readable reasons why an 8×8 solution fails, kept apart from the
//! contract mirror in [`verify`](mod@crate::octoku::verify), and why a start
//! board has no solution ([`contradiction`]): the family's rules
//! ([`crate::rules`]) walked over the 64 cells of a uint256 board, worded in
//! digits 1-8.
//!
//! Indices inside [`Problem`] and [`Unit`](crate::grid::geometry::Unit) are 0-based, like the rest of the
//! crate; messages are 1-based ("row 1" to "row 8", see
//! [`Geometry::describe`]) for people.

use crate::grid::board::Board;
use crate::grid::geometry::Geometry;
use crate::rules::{self, Words};
use crate::solve::octoku::checked_cells;

pub use crate::rules::Problem;

/// The board shape every message here describes.
const G: Geometry = Geometry::OCTOKU;

/// Lists every reason `solution` fails for `start`; empty exactly when
/// [`crate::octoku::verify::verify`] accepts.
///
/// Order: changed givens, then bad cells (both in reading order), then each
/// unit's repeats and misses (rows, then columns, then subgrids; digits
/// ascending, repeats before misses within a unit).
pub fn explain(start: Board, solution: Board) -> Vec<Problem> {
    rules::check_cells(G, &start.cells(), &solution.cells())
}

/// A problem in one line, 1-based, with the digits 1-8.
pub fn describe(problem: &Problem) -> String {
    problem.describe(G)
}

/// A simple human reason why a board has no solution, when one is visible
/// from the givens alone; `None` when none is found (the board may still be
/// unsolvable).
///
/// Looks, in order, for: a value that is no digit; then the family's search
/// ([`rules::contradiction_in`]) with subsets up to 8 cells or digits.
pub fn contradiction(start: Board) -> Option<String> {
    let cells = match checked_cells(start) {
        Ok(c) => c,
        Err(e) => return Some(e.to_string()),
    };
    rules::contradiction_in(G, &cells, G.size())
        .map(|c| c.worded(G, &rules::default_name, Words::Digits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::Unit;
    use crate::octoku::verify::verify;
    use crate::solve::octoku::solve;
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
        let lines: Vec<String> = problems.iter().map(describe).collect();
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
            describe(&problems[0]),
            "row 1 column 4 is empty; cells must hold 1-8"
        );
        assert_eq!(
            describe(&problems[1]),
            "row 2 column 1 holds 9; cells must hold 1-8"
        );
        assert!(matches!(
            problems[2],
            Problem::Missing {
                unit: Unit::Row(0),
                symbol: 5
            }
        ));
    }

    #[test]
    fn contradiction_names_duplicate_givens_and_dead_cells() {
        let b = Board::EMPTY.with_cell(1, 0, 4).with_cell(1, 6, 4);
        assert_eq!(contradiction(b).as_deref(), Some("row 2 holds 4 twice"));
        assert_eq!(solve(b), Ok(None));
        let b = Board::EMPTY.with_cell(0, 0, 3).with_cell(7, 0, 3);
        assert_eq!(contradiction(b).as_deref(), Some("column 1 holds 3 twice"));
        let b = Board::EMPTY.with_cell(0, 0, 3).with_cell(1, 3, 3);
        assert!(contradiction(b).unwrap().starts_with("subgrid 1"));
        // Row 1 column 1 sees 1-4 in its row and 5-8 in its column.
        let mut b = Board::EMPTY;
        for (k, d) in (1..=4).enumerate() {
            b = b.with_cell(0, k + 1, d);
        }
        for (k, d) in (5..=8).enumerate() {
            b = b.with_cell(k + 2, 0, d);
        }
        assert_eq!(
            contradiction(b).as_deref(),
            Some("row 1 column 1 can take no digit: its row, column and subgrid already hold 1-8")
        );
        assert_eq!(solve(b), Ok(None));
        assert_eq!(contradiction(Board::BASE_GRID), None);
        assert_eq!(contradiction(Board::EMPTY), None);
    }

    /// The 8×8 words: "digits 5 and 6" where the family says "5 and 6".
    #[test]
    fn contradiction_names_crowded_digits_as_digits() {
        let start = board("0x0000056070423000000000000000000000000000000000000000800100000000");
        let found = rules::contradiction_in(G, &start.cells(), G.size()).unwrap();
        assert_eq!(
            contradiction(start).as_deref(),
            Some("row 2: digits 5 and 6 can only go in column 2")
        );
        assert_eq!(found.describe(G), "row 2: 5 and 6 can only go in column 2");
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
                let line = describe(&p);
                prop_assert!(!line.contains('\n'));
                prop_assert!(!line.is_empty());
            }
        }
    }
}

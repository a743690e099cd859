//! Solution checking: a bit-for-bit mirror of the published Curta puzzle #1
//! `verify(start, solution)`, plus a fast independent validity check.
//!
//! The mirror walks the 64 nibbles from the low end. At each nibble it first
//! checks that a given of `start` is kept, then runs whichever row, column and
//! subgrid checks the [`CHECKS`] table lists for that nibble. Each check reads
//! eight nibbles of the (shifted) solution, stepping by the 6-bit fields of a
//! shift table, and demands that they are exactly the digits 1..=8.

use ruint::aliases::U256;
use ruint::uint;

use crate::grid::board::Board;
use crate::grid::geometry::Geometry;

/// Which checks start at each nibble: bit 2 row, bit 1 column, bit 0 subgrid.
///
/// Nibble `k` is the cell at row `7 - k / 8`, column `7 - k % 8`. Reading the
/// hex literal from its last digit backwards gives nibbles 0, 1, 2, ...:
///
/// | nibble | cell (row, col) | value | checks                 |
/// |--------|-----------------|-------|------------------------|
/// | 0      | (7, 7)          | 7     | row 7, column 7, subgrid 7 |
/// | 1..=3  | (7, 6..=4)      | 2     | columns 6, 5, 4        |
/// | 4      | (7, 3)          | 3     | column 3, subgrid 6    |
/// | 5..=7  | (7, 2..=0)      | 2     | columns 2, 1, 0        |
/// | 8      | (6, 7)          | 4     | row 6                  |
/// | 16     | (5, 7)          | 5     | row 5, subgrid 5       |
/// | 20     | (5, 3)          | 1     | subgrid 4              |
/// | 24     | (4, 7)          | 4     | row 4                  |
/// | 32     | (3, 7)          | 5     | row 3, subgrid 3       |
/// | 36     | (3, 3)          | 1     | subgrid 2              |
/// | 40     | (2, 7)          | 4     | row 2                  |
/// | 48     | (1, 7)          | 5     | row 1, subgrid 1       |
/// | 52     | (1, 3)          | 1     | subgrid 0              |
/// | 56     | (0, 7)          | 4     | row 0                  |
///
/// Every other nibble is 0. So each row check starts at the row's rightmost
/// cell, each column check at the column's bottom cell, and each subgrid check
/// at the subgrid's bottom-right cell.
pub const CHECKS: U256 = uint!(0x400010005000000040001000500000004000100050000000422232227_U256);

/// Shifts for a row check: eight 6-bit fields, each 4 (next nibble to the left).
///
/// Starting at nibble `k` it reads nibbles `k, k+1, ..., k+7`.
pub const ROW_SHIFTS: u64 = 0x104104104104;

/// Shifts for a column check: eight 6-bit fields, each 32 (one row up).
///
/// Starting at nibble `k` it reads nibbles `k, k+8, ..., k+56`.
pub const COL_SHIFTS: u64 = 0x820820820820;

/// Shifts for a subgrid check: 6-bit fields, low end first, 4, 4, 4, 20, 4, 4, 4, 4.
///
/// Starting at nibble `k` it reads nibbles `k..k+4` (one row of the 2x4
/// subgrid), skips 20 bits to `k+8`, then reads `k+8..k+12` (the row above).
pub const SUBGRID_SHIFTS: u64 = 0x104104504104;

/// The bitmap of a unit holding exactly the digits 1..=8: bits 1 to 8 set.
pub const FILLED_BITMAP: u32 = 0x1FE;

/// Returns whether `solution` solves `start`, exactly as the contract decides.
///
/// Mirrors the contract's loop:
///
/// ```solidity
/// for (uint256 index; index < 256; index += 4) {
///     if (start & 0xF != 0 && start & 0xF != solution & 0xF) return false;
///     uint256 checks = (CHECKS >> index) & 7;
///     if (checks & 4 == 4 && !check(solution, ROW_SHIFTS)) return false;
///     if (checks & 2 == 2 && !check(solution, COL_SHIFTS)) return false;
///     if (checks & 1 == 1 && !check(solution, SUBGRID_SHIFTS)) return false;
///     start >>= 4;
///     solution >>= 4;
/// }
/// return true;
/// ```
pub fn verify(start: Board, solution: Board) -> bool {
    let nibble_mask = U256::from(0xFu8);
    let mut start = start.0;
    let mut solution = solution.0;
    for index in (0usize..256).step_by(4) {
        let given = start & nibble_mask;
        if !given.is_zero() && given != solution & nibble_mask {
            return false;
        }
        let checks = ((CHECKS >> index) & U256::from(7u8)).as_limbs()[0];
        if checks & 4 == 4 && !check(solution, ROW_SHIFTS) {
            return false;
        }
        if checks & 2 == 2 && !check(solution, COL_SHIFTS) {
            return false;
        }
        if checks & 1 == 1 && !check(solution, SUBGRID_SHIFTS) {
            return false;
        }
        start >>= 4;
        solution >>= 4;
    }
    true
}

/// Mirrors the contract's `check(shifted, shifts)`.
///
/// ```solidity
/// uint256 bitmap;
/// while (shifts != 0) {
///     bitmap |= 1 << (shifted & 0xF);
///     shifted >>= (shifts & 0x3F);
///     shifts >>= 6;
/// }
/// return bitmap == FILLED_BITMAP;
/// ```
fn check(shifted: U256, shifts: u64) -> bool {
    let mut shifted = shifted;
    let mut shifts = shifts;
    let mut bitmap: u32 = 0;
    while shifts != 0 {
        bitmap |= 1 << (shifted.as_limbs()[0] & 0xF);
        shifted >>= (shifts & 0x3F) as usize;
        shifts >>= 6;
    }
    bitmap == FILLED_BITMAP
}

/// Returns whether every row, column and subgrid of `solution` holds exactly 1..=8.
///
/// This is an independent, straightforward check (not a mirror of the
/// contract); it ignores any starting board.
pub fn is_valid_grid(solution: Board) -> bool {
    let g = Geometry::OCTOKU;
    let cells = solution.cells();
    g.units().all(|unit| {
        let bitmap = g
            .unit_cells(unit)
            .fold(0u32, |seen, (r, c)| seen | 1 << cells[g.index(r, c)]);
        bitmap == FILLED_BITMAP
    })
}

/// Returns whether every given (non-zero cell) of `start` is kept in `solution`.
pub fn keeps_givens(start: Board, solution: Board) -> bool {
    start
        .cells()
        .iter()
        .zip(solution.cells().iter())
        .all(|(&g, &s)| g == 0 || g == s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn board(s: &str) -> Board {
        s.parse().expect("test board parses")
    }

    #[test]
    fn checks_table_matches_its_documented_layout() {
        let mut want = U256::ZERO;
        for r in 0..8 {
            want |= U256::from(4u8) << (4 * (8 * r)); // rows: nibble 8r
        }
        for c in 0..8 {
            want |= U256::from(2u8) << (4 * c); // columns: nibbles 0..8
        }
        for band in 0..4 {
            for stack in 0..2 {
                want |= U256::from(1u8) << (4 * (16 * band + 4 * stack)); // subgrids
            }
        }
        assert_eq!(CHECKS, want);
    }

    #[test]
    fn shift_tables_have_documented_fields() {
        let fields = |mut v: u64| {
            let mut out = Vec::new();
            while v != 0 {
                out.push(v & 0x3F);
                v >>= 6;
            }
            out
        };
        assert_eq!(fields(ROW_SHIFTS), vec![4; 8]);
        assert_eq!(fields(COL_SHIFTS), vec![32; 8]);
        assert_eq!(fields(SUBGRID_SHIFTS), vec![4, 4, 4, 20, 4, 4, 4, 4]);
        assert_eq!(FILLED_BITMAP, 0b1_1111_1110);
    }

    #[test]
    fn geometry_boxes_follow_the_subgrid_numbering_of_checks() {
        // Subgrid s's check starts at its bottom-right cell (see CHECKS).
        use crate::grid::geometry::Unit;
        let g = Geometry::OCTOKU;
        let cells = |s| g.unit_cells(Unit::Box(s)).collect::<Vec<_>>();
        assert_eq!(cells(0)[0], (0, 0));
        assert_eq!(cells(0)[7], (1, 3));
        assert_eq!(cells(5)[0], (4, 4));
        assert_eq!(cells(7)[7], (7, 7));
        for s in 0..8 {
            let (r, c) = cells(s)[7];
            assert_eq!(
                CHECKS >> (4 * (63 - g.index(r, c))) & U256::from(1u8),
                U256::from(1u8)
            );
        }
    }

    #[test]
    fn published_vector_valid_solution_is_accepted() {
        let start = board("0x0000000000003000007001000000000000000040500000060000000000020008");
        assert!(verify(start, Board::BASE_GRID));
    }

    #[test]
    fn published_vector_last_cell_changed_is_rejected() {
        let start = board("0x0000000000003000007001000000000000000040500000060000000000020008");
        let bad = Board::BASE_GRID.with_cell(7, 7, 7);
        assert!(!verify(start, bad));
    }

    #[test]
    fn published_vector_empty_start_accepts_valid_grid() {
        assert!(verify(Board::EMPTY, Board::BASE_GRID));
        assert!(is_valid_grid(Board::BASE_GRID));
    }

    #[test]
    fn changed_given_is_rejected_even_if_grid_is_valid() {
        let start = Board::EMPTY.with_cell(0, 0, 1);
        assert!(!verify(start, Board::BASE_GRID));
    }

    #[test]
    fn empty_solution_is_rejected() {
        assert!(!verify(Board::EMPTY, Board::EMPTY));
        assert!(!is_valid_grid(Board::EMPTY));
    }

    /// A valid grid: the base grid moved by any map of the board's symmetry
    /// group and relabelled, so tests see many valid solutions.
    fn valid_grid() -> impl Strategy<Value = Board> {
        use crate::octoku::symmetry;
        (
            Just([1u8, 2, 3, 4, 5, 6, 7, 8]).prop_shuffle(),
            0..symmetry::ORDER,
        )
            .prop_map(|(digits, map)| {
                let map = symmetry::from_index(map).expect("a map number below the order");
                symmetry::relabel(symmetry::apply(&map, Board::BASE_GRID), &digits)
            })
    }

    fn any_board() -> impl Strategy<Value = Board> {
        any::<[u64; 4]>().prop_map(|l| Board(U256::from_limbs(l)))
    }

    /// A board whose cells are mostly 0..=8, so units are sometimes complete.
    fn small_digit_board() -> impl Strategy<Value = Board> {
        prop::collection::vec(0u8..=9, 64).prop_map(|v| {
            let mut cells = [0u8; 64];
            cells.copy_from_slice(&v);
            Board::from_cells(&cells)
        })
    }

    /// A valid grid with up to three cells overwritten by arbitrary nibbles.
    fn near_valid() -> impl Strategy<Value = Board> {
        (
            valid_grid(),
            prop::collection::vec((0usize..8, 0usize..8, 0u8..16), 0..=3),
        )
            .prop_map(|(b, edits)| {
                edits
                    .into_iter()
                    .fold(b, |b, (r, c, d)| b.with_cell(r, c, d))
            })
    }

    /// A start built by keeping a random subset of `solution`'s cells, with an
    /// occasional wrong given.
    fn start_for(solution: Board) -> impl Strategy<Value = (Board, Board)> {
        (
            any::<u64>(),
            prop::option::weighted(0.2, (0usize..64, 0u8..16)),
        )
            .prop_map(move |(keep, wrong)| {
                let mut cells = solution.cells();
                for (i, c) in cells.iter_mut().enumerate() {
                    if keep >> i & 1 == 0 {
                        *c = 0;
                    }
                }
                if let Some((i, d)) = wrong {
                    cells[i] = d;
                }
                (Board::from_cells(&cells), solution)
            })
    }

    proptest! {
        #[test]
        fn generated_valid_grids_are_valid(b in valid_grid()) {
            prop_assert!(is_valid_grid(b));
            prop_assert!(verify(Board::EMPTY, b));
        }

        #[test]
        fn verify_equals_valid_grid_and_kept_givens_on_random_boards(start in any_board(), solution in any_board()) {
            prop_assert_eq!(verify(start, solution), is_valid_grid(solution) && keeps_givens(start, solution));
        }

        #[test]
        fn verify_equals_valid_grid_and_kept_givens_on_small_digits(start in small_digit_board(), solution in small_digit_board()) {
            prop_assert_eq!(verify(start, solution), is_valid_grid(solution) && keeps_givens(start, solution));
        }

        #[test]
        fn verify_equals_valid_grid_and_kept_givens_near_valid(
            (start, solution) in near_valid().prop_flat_map(start_for)
        ) {
            prop_assert_eq!(verify(start, solution), is_valid_grid(solution) && keeps_givens(start, solution));
        }
    }
}

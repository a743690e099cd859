//! The 8x8 board, packed into a 256-bit word exactly as the puzzle contract
//! packs it.
//!
//! Nibble `k` (bits `4k..4k+3`) holds the cell at row `7 - k / 8`, column
//! `7 - k % 8`. Equivalently, reading-order index `i = 8 * row + col` is nibble
//! `63 - i`, so the 64 hex digits of the word, most significant first, are the
//! board in reading order. Digit 0 means an empty cell; nibbles may hold 9..=15,
//! which no solution accepts but which a board can still represent.

use std::fmt;
use std::str::FromStr;

use alloy_primitives::hex;
use ruint::aliases::U256;
use ruint::uint;

use crate::error::{ParseError, Subject, check_hex_digits};
use crate::grid::geometry::Geometry;
use crate::grid::{CellsError, Grid};

/// An 8x8 board packed into a `U256`, one 4-bit cell per nibble.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Board(pub U256);

/// Maps a reading-order index `8 * row + col` to its nibble number.
const fn nibble_of(row: usize, col: usize) -> usize {
    63 - (8 * row + col)
}

impl Board {
    /// The board with every cell empty.
    pub const EMPTY: Board = Board(U256::ZERO);

    /// The base grid: the published example solution (the `verify` vector),
    /// the valid grid that tests, cases and the fair puzzle start from.
    ///
    /// ```text
    /// 7 2 3 5 | 8 6 1 4
    /// 1 8 4 6 | 3 2 5 7
    /// --------+--------
    /// 4 5 7 3 | 6 1 8 2
    /// 8 6 2 1 | 4 5 7 3
    /// --------+--------
    /// 2 3 6 8 | 1 7 4 5
    /// 5 4 1 7 | 2 8 3 6
    /// --------+--------
    /// 6 7 8 4 | 5 3 2 1
    /// 3 1 5 2 | 7 4 6 8
    /// ```
    pub const BASE_GRID: Board = Board(uint!(
        0x7235861418463257457361828621457323681745541728366784532131527468_U256
    ));

    /// Wraps a packed word as a board.
    pub const fn from_u256(v: U256) -> Board {
        Board(v)
    }

    /// Returns the packed word.
    pub const fn to_u256(self) -> U256 {
        self.0
    }

    /// Returns nibble `k` (bits `4k..4k+3`).
    ///
    /// # Panics
    /// Panics if `k >= 64`; that is a caller bug, never a property of input data.
    pub fn nibble(self, k: usize) -> u8 {
        assert!(k < 64, "nibble index {k} out of range 0..64");
        let limb = self.0.as_limbs()[k / 16];
        ((limb >> ((k % 16) * 4)) & 0xF) as u8
    }

    /// Returns the cell at `row`, `col` (both 0-based).
    ///
    /// # Panics
    /// Panics if `row >= 8` or `col >= 8`.
    pub fn cell(self, row: usize, col: usize) -> u8 {
        assert!(row < 8 && col < 8, "cell ({row}, {col}) out of range");
        self.nibble(nibble_of(row, col))
    }

    /// Returns a copy with the cell at `row`, `col` set to `digit`.
    ///
    /// Only the low 4 bits of `digit` are stored.
    ///
    /// # Panics
    /// Panics if `row >= 8` or `col >= 8`.
    pub fn with_cell(self, row: usize, col: usize, digit: u8) -> Board {
        assert!(row < 8 && col < 8, "cell ({row}, {col}) out of range");
        let k = nibble_of(row, col);
        let shift = (k % 16) * 4;
        let mut limbs = *self.0.as_limbs();
        limbs[k / 16] = (limbs[k / 16] & !(0xF << shift)) | (u64::from(digit & 0xF) << shift);
        Board(U256::from_limbs(limbs))
    }

    /// Returns all 64 cells in reading order (index `8 * row + col`).
    pub fn cells(self) -> [u8; 64] {
        let mut out = [0u8; 64];
        for (i, byte) in self.0.to_be_bytes::<32>().iter().enumerate() {
            out[2 * i] = byte >> 4;
            out[2 * i + 1] = byte & 0xF;
        }
        out
    }

    /// Builds a board from 64 cells in reading order, keeping the low 4 bits of each.
    pub fn from_cells(cells: &[u8; 64]) -> Board {
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = ((cells[2 * i] & 0xF) << 4) | (cells[2 * i + 1] & 0xF);
        }
        Board(U256::from_be_bytes(bytes))
    }

    /// Counts the non-empty cells.
    pub fn givens(self) -> usize {
        self.cells().iter().filter(|&&c| c != 0).count()
    }

    /// Formats as `0x` followed by exactly 64 lowercase hex digits.
    pub fn to_hex(self) -> String {
        hex::encode_prefixed(self.0.to_be_bytes::<32>())
    }

    /// Formats as 64 characters in reading order: `.` for empty, else the hex digit.
    pub fn compact(self) -> String {
        self.cells().iter().map(|&c| cell_char(c)).collect()
    }

    /// Formats as a multi-line 8x8 grid.
    ///
    /// Empty cells are `.`, other cells their hex digit. The two 4-column
    /// stacks are separated by `|` and each band of two rows by a rule line:
    ///
    /// ```text
    /// 7 2 3 5 | 8 6 1 4
    /// 1 8 4 6 | 3 2 5 7
    /// --------+--------
    /// ...
    /// ```
    ///
    /// Lines are joined by `\n`, with no trailing spaces and no final newline.
    /// The output parses back with [`str::parse`] when every cell is 0..=8.
    pub fn grid(self) -> String {
        let g = Geometry::OCTOKU;
        let cells = self.cells();
        let stacks = g.size() / g.box_cols();
        let rule = vec!["-".repeat(2 * g.box_cols()); stacks].join("+");
        let mut lines: Vec<String> = Vec::with_capacity(11);
        for row in 0..g.size() {
            if row > 0 && row % g.box_rows() == 0 {
                lines.push(rule.clone());
            }
            let mut line = String::with_capacity(rule.len());
            for col in 0..g.size() {
                if col > 0 {
                    line.push_str(if col % g.box_cols() == 0 { " | " } else { " " });
                }
                line.push(cell_char(cells[g.index(row, col)]));
            }
            lines.push(line);
        }
        lines.join("\n")
    }
}

/// The lowercase hex digit for a nibble value.
fn hex_char(v: u8) -> char {
    char::from_digit(u32::from(v & 0xF), 16).unwrap_or('?')
}

/// The grid/compact character for a cell: `.` for empty, else its hex digit.
fn cell_char(v: u8) -> char {
    if v == 0 { '.' } else { hex_char(v) }
}

impl From<U256> for Board {
    fn from(v: U256) -> Board {
        Board(v)
    }
}

impl From<Board> for U256 {
    fn from(b: Board) -> U256 {
        b.0
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_hex())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Characters dropped from a grid before counting its cells.
fn is_grid_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '-' | '+')
}

/// Whether `c` is a valid grid cell character.
fn is_grid_cell(c: char) -> bool {
    matches!(c, '0'..='8' | '.')
}

/// A board serialises as its 0x-prefixed hex word, as it displays
/// (`"0x0000…"`): the form every JSON document of octoku gives a board in.
impl serde::Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for Board {
    type Err = ParseError;

    /// Parses a board from hex, decimal or grid text.
    ///
    /// After trimming surrounding whitespace:
    /// 1. `0x`/`0X` followed by 1 to 64 hex digits is the packed word.
    /// 2. Exactly 64 characters, all digits or `.`, is a grid in reading order
    ///    (`.` = empty); a `9` there is an error. A 64-digit decimal number is
    ///    therefore read as a grid: write such numbers in hex.
    /// 3. Otherwise a string of decimal digits is a number below 2^256.
    /// 4. A grid may also contain whitespace, `|`, `-` and `+` separators (as
    ///    [`Board::grid`] prints); it is accepted when exactly 64 cells of
    ///    `0`-`8` or `.` remain after removing them.
    fn from_str(s: &str) -> Result<Board, ParseError> {
        const WHAT: Subject = Subject::Board;
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseError::Empty { what: WHAT });
        }
        if let Some(digits) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            return parse_hex(digits).map(Board);
        }
        // Exactly 64 digits or dots is always a grid (a 64-digit decimal must
        // be written in hex), so a stray 9 is reported as a bad cell.
        if s.chars().count() == 64 && s.chars().all(|c| c.is_ascii_digit() || c == '.') {
            if let Some((position, found)) = s.chars().enumerate().find(|&(_, c)| !is_grid_cell(c))
            {
                return Err(ParseError::BadGridCell { position, found });
            }
            return Ok(parse_grid_cells(s.chars()));
        }
        if s.chars().all(|c| c.is_ascii_digit()) {
            return parse_decimal(s).map(Board);
        }
        // Something other than digits: it can only be a grid with separators.
        let cells: Vec<(usize, char)> = s
            .chars()
            .enumerate()
            .filter(|&(_, c)| !is_grid_separator(c))
            .collect();
        let looks_like_grid = cells
            .iter()
            .all(|&(_, c)| c.is_ascii_hexdigit() || c == '.');
        if looks_like_grid && cells.len() == 64 {
            if let Some((cell, &(_, found))) = cells
                .iter()
                .enumerate()
                .find(|&(_, &(_, c))| !is_grid_cell(c))
            {
                return Err(ParseError::BadGridCell {
                    position: cell,
                    found,
                });
            }
            return Ok(parse_grid_cells(cells.iter().map(|&(_, c)| c)));
        }
        let looks_like_short_grid = cells.iter().all(|&(_, c)| c.is_ascii_digit() || c == '.')
            && (s.contains('.') || cells.len() > 8);
        if looks_like_short_grid {
            return Err(ParseError::BadLength {
                what: WHAT,
                unit: "grid cells",
                expected: 64,
                found: cells.len(),
            });
        }
        let (position, found) = s
            .chars()
            .enumerate()
            .find(|&(_, c)| !c.is_ascii_digit())
            .unwrap_or((0, '?'));
        Err(ParseError::BadCharacter {
            what: WHAT,
            position: position + 1,
            found,
        })
    }
}

/// Builds a board from exactly 64 already-validated grid characters.
fn parse_grid_cells(chars: impl Iterator<Item = char>) -> Board {
    let mut cells = [0u8; 64];
    for (cell, c) in cells.iter_mut().zip(chars) {
        *cell = c.to_digit(10).map_or(0, |d| d as u8);
    }
    Board::from_cells(&cells)
}

/// Parses the digits after `0x`: 1 to 64 hex digits.
fn parse_hex(digits: &str) -> Result<U256, ParseError> {
    const WHAT: Subject = Subject::Board;
    check_hex_digits(digits, WHAT, 2)?;
    // Every character is now an ASCII hex digit, so bytes == chars.
    let too_long = ParseError::TooLong {
        what: WHAT,
        max: 64,
        found: digits.len(),
    };
    if digits.len() > 64 {
        return Err(too_long);
    }
    U256::from_str_radix(digits, 16).map_err(|_| too_long)
}

/// Parses a non-empty string of ASCII decimal digits into a `U256`.
fn parse_decimal(digits: &str) -> Result<U256, ParseError> {
    let ten = U256::from(10u8);
    digits.chars().try_fold(U256::ZERO, |acc, c| {
        let d = U256::from(c.to_digit(10).unwrap_or(0));
        acc.checked_mul(ten)
            .and_then(|v| v.checked_add(d))
            .ok_or(ParseError::Overflow {
                what: Subject::Board,
            })
    })
}

impl TryFrom<Board> for Grid {
    type Error = CellsError;

    /// The 8×8 board as a [`Grid`] of [`Geometry::OCTOKU`]; a nibble of 9..=15 is an error.
    fn try_from(board: Board) -> Result<Grid, CellsError> {
        Grid::from_cells(Geometry::OCTOKU, &board.cells())
    }
}

impl TryFrom<&Grid> for Board {
    type Error = CellsError;

    /// The packed 8×8 word of a board of [`Geometry::OCTOKU`].
    fn try_from(board: &Grid) -> Result<Board, CellsError> {
        match <&[u8; 64]>::try_from(board.cells()) {
            Ok(cells) if board.geometry() == Geometry::OCTOKU => Ok(Board::from_cells(cells)),
            _ => Err(CellsError::NotOctoku {
                geometry: board.geometry(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Result<Board, ParseError> {
        s.parse()
    }

    #[test]
    fn nibble_zero_is_bottom_right_cell() {
        let b = Board(U256::from(5u8));
        assert_eq!(b.nibble(0), 5);
        assert_eq!(b.cell(7, 7), 5);
        assert_eq!(b.cells()[63], 5);
    }

    #[test]
    fn top_left_cell_is_most_significant_nibble() {
        let b = Board::EMPTY.with_cell(0, 0, 3);
        assert_eq!(b.0, U256::from(3u8) << 252);
        assert_eq!(b.nibble(63), 3);
        assert!(b.to_hex().starts_with("0x3000"));
    }

    #[test]
    fn with_cell_replaces_only_that_cell_and_masks_to_four_bits() {
        let b = Board::BASE_GRID;
        let c = b.with_cell(2, 5, 0x1F);
        assert_eq!(c.cell(2, 5), 0xF);
        for r in 0..8 {
            for col in 0..8 {
                if (r, col) != (2, 5) {
                    assert_eq!(c.cell(r, col), b.cell(r, col));
                }
            }
        }
    }

    #[test]
    fn hex_is_reading_order() {
        let b = Board::BASE_GRID;
        let hex = b.to_hex();
        assert_eq!(hex, format!("{:#066x}", b.0));
        assert_eq!(parse(&hex), Ok(b));
        assert_eq!(b.compact(), &hex[2..]);
        assert_eq!(b.cell(0, 0), 7);
        assert_eq!(b.cell(0, 1), 2);
        assert_eq!(b.cell(7, 7), 8);
        assert_eq!(b.givens(), 64);
    }

    #[test]
    fn compact_shows_empty_as_dot() {
        let b = Board::EMPTY.with_cell(0, 1, 4).with_cell(7, 7, 0xc);
        let mut expected = ".".repeat(64);
        expected.replace_range(1..2, "4");
        expected.replace_range(63..64, "c");
        assert_eq!(b.compact(), expected);
        assert_eq!(b.givens(), 2);
    }

    #[test]
    fn grid_has_stack_bar_and_band_rules_without_trailing_spaces() {
        let g = Board::BASE_GRID.grid();
        let lines: Vec<&str> = g.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "7 2 3 5 | 8 6 1 4");
        assert_eq!(lines[2], "--------+--------");
        assert_eq!(lines[10], "3 1 5 2 | 7 4 6 8");
        assert!(lines.iter().all(|l| !l.ends_with(' ')));
        assert!(!g.ends_with('\n'));
    }

    #[test]
    fn parses_short_hex_and_uppercase_prefix() {
        assert_eq!(parse("0x1").unwrap(), Board(U256::from(1u8)));
        assert_eq!(parse("  0XfF \n").unwrap(), Board(U256::from(255u16)));
    }

    #[test]
    fn parses_decimal() {
        assert_eq!(parse("1234").unwrap(), Board(U256::from(1234u16)));
        assert_eq!(parse(&U256::MAX.to_string()).unwrap(), Board(U256::MAX));
    }

    #[test]
    fn sixty_four_digits_of_zero_to_eight_are_a_grid_not_a_number() {
        let digits = Board::BASE_GRID.compact();
        assert!(digits.chars().all(|c| c.is_ascii_digit()));
        assert_eq!(parse(&digits), Ok(Board::BASE_GRID));
    }

    #[test]
    fn sixty_four_digits_with_a_nine_is_a_bad_grid_not_a_number() {
        let s = format!("{}9", "0".repeat(63));
        assert_eq!(
            parse(&s),
            Err(ParseError::BadGridCell {
                position: 63,
                found: '9'
            })
        );
    }

    #[test]
    fn parses_dotted_grid() {
        let s = format!("...4{}", ".".repeat(60));
        assert_eq!(parse(&s).unwrap(), Board::EMPTY.with_cell(0, 3, 4));
    }

    #[test]
    fn grid_output_parses_back() {
        let b =
            parse("0x0000700000000000000000000800064000000000000000000003020000000510").unwrap();
        assert_eq!(parse(&b.grid()).unwrap(), b);
        let full = Board::BASE_GRID;
        assert_eq!(parse(&full.grid()).unwrap(), full);
    }

    #[test]
    fn empty_input_is_rejected() {
        assert_eq!(
            parse("  "),
            Err(ParseError::Empty {
                what: Subject::Board
            })
        );
    }

    #[test]
    fn bare_hex_prefix_is_rejected() {
        assert_eq!(
            parse("0x"),
            Err(ParseError::NoHexDigits {
                what: Subject::Board
            })
        );
    }

    #[test]
    fn sixty_five_hex_digits_are_rejected() {
        let s = format!("0x{}", "1".repeat(65));
        assert_eq!(
            parse(&s),
            Err(ParseError::TooLong {
                what: Subject::Board,
                max: 64,
                found: 65
            })
        );
    }

    #[test]
    fn non_hex_digit_is_rejected_with_position() {
        let err = parse("0x12g4").unwrap_err();
        assert_eq!(
            err,
            ParseError::BadHexDigit {
                what: Subject::Board,
                position: 5,
                found: 'g'
            }
        );
        assert!(
            err.to_string()
                .contains("`g` at position 5 is not a hex digit")
        );
    }

    #[test]
    fn decimal_of_two_to_the_256_overflows() {
        // 2^256 = U256::MAX + 1
        let s = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(
            parse(s),
            Err(ParseError::Overflow {
                what: Subject::Board
            })
        );
    }

    #[test]
    fn grid_with_a_nine_is_rejected() {
        let s = format!("9{}", ".".repeat(63));
        let err = parse(&s).unwrap_err();
        assert_eq!(
            err,
            ParseError::BadGridCell {
                position: 0,
                found: '9'
            }
        );
        assert!(err.to_string().contains("grid cells must be 0-8 or '.'"));
        let b = Board::EMPTY.with_cell(3, 2, 9);
        assert_eq!(
            parse(&b.grid()),
            Err(ParseError::BadGridCell {
                position: 26,
                found: '9'
            })
        );
    }

    #[test]
    fn short_grid_reports_cell_count() {
        assert_eq!(
            parse(&".".repeat(63)),
            Err(ParseError::BadLength {
                what: Subject::Board,
                unit: "grid cells",
                expected: 64,
                found: 63
            })
        );
    }

    #[test]
    fn signed_decimal_is_rejected_at_the_sign() {
        assert_eq!(
            parse("-5"),
            Err(ParseError::BadCharacter {
                what: Subject::Board,
                position: 1,
                found: '-'
            })
        );
    }

    #[test]
    fn stray_letters_are_rejected() {
        assert_eq!(
            parse("12a4"),
            Err(ParseError::BadCharacter {
                what: Subject::Board,
                position: 3,
                found: 'a'
            })
        );
    }

    #[test]
    fn errors_print_on_one_line() {
        for s in [
            "",
            "0x",
            "0xzz",
            "x",
            "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
        ] {
            let msg = parse(s).unwrap_err().to_string();
            assert!(!msg.contains('\n'), "{msg}");
            assert!(msg.starts_with("board"), "{msg}");
        }
    }

    fn any_board() -> impl Strategy<Value = Board> {
        any::<[u64; 4]>().prop_map(|l| Board(U256::from_limbs(l)))
    }

    proptest! {
        #[test]
        fn hex_round_trips(b in any_board()) {
            prop_assert_eq!(parse(&b.to_hex()).unwrap(), b);
        }

        #[test]
        fn decimal_round_trips(b in any_board()) {
            let s = b.0.to_string();
            // 64-digit strings are grids by rule; skip those.
            prop_assume!(s.len() != 64);
            prop_assert_eq!(parse(&s).unwrap(), b);
        }

        #[test]
        fn cells_round_trip(b in any_board()) {
            prop_assert_eq!(Board::from_cells(&b.cells()), b);
        }

        #[test]
        fn cell_agrees_with_nibble(b in any_board(), row in 0usize..8, col in 0usize..8) {
            prop_assert_eq!(b.cell(row, col), b.nibble(63 - (8 * row + col)));
            prop_assert_eq!(b.cells()[8 * row + col], b.cell(row, col));
        }

        #[test]
        fn grid_and_compact_round_trip_for_cells_0_to_8(cells in prop::array::uniform32(0u8..9), more in prop::array::uniform32(0u8..9)) {
            let mut all = [0u8; 64];
            all[..32].copy_from_slice(&cells);
            all[32..].copy_from_slice(&more);
            let b = Board::from_cells(&all);
            prop_assert_eq!(parse(&b.grid()).unwrap(), b);
            prop_assert_eq!(parse(&b.compact()).unwrap(), b);
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,80}") {
            let _ = parse(&s);
        }
    }

    #[test]
    fn octoku_boards_convert_both_ways_and_other_shapes_refuse() {
        let word: Board = "0x1234567812345678000000000000000000000000000000000000000000000087"
            .parse()
            .unwrap();
        let nb = Grid::try_from(word).unwrap();
        assert_eq!(nb.get(0, 0), 1);
        assert_eq!(nb.get(7, 6), 8);
        assert_eq!(Board::try_from(&nb), Ok(word));
        let bad = Board::from_cells(&[9; 64]);
        assert!(Grid::try_from(bad).is_err());
        let nine = Grid::empty(Geometry::CLASSIC);
        assert_eq!(
            Board::try_from(&nine),
            Err(CellsError::NotOctoku {
                geometry: Geometry::CLASSIC
            })
        );
        // Same side, other box shape: not the octoku word either.
        let g42 = Geometry::new(4, 2).unwrap();
        assert!(Board::try_from(&Grid::empty(g42)).is_err());
    }
}

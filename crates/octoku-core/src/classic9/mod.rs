//! Classic 9×9 Sudoku: a bit-exact mirror of the on-chain validator
//! `contracts/classic9/Classic9Reference.sol`, which the
//! golfed `Classic9Golf.sol` matches on every call.
//!
//! A grid is 81 bytes, one byte per cell in reading order: byte `9r + c` is
//! the cell at row `r`, column `c`; box `b = 3 * (r / 3) + c / 3`. A solution
//! is valid when every row, column and box holds each of 1..=9 once; any byte
//! outside 1..=9 makes it invalid. In a start, a 0 byte is an empty cell and
//! any other byte must equal the solution's.
//!
//! [`is_valid_solution`] and [`verify_bytes`] mirror the two functions over byte
//! slices; the contract's `GridLength(uint256)` revert is
//! [`Classic9Error::GridLength`]. [`run`] mirrors a whole call, calldata and
//! value included, as solc's dispatcher and ABI decoder handle it.
//! [`is_valid_board`] and [`verify_boards`] take the general [`Grid`] of
//! [`Geometry::CLASSIC`] (its cells are exactly the contract's 81 bytes).

use alloy_sol_types::{SolCall, SolError};
use ruint::aliases::U256;
use ruint::uint;

use crate::grid::Grid;
use crate::grid::geometry::Geometry;

/// Cells in a grid (`CELLS` in the contract).
pub const CELLS: usize = 81;

/// The seed's GROUP: nine 16-bit masks `0x01ff`, mask `g` in bits
/// `16g..16g+15`, bit `16g + d - 1` standing for digit `d` of group `g`.
///
/// | group g | 8    | 7    | 6    | 5    | 4    | 3    | 2    | 1    | 0    |
/// |---------|------|------|------|------|------|------|------|------|------|
/// | bits    | 128+ | 112+ | 96+  | 80+  | 64+  | 48+  | 32+  | 16+  | 0+   |
/// | mask    | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff |
pub const GROUP: U256 = uint!(0x01ff01ff01ff01ff01ff01ff01ff01ff01ff_U256);

alloy_sol_types::sol! {
    /// The 9×9 validators' interface, as `contracts/classic9/IClassic9.sol`
    /// declares it: the one Rust binding (octoku-evm re-exports it, and its
    /// test holds it to that file; its other tests run this mirror's
    /// calldata and answers against the compiled contracts).
    interface IClassic9 {
        /// Whether `grid` (81 bytes) is a valid solved grid.
        function isValidSolution(bytes calldata grid) external pure returns (bool);
        /// Whether `solution` keeps the givens of `start` and is valid.
        function verify(bytes calldata start, bytes calldata solution) external pure returns (bool);
        /// A grid (or start) that is not 81 bytes long.
        error GridLength(uint256 length);
    }
}

/// Selector of `isValidSolution(bytes)`.
pub const IS_VALID_SOLUTION_SELECTOR: [u8; 4] = IClassic9::isValidSolutionCall::SELECTOR;

/// Selector of `verify(bytes,bytes)`.
pub const VERIFY_SELECTOR: [u8; 4] = IClassic9::verifyCall::SELECTOR;

/// Selector of the custom error `GridLength(uint256)`.
pub const GRID_LENGTH_SELECTOR: [u8; 4] = IClassic9::GridLength::SELECTOR;

/// Why the validator refuses a call: the contract's custom error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Classic9Error {
    /// `GridLength(length)`: a grid (or start) that is not 81 bytes long.
    #[error(
        "a grid of {length} bytes: expected {CELLS} bytes, one per cell in reading order (GridLength({length}))"
    )]
    GridLength {
        /// The length of the refused argument, in bytes.
        length: u64,
    },
}

impl Classic9Error {
    /// The revert data the contract returns: the selector and the length word.
    pub fn revert_data(self) -> Vec<u8> {
        let Classic9Error::GridLength { length } = self;
        IClassic9::GridLength {
            length: U256::from(length),
        }
        .abi_encode()
    }
}

/// Five valid grids from the reference validator's tests, one digit per cell.
pub const VALID_GRIDS: [&str; 5] = [
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
    "256734198891265374347198652514683729728519436963427581135942867689371245472856913",
    "964532178187694235235817964629451783573986412841273596416728359352169847798345621",
    "123675948456982371789314562964157283517238496832496157271849635395761824648523719",
    "123745689456819237789263514897452361632198745541637928315924876274586193968371452",
];

/// Five invalid grids from the same tests (each a valid grid with one cell changed).
pub const INVALID_GRIDS: [&str; 5] = [
    "953168742862734951417952836746893125281645397395271468138529674574386219629417582",
    "256734198891265374347198652414683729728519436963427581135942867689371245472856913",
    "964532178187594235235817964629451783573986412841273596416728359352169847798345621",
    "423675948456982371789314562964157283517238496832496157271849635395761824648523719",
    "723745689456819237789263514897452361632198745541637928315924876274586193968371452",
];

/// Why text is not a grid's bytes (see [`parse_grid`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "{what}: {problem}; expected 81 cells of 0-9 ('.' or 0 for empty; spaces, '|' and newlines ignored) or 0x followed by an even number of hex digits (the raw bytes)"
)]
pub struct GridTextError {
    /// What the text was for (`START`, `SOLUTION`, `GRID`).
    pub what: String,
    /// What is wrong with it.
    pub problem: String,
}

/// A grid's bytes from text: 81 cells `0`-`9` (`.` for 0; spaces, `|`, `-`,
/// `+` and newlines ignored), or `0x` and hex digits for raw bytes of any
/// value and length (the contract's edge cases). `what` names the argument
/// in the error.
pub fn parse_grid(what: &str, text: &str) -> Result<Vec<u8>, GridTextError> {
    let error = |problem: String| GridTextError {
        what: what.to_string(),
        problem,
    };
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if let Some((i, c)) = hex
            .chars()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_hexdigit())
        {
            return Err(error(format!("{c:?} at hex digit {} is not hex", i + 1)));
        }
        if hex.len() % 2 == 1 {
            return Err(error(format!(
                "an odd number of hex digits ({})",
                hex.len()
            )));
        }
        // Every digit was checked above (so the errors name it): two at a
        // time they are the bytes.
        let nibble = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
        return Ok(hex
            .as_bytes()
            .chunks_exact(2)
            .map(|pair| nibble(pair[0]) << 4 | nibble(pair[1]))
            .collect());
    }
    let mut cells = Vec::with_capacity(CELLS);
    for (i, c) in text.chars().enumerate() {
        match c {
            '0'..='9' => cells.push(c as u8 - b'0'),
            '.' => cells.push(0),
            ' ' | '\t' | '\n' | '\r' | '|' | '-' | '+' => {}
            _ => return Err(error(format!("{c:?} at character {} is not a cell", i + 1))),
        }
    }
    if cells.len() != CELLS {
        return Err(error(format!("{} cells", cells.len())));
    }
    Ok(cells)
}

/// Whether `grid` is a solved Sudoku, as `Classic9Reference.isValidSolution`.
///
/// ```solidity
/// if (grid.length != CELLS) revert GridLength(grid.length);
/// return _valid(grid);
/// ```
pub fn is_valid_solution(grid: &[u8]) -> Result<bool, Classic9Error> {
    let grid = exact(grid)?;
    Ok(valid(grid))
}

/// Whether `solution` is a solved Sudoku keeping every given of `start`, as
/// `Classic9Reference.verify`: the start's length is checked first.
///
/// ```solidity
/// if (start.length != CELLS) revert GridLength(start.length);
/// if (solution.length != CELLS) revert GridLength(solution.length);
/// for (uint256 i; i < CELLS; ++i) {
///     if (start[i] != 0 && start[i] != solution[i]) return false;
/// }
/// return _valid(solution);
/// ```
pub fn verify_bytes(start: &[u8], solution: &[u8]) -> Result<bool, Classic9Error> {
    let start = exact(start)?;
    let solution = exact(solution)?;
    for i in 0..CELLS {
        if start[i] != 0 && start[i] != solution[i] {
            return Ok(false);
        }
    }
    Ok(valid(solution))
}

/// A board the classic validator does not take: not 9×9 with 3×3 boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "a {n}x{n} board with {r}x{c} boxes: the classic validator takes 9x9 boards with 3x3 boxes",
    n = geometry.size(),
    r = geometry.box_rows(),
    c = geometry.box_cols()
)]
pub struct NotClassic {
    /// The board's geometry.
    pub geometry: Geometry,
}

/// [`is_valid_solution`] of a board's cells (a 9×9 board with 3×3 boxes).
pub fn is_valid_board(board: &Grid) -> Result<bool, NotClassic> {
    Ok(valid(classic_cells(board)?))
}

/// [`verify_bytes`] of two boards' cells (both 9×9 with 3×3 boxes).
pub fn verify_boards(start: &Grid, solution: &Grid) -> Result<bool, NotClassic> {
    let (start, solution) = (classic_cells(start)?, classic_cells(solution)?);
    Ok(start.iter().zip(solution).all(|(&s, &x)| s == 0 || s == x) && valid(solution))
}

/// The 81 cells of a board of [`Geometry::CLASSIC`].
fn classic_cells(board: &Grid) -> Result<&[u8; CELLS], NotClassic> {
    let not_classic = NotClassic {
        geometry: board.geometry(),
    };
    if board.geometry() != Geometry::CLASSIC {
        return Err(not_classic);
    }
    board.cells().try_into().map_err(|_| not_classic)
}

/// The 81 bytes, or `GridLength(len)`.
fn exact(grid: &[u8]) -> Result<&[u8; CELLS], Classic9Error> {
    grid.try_into().map_err(|_| Classic9Error::GridLength {
        length: grid.len() as u64,
    })
}

/// The reference validator's masks, as `Classic9Reference._valid`.
///
/// ```solidity
/// uint256 rows = GROUP; uint256 columns = GROUP; uint256 boxes = GROUP;
/// for (uint256 i; i < CELLS; ++i) {
///     uint256 cell = uint8(grid[i]);
///     if (cell == 0 || cell > 9) return false;
///     uint256 digit = 2 ** (cell - 1);
///     uint256 row = i / 9;
///     uint256 column = i % 9;
///     uint256 box = row - row % 3 + column / 3;
///     rows &= ~(digit << (16 * row));
///     columns &= ~(digit << (16 * column));
///     boxes &= ~(digit << (16 * box));
/// }
/// return rows | columns | boxes == 0;
/// ```
fn valid(grid: &[u8; CELLS]) -> bool {
    let mut rows = GROUP;
    let mut columns = GROUP;
    let mut boxes = GROUP;
    for (i, &cell) in grid.iter().enumerate() {
        if cell == 0 || cell > 9 {
            return false;
        }
        let digit = U256::from(1u8) << (cell as usize - 1);
        let row = i / 9;
        let column = i % 9;
        let r#box = row - row % 3 + column / 3;
        rows &= !(digit << (16 * row));
        columns &= !(digit << (16 * column));
        boxes &= !(digit << (16 * r#box));
    }
    (rows | columns | boxes).is_zero()
}

/// What a call to the validator does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Returned `abi.encode(bool)`.
    Returned(bool),
    /// Reverted with a custom error.
    Error(Classic9Error),
    /// Reverted with no data: unknown selector, calldata shorter than 4
    /// bytes, value sent, or calldata solc's decoder refuses.
    Refused,
}

impl Outcome {
    /// Whether the call succeeded.
    pub fn success(&self) -> bool {
        matches!(self, Outcome::Returned(_))
    }

    /// The return or revert data the contract produces.
    pub fn output(&self) -> Vec<u8> {
        match self {
            Outcome::Returned(valid) => IClassic9::isValidSolutionCall::abi_encode_returns(valid),
            Outcome::Error(error) => error.revert_data(),
            Outcome::Refused => Vec::new(),
        }
    }
}

/// One whole call with `calldata`, value sent or not, as the reference
/// contract handles it: solc's dispatcher (non-payable functions), then its
/// ABI decoder for `bytes calldata` arguments, then the function.
///
/// The decoder's rules are written out here on purpose: the contract's answer
/// to malformed calldata is part of what the golfed twin must match, so the
/// mirror states it rather than borrowing a library's (more forgiving or
/// stricter) decoder. For each `bytes` argument i, with n = calldata length:
///
/// | check (solc 0.8.30, in order)                      | on failure |
/// |----------------------------------------------------|------------|
/// | n - 4 >= 32 * number of arguments                  | refused    |
/// | offset o = word at 4 + 32 i is below 2^64          | refused    |
/// | 4 + o + 31 < n (the length word starts in range)   | refused    |
/// | length l = word at 4 + o is below 2^64             | refused    |
/// | 4 + o + 32 + l <= n (the bytes end in range)       | refused    |
///
/// Words read past the end of the calldata are zero-padded, as
/// `calldataload` does. Trailing calldata is ignored.
pub fn run(calldata: &[u8], value_sent: bool) -> Outcome {
    if calldata.len() < 4 {
        return Outcome::Refused;
    }
    let selector = [calldata[0], calldata[1], calldata[2], calldata[3]];
    let arguments = if selector == IS_VALID_SOLUTION_SELECTOR {
        1
    } else if selector == VERIFY_SELECTOR {
        2
    } else {
        return Outcome::Refused;
    };
    if value_sent {
        return Outcome::Refused;
    }
    let Some(args) = decode_bytes_arguments(calldata, arguments) else {
        return Outcome::Refused;
    };
    let result = if arguments == 1 {
        is_valid_solution(args[0])
    } else {
        verify_bytes(args[0], args[1])
    };
    match result {
        Ok(valid) => Outcome::Returned(valid),
        Err(error) => Outcome::Error(error),
    }
}

/// The `bytes` arguments of a call, or `None` where solc's decoder reverts.
fn decode_bytes_arguments(calldata: &[u8], arguments: usize) -> Option<Vec<&[u8]>> {
    let n = calldata.len() as u128;
    if n - 4 < 32 * arguments as u128 {
        return None;
    }
    let limit = U256::from(u64::MAX);
    (0..arguments)
        .map(|i| {
            let offset = word(calldata, U256::from(4 + 32 * i));
            if offset > limit {
                return None;
            }
            let position = 4 + offset.to::<u128>();
            if position + 31 >= n {
                return None;
            }
            let length = word(calldata, U256::from(position));
            if length > limit {
                return None;
            }
            let start = position + 32;
            let end = start + length.to::<u128>();
            if end > n {
                return None;
            }
            Some(&calldata[start as usize..end as usize])
        })
        .collect()
}

/// `calldataload(at)`: 32 bytes from `at`, zero past the end.
fn word(calldata: &[u8], at: U256) -> U256 {
    let mut bytes = [0u8; 32];
    if at < U256::from(calldata.len()) {
        let at = at.to::<usize>();
        let end = calldata.len().min(at + 32);
        bytes[..end - at].copy_from_slice(&calldata[at..end]);
    }
    U256::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(text: &str) -> Vec<u8> {
        text.bytes().map(|b| b - b'0').collect()
    }

    fn word_bytes(value: u64) -> [u8; 32] {
        U256::from(value).to_be_bytes::<32>()
    }

    /// abi.encodeCall for `isValidSolution` (one argument) or `verify` (two).
    fn encode(args: &[&[u8]]) -> Vec<u8> {
        let bytes = |b: &[u8]| alloy_primitives::Bytes::copy_from_slice(b);
        match args {
            [grid] => IClassic9::isValidSolutionCall { grid: bytes(grid) }.abi_encode(),
            [start, solution] => IClassic9::verifyCall {
                start: bytes(start),
                solution: bytes(solution),
            }
            .abi_encode(),
            _ => unreachable!("one or two arguments"),
        }
    }

    /// The listed valid grids pass (as a solution, and as their own start);
    /// the listed invalid ones fail.
    #[test]
    fn listed_grids_get_their_verdict() {
        for (texts, valid) in [(&VALID_GRIDS[..], true), (&INVALID_GRIDS[..], false)] {
            for text in texts {
                let grid = digits(text);
                assert_eq!(is_valid_solution(&grid), Ok(valid), "{text}");
                assert_eq!(verify_bytes(&[0; CELLS], &grid), Ok(valid), "{text}");
                if valid {
                    assert_eq!(verify_bytes(&grid, &grid), Ok(true), "{text}");
                }
            }
        }
    }

    #[test]
    fn every_byte_outside_1_to_9_makes_a_valid_grid_invalid() {
        let grid = digits(VALID_GRIDS[0]);
        for value in (0..=255u8).filter(|v| !(1..=9).contains(v)) {
            for cell in [0, 40, 80] {
                let mut bad = grid.clone();
                bad[cell] = value;
                assert_eq!(is_valid_solution(&bad), Ok(false), "byte {value} at {cell}");
            }
        }
    }

    #[test]
    fn a_given_must_be_empty_or_equal_to_the_solution() {
        let grid = digits(VALID_GRIDS[1]);
        let mut start = [0u8; CELLS];
        start[17] = grid[17];
        assert_eq!(verify_bytes(&start, &grid), Ok(true));
        for value in (1..=255u8).filter(|&v| v != grid[17]) {
            start[17] = value;
            assert_eq!(verify_bytes(&start, &grid), Ok(false), "given {value}");
        }
    }

    #[test]
    fn a_latin_square_that_is_not_a_sudoku_is_invalid() {
        // cell(r, c) = (c + r) % 9 + 1: rows and columns hold 1..9, boxes do not.
        let grid: Vec<u8> = (0..CELLS)
            .map(|i| ((i % 9 + i / 9) % 9 + 1) as u8)
            .collect();
        assert_eq!(is_valid_solution(&grid), Ok(false));
        // cell(r, c) = (c + 3 r + r / 3) % 9 + 1 is a Sudoku.
        let sudoku: Vec<u8> = (0..CELLS)
            .map(|i| ((i % 9 + 3 * (i / 9) + i / 27) % 9 + 1) as u8)
            .collect();
        assert_eq!(is_valid_solution(&sudoku), Ok(true));
    }

    #[test]
    fn boards_of_the_classic_geometry_agree_with_the_bytes() {
        for text in VALID_GRIDS.iter().chain(&INVALID_GRIDS) {
            let grid = digits(text);
            let board = Grid::from_cells(Geometry::CLASSIC, &grid).unwrap();
            let empty = Grid::empty(Geometry::CLASSIC);
            assert_eq!(is_valid_board(&board).ok(), is_valid_solution(&grid).ok());
            assert_eq!(
                verify_boards(&empty, &board).ok(),
                verify_bytes(&[0; CELLS], &grid).ok()
            );
            let mut start = empty.clone();
            start.set(4, 4, grid[40] % 9 + 1);
            let mut given = [0; CELLS];
            given[40] = grid[40] % 9 + 1;
            assert_eq!(
                verify_boards(&start, &board).ok(),
                verify_bytes(&given, &grid).ok()
            );
        }
        let octoku = Grid::empty(Geometry::OCTOKU);
        assert_eq!(
            is_valid_board(&octoku),
            Err(NotClassic {
                geometry: Geometry::OCTOKU
            })
        );
        let rows = Geometry::new(1, 9).unwrap();
        let err = is_valid_board(&Grid::empty(rows)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a 9x9 board with 1x9 boxes: the classic validator takes 9x9 boards with 3x3 boxes"
        );
    }

    #[test]
    fn grids_parse_from_digits_dots_and_hex() {
        let grid = parse_grid("GRID", VALID_GRIDS[0]).unwrap();
        assert_eq!(grid, digits(VALID_GRIDS[0]));
        let spaced: String = VALID_GRIDS[0]
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{} |\n", std::str::from_utf8(row).unwrap()))
            .collect();
        assert_eq!(parse_grid("GRID", &spaced).unwrap(), grid);
        let dots = ".".repeat(80) + "5";
        assert_eq!(parse_grid("START", &dots).unwrap()[80], 5);
        assert_eq!(parse_grid("GRID", "0x00ff0a").unwrap(), vec![0, 255, 10]);
        assert_eq!(parse_grid("GRID", "0x").unwrap(), Vec::<u8>::new());
        assert_eq!(
            parse_grid("START", "123").unwrap_err().to_string(),
            "START: 3 cells; expected 81 cells of 0-9 ('.' or 0 for empty; spaces, '|' and \
             newlines ignored) or 0x followed by an even number of hex digits (the raw bytes)"
        );
        assert!(parse_grid("GRID", "0x123").is_err());
        assert!(parse_grid("GRID", "0xzz").is_err());
        assert!(parse_grid("GRID", "0xé1").is_err());
        assert!(parse_grid("GRID", &"x".repeat(81)).is_err());
    }

    #[test]
    fn every_other_length_is_a_grid_length_error() {
        let grid = digits(VALID_GRIDS[2]);
        for len in (0..=200).filter(|&len| len != CELLS) {
            let wrong = vec![1u8; len];
            let error = Err(Classic9Error::GridLength { length: len as u64 });
            assert_eq!(is_valid_solution(&wrong), error);
            assert_eq!(verify_bytes(&wrong, &grid), error);
            assert_eq!(verify_bytes(&grid, &wrong), error);
            // the start's length is checked first
            assert_eq!(verify_bytes(&wrong, &[0; 7]), error);
        }
    }

    #[test]
    fn grid_length_revert_data_and_message() {
        let error = Classic9Error::GridLength { length: 80 };
        let data = error.revert_data();
        assert_eq!(data.len(), 36);
        assert_eq!(data[..4], GRID_LENGTH_SELECTOR);
        assert_eq!(data[35], 80);
        assert_eq!(
            error.to_string(),
            "a grid of 80 bytes: expected 81 bytes, one per cell in reading order (GridLength(80))"
        );
    }

    #[test]
    fn run_decodes_well_formed_calls() {
        let grid = digits(VALID_GRIDS[3]);
        let call = encode(&[&grid]);
        assert_eq!(run(&call, false), Outcome::Returned(true));
        assert_eq!(run(&call, false).output(), word_bytes(1));
        assert_eq!(run(&call, true), Outcome::Refused);
        let bad = digits(INVALID_GRIDS[3]);
        let call = encode(&[&[0; CELLS], &bad]);
        assert_eq!(run(&call, false), Outcome::Returned(false));
        assert_eq!(run(&call, false).output(), word_bytes(0));
        let call = encode(&[&[0; 80], &bad]);
        assert_eq!(
            run(&call, false),
            Outcome::Error(Classic9Error::GridLength { length: 80 })
        );
    }

    #[test]
    fn run_refuses_what_solcs_decoder_refuses() {
        let grid = digits(VALID_GRIDS[4]);
        let call = encode(&[&grid]);
        // calldata shorter than 4 bytes, unknown selector
        assert_eq!(run(&[], false), Outcome::Refused);
        assert_eq!(run(&call[..3], false), Outcome::Refused);
        let mut other = call.clone();
        other[3] ^= 1;
        assert_eq!(run(&other, false), Outcome::Refused);
        // the bytes cut one short; exactly enough (no padding) decodes
        assert_eq!(run(&call[..36 + 32 + 80], false), Outcome::Refused);
        assert_eq!(run(&call[..36 + 32 + 81], false), Outcome::Returned(true));
        // offset and length words of 2^64
        let mut huge = call.clone();
        huge[4 + 23] = 1;
        assert_eq!(run(&huge, false), Outcome::Refused);
        let mut huge = call.clone();
        huge[36 + 23] = 1;
        assert_eq!(run(&huge, false), Outcome::Refused);
        // offset 0: the length word is the offset itself, 0
        let mut head = IS_VALID_SOLUTION_SELECTOR.to_vec();
        head.extend_from_slice(&[0; 32]);
        assert_eq!(
            run(&head, false),
            Outcome::Error(Classic9Error::GridLength { length: 0 })
        );
        // two offsets at the head decode, but verify's head needs 64 bytes
        let mut short = VERIFY_SELECTOR.to_vec();
        short.extend_from_slice(&[0; 36]);
        assert_eq!(run(&short, false), Outcome::Refused);
        short.extend_from_slice(&[0; 28]);
        assert_eq!(
            run(&short, false),
            Outcome::Error(Classic9Error::GridLength { length: 0 })
        );
        // trailing calldata is ignored
        let mut long = call.clone();
        long.extend_from_slice(&[0xde, 0xad]);
        assert_eq!(run(&long, false), Outcome::Returned(true));
    }
}

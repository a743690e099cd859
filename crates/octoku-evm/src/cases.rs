//! Input classes shared by the gas report and the fuzzer: valid solutions,
//! early and late failures, random words, random addresses.

use octoku_core::{Board, rng::SplitMix64, symmetry};

/// A valid solution from the public vectors; every valid grid made here is a
/// symmetry and digit relabelling of it.
pub const BASE_GRID: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

/// The base grid as a board.
pub fn base_grid() -> Board {
    // A literal checked by the tests below.
    BASE_GRID.parse().unwrap_or(Board::EMPTY)
}

/// A random valid grid: a random symmetry and digit relabelling of the base grid.
pub fn valid_grid(rng: &mut SplitMix64) -> Board {
    let map = symmetry::Symmetry::from_index(rng.below(u64::from(symmetry::ORDER)) as u32)
        .unwrap_or(symmetry::Symmetry::IDENTITY);
    let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
    for i in (1..8).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    symmetry::relabel(map.apply(base_grid()), &perm)
}

/// Keeps each cell of `board` with probability 1/2.
pub fn random_subset(rng: &mut SplitMix64, board: Board) -> Board {
    let mask = rng.next_u64();
    let mut cells = board.cells();
    for (i, cell) in cells.iter_mut().enumerate() {
        if mask >> i & 1 == 0 {
            *cell = 0;
        }
    }
    Board::from_cells(&cells)
}

/// Sets the cell at reading index `i` of `board` to `digit`.
pub fn with_index(board: Board, i: usize, digit: u8) -> Board {
    board.with_cell(i / 8, i % 8, digit)
}

/// A (start, solution) pair of the named verify class.
pub fn verify_case(class: VerifyClass, rng: &mut SplitMix64) -> (Board, Board) {
    match class {
        VerifyClass::Valid => {
            let grid = valid_grid(rng);
            (random_subset(rng, grid), grid)
        }
        VerifyClass::InvalidFirst => {
            // The start's given in the first cell the contract reads (nibble 0,
            // the bottom-right cell) disagrees with the solution.
            let grid = valid_grid(rng);
            let wrong = grid.cell(7, 7) % 8 + 1;
            (with_index(random_subset(rng, grid), 63, wrong), grid)
        }
        VerifyClass::InvalidLate => {
            // Everything holds except the given in the last cell read (nibble
            // 63, the top-left cell): a valid grid with one wrong given.
            let grid = valid_grid(rng);
            let wrong = grid.cell(0, 0) % 8 + 1;
            (with_index(random_subset(rng, grid), 0, wrong), grid)
        }
        VerifyClass::Random => (Board::from_u256(rng.u256()), Board::from_u256(rng.u256())),
    }
}

/// The classes of verify inputs the gas report measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyClass {
    /// A valid grid and a random subset of it as the start.
    Valid,
    /// Fails at the first cell the contract reads.
    InvalidFirst,
    /// A valid grid whose start has one wrong given in the last cell read.
    InvalidLate,
    /// Two random 256-bit words.
    Random,
}

impl VerifyClass {
    /// Every class, in report order.
    pub const ALL: [VerifyClass; 4] = [
        VerifyClass::Valid,
        VerifyClass::InvalidFirst,
        VerifyClass::InvalidLate,
        VerifyClass::Random,
    ];

    /// The name used in reports.
    pub const fn label(self) -> &'static str {
        match self {
            VerifyClass::Valid => "valid",
            VerifyClass::InvalidFirst => "invalid-first",
            VerifyClass::InvalidLate => "invalid-late",
            VerifyClass::Random => "random-words",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_grid_parses_and_is_valid() {
        assert_ne!(base_grid(), Board::EMPTY);
        assert!(octoku_core::verify(Board::EMPTY, base_grid()));
    }

    #[test]
    fn classes_have_the_verdicts_their_names_say() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let (s, g) = verify_case(VerifyClass::Valid, &mut rng);
            assert!(octoku_core::verify(s, g));
            let (s, g) = verify_case(VerifyClass::InvalidFirst, &mut rng);
            assert!(!octoku_core::verify(s, g) && octoku_core::verify(Board::EMPTY, g));
            let (s, g) = verify_case(VerifyClass::InvalidLate, &mut rng);
            assert!(!octoku_core::verify(s, g) && octoku_core::verify(Board::EMPTY, g));
        }
    }
}

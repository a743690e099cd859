//! The one generator of test and fuzz inputs: valid grids and their subsets,
//! structured defects, Latin squares, generated starts, raw seeds that run
//! out early or collide, random words and addresses. Each draws from a
//! [`SplitMix64`] stream, so the gas report, the fuzzer (`octoku fuzz`, case
//! `i` of seed `s`) and the differential suite (a proptest-chosen seed) share
//! the same inputs and a seed always gives the same one.

use octoku_core::{Address, Board, U256, octoku::symmetry, rng::SplitMix64};

/// A random valid grid: a random symmetry and digit relabelling of
/// [`Board::BASE_GRID`].
pub fn valid_grid(rng: &mut SplitMix64) -> Board {
    let map = symmetry::from_index(rng.below(u64::from(symmetry::ORDER)) as u32)
        .expect("a number below the group's order");
    let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
    rng.shuffle(&mut perm);
    symmetry::relabel(symmetry::apply(&map, Board::BASE_GRID), &perm)
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

/// A random address.
pub fn address(rng: &mut SplitMix64) -> Address {
    Address::new(rng.bytes20())
}

/// A valid grid (the solution) with one structured defect, and a subset of
/// the grid as the start: two cells swapped, a digit out of 1..8, two rows
/// of different bands swapped (rows and columns hold, subgrids break), a
/// given that disagrees with the grid, or one digit changed.
pub fn mutated(rng: &mut SplitMix64) -> (Board, Board) {
    let grid = valid_grid(rng);
    let mut start = random_subset(rng, grid);
    let mut cells = grid.cells();
    let (a, b) = (rng.below(64) as usize, rng.below(64) as usize);
    match rng.below(5) {
        0 => cells.swap(a, b),
        1 => cells[a] = [0u8, 9, 10, 11, 12, 13, 14, 15][rng.below(8) as usize],
        2 => {
            let (r1, r2) = (a % 8, (a % 8 + 2 + b % 6) % 8);
            for c in 0..8 {
                cells.swap(8 * r1 + c, 8 * r2 + c);
            }
        }
        3 => start = with_index(start, a, grid.cells()[a] % 8 + 1),
        _ => cells[a] = cells[a] % 8 + 1,
    }
    (start, Board::from_cells(&cells))
}

/// A Latin square (rows and columns hold 1..8, a cyclic shift of a random
/// row by 1, 3, 5 or 7 per row) that breaks only subgrids.
pub fn latin(rng: &mut SplitMix64) -> Board {
    let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
    rng.shuffle(&mut perm);
    let shift = [1usize, 3, 5, 7][rng.below(4) as usize];
    let mut cells = [0u8; 64];
    for r in 0..8 {
        for c in 0..8 {
            cells[8 * r + c] = perm[(c + shift * r) % 8];
        }
    }
    Board::from_cells(&cells)
}

/// A generated board (the published `generate` of a random address) as the
/// start, a random valid grid as the solution.
pub fn generated_start(rng: &mut SplitMix64) -> (Board, Board) {
    let grid = valid_grid(rng);
    (octoku_core::generate(&address(rng)), grid)
}

/// Cells of 0..8 only: random words that get past verify's first checks.
pub fn small_digits(rng: &mut SplitMix64) -> Board {
    let mut cells = [0u8; 64];
    for c in &mut cells {
        *c = rng.below(9) as u8;
    }
    Board::from_cells(&cells)
}

/// Raw seeds that run out early: few set bits, a short word, 6-bit draws
/// from four cells (many redraws), or a random word.
pub fn sparse_seed(rng: &mut SplitMix64) -> U256 {
    match rng.below(4) {
        0 => (0..rng.below(12)).fold(U256::ZERO, |acc, _| {
            acc | (U256::from(1u8) << rng.below(256) as usize)
        }),
        1 => rng.u256() >> rng.below(257) as usize,
        2 => {
            (0..1 + rng.below(43)).fold(U256::ZERO, |acc, _| (acc << 6) | U256::from(rng.below(4)))
        }
        _ => rng.u256(),
    }
}

/// Colliding seeds: every 6-bit draw from a few (1 to 9) cell values, over a
/// prefix of the 43 draws, so the draw loops redraw often, run dry
/// mid-redraw, and reach the published loop's exhaustion path (a digit ORed
/// into a filled cell). The 43rd draw is 4 bits wide: a cell value placed
/// there keeps its low 4 bits, as a seed's last draw does.
pub fn colliding_seed(rng: &mut SplitMix64) -> U256 {
    let cells: Vec<u64> = (0..1 + rng.below(9)).map(|_| rng.below(64)).collect();
    (0..1 + rng.below(43)).fold(U256::ZERO, |acc, draw| {
        let cell = cells[rng.below(cells.len() as u64) as usize];
        acc | (U256::from(cell) << (6 * draw) as usize)
    })
}

/// Seeds at the edges of the draw loops: zero, all ones, one bit, all ones
/// above or below any bit, only the last 4-bit draw set, and a repeated cell
/// followed by nothing at every draw position (the seed runs out mid-redraw).
pub fn edge_seeds() -> Vec<U256> {
    let one = U256::from(1u8);
    let mut seeds = vec![U256::ZERO, U256::MAX];
    for bit in 0..256 {
        seeds.extend([one << bit, U256::MAX >> bit, U256::MAX << bit]);
    }
    for top in 1..16u64 {
        seeds.push(U256::from(top) << 252);
    }
    for draw in 0..43 {
        seeds.push(U256::from(5u64 | 5 << 6) << (6 * draw));
    }
    seeds
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
    fn generators_give_what_their_names_say() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..500 {
            let grid = valid_grid(&mut rng);
            assert!(octoku_core::verify(Board::EMPTY, grid));
            let square = latin(&mut rng);
            assert!(!octoku_core::verify(Board::EMPTY, square));
            let cells = square.cells();
            for r in 0..8 {
                let mut row: Vec<u8> = cells[8 * r..8 * r + 8].to_vec();
                row.sort_unstable();
                assert_eq!(row, [1, 2, 3, 4, 5, 6, 7, 8], "{square}");
            }
            assert!(small_digits(&mut rng).cells().iter().all(|&d| d <= 8));
            // A colliding seed's draws come from at most 9 cells.
            let seed = colliding_seed(&mut rng);
            let draws: std::collections::HashSet<u64> = (0..42)
                .map(|d| ((seed >> (6 * d) as usize) & U256::from(63)).to::<u64>())
                .filter(|&c| c != 0)
                .collect();
            assert!(draws.len() <= 9, "{seed:#x}");
        }
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

//! Puzzle generation: a bit-for-bit mirror of the published Curta puzzle #1
//! `generate(address)`.
//!
//! The seed is `uint256(keccak256(abi.encodePacked(address)))`. Each digit
//! 1..=8 is placed in turn at a nibble drawn 6 bits at a time from the low end
//! of the seed, re-drawing while the drawn nibble is already filled. Bit 64 of
//! the fill bitmap is a sentinel that forces the first draw of every digit.

use ruint::aliases::U256;

use crate::address::{Address, keccak256};
use crate::grid::board::Board;

/// Returns the generation seed for `address`.
///
/// Mirrors `uint256(keccak256(abi.encodePacked(_seed)))`: the Keccak-256 hash
/// of the 20 raw address bytes, read as a big-endian integer.
pub fn seed_of(address: &Address) -> U256 {
    U256::from_be_bytes(keccak256(address).0)
}

/// Returns the starting board the published contract generates for `address`.
pub fn generate(address: &Address) -> Board {
    generate_from_seed(seed_of(address))
}

/// Runs the published generation loop on a seed.
///
/// This mirrors the body of the contract's `generate`, line by line:
///
/// ```solidity
/// uint256 puzzle;
/// uint256 bitmap = 1 << 64;   // bit 64: sentinel, always "filled"
/// uint256 index = 64;
/// for (uint256 i = 1; i < 9; ) {
///     if (seed == 0) break;
///     while ((bitmap >> index) & 1 == 1 && seed != 0) {
///         index = seed & 0x3F;
///         seed >>= 6;
///     }
///     bitmap |= 1 << index;
///     puzzle |= i << (index << 2);
///     index = 64;
///     unchecked { ++i; }
/// }
/// return puzzle;
/// ```
///
/// When the seed runs out while the last drawn nibble is already filled, the
/// inner loop exits anyway and digit `i` is ORed into that filled nibble (for
/// example `8 | 1 = 9`). That quirk is reproduced exactly.
pub fn generate_from_seed(seed: U256) -> Board {
    mirror_loop(seed, |_| {}).0
}

/// The contract's loop, calling `placed` with each placement; returns the
/// board and how many 6-bit draws it took from the seed.
fn mirror_loop(seed: U256, mut placed: impl FnMut(Placement)) -> (Board, usize) {
    let mut seed = seed;
    let mut puzzle = U256::ZERO;
    let mut bitmap: u128 = 1 << 64;
    let mut index: usize = 64;
    let mut draws = 0;
    for i in 1u8..9 {
        if seed.is_zero() {
            break;
        }
        while (bitmap >> index) & 1 == 1 && !seed.is_zero() {
            index = low_six_bits(seed);
            seed >>= 6;
            draws += 1;
        }
        placed(Placement {
            digit: i,
            nibble: index,
            collided: (bitmap >> index) & 1 == 1,
        });
        bitmap |= 1 << index;
        puzzle |= U256::from(i) << (index << 2);
        index = 64;
    }
    (Board(puzzle), draws)
}

/// Returns `seed & 0x3F` as an index.
fn low_six_bits(seed: U256) -> usize {
    (seed.as_limbs()[0] & 0x3F) as usize
}

/// One digit placement made by the generation loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The digit placed, 1..=8.
    pub digit: u8,
    /// The nibble it was ORed into, 0..64.
    pub nibble: usize,
    /// Whether the nibble was already filled, so the digit was ORed onto an
    /// earlier one (only possible when the seed ran out).
    pub collided: bool,
}

/// A record of one run of the generation loop, for diagnostics.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GenerateTrace {
    /// The resulting board, equal to [`generate_from_seed`] of the same seed.
    pub puzzle: Board,
    /// How many 6-bit draws were taken from the seed.
    pub draws: usize,
    /// The placements, in order of digit.
    pub placements: Vec<Placement>,
}

impl GenerateTrace {
    /// Whether the seed ran out mid-draw and a digit was ORed into a filled nibble.
    pub fn exhausted_or(&self) -> bool {
        self.placements.iter().any(|p| p.collided)
    }
}

/// Runs the generation loop like [`generate_from_seed`], recording each step.
pub fn generate_trace(seed: U256) -> GenerateTrace {
    let mut placements = Vec::with_capacity(8);
    let (puzzle, draws) = mirror_loop(seed, |p| placements.push(p));
    GenerateTrace {
        puzzle,
        draws,
        placements,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn zero_seed_gives_empty_board() {
        assert_eq!(generate_from_seed(U256::ZERO), Board::EMPTY);
    }

    #[test]
    fn seed_one_places_digit_one_at_nibble_one_then_stops() {
        // Draw 1 = 1; the seed is then 0, so the loop breaks before digit 2.
        assert_eq!(
            generate_from_seed(U256::from(1u8)),
            Board(U256::from(0x10u8))
        );
    }

    #[test]
    fn draws_come_from_the_low_end_six_bits_at_a_time() {
        // Draws: 3, 0, 63 -> digit 1 at nibble 3, 2 at nibble 0, 3 at nibble 63.
        let seed = U256::from(3u32 | (63 << 12)); // the middle 6-bit field is 0
        let want = (U256::from(1u8) << 12) | U256::from(2u8) | (U256::from(3u8) << 252);
        assert_eq!(generate_from_seed(seed), Board(want));
    }

    #[test]
    fn filled_nibble_is_redrawn() {
        // Draws: 5, 5, 7 -> digit 1 at 5, the second 5 is skipped, digit 2 at 7.
        let seed = U256::from(5u32 | (5 << 6) | (7 << 12));
        let want = (U256::from(1u8) << 20) | (U256::from(2u8) << 28);
        assert_eq!(generate_from_seed(seed), Board(want));
        let t = generate_trace(seed);
        assert_eq!(t.draws, 3);
        assert!(!t.exhausted_or());
    }

    #[test]
    fn exhausted_seed_ors_digit_into_filled_nibble() {
        // Draws: 5, then 5 again with the seed exhausted -> nibble 5 = 1 | 2 = 3.
        let seed = U256::from(5u32 | (5 << 6));
        let board = generate_from_seed(seed);
        assert_eq!(board, Board(U256::from(3u8) << 20));
        assert_eq!(board.nibble(5), 3);
        let t = generate_trace(seed);
        assert_eq!(t.puzzle, board);
        assert!(t.exhausted_or());
        assert_eq!(
            t.placements,
            vec![
                Placement {
                    digit: 1,
                    nibble: 5,
                    collided: false
                },
                Placement {
                    digit: 2,
                    nibble: 5,
                    collided: true
                },
            ]
        );
    }

    #[test]
    fn exhaustion_can_produce_nibble_nine() {
        // Draws 1..=7 place digits 1..=7 at nibbles 1..=7; digit 8 then draws
        // nibble 1 (filled) with the seed exhausted, so nibble 1 = 1 | 8 = 9.
        let mut seed = U256::ZERO;
        for (n, draw) in [1u64, 2, 3, 4, 5, 6, 7, 1].iter().enumerate() {
            seed |= U256::from(*draw) << (6 * n);
        }
        let board = generate_from_seed(seed);
        assert_eq!(board.nibble(1), 9);
        for k in 2..8 {
            assert_eq!(board.nibble(k), k as u8);
        }
        assert_eq!(board.givens(), 7);
        assert!(generate_trace(seed).exhausted_or());
    }

    proptest! {
        #[test]
        fn trace_agrees_with_mirror(limbs in any::<[u64; 4]>(), keep in 0usize..=256) {
            // Shorten the seed sometimes so exhaustion paths are exercised.
            let seed = U256::from_limbs(limbs) >> (256 - keep);
            prop_assert_eq!(generate_trace(seed).puzzle, generate_from_seed(seed));
        }

        #[test]
        fn full_random_seed_places_each_digit_once(limbs in any::<[u64; 4]>()) {
            let t = generate_trace(U256::from_limbs(limbs));
            if !t.exhausted_or() {
                let cells = t.puzzle.cells();
                for d in 1..=t.placements.len() as u8 {
                    prop_assert_eq!(cells.iter().filter(|&&c| c == d).count(), 1);
                }
                prop_assert_eq!(t.puzzle.givens(), t.placements.len());
            }
        }
    }
}

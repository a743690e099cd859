//! The fair puzzle: a bit-for-bit mirror of `contracts/Fair.sol`
//! (`OctokuFair.generate`), whose every board is solvable by construction.
//!
//! The published `generate` writes the digits 1..=8 on eight cells drawn from
//! the seed; about 0.34% of those boards have no solution. The fair puzzle
//! draws the same cells from the same seed (so every set of revealed cells is
//! exactly as likely as in the published puzzle) but reveals, in each drawn
//! cell, the digit of a hidden valid grid `G`. `G` is the fixed base grid
//! [`BASE`] moved by a random board symmetry and a random digit relabelling,
//! both taken from a second word `t = keccak256(s)`, so the board is a subset
//! of `G` and `G` solves it.
//!
//! # Coordinates
//!
//! Everything works on nibble numbers `k = 8 * R + C` (see [`crate::grid::board`]):
//! `R = k / 8 = 7 - row`, `C = k % 8 = 7 - col`. Reversing the rows keeps the
//! bands (row pairs) and reversing the columns keeps the stacks (column
//! quadruples), so the symmetries below are the board symmetries of
//! [`crate::octoku::symmetry`], written in nibble coordinates.
//!
//! # The hidden grid
//!
//! `G` at nibble `k = 8R + C` is `labels[BASE at nibble 8 * rho(R) + gamma(C)]`:
//!
//! * `rho` permutes the 8 nibble rows, moving bands as blocks: band `b`
//!   (rows `2b`, `2b + 1`) goes to band `sigma(3 - b)` for a permutation
//!   `sigma` of 0..4, and the two rows of each band are swapped or not by one
//!   bit each: 4! * 2^4 = 384 row maps.
//! * `gamma` permutes the 8 nibble columns, moving stacks as blocks: one bit
//!   swaps the two stacks, and each stack's 4 columns are permuted by its own
//!   permutation of 0..4: 2 * (4!)^2 = 1152 column maps.
//! * `labels` permutes the digits: 1..=4 among themselves and 5..=8 among
//!   themselves, and swaps the two halves or not: 2 * (4!)^2 = 1,152 of them.
//!   This group moves every digit to every digit, so each cell of `G` holds
//!   each digit with probability 1/8.
//!
//! Each of the 442,368 * 1,152 choices is taken with the same probability (up
//! to the bias of reducing a 192-bit word modulo 24^5, below 2^-168), and
//! no two choices give the same grid (only the identity pair fixes the base
//! grid), so `G` is uniform over [`DISTINCT_GRIDS`] grids.
//!
//! # The revealed cells
//!
//! Exactly the published draw (see [`crate::octoku::generate::generate_from_seed`]):
//! 6 bits at a time from the low end of `s`, redrawing while the drawn cell is
//! filled, until 8 cells are filled. One deviation: where the published loop
//! runs out of seed on a filled cell and ORs the digit into it, the fair loop
//! just stops (nothing more is revealed), so the board stays a subset of `G`.
//! The set of non-empty cells is therefore always the published one.
//!
//! The contract reads a digit as `byte(slot, labels)`: [`BASE`] holds, per
//! cell, the byte of the labels word (a "slot", 1, 3, .., 15) that carries the
//! digit, and `tables` builds that word exactly as the contract does.

use ruint::aliases::U256;

use crate::address::{Address, keccak256};
use crate::grid::board::Board;
use crate::octoku::generate::seed_of;

/// The 24 permutations `p` of 0..4 in lexicographic order, one byte each,
/// most significant byte first; byte `i` is `p[0] | p[1] << 2 | p[2] << 4 | p[3] << 6`.
///
/// | i | p       | byte | i  | p       | byte | i  | p       | byte | i  | p       | byte |
/// |---|---------|------|----|---------|------|----|---------|------|----|---------|------|
/// | 0 | 0 1 2 3 | e4   | 6  | 1 0 2 3 | e1   | 12 | 2 0 1 3 | d2   | 18 | 3 0 1 2 | 93   |
/// | 1 | 0 1 3 2 | b4   | 7  | 1 0 3 2 | b1   | 13 | 2 0 3 1 | 72   | 19 | 3 0 2 1 | 63   |
/// | 2 | 0 2 1 3 | d8   | 8  | 1 2 0 3 | c9   | 14 | 2 1 0 3 | c6   | 20 | 3 1 0 2 | 87   |
/// | 3 | 0 2 3 1 | 78   | 9  | 1 2 3 0 | 39   | 15 | 2 1 3 0 | 36   | 21 | 3 1 2 0 | 27   |
/// | 4 | 0 3 1 2 | 9c   | 10 | 1 3 0 2 | 8d   | 16 | 2 3 0 1 | 4e   | 22 | 3 2 0 1 | 4b   |
/// | 5 | 0 3 2 1 | 6c   | 11 | 1 3 2 0 | 2d   | 17 | 2 3 1 0 | 1e   | 23 | 3 2 1 0 | 1b   |
///
/// The low 8 bytes are 0.
pub const PERMS: U256 = U256::from_limbs([
    0x0000000000000000,
    0x4e1e936387274b1b,
    0xc9398d2dd272c636,
    0xe4b4d8789c6ce1b1,
]);

/// `1 + 2^14 + 2^28 + 2^42`: four copies of a `PERMS` byte, 14 bits apart,
/// so that 2-bit field `b` of copy `b` lands on bit `16b` (`14b + 2b`). A copy
/// is 8 bits wide, narrower than the spacing, so the copies never overlap.
pub const ROW_SPREAD: U256 = U256::from_limbs([0x0000_0400_1000_4001, 0, 0, 0]);
/// Bits 0-1, 16-17, 32-33, 48-49: keeps field `b` of copy `b`, one per 16-bit group.
pub const ROW_FIELDS: U256 = U256::from_limbs([0x0003_0003_0003_0003, 0, 0, 0]);
/// Times `0x4040`: band target `sigma` becomes `64 * sigma` in both bytes of
/// its 16-bit group (one byte per row of the band; `32 * rho` with `rho = 2 * sigma + half`).
pub const ROW_BYTES: U256 = U256::from_limbs([0x4040, 0, 0, 0]);
/// Bits 5, 21, 37, 53 of `t`: the 4 in-band row swaps, one per 16-bit group,
/// already at the `32` (one row) position of the group's low byte.
pub const ROW_SWAP_BITS: U256 = U256::from_limbs([0x0020_0020_0020_0020, 0, 0, 0]);
/// Times `0x101`: copies each swap bit into the group's high byte too.
pub const ROW_SWAP_DOUBLE: U256 = U256::from_limbs([0x101, 0, 0, 0]);
/// `0x2000` per group: without a swap the high byte's row is the band's second row.
pub const ROW_HALVES: U256 = U256::from_limbs([0x2000_2000_2000_2000, 0, 0, 0]);
/// `sum 2^(30q + 26)` for `q` in 0..8: eight copies of a 16-bit pair of `PERMS`
/// bytes, 30 bits apart, so that 2-bit field `q` of copy `q` lands on bits
/// `32q + 26` (`30q + 26 + 2q`): `4 * field` in the top byte of 32-bit lane `q`.
/// A copy is 16 bits wide, narrower than the spacing, so the copies never
/// overlap; the last ends at bit 251. The contract builds it as
/// `shl(10, div(not(0), 0x3fffffff))` (the quotient is `sum 2^(30q + 16)`).
pub const COL_SPREAD: U256 = U256::from_limbs([
    0x0100000004000000,
    0x0010000000400000,
    0x0001000000040000,
    0x0000100000004000,
]);
/// Bits `32q + 26`, `32q + 27` for `q` in 0..8: keeps field `q` of copy `q`
/// (`mul(lanes, 0xc000000)` in the contract).
pub const COL_FIELDS: U256 = U256::from_limbs([0x0c00_0000_0c00_0000; 4]);
/// Bit 28 of `t`: the stack swap.
pub const STACK_SWAP_BIT: U256 = U256::from_limbs([0x1000_0000, 0, 0, 0]);
/// `sum 2^(32q)`: copies a bit into all 8 lanes (`div(not(0), 0xffffffff)`).
pub const LANES: U256 = U256::from_limbs([0x0000_0001_0000_0001; 4]);
/// `0x10` in the top byte of lanes 0..4 (columns `C` = 7..4, the second
/// stack): `16 * stack`, the stack's first column `4 * stack` times 4.
pub const STACK_HALVES: U256 = U256::from_limbs([0x1000000010000000, 0x1000000010000000, 0, 0]);
/// Added to the 8 label fields of `(la << 64) | lb` (bits `64 + 16k` and
/// `16k`): 1 to each `la` field, 5 to each `lb` field, so that the `a` half
/// labels 1..=4 and the `b` half 5..=8.
pub const LABEL_BASE: U256 = U256::from_limbs([0x0005_0005_0005_0005, 0x0001_0001_0001_0001, 0, 0]);
/// 4 in every label field: XORed into [`LABEL_BASE`] when `t`'s bit 29 is
/// set, it turns 1 into 5 and 5 into 1, swapping which half labels 1..=4.
pub const LABEL_FOURS: U256 =
    U256::from_limbs([0x0004_0004_0004_0004, 0x0004_0004_0004_0004, 0, 0]);
/// `0x1111...1`: bit 0 of every nibble, for counting revealed cells
/// (`div(not(0), 15)` in the contract).
pub const M1: U256 = U256::from_limbs([0x1111_1111_1111_1111; 4]);
/// The base grid [`Board::BASE_GRID`] with each digit replaced by its label slot: 1, 2, 3, 4 -> 7, 5, 3, 1 and
/// 5, 6, 7, 8 -> 15, 13, 11, 9 (see [`slot_of_digit`]).
pub const BASE: U256 = U256::from_limbs([
    0xdb91f35737f5b1d9,
    0x53d97b1ff17b593d,
    0x1fb3d7959d571fb3,
    0xb53f9d71791d35fb,
]);

/// The label slot (byte of the labels word) that carries base digit `d` (1..=8).
pub const fn slot_of_digit(d: u8) -> u8 {
    if d <= 4 { 9 - 2 * d } else { 25 - 2 * d }
}

/// Order of the board symmetry group (384 row maps times 1152 column maps).
pub const SYMMETRIES: u64 = crate::octoku::symmetry::ORDER as u64;
/// Number of digit relabellings: (4!)^2 permutations inside the halves 1..=4
/// and 5..=8, times 2 for swapping the halves.
pub const RELABELLINGS: u64 = 1_152;
/// Pairs (symmetry, relabelling) that map the base grid to itself.
pub const STABILIZER: u64 = 1;
/// Distinct hidden grids the construction reaches, all equally likely:
/// `442,368 * 1,152 / 1` = 509,607,936: only the identity pair fixes the
/// base grid, so different choices always give different grids.
pub const DISTINCT_GRIDS: u64 = SYMMETRIES * RELABELLINGS / STABILIZER;

/// EVM `byte(i, x)`: byte `i` of `x` counted from the most significant, 0 past 31.
fn byte(i: U256, x: U256) -> U256 {
    if i >= U256::from(32u8) {
        return U256::ZERO;
    }
    U256::from(x.byte(31 - i.to::<usize>()))
}

/// EVM `shl(n, x)` (ruint's shift by a `U256` gives 0 from 256 on, as the EVM).
fn shl(n: U256, x: U256) -> U256 {
    x << n
}

/// EVM `shr(n, x)`.
fn shr(n: U256, x: U256) -> U256 {
    x >> n
}

fn lit(v: u64) -> U256 {
    U256::from(v)
}

/// The tables `generate` builds from the seed before drawing cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tables {
    /// Byte `R` (from the top) is `32 * rho(R)`.
    rows: U256,
    /// The top byte of 32-bit lane `7 - C` (byte `4C` from the top) is `4 * gamma(C)`.
    cols: U256,
    /// Byte `j` (from the top) is the digit for label slot `j`, `j` odd in 1..16.
    labels: U256,
}

/// Mirrors the contract from `t := keccak256(0x00, 0x20)` to `labels`.
fn tables(s: U256) -> Tables {
    // mstore(0x00, seed)  t := keccak256(0x00, 0x20)
    let t = U256::from_be_bytes(keccak256(s.to_be_bytes::<32>()).0);
    let mut u: U256 = t >> 64usize;
    let n24 = lit(24);
    // rows := mul(and(mul(byte(mod(u, 24), PERMS), ROW_SPREAD), ROW_FIELDS), ROW_BYTES)
    let mut rows =
        (byte(u % n24, PERMS).wrapping_mul(ROW_SPREAD) & ROW_FIELDS).wrapping_mul(ROW_BYTES);
    // rows := shl(192, xor(xor(rows, mul(and(t, ROW_SWAP_BITS), ROW_SWAP_DOUBLE)), ROW_HALVES))
    rows = shl(
        lit(192),
        rows ^ (t & ROW_SWAP_BITS).wrapping_mul(ROW_SWAP_DOUBLE) ^ ROW_HALVES,
    );
    // u := div(u, 24)
    u /= n24;
    // cols := or(byte(mod(u, 24), PERMS), shl(8, byte(mod(div(u, 24), 24), PERMS)))
    let mut cols = byte(u % n24, PERMS) | shl(lit(8), byte((u / n24) % n24, PERMS));
    // u := div(u, 576)
    u /= lit(576);
    // cols := and(mul(cols, COL_SPREAD), COL_FIELDS)
    cols = cols.wrapping_mul(COL_SPREAD) & COL_FIELDS;
    // cols := xor(xor(cols, mul(and(t, STACK_SWAP_BIT), LANES)), STACK_HALVES)
    cols = cols ^ (t & STACK_SWAP_BIT).wrapping_mul(LANES) ^ STACK_HALVES;
    // la := and(mul(byte(mod(u, 24), perms), ROW_SPREAD), ROW_FIELDS)
    let la = byte(u % n24, PERMS).wrapping_mul(ROW_SPREAD) & ROW_FIELDS;
    // lb := and(mul(byte(mod(div(u, 24), 24), perms), ROW_SPREAD), ROW_FIELDS)
    let lb = byte((u / n24) % n24, PERMS).wrapping_mul(ROW_SPREAD) & ROW_FIELDS;
    // labels := shl(128, add(or(shl(64, la), lb),
    //                        xor(LABEL_BASE, mul(and(shr(29, t), 1), LABEL_FOURS))))
    let half_swap = (shr(lit(29), t) & lit(1)).wrapping_mul(LABEL_FOURS);
    let labels = shl(
        lit(128),
        (shl(lit(64), la) | lb).wrapping_add(LABEL_BASE ^ half_swap),
    );
    Tables { rows, cols, labels }
}

impl Tables {
    /// The label of `G` at nibble `k4 / 4`:
    /// `byte(and(shr(add(byte(shr(5, k4), rows), byte(and(k4, 28), cols)), BASE), 15), labels)`.
    fn label(&self, k4: U256) -> U256 {
        let shift = byte(shr(lit(5), k4), self.rows) + byte(k4 & lit(28), self.cols);
        byte(shr(shift, BASE) & lit(15), self.labels)
    }
}

/// The board the fair contract generates for `address`.
pub fn fair_generate(address: &Address) -> Board {
    fair_generate_from_seed(seed_of(address))
}

/// The fair board for a generation seed `s = keccak256(address)`.
pub fn fair_generate_from_seed(seed: U256) -> Board {
    fair_generate_trace(seed).board
}

/// One run of the fair draw loop: the board and the work it took, which
/// fixes the gas of `generate` (`fair_gas` in crates/octoku-evm/tests/golf_targets.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairTrace {
    /// The board, equal to [`fair_generate_from_seed`] of the same seed.
    pub board: Board,
    /// 6-bit draws taken from the seed (8 plus the draws that hit a filled
    /// cell, unless the seed runs out).
    pub draws: u32,
    /// Batches of draws: 1, plus one per recount that found fewer than 8
    /// revealed cells with seed left (0 for the zero seed).
    pub batches: u32,
}

/// Runs the contract's draw loop on seed `s`, step for step:
///
/// ```solidity
/// let end := shr(48, s)              // the first batch: 8 draws
/// if s {
///     for {} 1 {} {
///         for {} 1 {} {              // one draw
///             let k4 := and(shl(2, s), 0xfc)
///             p := or(p, shl(k4, label(k4)))
///             s := shr(6, s)
///             if iszero(gt(s, end)) { break }
///         }
///         // n = revealed cells (nibble + 7 has bit 3 set iff the nibble is
///         // 1..8); the next batch is 8 - n draws, none if n = 8
///         end := shr(mul(6, sub(8, shr(252, mul(and(shr(3, add(p, mul(7, m1))), m1), m1)))), s)
///         if iszero(gt(s, end)) { break }
///     }
/// }
/// ```
///
/// A batch of `8 - n` draws can reveal at most `8 - n` new cells, so no batch
/// overshoots the 8th; a draw that lands on a filled cell ORs the same digit
/// into it again, which changes nothing. `s > end` holds exactly while the
/// batch has draws left and the unread seed is not 0: `end` is `s` shifted
/// right by 6 per remaining draw, and `x >> k < x` for every `x >= 1`, while
/// `s = 0` forces `end = 0`. So the draws are the published ones, stopping
/// where the published loop stops (8 cells, or the seed spent).
pub fn fair_generate_trace(seed: U256) -> FairTrace {
    let tables = tables(seed);
    let mut s = seed;
    let mut p = U256::ZERO;
    let mut end = shr(lit(48), s);
    let (mut draws, mut batches) = (0, 0);
    if !s.is_zero() {
        loop {
            loop {
                let k4 = shl(lit(2), s) & lit(0xfc);
                p |= shl(k4, tables.label(k4));
                s = shr(lit(6), s);
                draws += 1;
                if s <= end {
                    break;
                }
            }
            batches += 1;
            let revealed = shr(lit(3), p.wrapping_add(lit(7).wrapping_mul(M1))) & M1;
            let n = shr(lit(252), revealed.wrapping_mul(M1));
            end = shr(lit(6) * (lit(8) - n), s);
            if s <= end {
                break;
            }
        }
    }
    FairTrace {
        board: Board(p),
        draws,
        batches,
    }
}

/// The hidden grid `G` behind the fair board for seed `s`: a valid grid whose
/// restriction to the revealed cells is [`fair_generate_from_seed`]`(s)`.
pub fn fair_grid(seed: U256) -> Board {
    let tables = tables(seed);
    let mut g = U256::ZERO;
    for k in 0..64u64 {
        let k4 = lit(4 * k);
        g |= shl(k4, tables.label(k4));
    }
    Board(g)
}

/// The fair board written as the published loop (draw, skip filled cells,
/// stop when the seed is spent or 8 cells are revealed), for tests: the
/// contract's batched loop must give the same board on every seed.
#[cfg(test)]
fn fair_generate_plain(seed: U256) -> Board {
    let tables = tables(seed);
    let mut s = seed;
    let mut p = U256::ZERO;
    let mut left = 8;
    while !s.is_zero() && left > 0 {
        let k4 = shl(lit(2), s) & lit(0xfc);
        s = shr(lit(6), s);
        if (shr(k4, p) & lit(15)).is_zero() {
            p |= shl(k4, tables.label(k4));
            left -= 1;
        }
    }
    Board(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octoku::generate::{generate_from_seed, generate_trace};
    use crate::octoku::symmetry;
    use proptest::prelude::*;

    fn nonzero_mask(b: Board) -> u64 {
        b.cells()
            .iter()
            .enumerate()
            .fold(0, |m, (i, &c)| if c != 0 { m | 1 << i } else { m })
    }

    /// `BASE` is the documented grid with digits replaced by their slots, and
    /// the identity choices give that grid back.
    #[test]
    fn base_is_the_documented_grid() {
        let g = Board::BASE_GRID;
        assert!(crate::octoku::verify::is_valid_grid(g));
        for k in 0..64usize {
            let slot = ((BASE >> (4 * k)) & lit(15)).to::<u64>();
            assert_eq!(slot, u64::from(slot_of_digit(g.nibble(k))), "nibble {k}");
        }
        // With sigma, the stack perms and the half perms all the identity
        // (PERMS byte 0xe4: field k = k), the labels word holds digit d at slot_of_digit(d).
        let la = (lit(0xe4).wrapping_mul(ROW_SPREAD) & ROW_FIELDS) << 64usize;
        let lb = lit(0xe4).wrapping_mul(ROW_SPREAD) & ROW_FIELDS;
        let labels = shl(lit(128), (la | lb) + LABEL_BASE);
        for d in 1..=8u8 {
            assert_eq!(
                byte(lit(u64::from(slot_of_digit(d))), labels),
                lit(u64::from(d))
            );
        }
    }

    /// The words the contract builds at run time equal the documented constants.
    #[test]
    fn words_built_at_run_time_equal_the_documented_constants() {
        let not0 = U256::MAX;
        let lanes = not0 / lit(0xffff_ffff);
        assert_eq!(lanes, LANES);
        assert_eq!(shl(lit(10), not0 / lit(0x3fff_ffff)), COL_SPREAD);
        assert_eq!(lanes.wrapping_mul(lit(0xc00_0000)), COL_FIELDS);
        assert_eq!(
            shr(lit(128), lanes.wrapping_mul(lit(0x1000_0000))),
            STACK_HALVES
        );
        assert_eq!(not0 / lit(15), M1);
    }

    /// `PERMS` lists the 24 permutations of 0..4 in lexicographic order.
    #[test]
    fn perms_table_is_lexicographic() {
        let perms = crate::grid::symmetry::permutations(4);
        for (i, p) in perms.iter().enumerate() {
            let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
            let e = a | b << 2 | c << 4 | d << 6;
            assert_eq!(byte(lit(i as u64), PERMS), lit(u64::from(e)), "entry {i}");
        }
        assert_eq!(perms.len(), 24);
        assert_eq!(PERMS & lit(u64::MAX), U256::ZERO);
    }

    /// The row table is a band-respecting permutation of rows, the column
    /// table a stack-respecting permutation of columns, and every one of the
    /// 384 and 1152 of them is reached.
    #[test]
    fn tables_are_group_elements_and_cover_the_group() {
        use std::collections::HashSet;
        let mut row_maps = HashSet::new();
        let mut col_maps = HashSet::new();
        let mut relabels = HashSet::new();
        let rows_group: HashSet<Vec<u8>> = symmetry::row_maps().into_iter().collect();
        let cols_group: HashSet<Vec<u8>> = symmetry::col_maps().into_iter().collect();
        // 60,000 draws miss one of the 1,152 maps with probability ~3e-20.
        for i in 0..60_000u64 {
            let seed = U256::from_be_bytes(keccak256(i.to_be_bytes()).0);
            let t = tables(seed);
            let rho: Vec<u8> = (0..8)
                .map(|r| (byte(lit(r), t.rows).to::<u8>()) / 32)
                .collect();
            let gamma: Vec<u8> = (0..8)
                .map(|c| (byte(lit(4 * c), t.cols).to::<u8>()) / 4)
                .collect();
            for r in 0..8 {
                assert_eq!(byte(lit(r as u64), t.rows).to::<u8>() % 32, 0);
            }
            for c in 0..8 {
                assert_eq!(byte(lit(4 * c as u64), t.cols).to::<u8>() % 4, 0);
            }
            assert!(
                rows_group.contains(rho.as_slice()),
                "a row map of the group: {rho:?}"
            );
            assert!(
                cols_group.contains(gamma.as_slice()),
                "a column map of the group: {gamma:?}"
            );
            // Digit of base digit d = byte(slot_of_digit(d), labels); every
            // other byte of the top 16 is 0.
            let l: Vec<u8> = (1..=8)
                .map(|d| byte(lit(u64::from(slot_of_digit(d))), t.labels).to::<u8>())
                .collect();
            let mut ls = l.clone();
            ls.sort();
            assert_eq!(ls, (1..=8).collect::<Vec<_>>());
            assert!(
                l[..4].iter().all(|&x| x <= 4) || l[..4].iter().all(|&x| x > 4),
                "halves stay together"
            );
            for j in (0..16).step_by(2) {
                assert_eq!(byte(lit(j), t.labels), U256::ZERO);
            }
            row_maps.insert(rho);
            col_maps.insert(gamma);
            relabels.insert(l);
        }
        assert_eq!(row_maps.len(), symmetry::ROW_MAPS);
        assert_eq!(col_maps.len(), symmetry::COL_MAPS);
        assert_eq!(relabels.len(), RELABELLINGS as usize);
    }

    /// Counts the pairs (symmetry, relabelling) that fix the base grid: for
    /// each of the 442,368 maps, whether the moved grid is a relabelling of
    /// the base (a consistent digit bijection exists; it is then unique).
    #[test]
    fn stabilizer_and_distinct_grid_count() {
        let g = Board::BASE_GRID;
        let base = g.cells();
        let mut fixed = 0u64;
        let mut maps = 0u64;
        for s in symmetry::all() {
            maps += 1;
            let moved = symmetry::apply(&s, g).cells();
            let mut to = [0u8; 9];
            let mut from = [0u8; 9];
            let ok = base.iter().zip(moved.iter()).all(|(&a, &b)| {
                let (a, b) = (usize::from(a), usize::from(b));
                if to[a] == 0 && from[b] == 0 {
                    to[a] = b as u8;
                    from[b] = a as u8;
                    true
                } else {
                    usize::from(to[a]) == b && usize::from(from[b]) == a
                }
            });
            if ok {
                fixed += 1;
            }
        }
        assert_eq!(maps, SYMMETRIES);
        assert_eq!(fixed, STABILIZER);
        assert_eq!(DISTINCT_GRIDS, 509_607_936);
    }

    #[test]
    fn zero_seed_gives_empty_board() {
        assert_eq!(fair_generate_from_seed(U256::ZERO), Board::EMPTY);
        assert!(crate::octoku::verify::is_valid_grid(fair_grid(U256::ZERO)));
    }

    /// Published: draws 5 then 5 with the seed spent, so it ORs 2 into 1's
    /// cell. Fair: reveals the first cell only.
    #[test]
    fn exhaustion_stops_instead_of_or_ing() {
        let seed = U256::from(5u32 | (5 << 6));
        let board = fair_generate_from_seed(seed);
        assert_eq!(board.givens(), 1);
        assert_eq!(nonzero_mask(board), nonzero_mask(generate_from_seed(seed)));
        assert_eq!(board.nibble(5), fair_grid(seed).nibble(5));
    }

    fn check_seed(seed: U256) -> Result<(), TestCaseError> {
        let trace = fair_generate_trace(seed);
        let board = trace.board;
        let grid = fair_grid(seed);
        prop_assert!(crate::octoku::verify::is_valid_grid(grid));
        prop_assert!(
            crate::octoku::verify::keeps_givens(board, grid),
            "board is a subset of G"
        );
        prop_assert_eq!(nonzero_mask(board), nonzero_mask(generate_from_seed(seed)));
        prop_assert_eq!(fair_generate_plain(seed), board);
        prop_assert_eq!(
            trace.draws as usize,
            generate_trace(seed).draws,
            "the published draws"
        );
        prop_assert_eq!(trace.batches == 0, seed.is_zero());
        if board.givens() == 8 {
            // Each batch after the first draws at least once more.
            prop_assert!(trace.batches <= trace.draws - 7);
        }
        let solved = crate::solve::octoku::solve(board).unwrap();
        prop_assert!(solved.is_some(), "fair board has no solution");
        prop_assert!(crate::octoku::verify::verify(board, grid));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Any seed's fair board keeps cells of a valid grid, reveals the
        /// published board's cells with its draws, and solves; it has all 8
        /// givens when the published board placed 8 without running out.
        #[test]
        fn any_seed_gives_a_solvable_fair_board_on_the_published_cells(limbs in any::<[u64; 4]>()) {
            let seed = U256::from_limbs(limbs);
            check_seed(seed)?;
            let published = generate_trace(seed);
            if !published.exhausted_or() && published.placements.len() == 8 {
                prop_assert_eq!(fair_generate_from_seed(seed).givens(), 8);
            }
        }

        /// Short seeds run out early and exercise the exhaustion paths.
        #[test]
        fn seeds_that_run_out_still_give_a_solvable_fair_board_on_the_published_cells(limbs in any::<[u64; 4]>(), keep in 0usize..=80) {
            check_seed(U256::from_limbs(limbs) >> (256 - keep))?;
        }

        /// Seeds with many repeated draws exercise the redraws.
        #[test]
        fn seeds_that_redraw_cells_still_give_a_solvable_fair_board_on_the_published_cells(cells in proptest::collection::vec(0u64..6, 1..42)) {
            let mut seed = U256::ZERO;
            for (n, c) in cells.iter().enumerate() {
                seed |= U256::from(*c) << (6 * n);
            }
            check_seed(seed)?;
        }

        /// The board of an address is that of its seed, which reveals the
        /// published cells and solves.
        #[test]
        fn an_address_gives_its_seed_s_solvable_fair_board(bytes in any::<[u8; 20]>()) {
            let a = Address::new(bytes);
            prop_assert_eq!(fair_generate(&a), fair_generate_from_seed(seed_of(&a)));
            check_seed(seed_of(&a))?;
        }
    }

    /// The issue's example: the published board for this address has no
    /// solution (row 1 needs three of {1, 8} on its right); the fair board on
    /// the same cells has one.
    #[test]
    fn published_dead_end_is_solvable_here() {
        let a: Address = "0xe0522c0611b8c66a5b429ad403b92e84c11173be"
            .parse()
            .unwrap();
        let published = crate::octoku::generate::generate(&a);
        assert_eq!(
            published.to_hex(),
            "0x0000056070423000000000000000000000000000000000000000800100000000"
        );
        assert_eq!(crate::solve::octoku::solve(published).unwrap(), None);
        let fair = fair_generate(&a);
        assert_eq!(nonzero_mask(fair), nonzero_mask(published));
        let solution = crate::solve::octoku::solve(fair)
            .unwrap()
            .expect("fair board solves");
        assert!(crate::octoku::verify::verify(fair, solution));
    }

    /// Boards the contract must reproduce (pinned in tests/Fair.t.sol too).
    #[test]
    fn fair_boards_of_four_addresses_equal_the_vectors_fair_t_sol_pins() {
        for (addr, want) in VECTORS {
            let a: Address = addr.parse().unwrap();
            let got = fair_generate(&a);
            assert_eq!(got.to_hex(), *want, "{addr}");
        }
    }

    const VECTORS: &[(&str, &str)] = &[
        (
            "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
            "0x0000600000000000000000000100035000000000000000000003070000000640",
        ),
        (
            "0x00000000eCf2b58C296B47caC8C51467c0e307cE",
            "0x3800120000000003000000000000000000000000006000007000600000000000",
        ),
        (
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
            "0x0000000000000000000000000050700000000080002000000000340070000010",
        ),
        (
            "0x0000000000000000000000000000000000000001",
            "0x0080000100000000000000000004000000001000002000000000000062008000",
        ),
    ];
}

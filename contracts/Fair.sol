// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {GolfedPuzzle} from "./GolfedPuzzle.sol";

/// @title octoku, fair edition ("2 × 4 = 8 (fair)")
/// @notice 8 × 8 Sudoku with 2 × 4 subgrids whose every board is solvable by
/// construction. The revealed cells are drawn exactly as in the published
/// Curta puzzle #1 (so every set of revealed cells is exactly as likely as
/// there), but each shows the digit of a hidden valid grid G instead of the
/// digits 1..8 in draw order; G solves the board. `verify` is the golfed one
/// (contracts/GolfedPuzzle.sol): the reference rule at the golfed cost.
/// @dev Board layout as in OctokuReference: nibble k = 8R + C is the cell at
/// row 7 - R, column 7 - C. Everything below works in (R, C); reversing rows
/// and columns keeps bands and stacks, so the maps below are the board
/// symmetries in nibble coordinates. Rust mirror: crates/octoku-core/src/fair.rs.
///
/// Seeds. s = keccak256(abi.encodePacked(address)) (as published) feeds only
/// the cell draws; t = keccak256(abi.encode(s)) feeds the grid. Bits 5, 21,
/// 37, 53 of t are the in-band row swaps, bit 28 the stack swap, bit 29 the
/// label-half swap, and u = t >> 64 is read in mixed radix 24: band
/// permutation u % 24, the two in-stack column permutations, then the two
/// in-half label permutations. Every choice is equally likely up to the bias
/// of reducing 192 bits modulo 24^5 (< 2^-168).
///
/// Hidden grid. G at k = 8R + C is labels[BASE at 8 rho(R) + gamma(C)]:
///
///     | part   | choices           | how                                                |
///     |--------|-------------------|----------------------------------------------------|
///     | rho    | 4! * 2^4 = 384    | band b -> band sigma(3 - b); its 2 rows swapped by a bit |
///     | gamma  | 2 * (4!)^2 = 1152 | stacks swapped by a bit; each stack's 4 columns permuted |
///     | labels | 2 * (4!)^2 = 1152 | digits 1..4 and 5..8 each permuted, the halves swapped by a bit |
///
/// The 442,368 symmetries times 1,152 relabellings give 509,607,936 distinct
/// grids, each equally likely: no symmetry other than the identity maps the
/// base grid to any relabelling of itself (checked over all 442,368 maps by
/// `fair::tests::stabilizer_and_distinct_grid_count`), so different choices
/// always give different grids. The relabelling group acts transitively on
/// the digits, so every cell of G holds each digit 1..8 with probability 1/8.
///
/// Cells. The published draw: 6 bits at a time from the low end of s,
/// redrawing while the drawn cell is filled, until 8 cells are filled. The
/// only deviation: where the published loop runs out of seed on a filled
/// cell and ORs the digit into it, this one reveals nothing more, so the
/// board stays a subset of G. The set of non-empty cells always equals the
/// published one.
///
/// Gas (execution of the call frame, revm, Prague, exact; asserted in
/// crates/octoku-evm/tests/golf_targets.rs): generate 1,730 + 122 per draw
/// after the 8th + 91 per batch after the first (see the fallback): 1,730 for
/// the 63.4% of addresses whose first 8 draws hit 8 different cells, 1,943 for
/// the next 27.7% (one redraw), so at most 2,000 for 91.1%; below the published
/// generate (2,927 + 106 per redraw) for every address with at most 11
/// redraws (all but about 2 in 10^10). verify as in `GolfedPuzzle`. See README
/// "The fair puzzle".
contract OctokuFair is GolfedPuzzle {
    /// @dev The 24 permutations p of 0..4 in lexicographic order, one byte
    /// each from the most significant: p[0] | p[1] << 2 | p[2] << 4 | p[3] << 6.
    ///
    ///     | i | p       | byte | i  | p       | byte | i  | p       | byte | i  | p       | byte |
    ///     |---|---------|------|----|---------|------|----|---------|------|----|---------|------|
    ///     | 0 | 0 1 2 3 |  e4  | 6  | 1 0 2 3 |  e1  | 12 | 2 0 1 3 |  d2  | 18 | 3 0 1 2 |  93  |
    ///     | 1 | 0 1 3 2 |  b4  | 7  | 1 0 3 2 |  b1  | 13 | 2 0 3 1 |  72  | 19 | 3 0 2 1 |  63  |
    ///     | 2 | 0 2 1 3 |  d8  | 8  | 1 2 0 3 |  c9  | 14 | 2 1 0 3 |  c6  | 20 | 3 1 0 2 |  87  |
    ///     | 3 | 0 2 3 1 |  78  | 9  | 1 2 3 0 |  39  | 15 | 2 1 3 0 |  36  | 21 | 3 1 2 0 |  27  |
    ///     | 4 | 0 3 1 2 |  9c  | 10 | 1 3 0 2 |  8d  | 16 | 2 3 0 1 |  4e  | 22 | 3 2 0 1 |  4b  |
    ///     | 5 | 0 3 2 1 |  6c  | 11 | 1 3 2 0 |  2d  | 17 | 2 3 1 0 |  1e  | 23 | 3 2 1 0 |  1b  |
    uint256 internal constant PERMS = 0xe4b4d8789c6ce1b1c9398d2dd272c6364e1e936387274b1b0000000000000000;

    /// @dev rows: byte R (from the top) = 32 * rho(R), the bit offset of row rho(R).
    /// A PERMS byte e holds sigma(b) in bits 2b..2b+1. e * ROW_SPREAD makes 4
    /// copies 14 bits apart (8-bit copies, never overlapping), so field b of
    /// copy b sits at bit 14b + 2b = 16b; ROW_FIELDS keeps those. Times
    /// ROW_BYTES (0x4040) puts 64 * sigma(b) in both bytes of 16-bit group b.
    /// ROW_SWAP_BITS takes t's bits 16b + 5 (value 32 in the low byte),
    /// ROW_SWAP_DOUBLE (0x101) copies them to the high byte, and ROW_HALVES adds
    /// 32 to every high byte: the group's two rows get 2 sigma + (1 ^ swap) and
    /// 2 sigma + swap. shl(192) moves group 3 - b to bytes 2b, 2b + 1.
    uint256 internal constant ROW_SPREAD = 0x40010004001; // 1 + 2^14 + 2^28 + 2^42
    uint256 internal constant ROW_FIELDS = 0x3000300030003; // 3 << 16b, b = 0..3
    uint256 internal constant ROW_BYTES = 0x4040;
    uint256 internal constant ROW_SWAP_BITS = 0x20002000200020; // 1 << (16b + 5)
    uint256 internal constant ROW_SWAP_DOUBLE = 0x101;
    uint256 internal constant ROW_HALVES = 0x2000200020002000; // 0x2000 << 16b

    /// @dev cols: the top byte of 32-bit lane q = 7 - C (byte 4C from the top,
    /// read with byte(and(k4, 28), cols)) = 4 * gamma(C). Two PERMS bytes make a
    /// 16-bit E whose 2-bit field q (bits 2q, 2q + 1) is the in-stack target.
    /// E times sum 2^(30q + 26), q = 0..7 (built as shl(10, not(0) / (2^30 - 1)):
    /// the quotient is sum 2^(30q + 16), since 2^256 - 1 = 2^16 (2^240 - 1) + 2^16 - 1),
    /// makes 8 copies 30 bits apart, starting at bit 26 (16-bit copies, never
    /// overlapping, the last ending at bit 251), so field q of copy q sits at
    /// bit 30q + 26 + 2q = 32q + 26, i.e. 4 * field in the top byte of lane q;
    /// lanes * 0xc000000 keeps those (lanes = sum 2^(32q) = not(0) / (2^32 - 1)).
    /// Lanes 0..3 are columns 7..4 (stack 1), so STACK_HALVES (0x10 in the top
    /// byte of lanes 0..3) adds 16 (= 4 * first column 4) there, and t's bit 28
    /// (value 16 in a lane's top byte) times lanes flips the stack of every column.
    uint256 internal constant STACK_SWAP_BIT = 0x10000000;
    uint256 internal constant STACK_HALVES = 0x10000000100000001000000010000000;

    /// @dev labels: byte j (from the top) of the labels word is the digit for
    /// label slot j, for the 8 odd j = 1, 3, .., 15. Two PERMS bytes a, b are
    /// spread like the rows (field k at bit 16k, ROW_SPREAD / ROW_FIELDS) into
    /// the low 64 bits of `la` and `lb`; (la << 64 | lb) << 128 puts field k of
    /// a in byte 7 - 2k and field k of b in byte 15 - 2k. LABEL_BASE adds 1 to
    /// every a field and 5 to every b field; when t's bit 29 is set,
    /// LABEL_FOURS (4 in every field) is XORed into it first, turning each 1
    /// into 5 and each 5 into 1 (the fields are 0..3, so no carry):
    ///
    ///     | slot bytes      | digits, bit 29 = 0 | digits, bit 29 = 1 |
    ///     |-----------------|--------------------|--------------------|
    ///     | 7, 5, 3, 1      | 1 + a[0..3]        | 5 + a[0..3]        |
    ///     | 15, 13, 11, 9   | 5 + b[0..3]        | 1 + b[0..3]        |
    uint256 internal constant LABEL_BASE = 0x00010001000100010005000500050005;
    uint256 internal constant LABEL_FOURS = 0x00040004000400040004000400040004;

    /// @dev The base grid 0x7235861418463257457361828621457323681745541728366784532131527468
    /// with each digit d replaced by its label slot (the byte of the labels
    /// word that holds it): d = 1, 2, 3, 4 -> 7, 5, 3, 1 and 5, 6, 7, 8 -> 15,
    /// 13, 11, 9. With the identity choices (labels = 1 + slot order) G is the
    /// base grid itself.
    uint256 internal constant BASE = 0xb53f9d71791d35fb1fb3d7959d571fb353d97b1ff17b593ddb91f35737f5b1d9;

    /// @inheritdoc GolfedPuzzle
    /// @dev name() -> string: offset 0x20, length 17, "2 × 4 = 8 (fair)"
    /// (UTF-8: 32 20 c3 97 20 34 20 3d 20 38 20 28 66 61 69 72 29), zero-padded,
    /// in 0x00..0x5f: mstore(0x51, 0) zeroes 0x51..0x70 (the padding after the
    /// text, where solc put its free memory pointer 0x80 at 0x5f); the 32-byte
    /// store at 0x31 of an 18-byte value zeroes 0x31..0x3e and writes 0x3f = 17
    /// (length) and 0x40..0x50 (the text); mstore(0, 32) is the offset. Bytes
    /// 0x20..0x30 are never written on the path here (dispatch touches no
    /// memory), so they are still 0.
    function _name() internal pure override {
        assembly {
            mstore(0x51, 0)
            mstore(0x31, 0x113220c3972034203d203820286661697229)
            mstore(0x00, 0x20)
            return(0x00, 0x60)
        }
    }

    /// @notice generate(address seed) -> uint256: the fair board for `seed`.
    /// @dev `onGenerate` leaves s = keccak256(abi.encodePacked(seed)) in memory
    /// word 0, so t = keccak256(abi.encode(s)) hashes it in place.
    /// Uses `returndatasize()` as 0: no external call is made before it.
    fallback() external payable onGenerate {
        assembly {
            let seed := mload(0x00)
            let t := keccak256(0x00, 0x20)
            let u := shr(64, t)
            let perms := PERMS
            let rows := mul(and(mul(byte(mod(u, 24), perms), ROW_SPREAD), ROW_FIELDS), ROW_BYTES)
            rows := shl(192, xor(xor(rows, mul(and(t, ROW_SWAP_BITS), ROW_SWAP_DOUBLE)), ROW_HALVES))
            u := div(u, 24)
            let cols := or(byte(mod(u, 24), perms), shl(8, byte(mod(div(u, 24), 24), perms)))
            u := div(u, 576)
            // (not(returndatasize()) is not(0), kept opaque so that the optimizer
            // does not fold these words back into 32-byte pushes.)
            let lanes := div(not(returndatasize()), 0xffffffff)
            cols := and(mul(cols, shl(10, div(not(returndatasize()), 0x3fffffff))), mul(lanes, 0xc000000))
            cols := xor(xor(cols, mul(and(t, STACK_SWAP_BIT), lanes)), STACK_HALVES)
            let la := and(mul(byte(mod(u, 24), perms), ROW_SPREAD), ROW_FIELDS)
            let lb := and(mul(byte(mod(div(u, 24), 24), perms), ROW_SPREAD), ROW_FIELDS)
            let labels := shl(128, add(or(shl(64, la), lb), xor(LABEL_BASE, mul(and(shr(29, t), 1), LABEL_FOURS))))
            // Draws, in batches, with no test per draw. A draw reveals G at the
            // drawn cell, k4 = 4 * (s & 63), then drops the chunk (s >>= 6). A
            // draw that lands on a filled cell ORs the same digit in again and
            // changes nothing, so the revealed set is the set of cells drawn.
            // The first batch is 8 draws; after a batch, n = revealed cells,
            // counted at once (nibble + 7 has bit 3 set iff the nibble is 1..8;
            // times m1 sums those bits into the top nibble), and the next batch
            // is 8 - n draws: it can reveal at most 8 - n new cells, so no batch
            // goes past the 8th. A batch runs while s > end, end being s shifted
            // right by 6 per draw it has left: x >> k < x for every x >= 1, so
            // this holds exactly while draws are left and the unread seed is not
            // 0, and s = 0 makes end = 0. So the draws are the published ones
            // and stop where the published loop stops (8 cells, or the seed
            // spent; `if s` covers the zero seed, whose first draw the published
            // loop never makes). Cost: 1,730 gas with one batch, each extra
            // draw 122 and each extra batch 91 (the recount and its tests).
            let base := BASE
            let s := seed
            let p := 0
            let end := shr(48, s)
            let m1 := div(not(returndatasize()), 15)
            if s {
                for {} 1 {} {
                    for {} 1 {} {
                        let k4 := and(shl(2, s), 0xfc)
                        p := or(p, shl(k4, byte(and(shr(add(byte(shr(5, k4), rows), byte(and(k4, 28), cols)), base), 15), labels)))
                        s := shr(6, s)
                        if iszero(gt(s, end)) { break }
                    }
                    end := shr(mul(6, sub(8, shr(252, mul(and(shr(3, add(p, mul(7, m1))), m1), m1)))), s)
                    if iszero(gt(s, end)) { break }
                }
            }
            mstore(0x00, p)
            return(0x00, 0x20)
        }
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {GolfedPuzzle} from "./GolfedPuzzle.sol";

/// @title octoku, gas-golfed ("2 × 4 = 8")
/// @notice Same puzzle and same outputs as `OctokuReference` (contracts/Reference.sol)
/// on every input. The dispatcher and the SWAR `verify` live in `GolfedPuzzle`
/// (contracts/GolfedPuzzle.sol); this contract adds the golfed `generate`.
/// @dev Gas (execution of the call frame): verify as in `GolfedPuzzle`;
/// generate 610 + 81 per draw that hits a filled cell (see the fallback).
contract OctokuGolf is GolfedPuzzle {
    /// @inheritdoc GolfedPuzzle
    /// @dev name() -> string: offset 0x20, length 10, "2 × 4 = 8" (UTF-8:
    /// 32 20 c3 97 20 34 20 3d 20 38), zero-padded to 32 bytes, in 0x00..0x5f:
    ///
    ///     | store         | writes 0x..     | leaves                                  |
    ///     |---------------|-----------------|-----------------------------------------|
    ///     | mstore(0x4a,0)| 4a..69          | padding after the text zero (solc put   |
    ///     |               |                 | its free memory pointer 0x80 at 0x5f)   |
    ///     | mstore(0x2a,w)| 2a..49, w = 11  | 0x2a..0x3e zero, 0x3f = 10 (length),    |
    ///     |               | bytes 0a 32 ..38| 0x40..0x49 the text                     |
    ///     | mstore(0, 32) | 00..1f          | the offset                              |
    ///
    /// Bytes 0x20..0x29 (the length word's high bytes) are never written on the
    /// path here (dispatch touches no memory), so they are still 0.
    function _name() internal pure override {
        assembly {
            mstore(0x4a, 0)
            mstore(0x2a, 0x0a3220c3972034203d2038)
            mstore(0x00, 0x20)
            return(0x00, 0x60)
        }
    }

    /// @notice generate(address seed) -> uint256: the published board for `seed`.
    /// @dev The reference loop, for every 256-bit seed s:
    ///
    ///     bitmap = 1 << 64; index = 64; puzzle = 0;
    ///     for i in 1..=8: if s == 0 break;
    ///        while (bit index of bitmap set && s != 0) { index = s & 63; s >>= 6; }
    ///        bitmap |= 1 << index; puzzle |= i << 4*index; index = 64;
    ///
    /// Fast path. While the seed never runs dry, digit i lands on the first drawn
    /// chunk whose cell is empty, and a draw that hits a filled cell is just
    /// skipped. So digit i is tried first on chunk (i - 1) of the seed shifted
    /// right by 6 for every skip so far: chunk i-1 sits at bits 6(i-1).., and
    /// `and(shr(6(i-1) - 2, s), 0xfc)` is 4 * chunk, the nibble's bit offset.
    /// Digits are stored as v = i + 7 (8..15), so every filled nibble has bit 3
    /// set and `and(q, v << 4c)` is non-zero exactly when cell c is filled.
    ///
    ///     | digit i     |  1 |  2 |  3 |  4 |  5 |  6 |  7 |  8 |
    ///     | shr amount  | -2 |  4 | 10 | 16 | 22 | 28 | 34 | 40 |  (= 6(i-1) - 2)
    ///     | stored v    |  8 |  9 | 10 | 11 | 12 | 13 | 14 | 15 |  (= i + 7)
    ///
    /// At the end `q - 7 * ((q >> 3) & M1)` turns every v back into i.
    ///
    /// When the fast path is exact. After D draws with K skips (D = 8 + K), the
    /// shifted seed is s = seed >> 6K. If the seed is non-zero after each of the
    /// first D - 1 draws, i.e. if seed >> 6(D - 1) = s >> 42 != 0, the reference
    /// never meets `s == 0` before its last draw and makes exactly these draws.
    /// Otherwise (seeds below 2^42, or seeds that run dry after many skips;
    /// no keccak output is known to do either) the board is recomputed by the
    /// slow path, a transcription of the reference loop including its
    /// exhaustion path (digit ORed into a filled cell). A skip loop that finds
    /// s == 0 sets m = 0 and so stops; that result is then discarded by the same
    /// `s >> 42` test, which is why the loops need no other exit.
    ///
    /// Each skip loop sits behind an `if` and tests at its end (a do-while):
    /// the common, collision-free draw then costs one test and one jump.
    ///
    /// Gas of `generate` (execution of the call frame, exact, see the tests):
    /// 610 + 81 * K, K = draws that hit a filled cell: at most 800 for K <= 2.
    /// For keccak seeds P(K = 0) = 0.634, P(K = 1) = 0.277, P(K = 2) = 0.072,
    /// P(K >= 3) = 0.017.
    ///
    /// Uses `returndatasize()` as 0: no external call is made before it.
    fallback() external payable onGenerate {
        assembly {
            let seed := mload(0x00)
            let s := seed
            // Digit 1 (v = 8) on chunk 0: the board is empty, no test needed.
            let q := shl(and(shl(2, s), 0xfc), 8)
            // Digit 2: m = 9 << 4 * chunk 1; while its cell is filled, skip one
            // chunk (s >>= 6) and redraw.
            let m := shl(and(shr(4, s), 0xfc), 9)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(4, s), 0xfc), 9), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            // Digits 3..8: the same with (shr amount, v) from the table.
            m := shl(and(shr(10, s), 0xfc), 10)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(10, s), 0xfc), 10), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            m := shl(and(shr(16, s), 0xfc), 11)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(16, s), 0xfc), 11), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            m := shl(and(shr(22, s), 0xfc), 12)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(22, s), 0xfc), 12), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            m := shl(and(shr(28, s), 0xfc), 13)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(28, s), 0xfc), 13), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            m := shl(and(shr(34, s), 0xfc), 14)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(34, s), 0xfc), 14), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            m := shl(and(shr(40, s), 0xfc), 15)
            if and(q, m) {
                for {} 1 {} {
                    s := shr(6, s)
                    m := mul(shl(and(shr(40, s), 0xfc), 15), iszero(iszero(s)))
                    if iszero(and(q, m)) { break }
                }
            }
            q := or(q, m)
            // v = i + 7 back to i: subtract 7 from every nibble with bit 3 set.
            let p := sub(q, mul(and(shr(3, q), div(not(returndatasize()), 15)), 7))
            if iszero(shr(42, s)) {
                // Slow path: the reference loop, verbatim, on the original seed
                // (filled cells tested on the board: a placed digit is never 0,
                // and after an OR into a filled cell the loop stops, so
                // "nibble != 0" is the reference's bitmap).
                p := 0
                s := seed
                for { let i := 1 } and(lt(i, 9), iszero(iszero(s))) { i := add(i, 1) } {
                    let c4
                    for {} 1 {} {
                        c4 := shl(2, and(s, 63))
                        s := shr(6, s)
                        if iszero(and(shr(c4, p), 15)) { break }
                        if iszero(s) { break }
                    }
                    p := or(p, shl(c4, i))
                }
            }
            mstore(0x00, p)
            return(0x00, 0x20)
        }
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Classic 9 × 9 Sudoku validator, gas-golfed
/// @notice The `IClassic9` ABI (contracts/classic9/IClassic9.sol) with the same
/// success flag and the same return or revert data as `Classic9Reference` on
/// every call: any bytes, any lengths, malformed ABI, value.
///
/// @dev Not declared `is IClassic9`: solc's dispatcher and decoder would run
/// before our code. The `fallback` is the dispatcher; callers use
/// `IClassic9(address(golf))`. It is `payable` so that solc adds no value
/// check of its own; every path rejects value itself.
///
/// Dispatch and decoding, as solc's in the reference (n = calldatasize):
///
///     | selector   | function                | decodes iff (o = offset word, l = cd[4 + o]) |
///     |------------|-------------------------|----------------------------------------------|
///     | 0x843974d7 | isValidSolution(bytes)  | o, l < 2^64 and o + l + 36 <= n              |
///     | 0xf7e83aee | verify(bytes,bytes)     | n >= 68 and the same for (o1, l1), (o2, l2)  |
///     | 0xabdadaed | error GridLength(uint256) (4 + 32 bytes of revert data)               |
///
/// solc checks n - 4 >= 32 * (number of arguments), each offset o < 2^64,
/// 4 + o + 31 < n, l < 2^64, and 4 + o + 32 + l <= n. With o, l < 2^64 the
/// sum cannot wrap, and o + l + 36 <= n implies 4 + o + 31 < n and (one
/// argument) n >= 36; two arguments need n >= 68 on its own, since both
/// offsets could point at the head. Calldata shorter than 4 bytes matches no
/// selector (calldataload pads with zero bytes; neither selector ends in 00).
///
/// Grid words. A grid's 81 bytes start at q = o + 36 and are copied to
/// memory 0 (bytes 81..94 stay 0; byte 95 is 0x80, the last byte of solc's
/// free memory pointer at 0x40). Band k (rows 3k..3k+2, 27 bytes) is
/// `mload(27k)`: byte j of the band (j = 9 * (r - 3k) + c) sits in lane
/// 31 - j (lane L = bits 8L..8L+7). Lanes 4..0 hold the 5 bytes after the
/// band: cells 27k + 27.. of the next band, or zeros after the grid (k = 2);
/// no lane of the band's own looks at them except through a carry out of
/// lane 4, which needs a byte 0x89 or more there (a grid that fails anyway).
///
///     | lanes   | 31 .. 23 | 22 .. 14 | 13 .. 5  | 4 .. 0         |
///     | row     | 3k       | 3k + 1   | 3k + 2   | (next 5 bytes) |
///     | columns | 0 .. 8   | 0 .. 8   | 0 .. 8   |                |   (column c in lanes 31-c, 22-c, 13-c)
///
/// Gas (execution of the call frame, see tests/Classic9Golf.t.sol):
/// isValidSolution and verify cost the same on every input that decodes with
/// length 81 (no data-dependent branch); the revert paths are cheaper.
contract Classic9Golf {
    fallback() external payable {
        assembly {
            // -------------------------------------------------------------------
            // Constants. Every lane of a word is one byte; lane 0 is the lowest.
            // The repeated ones are built at run time from K01 = not(0) / 0xff,
            // with `returndatasize()` standing for 0 (no call has been made), so
            // that the optimizer cannot turn them into constants it copies from
            // code (CODECOPY + MLOAD, dearer than this).
            //
            //     | name | lanes set            | byte there | built as       |
            //     |------|----------------------|------------|----------------|
            //     | K01  | 0..31                | 0x01       | not(0) / 0xff  |
            //     | K77  | 0..31                | 0x77       | 0x77 * K01     |
            //     | K76  | 0..31                | 0x76       | K77 - K01      |
            //     | K7F  | 0..31 (verify only)  | 0x7f       | 0x7f * K01     |
            //     | K80  | 0..31                | 0x80       | K01 << 7       |
            //     | SEGS | 5, 8, .., 29         | 0xff       | literal        |
            //     | ROWS | 3..5, 12..14, 21..23 | 0xff       | literal        |
            //     | BOXS | 3..11                | 0xff       | literal        |
            //     | COLS | 5..13                | 0xff       | literal        |
            //     | NINE | 5..13                | 0x80       | literal        |
            //
            //     SEGS = 0x0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000000000
            //     ROWS = 0x0000000000000000ffffff000000000000ffffff000000000000ffffff000000
            //     BOXS = 0x0000000000000000000000000000000000000000ffffffffffffffffff000000
            //     COLS = 0x000000000000000000000000000000000000ffffffffffffffffff0000000000
            //     NINE = 0x0000000000000000000000000000000000008080808080808080800000000000
            // -------------------------------------------------------------------
            // The solution's 81 bytes are copied to memory 0x00..0x50 (the start's,
            // for verify, to 0x60..0xb0) and read from there: the optimizer
            // re-executes a calldataload for every use of its value, but keeps an
            // mload's value on the stack.
            // `bad` collects failures in bit 7 of its lanes: the givens (verify)
            // and the bytes 10..255 (below); 0 for isValidSolution until then.
            let k01 := div(not(returndatasize()), 0xff)
            let bad
            switch shr(224, calldataload(0))
            // -------------------------------------------------------------------
            // isValidSolution(bytes grid) -> bool
            // -------------------------------------------------------------------
            case 0x843974d7 {
                let o := calldataload(0x04)
                let l := calldataload(add(o, 0x04))
                // The way to a result, one test: no value, l = 81, o < 2^64 and
                // o + 117 <= n (solc's decoder accepts that, see the table).
                // Anything else refuses; which refusal is sorted out here.
                if or(or(callvalue(), xor(l, 81)), or(shr(64, o), gt(add(o, 117), calldatasize()))) {
                    if or(or(callvalue(), shr(64, or(o, l))), gt(add(add(o, l), 36), calldatasize())) { revert(0, 0) }
                    // revert GridLength(l)
                    mstore(0x00, shl(224, 0xabdadaed))
                    mstore(0x04, l)
                    revert(0x00, 0x24)
                }
                calldatacopy(0x00, add(o, 36), 81)
            }
            // -------------------------------------------------------------------
            // verify(bytes start, bytes solution) -> bool
            // -------------------------------------------------------------------
            case 0xf7e83aee {
                let o1 := calldataload(0x04)
                let o2 := calldataload(0x24)
                let l1 := calldataload(add(o1, 0x04))
                let l2 := calldataload(add(o2, 0x04))
                // The way to a result, one test: no value, l1 = l2 = 81, o1, o2
                // < 2^64 and o1 + 117, o2 + 117 <= n (so n >= 68). Anything
                // else refuses: empty if solc's decoder would, else with the
                // first length that is not 81.
                if or(
                    or(or(callvalue(), shr(64, or(o1, o2))), or(xor(l1, 81), xor(l2, 81))),
                    or(gt(add(o1, 117), calldatasize()), gt(add(o2, 117), calldatasize()))
                ) {
                    if or(
                        or(or(callvalue(), lt(calldatasize(), 68)), shr(64, or(or(o1, l1), or(o2, l2)))),
                        or(gt(add(add(o1, l1), 36), calldatasize()), gt(add(add(o2, l2), 36), calldatasize()))
                    ) { revert(0, 0) }
                    // revert GridLength(the start's length, else the solution's)
                    if eq(l1, 81) { l1 := l2 }
                    mstore(0x00, shl(224, 0xabdadaed))
                    mstore(0x04, l1)
                    revert(0x00, 0x24)
                }
                calldatacopy(0x00, add(o2, 36), 81)
                calldatacopy(0x60, add(o1, 36), 81)
                // Givens, word by word (start s, solution x, d = s ^ x, the
                // same lanes of the same cells). A lane fails when s != 0 and
                // s != x: bit 7 of (s + K7F) & (d + K7F) | s. Only a byte 0x81
                // or more carries into the next lane; if the solution's bytes
                // are 0..9 (else it is refused below whatever this says), such
                // a lane of s or d is a start byte of 0x80 or more: a failing
                // lane, and its own bit 7 is set by `| s`. So the lanes up to
                // and including the lowest carrying one are exact, and the
                // lowest failing lane is among them: some bit 7 is set iff
                // some lane fails. (Bytes 81..95 of s are 0: no failure there.)
                let k7f := mul(0x7f, k01)
                let s := mload(0x60)
                let b := or(s, and(add(s, k7f), add(xor(s, mload(0)), k7f)))
                s := mload(0x80)
                b := or(b, or(s, and(add(s, k7f), add(xor(s, mload(0x20)), k7f))))
                s := mload(0xa0)
                bad := or(b, or(s, and(add(s, k7f), add(xor(s, mload(0x40)), k7f))))
            }
            default { revert(0, 0) }

            // -------------------------------------------------------------------
            // Whether the 81 bytes at memory 0 are a solved Sudoku.
            // -------------------------------------------------------------------
            // Valid iff (1) no cell is 10..255, (2) every row, column and box
            // holds each of 1..8, (3) every column holds a 9. Given (1) to (3)
            // each column's nine cells hold 1..8 and a 9: no room for a 0, so
            // every cell is 1..9 and each column holds 1..9; the grid holds
            // nine 9s, and a row or box holding 1..8 has room for one 9 at
            // most, so each of the nine rows (boxes) holds exactly one.
            // (`octoku prove verify --puzzle classic9` proves this contract
            // equal to the reference by SMT.)
            //
            // Per band x = mload(27k) (see the lane table above the contract):
            // f = x + K77: for x in 0..9 (no carry in) f is 0x77 for 0, 0x78 +
            //   (x - 1) for 1..8 (bit 3 set, bits 0..2 = c = x - 1, c0..c2),
            //   0x80 for 9 (bit 7 set, bit 3 clear).
            // bad, bit 7: x + K76 has it for x in 10..0x89, x for x >= 0x80. A
            //   lane carries into the next one only for x >= 0x89 (f) or
            //   0x8a (x + K76), where bit 7 of x is set; so the lanes up to
            //   and including the lowest carrying one are exact, and (1) holds
            //   iff bit 7 of bad is clear in every lane. From here on x is 0..9
            //   in every lane and every lane of f is exact.
            // nines: bit 7 of f, set iff x is 9; ORed over the bands.
            // u: lane = 1 << c for x in 1..8, else 0. Bit 0 is bit 3 of f; it
            //   moves up by c0 (u + (u & f)), by 2 c1 (c1 copied to bits 0, 1;
            //   u + 3y moves the selected y up 2) and by 4 c2 (c2 copied to bits
            //   0..3; u + 15y). Whatever the input, every lane of u stays a
            //   single bit or 0 and nothing carries.
            // t = u | u >> 8 | u >> 16: lane L = OR of lanes L..L+2; at lanes
            //   29 - 3m (m = 0..8, SEGS) the three cells of a row in a box.
            // segs: those nine lanes of each band, band k moved down k lanes:
            //   row 3k + i, box column b at lane 29 - 9i - 3b - k (27 lanes).
            // Folds of segs (whole-lane shifts, so lanes never mix):
            //   rows: lane L = OR of segs at L, L+3, L+6: row 3k + i at lane
            //     23 - 9i - k (ROWS);
            //   boxes: lane L = OR of segs at L, L+9, L+18: box 3k + b at lane
            //     11 - 3b - k (BOXS);
            // cols (u ORed over the bands) and nines, folded at 9 and 18:
            //   column c at lane 13 - c (COLS, NINE).
            // (2) and (3) hold iff those lanes have all the bits of their mask.
            let k77 := mul(0x77, k01)
            let k76 := sub(k77, k01)
            let cols
            let nines
            let segs
            {
                let x := mload(0)
                let f := add(x, k77)
                bad := or(bad, or(x, add(x, k76)))
                nines := f
                let u := and(shr(3, f), k01)
                u := add(u, and(u, f))
                u := add(u, mul(and(u, mul(and(shr(1, f), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, f), k01), 15)), 15))
                cols := u
                segs := and(or(or(u, shr(8, u)), shr(16, u)), 0x0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000000000)
            }
            {
                let x := mload(27)
                let f := add(x, k77)
                bad := or(bad, or(x, add(x, k76)))
                nines := or(nines, f)
                let u := and(shr(3, f), k01)
                u := add(u, and(u, f))
                u := add(u, mul(and(u, mul(and(shr(1, f), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, f), k01), 15)), 15))
                cols := or(cols, u)
                segs := or(segs, shr(8, and(or(or(u, shr(8, u)), shr(16, u)), 0x0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000000000)))
            }
            {
                let x := mload(54)
                let f := add(x, k77)
                bad := or(bad, or(x, add(x, k76)))
                nines := or(nines, f)
                let u := and(shr(3, f), k01)
                u := add(u, and(u, f))
                u := add(u, mul(and(u, mul(and(shr(1, f), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, f), k01), 15)), 15))
                cols := or(cols, u)
                segs := or(segs, shr(16, and(or(or(u, shr(8, u)), shr(16, u)), 0x0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000ff0000000000)))
            }
            let ok := and(
                and(
                    or(or(or(segs, shr(24, segs)), shr(48, segs)), not(0x0000000000000000ffffff000000000000ffffff000000000000ffffff000000)),
                    or(or(or(segs, shr(72, segs)), shr(144, segs)), not(0x0000000000000000000000000000000000000000ffffffffffffffffff000000))
                ),
                and(
                    or(or(or(cols, shr(72, cols)), shr(144, cols)), not(0x000000000000000000000000000000000000ffffffffffffffffff0000000000)),
                    or(or(or(nines, shr(72, nines)), shr(144, nines)), not(0x0000000000000000000000000000000000008080808080808080800000000000))
                )
            )
            // Every mask's bits set, and no bit 7 in bad: (1), (2), (3) and the
            // givens.
            let b := or(not(ok), and(bad, shl(7, k01)))
            mstore(0x00, iszero(b))
            return(0x00, 0x20)
        }
    }
}

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
/// Grid words. A grid's 81 bytes start at q = o + 36. Band k (rows 3k..3k+2,
/// 27 bytes) is `shr(40, mload(27k))` once the grid is copied to memory 0: byte j of the band (j = 9 *
/// (r - 3k) + c) sits in lane 26 - j (lane L = bits 8L..8L+7); lanes 27..31
/// are 0. The 5 bytes after the band (past the grid, for k = 2) are shifted out.
///
///     | lanes   | 26 .. 18 | 17 .. 9  | 8 .. 0   |
///     | row     | 3k       | 3k + 1   | 3k + 2   |
///     | columns | 0 .. 8   | 0 .. 8   | 0 .. 8   |   (column c in lanes 26-c, 17-c, 8-c)
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
            //     | name  | lanes set                  | byte there | built as       |
            //     |-------|----------------------------|------------|----------------|
            //     | K01   | 0..31                      | 0x01       | not(0) / 0xff  |
            //     | K7F   | 0..31                      | 0x7f       | 0x7f * K01     |
            //     | K76   | 0..31                      | 0x76       | K7F - 9 * K01  |
            //     | K80   | 0..31                      | 0x80       | K7F + K01      |
            //     | GATES | 0..26 (the cells of a band)| 0x80       | K80 >> 40      |
            //     | ROWS  | 0, 9, 18 (row folds)       | 0xff       | literal        |
            //     | BOXES | 0, 3, 6 (box folds)        | 0xff       | literal        |
            //     | COLS  | 0..8 (column folds)        | 0xff       | 2^72 - 1       |
            //
            //     ROWS  = 0xff0000000000000000ff0000000000000000ff  (lanes 18, 9, 0)
            //     BOXES = 0xff0000ff0000ff                          (lanes 6, 3, 0)
            // -------------------------------------------------------------------
            // The solution's 81 bytes are copied to memory 0x00..0x50 (the start's,
            // for verify, to 0x60..0xb0) and read from there: the optimizer
            // re-executes a calldataload for every use of its value (68 loads),
            // but keeps an mload's value on the stack.
            // Memory word 0x60 ends up holding the givens check (verify; it is 0
            // for isValidSolution: untouched memory).
            switch shr(224, calldataload(0))
            // -------------------------------------------------------------------
            // isValidSolution(bytes grid) -> bool
            // -------------------------------------------------------------------
            case 0x843974d7 {
                let o := calldataload(0x04)
                let l := calldataload(add(o, 0x04))
                if or(or(callvalue(), shr(64, or(o, l))), gt(add(add(o, l), 36), calldatasize())) { revert(0, 0) }
                if xor(l, 81) {
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
                if or(
                    or(or(callvalue(), lt(calldatasize(), 68)), shr(64, or(or(o1, l1), or(o2, l2)))),
                    or(gt(add(add(o1, l1), 36), calldatasize()), gt(add(add(o2, l2), 36), calldatasize()))
                ) { revert(0, 0) }
                if xor(l1, 81) {
                    mstore(0x00, shl(224, 0xabdadaed))
                    mstore(0x04, l1)
                    revert(0x00, 0x24)
                }
                if xor(l2, 81) {
                    mstore(0x00, shl(224, 0xabdadaed))
                    mstore(0x04, l2)
                    revert(0x00, 0x24)
                }
                calldatacopy(0x00, add(o2, 36), 81)
                calldatacopy(0x60, add(o1, 36), 81)
                // Givens, band by band (start word s, solution word x, d = s ^ x):
                // nz(v) = ((v & K7F) + K7F) | v has bit 7 of a lane set iff the
                // lane is not 0 (no carry: at most 0x7f + 0x7f). A lane fails
                // when nz(s) and nz(d).
                let k01 := div(not(returndatasize()), 0xff)
                let k7f := mul(0x7f, k01)
                let s := shr(40, mload(0x60))
                let d := xor(s, shr(40, mload(0)))
                let b := and(or(add(and(s, k7f), k7f), s), or(add(and(d, k7f), k7f), d))
                s := shr(40, mload(0x7b))
                d := xor(s, shr(40, mload(27)))
                b := or(b, and(or(add(and(s, k7f), k7f), s), or(add(and(d, k7f), k7f), d)))
                s := shr(40, mload(0x96))
                d := xor(s, shr(40, mload(54)))
                b := or(b, and(or(add(and(s, k7f), k7f), s), or(add(and(d, k7f), k7f), d)))
                mstore(0x60, and(b, add(k7f, k01)))
            }
            default { revert(0, 0) }

            // -------------------------------------------------------------------
            // Whether the 81 bytes at memory 0 are a solved Sudoku.
            // -------------------------------------------------------------------
            // Valid iff (1) every cell is in 1..9, (2) every row, column and box
            // holds each of 1..8, (3) every column holds a 9. Given (1) to (3)
            // each column holds 1..9, so the grid holds nine 9s; a row or box
            // holding 1..8 has room for one 9 at most, so each of the nine rows
            // (boxes) holds exactly one. (`octoku prove verify --puzzle
            // classic9` proves this contract equal to the reference by SMT.)
            //
            // Band k (rows 3k..3k+2) is x = shr(40, mload(27k)), see the lane
            // table above the contract. Per band:
            // e = x + K7F: for x in 1..9 (no carry in) e = 128 + (x - 1), so bits
            //   0..3 of e are c = x - 1 (c0..c3) and bit 7 is set.
            // g: bit 7 of a lane set iff x in 1..9: e has it (x >= 1), x + K76
            //   has not (x <= 9), x has not (x < 128). A lane carries into the
            //   next one only if it is outside 1..9 (e: x >= 129; x + K76:
            //   x >= 138), so lanes up to and including the lowest lane outside
            //   1..9 are exact and that lane's gate is clear: (1) holds iff every
            //   gate is set.
            // u: lane = 1 << (x - 1) for x in 1..8, else 0 (exact lanes). Bit 0
            //   is gate and not c3; it moves up by c0 (u + (u & e)), by 2 c1
            //   (c1 copied to bits 0, 1; u + 3y moves the selected y up 2) and by
            //   4 c2 (c2 copied to bits 0..3; u + 15y).
            // Folds (only whole-lane shifts, so slots never mix):
            //   t: lane L = OR of lanes L..L+2 (three cells of a row);
            //   rows: lane L = OR of t at L, L+3, L+6: a row at L = 0, 9, 18;
            //   boxes: lane L = OR of t at L, L+9, L+18: a box at L = 0, 3, 6;
            //   cols: the bands ORed, folded at 9 and 18: column 8 - L at L in 0..8.
            // (2) holds iff those lanes are 0xff in every band.
            let k01 := div(not(returndatasize()), 0xff)
            let k7f := mul(0x7f, k01)
            let k76 := sub(k7f, mul(9, k01))
            let gates := not(0)
            let rows := not(0)
            let boxes := not(0)
            let cols
            let nines
            {
                let x := shr(40, mload(0))
                let e := add(x, k7f)
                let g := and(e, not(or(add(x, k76), x)))
                gates := and(gates, g)
                let c3 := shr(3, e)
                nines := c3
                let u := and(and(shr(7, g), k01), not(c3))
                u := add(u, and(u, e))
                u := add(u, mul(and(u, mul(and(shr(1, e), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, e), k01), 15)), 15))
                cols := or(cols, u)
                let t := or(or(u, shr(8, u)), shr(16, u))
                rows := and(rows, or(or(t, shr(24, t)), shr(48, t)))
                boxes := and(boxes, or(or(t, shr(72, t)), shr(144, t)))
            }
            {
                let x := shr(40, mload(27))
                let e := add(x, k7f)
                let g := and(e, not(or(add(x, k76), x)))
                gates := and(gates, g)
                let c3 := shr(3, e)
                nines := or(nines, c3)
                let u := and(and(shr(7, g), k01), not(c3))
                u := add(u, and(u, e))
                u := add(u, mul(and(u, mul(and(shr(1, e), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, e), k01), 15)), 15))
                cols := or(cols, u)
                let t := or(or(u, shr(8, u)), shr(16, u))
                rows := and(rows, or(or(t, shr(24, t)), shr(48, t)))
                boxes := and(boxes, or(or(t, shr(72, t)), shr(144, t)))
            }
            {
                let x := shr(40, mload(54))
                let e := add(x, k7f)
                let g := and(e, not(or(add(x, k76), x)))
                gates := and(gates, g)
                let c3 := shr(3, e)
                nines := or(nines, c3)
                let u := and(and(shr(7, g), k01), not(c3))
                u := add(u, and(u, e))
                u := add(u, mul(and(u, mul(and(shr(1, e), k01), 3)), 3))
                u := add(u, mul(and(u, mul(and(shr(2, e), k01), 15)), 15))
                cols := or(cols, u)
                let t := or(or(u, shr(8, u)), shr(16, u))
                rows := and(rows, or(or(t, shr(24, t)), shr(48, t)))
                boxes := and(boxes, or(or(t, shr(72, t)), shr(144, t)))
            }
            cols := or(or(cols, shr(72, cols)), shr(144, cols))
            // (1) a clear gate in lanes 0..26 (GATES); the givens (verify).
            let b := or(mload(0x60), and(not(gates), shr(40, add(k7f, k01))))
            // (2) a missing digit in a row, box or column.
            b := or(b, and(not(rows), 0xff0000000000000000ff0000000000000000ff))
            b := or(b, and(not(boxes), 0xff0000ff0000ff))
            b := or(b, and(not(cols), 0xffffffffffffffffff))
            // (3) a column without a 9: bit 0 of a lane of c3 is bit 3 of e, set
            // iff the cell is 9 (given (1)); ORed over the bands and folded like
            // the columns of u (column 8 - L at lane L in 0..8).
            nines := or(or(nines, shr(72, nines)), shr(144, nines))
            b := or(b, and(not(nines), 0x010101010101010101))
            mstore(0x00, iszero(b))
            return(0x00, 0x20)
        }
    }
}

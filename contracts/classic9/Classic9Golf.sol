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
            let bad
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
                let k7f := mul(0x7f, div(not(returndatasize()), 0xff))
                let s := mload(0x60)
                let b := or(s, and(add(s, k7f), add(xor(s, mload(0)), k7f)))
                s := mload(0x80)
                b := or(b, or(s, and(add(s, k7f), add(xor(s, mload(0x20)), k7f))))
                s := mload(0xa0)
                bad := or(b, or(s, and(add(s, k7f), add(xor(s, mload(0x40)), k7f))))
            }
            default { revert(0, 0) }

            let k01 := div(not(returndatasize()), 0xff)
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
            let b := or(not(ok), and(bad, shl(7, k01)))
            mstore(0x00, iszero(b))
            return(0x00, 0x20)
        }
    }
}

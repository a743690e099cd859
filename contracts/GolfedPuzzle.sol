// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title The golfed IPuzzle frame shared by OctokuGolf and OctokuFair
/// @notice A hand-written dispatcher with the `IPuzzle` ABI (`name()`,
/// `generate(address)`, `verify(uint256,uint256)`: selectors 0x06fdde03,
/// 0x2fa61cd8, 0x41161b10) and the SWAR `verify`, whose result equals
/// `OctokuReference.verify` (contracts/Reference.sol) on every input. A puzzle
/// derives from it, writes its `generate` as a `fallback` under the
/// `onGenerate` modifier, and supplies `_name`.
///
/// @dev Why these contracts are not declared `is IPuzzle`: a contract that inherits
/// the interface must implement the three functions in Solidity, and then solc's
/// dispatcher and ABI decoder run before any of our code. Measured with empty
/// assembly bodies, that prologue alone costs 272-274 gas per call. Here the
/// `fallback` is the dispatcher; the ABI is byte-for-byte the IPuzzle ABI, and
/// callers (and the tests) use `IPuzzle(address(puzzle))`.
///
/// Dispatch. `generate` is tested first, with one comparison: its calldata
/// starts with the selector and the 12 zero bytes above the address, so a
/// well-formed call has exactly GENERATE_HEAD in its first 16 bytes
/// (`shr(128, calldataload(0))`), at least 0x24 bytes, and no value. Anything
/// else goes to `_dispatchOther`: verify, name, or revert. The fallback is
/// `payable` only so that solc adds no value check of its own; every path
/// rejects value itself, as the reference's non-payable functions do.
///
/// ABI edge behaviour, as solc's decoder in the reference:
///
///     | input                                        | result |
///     |----------------------------------------------|--------|
///     | unknown selector, or calldata shorter than 4 | revert |
///     | generate with calldatasize < 0x24            | revert |
///     | generate with any of the upper 96 bits set   | revert |
///     | verify with calldatasize < 0x44              | revert |
///     | any call with callvalue != 0                 | revert |
///     | extra trailing calldata                      | ignored|
///
/// Calldata shorter than 4 bytes cannot match: calldataload pads with zero bytes
/// and no selector of ours ends in a zero byte.
///
/// Board layout (as the reference): nibble k of the uint256 is the cell at row
/// 7 - k/8, column 7 - k%8. A row is one 32-bit lane (lane r = bits 32r..32r+31 =
/// nibbles 8r..8r+7). A 2 × 4 subgrid is nibbles {b, b+1, b+2, b+3, b+8, .., b+11}
/// for b in {0, 4, 16, 20, 32, 36, 48, 52}.
///
/// Gas (execution of the call frame): verify 829 on every input of valid
/// length (the code has no data-dependent branch). A generate call reaches
/// its body after 140 gas: solc's memory setup (18), the one-comparison
/// dispatch, keccak256 of the address, and the seed stored and loaded back.
///
/// Constants. `M1` = 0x1111...1 (bit 0 of every nibble) is built at run time as
/// `not(0) / 15`, with `returndatasize()` standing for 0 (no call has been made),
/// so that the optimizer cannot fold it back into a 33-byte PUSH32. Likewise:
///
///     | name  | value (hex, 64 digits, pattern repeated)   | built as                   |
///     |-------|--------------------------------------------|----------------------------|
///     | M1    | 1111111111111111 ... (every nibble 1)      | not(0) / 0xf               |
///     | SEVEN | 7777777777777777 ... (every nibble 7)      | 7 * M1                     |
///     | ROWS  | 0000000f 0000000f ... (nibble 0 of a lane) | not(0) / 0xffffffff * 0xf  |
///     | BOXES | 00000000000f000f ... (nibbles 0 and 4 of   | not(0) / (2^64-1) * 0xf000f|
///     |       |  every even lane)                          |                            |
///     | COLS  | low 32 bits = nibbles 0..7                 | 0xffffffff                 |
abstract contract GolfedPuzzle {
    /// @dev The first 16 calldata bytes of a well-formed generate call: the
    /// selector 0x2fa61cd8, then the 12 zero bytes above the 20-byte address.
    uint256 private constant GENERATE_HEAD = 0x2fa61cd8 << 96;

    /// @notice Runs the function body only for a well-formed `generate(address)`
    /// call, with the seed keccak256(abi.encodePacked(address)) (as published)
    /// in memory word 0; every other call is answered by `_dispatchOther`,
    /// which never returns. The body must end in `return`.
    /// @dev Virtual so that a test harness can feed raw seeds instead
    /// (contracts/harness/).
    modifier onGenerate() virtual {
        bool other;
        assembly {
            other := or(or(xor(shr(128, calldataload(0)), GENERATE_HEAD), callvalue()), lt(calldatasize(), 0x24))
        }
        if (other) _dispatchOther();
        assembly {
            // keccak256 of the 20 address bytes (bytes 12..31 of the word).
            mstore(0x00, calldataload(0x04))
            mstore(0x00, keccak256(0x0c, 0x14))
        }
        _;
    }

    /// @dev Every call but a well-formed generate. Never returns.
    function _dispatchOther() private view {
        uint256 selector;
        assembly {
            selector := shr(224, calldataload(0))
            // -------------------------------------------------------------------
            // verify(uint256 start, uint256 solution) -> bool
            // -------------------------------------------------------------------
            // A short or paid verify call falls through to the final revert.
            if iszero(or(or(xor(selector, 0x41161b10), callvalue()), lt(calldatasize(), 0x44))) {
            let start := calldataload(0x04)
            let solution := calldataload(0x24)
            // m1 = 0x1111...1: bit 0 of every nibble.
            let m1 := div(not(returndatasize()), 15)

            // (b) Givens. Bit 4k of `t` is (start_k != 0) and bit 4k of
            // `x` is (start_k != solution_k): OR of the nibble's 4 bits
            // folded into its bit 0 (x | x>>2 puts b0|b2, b1|b3 at bits
            // 0, 1; | >>1 then puts b0|b1|b2|b3 at bit 0). Shifts stay
            // inside the nibble for the bit-0 positions read through m1.
            let t := or(start, shr(2, start))
            t := or(t, shr(1, t))
            let x := xor(start, solution)
            x := or(x, shr(2, x))
            x := or(x, shr(1, x))
            // bad != 0 iff some given is non-zero and differs.
            let bad := and(and(t, x), m1)

            // (a) Rows, columns, subgrids.
            // e = solution + 0x7777...7. Nibble d in 1..8 becomes
            // 8 + (d - 1) = 0b1 c2 c1 c0 with c = d - 1, and no carry
            // leaves the nibble. The gate bit 3 is set exactly for 1..8.
            // Invalid nibbles (0, 9..15) give a clear bit 3 for the
            // lowest invalid nibble (no carry reaches it from the valid
            // nibbles below it); higher nibbles may be garbled by its
            // carry, but see the argument at `wa` below.
            let e := add(solution, mul(7, m1))
            // g: bit 0 of nibble k = gate (solution_k in 1..8).
            let g := and(shr(3, e), m1)
            // Move the gate bit up by c0: g + (g & e), since bit 0 of e
            // is c0 (g has only bit-0 positions, so g & e = g & c0).
            g := add(g, and(g, e))
            // Move it up by 2 * c1: (e >> 1) & m1 holds c1 at bit 0,
            // times 3 copies it to bits 0 and 1, where g now sits; the
            // selected bits y move up 2 places via g + 3y = g - y + 4y.
            // u: nibble k has exactly bit (c1 c0) set if valid, else 0.
            let u := add(g, mul(and(g, mul(and(shr(1, e), m1), 3)), 3))
            // Split by c2: wb keeps digits 5..8 (c2 = 1), wa digits 1..4.
            //     | digit | 1 2 3 4 | 5 6 7 8 |
            //     | word  | wa      | wb      |
            //     | bit   | 0 1 2 3 | 0 1 2 3 |
            let wb := and(u, mul(and(shr(2, e), m1), 15))
            let wa := xor(u, wb)
            // Every cell sets at most one of the 8 (word, bit) slots, and
            // an invalid cell sets none. A unit (8 cells) is {1..8} iff
            // all 8 slots are set in the OR of its cells: 8 cells can
            // cover 8 slots only if each covers a different one. If any
            // cell is invalid, the lowest invalid cell sets no slot, so
            // its row covers at most 7 slots and verify fails; what the
            // carry does to higher cells then no longer matters.

            // OR-folds (all shifts are whole nibbles, so slots never mix):
            // f: nibble k = OR of nibbles k..k+3.
            let fa := or(wa, shr(4, wa))
            fa := or(fa, shr(8, fa))
            let fb := or(wb, shr(4, wb))
            fb := or(fb, shr(8, fb))
            // box: nibble b = OR of nibbles b..b+3, b+8..b+11 (a subgrid
            // for b in BOXES), both words ANDed: all 4 bits set iff the
            // subgrid holds 1..4 (wa) and 5..8 (wb).
            let box := and(or(fa, shr(32, fa)), or(fb, shr(32, fb)))
            // row: nibble 8r = OR of nibbles 8r..8r+7 (row lane r).
            let row := and(or(fa, shr(16, fa)), or(fb, shr(16, fb)))
            // col: nibble c (0..7) = OR of nibbles c, c+8, .., c+56.
            let ca := or(wa, shr(128, wa))
            ca := or(ca, shr(64, ca))
            ca := or(ca, shr(32, ca))
            let cb := or(wb, shr(128, wb))
            cb := or(cb, shr(64, cb))
            cb := or(cb, shr(32, cb))
            // A missing slot is a clear bit under the unit's mask.
            bad := or(bad, and(not(row), mul(div(not(returndatasize()), 0xffffffff), 15)))
            bad := or(bad, and(not(box), mul(div(not(returndatasize()), 0xffffffffffffffff), 0xf000f)))
            bad := or(bad, and(not(and(ca, cb)), 0xffffffff))
            mstore(0x00, iszero(bad))
            return(0x00, 0x20)
            }
        }
        if (selector == 0x06fdde03 && msg.value == 0) _name();
        revert();
    }

    /// @notice Returns (ABI-encoded, via `return`) the puzzle's name.
    function _name() internal pure virtual;
}

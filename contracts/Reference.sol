// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPuzzle} from "./IPuzzle.sol";

/// @title octoku reference puzzle ("2 × 4 = 8")
/// @notice 8 × 8 Sudoku whose boxes are 2 × 4 subgrids. Every row, column and
/// subgrid of a solution holds each of 1..8 exactly once, and every digit of
/// the start is kept.
/// @dev Output-identical to the published Curta puzzle #1 on every input.
/// A board is a uint256 of 64 nibbles. Nibble k (bits 4k..4k+3) is the cell at
/// row 7 - k / 8, column 7 - k % 8, so the 64 hex digits, most significant
/// first, read the board row by row. Digit 0 is an empty cell.
contract OctokuReference is IPuzzle {
    /// @dev Which checks start at nibble k: bit 2 the row, bit 1 the column,
    /// bit 0 the 2 × 4 subgrid, each running towards higher nibbles from k.
    /// Nibbles not listed are 0.
    ///
    ///     | nibble k | row | column | subgrid | value |
    ///     |----------|-----|--------|---------|-------|
    ///     |        0 |  1  |   1    |    1    |   7   |
    ///     |    1,2,3 |  0  |   1    |    0    |   2   |
    ///     |        4 |  0  |   1    |    1    |   3   |
    ///     |    5,6,7 |  0  |   1    |    0    |   2   |
    ///     |        8 |  1  |   0    |    0    |   4   |
    ///     |       16 |  1  |   0    |    1    |   5   |
    ///     |       20 |  0  |   0    |    1    |   1   |
    ///     |       24 |  1  |   0    |    0    |   4   |
    ///     |       32 |  1  |   0    |    1    |   5   |
    ///     |       36 |  0  |   0    |    1    |   1   |
    ///     |       40 |  1  |   0    |    0    |   4   |
    ///     |       48 |  1  |   0    |    1    |   5   |
    ///     |       52 |  0  |   0    |    1    |   1   |
    ///     |       56 |  1  |   0    |    0    |   4   |
    ///
    /// Read as hex, nibble 56 is the leading `4` and nibble 0 the trailing `7`.
    uint256 internal constant CHECKS = 0x400010005000000040001000500000004000100050000000422232227;

    /// @dev Bits to shift between the 8 cells of a row: eight 6-bit fields,
    /// lowest first, each 4 (one nibble): 0b000100 repeated = 0x104104104104.
    uint256 internal constant ROW_SHIFTS = 0x104104104104;

    /// @dev Bits to shift between the 8 cells of a column: eight 6-bit fields,
    /// each 32 (one row of 8 nibbles): 0b100000 repeated = 0x820820820820.
    uint256 internal constant COL_SHIFTS = 0x820820820820;

    /// @dev Bits to shift between the 8 cells of a 2 × 4 subgrid, lowest field
    /// first: 4, 4, 4 along the first row, 20 back to the start of the next
    /// row (32 - 3 * 4), then 4, 4, 4, and a last 4 that keeps the word
    /// non-zero for the eighth read.
    ///
    ///     | field | bits  | shift | 6-bit value |
    ///     |-------|-------|-------|-------------|
    ///     | 0..2  | 0-17  |   4   |   000100    |
    ///     | 3     | 18-23 |  20   |   010100    |
    ///     | 4..7  | 24-47 |   4   |   000100    |
    uint256 internal constant SUBGRID_SHIFTS = 0x104104504104;

    /// @dev Bits 1..8 set: every digit 1..8 seen once and nothing else.
    uint256 internal constant FILLED_BITMAP = 0x1FE;

    /// @inheritdoc IPuzzle
    function name() external pure returns (string memory) {
        return unicode"2 × 4 = 8";
    }

    /// @inheritdoc IPuzzle
    /// @dev The seed is keccak256 of the 20 address bytes; see `_fill`.
    function generate(address seed) external pure returns (uint256) {
        return _fill(uint256(keccak256(abi.encodePacked(seed))));
    }

    /// @inheritdoc IPuzzle
    /// @dev Any nibble of `solution` outside 1..8 fails the row check that
    /// covers it; a non-zero nibble of `start` must equal the solution's.
    function verify(uint256 start, uint256 solution) external pure returns (bool) {
        for (uint256 index; index < 256;) {
            if (start & 0xF != 0 && start & 0xF != solution & 0xF) return false;

            uint256 checks = (CHECKS >> index) & 7;
            if (checks & 4 == 4 && !_check(solution, ROW_SHIFTS)) return false;
            if (checks & 2 == 2 && !_check(solution, COL_SHIFTS)) return false;
            if (checks & 1 == 1 && !_check(solution, SUBGRID_SHIFTS)) return false;

            start >>= 4;
            solution >>= 4;
            unchecked {
                index += 4;
            }
        }
        return true;
    }

    /// @notice Places the digits 1..8 on distinct cells chosen by `seed`.
    /// @dev Draws 6 bits at a time from the low end of `seed` until a draw
    /// lands on a free cell. `bitmap` marks filled cells; its bit 64 is a
    /// sentinel so the first draw of every digit is forced. Stops when the seed
    /// is spent: if it runs out while the last draw sits on a filled cell, the
    /// digit is ORed into that cell (for example 8 | 1 = 9).
    function _fill(uint256 seed) internal pure returns (uint256 puzzle) {
        uint256 bitmap = 1 << 64;
        uint256 index = 64;
        for (uint256 i = 1; i < 9;) {
            if (seed == 0) break;
            while ((bitmap >> index) & 1 == 1 && seed != 0) {
                index = seed & 0x3F;
                seed >>= 6;
            }
            // forge-lint: disable-next-line(incorrect-shift)
            bitmap |= 1 << index;
            puzzle |= i << (index << 2);
            index = 64;
            unchecked {
                ++i;
            }
        }
    }

    /// @notice Whether the 8 cells read from `shifted` along `shifts` hold 1..8.
    /// @dev Reads a nibble, then shifts by the next 6-bit field, until the
    /// shift word is spent (8 fields, so 8 reads).
    function _check(uint256 shifted, uint256 shifts) internal pure returns (bool) {
        uint256 seen;
        while (shifts != 0) {
            // forge-lint: disable-next-line(incorrect-shift)
            seen |= 1 << (shifted & 0xF);
            shifted >>= shifts & 0x3F;
            shifts >>= 6;
        }
        return seen == FILLED_BITMAP;
    }
}

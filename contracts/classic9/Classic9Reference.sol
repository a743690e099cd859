// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IClassic9} from "./IClassic9.sol";

/// @title Classic 9 × 9 Sudoku validator, reference
/// @notice The textbook method in plain Solidity: one 9-bit mask per row, column
/// and box, every bit set at the start (a set bit is a digit not seen yet);
/// each cell clears the bit of its digit in its row's, column's and box's
/// mask; the grid is valid when every mask ends at zero.
/// @dev The seed clears bit (16 * (group + 1) - cell) of a bit string whose bit
/// 0 is the leftmost: a byte 0 or 10..16 clears a padding bit, and a byte
/// 17..255 clears a bit of the neighbouring group's mask. Here a byte outside
/// 1..9 makes the grid invalid outright (the interface's rule: values 1..9).
/// Edge behaviour: see `IClassic9`.
contract Classic9Reference is IClassic9 {
    /// @dev Cells in a grid.
    uint256 internal constant CELLS = 81;

    /// @dev The seed's GROUP: nine 16-bit masks 0x01ff, mask g in bits
    /// 16g..16g+15, bit 16g + (d - 1) standing for digit d of group g.
    ///
    ///     | group g   | 8    | 7    | 6    | 5    | 4    | 3    | 2    | 1    | 0    |
    ///     | bits      | 128+ | 112+ | 96+  | 80+  | 64+  | 48+  | 32+  | 16+  | 0+   |
    ///     | mask      | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff | 01ff |
    uint256 internal constant GROUP = 0x01ff01ff01ff01ff01ff01ff01ff01ff01ff;

    /// @inheritdoc IClassic9
    function isValidSolution(bytes calldata grid) external pure returns (bool) {
        if (grid.length != CELLS) revert GridLength(grid.length);
        return _valid(grid);
    }

    /// @inheritdoc IClassic9
    function verify(bytes calldata start, bytes calldata solution) external pure returns (bool) {
        if (start.length != CELLS) revert GridLength(start.length);
        if (solution.length != CELLS) revert GridLength(solution.length);
        for (uint256 i; i < CELLS; ++i) {
            if (start[i] != 0 && start[i] != solution[i]) return false;
        }
        return _valid(solution);
    }

    /// @notice Whether the 81 bytes of `grid` are a solved Sudoku.
    /// @dev row = i / 9, column = i % 9, box = 3 * (row / 3) + column / 3 (the
    /// seed's i / 27 * 3 + i % 9 / 3); digit d clears bit 16 * group + d - 1 of
    /// that group's word.
    function _valid(bytes calldata grid) internal pure returns (bool) {
        uint256 rows = GROUP;
        uint256 columns = GROUP;
        uint256 boxes = GROUP;
        for (uint256 i; i < CELLS; ++i) {
            uint256 cell = uint8(grid[i]);
            if (cell == 0 || cell > 9) return false;
            uint256 digit = 2 ** (cell - 1);
            uint256 row = i / 9;
            uint256 column = i % 9;
            uint256 box = row - row % 3 + column / 3;
            rows &= ~(digit << (16 * row));
            columns &= ~(digit << (16 * column));
            boxes &= ~(digit << (16 * box));
        }
        return rows | columns | boxes == 0;
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPuzzle} from "../IPuzzle.sol";

/// @title The reference puzzle in plain loops (a test fixture)
/// @notice Written for octoku's tests of user-supplied targets (`--artifact`,
/// `--bytecode`, `--contract`, `octoku check`): the outputs of the reference
/// (contracts/Reference.sol) on every input, in another style: cells and
/// units by row and column, a bool array of taken cells, division for the
/// seed's 6-bit draws. Test-only: never deployed as a puzzle.
contract LoopPuzzle is IPuzzle {
    /// @notice A name of its own (only generate and verify match the reference).
    function name() external pure returns (string memory) {
        return "loops";
    }

    /// @notice Digits 1..8 each on the cell of the next 6-bit draw of the
    /// seed that is not taken yet; a draw that finds the seed spent places
    /// the digit where the last draw landed, as the reference does.
    function generate(address seed) external pure returns (uint256 board) {
        uint256 rest = uint256(keccak256(abi.encodePacked(seed)));
        // taken[64] stands for "no cell drawn yet".
        bool[65] memory taken;
        taken[64] = true;
        for (uint256 digit = 1; digit <= 8; digit++) {
            if (rest == 0) break;
            uint256 cell = 64;
            while (taken[cell] && rest != 0) {
                cell = rest % 64;
                rest = rest / 64;
            }
            taken[cell] = true;
            if (cell < 64) {
                board = board | digit * 16 ** cell;
            }
        }
    }

    /// @notice True when every given of `start` is the solution's digit and
    /// each row, column and 2x4 box of the solution holds 1..8.
    function verify(uint256 start, uint256 solution) external pure returns (bool) {
        for (uint256 cell = 0; cell < 64; cell++) {
            uint256 given = (start >> (cell * 4)) & 15;
            if (given != 0 && given != (solution >> (cell * 4)) & 15) return false;
        }
        for (uint256 line = 0; line < 8; line++) {
            uint256 rowSeen;
            uint256 columnSeen;
            for (uint256 k = 0; k < 8; k++) {
                rowSeen = rowSeen | 2 ** _digit(solution, line, k);
                columnSeen = columnSeen | 2 ** _digit(solution, k, line);
            }
            if (rowSeen != 0x1FE || columnSeen != 0x1FE) return false;
        }
        for (uint256 box = 0; box < 8; box++) {
            uint256 boxSeen;
            for (uint256 k = 0; k < 8; k++) {
                // Box b covers rows b - b % 2 and the next, columns 4 * (b % 2) on.
                boxSeen = boxSeen | 2 ** _digit(solution, box - box % 2 + k / 4, (box % 2) * 4 + k % 4);
            }
            if (boxSeen != 0x1FE) return false;
        }
        return true;
    }

    /// @dev The digit at (row, column) of the contract's nibble order (cell
    /// row * 8 + column is bits 4 * cell .. 4 * cell + 3).
    function _digit(uint256 board, uint256 row, uint256 column) internal pure returns (uint256) {
        return (board >> ((row * 8 + column) * 4)) & 15;
    }
}

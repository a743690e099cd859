// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ICourse} from "./ICourse.sol";
import {IPuzzle} from "../IPuzzle.sol";
import {OctokuReference} from "../Reference.sol";

/// @title The 8 × 8 verify course ("2 × 4 = 8")
/// @notice A Curta Golf course for `verify(uint256 start, uint256 solution)`
/// of octoku's puzzle. Every run draws `BOARDS` valid grids from the seed and
/// asks the solution `KINDS` questions about each:
///
///     | kind | solution                                  | start              | reference |
///     |------|-------------------------------------------|--------------------|-----------|
///     |  0   | the valid grid                            | 1 in 4 cells given | true      |
///     |  1   | the valid grid                            | one given changed  | false     |
///     |  2   | two cells of a column in one box swapped  | those two cleared  | false     |
///     |      | (columns and boxes stay valid, rows not)  |                    |           |
///     |  3   | two cells of a row in one box swapped     | those two cleared  | false     |
///     |      | (rows and boxes stay valid, columns not)  |                    |           |
///     |  4   | two rows of different bands swapped       | empty              | false     |
///     |      | (rows and columns stay valid, boxes not)  |                    |           |
///     |  5   | one cell 9..15 (a digit out of range)     | that cell cleared  | false     |
///     |  6   | one cell 0 (an empty cell)                | that cell cleared  | false     |
///     |  7   | the valid grid                            | every cell given   | true      |
///
/// The answer required is the reference's (`OctokuReference`, deployed by
/// the constructor), so a solution that always says true or always false
/// fails. Gas: only the solution's calls are metered, each as the `gas()`
/// difference around its STATICCALL (the call's 100 gas of warm access
/// included: the target's code size is read first, unmetered).
/// @dev A board is a uint256 of 64 nibbles; nibble k is the cell at row
/// 7 - k / 8, column 7 - k % 8 (as in `OctokuReference`).
contract VerifyCourse is ICourse {
    /// @notice Boards drawn per run.
    uint256 public constant BOARDS = 2;

    /// @notice Questions asked about each board (the table above).
    uint256 public constant KINDS = 8;

    /// @notice The reference whose answers the solution must give.
    OctokuReference public immutable REFERENCE;

    constructor() {
        REFERENCE = new OctokuReference();
    }

    /// @inheritdoc ICourse
    function name() external pure returns (string memory) {
        return unicode"octoku 2 × 4 = 8: verify";
    }

    /// @inheritdoc ICourse
    function run(address target, uint256 seed) external view returns (uint32 gasUsed) {
        // Every metered call pays warm access (100), as in CurtaGolf.submit,
        // where the target was just created. A target without code is no
        // solution; the check also leaves it warm (a bare
        // pop(extcodesize(target)) would be optimized away).
        if (target.code.length == 0) revert IncorrectSolution();
        uint256 total;
        for (uint256 b; b < BOARDS; ++b) {
            uint256 word = uint256(keccak256(abi.encode(seed, b)));
            uint256 grid = _grid(word);
            uint256 picks = uint256(keccak256(abi.encode(word)));
            uint256 start = grid & _givens(uint256(keccak256(abi.encode(picks))));
            for (uint256 kind; kind < KINDS; ++kind) {
                (uint256 s, uint256 solution) = _case(kind, grid, start, picks >> (8 * kind));
                bool expected = REFERENCE.verify(s, solution);
                (bool answer, uint256 used) = _measure(target, s, solution);
                if (answer != expected) revert IncorrectSolution();
                total += used;
            }
        }
        // At most 16 calls under the block gas limit: far below 2^32.
        // forge-lint: disable-next-line(unsafe-typecast)
        gasUsed = uint32(total);
    }

    /// @notice Calls `target.verify(start, solution)` and meters the call.
    /// @dev Reverts `IncorrectSolution()` when the call reverts or returns
    /// less than 32 bytes or a first word other than 0 or 1.
    function _measure(address target, uint256 start, uint256 solution)
        internal
        view
        returns (bool answer, uint256 used)
    {
        bytes4 selector = IPuzzle.verify.selector;
        bytes4 incorrect = IncorrectSolution.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, selector)
            mstore(add(m, 0x04), start)
            mstore(add(m, 0x24), solution)
            let before := gas()
            let ok := staticcall(gas(), target, m, 0x44, 0, 0)
            used := sub(before, gas())
            // ok and at least one word returned, else not an answer.
            if iszero(and(ok, gt(returndatasize(), 0x1f))) {
                mstore(0, incorrect)
                revert(0, 4)
            }
            returndatacopy(m, 0, 0x20)
            let word := mload(m)
            if gt(word, 1) {
                mstore(0, incorrect)
                revert(0, 4)
            }
            answer := word
        }
    }

    /// @notice Case `kind` (the table above) of `grid`, with `start` its
    /// givens; `pick` chooses the cell (bits 0..5) and the value out of
    /// range (bits 6..7 and on).
    function _case(uint256 kind, uint256 grid, uint256 start, uint256 pick)
        internal
        pure
        returns (uint256, uint256)
    {
        uint256 k = pick & 63;
        uint256 cell = _cell(k);
        if (kind == 0) return (start, grid);
        if (kind == 1) {
            // The given at k becomes another digit 1..8.
            uint256 other = ((grid >> (4 * k)) & 0xF) % 8 + 1;
            return ((start & ~cell) | (other << (4 * k)), grid);
        }
        if (kind == 2) {
            // Nibble k ^ 8 is the same column, the other row of the band.
            return (start & ~cell & ~_cell(k ^ 8), _swap(grid, k, k ^ 8));
        }
        if (kind == 3) {
            // Nibble k ^ 1 is the same row, the neighbour inside the box.
            return (start & ~cell & ~_cell(k ^ 1), _swap(grid, k, k ^ 1));
        }
        if (kind == 4) {
            // Row index q and q ^ 2 lie in different bands of two rows.
            uint256 q = k / 8;
            uint256 x = ((grid >> (32 * q)) ^ (grid >> (32 * (q ^ 2)))) & 0xFFFFFFFF;
            return (0, grid ^ (x << (32 * q)) ^ (x << (32 * (q ^ 2))));
        }
        if (kind == 5) return (start & ~cell, (grid & ~cell) | ((9 + ((pick >> 6) % 7)) << (4 * k)));
        if (kind == 6) return (start & ~cell, grid & ~cell);
        return (grid, grid);
    }

    /// @notice The mask of nibble `k` (bits 4k..4k+3).
    function _cell(uint256 k) internal pure returns (uint256) {
        // forge-lint: disable-next-line(incorrect-shift)
        return 0xF << (4 * k);
    }

    /// @notice `grid` with nibbles `a` and `b` exchanged.
    function _swap(uint256 grid, uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 x = ((grid >> (4 * a)) ^ (grid >> (4 * b))) & 0xF;
        return grid ^ (x << (4 * a)) ^ (x << (4 * b));
    }

    /// @notice A nibble mask with each cell kept with probability 1/4: cell k
    /// when bits k and k + 64 of `word` are both set.
    function _givens(uint256 word) internal pure returns (uint256 mask) {
        uint256 bits = word & (word >> 64);
        for (uint256 k; k < 64; ++k) {
            if ((bits >> k) & 1 == 1) mask |= _cell(k);
        }
    }

    /// @notice A valid grid drawn from `word`: the pattern grid
    /// P(R, C) = (4 (R mod 2) + R / 2 + C) mod 8, with its rows permuted
    /// inside bands and bands permuted, its columns permuted inside stacks
    /// and the stacks swapped or not, and its digits relabelled. Each such
    /// permutation keeps rows, columns and 2 × 4 boxes holding 1..8 once.
    function _grid(uint256 word) internal pure returns (uint256 grid) {
        uint256 digits;
        uint256 bands;
        uint256 left;
        uint256 right;
        (digits, word) = _shuffle(8, word);
        (bands, word) = _shuffle(4, word);
        (left, word) = _shuffle(4, word);
        (right, word) = _shuffle(4, word);
        // Bits 0..3: swap the two rows of band 0..3; bit 4: swap the stacks.
        uint256 flips = word & 0x1F;
        for (uint256 r; r < 8; ++r) {
            uint256 pr = 2 * ((bands >> (4 * (r / 2))) & 0xF) + ((r & 1) ^ ((flips >> (r / 2)) & 1));
            for (uint256 c; c < 8; ++c) {
                uint256 within = ((c < 4 ? left : right) >> (4 * (c % 4))) & 0xF;
                uint256 pc = 4 * ((c / 4) ^ (flips >> 4)) + within;
                uint256 value = (4 * (pr % 2) + pr / 2 + pc) % 8;
                grid |= (((digits >> (4 * value)) & 0xF) + 1) << (4 * (8 * (7 - r) + 7 - c));
            }
        }
    }

    /// @notice A permutation of 0..n-1 (nibble i holds the image of i),
    /// drawn from `word` by Fisher-Yates; returns what is left of `word`.
    function _shuffle(uint256 n, uint256 word) internal pure returns (uint256 perm, uint256 rest) {
        for (uint256 i; i < n; ++i) {
            perm |= i << (4 * i);
        }
        for (uint256 i = n - 1; i > 0; --i) {
            uint256 j = word % (i + 1);
            word /= i + 1;
            uint256 x = ((perm >> (4 * i)) ^ (perm >> (4 * j))) & 0xF;
            perm ^= (x << (4 * i)) ^ (x << (4 * j));
        }
        rest = word;
    }
}

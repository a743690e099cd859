// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ICourse} from "./ICourse.sol";
import {IClassic9} from "../classic9/IClassic9.sol";
import {Classic9Reference} from "../classic9/Classic9Reference.sol";

/// @title The classic 9 × 9 validator course
/// @notice A Curta Golf course for `verify(bytes start, bytes solution)` of
/// the classic 9 × 9 validator (`IClassic9`: 81 bytes, one per cell in
/// reading order). Every run draws `BOARDS` valid grids from the seed and
/// asks the solution `KINDS` questions about each:
///
///     | kind | solution                                  | start              | reference |
///     |------|-------------------------------------------|--------------------|-----------|
///     |  0   | the valid grid                            | 1 in 4 cells given | true      |
///     |  1   | the valid grid                            | one given changed  | false     |
///     |  2   | two cells of a column in one box swapped  | those two cleared  | false     |
///     |  3   | two cells of a row in one box swapped     | those two cleared  | false     |
///     |  4   | two rows of different bands swapped       | empty              | false     |
///     |  5   | one cell 10..255 (a digit out of range)   | that cell cleared  | false     |
///     |  6   | one cell 0 (an empty cell)                | that cell cleared  | false     |
///     |  7   | the valid grid                            | every cell given   | true      |
///
/// The answer required is the reference's (`Classic9Reference`, deployed by
/// the constructor). Gas: only the solution's calls are metered, each as the
/// `gas()` difference around its STATICCALL (warm access included: the
/// target's code size is read first, unmetered).
contract Classic9Course is ICourse {
    /// @notice Boards drawn per run.
    uint256 public constant BOARDS = 2;

    /// @notice Questions asked about each board (the table above).
    uint256 public constant KINDS = 8;

    /// @notice The reference whose answers the solution must give.
    Classic9Reference public immutable REFERENCE;

    constructor() {
        REFERENCE = new Classic9Reference();
    }

    /// @inheritdoc ICourse
    function name() external pure returns (string memory) {
        return unicode"classic 9 × 9: verify";
    }

    /// @inheritdoc ICourse
    function run(address target, uint256 seed) external view returns (uint32 gasUsed) {
        // A target without code is no solution; the check also leaves it
        // warm (a bare pop(extcodesize) would be optimized away).
        if (target.code.length == 0) revert IncorrectSolution();
        uint256 total;
        for (uint256 b; b < BOARDS; ++b) {
            uint256 word = uint256(keccak256(abi.encode(seed, b)));
            bytes memory grid = _grid(word);
            uint256 picks = uint256(keccak256(abi.encode(word)));
            bytes memory start = _givens(grid, uint256(keccak256(abi.encode(picks))));
            for (uint256 kind; kind < KINDS; ++kind) {
                (bytes memory s, bytes memory solution) = _case(kind, grid, start, picks >> (16 * kind));
                bool expected = REFERENCE.verify(s, solution);
                (bool answer, uint256 used) = _measure(target, abi.encodeCall(IClassic9.verify, (s, solution)));
                if (answer != expected) revert IncorrectSolution();
                total += used;
            }
        }
        // At most 16 calls under the block gas limit: far below 2^32.
        // forge-lint: disable-next-line(unsafe-typecast)
        gasUsed = uint32(total);
    }

    /// @notice Calls `target` with `data` and meters the call.
    /// @dev Reverts `IncorrectSolution()` when the call reverts or returns
    /// less than 32 bytes or a first word other than 0 or 1.
    function _measure(address target, bytes memory data) internal view returns (bool answer, uint256 used) {
        bytes4 incorrect = IncorrectSolution.selector;
        assembly ("memory-safe") {
            let before := gas()
            let ok := staticcall(gas(), target, add(data, 0x20), mload(data), 0, 0)
            used := sub(before, gas())
            if iszero(and(ok, gt(returndatasize(), 0x1f))) {
                mstore(0, incorrect)
                revert(0, 4)
            }
            returndatacopy(0, 0, 0x20)
            let word := mload(0)
            if gt(word, 1) {
                mstore(0, incorrect)
                revert(0, 4)
            }
            answer := word
        }
    }

    /// @notice Case `kind` (the table above) of `grid`, with `start` its
    /// givens (neither is changed); `pick` chooses the cell (its low bits)
    /// and the value out of range.
    function _case(uint256 kind, bytes memory grid, bytes memory start, uint256 pick)
        internal
        pure
        returns (bytes memory s, bytes memory solution)
    {
        s = bytes.concat(start);
        solution = bytes.concat(grid);
        uint256 i = (pick & 0xFF) % 81;
        uint256 r = i / 9;
        uint256 c = i % 9;
        if (kind == 1) {
            s[i] = bytes1(uint8(grid[i]) % 9 + 1);
        } else if (kind == 2) {
            // The next row of the same band, same column.
            uint256 j = 9 * (r - r % 3 + (r % 3 + 1) % 3) + c;
            (solution[i], solution[j], s[i], s[j]) = (grid[j], grid[i], 0, 0);
        } else if (kind == 3) {
            // The next column of the same stack, same row.
            uint256 j = 9 * r + c - c % 3 + (c % 3 + 1) % 3;
            (solution[i], solution[j], s[i], s[j]) = (grid[j], grid[i], 0, 0);
        } else if (kind == 4) {
            // Row r and row r + 3 (mod 9) lie in different bands.
            uint256 other = (r + 3) % 9;
            for (uint256 k; k < 9; ++k) {
                (solution[9 * r + k], solution[9 * other + k]) = (grid[9 * other + k], grid[9 * r + k]);
            }
            s = new bytes(81);
        } else if (kind == 5) {
            solution[i] = bytes1(uint8(10 + (pick >> 8) % 246));
            s[i] = 0;
        } else if (kind == 6) {
            solution[i] = 0;
            s[i] = 0;
        } else if (kind == 7) {
            s = bytes.concat(grid);
        }
    }

    /// @notice `grid` with each cell kept with probability 1/4 (cell i when
    /// bits i and i + 128 of `word` are both set), the others 0.
    function _givens(bytes memory grid, uint256 word) internal pure returns (bytes memory start) {
        start = new bytes(81);
        uint256 bits = word & (word >> 128);
        for (uint256 i; i < 81; ++i) {
            if ((bits >> i) & 1 == 1) start[i] = grid[i];
        }
    }

    /// @notice A valid grid drawn from `word`: the pattern grid
    /// P(R, C) = (3 (R mod 3) + R / 3 + C) mod 9, its rows permuted inside
    /// bands and the bands permuted, its columns permuted inside stacks and
    /// the stacks permuted, its digits relabelled. Each permutation keeps
    /// rows, columns and 3 × 3 boxes holding 1..9 once.
    function _grid(uint256 word) internal pure returns (bytes memory grid) {
        uint256 digits;
        uint256 rows;
        uint256 columns;
        (digits, word) = _shuffle(9, word);
        (rows, word) = _lines(word);
        (columns, word) = _lines(word);
        grid = new bytes(81);
        for (uint256 r; r < 9; ++r) {
            uint256 pr = (rows >> (4 * r)) & 0xF;
            for (uint256 c; c < 9; ++c) {
                uint256 pc = (columns >> (4 * c)) & 0xF;
                uint256 value = (3 * (pr % 3) + pr / 3 + pc) % 9;
                grid[9 * r + c] = bytes1(uint8(((digits >> (4 * value)) & 0xF) + 1));
            }
        }
    }

    /// @notice A permutation of 0..8 that keeps the groups {0,1,2}, {3,4,5},
    /// {6,7,8} (bands or stacks) whole: the groups permuted, and each
    /// group's three lines permuted. Nibble i holds the image of i.
    function _lines(uint256 word) internal pure returns (uint256 perm, uint256 rest) {
        uint256 groups;
        (groups, word) = _shuffle(3, word);
        for (uint256 g; g < 3; ++g) {
            uint256 inner;
            (inner, word) = _shuffle(3, word);
            for (uint256 k; k < 3; ++k) {
                uint256 image = 3 * ((groups >> (4 * g)) & 0xF) + ((inner >> (4 * k)) & 0xF);
                perm |= image << (4 * (3 * g + k));
            }
        }
        rest = word;
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

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OctokuReference} from "../Reference.sol";

/// @title Test harness for the reference puzzle
/// @notice Exposes the board-filling loop on a raw 256-bit seed, so tests reach
/// seeds that no keccak256 output is known to give (sparse words that run out
/// early). Test-only: never deployed as a puzzle.
contract ReferenceHarness is OctokuReference {
    /// @notice The board `generate` would return for an address hashing to `seed`.
    function generateFromSeed(uint256 seed) external pure returns (uint256) {
        return _fill(seed);
    }
}

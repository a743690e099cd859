// SPDX-License-Identifier: MIT
pragma solidity ^0.8.17;

/// @title IPuzzle
/// @notice The interface Curta puzzles implement: a name, a per-player start,
/// and a checker for a proposed solution.
interface IPuzzle {
    /// @notice The puzzle's display name.
    function name() external pure returns (string memory);

    /// @notice The starting position handed to `seed` (the player's address).
    function generate(address seed) external returns (uint256);

    /// @notice Whether `solution` solves the puzzle that starts at `start`.
    function verify(uint256 start, uint256 solution) external returns (bool);
}

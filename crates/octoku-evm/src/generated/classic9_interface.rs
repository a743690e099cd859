// Generated from contracts/ by crates/octoku-contracts (`make contracts`): do not edit.
alloy_sol_types::sol! {
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.17;

/// @title IClassic9
/// @notice A classic 9 × 9 Sudoku checker: a solution validator on the EVM.
/// A grid is 81 bytes, one byte per cell in reading order: byte 9r + c is the
/// cell at row r, column c (both 0..8); box b = 3 * (r / 3) + c / 3.
///
/// Exact behaviour, shared by `Classic9Reference` and `Classic9Golf`:
///
/// ```text
/// | input                                              | result            |
/// |----------------------------------------------------|-------------------|
/// | calldata shorter than 4 bytes, unknown selector    | revert, no data   |
/// | any call with value                                | revert, no data   |
/// | ABI that solc's decoder refuses (short head, an    | revert, no data   |
/// |  offset or length >= 2^64, bytes past the end)     |                   |
/// | a grid (or start) whose length is not 81           | GridLength(len)   |
/// | a cell byte 0 or 10..255 in a solution             | false             |
/// | a start byte that is not 0 and differs             | false             |
/// | extra trailing calldata, bytes after a grid's 81   | ignored           |
/// ```
///
/// `verify` decodes both arguments before it checks lengths, then checks
/// the start's length first: a call where both are wrong reverts with the
/// start's length.
interface IClassic9 {
    /// @notice A grid (or start) that is not 81 bytes long; `length` is its length.
    error GridLength(uint256 length);

    /// @notice Whether `grid` is a solved Sudoku: every row, column and 3 × 3
    /// box holds each of 1..9 once. Any byte outside 1..9 makes it false.
    /// @dev Reverts with `GridLength(grid.length)` unless the grid is 81 bytes.
    function isValidSolution(bytes calldata grid) external pure returns (bool);

    /// @notice Whether `solution` is a solved Sudoku that keeps every given of
    /// `start` (a 0 byte in `start` is an empty cell; any other byte must equal
    /// the solution's byte at the same index).
    /// @dev Reverts with `GridLength(start.length)` unless the start is 81
    /// bytes, then with `GridLength(solution.length)` unless the solution is.
    function verify(bytes calldata start, bytes calldata solution) external pure returns (bool);
}
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @dev The base grid: the published example solution (the verify vector),
/// the valid grid the tests start from; the same grid as octoku-core's
/// `Board::BASE_GRID`. Rows top to bottom, one hex digit per cell:
///
///     7 2 3 5 | 8 6 1 4
///     1 8 4 6 | 3 2 5 7
///     --------+--------
///     4 5 7 3 | 6 1 8 2
///     8 6 2 1 | 4 5 7 3
///     --------+--------
///     2 3 6 8 | 1 7 4 5
///     5 4 1 7 | 2 8 3 6
///     --------+--------
///     6 7 8 4 | 5 3 2 1
///     3 1 5 2 | 7 4 6 8
uint256 constant BASE_GRID = 0x7235861418463257457361828621457323681745541728366784532131527468;

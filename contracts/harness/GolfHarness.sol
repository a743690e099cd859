// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OctokuGolf} from "../Golf.sol";

/// @title Test harness for the golfed puzzle
/// @notice Runs the golfed `generate` code on a raw 256-bit seed, so tests reach
/// seeds that no keccak256 output is known to give (sparse words that run out
/// early, words whose draws collide many times). Test-only.
/// @dev Every call runs the fill: the seed is calldata word 1 (bytes 4..35),
/// so `fill(uint256 seed)` (any selector) returns the board, one uint256.
/// The fill code is OctokuGolf's own fallback; only the seed's source differs.
contract GolfHarness is OctokuGolf {
    modifier onGenerate() override {
        assembly {
            mstore(0x00, calldataload(0x04))
        }
        _;
    }
}

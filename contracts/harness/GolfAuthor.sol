// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OctokuGolf} from "../Golf.sol";

/// @title An author's copy of the golfed puzzle (test fixture)
/// @notice OctokuGolf under another name with one more function, as an author
/// might deploy it: the same generate(address), but solc's dispatcher for
/// `version()` now runs before the fallback, so the fill's loops sit at other
/// program counters than in OctokuGolf. `prove generate --all` must find them
/// by their shape (crates/octoku-prove/src/induction/shape.rs). Test-only.
contract GolfAuthor is OctokuGolf {
    /// @notice The copy's version, the function OctokuGolf does not have.
    function version() external pure returns (uint256) {
        return 2;
    }

    /// @notice Plain transfers revert, as in OctokuGolf (whose fallback
    /// reverts on empty calldata); declared because solc asks a contract with
    /// external functions and a payable fallback for one.
    receive() external payable {
        revert();
    }
}

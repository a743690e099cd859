// Generated from contracts/ by crates/octoku-contracts (`make contracts`): do not edit.
alloy_sol_types::sol! {
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
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.17;

import {IPuzzle} from "./IPuzzle.sol";

/// @title IArena
/// @notice A permanent leaderboard for one puzzle: every address solves its
/// own board, `puzzle.generate(address)`, at most once, and is ranked by the
/// order of first solves. Implemented by `OctokuArena` (Arena.sol).
interface IArena {
    /// @notice `solver` has already solved; an address solves at most once.
    /// @param solver The address that tried to solve again (the caller).
    error AlreadySolved(address solver);

    /// @notice The puzzle rejected the solution for the caller's board.
    error WrongSolution();

    /// @notice The puzzle passed to the constructor has no code.
    /// @param puzzle The address that was passed.
    error PuzzleNotAContract(address puzzle);

    /// @notice `solver` solved their board, the `rank`-th address to do so.
    /// @param solver The caller of `solve`, whose board was solved.
    /// @param rank 1-based order of first solves across all addresses.
    /// @param solution The accepted solution, as submitted.
    event Solved(address indexed solver, uint256 rank, uint256 solution);

    /// @notice Submits `solution` for the caller's board and, if the puzzle
    /// accepts it, records the caller as the next solver.
    /// @return rank The caller's rank: 1 for the first address ever to solve.
    function solve(uint256 solution) external returns (uint256 rank);

    /// @notice The board `player` must solve: `puzzle.generate(player)`.
    function boardOf(address player) external view returns (uint256 board);

    /// @notice When and in which place `player` solved (`rank == 0`: never).
    function solvedAt(address player) external view returns (uint256 blockNumber, uint256 rank);

    /// @notice How many distinct addresses have solved.
    function solverCount() external view returns (uint256);

    /// @notice The puzzle every board comes from and every solution is
    /// checked by, fixed at deployment.
    function puzzle() external view returns (IPuzzle);
}
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.17;

/// @title ICourse
/// @notice The interface a Curta Golf course implements (the protocol calls
/// `run` from `CurtaGolf.submit`, see ../shared/curta-golf/README.md): it draws
/// inputs from `seed`, calls the solution deployed at `target` on them, and
/// returns the gas the solution used.
interface ICourse {
    /// @notice The solution answered differently from the course's reference.
    error IncorrectSolution();

    /// @notice The course's display name.
    function name() external pure returns (string memory);

    /// @notice Runs the solution at `target` on the cases drawn from `seed`.
    /// @dev Reverts `IncorrectSolution()` on the first case where the
    /// solution's answer differs from the reference's, or where the solution
    /// reverts or returns something that is not one ABI bool.
    /// @return gasUsed The gas of the solution's calls only, summed.
    function run(address target, uint256 seed) external view returns (uint32 gasUsed);
}
}

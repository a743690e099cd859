// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IArena} from "./IArena.sol";
import {IPuzzle} from "./IPuzzle.sol";

/// @title octoku arena
/// @notice A permanent leaderboard for one puzzle. Every address has its own
/// board, `puzzle.generate(address)`; the first time an address submits a
/// solution the puzzle accepts, the arena records the block and the address's
/// rank (1 for the first solver, 2 for the second, and so on).
/// @dev No owner, no funds, no upgrades: the puzzle is fixed at deployment and
/// nothing can be changed afterwards except by solving. No function is
/// payable and there is no `receive` or `fallback`, so any call carrying
/// ether, and any plain ether transfer, reverts. (Ether forced in with
/// `selfdestruct` or as a block reward is not refused by any contract; the
/// arena never reads or moves its balance.)
///
/// Storage: one slot per solver (`Record`: 64-bit block number, 64-bit rank)
/// and one slot for the solver count.
contract OctokuArena is IArena {
    /// @notice The puzzle every board comes from and every solution is checked by.
    /// @dev Fixed at deployment. Any `IPuzzle` works: the reference, a golfed
    /// or a fairer implementation.
    IPuzzle public immutable puzzle;

    /// @dev A solver's first solve. `rank` is 1-based, so `rank == 0` means
    /// "never solved", whatever the block number. Both fields are 64 bits:
    /// block numbers and solver counts stay far below 2^64 (each solve costs
    /// tens of thousands of gas), so the narrowing casts in `solve` never
    /// truncate in practice.
    struct Record {
        uint64 blockNumber;
        uint64 rank;
    }

    /// @dev Solver => their first (and only) solve.
    mapping(address solver => Record) internal _records;

    /// @dev How many distinct addresses have solved; also the last rank given.
    uint256 internal _solverCount;

    /// @notice Creates an arena for `puzzle_`, with nobody solved yet.
    /// @param puzzle_ The puzzle to play; it must already be deployed.
    /// @dev Reverts `PuzzleNotAContract` if `puzzle_` has no code (an EOA, the
    /// zero address, or a contract not deployed yet): every call into it
    /// would revert, so the arena could never record anything.
    constructor(IPuzzle puzzle_) {
        if (address(puzzle_).code.length == 0) revert PuzzleNotAContract(address(puzzle_));
        puzzle = puzzle_;
    }

    /// @notice Submits `solution` for the caller's board and, if the puzzle
    /// accepts it, records the caller as the next solver.
    /// @param solution The proposed solved board, in the puzzle's encoding.
    /// @return rank The caller's rank: 1 for the first address ever to solve.
    /// @dev The board is `puzzle.generate(msg.sender)`: a solution solves only
    /// the sender's own board, so copying someone else's accepted solution
    /// from a `Solved` event does not help unless both boards accept it.
    ///
    /// Reverts, leaving all state untouched:
    /// - `AlreadySolved(msg.sender)` if the caller has solved before. This is
    ///   checked first, so a repeat caller gets it whatever `solution` is.
    /// - `WrongSolution()` if `puzzle.verify(start, solution)` is false.
    /// - with the puzzle's own revert data if `generate` or `verify` reverts,
    ///   or if either returns data that does not decode as its return type.
    ///
    /// The puzzle is called with ordinary calls, so puzzles whose `generate`
    /// or `verify` write state work. If a call into the puzzle re-enters
    /// `solve` for the same address (possible only if the puzzle hands control
    /// to someone), the recorded-check is repeated after the calls, so the
    /// outer solve reverts `AlreadySolved` instead of recording a second time.
    /// Re-entry for other addresses is harmless: each gets the next rank.
    function solve(uint256 solution) external returns (uint256 rank) {
        if (_records[msg.sender].rank != 0) revert AlreadySolved(msg.sender);

        uint256 start = puzzle.generate(msg.sender);
        if (!puzzle.verify(start, solution)) revert WrongSolution();

        // Re-check after the external calls: see the re-entry note above.
        if (_records[msg.sender].rank != 0) revert AlreadySolved(msg.sender);

        rank = ++_solverCount;
        // Casting to uint64 is safe: block numbers and ranks stay far below
        // 2^64 (see `Record`).
        // forge-lint: disable-next-line(unsafe-typecast)
        _records[msg.sender] = Record({blockNumber: uint64(block.number), rank: uint64(rank)});
        emit Solved(msg.sender, rank, solution);
    }

    /// @notice The board `player` must solve: `puzzle.generate(player)`.
    /// @param player Any address; it need not have solved or be able to.
    /// @return board The starting position, in the puzzle's encoding.
    /// @dev A view, so it works with `eth_call` and from other contracts' view
    /// functions. `generate` is reached through `staticcall`: for puzzles
    /// whose `generate` is view or pure (the reference is pure) this returns
    /// exactly what `solve` would use. If the puzzle's `generate` writes
    /// state, the staticcall fails and this reverts; the puzzle's revert data
    /// is passed on unchanged, and return data that is not one 32-byte word
    /// or more reverts as an ABI decoding error.
    function boardOf(address player) external view returns (uint256 board) {
        (bool ok, bytes memory data) = address(puzzle).staticcall(abi.encodeCall(IPuzzle.generate, (player)));
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(data, 0x20), mload(data))
            }
        }
        board = abi.decode(data, (uint256));
    }

    /// @notice When and in which place `player` solved.
    /// @param player Any address.
    /// @return blockNumber The block of `player`'s solve; 0 if never solved.
    /// @return rank `player`'s 1-based rank; 0 if and only if never solved.
    /// @dev Use `rank != 0` to test whether an address has solved:
    /// `blockNumber` is 0 for non-solvers but could in principle also be 0
    /// for a solve in block 0 (only on a fresh local chain).
    function solvedAt(address player) external view returns (uint256 blockNumber, uint256 rank) {
        Record memory record = _records[player];
        return (record.blockNumber, record.rank);
    }

    /// @notice How many distinct addresses have solved.
    /// @return The number of solvers, which is also the highest rank given.
    function solverCount() external view returns (uint256) {
        return _solverCount;
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPuzzle} from "../contracts/IPuzzle.sol";
import {OctokuReference} from "../contracts/Reference.sol";
import {IArena} from "../contracts/IArena.sol";
import {OctokuArena} from "../contracts/Arena.sol";
import {BASE_GRID} from "./lib/Grids.sol";
import {Test, Vm} from "./lib/Test.sol";

/// @dev Bit 0 of every nibble.
uint256 constant NIBBLE_LOW_BITS = 0x1111111111111111111111111111111111111111111111111111111111111111;

/// @dev Shapes a fuzzed word into a candidate solution so that both outcomes
/// of `verify` are common: `mode % 4` is 0 for BASE_GRID itself (solves every mock
/// board), 1 for BASE_GRID with its digits relabelled by a permutation drawn from
/// `raw` (a valid grid, accepted iff the permutation fixes the board's
/// givens), 2 for BASE_GRID with one cell changed (never valid), 3 for `raw` as is.
function shapeSolution(uint256 raw, uint256 mode) pure returns (uint256) {
    mode %= 4;
    if (mode == 0) return BASE_GRID;
    if (mode == 1) return relabel(BASE_GRID, raw);
    if (mode == 2) {
        uint256 cell = raw % 64;
        uint256 delta = ((raw >> 8) % 15) + 1; // 1..15, never 0
        return BASE_GRID ^ (delta << (4 * cell));
    }
    return raw;
}

/// @dev Applies to every nibble of `grid` the permutation of 1..8 that a
/// Fisher-Yates shuffle driven by `seed` produces (0 stays 0).
function relabel(uint256 grid, uint256 seed) pure returns (uint256 out) {
    uint256[9] memory perm;
    for (uint256 i = 1; i < 9; ++i) {
        perm[i] = i;
    }
    for (uint256 i = 8; i > 1; --i) {
        uint256 j = 1 + (seed % i);
        seed /= i;
        (perm[i], perm[j]) = (perm[j], perm[i]);
    }
    for (uint256 k; k < 64; ++k) {
        out |= perm[(grid >> (4 * k)) & 0xF] << (4 * k);
    }
}

/// @notice Test-only puzzle with a known solution for every address: the
/// board keeps each cell of BASE_GRID with probability 1/2, chosen by
/// keccak256(address), and verify is the reference's.
contract MaskedGridPuzzle is IPuzzle {
    OctokuReference public immutable referencePuzzle;

    constructor(OctokuReference reference_) {
        referencePuzzle = reference_;
    }

    function name() external pure returns (string memory) {
        return "masked grid";
    }

    /// @dev `(h & 0x1111…) * 0xF` turns bit 0 of each nibble of h into a
    /// 0x0 / 0xF nibble mask (no carries: 15 fits a nibble).
    function generate(address seed) external pure returns (uint256) {
        uint256 h = uint256(keccak256(abi.encodePacked(seed)));
        return BASE_GRID & ((h & NIBBLE_LOW_BITS) * 0xF);
    }

    function verify(uint256 start, uint256 solution) external view returns (bool) {
        return referencePuzzle.verify(start, solution);
    }
}

/// @notice Test-only puzzle whose `generate` writes state (counts its calls):
/// `solve` must still work; `boardOf` (a staticcall) must revert.
contract StatefulPuzzle is IPuzzle {
    uint256 public generateCalls;

    function name() external pure returns (string memory) {
        return "stateful";
    }

    function generate(address) external returns (uint256) {
        ++generateCalls;
        return 0;
    }

    function verify(uint256, uint256 solution) external pure returns (bool) {
        return solution == 1;
    }
}

/// @notice Test-only puzzle that always reverts with `Broken()`.
contract RevertingPuzzle is IPuzzle {
    error Broken();

    function name() external pure returns (string memory) {
        return "reverting";
    }

    function generate(address) external pure returns (uint256) {
        revert Broken();
    }

    function verify(uint256, uint256) external pure returns (bool) {
        revert Broken();
    }
}

/// @notice Test-only puzzle that hands control to the player during
/// `generate` (calls `onGenerate()` on players with code), and accepts any
/// solution: the set-up for re-entering `solve`.
contract HookPuzzle is IPuzzle {
    function name() external pure returns (string memory) {
        return "hook";
    }

    function generate(address seed) external returns (uint256) {
        // Best effort: players without the hook (e.g. Actor) just carry on.
        if (seed.code.length != 0) {
            (bool ok,) = seed.call(abi.encodeCall(Reenterer.onGenerate, ()));
            ok; // outcome deliberately ignored
        }
        return 0;
    }

    function verify(uint256, uint256) external pure returns (bool) {
        return true;
    }
}

/// @notice A player contract that, when the HookPuzzle calls it back, solves
/// again either as itself (`self`) or through `other`, once.
contract Reenterer is Test {
    OctokuArena public arena;
    Actor public other;
    bool public viaOther;
    bool internal _entered;

    function configure(OctokuArena arena_, Actor other_, bool viaOther_) external {
        arena = arena_;
        other = other_;
        viaOther = viaOther_;
    }

    function attack() external returns (uint256) {
        return arena.solve(1);
    }

    function onGenerate() external {
        if (_entered) return;
        _entered = true;
        if (viaOther) {
            (bool ok,) = other.solve(2);
            VM.assertTrue(ok, "other's solve failed");
        } else {
            arena.solve(2);
        }
    }
}

/// @notice A player: a contract whose address is its board, calling `solve`
/// without reverting itself so the handler sees every outcome.
contract Actor {
    OctokuArena public immutable arena;

    constructor(OctokuArena arena_) {
        arena = arena_;
    }

    function solve(uint256 solution) external returns (bool ok, bytes memory ret) {
        (ok, ret) = address(arena).call(abi.encodeCall(OctokuArena.solve, (solution)));
    }
}

/// @notice Invariant handler: the fuzzer calls `solve` and `roll`; `solve`
/// plays one of the actors and keeps ghost records of what happened.
contract Handler is Test {
    uint256 public constant ACTORS = 12;

    OctokuArena public immutable arena;
    IPuzzle public immutable puzzle;
    Actor[] internal _actors;

    /// @dev Successful solves per actor (must stay ≤ 1).
    mapping(address actor => uint256) public successes;
    /// @dev Rank and block each actor's successful solve returned / ran at.
    mapping(address actor => uint256) public ghostRank;
    mapping(address actor => uint256) public ghostBlock;
    /// @dev Distinct actors with at least one success, in order of solving.
    address[] internal _solvers;

    uint256 public solveCalls;
    uint256 public wrongSolutions;
    uint256 public alreadySolved;
    /// @dev Outcomes that disagree with the oracle (must stay 0).
    uint256 public unexpected;

    constructor(OctokuArena arena_) {
        arena = arena_;
        puzzle = arena_.puzzle();
        for (uint256 i; i < ACTORS; ++i) {
            _actors.push(new Actor(arena_));
        }
    }

    function actor(uint256 i) external view returns (address) {
        return address(_actors[i]);
    }

    function solverCountGhost() external view returns (uint256) {
        return _solvers.length;
    }

    function solve(uint256 actorSeed, uint256 raw, uint8 mode) external {
        Actor player = _actors[actorSeed % ACTORS];
        uint256 solution = shapeSolution(raw, mode);
        bool valid = puzzle.verify(puzzle.generate(address(player)), solution);
        bool solvedBefore = successes[address(player)] != 0;
        uint256 countBefore = arena.solverCount();

        ++solveCalls;
        (bool ok, bytes memory ret) = player.solve(solution);
        if (ok) {
            if (successes[address(player)]++ == 0) _solvers.push(address(player));
            ghostRank[address(player)] = abi.decode(ret, (uint256));
            ghostBlock[address(player)] = block.number;
            if (solvedBefore || !valid || ghostRank[address(player)] != countBefore + 1) ++unexpected;
        } else if (keccak256(ret) == keccak256(abi.encodeWithSelector(IArena.AlreadySolved.selector, player))) {
            ++alreadySolved;
            if (!solvedBefore) ++unexpected;
        } else if (keccak256(ret) == keccak256(abi.encodeWithSelector(IArena.WrongSolution.selector))) {
            ++wrongSolutions;
            if (solvedBefore || valid) ++unexpected;
        } else {
            ++unexpected;
        }
        if (arena.solverCount() != countBefore + (ok ? 1 : 0)) ++unexpected;
    }

    function roll(uint256 blocks) external {
        VM.roll(block.number + 1 + (blocks % 1000));
    }
}

/// @notice Forge tests of OctokuArena: unit, fuzz and invariant.
contract ArenaTest is Test {
    /// @dev Published-puzzle vector: this address's reference board and a
    /// solution of it.
    address internal constant VITALIK = 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045;
    uint256 internal constant VITALIK_START = 0x0000700000000000000000000800064000000000000000000003020000000510;
    uint256 internal constant VITALIK_SOLUTION = 0x6358712427145836164527833872164582376451456183725183426774263518;

    /// @dev ALICE's reference board, solved off-chain with the project's
    /// solver (`octoku solve --address 0xA11CE`); re-checked on-chain below.
    uint256 internal constant ALICE_SOLUTION = 0x1583462762471835315624782874315646325781571862437465831283217564;

    address internal constant ALICE = address(0xA11CE);
    address internal constant BOB = address(0xB0B);
    address internal constant CAROL = address(0xCA401);

    OctokuReference internal referencePuzzle;
    MaskedGridPuzzle internal mock;
    OctokuArena internal arena; // over the mock
    OctokuArena internal referenceArena; // over the published puzzle
    Handler internal handler;

    function setUp() public {
        referencePuzzle = new OctokuReference();
        mock = new MaskedGridPuzzle(referencePuzzle);
        arena = new OctokuArena(mock);
        referenceArena = new OctokuArena(referencePuzzle);
        handler = new Handler(arena);
    }

    /// @dev Only the handler is fuzzed by the invariant runs.
    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    // ------------------------------------------------------------------ unit

    function test_constructor_stores_puzzle() public view {
        VM.assertEq(address(arena.puzzle()), address(mock), "puzzle");
        VM.assertEq(address(referenceArena.puzzle()), address(referencePuzzle), "reference puzzle");
        VM.assertEq(arena.solverCount(), 0, "fresh count");
    }

    function test_constructor_rejects_puzzle_without_code() public {
        VM.expectRevert(abi.encodeWithSelector(IArena.PuzzleNotAContract.selector, address(0xBEEF)));
        new OctokuArena(IPuzzle(address(0xBEEF)));
    }

    function test_solve_records_block_rank_and_count() public {
        VM.roll(1234);
        VM.prank(ALICE);
        uint256 rank = arena.solve(BASE_GRID);
        VM.assertEq(rank, 1, "rank");
        (uint256 blockNumber, uint256 recorded) = arena.solvedAt(ALICE);
        VM.assertEq(blockNumber, 1234, "block");
        VM.assertEq(recorded, 1, "recorded rank");
        VM.assertEq(arena.solverCount(), 1, "count");
    }

    function test_solve_emits_Solved() public {
        VM.expectEmit(true, true, true, true, address(arena));
        emit IArena.Solved(ALICE, 1, BASE_GRID);
        VM.prank(ALICE);
        arena.solve(BASE_GRID);
    }

    function test_solve_emits_exactly_one_log() public {
        VM.prank(ALICE);
        arena.solve(BASE_GRID);
        VM.recordLogs();
        VM.prank(BOB);
        arena.solve(BASE_GRID);
        Vm.Log[] memory logs = VM.getRecordedLogs();
        VM.assertEq(logs.length, 1, "one log");
        VM.assertEq(logs[0].emitter, address(arena), "emitter");
        VM.assertEq(logs[0].topics.length, 2, "topics");
        VM.assertEq(logs[0].topics[0], keccak256("Solved(address,uint256,uint256)"), "signature");
        VM.assertEq(logs[0].topics[1], bytes32(uint256(uint160(BOB))), "indexed solver");
        VM.assertEq(logs[0].data, abi.encode(uint256(2), BASE_GRID), "data");
    }

    function test_second_solve_reverts_AlreadySolved() public {
        VM.prank(ALICE);
        arena.solve(BASE_GRID);
        VM.roll(block.number + 10);

        VM.expectRevert(abi.encodeWithSelector(IArena.AlreadySolved.selector, ALICE));
        VM.prank(ALICE);
        arena.solve(BASE_GRID);

        // Also with a wrong solution: the repeat check comes first.
        VM.expectRevert(abi.encodeWithSelector(IArena.AlreadySolved.selector, ALICE));
        VM.prank(ALICE);
        arena.solve(0);

        (uint256 blockNumber, uint256 rank) = arena.solvedAt(ALICE);
        VM.assertEq(blockNumber, block.number - 10, "first solve kept");
        VM.assertEq(rank, 1, "first solve kept");
        VM.assertEq(arena.solverCount(), 1, "count");
    }

    function test_wrong_solution_reverts_WrongSolution() public {
        VM.expectRevert(abi.encodeWithSelector(IArena.WrongSolution.selector));
        VM.prank(ALICE);
        arena.solve(BASE_GRID ^ 0xF); // last cell 8 -> 7

        VM.expectRevert(abi.encodeWithSelector(IArena.WrongSolution.selector));
        VM.prank(ALICE);
        arena.solve(0);

        (uint256 blockNumber, uint256 rank) = arena.solvedAt(ALICE);
        VM.assertEq(blockNumber, 0, "nothing recorded");
        VM.assertEq(rank, 0, "nothing recorded");
        VM.assertEq(arena.solverCount(), 0, "count");

        // A failed attempt does not stop a later correct one.
        VM.prank(ALICE);
        VM.assertEq(arena.solve(BASE_GRID), 1, "later solve");
    }

    function test_ranks_increase_across_players() public {
        address[3] memory players = [ALICE, BOB, CAROL];
        for (uint256 i; i < players.length; ++i) {
            VM.roll(100 + i);
            VM.prank(players[i]);
            VM.assertEq(arena.solve(BASE_GRID), i + 1, "returned rank");
        }
        for (uint256 i; i < players.length; ++i) {
            (uint256 blockNumber, uint256 rank) = arena.solvedAt(players[i]);
            VM.assertEq(rank, i + 1, "recorded");
            VM.assertEq(blockNumber, 100 + i, "recorded");
        }
        VM.assertEq(arena.solverCount(), 3, "count");
    }

    function test_solvedAt_zero_for_non_solvers() public {
        VM.prank(ALICE);
        arena.solve(BASE_GRID);
        (uint256 blockNumber, uint256 rank) = arena.solvedAt(BOB);
        VM.assertEq(blockNumber, 0, "bob");
        VM.assertEq(rank, 0, "bob");
        (blockNumber, rank) = arena.solvedAt(address(0));
        VM.assertEq(blockNumber, 0, "zero address");
        VM.assertEq(rank, 0, "zero address");
    }

    function test_boardOf_equals_generate() public view {
        address[4] memory players = [ALICE, BOB, VITALIK, address(this)];
        for (uint256 i; i < players.length; ++i) {
            VM.assertEq(arena.boardOf(players[i]), mock.generate(players[i]), "mock board");
            VM.assertEq(referenceArena.boardOf(players[i]), referencePuzzle.generate(players[i]), "reference board");
        }
        VM.assertEq(referenceArena.boardOf(VITALIK), VITALIK_START, "published vector");
    }

    function test_reference_solve_with_published_pair() public {
        VM.assertEq(referencePuzzle.generate(VITALIK), VITALIK_START, "start");
        VM.assertTrue(referencePuzzle.verify(VITALIK_START, VITALIK_SOLUTION), "pair verifies");

        VM.roll(42);
        VM.expectEmit(true, true, true, true, address(referenceArena));
        emit IArena.Solved(VITALIK, 1, VITALIK_SOLUTION);
        VM.prank(VITALIK);
        VM.assertEq(referenceArena.solve(VITALIK_SOLUTION), 1, "rank");

        (uint256 blockNumber, uint256 rank) = referenceArena.solvedAt(VITALIK);
        VM.assertEq(blockNumber, 42, "recorded");
        VM.assertEq(rank, 1, "recorded");
        VM.assertEq(referenceArena.solverCount(), 1, "count");

        VM.expectRevert(abi.encodeWithSelector(IArena.AlreadySolved.selector, VITALIK));
        VM.prank(VITALIK);
        referenceArena.solve(VITALIK_SOLUTION);
    }

    /// Two real solvers of the published puzzle rank in order of solving;
    /// the second pays for a non-fresh count slot (the cheaper, usual case).
    function test_reference_two_solvers_rank_in_order() public {
        VM.assertTrue(referencePuzzle.verify(referencePuzzle.generate(ALICE), ALICE_SOLUTION), "alice pair verifies");

        VM.roll(7);
        VM.prank(VITALIK);
        VM.assertEq(referenceArena.solve(VITALIK_SOLUTION), 1, "vitalik rank");
        VM.roll(9);
        VM.prank(ALICE);
        VM.assertEq(referenceArena.solve(ALICE_SOLUTION), 2, "alice rank");

        (uint256 blockNumber, uint256 rank) = referenceArena.solvedAt(VITALIK);
        VM.assertEq(blockNumber, 7, "vitalik record");
        VM.assertEq(rank, 1, "vitalik record");
        (blockNumber, rank) = referenceArena.solvedAt(ALICE);
        VM.assertEq(blockNumber, 9, "alice record");
        VM.assertEq(rank, 2, "alice record");
        VM.assertEq(referenceArena.solverCount(), 2, "count");

        // Each solution is bound to its own board.
        VM.prank(BOB);
        (bool ok,) = address(referenceArena).call(abi.encodeCall(OctokuArena.solve, (ALICE_SOLUTION)));
        if (ok) VM.assertTrue(referencePuzzle.verify(referencePuzzle.generate(BOB), ALICE_SOLUTION), "bob used alice's");
    }

    function test_reference_rejects_wrong_solution() public {
        VM.expectRevert(abi.encodeWithSelector(IArena.WrongSolution.selector));
        VM.prank(VITALIK);
        referenceArena.solve(VITALIK_SOLUTION ^ 0x3); // last cell 8 -> b
    }

    /// A solution solves only the sender's own board.
    function test_reference_solution_is_bound_to_sender() public {
        VM.assertFalse(referencePuzzle.verify(referencePuzzle.generate(ALICE), VITALIK_SOLUTION), "precondition");
        VM.expectRevert(abi.encodeWithSelector(IArena.WrongSolution.selector));
        VM.prank(ALICE);
        referenceArena.solve(VITALIK_SOLUTION);
        VM.assertEq(referenceArena.solverCount(), 0, "count");
    }

    function test_sending_ether_reverts() public {
        VM.deal(address(this), 10 ether);
        (bool ok,) = address(arena).call{value: 1}("");
        VM.assertFalse(ok, "plain transfer accepted");
        (ok,) = address(arena).call{value: 1}(hex"12345678");
        VM.assertFalse(ok, "unknown selector with value accepted");
        (ok,) = address(arena).call{value: 1}(abi.encodeCall(OctokuArena.solve, (BASE_GRID)));
        VM.assertFalse(ok, "solve with value accepted");
        (ok,) = address(arena).call(hex"12345678");
        VM.assertFalse(ok, "unknown selector accepted");
        VM.assertFalse(payable(address(arena)).send(1), "send accepted");
        VM.assertEq(address(arena).balance, 0, "balance");
        VM.assertEq(arena.solverCount(), 0, "count");
    }

    /// A puzzle whose generate writes state: solve works, boardOf reverts.
    function test_stateful_generate_solve_works_boardOf_reverts() public {
        StatefulPuzzle stateful = new StatefulPuzzle();
        OctokuArena statefulArena = new OctokuArena(stateful);
        VM.prank(ALICE);
        VM.assertEq(statefulArena.solve(1), 1, "solve");
        VM.assertEq(stateful.generateCalls(), 1, "generate called");
        // A state write under staticcall burns the gas it was given: cap it.
        (bool ok,) = address(statefulArena).call{gas: 1_000_000}(abi.encodeCall(OctokuArena.boardOf, (ALICE)));
        VM.assertFalse(ok, "boardOf through staticcall should fail");
    }

    /// The puzzle's revert data is passed through by solve and boardOf.
    function test_puzzle_revert_bubbles_up() public {
        OctokuArena broken = new OctokuArena(new RevertingPuzzle());
        VM.expectRevert(abi.encodeWithSelector(RevertingPuzzle.Broken.selector));
        broken.boardOf(ALICE);
        VM.expectRevert(abi.encodeWithSelector(RevertingPuzzle.Broken.selector));
        broken.solve(BASE_GRID);
    }

    /// Re-entering solve for the same address during generate cannot record
    /// twice: the outer solve reverts AlreadySolved and nothing is kept.
    function test_reentrant_solve_same_address_reverts() public {
        OctokuArena hookArena = new OctokuArena(new HookPuzzle());
        Reenterer attacker = new Reenterer();
        attacker.configure(hookArena, Actor(address(0)), false);
        VM.expectRevert(abi.encodeWithSelector(IArena.AlreadySolved.selector, address(attacker)));
        attacker.attack();
        VM.assertEq(hookArena.solverCount(), 0, "count");
        (, uint256 rank) = hookArena.solvedAt(address(attacker));
        VM.assertEq(rank, 0, "no record");
    }

    /// Re-entry for another address is harmless: both get distinct ranks.
    function test_reentrant_solve_other_address_gets_next_rank() public {
        OctokuArena hookArena = new OctokuArena(new HookPuzzle());
        Actor other = new Actor(hookArena);
        Reenterer attacker = new Reenterer();
        attacker.configure(hookArena, other, true);
        VM.assertEq(attacker.attack(), 2, "outer rank");
        (, uint256 otherRank) = hookArena.solvedAt(address(other));
        (, uint256 attackerRank) = hookArena.solvedAt(address(attacker));
        VM.assertEq(otherRank, 1, "ranks");
        VM.assertEq(attackerRank, 2, "ranks");
        VM.assertEq(hookArena.solverCount(), 2, "count");
    }

    /// Helpers used by the tests behave as documented.
    function test_shapeSolution_modes() public view {
        VM.assertEq(shapeSolution(123, 0), BASE_GRID, "mode 0");
        VM.assertTrue(referencePuzzle.verify(0, shapeSolution(123, 1)), "relabelled grid is valid");
        VM.assertFalse(referencePuzzle.verify(0, shapeSolution(123, 2)), "changed cell invalid");
        VM.assertEq(shapeSolution(123, 3), 123, "mode 3");
        VM.assertNotEq(relabel(BASE_GRID, 0), BASE_GRID, "seed 0 permutes");
    }

    // ------------------------------------------------------------------ fuzz

    /// For any player and solution: either the puzzle accepts it and a solve
    /// is recorded (count + 1, rank = new count, block = this block), or the
    /// call reverts WrongSolution and count and solvedAt are untouched.
    function testFuzz_solve_records_iff_verify(address player, uint256 raw, uint8 mode, uint8 solvedFirst) public {
        // Some earlier solvers, so ranks above 1 are exercised too.
        for (uint256 i; i < solvedFirst % 4; ++i) {
            // forge-lint: disable-next-line(unsafe-typecast)
            address earlier = address(uint160(0xE000 + i)); // i < 4
            if (earlier == player) continue;
            VM.prank(earlier);
            arena.solve(BASE_GRID);
        }
        uint256 solution = shapeSolution(raw, mode);
        bool valid = mock.verify(mock.generate(player), solution);
        uint256 countBefore = arena.solverCount();

        VM.prank(player);
        (bool ok, bytes memory ret) = address(arena).call(abi.encodeCall(OctokuArena.solve, (solution)));
        (uint256 blockNumber, uint256 rank) = arena.solvedAt(player);
        if (valid) {
            VM.assertTrue(ok, "valid solution rejected");
            VM.assertEq(abi.decode(ret, (uint256)), countBefore + 1, "returned rank");
            VM.assertEq(arena.solverCount(), countBefore + 1, "count");
            VM.assertEq(rank, countBefore + 1, "record");
            VM.assertEq(blockNumber, block.number, "record");
        } else {
            VM.assertFalse(ok, "invalid solution accepted");
            VM.assertEq(ret, abi.encodeWithSelector(IArena.WrongSolution.selector), "error");
            VM.assertEq(arena.solverCount(), countBefore, "count changed");
            VM.assertEq(rank, 0, "record written");
            VM.assertEq(blockNumber, 0, "record written");
        }
    }

    /// Same property against the published puzzle (random solutions, so this
    /// is the rejection half) for any player.
    function testFuzz_reference_rejects_and_leaves_state(address player, uint256 solution) public {
        bool valid = referencePuzzle.verify(referencePuzzle.generate(player), solution);
        VM.prank(player);
        (bool ok, bytes memory ret) = address(referenceArena).call(abi.encodeCall(OctokuArena.solve, (solution)));
        VM.assertEq(ok, valid, "outcome");
        if (!ok) {
            VM.assertEq(ret, abi.encodeWithSelector(IArena.WrongSolution.selector), "error");
            (uint256 blockNumber, uint256 rank) = referenceArena.solvedAt(player);
            VM.assertEq(blockNumber, 0, "state");
            VM.assertEq(rank, 0, "state");
            VM.assertEq(referenceArena.solverCount(), 0, "state");
        }
    }

    /// Once solved, any further solve by that player reverts AlreadySolved
    /// whatever the solution, and the record does not change.
    function testFuzz_second_solve_always_reverts(address player, uint256 raw, uint8 mode, uint32 later) public {
        VM.prank(player);
        arena.solve(BASE_GRID);
        uint256 solvedBlock = block.number;
        VM.roll(block.number + later);

        VM.expectRevert(abi.encodeWithSelector(IArena.AlreadySolved.selector, player));
        VM.prank(player);
        arena.solve(shapeSolution(raw, mode));

        (uint256 blockNumber, uint256 rank) = arena.solvedAt(player);
        VM.assertEq(blockNumber, solvedBlock, "record");
        VM.assertEq(rank, 1, "record");
        VM.assertEq(arena.solverCount(), 1, "record");
    }

    /// boardOf is generate for every address, on both arenas.
    function testFuzz_boardOf_equals_generate(address player) public view {
        VM.assertEq(arena.boardOf(player), mock.generate(player), "mock");
        VM.assertEq(referenceArena.boardOf(player), referencePuzzle.generate(player), "reference");
    }

    // ------------------------------------------------------------- invariant

    /// forge-config: default.invariant.runs = 128
    /// forge-config: default.invariant.depth = 200
    function invariant_solverCount_equals_distinct_solvers() public view {
        VM.assertEq(arena.solverCount(), handler.solverCountGhost(), "count != distinct solvers");
    }

    /// forge-config: default.invariant.runs = 128
    /// forge-config: default.invariant.depth = 200
    function invariant_nobody_solves_twice() public view {
        for (uint256 i; i < handler.ACTORS(); ++i) {
            VM.assertLe(handler.successes(handler.actor(i)), 1, "solved twice");
        }
    }

    /// forge-config: default.invariant.runs = 128
    /// forge-config: default.invariant.depth = 200
    /// Ranks of the solved actors are exactly 1..count; records match what
    /// solve returned and the block it ran in; non-solvers read as zeros.
    function invariant_ranks_are_a_permutation() public view {
        uint256 count = arena.solverCount();
        bool[] memory seen = new bool[](count + 1);
        uint256 solved;
        for (uint256 i; i < handler.ACTORS(); ++i) {
            address player = handler.actor(i);
            (uint256 blockNumber, uint256 rank) = arena.solvedAt(player);
            if (rank == 0) {
                VM.assertEq(blockNumber, 0, "non-solver record");
                VM.assertEq(handler.successes(player), 0, "non-solver record");
                continue;
            }
            VM.assertLe(rank, count, "rank above count");
            VM.assertFalse(seen[rank], "rank repeated");
            seen[rank] = true;
            ++solved;
            VM.assertEq(rank, handler.ghostRank(player), "rank != returned");
            VM.assertEq(blockNumber, handler.ghostBlock(player), "block != solve block");
        }
        VM.assertEq(solved, count, "ranks not 1..count");
    }

    /// forge-config: default.invariant.runs = 128
    /// forge-config: default.invariant.depth = 200
    function invariant_outcomes_match_oracle() public view {
        VM.assertEq(handler.unexpected(), 0, "unexpected outcome");
    }

    /// @dev Runs after every invariant run: guards against vacuous passes.
    /// Each run (depth 200, about 100 solve calls over 12 actors) must have
    /// seen a success, a WrongSolution and an AlreadySolved, and at least one
    /// roll (block numbers persist between handler calls).
    function afterInvariant() public view {
        VM.assertGt(handler.solveCalls(), 0, "no solve calls");
        VM.assertGt(arena.solverCount(), 0, "no solver");
        VM.assertGt(handler.wrongSolutions(), 0, "no WrongSolution");
        VM.assertGt(handler.alreadySolved(), 0, "no AlreadySolved");
        VM.assertGt(block.number, 1, "no roll");
    }
}

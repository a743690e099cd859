// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OctokuReference} from "../contracts/Reference.sol";
import {ReferenceHarness} from "../contracts/harness/ReferenceHarness.sol";
import {BASE_GRID} from "./lib/Grids.sol";
import {Test} from "./lib/Test.sol";

/// @notice Forge tests of the reference puzzle: the public vectors of the
/// published Curta puzzle #1 and properties of verify and generate.
contract ReferenceTest is Test {
    OctokuReference internal puzzle;
    ReferenceHarness internal harness;

    uint256 internal constant START = 0x0000000000003000007001000000000000000040500000060000000000020008;

    function setUp() public {
        puzzle = new OctokuReference();
        harness = new ReferenceHarness();
    }

    function test_name_is_the_published_name() public view {
        VM.assertEq(puzzle.name(), unicode"2 × 4 = 8", "name");
    }

    function test_generate_matches_public_vectors() public view {
        VM.assertEq(
            puzzle.generate(0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045),
            0x0000700000000000000000000800064000000000000000000003020000000510,
            "vitalik"
        );
        VM.assertEq(
            puzzle.generate(0x00000000eCf2b58C296B47caC8C51467c0e307cE),
            0x6200480000000007000000000000000000000000005000001000300000000000,
            "curta"
        );
        VM.assertEq(
            puzzle.generate(0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266),
            0x0000000000000000000000000040700000000010003000000000280050000060,
            "anvil account 0"
        );
    }

    function test_verify_matches_public_vectors() public view {
        VM.assertTrue(puzzle.verify(START, BASE_GRID), "valid solution rejected");
        VM.assertFalse(puzzle.verify(START, BASE_GRID ^ 0xF), "last cell 8 -> 7 accepted");
        VM.assertTrue(puzzle.verify(0, BASE_GRID), "empty start rejected");
    }

    /// Any subset of a valid solution's cells, taken as the start, is solved by it.
    function testFuzz_verify_accepts_solution_for_any_subset_start(uint256 mask) public view {
        uint256 keep = _nibbleMask(mask);
        VM.assertTrue(puzzle.verify(BASE_GRID & keep, BASE_GRID), "subset start rejected");
    }

    /// Changing any one cell of a valid solution to another value breaks it.
    function testFuzz_verify_rejects_any_single_cell_change(uint8 cell, uint8 delta) public view {
        uint256 k = uint256(cell) % 64;
        uint256 d = (uint256(delta) % 15) + 1; // 1..15, never 0
        uint256 broken = BASE_GRID ^ (d << (4 * k));
        VM.assertFalse(puzzle.verify(0, broken), "broken solution accepted");
    }

    /// A start whose given disagrees with the solution is rejected.
    function testFuzz_verify_rejects_changed_given(uint8 cell, uint8 digit) public view {
        uint256 k = uint256(cell) % 64;
        uint256 solved = (BASE_GRID >> (4 * k)) & 0xF;
        uint256 given = (uint256(digit) % 15) + 1;
        if (given == solved) given = given % 15 + 1;
        VM.assertFalse(puzzle.verify(given << (4 * k), BASE_GRID), "changed given accepted");
    }

    /// A well-mixed seed (42 six-bit draws) places each of 1..8 exactly once.
    function testFuzz_fill_places_each_digit_once(uint256 entropy) public view {
        uint256 seed = uint256(keccak256(abi.encode(entropy)));
        uint256 board = harness.generateFromSeed(seed);
        uint256 seen;
        uint256 givens;
        for (uint256 k; k < 64; ++k) {
            uint256 digit = (board >> (4 * k)) & 0xF;
            if (digit == 0) continue;
            VM.assertLe(digit, 8, "digit out of range or repeated");
            // forge-lint: disable-next-line(incorrect-shift)
            VM.assertEq(seen & (1 << digit), 0, "digit out of range or repeated");
            // forge-lint: disable-next-line(incorrect-shift)
            seen |= 1 << digit;
            ++givens;
        }
        VM.assertEq(givens, 8, "not all of 1..8 placed");
        VM.assertEq(seen, 0x1FE, "not all of 1..8 placed");
    }

    /// The seed-exhaustion path: digit 2 drawn onto digit 1's cell as the seed
    /// runs out is ORed into it (1 | 2 = 3).
    function test_fill_ors_digit_into_filled_cell_when_seed_runs_out() public view {
        VM.assertEq(harness.generateFromSeed(5 | (5 << 6)), 3 << 20, "exhaustion path");
        VM.assertEq(harness.generateFromSeed(0), 0, "zero seed");
    }

    function _nibbleMask(uint256 bits) internal pure returns (uint256 keep) {
        for (uint256 k; k < 64; ++k) {
            if ((bits >> k) & 1 == 1) keep |= uint256(0xF) << (4 * k);
        }
    }
}

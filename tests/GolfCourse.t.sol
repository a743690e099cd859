// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "./lib/Test.sol";
import {ICourse} from "../contracts/golf/ICourse.sol";
import {VerifyCourse} from "../contracts/golf/VerifyCourse.sol";
import {Classic9Course} from "../contracts/golf/Classic9Course.sol";
import {OctokuReference} from "../contracts/Reference.sol";
import {OctokuGolf} from "../contracts/Golf.sol";
import {LoopPuzzle} from "../contracts/harness/LoopPuzzle.sol";
import {Classic9Reference} from "../contracts/classic9/Classic9Reference.sol";
import {Classic9Golf} from "../contracts/classic9/Classic9Golf.sol";

/// @notice A solution that answers `word` to every call.
contract Constant {
    uint256 internal immutable WORD;

    constructor(uint256 word) {
        WORD = word;
    }

    fallback() external {
        uint256 word = WORD;
        assembly {
            mstore(0, word)
            return(0, 32)
        }
    }
}

/// @notice A solution that reverts on every call.
contract Reverts {
    fallback() external {
        revert();
    }
}

/// @notice The courses: the reference's answers pass on every seed, the golfed
/// implementations pass for less gas, constant answers and reverts fail with
/// IncorrectSolution(), and the gas each course meters is pinned.
contract GolfCourseTest is Test {
    VerifyCourse internal course8;
    Classic9Course internal course9;
    address internal reference8;
    address internal golf8;
    address internal loop8;
    address internal reference9;
    address internal golf9;
    address internal alwaysTrue;
    address internal alwaysFalse;
    address internal reverts;

    /// Gas each course meters for seed 1 (16 calls of the solution), measured;
    /// docs/golfing.md quotes them.
    uint256 internal constant REFERENCE8_SEED1 = 283090;
    uint256 internal constant GOLF8_SEED1 = 15136;
    uint256 internal constant REFERENCE9_SEED1 = 1430574;
    uint256 internal constant GOLF9_SEED1 = 23360;

    /// The courses' own gas around those calls (test_course_own_gas_seed_1).
    uint256 internal constant COURSE8_OWN_SEED1 = 577449;
    uint256 internal constant COURSE9_OWN_SEED1 = 1777827;

    function setUp() public {
        course8 = new VerifyCourse();
        course9 = new Classic9Course();
        reference8 = address(new OctokuReference());
        golf8 = address(new OctokuGolf());
        loop8 = address(new LoopPuzzle());
        reference9 = address(new Classic9Reference());
        golf9 = address(new Classic9Golf());
        alwaysTrue = address(new Constant(1));
        alwaysFalse = address(new Constant(0));
        reverts = address(new Reverts());
    }

    /// forge-config: default.fuzz.runs = 200
    function test_correct_solutions_pass_every_seed(uint256 seed) public view {
        uint256 ref8 = course8.run(reference8, seed);
        uint256 g8 = course8.run(golf8, seed);
        VM.assertGt(course8.run(loop8, seed), 0, "8x8 loops");
        VM.assertLt(g8, ref8, "8x8 golf costs less than the reference");
        uint256 ref9 = course9.run(reference9, seed);
        VM.assertLt(course9.run(golf9, seed), ref9, "9x9 golf costs less than the reference");
    }

    function test_always_true_fails_8x8(uint256 seed) public {
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course8.run(alwaysTrue, seed);
    }

    function test_always_false_fails_8x8(uint256 seed) public {
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course8.run(alwaysFalse, seed);
    }

    function test_always_true_fails_9x9(uint256 seed) public {
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course9.run(alwaysTrue, seed);
    }

    function test_always_false_fails_9x9(uint256 seed) public {
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course9.run(alwaysFalse, seed);
    }

    function test_reverting_solution_fails() public {
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course8.run(reverts, 1);
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course9.run(reverts, 1);
    }

    function test_answer_not_a_bool_fails() public {
        address two = address(new Constant(2));
        VM.expectRevert(abi.encodeWithSelector(ICourse.IncorrectSolution.selector));
        course8.run(two, 1);
    }

    function test_gas_metered_seed_1() public view {
        VM.assertEq(course8.run(reference8, 1), REFERENCE8_SEED1, "8x8 reference");
        VM.assertEq(course8.run(golf8, 1), GOLF8_SEED1, "8x8 golf");
        VM.assertEq(course9.run(reference9, 1), REFERENCE9_SEED1, "9x9 reference");
        VM.assertEq(course9.run(golf9, 1), GOLF9_SEED1, "9x9 golf");
    }

    /// The course's own gas on seed 1 (drawing the cases, asking the reference,
    /// the metering), as the gas of the whole `run` call less what it returns.
    function test_course_own_gas_seed_1() public view {
        uint256 before = gasleft();
        uint256 metered = course8.run(golf8, 1);
        VM.assertEq(before - gasleft() - metered, COURSE8_OWN_SEED1, "8x8 course");
        before = gasleft();
        metered = course9.run(golf9, 1);
        VM.assertEq(before - gasleft() - metered, COURSE9_OWN_SEED1, "9x9 course");
    }

    function test_names() public view {
        VM.assertEq(course8.name(), unicode"octoku 2 × 4 = 8: verify", "8x8");
        VM.assertEq(course9.name(), unicode"classic 9 × 9: verify", "9x9");
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice The forge cheatcodes octoku's tests use. forge-std cannot be
/// installed from a registry here (npm's forge-std 1.1.2 is old and
/// unofficial), so the tests reach the cheatcode contract through this small
/// interface. The assert cheatcodes print both values when they fail.
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    function prank(address sender) external;
    function roll(uint256 blockNumber) external;
    function deal(address account, uint256 balance) external;
    function expectRevert(bytes calldata revertData) external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData, address emitter)
        external;
    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory logs);

    function assertTrue(bool condition, string calldata err) external pure;
    function assertFalse(bool condition, string calldata err) external pure;
    function assertEq(bool left, bool right, string calldata err) external pure;
    function assertEq(uint256 left, uint256 right, string calldata err) external pure;
    function assertEq(address left, address right, string calldata err) external pure;
    function assertEq(bytes32 left, bytes32 right, string calldata err) external pure;
    function assertEq(bytes calldata left, bytes calldata right, string calldata err) external pure;
    function assertEq(string calldata left, string calldata right, string calldata err) external pure;
    function assertNotEq(uint256 left, uint256 right, string calldata err) external pure;
    function assertLt(uint256 left, uint256 right, string calldata err) external pure;
    function assertLe(uint256 left, uint256 right, string calldata err) external pure;
    function assertGt(uint256 left, uint256 right, string calldata err) external pure;
    function assertGe(uint256 left, uint256 right, string calldata err) external pure;
}

/// @notice Base for octoku's forge tests: `VM`, the cheatcodes. Tests assert
/// with `VM.assertEq(left, right, label)` and its kin, which report both
/// sides on failure (forge prints "label: left != right").
abstract contract Test {
    Vm internal constant VM = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);
}

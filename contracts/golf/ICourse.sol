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

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPuzzle} from "../contracts/IPuzzle.sol";
import {BASE_GRID} from "./lib/Grids.sol";

/// @notice Calldata at the edges of the IPuzzle ABI, shared by the golf and
/// fair suites: each is sent to a golfed contract and to the reference, with
/// and without value, and must get the same success flag and return data
/// (for fair: except a well-formed generate and name, whose answers differ by
/// design; see `isFairOwn`).
library AbiEdges {
    uint256 internal constant START = 0x0000000000003000007001000000000000000040500000060000000000020008;

    function calls() internal pure returns (bytes[] memory c) {
        bytes4 g = IPuzzle.generate.selector;
        bytes4 v = IPuzzle.verify.selector;
        bytes4 n = IPuzzle.name.selector;
        c = new bytes[](24);
        c[0] = abi.encodeWithSelector(g, address(0x1234));
        c[1] = abi.encodePacked(g, uint256(1) << 160); // dirty upper bits
        c[2] = abi.encodePacked(g, type(uint256).max);
        c[3] = abi.encodePacked(g, uint248(7)); // 31 argument bytes
        c[4] = abi.encodePacked(g);
        c[5] = abi.encodePacked(g, uint256(uint160(address(7))), uint256(5)); // trailing bytes
        c[6] = abi.encodeWithSelector(v, START, BASE_GRID);
        c[7] = truncate(abi.encodePacked(v, START, BASE_GRID), 67); // 63 argument bytes
        c[8] = abi.encodePacked(v, START);
        c[9] = abi.encodePacked(v, START, BASE_GRID, uint8(1));
        c[10] = abi.encodePacked(n);
        c[11] = abi.encodePacked(n, uint256(3)); // trailing bytes
        c[12] = abi.encodePacked(bytes4(0xdeadbeef), START, BASE_GRID);
        c[13] = "";
        c[14] = hex"06fdde";
        c[15] = hex"2fa61c";
        c[16] = hex"41161b";
        c[17] = hex"06";
        c[18] = abi.encodePacked(bytes4(0x2fa61cd9), uint256(7)); // selectors one bit off
        c[19] = abi.encodePacked(bytes4(0x06fdde02));
        c[20] = abi.encodePacked(bytes4(0x41161b11), START, BASE_GRID);
        c[21] = abi.encodePacked(g, uint256(uint160(address(7))) | (uint256(1) << 255)); // top bit only
        c[22] = truncate(abi.encodeWithSelector(g, address(0x1234)), 35); // 31 bytes, address cut
        c[23] = abi.encodePacked(v, START, uint248(1)); // 63 argument bytes, other cut
    }

    /// @notice Whether the fair puzzle answers `data` with value 0 in its own
    /// way: a well-formed generate (its own board) or name (its own string).
    function isFairOwn(bytes memory data) internal pure returns (bool) {
        if (data.length < 4) return false;
        bytes4 sel = bytes4(data[0]) | (bytes4(data[1]) >> 8) | (bytes4(data[2]) >> 16) | (bytes4(data[3]) >> 24);
        if (sel == IPuzzle.name.selector) return true;
        if (sel != IPuzzle.generate.selector || data.length < 36) return false;
        uint256 word;
        assembly {
            word := mload(add(data, 36))
        }
        return word >> 160 == 0;
    }

    function truncate(bytes memory data, uint256 len) internal pure returns (bytes memory out) {
        out = new bytes(len);
        for (uint256 i; i < len; ++i) {
            out[i] = data[i];
        }
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "./lib/Test.sol";
import {IClassic9} from "../contracts/classic9/IClassic9.sol";
import {Classic9Reference} from "../contracts/classic9/Classic9Reference.sol";
import {Classic9Golf} from "../contracts/classic9/Classic9Golf.sol";

/// @notice Classic9Golf against Classic9Reference: seed 000's grids, equivalence
/// on random and structured inputs, every length 0..200, ABI edge shapes (with
/// and without value), exact gas and runtime size.
/// Gas is measured exactly: the least gas limit a call succeeds with is the gas
/// its frame uses (no sub-calls, so no 63/64 effects), found by bisection.
contract Classic9GolfTest is Test {
    Classic9Reference internal ref;
    IClassic9 internal golf;

    /// Targets from issue 15.
    uint256 internal constant VERIFY_GAS = 2500;
    uint256 internal constant VALID_GAS = 2000;
    uint256 internal constant MAX_RUNTIME = 1000;
    /// Measured exact gas of a call that decodes with length 81 (every such
    /// input costs the same).
    uint256 internal constant VALID_EXACT = 1059;
    uint256 internal constant VERIFY_EXACT = 1334;
    /// Measured exact gas of the reference (see test_gas_reference_rows).
    uint256[7] internal REFERENCE_ROWS = [uint256(99816), 713, 99816, 724, 112514, 124988, 112514];

    function setUp() public {
        ref = new Classic9Reference();
        golf = IClassic9(address(new Classic9Golf()));
    }

    // ---------------------------------------------------------------------
    // Seed 000's test grids (its test_valid_solution / test_invalid_solution)
    // ---------------------------------------------------------------------

    function seedValid() internal pure returns (string[5] memory) {
        return [
            "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
            "256734198891265374347198652514683729728519436963427581135942867689371245472856913",
            "964532178187694235235817964629451783573986412841273596416728359352169847798345621",
            "123675948456982371789314562964157283517238496832496157271849635395761824648523719",
            "123745689456819237789263514897452361632198745541637928315924876274586193968371452"
        ];
    }

    /// Seed 000's invalid grids: its valid grids, each with one digit
    /// changed (0-based cells 80, 27, 12, 0 and 0).
    function seedInvalid() internal pure returns (string[5] memory grids) {
        grids = seedValid();
        bytes(grids[0])[80] = "2";
        bytes(grids[1])[27] = "4";
        bytes(grids[2])[12] = "5";
        bytes(grids[3])[0] = "4";
        bytes(grids[4])[0] = "7";
    }

    function test_seed_valid_grids_are_valid() public view {
        _seedGridsAre(seedValid(), true);
    }

    function test_seed_invalid_grids_are_invalid() public view {
        _seedGridsAre(seedInvalid(), false);
    }

    /// Both contracts answer `valid` on each grid: isValidSolution, and
    /// verify with an empty start and with every cell given.
    function _seedGridsAre(string[5] memory grids, bool valid) internal view {
        for (uint256 i; i < 5; ++i) {
            bytes memory g = digits(grids[i]);
            VM.assertEq(ref.isValidSolution(g), valid, "reference: seed grid");
            VM.assertEq(golf.isValidSolution(g), valid, "golf: seed grid");
            VM.assertEq(golf.verify(new bytes(81), g), valid, "golf: verify, empty start");
            VM.assertEq(ref.verify(new bytes(81), g), valid, "reference: verify, empty start");
            VM.assertEq(golf.verify(g, g), valid, "golf: verify, every cell given");
            VM.assertEq(ref.verify(g, g), valid, "reference: verify, every cell given");
        }
    }

    /// A given that disagrees with a valid solution fails; one that agrees passes.
    function test_givens_must_match() public view {
        bytes memory g = digits(seedValid()[0]);
        bytes memory start = new bytes(81);
        start[40] = g[40];
        VM.assertTrue(golf.verify(start, g), "agreeing given");
        start[40] = bytes1(uint8(g[40]) % 9 + 1);
        VM.assertFalse(golf.verify(start, g), "disagreeing given");
        VM.assertFalse(ref.verify(start, g), "disagreeing given (reference)");
        start[40] = 0xff;
        VM.assertFalse(golf.verify(start, g), "given 0xff");
    }

    function test_wrong_length_reverts_with_grid_length() public {
        bytes memory g = digits(seedValid()[0]);
        bytes memory short_ = new bytes(80);
        _expectGridLength(abi.encodeCall(IClassic9.isValidSolution, (short_)), 80);
        _expectGridLength(abi.encodeCall(IClassic9.verify, (short_, g)), 80);
        _expectGridLength(abi.encodeCall(IClassic9.verify, (g, new bytes(82))), 82);
        _expectGridLength(abi.encodeCall(IClassic9.verify, (new bytes(0), new bytes(82))), 0);
    }

    // ---------------------------------------------------------------------
    // Equivalence with the reference
    // ---------------------------------------------------------------------

    /// Any bytes of any length, as grid, start and solution.
    function testFuzz_random_bytes(bytes memory a, bytes memory b) public {
        _sameIsValid(a);
        _sameVerify(a, b);
        _sameVerify(new bytes(81), a);
    }

    /// 81 random bytes, and 81 random bytes folded into 0..9 and 1..9.
    function testFuzz_random_grids(uint256 seed) public {
        bytes memory raw = _randomBytes(seed, 81);
        bytes memory digits09 = new bytes(81);
        bytes memory digits19 = new bytes(81);
        for (uint256 i; i < 81; ++i) {
            digits09[i] = bytes1(uint8(raw[i]) % 10);
            digits19[i] = bytes1(uint8(raw[i]) % 9 + 1);
        }
        _sameIsValid(raw);
        _sameIsValid(digits09);
        _sameIsValid(digits19);
        _sameVerify(digits09, digits19);
        _sameVerify(raw, digits19);
    }

    /// Valid grids (a seed grid under Sudoku symmetries) with random givens.
    function testFuzz_valid_grids_with_givens(uint256 entropy, uint256 mask) public {
        bytes memory g = _shuffle(digits(seedValid()[entropy % 5]), entropy);
        bytes memory start = _givens(g, mask);
        VM.assertTrue(ref.isValidSolution(g), "symmetry produced an invalid grid");
        VM.assertTrue(golf.isValidSolution(g), "valid grid rejected");
        VM.assertTrue(golf.verify(start, g), "valid grid with its givens rejected");
        _sameVerify(start, g);
    }

    /// Mutations: two cells swapped, a byte set to 0 or 10..255 (in the
    /// solution or the start), another digit in one cell.
    function testFuzz_mutations(uint256 entropy, uint256 mask, uint8 a, uint8 b, uint8 v) public {
        bytes memory g = _shuffle(digits(seedValid()[entropy % 5]), entropy);
        bytes memory start = _givens(g, mask);
        uint256 ia = uint256(a) % 81;
        uint256 ib = uint256(b) % 81;
        bytes memory m = bytes.concat(g);
        (m[ia], m[ib]) = (m[ib], m[ia]);
        _sameIsValid(m);
        _sameVerify(start, m);
        m = bytes.concat(g);
        m[ia] = bytes1(v < 10 ? 0 : v);
        _sameIsValid(m);
        _sameVerify(start, m);
        m = bytes.concat(g);
        m[ia] = bytes1(uint8(g[ia]) % 9 + 1 + v % 8 >= 10 ? uint8(g[ia]) % 9 + 1 + v % 8 - 9 : uint8(g[ia]) % 9 + 1 + v % 8);
        _sameIsValid(m);
        _sameVerify(new bytes(81), m);
        bytes memory s = bytes.concat(start);
        s[ib] = bytes1(v);
        _sameVerify(s, g);
        // several bad bytes at once (carries across lanes)
        m = bytes.concat(g);
        m[ia] = bytes1(uint8(0x80) | v);
        m[ib] = 0;
        _sameIsValid(m);
        m[ib] = 0xff;
        _sameIsValid(m);
    }

    /// Boxes broken while rows and columns hold: two rows of different bands
    /// (or two columns of different stacks) swapped.
    function testFuzz_boxes_broken(uint256 entropy, uint8 r1, uint8 r2) public {
        bytes memory g = _shuffle(digits(seedValid()[entropy % 5]), entropy);
        uint256 a = uint256(r1) % 9;
        uint256 b = (a + 3 + uint256(r2) % 6) % 9; // another band
        bytes memory rowsSwapped = bytes.concat(g);
        bytes memory colsSwapped = bytes.concat(g);
        for (uint256 k; k < 9; ++k) {
            (rowsSwapped[9 * a + k], rowsSwapped[9 * b + k]) = (g[9 * b + k], g[9 * a + k]);
            (colsSwapped[9 * k + a], colsSwapped[9 * k + b]) = (g[9 * k + b], g[9 * k + a]);
        }
        // Usually invalid (a swap keeps the boxes only if the two rows hold the
        // same digits in each stack); the reference decides.
        _sameIsValid(rowsSwapped);
        _sameIsValid(colsSwapped);
        _sameVerify(new bytes(81), colsSwapped);
        _sameVerify(_givens(g, entropy >> 128), rowsSwapped);
    }

    /// Latin squares that are not Sudoku: cell(r, c) = perm[(c + k r) % 9]
    /// for k = 1, 2, 4, 5, 7, 8 (rows and columns hold, boxes do not), and
    /// for k = 3 (a Sudoku: the control).
    function testFuzz_latin_squares(uint256 entropy) public {
        uint8[9] memory perm = _perm9(entropy);
        for (uint256 k = 1; k < 9; ++k) {
            bytes memory g = new bytes(81);
            for (uint256 r; r < 9; ++r) {
                for (uint256 c; c < 9; ++c) {
                    g[9 * r + c] = bytes1(perm[(c + k * r) % 9]);
                }
            }
            if (k % 3 == 0) {
                // k = 3: boxes hold too; k = 6: columns repeat every 3 rows.
                _sameIsValid(g);
            } else {
                VM.assertFalse(golf.isValidSolution(g), "latin square accepted");
                _sameIsValid(g);
                _sameVerify(g, g);
            }
        }
    }

    /// Every length 0..200 for the grid, the start and the solution.
    function test_every_length_0_to_200() public {
        bytes memory g = digits(seedValid()[1]);
        for (uint256 len; len <= 200; ++len) {
            bytes memory b = _randomBytes(len, len);
            _sameIsValid(b);
            _sameVerify(b, g);
            _sameVerify(new bytes(81), b);
            _sameVerify(b, b);
        }
    }

    // ---------------------------------------------------------------------
    // ABI edge shapes (same success flag and return data as the reference)
    // ---------------------------------------------------------------------

    function test_abi_edges() public {
        bytes[] memory calls = _abiEdges();
        for (uint256 value; value < 2; ++value) {
            for (uint256 i; i < calls.length; ++i) {
                _sameCall(calls[i], value);
            }
        }
    }

    /// A well-formed call with its offsets, length words and size rewritten.
    function testFuzz_abi_shapes(uint256 o1, uint256 o2, uint256 l, uint8 cut, uint8 which, bool paid) public {
        bytes memory g = digits(seedValid()[2]);
        bytes memory v = abi.encodeCall(IClassic9.verify, (g, g));
        bytes memory one = abi.encodeCall(IClassic9.isValidSolution, (g));
        uint256 value = paid ? 1 : 0;
        uint256 w = which % 4;
        // small offsets / lengths more often than huge ones
        if (w == 1) (o1, o2, l) = (o1 % 0x140, o2 % 0x140, l % 0x100);
        if (w == 2) (o1, o2, l) = (o1 >> 160, o2 >> 160, l >> 190);
        _sameCall(_poke(_poke(v, 4, o1), 36, o2), value);
        _sameCall(_poke(v, 68, l), value);
        _sameCall(_poke(one, 4, o1), value);
        _sameCall(_poke(one, 36, l), value);
        _sameCall(_cut(v, uint256(cut) + 100), value);
        _sameCall(_cut(one, uint256(cut) % 160), value);
    }

    // ---------------------------------------------------------------------
    // Gas and size
    // ---------------------------------------------------------------------

    function test_runtime_size() public view {
        VM.assertLe(address(golf).code.length, MAX_RUNTIME, "runtime bytes");
    }

    /// Exact gas on the seed grids: valid, invalid first cell, invalid last
    /// cell; printed by `forge test -vv`.
    function test_gas_seed_grids() public {
        bytes memory g = digits(seedValid()[0]);
        bytes memory first = digits(seedInvalid()[3]);
        bytes memory late = digits(seedInvalid()[0]);
        uint256 gv = _gasOf(address(golf), abi.encodeCall(IClassic9.isValidSolution, (g)));
        VM.assertLe(gv, VALID_GAS, "isValidSolution gas");
        VM.assertEq(gv, VALID_EXACT, "isValidSolution exact gas");
        VM.assertEq(_gasOf(address(golf), abi.encodeCall(IClassic9.isValidSolution, (first))), gv, "same gas, invalid first");
        VM.assertEq(_gasOf(address(golf), abi.encodeCall(IClassic9.isValidSolution, (late))), gv, "same gas, invalid late");
        uint256 vv = _gasOf(address(golf), abi.encodeCall(IClassic9.verify, (g, g)));
        VM.assertLe(vv, VERIFY_GAS, "verify gas");
        VM.assertEq(vv, VERIFY_EXACT, "verify exact gas");
        VM.assertEq(_gasOf(address(golf), abi.encodeCall(IClassic9.verify, (new bytes(81), late))), vv, "same gas, verify");
    }

    /// The reference's exact gas on the rows of the README table: a valid grid,
    /// an invalid first cell (0), an invalid last cell (seed 000's first invalid
    /// grid), 81 random bytes; verify with an empty start and with all 81 given.
    function test_gas_reference_rows() public {
        bytes memory g = digits(seedValid()[0]);
        bytes memory first = bytes.concat(g);
        first[0] = 0;
        bytes memory late = digits(seedInvalid()[0]);
        bytes memory r = _randomBytes(7, 81);
        uint256[7] memory got = [
            _gasOf(address(ref), abi.encodeCall(IClassic9.isValidSolution, (g))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.isValidSolution, (first))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.isValidSolution, (late))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.isValidSolution, (r))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.verify, (new bytes(81), g))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.verify, (g, g))),
            _gasOf(address(ref), abi.encodeCall(IClassic9.verify, (new bytes(81), late)))
        ];
        VM.assertEq(abi.encode(got), abi.encode(REFERENCE_ROWS), "reference gas rows");
    }

    /// Gas does not depend on the data (same on random bytes as on a valid grid).
    function testFuzz_gas_flat(uint256 seed, uint256 mask) public {
        bytes memory g = _shuffle(digits(seedValid()[seed % 5]), seed);
        bytes memory r = _randomBytes(seed, 81);
        uint256 a = _gasOf(address(golf), abi.encodeCall(IClassic9.isValidSolution, (g)));
        uint256 b = _gasOf(address(golf), abi.encodeCall(IClassic9.isValidSolution, (r)));
        VM.assertEq(a, b, "isValidSolution gas differs");
        VM.assertLe(a, VALID_GAS, "isValidSolution gas");
        uint256 c = _gasOf(address(golf), abi.encodeCall(IClassic9.verify, (_givens(g, mask), g)));
        uint256 d = _gasOf(address(golf), abi.encodeCall(IClassic9.verify, (r, g)));
        VM.assertEq(c, d, "verify gas differs");
        VM.assertLe(c, VERIFY_GAS, "verify gas");
    }

    // ---------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------

    /// "953168742..." -> 81 bytes 9, 5, 3, ...
    function digits(string memory s) internal pure returns (bytes memory out) {
        bytes memory b = bytes(s);
        out = new bytes(b.length);
        for (uint256 i; i < b.length; ++i) {
            out[i] = bytes1(uint8(b[i]) - 48);
        }
    }

    function _sameIsValid(bytes memory g) internal {
        _sameCall(abi.encodeCall(IClassic9.isValidSolution, (g)), 0);
    }

    function _sameVerify(bytes memory s, bytes memory g) internal {
        _sameCall(abi.encodeCall(IClassic9.verify, (s, g)), 0);
    }

    /// Same success flag and same return (or revert) bytes from golf and reference.
    function _sameCall(bytes memory data, uint256 value) internal {
        (bool okG, bytes memory g) = address(golf).call{value: value}(data);
        (bool okR, bytes memory r) = address(ref).call{value: value}(data);
        VM.assertEq(okG, okR, "success differs");
        VM.assertEq(g, r, "return data differs");
    }

    function _expectGridLength(bytes memory data, uint256 len) internal {
        bytes memory want = abi.encodeWithSelector(IClassic9.GridLength.selector, len);
        (bool okG, bytes memory g) = address(golf).call(data);
        (bool okR, bytes memory r) = address(ref).call(data);
        VM.assertFalse(okG, "golf did not revert");
        VM.assertFalse(okR, "reference did not revert");
        VM.assertEq(g, want, "golf revert data");
        VM.assertEq(r, want, "reference revert data");
    }

    /// Exact gas of one call frame: the least gas limit it succeeds with.
    function _gasOf(address target, bytes memory data) internal returns (uint256 lo) {
        (bool ok,) = target.call(data); // warm the account
        VM.assertTrue(ok, "call reverted");
        uint256 hi = 200_000;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            (ok,) = target.call{gas: mid}(data);
            if (ok) hi = mid;
            else lo = mid + 1;
        }
    }

    function _randomBytes(uint256 seed, uint256 len) internal pure returns (bytes memory out) {
        out = new bytes(len);
        for (uint256 i; i < len; i += 32) {
            bytes32 h = keccak256(abi.encode(seed, i));
            for (uint256 j; j < 32 && i + j < len; ++j) {
                out[i + j] = h[j];
            }
        }
    }

    /// The cells whose bit in `mask` (cell i: bit i % 256 of keccak(mask, i / 256)) is set.
    function _givens(bytes memory g, uint256 mask) internal pure returns (bytes memory s) {
        s = new bytes(81);
        for (uint256 i; i < 81; ++i) {
            if ((mask >> i) & 1 == 1) s[i] = g[i];
        }
    }

    function _poke(bytes memory data, uint256 at, uint256 word) internal pure returns (bytes memory out) {
        out = bytes.concat(data);
        assembly {
            mstore(add(add(out, 32), at), word)
        }
    }

    function _cut(bytes memory data, uint256 len) internal pure returns (bytes memory out) {
        if (len > data.length) len = data.length;
        out = new bytes(len);
        for (uint256 i; i < len; ++i) {
            out[i] = data[i];
        }
    }

    function _abiEdges() internal pure returns (bytes[] memory c) {
        bytes memory g = digits(seedValid()[4]);
        bytes4 iv = IClassic9.isValidSolution.selector;
        bytes4 v = IClassic9.verify.selector;
        bytes memory one = abi.encodeCall(IClassic9.isValidSolution, (g));
        bytes memory two = abi.encodeCall(IClassic9.verify, (g, g));
        c = new bytes[](28);
        c[0] = one;
        c[1] = two;
        c[2] = "";
        c[3] = hex"843974";
        c[4] = hex"f7e83a";
        c[5] = abi.encodePacked(iv);
        c[6] = abi.encodePacked(v);
        c[7] = abi.encodePacked(iv, uint256(0)); // offset 0: the length word is the offset, 0
        c[8] = abi.encodePacked(iv, uint256(0x20), uint256(0)); // empty grid
        c[9] = abi.encodePacked(v, uint256(0), uint256(0)); // both offsets at the head
        c[10] = abi.encodePacked(v, uint256(0x40), uint256(0x40), uint256(81), g); // both offsets at one grid
        c[11] = abi.encodePacked(v, uint256(0x40), uint256(0x40), uint256(81), g, bytes15(0)); // padded
        c[12] = _cut(one, one.length - 16); // grid cut short (past the end)
        c[13] = _cut(one, 36 + 32 + 81); // no padding: exactly enough
        c[14] = _cut(one, 36 + 32 + 80); // one byte short
        c[15] = bytes.concat(one, hex"deadbeef"); // trailing data
        c[16] = bytes.concat(two, new bytes(64)); // trailing data
        c[17] = _poke(one, 4, 1 << 64); // offset 2^64
        c[18] = _poke(one, 4, type(uint256).max); // offset -1
        c[19] = _poke(one, 36, 1 << 64); // length 2^64
        c[20] = _poke(two, 36, type(uint256).max - 31); // second offset wraps
        c[21] = _poke(two, 4, 0x21); // unaligned offset
        c[22] = abi.encodePacked(bytes4(0x843974d6), uint256(0x20), uint256(81), g); // selector one bit off
        c[23] = abi.encodePacked(bytes4(0xf7e83aef), uint256(0x40), uint256(0x40), uint256(81), g);
        c[24] = abi.encodePacked(v, uint256(0), bytes4(0)); // 40 bytes: both decode but the head is short
        c[25] = abi.encodePacked(iv, uint256(0x20), uint256(80), g); // 80 with 81 bytes present
        c[26] = abi.encodePacked(iv, uint256(0x20), uint256(200), g); // 200 but only 81 present
        c[27] = hex"84";
    }

    /// A permutation of 1..9 from entropy.
    function _perm9(uint256 entropy) internal pure returns (uint8[9] memory p) {
        p = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        for (uint256 i = 8; i > 0; --i) {
            uint256 j = (entropy >> (8 * i)) % (i + 1);
            (p[i], p[j]) = (p[j], p[i]);
        }
    }

    /// A permutation of 0..2 from entropy.
    function _perm3(uint256 e) internal pure returns (uint256[3] memory p) {
        p = [uint256(0), 1, 2];
        uint256 j = e % 3;
        (p[2], p[j]) = (p[j], p[2]);
        j = (e / 3) % 2;
        (p[1], p[j]) = (p[j], p[1]);
    }

    /// Validity-preserving shuffle: relabel digits, permute bands and the rows
    /// inside each band, stacks and the columns inside each stack, transpose.
    function _shuffle(bytes memory g, uint256 entropy) internal pure returns (bytes memory out) {
        uint8[9] memory relabel = _perm9(entropy);
        uint256 e = uint256(keccak256(abi.encode(entropy)));
        uint256[9] memory rowOf;
        uint256[9] memory colOf;
        uint256[3] memory bands = _perm3(e);
        uint256[3] memory stacks = _perm3(e >> 8);
        for (uint256 k; k < 3; ++k) {
            uint256[3] memory inBand = _perm3(e >> (16 + 8 * k));
            uint256[3] memory inStack = _perm3(e >> (40 + 8 * k));
            for (uint256 i; i < 3; ++i) {
                rowOf[3 * k + i] = 3 * bands[k] + inBand[i];
                colOf[3 * k + i] = 3 * stacks[k] + inStack[i];
            }
        }
        bool transpose = (e >> 100) & 1 == 1;
        out = new bytes(81);
        for (uint256 r; r < 9; ++r) {
            for (uint256 c; c < 9; ++c) {
                uint256 from = transpose ? 9 * colOf[c] + rowOf[r] : 9 * rowOf[r] + colOf[c];
                out[9 * r + c] = bytes1(relabel[uint8(g[from]) - 1]);
            }
        }
    }
}

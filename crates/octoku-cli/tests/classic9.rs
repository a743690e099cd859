//! The classic 9×9 validators through the `octoku` binary: the listed valid
//! and invalid grids on both contracts (`verify --size 9 --puzzle reference|golf`), the
//! off-chain mirror, `fuzz --size 9`, `gas --profile isValidSolution`.
//! Deployed validators (anvil, embedded chain) are tested in anvil.rs,
//! refusals of bad 9×9 input in refusals.rs.

use octoku_core::classic9::{INVALID_GRIDS, VALID_GRIDS};
use octoku_testkit::octoku;
use serde_json::Value;

/// 81 empty cells.
fn empty() -> String {
    ".".repeat(81)
}

#[test]
fn listed_grids_get_their_verdict_and_gas_from_both_contracts() {
    let start = empty();
    for (grids, valid, code) in [(VALID_GRIDS, true, 0), (INVALID_GRIDS, false, 1)] {
        for grid in grids {
            for (puzzle, gas) in [("reference", None), ("golf", Some(1_334))] {
                let v = octoku!(&[
                    "verify", "--size", "9", "--puzzle", puzzle, &start, grid, "--json",
                ])
                .json_with(code);
                assert_eq!(v["valid"], valid, "{puzzle} {grid}");
                assert_eq!(v["puzzle"], puzzle);
                assert_eq!(v["size"], 9);
                let spent = v["gas"].as_u64().expect("gas when a contract ran");
                if let Some(gas) = gas {
                    assert_eq!(spent, gas, "the golfed verify costs the same on every grid");
                } else {
                    assert!(spent > 1_334, "the reference spent {spent}");
                }
            }
        }
    }
}

#[test]
fn without_puzzle_size_9_stays_off_chain() {
    // The core's family verify (no contract, no gas), as issue 14 defines it.
    let v = octoku!(&["verify", "--size", "9", &empty(), VALID_GRIDS[1], "--json"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v.get("gas"), None);
    octoku!(&["verify", "--size", "9", &empty(), INVALID_GRIDS[1]]).code(1);
}

#[test]
fn a_given_that_differs_is_invalid_on_both_contracts() {
    let mut start = empty().into_bytes();
    start[0] = b'1'; // VALID_GRIDS[0] starts with 9
    let start = String::from_utf8(start).unwrap();
    for puzzle in ["reference", "golf"] {
        let v = octoku!(&[
            "verify",
            "--size",
            "9",
            "--puzzle",
            puzzle,
            &start,
            VALID_GRIDS[0],
            "--json",
        ])
        .json_with(1);
        assert_eq!(v["valid"], false);
    }
}

#[test]
fn fuzz_size_9_compares_the_mirror_with_both_contracts() {
    let v = octoku!(&[
        "fuzz", "--size", "9", "--cases", "2000", "--seed", "5", "--json",
    ])
    .json();
    assert_eq!(v["cases"], 2000);
    assert_eq!(v["mismatch"], Value::Null);
    assert_eq!(v["size"], 9);
    assert_eq!(v["puzzles"], serde_json::json!(["reference", "golf"]));
}

#[test]
fn gas_profile_of_the_golfed_is_valid_solution() {
    let v = octoku!(&[
        "gas",
        "--profile",
        "isValidSolution",
        VALID_GRIDS[2],
        "--puzzle",
        "golf",
        "--json",
    ])
    .json();
    assert_eq!(v["puzzle"], "golf");
    assert_eq!(v["size"], 9);
    assert_eq!(v["gas"], 1_059);
    assert_eq!(v["success"], true);
}

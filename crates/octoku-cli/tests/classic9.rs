//! The classic 9×9 validators through the `octoku` binary: seed 000's test
//! grids on both contracts (`verify --size 9 --puzzle reference|golf`), the
//! off-chain mirror, `fuzz --size 9`, `gas --profile isValidSolution`;
//! `deploy --puzzle classic9` on the embedded chain and its seed 000
//! answers. Refusals of bad 9×9 input are tabled in refusals.rs.

use octoku_core::classic9::{SEED_INVALID, SEED_VALID};
use octoku_testkit::{assert_keys, octoku, temp_dir};
use serde_json::Value;

/// 81 empty cells.
fn empty() -> String {
    ".".repeat(81)
}

#[test]
fn seed_000_grids_through_both_contracts() {
    let start = empty();
    for (grids, valid, code) in [(SEED_VALID, true, 0), (SEED_INVALID, false, 1)] {
        for grid in grids {
            for (puzzle, gas) in [("reference", None), ("golf", Some(1_746))] {
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
                    assert!(spent > 1_746, "the reference spent {spent}");
                }
            }
        }
    }
}

#[test]
fn without_puzzle_size_9_stays_off_chain() {
    // The core's family verify (no contract, no gas), as issue 14 defines it.
    let v = octoku!(&["verify", "--size", "9", &empty(), SEED_VALID[1], "--json"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v.get("gas"), None);
    octoku!(&["verify", "--size", "9", &empty(), SEED_INVALID[1]]).code(1);
}

#[test]
fn a_given_that_differs_is_invalid_on_both_contracts() {
    let mut start = empty().into_bytes();
    start[0] = b'1'; // SEED_VALID[0] starts with 9
    let start = String::from_utf8(start).unwrap();
    for puzzle in ["reference", "golf"] {
        let v = octoku!(&[
            "verify",
            "--size",
            "9",
            "--puzzle",
            puzzle,
            &start,
            SEED_VALID[0],
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
        SEED_VALID[2],
        "--puzzle",
        "golf",
        "--json",
    ])
    .json();
    assert_eq!(v["puzzle"], "golf");
    assert_eq!(v["size"], 9);
    assert_eq!(v["gas"], 1_323);
    assert_eq!(v["success"], true);
}

/// `deploy --puzzle classic9` on the embedded chain: the golfed 9×9
/// validator at the gas `octoku gas` reports for its deployment (the same
/// as `--size 9 --golf`), answering seed 000's grids through `verify --size 9
/// --puzzle-address A --state S`.
#[test]
fn deploy_puzzle_classic9_on_the_embedded_chain_answers_seed_000_grids() {
    let dir = temp_dir("classic9-deploy");
    let state = dir.path().join("chain.json");
    let state = state.to_str().unwrap();

    assert!(octoku!(&["deploy", "--help"]).ok().contains("classic9"));

    let gas = octoku!(&["gas", "--json"]).json();
    let row = gas["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["puzzle"] == "golf" && d["size"] == 9)
        .expect("a deployment row for the golfed 9x9 validator")
        .clone();

    let mut addresses = Vec::new();
    for args in [&["--puzzle", "classic9"][..], &["--size", "9", "--golf"]] {
        let mut cmd = vec!["deploy", "--state", state, "--json"];
        cmd.extend_from_slice(args);
        let v = octoku!(&cmd).json();
        assert_keys(
            &v,
            &[
                "chain",
                "chain_id",
                "puzzle",
                "size",
                "puzzle_address",
                "puzzle_tx",
            ],
        );
        assert_eq!(v["puzzle"], "golf", "{args:?}");
        assert_eq!(v["size"], 9);
        assert_eq!(v["puzzle_tx"]["gas"], row["gas"], "{args:?}");
        addresses.push(v["puzzle_address"].as_str().unwrap().to_owned());
    }
    assert_ne!(addresses[0], addresses[1]);

    let run = octoku!(&["deploy", "--puzzle", "classic9", "--state", state]);
    let text = run.ok();
    assert!(
        text.contains(&format!("(9x9 golf, block 3, gas {}, tx ", row["gas"])),
        "{text}"
    );
    // The printed next command names the same chain.
    assert!(
        text.contains(&format!(" --state {state} START SOLUTION")),
        "{text}"
    );

    let start = empty();
    for (grids, valid, code) in [(SEED_VALID, true, 0), (SEED_INVALID, false, 1)] {
        for grid in grids {
            let v = octoku!(&[
                "verify",
                "--size",
                "9",
                "--puzzle-address",
                &addresses[0],
                "--state",
                state,
                &start,
                grid,
                "--json",
            ])
            .json_with(code);
            assert_eq!(v["valid"], valid, "{grid}");
            assert_eq!(v["puzzle_address"], addresses[0].as_str());
        }
    }
}

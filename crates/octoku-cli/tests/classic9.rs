//! The classic 9×9 validators through the `octoku` binary: seed 000's test
//! grids on both contracts (`verify --size 9 --puzzle reference|golf`), the
//! off-chain mirror, `fuzz --size 9`, `gas --profile isValidSolution`, and
//! one-line errors with exit status 2 on bad input; `deploy --puzzle
//! classic9` on the embedded chain and its seed 000 answers.

use std::process::Output;

use octoku_core::classic9::{INVALID_GRIDS, VALID_GRIDS};
use serde_json::Value;

mod common;
use common::assert_keys;
mod run;
use run::{json, octoku};

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// 81 empty cells.
fn empty() -> String {
    ".".repeat(81)
}

#[test]
fn seed_000_grids_through_both_contracts() {
    let start = empty();
    for (grids, valid, code) in [(VALID_GRIDS, true, 0), (INVALID_GRIDS, false, 1)] {
        for grid in grids {
            for (puzzle, gas) in [("reference", None), ("golf", Some(1_746))] {
                let out = octoku(&[
                    "verify", "--size", "9", "--puzzle", puzzle, &start, grid, "--json",
                ]);
                assert_eq!(
                    out.status.code(),
                    Some(code),
                    "{puzzle} {grid}: {}",
                    stderr(&out)
                );
                let v = json(&out);
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
    let out = octoku(&["verify", "--size", "9", &empty(), VALID_GRIDS[1], "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["valid"], true);
    assert_eq!(json(&out).get("gas"), None);
    let out = octoku(&["verify", "--size", "9", &empty(), INVALID_GRIDS[1]]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn a_given_that_differs_is_invalid_on_both_contracts() {
    let mut start = empty().into_bytes();
    start[0] = b'1'; // VALID_GRIDS[0] starts with 9
    let start = String::from_utf8(start).unwrap();
    for puzzle in ["reference", "golf"] {
        let out = octoku(&[
            "verify",
            "--size",
            "9",
            "--puzzle",
            puzzle,
            &start,
            VALID_GRIDS[0],
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(json(&out)["valid"], false);
    }
}

#[test]
fn bad_9x9_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "verify",
                "--size",
                "9",
                "--puzzle",
                "golf",
                "123",
                VALID_GRIDS[0],
            ],
            "START: 3 cells; expected 81 cells",
        ),
        (
            &[
                "verify",
                "--size",
                "9",
                "--puzzle",
                "golf",
                "0x0102",
                VALID_GRIDS[0],
            ],
            "a grid of 2 bytes: expected 81 bytes",
        ),
        (
            &[
                "verify",
                "--size",
                "9",
                "--puzzle",
                "fair",
                VALID_GRIDS[0],
                VALID_GRIDS[0],
            ],
            "no 9x9 validator",
        ),
        (
            &[
                "gas",
                "--profile",
                "isValidSolution",
                "12x",
                "--puzzle",
                "golf",
            ],
            "GRID: 'x' at character 3",
        ),
    ];
    for (args, message) in cases {
        let out = octoku(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn fuzz_size_9_compares_the_mirror_with_both_contracts() {
    let out = octoku(&[
        "fuzz", "--size", "9", "--cases", "2000", "--seed", "5", "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["cases"], 2000);
    assert_eq!(v["mismatch"], Value::Null);
    assert_eq!(v["size"], 9);
    assert_eq!(v["puzzles"], serde_json::json!(["reference", "golf"]));
}

#[test]
fn gas_profile_of_the_golfed_is_valid_solution() {
    let out = octoku(&[
        "gas",
        "--profile",
        "isValidSolution",
        VALID_GRIDS[2],
        "--puzzle",
        "golf",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["puzzle"], "golf");
    assert_eq!(v["size"], 9);
    assert_eq!(v["gas"], 1_323);
    assert_eq!(v["success"], true);
}

/// `deploy --puzzle classic9` on the embedded chain: the golfed 9×9
/// validator at the gas `octoku gas` reports for its deployment (the same
/// as `--size 9 --golf`), answering seed 000's grids through `verify --size 9
/// --puzzle-address A --state S`; `--size 8` with it is refused.
#[test]
fn deploy_puzzle_classic9_on_the_embedded_chain_answers_seed_000_grids() {
    let dir = std::env::temp_dir().join(format!("octoku-classic9-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("chain.json");
    let state = state.to_str().unwrap();

    let help = octoku(&["deploy", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("classic9"));

    let gas = json(&octoku(&["gas", "--json"]));
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
        let out = octoku(&cmd);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let v = json(&out);
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

    let text = octoku(&["deploy", "--puzzle", "classic9", "--state", state]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
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
    for (grids, valid, code) in [(VALID_GRIDS, true, 0), (INVALID_GRIDS, false, 1)] {
        for grid in grids {
            let out = octoku(&[
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
            ]);
            assert_eq!(out.status.code(), Some(code), "{grid}: {}", stderr(&out));
            assert_eq!(json(&out)["valid"], valid, "{grid}");
            assert_eq!(json(&out)["puzzle_address"], addresses[0].as_str());
        }
    }

    let out = octoku(&[
        "deploy", "--puzzle", "classic9", "--size", "8", "--state", state,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("classic9 is the 9x9 validator"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

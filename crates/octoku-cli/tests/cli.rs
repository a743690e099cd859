//! The `octoku` binary end to end: public vectors through the CLI, exit
//! statuses, one-line errors on bad input, clap's own usage errors, and
//! output errors (full disk, closed pipe) that never panic.

use std::process::{Command, Output};

use serde_json::Value;

mod common;
mod run;
use common::assert_keys;
use run::{json, octoku};

/// The JSON of a run that must exit 0 (its stderr shown if it does not).
fn ok_json(output: &Output) -> Value {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    json(output)
}

const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

#[test]
fn generate_prints_public_vectors_as_json() {
    let vectors = [
        (
            "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
            "0x0000700000000000000000000800064000000000000000000003020000000510",
        ),
        (
            "0x00000000ecf2b58c296b47cac8c51467c0e307ce",
            "0x6200480000000007000000000000000000000000005000001000300000000000",
        ),
        (
            "F39FD6E51AAD88F6F4CE6AB8827279CFFFB92266",
            "0x0000000000000000000000000040700000000010003000000000280050000060",
        ),
    ];
    for (address, start) in vectors {
        let out = octoku(&["generate", address, "--json"]);
        assert!(
            out.status.success(),
            "{address}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        assert_keys(&v, &["address", "puzzle", "start", "givens", "gas"]);
        assert_eq!(v["start"], start);
        assert!(v["gas"].as_u64().is_some_and(|g| g > 0));
        assert_eq!(
            v["address"].as_str().map(str::to_lowercase),
            Some(format!(
                "0x{}",
                address.trim_start_matches("0x").to_lowercase()
            ))
        );
    }
}

#[test]
fn verify_exits_zero_on_valid_and_one_on_invalid_with_reason() {
    let valid = octoku(&["verify", START, SOLUTION, "--json"]);
    assert_eq!(valid.status.code(), Some(0));
    assert_eq!(json(&valid)["valid"], true);
    assert_keys(
        &json(&valid),
        &[
            "valid", "puzzle", "start", "solution", "gas", "reason", "problems",
        ],
    );
    assert_eq!(json(&valid)["reason"], Value::Null);

    let wrong = "0x7235861418463257457361828621457323681745541728366784532131527467";
    let invalid = octoku(&["verify", START, wrong, "--json"]);
    assert_eq!(invalid.status.code(), Some(1));
    let v = json(&invalid);
    assert_eq!(v["valid"], false);
    assert_eq!(v["reason"], "row 8 column 8: the given 8 was changed to 7");

    let empty_start = octoku(&["verify", "0", SOLUTION, "--json"]);
    assert_eq!(empty_start.status.code(), Some(0));
}

#[test]
fn verify_accepts_grid_and_decimal_forms() {
    let grid = "7235861418463257457361828621457323681745541728366784532131527468";
    let out = octoku(&["verify", "....", grid]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a 4-character grid is bad input"
    );
    let dotted = ".".repeat(64);
    let out = octoku(&["verify", &dotted, grid, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_two() {
    let cases: &[&[&str]] = &[
        &["generate", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA960"], // 19 bytes
        &["generate", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA9604g"], // non-hex
        &["generate", ""],
        &["generate", "0xd8DA6BF26964aF9D7eEd9e03E53415D37aA96045"], // bad checksum
        &[
            "verify",
            "0x1",
            "0x1234567812345678123456781234567812345678123456781234567812345678f",
        ], // 65 digits
        &[
            "verify",
            "0x1",
            "115792089237316195423570985008687907853269984665640564039457584007913129639936",
        ], // 2^256
        &["verify", "12.4", "0x1"],                                  // a grid of 4 cells
        &[
            "verify",
            "0",
            "0000000000000000000000000000000000000000000000000000000000000009",
        ], // grid with a 9
        &["verify", "", "0x1"],
    ];
    for args in cases {
        let out = octoku(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("octoku: "), "{args:?}: {stderr}");
        assert!(
            stderr.contains("expected") || stderr.contains("must"),
            "{args:?} should say what was expected: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn solve_by_address_returns_a_solution_the_contract_verifies() {
    let out = octoku(&[
        "solve",
        "--address",
        "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        "--json",
        "--count",
        "3",
    ]);
    let v = ok_json(&out);
    assert_keys(&v, SOLVE_KEYS);
    assert_eq!(
        v["start"],
        "0x0000700000000000000000000800064000000000000000000003020000000510"
    );
    assert_eq!(v["valid"], true);
    assert_eq!(v["solutions"], 3);
    assert_eq!(v["solutions_capped"], true);
    assert!(v["gas"].as_u64().is_some_and(|g| g > 0));
    assert_eq!(v["reason"], Value::Null);
    let solution: octoku_core::Board = v["solution"].as_str().unwrap().parse().unwrap();
    let start: octoku_core::Board = v["start"].as_str().unwrap().parse().unwrap();
    assert!(octoku_core::verify(start, solution));
}

/// The fields of `solve --json`, solved or not.
const SOLVE_KEYS: &[&str] = &[
    "puzzle",
    "address",
    "start",
    "solution",
    "valid",
    "gas",
    "solutions",
    "solutions_capped",
    "reason",
];

#[test]
fn solve_counts_exactly_below_the_limit() {
    // The public vector's solution with one cell blanked has exactly one completion.
    let start = "0x7235861418463257457361828621457323681745541728366784532131527460";
    let v = json(&octoku(&["solve", start, "--json", "--count", "10"]));
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["solution"], SOLUTION);
}

/// The example address: its published board has no solution; the
/// fair puzzle gives it the same cells of a valid grid.
const DEAD_END: &str = "0xe0522c0611b8c66a5b429ad403b92e84c11173be";

#[test]
fn solve_on_an_unsolvable_board_says_why_and_prints_no_solution() {
    let out = octoku(&["solve", "--address", DEAD_END]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.trim_end().lines().count(), 1, "{stdout}");
    assert!(
        stdout.contains("no solution") && stdout.contains("row 2"),
        "{stdout}"
    );
    // It names the address (checksummed) and points at the fair puzzle.
    assert!(
        stdout.contains("0xe0522c0611B8C66a5b429Ad403B92e84C11173bE"),
        "{stdout}"
    );
    assert!(stdout.contains("--puzzle fair"), "{stdout}");
    let v = json(&octoku(&[
        "solve",
        "0x0000056070423000000000000000000000000000000000000000800100000000",
        "--json",
    ]));
    assert_keys(&v, SOLVE_KEYS);
    assert_eq!(v["solution"], Value::Null);
    assert_eq!(v["valid"], false);
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("row 2")));
}

#[test]
fn solve_rejects_digits_above_eight_as_bad_input() {
    let out = octoku(&["solve", "0x9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds 9"));
}

#[test]
fn audit_covers_every_cell_set_and_reports_unsolvable_classes() {
    let out = octoku(&["audit", "--json"]);
    let v = ok_json(&out);
    assert_keys(
        &v,
        &[
            "cell_sets",
            "expected_cell_sets",
            "classes",
            "symmetries",
            "unsolvable",
            "unsolvable_cell_sets",
            "unsolvable_fraction",
            "fewer_givens",
            "exhaustion_probability_bound",
            "threads",
            "seconds",
        ],
    );
    assert_eq!(v["cell_sets"], 4_426_165_368u64);
    assert_eq!(v["classes"], 55_471);
    assert_eq!(v["unsolvable_cell_sets"], 15_001_320);
    let fewer = v["fewer_givens"].as_array().unwrap();
    assert_eq!(fewer.len(), 7);
    assert_keys(
        &fewer[4],
        &[
            "givens",
            "cell_sets",
            "classes",
            "unsolvable_classes",
            "unsolvable_cell_sets",
        ],
    );
    assert_eq!(
        (
            fewer[4]["givens"].clone(),
            fewer[4]["unsolvable_cell_sets"].clone()
        ),
        (5.into(), 448.into())
    );
    let classes = v["unsolvable"].as_array().unwrap();
    assert!(!classes.is_empty());
    let total: u64 = classes.iter().map(|c| c["size"].as_u64().unwrap()).sum();
    assert_eq!(v["unsolvable_cell_sets"].as_u64(), Some(total));
    for class in classes.iter().take(50) {
        let board: octoku_core::Board = class["example"].as_str().unwrap().parse().unwrap();
        assert_eq!(board.givens(), 8);
        assert_eq!(
            octoku_core::solve::octoku::solve(board),
            Ok(None),
            "{board} should have no solution"
        );
    }
}

#[test]
fn the_fair_puzzle_solves_the_dead_end_address() {
    let fair = octoku(&["solve", "--address", DEAD_END, "--puzzle", "fair", "--json"]);
    let v = ok_json(&fair);
    assert_eq!(v["valid"], true);
    assert_eq!(v["puzzle"], "fair");
    assert_eq!(
        v["start"],
        "0x0000053020517000000000000000000000000000000000000000600300000000"
    );
}

#[test]
fn sample_finds_dead_ends_in_the_published_puzzle_and_none_in_the_fair_one() {
    let fair = octoku(&[
        "sample",
        "--puzzle",
        "fair",
        "--addresses",
        "20000",
        "--check-every",
        "50",
        "--json",
    ]);
    let v = ok_json(&fair);
    assert_keys(
        &v,
        &[
            "puzzle",
            "seed",
            "from",
            "addresses",
            "solvable",
            "unsolvable",
            "unique",
            "short_boards",
            "contract_checked",
            "contract_mismatch",
            "unsolvable_examples",
            "threads",
            "seconds",
            "per_second",
        ],
    );
    assert_eq!(v["addresses"], 20000);
    assert_eq!(v["solvable"], 20000);
    assert_eq!(v["unsolvable"], 0);
    assert_eq!(v["contract_checked"], 400);
    assert_eq!(v["contract_mismatch"], Value::Null);

    // About 0.34% of published boards have no solution: ~68 of 20,000.
    let published = octoku(&[
        "sample",
        "--puzzle",
        "reference",
        "--addresses",
        "20000",
        "--json",
    ]);
    assert_eq!(published.status.code(), Some(1));
    let v = json(&published);
    let dead = v["unsolvable"].as_u64().unwrap();
    assert!((20..=150).contains(&dead), "{dead}");
    let example = &v["unsolvable_examples"][0];
    assert_keys(example, &["index", "address", "start"]);
    let board = example["start"].as_str().unwrap();
    let again = octoku(&["solve", board, "--json"]);
    assert_eq!(
        again.status.code(),
        Some(1),
        "the example really has no solution"
    );
    assert_eq!(json(&again)["solutions"], 0);

    let zero = octoku(&["sample", "--addresses", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}

#[test]
fn puzzle_flag_takes_the_three_implementations_and_names_them_on_error() {
    for puzzle in ["reference", "golf", "fair"] {
        let out = octoku(&["verify", START, SOLUTION, "--puzzle", puzzle, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{puzzle}");
        let fuzz = octoku(&["fuzz", "--cases", "2000", "--puzzle", puzzle, "--json"]);
        assert_eq!(fuzz.status.code(), Some(0), "{puzzle}");
        let v = json(&fuzz);
        assert_eq!(v["puzzles"], serde_json::json!([puzzle]));
        assert_keys(
            &v,
            &[
                "puzzles",
                "seed",
                "from",
                "cases",
                "threads",
                "seconds",
                "per_second",
                "mismatch",
            ],
        );
        assert_eq!(
            (v["cases"].clone(), v["mismatch"].clone()),
            (2000.into(), Value::Null)
        );
    }
    let bad = octoku(&[
        "generate",
        "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        "--puzzle",
        "bogus",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("invalid value 'bogus' for '--puzzle <PUZZLE>'")
            && err.contains("[possible values: reference, golf, fair]"),
        "{err}"
    );
}

// ---- issue 13: robustness ----------------------------------------------

const ME: &str = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/// Runs octoku with stdout connected to `stdout`.
fn octoku_to(args: &[&str], stdout: std::process::Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("octoku runs")
}

/// Asserts exit `code`, no panic, one line on stderr containing `needle`.
fn one_line_failure(out: &Output, code: i32, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

/// Finding 2: a full disk or a closed pipe on stdout is exit 6 with one
/// line, never a panic (exit 101).
#[test]
fn a_full_disk_or_closed_pipe_on_stdout_is_exit_six_not_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = octoku_to(&["generate", ME], full.into());
    one_line_failure(&out, 6, "cannot write to standard output");

    // A reader that is gone before octoku writes a byte.
    for args in [
        &["generate", ME][..],
        &["verify", START, SOLUTION, "--json"],
        &["completions", "bash"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = octoku_to(args, writer.into());
        one_line_failure(&out, 6, "Broken pipe");
    }
}

/// Finding 3: count arguments are bounded: out of range is clap's one
/// error, exit 2, before anything is allocated or spawned.
#[test]
fn huge_counts_are_refused_with_exit_two_not_an_abort() {
    for (args, flag) in [
        (&["audit", "--threads", "100000"][..], "--threads"),
        (&["gas", "--runs", "4000000000"], "--runs"),
        (&["fuzz", "--threads", "0"], "--threads"),
        (
            &["sample", "--addresses", "99999999999999999"],
            "--addresses",
        ),
        (
            &["solve", "--address", ME, "--count", "18446744073709551615"],
            "--count",
        ),
    ] {
        let out = octoku(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: invalid value"), "{args:?}: {err}");
        assert!(
            err.contains(flag) && err.contains("is not in"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// Finding 4: usage errors are clap's own: the missing argument named,
/// the suggestions kept, usage printed, exit 2.
#[test]
fn usage_errors_are_clap_own_with_usage_and_tips() {
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["generate"],
            &[
                "the following required arguments were not provided:",
                "<ADDRESS>",
                "Usage: octoku generate",
            ],
        ),
        (
            &["generate", ME, "--jsno"],
            &[
                "unexpected argument '--jsno'",
                "tip: a similar argument exists: '--json'",
            ],
        ),
        (
            &["generat"],
            &[
                "unrecognized subcommand 'generat'",
                "tip: a similar subcommand exists: 'generate'",
            ],
        ),
        (
            &["verify", "0", "-5"],
            &[
                "unexpected argument '-5' found",
                "tip: to pass '-5' as a value, use '-- -5'",
            ],
        ),
        (
            &["solve", "--address", ME, "--count", "99999999999"],
            &[
                "--count",
                "is not in 1..=1000000",
                "For more information, try '--help'",
            ],
        ),
    ];
    for (args, needles) in cases {
        let out = octoku(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        for needle in needles {
            assert!(
                err.contains(needle),
                "{args:?}: expected {needle:?} in: {err}"
            );
        }
        assert!(!err.contains("expected a subcommand such as"), "{err}");
    }
    // Help and version are answers, on stdout, exit 0.
    let help = octoku(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: octoku"));
}

/// Finding 9: the board forms do not overlap, and errors name the form read.
#[test]
fn a_grid_with_a_cell_too_many_is_refused_not_read_as_decimal() {
    let ones = "1".repeat(65);
    let out = octoku(&["verify", START, &ones]);
    one_line_failure(
        &out,
        2,
        "SOLUTION: 65 digits 0-8: a grid must have exactly 64 cells",
    );
    let out = octoku(&["verify", START, "0x12g"]);
    one_line_failure(&out, 2, "SOLUTION (read as 0x hex):");
    let out = octoku(&["verify", &format!("{}9", "1".repeat(63)), SOLUTION]);
    one_line_failure(&out, 2, "START (read as a grid):");
}

/// Finding 11: every exit status is documented in --help, and they are distinct.
#[test]
fn exit_statuses_are_listed_in_help() {
    let help = String::from_utf8(octoku(&["--help"]).stdout).unwrap();
    let section = help
        .split("Exit status:")
        .nth(1)
        .expect("an Exit status section");
    let codes: Vec<&str> = section
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(
        codes,
        ["0", "1", "2", "3", "4", "5", "6", "130"],
        "{section}"
    );
    assert!(section.contains("the contract reverted"), "{section}");
    assert!(section.contains("invalid solution"), "{section}");
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = octoku(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(
            script.contains("leaderboard") && script.contains("keystore"),
            "{shell}"
        );
    }
    let out = octoku(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn gas_json_has_the_snapshot_rows_and_deployments() {
    let v = ok_json(&octoku(&["gas", "--runs", "200", "--json"]));
    assert_keys(&v, &["runs", "rows", "deployments"]);
    let rows = v["rows"].as_array().unwrap();
    // 15 rows of the 8×8 puzzles, then 16 of the 9×9 validators.
    assert_eq!(rows.len(), 31);
    assert_keys(
        &rows[0],
        &[
            "puzzle", "size", "function", "case", "min", "median", "max", "ratio",
        ],
    );
    assert_eq!(
        (
            &rows[16]["puzzle"],
            &rows[16]["size"],
            &rows[16]["function"],
            &rows[16]["max"]
        ),
        (
            &Value::from("golf"),
            &Value::from(9),
            &Value::from("isValid"),
            &Value::from(1323)
        )
    );
    // The first row of gas-snapshot.txt.
    assert_eq!(
        (&rows[0]["puzzle"], &rows[0]["function"], &rows[0]["case"]),
        (
            &Value::from("reference"),
            &Value::from("generate"),
            &Value::from("random-address")
        )
    );
    assert_eq!(
        (&rows[0]["min"], &rows[0]["median"], &rows[0]["max"]),
        (&Value::from(2927), &Value::from(2927), &Value::from(3351))
    );
    let deployments = v["deployments"].as_array().unwrap();
    assert_keys(&deployments[2], &["puzzle", "size", "gas", "runtime_size"]);
    assert_eq!(deployments[2]["puzzle"], "fair");
    assert_eq!(deployments[2]["gas"], 235_228);
    assert_eq!(deployments[2]["runtime_size"], 844);
}

#[test]
fn gas_profile_json_breaks_the_call_down_by_opcode_and_line() {
    let v = ok_json(&octoku(&[
        "gas",
        "--profile",
        "verify",
        START,
        SOLUTION,
        "--json",
    ]));
    assert_keys(
        &v,
        &[
            "puzzle",
            "function",
            "gas",
            "success",
            "by_opcode",
            "by_line",
        ],
    );
    assert_eq!(v["puzzle"], "reference");
    assert_eq!(v["function"], "verify");
    assert_eq!(v["success"], true);
    let gas = v["gas"].as_u64().unwrap();
    let by_opcode = v["by_opcode"].as_array().unwrap();
    assert_keys(&by_opcode[0], &["opcode", "count", "gas"]);
    let by_line = v["by_line"].as_array().unwrap();
    assert_keys(&by_line[0], &["location", "source", "count", "gas"]);
    // Every instruction's gas is counted once in each breakdown.
    let sum = |rows: &[Value]| rows.iter().map(|r| r["gas"].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum(by_opcode), gas);
    assert_eq!(sum(by_line), gas);
}

/// Starts `octoku ARGS`, sends Ctrl-C (SIGINT) after `after`, and returns
/// its output.
fn interrupt_after(args: &[&str], after: std::time::Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// The `--from N` in an interrupted run's message.
fn resume_point(err: &str) -> u64 {
    err.split("--from ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no --from in: {err}"))
}

/// Ctrl-C during fuzz and sample says what was done and the command that
/// resumes (exit 130); the resumed range runs; Ctrl-C during audit says how
/// far it got.
#[test]
fn ctrl_c_says_what_was_done_and_how_to_resume() {
    let long = std::time::Duration::from_millis(1500);
    let out = interrupt_after(&["fuzz", "--cases", "100000000", "--threads", "2"], long);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        err.contains("octoku: interrupted: cases 0..") && err.contains("no disagreement"),
        "{err}"
    );
    let next = resume_point(&err);
    assert!(next > 0 && next < 100_000_000, "{err}");
    assert!(
        err.contains(&format!("--cases {}", 100_000_000 - next)),
        "{err}"
    );
    let resumed = octoku(&[
        "fuzz",
        "--from",
        &next.to_string(),
        "--cases",
        "500",
        "--json",
    ]);
    assert_eq!(ok_json(&resumed)["from"], next);

    let out = interrupt_after(
        &["sample", "--addresses", "1000000000", "--threads", "2"],
        long,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("octoku: interrupted: addresses 0.."), "{err}");
    let next = resume_point(&err);
    assert_eq!(next % 1024, 0, "resumes at a batch start: {err}");
    let resumed = octoku(&[
        "sample",
        "--from",
        &next.to_string(),
        "--addresses",
        "100",
        "--json",
    ]);
    let v = ok_json(&resumed);
    assert_eq!(
        (v["from"].as_u64(), v["addresses"].as_u64()),
        (Some(next), Some(100))
    );

    let out = interrupt_after(
        &["audit", "--threads", "1"],
        std::time::Duration::from_millis(300),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        err.contains("octoku: interrupted:") && err.contains("classes of 8-cell sets solved"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// A file that is not a keystore is refused before any password prompt
/// (stdin is no terminal here: a prompt would fail differently), and an
/// account name with a path in it is refused.
#[test]
fn a_non_keystore_is_refused_before_asking_for_a_password() {
    let dir = std::env::temp_dir().join(format!("octoku-cli-keystore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.json");
    std::fs::write(&file, "{}").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(["play", "--keystore", file.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    one_line_failure(
        &out,
        2,
        "no \"crypto\" section; expected a Web3 Secret Storage (v3) keystore",
    );
    let out = octoku(&["play", "--account", "../k.json"]);
    one_line_failure(&out, 2, "no path separators");
    std::fs::remove_dir_all(&dir).unwrap();
}

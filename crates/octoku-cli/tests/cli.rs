//! The `octoku` binary end to end: public vectors through the CLI, exit
//! statuses, clap's own usage errors, output errors (full disk, closed
//! pipe) that never panic, and Ctrl-C. Refusals of bad input are tabled in
//! refusals.rs.

use std::time::{Duration, Instant};

use octoku_testkit::{Run, assert_keys, octoku};
use serde_json::Value;

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
        let v = octoku!(&["generate", address, "--json"]).json();
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
    let valid = octoku!(&["verify", START, SOLUTION, "--json"]).json();
    assert_eq!(valid["valid"], true);
    assert_keys(
        &valid,
        &[
            "valid", "puzzle", "start", "solution", "gas", "reason", "problems",
        ],
    );
    assert_eq!(valid["reason"], Value::Null);

    let wrong = "0x7235861418463257457361828621457323681745541728366784532131527467";
    let v = octoku!(&["verify", START, wrong, "--json"]).json_with(1);
    assert_eq!(v["valid"], false);
    assert_eq!(v["reason"], "row 8 column 8: the given 8 was changed to 7");

    octoku!(&["verify", "0", SOLUTION, "--json"]).ok();
}

#[test]
fn verify_accepts_grid_and_decimal_forms() {
    let grid = "7235861418463257457361828621457323681745541728366784532131527468";
    let dotted = ".".repeat(64);
    octoku!(&["verify", &dotted, grid, "--json"]).ok();
    // START as a decimal number.
    let decimal = "77133036852274463706392900087870233651607206791455757163429896";
    let v = octoku!(&["verify", decimal, grid, "--json"]).json();
    assert_eq!(v["start"], START);
}

#[test]
fn solve_by_address_returns_a_solution_the_contract_verifies() {
    let v = octoku!(&[
        "solve",
        "--address",
        "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        "--json",
        "--count",
        "3",
    ])
    .json();
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
    let v = octoku!(&["solve", start, "--json", "--count", "10"]).json();
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["solution"], SOLUTION);
}

/// The example address: its published board has no solution; the
/// fair puzzle gives it the same cells of a valid grid.
const DEAD_END: &str = "0xe0522c0611b8c66a5b429ad403b92e84c11173be";

#[test]
fn solve_on_an_unsolvable_board_says_why_and_prints_no_solution() {
    let run = octoku!(&["solve", "--address", DEAD_END]);
    let stdout = run.code(1);
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
    let v = octoku!(&[
        "solve",
        "0x0000056070423000000000000000000000000000000000000000800100000000",
        "--json",
    ])
    .json_with(1);
    assert_keys(&v, SOLVE_KEYS);
    assert_eq!(v["solution"], Value::Null);
    assert_eq!(v["valid"], false);
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("row 2")));
}

#[test]
fn audit_covers_every_cell_set_and_reports_unsolvable_classes() {
    let v = octoku!(&["audit", "--json"]).json();
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
    let v = octoku!(&["solve", "--address", DEAD_END, "--puzzle", "fair", "--json"]).json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["puzzle"], "fair");
    assert_eq!(
        v["start"],
        "0x0000053020517000000000000000000000000000000000000000600300000000"
    );
}

#[test]
fn sample_finds_dead_ends_in_the_published_puzzle_and_none_in_the_fair_one() {
    let v = octoku!(&[
        "sample",
        "--puzzle",
        "fair",
        "--addresses",
        "20000",
        "--check-every",
        "50",
        "--json",
    ])
    .json();
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
    let v = octoku!(&[
        "sample",
        "--puzzle",
        "reference",
        "--addresses",
        "20000",
        "--json",
    ])
    .json_with(1);
    let dead = v["unsolvable"].as_u64().unwrap();
    assert!((20..=150).contains(&dead), "{dead}");
    let example = &v["unsolvable_examples"][0];
    assert_keys(example, &["index", "address", "start"]);
    let board = example["start"].as_str().unwrap();
    // The example really has no solution.
    let again = octoku!(&["solve", board, "--json"]).json_with(1);
    assert_eq!(again["solutions"], 0);
}

#[test]
fn puzzle_flag_takes_the_three_implementations_and_names_them_on_error() {
    for puzzle in ["reference", "golf", "fair"] {
        octoku!(&["verify", START, SOLUTION, "--puzzle", puzzle, "--json"]).ok();
        let v = octoku!(&["fuzz", "--cases", "2000", "--puzzle", puzzle, "--json"]).json();
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
    let bad = octoku!(&[
        "generate",
        "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        "--puzzle",
        "bogus",
    ]);
    let err = &bad.stderr;
    bad.code(2);
    assert!(
        err.contains("invalid value 'bogus' for '--puzzle <PUZZLE>'")
            && err.contains("[possible values: reference, golf, fair]"),
        "{err}"
    );
}

const ME: &str = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/// A full disk or a closed pipe on stdout is exit 6 with one line, never
/// a panic (exit 101).
#[test]
fn a_full_disk_or_closed_pipe_on_stdout_is_exit_six_not_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    octoku!()
        .args(["generate", ME])
        .stdout(full)
        .run()
        .fails(6, "cannot write to standard output");

    // A reader that is gone before octoku writes a byte.
    for args in [
        &["generate", ME][..],
        &["verify", START, SOLUTION, "--json"],
        &["completions", "bash"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        octoku!()
            .args(args)
            .stdout(writer)
            .run()
            .fails(6, "Broken pipe");
    }
}

/// Usage errors are clap's own: the missing argument named, the
/// suggestions kept, usage printed, exit 2.
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
        let run = octoku!(args);
        let err = &run.stderr;
        run.code(2);
        for needle in needles {
            assert!(
                err.contains(needle),
                "{args:?}: expected {needle:?} in: {err}"
            );
        }
        assert!(!err.contains("expected a subcommand such as"), "{err}");
    }
    // Help and version are answers, on stdout, exit 0.
    assert!(octoku!(&["--help"]).ok().contains("Usage: octoku"));
}

/// Every exit status is documented in --help, and they are distinct.
#[test]
fn exit_statuses_are_listed_in_help() {
    let help = octoku!(&["--help"]).ok().to_string();
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
        ["0", "1", "2", "3", "4", "5", "6", "7", "130"],
        "{section}"
    );
    assert!(section.contains("the contract reverted"), "{section}");
    assert!(section.contains("invalid solution"), "{section}");
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = octoku!(&["completions", shell]);
        let script = run.ok();
        assert!(
            script.contains("leaderboard") && script.contains("keystore"),
            "{shell}"
        );
    }
    let run = octoku!(&["completions", "tcsh"]);
    run.code(2);
    assert!(run.stderr.contains("possible values"), "{}", run.stderr);
}

#[test]
fn gas_json_has_the_snapshot_rows_and_deployments() {
    let v = octoku!(&["gas", "--runs", "200", "--json"]).json();
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
            &Value::from(1059)
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
    let v = octoku!(&["gas", "--profile", "verify", START, SOLUTION, "--json"]).json();
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

/// Starts `octoku ARGS`, lets it work until it has used `cpu` of CPU time
/// (so a loaded machine cannot make it stop before doing anything), sends
/// Ctrl-C (SIGINT) and returns what it did.
fn interrupt_after(args: &[&str], cpu: Duration) -> Run {
    let running = octoku!().args(args).spawn().expect("octoku starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while running.cpu_time() < cpu {
        assert!(Instant::now() < deadline, "{args:?} did no work in 120 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    running.interrupt();
    running.finish()
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
    let long = Duration::from_millis(1500);
    let out = interrupt_after(&["fuzz", "--cases", "100000000", "--threads", "2"], long);
    let err = &out.stderr;
    out.code(130);
    assert!(
        err.contains("octoku: interrupted: cases 0..") && err.contains("no disagreement"),
        "{err}"
    );
    let next = resume_point(err);
    assert!(next > 0 && next < 100_000_000, "{err}");
    assert!(
        err.contains(&format!("--cases {}", 100_000_000 - next)),
        "{err}"
    );
    let resumed = octoku!(&[
        "fuzz",
        "--from",
        &next.to_string(),
        "--cases",
        "500",
        "--json",
    ]);
    assert_eq!(resumed.json()["from"], next);

    let out = interrupt_after(
        &["sample", "--addresses", "1000000000", "--threads", "2"],
        long,
    );
    let err = &out.stderr;
    out.code(130);
    assert!(err.contains("octoku: interrupted: addresses 0.."), "{err}");
    let next = resume_point(err);
    assert_eq!(next % 1024, 0, "resumes at a batch start: {err}");
    let v = octoku!(&[
        "sample",
        "--from",
        &next.to_string(),
        "--addresses",
        "100",
        "--json",
    ])
    .json();
    assert_eq!(
        (v["from"].as_u64(), v["addresses"].as_u64()),
        (Some(next), Some(100))
    );

    let out = interrupt_after(&["audit", "--threads", "1"], Duration::from_millis(300));
    let err = &out.stderr;
    out.code(130);
    assert!(
        err.contains("octoku: interrupted:") && err.contains("classes of 8-cell sets solved"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// A library error reaches the line on stderr with its causes, each once:
/// the operating system's words for a keystore that is not there (exit 2),
/// serde_json's for a state file that is not JSON (exit 4), the refused
/// connection under an unreachable node (exit 4), never the URL's secrets.
#[test]
fn a_library_error_is_printed_with_its_cause_once() {
    let dir = octoku_testkit::temp_dir("causes");
    let once = |run: &Run, cause: &str| {
        assert_eq!(run.stderr.matches(cause).count(), 1, "{}", run.stderr);
    };
    let missing = dir.path().join("no-keystore.json");
    let run = octoku!()
        .dir(dir.path())
        .args(["play", "--keystore", &missing.display().to_string()])
        .run();
    run.fails(2, "cannot read it: No such file or directory");
    once(&run, "No such file or directory");

    let state = dir.path().join("chain.json");
    std::fs::write(&state, "{not json").unwrap();
    let run = octoku!()
        .dir(dir.path())
        .args(["board", "--state", &state.display().to_string()])
        .run();
    run.fails(
        4,
        "is not a valid state file: key must be a string at line 1 column 2",
    );
    once(&run, "key must be a string");

    // Port 9 on loopback (discard) refuses the connection at once.
    let run = octoku!()
        .dir(dir.path())
        .args([
            "board",
            "--rpc-url",
            "http://bob:hunter2@127.0.0.1:9/v2/AKEYAKEYAKEYAKEY?token=t0k3n",
        ])
        .run();
    run.fails(4, "cannot reach the node at http://<redacted>@127.0.0.1:9/");
    once(&run, "Connection refused");
    for secret in ["bob", "hunter2", "AKEYAKEYAKEYAKEY", "t0k3n"] {
        assert!(!run.stderr.contains(secret), "{secret} in {}", run.stderr);
    }
}

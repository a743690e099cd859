//! The Sudoku family through the `octoku` binary: `--size`/`--box` on solve
//! and verify, `octoku puzzle`, board arguments from files and standard
//! input, custom symbols and output forms, and one-line errors (exit 2).

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn octoku(args: &[&str]) -> Output {
    octoku_stdin(args, None)
}

/// Runs octoku with `input` on standard input.
fn octoku_stdin(args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("octoku runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    if let Some(text) = input {
        stdin
            .write_all(text.as_bytes())
            .expect("stdin takes the text");
    }
    drop(stdin);
    child.wait_with_output().expect("octoku finishes")
}

/// The JSON of a run that must exit with `code`.
fn json_with(output: &Output, code: i32) -> Value {
    assert_eq!(
        output.status.code(),
        Some(code),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A file with `text` in the system's temp dir, removed on drop.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("octoku-family-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("temp file written");
        TempFile(path)
    }
    fn arg(&self) -> String {
        format!("@{}", self.0.display())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Seed 002's easy puzzle and its stated solution.
const EASY: &str =
    ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.";
const EASY_SOLUTION: &str =
    "295743861431865927876192543387459216612387495549216738763524189928671354154938672";
/// Seed 003's example, byte for byte.
const SEED003: &str = "1 2 3 4 \n ,1, ,4\n4,2,1, \n ,3,4,2\n2, ,3, ";

#[test]
fn solve_size_9_answers_seed_002_with_its_solution_and_counts_it_unique() {
    let v = json_with(
        &octoku(&["solve", "--size", "9", EASY, "--count", "5", "--json"]),
        0,
    );
    assert_eq!(v["solution"], EASY_SOLUTION);
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["solutions_capped"], false);
    assert_eq!(v["size"], 9);
    assert_eq!(v["box"], "3x3");
}

#[test]
fn solve_reads_seed_003_from_a_file_and_answers_in_its_form() {
    let file = TempFile::new("seed003.txt", SEED003);
    let out = octoku(&["solve", "--size", "4", &file.arg()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "1 2 3 4\n3,1,2,4\n4,2,1,3\n1,3,4,2\n2,4,3,1\n"
    );
    let v = json_with(&octoku(&["solve", "--size", "4", &file.arg(), "--json"]), 0);
    assert_eq!(v["solution"], "3124421313422431");
}

#[test]
fn solve_reads_a_grid_from_standard_input_with_another_box_shape() {
    // 6x6 with 3x2 boxes (3 rows, 2 columns per box), as a grid.
    let puzzle = json_with(
        &octoku(&["puzzle", "--box", "3x2", "--seed", "5", "--json"]),
        0,
    );
    let line = puzzle["puzzle"].as_str().unwrap().to_owned();
    let grid = stdout(&octoku(&["puzzle", "--box", "3x2", "--seed", "5"]));
    assert!(grid.contains('|') && grid.contains('+'), "{grid}");
    let v = json_with(
        &octoku_stdin(&["solve", "--box", "3x2", "-", "--json"], Some(&grid)),
        0,
    );
    assert_eq!(v["solution"], puzzle["solution"]);
    assert_eq!(v["start"], line);
    assert_eq!(v["box"], "3x2");
}

#[test]
fn solve_counts_exactly_up_to_the_limit_and_says_when_capped() {
    let empty = ".".repeat(16);
    let v = json_with(
        &octoku(&["solve", "--size", "4", &empty, "--count", "300", "--json"]),
        0,
    );
    assert_eq!(v["solutions"], 288); // every 4x4 grid
    assert_eq!(v["solutions_capped"], false);
    let out = octoku(&["solve", "--size", "4", &empty, "--count", "10"]);
    assert!(
        stdout(&out).ends_with("solutions 10 (stopped at the limit)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn solve_without_a_solution_exits_one_with_the_reason() {
    let board = format!("{:.<81}", "11");
    let out = octoku(&["solve", "--size", "9", &board]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "no solution for this 9x9 (3x3 boxes) board: row 1 holds 1 twice\n"
    );
    let v = json_with(&octoku(&["solve", "--size", "9", &board, "--json"]), 1);
    assert_eq!(v["solution"], Value::Null);
    assert_eq!(v["reason"], "row 1 holds 1 twice");
}

#[test]
fn custom_symbols_are_read_and_written_and_formats_are_chosen() {
    let out = octoku(&[
        "solve",
        "--size",
        "4",
        "--symbols",
        "wxyz",
        "w..z..w..w.....w",
        "--format",
        "line",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout(&out);
    assert_eq!(line.trim().len(), 16);
    assert!(
        line.starts_with('w') && line.trim().chars().all(|c| "wxyz".contains(c)),
        "{line}"
    );
    let v = json_with(
        &octoku(&[
            "solve",
            "--size",
            "4",
            "--symbols",
            "wxyz",
            "w..z..w..w.....w",
            "--json",
        ]),
        0,
    );
    assert_eq!(v["solution"].as_str().unwrap(), line.trim());
    let seed = stdout(&octoku(&[
        "solve",
        "--size",
        "4",
        "--symbols",
        "α β γ δ",
        "α..δ............",
        "--format",
        "seed003",
    ]));
    assert!(seed.starts_with("α β γ δ\nα,"), "{seed}");
}

#[test]
fn verify_with_an_empty_start_asks_whether_the_grid_is_solved() {
    let v = json_with(
        &octoku(&["verify", "--size", "9", "", EASY_SOLUTION, "--json"]),
        0,
    );
    assert_eq!(v["valid"], true);
    let mut broken = EASY_SOLUTION.to_owned();
    broken.replace_range(80..81, "3");
    let v = json_with(
        &octoku(&["verify", "--size", "9", "", &broken, "--json"]),
        1,
    );
    assert_eq!(v["valid"], false);
    assert_eq!(v["reason"], "row 9 repeats 3 (columns 5 and 9)");
    assert_eq!(v["problems"][1], "row 9 misses 2");
    let out = octoku(&["verify", "--size", "9", "", &broken]);
    assert!(stdout(&out).starts_with("invalid  "), "{}", stdout(&out));
}

#[test]
fn verify_checks_the_givens_of_a_start() {
    let v = json_with(
        &octoku(&["verify", "--size", "9", EASY, EASY_SOLUTION, "--json"]),
        0,
    );
    assert_eq!(v["valid"], true);
    let other = ".1.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.";
    let v = json_with(
        &octoku(&["verify", "--size", "9", other, EASY_SOLUTION, "--json"]),
        1,
    );
    assert_eq!(v["reason"], "row 1 column 2: the given 1 was changed to 9");
}

#[test]
fn puzzle_is_unique_reproducible_and_hits_its_givens() {
    let args = [
        "puzzle", "--size", "16", "--givens", "140", "--seed", "3", "--json",
    ];
    let v = json_with(&octoku(&args), 0);
    let again = json_with(&octoku(&args), 0);
    assert_eq!(v, again);
    let puzzle = v["puzzle"].as_str().unwrap();
    assert_eq!(puzzle.chars().filter(|&c| c != '.').count(), 140);
    assert_eq!(v["givens"], 140);
    let solved = json_with(
        &octoku(&["solve", "--size", "16", puzzle, "--count", "2", "--json"]),
        0,
    );
    assert_eq!(solved["solutions"], 1);
    assert_eq!(solved["solution"], v["solution"]);
    let out = octoku(&["puzzle", "--size", "9", "--seed", "1"]);
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(
        summary.contains("exactly one solution (seed 1"),
        "{summary}"
    );
    // stdout is the board alone: it pipes into solve.
    let piped = octoku_stdin(
        &["solve", "--size", "9", "-", "--count", "2", "--json"],
        Some(&stdout(&out)),
    );
    assert_eq!(json_with(&piped, 0)["solutions"], 1);
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn json_answers_have_exactly_the_documented_keys() {
    let solved = json_with(&octoku(&["solve", "--size", "9", EASY, "--json"]), 0);
    assert_eq!(
        keys(&solved),
        [
            "box",
            "reason",
            "size",
            "solution",
            "solutions",
            "solutions_capped",
            "start"
        ]
    );
    let verdict = json_with(
        &octoku(&["verify", "--size", "9", "", EASY_SOLUTION, "--json"]),
        0,
    );
    assert_eq!(
        keys(&verdict),
        ["box", "problems", "reason", "size", "valid"]
    );
    let made = json_with(
        &octoku(&["puzzle", "--size", "6", "--seed", "2", "--json"]),
        0,
    );
    assert_eq!(
        keys(&made),
        ["box", "givens", "puzzle", "seed", "size", "solution"]
    );
}

#[test]
fn without_size_the_8x8_commands_are_unchanged() {
    let start = "0x0000000000003000007001000000000000000040500000060000000000020008";
    let v = json_with(&octoku(&["solve", start, "--json"]), 0);
    assert_eq!(v["valid"], true);
    assert!(v["gas"].as_u64().is_some_and(|g| g > 0));
}

#[test]
fn bad_sized_input_gets_one_line_and_exit_two() {
    let missing = std::env::temp_dir().join("octoku-family-no-such-file");
    let missing = format!("@{}", missing.display());
    let header_twice = TempFile::new("twice.txt", "a b a d\n , , , \n , , , \n , , , \n , , , ");
    let twice = header_twice.arg();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", "--size", "7", "...."],
            "--size 7: no board of size 7",
        ),
        (
            vec!["solve", "--box", "4x5", "...."],
            "--box 4x5: boxes of 4x5 make a 20x20 board",
        ),
        (
            vec!["solve", "--box", "3by3", "...."],
            "--box 3by3: expected rows x columns",
        ),
        (
            vec!["solve", "--size", "9", "--box", "2x4", "...."],
            "--box 2x4 makes a 8x8 board but --size is 9",
        ),
        (
            vec!["solve", "--size", "9", "...."],
            "START: line form: 4 symbols; expected 81",
        ),
        (
            vec!["solve", "--size", "4", "12X4............"],
            "START: line form: row 1 column 3 is `X`",
        ),
        (
            vec!["solve", "--size", "4", &twice],
            "START: symbols: `a` is listed twice",
        ),
        (
            vec!["solve", "--size", "4", "1,2,3,4\n1,2,3,4"],
            "START: mixed forms",
        ),
        (vec!["solve", "--size", "9", &missing], "START: cannot read"),
        (
            vec!["solve", "--size", "4", "--symbols", "abca", "...."],
            "--symbols: symbols: `a` is listed twice",
        ),
        (
            vec!["solve", "--size", "4", "--symbols", "abcde", "...."],
            "--symbols: 5 given",
        ),
        (
            vec!["solve", "--symbols", "abcd", "0x1"],
            "--symbols applies to boards of any size",
        ),
        (
            vec!["verify", "--size", "9", "-", "-"],
            "standard input (-) can hold one board",
        ),
        (
            vec!["puzzle", "--size", "9", "--givens", "10", "--seed", "1"],
            "--givens 10 is out of reach",
        ),
        (
            vec!["puzzle", "--size", "4", "--givens", "17"],
            "--givens 17 is more than the 16 cells",
        ),
        (vec!["puzzle"], "no board size; expected --size N"),
    ];
    for (args, want) in cases {
        let out = octoku(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("octoku: "), "{args:?}: {stderr}");
        assert!(
            stderr.contains(want),
            "{args:?}\n got: {stderr}\nwant: {want}"
        );
        assert!(stderr.contains("expected"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

/// `solve --sat` with `--size`/`--box` gives the same first solution and the
/// same count as the core solver, on a 9×9 (unique) and a 4×4 (several).
#[test]
fn solve_sat_with_size_agrees_with_the_core_solver_on_9x9_and_4x4() {
    let empty4 = ".".repeat(16);
    let cases: [(&[&str], &str, &str); 3] = [
        (&["--size", "9"], EASY, "2"),
        (&["--size", "4"], "1.3..........2.1", "2"),
        (&["--box", "2x2"], &empty4, "3"),
    ];
    for (shape, board, count) in cases {
        let run = |sat: bool| {
            let mut args = vec!["solve"];
            args.extend_from_slice(shape);
            args.extend([board, "--count", count, "--json"]);
            if sat {
                args.push("--sat");
            }
            json_with(&octoku(&args), 0)
        };
        let (core, sat) = (run(false), run(true));
        assert_eq!(sat["solutions"], core["solutions"], "{board}");
        assert!(sat["solution"].is_string(), "{board}: {sat}");
        if core["solutions"] == 1 {
            assert_eq!(sat["solution"], core["solution"], "{board}");
        }
    }
}

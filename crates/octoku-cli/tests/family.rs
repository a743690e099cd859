//! The Sudoku family through the `octoku` binary: `--size`/`--box` on solve
//! and verify, `octoku puzzle`, board arguments from files and standard
//! input, custom symbols and output forms. Refusals of bad input are
//! tabled in refusals.rs.

use octoku_testkit::{TempDir, octoku, temp_dir};
use serde_json::Value;

/// A file holding `text` in a fresh temp dir, and its `@PATH` argument.
fn file_arg(name: &str, text: &str) -> (TempDir, String) {
    let dir = temp_dir("family");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("temp file written");
    let arg = format!("@{}", path.display());
    (dir, arg)
}

/// An easy 9×9 puzzle and its one solution.
const EASY: &str =
    ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.";
const EASY_SOLUTION: &str =
    "295743861431865927876192543387459216612387495549216738763524189928671354154938672";
/// A 4×4 board in the header form (symbols header, comma-separated rows), byte for byte.
const SEED003: &str = "1 2 3 4 \n ,1, ,4\n4,2,1, \n ,3,4,2\n2, ,3, ";

#[test]
fn solve_size_9_answers_an_easy_puzzle_with_its_solution_and_counts_it_unique() {
    let v = octoku!(&["solve", "--size", "9", EASY, "--count", "5", "--json"]).json();
    assert_eq!(v["solution"], EASY_SOLUTION);
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["solutions_capped"], false);
    assert_eq!(v["size"], 9);
    assert_eq!(v["box"], "3x3");
}

#[test]
fn solve_reads_a_header_form_file_and_answers_in_its_form() {
    let (_dir, file) = file_arg("seed003.txt", SEED003);
    assert_eq!(
        octoku!(&["solve", "--size", "4", &file]).ok(),
        "1 2 3 4\n3,1,2,4\n4,2,1,3\n1,3,4,2\n2,4,3,1\n"
    );
    let v = octoku!(&["solve", "--size", "4", &file, "--json"]).json();
    assert_eq!(v["solution"], "3124421313422431");
}

#[test]
fn solve_reads_a_grid_from_standard_input_with_another_box_shape() {
    // 6x6 with 3x2 boxes (3 rows, 2 columns per box), as a grid.
    let puzzle = octoku!(&["puzzle", "--box", "3x2", "--seed", "5", "--json"]).json();
    let line = puzzle["puzzle"].as_str().unwrap().to_owned();
    let grid = octoku!(&["puzzle", "--box", "3x2", "--seed", "5"]).stdout;
    assert!(grid.contains('|') && grid.contains('+'), "{grid}");
    let v = octoku!()
        .args(["solve", "--box", "3x2", "-", "--json"])
        .stdin(&grid)
        .run()
        .json();
    assert_eq!(v["solution"], puzzle["solution"]);
    assert_eq!(v["start"], line);
    assert_eq!(v["box"], "3x2");
}

#[test]
fn solve_counts_exactly_up_to_the_limit_and_says_when_capped() {
    let empty = ".".repeat(16);
    let v = octoku!(&["solve", "--size", "4", &empty, "--count", "300", "--json"]).json();
    assert_eq!(v["solutions"], 288); // every 4x4 grid
    assert_eq!(v["solutions_capped"], false);
    let out = octoku!(&["solve", "--size", "4", &empty, "--count", "10"]);
    assert!(
        out.stdout
            .ends_with("solutions 10 (stopped at the limit)\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn solve_without_a_solution_exits_one_with_the_reason() {
    let board = format!("{:.<81}", "11");
    assert_eq!(
        octoku!(&["solve", "--size", "9", &board]).code(1),
        "no solution for this 9x9 (3x3 boxes) board: row 1 holds 1 twice\n"
    );
    let v = octoku!(&["solve", "--size", "9", &board, "--json"]).json_with(1);
    assert_eq!(v["solution"], Value::Null);
    assert_eq!(v["reason"], "row 1 holds 1 twice");
}

#[test]
fn custom_symbols_are_read_and_written_and_formats_are_chosen() {
    let solve = [
        "solve",
        "--size",
        "4",
        "--symbols",
        "wxyz",
        "w..z..w..w.....w",
    ];
    let out = octoku!(&[&solve[..], &["--format", "line"]].concat());
    let line = out.ok();
    assert_eq!(line.trim().len(), 16);
    assert!(
        line.starts_with('w') && line.trim().chars().all(|c| "wxyz".contains(c)),
        "{line}"
    );
    let v = octoku!(&[&solve[..], &["--json"]].concat()).json();
    assert_eq!(v["solution"].as_str().unwrap(), line.trim());
    let seed = octoku!(&[
        "solve",
        "--size",
        "4",
        "--symbols",
        "α β γ δ",
        "α..δ............",
        "--format",
        "seed003",
    ])
    .stdout;
    assert!(seed.starts_with("α β γ δ\nα,"), "{seed}");
}

#[test]
fn verify_with_an_empty_start_asks_whether_the_grid_is_solved() {
    let v = octoku!(&["verify", "--size", "9", "", EASY_SOLUTION, "--json"]).json();
    assert_eq!(v["valid"], true);
    let mut broken = EASY_SOLUTION.to_owned();
    broken.replace_range(80..81, "3");
    let v = octoku!(&["verify", "--size", "9", "", &broken, "--json"]).json_with(1);
    assert_eq!(v["valid"], false);
    assert_eq!(v["reason"], "row 9 repeats 3 (columns 5 and 9)");
    assert_eq!(v["problems"][1], "row 9 misses 2");
    let out = octoku!(&["verify", "--size", "9", "", &broken]);
    assert!(out.stdout.starts_with("invalid  "), "{}", out.stdout);
}

#[test]
fn verify_checks_the_givens_of_a_start() {
    let v = octoku!(&["verify", "--size", "9", EASY, EASY_SOLUTION, "--json"]).json();
    assert_eq!(v["valid"], true);
    let other = ".1.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.";
    let v = octoku!(&["verify", "--size", "9", other, EASY_SOLUTION, "--json"]).json_with(1);
    assert_eq!(v["reason"], "row 1 column 2: the given 1 was changed to 9");
}

#[test]
fn puzzle_is_unique_reproducible_and_hits_its_givens() {
    let args = [
        "puzzle", "--size", "16", "--givens", "140", "--seed", "3", "--json",
    ];
    let v = octoku!(&args).json();
    let again = octoku!(&args).json();
    assert_eq!(v, again);
    let puzzle = v["puzzle"].as_str().unwrap();
    assert_eq!(puzzle.chars().filter(|&c| c != '.').count(), 140);
    assert_eq!(v["givens"], 140);
    let solved = octoku!(&["solve", "--size", "16", puzzle, "--count", "2", "--json"]).json();
    assert_eq!(solved["solutions"], 1);
    assert_eq!(solved["solution"], v["solution"]);
    let out = octoku!(&["puzzle", "--size", "9", "--seed", "1"]);
    let summary = &out.stderr;
    assert!(
        summary.contains("exactly one solution (seed 1"),
        "{summary}"
    );
    // stdout is the board alone: it pipes into solve.
    let piped = octoku!()
        .args(["solve", "--size", "9", "-", "--count", "2", "--json"])
        .stdin(&out.stdout)
        .run();
    assert_eq!(piped.json()["solutions"], 1);
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn json_answers_have_exactly_the_documented_keys() {
    let solved = octoku!(&["solve", "--size", "9", EASY, "--json"]).json();
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
    let verdict = octoku!(&["verify", "--size", "9", "", EASY_SOLUTION, "--json"]).json();
    assert_eq!(
        keys(&verdict),
        ["box", "problems", "reason", "size", "valid"]
    );
    let made = octoku!(&["puzzle", "--size", "6", "--seed", "2", "--json"]).json();
    assert_eq!(
        keys(&made),
        ["box", "givens", "puzzle", "seed", "size", "solution"]
    );
}

#[test]
fn without_size_the_8x8_commands_are_unchanged() {
    let start = "0x0000000000003000007001000000000000000040500000060000000000020008";
    let v = octoku!(&["solve", start, "--json"]).json();
    assert_eq!(v["valid"], true);
    assert!(v["gas"].as_u64().is_some_and(|g| g > 0));
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
            octoku!(&args).json()
        };
        let (core, sat) = (run(false), run(true));
        // The one JSON shape of `solve --sat`, the 8×8 contract board's.
        assert_eq!(
            keys(&sat),
            [
                "all_found",
                "found",
                "gas",
                "method",
                "puzzle",
                "seconds",
                "solution",
                "solutions",
                "solver",
                "solver_calls",
                "solver_seconds",
                "start",
                "unique",
                "valid"
            ],
            "{board}"
        );
        assert_eq!(sat["puzzle"], Value::Null);
        assert_eq!(sat["found"][0], sat["solution"]);
        assert_eq!(sat["solutions"], core["solutions"], "{board}");
        assert!(sat["solution"].is_string(), "{board}: {sat}");
        if core["solutions"] == 1 {
            assert_eq!(sat["solution"], core["solution"], "{board}");
        }
    }
}

/// A batch file: a comment, a blank line, a unique 9×9 puzzle, an
/// unsolvable one and an empty board (many solutions).
fn batch_file() -> (TempDir, String) {
    let unsolvable = format!("{:.<81}", "11");
    let text = format!(
        "# three puzzles\n\n{EASY}\n  {unsolvable}  \n{}\n",
        ".".repeat(81)
    );
    let (dir, arg) = file_arg("batch.txt", &text);
    (dir, arg[1..].to_owned())
}

/// The JSON lines of a batch run.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

#[test]
fn solve_batch_answers_each_line_and_skips_comments_and_blank_lines() {
    let (_dir, file) = batch_file();
    let out = octoku!(&["solve", "--size", "9", "--batch", &file]);
    let lines: Vec<&str> = out.code(1).lines().collect();
    assert_eq!(lines[0], EASY_SOLUTION);
    assert_eq!(lines[1], "unsolvable");
    // Without --count the empty board is answered with its first solution.
    assert_eq!(lines[2].len(), 81);
    assert_eq!(lines.len(), 3);
    assert!(
        out.stderr
            .starts_with("3 puzzles: 2 solved, 1 unsolvable, 0 multiple; "),
        "{}",
        out.stderr
    );
    let counted = octoku!(&["solve", "--size", "9", "--batch", &file, "--count", "2"]);
    assert_eq!(
        counted.code(1),
        format!("{EASY_SOLUTION}\nunsolvable\nmultiple\n")
    );
}

#[test]
fn solve_batch_json_gives_one_object_a_puzzle_and_a_summary_line() {
    let (_dir, file) = batch_file();
    let v = json_lines(
        octoku!(&[
            "solve", "--size", "9", "--batch", &file, "--count", "2", "--json"
        ])
        .code(1),
    );
    assert_eq!(v.len(), 4);
    assert_eq!(keys(&v[0]), ["solution", "solutions"]);
    assert_eq!(v[0]["solution"], EASY_SOLUTION);
    assert_eq!(v[0]["solutions"], 1);
    assert_eq!(v[1]["solution"], Value::Null);
    assert_eq!(v[1]["solutions"], 0);
    assert_eq!(v[2]["solutions"], 2);
    let summary = &v[3]["summary"];
    assert_eq!(
        keys(summary),
        [
            "multiple",
            "puzzles",
            "solved",
            "solver_us_per_puzzle",
            "unsolvable"
        ]
    );
    assert_eq!(
        [
            &summary["puzzles"],
            &summary["solved"],
            &summary["unsolvable"],
            &summary["multiple"]
        ],
        [3, 1, 1, 1]
    );
    assert!(
        summary["solver_us_per_puzzle"]
            .as_f64()
            .is_some_and(|t| t > 0.0)
    );
    // Without --count: `solution` only.
    let v = json_lines(octoku!(&["solve", "--size", "9", "--batch", &file, "--json"]).code(1));
    assert_eq!(keys(&v[0]), ["solution"]);
    assert_eq!(v[3]["summary"]["solved"], 2);
}

#[test]
fn solve_batch_reads_standard_input_and_benches_for_the_time_asked() {
    let text = format!("{EASY}\n{EASY}\n");
    let started = std::time::Instant::now();
    let out = octoku!()
        .args([
            "solve", "--size", "9", "--batch", "-", "--bench", "0.5", "--json",
        ])
        .stdin(&text)
        .run();
    assert!(started.elapsed() >= std::time::Duration::from_millis(500));
    let v = json_lines(out.ok());
    // The answers are printed once, however many passes ran.
    assert_eq!(v.len(), 3);
    assert_eq!(v[1]["solution"], EASY_SOLUTION);
    assert_eq!(v[2]["summary"]["puzzles"], 2);
    assert_eq!(v[2]["summary"]["solved"], 2);
}

#[test]
fn solve_batch_refuses_a_bad_line_by_its_number_before_printing_anything() {
    let (_dir, file) = file_arg("bad.txt", &format!("# one good, one short\n{EASY}\n1..4\n"));
    let out = octoku!(&["solve", "--size", "9", "--batch", &file[1..]]);
    out.fails(2, "line 3: line form: 4 symbols; expected 81");
    assert_eq!(out.stdout, "");
    let out = octoku!(&["solve", "--size", "9", "--batch", "/nonexistent/batch.txt"]);
    out.fails(2, "--batch /nonexistent/batch.txt: cannot read it");
    let (_dir, empty) = file_arg("empty.txt", "# nothing\n\n");
    octoku!(&["solve", "--size", "9", "--batch", &empty[1..]]).fails(2, "no puzzle in it");
}

/// The 60-given 16×16 partial grid whose count to two the search alone
/// never finished: it answers at once now, two solutions or more.
const HARD16: &str = ".........2.C6.9....4.....9...........5..F....1...1........7GF.........2.AD......2.............5B....6...C...7...BD.E......4...265..D................D....5G..F..4.A.......D9........2G...7...D4..G3.A.E....12.......F........9.7...1...B..9F...E8.6.....2.......";

#[test]
fn the_hard_16x16_partial_grid_counts_to_two_at_once() {
    let v = octoku!(&["solve", "--size", "16", HARD16, "--count", "2", "--json"]).json();
    assert_eq!(v["solutions"], 2);
    assert_eq!(v["solutions_capped"], true);
    let (_dir, file) = file_arg("hard.txt", &format!("{HARD16}\n{HARD16}\n"));
    let run = octoku!(&[
        "solve",
        "--size",
        "16",
        "--batch",
        &file[1..],
        "--count",
        "2"
    ]);
    assert_eq!(run.code(0), "multiple\nmultiple\n");
}

/// The 8×8 contract path has the same bound: a million solutions of the
/// empty 8×8 board (about 0.2 s of CPU) past a 10 ms `--timeout` stop
/// with one line and exit 7, nothing on stdout; under the limit the count
/// answers as before; a timeout out of range is refused.
#[test]
fn an_8x8_count_past_the_timeout_stops_with_one_line_and_exit_7() {
    let empty = ".".repeat(64);
    let run = octoku!(&["solve", &empty, "--count", "1000000", "--timeout", "0.01"]);
    assert_eq!((run.code, run.stdout.as_str()), (7, ""), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "octoku: START: the search passed its time limit of 0.01 s and stopped, no answer; expected a board that answers sooner, or a larger --timeout\n"
    );
    let run = octoku!(&["solve", &empty, "--count", "1000", "--timeout", "60"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .ends_with("solutions 1000 (stopped at the limit)\n"),
        "{}",
        run.stdout
    );
    for bad in ["0", "0.0001", "86401", "soon"] {
        let run = octoku!(&["solve", &empty, "--timeout", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("expected a number of seconds from 0.001 to 86400"),
            "{bad}: {}",
            run.stderr
        );
    }
}

/// A count that takes longer than `--timeout` (a million solutions of the
/// empty 16×16 board, alone and in a batch) stops at the limit: one line
/// naming the board and the limit, exit 7, nothing on stdout; the run
/// ends within moments of the limit.
#[test]
fn a_count_past_the_timeout_stops_with_one_line_and_exit_7() {
    let empty = ".".repeat(256);
    let empty = empty.as_str();
    let started = std::time::Instant::now();
    let run = octoku!(&[
        "solve",
        "--size",
        "16",
        empty,
        "--count",
        "1000000",
        "--timeout",
        "1"
    ]);
    let elapsed = started.elapsed();
    assert_eq!(run.code, 7, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "octoku: START: the search passed its time limit of 1 s and stopped, no answer; expected a board that answers sooner, or a larger --timeout\n"
    );
    assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
    // A full grid (one solution at once), then the empty board.
    let full = "357814AFB2EC6G9D62F4378G195DABEC9ABGC5DEF3648172D1EC92B68A7GF435134F7825ADB69ECG26C74E9AG1F3D85BG89A6B1DCE2573F4BD5EGCF398471A2657GDB13C4FA8E269C916DA47E5G2BF834BA2EF683CD957G1EF832G59671BCD4AFG35A9E47BC126D8A4DBF3C2568EG9177C2186GBD49F35AE8E695D712G3A4CBF";
    let (_dir, file) = file_arg("empty.txt", &format!("{full}\n{empty}\n"));
    let run = octoku!(&[
        "solve",
        "--size",
        "16",
        "--batch",
        &file[1..],
        "--count",
        "1000000",
        "--timeout",
        "1"
    ]);
    assert_eq!((run.code, run.stdout.as_str()), (7, ""), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("octoku: --batch ")
            && run
                .stderr
                .contains(": puzzle 2: the search passed its time limit of 1 s"),
        "{}",
        run.stderr
    );
}

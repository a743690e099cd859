//! `octoku prove verify` and `octoku solve --sat`, run as a user runs them.

use octoku_testkit::{assert_keys, octoku, temp_dir};
use serde_json::Value;

/// `octoku prove verify --puzzle PUZZLE --json`, which must exit 0.
fn proved(puzzle: &str) -> Value {
    octoku!(&["prove", "verify", "--puzzle", puzzle, "--json"]).json()
}

/// A proof report that says `proved` for `puzzle`, by the pinned solver.
fn assert_proved(v: &Value, puzzle: &str) {
    assert_eq!(v["result"], "proved", "{v}");
    assert_eq!(v["puzzle"], puzzle);
    assert!(
        v["solver"].as_str().unwrap().starts_with("bitwuzla "),
        "{v}"
    );
}

/// The fair puzzle's verify is proved equal to the reference's, end to end
/// (the golfed one is proved in octoku-prove's own tests).
#[test]
fn prove_verify_fair_proves_and_reports_its_figures() {
    let v = proved("fair");
    assert_keys(
        &v,
        &[
            "puzzle",
            "result",
            "domain",
            "validated_inputs",
            "solver",
            "solve_seconds",
            "execution_seconds",
            "queries",
            "query_bytes",
            "reference",
            "implementation",
            "start",
            "solution",
            "reference_output",
            "implementation_output",
        ],
    );
    assert_proved(&v, "fair");
    assert_eq!(
        v["domain"],
        "every call verify(uint256,uint256) with 68 bytes of calldata (the selector and two words) and no value"
    );
    assert!(v["validated_inputs"].as_u64().unwrap() >= 100, "{v}");
    assert_eq!(v["start"], Value::Null);
    assert_keys(
        &v["reference"],
        &[
            "instructions",
            "forks",
            "merges",
            "max_states",
            "ends",
            "term_nodes",
        ],
    );
    assert_eq!(v["implementation"]["forks"], 0);
}

/// generate: the golfed fill is proved equal to the reference `_fill` on
/// every seed with at most one redraw, end to end, with its figures.
#[test]
fn prove_generate_golf_proves_a_redraw_class_and_reports_its_figures() {
    let v = octoku!(&["prove", "generate", "--redraws", "1", "--json"]).json();
    assert_keys(
        &v,
        &[
            "puzzle",
            "property",
            "result",
            "class",
            "domain",
            "validated_inputs",
            "max_redraws",
            "compare",
            "patterns",
            "proved_patterns",
            "undecided_patterns",
            "solver",
            "solve_seconds",
            "check_seconds",
            "execution_seconds",
            "queries",
            "query_bytes",
            "seed",
            "reference_output",
            "implementation_output",
        ],
    );
    assert_proved(&v, "golf");
    assert_eq!(v["compare"], "board");
    assert_eq!(v["max_redraws"], 1);
    assert_eq!(v["patterns"], 44);
    assert_eq!(v["proved_patterns"], 44);
    assert_eq!(v["seed"], Value::Null);
}

#[test]
fn prove_generate_refuses_the_reference_and_a_class_too_wide() {
    let run = octoku!(&["prove", "generate", "--puzzle", "reference"]);
    run.code(2);
    assert!(
        run.stderr.contains("[possible values: golf, fair]"),
        "{}",
        run.stderr
    );
    let run = octoku!(&["prove", "generate", "--redraws", "7"]);
    run.code(2);
    assert!(run.stderr.contains("--redraws"), "{}", run.stderr);
}

/// On a unique puzzle, --sat finds the bitboard solver's solution and proves
/// it unique (--count 2 finds one, all found).
#[test]
fn solve_sat_matches_the_bitboard_solver_on_a_unique_puzzle() {
    let start = "0x0000306106007040030500001420030007010000280004007150682082005130";
    let sat = octoku!(&["solve", start, "--sat", "--count", "2", "--json"]).json();
    let plain = octoku!(&["solve", start, "--count", "2", "--json"]).json();
    assert_keys(
        &sat,
        &[
            "puzzle",
            "method",
            "start",
            "solution",
            "valid",
            "gas",
            "found",
            "solutions",
            "all_found",
            "unique",
            "solver",
            "solver_calls",
            "solver_seconds",
            "seconds",
        ],
    );
    assert_eq!(sat["solution"], plain["solution"]);
    assert_eq!(sat["solutions"], 1);
    assert_eq!(plain["solutions"], 1);
    assert_eq!(sat["unique"], true);
    assert_eq!(sat["valid"], true);
}

#[test]
fn solve_sat_reports_no_solution_with_exit_1() {
    let run = octoku!(&[
        "solve",
        "0x5000000500000000000000000000000000000000000000000000000000000000",
        "--sat",
    ]);
    assert!(run.code(1).starts_with("no solution for"), "{}", run.stdout);
}

/// The golfed 9×9 validator's verify is proved equal to the reference's
/// through the six queries of `octoku_prove::spec9`, each reported.
#[test]
fn prove_verify_classic9_proves_in_six_queries() {
    let v = proved("classic9");
    assert_keys(
        &v,
        &[
            "puzzle",
            "function",
            "result",
            "domain",
            "validated_inputs",
            "solver",
            "solve_seconds",
            "execution_seconds",
            "query",
            "query_bytes",
            "steps",
            "reference",
            "implementation",
            "grids",
            "reference_output",
            "implementation_output",
        ],
    );
    assert_eq!(v["result"], "proved");
    assert_eq!(v["function"], "verify(bytes,bytes)");
    assert!(v["validated_inputs"].as_u64().unwrap() >= 100, "{v}");
    let steps = v["steps"].as_array().unwrap();
    let names: Vec<&str> = steps.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, octoku_prove::classic9::STEPS);
    for s in steps {
        let path = s["query"].as_str().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text.len() as u64, s["query_bytes"].as_u64().unwrap());
        assert!(text.ends_with("(check-sat)\n(exit)\n"), "{path}");
    }
    assert_eq!(v["grids"], Value::Null);
}

/// A query the solver cannot decide within its time limit ends as
/// "undecided" with exit status 3 and never says "proved" (the first query
/// of the classic 9×9 proof takes several seconds; the limit here is 1 s).
#[test]
fn an_undecided_query_says_so_and_never_proved() {
    let run = octoku!()
        .args(["prove", "verify", "--puzzle", "classic9"])
        .env("OCTOKU_SOLVER_TIME_LIMIT", "1")
        .run();
    let (stdout, stderr) = (run.code(3), &run.stderr);
    assert!(stderr.contains("undecided"), "{stderr}");
    assert!(stderr.contains("nothing is proved"), "{stderr}");
    assert!(!stdout.contains("proved for all"), "{stdout}");

    let bad = octoku!()
        .args(["prove", "verify", "--puzzle", "golf"])
        .env("OCTOKU_SOLVER_TIME_LIMIT", "soon")
        .run();
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr.contains("OCTOKU_SOLVER_TIME_LIMIT"),
        "{}",
        bad.stderr
    );
}

/// Two proofs into the same query directory (`--out`) at once both prove.
/// (That the second waits for the first's lock is tested on the lock itself,
/// in octoku-prove's engine: two runs that overlap here end the same
/// without it, since both write the same queries.)
#[test]
fn two_proofs_into_one_directory_take_turns() {
    let dir = temp_dir("two-proofs");
    let out = dir.path().join("queries");
    let runs: Vec<_> = (0..2)
        .map(|_| {
            octoku!()
                .args(["prove", "generate", "--redraws", "0", "--out"])
                .arg(&out)
                .spawn()
                .expect("octoku starts")
        })
        .collect();
    for run in runs {
        let run = run.finish();
        assert!(
            run.ok().starts_with("proved for every 256-bit seed"),
            "{}",
            run.stdout
        );
    }
}

/// `prove generate --all` on an author's contract whose fill has another
/// shape (contracts/harness/LoopPuzzle.sol's plain loops, as raw creation
/// code): one line saying which shape the proof handles, exit 3, nothing
/// on stdout.
#[test]
fn prove_generate_all_refuses_an_authors_fill_of_another_shape() {
    let creation = octoku_prove::prove::deployer(octoku_evm::artifacts::LOOP_PUZZLE.runtime);
    let code = format!("0x{}", octoku_core::hex::encode(&creation));
    let run = octoku!(&["prove", "generate", "--all", "--bytecode", &code]);
    run.code(3);
    assert!(
        run.stderr
            .contains("--all handles fills of one shape: the golfed fill of contracts/Golf.sol"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

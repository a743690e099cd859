//! An author's own IPuzzle through every command: contracts/harness/
//! LoopPuzzle.sol (plain Solidity loops, the reference's outputs) as a
//! Foundry artifact, a Hardhat artifact, solc's standard-JSON output, raw
//! creation code and a .sol file; and LoopPuzzleSlip (LoopPuzzle with one
//! given never compared, made by octoku-evm's build.rs), which check, fuzz
//! and prove must catch.

use std::path::{Path, PathBuf};

use octoku_testkit::{Run, octoku, temp_dir};

use octoku_evm::artifacts::{self, Artifact};
use serde_json::{Value, json};

fn json_of(out: &Run) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {out:?}"))
}

fn hex(bytes: &[u8]) -> String {
    format!("0x{}", octoku_core::hex::encode(bytes))
}

/// The fixture contract written out in each form a compiler leaves it in:
/// the `--artifact`/`--bytecode`/`--contract` arguments that name it.
fn forms(dir: &Path, a: Artifact) -> Vec<Vec<String>> {
    // Foundry's layout: out/<File>.sol/<Contract>.json; `id` is the source
    // unit's index in the source map (the build compiled SOURCES in order).
    let foundry = dir.join(format!("out/{}.sol/{}.json", a.name, a.name));
    std::fs::create_dir_all(foundry.parent().unwrap()).unwrap();
    let id = artifacts::SOURCES
        .iter()
        .position(|&(path, _)| path == a.source)
        .expect("the artifact's source was compiled");
    let foundry_doc = json!({
        "abi": [],
        "bytecode": { "object": hex(a.initcode), "sourceMap": "" },
        "deployedBytecode": { "object": hex(a.runtime), "sourceMap": a.source_map },
        "id": id,
        "ast": { "absolutePath": a.source },
    });
    std::fs::write(&foundry, foundry_doc.to_string()).unwrap();
    let hardhat = dir.join(format!("{}.hardhat.json", a.name));
    let hardhat_doc = json!({
        "_format": "hh-sol-artifact-1",
        "contractName": a.name,
        "sourceName": a.source,
        "abi": [],
        "bytecode": hex(a.initcode),
        "deployedBytecode": hex(a.runtime),
        "linkReferences": {},
        "deployedLinkReferences": {},
    });
    std::fs::write(&hardhat, hardhat_doc.to_string()).unwrap();
    // solc's output holds the interface too (no bytecode): PATH:Name picks.
    let solc = dir.join(format!("{}.solc.json", a.name));
    let strip = |b: &[u8]| octoku_core::hex::encode(b);
    let solc_doc = json!({ "contracts": {
        a.source: { a.name: { "evm": {
            "bytecode": { "object": strip(a.initcode) },
            "deployedBytecode": { "object": strip(a.runtime), "sourceMap": a.source_map },
        } } },
        "contracts/IPuzzle.sol": { "IPuzzle": { "evm": { "bytecode": { "object": "" } } } },
    } });
    std::fs::write(&solc, solc_doc.to_string()).unwrap();
    let raw = dir.join(format!("{}.bin", a.name));
    std::fs::write(&raw, hex(a.initcode)).unwrap();
    let source = checkout().join(a.source);
    let s = |p: &PathBuf| p.display().to_string();
    vec![
        vec!["--artifact".into(), s(&foundry)],
        vec!["--artifact".into(), s(&hardhat)],
        vec!["--artifact".into(), format!("{}:{}", s(&solc), a.name)],
        vec!["--bytecode".into(), hex(a.initcode)],
        vec!["--bytecode".into(), format!("@{}", s(&raw))],
        vec!["--contract".into(), format!("{}:{}", s(&source), a.name)],
    ]
}

fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs a mismatch's `reproduce` command line (without its leading
/// `octoku`) and expects it to find the mismatch again: exit 1.
fn replay_fails(mismatch: &Value) {
    let replay: Vec<&str> = mismatch["reproduce"]
        .as_str()
        .unwrap()
        .split(' ')
        .skip(1)
        .collect();
    octoku!(&replay).code(1);
}

fn with<'a>(args: &[&'a str], form: &'a [String]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(form.iter().map(String::as_str));
    all
}

const ADDRESS: &str = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/// Every form of LoopPuzzle is the same contract: generate gives the
/// reference's board, solve's answer is verified by it, verify agrees.
#[test]
fn every_form_of_an_authors_puzzle_runs_generate_solve_and_verify() {
    let dir = temp_dir("own-puzzle");
    let reference = json_of(&octoku!(&["generate", ADDRESS, "--json"]));
    let solved = json_of(&octoku!(&["solve", "--address", ADDRESS, "--json"]));
    let (start, solution) = (
        reference["start"].as_str().unwrap(),
        solved["solution"].as_str().unwrap(),
    );
    for form in forms(dir.path(), artifacts::LOOP_PUZZLE) {
        let out = octoku!(&with(&["generate", ADDRESS, "--json"], &form));
        out.code(0);
        let v = json_of(&out);
        assert_eq!(v["start"], reference["start"], "{form:?}");
        // Raw creation code carries no name.
        if form[0] != "--bytecode" {
            assert_eq!(v["puzzle"], "LoopPuzzle", "{form:?}");
        }
        let out = octoku!(&with(&["solve", "--address", ADDRESS, "--json"], &form));
        out.code(0);
        assert_eq!(json_of(&out)["solution"], solved["solution"], "{form:?}");
        (octoku!(&with(&["verify", start, solution], &form))).code(0);
        (octoku!(&with(&["verify", solution, start], &form))).code(1);
    }
}

/// check passes LoopPuzzle with every check, the proof included.
#[test]
fn check_passes_an_authors_puzzle_equal_to_the_reference() {
    let dir = temp_dir("own-puzzle");
    let form = &forms(dir.path(), artifacts::LOOP_PUZZLE)[0];
    let out = octoku!(&with(&["check", "--json"], form));
    out.code(0);
    let card = json_of(&out);
    assert_eq!(card["ok"], true);
    let names: Vec<_> = card["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("shape", "ok"),
            ("pure", "ok"),
            ("verify", "ok"),
            ("proof", "ok"),
            ("generate", "ok"),
            ("size", "ok")
        ]
    );
}

/// The slip (the top-left given never compared): check's structured cases
/// find it (exit 1, the counterexample printed), prove refutes it with a
/// counterexample that replays: the slip accepts it and the reference not.
#[test]
fn a_slip_random_inputs_miss_is_caught_by_check_and_prove() {
    let dir = temp_dir("own-puzzle");
    let form = &forms(dir.path(), artifacts::LOOP_PUZZLE_SLIP)[3];
    let out = octoku!(&with(&["check", "--no-prove", "--json"], form));
    out.code(1);
    let card = json_of(&out);
    let verify = &card["checks"][2];
    assert_eq!(verify["name"], "verify");
    assert_eq!(verify["status"], "fail");
    let c = &verify["counterexample"];
    assert!(
        c["start"].is_string() && c["solution"].is_string(),
        "{card}"
    );
    assert_ne!(c["reference"], c["target"]);

    let out = octoku!(&with(&["prove", "verify", "--json"], form));
    out.code(1);
    let proof = json_of(&out);
    assert_eq!(proof["result"], "counterexample");
    let (start, solution) = (
        proof["start"].as_str().unwrap(),
        proof["solution"].as_str().unwrap(),
    );
    (octoku!(&with(&["verify", start, solution], form))).code(0);
    (octoku!(&["verify", start, solution])).code(1);
}

/// A target that cannot be read is bad input: exit 2, one line.
#[test]
fn unreadable_targets_are_bad_input() {
    let dir = temp_dir("own-puzzle");
    let interface = dir.path().join("IPuzzle.json");
    std::fs::write(&interface, r#"{"abi": [], "bytecode": {"object": "0x"}}"#).unwrap();
    let not_json = dir.path().join("x.json");
    std::fs::write(&not_json, "not json").unwrap();
    let missing = dir.path().join("missing.json");
    for form in [
        ["--artifact", interface.to_str().unwrap()],
        ["--artifact", not_json.to_str().unwrap()],
        ["--artifact", missing.to_str().unwrap()],
        ["--artifact", dir.path().to_str().unwrap()],
        ["--bytecode", "0xzz"],
        ["--bytecode", "0x"],
    ] {
        let out = octoku!(&["generate", ADDRESS, form[0], form[1]]);
        out.code(2);
        assert_eq!(out.stderr.as_str().lines().count(), 1, "{:?}", out);
    }
}

/// fuzz runs an author's contract against the reference's rule: LoopPuzzle
/// agrees on 20,000 cases; the slip is found through a structured case
/// (random words never reach it), with a command that replays it; with
/// `--generate own`, a board without a solution is reported (the reference's
/// generate, which LoopPuzzle copies, hands some out).
#[test]
fn fuzz_checks_an_authors_puzzle_and_finds_the_slip() {
    let dir = temp_dir("own-puzzle");
    let good = &forms(dir.path(), artifacts::LOOP_PUZZLE)[0];
    (octoku!(&with(&["fuzz", "--cases", "20000"], good))).code(0);
    let slip = &forms(dir.path(), artifacts::LOOP_PUZZLE_SLIP)[0];
    let out = octoku!(&with(&["fuzz", "--cases", "200000", "--json"], slip));
    out.code(1);
    let v = json_of(&out);
    assert_eq!(v["target"], "LoopPuzzleSlip");
    let m = &v["mismatch"];
    assert!(
        m["description"].as_str().unwrap().starts_with("verify("),
        "{v}"
    );
    replay_fails(m);
    let out = octoku!(&with(
        &["fuzz", "--cases", "20000", "--generate", "own", "--json"],
        good,
    ));
    out.code(1);
    let answers = json_of(&out)["mismatch"]["answers"].to_string();
    assert!(answers.contains("no solution"), "{answers}");
}

/// gas puts an author's contract beside the reference on the report's own
/// inputs: the reference column is the report's reference row.
#[test]
fn gas_rows_of_an_authors_puzzle_sit_beside_the_reference() {
    let dir = temp_dir("own-puzzle");
    let form = &forms(dir.path(), artifacts::LOOP_PUZZLE)[1];
    let out = octoku!(&with(&["gas", "--runs", "20", "--json"], form));
    out.code(0);
    let ours = json_of(&out);
    let report = json_of(&octoku!(&["gas", "--runs", "20", "--json"]));
    let rows = ours["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        let reference = report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["puzzle"] == "reference" && r["size"] == 8 && r["case"] == row["case"])
            .expect("the same class in the report");
        assert_eq!(row["reference"], reference["median"], "{row}");
        assert!(row["median"].as_u64().unwrap() > 0);
    }
    assert_eq!(ours["runtime_size"], artifacts::LOOP_PUZZLE.runtime.len());
}

/// deploy puts an author's puzzle and an arena for it on a chain (the
/// embedded one here) and records them like a built-in's: the arena hands
/// out the puzzle's boards, named or by default.
#[test]
fn deploy_puts_an_authors_puzzle_and_its_arena_on_a_chain() {
    let dir = temp_dir("own-puzzle");
    let state = dir.path().join("chain.json");
    let state = state.to_str().unwrap();
    let form = &forms(dir.path(), artifacts::LOOP_PUZZLE)[0];
    let out = octoku!(&with(&["deploy", "--state", state, "--json"], form));
    out.code(0);
    let deployed = json_of(&out);
    assert_eq!(deployed["puzzle"], "LoopPuzzle");
    assert_eq!(deployed["recorded_in"], state);
    let arena = deployed["arena"].as_str().unwrap();
    let reference = json_of(&octoku!(&["generate", ADDRESS, "--json"]));
    for named in [&["--arena", arena][..], &[]] {
        let out = octoku!(&[&["board", ADDRESS, "--state", state, "--json"][..], named].concat());
        out.code(0);
        let board = json_of(&out);
        assert_eq!(board["arena"], deployed["arena"]);
        assert_eq!(board["puzzle_address"], deployed["puzzle_address"]);
        assert_eq!(board["start"], reference["start"]);
    }
}

/// `gas --profile` on an author's contract: the gas of the call as verify
/// reports it, split by opcode, and by line of the source when the form
/// carries a source map and the source is found (a Foundry artifact in its
/// project, a .sol file); a Hardhat artifact has no map: opcodes only.
#[test]
fn gas_profile_of_an_authors_puzzle_splits_by_opcode_and_source_line() {
    let dir = temp_dir("own-puzzle");
    let a = artifacts::LOOP_PUZZLE;
    // The project the Foundry artifact belongs to: foundry.toml and the source.
    std::fs::write(dir.path().join("foundry.toml"), "[profile.default]\n").unwrap();
    let source = dir.path().join(a.source);
    std::fs::create_dir_all(source.parent().unwrap()).unwrap();
    std::fs::copy(checkout().join(a.source), &source).unwrap();
    let forms = forms(dir.path(), a);
    let solved = json_of(&octoku!(&["solve", "--address", ADDRESS, "--json"]));
    let (start, solution) = (
        solved["start"].as_str().unwrap(),
        solved["solution"].as_str().unwrap(),
    );
    let profile = ["gas", "--profile", "verify", start, solution, "--json"];
    for (form, mapped) in [(&forms[0], true), (&forms[5], true), (&forms[1], false)] {
        let out = octoku!(&with(&profile, form));
        out.code(0);
        let p = json_of(&out);
        let verified = json_of(&octoku!(&with(
            &["verify", start, solution, "--json"],
            form
        )));
        assert_eq!(p["gas"], verified["gas"], "{form:?}");
        assert_eq!(p["puzzle"], "LoopPuzzle", "{form:?}");
        let total = |key: &str| -> u64 {
            p[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["gas"].as_u64().unwrap())
                .sum()
        };
        assert!(total("by_opcode") > 0, "{form:?}");
        let lines = p["by_line"].as_array().unwrap();
        if mapped {
            assert_eq!(total("by_line"), total("by_opcode"), "{form:?}");
            let top = lines
                .iter()
                .find(|l| l["location"].as_str().unwrap().starts_with(a.source))
                .unwrap_or_else(|| panic!("a line of {} in {p}", a.source));
            assert!(!top["source"].as_str().unwrap().is_empty(), "{top}");
        } else {
            assert!(lines.is_empty(), "{form:?}: {p}");
            let text = octoku!(&with(&profile[..5], form));
            assert!(text.ok().contains("no source lines"), "{}", text.stdout);
        }
    }
}

/// An author's 9×9 validator (IClassic9) with `--size 9`: the 9×9 reference
/// as raw creation code and the golfed one as a .sol file answer verify as
/// the built-ins do, pass the classic 9×9 fuzz cases, and profile by line of
/// their source; deployed on a chain (the embedded one), it answers verify
/// there; an IPuzzle given as a 9×9 validator is caught by fuzz.
#[test]
fn an_authors_9x9_validator_runs_verify_fuzz_gas_profile_and_deploy() {
    use octoku_core::classic9::{INVALID_GRIDS, VALID_GRIDS};
    let reference = vec![
        "--bytecode".to_string(),
        hex(artifacts::CLASSIC9_REFERENCE.initcode),
    ];
    let golf_source = checkout().join(artifacts::CLASSIC9_GOLF.source);
    let golf = vec![
        "--contract".to_string(),
        format!(
            "{}:{}",
            golf_source.display(),
            artifacts::CLASSIC9_GOLF.name
        ),
    ];
    let empty = ".".repeat(81);
    for (form, builtin) in [(&reference, "reference"), (&golf, "golf")] {
        for (grids, valid, code) in [(VALID_GRIDS, true, 0), (INVALID_GRIDS, false, 1)] {
            let verify = ["verify", "--size", "9", &empty, grids[0], "--json"];
            let out = octoku!(&with(&verify, form));
            out.code(code);
            let ours = json_of(&out);
            assert_eq!(ours["valid"], valid, "{form:?}");
            let theirs = json_of(&octoku!(&[&verify[..], &["--puzzle", builtin]].concat()));
            assert_eq!(ours["gas"], theirs["gas"], "{form:?}");
        }
        let out = octoku!(&with(
            &["fuzz", "--size", "9", "--cases", "3000", "--json"],
            form,
        ));
        out.code(0);
        assert_eq!(json_of(&out)["size"], 9);
    }
    let profile = [
        "gas",
        "--profile",
        "verify",
        "--size",
        "9",
        &empty,
        VALID_GRIDS[0],
        "--json",
    ];
    let out = octoku!(&with(&profile, &golf));
    out.code(0);
    let p = json_of(&out);
    let verified = json_of(&octoku!(&with(
        &["verify", "--size", "9", &empty, VALID_GRIDS[0], "--json"],
        &golf,
    )));
    assert_eq!(p["gas"], verified["gas"]);
    assert_eq!(p["size"], 9);
    let lines = p["by_line"].as_array().unwrap();
    assert!(
        lines.iter().any(|l| l["location"]
            .as_str()
            .unwrap()
            .starts_with(artifacts::CLASSIC9_GOLF.source)),
        "{p}"
    );
    let not_a_validator = vec![
        "--bytecode".to_string(),
        hex(artifacts::LOOP_PUZZLE.initcode),
    ];
    let out = octoku!(&with(
        &["fuzz", "--size", "9", "--cases", "50", "--json"],
        &not_a_validator,
    ));
    out.code(1);
    let m = &json_of(&out)["mismatch"];
    replay_fails(m);
}

/// prove verify --size 9 on an author's validator: the golfed one without
/// its final ISZERO (it returns the failure bits themselves) is refuted
/// with grids on which, replayed through verify, it and the reference
/// answer differently.
#[test]
fn prove_refutes_an_authors_9x9_validator_that_differs() {
    let mutant = octoku_prove::prove::mutate(
        artifacts::CLASSIC9_GOLF.runtime,
        &[0x15, 0x5f, 0x52],
        0,
        0x5b,
    )
    .unwrap();
    let form = vec![
        "--bytecode".to_string(),
        hex(&octoku_prove::prove::deployer(&mutant)),
    ];
    let out = octoku!(&with(&["prove", "verify", "--size", "9", "--json"], &form));
    out.code(1);
    let proof = json_of(&out);
    assert_eq!(proof["result"], "counterexample", "{proof}");
    let grids: Vec<String> = proof["grids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| format!("0x{}", g.as_str().unwrap()))
        .collect();
    let verify = ["verify", "--size", "9", &grids[0], &grids[1], "--json"];
    let ours = octoku!(&with(&verify, &form));
    let theirs = octoku!(&[&verify[..], &["--puzzle", "reference"]].concat());
    assert_ne!((ours.code, &ours.stdout), (theirs.code, &theirs.stdout));
}

/// prove generate on an author's contract: the reference's creation code
/// given as raw bytecode is proved equal to the reference for every address
/// with no redraw; with its draw mask 63 patched to 31 (one byte) it is
/// refuted, the seed and both boards printed, and the address null: no
/// address is known to hash to the solver's seed (not replayable). The
/// reference's board is the mirror's fill of that seed.
#[test]
fn prove_generate_proves_an_authors_copy_and_refutes_a_one_byte_patch() {
    let runtime = artifacts::REFERENCE.runtime;
    let own = vec![
        "--bytecode".to_string(),
        hex(&octoku_prove::prove::deployer(runtime)),
    ];
    let args = ["prove", "generate", "--redraws", "0", "--json"];
    let out = octoku!(&with(&args, &own));
    out.code(0);
    assert_eq!(json_of(&out)["result"], "proved", "{out:?}");
    let mutant = octoku_prove::prove::mutate(runtime, &[0x60, 0x3f, 0x16, 0x91], 1, 0x1f).unwrap();
    let form = vec![
        "--bytecode".to_string(),
        hex(&octoku_prove::prove::deployer(&mutant)),
    ];
    let out = octoku!(&with(&args, &form));
    out.code(1);
    let proof = json_of(&out);
    assert_eq!(proof["result"], "counterexample", "{proof}");
    assert!(proof["address"].is_null(), "{proof}");
    let seed: octoku_core::U256 = proof["seed"].as_str().unwrap().parse().unwrap();
    let board = octoku_core::octoku::generate::generate_from_seed(seed);
    assert_eq!(
        proof["reference_output"],
        format!("returns {}", hex(&board.0.to_be_bytes::<32>()))
    );
    assert_ne!(proof["reference_output"], proof["implementation_output"]);
}

/// check's counterexamples are verdicts with the explainer's reason: on
/// the slip, the reference says false (and why), the slip true; the JSON
/// carries the same words.
#[test]
fn check_counterexamples_are_verdicts_with_the_reason() {
    let dir = temp_dir("own-puzzle");
    let form = &forms(dir.path(), artifacts::LOOP_PUZZLE_SLIP)[0];
    let out = octoku!(&with(&["check", "--no-prove"], form));
    out.code(1);
    let lines: Vec<&str> = out.stdout.lines().map(str::trim).collect();
    assert!(lines.contains(&"reference false"), "{}", out.stdout);
    assert!(lines.contains(&"LoopPuzzleSlip true"), "{}", out.stdout);
    let why = lines
        .iter()
        .find(|l| l.starts_with("why "))
        .unwrap_or_else(|| panic!("a why line: {}", out.stdout));
    assert!(
        why.contains("row ") || why.contains("column ") || why.contains("given"),
        "{why}"
    );
    assert!(!out.stdout.contains("returns 0x"), "{}", out.stdout);
    let card = json_of(&octoku!(&with(&["check", "--no-prove", "--json"], form)));
    let c = &card["checks"][2]["counterexample"];
    assert_eq!(
        (c["reference"].as_str(), c["target"].as_str()),
        (Some("false"), Some("true"))
    );
    assert_eq!(c["reason"].as_str(), why.strip_prefix("why").map(str::trim));
}

/// fuzz on a puzzle whose generate is its own (the fair puzzle as an
/// author's artifact) stops at the first generate case with the hint check
/// gives, --generate own; with it, the run passes.
#[test]
fn fuzz_on_an_own_generate_hints_generate_own() {
    let dir = temp_dir("own-puzzle");
    let form = &forms(dir.path(), octoku_evm::Puzzle::Fair.artifact())[0];
    let out = octoku!(&with(&["fuzz", "--cases", "2000"], form));
    out.code(1);
    assert!(out.stdout.contains("generate("), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("hint: if your puzzle has its own generate, add --generate own"),
        "{}",
        out.stdout
    );
    let v = json_of(&octoku!(&with(
        &["fuzz", "--cases", "2000", "--json"],
        form
    )));
    assert!(
        v["mismatch"]["hint"]
            .as_str()
            .unwrap()
            .contains("--generate own"),
        "{v}"
    );
    (octoku!(&with(
        &["fuzz", "--cases", "2000", "--generate", "own"],
        form
    )))
    .code(0);
}

/// gas --profile on a Foundry artifact without `ast` says why every line
/// reads as compiler-generated (and how to fix it) instead of keeping quiet;
/// with `ast`, no warning.
#[test]
fn gas_profile_warns_when_an_artifact_lacks_its_ast() {
    const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
    const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";
    let dir = temp_dir("own-puzzle");
    let a = artifacts::LOOP_PUZZLE;
    let form = &forms(dir.path(), a)[0];
    // The project's source beside its out/, as in the author's checkout.
    let source = dir.path().join(a.source);
    std::fs::create_dir_all(source.parent().unwrap()).unwrap();
    std::fs::copy(checkout().join(a.source), &source).unwrap();
    std::fs::write(dir.path().join("foundry.toml"), "[profile.default]\n").unwrap();
    let path = &form[1];
    let profile = |form: &[String]| {
        octoku!(&with(
            &["gas", "--profile", "verify", START, SOLUTION],
            form
        ))
    };
    let with_ast = profile(form);
    with_ast.code(0);
    assert!(!with_ast.stderr.contains("warning"), "{}", with_ast.stderr);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc.as_object_mut().unwrap().remove("ast");
    let bare = dir.path().join("bare.json");
    std::fs::write(&bare, doc.to_string()).unwrap();
    let bare_form = ["--artifact".to_string(), bare.display().to_string()];
    let out = profile(&bare_form);
    out.code(0);
    assert!(
        out.stderr.starts_with("octoku: warning: ") && out.stderr.contains("ast = true"),
        "{}",
        out.stderr
    );
}

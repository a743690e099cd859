//! Pictures the CLI writes: `octoku puzzle --svg` and `octoku board --svg`
//! (the core's drawing, byte for byte the golden files of
//! `crates/octoku-core/tests/golden/`), and `octoku gas --profile
//! --flamegraph` (an SVG flame graph whose frames add up to the call's gas).

use std::path::PathBuf;

use octoku_testkit::{octoku, temp_dir};

/// A golden picture of the core's tests.
fn golden(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../octoku-core/tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn puzzle_svg_writes_the_golden_picture_and_prints_the_puzzle_as_before() {
    let dir = temp_dir("pictures-puzzle");
    let file = dir.path().join("p.svg");
    let with = octoku!(&[
        "puzzle",
        "--size",
        "9",
        "--seed",
        "1",
        "--svg",
        file.to_str().unwrap()
    ]);
    let without = octoku!(&["puzzle", "--size", "9", "--seed", "1"]);
    assert_eq!(
        with.ok(),
        without.ok(),
        "stdout is the board, as without --svg"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        golden("puzzle-9x9-seed-1.svg")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o644, 0o644, "readable by all: {mode:o}");
    }
    // No directory to write into: one line, exit 2, nothing written.
    let missing = dir.path().join("no/such/dir/p.svg");
    octoku!(&["puzzle", "--size", "4", "--svg", missing.to_str().unwrap()])
        .fails(2, "there is no directory");
    assert!(!missing.exists());
}

#[test]
fn board_svg_on_the_embedded_chain_writes_the_golden_picture() {
    let dir = temp_dir("pictures-board");
    let state = dir.path().join("chain.json");
    let state = state.to_str().unwrap();
    octoku!(&["deploy", "--state", state]).ok();
    let file = dir.path().join("b.svg");
    let out = octoku!(&[
        "board",
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "--state",
        state,
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(out.ok().contains("start     0x"), "{}", out.stdout);
    // The reference puzzle's board of that address (the core's generate).
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        golden("board-8x8.svg")
    );
}

#[test]
fn gas_flamegraph_draws_every_gas_of_the_profiled_call() {
    let dir = temp_dir("pictures-flamegraph");
    let file = dir.path().join("verify.svg");
    let start = "0x0000000000003000007001000000000000000040500000060000000000020008";
    let solution = "0x7235861418463257457361828621457323681745541728366784532131527468";
    let run = octoku!(&[
        "gas",
        "--profile",
        "verify",
        start,
        solution,
        "--flamegraph",
        file.to_str().unwrap(),
        "--json",
    ]);
    let gas = run.json()["gas"].as_u64().unwrap();
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<?xml") && svg.contains("<svg"), "an SVG");
    assert!(svg.contains("reference verify"), "titled with the call");
    // The root frame holds all of the call's gas; the costliest line is there
    // with its text and location, and its opcodes above it.
    let gas_text = format_thousands(gas);
    assert!(
        svg.contains(&format!("<title>all ({gas_text} gas, 100%)</title>")),
        "the root frame holds {gas_text} gas"
    );
    assert!(
        svg.contains("while (shifts != 0) {  (contracts/Reference.sol:124)"),
        "a line's frame"
    );
    assert!(svg.contains("<title>JUMPI ("), "an opcode's frame");
    // Same profile, same picture.
    let again = dir.path().join("again.svg");
    octoku!(&[
        "gas",
        "--profile",
        "verify",
        start,
        solution,
        "--flamegraph",
        again.to_str().unwrap()
    ])
    .ok();
    assert_eq!(std::fs::read_to_string(&again).unwrap(), svg);
}

/// 38998 as inferno writes it: 38,998.
fn format_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

//! `octoku prove verify` never says "proved" for an author's contract that
//! differs from the reference: copies of contracts/GolfedPuzzle.sol and
//! Golf.sol with a few lines of Yul inserted before verify's last store,
//! each compiled through `--contract`, are refuted with a counterexample
//! that, replayed through `octoku verify`, the copy accepts and the
//! reference rejects.

use std::path::Path;

use octoku_testkit::{octoku, temp_dir, workspace_root};
use serde_json::Value;

/// The line of contracts/GolfedPuzzle.sol the Yul goes before.
const ANCHOR: &str = "mstore(0x00, iszero(bad))";

/// Writes a project (foundry.toml, contracts/GolfedPuzzle.sol with `yul`
/// inserted before [`ANCHOR`], contracts/Golf.sol) into `dir`, and returns
/// the `--contract` and `--solc` arguments that name its OctokuGolf.
fn authors_copy(dir: &Path, yul: &str) -> Vec<String> {
    let root = workspace_root();
    let contracts = dir.join("contracts");
    std::fs::create_dir_all(&contracts).unwrap();
    std::fs::copy(root.join("foundry.toml"), dir.join("foundry.toml")).unwrap();
    let golfed = std::fs::read_to_string(root.join("contracts/GolfedPuzzle.sol")).unwrap();
    assert_eq!(golfed.matches(ANCHOR).count(), 1, "one place to insert at");
    let patched = golfed.replace(ANCHOR, &format!("{yul}\n            {ANCHOR}"));
    std::fs::write(contracts.join("GolfedPuzzle.sol"), patched).unwrap();
    std::fs::copy(root.join("contracts/Golf.sol"), contracts.join("Golf.sol")).unwrap();
    vec![
        "--contract".into(),
        format!("{}:OctokuGolf", contracts.join("Golf.sol").display()),
        "--solc".into(),
        root.join("tools/solc").display().to_string(),
    ]
}

/// `prove verify` on the copy exits 1 with a counterexample; replayed, the
/// copy accepts it (exit 0) and the reference rejects it (exit 1).
fn assert_refuted(target: &[String]) {
    let mut args = vec!["prove", "verify", "--json"];
    args.extend(target.iter().map(String::as_str));
    let out = octoku!(&args);
    out.code(1);
    let proof: Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {out:?}"));
    assert_eq!(proof["result"], "counterexample", "{proof}");
    let (start, solution) = (
        proof["start"].as_str().unwrap(),
        proof["solution"].as_str().unwrap(),
    );
    let mut replay = vec!["verify", start, solution];
    replay.extend(target.iter().map(String::as_str));
    octoku!(&replay).code(0);
    octoku!(&["verify", start, solution]).code(1);
}

/// `(x & c) | (x & !c)` is `x & 1` on the EVM, not x: the copy accepts a
/// solution whose low bit is 0 (start 0, solution 2 among them).
#[test]
fn a_guard_rejoin_on_a_word_that_is_not_0_or_1_is_refuted() {
    let dir = temp_dir("prove-sound");
    let target = authors_copy(
        dir.path(),
        "let c := lt(start, solution)\n            \
         let w := or(and(solution, c), and(solution, iszero(c)))\n            \
         if iszero(eq(w, solution)) { bad := 0 }",
    );
    assert_refuted(&target);
}

/// `exp(1, e)` is 1 for every e: with a base of 1 from calldatasize (68
/// bytes, so a constant 1 in the proof) the copy accepts every solution
/// above 0xff.
#[test]
fn exp_of_base_one_and_a_large_exponent_is_refuted() {
    let dir = temp_dir("prove-sound");
    let target = authors_copy(
        dir.path(),
        "let one := sub(calldatasize(), 0x43)\n            \
         if and(exp(one, solution), gt(solution, 0xff)) { bad := 0 }",
    );
    assert_refuted(&target);
}

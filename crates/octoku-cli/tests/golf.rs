//! Curta Golf for real: the protocol's own compiled contracts
//! (`../shared/curta-golf/curta-golf.json`, read at run time) deployed on
//! anvil by the recipe of its README, and the `octoku golf` commands adding
//! octoku's course, committing and submitting solutions and reading the
//! King there. No stand-in for Curta Golf anywhere.
//!
//! When `../shared/curta-golf` is missing the anvil tests fail under
//! `CI=true` with a one-line reason, and are skipped with that line elsewhere.

use std::path::Path;

use octoku_chain::{PrivateKey, primitives::Address};
use octoku_testkit::{Anvil, DEV_KEYS, Run, TempDir, curta_golf, octoku, temp_dir};

/// A solution whose runtime reads storage (SLOAD, forbidden by octoku's
/// courses): runtime `PUSH1 0 SLOAD POP mstore(0, 1) return(0, 32)`
/// (14 bytes) behind a constructor that copies it out (12 bytes).
const POLLUTED: &str = "0x600e600c600039600e6000f360005450600160005260206000f3";

fn account(n: usize) -> Address {
    PrivateKey::parse(DEV_KEYS[n]).unwrap().address().unwrap()
}

/// Curta Golf on a fresh node, octoku's 8x8 course added as course 1 by
/// `octoku golf course add` (account 0, the owner), and an empty working
/// directory; `None` (skipped) without `../shared/curta-golf`.
fn course_on_a_node(name: &str) -> Option<(Anvil, TempDir, String)> {
    let artifacts = curta_golf::artifacts()?;
    let anvil = Anvil::start().expect("anvil starts");
    let deployed = curta_golf::deploy(&anvil, &artifacts);
    let dir = temp_dir(name);
    let golf = deployed.curta_golf.to_string();
    let added = as_account(
        dir.path(),
        &anvil.url(),
        0,
        &[
            "golf",
            "course",
            "add",
            "--curta-golf",
            &golf,
            "--kind",
            "verify8",
            "--json",
        ],
    )
    .json();
    assert_eq!(added["id"], 1, "the first course is 1: {added}");
    Some((anvil, dir, golf))
}

/// `octoku ARGS --rpc-url URL --private-key KEY(n)` in `dir`.
fn as_account(dir: &Path, url: &str, n: usize, args: &[&str]) -> Run {
    octoku!().dir(dir).args(args).as_account(url, n).run()
}

/// `golf submit --course 1` of `solution` (flags) as account `n`, no proof.
fn submit(
    dir: &Path,
    anvil: &Anvil,
    golf: &str,
    n: usize,
    solution: &[&str],
    more: &[&str],
) -> Run {
    let mut args = vec![
        "golf",
        "submit",
        "--curta-golf",
        golf,
        "--course",
        "1",
        "--no-prove",
    ];
    args.extend(solution);
    args.extend(more);
    as_account(dir, &anvil.url(), n, &args)
}

fn nonce(anvil: &Anvil, n: usize) -> u64 {
    anvil.nonce(&account(n).to_string()).unwrap()
}

#[test]
fn two_golfers_commit_and_submit_and_the_cheaper_solution_takes_the_king() {
    let Some((anvil, dir, golf)) = course_on_a_node("golf-king") else {
        return;
    };
    let dir = dir.path();
    let first = submit(
        dir,
        &anvil,
        &golf,
        1,
        &["--puzzle", "reference"],
        &["--move-time", "--json"],
    )
    .json();
    assert_eq!(first["king"], true, "{first}");
    let reference_gas = first["gas_used"].as_u64().unwrap();
    let second = submit(
        dir,
        &anvil,
        &golf,
        2,
        &["--puzzle", "golf"],
        &["--move-time", "--json"],
    )
    .json();
    assert_eq!(second["king"], true, "{second}");
    let golf_gas = second["gas_used"].as_u64().unwrap();
    // The course's meter: 16 calls; the golfed verify is far cheaper.
    assert!(
        golf_gas * 10 < reference_gas,
        "golf {golf_gas}, reference {reference_gas}"
    );
    // The reference again, from account 3: accepted, not King.
    let third = submit(
        dir,
        &anvil,
        &golf,
        3,
        &["--puzzle", "reference"],
        &["--move-time", "--json"],
    )
    .json();
    assert_eq!(third["king"], false, "{third}");

    let board = as_account(
        dir,
        &anvil.url(),
        0,
        &[
            "golf",
            "leaderboard",
            "--curta-golf",
            &golf,
            "--course",
            "1",
            "--json",
        ],
    )
    .json();
    assert_eq!(board["king"], account(2).to_string(), "{board}");
    assert_eq!(board["gas_used"].as_u64(), Some(golf_gas));
    assert_eq!(board["solution_count"], 3);
    assert_eq!(board["king_count"], 2);
    let changes = board["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0]["king"], account(1).to_string());
    assert_eq!(changes[0]["gas_used"].as_u64(), Some(reference_gas));
    assert_eq!(changes[1]["king"], account(2).to_string());
    assert!(changes[0]["block"].as_u64() < changes[1]["block"].as_u64());
    let text = as_account(
        dir,
        &anvil.url(),
        0,
        &[
            "golf",
            "leaderboard",
            "--curta-golf",
            &golf,
            "--course",
            "1",
        ],
    );
    assert!(
        text.ok()
            .contains(&format!("king       {} with {golf_gas} gas", account(2))),
        "{}",
        text.ok()
    );
}

#[test]
fn a_forbidden_opcode_is_refused_locally_and_forced_reverts_polluted_solution() {
    let Some((anvil, dir, golf)) = course_on_a_node("golf-polluted") else {
        return;
    };
    let dir = dir.path();
    let polluted = POLLUTED;
    let before = nonce(&anvil, 1);
    submit(
        dir,
        &anvil,
        &golf,
        1,
        &["--bytecode", polluted],
        &["--move-time"],
    )
    .fails(
        1,
        "nothing sent: refused: Curta Golf's purity check would revert PollutedSolution()",
    );
    assert_eq!(nonce(&anvil, 1), before, "nothing was sent");
    let card = submit(
        dir,
        &anvil,
        &golf,
        1,
        &["--bytecode", polluted],
        &["--move-time"],
    );
    assert!(
        card.stdout
            .contains("SLOAD (0x54) at byte 14 of the creation code"),
        "{}",
        card.stdout
    );
    // Forced: the commit goes out, and Curta Golf itself refuses the submit.
    submit(
        dir,
        &anvil,
        &golf,
        1,
        &["--bytecode", polluted],
        &["--move-time", "--force"],
    )
    .fails(5, "PollutedSolution()");
    assert_eq!(nonce(&anvil, 1), before + 1, "only the commit was mined");
}

#[test]
fn a_submit_before_the_commit_age_is_refused_locally_and_resumes_with_the_same_salt() {
    let Some((anvil, dir, golf)) = course_on_a_node("golf-age") else {
        return;
    };
    let dir = dir.path();
    let before = nonce(&anvil, 1);
    let early = submit(dir, &anvil, &golf, 1, &["--puzzle", "golf"], &[]);
    early.fails(
        1,
        "nothing submitted: the commit is 0 s old in chain time and Curta Golf needs 60 s",
    );
    assert!(early.stderr.contains("--move-time"), "{}", early.stderr);
    assert_eq!(nonce(&anvil, 1), before + 1, "the commit only");
    // Anvil's clock moved by hand, then the same command resumes: no new commit.
    anvil.advance(60).unwrap();
    let done = submit(dir, &anvil, &golf, 1, &["--puzzle", "golf"], &[]);
    let out = done.ok();
    assert!(out.contains("resuming  the commit kept in"), "{out}");
    assert!(out.contains("king      yes"), "{out}");
    assert_eq!(nonce(&anvil, 1), before + 2, "commit and submit, one each");
}

/// A solution that passes the course's draws (seeds 1..=4) but is wrong on
/// another input: LoopPuzzleSlip never compares the top-left given. `golf
/// check` refuses it with the prover's counterexample, replayed in revm.
#[test]
fn golf_check_refuses_a_solution_the_course_passes_with_a_replayed_counterexample() {
    let dir = temp_dir("golf-slip");
    let slip = octoku_core::hex::encode_prefixed(octoku_evm::artifacts::LOOP_PUZZLE_SLIP.initcode);
    let out = octoku!()
        .dir(dir.path())
        .args(["golf", "check", "--bytecode", &slip, "--json"])
        .run();
    let report = out.json_with(1);
    assert_eq!(report["verdict"], "wrong", "{report}");
    for run in report["runs"].as_array().unwrap() {
        assert_eq!(run["result"], "passed", "the course passes it: {report}");
    }
    let proof = &report["proof"];
    assert_eq!(proof["result"], "counterexample");
    assert_ne!(
        proof["reference"], proof["solution"],
        "replayed results differ"
    );
    // The counterexample replayed here, in this test's own revm.
    let word = |i: usize| {
        proof["arguments"][i]
            .as_str()
            .unwrap()
            .parse::<octoku_core::U256>()
            .unwrap()
    };
    let data = octoku_prove::prove::verify_calldata(word(0), word(1));
    let mut evm = octoku_evm::Machine::new().unwrap();
    let (at, _) = evm
        .deploy(octoku_evm::artifacts::LOOP_PUZZLE_SLIP.initcode)
        .unwrap();
    let reference = evm.address_of(octoku_evm::Puzzle::Reference);
    let ours = evm.call_raw(reference, data.clone()).unwrap();
    let theirs = evm.call_raw(at, data).unwrap();
    assert_ne!(
        ours.output, theirs.output,
        "the reference and the slip disagree on it"
    );
}

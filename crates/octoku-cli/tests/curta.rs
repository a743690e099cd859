//! Curta for real: the protocol's own compiled contracts
//! (`../shared/curta/curta.json`, read at run time) deployed on anvil by the
//! recipe of its README, and the `octoku` binary adding, reading, solving
//! and ranking a puzzle there. No stand-in for Curta anywhere.
//!
//! When `../shared/curta` is missing these tests fail under `CI=true` with a
//! one-line reason, and are skipped with that line elsewhere.

use std::path::Path;

use alloy_provider::{DynProvider, Provider, ProviderBuilder};
use octoku_chain::{
    Chain, PrivateKey,
    primitives::{Address, U256},
};
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::Puzzle;
use octoku_testkit::{Anvil, DEV_KEYS, Run, TempDir, assert_keys, curta, octoku, temp_dir};
use serde_json::Value;

/// 0.02 ether, the least a phase 2 solve sends.
const PHASE_TWO_FEE: u128 = 20_000_000_000_000_000;

/// anvil, with a provider for what octoku does not do: read balances.
struct Node {
    anvil: Anvil,
    runtime: tokio::runtime::Runtime,
    provider: DynProvider,
}

impl Node {
    fn start() -> Node {
        let anvil = Anvil::start().expect("anvil starts");
        // Connecting octoku's chain first installs the TLS crypto provider
        // reqwest asks for (ring), which the provider below needs too.
        let key = PrivateKey::parse(DEV_KEYS[0]).unwrap();
        Chain::rpc(&anvil.url(), &key).expect("anvil answers");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let provider = ProviderBuilder::new()
            .connect_http(anvil.url().parse().unwrap())
            .erased();
        Node {
            anvil,
            runtime,
            provider,
        }
    }

    fn url(&self) -> String {
        self.anvil.url()
    }

    fn nonce(&self, account: Address) -> u64 {
        self.anvil.nonce(&account.to_string()).unwrap()
    }

    fn balance(&self, account: Address) -> U256 {
        self.runtime
            .block_on(async { self.provider.get_balance(account).await })
            .unwrap()
    }

    /// Moves the clock `seconds` ahead and mines a block at the new time.
    fn advance(&self, seconds: u64) {
        self.anvil.advance(seconds).unwrap();
    }
}

/// The real protocol on `node` (the test kit's recipe): Curta and its
/// FlagRenderer (a contract with no `name()`).
fn deploy_curta(node: &Node, artifacts: &Value, authors: &[Address]) -> (Address, Address) {
    let deployed = curta::deploy(&node.anvil, artifacts, authors);
    (deployed.curta, deployed.renderer)
}

fn account(n: usize) -> Address {
    PrivateKey::parse(DEV_KEYS[n]).unwrap().address().unwrap()
}

/// `octoku ARGS --rpc-url URL --private-key KEY(n)` in `dir`.
fn as_account(dir: &Path, url: &str, n: usize, args: &[&str]) -> Run {
    octoku!()
        .dir(dir)
        .args(args)
        .args(["--rpc-url", url, "--private-key", DEV_KEYS[n]])
        .run()
}

/// Account `author` adds the fair puzzle to `curta` with token `token` (JSON).
fn add_fair(dir: &Path, url: &str, curta: Address, author: usize, token: u64) -> Value {
    let curta = curta.to_string();
    let token = token.to_string();
    let args = [
        "deploy",
        "--puzzle",
        "fair",
        "--curta",
        &curta,
        "--token-id",
        &token,
        "--json",
    ];
    as_account(dir, url, author, &args).json()
}

/// Curta on a fresh node, with account 1 as its one author, and an empty
/// working directory named after `name`; `None` (skipped) without
/// `../shared/curta`. Also gives Curta's flag renderer.
fn curta_on_a_node(name: &str) -> Option<(Node, TempDir, Address, Address)> {
    let artifacts = curta::artifacts()?;
    let node = Node::start();
    let (curta, renderer) = deploy_curta(&node, &artifacts, &[account(1)]);
    Some((node, temp_dir(name), curta, renderer))
}

/// Runs `run` and checks the account's nonce did not move: nothing was sent.
fn nothing_sent(node: &Node, n: usize, run: impl FnOnce() -> Run) -> Run {
    let before = node.nonce(account(n));
    let out = run();
    assert_eq!(node.nonce(account(n)), before, "a transaction was sent");
    out
}

#[test]
fn only_an_unused_authorship_token_adds_a_named_puzzle_whose_board_is_what_generate_gives() {
    let Some((node, dir, curta, renderer)) = curta_on_a_node("curta-add") else {
        return;
    };
    let (url, dir, c) = (node.url(), dir.path(), curta.to_string());

    // `deploy PUZZLE --curta C --token-id TOKEN` as account `n` fails with
    // `reason`, and nothing is sent.
    let refused = |n: usize, puzzle: &[&str], token: &str, reason: &str| {
        let mut args = vec!["deploy"];
        args.extend(puzzle);
        args.extend(["--curta", &c, "--token-id", token]);
        nothing_sent(&node, n, || as_account(dir, &url, n, &args)).fails(1, reason);
    };
    // Account 3 owns no token; token 9 was never minted.
    refused(
        3,
        &["--puzzle", "fair"],
        "1",
        "does not own Authorship Token 1",
    );
    refused(1, &[], "9", "does not exist");
    // A contract without name(), and Curta itself, are refused.
    let r = renderer.to_string();
    refused(1, &["--puzzle-address", &r], "1", "has no name()");
    refused(1, &["--puzzle-address", &c], "1", "PuzzleInvalidAddress()");

    let added = add_fair(dir, &url, curta, 1, 1);
    assert_keys(
        &added,
        &[
            "chain",
            "chain_id",
            "curta",
            "puzzle_id",
            "puzzle_address",
            "puzzle",
            "name",
            "author",
            "token_id",
            "puzzle_tx",
            "add_tx",
            "recorded_in",
        ],
    );
    assert_eq!(added["puzzle_id"], 1);
    assert_eq!(added["puzzle"], "fair");
    assert_eq!(added["curta"], c);
    eprintln!(
        "gas: fair puzzle deployment {}, addPuzzle {}",
        added["puzzle_tx"]["gas"], added["add_tx"]["gas"]
    );

    // The token is spent now.
    refused(1, &["--puzzle", "golf"], "1", "already added a puzzle");

    // The board through Curta (recorded defaults, then explicit flags) is
    // octoku generate's for that player.
    let player = account(5).to_string();
    let expected = octoku!()
        .args(["generate", "--puzzle", "fair", &player, "--json"])
        .run()
        .json();
    let read = |flags: &[&str]| {
        octoku!()
            .dir(dir)
            .args(["board", &player, "--rpc-url", &url, "--json"])
            .args(flags)
            .run()
            .json()
    };
    for board in [
        read(&["--puzzle-id", "1"]),
        read(&["--curta", &c, "--puzzle-id", "1"]),
    ] {
        assert_keys(
            &board,
            &[
                "chain",
                "curta",
                "puzzle_id",
                "puzzle",
                "puzzle_address",
                "name",
                "author",
                "address",
                "start",
                "phase",
                "fee",
                "solved",
            ],
        );
        assert_eq!(board["start"], expected["start"]);
        assert_eq!(board["puzzle_address"], added["puzzle_address"]);
        assert_eq!((&board["phase"], &board["fee"]), (&0.into(), &0.into()));
        assert_eq!(board["solved"], false);
        assert_eq!(board["name"], added["name"]);
    }

    // The embedded chain has no Curta: one line, exit 2.
    octoku!()
        .dir(dir)
        .args(["board", &player, "--curta", &c, "--puzzle-id", "1"])
        .run()
        .fails(2, "need --rpc-url");
}

#[test]
fn an_authors_own_creation_code_is_the_puzzle_added_to_curta() {
    let Some((node, dir, curta, _)) = curta_on_a_node("curta-own") else {
        return;
    };
    let (url, dir, c) = (node.url(), dir.path(), curta.to_string());
    let own = octoku_evm::artifacts::LOOP_PUZZLE;
    let file = dir.join("LoopPuzzle.bin");
    std::fs::write(&file, octoku_core::hex::encode(own.initcode)).unwrap();
    let bytecode = format!("@{}", file.display());
    let deploy = |extra: &[&str]| {
        let mut args = vec![
            "deploy",
            "--curta",
            &c,
            "--token-id",
            "1",
            "--bytecode",
            &bytecode,
        ];
        args.extend(extra);
        as_account(dir, &url, 1, &args)
    };
    // Two puzzles named at once: refused before anything is sent.
    let r = c.clone();
    nothing_sent(&node, 1, || deploy(&["--puzzle-address", &r])).fails(2, "--puzzle-address and");

    // The token adds the author's contract, not a built-in puzzle.
    let added = deploy(&["--json"]).json();
    assert_eq!(added["puzzle"], Value::Null, "{added}");
    assert_eq!(added["name"], "loops");
    let at: Address = added["puzzle_address"].as_str().unwrap().parse().unwrap();
    let code = node
        .runtime
        .block_on(async { node.provider.get_code_at(at).await })
        .unwrap();
    assert_eq!(
        code.as_ref(),
        own.runtime,
        "the code added is the author's runtime"
    );
}

#[test]
fn players_solve_in_phases_0_1_and_2_for_the_fee_and_phase_3_is_closed() {
    let Some((node, dir, curta, _)) = curta_on_a_node("curta-solve") else {
        return;
    };
    let (url, dir, c) = (node.url(), dir.path(), curta.to_string());
    add_fair(dir, &url, curta, 1, 1);
    let on = ["--curta", &c, "--puzzle-id", "1", "--json"];
    let play = |n: usize, extra: &[&str]| {
        let args: Vec<&str> = ["play"].iter().chain(&on).chain(extra).copied().collect();
        as_account(dir, &url, n, &args)
    };

    // A wrong solution (account 4's, sent by account 3) is explained, not sent.
    let theirs = solve::solve(Puzzle::Fair.mirror_generate(&account(4)))
        .unwrap()
        .unwrap();
    let fours = theirs.to_hex();
    let args: Vec<&str> = ["submit", &fours].iter().chain(&on).copied().collect();
    nothing_sent(&node, 3, || as_account(dir, &url, 3, &args)).fails(1, "rejects the solution");

    let first = play(3, &[]).json();
    assert_keys(
        &first,
        &[
            "chain",
            "curta",
            "puzzle_id",
            "puzzle",
            "puzzle_address",
            "address",
            "start",
            "solution",
            "phase",
            "value",
            "tx",
            "reason",
        ],
    );
    assert_eq!(first["phase"], 0);
    eprintln!("gas: first solve (phase 0) {}", first["tx"]["gas"]);
    nothing_sent(&node, 3, || play(3, &[])).fails(1, "has already solved Curta puzzle 1");

    // Account 4 submits its own solution by hand, in phase 1.
    let args: Vec<&str> = ["submit", &fours].iter().chain(&on).copied().collect();
    let second = as_account(dir, &url, 4, &args).json();
    assert_eq!(second["phase"], 1);
    assert_eq!(
        Board::from_u256(second["solution"].as_str().unwrap().parse().unwrap()),
        theirs
    );
    eprintln!("gas: solve in phase 1 {}", second["tx"]["gas"]);

    // Phase 2: a solve without the fee is refused, with it accepted; Curta's
    // owner (account 0) and the author (account 1) get 0.01 ether each.
    node.advance(2 * 86_400 + 10);
    nothing_sent(&node, 5, || play(5, &[])).fails(1, "add --value 0.02ether");
    nothing_sent(&node, 5, || play(5, &["--value", "0.01ether"])).fails(1, "0.02 ether");
    let (owner, author) = (node.balance(account(0)), node.balance(account(1)));
    let third = play(5, &["--value", "0.02ether"]).json();
    assert_eq!(third["phase"], 2);
    assert_eq!(third["value"], PHASE_TWO_FEE as u64);
    let half = U256::from(PHASE_TWO_FEE / 2);
    assert_eq!(node.balance(account(0)), owner + half);
    assert_eq!(node.balance(account(1)), author + half);
    eprintln!("gas: solve in phase 2 {}", third["tx"]["gas"]);

    // Phase 3: closed, even with the fee.
    node.advance(3 * 86_400);
    nothing_sent(&node, 6, || play(6, &["--value", "20000000000000000"]))
        .fails(1, "are closed (phase 3");

    // The leaderboard: each solver with its phase, in order.
    let args: Vec<&str> = ["leaderboard"].iter().chain(&on).copied().collect();
    let rows = as_account(dir, &url, 0, &args).json();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (i, (row, (n, solve))) in rows
        .iter()
        .zip([(3, &first), (4, &second), (5, &third)])
        .enumerate()
    {
        assert_keys(row, &["address", "rank", "phase", "block", "tx"]);
        assert_eq!(row["address"], account(n).to_string());
        assert_eq!(row["rank"], i + 1);
        assert_eq!(row["phase"], i);
        assert_eq!(row["tx"], solve["tx"]["hash"]);
        assert_eq!(row["block"], solve["tx"]["block"]);
    }
    // The text form with the smallest page reads the same solvers.
    let args = ["leaderboard", "--puzzle-id", "1", "--page", "1"];
    let text = as_account(dir, &url, 0, &args);
    let text = text.ok();
    for n in [3, 4, 5] {
        assert!(text.contains(&account(n).to_string()), "{text}");
    }
}

//! On-chain play end to end: the `octoku` binary against a real anvil node
//! (the test kit's, on a free loopback port, stopped on drop), state and
//! events checked through alloy, every user-facing refusal exercised; and
//! the embedded chain across separate invocations.

use std::{net::TcpListener, path::PathBuf, thread};

use octoku_chain::{
    Chain, PrivateKey, arena,
    primitives::{Address, U256},
};
use octoku_core::{
    Board,
    classic9::{INVALID_GRIDS, VALID_GRIDS},
    solve::octoku as solve,
};
use octoku_testkit::{
    Anvil, DEV_ACCOUNTS, DEV_KEYS, LoopbackServer, Run, TempDir, assert_keys, octoku, temp_dir,
    write_keystore,
};
use serde_json::Value;

/// Dev account 0: the deployer, and the default signer on the embedded chain.
const DEV_0: &str = DEV_ACCOUNTS[0];

/// The fields `board --json`, `play --json` and `submit --json` share: the
/// chain, the arena, its puzzle and the player's board.
const SEAT_KEYS: [&str; 6] = [
    "chain",
    "arena",
    "puzzle",
    "puzzle_address",
    "address",
    "start",
];

/// Fails unless `v` has the seat's fields and exactly these others.
fn assert_seat_keys(v: &Value, others: &[&str]) {
    assert_keys(v, &[&SEAT_KEYS[..], others].concat());
}

/// The fields of `play --json` and `submit --json` beyond the seat's.
const PLAY_KEYS: [&str; 4] = ["solution", "rank", "tx", "reason"];

/// One test's chain and working directory (where `deployments/` goes): an
/// anvil node, or an embedded chain in a state file, both gone on drop.
struct Node {
    dir: TempDir,
    /// `--rpc-url URL` or `--state FILE`, appended to every chain command.
    flags: [String; 2],
    anvil: Option<Anvil>,
}

impl Node {
    fn anvil(name: &str) -> Node {
        Node::anvil_with(name, &[])
    }

    /// anvil started with its own `flags` too.
    fn anvil_with(name: &str, flags: &[&str]) -> Node {
        let anvil = Anvil::start_with(flags).expect("anvil starts");
        Node {
            dir: temp_dir(name),
            flags: ["--rpc-url".into(), anvil.url()],
            anvil: Some(anvil),
        }
    }

    /// An embedded chain whose state file is `chain.json` in the test's dir.
    fn embedded(name: &str) -> Node {
        let dir = temp_dir(name);
        let state = dir.path().join("chain.json").display().to_string();
        Node {
            dir,
            flags: ["--state".into(), state],
            anvil: None,
        }
    }

    /// The node's URL, or the state file's path.
    fn at(&self) -> &str {
        &self.flags[1]
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `octoku ARGS` on this chain, in this test's directory.
    fn octoku(&self, args: &[&str]) -> Run {
        self.without_chain(&[args, &[self.flags[0].as_str(), self.flags[1].as_str()]].concat())
    }

    /// `octoku ARGS` in this test's directory, with no chain flag.
    fn without_chain(&self, args: &[&str]) -> Run {
        octoku!().dir(self.dir.path()).args(args).run()
    }

    /// An alloy view of the anvil node.
    fn alloy(&self) -> Chain {
        Chain::rpc(self.at(), &PrivateKey::anvil_default()).unwrap()
    }

    /// Deploys puzzle `kind` and its arena as dev account 0; checks the
    /// JSON and returns (puzzle, arena).
    fn deploy(&self, kind: &str) -> (Address, Address) {
        let out = self
            .octoku(&[
                "deploy",
                "--puzzle",
                kind,
                "--private-key",
                DEV_KEYS[0],
                "--json",
            ])
            .json();
        assert_keys(
            &out,
            &[
                "chain_id",
                "puzzle",
                "puzzle_address",
                "arena",
                "deployer",
                "puzzle_tx",
                "arena_tx",
                "chain",
                "recorded_in",
                "earlier_deployments",
            ],
        );
        assert_eq!(out["puzzle"], kind);
        assert_eq!(out["chain_id"], 31337);
        for tx in ["puzzle_tx", "arena_tx"] {
            assert_keys(&out[tx], &["hash", "block", "gas", "fee"]);
            assert!(out[tx]["gas"].as_u64().unwrap() > 21_000, "{out}");
        }
        (address(&out["puzzle_address"]), address(&out["arena"]))
    }

    /// Plays on `arena` with `key`; returns its JSON (exit 0 asserted).
    fn play(&self, arena: Address, key: &str) -> Value {
        self.octoku(&[
            "play",
            "--arena",
            &arena.to_string(),
            "--private-key",
            key,
            "--json",
        ])
        .json()
    }

    /// The leaderboard as (address, rank, block) in the order printed.
    fn leaderboard(&self, args: &[&str]) -> Vec<(Address, u64, u64)> {
        let out = self
            .octoku(&[&["leaderboard", "--json"][..], args].concat())
            .json();
        out.as_array()
            .unwrap_or_else(|| panic!("a JSON list: {out}"))
            .iter()
            .map(|e| {
                (
                    address(&e["address"]),
                    u64_of(&e["rank"]),
                    u64_of(&e["block"]),
                )
            })
            .collect()
    }

    /// Deploys a classic 9×9 validator with `flags` as dev account 1;
    /// checks the JSON's fields and returns it and the validator's address.
    fn deploy_classic9(&self, flags: &[&str]) -> (Value, Address) {
        let deployed = self
            .octoku(
                &[
                    &["deploy"][..],
                    flags,
                    &["--private-key", DEV_KEYS[1], "--json"],
                ]
                .concat(),
            )
            .json();
        assert_keys(
            &deployed,
            &[
                "chain",
                "chain_id",
                "puzzle",
                "size",
                "puzzle_address",
                "puzzle_tx",
            ],
        );
        assert_eq!(deployed["size"], 9, "{flags:?}");
        assert_eq!(deployed["chain_id"], 31337, "{flags:?}");
        let at = address(&deployed["puzzle_address"]);
        (deployed, at)
    }

    /// The published valid and invalid 9×9 grids through `verify --size 9
    /// --puzzle-address AT`: each exits and answers as the grid is.
    fn verify_published_grids(&self, at: Address) {
        let (at, empty) = (at.to_string(), ".".repeat(81));
        let verify = ["verify", "--size", "9", "--puzzle-address", &at, &empty];
        for (grids, valid, code) in [(VALID_GRIDS, true, 0), (INVALID_GRIDS, false, 1)] {
            for grid in grids {
                let v = self
                    .octoku(&[&verify[..], &[grid, "--json"]].concat())
                    .json_with(code);
                assert_eq!(v["valid"], valid, "{at} {grid}");
                assert_eq!(v["puzzle_address"], at.as_str());
            }
        }
    }

    /// The state file as JSON (embedded chains only).
    fn state(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.at()).unwrap()).unwrap()
    }
}

fn address(v: &Value) -> Address {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("an address: {v}"))
}

fn u64_of(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a number: {v}"))
}

fn address_of(key: &str) -> Address {
    PrivateKey::parse(key).unwrap().address().unwrap()
}

/// The deployments file of anvil's chain in `node`'s directory.
fn deployments(node: &Node) -> Value {
    let text = std::fs::read_to_string(node.path("deployments/31337.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn deploy_and_three_plays_on_anvil_agree_with_the_state_and_events_alloy_reads() {
    let node = Node::anvil("play");
    let url = node.at();
    let (puzzle, arena_addr) = node.deploy("reference");

    // The deployment record is complete and parses (the latest of the list),
    // and no temporary file is left beside it.
    let file = deployments(&node);
    assert_eq!(file["chain_id"], 31337);
    let record = file["deployments"].as_array().unwrap().last().unwrap();
    assert_eq!(address(&record["arena"]), arena_addr);
    assert_eq!(address(&record["puzzle_address"]), puzzle);
    assert_eq!(record["puzzle"], "reference");
    for field in ["puzzle_tx", "arena_tx"] {
        assert_keys(&record[field], &["hash", "block", "gas", "fee"]);
    }
    assert!(
        !std::fs::read_dir(node.path("deployments"))
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
    );

    // Three players solve in turn; ranks follow the order.
    let players = &DEV_KEYS[1..4];
    let mut plays = Vec::new();
    for (i, key) in players.iter().enumerate() {
        let out = node.play(arena_addr, key);
        assert_seat_keys(&out, &PLAY_KEYS);
        assert_eq!(out["rank"], i as u64 + 1, "{out}");
        assert_eq!(address(&out["address"]), address_of(key));
        assert!(u64_of(&out["tx"]["gas"]) > 21_000, "{out}");
        assert_eq!(out["tx"]["hash"].as_str().unwrap().len(), 66, "{out}");
        let start = Board::from_u256(out["start"].as_str().unwrap().parse().unwrap());
        assert_eq!(start, octoku_core::generate(&address_of(key)));
        plays.push(out);
    }

    // `board` without --arena finds it in deployments/31337.json.
    let board = node
        .octoku(&["board", &address_of(DEV_KEYS[1]).to_string(), "--json"])
        .json();
    assert_eq!(board["start"], plays[0]["start"]);
    assert_eq!(board["solved"], true);
    assert_eq!(board["rank"], 1);
    let text = node.octoku(&["board", "--private-key", DEV_KEYS[4]]);
    assert!(
        text.ok()
            .contains(&format!("chain     {url} (chain id 31337)")),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("solved    not yet"), "{}", text.stdout);

    // State and events, read through alloy.
    let mut chain = node.alloy();
    assert_eq!(arena::solver_count(&mut chain, arena_addr).unwrap(), 3);
    assert_eq!(arena::puzzle_of(&mut chain, arena_addr).unwrap(), puzzle);
    for (i, (key, play)) in players.iter().zip(&plays).enumerate() {
        let at = arena::solved_at(&mut chain, arena_addr, address_of(key)).unwrap();
        assert_eq!(at.rank, i as u64 + 1);
        assert_eq!(at.block, u64_of(&play["tx"]["block"]));
    }
    let never = arena::solved_at(&mut chain, arena_addr, address_of(DEV_KEYS[4])).unwrap();
    assert_eq!((never.block, never.rank), (0, 0));
    let Chain::Rpc(rpc) = &chain else {
        unreachable!()
    };
    let latest = rpc.block_number().unwrap();
    let logs = rpc
        .logs(arena_addr, arena::SOLVED_TOPIC, 0, latest)
        .unwrap();
    assert_eq!(logs.len(), 3);
    for (i, ((block, log), (key, play))) in logs.iter().zip(players.iter().zip(&plays)).enumerate()
    {
        assert_eq!(*block, u64_of(&play["tx"]["block"]));
        let event = arena::decode_solved(log).unwrap();
        assert_eq!(event.solver, address_of(key));
        assert_eq!(event.rank, U256::from(i + 1));
        let solution: U256 = play["solution"].as_str().unwrap().parse().unwrap();
        assert_eq!(event.solution, solution);
    }
}

/// Refusals that depend on what is on the chain: a second solve is refused
/// before sending (exit 1, nothing paid, as on Curta), a wrong solution is
/// refused locally (exit 1, nothing sent), a key without ether is the
/// node's refusal (exit 4), and a node that goes away mid-run is exit 4.
#[test]
fn reverts_wrong_solutions_and_a_vanished_node_send_nothing() {
    let mut node = Node::anvil("errors");
    let url = node.at().to_string();
    let (_, arena_addr) = node.deploy("reference");
    let arena_arg = arena_addr.to_string();
    let arena_arg = arena_arg.as_str();
    let as_player = |cmd: &[&str], key: &str| {
        node.octoku(&[cmd, &["--arena", arena_arg, "--private-key", key]].concat())
    };
    let mut chain = node.alloy();

    // Solve once, then again: refused before sending (exit 1, as Curta's
    // path does), naming the solver and the arena's AlreadySolved.
    assert_eq!(
        as_player(&["play", "--json"], DEV_KEYS[1]).json()["rank"],
        1
    );
    let before = chain.balance(address_of(DEV_KEYS[1])).unwrap();
    let refused = as_player(&["play"], DEV_KEYS[1]);
    refused.fails(
        1,
        &format!(
            "nothing sent: {} has already solved this arena (rank 1",
            address_of(DEV_KEYS[1])
        ),
    );
    assert!(
        !refused.stdout.contains("sending"),
        "nothing is announced: {}",
        refused.stdout
    );
    // A repeat with a wrong solution is still "already solved" (checked first).
    as_player(&["submit", "0x1234"], DEV_KEYS[1])
        .fails(1, &format!("AlreadySolved({})", address_of(DEV_KEYS[1])));
    assert_eq!(
        chain.balance(address_of(DEV_KEYS[1])).unwrap(),
        before,
        "a refused second solve must send nothing"
    );

    // A wrong solution: the local check refuses it (exit 1), nothing sent.
    let before = chain.balance(address_of(DEV_KEYS[2])).unwrap();
    as_player(&["submit", "0x1234", "--json"], DEV_KEYS[2])
        .fails(1, "nothing sent: this arena's puzzle is reference");
    assert_eq!(chain.balance(address_of(DEV_KEYS[2])).unwrap(), before);
    assert_eq!(arena::solver_count(&mut chain, arena_addr).unwrap(), 1);

    // A correct hand-made solution through submit.
    let start = octoku_core::generate(&address_of(DEV_KEYS[2]));
    let solution = solve::solve(start)
        .unwrap()
        .expect("dev account 2's board is solvable");
    let out = as_player(&["submit", &solution.to_hex(), "--json"], DEV_KEYS[2]).json();
    assert_eq!(out["rank"], 2);

    // Insufficient funds: a fresh key with no ether (one whose board is solvable).
    let poor = (1u8..=255)
        .map(|b| format!("0x{}", format!("{b:02x}").repeat(32)))
        .find(|k| {
            let a = address_of(k);
            chain.balance(a).unwrap().is_zero()
                && solve::solve(octoku_core::generate(&a)).unwrap().is_some()
        })
        .unwrap();
    as_player(&["play"], &poor).fails(4, "insufficient funds");

    // The node goes away mid-run: the same one-line error.
    node.anvil.as_mut().unwrap().stop();
    node.octoku(&["play", "--arena", arena_arg, "--private-key", DEV_KEYS[3]])
        .fails(4, &format!("cannot reach the node at {url}"));
    node.octoku(&["deploy", "--private-key", DEV_KEYS[0]])
        .fails(4, "cannot reach the node");
}

/// Bad input and wrong addresses against a live node: each is one line
/// with its documented exit status (2 bad input, 4 chain), and a malformed
/// key is never echoed.
#[test]
fn refusals_on_anvil_are_one_line_with_their_exit_status() {
    let node = Node::anvil("refusals");
    let (puzzle, arena_addr) = node.deploy("fair");
    let (arena, puzzle) = (arena_addr.to_string(), puzzle.to_string());
    let (arena, puzzle) = (arena.as_str(), puzzle.as_str());
    let empty = ".".repeat(81);
    let not_an_arena = format!("{puzzle} is not an arena");
    let nowhere = "0x000000000000000000000000000000000000dEaD";
    let me = DEV_ACCOUNTS[4];
    let dead = format!(
        "http://127.0.0.1:{}",
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    );
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["play", "--arena", nowhere, "--private-key", DEV_KEYS[3]],
            4,
            "no contract code at 0x000000000000000000000000000000000000dEaD",
        ),
        (
            &["board", "--arena", nowhere, "--private-key", DEV_KEYS[3]],
            4,
            "no contract code",
        ),
        (
            &["board", DEV_0, "--puzzle-address", arena],
            4,
            "not a puzzle",
        ),
        (
            &["board", "--arena", puzzle, "--from", DEV_0],
            4,
            &not_an_arena,
        ),
        (
            &[
                "board",
                "--from",
                DEV_ACCOUNTS[1],
                "--private-key",
                DEV_KEYS[4],
                "--arena",
                arena,
            ],
            2,
            "is not the signer's address",
        ),
        (
            &["play", "--from", me, "--arena", arena],
            2,
            "sending needs a key",
        ),
        (
            &[
                "play",
                "--arena",
                arena,
                "--private-key",
                DEV_KEYS[2],
                "--gas-price",
                "1gwei",
                "--priority-gas-price",
                "2gwei",
            ],
            2,
            "--priority-gas-price 2000000000 is above --gas-price 1000000000",
        ),
        (
            &[
                "verify",
                "--size",
                "9",
                "--puzzle-address",
                "0x0000000000000000000000000000000000000009",
                &empty,
                VALID_GRIDS[0],
            ],
            4,
            "no contract code at",
        ),
        (
            &[
                "deploy",
                "--size",
                "9",
                "--puzzle",
                "fair",
                "--private-key",
                DEV_KEYS[1],
            ],
            2,
            "no 9x9 validator",
        ),
        (
            &[
                "deploy",
                "--puzzle",
                "classic9",
                "--size",
                "8",
                "--private-key",
                DEV_KEYS[1],
            ],
            2,
            "classic9 is the 9x9 validator",
        ),
    ];
    for (args, code, needle) in cases {
        node.octoku(args).fails(*code, needle);
    }
    // A port nothing listens on.
    for args in [
        &["play", "--arena", arena, "--private-key", DEV_KEYS[3]][..],
        &["board", "--arena", arena],
    ] {
        node.without_chain(&[args, &["--rpc-url", dead.as_str()]].concat())
            .fails(4, &format!("cannot reach the node at {dead}"));
    }
    // Malformed keys: exit 2, and the key is never echoed.
    for bad in ["0x1234", "not-a-key", &format!("{}ff", DEV_KEYS[3])] {
        let run = node.octoku(&["play", "--arena", arena, "--private-key", bad]);
        run.fails(2, "private key: expected 32 bytes of hex");
        assert!(!run.stderr.contains(bad) && !run.stdout.contains(bad));
    }
}

#[test]
fn embedded_chain_persists_across_invocations() {
    let node = Node::embedded("embedded");
    let state = node.at();

    // Nothing deployed yet: a clear error, and no file created.
    node.octoku(&["board"])
        .fails(4, "run `octoku deploy` first");
    assert!(!std::path::Path::new(state).exists());

    let deployed = node.octoku(&["deploy", "--json"]).json();
    assert!(
        deployed["chain"]
            .as_str()
            .unwrap()
            .starts_with("embedded ("),
        "{deployed}"
    );
    assert_eq!(deployed["puzzle_tx"]["block"], 1);
    assert_eq!(deployed["arena_tx"]["block"], 2);
    assert_eq!(deployed["puzzle"], "reference");
    assert!(std::path::Path::new(state).exists());
    assert!(
        !node.path("deployments").exists(),
        "the embedded chain records its deployment in its state file"
    );

    // board and play find the arena in the state file; the default key is anvil's account 0.
    let board = node.octoku(&["board", "--json"]).json();
    assert_seat_keys(&board, &["solved", "rank", "solved_block"]);
    assert_eq!(board["address"], DEV_0);
    assert_eq!(board["solved"], false);
    let played = node.octoku(&["play", "--json"]).json();
    assert_eq!(played["rank"], 1);
    assert_eq!(played["tx"]["block"], 3);
    assert_eq!(played["reason"], Value::Null);

    // A second player submits by hand in a later invocation.
    let start: U256 = node
        .octoku(&["board", "--private-key", DEV_KEYS[1], "--json"])
        .json()["start"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let solution = solve::solve(Board::from_u256(start)).unwrap().unwrap();
    node.octoku(&["submit", "0x1234", "--private-key", DEV_KEYS[1]])
        .fails(1, "nothing sent: this arena's puzzle is reference");
    let submitted = node
        .octoku(&[
            "submit",
            &solution.to_hex(),
            "--private-key",
            DEV_KEYS[1],
            "--json",
        ])
        .json();
    assert_eq!(submitted["rank"], 2);
    assert_eq!(
        submitted["tx"]["block"], 4,
        "a reverted submit mines no block"
    );
    assert_seat_keys(&submitted, &PLAY_KEYS);

    node.octoku(&["play"])
        .fails(1, &format!("AlreadySolved({DEV_0})"));
    let after = node.octoku(&["board", "--json"]).json();
    assert_eq!(
        (
            after["solved"].clone(),
            after["rank"].clone(),
            after["solved_block"].clone()
        ),
        (true.into(), 1.into(), 3.into())
    );

    // Text output names the chain and its state file.
    let text = node.octoku(&["board"]);
    assert!(
        text.ok().contains(&format!("chain     embedded ({state})")),
        "{}",
        text.stdout
    );

    // A fresh key has no ether on the embedded chain either (it submits
    // its own board's solution, so the local check passes).
    let fresh = format!("0x{}", "11".repeat(32));
    let own = solve::solve(octoku_core::generate(&address_of(&fresh)))
        .unwrap()
        .expect("the fresh key's board is solvable");
    node.octoku(&["submit", &own.to_hex(), "--private-key", &fresh])
        .fails(4, "insufficient funds");
}

#[test]
fn fair_arena_on_anvil_serves_fair_boards_that_players_win() {
    let node = Node::anvil("fair");
    let (_, arena_addr) = node.deploy("fair");
    for (i, key) in DEV_KEYS[1..4].iter().enumerate() {
        let played = node.play(arena_addr, key);
        assert_eq!(played["rank"], i as u64 + 1, "{played}");
        let start = Board::from_u256(played["start"].as_str().unwrap().parse().unwrap());
        let player = address_of(key);
        assert_eq!(
            start,
            octoku_core::octoku::fair::fair_generate(&player),
            "the arena serves the fair board"
        );
        assert_ne!(start, octoku_core::generate(&player));
    }
}

/// Six `play` commands at once on one embedded state file are all
/// recorded, with distinct ranks 1..=6: the state file's lock makes them
/// take turns, so no solve is lost to a later writer.
#[test]
fn six_plays_at_once_on_the_embedded_chain_are_all_recorded() {
    let node = Node::embedded("concurrent");
    node.octoku(&["deploy", "--puzzle", "fair"]).ok();
    let mut ranks: Vec<(u64, String)> = thread::scope(|s| {
        let plays: Vec<_> = DEV_KEYS[1..7]
            .iter()
            .map(|key| {
                let node = &node;
                s.spawn(move || node.octoku(&["play", "--json", "--private-key", *key]))
            })
            .collect();
        plays
            .into_iter()
            .map(|play| {
                let v = play.join().unwrap().json();
                (
                    u64_of(&v["rank"]),
                    v["address"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    });
    ranks.sort();
    assert_eq!(
        ranks.iter().map(|r| r.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6],
        "{ranks:?}"
    );
    // All six are on the chain: the leaderboard and the printed ranks agree.
    let board = node.leaderboard(&[]);
    assert_eq!(board.len(), 6, "{board:?}");
    for ((address, rank, _), (printed_rank, printed_address)) in board.iter().zip(&ranks) {
        assert_eq!(
            (rank, address.to_string()),
            (printed_rank, printed_address.clone())
        );
    }
}

/// The leaderboard from Solved events: three plays, on anvil (paged one
/// block per query, too) and on the embedded chain.
#[test]
fn leaderboard_lists_three_plays_on_anvil_and_on_the_embedded_chain() {
    let on_anvil = Node::anvil("leaderboard");
    let (_, arena_addr) = on_anvil.deploy("fair");
    let mut expected = Vec::new();
    for key in &DEV_KEYS[1..4] {
        let played = on_anvil.play(arena_addr, key);
        expected.push((
            address_of(key),
            u64_of(&played["rank"]),
            u64_of(&played["tx"]["block"]),
        ));
    }
    assert_eq!(on_anvil.leaderboard(&[]), expected);
    assert_eq!(
        on_anvil.leaderboard(&["--page", "1", "--from-block", "0"]),
        expected
    );
    let text = on_anvil.octoku(&["leaderboard"]);
    assert!(text.ok().contains("solvers   3"), "{}", text.stdout);

    let embedded = Node::embedded("leaderboard");
    embedded.octoku(&["deploy", "--puzzle", "fair"]).ok();
    let mut expected = Vec::new();
    for &key in &DEV_KEYS[1..4] {
        let played = embedded
            .octoku(&["play", "--json", "--private-key", key])
            .json();
        expected.push((
            address_of(key),
            u64_of(&played["rank"]),
            u64_of(&played["tx"]["block"]),
        ));
    }
    assert_eq!(embedded.leaderboard(&[]), expected);
    assert_eq!(expected.iter().map(|e| e.1).collect::<Vec<_>>(), [1, 2, 3]);
}

/// Signers as in cast: a keystore alloy writes (v3, scrypt), by path with
/// --password-file and by --account name in ~/.foundry/keystores; a wrong
/// password is exit 2 and never printed; --from reads without a key.
#[test]
fn a_keystore_plays_against_anvil_and_from_reads_without_a_key() {
    let node = Node::anvil("keystore");
    let (_, arena_addr) = node.deploy("fair");
    let home = node.path("home");
    let keystore = write_keystore(
        &home.join(".foundry/keystores"),
        "player",
        DEV_KEYS[4],
        "correct horse",
    );
    let password_file = node.path("password.txt");
    std::fs::write(&password_file, "correct horse\n").unwrap();
    let keystore = keystore.display().to_string();
    let password_file = password_file.display().to_string();
    let arena = arena_addr.to_string();
    let arena = arena.as_str();

    // --from reads "my" board with no key at all.
    let me = DEV_ACCOUNTS[4];
    let board = node
        .octoku(&["board", "--from", me, "--arena", arena, "--json"])
        .json();
    assert_eq!(board["address"], me);
    assert_eq!(board["puzzle"], "fair");

    // A wrong password: exit 2, one line, the password never shown.
    let wrong = node.octoku(&[
        "play",
        "--keystore",
        &keystore,
        "--password",
        "battery staple",
        "--arena",
        arena,
    ]);
    wrong.fails(2, "wrong password");
    assert!(!wrong.stderr.contains("battery") && !wrong.stdout.contains("battery"));

    let played = node
        .octoku(&[
            "play",
            "--keystore",
            &keystore,
            "--password-file",
            &password_file,
            "--arena",
            arena,
            "--json",
        ])
        .json();
    assert_eq!(played["address"], me);
    assert_eq!(played["rank"], 1);
    assert!(!played.to_string().contains("correct horse"));

    // --account NAME finds the same keystore under $HOME/.foundry/keystores.
    let board = octoku!()
        .dir(node.dir.path())
        .env("HOME", &home)
        .args([
            "board",
            "--account",
            "player",
            "--password-file",
            &password_file,
            "--arena",
            arena,
            "--json",
        ])
        .args(&node.flags)
        .run()
        .json();
    assert_eq!(
        (board["address"].as_str(), board["rank"].as_u64()),
        (Some(me), Some(1))
    );
}

/// Transaction flags reach the node: a legacy price is what the sender pays
/// per gas, --nonce is used (a stale one is the node's refusal), and more
/// confirmations than the embedded chain can give are refused.
#[test]
fn transaction_flags_set_price_nonce_and_confirmations() {
    let node = Node::anvil("txflags");
    let (_, arena_addr) = node.deploy("fair");
    let mut chain = node.alloy();
    let player = address_of(DEV_KEYS[1]);
    let before = chain.balance(player).unwrap();
    let played = node
        .octoku(&[
            "play",
            "--json",
            "--arena",
            &arena_addr.to_string(),
            "--private-key",
            DEV_KEYS[1],
            "--legacy",
            "--gas-price",
            "3gwei",
            "--gas-limit",
            "500000",
            "--nonce",
            "0",
            "--confirmations",
            "1",
            "--timeout",
            "60",
        ])
        .json();
    let gas = u64_of(&played["tx"]["gas"]);
    assert_eq!(
        before - chain.balance(player).unwrap(),
        U256::from(gas) * U256::from(3_000_000_000u64),
        "the sender paid exactly 3 gwei per gas"
    );
    assert_eq!(
        played["tx"]["fee"],
        (u128::from(gas) * 3_000_000_000).to_string(),
        "the fee shown is the fee paid"
    );
    // The next nonce is 1 now: a stale 0 is the node's refusal, nothing mined.
    let block = chain.block_number().unwrap();
    node.octoku(&["deploy", "--private-key", DEV_KEYS[1], "--nonce", "0"])
        .fails(4, "nonce");
    assert_eq!(chain.block_number().unwrap(), block);
    Node::embedded("txflags")
        .octoku(&["deploy", "--confirmations", "3"])
        .fails(2, "3 confirmations would never come");
}

/// A node that quotes 100,000 gwei per gas: nothing is sent under the
/// default ceiling (exit 1, the nonce unchanged); raised, the transaction is
/// sent, its most expensive case said on stderr first, and the fee shown is
/// what the balance lost.
#[test]
fn a_fee_quote_above_the_ceiling_sends_nothing_and_the_fee_paid_is_shown() {
    // 100,000 gwei base fee: alloy's estimate doubles it.
    let node = Node::anvil_with("feeceiling", &["--base-fee", "100000000000000"]);
    let deployed = node
        .octoku(&[
            "deploy",
            "--puzzle",
            "fair",
            "--private-key",
            DEV_KEYS[0],
            "--fee-ceiling",
            "1ether",
            "--json",
        ])
        .json();
    let arena = deployed["arena"].as_str().unwrap().to_owned();
    let mut chain = node.alloy();
    let player = address_of(DEV_KEYS[1]);
    let play = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--arena",
            &arena,
            "--private-key",
            DEV_KEYS[1],
            "--json",
        ];
        args.extend(extra);
        node.octoku(&args)
    };
    let nonce = node
        .anvil
        .as_ref()
        .unwrap()
        .nonce(&player.to_string())
        .unwrap();
    play(&[]).fails(1, "above the ceiling of 500 gwei");
    play(&["--gas-price", "600gwei", "--fee-ceiling", "550gwei"])
        .fails(1, "--gas-price gives a max fee of 600 gwei per gas");
    assert_eq!(
        node.anvil
            .as_ref()
            .unwrap()
            .nonce(&player.to_string())
            .unwrap(),
        nonce,
        "nothing was sent"
    );

    let before = chain.balance(player).unwrap();
    let played = play(&["--fee-ceiling", "1000000gwei"]).json();
    let paid = before - chain.balance(player).unwrap();
    assert_eq!(played["tx"]["fee"], paid.to_string(), "{played}");
    assert!(
        paid > U256::from(10u128.pow(16)),
        "100,000 gwei per gas was paid"
    );

    // In text, the plan comes first, the fee paid with the result.
    let other = address_of(DEV_KEYS[2]);
    let before = chain.balance(other).unwrap();
    let text = node
        .octoku(&[
            "play",
            "--arena",
            &arena,
            "--private-key",
            DEV_KEYS[2],
            "--fee-ceiling",
            "1000000gwei",
        ])
        .ok()
        .to_owned();
    let paid: u128 = (before - chain.balance(other).unwrap()).to();
    let sending = text
        .lines()
        .position(|l| l.starts_with("sending   to ") && l.contains("fees at most"));
    let result = text
        .lines()
        .position(|l| l == format!("fee paid  {}", octoku_chain::curta::fee_paid(paid)));
    assert!(
        matches!((sending, result), (Some(s), Some(r)) if s < r),
        "the plan before the fee paid: {text}"
    );
}

/// A second deploy keeps the first on record (deployments file and
/// embedded state) and says the new one is the default; the first arena
/// stays playable with --arena; a deployments file of another chain is
/// refused.
#[test]
fn every_deployment_stays_on_record_and_a_foreign_record_is_refused() {
    let node = Node::anvil("records");
    let (_, first) = node.deploy("reference");
    let second = node.octoku(&["deploy", "--puzzle", "fair", "--private-key", DEV_KEYS[0]]);
    assert!(
        second.ok().contains(
            "default   this arena is now the default; the 1 earlier deployment(s) stay on record"
        ),
        "{}",
        second.stdout
    );
    let record = deployments(&node);
    let arenas: Vec<Address> = record["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| address(&d["arena"]))
        .collect();
    assert_eq!(arenas.len(), 2, "{record}");
    assert_eq!(arenas[0], first);
    // The default is the latest (fair); the first is still playable by address.
    let board = node.octoku(&["board", "--from", DEV_0, "--json"]).json();
    assert_eq!(address(&board["arena"]), arenas[1]);
    assert_eq!(board["puzzle"], "fair");
    let played = node.play(first, DEV_KEYS[1]);
    assert_eq!(played["puzzle"], "reference");

    // The same file presented as another chain's record.
    let mut foreign = record.clone();
    foreign["chain_id"] = 1.into();
    std::fs::write(node.path("deployments/31337.json"), foreign.to_string()).unwrap();
    node.octoku(&["board", "--from", DEV_0])
        .fails(2, "records chain id 1, but the node is chain 31337");
    node.octoku(&["deploy", "--private-key", DEV_KEYS[0]])
        .fails(2, "records chain id 1");

    // The embedded chain keeps every deployment in its state file.
    let embedded = Node::embedded("records");
    for _ in 0..2 {
        embedded.octoku(&["deploy"]).ok();
    }
    let saved = embedded.state();
    assert_eq!(
        saved["deployments"].as_array().unwrap().len(),
        2,
        "{}",
        saved["deployments"]
    );
}

/// On a fair arena, a solution of the reference board is explained
/// locally (the arena's puzzle, and which puzzle the solution does solve)
/// and nothing is sent; `board` names the arena's puzzle.
#[test]
fn a_solution_for_the_wrong_puzzle_is_explained_before_sending() {
    let node = Node::embedded("kind");
    node.octoku(&["deploy", "--puzzle", "fair"]).ok();
    let board = node.octoku(&["board"]);
    assert!(
        board.ok().contains("puzzle    fair (0x"),
        "{}",
        board.stdout
    );
    assert!(
        board
            .stdout
            .contains("octoku solve --puzzle fair --address"),
        "{}",
        board.stdout
    );

    let solved = node
        .without_chain(&["solve", "--address", DEV_0, "--json"])
        .json();
    let wrong = solved["solution"].as_str().unwrap();
    let before = node.state();
    node.octoku(&["submit", wrong])
        .fails(1, "nothing sent: this arena's puzzle is fair")
        .fails(1, "it solves the reference puzzle's board instead");
    assert_eq!(before["block"], node.state()["block"], "nothing mined");

    let right = node
        .without_chain(&["solve", "--puzzle", "fair", "--address", DEV_0, "--json"])
        .json();
    let out = node
        .octoku(&["submit", right["solution"].as_str().unwrap(), "--json"])
        .json();
    assert_eq!(out["rank"], 1);
}

/// A state file with an impossible block number is refused naming the
/// field, and nothing is written.
#[test]
fn an_edited_state_file_with_block_zero_is_refused() {
    let node = Node::embedded("block0");
    node.octoku(&["deploy"]).ok();
    let mut saved = node.state();
    saved["block"] = 0.into();
    let edited = saved.to_string();
    std::fs::write(node.at(), &edited).unwrap();
    node.octoku(&["play"])
        .fails(4, "is impossible: field \"block\" is 0, but transaction 0x");
    assert_eq!(std::fs::read_to_string(node.at()).unwrap(), edited);
}

/// ETH_RPC_URL, PRIVATE_KEY, ETH_FROM and ETH_PASSWORD set but empty mean
/// unset: the embedded chain and dev account 0 are used.
#[test]
fn empty_environment_variables_mean_unset() {
    let node = Node::embedded("emptyenv");
    node.octoku(&["deploy"]).ok();
    for args in [&["board"][..], &["board", DEV_0]] {
        let mut run = octoku!().dir(node.dir.path()).args(args).args(&node.flags);
        for name in ["ETH_RPC_URL", "PRIVATE_KEY", "ETH_FROM", "ETH_PASSWORD"] {
            run = run.env(name, "");
        }
        let run = run.run();
        assert!(
            run.ok().contains("embedded (") && run.stdout.contains(DEV_0),
            "{}",
            run.stdout
        );
    }
}

/// https:// is spoken by the default build: against a loopback port that
/// closes the connection, the error is about the connection, not a missing
/// build feature.
#[test]
fn https_urls_are_tried_by_the_default_build() {
    // Accept and close each connection (the TLS handshake fails).
    let server = LoopbackServer::start(|stream, _| drop(stream)).unwrap();
    let url = format!("https://127.0.0.1:{}", server.port());
    let dir = temp_dir("https");
    let out = octoku!()
        .dir(dir.path())
        .args(["board", DEV_0, "--arena", DEV_0, "--rpc-url", &url])
        .run();
    out.fails(4, &format!("cannot reach the node at {url}"));
    assert!(
        !out.stderr.contains("feature") && !out.stderr.contains("http:// only"),
        "{}",
        out.stderr
    );
}

/// Reading any IPuzzle: board and name() of a puzzle contract without an
/// arena; -v logs go to stderr and leave stdout unchanged; a play whose
/// reader is gone exits 6 without a panic, before sending anything.
#[test]
fn puzzle_reads_logs_and_a_closed_pipe_after_a_play() {
    let node = Node::anvil("reads");
    let (puzzle, arena_addr) = node.deploy("fair");
    let read = node
        .octoku(&[
            "board",
            DEV_0,
            "--puzzle-address",
            &puzzle.to_string(),
            "--json",
        ])
        .json();
    let player: Address = DEV_0.parse().unwrap();
    assert_eq!(
        read["start"].as_str().unwrap().parse::<U256>().unwrap(),
        octoku_core::octoku::fair::fair_generate(&player).to_u256()
    );
    assert!(!read["name"].as_str().unwrap().is_empty(), "{read}");
    assert_eq!(read["puzzle"], "fair");

    let quiet = node.octoku(&["board", DEV_0, "--json"]);
    let loud = node.octoku(&["board", DEV_0, "--json", "-vv"]);
    assert_eq!(quiet.ok(), loud.ok(), "logs never reach stdout");
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    assert!(loud.stderr.contains("chain open"), "{}", loud.stderr);
    assert!(
        loud.stderr.contains("alloy"),
        "alloy's request logs at -vv: {}",
        loud.stderr
    );

    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = octoku!()
        .dir(node.dir.path())
        .args(["play", "--private-key", DEV_KEYS[3]])
        .args(&node.flags)
        .stdout(writer)
        .run();
    assert_eq!(out.code, 6, "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(out.stderr.contains("Broken pipe"), "{}", out.stderr);
    // The output failed before the transaction: nothing was sent.
    let mut chain = node.alloy();
    let at = arena::solved_at(&mut chain, arena_addr, address_of(DEV_KEYS[3])).unwrap();
    assert_eq!(at.rank, 0);
}

/// The classic 9×9 validators on anvil: `deploy --puzzle classic9` (the
/// golfed) and `deploy --size 9 --puzzle reference` at the deployment gas
/// `octoku gas` reports, their code read back through alloy, the published
/// valid and invalid grids through `verify --size 9 --puzzle-address`
/// (cross-checked with the mirror by the CLI), and a short grid refused.
#[test]
fn classic9_validators_on_anvil_answer_the_published_grids() {
    let node = Node::anvil("classic9");
    for (flags, puzzle, runtime, gas) in [
        (
            &["--puzzle", "classic9"][..],
            "golf",
            octoku_evm::artifacts::CLASSIC9_GOLF.runtime,
            230_552,
        ),
        (
            &["--size", "9", "--puzzle=reference"],
            "reference",
            octoku_evm::artifacts::CLASSIC9_REFERENCE.runtime,
            342_030,
        ),
    ] {
        let (deployed, at) = node.deploy_classic9(flags);
        assert_eq!(deployed["puzzle"], puzzle);
        assert_eq!(deployed["puzzle_tx"]["gas"], gas, "{puzzle}");
        assert_eq!(node.alloy().code_at(at).unwrap().as_ref(), runtime);
        node.verify_published_grids(at);
        node.octoku(&[
            "verify",
            "--size",
            "9",
            "--puzzle-address",
            &at.to_string(),
            "0x0102",
            VALID_GRIDS[0],
        ])
        .fails(2, "a grid of 2 bytes: expected 81 bytes");
    }
}

/// `deploy --puzzle classic9` on the embedded chain: the golfed 9×9
/// validator at the gas `octoku gas` reports for its deployment (the same
/// as `--size 9 --golf`), a text report whose next command names the
/// chain, and the published grids through `verify --size 9
/// --puzzle-address A --state S`.
#[test]
fn classic9_validators_on_the_embedded_chain_answer_the_published_grids() {
    let node = Node::embedded("classic9");
    let help = node.without_chain(&["deploy", "--help"]);
    assert!(help.ok().contains("classic9"), "{}", help.stdout);
    let gas = node.without_chain(&["gas", "--json"]).json();
    let row = gas["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["puzzle"] == "golf" && d["size"] == 9)
        .expect("a deployment row for the golfed 9x9 validator")
        .clone();

    let mut addresses = Vec::new();
    for flags in [&["--puzzle", "classic9"][..], &["--size", "9", "--golf"]] {
        let (deployed, at) = node.deploy_classic9(flags);
        assert_eq!(deployed["puzzle"], "golf", "{flags:?}");
        assert_eq!(deployed["puzzle_tx"]["gas"], row["gas"], "{flags:?}");
        addresses.push(at);
    }
    assert_ne!(addresses[0], addresses[1]);

    let run = node.octoku(&["deploy", "--puzzle", "classic9"]);
    let text = run.ok();
    assert!(
        text.contains(&format!("(9x9 golf, block 3, gas {}, tx ", row["gas"])),
        "{text}"
    );
    assert!(
        text.contains(&format!(" --state {} START SOLUTION", node.at())),
        "{text}"
    );
    node.verify_published_grids(addresses[0]);
}

/// An author's puzzle deployed on a node (LoopPuzzle, contracts/harness/),
/// recorded in deployments/<chain-id>.json like a built-in's (board finds
/// its arena by default); `--puzzle-address` with `--rpc-url` reads its
/// code and runs it here, in generate, verify, solve, gas, fuzz and check
/// alike.
#[test]
fn an_authors_puzzle_on_a_node_runs_through_puzzle_address() {
    let node = Node::anvil("own-puzzle");
    let code = format!(
        "0x{}",
        octoku_core::hex::encode(octoku_evm::artifacts::LOOP_PUZZLE.initcode)
    );
    let deployed = node
        .octoku(&[
            "deploy",
            "--bytecode",
            &code,
            "--private-key",
            DEV_KEYS[0],
            "--json",
        ])
        .json();
    assert_eq!(deployed["puzzle"], "bytecode");
    assert_eq!(deployed["recorded_in"], "deployments/31337.json");
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(node.path("deployments/31337.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["deployments"][0]["puzzle"], "bytecode");
    assert_eq!(record["deployments"][0]["arena"], deployed["arena"]);
    let puzzle = deployed["puzzle_address"].as_str().unwrap().to_string();
    let on_node = ["--puzzle-address", puzzle.as_str()];
    let player = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    let seat = node.octoku(&["board", player, "--json"]).json();
    assert_eq!(seat["arena"], deployed["arena"]);
    let board = node
        .octoku(&[&["generate", player, "--json"][..], &on_node].concat())
        .json();
    let reference = node.without_chain(&["generate", player, "--json"]).json();
    assert_eq!(board["start"], reference["start"]);
    let start = Board::from_u256(board["start"].as_str().unwrap().parse::<U256>().unwrap());
    let solution = solve::solve(start).unwrap().expect("solvable").to_hex();
    node.octoku(&[&["verify", &start.to_hex(), &solution][..], &on_node].concat())
        .code(0);
    let solved = node
        .octoku(&[&["solve", "--address", player, "--json"][..], &on_node].concat())
        .json();
    assert_eq!(solved["solution"], solution.as_str());
    assert_eq!(solved["puzzle"], puzzle.as_str());
    let gas = node
        .octoku(&[&["gas", "--runs", "2", "--json"][..], &on_node].concat())
        .json();
    assert_eq!(
        gas["runtime_size"],
        octoku_evm::artifacts::LOOP_PUZZLE.runtime.len()
    );
    let fuzzed = node
        .octoku(&[&["fuzz", "--cases", "300", "--json"][..], &on_node].concat())
        .json();
    assert_eq!(fuzzed["mismatch"], Value::Null, "{fuzzed}");
    assert_eq!(fuzzed["target"], puzzle.as_str());
    let card = node
        .octoku(&[&["check", "--no-prove", "--json"][..], &on_node].concat())
        .json();
    assert_eq!(card["ok"], true, "{card}");
}

/// `--unlocked --from A` sends from an account anvil unlocked, with no key
/// here (eth_sendTransaction, as cast's --unlocked): deploy and play go
/// through and the arena records A as the solver; `-r` is --rpc-url and
/// `-j` (also before the command) is --json. Without --from, or without a
/// node, --unlocked is bad input (exit 2).
#[test]
fn unlocked_accounts_deploy_and_play_without_a_key() {
    let node = Node::anvil("unlocked");
    let url = node.at().to_string();
    let from = DEV_ACCOUNTS[3];
    let from_address: Address = from.parse().unwrap();
    let deployed = node
        .without_chain(&["-j", "deploy", "-r", &url, "--unlocked", "--from", from])
        .json();
    assert_eq!(address(&deployed["deployer"]), from_address);
    let arena = deployed["arena"].as_str().unwrap().to_string();
    let played = node
        .without_chain(&[
            "play",
            "-r",
            &url,
            "--arena",
            &arena,
            "--unlocked",
            "--from",
            from,
            "-j",
        ])
        .json();
    assert_eq!(played["rank"], 1, "{played}");
    assert_eq!(address(&played["address"]), from_address);
    let mut chain = node.alloy();
    let arena: Address = arena.parse().unwrap();
    let solved = arena::solved_at(&mut chain, arena, from_address).unwrap();
    assert_eq!(solved.rank, 1);

    let refused = node.without_chain(&[
        "play",
        "-r",
        &url,
        "--arena",
        &arena.to_string(),
        "--unlocked",
    ]);
    refused.code(2);
    assert!(refused.stderr.contains("--from"), "{}", refused.stderr);
    node.without_chain(&["play", "--unlocked", "--from", from])
        .fails(
            2,
            "--unlocked sends from an account a node unlocked; expected --rpc-url and --from",
        );
    node.without_chain(&[
        "play",
        "-r",
        &url,
        "--unlocked",
        "--from",
        from,
        "--private-key",
        DEV_KEYS[3],
    ])
    .code(2);
}

/// On the embedded chain, a second `play` by the same account is refused
/// before anything is sent (exit 1, as on Curta): the state's block number
/// does not move.
#[test]
fn a_second_play_on_the_embedded_chain_is_refused_and_sends_nothing() {
    let node = Node::embedded("already-solved");
    node.octoku(&["deploy", "--json"]).json();
    assert_eq!(node.octoku(&["play", "--json"]).json()["rank"], 1);
    let before = node.octoku(&["leaderboard", "--json"]).json();
    let refused = node.octoku(&["play"]);
    refused.fails(
        1,
        &format!("nothing sent: {DEV_0} has already solved this arena (rank 1"),
    );
    assert!(
        !refused.stdout.contains("sending"),
        "nothing announced: {}",
        refused.stdout
    );
    assert_eq!(node.octoku(&["leaderboard", "--json"]).json(), before);
}

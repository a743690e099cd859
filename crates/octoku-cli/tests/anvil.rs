//! On-chain play end to end: the `octoku` binary against a real anvil node
//! (started here on a free 127.0.0.1 port, killed on drop), state and events
//! checked through alloy, every user-facing error exercised; and the embedded
//! chain across separate invocations.

use std::{
    net::{TcpListener, TcpStream},
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::atomic::{AtomicU32, Ordering},
    thread,
    time::{Duration, Instant},
};

use octoku_core::{Board, solve};
use octoku_evm::chain::{
    Chain, PrivateKey, arena,
    primitives::{Address, U256},
};
use serde_json::Value;

mod common;
use common::assert_keys;

/// anvil's dev keys 0..4 (public test keys).
const KEYS: [&str; 5] = [
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running anvil, killed when dropped.
struct Anvil {
    child: Child,
    port: u16,
}

impl Anvil {
    fn start() -> Anvil {
        let bin = anvil_binary();
        let port = free_port();
        let child = Command::new(&bin)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                &port.to_string(),
                "--silent",
            ])
            // Its own process group, so a wrapper and its child die together.
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start anvil");
        let mut anvil = Anvil { child, port };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            if let Ok(Some(status)) = anvil.child.try_wait() {
                panic!("anvil exited before answering: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "anvil did not answer on port {port} within 30 s"
            );
            thread::sleep(Duration::from_millis(25));
        }
        // The port accepts; wait until JSON-RPC answers too.
        let key = PrivateKey::parse(KEYS[0]).unwrap();
        while Chain::rpc(&anvil.url(), &key).is_err() {
            assert!(
                Instant::now() < deadline,
                "anvil did not answer JSON-RPC within 30 s"
            );
            thread::sleep(Duration::from_millis(25));
        }
        anvil
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn kill(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // The whole group: node_modules/.bin/anvil may be a node wrapper
            // whose child is the real anvil.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        self.kill();
    }
}

/// anvil from `make setup`: the native binary of the platform package when
/// there is one (so killing the child kills anvil), else the npm wrapper.
fn anvil_binary() -> PathBuf {
    let modules = workspace_root().join("node_modules");
    let native = std::fs::read_dir(modules.join("@foundry-rs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("anvil-"))
        })
        .map(|p| p.join("bin/anvil"))
        .find(|p| p.is_file());
    let bin = native.unwrap_or_else(|| modules.join(".bin/anvil"));
    assert!(
        bin.exists(),
        "{} is missing: run `make setup` in the repository root",
        bin.display()
    );
    bin
}

/// A loopback port nothing listens on (bound, then released).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A fresh empty directory for one test's `deployments/` and state files.
fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "octoku-anvil-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        assert_eq!(
            self.code, 0,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }

    /// Asserts a failure with exit `code` and one line on stderr containing `needle`.
    fn fails(&self, code: i32, needle: &str) -> &Run {
        assert_eq!(
            self.code, code,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        let lines: Vec<_> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "expected one line on stderr, got: {}",
            self.stderr
        );
        assert!(lines[0].starts_with("octoku: "), "{}", self.stderr);
        assert!(
            lines[0].contains(needle),
            "expected {needle:?} in: {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
}

fn octoku(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(args)
        .current_dir(dir)
        .env_remove("ETH_RPC_URL")
        .env_remove("PRIVATE_KEY")
        .stdin(Stdio::null())
        .output()
        .expect("run octoku");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn address_of(key: &str) -> Address {
    PrivateKey::parse(key).unwrap().address().unwrap()
}

/// Deploys puzzle `kind` and its arena with the CLI; returns (puzzle, arena).
fn deploy(dir: &Path, url: &str, kind: &str) -> (Address, Address) {
    let out = octoku(
        dir,
        &[
            "deploy",
            "--puzzle",
            kind,
            "--rpc-url",
            url,
            "--private-key",
            KEYS[0],
            "--json",
        ],
    )
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
    let puzzle: Address = out["puzzle_address"].as_str().unwrap().parse().unwrap();
    let arena: Address = out["arena"].as_str().unwrap().parse().unwrap();
    assert_eq!(out["puzzle"], kind);
    assert_eq!(out["chain_id"], 31337);
    assert!(
        out["chain"].as_str().unwrap().contains("(chain id 31337)"),
        "{out}"
    );
    for tx in ["puzzle_tx", "arena_tx"] {
        assert_keys(&out[tx], &["hash", "block", "gas"]);
        assert!(out[tx]["gas"].as_u64().unwrap() > 21_000, "{out}");
    }
    (puzzle, arena)
}

/// Plays on `arena` with `key` through the CLI; returns its JSON.
fn play(dir: &Path, url: &str, arena: Address, key: &str) -> Value {
    octoku(
        dir,
        &[
            "play",
            "--arena",
            &arena.to_string(),
            "--rpc-url",
            url,
            "--private-key",
            key,
            "--json",
        ],
    )
    .json()
}

#[test]
fn deploy_play_and_read_back_through_alloy() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("play");
    let (puzzle, arena_addr) = deploy(&dir, &url, "reference");

    // The deployment record is complete and parses (the latest of the list).
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("deployments/31337.json")).unwrap())
            .unwrap();
    assert_eq!(file["chain_id"], 31337);
    let record = file["deployments"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        record["arena"]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        arena_addr
    );
    assert_eq!(
        record["puzzle_address"]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        puzzle
    );
    assert_eq!(record["puzzle"], "reference");
    for field in ["puzzle_tx", "arena_tx"] {
        assert_keys(&record[field], &["hash", "block", "gas"]);
    }
    assert!(
        !std::fs::read_dir(dir.join("deployments"))
            .unwrap()
            .any(|e| { e.unwrap().file_name().to_string_lossy().ends_with(".tmp") })
    );

    // Three players solve in turn; ranks follow the order.
    let mut plays = Vec::new();
    for (i, key) in KEYS[1..4].iter().enumerate() {
        let out = play(&dir, &url, arena_addr, key);
        assert_eq!(out["rank"], i as u64 + 1, "{out}");
        assert_eq!(
            out["address"].as_str().unwrap().parse::<Address>().unwrap(),
            address_of(key)
        );
        assert_keys(
            &out,
            &[
                "chain",
                "arena",
                "puzzle",
                "puzzle_address",
                "address",
                "start",
                "solution",
                "rank",
                "tx",
                "reason",
            ],
        );
        assert!(out["tx"]["gas"].as_u64().unwrap() > 21_000, "{out}");
        assert_eq!(out["tx"]["hash"].as_str().unwrap().len(), 66, "{out}");
        let start = Board::from_u256(out["start"].as_str().unwrap().parse().unwrap());
        assert_eq!(start, octoku_core::generate(&address_of(key)));
        plays.push(out);
    }

    // `board` without --arena finds it in deployments/31337.json.
    let board = octoku(
        &dir,
        &[
            "board",
            &address_of(KEYS[1]).to_string(),
            "--rpc-url",
            &url,
            "--json",
        ],
    )
    .json();
    assert_eq!(board["start"], plays[0]["start"]);
    assert_eq!(board["solved"], true);
    assert_eq!(board["rank"], 1);
    let text = octoku(
        &dir,
        &["board", "--rpc-url", &url, "--private-key", KEYS[4]],
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains(&format!("chain     {url} (chain id 31337)")),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("solved    not yet"), "{}", text.stdout);

    // State and events, read through alloy.
    let mut chain = Chain::rpc(&url, &PrivateKey::parse(KEYS[0]).unwrap()).unwrap();
    assert_eq!(arena::solver_count(&mut chain, arena_addr).unwrap(), 3);
    assert_eq!(arena::puzzle_of(&mut chain, arena_addr).unwrap(), puzzle);
    for (i, (key, play)) in KEYS[1..4].iter().zip(&plays).enumerate() {
        let at = arena::solved_at(&mut chain, arena_addr, address_of(key)).unwrap();
        assert_eq!(at.rank, i as u64 + 1);
        assert_eq!(at.block, play["tx"]["block"].as_u64().unwrap());
    }
    let never = arena::solved_at(&mut chain, arena_addr, address_of(KEYS[4])).unwrap();
    assert_eq!((never.block, never.rank), (0, 0));
    let Chain::Rpc(rpc) = &chain else {
        unreachable!()
    };
    let latest = rpc.block_number().unwrap();
    let logs = rpc
        .logs(arena_addr, arena::SOLVED_TOPIC, 0, latest)
        .unwrap();
    assert_eq!(logs.len(), 3);
    for (i, ((block, log), (key, play))) in
        logs.iter().zip(KEYS[1..4].iter().zip(&plays)).enumerate()
    {
        assert_eq!(*block, play["tx"]["block"].as_u64().unwrap());
        let event = arena::decode_solved(log).unwrap();
        assert_eq!(event.solver, address_of(key));
        assert_eq!(event.rank, U256::from(i + 1));
        let solution: U256 = play["solution"].as_str().unwrap().parse().unwrap();
        assert_eq!(event.solution, solution);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_error_is_one_line_and_nothing_is_sent() {
    let mut anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("errors");
    let (_, arena_addr) = deploy(&dir, &url, "reference");
    let arena_arg = arena_addr.to_string();
    let base = |key: &'static str| {
        vec![
            "--arena".to_string(),
            arena_arg.clone(),
            "--rpc-url".into(),
            url.clone(),
            "--private-key".into(),
            key.into(),
        ]
    };
    let run = |cmd: &[&str], key: &'static str| {
        let mut args: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        args.extend(base(key));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        octoku(&dir, &args)
    };
    let mut chain = Chain::rpc(&url, &PrivateKey::parse(KEYS[0]).unwrap()).unwrap();

    // Solve once, then again: AlreadySolved with the solver's address, exit 5
    // (a revert; 1 is "invalid").
    assert_eq!(run(&["play", "--json"], KEYS[1]).json()["rank"], 1);
    let before = chain.balance(address_of(KEYS[1])).unwrap();
    run(&["play"], KEYS[1]).fails(5, &format!("AlreadySolved({})", address_of(KEYS[1])));
    // A repeat with a wrong solution is still AlreadySolved (checked first).
    run(&["submit", "0x1234"], KEYS[1]).fails(5, "AlreadySolved(");
    assert_eq!(
        chain.balance(address_of(KEYS[1])).unwrap(),
        before,
        "a simulated revert must send nothing"
    );

    // A wrong solution: the local check refuses it (exit 1), nothing sent.
    let before = chain.balance(address_of(KEYS[2])).unwrap();
    run(&["submit", "0x1234", "--json"], KEYS[2])
        .fails(1, "nothing sent: this arena's puzzle is reference");
    assert_eq!(chain.balance(address_of(KEYS[2])).unwrap(), before);
    assert_eq!(arena::solver_count(&mut chain, arena_addr).unwrap(), 1);

    // A correct hand-made solution through submit.
    let start = octoku_core::generate(&address_of(KEYS[2]));
    let solution = solve::solve(start)
        .unwrap()
        .expect("dev account 2's board is solvable");
    let out = run(&["submit", &solution.to_hex(), "--json"], KEYS[2]).json();
    assert_eq!(out["rank"], 2);

    // No code at the arena address.
    let nowhere = "0x000000000000000000000000000000000000dEaD";
    octoku(
        &dir,
        &[
            "play",
            "--arena",
            nowhere,
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[3],
        ],
    )
    .fails(
        4,
        "no contract code at 0x000000000000000000000000000000000000dEaD",
    );
    octoku(
        &dir,
        &[
            "board",
            "--arena",
            nowhere,
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[3],
        ],
    )
    .fails(4, "no contract code");

    // Malformed keys: exit 2, and the key is never echoed.
    for bad in ["0x1234", "not-a-key", &format!("{}ff", KEYS[3])] {
        let r = run(&["play"], Box::leak(bad.to_string().into_boxed_str()));
        r.fails(2, "private key: expected 32 bytes of hex");
        assert!(!r.stderr.contains(bad) && !r.stdout.contains(bad));
    }

    // Insufficient funds: a fresh key with no ether (one whose board is solvable).
    let poor = (1u8..=255)
        .map(|b| format!("0x{}", format!("{b:02x}").repeat(32)))
        .find(|k| {
            let a = address_of(k);
            chain.balance(a).unwrap().is_zero()
                && solve::solve(octoku_core::generate(&a)).unwrap().is_some()
        })
        .unwrap();
    let poor: &'static str = Box::leak(poor.into_boxed_str());
    run(&["play"], poor).fails(4, "insufficient funds");

    // A port nothing listens on.
    let dead = format!("http://127.0.0.1:{}", free_port());
    octoku(
        &dir,
        &[
            "play",
            "--arena",
            &arena_arg,
            "--rpc-url",
            &dead,
            "--private-key",
            KEYS[3],
        ],
    )
    .fails(4, &format!("cannot reach the node at {dead}"));
    octoku(&dir, &["board", "--arena", &arena_arg, "--rpc-url", &dead])
        .fails(4, "cannot reach the node");

    // The node goes away mid-run: the same one-line error.
    anvil.kill();
    run(&["play"], KEYS[3]).fails(4, &format!("cannot reach the node at {url}"));
    octoku(
        &dir,
        &["deploy", "--rpc-url", &url, "--private-key", KEYS[0]],
    )
    .fails(4, "cannot reach the node");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn embedded_chain_persists_across_invocations() {
    let dir = temp_dir("embedded");
    let state = dir.join("chain/state.json");
    let state_arg = state.to_str().unwrap();

    // Nothing deployed yet: a clear error, and no file created.
    octoku(&dir, &["board", "--state", state_arg]).fails(4, "run `octoku deploy` first");
    assert!(!state.exists());

    let deployed = octoku(&dir, &["deploy", "--state", state_arg, "--json"]).json();
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
    assert!(state.exists());
    assert!(
        !dir.join("deployments").exists(),
        "the embedded chain records its deployment in its state file"
    );

    // board and play find the arena in the state file; the default key is anvil's account 0.
    let board = octoku(&dir, &["board", "--state", state_arg, "--json"]).json();
    assert_keys(
        &board,
        &[
            "chain",
            "arena",
            "puzzle",
            "puzzle_address",
            "address",
            "start",
            "solved",
            "rank",
            "solved_block",
        ],
    );
    assert_eq!(
        board["address"],
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    );
    assert_eq!(board["solved"], false);
    let played = octoku(&dir, &["play", "--state", state_arg, "--json"]).json();
    assert_eq!(played["rank"], 1);
    assert_eq!(played["tx"]["block"], 3);
    assert_eq!(played["reason"], Value::Null);

    // A second player submits by hand in a later invocation.
    let start: U256 = octoku(
        &dir,
        &[
            "board",
            "--state",
            state_arg,
            "--private-key",
            KEYS[1],
            "--json",
        ],
    )
    .json()["start"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let solution = solve::solve(Board::from_u256(start)).unwrap().unwrap();
    let wrong = octoku(
        &dir,
        &[
            "submit",
            "0x1234",
            "--state",
            state_arg,
            "--private-key",
            KEYS[1],
        ],
    );
    wrong.fails(1, "nothing sent: this arena's puzzle is reference");
    let submitted = octoku(
        &dir,
        &[
            "submit",
            &solution.to_hex(),
            "--state",
            state_arg,
            "--private-key",
            KEYS[1],
            "--json",
        ],
    )
    .json();
    assert_eq!(submitted["rank"], 2);
    assert_eq!(
        submitted["tx"]["block"], 4,
        "a reverted submit mines no block"
    );
    assert_keys(
        &submitted,
        &[
            "chain",
            "arena",
            "puzzle",
            "puzzle_address",
            "address",
            "start",
            "solution",
            "rank",
            "tx",
            "reason",
        ],
    );

    octoku(&dir, &["play", "--state", state_arg]).fails(
        5,
        "AlreadySolved(0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266)",
    );
    let after = octoku(&dir, &["board", "--state", state_arg, "--json"]).json();
    assert_eq!(
        (
            after["solved"].clone(),
            after["rank"].clone(),
            after["solved_block"].clone()
        ),
        (true.into(), 1.into(), 3.into())
    );

    // Text output names the chain and its state file.
    let text = octoku(&dir, &["board", "--state", state_arg]);
    assert!(
        text.stdout
            .contains(&format!("chain     embedded ({state_arg})")),
        "{}",
        text.stdout
    );

    // A fresh key has no ether on the embedded chain either (it submits
    // its own board's solution, so the local check passes).
    let fresh = format!("0x{}", "11".repeat(32));
    let own = solve::solve(octoku_core::generate(&address_of(&fresh)))
        .unwrap()
        .expect("the fresh key's board is solvable");
    octoku(
        &dir,
        &[
            "submit",
            &own.to_hex(),
            "--state",
            state_arg,
            "--private-key",
            &fresh,
        ],
    )
    .fails(4, "insufficient funds");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fair_arena_on_anvil_serves_fair_boards_that_players_win() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("fair");
    let (_, arena_addr) = deploy(&dir, &url, "fair");
    for (i, key) in KEYS[1..4].iter().enumerate() {
        let played = play(&dir, &url, arena_addr, key);
        assert_eq!(played["rank"], i as u64 + 1, "{played}");
        let start = Board::from_u256(played["start"].as_str().unwrap().parse().unwrap());
        let player = address_of(key);
        assert_eq!(
            start,
            octoku_core::fair::fair_generate(&player),
            "the arena serves the fair board"
        );
        assert_ne!(start, octoku_core::generate(&player));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- issue 13: concurrency, signers, leaderboard, records, reads --------

/// anvil's dev keys 5..9 (public test keys), for the six-player tests.
const MORE_KEYS: [&str; 5] = [
    "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
    "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
    "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
    "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
];

fn all_keys() -> Vec<&'static str> {
    let keys: Vec<&str> = KEYS.iter().chain(MORE_KEYS.iter()).copied().collect();
    for (key, account) in keys.iter().zip(octoku_evm::chain::DEV_ACCOUNTS) {
        assert_eq!(address_of(key).to_string(), account, "dev key order");
    }
    keys
}

/// The leaderboard as JSON: (address, rank, block) in the order printed.
fn leaderboard(dir: &Path, args: &[&str]) -> Vec<(Address, u64, u64)> {
    let mut all = vec!["leaderboard", "--json"];
    all.extend_from_slice(args);
    let out = octoku(dir, &all).json();
    out.as_array()
        .unwrap_or_else(|| panic!("a JSON list: {out}"))
        .iter()
        .map(|e| {
            (
                e["address"].as_str().unwrap().parse().unwrap(),
                e["rank"].as_u64().unwrap(),
                e["block"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Finding 1: six `play` commands at once on one embedded state file are
/// all recorded, with distinct ranks 1..=6 (before the state lock, each
/// printed a rank and only the last writer's solve was saved).
#[test]
fn six_plays_at_once_on_the_embedded_chain_are_all_recorded() {
    let dir = temp_dir("concurrent");
    let state = dir.join("chain.json");
    let state_arg = state.to_str().unwrap().to_string();
    octoku(&dir, &["deploy", "--puzzle", "fair", "--state", &state_arg]).json_or_text();
    let keys = &all_keys()[1..7];
    let children: Vec<_> = keys
        .iter()
        .map(|key| {
            Command::new(env!("CARGO_BIN_EXE_octoku"))
                .args([
                    "play",
                    "--json",
                    "--state",
                    &state_arg,
                    "--private-key",
                    key,
                ])
                .current_dir(&dir)
                .env_remove("ETH_RPC_URL")
                .env_remove("PRIVATE_KEY")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ranks = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        ranks.push((
            v["rank"].as_u64().unwrap(),
            v["address"].as_str().unwrap().to_string(),
        ));
    }
    ranks.sort();
    assert_eq!(
        ranks.iter().map(|r| r.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6],
        "{ranks:?}"
    );
    // All six are on the chain: the leaderboard and solverCount agree.
    let board = leaderboard(&dir, &["--state", &state_arg]);
    assert_eq!(board.len(), 6, "{board:?}");
    for ((address, rank, _), (printed_rank, printed_address)) in board.iter().zip(&ranks) {
        assert_eq!(
            (rank, address.to_string()),
            (printed_rank, printed_address.clone())
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

impl Run {
    /// Asserts exit 0 and returns stdout.
    fn json_or_text(&self) -> &str {
        assert_eq!(
            self.code, 0,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        &self.stdout
    }
}

/// The leaderboard from Solved events: three plays, on anvil (paged one
/// block per query, too) and on the embedded chain.
#[test]
fn leaderboard_lists_three_plays_on_anvil_and_on_the_embedded_chain() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("leaderboard");
    let (_, arena_addr) = deploy(&dir, &url, "fair");
    let mut expected = Vec::new();
    for key in &KEYS[1..4] {
        let played = play(&dir, &url, arena_addr, key);
        expected.push((
            address_of(key),
            played["rank"].as_u64().unwrap(),
            played["tx"]["block"].as_u64().unwrap(),
        ));
    }
    assert_eq!(leaderboard(&dir, &["--rpc-url", &url]), expected);
    assert_eq!(
        leaderboard(
            &dir,
            &["--rpc-url", &url, "--page", "1", "--from-block", "0"]
        ),
        expected
    );
    let text = octoku(&dir, &["leaderboard", "--rpc-url", &url]);
    assert!(
        text.json_or_text().contains("solvers   3"),
        "{}",
        text.stdout
    );

    let state = dir.join("embedded.json");
    let state_arg = state.to_str().unwrap();
    octoku(&dir, &["deploy", "--puzzle", "fair", "--state", state_arg]).json_or_text();
    let mut expected = Vec::new();
    for key in &KEYS[1..4] {
        let played = octoku(
            &dir,
            &["play", "--json", "--state", state_arg, "--private-key", key],
        )
        .json();
        expected.push((
            address_of(key),
            played["rank"].as_u64().unwrap(),
            played["tx"]["block"].as_u64().unwrap(),
        ));
    }
    assert_eq!(leaderboard(&dir, &["--state", state_arg]), expected);
    assert_eq!(expected.iter().map(|e| e.1).collect::<Vec<_>>(), [1, 2, 3]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Signers as in cast: a keystore alloy writes (v3, scrypt), by path with
/// --password-file and by --account name in ~/.foundry/keystores; a wrong
/// password is exit 2 and never printed; --from reads without a key.
#[test]
fn a_keystore_plays_against_anvil_and_from_reads_without_a_key() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("keystore");
    let (_, arena_addr) = deploy(&dir, &url, "fair");
    let home = dir.join("home");
    let keystores = home.join(".foundry/keystores");
    std::fs::create_dir_all(&keystores).unwrap();
    let key = PrivateKey::parse(KEYS[4]).unwrap();
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(13);
    alloy_signer_local::PrivateKeySigner::encrypt_keystore(
        &keystores,
        &mut rng,
        key.signer().unwrap().to_bytes(),
        "correct horse",
        Some("player"),
    )
    .unwrap();
    let password_file = dir.join("password.txt");
    std::fs::write(&password_file, "correct horse\n").unwrap();
    let keystore = keystores.join("player");
    let arena_arg = arena_addr.to_string();

    // --from reads "my" board with no key at all.
    let me = address_of(KEYS[4]).to_string();
    let board = octoku(
        &dir,
        &[
            "board",
            "--from",
            &me,
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
            "--json",
        ],
    )
    .json();
    assert_eq!(board["address"], me.as_str());
    assert_eq!(board["puzzle"], "fair");

    // A wrong password: exit 2, one line, the password never shown.
    let wrong = octoku(
        &dir,
        &[
            "play",
            "--keystore",
            keystore.to_str().unwrap(),
            "--password",
            "battery staple",
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
        ],
    );
    wrong.fails(2, "wrong password");
    assert!(!wrong.stderr.contains("battery") && !wrong.stdout.contains("battery"));

    let played = octoku(
        &dir,
        &[
            "play",
            "--keystore",
            keystore.to_str().unwrap(),
            "--password-file",
            password_file.to_str().unwrap(),
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
            "--json",
        ],
    )
    .json();
    assert_eq!(played["address"], me.as_str());
    assert_eq!(played["rank"], 1);
    assert!(!played.to_string().contains("correct horse"));

    // --account NAME finds the same keystore under $HOME/.foundry/keystores.
    let out = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args([
            "board",
            "--account",
            "player",
            "--password-file",
            password_file.to_str().unwrap(),
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
            "--json",
        ])
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (board["address"].as_str(), board["rank"].as_u64()),
        (Some(me.as_str()), Some(1))
    );

    // --from that is not the key's address is refused.
    octoku(
        &dir,
        &[
            "board",
            "--from",
            &address_of(KEYS[1]).to_string(),
            "--private-key",
            KEYS[4],
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
        ],
    )
    .fails(2, "is not the signer's address");
    // Sending with --from alone is refused: no key.
    octoku(
        &dir,
        &[
            "play",
            "--from",
            &me,
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
        ],
    )
    .fails(2, "sending needs a key");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Transaction flags reach the node: a legacy price is what the sender pays
/// per gas, --nonce is used (a stale one is the node's refusal), and more
/// confirmations than the embedded chain can give are refused.
#[test]
fn transaction_flags_set_price_nonce_and_confirmations() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("txflags");
    let (_, arena_addr) = deploy(&dir, &url, "fair");
    let arena_arg = arena_addr.to_string();
    let mut chain = Chain::rpc(&url, &PrivateKey::parse(KEYS[0]).unwrap()).unwrap();
    let player = address_of(KEYS[1]);
    let before = chain.balance(player).unwrap();
    let played = octoku(
        &dir,
        &[
            "play",
            "--json",
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[1],
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
        ],
    )
    .json();
    let gas = played["tx"]["gas"].as_u64().unwrap();
    assert_eq!(
        before - chain.balance(player).unwrap(),
        U256::from(gas) * U256::from(3_000_000_000u64),
        "the sender paid exactly 3 gwei per gas"
    );
    // The next nonce is 1 now: a stale 0 is the node's refusal, nothing mined.
    let block = chain.block_number().unwrap();
    octoku(
        &dir,
        &[
            "deploy",
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[1],
            "--nonce",
            "0",
        ],
    )
    .fails(4, "nonce");
    assert_eq!(chain.block_number().unwrap(), block);
    octoku(
        &dir,
        &[
            "play",
            "--arena",
            &arena_arg,
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[2],
            "--gas-price",
            "1gwei",
            "--priority-gas-price",
            "2gwei",
        ],
    )
    .fails(
        2,
        "--priority-gas-price 2000000000 is above --gas-price 1000000000",
    );
    let state = dir.join("e.json");
    octoku(
        &dir,
        &[
            "deploy",
            "--state",
            state.to_str().unwrap(),
            "--confirmations",
            "3",
        ],
    )
    .fails(2, "3 confirmations would never come");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 7: a second deploy keeps the first on record (deployments file
/// and embedded state), says the new one is the default, and the first
/// arena stays usable with --arena. Finding 8: a puzzle's address given as
/// the arena is "not an arena"; a deployments file of another chain is refused.
#[test]
fn every_deployment_stays_on_record_and_wrong_addresses_are_named() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("records");
    let (first_puzzle, first) = deploy(&dir, &url, "reference");
    let second = octoku(
        &dir,
        &[
            "deploy",
            "--puzzle",
            "fair",
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[0],
        ],
    );
    assert!(
        second.json_or_text().contains(
            "default   this arena is now the default; the 1 earlier deployment(s) stay on record"
        ),
        "{}",
        second.stdout
    );
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("deployments/31337.json")).unwrap())
            .unwrap();
    let arenas: Vec<&str> = record["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["arena"].as_str().unwrap())
        .collect();
    assert_eq!(arenas.len(), 2, "{record}");
    assert_eq!(arenas[0].parse::<Address>().unwrap(), first);
    // The default is the latest (fair); the first is still playable by address.
    let board = octoku(
        &dir,
        &["board", "--rpc-url", &url, "--from", DEV_0, "--json"],
    )
    .json();
    assert_eq!(board["arena"], arenas[1]);
    assert_eq!(board["puzzle"], "fair");
    let played = play(&dir, &url, first, KEYS[1]);
    assert_eq!(played["puzzle"], "reference");

    // A puzzle's address where an arena is expected.
    octoku(
        &dir,
        &[
            "board",
            "--arena",
            &first_puzzle.to_string(),
            "--rpc-url",
            &url,
            "--from",
            DEV_0,
        ],
    )
    .fails(4, &format!("{first_puzzle} is not an arena"));

    // The same file presented as another chain's record.
    let mut foreign = record.clone();
    foreign["chain_id"] = 1.into();
    std::fs::write(dir.join("deployments/31337.json"), foreign.to_string()).unwrap();
    octoku(&dir, &["board", "--rpc-url", &url, "--from", DEV_0])
        .fails(2, "records chain id 1, but the node is chain 31337");
    octoku(
        &dir,
        &["deploy", "--rpc-url", &url, "--private-key", KEYS[0]],
    )
    .fails(2, "records chain id 1");

    // The embedded chain keeps every deployment in its state file.
    let state = dir.join("e.json");
    let state_arg = state.to_str().unwrap();
    for _ in 0..2 {
        octoku(&dir, &["deploy", "--state", state_arg]).json_or_text();
    }
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(
        saved["deployments"].as_array().unwrap().len(),
        2,
        "{}",
        saved["deployments"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const DEV_0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/// Finding 10: on a fair arena, a solution of the reference board is
/// explained locally (the arena's puzzle, and which puzzle the solution
/// does solve) and nothing is sent; `board` names the arena's puzzle.
#[test]
fn a_solution_for_the_wrong_puzzle_is_explained_before_sending() {
    let dir = temp_dir("kind");
    let state = dir.join("c.json");
    let state_arg = state.to_str().unwrap();
    octoku(&dir, &["deploy", "--puzzle", "fair", "--state", state_arg]).json_or_text();
    let board = octoku(&dir, &["board", "--state", state_arg]);
    assert!(
        board.json_or_text().contains("puzzle    fair (0x"),
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

    let solved = octoku(&dir, &["solve", "--address", DEV_0, "--json"]).json();
    let wrong = solved["solution"].as_str().unwrap();
    let before: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    octoku(&dir, &["submit", wrong, "--state", state_arg])
        .fails(1, "nothing sent: this arena's puzzle is fair")
        .fails(1, "it solves the reference puzzle's board instead");
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(before["block"], after["block"], "nothing mined");

    let right = octoku(
        &dir,
        &["solve", "--puzzle", "fair", "--address", DEV_0, "--json"],
    )
    .json();
    let out = octoku(
        &dir,
        &[
            "submit",
            right["solution"].as_str().unwrap(),
            "--state",
            state_arg,
            "--json",
        ],
    )
    .json();
    assert_eq!(out["rank"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 12: a state file with an impossible block number is refused
/// naming the field, and nothing is written.
#[test]
fn an_edited_state_file_with_block_zero_is_refused() {
    let dir = temp_dir("block0");
    let state = dir.join("c.json");
    let state_arg = state.to_str().unwrap();
    octoku(&dir, &["deploy", "--state", state_arg]).json_or_text();
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    saved["block"] = 0.into();
    let edited = saved.to_string();
    std::fs::write(&state, &edited).unwrap();
    octoku(&dir, &["play", "--state", state_arg])
        .fails(4, "is impossible: field \"block\" is 0, but transaction 0x");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), edited);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 6: ETH_RPC_URL, PRIVATE_KEY and ETH_FROM set but empty mean unset.
#[test]
fn empty_environment_variables_mean_unset() {
    let dir = temp_dir("emptyenv");
    let state = dir.join("c.json");
    let state_arg = state.to_str().unwrap();
    octoku(&dir, &["deploy", "--state", state_arg]).json_or_text();
    for args in [
        &["board", "--state", state_arg][..],
        &["board", DEV_0, "--state", state_arg],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_octoku"))
            .args(args)
            .current_dir(&dir)
            .env("ETH_RPC_URL", "")
            .env("PRIVATE_KEY", "")
            .env("ETH_FROM", "")
            .env("ETH_PASSWORD", "")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("embedded (") && text.contains(DEV_0),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 5: https:// is spoken by the default build: against a loopback
/// port that closes the connection, the error is about the connection, not
/// a missing build feature.
#[test]
fn https_urls_are_tried_by_the_default_build() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = thread::spawn(move || {
        // Accept and close each connection: the TLS handshake fails.
        for _ in 0..3 {
            if let Ok((stream, _)) = listener.accept() {
                drop(stream);
            }
        }
    });
    let dir = temp_dir("https");
    let url = format!("https://127.0.0.1:{port}");
    let out = octoku(&dir, &["board", DEV_0, "--arena", DEV_0, "--rpc-url", &url]);
    out.fails(4, &format!("cannot reach the node at {url}"));
    assert!(
        !out.stderr.contains("feature") && !out.stderr.contains("http:// only"),
        "{}",
        out.stderr
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reading any IPuzzle: board and name() of a puzzle contract without an
/// arena; -v logs go to stderr and leave stdout unchanged; a play whose
/// reader is gone exits 6 without a panic, before sending anything.
#[test]
fn puzzle_reads_logs_and_a_closed_pipe_after_a_play() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("reads");
    let (puzzle, arena_addr) = deploy(&dir, &url, "fair");
    let read = octoku(
        &dir,
        &[
            "board",
            DEV_0,
            "--puzzle-address",
            &puzzle.to_string(),
            "--rpc-url",
            &url,
            "--json",
        ],
    )
    .json();
    let player: Address = DEV_0.parse().unwrap();
    assert_eq!(
        read["start"].as_str().unwrap().parse::<U256>().unwrap(),
        octoku_core::fair::fair_generate(&player).to_u256()
    );
    assert!(!read["name"].as_str().unwrap().is_empty(), "{read}");
    assert_eq!(read["puzzle"], "fair");
    octoku(
        &dir,
        &[
            "board",
            DEV_0,
            "--puzzle-address",
            &arena_addr.to_string(),
            "--rpc-url",
            &url,
        ],
    )
    .fails(4, "not a puzzle");

    let quiet = octoku(&dir, &["board", DEV_0, "--rpc-url", &url, "--json"]);
    let loud = octoku(&dir, &["board", DEV_0, "--rpc-url", &url, "--json", "-vv"]);
    assert_eq!(
        quiet.json_or_text(),
        loud.json_or_text(),
        "logs never reach stdout"
    );
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    assert!(loud.stderr.contains("chain open"), "{}", loud.stderr);
    assert!(
        loud.stderr.contains("alloy"),
        "alloy's request logs at -vv: {}",
        loud.stderr
    );

    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(["play", "--rpc-url", &url, "--private-key", KEYS[3]])
        .current_dir(&dir)
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("Broken pipe"), "{err}");
    // The output failed before the transaction: nothing was sent.
    let mut chain = Chain::rpc(&url, &PrivateKey::parse(KEYS[0]).unwrap()).unwrap();
    let at = arena::solved_at(&mut chain, arena_addr, address_of(KEYS[3])).unwrap();
    assert_eq!(at.rank, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The classic 9×9 validators on anvil: `deploy --puzzle classic9` (the
/// golfed) and `deploy --size 9 --puzzle reference`, seed
/// 000's grids through `verify --size 9 --puzzle-address A --rpc-url URL`
/// (cross-checked with the mirror by the CLI), the code read back through
/// alloy, and the errors for a wrong address and a short grid.
#[test]
fn classic9_validators_on_anvil_answer_seed_000_grids() {
    use octoku_core::classic9::{SEED_INVALID, SEED_VALID};
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("classic9");
    let empty = ".".repeat(81);
    // Deployment gas as `octoku gas` reports it (README, classic 9×9 table).
    for (flags, puzzle, runtime, gas) in [
        (
            &["--puzzle", "classic9"][..],
            "golf",
            octoku_evm::artifacts::CLASSIC9_GOLF.runtime,
            232_652,
        ),
        (
            &["--size", "9", "--puzzle=reference"],
            "reference",
            octoku_evm::artifacts::CLASSIC9_REFERENCE.runtime,
            342_030,
        ),
    ] {
        let mut args = vec!["deploy"];
        args.extend_from_slice(flags);
        args.extend(["--rpc-url", &url, "--private-key", KEYS[1], "--json"]);
        let deployed = octoku(&dir, &args).json();
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
        assert_eq!(deployed["puzzle"], puzzle);
        assert_eq!(deployed["puzzle_tx"]["gas"], gas, "{puzzle}");
        assert_eq!(deployed["size"], 9);
        assert_eq!(deployed["chain_id"], 31337);
        let address: Address = deployed["puzzle_address"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let mut chain = Chain::rpc(&url, &PrivateKey::parse(KEYS[1]).unwrap()).unwrap();
        assert_eq!(chain.code_at(address).unwrap().as_ref(), runtime);
        let a = address.to_string();
        for (grids, valid, code) in [(SEED_VALID, true, 0), (SEED_INVALID, false, 1)] {
            for grid in grids {
                let run = octoku(
                    &dir,
                    &[
                        "verify",
                        "--size",
                        "9",
                        "--puzzle-address",
                        &a,
                        "--rpc-url",
                        &url,
                        &empty,
                        grid,
                        "--json",
                    ],
                );
                assert_eq!(run.code, code, "{puzzle} {grid}: {}", run.stderr);
                let v: Value = serde_json::from_str(run.stdout.trim()).unwrap();
                assert_eq!(v["valid"], valid, "{puzzle} {grid}");
            }
        }
        octoku(
            &dir,
            &[
                "verify",
                "--size",
                "9",
                "--puzzle-address",
                &a,
                "--rpc-url",
                &url,
                "0x0102",
                SEED_VALID[0],
            ],
        )
        .fails(2, "a grid of 2 bytes: expected 81 bytes");
    }
    octoku(
        &dir,
        &[
            "verify",
            "--size",
            "9",
            "--puzzle-address",
            "0x0000000000000000000000000000000000000009",
            "--rpc-url",
            &url,
            &empty,
            SEED_VALID[0],
        ],
    )
    .fails(4, "no contract code at");
    octoku(
        &dir,
        &[
            "deploy",
            "--size",
            "9",
            "--puzzle",
            "fair",
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[1],
        ],
    )
    .fails(2, "no 9x9 validator");
    octoku(
        &dir,
        &[
            "deploy",
            "--puzzle",
            "classic9",
            "--size",
            "8",
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[1],
        ],
    )
    .fails(2, "classic9 is the 9x9 validator");
}

/// An author's puzzle deployed on a node (LoopPuzzle, contracts/harness/):
/// `--puzzle-address` with `--rpc-url` reads its code and runs it here, in
/// generate, verify, check and prove verify alike.
#[test]
fn an_authors_puzzle_on_a_node_runs_through_puzzle_address() {
    let anvil = Anvil::start();
    let url = anvil.url();
    let dir = temp_dir("own-puzzle");
    let code = format!(
        "0x{}",
        octoku_core::hex::encode(octoku_evm::artifacts::LOOP_PUZZLE.initcode)
    );
    let deployed = octoku(
        &dir,
        &[
            "deploy",
            "--bytecode",
            &code,
            "--rpc-url",
            &url,
            "--private-key",
            KEYS[0],
            "--json",
        ],
    )
    .json();
    let puzzle = deployed["puzzle_address"].as_str().unwrap().to_string();
    let on_node = [
        "--puzzle-address",
        puzzle.as_str(),
        "--rpc-url",
        url.as_str(),
    ];
    let player = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    fn with<'a>(args: &[&'a str], on_node: [&'a str; 4]) -> Vec<&'a str> {
        let mut all = args.to_vec();
        all.extend(on_node);
        all
    }
    let board = octoku(&dir, &with(&["generate", player, "--json"], on_node)).json();
    let reference = octoku(&dir, &["generate", player, "--json"]).json();
    assert_eq!(board["start"], reference["start"]);
    let start = Board::from_u256(board["start"].as_str().unwrap().parse::<U256>().unwrap());
    let solution = solve::solve(start).unwrap().expect("solvable").to_hex();
    let valid = octoku(
        &dir,
        &with(&["verify", &start.to_hex(), &solution], on_node),
    );
    assert_eq!(valid.code, 0, "{}", valid.stderr);
    let card = octoku(&dir, &with(&["check", "--no-prove", "--json"], on_node)).json();
    assert_eq!(card["ok"], true, "{card}");
    drop(anvil);
    let _ = std::fs::remove_dir_all(&dir);
}

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

    // The deployment record is complete and parses.
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("deployments/31337.json")).unwrap())
            .unwrap();
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
                "chain", "arena", "address", "start", "solution", "rank", "tx", "reason",
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
    let logs = rpc.logs(arena_addr, arena::SOLVED_TOPIC, 0).unwrap();
    assert_eq!(logs.len(), 3);
    for (i, (log, (key, play))) in logs.iter().zip(KEYS[1..4].iter().zip(&plays)).enumerate() {
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

    // Solve once, then again: AlreadySolved with the solver's address, exit 1.
    assert_eq!(run(&["play", "--json"], KEYS[1]).json()["rank"], 1);
    let before = chain.balance(address_of(KEYS[1])).unwrap();
    run(&["play"], KEYS[1]).fails(1, &format!("AlreadySolved({})", address_of(KEYS[1])));
    // A repeat with a wrong solution is still AlreadySolved (checked first).
    run(&["submit", "0x1234"], KEYS[1]).fails(1, "AlreadySolved(");
    assert_eq!(
        chain.balance(address_of(KEYS[1])).unwrap(),
        before,
        "a simulated revert must send nothing"
    );

    // A wrong solution: WrongSolution, nothing sent.
    let before = chain.balance(address_of(KEYS[2])).unwrap();
    run(&["submit", "0x1234", "--json"], KEYS[2]).fails(1, "WrongSolution()");
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
    wrong.fails(1, "WrongSolution()");
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
            "chain", "arena", "address", "start", "solution", "rank", "tx", "reason",
        ],
    );

    octoku(&dir, &["play", "--state", state_arg]).fails(
        1,
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

    // A fresh key has no ether on the embedded chain either.
    octoku(
        &dir,
        &[
            "submit",
            &solution.to_hex(),
            "--state",
            state_arg,
            "--private-key",
            &format!("0x{}", "11".repeat(32)),
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

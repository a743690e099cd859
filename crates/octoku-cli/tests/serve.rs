//! `octoku serve` as a user runs it: on a fresh embedded chain it deploys the
//! fair puzzle, prints the URL, and the page and API answer there; bad input
//! is one line and exit 2; a non-loopback host prints a warning; `octoku
//! play` in another terminal takes turns with the running server on the same
//! state file.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

const OCTOKU: &str = env!("CARGO_BIN_EXE_octoku");

/// anvil's first dev key (public): the server signs only when given a key.
const KEY0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octoku-cli-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The server process, killed (by its own handle) on drop.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `octoku serve` with `args`; returns the process and the lines it
/// printed up to and including `open URL`.
fn serve(dir: &std::path::Path, args: &[&str]) -> (Served, Vec<String>) {
    let mut child = Command::new(OCTOKU)
        .arg("serve")
        .args(["--port", "0", "--state"])
        .arg(dir.join("chain.json"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("octoku runs");
    let stdout = child.stdout.take().unwrap();
    let served = Served(child);
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("open ");
        lines.push(line);
        if done {
            return (served, lines);
        }
    }
    panic!("octoku serve ended without printing its URL: {lines:?}");
}

/// One HTTP/1.1 GET with the given Host header; the status line and body.
fn get(url: &str, path: &str, host: &str) -> (String, String) {
    request(url, &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n"))
}

/// One HTTP/1.1 POST of a JSON body with the page's token.
fn post(url: &str, path: &str, token: &str, body: &str) -> (String, String) {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    request(
        url,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nX-Octoku-Token: {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
}

/// Sends `head` (request line and headers, or a whole POST) with
/// `Connection: close`; the status line and body.
fn request(url: &str, head: &str) -> (String, String) {
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(150)))
        .unwrap();
    let text = match head.split_once("\r\n\r\n") {
        Some((headers, body)) => format!("{headers}\r\nConnection: close\r\n\r\n{body}"),
        None => format!("{head}Connection: close\r\n\r\n"),
    };
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.lines().next().unwrap_or("").to_string();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn serve_deploys_on_a_fresh_chain_and_answers_at_the_printed_url() {
    let dir = scratch("fresh");
    let (_server, lines) = serve(&dir, &["--private-key", KEY0]);
    assert!(lines[0].starts_with("chain     embedded ("), "{lines:?}");
    assert!(
        lines[1].starts_with("arena     0x") && lines[1].ends_with("(fair puzzle)"),
        "{lines:?}"
    );
    assert_eq!(
        lines[2],
        "signer    0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    );
    let url = lines[3].strip_prefix("open      ").unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
        "{url}"
    );
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let (status, body) = get(url, "/", host);
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains("<title>octoku</title>"));
    let (status, body) = get(url, "/api/info", host);
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains("\"puzzle\":\"fair\""), "{body}");
    let (status, _) = get(url, "/api/info", "attacker.example");
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    // The deployment is recorded: a second server on the same state reuses it.
    let arena = lines[1].clone();
    drop(_server);
    let (_again, lines) = serve(&dir, &["--private-key", KEY0]);
    assert_eq!(lines[1], arena);
}

#[test]
fn serve_refuses_bad_input_in_one_line() {
    let dir = scratch("bad");
    for (args, expected) in [
        (
            vec!["--host", "example.com"],
            "--host \"example.com\": expected an IP address",
        ),
        (
            vec!["--private-key", "0x12"],
            "private key: expected 32 bytes of hex",
        ),
        (vec!["--arena", "0x12"], "address"),
        (
            vec!["--from", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"],
            "--from alone holds no key",
        ),
        (
            vec!["--password", "hunter2"],
            "expected --keystore or --account with them",
        ),
        (
            vec![
                "--keystore",
                "/nonexistent/keystore.json",
                "--password",
                "x",
            ],
            "keystore /nonexistent/keystore.json: cannot read it",
        ),
        (
            vec!["--nonce", "3"],
            "--nonce 3: octoku serve sends one transaction per submission",
        ),
        (
            vec!["--confirmations", "2"],
            "the embedded chain mines one block per transaction",
        ),
        (
            vec!["--gas-price", "1gwei", "--priority-gas-price", "2gwei"],
            "--priority-gas-price 2000000000 is above --gas-price",
        ),
    ] {
        let out = Command::new(OCTOKU)
            .arg("serve")
            .args(["--port", "0", "--state"])
            .arg(dir.join("chain.json"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_non_loopback_host_is_served_with_a_warning() {
    let dir = scratch("wide");
    let mut child = Command::new(OCTOKU)
        .args(["serve", "--port", "0", "--host", "0.0.0.0", "--state"])
        .arg(dir.join("chain.json"))
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let _server = Served(child);
    let first = BufReader::new(stderr).lines().next().unwrap().unwrap();
    assert!(
        first.starts_with("octoku: warning: --host 0.0.0.0 is not a loopback address"),
        "{first}"
    );
}

/// anvil's dev keys 1 to 3 (public) and their accounts.
const DEV: [(&str, &str); 3] = [
    (
        "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    ),
    (
        "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    ),
    (
        "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
        "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    ),
];

/// Starts `octoku play` as dev account `i` on the server's state file.
fn play(dir: &std::path::Path, i: usize) -> Child {
    Command::new(OCTOKU)
        .args(["play", "--json", "--private-key", DEV[i].0, "--state"])
        .arg(dir.join("chain.json"))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("octoku play runs")
}

fn rank_of_play(child: Child) -> u64 {
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "octoku play failed: {stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["rank"].as_u64().unwrap()
}

/// The server holds the state file's lock only while a request runs: a
/// player using `octoku play` in another terminal on the same file, while
/// the server submits for a dev account at the same moment, and another
/// `play` after the server's solve, all solve, and the server's leaderboard
/// (from the arena's Solved events) and `octoku leaderboard` list all three
/// with distinct ranks.
#[test]
fn octoku_play_and_the_running_server_take_turns_on_one_state_file() {
    let dir = scratch("turns");
    let (_server, lines) = serve(&dir, &["--private-key", KEY0]);
    let url = lines[3].strip_prefix("open      ").unwrap().to_string();
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let (_, page) = get(&url, "/", host);
    let token = page
        .split("name=\"octoku-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();

    // Dev account 1 through the server while `octoku play` plays dev account 2.
    let (status, seat) = get(&url, &format!("/api/board/{}", DEV[0].1), host);
    assert_eq!(status, "HTTP/1.1 200 OK", "{seat}");
    let seat: serde_json::Value = serde_json::from_str(&seat).unwrap();
    let start: octoku_core::Board = seat["start"].as_str().unwrap().parse().unwrap();
    let solution = octoku_core::solve::solve(start).unwrap().unwrap();
    let playing = play(&dir, 1);
    let body = serde_json::json!({"player": DEV[0].1, "solution": solution.to_hex()}).to_string();
    let (status, solved) = post(&url, "/api/submit", &token, &body);
    assert_eq!(status, "HTTP/1.1 200 OK", "{solved}");
    let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
    let server_rank = solved["rank"].as_u64().unwrap();
    let play_rank = rank_of_play(playing);
    let mut ranks = [server_rank, play_rank];
    ranks.sort();
    assert_eq!(ranks, [1, 2], "distinct ranks");
    // A later play sees both earlier solves.
    assert_eq!(rank_of_play(play(&dir, 2)), 3);

    let expected = [
        (DEV[0].1, server_rank),
        (DEV[1].1, play_rank),
        (DEV[2].1, 3),
    ];
    let mut expected = expected.to_vec();
    expected.sort_by_key(|e| e.1);
    let (status, board) = get(&url, "/api/leaderboard", host);
    assert_eq!(status, "HTTP/1.1 200 OK", "{board}");
    let board: serde_json::Value = serde_json::from_str(&board).unwrap();
    let listed: Vec<(&str, u64)> = board["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["address"].as_str().unwrap(), s["rank"].as_u64().unwrap()))
        .collect();
    assert_eq!(listed, expected);

    let out = Command::new(OCTOKU)
        .args(["leaderboard", "--json", "--state"])
        .arg(dir.join("chain.json"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cli: Vec<(&str, u64)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["address"].as_str().unwrap(), r["rank"].as_u64().unwrap()))
        .collect();
    assert_eq!(cli, expected);
}

/// `octoku serve` signs with the same flags as the other chain commands: a
/// keystore by path or by account name with its password from a file or a
/// flag; the server's signer is the keystore's address, and neither the key
/// nor the password is printed, logged or sent to the page.
#[test]
fn serve_signs_with_a_keystore_and_never_shows_the_key_or_password() {
    let dir = scratch("keystore");
    let home = dir.join("home");
    let keystores = home.join(".foundry/keystores");
    std::fs::create_dir_all(&keystores).unwrap();
    // anvil's dev key 4 (public) and its account.
    let key_hex = "47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";
    let address = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
    let key = octoku_evm::chain::PrivateKey::parse(key_hex).unwrap();
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(4);
    alloy_signer_local::PrivateKeySigner::encrypt_keystore(
        &keystores,
        &mut rng,
        key.signer().unwrap().to_bytes(),
        "correct horse",
        Some("server"),
    )
    .unwrap();
    let password_file = dir.join("password.txt");
    std::fs::write(&password_file, "correct horse\n").unwrap();
    let keystore = keystores.join("server");
    let by_path = [
        "--keystore",
        keystore.to_str().unwrap(),
        "--password-file",
        password_file.to_str().unwrap(),
    ];
    let by_name = ["--account", "server", "--password", "correct horse"];
    for args in [&by_path[..], &by_name[..]] {
        // -vvv: every log line at trace level goes to stderr, checked below.
        let mut child = Command::new(OCTOKU)
            .args(["-vvv", "serve", "--port", "0", "--state"])
            .arg(dir.join("chain.json"))
            .args(args)
            .env("HOME", &home)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let mut served = Served(child);
        let mut seen = String::new();
        let mut url = None;
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            seen.push_str(&line);
            if let Some(u) = line.strip_prefix("open      ") {
                url = Some(u.to_string());
                break;
            }
        }
        let url = url.unwrap_or_else(|| panic!("{args:?}: no URL in {seen}"));
        assert!(seen.contains(&format!("signer    {address}")), "{seen}");
        let host = url.trim_start_matches("http://").trim_end_matches('/');
        for path in ["/", "/app.js", "/api/info", "/api/leaderboard"] {
            let (status, body) = get(&url, path, host);
            assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
            seen.push_str(&body);
        }
        assert!(
            seen.contains(&format!("\"signer\":\"{address}\"")),
            "{seen}"
        );
        let _ = served.0.kill();
        let _ = served.0.wait();
        let mut logged = String::new();
        BufReader::new(stderr).read_to_string(&mut logged).unwrap();
        assert!(logged.contains("decrypting the keystore"), "{logged}");
        seen.push_str(&logged);
        let lower = seen.to_ascii_lowercase();
        assert!(!lower.contains(&key_hex[..16]), "{args:?}: the key shows");
        assert!(
            !lower.contains("correct horse"),
            "{args:?}: the password shows"
        );
    }
}

//! `octoku serve` as a user runs it: on a fresh embedded chain it deploys the
//! fair puzzle, prints the URL, and the page and API answer there; a
//! non-loopback host prints a warning; `octoku play` in another terminal
//! takes turns with the running server on the same state file. Refusals of
//! bad input are tabled in refusals.rs.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::Path,
    time::Duration,
};

use octoku_testkit::{
    DEV_ACCOUNTS, DEV_KEYS, Process, octoku, page_token, temp_dir, write_keystore,
};

/// How long a server may take to print its URL on a loaded machine.
const START_LIMIT: Duration = Duration::from_secs(120);

/// Starts `octoku serve` with `args` on `dir`'s chain.json (the guard
/// stops it); returns it and the lines it printed up to `open URL`.
fn serve(dir: &Path, args: &[&str]) -> (Process, Vec<String>) {
    let state = dir.join("chain.json");
    let mut server = octoku!()
        .args(["serve", "--port", "0", "--state"])
        .arg(&state)
        .args(args)
        .dir(dir)
        .spawn()
        .expect("octoku serve starts");
    let mut lines = Vec::new();
    let printed = server
        .wait_for_line(START_LIMIT, move |line| {
            lines.push(line.to_string());
            line.starts_with("open ").then(|| lines.clone())
        })
        .expect("octoku serve prints its URL");
    (server, printed)
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
    let dir = temp_dir("serve-fresh");
    let (server, lines) = serve(dir.path(), &[]);
    assert!(lines[0].starts_with("chain     embedded ("), "{lines:?}");
    assert!(
        lines[1].starts_with("arena     0x") && lines[1].ends_with("(fair puzzle)"),
        "{lines:?}"
    );
    assert_eq!(lines[2], format!("signer    {}", DEV_ACCOUNTS[0]));
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
    drop(server);
    let (_again, lines) = serve(dir.path(), &[]);
    assert_eq!(lines[1], arena);
}

#[test]
fn a_non_loopback_host_is_served_with_a_warning() {
    let dir = temp_dir("serve-wide");
    let mut server = octoku!()
        .args(["serve", "--port", "0", "--host", "0.0.0.0", "--state"])
        .arg(dir.path().join("chain.json"))
        .dir(dir.path())
        .spawn()
        .expect("octoku serve starts");
    let stderr = server.child().stderr.take().unwrap();
    let first = BufReader::new(stderr).lines().next().unwrap().unwrap();
    assert!(
        first.starts_with("octoku: warning: --host 0.0.0.0 is not a loopback address"),
        "{first}"
    );
}

/// Starts `octoku play` as dev account `i` on the server's state file.
fn play(dir: &Path, i: usize) -> Process {
    octoku!()
        .args(["play", "--json", "--private-key", DEV_KEYS[i], "--state"])
        .arg(dir.join("chain.json"))
        .dir(dir)
        .spawn()
        .expect("octoku play starts")
}

fn rank_of_play(play: Process) -> u64 {
    play.finish().json()["rank"].as_u64().unwrap()
}

/// (address, rank) of each row of a leaderboard's JSON list.
fn listed_ranks(rows: &serde_json::Value) -> Vec<(&str, u64)> {
    rows.as_array()
        .unwrap_or_else(|| panic!("a list: {rows}"))
        .iter()
        .map(|r| (r["address"].as_str().unwrap(), r["rank"].as_u64().unwrap()))
        .collect()
}

/// The server holds the state file's lock only while a request runs: a
/// player using `octoku play` in another terminal on the same file, while
/// the server submits for a dev account at the same moment, and another
/// `play` after the server's solve, all solve, and the server's leaderboard
/// (from the arena's Solved events) and `octoku leaderboard` list all three
/// with distinct ranks.
#[test]
fn octoku_play_and_the_running_server_take_turns_on_one_state_file() {
    let dir = temp_dir("serve-turns");
    let dir = dir.path();
    let (_server, lines) = serve(dir, &[]);
    let url = lines[3].strip_prefix("open      ").unwrap().to_string();
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let (_, page) = get(&url, "/", host);
    let token = page_token(&page).expect("the page's token").to_string();

    // Dev account 1 through the server while `octoku play` plays dev account 2.
    let (status, seat) = get(&url, &format!("/api/board/{}", DEV_ACCOUNTS[1]), host);
    assert_eq!(status, "HTTP/1.1 200 OK", "{seat}");
    let seat: serde_json::Value = serde_json::from_str(&seat).unwrap();
    let start: octoku_core::Board = seat["start"].as_str().unwrap().parse().unwrap();
    let solution = octoku_core::solve::solve(start).unwrap().unwrap();
    let playing = play(dir, 2);
    let body =
        serde_json::json!({"player": DEV_ACCOUNTS[1], "solution": solution.to_hex()}).to_string();
    let (status, solved) = post(&url, "/api/submit", &token, &body);
    assert_eq!(status, "HTTP/1.1 200 OK", "{solved}");
    let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
    let server_rank = solved["rank"].as_u64().unwrap();
    let play_rank = rank_of_play(playing);
    let mut ranks = [server_rank, play_rank];
    ranks.sort();
    assert_eq!(ranks, [1, 2], "distinct ranks");
    // A later play sees both earlier solves.
    assert_eq!(rank_of_play(play(dir, 3)), 3);

    let expected = [
        (DEV_ACCOUNTS[1], server_rank),
        (DEV_ACCOUNTS[2], play_rank),
        (DEV_ACCOUNTS[3], 3),
    ];
    let mut expected = expected.to_vec();
    expected.sort_by_key(|e| e.1);
    let (status, board) = get(&url, "/api/leaderboard", host);
    assert_eq!(status, "HTTP/1.1 200 OK", "{board}");
    let board: serde_json::Value = serde_json::from_str(&board).unwrap();
    assert_eq!(listed_ranks(&board["solvers"]), expected);

    let rows = octoku!()
        .args(["leaderboard", "--json", "--state"])
        .arg(dir.join("chain.json"))
        .dir(dir)
        .run()
        .json();
    assert_eq!(listed_ranks(&rows), expected);
}

/// `octoku serve` signs with the same flags as the other chain commands: a
/// keystore by path or by account name with its password from a file or a
/// flag; the server's signer is the keystore's address, and neither the key
/// nor the password is printed, logged or sent to the page.
#[test]
fn serve_signs_with_a_keystore_and_never_shows_the_key_or_password() {
    let dir = temp_dir("serve-keystore");
    let dir = dir.path();
    let home = dir.join("home");
    let (key_hex, address) = (&DEV_KEYS[4][2..], DEV_ACCOUNTS[4]);
    let keystore = write_keystore(
        &home.join(".foundry/keystores"),
        "server",
        key_hex,
        "correct horse",
    );
    let password_file = dir.join("password.txt");
    std::fs::write(&password_file, "correct horse\n").unwrap();
    let by_path = [
        "--keystore",
        keystore.to_str().unwrap(),
        "--password-file",
        password_file.to_str().unwrap(),
    ];
    let by_name = ["--account", "server", "--password", "correct horse"];
    for args in [&by_path[..], &by_name[..]] {
        // -vvv: every log line at trace level goes to stderr, checked below.
        let mut served = octoku!()
            .args(["-vvv", "serve", "--port", "0", "--state"])
            .arg(dir.join("chain.json"))
            .args(args)
            .env("HOME", &home)
            .dir(dir)
            .spawn()
            .expect("octoku serve starts");
        let stdout = served.child().stdout.take().unwrap();
        let stderr = served.child().stderr.take().unwrap();
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
        served.kill();
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

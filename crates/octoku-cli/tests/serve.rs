//! `octoku serve` as a user runs it: on a fresh embedded chain it deploys the
//! fair puzzle, prints the URL, and the page and API answer there; bad input
//! is one line and exit 2; a non-loopback host prints a warning.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

const OCTOKU: &str = env!("CARGO_BIN_EXE_octoku");

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
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.lines().next().unwrap_or("").to_string();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn serve_deploys_on_a_fresh_chain_and_answers_at_the_printed_url() {
    let dir = scratch("fresh");
    let (_server, lines) = serve(&dir, &[]);
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
    let (_again, lines) = serve(&dir, &[]);
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

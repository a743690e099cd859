//! `octoku site` as a user runs it: bad input is refused in one line (exit
//! 2) before the node is asked anything, an unreachable node is exit 4 with
//! nothing written; on anvil, after `octoku deploy`, it writes the page for
//! the recorded arena, refuses to write over it, and replaces it with
//! `--force`. `octoku serve` on that node without a signer says it signs
//! nothing.

use std::{
    io::{BufRead, BufReader},
    net::{TcpListener, TcpStream},
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    time::{Duration, Instant},
};

const OCTOKU: &str = env!("CARGO_BIN_EXE_octoku");
/// anvil's first dev key (public).
const KEY0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octoku-cli-site-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn octoku(dir: &Path, args: &[&str]) -> Output {
    Command::new(OCTOKU)
        .args(args)
        .current_dir(dir)
        .env_remove("ETH_RPC_URL")
        .output()
        .expect("octoku runs")
}

fn stderr_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    text
}

#[test]
fn site_refuses_bad_input_in_one_line_before_asking_the_node() {
    let dir = scratch("bad");
    std::fs::create_dir(dir.join("full")).unwrap();
    std::fs::write(dir.join("full/keep.txt"), "mine").unwrap();
    // Port 9 (discard) on loopback: nothing answers there.
    let nobody = "http://127.0.0.1:9";
    for (args, expected) in [
        (vec!["site", "full", "--rpc-url", nobody], "not empty"),
        (
            vec!["site", "new", "--rpc-url", "ftp://x"],
            "expected an http:// or https:// URL",
        ),
        (
            vec!["site", "new", "--rpc-url", "http://a;b"],
            "Content-Security-Policy",
        ),
        (
            vec!["site", "new", "--rpc-url", nobody, "--arena", "0x12"],
            "--arena",
        ),
    ] {
        let out = octoku(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let line = stderr_line(&out);
        assert!(line.contains(expected), "{args:?}: {line}");
        assert!(out.stdout.is_empty());
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("full/keep.txt")).unwrap(),
        "mine"
    );
    // A node that does not answer: exit 4, nothing written.
    let out = octoku(&dir, &["site", "new", "--rpc-url", nobody]);
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stderr_line(&out);
    assert!(!dir.join("new").exists());
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(left, ["full"], "no temporary directory left");
}

/// anvil in its own process group, the group killed on drop.
struct Anvil(Child);

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `octoku serve` killed (by its own handle) on drop.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn anvil() -> (Anvil, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../node_modules/.bin/anvil");
    assert!(
        bin.exists(),
        "{} is missing: run `make setup`",
        bin.display()
    );
    let child = Command::new(bin)
        .args([
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--silent",
        ])
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("anvil starts");
    let anvil = Anvil(child);
    let deadline = Instant::now() + Duration::from_secs(120);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "anvil did not listen within 120 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (anvil, format!("http://127.0.0.1:{port}"))
}

#[test]
fn site_writes_the_page_for_the_recorded_arena_on_anvil() {
    let dir = scratch("anvil");
    let (_anvil, url) = anvil();
    // anvil may listen before it answers: deploy until it does.
    let deadline = Instant::now() + Duration::from_secs(120);
    let deployed = loop {
        let out = octoku(
            &dir,
            &[
                "deploy",
                "--puzzle",
                "fair",
                "--rpc-url",
                &url,
                "--private-key",
                KEY0,
                "--json",
            ],
        );
        if out.status.success() {
            break out;
        }
        assert!(
            Instant::now() < deadline,
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let record: serde_json::Value = serde_json::from_slice(&deployed.stdout).unwrap();
    let arena = record["arena"].as_str().unwrap().to_string();

    let out = octoku(&dir, &["site", "game", "--rpc-url", &url]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("chain     {url} (chain id 31337)"));
    assert_eq!(lines[1], format!("arena     {arena} (fair puzzle)"));
    assert!(
        lines[2].starts_with("wrote     game: index.html app.css"),
        "{}",
        lines[2]
    );
    let html = std::fs::read_to_string(dir.join("game/index.html")).unwrap();
    assert!(html.contains(&format!("connect-src {url};")), "{html}");
    assert!(
        html.contains(&format!("&quot;arena&quot;:&quot;{arena}&quot;")),
        "{html}"
    );
    for file in ["app.js", "app.css", "chain.js", "rules.js", "source.js"] {
        assert!(dir.join("game").join(file).is_file(), "{file}");
    }

    // Written once: a second run is refused, --force replaces it.
    let again = octoku(
        &dir,
        &["site", "game", "--rpc-url", &url, "--arena", &arena],
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr_line(&again).contains("--force"));
    let forced = octoku(
        &dir,
        &[
            "site",
            "game",
            "--rpc-url",
            &url,
            "--arena",
            &arena,
            "--force",
        ],
    );
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );

    // The same node through octoku serve without a signer: it says so.
    let mut child = Command::new(OCTOKU)
        .args(["serve", "--port", "0", "--rpc-url", &url, "--arena", &arena])
        .current_dir(&dir)
        .env_remove("ETH_RPC_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let _served = Served(child);
    let printed: Vec<String> = BufReader::new(stdout)
        .lines()
        .map(|l| l.unwrap())
        .take_while(|l| !l.starts_with("open "))
        .collect();
    assert_eq!(
        printed[2], "signer    none: players submit through their own wallet",
        "{printed:?}"
    );
}

//! The kit's promise: what a test starts is gone when its guard drops.

use std::{
    io::{Read, Write},
    net::TcpStream,
    process::Command,
    sync::atomic::Ordering,
    time::Duration,
};

use octoku_testkit::{Anvil, Browser, LoopbackServer, Process};

/// Whether process `pid` still exists (a zombie counts as gone).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

#[test]
fn dropping_a_process_kills_the_children_it_started() {
    let mut process = Process::spawn(
        "sh",
        Command::new("sh")
            .args(["-c", "sleep 300 & echo $!; wait"])
            .stdout(std::process::Stdio::piped()),
    )
    .unwrap();
    let grandchild: u32 = process
        .wait_for_line(Duration::from_secs(30), |line| line.parse().ok())
        .unwrap();
    let pid = process.id();
    assert!(alive(pid) && alive(grandchild));
    drop(process);
    assert!(!alive(pid), "the shell is gone");
    // The grandchild, reparented, is gone once the kernel has killed it.
    assert!(
        all_gone(&[grandchild]),
        "the shell's child {grandchild} outlived the guard"
    );
}

#[test]
fn anvil_answers_on_its_port_and_is_gone_after_drop() {
    let anvil = Anvil::start().unwrap();
    let port = anvil.port();
    assert_eq!(anvil.url(), format!("http://127.0.0.1:{port}"));
    assert!(TcpStream::connect(("127.0.0.1", port)).is_ok());
    drop(anvil);
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on {port} after the drop"
    );
}

/// Whether every process in `pids` is gone, waiting up to ten seconds for
/// the kernel to finish killing them.
fn all_gone(pids: &[u32]) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&pid| alive(pid)) {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// A test that fails with its WebDriver session open never closes it: the
/// guard must end Chromium itself.
#[test]
fn dropping_a_browser_with_an_open_session_ends_chromium() {
    if Browser::skipped() {
        return;
    }
    let browser = Browser::start().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let session = runtime.block_on(async {
        fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(browser.capabilities())
            .connect(browser.webdriver_url())
            .await
            .expect("a Chromium session")
    });
    let chromium = browser.processes();
    assert!(!chromium.is_empty(), "Chromium runs with the profile");
    // As a panicking test would: the guard drops, the session never closes.
    drop(browser);
    assert!(all_gone(&chromium), "a Chromium process outlived the guard");
    drop(session);
}

/// A loopback server answers each connection; dropping it ends a connection
/// that waits on the stop flag, and nothing listens on its port after.
#[test]
fn a_loopback_server_serves_until_dropped_and_stops_its_connections() {
    let server = LoopbackServer::start(|mut stream, stop| {
        let _ = stream.write_all(b"hello");
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
    })
    .unwrap();
    let port = server.port();
    let mut client = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut greeting = [0; 5];
    client.read_exact(&mut greeting).unwrap();
    assert_eq!(&greeting, b"hello");
    drop(server);
    let mut rest = Vec::new();
    client.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "the connection ended");
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens"
    );
}

/// Set in the copies of this test binary that the next test starts: then
/// that test is the child, which runs a command and passes or fails.
const TMPDIR_CHILD: &str = "OCTOKU_TESTKIT_TMPDIR_CHILD";

/// A run's `TMPDIR` is the test process's own directory, and it is gone
/// once the process has exited, whether its tests passed or failed. The
/// test runs this binary again as the child: the child's run prints its
/// `TMPDIR` and whether it is a directory, then the child passes, or
/// panics.
#[test]
fn the_runs_tmpdir_is_gone_when_the_test_process_exits() {
    if let Ok(mode) = std::env::var(TMPDIR_CHILD) {
        let run = octoku_testkit::Octoku::new("sh")
            .args(["-c", r#"test -d "$TMPDIR" && echo "runs tmpdir: $TMPDIR""#])
            .run();
        print!("{}", run.ok());
        assert_eq!(mode, "pass", "the child fails as asked");
        return;
    }
    for (mode, code) in [("pass", 0), ("fail", 101)] {
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "the_runs_tmpdir_is_gone_when_the_test_process_exits",
                "--nocapture",
            ])
            .env(TMPDIR_CHILD, mode)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{mode}: {stdout}");
        let dir = stdout
            .lines()
            .find_map(|l| l.strip_prefix("runs tmpdir: "))
            .unwrap_or_else(|| panic!("{mode}: the run printed no directory: {stdout}"));
        let dir = std::path::Path::new(dir);
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with("octoku-test-runs-"), "{}", dir.display());
        assert!(
            !dir.exists(),
            "{mode}: {} outlived the process",
            dir.display()
        );
    }
}

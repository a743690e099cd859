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

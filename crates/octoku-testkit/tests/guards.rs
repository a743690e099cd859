//! The kit's promise: what a test starts is gone when its guard drops.

use std::{net::TcpStream, process::Command, time::Duration};

use octoku_testkit::{Anvil, Process};

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
    // The grandchild is reparented and reaped by init once killed; wait
    // for that on a condition, not a fixed time.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while alive(grandchild) {
        assert!(
            std::time::Instant::now() < deadline,
            "the shell's child {grandchild} outlived the guard"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
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

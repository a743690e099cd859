//! The server's bounds on hostile clients, over real loopback sockets (std
//! `TcpStream`s, short limits so the test is quick): header lines sent
//! slowly, an idle kept-alive connection, a body sent slowly, more clients
//! than the connection cap; and the `Host` rule when bound to all addresses.

use std::{
    io::{Read, Write},
    net::{SocketAddr, TcpStream},
    time::{Duration, Instant},
};

use octoku_serve::{Config, Running, ServeLimits, guard::Guard, start};
use octoku_testkit::{TempDir, temp_dir};

const LIMITS: ServeLimits = ServeLimits {
    header_timeout: Duration::from_secs(1),
    body_timeout: Duration::from_secs(1),
    max_connections: 2,
    solve_timeout: Duration::from_secs(10),
};

/// A server on a free loopback port with short limits, on a fresh
/// embedded chain (stopped when the tuple drops).
fn server(name: &str) -> (Running, TempDir) {
    let dir = temp_dir(name);
    let running = start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        limits: LIMITS,
        ..Config::default()
    })
    .expect("server starts");
    (running, dir)
}

fn connect(server: &Running) -> TcpStream {
    let stream = TcpStream::connect(server.addr()).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
}

/// Reads until the server closes the connection; how long that took.
fn until_closed(stream: &mut TcpStream, started: Instant) -> (Duration, String) {
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => text.extend_from_slice(&buf[..n]),
        }
    }
    (
        started.elapsed(),
        String::from_utf8_lossy(&text).into_owned(),
    )
}

/// The server acted within a few of its 1 s limits since `started` (a busy
/// machine included), not after the client's 20 s read timeout.
fn assert_prompt(started: Instant) {
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
}

fn request(server: &Running, path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr())
}

#[test]
fn header_lines_sent_one_by_one_are_cut_off_at_the_header_timeout() {
    let (server, _dir) = server("slow-headers");
    let mut stream = connect(&server);
    let started = Instant::now();
    stream.write_all(b"GET /api/info HTTP/1.1\r\n").unwrap();
    // One header line every 300 ms, never the blank line that ends them.
    let mut closed = false;
    for i in 0..30 {
        std::thread::sleep(Duration::from_millis(300));
        if stream
            .write_all(format!("X-Slow-{i}: 1\r\n").as_bytes())
            .is_err()
        {
            closed = true;
            break;
        }
    }
    if !closed {
        until_closed(&mut stream, started);
    }
    assert_prompt(started);
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let (server, _dir) = server("idle");
    let mut stream = connect(&server);
    stream
        .write_all(request(&server, "/api/leaderboard").as_bytes())
        .unwrap();
    let started = Instant::now();
    let (elapsed, answer) = until_closed(&mut stream, started);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(elapsed < Duration::from_secs(5), "idle for {elapsed:?}");
    // A connection that never sends a byte is closed as well.
    let mut silent = connect(&server);
    let (elapsed, _) = until_closed(&mut silent, Instant::now());
    assert!(elapsed < Duration::from_secs(5), "silent for {elapsed:?}");
}

#[test]
fn a_body_sent_slowly_gets_408_at_the_body_timeout() {
    let (server, _dir) = server("slow-body");
    let mut stream = connect(&server);
    let started = Instant::now();
    write!(
        stream,
        "POST /api/verify HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
        server.addr()
    )
    .unwrap();
    let mut answer = String::new();
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(200));
        if stream.write_all(b" ").is_err() {
            break;
        }
        stream.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 4096];
        if let Ok(n) = stream.read(&mut buf) {
            answer.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        stream.set_nonblocking(false).unwrap();
        if !answer.is_empty() {
            break;
        }
    }
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
    assert_prompt(started);
}

#[test]
fn clients_past_the_connection_cap_wait_until_a_slot_frees() {
    let (server, _dir) = server("cap");
    // Two silent clients hold both slots until the header timeout.
    let holders: Vec<TcpStream> = (0..2).map(|_| connect(&server)).collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let mut third = connect(&server);
    third
        .write_all(request(&server, "/api/leaderboard").as_bytes())
        .unwrap();
    let (elapsed, answer) = until_closed(&mut third, started);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Served only once a holder was dropped by the header timeout (1 s),
    // and then at once.
    assert!(
        elapsed >= Duration::from_millis(500),
        "served at {elapsed:?}"
    );
    assert!(elapsed < Duration::from_secs(8), "served at {elapsed:?}");
    drop(holders);
}

#[test]
fn bound_to_all_addresses_any_ip_of_the_machine_is_a_host_but_names_are_not() {
    let all: SocketAddr = "0.0.0.0:8580".parse().unwrap();
    let guard = Guard::with_token("0.0.0.0", all, "t".into());
    for host in [
        "192.168.1.20:8580",
        "10.0.0.5:8580",
        "[fe80::1]:8580",
        "127.0.0.1:8580",
        "localhost:8580",
    ] {
        assert!(guard.host_allowed(host), "{host}");
    }
    for host in [
        "evil.example:8580",
        "192.168.1.20:80",
        "192.168.1.20",
        "0x7f.1:8580",
    ] {
        assert!(!guard.host_allowed(host), "{host}");
    }
    // Bound to loopback, another machine's address is refused as before.
    let loopback: SocketAddr = "127.0.0.1:8580".parse().unwrap();
    let guard = Guard::with_token("127.0.0.1", loopback, "t".into());
    assert!(!guard.host_allowed("192.168.1.20:8580"));
}

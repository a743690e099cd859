//! A bounded load test on loopback: 50 concurrent clients, each sending 200
//! `POST /api/verify` requests on its own connection; every answer must be
//! 200 with the verdict the Rust mirror gives. Prints requests per second
//! and latency percentiles (`--nocapture` shows them; the README quotes them).

use std::time::{Duration, Instant};

use octoku_core::{Board, fair::fair_generate, solve};
use octoku_serve::{Config, start};
use serde_json::{Value, json};

const CLIENTS: usize = 50;
const REQUESTS: usize = 200;

#[test]
fn fifty_clients_times_two_hundred_verifies_without_an_error() {
    let dir = octoku_testkit::temp_dir("serve-load");
    let server = start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        ..Config::default()
    })
    .expect("server starts");
    let url = format!("{}api/verify", server.url());
    // The workspace builds reqwest with rustls and no built-in crypto
    // provider (see octoku-evm's rpc.rs): the process default is ring.
    let _ = rustls::crypto::ring::default_provider().install_default();

    // Half the requests carry the right solution, half a wrong one.
    let start_board = fair_generate(&octoku_testkit::DEV_ACCOUNTS[1].parse().unwrap());
    let solution = solve::solve(start_board).unwrap().unwrap();
    let wrong: Board = solution.with_cell(0, 0, solution.cell(0, 1));
    let bodies = [
        (
            json!({"start": start_board.to_hex(), "solution": solution.to_hex()}).to_string(),
            true,
        ),
        (
            json!({"start": start_board.to_hex(), "solution": wrong.to_hex()}).to_string(),
            false,
        ),
    ];

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let began = Instant::now();
    let latencies: Vec<Duration> = runtime.block_on(async {
        let mut tasks = Vec::new();
        for client_index in 0..CLIENTS {
            let url = url.clone();
            let bodies = bodies.clone();
            tasks.push(tokio::spawn(async move {
                let client = reqwest::Client::builder()
                    .no_proxy()
                    .pool_max_idle_per_host(1)
                    .build()
                    .unwrap();
                let mut times = Vec::with_capacity(REQUESTS);
                for k in 0..REQUESTS {
                    let (body, valid) = &bodies[(client_index + k) % 2];
                    let sent = Instant::now();
                    let response = client
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body.clone())
                        .send()
                        .await
                        .unwrap_or_else(|e| panic!("client {client_index} request {k}: {e}"));
                    let status = response.status();
                    let bytes = response.bytes().await.unwrap();
                    times.push(sent.elapsed());
                    assert_eq!(status, 200, "client {client_index} request {k}");
                    let v: Value = serde_json::from_slice(&bytes).unwrap();
                    assert_eq!(
                        v["valid"],
                        json!(*valid),
                        "client {client_index} request {k}"
                    );
                }
                times
            }));
        }
        let mut all = Vec::with_capacity(CLIENTS * REQUESTS);
        for t in tasks {
            all.extend(t.await.expect("a client task"));
        }
        all
    });
    let elapsed = began.elapsed();
    let mut sorted = latencies;
    sorted.sort();
    assert_eq!(sorted.len(), CLIENTS * REQUESTS);
    let pct = |p: f64| sorted[((sorted.len() as f64 * p).ceil() as usize).saturating_sub(1)];
    let rate = sorted.len() as f64 / elapsed.as_secs_f64();
    println!(
        "load: {} verify requests from {CLIENTS} clients in {:.2} s: {rate:.0} req/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        sorted.len(),
        elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3,
    );
    server.stop().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

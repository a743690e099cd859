//! The JSON API and the security rules, through the router with tower's
//! `oneshot` (no socket): each rule of docs/serve.md's security list has a test.

use std::{net::SocketAddr, sync::Arc};

use axum::{
    Router,
    body::{Body, to_bytes},
    http::{Method, Request, StatusCode, header},
};
use octoku_chain::{Chain, PrivateKey, arena, primitives::Address};
use octoku_core::{Board, octoku::fair::fair_generate, solve::octoku as solve};
use octoku_evm::Puzzle;
use octoku_serve::{
    Backend, Config, MAX_BODY, ServeLimits,
    api::{
        BoardInfo, ErrorBody, Info, Leaderboard, PracticePuzzle, SubmitResponse, TextResponse,
        VerifyResponse,
    },
    guard::{Guard, TOKEN_HEADER},
    router,
};
use octoku_testkit::{DEV_ACCOUNTS, DEV_KEYS, TempDir, temp_dir};
use serde_json::{Value, json};
use tower::ServiceExt;

const TOKEN: &str = "test-token-0123456789abcdef";
const BOUND: &str = "127.0.0.1:8580";
const DEV1: &str = DEV_ACCOUNTS[1];

/// A config on a fresh embedded chain in a temp dir (kept by the guard),
/// with anvil's first dev key as the server's signer (without a signer it
/// would sign nothing).
fn config(name: &str) -> (Config, TempDir) {
    let dir = temp_dir(name);
    let config = Config {
        state: dir.path().join("chain.json"),
        key: Some(PrivateKey::anvil_default()),
        ..Config::default()
    };
    (config, dir)
}

fn app_with(config: &Config) -> Router {
    let backend = Arc::new(Backend::open(config).expect("backend opens"));
    let addr: SocketAddr = BOUND.parse().unwrap();
    router(
        backend,
        Guard::with_token("127.0.0.1", addr, TOKEN.into()),
        ServeLimits::default().solve_timeout,
    )
}

fn app(name: &str) -> (Router, TempDir) {
    let (config, dir) = config(name);
    (app_with(&config), dir)
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

impl Answer {
    fn json<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not the expected JSON ({e}): {}", self.body))
    }
    fn error(&self) -> String {
        self.json::<ErrorBody>().error
    }
}

async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, BOUND)
        .body(Body::empty())
        .unwrap()
}

fn post(path: &str, body: impl Into<Body>, token: Option<&str>) -> Request<Body> {
    let mut r = Request::post(path)
        .header(header::HOST, BOUND)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(t) = token {
        r = r.header(TOKEN_HEADER, t);
    }
    r.body(body.into()).unwrap()
}

/// Submits `solution` (hex) as `player`'s with the page's token.
async fn submit(app: &Router, player: &str, solution: &str) -> Answer {
    let body = json!({"player": player, "solution": solution}).to_string();
    send(app, post("/api/submit", body, Some(TOKEN))).await
}

fn solution_of(start: &str) -> Board {
    solve::solve(start.parse().unwrap()).unwrap().unwrap()
}

#[tokio::test]
async fn page_carries_the_token_and_loads_nothing_from_the_network() {
    let (app, _dir) = app("page");
    let page = send(&app, get("/")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains(&format!("content=\"{TOKEN}\"")),
        "token meta"
    );
    let csp = page.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"),
        "{csp}"
    );
    for path in ["/", "/app.js", "/app.css"] {
        let a = send(&app, get(path)).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        for outside in ["http://", "https://", "//cdn", "@import", "fonts.g"] {
            assert!(!a.body.contains(outside), "{path} references {outside}");
        }
    }
}

#[tokio::test]
async fn host_header_must_name_this_server() {
    let (app, _dir) = app("host");
    for (host, status) in [
        ("127.0.0.1:8580", StatusCode::OK),
        ("localhost:8580", StatusCode::OK),
        ("LOCALHOST:8580", StatusCode::OK),
        ("evil.example:8580", StatusCode::FORBIDDEN),
        ("evil.example", StatusCode::FORBIDDEN),
        ("127.0.0.1:9999", StatusCode::FORBIDDEN),
        ("127.0.0.1.evil.example:8580", StatusCode::FORBIDDEN),
    ] {
        for path in ["/", "/api/info", "/api/leaderboard"] {
            let request = Request::get(path)
                .header(header::HOST, host)
                .body(Body::empty())
                .unwrap();
            let a = send(&app, request).await;
            assert_eq!(a.status, status, "Host {host} {path}");
            if status == StatusCode::FORBIDDEN {
                assert!(a.error().contains("is not this server's"), "{}", a.body);
            }
        }
    }
    let no_host = Request::get("/api/info").body(Body::empty()).unwrap();
    assert_eq!(send(&app, no_host).await.status, StatusCode::FORBIDDEN);
    // The same rule holds for a state-changing request with the right token.
    let request = Request::post("/api/submit")
        .header(header::HOST, "evil.example:8580")
        .header(TOKEN_HEADER, TOKEN)
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(send(&app, request).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn submit_needs_the_page_token() {
    let (app, _dir) = app("token");
    let start = fair_generate(&DEV1.parse().unwrap()).to_hex();
    let body = json!({"player": DEV1, "solution": solution_of(&start).to_hex()}).to_string();
    for token in [None, Some(""), Some("wrong"), Some(&TOKEN[1..])] {
        let a = send(&app, post("/api/submit", body.clone(), token)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "token {token:?}");
        assert!(a.error().contains("X-Octoku-Token"), "{}", a.body);
    }
    // Nothing was sent: the leaderboard is still empty.
    let board: Leaderboard = send(&app, get("/api/leaderboard")).await.json();
    assert!(board.solvers.is_empty());
    let a = send(&app, post("/api/submit", body, Some(TOKEN))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
}

#[tokio::test]
async fn no_cors_headers_even_for_a_foreign_origin() {
    let (app, _dir) = app("cors");
    let requests = [
        Request::get("/api/info")
            .header(header::HOST, BOUND)
            .header(header::ORIGIN, "http://evil.example")
            .body(Body::empty())
            .unwrap(),
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/api/submit")
            .header(header::HOST, BOUND)
            .header(header::ORIGIN, "http://evil.example")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(header::ACCESS_CONTROL_REQUEST_HEADERS, TOKEN_HEADER)
            .body(Body::empty())
            .unwrap(),
        post("/api/verify", "{}", None),
    ];
    for request in requests {
        let path = request.uri().path().to_string();
        let a = send(&app, request).await;
        let cors: Vec<_> = a
            .headers
            .keys()
            .filter(|k| k.as_str().starts_with("access-control-"))
            .collect();
        assert!(cors.is_empty(), "{path}: {cors:?}");
    }
}

#[tokio::test]
async fn bodies_above_64_kib_are_refused_with_413() {
    let (app, _dir) = app("limit");
    let big = format!(
        "{{\"start\":\"0x0\",\"solution\":\"0x0\",\"pad\":\"{}\"}}",
        "x".repeat(MAX_BODY)
    );
    // Announced length: refused before reading.
    let announced = Request::post("/api/verify")
        .header(header::HOST, BOUND)
        .header(header::CONTENT_LENGTH, big.len())
        .body(Body::from(big.clone()))
        .unwrap();
    let a = send(&app, announced).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        a.error(),
        format!("request body too large: expected at most {MAX_BODY} bytes")
    );
    // No length announced (a stream): cut at the limit while reading.
    let stream = Body::from_stream(futures_stream(big.clone()));
    let a = send(&app, post("/api/verify", stream, None)).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", a.body);
    let a = send(
        &app,
        post(
            "/api/submit",
            Body::from_stream(futures_stream(big)),
            Some(TOKEN),
        ),
    )
    .await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", a.body);
    // Just under the limit is read (and then refused as a bad board, 400).
    let fits = format!(
        "{{\"start\":\"0x0\",\"solution\":\"{}\"}}",
        "1".repeat(MAX_BODY - 40)
    );
    assert!(fits.len() <= MAX_BODY);
    let a = send(&app, post("/api/verify", fits, None)).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);
}

/// A body in 1 KiB chunks with no length known in advance.
fn futures_stream(
    text: String,
) -> impl futures_core::Stream<Item = Result<Vec<u8>, std::io::Error>> + Send + 'static {
    let chunks: Vec<Vec<u8>> = text.as_bytes().chunks(1024).map(<[u8]>::to_vec).collect();
    Chunks(chunks.into_iter())
}

struct Chunks(std::vec::IntoIter<Vec<u8>>);

impl futures_core::Stream for Chunks {
    type Item = Result<Vec<u8>, std::io::Error>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::task::Poll::Ready(self.0.next().map(Ok))
    }
}

#[tokio::test]
async fn malformed_json_and_boards_get_400_with_the_cli_line() {
    let (app, _dir) = app("malformed");
    let cases: [(&str, &str, String); 6] = [
        ("/api/verify", "{not json", String::new()),
        ("/api/verify", "{\"start\":\"0x0\"}", String::new()),
        (
            "/api/verify",
            "{\"start\":\"0x0\",\"solution\":\"0x0\",\"extra\":1}",
            String::new(),
        ),
        (
            "/api/verify",
            "{\"start\":\"0xZZ\",\"solution\":\"0x0\"}",
            format!("START: {}", "0xZZ".parse::<Board>().unwrap_err()),
        ),
        (
            "/api/verify",
            "{\"start\":\"0x0\",\"solution\":\"9999999999999999999999999999999999999999999999999999999999999999\"}",
            format!("SOLUTION: {}", "9".repeat(64).parse::<Board>().unwrap_err()),
        ),
        ("/api/puzzle", "{\"size\":7}", String::new()),
    ];
    for (path, body, expected) in cases {
        let a = send(&app, post(path, body, None)).await;
        assert_eq!(
            a.status,
            StatusCode::BAD_REQUEST,
            "{path} {body}: {}",
            a.body
        );
        let line = a.error();
        assert!(!line.is_empty() && !line.contains('\n'), "{line:?}");
        if !expected.is_empty() {
            assert_eq!(line, expected);
        }
    }
    let a = send(&app, post("/api/verify", "{not json", None)).await;
    assert!(a.error().starts_with("malformed JSON: "), "{}", a.body);
    let a = send(&app, post("/api/puzzle", "{\"size\":7}", None)).await;
    assert!(
        a.error().starts_with("size: no board of size 7"),
        "{}",
        a.body
    );
    let a = send(&app, get("/api/board/0x1234")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        a.error(),
        octoku_core::parse_address("0x1234")
            .unwrap_err()
            .to_string()
    );
    // Submitting a malformed board is refused before any chain work.
    let a = submit(&app, DEV1, "0xQ").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().starts_with("SOLUTION: "), "{}", a.body);
}

#[tokio::test]
async fn board_verify_submit_and_leaderboard_on_the_fair_arena() {
    let (app, _dir) = app("flow");
    let info: Info = send(&app, get("/api/info")).await.json();
    assert_eq!(info.puzzle, "fair");
    assert!(info.players.iter().any(|p| p.address == DEV1));

    let seat: BoardInfo = send(&app, get(&format!("/api/board/{DEV1}"))).await.json();
    let expected = fair_generate(&DEV1.parse().unwrap());
    assert_eq!(seat.start, expected.to_hex());
    assert_eq!(seat.cells, expected.cells().to_vec());
    assert_eq!(
        (seat.puzzle.as_str(), seat.solvable, seat.reason.as_deref()),
        ("fair", true, None)
    );
    assert!(seat.can_submit && seat.solved.is_none());

    // A correct solution: valid, with the golfed verify's gas.
    let solution = solution_of(&seat.start);
    let body = json!({"start": seat.start, "solution": solution.to_hex()}).to_string();
    let v: VerifyResponse = send(&app, post("/api/verify", body, None)).await.json();
    assert!(
        v.valid && v.problems.is_empty() && v.reason.is_none(),
        "{v:?}"
    );
    assert!(v.gas > 0);

    // Two cells swapped in row 1 (0-based 0) that are not givens: repeats, with cells.
    let free: Vec<usize> = (0..8).filter(|&c| expected.cell(0, c) == 0).collect();
    let (a, b) = (free[0], free[1]);
    let swapped =
        solution
            .with_cell(0, a, solution.cell(0, b))
            .with_cell(0, b, solution.cell(0, a));
    let body = json!({"start": seat.start, "solution": swapped.to_hex()}).to_string();
    let v: VerifyResponse = send(&app, post("/api/verify", body, None)).await.json();
    assert!(!v.valid);
    let repeat = v.problems.iter().find(|p| p.kind == "repeated").unwrap();
    assert!(repeat.message.contains("repeats"), "{}", repeat.message);
    assert_eq!(v.reason.as_deref(), Some(v.problems[0].message.as_str()));
    let involved: Vec<[usize; 2]> = v.problems.iter().flat_map(|p| p.cells.clone()).collect();
    assert!(
        involved.contains(&[0, a]) && involved.contains(&[0, b]),
        "{involved:?}"
    );

    // A wrong solve reverts by name; nothing is mined.
    let a = submit(&app, DEV1, &swapped.to_hex()).await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    let e: ErrorBody = a.json();
    assert_eq!(e.revert.as_deref(), Some("WrongSolution"));
    assert_eq!(e.error, "the transaction would revert: WrongSolution()");

    // The right one: rank 1, a receipt.
    let a = submit(&app, DEV1, &solution.to_hex()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let s: SubmitResponse = a.json();
    assert_eq!((s.rank, s.player.as_str()), (1, DEV1));
    assert!(s.gas_used > 21_000 && s.tx.len() == 66, "{s:?}");

    // Again: AlreadySolved, by name.
    let a = submit(&app, DEV1, &solution.to_hex()).await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    let e: ErrorBody = a.json();
    assert_eq!(e.revert.as_deref(), Some("AlreadySolved"));
    assert!(e.error.contains("AlreadySolved("), "{}", e.error);

    let board: Leaderboard = send(&app, get("/api/leaderboard")).await.json();
    assert_eq!(board.solvers.len(), 1);
    assert_eq!(
        (
            board.solvers[0].address.as_str(),
            board.solvers[0].rank,
            board.solvers[0].block
        ),
        (DEV1, 1, s.block)
    );
    assert_eq!(
        board.solvers[0].solution,
        solution.to_hex(),
        "the accepted solution, from the Solved event"
    );
    let seat: BoardInfo = send(&app, get(&format!("/api/board/{DEV1}"))).await.json();
    assert_eq!(seat.solved.map(|r| (r.rank, r.block)), Some((1, s.block)));

    // An address the server holds no key for is read-only.
    let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    let seat: BoardInfo = send(&app, get(&format!("/api/board/{stranger}")))
        .await
        .json();
    assert!(!seat.can_submit);
    let sol = solution_of(&seat.start);
    let a = submit(&app, stranger, &sol.to_hex()).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    assert!(a.error().contains("read-only"), "{}", a.body);
}

#[tokio::test]
async fn an_unsolvable_published_board_is_flagged_with_its_reason() {
    let (config, _dir) = config("unsolvable");
    // The published (reference) puzzle and an arena on it.
    let key = PrivateKey::anvil_default();
    let mut chain = Chain::embedded(&config.state, &key, true).unwrap();
    let reference = Puzzle::Reference.artifact().initcode.to_vec().into();
    let arena_addr = arena::deploy_with_arena(&mut chain, reference)
        .unwrap()
        .arena_address;
    drop(chain);
    let app = app_with(&Config {
        arena: Some(arena_addr),
        ..config
    });
    let info: Info = send(&app, get("/api/info")).await.json();
    assert_eq!(info.puzzle, "reference", "recognised by its code");
    let dead = "0xe0522c0611b8c66a5b429ad403b92e84c11173be";
    let seat: BoardInfo = send(&app, get(&format!("/api/board/{dead}"))).await.json();
    assert_eq!(
        seat.start,
        "0x0000056070423000000000000000000000000000000000000000800100000000"
    );
    assert!(!seat.solvable);
    assert_eq!(
        seat.reason.as_deref(),
        Some("row 2: digits 5 and 6 can only go in column 2")
    );
}

#[tokio::test]
async fn practice_puzzles_of_any_size_have_one_solution() {
    let (app, _dir) = app("practice");
    for size in [4, 9, 16] {
        let body = json!({"size": size, "seed": 5}).to_string();
        let a = send(&app, post("/api/puzzle", body.clone(), None)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        let p: PracticePuzzle = a.json();
        assert_eq!(p.cells.len(), size * size);
        assert_eq!(p.box_rows * p.box_cols, size);
        let g = octoku_core::grid::geometry::Geometry::for_size(size).unwrap();
        let board = octoku_core::grid::Grid::from_cells(g, &p.cells).unwrap();
        assert_eq!(octoku_core::solve::count(&board, 2), 1);
        assert_eq!(p.solutions, 1);
        assert_eq!(p.solution.as_ref().map(Vec::len), Some(size * size));
        assert_eq!(p.symbols.len(), size);
        // Same seed, same puzzle.
        let again: PracticePuzzle = send(&app, post("/api/puzzle", body, None)).await.json();
        assert_eq!(again.cells, p.cells);
    }
    for size in [3, 7, 17] {
        let body = json!({"size": size}).to_string();
        assert_eq!(
            send(&app, post("/api/puzzle", body, None)).await.status,
            StatusCode::BAD_REQUEST
        );
    }
}

#[tokio::test]
async fn the_signer_key_never_reaches_the_page_or_an_answer() {
    let (config, _dir) = config("secret");
    let config = Config {
        key: Some(PrivateKey::parse(DEV_KEYS[3]).unwrap()),
        ..config
    };
    // Sixteen hex digits of a key, without its 0x.
    let part = |key: &str| key[2..18].to_string();
    assert!(
        !format!("{config:?}").contains(&part(DEV_KEYS[3])),
        "Debug hides the key"
    );
    let app = app_with(&config);
    let signer: Address = DEV_ACCOUNTS[3].parse().unwrap();
    let info: Info = send(&app, get("/api/info")).await.json();
    assert_eq!(info.signer, Some(signer.to_checksum(None)));
    assert_eq!(info.players[0].label, "server signer");
    let seat: Value = send(&app, get(&format!("/api/board/{signer}")))
        .await
        .json();
    let start = seat["start"].as_str().unwrap().to_string();
    let body =
        json!({"player": signer.to_checksum(None), "solution": solution_of(&start).to_hex()})
            .to_string();
    let mut seen = String::new();
    for request in [
        get("/"),
        get("/app.js"),
        get("/api/info"),
        get(&format!("/api/board/{signer}")),
        post("/api/submit", body.clone(), Some(TOKEN)),
        post("/api/submit", body, Some(TOKEN)),
        get("/api/leaderboard"),
    ] {
        let a = send(&app, request).await;
        seen.push_str(&a.body);
        for (_, v) in &a.headers {
            seen.push_str(&String::from_utf8_lossy(v.as_bytes()));
        }
    }
    assert!(seen.contains("\"rank\":1"), "the signer solved");
    // Nor any dev key: the dev accounts sign on the server only.
    let seen = seen.to_ascii_lowercase();
    for key in DEV_KEYS {
        assert!(!seen.contains(&part(key)), "a dev key was shown");
    }
}

#[test]
fn a_non_loopback_host_gets_a_warning() {
    let with = |host: &str| Config {
        host: host.into(),
        ..Config::default()
    };
    for host in ["127.0.0.1", "localhost", "::1", "[::1]"] {
        assert_eq!(with(host).host_warning(), None, "{host}");
    }
    for host in ["0.0.0.0", "192.168.1.5", "::"] {
        let w = with(host).host_warning().unwrap();
        assert!(w.starts_with("warning: --host"), "{w}");
    }
    let e = with("example.com").ip().unwrap_err();
    assert!(e.to_string().contains("expected an IP address"), "{e}");
}

#[tokio::test]
async fn the_readme_verify_example_answers_as_documented() {
    let (app, _dir) = app("readme");
    // The public mainnet solve of the published puzzle (docs/serve.md, JSON API).
    let body = "{\"start\":\"0x0000010000000000000700000000040200000000030000800000006000500000\",\"solution\":\"0x6573214814286735824756133615847227814356536472817832156441563827\"}";
    let a = send(&app, post("/api/verify", body, None)).await;
    assert_eq!(
        a.body,
        "{\"valid\":true,\"gas\":829,\"puzzle\":\"fair\",\"reason\":null,\"problems\":[]}"
    );
}

#[tokio::test]
async fn practice_text_reads_and_writes_the_header_form() {
    let (app, _dir) = app("text");
    // Seed 003's own example, with its header's trailing space.
    let seed = "1 2 3 4 \n ,1, ,4\n4,2,1, \n ,3,4,2\n2, ,3, ";
    let a = send(
        &app,
        post("/api/puzzle", json!({"text": seed}).to_string(), None),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let p: PracticePuzzle = a.json();
    assert_eq!((p.size, p.box_rows, p.box_cols, p.solutions), (4, 2, 2, 1));
    assert_eq!(
        p.cells,
        vec![0, 1, 0, 4, 4, 2, 1, 0, 0, 3, 4, 2, 2, 0, 3, 0]
    );
    assert_eq!(
        p.solution,
        Some(vec![3, 1, 2, 4, 4, 2, 1, 3, 1, 3, 4, 2, 2, 4, 3, 1])
    );
    // Written back (custom symbols), and read again to the same board.
    let body = json!({"size": 4, "cells": p.cells, "symbols": ["w", "x", "y", "z"]}).to_string();
    let t: TextResponse = send(&app, post("/api/puzzle/text", body, None))
        .await
        .json();
    assert_eq!(t.text, "w x y z\n ,w, ,z\nz,x,w, \n ,y,z,x\nx, ,y, ");
    let again: PracticePuzzle = send(
        &app,
        post("/api/puzzle", json!({"text": t.text}).to_string(), None),
    )
    .await
    .json();
    assert_eq!(
        (again.cells, again.symbols),
        (
            p.cells,
            vec!["w".to_string(), "x".into(), "y".into(), "z".into()]
        )
    );
    // A board with no solution says why; malformed text and symbols are 400.
    let dead = "1 2 3 4\n1,1, , \n , , , \n , , , \n , , , ";
    let p: PracticePuzzle = send(
        &app,
        post("/api/puzzle", json!({"text": dead}).to_string(), None),
    )
    .await
    .json();
    assert_eq!((p.solutions, p.solution), (0, None));
    assert!(p.reason.unwrap().contains('1'));
    for body in [
        json!({"text": "1 2 3 4\n1,2"}),
        json!({"size": 4, "symbols": ["a", "b"]}),
        json!({"size": 4, "symbols": ["a", "a", "b", "c"]}),
        json!({"size": 4, "text": "1..."}),
        json!({}),
    ] {
        let a = send(&app, post("/api/puzzle", body.to_string(), None)).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{body}: {}", a.body);
        assert!(!a.error().contains('\n'));
    }
    let body = json!({"size": 4, "cells": vec![9u8; 16]}).to_string();
    assert_eq!(
        send(&app, post("/api/puzzle/text", body, None))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
}

/// The 60-given 16×16 partial grid whose count to two the search alone
/// never finished (the last board of the core's data/partial_slowest.txt).
const HARD16: &str = ".........2.C6.9....4.....9...........5..F....1...1........7GF.........2.AD......2.............5B....6...C...7...BD.E......4...265..D................D....5G..F..4.A.......D9........2G...7...D4..G3.A.E....12.......F........9.7...1...B..9F...E8.6.....2.......";

/// A practice board's search within the server's limit answers (the hard
/// 16×16 grid: two solutions or more); past the limit (0 here: every
/// search passes it) the answer is 503 with one line, and the stopped
/// search ends, its thread freed, within moments.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_search_past_the_limit_gets_503_and_stops() {
    let (app, _dir) = app("practice-limit");
    let body = json!({ "text": HARD16 }).to_string();
    let a = send(&app, post("/api/puzzle", body.clone(), None)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let p: PracticePuzzle = a.json();
    assert_eq!((p.size, p.solutions, p.solution), (16, 2, None));

    let (config, _dir2) = config("practice-limit-zero");
    let backend = Arc::new(Backend::open(&config).expect("backend opens"));
    let guard = Guard::with_token("127.0.0.1", BOUND.parse().unwrap(), TOKEN.into());
    let strict = router(backend, guard, std::time::Duration::ZERO);
    let started = std::time::Instant::now();
    let a = send(&strict, post("/api/puzzle", body, None)).await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.body);
    let line = a.error();
    assert!(
        line.starts_with("the board's search passed the server's limit of 0 ms"),
        "{line}"
    );
    assert!(!line.contains('\n'));
    // The search saw its flag and ended (no other test of this binary
    // holds a search for long).
    while octoku_serve::api::searches_running() > 0 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "a stopped search still runs"
        );
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
}

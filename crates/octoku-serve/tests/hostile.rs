//! The server behind a hostile or changed node: anvil on a free loopback
//! port, reached through an RPC URL that carries credentials and a key
//! (none of which may reach a page, an answer or a header), and an arena
//! whose code vanished after the server started (as after a node restart:
//! no solve may be sent to it, no fee paid).

use octoku_chain::{Chain, PrivateKey, TxOptions, arena::deploy_with_arena, primitives::Address};
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::Puzzle;
use octoku_serve::{Config, start};
use octoku_testkit::{Anvil, DEV_ACCOUNTS, DEV_KEYS, page_token, temp_dir};
use serde_json::{Value, json};

/// What the RPC URL below carries that must never leave the process.
const SECRETS: [&str; 3] = ["alice", "s3cret", "t0k3n"];

#[test]
fn rpc_credentials_never_reach_the_page_and_an_arena_without_code_is_sent_nothing() {
    let anvil = Anvil::start().expect("anvil starts");
    let key = PrivateKey::parse(DEV_KEYS[5]).unwrap();
    let mut chain = Chain::rpc(&anvil.url(), &key).unwrap();
    let fair = Puzzle::Fair.artifact().initcode.to_vec().into();
    let arena = deploy_with_arena(&mut chain, fair).unwrap().arena_address;
    drop(chain);
    // anvil ignores the user name, password and query; a browser or a log
    // must never see them.
    let secret_url = format!(
        "http://alice:s3cret@127.0.0.1:{}/?apikey=t0k3n",
        anvil.port()
    );

    let temp = temp_dir("serve-hostile");
    let dir = temp.path().to_path_buf();
    let server = start(Config {
        port: 0,
        rpc_url: Some(secret_url),
        arena: Some(arena),
        key: Some(key),
        state: dir.join("unused.json"),
        deployments_dir: dir.clone(),
        tx: TxOptions::default(),
        ..Config::default()
    })
    .expect("server starts on anvil");
    let base = server.url();
    let signer: Address = DEV_ACCOUNTS[5].parse().unwrap();
    let nonce = || anvil.request("eth_getTransactionCount", json!([signer, "latest"]));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let page = http.get(&base).send().await.unwrap();
        let csp = format!("{:?}", page.headers());
        let page = page.text().await.unwrap();
        let token = page_token(&page).expect("the page's token").to_string();
        let info = http
            .get(format!("{base}api/info"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let shown: Value = serde_json::from_str(&info).unwrap();
        assert_eq!(
            shown["chain"],
            json!(format!(
                "http://<redacted>@127.0.0.1:{}/?<redacted> (chain id 31337)",
                anvil.port()
            )),
            "{info}"
        );
        for secret in SECRETS {
            for (what, text) in [("/api/info", &info), ("the page", &page), ("headers", &csp)] {
                assert!(!text.contains(secret), "{secret} in {what}: {text}");
            }
        }

        // The node loses the arena's code (a restart without its state).
        let seat: Value = http
            .get(format!("{base}api/board/{signer}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let start: Board = seat["start"].as_str().unwrap().parse().unwrap();
        let solution = solve::solve(start).unwrap().unwrap();
        anvil
            .request("anvil_setCode", json!([arena, "0x"]))
            .unwrap();
        let before = nonce().unwrap();
        let r = http
            .post(format!("{base}api/submit"))
            .header("x-octoku-token", token)
            .body(json!({"player": signer, "solution": solution.to_hex()}).to_string())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let answer = r.text().await.unwrap();
        assert!(status >= 400, "{status} {answer}");
        assert!(answer.contains("no contract code at"), "{answer}");
        assert_eq!(nonce().unwrap(), before, "nothing was sent: {answer}");
        for secret in SECRETS {
            assert!(!answer.contains(secret), "{secret} in {answer}");
        }
    });
    server.stop().unwrap();
}

/// A port another program holds is said as such (bad input: exit 2 in the
/// CLI), before the chain is opened: no embedded chain is made.
#[test]
fn a_port_in_use_is_refused_as_input_before_the_chain_is_opened() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = temp_dir("serve-port-in-use");
    let e = start(Config {
        port,
        state: dir.path().join("chain.json"),
        ..Config::default()
    })
    .expect_err("the port is taken");
    assert!(
        matches!(e, octoku_serve::ServeError::Listen { .. }),
        "{e:?}"
    );
    // The operating system's error is kept as the cause.
    let cause = std::error::Error::source(&e).and_then(|c| c.downcast_ref::<std::io::Error>());
    assert_eq!(
        cause.map(std::io::Error::kind),
        Some(std::io::ErrorKind::AddrInUse),
        "{e:?}"
    );
    let line = e.to_string();
    assert!(
        line.contains(&format!("127.0.0.1:{port}: the port is in use")),
        "{line}"
    );
    assert!(!dir.path().join("chain.json").exists(), "no chain was made");
}

/// A site written to a link to an empty directory goes where the link
/// points (the link stays); a `--from-block` past the chain is refused as
/// the leaderboard's log queries would find nothing there.
#[test]
fn a_site_is_written_through_a_link_and_a_from_block_past_the_chain_is_refused() {
    let dir = temp_dir("site-link");
    let target = dir.path().join("public");
    std::fs::create_dir(&target).unwrap();
    let link = dir.path().join("site");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let site = octoku_serve::site::Site {
        rpc_url: "http://127.0.0.1:8545".into(),
        chain: "http://127.0.0.1:8545 (chain id 31337)".into(),
        chain_id: 31337,
        game: octoku_serve::backend::Game::Arena(Address::repeat_byte(1)),
        name: None,
        puzzle: Address::repeat_byte(2),
        kind: "fair".into(),
        from_block: 0,
        explorer_url: None,
    };
    octoku_serve::site::write(&link, &site.files(), false).unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(target.join("index.html").is_file());

    let e = start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        from_block: Some(1_000_000),
        ..Config::default()
    })
    .expect_err("refused");
    assert!(matches!(e, octoku_serve::ServeError::Input(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("--from-block 1000000 is past the chain's latest block "),
        "{e}"
    );
}

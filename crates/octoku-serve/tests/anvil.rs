//! The server on a real node: anvil (from `make setup`) on a free loopback
//! port, the fair puzzle and an arena deployed there through alloy, the
//! server started with `--rpc-url`, its own signer and `--arena`. Dev
//! accounts may play (chain id 31337), an address with no key is read-only,
//! and the leaderboard is read from the arena's `Solved` events.

use std::sync::atomic::{AtomicU64, Ordering};

use octoku_chain::{
    self as chain, Chain, PrivateKey, TxOptions, arena::deploy_with_arena, primitives::U256,
};
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::Puzzle;
use octoku_serve::{Config, start};
use octoku_testkit::{Anvil, DEV_ACCOUNTS, DEV_KEYS, page_token, temp_dir};
use serde_json::{Value, json};

/// The server signs with dev account 5; dev account 6 is a second player.
const DEV5: &str = DEV_ACCOUNTS[5];
const DEV6: &str = DEV_ACCOUNTS[6];

#[test]
fn on_anvil_dev_accounts_play_strangers_read_and_the_leaderboard_comes_from_events() {
    let anvil = Anvil::start().expect("anvil starts");
    let url = anvil.url();
    let key = PrivateKey::parse(DEV_KEYS[5]).unwrap();
    let mut chain = Chain::rpc(&url, &key).unwrap();
    let fair = Puzzle::Fair.artifact().initcode.to_vec().into();
    let arena = deploy_with_arena(&mut chain, fair).unwrap().arena_address;
    drop(chain);

    let temp = temp_dir("serve-anvil");
    let dir = temp.path().to_path_buf();
    let server = start(Config {
        port: 0,
        rpc_url: Some(url.clone()),
        arena: Some(arena),
        key: Some(key),
        state: dir.join("unused.json"),
        deployments_dir: dir.clone(),
        // Legacy transactions at 3 gwei, as `--legacy --gas-price 3gwei`.
        tx: TxOptions {
            gas_price: Some(3_000_000_000),
            legacy: true,
            ..TxOptions::default()
        },
        ..Config::default()
    })
    .expect("server starts on anvil");
    let signer: chain::primitives::Address = DEV5.parse().unwrap();
    let mut watcher = Chain::rpc(&url, &PrivateKey::parse(DEV_KEYS[5]).unwrap()).unwrap();
    let before = watcher.balance(signer).unwrap();
    // Gas of the one transaction the signer sends for itself (the others
    // are refused before sending, or signed by dev account 6).
    let signer_gas = AtomicU64::new(0);
    assert!(
        !dir.join("unused.json").exists(),
        "no embedded chain is made"
    );
    let base = server.url();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let get = |path: String| {
            let http = http.clone();
            let url = format!("{base}{}", path.trim_start_matches('/'));
            async move {
                let r = http.get(url).send().await.unwrap();
                let status = r.status().as_u16();
                (
                    status,
                    serde_json::from_slice::<Value>(&r.bytes().await.unwrap()).unwrap(),
                )
            }
        };
        // The page's token, as the page reads it.
        let page = http.get(&base).send().await.unwrap().text().await.unwrap();
        let token = page_token(&page).expect("the page's token").to_string();
        let submit = |player: &str, solution: Board| {
            let http = http.clone();
            let url = format!("{base}api/submit");
            let body = json!({"player": player, "solution": solution.to_hex()}).to_string();
            let token = token.clone();
            async move {
                let r = http
                    .post(url)
                    .header("x-octoku-token", token)
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let status = r.status().as_u16();
                (
                    status,
                    serde_json::from_slice::<Value>(&r.bytes().await.unwrap()).unwrap(),
                )
            }
        };

        let (status, info) = get("/api/info".into()).await;
        assert_eq!(status, 200);
        assert_eq!(info["chain"], json!(format!("{url} (chain id 31337)")));
        assert_eq!(info["puzzle"], json!("fair"), "recognised by its code");
        assert_eq!(info["signer"], json!(DEV5));
        let players: Vec<&str> = info["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["address"].as_str().unwrap())
            .collect();
        assert_eq!(players[0], DEV5);
        assert!(
            players.contains(&DEV6) && players.len() == 10,
            "{players:?}"
        );

        // The signer, then dev account 6, solve: ranks 1 and 2.
        for (player, rank) in [(DEV5, 1), (DEV6, 2)] {
            let (status, seat) = get(format!("/api/board/{player}")).await;
            assert_eq!(status, 200, "{seat}");
            assert_eq!(seat["can_submit"], json!(true));
            let start: Board = seat["start"].as_str().unwrap().parse().unwrap();
            let solution = solve::solve(start).unwrap().unwrap();
            let (status, solved) = submit(player, solution).await;
            assert_eq!(status, 200, "{solved}");
            assert_eq!(solved["rank"], json!(rank));
            if player == DEV5 {
                signer_gas.store(solved["gas_used"].as_u64().unwrap(), Ordering::SeqCst);
            }
            let (status, again) = submit(player, solution).await;
            assert_eq!((status, &again["revert"]), (409, &json!("AlreadySolved")));
        }

        // A stranger reads its board; submitting for it is refused.
        let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
        let (_, seat) = get(format!("/api/board/{stranger}")).await;
        assert_eq!(seat["can_submit"], json!(false));
        let start: Board = seat["start"].as_str().unwrap().parse().unwrap();
        let (status, refused) = submit(stranger, solve::solve(start).unwrap().unwrap()).await;
        assert_eq!(status, 403, "{refused}");

        // The leaderboard: both solvers from the Solved events, in rank order.
        let (_, board) = get("/api/leaderboard".into()).await;
        let solvers: Vec<(&str, u64)> = board["solvers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["address"].as_str().unwrap(), s["rank"].as_u64().unwrap()))
            .collect();
        assert_eq!(solvers, [(DEV5, 1), (DEV6, 2)]);
    });
    let gas = signer_gas.load(Ordering::SeqCst);
    assert!(gas > 21_000, "the signer's submission was mined");
    assert_eq!(
        before - watcher.balance(signer).unwrap(),
        U256::from(gas) * U256::from(3_000_000_000u64),
        "the signer paid exactly 3 gwei per gas (legacy, as configured)"
    );
    server.stop().unwrap();
}

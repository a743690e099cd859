//! The page with the player's own wallet, in a real browser: Debian's
//! headless Chromium through chromedriver (fantoccini), against anvil on a
//! free loopback port with the fair puzzle and an arena deployed.
//!
//! The wallet is an EIP-1193 provider installed by the test before the
//! page's scripts run (DevTools' `Page.addScriptToEvaluateOnNewDocument`).
//! Like a wallet extension's in-page provider it makes no network request
//! itself: it queues each request, and the test, playing the extension's
//! side, answers it (forwarding JSON-RPC to anvil, where the dev accounts are
//! unlocked, or rejecting it with code 4001, or reporting another chain), so
//! the page runs under its own Content-Security-Policy unchanged.
//!
//! One game is played end to end on `octoku serve` without a signer and on
//! the output of `octoku site` served by a plain static file server: a board
//! read before connecting, connect, the board equals `octoku generate` for
//! that account, a conflict entered by mouse is shown and explained, the
//! solution typed, a rejected request, a wrong chain whose switch is
//! refused, then switched, pending, confirmed, the leaderboard, and an
//! account change. Screenshots (desktop, phone 360 px, dark) land in
//! `target/octoku-serve/`.
//!
//! Everything started here is stopped by a guard on every path, failure
//! included: anvil and the browser by the test kit's guards (their process
//! groups), the servers by their own. Needs `/usr/bin/chromium` and
//! `/usr/bin/chromedriver` (`make setup-browser`); `OCTOKU_SKIP_BROWSER=1`
//! skips on a machine without them.

use std::path::Path;

use fantoccini::{Client, Locator, elements::Element};
use octoku_chain::{Chain, PrivateKey, arena::deploy_with_arena, primitives::Address};
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::{Machine, Puzzle};
use octoku_serve::{Config, site::Site};
use octoku_testkit::{Anvil, Browser, DEV_ACCOUNTS, temp_dir};
use serde_json::json;

mod page;
use page::{
    as_cells, assert_board_fits, assert_conflict_outlined, assert_solved,
    clear_undo_redo_and_pencil, click, full_of, in_browser, select, shoot, text, text_when,
    type_address, until,
    wallet::{
        ANVIL_CHAIN_ID, Wallet, cdp, on_serve, on_static_site, result_says, set, switch_account,
        type_solution,
    },
};

/// anvil's dev accounts 1, 2 and 3 (their keys are unlocked in anvil).
const DEV1: &str = DEV_ACCOUNTS[1];
const DEV2: &str = DEV_ACCOUNTS[2];
const DEV3: &str = DEV_ACCOUNTS[3];

/// anvil with the fair puzzle and an arena deployed by dev account 0.
struct Node {
    _anvil: Anvil,
    url: String,
    arena: Address,
}

/// The node, or `None` when the browser tests are skipped.
fn node() -> Option<Node> {
    let anvil = page::anvil_unless_skipped()?;
    let url = anvil.url();
    let mut chain = Chain::rpc(&url, &PrivateKey::anvil_default()).unwrap();
    let fair = Puzzle::Fair.artifact().initcode.to_vec().into();
    let arena = deploy_with_arena(&mut chain, fair).unwrap().arena_address;
    Some(Node {
        _anvil: anvil,
        url,
        arena,
    })
}

impl Node {
    /// What the server and the site read: this node and its arena (no
    /// key), files in `dir`.
    fn config(&self, dir: &Path) -> Config {
        Config {
            port: 0,
            rpc_url: Some(self.url.clone()),
            arena: Some(self.arena),
            state: dir.join("unused.json"),
            deployments_dir: dir.to_path_buf(),
            ..Config::default()
        }
    }
}

async fn cell(c: &Client, i: usize) -> Element {
    page::cell(c, "arena-grid", i).await
}

/// The board `octoku generate` gives `player`: the compiled fair puzzle in revm.
fn generated(player: &str) -> Board {
    let address: Address = player.parse().unwrap();
    Machine::new()
        .unwrap()
        .generate(Puzzle::Fair, &address)
        .unwrap()
        .value
}

/// The whole game with the wallet on the page at `url`; screenshots are
/// named `wallet-<name>-...`.
// One game, step by step as a user plays it.
#[allow(clippy::too_many_lines)]
async fn play(c: &Client, wallet: &Wallet, url: &str, name: &str) {
    c.set_window_size(900, 1400).await.unwrap();
    c.goto(url).await.unwrap();
    until(c, "!document.getElementById('connect').hidden").await;
    // Never an empty board: a demo address's, read-only, and what to do.
    let status = text_when(c, "board-status", "includes('a demo')").await;
    assert!(
        status.starts_with("Connect your wallet to play"),
        "{status}"
    );
    assert!(
        as_cells(&until(c, "seat && seat.demo && arena.givens").await)
            .iter()
            .any(|&d| d != 0)
    );

    // Before connecting: any address reads, read-only (on the static site
    // through the site's RPC URL, which its policy allows).
    let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    select(c, "player", "other").await;
    type_address(c, stranger).await;
    until(
        c,
        &format!(
            "seat && seat.address.toLowerCase() === '{}'",
            stranger.to_lowercase()
        ),
    )
    .await;
    let read = as_cells(&until(c, "arena.givens").await);
    assert_eq!(
        read,
        generated(stranger).cells().to_vec(),
        "the stranger's board"
    );
    assert!(text(c, "board-status").await.contains("Read-only"));
    assert_eq!(
        until(c, "String(document.getElementById('submit').disabled)").await,
        json!("true")
    );

    // Connect (the mouse): the account's board, as `octoku generate` gives it.
    let player = wallet.lock().unwrap().account.clone();
    click(c, "connect").await;
    until(
        c,
        &format!(
            "seat && seat.address.toLowerCase() === '{}'",
            player.to_lowercase()
        ),
    )
    .await;
    until(
        c,
        "document.getElementById('board-status').textContent.startsWith('Board of')",
    )
    .await;
    let start = generated(&player);
    let givens = start.cells();
    assert_eq!(as_cells(&until(c, "arena.givens").await), givens.to_vec());
    assert_eq!(
        until(c, "seat.start").await.as_str().unwrap(),
        start.to_hex(),
        "the board word"
    );
    assert_eq!(
        full_of(c, "#wallet-status [data-full]").await,
        player,
        "the account EIP-55 checksummed"
    );
    assert_eq!(
        until(c, "String(document.getElementById('submit').disabled)").await,
        json!("false")
    );
    let solution = solve::solve(start).unwrap().unwrap().cells();

    // A conflict by mouse: a cell, then the pad's digit of a given in its row.
    let g = givens.iter().position(|&d| d != 0).unwrap();
    let row = g / 8;
    let e = (row * 8..row * 8 + 8).find(|&i| givens[i] == 0).unwrap();
    cell(c, e).await.click().await.unwrap();
    c.find(Locator::Css(&format!(
        "#arena-pad button[aria-label='Enter {}']",
        givens[g]
    )))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    assert_eq!(
        until(c, &format!("arena.values[{e}]")).await,
        json!(givens[g])
    );
    let conflicts = c
        .execute(
            "return [...document.querySelectorAll('#arena-grid .cell.conflict')].map((el) => Number(el.dataset.index));",
            vec![],
        )
        .await
        .unwrap();
    let conflicts = as_cells(&conflicts);
    assert!(
        conflicts.contains(&(e as u8)) && conflicts.contains(&(g as u8)),
        "the digit and the given it repeats are outlined: {conflicts:?}"
    );
    click(c, "check").await;
    let result = result_says(c, "Invalid").await;
    assert!(
        result.contains(&format!("row {} repeats {}", row + 1, givens[g])),
        "{result}"
    );
    assert_conflict_outlined(c).await;
    shoot(c, &format!("wallet-{name}-conflict.png")).await;

    // The keyboard: Backspace clears the conflict (undo, redo and a pencil
    // mark on the way), then the whole solution.
    clear_undo_redo_and_pencil(c, e, givens[g]).await;
    type_solution(c, &givens, &solution).await;
    assert_eq!(as_cells(&until(c, "arena.values").await), solution.to_vec());
    click(c, "check").await;
    result_says(c, "Valid").await;

    // A rejected request: one line, nothing sent, the entries kept.
    set(wallet, |w| w.reject_send = true);
    click(c, "submit").await;
    let result = result_says(c, "You rejected the transaction in your wallet").await;
    assert!(result.contains("your entries are kept"), "{result}");
    assert_eq!(as_cells(&until(c, "arena.values").await), solution.to_vec());
    set(wallet, |w| w.reject_send = false);

    // A wrong chain: shown at once; a refused switch gets one line.
    set(wallet, |w| {
        w.chain_id = 1;
        w.refuse_switch = true;
    });
    c.execute("window.__wallet.emit('chainChanged', '0x1');", vec![])
        .await
        .unwrap();
    until(c, "document.getElementById('wallet-status').textContent.includes('on Ethereum mainnet (chain id 1); the arena is on a local dev chain (chain id 31337)')").await;
    click(c, "submit").await;
    let result = result_says(c, "switching was refused").await;
    assert!(result.contains("Your wallet is on chain 1"), "{result}");
    assert_eq!(as_cells(&until(c, "arena.values").await), solution.to_vec());

    // The switch accepted: pending until the receipt comes, then confirmed.
    set(wallet, |w| {
        w.refuse_switch = false;
        w.hold_receipts = true;
    });
    click(c, "submit").await;
    let pending = result_says(c, "Pending: transaction 0x").await;
    assert!(pending.contains("waiting for it to be mined"), "{pending}");
    assert_eq!(wallet.lock().unwrap().chain_id, ANVIL_CHAIN_ID, "switched");
    shoot(c, &format!("wallet-{name}-pending.png")).await;
    set(wallet, |w| w.hold_receipts = false);
    let result = result_says(c, "Solved! Rank 1").await;
    assert!(result.contains("gas used"), "{result}");
    let tx = full_of(c, "#tx").await;
    assert!(tx.starts_with("0x") && tx.len() == 66, "{tx}");
    let seen = wallet.lock().unwrap().seen.clone();
    for method in [
        "eth_requestAccounts",
        "wallet_switchEthereumChain",
        "eth_sendTransaction",
        "eth_getTransactionReceipt",
    ] {
        assert!(seen.iter().any(|m| m == method), "{method} in {seen:?}");
    }

    // The leaderboard shows the player, rank 1.
    until(c, "document.querySelector('#leaderboard tbody tr.me')").await;
    let row = c
        .find(Locator::Css("#leaderboard tbody tr.me"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(row.starts_with("1 "), "{row}");
    assert_eq!(
        full_of(c, "#leaderboard tbody tr.me [data-full]").await,
        player,
        "checksummed"
    );
    assert_solved(c, &solution).await;
    shoot(c, &format!("wallet-{name}-solved.png")).await;

    // A phone, 360 px wide: the board fits, nothing scrolls sideways.
    c.set_window_size(360, 1100).await.unwrap();
    assert_board_fits(c).await;
    shoot(c, &format!("wallet-{name}-360.png")).await;

    // The dark theme follows the system's preference.
    cdp(
        c,
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    )
    .await;
    c.set_window_size(900, 1400).await.unwrap();
    until(
        c,
        "getComputedStyle(document.documentElement).backgroundColor === 'rgb(18, 21, 28)'",
    )
    .await;
    shoot(c, &format!("wallet-{name}-dark.png")).await;

    // Another account in the wallet plays its own board.
    let other = if player == DEV2 { DEV3 } else { DEV2 };
    switch_account(c, wallet, other).await;
    until(
        c,
        &format!(
            "seat && seat.address.toLowerCase() === '{}'",
            other.to_lowercase()
        ),
    )
    .await;
    assert_eq!(
        as_cells(&until(c, "arena.givens").await),
        generated(other).cells().to_vec()
    );
}

#[test]
fn a_wallet_plays_a_board_on_serve_without_a_signer_in_chromium() {
    let Some(node) = node() else {
        return;
    };
    let dir = temp_dir("wallet-serve");
    on_serve(
        node.config(dir.path()),
        DEV1,
        &node.url,
        async |c, wallet, url| play(c, wallet, url, "serve").await,
    );
}

#[test]
fn a_wallet_plays_a_board_on_the_static_site_in_chromium() {
    let Some(node) = node() else {
        return;
    };
    let dir = temp_dir("wallet-site");
    let site = Site::open(&node.config(dir.path())).expect("the chain is read");
    on_static_site(
        &site,
        dir.path(),
        DEV2,
        &node.url,
        async |c, wallet, url| play(c, wallet, url, "site").await,
    );
}

/// `octoku serve` with no flags at all (the embedded chain, no signer) in a
/// browser without a wallet: the page says why nobody can submit and how to
/// start the server so someone can, and still reads any address's board.
#[test]
fn without_a_signer_or_a_wallet_the_page_says_how_to_play_in_chromium() {
    if Browser::skipped() {
        return;
    }
    let dir = temp_dir("wallet-embedded");
    let server = octoku_serve::start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        ..Config::default()
    })
    .expect("server starts");
    in_browser(async |c| {
        c.goto(&server.url()).await.unwrap();
        until(
            c,
            "document.getElementById('board-status').textContent.includes('no key')",
        )
        .await;
        let status = text(c, "board-status").await;
        assert!(
            status.starts_with("This server holds no key and runs the embedded chain")
                && status.contains("--private-key")
                && status.contains("--rpc-url"),
            "{status}"
        );
        assert!(
            text(c, "wallet-status")
                .await
                .starts_with("No wallet in this browser")
        );
        assert_eq!(
            until(c, "String(document.getElementById('connect').hidden)").await,
            json!("true")
        );
        let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
        type_address(c, stranger).await;
        until(c, &format!("seat && seat.address === '{stranger}'")).await;
        let status = text(c, "board-status").await;
        assert!(
            status.contains("Read-only: Check works; this server holds no key: start octoku serve with --private-key"),
            "{status}"
        );
        assert_eq!(
            until(c, "String(document.getElementById('submit').disabled)").await,
            json!("true")
        );
    });
    server.stop().unwrap();
}

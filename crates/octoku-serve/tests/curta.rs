//! A Curta puzzle played from the page, in a real browser, on the real
//! Curta protocol (`../shared/curta/curta.json`, deployed on anvil by the
//! test kit's recipe; no stand-in for Curta anywhere) with the fair puzzle
//! added by an author holding an Authorship Token.
//!
//! One game is played through `octoku serve --curta` without a signer and
//! one through the output of `octoku site --curta` behind a plain static
//! file server, both with the test's EIP-1193 wallet (tests/page/wallet.rs):
//! connect, the board equals `octoku generate` for that account, phase 0
//! shown, a wrong solution refused by name with its problems listed and
//! nothing sent, the first solve (phase 0) after which Submit is off and
//! says "Solved" with the solution kept on the board, a second account whose board was read in phase 1
//! submitting after the clock moved into phase 2 (refused: the fee rose,
//! nothing sent), then paying the 0.02 ether fee from the page (Curta's
//! owner and the author get 0.01 ether each), the leaderboard with a phase
//! per row and checksummed addresses, the first solver's board read anew
//! with its accepted solution, and phase 3 closed. A third test plays
//! through the server's own signer in a browser without a wallet, and the
//! server refuses a phase 2 solve without the fee before sending.
//!
//! When `../shared/curta` is missing these tests fail under `CI=true` with a
//! one-line reason, and are skipped with that line elsewhere. Everything
//! started here is stopped by a guard on every path. Screenshots land in
//! `target/octoku-serve/curta-*.png`.

use fantoccini::Client;
use octoku_chain::{
    Chain, PrivateKey,
    curta::{self, Refusal},
    primitives::{Address, U256},
};
use octoku_core::{Board, solve::octoku as solve};
use octoku_evm::Puzzle;
use octoku_serve::{
    Config,
    backend::{Backend, SubmitError},
    site,
};
use octoku_testkit::{Anvil, DEV_ACCOUNTS, DEV_KEYS, temp_dir};
use serde_json::{Value, json};

mod page;
use page::{
    as_cells, assert_solved, click, full_of, in_browser, select, shoot, text, text_when, until,
    wallet::{Wallet, on_serve, on_static_site, result_says, switch_account, type_solution},
};

/// Two days and ten seconds: from phase 1 into phase 2.
const INTO_PHASE_TWO: u64 = 2 * 86_400 + 10;
/// Three more days: into phase 3.
const INTO_PHASE_THREE: u64 = 3 * 86_400;

/// anvil with Curta, and the fair puzzle added by dev account 1 (token 1).
struct Node {
    anvil: Anvil,
    curta: Address,
    /// Block of the `addPuzzle`.
    added: u64,
}

/// The protocol and the puzzle, or `None` when ../shared/curta is missing
/// or the browser tests are skipped.
fn node() -> Option<Node> {
    let anvil = page::anvil_unless_skipped()?;
    let artifacts = octoku_testkit::curta::artifacts()?;
    let author: Address = DEV_ACCOUNTS[1].parse().unwrap();
    let deployed = octoku_testkit::curta::deploy(&anvil, &artifacts, &[author]);
    let mut chain = Chain::rpc(&anvil.url(), &PrivateKey::parse(DEV_KEYS[1]).unwrap()).unwrap();
    let puzzle = chain
        .deploy(Puzzle::Fair.artifact().initcode.to_vec().into())
        .unwrap()
        .contract_address
        .unwrap();
    let added = curta::add_puzzle(&mut chain, deployed.curta, puzzle, U256::from(1)).unwrap();
    assert_eq!(added.id, 1);
    Some(Node {
        anvil,
        curta: deployed.curta,
        added: added.receipt.block,
    })
}

impl Node {
    fn config(&self, dir: &std::path::Path) -> Config {
        Config {
            port: 0,
            rpc_url: Some(self.anvil.url()),
            curta: Some(self.curta),
            puzzle_id: Some(1),
            from_block: Some(self.added),
            state: dir.join("unused.json"),
            deployments_dir: dir.to_path_buf(),
            ..Config::default()
        }
    }

    fn balance(&self, account: &str) -> u128 {
        let wei = self
            .anvil
            .request("eth_getBalance", json!([account, "latest"]))
            .unwrap();
        u128::from_str_radix(wei.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
    }

    fn nonce(&self, account: &str) -> u64 {
        self.anvil.nonce(account).unwrap()
    }
}

/// The board `octoku generate --puzzle fair` gives `player`, and its solution.
fn board_of(player: &str) -> (Board, [u8; 64]) {
    let start = Puzzle::Fair.mirror_generate(&player.parse().unwrap());
    let solution = solve::solve(start).unwrap().unwrap().cells();
    (start, solution)
}

/// Waits until the page plays `player`'s board, and checks it is the one
/// `octoku generate` gives.
async fn seated(c: &Client, player: &str) -> (Board, [u8; 64]) {
    until(
        c,
        &format!(
            "seat && seat.address === '{player}' && document.getElementById('board-status').textContent.startsWith('Board of')"
        ),
    )
    .await;
    let (start, solution) = board_of(player);
    assert_eq!(
        as_cells(&until(c, "arena.givens").await),
        start.cells().to_vec()
    );
    (start, solution)
}

/// Waits until the page shows `player`'s board solved, with the solution
/// `octoku solve` gives for it (the one Curta accepted).
async fn seated_solved(c: &Client, player: &str) {
    until(
        c,
        &format!(
            "seat && seat.address === '{player}' && document.getElementById('board-status').textContent.includes('Solved: rank')"
        ),
    )
    .await;
    let (_, solution) = board_of(player);
    assert_solved(c, &solution).await;
}

async fn phase_says(c: &Client, words: &str) -> String {
    text_when(c, "phase", &format!("includes({words:?})")).await
}

/// The leaderboard's rows once it has `n`: each row's cells (an address
/// whole, as its short form's hover and copy give it).
async fn rows(c: &Client, n: usize) -> Vec<Vec<String>> {
    let rows = until(
        c,
        &format!(
            "document.querySelectorAll('#leaderboard tbody tr:not(:has(td[colspan]))').length === {n} && [...document.querySelectorAll('#leaderboard tbody tr')].map((tr) => [...tr.cells].map((td) => {{ const a = td.querySelector('[data-full]'); return a ? a.dataset.full : td.textContent; }}))"
        ),
    )
    .await;
    serde_json::from_value(rows).unwrap()
}

/// The whole Curta game with the wallet on the page at `url`; screenshots
/// are named `curta-<name>-...`.
async fn curta_game(c: &Client, wallet: &Wallet, node: &Node, url: &str, name: &str) {
    let first = DEV_ACCOUNTS[2];
    let second = DEV_ACCOUNTS[3];
    let late = DEV_ACCOUNTS[4];
    c.set_window_size(900, 1500).await.unwrap();
    c.goto(url).await.unwrap();
    until(c, "!document.getElementById('connect').hidden").await;
    let header = text(c, "chain").await;
    assert!(
        header.starts_with("a local dev chain (chain id 31337) · Curta 0x")
            && header.contains(" · puzzle #1"),
        "{header}"
    );
    assert_eq!(
        full_of(c, "#chain [data-full]").await,
        node.curta.to_checksum(None)
    );
    assert_eq!(text(c, "tab-arena").await, "Curta #1");

    // Connect: the account's board through the puzzle's generate, phase 0.
    click(c, "connect").await;
    let (_, solution) = seated(c, first).await;
    phase_says(c, "Phase 0: nobody has solved it yet").await;
    assert_eq!(
        full_of(c, "#wallet-status [data-full]").await,
        first,
        "checksummed"
    );

    // A wrong solution: refused by name, its problems listed, nothing sent.
    let (start, _) = board_of(first);
    let givens = start.cells();
    // Two empty cells of one row swapped: each column then repeats a digit.
    let mut wrong = solution;
    let (a, b) = (0..8)
        .find_map(|r| {
            let empty: Vec<usize> = (r * 8..r * 8 + 8).filter(|&i| givens[i] == 0).collect();
            (empty.len() >= 2).then(|| (empty[0], empty[1]))
        })
        .unwrap();
    wrong.swap(a, b);
    type_solution(c, &givens, &wrong).await;
    let before = node.nonce(first);
    click(c, "submit").await;
    let result = result_says(c, "IncorrectSolution: Curta would revert this solve").await;
    assert!(result.contains("nothing was sent"), "{result}");
    assert!(
        result.contains("repeats"),
        "the problems are listed: {result}"
    );
    assert_eq!(node.nonce(first), before, "nothing sent");
    shoot(c, &format!("curta-{name}-incorrect.png")).await;

    // The right one: pending, then solved in phase 0, rank 1.
    click(c, "clear").await;
    type_solution(c, &givens, &solution).await;
    click(c, "submit").await;
    let result = result_says(c, "Solved! Rank 1, phase 0").await;
    assert!(result.contains("gas used"), "{result}");
    assert!(!result.contains("paid"), "{result}");
    let row = &rows(c, 1).await[0];
    assert_eq!(row[..3], ["1", first, "0"], "rank, address, phase");
    // Solved: Submit off and saying so, no phase notice, the solution kept.
    assert_solved(c, &solution).await;

    // A second account reads its board in phase 1 (free), and the clock
    // moves into phase 2 before it submits: refused, the fee named, nothing
    // sent; Submit again pays it.
    switch_account(c, wallet, second).await;
    let (start, solution) = seated(c, second).await;
    phase_says(
        c,
        "Phase 1 (up to 2 days after the first solve): a solve is free",
    )
    .await;
    assert_eq!(text(c, "submit").await, "Submit");
    type_solution(c, &start.cells(), &solution).await;
    node.anvil.advance(INTO_PHASE_TWO).unwrap();
    let before = node.nonce(second);
    click(c, "submit").await;
    let result = result_says(c, "InsufficientFunds").await;
    assert!(
        result.contains("a solve costs 0.02 ether; nothing was sent"),
        "{result}"
    );
    assert_eq!(node.nonce(second), before, "nothing sent");
    phase_says(
        c,
        "Phase 2 (2 to 5 days after the first solve): a solve costs 0.02 ether",
    )
    .await;
    assert_eq!(text(c, "submit").await, "Submit and pay 0.02 ether");
    shoot(c, &format!("curta-{name}-fee.png")).await;
    let owner = node.balance(DEV_ACCOUNTS[0]);
    let author = node.balance(DEV_ACCOUNTS[1]);
    click(c, "submit").await;
    let result = result_says(c, "Solved! Rank 2, phase 2, paid 0.02 ether").await;
    assert!(result.contains("gas used"), "{result}");
    let half = curta::PHASE_TWO_FEE / 2;
    assert_eq!(node.balance(DEV_ACCOUNTS[0]), owner + half, "Curta's owner");
    assert_eq!(node.balance(DEV_ACCOUNTS[1]), author + half, "the author");
    let rows = rows(c, 2).await;
    assert_eq!(rows[0][..3], ["1", first, "0"]);
    assert_eq!(rows[1][..3], ["2", second, "2"]);
    // Paid and solved: no more "Submit and pay", no fee notice, the board kept.
    assert_solved(c, &solution).await;
    shoot(c, &format!("curta-{name}-solved.png")).await;
    // The first solver's board read anew: solved, its accepted solution shown.
    switch_account(c, wallet, first).await;
    seated_solved(c, first).await;

    // Phase 3: closed; the page says so and Submit stays off.
    node.anvil.advance(INTO_PHASE_THREE).unwrap();
    switch_account(c, wallet, late).await;
    seated(c, late).await;
    phase_says(c, "Phase 3").await;
    let status = text(c, "board-status").await;
    assert!(status.contains("Submissions are closed"), "{status}");
    assert_eq!(
        until(c, "String(document.getElementById('submit').disabled)").await,
        json!("true")
    );
}

/// The static site's Practice tab, with no server to draw puzzles: a 9×9
/// puzzle with one solution drawn in the page, a wrong digit counted as a
/// repeat, and the board exported in the header text form.
async fn practice_without_a_server(c: &Client) {
    click(c, "tab-practice").await;
    until(
        c,
        "document.getElementById('practice-status').textContent.includes('one solution')",
    )
    .await;
    let status = text(c, "practice-status").await;
    assert!(status.starts_with("A 9×9 puzzle with"), "{status}");
    // An empty cell and the digit of a given in its row: a repeat.
    let pick = until(
        c,
        "(() => { const g = practice.givens; for (let k = 0; k < 81; k++) { if (!g[k]) continue; const r = Math.floor(k / 9) * 9; for (let i = r; i < r + 9; i++) if (!g[i]) return [i, g[k]]; } return null; })()",
    )
    .await;
    let (i, given) = (
        pick[0].as_u64().unwrap() as usize,
        pick[1].as_u64().unwrap(),
    );
    page::cell(c, "practice-grid", i)
        .await
        .click()
        .await
        .unwrap();
    c.active_element()
        .await
        .unwrap()
        .send_keys(&given.to_string())
        .await
        .unwrap();
    click(c, "practice-check").await;
    until(
        c,
        "document.getElementById('practice-status').textContent.includes('repeat a symbol')",
    )
    .await;
    click(c, "export").await;
    let exported = until(
        c,
        "document.getElementById('text').value.startsWith('1 2 3 4 5 6 7 8 9\\n') && document.getElementById('text').value",
    )
    .await;
    assert_eq!(exported.as_str().unwrap().lines().count(), 10, "{exported}");
    shoot(c, "curta-site-practice.png").await;
}

#[test]
fn a_curta_game_through_serve_with_the_players_wallet_in_chromium() {
    let Some(node) = node() else {
        return;
    };
    let dir = temp_dir("curta-serve");
    let config = node.config(dir.path());
    on_serve(
        config,
        DEV_ACCOUNTS[2],
        &node.anvil.url(),
        async |c, wallet, url| curta_game(c, wallet, &node, url, "serve").await,
    );
}

#[test]
fn a_curta_game_on_the_static_site_with_the_players_wallet_in_chromium() {
    let Some(node) = node() else {
        return;
    };
    let dir = temp_dir("curta-site");
    let site = site::Site::open(&node.config(dir.path())).expect("the chain is read");
    let settings: Value = serde_json::from_str(&site.settings()).unwrap();
    assert_eq!(settings["game"], "curta");
    assert_eq!(settings["from_block"], node.added);
    let player = DEV_ACCOUNTS[2];
    on_static_site(
        &site,
        dir.path(),
        player,
        &node.anvil.url(),
        async |c, wallet, url| {
            curta_game(c, wallet, &node, url, "site").await;
            practice_without_a_server(c).await;
        },
    );
}

/// The server holds a key: the page (no wallet in this browser) submits
/// through it, in phase 0 and, paying the fee, in phase 2; a second solve is
/// refused by name. The server itself refuses a phase 2 solve without the
/// fee, with nothing sent.
#[test]
fn a_curta_game_through_the_servers_signer_in_chromium() {
    let Some(node) = node() else {
        return;
    };
    let dir = temp_dir("curta-signer");
    let signer = DEV_ACCOUNTS[5];
    let server = octoku_serve::start(Config {
        key: Some(PrivateKey::parse(DEV_KEYS[5]).unwrap()),
        ..node.config(dir.path())
    })
    .expect("server starts on anvil");
    in_browser(async |c| {
        c.set_window_size(900, 1500).await.unwrap();
        c.goto(&server.url()).await.unwrap();
        let (start, solution) = seated(c, signer).await;
        phase_says(c, "Phase 0").await;
        type_solution(c, &start.cells(), &solution).await;
        click(c, "submit").await;
        result_says(c, "Solved! Rank 1, phase 0").await;
        assert_solved(c, &solution).await;

        // Phase 2: dev account 6 (the server signs for anvil's dev accounts)
        // pays the fee from the page.
        node.anvil.advance(INTO_PHASE_TWO).unwrap();
        let other = DEV_ACCOUNTS[6];
        select(c, "player", other).await;
        let (start, solution) = seated(c, other).await;
        phase_says(c, "a solve costs 0.02 ether").await;
        type_solution(c, &start.cells(), &solution).await;
        click(c, "submit").await;
        result_says(c, "Solved! Rank 2, phase 2, paid 0.02 ether").await;
        assert_solved(c, &solution).await;
        assert_eq!(rows(c, 2).await[1][..3], ["2", other, "2"]);
        shoot(c, "curta-signer-solved.png").await;
    });

    // Without the fee the server sends nothing and names the refusal.
    let backend = Backend::open(&Config {
        key: Some(PrivateKey::parse(DEV_KEYS[7]).unwrap()),
        ..node.config(dir.path())
    })
    .unwrap();
    let player: Address = DEV_ACCOUNTS[7].parse().unwrap();
    let (_, solution) = board_of(DEV_ACCOUNTS[7]);
    let before = node.nonce(DEV_ACCOUNTS[7]);
    let refused = backend
        .submit(player, Board::from_cells(&solution), 0)
        .unwrap_err();
    match refused {
        SubmitError::Refused(refusal) => assert_eq!(
            refusal,
            Refusal::Fee {
                id: 1,
                fee: curta::PHASE_TWO_FEE
            }
        ),
        other => panic!("expected Curta's fee refusal, got {other}"),
    }
    assert_eq!(node.nonce(DEV_ACCOUNTS[7]), before, "nothing sent");
    server.stop().unwrap();
}

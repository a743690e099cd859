//! The page in a real browser: Debian's headless Chromium driven through
//! chromedriver (WebDriver, fantoccini), against the server on a free
//! loopback port with a fresh embedded chain. Screenshots are saved under
//! `target/octoku-serve/` for people to look at.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (`make
//! setup-browser` installs them). Set `OCTOKU_SKIP_BROWSER=1` to skip on a
//! machine without them; without it, a missing browser fails the test with
//! that hint. The test kit's [`Browser`] guard ends chromedriver and
//! Chromium when a test ends, a failed one included.

use fantoccini::{Client, Locator};
use octoku_core::{Address, Board, solve::octoku as solve};
use octoku_evm::{Machine, Puzzle};
use octoku_serve::{Config, Running, start};
use octoku_testkit::{Browser, TempDir, temp_dir};

mod page;
use page::{
    as_cells, assert_board_fits, assert_conflict_outlined, assert_solved, cell,
    clear_undo_redo_and_pencil, click, click_css, full_of, in_browser, select, server_url,
    set_value, shoot, text, text_when, type_address, type_solution, until,
};
use serde_json::json;

/// The server on a fresh embedded chain in a temp dir (kept alive by the
/// returned guard).
fn server(name: &str) -> (Running, TempDir) {
    let dir = temp_dir(name);
    let running = start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        // anvil's first dev account signs, as the page expects.
        key: Some(octoku_chain::PrivateKey::anvil_default()),
        ..Config::default()
    })
    .expect("server starts");
    (running, dir)
}

/// What a screen reader reads for cell `i` of `grid`.
async fn aria_label(c: &Client, grid: &str, i: usize) -> String {
    let cell = cell(c, grid, i).await;
    cell.attr("aria-label").await.unwrap().unwrap()
}

/// Runs `test` in a WebDriver session on the page of a fresh server, in a
/// `width`×`height` window; then closes the session and stops the server.
/// The guards end Chromium, chromedriver and the server if `test` panics.
fn on_the_page(name: &str, (width, height): (u32, u32), test: impl AsyncFnOnce(&Client)) {
    if Browser::skipped() {
        return;
    }
    let (server, _dir) = server(name);
    in_browser(async |c| {
        c.set_window_size(width, height).await.unwrap();
        c.goto(&server.url()).await.unwrap();
        test(c).await;
    });
    server.stop().unwrap();
}

#[test]
fn arena_type_check_submit_and_leaderboard_in_chromium() {
    on_the_page("arena", (900, 1400), async |c| {
        text_when(c, "board-status", "startsWith('Board of')").await;
        let start = until(c, "seat && seat.start")
            .await
            .as_str()
            .unwrap()
            .to_string();
        let address = until(c, "seat.address").await.as_str().unwrap().to_string();
        assert_eq!(
            address,
            octoku_testkit::DEV_ACCOUNTS[0],
            "the server signer plays first"
        );
        let start_board: Board = start.parse().unwrap();
        let givens = start_board.cells();
        let solution = solve::solve(start_board).unwrap().unwrap().cells();

        // Givens are marked and labelled for screen readers.
        let g = givens.iter().position(|&d| d != 0).unwrap();
        let given_cell = cell(c, "arena-grid", g).await;
        assert!(
            given_cell
                .attr("class")
                .await
                .unwrap()
                .unwrap()
                .contains("given")
        );
        let label = given_cell.attr("aria-label").await.unwrap().unwrap();
        assert_eq!(
            label,
            format!(
                "row {} column {}, given {}",
                g / 8 + 1,
                g % 8 + 1,
                givens[g]
            )
        );

        // A conflict: the first empty cell of the given's row gets the given's digit.
        let row = g / 8;
        let e = (row * 8..row * 8 + 8).find(|&i| givens[i] == 0).unwrap();
        cell(c, "arena-grid", e).await.click().await.unwrap();
        c.active_element()
            .await
            .unwrap()
            .send_keys(&givens[g].to_string())
            .await
            .unwrap();
        let conflicts = c
            .find_all(Locator::Css("#arena-grid .cell.conflict"))
            .await
            .unwrap();
        assert_eq!(
            conflicts.len(),
            2,
            "the typed digit and the given it repeats"
        );
        let label = aria_label(c, "arena-grid", e).await;
        assert!(label.ends_with(", repeated"), "{label}");
        shoot(c, "arena-conflict.png").await;

        // Check on the partial board: invalid, offending cells outlined.
        click(c, "check").await;
        let result = text_when(c, "result", "includes('Invalid')").await;
        assert!(
            result.contains("verify gas") && result.contains("repeats"),
            "{result}"
        );
        assert_conflict_outlined(c).await;
        shoot(c, "arena-invalid.png").await;

        // Backspace clears, Ctrl+Z brings the digit back, Ctrl+Y clears it
        // again, Shift+digit is a pencil mark read out to screen readers.
        clear_undo_redo_and_pencil(c, e, givens[g]).await;

        // The whole solution with the keyboard, then Check: valid.
        type_solution(
            c,
            "arena-grid",
            8,
            &givens,
            &solution,
            &["1", "2", "3", "4", "5", "6", "7", "8"],
        )
        .await;
        let typed = as_cells(&c.execute("return arena.values;", vec![]).await.unwrap());
        assert_eq!(typed, solution.to_vec());
        assert!(
            c.find_all(Locator::Css("#arena-grid .cell.conflict"))
                .await
                .unwrap()
                .is_empty()
        );
        click(c, "check").await;
        let result = text_when(c, "result", "startsWith('Valid')").await;
        assert!(result.contains("verify gas"), "{result}");

        // Submit on the embedded chain: rank 1, the transaction, the leaderboard.
        click(c, "submit").await;
        text_when(c, "result", "includes('Rank 1')").await;
        let tx = full_of(c, "#tx").await;
        assert!(tx.starts_with("0x") && tx.len() == 66, "{tx}");
        until(
            c,
            &format!("document.querySelector('#leaderboard tbody [data-full=\"{address}\"]')"),
        )
        .await;
        let rows = c
            .find_all(Locator::Css("#leaderboard tbody tr.me"))
            .await
            .unwrap();
        assert_eq!(rows.len(), 1);
        assert!(
            rows[0].text().await.unwrap().starts_with("1 "),
            "rank 1 first"
        );
        // Solved: Submit off and saying so, the solution kept on a locked board.
        assert_solved(c, &solution).await;
        // The docs' pictures (docs/page-1280.png, docs/page-390.png): the
        // solve on a desktop and on a phone.
        c.set_window_size(1280, 950).await.unwrap();
        shoot(c, "arena-solved-1280.png").await;
        c.set_window_size(390, 844).await.unwrap();
        assert_board_fits(c).await;
        shoot(c, "arena-solved-390.png").await;
        c.set_window_size(900, 1400).await.unwrap();

        // The board comes back solved: the page read anew shows the accepted
        // solution (from the Solved event), the rank, and Submit off.
        c.goto(&format!("{}?address={address}", server_url(c).await))
            .await
            .unwrap();
        text_when(c, "board-status", "includes('Solved: rank 1')").await;
        assert_solved(c, &solution).await;

        // A typed address is read-only; its board comes from the contract.
        let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
        select(c, "player", "other").await;
        set_value(c, "other", "").await;
        type_address(c, stranger).await;
        until(c, &format!("seat && seat.address === '{stranger}'")).await;
        assert!(text(c, "board-status").await.contains("Read-only"));
        let disabled = c
            .find(Locator::Id("submit"))
            .await
            .unwrap()
            .prop("disabled")
            .await
            .unwrap();
        assert_eq!(disabled.as_deref(), Some("true"));

        // 360 px wide: the board fits, nothing scrolls sideways.
        c.set_window_size(360, 1000).await.unwrap();
        c.find(Locator::Id("player"))
            .await
            .unwrap()
            .select_by_index(0)
            .await
            .unwrap();
        until(c, "seat && seat.address.startsWith('0xf39F')").await;
        assert_board_fits(c).await;
        shoot(c, "arena-360.png").await;
    });
}

#[test]
fn practice_9x9_keyboard_export_and_import_in_chromium() {
    on_the_page("practice", (900, 1300), async |c| {
        until(c, "info").await;
        click(c, "tab-practice").await;
        text_when(c, "practice-status", "includes('givens')").await;
        assert_eq!(until(c, "practice.n").await, json!(9));
        let givens = as_cells(&until(c, "practice.givens").await);
        let solution = as_cells(&until(c, "practiceSolution").await);
        assert_eq!(givens.len(), 81);
        type_solution(
            c,
            "practice-grid",
            9,
            &givens,
            &solution,
            &["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        )
        .await;
        text_when(c, "practice-status", "startsWith('Solved!')").await;
        shoot(c, "practice-9x9.png").await;

        // Export: the seed 003 text (symbols line, then rows of cells).
        click(c, "export").await;
        // The export answers asynchronously: read the text once the page
        // says it wrote it.
        text_when(c, "practice-status", "startsWith('Exported')").await;
        let exported = c
            .execute("return document.getElementById('text').value;", vec![])
            .await
            .unwrap();
        let lines: Vec<&str> = exported.as_str().unwrap().lines().collect();
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[0], "1 2 3 4 5 6 7 8 9");
        let first: Vec<String> = solution[..9].iter().map(|d| d.to_string()).collect();
        assert_eq!(lines[1], first.join(","));

        // Import the seed's own 4x4 example with custom symbols, then play a letter.
        let seed = "a b c d\n ,a, ,d\nd,b,a, \n ,c,d,b\nb, ,c, ";
        set_value(c, "text", seed).await;
        click(c, "import").await;
        let status = text_when(c, "practice-status", "startsWith('Imported')").await;
        assert_eq!(
            status,
            "Imported a 4×4 puzzle with 10 givens, one solution."
        );
        cell(c, "practice-grid", 0).await.click().await.unwrap();
        c.active_element()
            .await
            .unwrap()
            .send_keys("c")
            .await
            .unwrap();
        assert_eq!(until(c, "practice.values[0]").await, json!(3));
        assert_eq!(
            text(c, "practice-grid").await.split_whitespace().next(),
            Some("c")
        );
        // The mouse alone: click an empty cell, then a symbol on the pad; ↶ undoes it.
        let empty = as_cells(&until(c, "practice.values").await)
            .iter()
            .position(|&v| v == 0)
            .unwrap();
        cell(c, "practice-grid", empty).await.click().await.unwrap();
        click_css(c, "#practice-pad button[aria-label='Enter d']").await;
        assert_eq!(
            until(c, &format!("practice.values[{empty}]")).await,
            json!(4)
        );
        click_css(c, "#practice-pad button[aria-label='Undo']").await;
        assert_eq!(
            until(c, &format!("practice.values[{empty}] === 0")).await,
            json!(true)
        );
        // A malformed import says what is wrong in one line.
        set_value(c, "text", "a b c d\n1,2").await;
        click(c, "import").await;
        // The import answers asynchronously: wait for its message, not the
        // previous import's.
        let status = text_when(c, "practice-status", "startsWith('text: ')").await;
        assert!(
            status.starts_with("text: ") && !status.contains('\n'),
            "{status}"
        );
        assert_eq!(until(c, "practice.n").await, json!(4), "the board is kept");
        shoot(c, "practice-import.png").await;

        // The largest size, standard symbols: 256 cells, symbols up to G.
        c.find(Locator::Id("symbols"))
            .await
            .unwrap()
            .clear()
            .await
            .unwrap();
        select(c, "size", "16").await;
        click(c, "new-puzzle").await;
        until(c, "practice.n === 16 && document.getElementById('practice-status').textContent.includes('givens')").await;
        let cells = c
            .find_all(Locator::Css("#practice-grid .cell"))
            .await
            .unwrap();
        assert_eq!(cells.len(), 256);
        let pad = text(c, "practice-pad").await;
        assert!(pad.contains('G'), "{pad}");
        shoot(c, "practice-16x16.png").await;
    });
}

/// The demo address whose board the page shows while nobody is chosen.
const DEMO: &str = "0x1111111111111111111111111111111111111111";

/// The whole text a copy of `css`'s contents puts on the clipboard (the
/// page's copy handler, given a clipboard of its own).
async fn copy_of(c: &Client, css: &str) -> String {
    let copied = c
        .execute(
            "const r = document.createRange(); r.selectNodeContents(document.querySelector(arguments[0])); \
             const s = getSelection(); s.removeAllRanges(); s.addRange(r); \
             const data = new DataTransfer(); \
             document.getElementById('board-status').dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true })); \
             s.removeAllRanges(); return data.getData('text/plain');",
            vec![json!(css)],
        )
        .await
        .unwrap();
    copied.as_str().unwrap().to_string()
}

/// Where the elements of `ids` are: `[left, top, right, bottom]` each.
async fn boxes(c: &Client, ids: &[&str]) -> Vec<[f64; 4]> {
    let v = c
        .execute(
            "return arguments[0].map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });",
            vec![json!(ids)],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Asserts no flag (`--rpc-url`) and no short address shown breaks over
/// two lines.
async fn assert_nothing_breaks_inside(c: &Client) {
    let broken = c
        .execute(
            "return [...document.querySelectorAll('code.flag, .addr')].filter((e) => e.getClientRects().length > 1).map((e) => e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(broken, json!([]), "broken over two lines");
    let shown = c
        .execute(
            "return document.querySelectorAll('#board-status code.flag').length;",
            vec![],
        )
        .await
        .unwrap();
    assert!(shown.as_u64().unwrap() >= 2, "the flags are shown as code");
}

/// The README's `octoku serve` (the embedded chain, no signer) with an
/// explorer, in a browser without a wallet, at 1280 and 390 px wide: never
/// an empty board (a demo address's, read-only, with what to do to play),
/// the leaderboard loaded ("nobody yet"), the network by name, short
/// addresses whole on hover and on copy and linked to the explorer, flags
/// and addresses that never break, the board with the status and the
/// leaderboard beside it on a desktop and one column on a phone; deep
/// links (`?address=`), a bad one keeping the demo board.
#[test]
fn the_first_view_is_a_board_and_the_leaderboard_at_1280_and_390_px_in_chromium() {
    if Browser::skipped() {
        return;
    }
    let dir = temp_dir("first-view");
    let server = start(Config {
        port: 0,
        state: dir.path().join("chain.json"),
        explorer_url: Some("http://127.0.0.1:9/explorer/".into()),
        ..Config::default()
    })
    .expect("server starts");
    let demo = Machine::new()
        .unwrap()
        .generate(Puzzle::Fair, &DEMO.parse::<Address>().unwrap())
        .unwrap()
        .value;
    in_browser(async |c| {
        c.set_window_size(1280, 900).await.unwrap();
        c.goto(&server.url()).await.unwrap();
        let status = text_when(c, "board-status", "includes('a demo')").await;
        assert!(
            status.starts_with("This server holds no key and runs the embedded chain")
                && status.contains("--private-key")
                && status.contains("--rpc-url")
                && status.contains("0x1111…1111 (fair puzzle), read-only."),
            "{status}"
        );
        assert_eq!(
            as_cells(&until(c, "seat && seat.demo && arena.givens").await),
            demo.cells().to_vec(),
            "the demo address's board"
        );
        assert_eq!(
            until(c, "String(document.getElementById('submit').disabled)").await,
            json!("true")
        );
        text_when(c, "leaderboard", "includes('Nobody yet')").await;
        let network = text(c, "network").await;
        assert!(network.starts_with("the embedded chain"), "{network}");

        // Short addresses: whole on hover and on copy, linked to the explorer.
        assert_eq!(full_of(c, "#board-status [data-full]").await, DEMO);
        let title = c
            .find(Locator::Css("#board-status .addr"))
            .await
            .unwrap()
            .attr("title")
            .await
            .unwrap();
        assert_eq!(title.as_deref(), Some(DEMO));
        assert_eq!(copy_of(c, "#board-status .addr").await, DEMO);
        let line = copy_of(c, "#board-status").await;
        assert!(
            line.contains(&format!("board of {DEMO} (fair")) && !line.contains('…'),
            "{line}"
        );
        let arena = full_of(c, "#chain [data-full]").await;
        let href = c
            .find(Locator::Css("#chain a.addr"))
            .await
            .unwrap()
            .attr("href")
            .await
            .unwrap();
        assert_eq!(
            href,
            Some(format!("http://127.0.0.1:9/explorer/address/{arena}"))
        );

        // A desktop: the status and the leaderboard beside the board.
        let [grid, status, board] =
            boxes(c, &["arena-grid", "board-status", "leaderboard"]).await[..]
        else {
            unreachable!()
        };
        assert!(
            status[0] >= grid[2] && board[0] >= grid[2] && status[1] < grid[3],
            "beside the board: grid {grid:?}, status {status:?}, leaderboard {board:?}"
        );
        assert_nothing_breaks_inside(c).await;
        shoot(c, "page-1280.png").await;

        // A phone: one column, the status above the board, the leaderboard below.
        c.set_window_size(390, 844).await.unwrap();
        let [grid, status, board] =
            boxes(c, &["arena-grid", "board-status", "leaderboard"]).await[..]
        else {
            unreachable!()
        };
        assert!(
            status[3] <= grid[1] && board[1] >= grid[3],
            "one column: grid {grid:?}, status {status:?}, leaderboard {board:?}"
        );
        assert_board_fits(c).await;
        assert_nothing_breaks_inside(c).await;
        shoot(c, "page-390.png").await;

        // A deep link: that address's board, read-only.
        let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
        c.goto(&format!("{}?address={stranger}", server.url()))
            .await
            .unwrap();
        until(
            c,
            &format!("seat && seat.address === '{stranger}' && !seat.demo"),
        )
        .await;
        assert_eq!(
            until(c, "document.getElementById('other').value").await,
            json!(stranger)
        );
        let status = text_when(c, "board-status", "startsWith('Board of')").await;
        assert!(status.contains("Read-only"), "{status}");
        // A bad one: why, and the demo board rather than none.
        c.goto(&format!("{}?address=0x12", server.url()))
            .await
            .unwrap();
        until(c, "seat && seat.demo").await;
        let status = text_when(c, "board-status", "includes('0x12')").await;
        assert!(!status.is_empty() && !status.contains('\n'), "{status}");
        assert_eq!(
            until(c, "document.getElementById('board-status').className").await,
            json!("warn")
        );
    });
    server.stop().unwrap();
}

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
use octoku_core::{Board, solve::octoku as solve};
use octoku_serve::{Config, Running, start};
use octoku_testkit::{Browser, TempDir, temp_dir};

mod page;
use page::{
    as_cells, assert_board_fits, assert_conflict_outlined, cell, clear_undo_redo_and_pencil, click,
    click_css, in_browser, select, set_value, shoot, text, text_when, type_address, type_solution,
    until,
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
        let tx = text(c, "tx").await;
        assert!(tx.starts_with("0x") && tx.len() == 66, "{tx}");
        until(
            c,
            &format!(
                "document.querySelector('#leaderboard tbody').textContent.includes('{address}')"
            ),
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
        // The README's picture: the solved board at a phone-to-tablet width.
        c.set_window_size(560, 1080).await.unwrap();
        shoot(c, "arena-solved.png").await;

        // Submitting again: the arena's AlreadySolved, by name.
        click(c, "submit").await;
        text_when(c, "result", "includes('AlreadySolved')").await;

        // A typed address is read-only; its board comes from the contract.
        let stranger = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
        select(c, "player", "other").await;
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

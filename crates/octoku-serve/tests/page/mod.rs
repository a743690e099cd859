//! What the Chromium tests (browser.rs, wallet.rs) do to the page: wait for
//! it, read and click it, measure it, and save screenshots under
//! `target/octoku-serve/`. Each test file uses what it needs.
#![allow(dead_code)]

pub mod wallet;

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use fantoccini::{Client, ClientBuilder, Locator, elements::Element, key::Key};
use octoku_testkit::{Anvil, Browser};
use serde_json::{Value, json};

/// The longest wait for the page to reach a state: generous, since a 16×16
/// practice puzzle or a mined transaction takes seconds on a busy machine.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// Where screenshots go.
pub fn shots() -> PathBuf {
    let dir = octoku_testkit::workspace_root().join("target/octoku-serve");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// anvil for a test in the browser, or `None` when the browser tests are
/// skipped (`OCTOKU_SKIP_BROWSER=1`).
pub fn anvil_unless_skipped() -> Option<Anvil> {
    if Browser::skipped() {
        return None;
    }
    Some(Anvil::start().expect("anvil"))
}

/// A WebDriver session in `browser`'s Chromium.
pub async fn session(browser: &Browser) -> Client {
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(browser.capabilities())
        .connect(browser.webdriver_url())
        .await
        .expect("a Chromium session")
}

/// Waits until `script` (a JS expression) is truthy; returns its value. On
/// a time-out the panic quotes the page's status lines.
pub async fn until(c: &Client, script: &str) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let v = c
            .execute(&format!("return ({script});"), vec![])
            .await
            .unwrap();
        let truthy =
            !matches!(&v, Value::Null | Value::Bool(false)) && v != json!("") && v != json!(0);
        if truthy {
            return v;
        }
        if Instant::now() > deadline {
            let page = c
                .execute(
                    "return ['board-status', 'wallet-status', 'result'].map((id) => { const e = document.getElementById(id); return id + ': ' + (e ? e.textContent : '-'); }).join(' | ');",
                    vec![],
                )
                .await;
            panic!("timed out waiting for {script}; the page says {page:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The text of the element with id `id`.
pub async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Waits until the text of the element with id `id` passes `test` (a JS
/// string method call, e.g. `startsWith('Valid')`); returns that text.
pub async fn text_when(c: &Client, id: &str, test: &str) -> String {
    until(
        c,
        &format!("document.getElementById('{id}').textContent.{test}"),
    )
    .await;
    text(c, id).await
}

/// Picks the option `value` of the `<select>` with id `id`.
pub async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

/// Sets the value of the text field with id `id`, as pasting would.
pub async fn set_value(c: &Client, id: &str, value: &str) {
    c.execute(
        "document.getElementById(arguments[0]).value = arguments[1];",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

/// Types `address` into the "other address" field and presses Enter (the
/// page then reads that address's board).
pub async fn type_address(c: &Client, address: &str) {
    c.find(Locator::Id("other"))
        .await
        .unwrap()
        .send_keys(&format!("{address}{}", Key::Enter))
        .await
        .unwrap();
}

/// Clicks the element with id `id`.
pub async fn click(c: &Client, id: &str) {
    click_css(c, &format!("#{id}")).await;
}

/// Clicks the element `css` selects.
pub async fn click_css(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The keyboard on cell `e` of the arena board, which holds the typed
/// `digit`: Backspace clears it, Ctrl+Z brings it back, Ctrl+Y clears it
/// again, and Shift+3 is a pencil mark read out to screen readers.
pub async fn clear_undo_redo_and_pencil(c: &Client, e: usize, digit: u8) {
    cell(c, "arena-grid", e).await.click().await.unwrap();
    let active = c.active_element().await.unwrap();
    let press = async |keys: String| active.send_keys(&keys).await.unwrap();
    let chord = |modifier: Key, key: char| format!("{modifier}{key}{}", Key::Null);
    let cleared = format!("arena.values[{e}] === 0");
    press(Key::Backspace.to_string()).await;
    assert_eq!(until(c, &cleared).await, json!(true));
    press(chord(Key::Control, 'z')).await;
    assert_eq!(until(c, &format!("arena.values[{e}]")).await, json!(digit));
    press(chord(Key::Control, 'y')).await;
    assert_eq!(until(c, &cleared).await, json!(true));
    press(chord(Key::Shift, '3')).await;
    let label = until(
        c,
        &format!("(label => label.endsWith('pencil marks 3') && label)(document.querySelector('#arena-grid .cell[data-index=\"{e}\"]').getAttribute('aria-label'))"),
    )
    .await;
    assert!(
        label.as_str().unwrap().ends_with("empty, pencil marks 3"),
        "{label}"
    );
}

/// Asserts the arena board outlines the cells of a conflict (two at least).
pub async fn assert_conflict_outlined(c: &Client) {
    let bad = c
        .find_all(Locator::Css("#arena-grid .cell.bad"))
        .await
        .unwrap();
    assert!(bad.len() >= 2, "{} cells outlined", bad.len());
}

/// The whole address or hash behind the short one that `css` selects (its
/// `data-full`, which hover and copy give).
pub async fn full_of(c: &Client, css: &str) -> String {
    until(
        c,
        &format!("(e => e && e.dataset.full)(document.querySelector({css:?}))"),
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// The address of the page's server (`http://127.0.0.1:PORT/`).
pub async fn server_url(c: &Client) -> String {
    let origin = c.execute("return location.origin + '/';", vec![]).await;
    origin.unwrap().as_str().unwrap().to_string()
}

/// Asserts the board shown is solved: Submit off and saying "Solved", no
/// fee notice, `solution` on the board, which takes no more entries.
pub async fn assert_solved(c: &Client, solution: &[u8]) {
    until(
        c,
        "document.getElementById('submit').textContent === 'Solved' && document.getElementById('submit').disabled",
    )
    .await;
    assert_eq!(
        until(c, "String(document.getElementById('phase').hidden)").await,
        json!("true"),
        "no fee notice"
    );
    assert_eq!(as_cells(&until(c, "arena.values").await), solution.to_vec());
    let empty = solution.iter().position(|&d| d != 0).unwrap();
    let before = as_cells(&until(c, "arena.values").await);
    c.execute(
        "arena.select(arguments[0], true); arena.input(arguments[1]); arena.erase();",
        vec![json!(empty), json!(solution[empty] % 8 + 1)],
    )
    .await
    .unwrap();
    assert_eq!(
        as_cells(&until(c, "arena.values").await),
        before,
        "a solved board takes no entries"
    );
    let pad = until(
        c,
        "[...document.querySelectorAll('#arena-pad button')].every((b) => b.disabled)",
    )
    .await;
    assert_eq!(pad, json!(true), "the pad is off");
}

/// Saves a screenshot as `name` under [`shots`]; returns its path.
pub async fn shoot(c: &Client, name: &str) -> PathBuf {
    let png = c.screenshot().await.unwrap();
    let path = shots().join(name);
    std::fs::write(&path, png).unwrap();
    path
}

/// Cell `i` (reading order) of the grid with id `grid`.
pub async fn cell(c: &Client, grid: &str, i: usize) -> Element {
    c.find(Locator::Css(&format!("#{grid} .cell[data-index=\"{i}\"]")))
        .await
        .unwrap()
}

/// A JSON array of small numbers as cells.
pub fn as_cells(v: &Value) -> Vec<u8> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u8)
        .collect()
}

/// Asserts the arena board fits the window and nothing scrolls sideways.
pub async fn assert_board_fits(c: &Client) {
    let fits = c
        .execute(
            "const g = document.getElementById('arena-grid').getBoundingClientRect(); return [g.width, document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    let (width, scroll, inner) = (
        fits[0].as_f64().unwrap(),
        fits[1].as_f64().unwrap(),
        fits[2].as_f64().unwrap(),
    );
    assert!(
        width <= inner && scroll <= inner,
        "grid {width}, page {scroll}, window {inner}"
    );
}

/// Types `solution` into the grid with the keyboard only: from the top-left
/// cell, a digit (or symbol) then → on every empty cell, → over givens,
/// ↓ and Home at each row's end.
pub async fn type_solution(
    c: &Client,
    grid: &str,
    n: usize,
    givens: &[u8],
    solution: &[u8],
    symbols: &[&str],
) {
    let first = cell(c, grid, 0).await;
    first.click().await.unwrap();
    for r in 0..n {
        let mut keys = String::new();
        for col in 0..n {
            let i = r * n + col;
            if givens[i] == 0 {
                keys.push_str(symbols[solution[i] as usize - 1]);
            }
            if col + 1 < n {
                keys.push(Key::Right.into());
            }
        }
        if r + 1 < n {
            keys.push(Key::Down.into());
            keys.push(Key::Home.into());
        }
        c.active_element()
            .await
            .unwrap()
            .send_keys(&keys)
            .await
            .unwrap();
    }
}

/// Runs `test` in a WebDriver session of a fresh Chromium (no wallet), then
/// closes the session; the guards end Chromium and chromedriver if `test`
/// panics.
pub fn in_browser(test: impl AsyncFnOnce(&Client)) {
    let browser = Browser::start().expect("chromedriver starts");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = session(&browser).await;
        test(&c).await;
        c.close().await.unwrap();
    });
}

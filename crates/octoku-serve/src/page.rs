//! The page, compiled into the binary: no CDN, no fonts or scripts from the
//! network, no JavaScript build step. The same files make the served page
//! and the static site of `octoku site` (see [`crate::site`]); only the
//! `<head>` differs:
//!
//! - served: the server's token in a `<meta>` tag, so only a page this
//!   server served can submit with the server's signer; the
//!   Content-Security-Policy comes as a header and allows this origin only
//!   (an injected wallet talks to the page in JavaScript, not over the
//!   network, so it needs nothing more);
//! - static: the chain's settings in a `<meta>` tag, and the policy in a
//!   `<meta http-equiv>` tag whose `connect-src` is the RPC URL alone.
//!
//! Both carry the arena's, Curta's and the puzzle's selectors, taken from
//! the `sol!` bindings of `contracts/IArena.sol`, `contracts/IPuzzle.sol`
//! and Curta's interface (`octoku_chain::curta::ICurta`), so the page's
//! ABI encoding has one source.

use alloy_sol_types::{SolCall, SolError, SolEvent};
use axum::{
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use octoku_chain::{IArena, curta::ICurta, primitives::hex};
use octoku_evm::bindings::IPuzzle;
use serde_json::json;

/// The page's HTML; `{{HEAD}}` is replaced with the `<meta>` tags of the
/// served page or of the static site.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script: the boards, the input, the wallet flow.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The page's styles (light and dark, phone to desktop).
pub const APP_CSS: &str = include_str!("../assets/app.css");
/// ABI words, JSON-RPC and the EIP-1193 wallet.
pub const CHAIN_JS: &str = include_str!("../assets/chain.js");
/// Why an 8×8 solution is wrong, as the CLI says it (for the static site).
pub const RULES_JS: &str = include_str!("../assets/rules.js");
/// Where the page's data comes from: this server's API or JSON-RPC.
pub const SOURCE_JS: &str = include_str!("../assets/source.js");
/// Keccak-256 and EIP-55 checksums (for the static site's addresses).
pub const KECCAK_JS: &str = include_str!("../assets/keccak.js");
/// Practice puzzles drawn and read in the page (for the static site).
pub const PRACTICE_JS: &str = include_str!("../assets/practice.js");

/// The page's files besides `index.html`: name, contents, content type.
pub const ASSETS: [(&str, &str, &str); 7] = [
    ("app.css", APP_CSS, "text/css; charset=utf-8"),
    ("rules.js", RULES_JS, "text/javascript; charset=utf-8"),
    ("keccak.js", KECCAK_JS, "text/javascript; charset=utf-8"),
    ("practice.js", PRACTICE_JS, "text/javascript; charset=utf-8"),
    ("chain.js", CHAIN_JS, "text/javascript; charset=utf-8"),
    ("source.js", SOURCE_JS, "text/javascript; charset=utf-8"),
    ("app.js", APP_JS, "text/javascript; charset=utf-8"),
];

/// Only this origin's own files, no inline script, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The static site's policy: its own files, and JSON-RPC to `rpc_url` only.
/// (`frame-ancestors` has no effect in a `<meta>` tag, so it is left out.)
pub fn site_csp(rpc_url: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src {rpc_url}; base-uri 'none'; form-action 'none'"
    )
}

/// The selectors and the event topic the page encodes and decodes with.
pub fn abi_json() -> String {
    let sel = |s: [u8; 4]| hex::encode_prefixed(s);
    json!({
        "solve": sel(IArena::solveCall::SELECTOR),
        "boardOf": sel(IArena::boardOfCall::SELECTOR),
        "solvedAt": sel(IArena::solvedAtCall::SELECTOR),
        "generate": sel(IPuzzle::generateCall::SELECTOR),
        "verify": sel(IPuzzle::verifyCall::SELECTOR),
        "Solved": hex::encode_prefixed(IArena::Solved::SIGNATURE_HASH),
        "curtaSolve": sel(ICurta::solveCall::SELECTOR),
        "getPuzzle": sel(ICurta::getPuzzleCall::SELECTOR),
        "hasSolvedPuzzle": sel(ICurta::hasSolvedPuzzleCall::SELECTOR),
        "SolvePuzzle": hex::encode_prefixed(ICurta::SolvePuzzle::SIGNATURE_HASH),
        "errors": {
            sel(IArena::AlreadySolved::SELECTOR): "AlreadySolved",
            sel(IArena::WrongSolution::SELECTOR): "WrongSolution",
            sel(IArena::PuzzleNotAContract::SELECTOR): "PuzzleNotAContract",
            sel(ICurta::IncorrectSolution::SELECTOR): "IncorrectSolution",
            sel(ICurta::InsufficientFunds::SELECTOR): "InsufficientFunds",
            sel(ICurta::PuzzleAlreadySolved::SELECTOR): "PuzzleAlreadySolved",
            sel(ICurta::PuzzleDoesNotExist::SELECTOR): "PuzzleDoesNotExist",
            sel(ICurta::SubmissionClosed::SELECTOR): "SubmissionClosed",
        },
    })
    .to_string()
}

/// `text` for a double-quoted HTML attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn meta(name: &str, content: &str) -> String {
    format!("<meta name=\"{name}\" content=\"{}\">", attribute(content))
}

/// The served page's HTML: the token and the ABI.
pub fn index_html(token: &str) -> String {
    let head = [meta("octoku-token", token), meta("octoku-abi", &abi_json())].join("\n");
    INDEX_HTML.replace("{{HEAD}}", &head)
}

/// The static site's HTML: its policy, its chain settings (`site`, a JSON
/// object) and the ABI.
pub fn site_html(rpc_url: &str, site: &str) -> String {
    let head = [
        format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            attribute(&site_csp(rpc_url))
        ),
        meta("octoku-site", site),
        meta("octoku-abi", &abi_json()),
    ]
    .join("\n");
    INDEX_HTML.replace("{{HEAD}}", &head)
}

/// A page asset with its content type and the page's security headers.
pub fn asset(body: String, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

//! The player's wallet for the page's tests: an EIP-1193 provider installed
//! before the page's scripts run (DevTools' `Page.addScriptToEvaluateOnNewDocument`).
//! Like a wallet extension's in-page provider it makes no network request
//! itself: it queues each request, and the test, playing the extension's
//! side, answers it (forwarding JSON-RPC to anvil, where the dev accounts
//! are unlocked, or rejecting it with code 4001, or reporting another
//! chain), so the page runs under its own Content-Security-Policy
//! unchanged. Also a plain static file server for the static site.

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use fantoccini::{Client, wd};
use octoku_serve::{
    Config,
    site::{self, Site},
};
use octoku_testkit::{Browser, LoopbackServer};
use serde_json::{Value, json};

use super::text_when;

/// anvil's chain id.
pub const ANVIL_CHAIN_ID: u64 = 31337;

/// A plain static file server (GET only, files of one directory), stopped
/// and joined on drop.
pub struct StaticServer(LoopbackServer);

impl StaticServer {
    pub fn start(root: PathBuf) -> StaticServer {
        let server = LoopbackServer::start(move |stream, _| serve_file(stream, &root));
        StaticServer(server.expect("a loopback port"))
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.0.port())
    }
}

/// Answers one request: `GET /` is index.html, `GET /NAME` a file of `root`.
pub fn serve_file(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head);
    let target = head.split_whitespace().nth(1).unwrap_or("/");
    // A deep link's query (`/?address=0x…`) names no file.
    let path = target.split('?').next().unwrap_or("/");
    let name = match path.trim_start_matches('/') {
        "" => "index.html",
        n => n,
    };
    let safe = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let body = if safe {
        std::fs::read(root.join(name)).ok()
    } else {
        None
    };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    };
    let response = match body {
        Some(body) => {
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .into_bytes();
            r.extend(body);
            r
        }
        None => {
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
        }
    };
    let _ = stream.write_all(&response);
}

/// A DevTools command through chromedriver's `goog/cdp/execute`.
#[derive(Debug)]
pub struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.cmd, "params": self.params}).to_string();
        (http::Method::POST, Some(body))
    }
}

pub async fn cdp(c: &Client, cmd: &'static str, params: Value) {
    c.issue_cmd(Cdp { cmd, params })
        .await
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
}

/// The in-page half of the test's wallet: `window.ethereum` queues each
/// request for the test (`take`) and settles it with the test's answer.
pub const PROVIDER: &str = r#"
(() => {
  const queue = [], pending = new Map(), listeners = {};
  let next = 1;
  window.__wallet = {
    take() { return queue.splice(0); },
    answer(id, result, error) {
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      if (error) p.reject(Object.assign(new Error(error.message), { code: error.code, data: error.data }));
      else p.resolve(result);
    },
    emit(event, value) { (listeners[event] || []).forEach((f) => f(value)); },
  };
  window.ethereum = {
    request({ method, params }) {
      return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        queue.push({ id, method, params: params || [] });
      });
    },
    on(event, f) { (listeners[event] = listeners[event] || []).push(f); return this; },
    removeListener(event, f) { listeners[event] = (listeners[event] || []).filter((g) => g !== f); return this; },
  };
})();
"#;

/// What the test's wallet does: its account, its chain, and what it refuses.
#[derive(Debug, Clone)]
pub struct WalletState {
    /// The account it holds.
    pub account: String,
    /// Whether the page was given the account (`eth_requestAccounts`).
    pub connected: bool,
    /// The chain it is on.
    pub chain_id: u64,
    /// Rejects `eth_sendTransaction` with code 4001.
    pub reject_send: bool,
    /// Refuses `wallet_switchEthereumChain` with code 4001.
    pub refuse_switch: bool,
    /// Answers `eth_getTransactionReceipt` with null (pending).
    pub hold_receipts: bool,
    /// Every method the page asked for, in order.
    pub seen: Vec<String>,
}

impl WalletState {
    /// A wallet holding `account` on anvil's chain, not yet connected.
    pub fn new(account: &str) -> Wallet {
        Arc::new(Mutex::new(WalletState {
            account: account.to_string(),
            connected: false,
            chain_id: ANVIL_CHAIN_ID,
            reject_send: false,
            refuse_switch: false,
            hold_receipts: false,
            seen: Vec::new(),
        }))
    }
}

pub type Wallet = Arc<Mutex<WalletState>>;

pub fn rejected(message: &str) -> Value {
    json!({"code": 4001, "message": message})
}

/// The extension's half: answers one request of the page.
pub async fn answer(
    wallet: &Wallet,
    http: &reqwest::Client,
    node: &str,
    method: &str,
    params: &Value,
) -> (Value, Value) {
    let forward = {
        let mut w = wallet.lock().unwrap();
        w.seen.push(method.to_string());
        match method {
            "eth_requestAccounts" => {
                w.connected = true;
                return (json!([w.account.to_lowercase()]), Value::Null);
            }
            "eth_accounts" => {
                let accounts = if w.connected {
                    json!([w.account.to_lowercase()])
                } else {
                    json!([])
                };
                return (accounts, Value::Null);
            }
            "eth_chainId" => return (json!(format!("0x{:x}", w.chain_id)), Value::Null),
            "wallet_switchEthereumChain" => {
                if w.refuse_switch {
                    return (Value::Null, rejected("User rejected the request."));
                }
                let want = params[0]["chainId"].as_str().unwrap_or_default();
                w.chain_id = u64::from_str_radix(want.trim_start_matches("0x"), 16).unwrap();
                return (Value::Null, Value::Null);
            }
            "eth_sendTransaction" if w.reject_send => {
                return (Value::Null, rejected("User denied transaction signature."));
            }
            "eth_getTransactionReceipt" if w.hold_receipts => return (Value::Null, Value::Null),
            _ => json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}),
        }
    };
    let sent = http
        .post(node)
        .header("content-type", "application/json")
        .body(forward.to_string())
        .send()
        .await;
    let reply: Value = match sent {
        Ok(r) => serde_json::from_slice(&r.bytes().await.unwrap_or_default()).unwrap_or_default(),
        Err(e) => json!({"error": {"code": -32603, "message": e.to_string()}}),
    };
    match reply.get("error") {
        Some(error) => (Value::Null, error.clone()),
        None => (reply["result"].clone(), Value::Null),
    }
}

/// Answers the page's wallet requests until the task is aborted.
pub async fn pump(c: Client, wallet: Wallet, node: String) {
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    loop {
        let taken = c
            .execute(
                "return window.__wallet ? window.__wallet.take() : [];",
                vec![],
            )
            .await;
        for request in taken
            .ok()
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
        {
            let method = request["method"].as_str().unwrap_or_default();
            let (result, error) = answer(&wallet, &http, &node, method, &request["params"]).await;
            let switched = method == "wallet_switchEthereumChain" && error.is_null();
            let _ = c
                .execute(
                    "window.__wallet.answer(arguments[0], arguments[1], arguments[2]);",
                    vec![request["id"].clone(), result, error],
                )
                .await;
            // As a wallet does: a switch is announced to the page.
            if switched {
                let id = format!("0x{:x}", wallet.lock().unwrap().chain_id);
                let _ = c
                    .execute(
                        "window.__wallet.emit('chainChanged', arguments[0]);",
                        vec![json!(id)],
                    )
                    .await;
            }
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until the result line says `words`; returns the line.
pub async fn result_says(c: &Client, words: &str) -> String {
    text_when(c, "result", &format!("includes({words:?})")).await
}

/// Types the solution with the keyboard: from the top-left cell, a digit on
/// every empty cell, → between cells, ↓ and Home at each row's end.
pub async fn type_solution(c: &Client, givens: &[u8], solution: &[u8]) {
    let digits = ["1", "2", "3", "4", "5", "6", "7", "8"];
    super::type_solution(c, "arena-grid", 8, givens, solution, &digits).await;
}

pub fn set(wallet: &Wallet, change: impl FnOnce(&mut WalletState)) {
    change(&mut wallet.lock().unwrap());
}

/// The wallet changes to `account`, and announces it to the page.
pub async fn switch_account(c: &Client, wallet: &Wallet, account: &str) {
    set(wallet, |w| w.account = account.to_string());
    c.execute(
        "window.__wallet.emit('accountsChanged', [arguments[0]]);",
        vec![json!(account.to_lowercase())],
    )
    .await
    .unwrap();
}

/// Plays `game` (given the page's URL) on `octoku serve` started with
/// `config`, which holds no key (the wallet signs), in a browser whose
/// wallet holds `account` and answers from `node`; the server stops after.
pub fn on_serve(
    config: Config,
    account: &str,
    node: &str,
    game: impl AsyncFnOnce(&Client, &Wallet, &str),
) {
    let server = octoku_serve::start(config).expect("server starts on anvil");
    assert_eq!(server.backend().signer(), None, "no signer flags: no key");
    assert!(server.backend().players().is_empty());
    let url = server.url();
    with_wallet(account, node, async |c, wallet| game(c, wallet, &url).await);
    server.stop().unwrap();
}

/// Plays `game` as [`on_serve`] does, on the output of `octoku site` for
/// `site`, written into `dir/site` and served by a [`StaticServer`].
pub fn on_static_site(
    site: &Site,
    dir: &Path,
    account: &str,
    node: &str,
    game: impl AsyncFnOnce(&Client, &Wallet, &str),
) {
    let out = dir.join("site");
    site::write(&out, &site.files(), false).expect("the site is written");
    let server = StaticServer::start(out);
    let url = server.url();
    with_wallet(account, node, async |c, wallet| game(c, wallet, &url).await);
}

/// Runs `game` in a browser whose page has the test's wallet holding
/// `account`, its requests answered from `node` (a JSON-RPC URL); the
/// browser and the wallet's pump stop on every path.
pub fn with_wallet(account: &str, node: &str, game: impl AsyncFnOnce(&Client, &Wallet)) {
    let browser = Browser::start().expect("chromedriver");
    let wallet = WalletState::new(account);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // The workspace builds reqwest with rustls and no built-in crypto
    // provider (see octoku-evm's rpc.rs): the process default is ring.
    let _ = rustls::crypto::ring::default_provider().install_default();
    runtime.block_on(async {
        let c = super::session(&browser).await;
        cdp(
            &c,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": PROVIDER}),
        )
        .await;
        let pumping = tokio::spawn(pump(c.clone(), wallet.clone(), node.to_string()));
        game(&c, &wallet).await;
        pumping.abort();
        let _ = pumping.await;
        c.close().await.unwrap();
    });
}

//! anvil from `make setup` on a free loopback port.

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::Command,
    thread,
    time::{Duration, Instant},
};

use crate::{
    Result,
    process::{Process, quiet},
};

/// How long anvil may take to start on a loaded machine.
const START_LIMIT: Duration = Duration::from_secs(60);

/// A running anvil node (chain id 31337, the ten [`crate::DEV_ACCOUNTS`]
/// funded), killed with its process group when dropped.
pub struct Anvil {
    process: Process,
    port: u16,
}

impl Anvil {
    /// Starts anvil on 127.0.0.1 on a port the system picks (so two tests
    /// never race for one), and returns once it answers JSON-RPC.
    pub fn start() -> Result<Anvil> {
        Anvil::start_with(&[])
    }

    /// [`Anvil::start`] with anvil's own flags added (`--base-fee 1e14` ...).
    pub fn start_with(flags: &[&str]) -> Result<Anvil> {
        let mut command = Command::new(binary()?);
        command.args(["--host", "127.0.0.1", "--port", "0"]);
        command.args(flags);
        let mut process = Process::spawn("anvil", quiet(&mut command))?;
        // anvil prints "Listening on 127.0.0.1:PORT" once it is bound.
        let port = process.wait_for_line(START_LIMIT, |line| {
            line.strip_prefix("Listening on 127.0.0.1:")
                .and_then(|port| port.trim().parse::<u16>().ok())
        })?;
        let anvil = Anvil { process, port };
        anvil.wait_until_it_answers()?;
        Ok(anvil)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// One JSON-RPC request (anvil's own methods too: `evm_increaseTime`,
    /// `evm_mine`, `eth_getTransactionCount` ...): its `result`, or the
    /// node's error as an `Err`.
    pub fn request(&self, method: &str, params: serde_json::Value) -> Result<serde_json::Value> {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let answer = post(self.port, &body.to_string())?;
        let mut reply: serde_json::Value = serde_json::from_str(&answer).map_err(|e| {
            std::io::Error::other(format!("{method}: the node's answer is not JSON: {e}"))
        })?;
        match reply.get("error") {
            Some(error) => Err(std::io::Error::other(format!("{method}: {error}"))),
            None => Ok(reply["result"].take()),
        }
    }

    /// Moves the node's clock `seconds` ahead and mines a block at the new time.
    pub fn advance(&self, seconds: u64) -> Result<()> {
        self.request("evm_increaseTime", serde_json::json!([seconds]))?;
        self.request("evm_mine", serde_json::json!([]))?;
        Ok(())
    }

    /// The nonce of `account` (`0x` and 40 hex digits) at the latest block.
    pub fn nonce(&self, account: &str) -> Result<u64> {
        let count = self.request(
            "eth_getTransactionCount",
            serde_json::json!([account, "latest"]),
        )?;
        count
            .as_str()
            .and_then(|hex| u64::from_str_radix(hex.trim_start_matches("0x"), 16).ok())
            .ok_or_else(|| {
                std::io::Error::other(format!("eth_getTransactionCount answered {count}"))
            })
    }

    /// Kills the node now (for tests of what happens when it goes away).
    pub fn stop(&mut self) {
        self.process.kill();
    }

    /// Polls `eth_chainId` until the node answers with a result.
    fn wait_until_it_answers(&self) -> Result<()> {
        let deadline = Instant::now() + START_LIMIT;
        let mut wait = Duration::from_millis(5);
        loop {
            if chain_id_answers(self.port) {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(std::io::Error::other(format!(
                    "anvil on port {} did not answer JSON-RPC within {} s",
                    self.port,
                    START_LIMIT.as_secs()
                )));
            }
            thread::sleep(wait);
            wait = (wait * 2).min(Duration::from_millis(100));
        }
    }
}

/// One `eth_chainId` request: whether the answer carries a result.
fn chain_id_answers(port: u16) -> bool {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}"#;
    post(port, body).is_ok_and(|answer| answer.contains("\"result\""))
}

/// POSTs `body` to the node over HTTP/1.1 (written here to keep the kit
/// free of an HTTP client) and returns the answer's body.
fn post(port: u16, body: &str) -> Result<String> {
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.write_all(request.as_bytes())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    match answer.split_once("\r\n\r\n") {
        Some((_, body)) => Ok(body.to_string()),
        None => Err(std::io::Error::other("the node's answer has no body")),
    }
}

/// anvil from `make setup`: the native binary of the platform package when
/// there is one (one process to kill), else the npm wrapper.
fn binary() -> Result<PathBuf> {
    let modules = crate::workspace_root().join("node_modules");
    let native = std::fs::read_dir(modules.join("@foundry-rs"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("anvil-"))
        .map(|e| e.path().join("bin/anvil"))
        .find(|p| p.is_file());
    let bin = native.unwrap_or_else(|| modules.join(".bin/anvil"));
    if bin.exists() {
        Ok(bin)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "{} is missing: run `make setup` in the repository root",
                bin.display()
            ),
        ))
    }
}

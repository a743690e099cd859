//! Running the `octoku` binary from the CLI test files.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `octoku` with `args` and waits for it, with no `ETH_RPC_URL` or
/// `OCTOKU_STATE` from the caller's environment to redirect it.
pub fn octoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octoku"))
        .args(args)
        .env_remove("ETH_RPC_URL")
        .env_remove("OCTOKU_STATE")
        .output()
        .expect("octoku runs")
}

/// The one JSON document `output` printed on stdout.
pub fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

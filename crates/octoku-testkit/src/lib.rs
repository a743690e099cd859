//! What octoku's tests share, so that a test says only what it proves.
//!
//! - [`Anvil`]: anvil from `make setup` on a free loopback port.
//! - [`Browser`]: chromedriver and headless Chromium for the page's tests.
//! - [`octoku!`] / [`Octoku`]: runs the `octoku` binary and reads its [`Run`].
//! - [`temp_dir`]: a fresh directory, removed on drop.
//! - [`DEV_KEYS`] / [`DEV_ACCOUNTS`]: anvil's ten public dev accounts.
//!
//! The guarantee: nothing a test starts outlives it, whether it passes or
//! panics. Every process is started in its own process group and the whole
//! group is killed when its guard drops (Chromium included, which
//! chromedriver starts as its child).

mod anvil;
mod browser;
mod process;
mod run;

use std::path::PathBuf;

pub use anvil::Anvil;
pub use browser::Browser;
pub use octoku_evm::chain::{DEV_ACCOUNTS, DEV_KEYS};
pub use process::Process;
pub use run::{Octoku, Run};
pub use tempfile::TempDir;

/// What the kit's starters return: an I/O error whose message says what
/// did not start and why.
pub type Result<T> = std::io::Result<T>;

/// The repository root (where `node_modules/` and `target/` are).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh empty directory named after `name`, removed with its contents
/// when the returned guard drops.
pub fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("octoku-{name}-"))
        .tempdir()
        .expect("a temp directory")
}

/// Fails unless `value` is an object with exactly these keys (the fields a
/// command's JSON documents).
pub fn assert_keys(value: &serde_json::Value, keys: &[&str]) {
    let mut got: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = keys.to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "{value}");
}

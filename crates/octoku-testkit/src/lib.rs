//! What octoku's tests share, so that a test says only what it proves.
//!
//! - [`Anvil`]: anvil from `make setup` on a free loopback port.
//! - [`Browser`]: chromedriver and headless Chromium for the page's tests.
//! - [`curta`]: the real Curta protocol deployed on anvil.
//! - [`octoku!`] / [`Octoku`]: runs the `octoku` binary and reads its [`Run`].
//! - [`LoopbackServer`]: a small TCP server on a free loopback port.
//! - [`temp_dir`]: a fresh directory, removed on drop.
//! - [`DEV_KEYS`] / [`DEV_ACCOUNTS`]: anvil's ten public dev accounts.
//! - [`write_keystore`], [`page_token`], [`assert_keys`]: small shared steps.
//!
//! The guarantee: nothing a test starts outlives it, whether it passes or
//! panics. Every process is started in its own process group and the whole
//! group is killed when its guard drops (Chromium included, which
//! chromedriver starts as its child).

mod anvil;
mod browser;
pub mod curta;
pub mod curta_golf;
mod process;
mod run;
mod server;

use std::path::{Path, PathBuf};

pub use anvil::Anvil;
pub use browser::Browser;
pub use octoku_chain::{DEV_ACCOUNTS, DEV_KEYS};
pub use process::Process;
pub use run::{Octoku, Run};
pub use server::LoopbackServer;
pub use tempfile::TempDir;

/// What the kit's starters return: an I/O error whose message says what
/// did not start and why.
pub type Result<T> = std::io::Result<T>;

/// The repository root (where `node_modules/` and `target/` are).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A compiled protocol beside the checkout (`relative` to it, e.g.
/// `../shared/curta/curta.json`), or `None` (skipped, one line on stderr)
/// when it is missing; under `CI=true` a missing file fails the test with
/// that line. `tests` names who needs it, in that line.
pub(crate) fn shared_artifacts(relative: &str, tests: &str) -> Option<serde_json::Value> {
    let path = workspace_root().join(relative);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display())),
        ),
        Err(e) => {
            let line = format!(
                "{} cannot be read ({e}): {tests} need the compiled protocol beside the checkout",
                path.display()
            );
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{line}");
            eprintln!("skipped: {line}");
            None
        }
    }
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

/// Writes `key` as the v3 keystore (scrypt) `dir/name` encrypted with
/// `password`, as `cast wallet import` would, and returns its path. The
/// random salt is seeded, so the file is the same on every run.
pub fn write_keystore(dir: &Path, name: &str, key: &str, password: &str) -> PathBuf {
    use rand::SeedableRng;
    std::fs::create_dir_all(dir).expect("the keystore directory");
    let key = octoku_chain::PrivateKey::parse(key).expect("a private key");
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    alloy_signer_local::PrivateKeySigner::encrypt_keystore(
        dir,
        &mut rng,
        key.signer().expect("a signing key").to_bytes(),
        password,
        Some(name),
    )
    .expect("the keystore is written");
    dir.join(name)
}

/// The token the server's page carries (`<meta name="octoku-token"
/// content="...">`), found as the page's script finds it.
pub fn page_token(page: &str) -> Option<&str> {
    page.split("name=\"octoku-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
}

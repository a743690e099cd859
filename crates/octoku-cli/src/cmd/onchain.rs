//! What `deploy`, `board`, `play` and `submit` share: the chain flags (named
//! as in Foundry's cast), opening the chain, finding the arena, one-line errors.

use std::{
    convert::Infallible,
    fmt,
    path::{Path, PathBuf},
    str::FromStr,
};

use octoku_core::Address;
use octoku_evm::chain::{Chain, ChainError, PrivateKey, state::write_atomic};
use serde::Serialize;
use serde_json::Value;

use crate::{error::CliError, input};

/// Default state file of the embedded chain, relative to the current directory.
pub const DEFAULT_STATE: &str = ".octoku/chain.json";

/// A command-line secret: kept as typed, never shown by `Debug`.
#[derive(Clone)]
pub struct Secret(String);

impl FromStr for Secret {
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Infallible> {
        // Never validated here: clap would quote the value in its error.
        Ok(Secret(s.to_string()))
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Which chain to use and who signs.
#[derive(Debug, clap::Args)]
pub struct ChainArgs {
    /// JSON-RPC URL of the node (http://). Without it: the embedded chain.
    #[arg(long, env = "ETH_RPC_URL", value_name = "URL")]
    pub rpc_url: Option<String>,
    /// Private key to sign with (32 bytes of hex). Required with --rpc-url to
    /// send; on the embedded chain it defaults to anvil's first dev account.
    #[arg(long, env = "PRIVATE_KEY", value_name = "KEY", hide_env_values = true)]
    pub private_key: Option<Secret>,
    /// State file of the embedded chain (used without --rpc-url).
    #[arg(long, value_name = "PATH", default_value = DEFAULT_STATE)]
    pub state: PathBuf,
}

/// Why a key is needed, for the message when it is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUse {
    /// The command sends transactions: a key is required on a node.
    Send,
    /// The command only reads: any key will do.
    Read,
}

/// An open chain and the words that say which it is.
pub struct Opened {
    /// The chain.
    pub chain: Chain,
    /// `embedded (PATH)` or `URL (chain id N)`.
    pub label: String,
    /// Whether the sender was given (--private-key) or is the default.
    pub explicit_key: bool,
}

impl ChainArgs {
    /// The key given, parsed; a malformed key is an input error.
    pub fn key(&self) -> Result<Option<PrivateKey>, CliError> {
        self.private_key
            .as_ref()
            .map(|s| PrivateKey::parse(&s.0).map_err(chain_error))
            .transpose()
    }

    /// Opens the chain. `create`: the embedded state file may be created.
    pub fn open(&self, key_use: KeyUse, create: bool) -> Result<Opened, CliError> {
        let key = self.key()?;
        let explicit_key = key.is_some();
        let chain = match &self.rpc_url {
            Some(url) => {
                let key = match (key, key_use) {
                    (Some(k), _) => k,
                    (None, KeyUse::Read) => PrivateKey::anvil_default(),
                    (None, KeyUse::Send) => {
                        return Err(CliError::Input(
                            "--private-key (or PRIVATE_KEY) is required to send transactions with --rpc-url".into(),
                        ));
                    }
                };
                Chain::rpc(url, &key).map_err(chain_error)?
            }
            None => {
                let key = key.unwrap_or_else(PrivateKey::anvil_default);
                Chain::embedded(&self.state, &key, create).map_err(chain_error)?
            }
        };
        let mut chain = chain;
        let label = chain.describe().map_err(chain_error)?;
        Ok(Opened {
            chain,
            label,
            explicit_key,
        })
    }
}

/// A chain error as a CLI error: a malformed key is bad input (exit 2), a
/// revert is the contract saying no (exit 1), the rest are chain failures (exit 4).
pub fn chain_error(e: ChainError) -> CliError {
    match e {
        ChainError::Key(m) => CliError::Input(m),
        ChainError::Reverted(_) => CliError::Rejected(e.to_string()),
        other => CliError::Chain(other.to_string()),
    }
}

/// `deployments/<chain-id>.json`, relative to the current directory.
pub fn deployments_path(chain_id: u64) -> PathBuf {
    Path::new("deployments").join(format!("{chain_id}.json"))
}

/// Writes the deployment record atomically (temporary file, then rename).
pub fn write_deployment(path: &Path, record: &impl Serialize) -> Result<(), CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Chain(format!("cannot create {}: {e}", dir.display())))?;
    }
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| CliError::Chain(format!("cannot encode the deployment record: {e}")))?
        + "\n";
    write_atomic(path, text.as_bytes())
        .map_err(|e| CliError::Chain(format!("cannot write {}: {e}", path.display())))
}

/// What `board`, `play` and `submit` share: the arena, the chain, JSON output.
#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The arena contract (default: the one `octoku deploy` recorded).
    #[arg(long, value_name = "ADDRESS")]
    pub arena: Option<String>,
    #[command(flatten)]
    pub chain: ChainArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The arena to use, checked to have code: `--arena`, else the one recorded
/// by `octoku deploy` (in the embedded state, or in
/// `deployments/<chain-id>.json` for a node).
pub fn arena_address(opened: &mut Opened, arg: Option<&str>) -> Result<Address, CliError> {
    let arena = recorded_arena(opened, arg)?;
    opened.chain.require_code(arena).map_err(chain_error)?;
    Ok(arena)
}

fn recorded_arena(opened: &mut Opened, arg: Option<&str>) -> Result<Address, CliError> {
    if let Some(a) = arg {
        return input::address(a);
    }
    match &mut opened.chain {
        Chain::Embedded(c) => c.deployment().map(|d| d.arena).ok_or_else(|| {
            CliError::Input(format!(
                "no --arena given and no deployment recorded in {}: run `octoku deploy` or pass --arena",
                c.path().display()
            ))
        }),
        chain @ Chain::Rpc(_) => {
            let path = deployments_path(chain.chain_id().map_err(chain_error)?);
            let text = std::fs::read_to_string(&path).map_err(|_| {
                CliError::Input(format!("no --arena given and no {} here: pass --arena ADDRESS", path.display()))
            })?;
            let record: Value = serde_json::from_str(&text)
                .map_err(|e| CliError::Input(format!("{} is not valid JSON: {e}", path.display())))?;
            let arena = record["arena"]
                .as_str()
                .ok_or_else(|| CliError::Input(format!("{} has no \"arena\" address", path.display())))?;
            input::address(arena)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_show_in_debug() {
        let args = ChainArgs {
            rpc_url: None,
            private_key: Some("0xdeadbeef".parse().unwrap()),
            state: DEFAULT_STATE.into(),
        };
        let shown = format!("{args:?}");
        assert!(
            !shown.contains("deadbeef") && shown.contains("redacted"),
            "{shown}"
        );
    }
}

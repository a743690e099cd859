//! The embedded chain's state file: accounts, block height, deployments and
//! a short transaction log, as JSON. Written to a temporary file then renamed
//! over the old one, so a crash never leaves a partial file.

use std::{
    collections::BTreeMap,
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use alloy_primitives::{Address, B256, Bytes, U256};
use serde::{Deserialize, Serialize};

use super::ChainError;
use crate::Puzzle;

/// Format version written to the file; files of another version are refused.
pub const FORMAT: u32 = 1;

/// One account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountState {
    /// Balance in wei.
    pub balance: U256,
    /// Nonce.
    pub nonce: u64,
    /// Runtime code (empty for an externally owned account).
    #[serde(default, skip_serializing_if = "no_code")]
    pub code: Bytes,
    /// Non-zero storage slots.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub storage: BTreeMap<U256, U256>,
}

fn no_code(code: &Bytes) -> bool {
    code.is_empty()
}

/// A deployment made by `octoku deploy` on this chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deployment {
    /// The puzzle implementation (`reference`, `golf`, `fair` in the file).
    pub puzzle_kind: Puzzle,
    /// Puzzle contract.
    pub puzzle: Address,
    /// Arena contract.
    pub arena: Address,
    /// Block of the puzzle deployment.
    pub puzzle_block: u64,
    /// Block of the arena deployment.
    pub arena_block: u64,
}

/// A mined transaction, kept for inspection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxRecord {
    /// Synthetic transaction hash.
    pub hash: B256,
    /// Block it was mined in.
    pub block: u64,
    /// Sender.
    pub from: Address,
    /// Target (none for a creation).
    pub to: Option<Address>,
    /// Created contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<Address>,
    /// Gas used.
    pub gas_used: u64,
    /// Success.
    pub status: bool,
}

/// The whole embedded chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainState {
    /// [`FORMAT`].
    pub format: u32,
    /// Chain id (31337).
    pub chain_id: u64,
    /// Number of the last mined block (0: genesis only).
    pub block: u64,
    /// Timestamp of the genesis block; block `n` is 12 s per block later.
    pub genesis_timestamp: u64,
    /// Every account with a balance, nonce, code or storage.
    pub accounts: BTreeMap<Address, AccountState>,
    /// The latest `octoku deploy` on this chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment: Option<Deployment>,
    /// Mined transactions, oldest first.
    #[serde(default)]
    pub transactions: Vec<TxRecord>,
}

impl ChainState {
    /// Genesis: anvil's ten dev accounts with 10,000 ether each.
    pub fn genesis(chain_id: u64) -> ChainState {
        let ether = U256::from(10u64).pow(U256::from(18u64));
        let accounts = super::DEV_ACCOUNTS
            .iter()
            .filter_map(|a| a.parse::<Address>().ok())
            .map(|a| {
                (
                    a,
                    AccountState {
                        balance: ether * U256::from(10_000u64),
                        ..Default::default()
                    },
                )
            })
            .collect();
        let genesis_timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1_700_000_000);
        ChainState {
            format: FORMAT,
            chain_id,
            block: 0,
            genesis_timestamp,
            accounts,
            deployment: None,
            transactions: Vec::new(),
        }
    }

    /// Reads the file at `path`.
    pub fn load(path: &Path) -> Result<ChainState, ChainError> {
        let text = fs::read_to_string(path).map_err(|e| {
            ChainError::State(format!(
                "cannot read the embedded chain {}: {e}",
                path.display()
            ))
        })?;
        let state: ChainState = serde_json::from_str(&text).map_err(|e| {
            ChainError::State(format!(
                "the embedded chain {} is not a valid state file: {e}",
                path.display()
            ))
        })?;
        if state.format != FORMAT {
            return Err(ChainError::State(format!(
                "the embedded chain {} has format {}, this octoku reads format {FORMAT}",
                path.display(),
                state.format
            )));
        }
        Ok(state)
    }

    /// Writes the state to `path` atomically (temporary file in the same
    /// directory, flushed, then renamed over `path`).
    pub fn save(&self, path: &Path) -> Result<(), ChainError> {
        let fail = |what: &str, e: std::io::Error| {
            ChainError::State(format!(
                "cannot {what} the embedded chain {}: {e}",
                path.display()
            ))
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| fail("create the directory of", e))?;
        }
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| ChainError::State(format!("cannot encode the embedded chain: {e}")))?;
        write_atomic(path, text.as_bytes()).map_err(|e| fail("write", e))
    }
}

/// Writes `bytes` to `path` through a temporary sibling file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_sibling(path);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "state".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_through_the_file() {
        let dir = std::env::temp_dir().join(format!("octoku-state-{}", std::process::id()));
        let path = dir.join("nested/chain.json");
        let mut state = ChainState::genesis(31337);
        let a = Address::repeat_byte(7);
        state.accounts.insert(
            a,
            AccountState {
                balance: U256::from(5),
                nonce: 2,
                code: Bytes::from_static(&[0x60, 0x00]),
                storage: [(U256::from(1), U256::MAX)].into_iter().collect(),
            },
        );
        state.save(&path).unwrap();
        assert_eq!(ChainState::load(&path).unwrap(), state);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A state file as the previous release wrote it (puzzle kind as its
    /// label) still loads, with the kind read as the enum.
    #[test]
    fn state_files_of_the_previous_release_load() {
        let path = std::env::temp_dir().join(format!("octoku-old-{}.json", std::process::id()));
        let old = r#"{
  "format": 1,
  "chain_id": 31337,
  "block": 2,
  "genesis_timestamp": 1700000000,
  "accounts": {},
  "deployment": {
    "puzzle_kind": "golf",
    "puzzle": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    "arena": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    "puzzle_block": 1,
    "arena_block": 2
  },
  "transactions": []
}"#;
        fs::write(&path, old).unwrap();
        let state = ChainState::load(&path).unwrap();
        fs::remove_file(&path).unwrap();
        let d = state.deployment.unwrap();
        assert_eq!(d.puzzle_kind, Puzzle::Golf);
        assert_eq!(d.arena_block, 2);
        assert_eq!(
            d.arena.to_string(),
            "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
        );
    }

    #[test]
    fn garbage_is_a_state_error() {
        let path = std::env::temp_dir().join(format!("octoku-garbage-{}.json", std::process::id()));
        fs::write(&path, "{not json").unwrap();
        let e = ChainState::load(&path).unwrap_err();
        assert!(matches!(e, ChainError::State(_)), "{e}");
        fs::remove_file(&path).unwrap();
    }
}

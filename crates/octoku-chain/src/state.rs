//! The embedded chain's state file: accounts, block height, deployments and
//! the transaction log, as JSON. Written to a temporary file then renamed
//! over the old one, so a crash never leaves a partial file; read, changed
//! and written under an exclusive lock ([`FileLock`]), so commands run at the
//! same time take turns instead of overwriting each other's transactions.

use std::{
    collections::BTreeMap,
    fs,
    io::Write,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use alloy_primitives::{Address, B256, Bytes, Log, U256};
use serde::{Deserialize, Serialize};

use super::ChainError;
pub use super::deployments::{Deployment, MinedTx};
use crate::cause::{FileError, FileKind};

/// Format version written to the file. Format 1 (one `deployment`, no logs)
/// is read and upgraded; any other is refused.
pub const FORMAT: u32 = 2;

/// Longest wait for another octoku process to release a lock.
const LOCK_WAIT: Duration = Duration::from_secs(120);

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

/// A deployment as format 1 recorded it (blocks only; the rest is found in
/// the transaction log).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
struct LegacyDeployment {
    puzzle_kind: octoku_evm::Puzzle,
    puzzle: Address,
    arena: Address,
    puzzle_block: u64,
    arena_block: u64,
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
    /// Logs it emitted (read by the leaderboard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<Log>,
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
    /// Every `octoku deploy` on this chain, oldest first; the last is the default.
    #[serde(default)]
    pub deployments: Vec<Deployment>,
    /// Format 1's single deployment, moved into `deployments` on load.
    #[serde(default, skip_serializing)]
    deployment: Option<LegacyDeployment>,
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
            deployments: Vec::new(),
            deployment: None,
            transactions: Vec::new(),
        }
    }

    /// Reads the file at `path`.
    pub fn load(path: &Path) -> Result<ChainState, ChainError> {
        let text = octoku_evm::limits::read_regular_file(path, octoku_evm::limits::STATE_FILE)
            .map_err(|e| state_read_error(path, e))?;
        let mut state: ChainState =
            serde_json::from_str(&text).map_err(|source| FileError::Json {
                file: FileKind::State,
                path: path.to_path_buf(),
                source,
            })?;
        if state.format != FORMAT && state.format != 1 {
            return Err(FileError::Format {
                path: path.to_path_buf(),
                format: state.format,
            }
            .into());
        }
        state.format = FORMAT;
        if let Some(d) = state.deployment.take() {
            let upgraded = state.upgrade(&d).ok_or_else(|| FileError::Impossible {
                path: path.to_path_buf(),
                source: Impossible::LegacyDeployment {
                    puzzle_block: d.puzzle_block,
                    arena_block: d.arena_block,
                    puzzle: d.puzzle,
                    arena: d.arena,
                },
            })?;
            state.deployments.insert(0, upgraded);
        }
        state.check().map_err(|source| FileError::Impossible {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(state)
    }

    /// Format 1's deployment with its transactions looked up in the log.
    fn upgrade(&self, d: &LegacyDeployment) -> Option<Deployment> {
        let creation = |block: u64, address: Address| {
            self.transactions
                .iter()
                .find(|t| t.block == block && t.created == Some(address))
                .map(|t| MinedTx {
                    hash: t.hash,
                    block,
                    gas: t.gas_used,
                    fee: 0,
                })
        };
        Some(Deployment {
            puzzle: d.puzzle_kind.into(),
            puzzle_address: d.puzzle,
            arena: d.arena,
            deployer: self
                .transactions
                .iter()
                .find(|t| t.created == Some(d.arena))?
                .from,
            puzzle_tx: creation(d.puzzle_block, d.puzzle)?,
            arena_tx: creation(d.arena_block, d.arena)?,
        })
    }

    /// Checks that the state could have been produced by this chain: one
    /// block per transaction, numbered upwards, none beyond `block`;
    /// deployments in mined blocks at addresses holding code. The error
    /// names the field.
    pub fn check(&self) -> Result<(), Impossible> {
        if self.chain_id == 0 {
            return Err(Impossible::ChainIdZero);
        }
        // The next block's number and timestamp must not wrap.
        if self.block >= MAX_BLOCK {
            return Err(Impossible::BlockTooHigh { block: self.block });
        }
        if self.genesis_timestamp > MAX_GENESIS_TIMESTAMP {
            return Err(Impossible::TimestampTooHigh {
                timestamp: self.genesis_timestamp,
            });
        }
        let mut previous = 0;
        for (i, tx) in self.transactions.iter().enumerate() {
            if tx.block <= previous {
                return Err(Impossible::BlockOrder {
                    i,
                    block: tx.block,
                    previous,
                });
            }
            previous = tx.block;
        }
        if self.block < previous {
            return Err(Impossible::BlockBehind {
                block: self.block,
                hash: self.transactions.last().map(|t| t.hash).unwrap_or_default(),
                previous,
            });
        }
        for (i, d) in self.deployments.iter().enumerate() {
            for (tx_field, block, field, address) in [
                (
                    "puzzle_tx",
                    d.puzzle_tx.block,
                    "puzzle_address",
                    d.puzzle_address,
                ),
                ("arena_tx", d.arena_tx.block, "arena", d.arena),
            ] {
                if block == 0 || block > self.block {
                    return Err(Impossible::DeploymentBlock {
                        i,
                        tx_field,
                        block,
                        mined: self.block,
                    });
                }
                if self
                    .accounts
                    .get(&address)
                    .is_none_or(|a| a.code.is_empty())
                {
                    return Err(Impossible::NoCode { i, field, address });
                }
            }
        }
        Ok(())
    }

    /// Writes the state to `path` atomically (temporary file in the same
    /// directory, flushed, then renamed over `path`).
    pub fn save(&self, path: &Path) -> Result<(), ChainError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(FileError::io(
                "create the directory of the embedded chain",
                path,
            ))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|source| FileError::Encode {
            file: FileKind::State,
            path: path.to_path_buf(),
            source,
        })?;
        write_atomic(path, text.as_bytes())
            .map_err(FileError::io("write the embedded chain", path))?;
        Ok(())
    }
}

/// A state file that cannot be read: missing, not a regular file, too
/// large; the read's error kept as the cause.
pub fn state_read_error(path: &Path, e: octoku_evm::limits::ReadError) -> ChainError {
    ChainError::State(FileError::Read {
        file: FileKind::State,
        doing: "read",
        path: path.to_path_buf(),
        source: e,
    })
}

/// An exclusive advisory lock on `<path>.lock`, released when dropped. The
/// lock is on a sibling file because `path` itself is replaced by renames.
#[derive(Debug)]
pub struct FileLock {
    _file: fs::File,
}

impl FileLock {
    /// Takes the lock of `path`, waiting (up to two minutes) while another
    /// process holds it. The directory of `path` must exist.
    pub fn acquire(path: &Path) -> Result<FileLock, ChainError> {
        let lock_path = lock_path(path);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(FileError::io("open the lock", &lock_path))?;
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(FileLock { _file: file }),
                Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(FileError::Locked {
                        path: path.to_path_buf(),
                        waited: LOCK_WAIT,
                    }
                    .into());
                }
                Err(fs::TryLockError::Error(e)) => {
                    return Err(FileError::io("lock", &lock_path)(e).into());
                }
            }
        }
    }
}

/// `<dir>/<name>.lock` for `<dir>/<name>`.
pub fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "state".into());
    path.with_file_name(format!("{name}.lock"))
}

/// Writes `bytes` to `path` through a temporary sibling file and a rename.
/// The caller holds `path`'s [`FileLock`], so any other temporary sibling
/// of `path` was left by a writer that died (killed between create and
/// rename): those are removed first.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_sibling(path);
    remove_stale_temps(path, &tmp);
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

/// Removes `.<name>.<pid>.tmp` siblings of `path` other than `keep`.
fn remove_stale_temps(path: &Path, keep: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let pid = file_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"));
        let stale = pid.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if stale && entry.path() != keep {
            tracing::info!(file = %entry.path().display(), "removing a temporary file left by an interrupted write");
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "state".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The embedded chain's last block: 2^40 (a 12 s chain would take 400,000
/// years to reach it), far enough below 2^64 that no block number or
/// timestamp (12 s a block after genesis) can wrap.
pub const MAX_BLOCK: u64 = 1 << 40;

/// The latest genesis time a state file may name: 2^62 seconds, so that
/// genesis plus 12 s times [`MAX_BLOCK`] stays below 2^64.
pub const MAX_GENESIS_TIMESTAMP: u64 = 1 << 62;

/// Why a state file could not have been produced by the embedded chain,
/// naming the field (see [`ChainState::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Impossible {
    /// Format 1's deployment names blocks that do not create its contracts.
    #[error(
        "field \"deployment\" names blocks {puzzle_block} and {arena_block} that hold no creation of {puzzle} and {arena}"
    )]
    LegacyDeployment {
        /// The puzzle's block.
        puzzle_block: u64,
        /// The arena's block.
        arena_block: u64,
        /// The puzzle.
        puzzle: Address,
        /// The arena.
        arena: Address,
    },
    /// No chain has id 0.
    #[error("field \"chain_id\" is 0")]
    ChainIdZero,
    /// A height the next block's number or timestamp would wrap past.
    #[error("field \"block\" is {block}, at or above the embedded chain's last block {MAX_BLOCK}")]
    BlockTooHigh {
        /// The height found.
        block: u64,
    },
    /// A genesis time the blocks' timestamps would wrap past.
    #[error(
        "field \"genesis_timestamp\" is {timestamp}, above the embedded chain's limit {MAX_GENESIS_TIMESTAMP}"
    )]
    TimestampTooHigh {
        /// The timestamp found.
        timestamp: u64,
    },
    /// A transaction in a block not above the previous one's.
    #[error(
        "field \"transactions[{i}].block\" is {block} after block {previous}: each transaction has its own block, numbered upwards from 1"
    )]
    BlockOrder {
        /// The transaction's position.
        i: usize,
        /// Its block.
        block: u64,
        /// The previous transaction's block.
        previous: u64,
    },
    /// The chain's height below its last transaction's block.
    #[error("field \"block\" is {block}, but transaction {hash} was mined in block {previous}")]
    BlockBehind {
        /// The chain's height.
        block: u64,
        /// The last transaction.
        hash: B256,
        /// Its block.
        previous: u64,
    },
    /// A deployment's transaction outside the mined blocks.
    #[error(
        "field \"deployments[{i}].{tx_field}.block\" is {block}, outside the mined blocks 1..={mined}"
    )]
    DeploymentBlock {
        /// The deployment's position.
        i: usize,
        /// `puzzle_tx` or `arena_tx`.
        tx_field: &'static str,
        /// The block found.
        block: u64,
        /// The chain's height.
        mined: u64,
    },
    /// A deployment's address without code.
    #[error("field \"deployments[{i}].{field}\" is {address}, which holds no code")]
    NoCode {
        /// The deployment's position.
        i: usize,
        /// `puzzle_address` or `arena`.
        field: &'static str,
        /// The address.
        address: Address,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use octoku_evm::Puzzle;

    /// Loading the file at `path` fails with a message containing `expected`.
    fn assert_load_refused(path: &Path, expected: &str) {
        let e = ChainState::load(path).unwrap_err().to_string();
        assert!(e.contains(expected), "{e}");
    }

    #[test]
    fn state_round_trips_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/chain.json");
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
    }

    /// A temporary file left by a writer killed between create and rename
    /// (SIGKILL) is removed by the next write; other files stay.
    #[test]
    fn the_next_write_removes_temporary_files_of_a_killed_writer() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("chain.json");
        fs::write(dir.join(".chain.json.999999.tmp"), "{half").unwrap();
        fs::write(dir.join(".other.json.1.tmp"), "keep").unwrap();
        write_atomic(&path, b"{}").unwrap();
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, [".other.json.1.tmp", "chain.json"]);
    }

    fn tx(block: u64) -> TxRecord {
        TxRecord {
            hash: B256::repeat_byte(block as u8),
            block,
            from: Address::repeat_byte(1),
            to: Some(Address::repeat_byte(2)),
            created: None,
            gas_used: 21_000,
            status: true,
            logs: Vec::new(),
        }
    }

    /// A height or genesis time the next block would wrap past (a hand-edited
    /// `"block": 18446744073709551615`) is refused on load, before the next
    /// transaction could make it 0.
    #[test]
    fn a_block_height_or_genesis_time_that_would_wrap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        let mut state = ChainState::genesis(31337);
        state.block = MAX_BLOCK - 1;
        state.save(&path).unwrap();
        assert_eq!(ChainState::load(&path).unwrap().block, MAX_BLOCK - 1);
        for block in [MAX_BLOCK, u64::MAX] {
            state.block = block;
            state.save(&path).unwrap();
            assert_load_refused(&path, &format!("field \"block\" is {block}, at or above"));
        }
        state.block = 0;
        state.genesis_timestamp = u64::MAX;
        state.save(&path).unwrap();
        assert_load_refused(&path, "field \"genesis_timestamp\" is 18446744073709551615");
    }

    /// A state whose block height is below its last transaction's block (the
    /// next transaction would reuse a block number), or whose transactions
    /// share a block, is refused on load with the field named.
    #[test]
    fn impossible_block_numbers_are_refused_naming_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        let mut state = ChainState::genesis(31337);
        state.transactions = vec![tx(1), tx(2)];
        state.block = 2;
        state.save(&path).unwrap();
        assert_eq!(ChainState::load(&path).unwrap().block, 2);

        state.block = 0;
        state.save(&path).unwrap();
        assert_load_refused(
            &path,
            "impossible: field \"block\" is 0, but transaction 0x0202",
        );

        state.block = 2;
        state.transactions = vec![tx(1), tx(1)];
        state.save(&path).unwrap();
        assert_load_refused(&path, "field \"transactions[1].block\" is 1 after block 1");

        state.transactions.clear();
        state.deployments.push(Deployment {
            puzzle: Puzzle::Golf.into(),
            puzzle_address: Address::repeat_byte(9),
            arena: Address::repeat_byte(10),
            deployer: Address::repeat_byte(1),
            puzzle_tx: MinedTx {
                hash: B256::repeat_byte(1),
                block: 1,
                gas: 1,
                fee: 0,
            },
            arena_tx: MinedTx {
                hash: B256::repeat_byte(2),
                block: 2,
                gas: 1,
                fee: 0,
            },
        });
        state.save(&path).unwrap();
        assert_load_refused(&path, "field \"deployments[0].puzzle_address\" is 0x0909");
    }

    /// A state file as the previous release wrote it (format 1: one
    /// `deployment`, the kind as its label) still loads: the deployment
    /// becomes the only entry of `deployments`, its transactions found in
    /// the log; one whose blocks hold no such creation is refused.
    #[test]
    fn state_files_of_the_previous_release_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        let old = r#"{
  "format": 1,
  "chain_id": 31337,
  "block": 2,
  "genesis_timestamp": 1700000000,
  "accounts": {
    "0x5fbdb2315678afecb367f032d93f642f64180aa3": {"balance": "0x0", "nonce": 1, "code": "0x00"},
    "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512": {"balance": "0x0", "nonce": 1, "code": "0x00"}
  },
  "deployment": {
    "puzzle_kind": "golf",
    "puzzle": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    "arena": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    "puzzle_block": 1,
    "arena_block": 2
  },
  "transactions": [
    {"hash": "0x1111111111111111111111111111111111111111111111111111111111111111", "block": 1,
     "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "to": null,
     "created": "0x5fbdb2315678afecb367f032d93f642f64180aa3", "gas_used": 227492, "status": true},
    {"hash": "0x2222222222222222222222222222222222222222222222222222222222222222", "block": 2,
     "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "to": null,
     "created": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "gas_used": 353777, "status": true}
  ]
}"#;
        fs::write(&path, old).unwrap();
        let state = ChainState::load(&path).unwrap();
        assert_eq!(state.format, FORMAT);
        assert_eq!(state.deployments.len(), 1);
        let d = &state.deployments[0];
        assert_eq!(d.puzzle, Puzzle::Golf.into());
        assert_eq!(
            d.arena_tx,
            MinedTx {
                hash: B256::repeat_byte(0x22),
                block: 2,
                gas: 353_777,
                fee: 0,
            }
        );
        assert_eq!(d.puzzle_tx.gas, 227_492);
        assert_eq!(
            d.arena.to_string(),
            "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
        );
        assert_eq!(
            d.deployer.to_string(),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
        // The same file without its transaction log names the field.
        let cut =
            old.split("\"transactions\"").next().unwrap().to_string() + "\"transactions\": []}";
        fs::write(&path, cut).unwrap();
        assert_load_refused(&path, "field \"deployment\" names blocks 1 and 2");
    }

    #[test]
    fn garbage_is_a_state_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        fs::write(&path, "{not json").unwrap();
        let e = ChainState::load(&path).unwrap_err();
        assert!(matches!(e, ChainError::State(_)), "{e}");
    }
}

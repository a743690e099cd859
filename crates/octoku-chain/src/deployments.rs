//! Every `octoku deploy` on a chain, kept on record: in the embedded chain's
//! state, and for a node in `deployments/<chain-id>.json`. The latest
//! deployment is the default arena of later commands; earlier ones stay
//! listed so their arenas (and their players' results) are never forgotten.

use std::path::{Path, PathBuf};

use alloy_primitives::{Address, B256};
use serde::{Deserialize, Serialize};

use super::{ChainError, state::write_atomic};
use crate::cause::{FileError, FileKind};
use octoku_evm::Puzzle;

/// A mined transaction: the same four fields wherever one is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinedTx {
    /// Transaction hash.
    pub hash: B256,
    /// Block it was mined in.
    pub block: u64,
    /// Total gas it used (intrinsic cost included).
    pub gas: u64,
    /// The fee paid, in wei (a decimal string in JSON; 0 on the embedded
    /// chain, and in records written before fees were kept).
    #[serde(default, with = "wei_text")]
    pub fee: u128,
}

/// Wei as a decimal string in JSON (a u128 does not fit a JSON number
/// that every reader takes exactly).
mod wei_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(wei: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&wei.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("fee {text:?}: expected wei in decimal")))
    }
}

impl From<&super::Receipt> for MinedTx {
    fn from(r: &super::Receipt) -> MinedTx {
        MinedTx {
            hash: r.tx_hash,
            block: r.block,
            gas: r.gas_used,
            fee: r.fee,
        }
    }
}

/// Which puzzle a deployment holds: one of the built-ins by its name, or an
/// author's own contract (`--artifact`, `--bytecode`, `--contract`) by its
/// label. Written as one string either way; a label spelled like a built-in
/// reads back as that built-in (the record is a note: later commands tell
/// a puzzle by its code on the chain, not by this name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RecordedPuzzle {
    /// `reference`, `golf` or `fair`.
    Builtin(Puzzle),
    /// The author's contract, as reports name it (`LoopPuzzle`).
    Own(String),
}

impl From<Puzzle> for RecordedPuzzle {
    fn from(p: Puzzle) -> RecordedPuzzle {
        RecordedPuzzle::Builtin(p)
    }
}

impl std::fmt::Display for RecordedPuzzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordedPuzzle::Builtin(p) => f.write_str(p.label()),
            RecordedPuzzle::Own(label) => f.write_str(label),
        }
    }
}

/// One deployment: a puzzle and the arena pointing at it (the keys of
/// `octoku deploy --json`: `puzzle` is the kind, `puzzle_address` the contract).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deployment {
    /// The puzzle (`reference`, `golf`, `fair`, or the author's label in the file).
    pub puzzle: RecordedPuzzle,
    /// Puzzle contract.
    #[serde(serialize_with = "checksummed")]
    pub puzzle_address: Address,
    /// Arena contract.
    #[serde(serialize_with = "checksummed")]
    pub arena: Address,
    /// Who deployed.
    #[serde(serialize_with = "checksummed")]
    pub deployer: Address,
    /// The puzzle's creation.
    pub puzzle_tx: MinedTx,
    /// The arena's creation.
    pub arena_tx: MinedTx,
}

/// Addresses in the record as EIP-55 checksums, as every other output shows them.
fn checksummed<S: serde::Serializer>(address: &Address, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&address.to_checksum(None))
}

/// A puzzle added to Curta by `octoku deploy --curta` (the keys of its
/// `--json`): on the file's chain, Curta's address, the puzzle's id there
/// and its contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurtaPuzzleRecord {
    /// The Curta contract.
    #[serde(serialize_with = "checksummed")]
    pub curta: Address,
    /// The puzzle's id on that Curta.
    pub puzzle_id: u32,
    /// The puzzle contract.
    #[serde(serialize_with = "checksummed")]
    pub puzzle_address: Address,
    /// Which of this repository's puzzles it is (`null`: another IPuzzle).
    pub puzzle: Option<Puzzle>,
    /// Who added it (the Authorship Token's owner).
    #[serde(serialize_with = "checksummed")]
    pub author: Address,
    /// The Authorship Token spent.
    pub token_id: u64,
    /// The puzzle's creation (`null` when an existing contract was added).
    pub puzzle_tx: Option<MinedTx>,
    /// The `addPuzzle` transaction.
    pub add_tx: MinedTx,
}

/// `deployments/<chain-id>.json`: the chain id and every deployment, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeploymentsFile {
    /// The chain the deployments are on.
    pub chain_id: u64,
    /// Oldest first; the last is the default.
    pub deployments: Vec<Deployment>,
    /// Puzzles added to Curta, oldest first; the last is the default of
    /// `--curta` and `--puzzle-id` (absent from files written before them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curta_puzzles: Vec<CurtaPuzzleRecord>,
}

/// The file as the first octoku versions wrote it: one deployment, flat.
#[derive(Deserialize)]
struct LegacyFile {
    chain_id: u64,
    puzzle_kind: Puzzle,
    puzzle: Address,
    arena: Address,
    puzzle_block: u64,
    arena_block: u64,
    puzzle_tx: B256,
    arena_tx: B256,
    puzzle_gas: u64,
    arena_gas: u64,
    deployer: Address,
}

/// `deployments/<chain-id>.json` below `dir`.
pub fn deployments_path(dir: &Path, chain_id: u64) -> PathBuf {
    dir.join(format!("{chain_id}.json"))
}

impl DeploymentsFile {
    /// Reads the record at `path`, refusing one whose chain id is not
    /// `chain_id` (the node's). `Ok(None)` when there is no file.
    pub fn load(path: &Path, chain_id: u64) -> Result<Option<DeploymentsFile>, ChainError> {
        use octoku_evm::limits::{DEPLOYMENTS_FILE, read_regular_file};
        let text = match read_regular_file(path, DEPLOYMENTS_FILE) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(source) => {
                return Err(ChainError::State(FileError::Read {
                    file: FileKind::Deployments,
                    doing: "read",
                    path: path.to_path_buf(),
                    source,
                }));
            }
        };
        let file = match serde_json::from_str::<DeploymentsFile>(&text) {
            Ok(file) => file,
            Err(e) => match serde_json::from_str::<LegacyFile>(&text) {
                Ok(l) => DeploymentsFile {
                    chain_id: l.chain_id,
                    curta_puzzles: Vec::new(),
                    deployments: vec![Deployment {
                        puzzle: l.puzzle_kind.into(),
                        puzzle_address: l.puzzle,
                        arena: l.arena,
                        deployer: l.deployer,
                        puzzle_tx: MinedTx {
                            hash: l.puzzle_tx,
                            block: l.puzzle_block,
                            gas: l.puzzle_gas,
                            fee: 0,
                        },
                        arena_tx: MinedTx {
                            hash: l.arena_tx,
                            block: l.arena_block,
                            gas: l.arena_gas,
                            fee: 0,
                        },
                    }],
                },
                Err(_) => {
                    return Err(ChainError::State(FileError::Json {
                        file: FileKind::Deployments,
                        path: path.to_path_buf(),
                        source: e,
                    }));
                }
            },
        };
        if file.chain_id != chain_id {
            return Err(FileError::OtherChain {
                path: path.to_path_buf(),
                recorded: file.chain_id,
                node: chain_id,
            }
            .into());
        }
        Ok(Some(file))
    }

    /// The default deployment: the latest.
    pub fn latest(&self) -> Option<&Deployment> {
        self.deployments.last()
    }

    /// The latest puzzle added to Curta, on `curta` when given.
    pub fn latest_curta(&self, curta: Option<Address>) -> Option<&CurtaPuzzleRecord> {
        self.curta_puzzles
            .iter()
            .rev()
            .find(|r| curta.is_none_or(|c| c == r.curta))
    }

    /// Reads the record at `path` (empty if missing), applies `change` (e.g.
    /// `|file| file.deployments.push(deployment)`) and writes it back
    /// atomically under the lock of `path`, so two changes at once both stay
    /// on record. Returns the file as written.
    pub fn update(
        path: &Path,
        chain_id: u64,
        change: impl FnOnce(&mut DeploymentsFile),
    ) -> Result<DeploymentsFile, ChainError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(FileError::io("write", path))?;
        }
        octoku_evm::limits::require_regular(path).map_err(|source| FileError::Read {
            file: FileKind::Deployments,
            doing: "write",
            path: path.to_path_buf(),
            source,
        })?;
        let _lock = super::state::FileLock::acquire(path)?;
        let mut file = DeploymentsFile::load(path, chain_id)?.unwrap_or(DeploymentsFile {
            chain_id,
            deployments: Vec::new(),
            curta_puzzles: Vec::new(),
        });
        change(&mut file);
        let text = serde_json::to_string_pretty(&file).map_err(|source| FileError::Encode {
            file: FileKind::Deployments,
            path: path.to_path_buf(),
            source,
        })? + "\n";
        write_atomic(path, text.as_bytes()).map_err(FileError::io("write", path))?;
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary directory (removed on drop) and where the record of
    /// `chain_id` goes in it.
    fn temp_record(chain_id: u64) -> (tempfile::TempDir, PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let path = deployments_path(temp.path(), chain_id);
        (temp, path)
    }

    fn sample(n: u8) -> Deployment {
        let tx = |b: u8| MinedTx {
            hash: B256::repeat_byte(b),
            block: b.into(),
            gas: 100_000,
            fee: 0,
        };
        Deployment {
            puzzle: Puzzle::Fair.into(),
            puzzle_address: Address::repeat_byte(n),
            arena: Address::repeat_byte(n + 1),
            deployer: Address::repeat_byte(0xde),
            puzzle_tx: tx(n),
            arena_tx: tx(n + 1),
        }
    }

    #[test]
    fn an_authors_puzzle_is_recorded_by_its_label_and_a_builtin_by_its_name() {
        let mut own = sample(7);
        own.puzzle = RecordedPuzzle::Own("LoopPuzzle".into());
        let text = serde_json::to_string(&[sample(1), own.clone()]).unwrap();
        assert!(text.contains(r#""puzzle":"fair""#), "{text}");
        assert!(text.contains(r#""puzzle":"LoopPuzzle""#), "{text}");
        let back: Vec<Deployment> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, vec![sample(1), own]);
    }

    #[test]
    fn a_second_deployment_keeps_the_first_on_record() {
        let (_temp, path) = temp_record(31337);
        DeploymentsFile::update(&path, 31337, |f| f.deployments.push(sample(1))).unwrap();
        let file =
            DeploymentsFile::update(&path, 31337, |f| f.deployments.push(sample(5))).unwrap();
        assert_eq!(file.deployments, vec![sample(1), sample(5)]);
        let read = DeploymentsFile::load(&path, 31337).unwrap().unwrap();
        assert_eq!(read, file);
        assert_eq!(read.latest(), Some(&sample(5)));
    }

    #[test]
    fn curta_puzzles_join_an_arena_file_and_the_latest_is_the_default() {
        let (_temp, path) = temp_record(31337);
        DeploymentsFile::update(&path, 31337, |f| f.deployments.push(sample(1))).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        assert!(!before.contains("curta_puzzles"), "{before}");
        let record = |curta: u8, id: u32| CurtaPuzzleRecord {
            curta: Address::repeat_byte(curta),
            puzzle_id: id,
            puzzle_address: Address::repeat_byte(0x33),
            puzzle: Some(Puzzle::Fair),
            author: Address::repeat_byte(0x0a),
            token_id: 1,
            puzzle_tx: None,
            add_tx: sample(1).arena_tx,
        };
        DeploymentsFile::update(&path, 31337, |f| f.curta_puzzles.push(record(0xc1, 1))).unwrap();
        let file = DeploymentsFile::update(&path, 31337, |f| f.curta_puzzles.push(record(0xc2, 4)))
            .unwrap();
        assert_eq!(file.deployments, vec![sample(1)]);
        let read = DeploymentsFile::load(&path, 31337).unwrap().unwrap();
        assert_eq!(read, file);
        assert_eq!(read.latest_curta(None), Some(&record(0xc2, 4)));
        let first = Some(Address::repeat_byte(0xc1));
        assert_eq!(read.latest_curta(first), Some(&record(0xc1, 1)));
    }

    #[test]
    fn a_file_of_another_chain_is_refused() {
        let (_temp, path) = temp_record(1);
        DeploymentsFile::update(&path, 1, |f| f.deployments.push(sample(1))).unwrap();
        let e = DeploymentsFile::load(&path, 31337).unwrap_err();
        assert!(
            e.to_string()
                .contains("records chain id 1, but the node is chain 31337"),
            "{e}"
        );
        let e =
            DeploymentsFile::update(&path, 31337, |f| f.deployments.push(sample(2))).unwrap_err();
        assert!(matches!(e, ChainError::State(_)), "{e}");
    }

    #[test]
    fn the_first_versions_single_record_reads_as_one_deployment() {
        let (_temp, path) = temp_record(31337);
        let legacy = serde_json::json!({
            "chain_id": 31337,
            "puzzle_kind": "reference",
            "puzzle": Address::repeat_byte(3),
            "arena": Address::repeat_byte(4),
            "puzzle_block": 1,
            "arena_block": 2,
            "puzzle_tx": B256::repeat_byte(9),
            "arena_tx": B256::repeat_byte(8),
            "puzzle_gas": 10,
            "arena_gas": 11,
            "deployer": Address::repeat_byte(5),
        });
        std::fs::write(&path, legacy.to_string()).unwrap();
        let file = DeploymentsFile::load(&path, 31337).unwrap().unwrap();
        assert_eq!(file.deployments.len(), 1);
        let d = &file.deployments[0];
        assert_eq!(
            (d.puzzle.clone(), d.arena),
            (Puzzle::Reference.into(), Address::repeat_byte(4))
        );
        assert_eq!(
            d.arena_tx,
            MinedTx {
                hash: B256::repeat_byte(8),
                block: 2,
                gas: 11,
                fee: 0
            }
        );
    }
}

//! A commit waiting for its submit, kept in a file so that an interrupted
//! `octoku golf submit` resumes with the same salt (a second commit of the
//! same key would revert `KeyAlreadyCommitted`, and a new salt would wait
//! the commit age again). One file per chain, Curta Golf, course, submitter
//! and creation code; removed once the submit is mined.

use std::fs;
use std::path::{Path, PathBuf};

use alloy_primitives::{Address, B256, U256, keccak256};
use alloy_sol_types::SolValue;
use serde::{Deserialize, Serialize};

use super::commit_key;
use crate::cause::{FileError, FileKind};
use crate::state::write_atomic;

/// What a pending submit needs, and what it was for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The chain's id.
    pub chain_id: u64,
    /// The Curta Golf contract.
    pub curta_golf: Address,
    /// The course.
    pub course_id: u32,
    /// Who commits and submits.
    pub submitter: Address,
    /// keccak256 of the creation code.
    pub initcode_hash: B256,
    /// The salt of the key.
    pub salt: U256,
    /// `keccak256(abi.encode(submitter, initcode, salt))`.
    pub key: B256,
    /// The commit transaction, once mined.
    pub commit_tx: Option<B256>,
}

impl Pending {
    /// A new pending submit with a random salt (not yet committed).
    pub fn new(
        chain_id: u64,
        curta_golf: Address,
        course_id: u32,
        submitter: Address,
        initcode: &[u8],
    ) -> Pending {
        let salt = U256::from_be_bytes(B256::random().0);
        Pending {
            chain_id,
            curta_golf,
            course_id,
            submitter,
            initcode_hash: keccak256(initcode),
            salt,
            key: commit_key(submitter, initcode, salt),
            commit_tx: None,
        }
    }

    /// The file in `dir` for this chain, Curta Golf, course, submitter and
    /// creation code.
    pub fn path(
        dir: &Path,
        chain_id: u64,
        curta_golf: Address,
        course_id: u32,
        submitter: Address,
        initcode: &[u8],
    ) -> PathBuf {
        let id = keccak256(
            (
                U256::from(chain_id),
                curta_golf,
                U256::from(course_id),
                submitter,
                keccak256(initcode),
            )
                .abi_encode(),
        );
        dir.join(format!("{}.json", alloy_primitives::hex::encode(&id[..8])))
    }

    /// The pending submit at `path`, `None` when there is no file. A file
    /// that does not parse, or whose key is not the one its fields give, is
    /// an error (never silently replaced: it holds a committed salt).
    pub fn load(path: &Path, initcode: &[u8]) -> Result<Option<Pending>, FileError> {
        use octoku_evm::limits::{PENDING_SUBMIT, read_regular_file};
        let text = match read_regular_file(path, PENDING_SUBMIT) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(source) => {
                return Err(FileError::Read {
                    file: FileKind::PendingSubmit,
                    doing: "read",
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        let p: Pending = serde_json::from_str(&text).map_err(|source| FileError::Json {
            file: FileKind::PendingSubmit,
            path: path.to_path_buf(),
            source,
        })?;
        if p.initcode_hash != keccak256(initcode)
            || p.key != commit_key(p.submitter, initcode, p.salt)
        {
            return Err(FileError::NotThisSolution {
                path: path.to_path_buf(),
            });
        }
        Ok(Some(p))
    }

    /// Writes the file atomically (its directory created).
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(FileError::io("write", path))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|source| FileError::Encode {
            file: FileKind::PendingSubmit,
            path: path.to_path_buf(),
            source,
        })?;
        write_atomic(path, text.as_bytes()).map_err(FileError::io("write", path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_pending_submit_loads_back_and_a_changed_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let code = [0x60u8, 0x00, 0xf3];
        let who = Address::repeat_byte(2);
        let golf = Address::repeat_byte(3);
        let path = Pending::path(dir.path(), 31337, golf, 1, who, &code);
        assert_eq!(Pending::load(&path, &code).unwrap(), None);
        let p = Pending::new(31337, golf, 1, who, &code);
        p.save(&path).unwrap();
        assert_eq!(Pending::load(&path, &code).unwrap(), Some(p.clone()));
        assert!(Pending::load(&path, &[0x00]).is_err());
        let other = Pending::new(31337, golf, 1, who, &code);
        assert_ne!(other.salt, p.salt, "salts are random");
    }

    #[test]
    fn an_oversized_or_irregular_pending_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        let file = fs::File::create(&big).unwrap();
        file.set_len(octoku_evm::limits::PENDING_SUBMIT + 1)
            .unwrap();
        let e = Pending::load(&big, &[0x00]).unwrap_err();
        assert!(
            e.to_string()
                .contains("larger than 64 KiB, the limit for a pending Curta Golf submit"),
            "{e}"
        );
        let e = Pending::load(dir.path(), &[0x00]).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
}

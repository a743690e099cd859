//! Keys kept off the command line, as Foundry's cast takes them: a Web3
//! Secret Storage (v3) keystore file, by path or by account name in
//! `~/.foundry/keystores`, decrypted with a password. Neither the key nor the
//! password is ever part of an error message.

use std::path::{Path, PathBuf};

use alloy_signer_local::{LocalSignerError, PrivateKeySigner};

use super::{ChainError, PrivateKey};
use crate::cause::KeystoreError;

/// `~/.foundry/keystores`, where `cast wallet import NAME` puts keystores.
pub fn foundry_keystores_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|home| PathBuf::from(home).join(".foundry").join("keystores"))
}

/// The keystore of account `name` in `dir` (normally
/// [`foundry_keystores_dir`]); the name must be a plain file name.
pub fn account_keystore(dir: &Path, name: &str) -> Result<PathBuf, ChainError> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\');
    if !plain {
        return Err(ChainError::Key(format!(
            "account {name:?}: expected the name of a keystore in {} (no path separators)",
            dir.display()
        )));
    }
    let path = dir.join(name);
    if !path.is_file() {
        return Err(ChainError::Key(format!(
            "account {name:?}: no keystore {} (import one with `cast wallet import {name} --interactive`, or pass --keystore PATH)",
            path.display()
        )));
    }
    Ok(path)
}

/// Checks that `path` is a readable keystore (JSON with a `crypto`
/// section), so a password is not asked for a file that cannot be one.
pub fn check_keystore(path: &Path) -> Result<(), ChainError> {
    let path = path.to_path_buf();
    let text = match octoku_evm::limits::read_file(&path, octoku_evm::limits::KEYSTORE) {
        Ok(text) => text,
        Err(source) => return Err(KeystoreError::Read { path, source }.into()),
    };
    let json: serde_json::Value = match serde_json::from_str(&text) {
        Ok(json) => json,
        Err(source) => return Err(KeystoreError::NotJson { path, source }.into()),
    };
    if json.get("crypto").or_else(|| json.get("Crypto")).is_none() {
        return Err(KeystoreError::NoCrypto { path }.into());
    }
    Ok(())
}

/// Decrypts the keystore at `path` with `password`.
pub fn decrypt_keystore(path: &Path, password: &[u8]) -> Result<PrivateKey, ChainError> {
    check_keystore(path)?;
    let signer = PrivateKeySigner::decrypt_keystore(path, password).map_err(|source| {
        let path = path.to_path_buf();
        match &source {
            // The whole of what went wrong: no cause to keep.
            LocalSignerError::EthKeystoreError(k) if k.to_string().contains("Mac Mismatch") => {
                KeystoreError::WrongPassword { path }
            }
            _ => KeystoreError::Decrypt { path, source },
        }
    })?;
    PrivateKey::parse(&signer.to_bytes().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keystore_written_by_alloy_decrypts_to_its_key_and_refuses_a_wrong_password() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let key = PrivateKey::parse(&"42".repeat(32)).unwrap();
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
        PrivateKeySigner::encrypt_keystore(
            dir,
            &mut rng,
            key.signer().unwrap().to_bytes(),
            "hunter2",
            Some("player"),
        )
        .unwrap();
        let path = account_keystore(dir, "player").unwrap();
        let read = decrypt_keystore(&path, b"hunter2").unwrap();
        assert_eq!(read.address().unwrap(), key.address().unwrap());

        let e = decrypt_keystore(&path, b"hunter3").unwrap_err().to_string();
        assert!(
            e.ends_with("wrong password (the MAC does not match)"),
            "{e}"
        );
        assert!(!e.contains("hunter"), "{e}");

        let e = account_keystore(dir, "nobody").unwrap_err().to_string();
        assert!(e.contains("no keystore"), "{e}");
        let e = account_keystore(dir, "../player").unwrap_err().to_string();
        assert!(e.contains("no path separators"), "{e}");

        std::fs::write(dir.join("junk"), "{\"version\": 3}").unwrap();
        let e = decrypt_keystore(&dir.join("junk"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no \"crypto\" section"), "{e}");
    }
}

//! The causes a [`ChainError`](crate::ChainError) keeps: a file the chain
//! keeps, a keystore, the way to a node. Each is the error that happened,
//! kept whole as a `source()`, with what was being done and on which path
//! beside it, so a caller can walk to the operating system's or the
//! parser's own error. Each message is one line and already shows its
//! cause: a printer that joins a chain (the CLI's) prints it once.

use std::{
    fmt, io,
    path::{Path, PathBuf},
    time::Duration,
};

use octoku_evm::limits::{NODE_TEXT, ReadError, one_line, size};

/// Which of the chain's files a [`FileError`] is about: it decides the
/// words ("the embedded chain", "the deployments file") and what was
/// expected instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// The embedded chain's state file (`--state`).
    State,
    /// The deployments file `octoku deploy` writes.
    Deployments,
    /// A pending Curta Golf submit (its committed salt).
    PendingSubmit,
}

impl FileKind {
    /// What the message calls the file before its path (`the embedded
    /// chain .octoku/chain.json`), empty for a file named by its path alone.
    fn label(self) -> &'static str {
        match self {
            FileKind::State => "the embedded chain ",
            FileKind::Deployments | FileKind::PendingSubmit => "",
        }
    }
}

/// One of the chain's files cannot be used: missing, unreadable,
/// unwritable, locked too long, not JSON of its shape, or impossible.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The operating system refused (`cannot write .octoku/chain.json:
    /// Permission denied (os error 13)`).
    #[error("cannot {doing} {}: {source}{hint}", path.display())]
    Io {
        /// What was being done, as the message says it (`write the
        /// embedded chain`, `open the lock`).
        doing: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
        /// What was expected instead (`; expected ...`), or empty.
        hint: &'static str,
    },
    /// A bounded read (or the check before a write) failed: missing, not a
    /// regular file, too large, or refused.
    #[error("{}", read_message(*file, doing, path, source))]
    Read {
        /// Which file.
        file: FileKind,
        /// `read`, or `write` for the check before writing.
        doing: &'static str,
        /// The file.
        path: PathBuf,
        /// Why the read failed.
        source: ReadError,
    },
    /// The file is not JSON of its shape.
    #[error("{}", json_message(*file, path, source))]
    Json {
        /// Which file.
        file: FileKind,
        /// The file.
        path: PathBuf,
        /// serde_json's words (line and column; never the file's values).
        source: serde_json::Error,
    },
    /// The content could not be encoded as JSON (a bug if seen).
    #[error("cannot encode {}{}: {source}", file.label(), path.display())]
    Encode {
        /// Which file.
        file: FileKind,
        /// The file it was for.
        path: PathBuf,
        /// serde_json's words.
        source: serde_json::Error,
    },
    /// A pending Curta Golf submit whose key is not the one its fields give
    /// for this solution (edited, or another solution's file).
    #[error(
        "{}: its key does not match this solution's creation code; expected the file of this solution",
        path.display()
    )]
    NotThisSolution {
        /// The file.
        path: PathBuf,
    },
    /// No embedded chain where `--state` says.
    #[error(
        "no embedded chain at {}: run `octoku deploy` first, or pass --rpc-url",
        path.display()
    )]
    Missing {
        /// The state file.
        path: PathBuf,
    },
    /// A state file of a format this octoku does not read.
    #[error(
        "the embedded chain {} has format {format}, this octoku reads formats 1 and {}",
        path.display(),
        crate::state::FORMAT
    )]
    Format {
        /// The state file.
        path: PathBuf,
        /// The format it names.
        format: u32,
    },
    /// A state file whose fields cannot all be true (edited or damaged).
    #[error(
        "the embedded chain {} is impossible: {source} (edited or damaged; refusing to use it)",
        path.display()
    )]
    Impossible {
        /// The state file.
        path: PathBuf,
        /// The field, and why it cannot be.
        source: crate::state::Impossible,
    },
    /// Another octoku held the file's lock for the whole wait.
    #[error(
        "{} is still locked by another octoku after {} s",
        path.display(),
        waited.as_secs()
    )]
    Locked {
        /// The locked file.
        path: PathBuf,
        /// How long octoku waited.
        waited: Duration,
    },
    /// A deployments file of another chain than the node's.
    #[error(
        "{} records chain id {recorded}, but the node is chain {node}: refusing its addresses (wrong --rpc-url, or a copied file?)",
        path.display()
    )]
    OtherChain {
        /// The deployments file.
        path: PathBuf,
        /// The chain id it records.
        recorded: u64,
        /// The node's chain id.
        node: u64,
    },
    /// `--state` is a symbolic link to nothing that can be opened.
    #[error(
        "the embedded chain {} is a link to a file that cannot be opened ({source}); expected a link to a state file written by octoku, or the file's own path",
        path.display()
    )]
    Link {
        /// The link.
        path: PathBuf,
        /// Why it cannot be followed.
        source: io::Error,
    },
}

impl FileError {
    /// An [`FileError::Io`] for `path` while doing `doing`, no hint.
    pub fn io<'a>(doing: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> FileError + 'a {
        move |source| FileError::Io {
            doing,
            path: path.to_path_buf(),
            source,
            hint: "",
        }
    }
}

/// The one line of a file that is not JSON of its shape.
fn json_message(file: FileKind, path: &Path, e: &serde_json::Error) -> String {
    let shown = path.display();
    match file {
        FileKind::State => format!("the embedded chain {shown} is not a valid state file: {e}"),
        FileKind::Deployments => format!("{shown} is not a deployments file: {e}"),
        FileKind::PendingSubmit => format!(
            "{shown} is not a pending Curta Golf submit ({e}); expected the JSON octoku golf submit writes"
        ),
    }
}

/// The one line of a failed read: what the file is, what went wrong, what
/// was expected.
fn read_message(file: FileKind, doing: &str, path: &Path, e: &ReadError) -> String {
    use octoku_evm::limits::{DEPLOYMENTS_FILE, PENDING_SUBMIT, STATE_FILE};
    let shown = path.display();
    match (file, e) {
        (FileKind::State, ReadError::NotRegular) => format!(
            "the embedded chain {shown} is not a regular file; expected a state file written by octoku (--state PATH)"
        ),
        (FileKind::State, ReadError::TooLarge { .. }) => format!(
            "the embedded chain {shown} is larger than {}, the limit for a state file; expected a state file written by octoku",
            size(STATE_FILE)
        ),
        (FileKind::State, e) => format!("cannot {doing} the embedded chain {shown}: {e}"),
        (FileKind::Deployments, ReadError::TooLarge { .. }) => format!(
            "cannot {doing} {shown}: larger than {}, the limit for a deployments file; expected the deployments file octoku deploy writes",
            size(DEPLOYMENTS_FILE)
        ),
        (FileKind::Deployments, e) => format!(
            "cannot {doing} {shown}: {e}; expected the deployments file octoku deploy writes"
        ),
        (FileKind::PendingSubmit, ReadError::TooLarge { .. }) => format!(
            "cannot {doing} {shown}: larger than {}, the limit for a pending Curta Golf submit; expected the JSON octoku golf submit writes",
            size(PENDING_SUBMIT)
        ),
        (FileKind::PendingSubmit, e) => format!("cannot {doing} {shown}: {e}"),
    }
}

/// A keystore that cannot be used. Neither the key nor the password is in
/// any of these, nor in their causes.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KeystoreError {
    /// The file cannot be read (missing, too large, refused).
    #[error(
        "keystore {}: cannot read it: {source}; expected a Web3 Secret Storage (v3) keystore (at most {})",
        path.display(),
        size(octoku_evm::limits::KEYSTORE)
    )]
    Read {
        /// The keystore.
        path: PathBuf,
        /// Why the read failed.
        source: ReadError,
    },
    /// The file is not JSON.
    #[error(
        "keystore {}: not JSON ({source}); expected a Web3 Secret Storage (v3) keystore",
        path.display()
    )]
    NotJson {
        /// The keystore.
        path: PathBuf,
        /// serde_json's words (line and column).
        source: serde_json::Error,
    },
    /// JSON without a `crypto` section.
    #[error(
        "keystore {}: no \"crypto\" section; expected a Web3 Secret Storage (v3) keystore",
        path.display()
    )]
    NoCrypto {
        /// The keystore.
        path: PathBuf,
    },
    /// The password does not decrypt it (the MAC does not match).
    #[error("keystore {}: wrong password (the MAC does not match)", path.display())]
    WrongPassword {
        /// The keystore.
        path: PathBuf,
    },
    /// Decryption failed for another reason (an unknown cipher or KDF ...).
    #[error("keystore {}: cannot decrypt it: {source}", path.display())]
    Decrypt {
        /// The keystore.
        path: PathBuf,
        /// The keystore library's error.
        source: alloy_signer_local::LocalSignerError,
    },
}

/// Why a node could not be reached.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Unreachable {
    /// A `ws://` or `wss://` URL.
    #[error("websocket URLs are not supported: give the node's http(s):// URL")]
    Websocket,
    /// Neither `http://` nor `https://`.
    #[error("expected an http:// or https:// URL")]
    NotHttp,
    /// The URL does not parse.
    #[error("not a URL ({0})")]
    NotAUrl(#[source] Redacted),
    /// No answer within the request timeout.
    #[error("no answer within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The HTTP client or the connection failed.
    #[error(transparent)]
    Transport(Redacted),
}

/// An error on the way to a node (the HTTP client, the connection, the
/// URL parser), one level per cause, each with the RPC URL's secrets
/// (credentials, API keys, the query) taken out. These errors name the
/// URL they failed on, credentials included, so they are kept as their
/// redacted words, not whole: nothing of a credential can be printed from
/// any level, by `Display`, `Debug` or a walk of `source()`.
#[derive(Debug)]
pub struct Redacted {
    text: String,
    source: Option<Box<Redacted>>,
}

impl Redacted {
    /// `e` and each of its causes, every `secret` in their words replaced
    /// by `<redacted>`, each cut to one line.
    pub fn new(e: &dyn std::error::Error, secrets: &[String]) -> Redacted {
        let mut text = e.to_string();
        for secret in secrets.iter().filter(|s| !s.is_empty()) {
            text = text.replace(secret.as_str(), "<redacted>");
        }
        Redacted {
            text: one_line(&text, NODE_TEXT),
            source: e.source().map(|s| Box::new(Redacted::new(s, secrets))),
        }
    }
}

impl fmt::Display for Redacted {
    /// This level's words, then each deeper cause that they do not already
    /// show (reqwest's "error sending request" says little without the
    /// innermost "Connection refused").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = self.text.clone();
        let mut cause = self.source.as_deref();
        while let Some(c) = cause {
            if !line.contains(&c.text) {
                line.push_str(": ");
                line.push_str(&c.text);
            }
            cause = c.source.as_deref();
        }
        f.write_str(&one_line(&line, NODE_TEXT))
    }
}

impl std::error::Error for Redacted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

/// The node's answer passed [`octoku_evm::limits::RPC_RESPONSE`].
#[derive(Debug, thiserror::Error)]
#[error(
    "the node's answer is larger than {}, the limit for one JSON-RPC response; stopped reading it",
    size(*limit)
)]
pub struct AnswerTooLarge {
    /// The limit, in bytes.
    pub limit: u64,
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;
    use crate::{
        ChainError, PrivateKey, TxOptions, deployments::DeploymentsFile, rpc::RpcChain, signer,
        state::ChainState,
    };

    /// `e` and each of its causes, outermost first.
    fn chain<'a>(e: &'a (dyn Error + 'static)) -> Vec<&'a (dyn Error + 'static)> {
        let mut all = vec![e];
        let mut next = e.source();
        while let Some(cause) = next {
            all.push(cause);
            next = cause.source();
        }
        all
    }

    /// The innermost cause of `e`, as a `T`.
    fn root<'a, T: Error + 'static>(e: &'a (dyn Error + 'static)) -> &'a T {
        let all = chain(e);
        let last = all.last().expect("the error itself");
        last.downcast_ref::<T>().unwrap_or_else(|| {
            panic!(
                "the root of {e} is not a {}: {last:?}",
                std::any::type_name::<T>()
            )
        })
    }

    #[test]
    fn a_missing_state_file_walks_to_the_operating_systems_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        let e = ChainState::load(&path).unwrap_err();
        assert!(matches!(
            e,
            ChainError::State(FileError::Read {
                file: FileKind::State,
                ..
            })
        ));
        let io = root::<io::Error>(&e);
        assert_eq!(io.kind(), io::ErrorKind::NotFound);
        // The message says what, where, and why, once.
        let line = e.to_string();
        assert!(
            line.starts_with("cannot read the embedded chain "),
            "{line}"
        );
        assert!(line.ends_with(&io.to_string()), "{line}");
        // Between them, the bounded read's own error.
        assert!(chain(&e).iter().any(|c| c.is::<ReadError>()), "{e:?}");
    }

    #[test]
    fn an_unwritable_state_file_walks_to_the_operating_systems_error() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the state's directory should be: create_dir_all fails.
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "x").unwrap();
        let state = ChainState::genesis(crate::EMBEDDED_CHAIN_ID);
        let e = state.save(&blocker.join("chain.json")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot create the directory of the embedded chain "),
            "{e}"
        );
        root::<io::Error>(&e);
    }

    #[test]
    fn a_corrupted_deployments_file_walks_to_serde_json_s_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("31337.json");
        std::fs::write(&path, "{\"chain_id\": 31337, \"deployments\": [").unwrap();
        let e = DeploymentsFile::load(&path, 31337).unwrap_err();
        let json = root::<serde_json::Error>(&e);
        assert!(json.is_eof(), "{json}");
        assert_eq!(
            e.to_string(),
            format!("{} is not a deployments file: {json}", path.display())
        );
    }

    #[test]
    fn a_keystore_that_is_not_json_or_missing_walks_to_its_cause() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key.json");
        std::fs::write(&path, "not json").unwrap();
        let e = signer::check_keystore(&path).unwrap_err();
        assert!(matches!(
            e,
            ChainError::Keystore(KeystoreError::NotJson { .. })
        ));
        let json = root::<serde_json::Error>(&e);
        assert!(json.is_syntax(), "{json}");
        assert!(e.to_string().contains(&json.to_string()), "{e}");
        let e = signer::check_keystore(&dir.path().join("none.json")).unwrap_err();
        assert_eq!(root::<io::Error>(&e).kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_keystore_that_does_not_decrypt_keeps_the_keystore_library_s_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key.json");
        // A keystore with a key derivation the library does not know.
        std::fs::write(
            &path,
            r#"{"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"00"},"ciphertext":"00","kdf":"rot13","kdfparams":{},"mac":"00"},"id":"0b6d1a3e-0000-4000-8000-000000000000","version":3}"#,
        )
        .unwrap();
        let e = signer::decrypt_keystore(&path, b"hunter2").unwrap_err();
        assert!(
            matches!(e, ChainError::Keystore(KeystoreError::Decrypt { .. })),
            "{e:?}"
        );
        let levels = chain(&e);
        assert!(
            levels
                .iter()
                .any(|c| c.is::<alloy_signer_local::LocalSignerError>()),
            "{e:?}"
        );
        for cause in levels {
            assert!(!cause.to_string().contains("hunter2"), "{cause}");
        }
    }

    #[test]
    fn an_evm_failure_keeps_the_evm_s_error() {
        let e = ChainError::from(octoku_evm::EvmError::return_data(
            alloy_sol_types::Error::Overrun,
        ));
        assert!(matches!(e, ChainError::Evm(_)));
        assert!(chain(&e).iter().any(|c| c.is::<octoku_evm::EvmError>()));
        // The decoder's own error is the last cause, not its words.
        assert_eq!(
            root::<alloy_sol_types::Error>(&e),
            &alloy_sol_types::Error::Overrun
        );
        assert_eq!(e.to_string(), e.source().unwrap().to_string());
    }

    /// Every level of an unreachable node's error, as `Display` and as
    /// `Debug`, is free of the URL's credentials, API key and query; the
    /// innermost cause (the refused connection) is still there.
    #[test]
    fn an_unreachable_node_s_whole_chain_holds_none_of_the_url_s_secrets() {
        // Port 9 on loopback (discard) refuses the connection at once.
        let e = RpcChain::connect(
            "http://bob:hunter2@127.0.0.1:9/v2/AKEYAKEYAKEYAKEY?token=t0k3n",
            &PrivateKey::anvil_default(),
            TxOptions::default(),
        )
        .unwrap_err();
        assert!(matches!(e, ChainError::Unreachable { .. }), "{e}");
        let levels = chain(&e);
        assert!(levels.len() >= 3, "the transport's causes are kept: {e:?}");
        for level in &levels {
            let shown = format!("{level} {level:?}");
            for secret in ["bob", "hunter2", "AKEYAKEYAKEYAKEY", "t0k3n"] {
                assert!(!shown.contains(secret), "{secret} in {shown}");
            }
        }
        assert!(e.to_string().contains("127.0.0.1:9"), "{e}");
        let innermost = levels.last().unwrap().to_string();
        assert!(e.to_string().contains(&innermost), "{e} lacks {innermost}");
    }

    #[test]
    fn a_url_that_does_not_parse_keeps_the_parser_s_words() {
        let e = RpcChain::connect(
            "http://[::1",
            &PrivateKey::anvil_default(),
            TxOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a URL ("), "{e}");
        assert_eq!(chain(&e).len(), 3, "{e:?}");
    }
}

//! Errors the CLI turns into one line on stderr and an exit status.
//!
//! Exit statuses (also in `octoku --help` and docs/commands.md):
//! 0 success; 1 the answer is no (invalid solution, no solution, a
//! submission the local check refuses, nothing sent); 2 bad input or usage;
//! 3 the EVM and the Rust mirror disagree, or the EVM failed; 4 the chain
//! failed (node unreachable, no code, not an arena, state file); 5 the
//! contract reverted (nothing sent); 6 standard output could not be written;
//! 7 a search passed its time limit (`solve --timeout`); 130 interrupted
//! (Ctrl-C).

use octoku_chain::ChainError;

/// The exit statuses, as `octoku --help` lists them.
pub const EXIT_CODES: &str = "\
Exit status:
  0    success (valid, solved, sent)
  1    the answer is no: invalid solution, no solution, or a submission the
       local check refuses (nothing sent)
  2    bad input or usage
  3    the EVM and the Rust mirror disagree, or the EVM failed
  4    the chain failed: node unreachable, no code, not an arena, state file
  5    the contract reverted (simulated first: nothing sent)
  6    standard output could not be written (closed pipe, full disk)
  7    a search passed its time limit (solve --timeout): no answer
  130  interrupted (Ctrl-C)";

/// Why a command could not answer.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An argument is malformed (exit 2).
    #[error("{0}")]
    Input(String),
    /// The EVM or the mirror failed, or they disagree (exit 3).
    #[error("{0}")]
    Evm(String),
    /// Refused before sending: the local check says no (exit 1).
    #[error("{0}")]
    Rejected(String),
    /// The chain failed: node unreachable, no code, no funds, state file (exit 4).
    #[error("{0}")]
    Chain(String),
    /// The EVM or a proof failed: the library's error, kept whole so its
    /// causes (`source()`) are printed after it (exit 3).
    #[error(transparent)]
    EvmCause(Box<dyn std::error::Error + Send + Sync>),
    /// A library error kept whole, its causes (`source()`) printed after
    /// it, with the exit status of its kind ([`CliError::input`],
    /// [`CliError::rejected`], [`CliError::chain`]).
    #[error(transparent)]
    Kept(Kept),
    /// A search passed its time limit (exit 7).
    #[error("{0}")]
    TimedOut(String),
    /// Standard output could not be written (exit 6).
    #[error("cannot write to standard output ({0}); the rest of the output is lost")]
    Output(std::io::Error),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Evm(_) | CliError::EvmCause(_) => 3,
            CliError::Rejected(_) => 1,
            CliError::Chain(_) => 4,
            CliError::Output(_) => 6,
            CliError::TimedOut(_) => 7,
            CliError::Kept(kept) => kept.exit,
        }
    }

    /// Bad input (exit 2), the library's error kept with its causes.
    pub fn input(error: impl std::error::Error + Send + Sync + 'static) -> CliError {
        CliError::Kept(Kept {
            exit: 2,
            error: Box::new(error),
        })
    }

    /// Refused before sending (exit 1), the library's error kept with its causes.
    pub fn rejected(error: impl std::error::Error + Send + Sync + 'static) -> CliError {
        CliError::Kept(Kept {
            exit: 1,
            error: Box::new(error),
        })
    }

    /// Refused before sending (exit 1): `context`, then the library's
    /// error and its causes.
    pub fn rejected_in(
        context: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
    ) -> CliError {
        CliError::rejected(Framed::within(context, error))
    }

    /// Bad input (exit 2): `before`, the library's error, `after`, then
    /// the error's causes ([`Framed`]).
    pub fn input_framed(
        before: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
        after: impl Into<String>,
    ) -> CliError {
        CliError::input(Framed::new(before, error, after))
    }

    /// Bad input (exit 2): `context`, then the library's error and its causes.
    pub fn input_in(
        context: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
    ) -> CliError {
        CliError::input(Framed::within(context, error))
    }

    /// The EVM, a proof or the machine failed (exit 3): `context`, then the
    /// library's error and its causes.
    pub fn evm_in(
        context: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
    ) -> CliError {
        CliError::EvmCause(Box::new(Framed::within(context, error)))
    }

    /// The chain failed (exit 4), the library's error kept with its causes.
    pub fn chain(error: impl std::error::Error + Send + Sync + 'static) -> CliError {
        CliError::Kept(Kept {
            exit: 4,
            error: Box::new(error),
        })
    }
}

/// A library error and the exit status of its kind: it prints as the error
/// does, and its causes are the error's own.
#[derive(Debug)]
pub struct Kept {
    exit: u8,
    error: Box<dyn std::error::Error + Send + Sync>,
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Kept {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

/// A library error said inside the CLI's words: what was being done
/// before it, what was expected after it (`--password-file p: cannot read
/// it: <the error>; expected ...`, `--size 19: <the error>`). The error
/// stays the cause: its own causes follow it, and it is printed once.
#[derive(Debug, thiserror::Error)]
#[error("{before}{error}{after}")]
pub struct Framed {
    before: String,
    #[source]
    error: Box<dyn std::error::Error + Send + Sync>,
    after: String,
}

impl Framed {
    /// `before`, `error`, then `after`.
    pub fn new(
        before: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
        after: impl Into<String>,
    ) -> Framed {
        Framed {
            before: before.into(),
            error: Box::new(error),
            after: after.into(),
        }
    }

    /// `context: <the error>`: what the CLI was doing when it came.
    pub fn within(
        context: impl Into<String>,
        error: impl std::error::Error + Send + Sync + 'static,
    ) -> Framed {
        Framed::new(format!("{}: ", context.into()), error, "")
    }
}

/// The chain failed after something was sent (exit 4): `done`, then the
/// chain's error and its causes.
pub fn chain_after(done: impl Into<String>, error: ChainError) -> CliError {
    CliError::chain(Framed::new(format!("{}; ", done.into()), error, ""))
}

/// `e` and its causes (each `source()` in turn) on one line, joined by ": ".
pub fn one_line(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        // An error that both shows its cause in its message and returns it
        // as its source (thiserror's `"...: {0}"` with `#[from]`, or
        // `"... ({0}); expected ..."`) gives the cause once; so does one
        // that shows it cut to one line of node text (a cause that quotes
        // what a node or a contract sent is never printed whole).
        let text = c.to_string();
        let cut = octoku_evm::limits::one_line(&text, octoku_evm::limits::NODE_TEXT);
        if !line.contains(&text) && !line.contains(&cut) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = c.source();
    }
    line
}

impl From<octoku_evm::EvmError> for CliError {
    fn from(e: octoku_evm::EvmError) -> Self {
        match e {
            // The author's creation code does not deploy, or deploys
            // nothing: bad input.
            octoku_evm::EvmError::Undeployable { .. } | octoku_evm::EvmError::NoRuntime { .. } => {
                CliError::input(e)
            }
            e => CliError::EvmCause(Box::new(e)),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Output(e)
    }
}

/// A chain error as a CLI error, kept whole with its causes: a malformed
/// key or a keystore that cannot be used is bad input (exit 2), a revert is
/// the contract saying no (exit 5), a fee above the ceiling is refused
/// before sending (exit 1), the rest are chain failures (exit 4).
pub fn chain_error(e: ChainError) -> CliError {
    let exit = match e {
        ChainError::Key(_) | ChainError::Keystore(_) => 2,
        ChainError::Reverted(_) => 5,
        ChainError::FeeAboveCeiling { .. } => 1,
        _ => 4,
    };
    CliError::Kept(Kept {
        exit,
        error: Box::new(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library error wrapped whole prints as one line: the error, then each cause.
    #[test]
    fn a_kept_error_prints_with_its_causes_on_one_line() {
        #[derive(Debug, thiserror::Error)]
        #[error("the proof")]
        struct Outer(#[source] std::io::Error);
        let e = CliError::EvmCause(Box::new(Outer(std::io::Error::other("the solver died"))));
        assert_eq!(one_line(&e), "the proof: the solver died");
        assert_eq!(e.exit_code(), 3);
        // Kept with another exit status: the same line.
        let kept = CliError::input(Outer(std::io::Error::other("bad file")));
        assert_eq!(one_line(&kept), "the proof: bad file");
        assert_eq!(kept.exit_code(), 2);
        // With what the CLI was doing first.
        let within = CliError::input_in("--size 19", Outer(std::io::Error::other("too big")));
        assert_eq!(one_line(&within), "--size 19: the proof: too big");
        assert_eq!(within.exit_code(), 2);
        let evm = CliError::evm_in("setup solver", std::io::Error::other("no python"));
        assert_eq!(one_line(&evm), "setup solver: no python");
        assert_eq!(evm.exit_code(), 3);
        // A message without causes is printed as it is.
        assert_eq!(one_line(&CliError::Input("bad".into())), "bad");
    }

    #[test]
    fn a_cause_the_message_already_shows_is_printed_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("replay in revm failed: {0}")]
        struct Shows(#[from] std::io::Error);
        let e = CliError::input(Shows(std::io::Error::other("out of gas")));
        assert_eq!(one_line(&e), "replay in revm failed: out of gas");
        // One that does not show it gets it appended.
        #[derive(Debug, thiserror::Error)]
        #[error("replay in revm failed")]
        struct Keeps(#[source] std::io::Error);
        let e = CliError::input(Keeps(std::io::Error::other("out of gas")));
        assert_eq!(one_line(&e), "replay in revm failed: out of gas");
    }

    /// A cause the message shows in its middle (`... ({0}); expected ...`)
    /// is not repeated at the end either.
    #[test]
    fn a_cause_inside_the_message_is_printed_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("keystore k.json: not JSON ({0}); expected a keystore")]
        struct Inside(#[source] std::io::Error);
        let e = CliError::input(Inside(std::io::Error::other("line 1")));
        assert_eq!(
            one_line(&e),
            "keystore k.json: not JSON (line 1); expected a keystore"
        );
    }

    /// A decoder's error that quotes a contract's data is shown cut to one
    /// line of node text by the chain error, and not again whole after it.
    #[test]
    fn a_cause_shown_cut_is_not_printed_whole() {
        let e = ChainError::Decode {
            what: "0x… answered puzzle() with data that does not decode".into(),
            source: alloy_sol_types::Error::Other("ab\ncd".repeat(500).into()),
        };
        let line = one_line(&chain_error(e));
        assert!(line.len() < 400, "{line}");
        assert!(!line.contains('\n'), "{line}");
        assert_eq!(line.matches("(2500 bytes in all)").count(), 1, "{line}");
    }

    /// A chain error reaches the line whole: its exit status by kind, its
    /// causes walked (the operating system's words once) and nothing made
    /// a string on the way.
    #[test]
    fn a_chain_error_keeps_its_causes_and_its_exit_status() {
        let path = std::path::Path::new("/nonexistent-octoku-dir/chain.json");
        let e = octoku_chain::state::ChainState::load(path).unwrap_err();
        let cli = chain_error(e);
        assert_eq!(cli.exit_code(), 4);
        let line = one_line(&cli);
        assert!(
            line.starts_with("cannot read the embedded chain /nonexistent-octoku-dir/chain.json: "),
            "{line}"
        );
        let os = std::io::Error::from(std::io::ErrorKind::NotFound).kind();
        let mut cause = std::error::Error::source(&cli);
        let mut found = false;
        while let Some(c) = cause {
            if let Some(io) = c.downcast_ref::<std::io::Error>() {
                assert_eq!(io.kind(), os);
                assert_eq!(line.matches(&io.to_string()).count(), 1, "{line}");
                found = true;
            }
            cause = c.source();
        }
        assert!(
            found,
            "the io::Error is reachable through source(): {cli:?}"
        );
        // A malformed key is bad input; a revert is the contract saying no.
        assert_eq!(
            chain_error(octoku_chain::PrivateKey::parse("0x12").unwrap_err()).exit_code(),
            2
        );
        let revert = ChainError::Reverted(octoku_chain::Revert(Default::default()));
        assert_eq!(chain_error(revert).exit_code(), 5);
    }
}

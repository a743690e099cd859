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
    /// The contract reverted: a transaction would revert (exit 5).
    #[error("{0}")]
    Reverted(String),
    /// The EVM or a proof failed: the library's error, kept whole so its
    /// causes (`source()`) are printed after it (exit 3).
    #[error(transparent)]
    EvmCause(Box<dyn std::error::Error + Send + Sync>),
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
            CliError::Reverted(_) => 5,
            CliError::Output(_) => 6,
            CliError::TimedOut(_) => 7,
        }
    }
}

/// `e` and its causes (each `source()` in turn) on one line, joined by ": ".
pub fn one_line(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        line.push_str(": ");
        line.push_str(&c.to_string());
        cause = c.source();
    }
    line
}

impl From<octoku_evm::EvmError> for CliError {
    fn from(e: octoku_evm::EvmError) -> Self {
        match e {
            // The author's creation code does not deploy: bad input.
            octoku_evm::EvmError::Undeployable { .. } => CliError::Input(e.to_string()),
            e => CliError::Evm(e.to_string()),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Output(e)
    }
}

/// A chain error as a CLI error: a malformed key is bad input (exit 2), a
/// revert is the contract saying no (exit 5), the rest are chain failures (exit 4).
pub fn chain_error(e: ChainError) -> CliError {
    match e {
        ChainError::Key(m) => CliError::Input(m),
        ChainError::Reverted(_) => CliError::Reverted(e.to_string()),
        ChainError::FeeAboveCeiling { .. } => CliError::Rejected(e.to_string()),
        other => CliError::Chain(other.to_string()),
    }
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
        // A message without causes is printed as it is.
        assert_eq!(one_line(&CliError::Input("bad".into())), "bad");
    }
}

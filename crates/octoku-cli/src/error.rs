//! Errors the CLI turns into one line on stderr and an exit status.

use std::fmt;

/// Why a command could not answer.
#[derive(Debug)]
pub enum CliError {
    /// An argument is malformed (exit 2).
    Input(String),
    /// The EVM or the mirror failed, or they disagree (exit 3).
    Evm(String),
    /// The contract refused: a transaction would revert (exit 1).
    Rejected(String),
    /// The chain failed: node unreachable, no code, no funds, state file (exit 4).
    Chain(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Evm(_) => 3,
            CliError::Rejected(_) => 1,
            CliError::Chain(_) => 4,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Evm(m) | CliError::Rejected(m) | CliError::Chain(m) => {
                f.write_str(m)
            }
        }
    }
}

impl From<octoku_evm::EvmError> for CliError {
    fn from(e: octoku_evm::EvmError) -> Self {
        CliError::Evm(e.to_string())
    }
}

//! Parsing of command-line values into core types, with one-line errors.

use octoku_core::{Address, Board, parse_address};

use crate::error::CliError;

/// Parses an address argument (20-byte hex, checksummed or not).
pub fn address(arg: &str) -> Result<Address, CliError> {
    parse_address(arg).map_err(|e| CliError::Input(e.to_string()))
}

/// Parses a board argument (0x hex, decimal, or 64 cells of 0-8 / '.'), naming the argument.
pub fn board(name: &str, arg: &str) -> Result<Board, CliError> {
    arg.parse()
        .map_err(|e| CliError::Input(format!("{name}: {e}")))
}

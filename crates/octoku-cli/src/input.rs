//! Parsing of command-line values into core types, with one-line errors.

use octoku_core::{Address, Board, parse_address};
use octoku_evm::Puzzle;

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

/// The puzzle implementations selectable with `--puzzle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PuzzleArg {
    /// The published algorithm (Curta puzzle #1).
    #[default]
    Reference,
    /// The golfed implementation: same outputs, a fraction of the gas.
    Golf,
    /// The fair puzzle: every board has a solution by construction.
    Fair,
}

impl From<PuzzleArg> for Puzzle {
    fn from(p: PuzzleArg) -> Puzzle {
        match p {
            PuzzleArg::Reference => Puzzle::Reference,
            PuzzleArg::Golf => Puzzle::Golf,
            PuzzleArg::Fair => Puzzle::Fair,
        }
    }
}

//! JSON output: each command's `--json` document is a struct deriving
//! `Serialize` (fields documented in docs/commands.md, "JSON output"), printed on
//! one line. Addresses are written checksummed (EIP-55), boards as `0x` and
//! 64 hex digits, transaction hashes as `0x` hex. A refused solution's
//! problems are written the same way by every command that checks one
//! (`reason` and `problems` in the library's verdicts in JSON,
//! [`print_problems`] as text).

use octoku_core::{Address, Board};
use serde::{Serialize, Serializer};

use crate::error::CliError;

/// How often the published `generate` hands out a board with no solution
/// (`octoku audit`: 0.339%), for the messages of `solve` and `play`.
pub const DEAD_END_SHARE: &str =
    "the published generate gives about 0.34% of addresses such a board";

/// How many problems the text output lists.
const SHOWN: usize = 12;

/// Prints `value` as one line of JSON on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::evm_in("cannot encode the JSON output", e))?;
    crate::outln!("{text}")?;
    Ok(())
}

/// An address as its EIP-55 checksummed spelling.
pub fn checksum<S: Serializer>(address: &Address, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(address)
}

/// [`checksum`] for an optional address (`null` when absent).
pub fn checksum_opt<S: Serializer>(address: &Option<Address>, s: S) -> Result<S::Ok, S::Error> {
    match address {
        Some(a) => s.collect_str(a),
        None => s.serialize_none(),
    }
}

/// A board as `0x` and 64 hex digits.
pub fn hex<S: Serializer>(board: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(board)
}

/// [`hex`] for an optional board (`null` when absent).
pub fn hex_opt<S: Serializer>(board: &Option<Board>, s: S) -> Result<S::Ok, S::Error> {
    match board {
        Some(b) => s.collect_str(b),
        None => s.serialize_none(),
    }
}

/// The text lines of a refused solution's problems: the first [`SHOWN`],
/// then how many more the JSON lists.
pub fn print_problems(problems: &[String]) -> Result<(), CliError> {
    for problem in problems.iter().take(SHOWN) {
        crate::outln!("  - {problem}")?;
    }
    if problems.len() > SHOWN {
        crate::outln!(
            "  ... and {} more (--json lists them all)",
            problems.len() - SHOWN
        )?;
    }
    Ok(())
}

/// A mined transaction: the same three fields wherever one is reported (the
/// chain's type, also used in the deployment records).
pub use octoku_chain::deployments::MinedTx as Tx;

/// `, fee ~0.0002352 ether` for a transaction that paid a fee; nothing on the
/// embedded chain, which charges none.
pub fn fee_part(fee: u128) -> String {
    if fee == 0 {
        String::new()
    } else {
        format!(", fee {}", octoku_chain::curta::fee_paid(fee))
    }
}

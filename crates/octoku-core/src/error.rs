//! Errors produced when parsing boards and addresses from text.
//!
//! Every error renders as one line that names the input kind, says what is
//! wrong, and says which forms are accepted.

use std::fmt;

/// What kind of value was being parsed when an error occurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A board: hex, decimal or grid text.
    Board,
    /// A 20-byte Ethereum address.
    Address,
}

impl Subject {
    /// The accepted input forms for this subject, as a human-readable phrase.
    pub const fn expected(self) -> &'static str {
        match self {
            Subject::Board => {
                "expected 0x followed by 1 to 64 hex digits, a decimal number below 2^256, \
                 or 64 cells of 0-8 or '.'"
            }
            Subject::Address => "expected 40 hex digits, optionally prefixed by 0x",
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Subject::Board => "board",
            Subject::Address => "address",
        })
    }
}

/// A reason why text could not be parsed as a board or an address.
///
/// Character positions are 1-based and count characters of the input after
/// surrounding whitespace has been trimmed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The input was empty (or only whitespace).
    #[error("{what} is empty; {}", what.expected())]
    Empty {
        /// What was being parsed.
        what: Subject,
    },
    /// The input was a bare `0x` prefix with no digits after it.
    #[error("{what} has no digits after `0x`; {}", what.expected())]
    NoHexDigits {
        /// What was being parsed.
        what: Subject,
    },
    /// A character after the `0x` prefix was not a hex digit.
    #[error(
        "{what}: `{}` at position {position} is not a hex digit; {}",
        found.escape_debug(),
        what.expected()
    )]
    BadHexDigit {
        /// What was being parsed.
        what: Subject,
        /// 1-based character position in the trimmed input.
        position: usize,
        /// The offending character.
        found: char,
    },
    /// More hex digits than fit in the value.
    #[error("{what}: {found} hex digits is too many (at most {max}); {}", what.expected())]
    TooLong {
        /// What was being parsed.
        what: Subject,
        /// Maximum number of digits allowed.
        max: usize,
        /// Number of digits found.
        found: usize,
    },
    /// A character that belongs to none of the accepted board forms.
    #[error(
        "{what}: `{}` at position {position} is not allowed; {}",
        found.escape_debug(),
        what.expected()
    )]
    BadCharacter {
        /// What was being parsed.
        what: Subject,
        /// 1-based character position in the trimmed input.
        position: usize,
        /// The offending character.
        found: char,
    },
    /// A decimal number that does not fit in 256 bits.
    #[error("{what}: decimal number is 2^256 or more; {}", what.expected())]
    Overflow {
        /// What was being parsed.
        what: Subject,
    },
    /// A grid cell holding something other than `0`-`8` or `.`.
    #[error(
        "board: grid cell {} (row {}, column {}) is `{}`; grid cells must be 0-8 or '.'",
        position + 1,
        position / 8 + 1,
        position % 8 + 1,
        found.escape_debug()
    )]
    BadGridCell {
        /// 0-based cell index in reading order (`8 * row + col`).
        position: usize,
        /// The offending character.
        found: char,
    },
    /// The input had the wrong number of digits or cells.
    #[error(
        "{what}: found {found} {unit} but exactly {expected} are needed; {}",
        what.expected()
    )]
    BadLength {
        /// What was being parsed.
        what: Subject,
        /// What is being counted ("hex digits", "grid cells").
        unit: &'static str,
        /// Number required.
        expected: usize,
        /// Number found.
        found: usize,
    },
    /// A mixed-case address whose capitalisation is not its EIP-55 checksum.
    #[error(
        "address `{found}`: mixed-case letters do not match the EIP-55 checksum; expected `{expected}`, or write it all in lower or all in upper case"
    )]
    BadChecksum {
        /// The address as written by the user.
        found: String,
        /// The correctly checksummed spelling of the same address.
        expected: String,
    },
}

/// Checks the hex digits of a `what` after a prefix of `offset` characters:
/// at least one, and each `0-9a-fA-F` (the first other one is named by its
/// 1-based position in the whole text).
pub(crate) fn check_hex_digits(
    digits: &str,
    what: Subject,
    offset: usize,
) -> Result<(), ParseError> {
    if digits.is_empty() {
        return Err(ParseError::NoHexDigits { what });
    }
    match digits
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        Some((i, found)) => Err(ParseError::BadHexDigit {
            what,
            position: offset + i + 1,
            found,
        }),
        None => Ok(()),
    }
}

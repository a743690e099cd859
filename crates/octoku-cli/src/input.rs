//! Parsing of command-line values into core types, with one-line errors.

use octoku_core::{Address, Board, parse_address};

use crate::error::CliError;

/// Parses an address argument (20-byte hex, checksummed or not).
pub fn address(arg: &str) -> Result<Address, CliError> {
    parse_address(arg).map_err(CliError::input)
}

/// Which of the board forms a text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BoardForm {
    /// `0x` and hex digits.
    Hex,
    /// Only decimal digits, not 64 of them.
    Decimal,
    /// 64 cells, possibly with separators.
    Grid,
}

impl BoardForm {
    fn of(text: &str) -> BoardForm {
        let t = text.trim();
        if t.starts_with("0x") || t.starts_with("0X") {
            BoardForm::Hex
        } else if !t.is_empty() && t.len() != 64 && t.bytes().all(|b| b.is_ascii_digit()) {
            BoardForm::Decimal
        } else {
            BoardForm::Grid
        }
    }

    fn name(self) -> &'static str {
        match self {
            BoardForm::Hex => "read as 0x hex",
            BoardForm::Decimal => "read as a decimal number",
            BoardForm::Grid => "read as a grid",
        }
    }
}

/// Grid typos this far from 64 cells are refused rather than read as decimal.
const NEAR_GRID: std::ops::RangeInclusive<usize> = 56..=72;

/// Parses a board argument (0x hex, decimal, or 64 cells of 0-8 / '.'),
/// naming the argument and the form it was read as in the error.
///
/// The forms do not overlap: a string of only the digits 0-8 whose length is
/// 56 to 72 but not 64 is refused (a grid with cells missing or extra, not
/// silently a decimal number); such a number must be written in 0x hex.
pub fn board(name: &str, arg: &str) -> Result<Board, CliError> {
    let form = BoardForm::of(arg);
    let t = arg.trim();
    if form == BoardForm::Decimal
        && NEAR_GRID.contains(&t.len())
        && t.bytes().all(|b| (b'0'..=b'8').contains(&b))
    {
        return Err(CliError::Input(format!(
            "{name}: {} digits 0-8: a grid must have exactly 64 cells (a decimal number that looks like a grid must be written in 0x hex)",
            t.len()
        )));
    }
    arg.parse::<Board>()
        .map_err(|e| CliError::input_in(format!("{name} ({})", form.name()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_with_one_cell_too_many_is_refused_not_read_as_a_number() {
        let e = board("SOLUTION", &"1".repeat(65)).unwrap_err().to_string();
        assert!(
            e.contains("65 digits 0-8: a grid must have exactly 64 cells"),
            "{e}"
        );
        assert!(board("S", &"1".repeat(64)).is_ok());
        // A genuine decimal board word (78 digits, or with a 9) still reads.
        let word = board("S", "0x1234").unwrap().to_u256().to_string();
        assert_eq!(board("S", &word).unwrap(), board("S", "0x1234").unwrap());
        assert!(board("S", &format!("9{}", "1".repeat(64))).is_ok());
    }

    #[test]
    fn errors_name_the_form_read() {
        let line = |arg: &str| crate::error::one_line(&board("START", arg).unwrap_err());
        let e = line("0x12g");
        assert!(e.starts_with("START (read as 0x hex): "), "{e}");
        let e = line(&"9".repeat(80));
        assert!(e.starts_with("START (read as a decimal number): "), "{e}");
        let e = line(&format!("{}9", "1".repeat(63)));
        assert!(e.starts_with("START (read as a grid): "), "{e}");
    }

    /// The parser's error is kept as the cause, not turned into text.
    #[test]
    fn a_board_that_does_not_parse_keeps_the_parser_s_error() {
        let e = board("START", "0x12g").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let mut cause = std::error::Error::source(&e);
        let mut found = false;
        while let Some(c) = cause {
            found |= c.is::<octoku_core::ParseError>();
            cause = c.source();
        }
        assert!(found, "{e:?}");
    }
}

//! Ethereum addresses: alloy's [`Address`], read by octoku's stricter rule.
//!
//! alloy's own `FromStr` accepts any mix of cases; [`parse_address`] accepts
//! all-lowercase and all-uppercase spellings as they are, and a mixed-case
//! spelling only when it is the EIP-55 checksum, with a one-line
//! [`ParseError`] for anything else.

pub use alloy_primitives::{Address, hex, keccak256};

use crate::error::{ParseError, Subject, check_hex_digits};

/// Parses 40 hex digits with an optional `0x`/`0X` prefix (surrounding
/// whitespace ignored).
///
/// All-lowercase and all-uppercase spellings are accepted as is; a mixed-case
/// spelling must match the EIP-55 checksum.
pub fn parse_address(s: &str) -> Result<Address, ParseError> {
    const WHAT: Subject = Subject::Address;
    let s = s.trim();
    if s.is_empty() {
        return Err(ParseError::Empty { what: WHAT });
    }
    let (digits, offset) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(rest) => (rest, 2),
        None => (s, 0),
    };
    check_hex_digits(digits, WHAT, offset)?;
    // Every character is now an ASCII hex digit, so bytes == chars.
    if digits.len() != 40 {
        return Err(ParseError::BadLength {
            what: WHAT,
            unit: "hex digits",
            expected: 40,
            found: digits.len(),
        });
    }
    let mut bytes = [0u8; 20];
    hex::decode_to_slice(digits, &mut bytes).map_err(|_| ParseError::NoHexDigits { what: WHAT })?;
    let address = Address::new(bytes);
    let has_lower = digits.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = digits.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper {
        let expected = address.to_checksum(None);
        if expected[2..] != *digits {
            return Err(ParseError::BadChecksum {
                found: s.to_owned(),
                expected,
            });
        }
    }
    Ok(address)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Result<Address, ParseError> {
        parse_address(s)
    }

    #[test]
    fn eip55_examples_round_trip() {
        // Examples from the EIP-55 specification.
        for s in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
            "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        ] {
            let a = parse(s).unwrap();
            assert_eq!(a.to_checksum(None), s);
            assert_eq!(a.to_string(), s);
        }
    }

    #[test]
    fn all_lower_all_upper_and_no_prefix_are_accepted() {
        let want = parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").unwrap();
        assert_eq!(
            parse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").unwrap(),
            want
        );
        assert_eq!(
            parse("0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED").unwrap(),
            want
        );
        assert_eq!(
            parse(" 5aaeb6053f3e94c9b9a09f33669435e7ef1beaed\n").unwrap(),
            want
        );
    }

    #[test]
    fn bad_checksum_is_rejected_and_names_the_right_spelling() {
        let err = parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").unwrap_err();
        assert_eq!(
            err,
            ParseError::BadChecksum {
                found: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD".into(),
                expected: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into(),
            }
        );
        assert!(err.to_string().contains("EIP-55"));
        // alloy's own parser takes the same text: the stricter rule is ours.
        assert!(
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"
                .parse::<Address>()
                .is_ok()
        );
    }

    #[test]
    fn nineteen_bytes_are_rejected() {
        assert_eq!(
            parse(&format!("0x{}", "ab".repeat(19))),
            Err(ParseError::BadLength {
                what: Subject::Address,
                unit: "hex digits",
                expected: 40,
                found: 38
            })
        );
    }

    #[test]
    fn twenty_one_bytes_are_rejected() {
        assert!(matches!(
            parse(&"ab".repeat(21)),
            Err(ParseError::BadLength { found: 42, .. })
        ));
    }

    #[test]
    fn empty_prefix_only_and_non_hex_are_rejected() {
        assert_eq!(
            parse(""),
            Err(ParseError::Empty {
                what: Subject::Address
            })
        );
        assert_eq!(
            parse("0x"),
            Err(ParseError::NoHexDigits {
                what: Subject::Address
            })
        );
        assert_eq!(
            parse(&format!("0x{}z", "0".repeat(39))),
            Err(ParseError::BadHexDigit {
                what: Subject::Address,
                position: 42,
                found: 'z'
            })
        );
    }

    proptest! {
        #[test]
        fn checksum_lower_and_upper_forms_round_trip(bytes in any::<[u8; 20]>()) {
            let a = Address::new(bytes);
            let lower = format!("0x{}", hex::encode(a));
            prop_assert_eq!(parse(&a.to_checksum(None)).unwrap(), a);
            prop_assert_eq!(parse(&lower).unwrap(), a);
            prop_assert_eq!(parse(&lower.to_uppercase()).unwrap(), a);
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,60}") {
            let _ = parse(&s);
        }
    }
}

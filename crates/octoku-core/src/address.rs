//! 20-byte Ethereum addresses with EIP-55 checksum parsing and printing.

use std::fmt;
use std::str::FromStr;

use tiny_keccak::{Hasher, Keccak};

use crate::error::{ParseError, Subject};

/// Returns the Keccak-256 hash of `data` (the EVM's `keccak256`).
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    let mut hasher = Keccak::v256();
    hasher.update(data);
    let mut out = [0u8; 32];
    hasher.finalize(&mut out);
    out
}

/// A 20-byte Ethereum address.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Address(pub [u8; 20]);

impl Address {
    /// The all-zero address.
    pub const ZERO: Address = Address([0; 20]);

    /// Wraps 20 raw bytes as an address.
    pub const fn new(bytes: [u8; 20]) -> Address {
        Address(bytes)
    }

    /// Returns the 20 raw bytes.
    pub const fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }

    /// Builds an address from a slice, or `None` unless it is exactly 20 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Option<Address> {
        <[u8; 20]>::try_from(bytes).ok().map(Address)
    }

    /// Formats as `0x` followed by 40 lowercase hex digits.
    pub fn to_lower_hex(&self) -> String {
        let mut s = String::with_capacity(42);
        s.push_str("0x");
        for b in self.0 {
            s.push_str(&format!("{b:02x}"));
        }
        s
    }

    /// Formats with the EIP-55 mixed-case checksum, prefixed by `0x`.
    ///
    /// A letter is upper case exactly when the matching nibble of
    /// `keccak256(lowercase hex without 0x)` is 8 or more.
    pub fn to_checksum(&self) -> String {
        let lower = self.to_lower_hex();
        let digits = &lower[2..];
        let hash = keccak256(digits.as_bytes());
        let mut out = String::with_capacity(42);
        out.push_str("0x");
        for (i, c) in digits.chars().enumerate() {
            let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0xF;
            out.push(if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        out
    }
}

impl From<[u8; 20]> for Address {
    fn from(bytes: [u8; 20]) -> Address {
        Address(bytes)
    }
}

impl From<Address> for [u8; 20] {
    fn from(a: Address) -> [u8; 20] {
        a.0
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_checksum())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({})", self.to_checksum())
    }
}

impl FromStr for Address {
    type Err = ParseError;

    /// Parses 40 hex digits with an optional `0x`/`0X` prefix.
    ///
    /// All-lowercase and all-uppercase spellings are accepted as is; a
    /// mixed-case spelling must match the EIP-55 checksum.
    fn from_str(s: &str) -> Result<Address, ParseError> {
        const WHAT: Subject = Subject::Address;
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseError::Empty { what: WHAT });
        }
        let (digits, offset) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(rest) => (rest, 2),
            None => (s, 0),
        };
        if digits.is_empty() {
            return Err(ParseError::NoHexDigits { what: WHAT });
        }
        if let Some((i, found)) = digits
            .chars()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_hexdigit())
        {
            return Err(ParseError::BadHexDigit {
                what: WHAT,
                position: offset + i + 1,
                found,
            });
        }
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
        for (byte, pair) in bytes.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
            *byte = (hex_value(pair[0]) << 4) | hex_value(pair[1]);
        }
        let address = Address(bytes);
        let has_lower = digits.bytes().any(|b| b.is_ascii_lowercase());
        let has_upper = digits.bytes().any(|b| b.is_ascii_uppercase());
        if has_lower && has_upper {
            let expected = address.to_checksum();
            if expected[2..] != *digits {
                return Err(ParseError::BadChecksum {
                    found: s.to_owned(),
                    expected,
                });
            }
        }
        Ok(address)
    }
}

/// The value of one ASCII hex digit (already validated).
fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Result<Address, ParseError> {
        s.parse()
    }

    #[test]
    fn keccak_of_empty_input_matches_known_hash() {
        let h = keccak256(b"");
        assert_eq!(h[..4], [0xc5, 0xd2, 0x46, 0x01]);
        assert_eq!(h[28..], [0x5d, 0x85, 0xa4, 0x70]);
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
            assert_eq!(a.to_checksum(), s);
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

    #[test]
    fn from_slice_requires_twenty_bytes() {
        assert_eq!(Address::from_slice(&[1; 20]), Some(Address([1; 20])));
        assert_eq!(Address::from_slice(&[1; 19]), None);
        assert_eq!(Address::from([7; 20]).as_bytes(), &[7; 20]);
    }

    proptest! {
        #[test]
        fn checksum_lower_and_upper_forms_round_trip(bytes in any::<[u8; 20]>()) {
            let a = Address(bytes);
            prop_assert_eq!(parse(&a.to_checksum()).unwrap(), a);
            prop_assert_eq!(parse(&a.to_lower_hex()).unwrap(), a);
            prop_assert_eq!(parse(&a.to_lower_hex().to_uppercase()).unwrap(), a);
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,60}") {
            let _ = parse(&s);
        }
    }
}

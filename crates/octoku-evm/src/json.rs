//! How the typed results write boards and addresses in JSON: as their
//! `Display` text (a board as `0x` and 64 hex digits, an address checksummed).

use serde::Serializer;

/// A value as its `Display` text.
pub(crate) fn shown<T: std::fmt::Display, S: Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// [`shown`], or `null`.
pub(crate) fn shown_opt<T: std::fmt::Display, S: Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// Bytes as `0x` and two hex digits each.
pub(crate) fn hex_bytes<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&alloy_primitives::hex::encode_prefixed(bytes))
}

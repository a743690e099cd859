//! What the CLI test files share.

use serde_json::Value;

/// Fails unless `value` is an object with exactly these keys (the fields
/// README.md documents for the command, under "JSON output").
pub fn assert_keys(value: &Value, keys: &[&str]) {
    let mut got: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = keys.to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "{value}");
}

//! What the CLI test files share.

use serde_json::Value;

/// Fails unless `value` is an object with exactly these keys (the fields
/// README.md documents for the command, under "JSON output").
#[allow(dead_code)] // Not every test file uses every helper.
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

/// A finished octoku run, for failure messages: status, stdout, stderr.
#[allow(dead_code)] // Not every test file uses every helper.
pub fn text(out: &std::process::Output) -> String {
    format!(
        "status {:?}\nstdout {}\nstderr {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Fails unless the run exited with `code`, showing its output.
#[allow(dead_code)] // Not every test file uses every helper.
pub fn assert_exit(out: &std::process::Output, code: i32) {
    assert_eq!(out.status.code(), Some(code), "{}", text(out));
}

//! The checked-in gas snapshot (`gas-snapshot.txt` at the repository root):
//! gas is deterministic, so any change to a contract's cost fails here, row
//! by row (changed, added, removed rows, each named by its key), until the
//! snapshot is updated on purpose with `make gas-snapshot` (which sets
//! `OCTOKU_UPDATE_GAS_SNAPSHOT=1`).

use std::path::PathBuf;

use octoku_evm::gas::{SNAPSHOT_RUNS, SNAPSHOT_SEED, report};

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../gas-snapshot.txt")
}

/// The rows of a snapshot table, in order, each with its key: contract,
/// function and case for a call row; `deploy` and the contract for a
/// deployment row. Header and blank lines are not rows.
fn rows(text: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    let mut deployments = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            ["contract", "deploy", ..] => deployments = true,
            ["contract", ..] => deployments = false,
            [contract, ..] if deployments => out.push((format!("deploy {contract}"), line)),
            [contract, function, case, ..] => {
                out.push((format!("{contract} {function} {case}"), line));
            }
            _ => out.push((line.trim().to_string(), line)),
        }
    }
    out
}

/// What differs between two snapshots, by row key; empty when the rows agree.
fn diff(saved: &str, current: &str) -> String {
    let (old, new) = (rows(saved), rows(current));
    let find = |rows: &[(String, &str)], key: &str| {
        rows.iter()
            .find(|(k, _)| k == key)
            .map(|&(_, line)| line.to_string())
    };
    let mut changed = String::new();
    let mut added = String::new();
    let mut removed = String::new();
    for (key, line) in &new {
        match find(&old, key) {
            Some(was) if was.split_whitespace().eq(line.split_whitespace()) => {}
            Some(was) => changed.push_str(&format!("  {key}\n    - {was}\n    + {line}\n")),
            None => added.push_str(&format!("  + {line}\n")),
        }
    }
    for (key, line) in &old {
        if find(&new, key).is_none() {
            removed.push_str(&format!("  - {line}\n"));
        }
    }
    let mut out = String::new();
    for (title, body) in [("changed", changed), ("added", added), ("removed", removed)] {
        if !body.is_empty() {
            out.push_str(&format!("{title}:\n{body}"));
        }
    }
    out
}

#[test]
fn gas_matches_the_checked_in_snapshot() {
    let current = report(SNAPSHOT_RUNS, SNAPSHOT_SEED)
        .expect("report")
        .table();
    let path = snapshot_path();
    if std::env::var_os("OCTOKU_UPDATE_GAS_SNAPSHOT").is_some() {
        std::fs::write(&path, &current).expect("write snapshot");
        return;
    }
    let saved = std::fs::read_to_string(&path).unwrap_or_default();
    let changes = diff(&saved, &current);
    assert!(
        changes.is_empty(),
        "gas changed against {} (run `make gas-snapshot` to accept):\n{changes}",
        path.display()
    );
    // Same rows, same figures: the layout must match too.
    assert_eq!(
        saved,
        current,
        "{} is laid out differently from `octoku gas` (run `make gas-snapshot`)",
        path.display()
    );
}

const SAMPLE: &str = "\
contract   function  case                min  median     max    vs ref
reference  generate  random-address     2927    2927    3351    1.0000
golf       generate  random-address      610     610     934    0.2084
golf       verify    valid               829     829     829    0.0209

contract   deploy gas runtime bytes
reference      227492           807
golf           241078           868
";

#[test]
fn an_inserted_row_marks_only_itself() {
    let inserted = SAMPLE.replace(
        "golf       generate",
        "fair       generate  random-address     1730    1730    2491    0.5910\ngolf       generate",
    );
    assert_eq!(
        diff(SAMPLE, &inserted),
        "added:\n  + fair       generate  random-address     1730    1730    2491    0.5910\n"
    );
}

#[test]
fn changed_and_removed_rows_are_named_by_their_key() {
    let edited = SAMPLE
        .replace("829     829     829", "830     830     830")
        .replace("golf           241078           868\n", "");
    assert_eq!(
        diff(SAMPLE, &edited),
        "changed:\n  golf verify valid\n    - golf       verify    valid               829     829     829    0.0209\n    + golf       verify    valid               830     830     830    0.0209\n\
         removed:\n  - golf           241078           868\n"
    );
    assert_eq!(diff(SAMPLE, SAMPLE), "");
}

//! The checked-in gas snapshot (`gas-snapshot.txt` at the repository root):
//! gas is deterministic, so any change to a contract's cost fails here with a
//! line diff until the snapshot is updated on purpose with `make gas-snapshot`
//! (which sets `OCTOKU_UPDATE_GAS_SNAPSHOT=1`).

use std::path::PathBuf;

use octoku_evm::gas::{SNAPSHOT_RUNS, SNAPSHOT_SEED, report};

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../gas-snapshot.txt")
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
    if saved == current {
        return;
    }
    let mut diff = String::new();
    let (old, new): (Vec<&str>, Vec<&str>) = (saved.lines().collect(), current.lines().collect());
    for i in 0..old.len().max(new.len()) {
        match (old.get(i), new.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                if let Some(a) = a {
                    diff.push_str(&format!("- {a}\n"));
                }
                if let Some(b) = b {
                    diff.push_str(&format!("+ {b}\n"));
                }
            }
        }
    }
    panic!(
        "gas changed against {} (run `make gas-snapshot` to accept):\n{diff}",
        path.display()
    );
}

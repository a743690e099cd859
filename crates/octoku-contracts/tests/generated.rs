//! octoku-evm's committed contract files are exactly what `contracts/`
//! compiles to with the pinned solc and foundry.toml's settings.

use octoku_contracts::{GENERATED_DIR, Generated, generate, repo_root, stale};

#[test]
fn the_committed_generated_files_are_what_contracts_compile_to() {
    let root = repo_root().expect("repository root");
    let files = generate(&root).unwrap_or_else(|e| panic!("compiling contracts/: {e}"));
    let names: Vec<&str> = files.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        ["artifacts.rs", "interfaces.rs", "classic9_interface.rs"]
    );
    let stale = stale(&root, &files);
    assert!(
        stale.is_empty(),
        "{GENERATED_DIR}: {stale:?} differ from contracts/ compiled with the pinned solc: run `make contracts`"
    );
}

#[test]
fn a_changed_byte_is_found() {
    // The comparison can fail: one byte changed in a copy of the files.
    let root = repo_root().expect("repository root");
    let dir = tempfile_dir();
    let generated = dir.join(GENERATED_DIR);
    std::fs::create_dir_all(&generated).unwrap();
    let mut files = Vec::new();
    for name in ["artifacts.rs", "interfaces.rs", "classic9_interface.rs"] {
        let text = std::fs::read_to_string(root.join(GENERATED_DIR).join(name)).unwrap();
        std::fs::write(generated.join(name), &text).unwrap();
        files.push(Generated { name, text });
    }
    assert!(stale(&dir, &files).is_empty());
    let mut changed = files[0].text.clone().into_bytes();
    let at = changed.len() / 2;
    changed[at] = if changed[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(generated.join("artifacts.rs"), changed).unwrap();
    assert_eq!(stale(&dir, &files), ["artifacts.rs"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh directory below the target directory.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("generated-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

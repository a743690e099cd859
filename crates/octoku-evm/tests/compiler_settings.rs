//! foundry.toml is the one source of the compiler settings: the bytecode this
//! crate embeds was compiled with exactly its settings (solc's own metadata
//! says so), and is byte for byte what `forge build` makes of the same
//! sources with the same file.

use std::{path::PathBuf, process::Command};

use octoku_evm::{Artifact, Puzzle, artifacts};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// foundry.toml's `[profile.default]`.
fn foundry_profile() -> toml::Table {
    let text = std::fs::read_to_string(root().join("foundry.toml")).expect("read foundry.toml");
    let mut file: toml::Table = text.parse().expect("foundry.toml parses");
    let Some(toml::Value::Table(mut profiles)) = file.remove("profile") else {
        panic!("foundry.toml has no [profile] tables");
    };
    match profiles.remove("default") {
        Some(toml::Value::Table(default)) => default,
        _ => panic!("foundry.toml has no [profile.default]"),
    }
}

#[test]
fn embedded_bytecode_was_compiled_with_the_settings_of_foundry_toml() {
    let profile = foundry_profile();
    let metadata: Value = serde_json::from_str(artifacts::METADATA).expect("solc metadata");
    let settings = &metadata["settings"];
    let toml_bool = |key: &str| profile[key].as_bool().unwrap_or_else(|| panic!("{key}"));
    let toml_str = |key: &str| profile[key].as_str().unwrap_or_else(|| panic!("{key}"));
    assert_eq!(
        settings["optimizer"]["enabled"].as_bool(),
        Some(toml_bool("optimizer"))
    );
    assert_eq!(
        settings["optimizer"]["runs"].as_i64(),
        profile["optimizer_runs"].as_integer()
    );
    assert_eq!(
        settings["evmVersion"].as_str(),
        Some(toml_str("evm_version"))
    );
    // solc leaves out settings at their defaults (ipfs, CBOR appended).
    assert_eq!(
        settings["metadata"]["bytecodeHash"]
            .as_str()
            .unwrap_or("ipfs"),
        toml_str("bytecode_hash")
    );
    assert_eq!(
        settings["metadata"]["appendCBOR"].as_bool().unwrap_or(true),
        toml_bool("cbor_metadata")
    );
}

/// Every contract the crate embeds.
fn embedded() -> Vec<Artifact> {
    let mut all: Vec<Artifact> = Puzzle::ALL
        .iter()
        .flat_map(|p| [p.artifact(), p.harness_artifact()])
        .collect();
    all.push(artifacts::ARENA);
    all
}

/// `0x` hex of the bytecode in a forge artifact, as bytes.
fn forge_bytes(artifact: &Value, key: &str) -> Vec<u8> {
    let hex = artifact[key]["object"].as_str().expect("forge bytecode");
    octoku_core::hex::decode(hex).expect("forge bytecode is hex")
}

#[test]
fn embedded_bytecode_equals_forge_build() {
    let root = root();
    let forge = root.join("node_modules/.bin/forge");
    let out = Command::new(&forge)
        .arg("build")
        .current_dir(&root)
        .output()
        .unwrap_or_else(|e| panic!("run {} (make setup installs it): {e}", forge.display()));
    assert!(
        out.status.success(),
        "forge build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for artifact in embedded() {
        let file = std::path::Path::new(artifact.source)
            .file_name()
            .expect("source file name");
        let path = root
            .join("target/forge/out")
            .join(file)
            .join(format!("{}.json", artifact.name));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).expect("forge artifact parses");
        assert_eq!(
            forge_bytes(&json, "deployedBytecode"),
            artifact.runtime,
            "{}: runtime differs from forge's",
            artifact.name
        );
        assert_eq!(
            forge_bytes(&json, "bytecode"),
            artifact.initcode,
            "{}: creation code differs from forge's",
            artifact.name
        );
    }
}

//! Bytecode of the contracts, compiled with the pinned solc into
//! `src/generated/` by crates/octoku-contracts (`make contracts`).

/// One compiled contract.
#[derive(Debug, Clone, Copy)]
pub struct Artifact {
    /// Contract name in its source file.
    pub name: &'static str,
    /// Source path below the repository root.
    pub source: &'static str,
    /// Creation code (constructor and runtime).
    pub initcode: &'static [u8],
    /// Runtime code, as deployed.
    pub runtime: &'static [u8],
    /// solc's compressed source map of the runtime code.
    pub source_map: &'static str,
}

include!("generated/artifacts.rs");

//! Compiles `contracts/` with the pinned solc (solc-js behind `tools/solc`,
//! installed by `make setup`) through foundry-compilers into the files
//! octoku-evm embeds, [`GENERATED_DIR`]: the contracts' bytecode, source
//! maps and metadata, the source texts the maps point into, and the
//! interfaces its `sol!` bindings are made from. They are committed, so
//! octoku-evm builds from its `.crate` alone with no Node or solc; `make
//! contracts` rewrites them and this crate's test fails if any byte differs
//! from what the sources compile to. The compiler settings are read from
//! `foundry.toml`, the one place they are set (forge reads the same file).
//! Set `OCTOKU_SOLC` to use another solc-compatible executable.
//!
//! To embed another contract, add one line to [`WANTED`] and run `make
//! contracts`.

use std::{
    collections::BTreeMap,
    env,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use serde::Deserialize;

use foundry_compilers::{
    artifacts::{
        BytecodeHash, CompilerOutput, EvmVersion, Optimizer, Settings, SettingsMetadata, SolcInput,
        SolcLanguage, Source, Sources, output_selection::OutputSelection,
    },
    solc::Solc,
};

/// Contracts the crate embeds: (source path below the repo root, contract name, Rust const).
/// LoopPuzzle, LoopPuzzleSlip and GolfAuthor are test fixtures: an IPuzzle of the author's kind (plain
/// loops), the same with one slip, made from it here (see DERIVED), for the
/// tests of --artifact, --bytecode, check, fuzz and prove; and an author's
/// copy of OctokuGolf with one more function (the same fill at other program
/// counters, for `prove generate --all`). The last two are the Curta Golf
/// courses (contracts/golf/, for `octoku golf`).
#[rustfmt::skip]
pub const WANTED: &[(&str, &str, &str)] = &[
    ("contracts/Reference.sol",                  "OctokuReference",   "REFERENCE"),
    ("contracts/harness/ReferenceHarness.sol",   "ReferenceHarness",  "REFERENCE_HARNESS"),
    ("contracts/Golf.sol",                       "OctokuGolf",        "GOLF"),
    ("contracts/harness/GolfHarness.sol",        "GolfHarness",       "GOLF_HARNESS"),
    ("contracts/Fair.sol",                       "OctokuFair",        "FAIR"),
    ("contracts/harness/FairHarness.sol",        "FairHarness",       "FAIR_HARNESS"),
    ("contracts/Arena.sol",                      "OctokuArena",       "ARENA"),
    ("contracts/classic9/Classic9Reference.sol", "Classic9Reference", "CLASSIC9_REFERENCE"),
    ("contracts/classic9/Classic9Golf.sol",      "Classic9Golf",      "CLASSIC9_GOLF"),
    ("contracts/harness/LoopPuzzle.sol",         "LoopPuzzle",        "LOOP_PUZZLE"),
    ("contracts/harness/LoopPuzzleSlip.sol",     "LoopPuzzleSlip",    "LOOP_PUZZLE_SLIP"),
    ("contracts/harness/GolfAuthor.sol",         "GolfAuthor",        "GOLF_AUTHOR"),
    ("contracts/golf/VerifyCourse.sol",          "VerifyCourse",      "VERIFY_COURSE"),
    ("contracts/golf/Classic9Course.sol",        "Classic9Course",    "CLASSIC9_COURSE"),
];

/// A test fixture written from another contract's source when the crate is
/// built, so that a copy with a small change is not kept twice.
struct Derived {
    /// The path it is compiled as (its imports resolve from there).
    path: &'static str,
    /// The source it is made from.
    from: &'static str,
    /// Text patches `(text, replacement)`; each text stands exactly once
    /// in the source.
    patches: &'static [(&'static str, &'static str)],
}

const DERIVED: &[Derived] = &[Derived {
    path: "contracts/harness/LoopPuzzleSlip.sol",
    from: "contracts/harness/LoopPuzzle.sol",
    patches: &[
        ("contract LoopPuzzle is", "contract LoopPuzzleSlip is"),
        // The slip: the last cell (nibble 63, the top-left) is never compared
        // with the solution. Random words almost never reach it (their units
        // fail first); a valid grid with one wrong given there does.
        ("cell < 64; cell++", "cell < 63; cell++"),
    ],
}];

/// The compiler settings of `foundry.toml`'s `[profile.default]` (the keys
/// this build passes to solc; forge reads the rest).
#[derive(Debug, Deserialize)]
struct CompilerSettings {
    optimizer: bool,
    optimizer_runs: usize,
    evm_version: String,
    bytecode_hash: String,
    cbor_metadata: bool,
}

/// `foundry.toml`, as far as this build reads it.
#[derive(Debug, Deserialize)]
struct FoundryToml {
    profile: BTreeMap<String, CompilerSettings>,
}

/// Reads the compiler settings from `foundry.toml`'s default profile.
fn foundry_settings(path: &Path) -> Result<CompilerSettings, BuildError> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut file: FoundryToml = toml::from_str(&text).map_err(|e| {
        format!(
            "{}: expected [profile.default] with optimizer, optimizer_runs, evm_version, bytecode_hash and cbor_metadata: {e}",
            path.display()
        )
    })?;
    file.profile
        .remove("default")
        .ok_or_else(|| format!("{} has no [profile.default]", path.display()).into())
}

/// Interfaces the crate's `sol!` bindings are generated from.
const INTERFACES: &[&str] = &[
    "contracts/IPuzzle.sol",
    "contracts/IArena.sol",
    "contracts/golf/ICourse.sol",
];

/// The 9×9 validators' interface: its Rust binding is octoku-core's (the
/// pure mirror decodes calls with it); generated here only for the test
/// that holds that binding to this file.
const CLASSIC9_INTERFACE: &str = "contracts/classic9/IClassic9.sol";

/// Why the contracts could not be compiled: one readable line (`String` and
/// every library error convert into it with `?`).
pub type BuildError = Box<dyn std::error::Error>;

/// Where the generated files go, below the repository root.
pub const GENERATED_DIR: &str = "crates/octoku-evm/src/generated";

/// The first line of every generated file.
const HEADER: &str =
    "// Generated from contracts/ by crates/octoku-contracts (`make contracts`): do not edit.\n";

/// The repository root (this crate sits in `crates/octoku-contracts`).
pub fn repo_root() -> Result<PathBuf, BuildError> {
    Ok(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .map_err(|e| format!("cannot find the repository root: {e}"))?)
}

/// One generated file: its name in [`GENERATED_DIR`] and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// File name.
    pub name: &'static str,
    /// Contents.
    pub text: String,
}

/// Compiles `contracts/` below `root` and renders the files of
/// [`GENERATED_DIR`].
pub fn generate(root: &Path) -> Result<Vec<Generated>, BuildError> {
    let contracts = root.join("contracts");
    let foundry_toml = root.join("foundry.toml");
    let wanted = foundry_settings(&foundry_toml)?;
    let solc = solc_adapter(root)?;

    let mut sources = Sources::new();
    collect_sources(root, &contracts, &mut sources)?;
    for fixture in DERIVED {
        let text = derive(&sources, fixture)?;
        sources.insert(PathBuf::from(fixture.path), Source::new(text));
    }

    let input = SolcInput::new(SolcLanguage::Solidity, sources.clone(), settings(&wanted)?);
    let output = compile(&solc, &input)?;
    let mut files = vec![Generated {
        name: "artifacts.rs",
        text: artifacts_rs(&output, &sources)?,
    }];
    files.extend(interfaces(&sources)?);
    Ok(files)
}

/// The solc adapter (`OCTOKU_SOLC`, else tools/solc over solc-js).
fn solc_adapter(root: &Path) -> Result<Solc, BuildError> {
    let solc_path = match env::var_os("OCTOKU_SOLC") {
        Some(path) => PathBuf::from(path),
        None => root.join("tools/solc"),
    };
    if !root.join("node_modules/solc").exists() && env::var_os("OCTOKU_SOLC").is_none() {
        return Err(
            "solc-js is not installed: run `make setup` in the repository root first".into(),
        );
    }
    Ok(Solc::new(&solc_path)
        .map_err(|e| format!("cannot run the solc adapter {}: {e}", solc_path.display()))?)
}

/// solc's settings from foundry.toml's, with the outputs the artifacts need.
fn settings(wanted: &CompilerSettings) -> Result<Settings, BuildError> {
    let evm_version: EvmVersion = wanted
        .evm_version
        .parse()
        .map_err(|e| format!("foundry.toml evm_version: {e}"))?;
    let bytecode_hash: BytecodeHash = wanted
        .bytecode_hash
        .parse()
        .map_err(|e| format!("foundry.toml bytecode_hash: {e}"))?;
    let outputs = [
        "evm.bytecode.object",
        "evm.deployedBytecode.object",
        "evm.deployedBytecode.sourceMap",
        "metadata",
    ];
    let mut per_contract = BTreeMap::new();
    per_contract.insert(
        "*".to_string(),
        outputs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    );
    let mut selection = BTreeMap::new();
    selection.insert("*".to_string(), per_contract);
    Ok(Settings {
        optimizer: Optimizer {
            enabled: Some(wanted.optimizer),
            runs: Some(wanted.optimizer_runs),
            details: None,
        },
        evm_version: Some(evm_version),
        metadata: Some(SettingsMetadata::new(bytecode_hash, wanted.cbor_metadata)),
        output_selection: OutputSelection::from(selection),
        ..Settings::default()
    })
}

/// solc's output for `input`; an error lists the compiler's errors.
fn compile(solc: &Solc, input: &SolcInput) -> Result<CompilerOutput, BuildError> {
    let output = solc
        .compile_exact(input)
        .map_err(|e| format!("solc failed: {e}"))?;
    if output.has_error() {
        let errors: Vec<String> = output
            .errors
            .iter()
            .filter(|e| e.severity.is_error())
            .map(|e| {
                e.formatted_message
                    .clone()
                    .unwrap_or_else(|| e.message.clone())
            })
            .collect();
        return Err(format!("compilation failed:\n{}", errors.join("\n")).into());
    }
    Ok(output)
}

/// src/artifacts.rs: every contract of [`WANTED`], solc's metadata and the
/// source texts by source id.
fn artifacts_rs(output: &CompilerOutput, sources: &Sources) -> Result<String, BuildError> {
    let mut ids: Vec<(u32, String)> = output
        .sources
        .iter()
        .map(|(path, file)| (file.id, path.display().to_string()))
        .collect();
    ids.sort();

    let mut code = String::from(HEADER);
    let mut metadata = String::new();
    for (file, name, konst) in WANTED {
        let contract = output
            .contracts
            .get(Path::new(file))
            .and_then(|c| c.get(*name))
            .ok_or_else(|| format!("{file} has no contract {name}"))?;
        if metadata.is_empty() {
            metadata = contract
                .metadata
                .as_ref()
                .map(|m| m.raw_metadata.clone())
                .ok_or_else(|| format!("{name}: solc returned no metadata"))?;
        }
        let evm = contract.evm.as_ref().ok_or("solc returned no evm output")?;
        let init = evm
            .bytecode
            .as_ref()
            .and_then(|b| b.object.as_bytes())
            .ok_or_else(|| format!("{name}: no creation bytecode"))?;
        let deployed = evm
            .deployed_bytecode
            .as_ref()
            .and_then(|d| d.bytecode.as_ref());
        let runtime = deployed
            .and_then(|b| b.object.as_bytes())
            .ok_or_else(|| format!("{name}: no runtime bytecode"))?;
        let source_map = deployed
            .and_then(|b| b.source_map.clone())
            .unwrap_or_default();
        writeln!(
            code,
            "/// `{name}` from `{file}`.\npub const {konst}: Artifact = Artifact {{\n    name: {name:?},\n    source: {file:?},\n    initcode: &alloy_primitives::hex!(\"{init}\"),\n    runtime: &alloy_primitives::hex!(\"{runtime}\"),\n    source_map: {source_map:?},\n}};",
            init = hex(init.as_ref()),
            runtime = hex(runtime.as_ref()),
        )
        .map_err(|e| e.to_string())?;
    }
    // Source texts by solc source id (ids are dense from 0), for source maps.
    let texts: Vec<(&str, String)> = ids
        .iter()
        .map(|(_, path)| {
            let text = sources
                .get(Path::new(path))
                .map(|s| s.content.to_string())
                .unwrap_or_default();
            (path.as_str(), text)
        })
        .collect();
    writeln!(code, "/// solc's metadata of the first contract: the settings it compiled with.\npub const METADATA: &str = {metadata:?};")
        .map_err(|e| e.to_string())?;
    writeln!(code, "/// Source files `(path, text)` by solc source id, for reading source maps.\npub const SOURCES: &[(&str, &str)] = &{texts:?};")
        .map_err(|e| e.to_string())?;
    Ok(code)
}

/// src/interfaces.rs (every interface in one `sol!`) and
/// src/classic9_interface.rs.
fn interfaces(sources: &Sources) -> Result<Vec<Generated>, BuildError> {
    let mut files = Vec::new();
    // The interfaces, verbatim, in one `sol!` for src/bindings.rs: IArena's
    // `puzzle()` returns an IPuzzle, and `sol!` resolves a type only within
    // one input (it ignores imports), so one file path per `sol!` cannot do.
    let mut interfaces = format!("{HEADER}alloy_sol_types::sol! {{\n");
    for file in INTERFACES {
        let text = sources
            .get(Path::new(file))
            .ok_or_else(|| format!("{file} is missing"))?;
        interfaces.push_str(&text.content);
    }
    interfaces.push_str("}\n");
    files.push(Generated {
        name: "interfaces.rs",
        text: interfaces,
    });
    let classic9 = sources
        .get(Path::new(CLASSIC9_INTERFACE))
        .ok_or_else(|| format!("{CLASSIC9_INTERFACE} is missing"))?;
    files.push(Generated {
        name: "classic9_interface.rs",
        text: format!("{HEADER}alloy_sol_types::sol! {{\n{}}}\n", classic9.content),
    });
    Ok(files)
}

/// Lower-case hex, no prefix.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The generated files that differ from what is on disk below `root`
/// (missing ones included), by name.
pub fn stale(root: &Path, files: &[Generated]) -> Vec<&'static str> {
    let dir = root.join(GENERATED_DIR);
    files
        .iter()
        .filter(|f| fs::read_to_string(dir.join(f.name)).ok().as_deref() != Some(f.text.as_str()))
        .map(|f| f.name)
        .collect()
}

/// Writes `files` into [`GENERATED_DIR`] below `root`.
pub fn write(root: &Path, files: &[Generated]) -> Result<(), BuildError> {
    let dir = root.join(GENERATED_DIR);
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for file in files {
        let path = dir.join(file.name);
        fs::write(&path, &file.text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Reads every `.sol` file below `dir`, keyed by its path relative to `root`.
fn collect_sources(root: &Path, dir: &Path, sources: &mut Sources) -> Result<(), BuildError> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_sources(root, &path, sources)?;
        } else if path.extension().is_some_and(|e| e == "sol") {
            let relative = path
                .strip_prefix(root)
                .map_err(|e| e.to_string())?
                .to_path_buf();
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            sources.insert(relative, Source::new(text));
        }
    }
    Ok(())
}

/// The text of `fixture`'s source with its patches applied.
fn derive(sources: &Sources, fixture: &Derived) -> Result<String, BuildError> {
    let from = fixture.from;
    let mut text = sources
        .get(Path::new(from))
        .ok_or_else(|| format!("{from} is missing"))?
        .content
        .to_string();
    for (old, new) in fixture.patches {
        if text.matches(old).count() != 1 {
            return Err(
                format!("{from}: expected `{old}` exactly once, to derive a fixture").into(),
            );
        }
        text = text.replacen(old, new, 1);
    }
    Ok(text)
}

//! The contract a command runs: a built-in implementation by name, or an
//! author's own code (a compiled artifact, raw creation code, or a Solidity
//! file compiled with solc). Every command resolves its target once.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use alloy_primitives::hex;
use serde_json::Value;

use crate::limits::ReadError;
use crate::puzzle::Puzzle;

/// The most bytes of an artifact, bytecode file or source read.
pub const FILE_CAP: u64 = 64 << 20;

/// The most a compiler may print on standard output for `--contract`: 64
/// MiB (the standard JSON of a file's contracts, bytecode and source maps
/// only, is a few hundred KiB for a large one). Past it the compiler is
/// killed.
pub const COMPILER_OUTPUT: u64 = 64 << 20;

/// An author's compiled contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// What reports call it: the contract name, or the file.
    pub label: String,
    /// Creation code (constructor and runtime), when known.
    pub initcode: Option<Vec<u8>>,
    /// Runtime code as a file states it (an artifact's `deployedBytecode`,
    /// with every immutable still zero), or as read from a chain. Only the
    /// code read from a chain is run as is: creation code, when known, is
    /// always deployed and what its constructor leaves is what runs
    /// ([`Code::deployed_runtime`]).
    pub runtime: Option<Vec<u8>>,
    /// solc's compressed source map of the runtime code, when known.
    pub source_map: Option<String>,
    /// The source files the map's file indexes name, where known.
    pub sources: Vec<SourceFile>,
}

/// One source file of a compilation: its index in source maps and where
/// its text is read from (only when a profile asks for it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// solc's source unit id: the `f` field of a source map entry.
    pub index: usize,
    /// The path as the compiler named it, shown in profiles.
    pub name: String,
    /// Where the text is on this machine (the name resolved against the
    /// project the artifact or source belongs to).
    pub path: PathBuf,
}

impl Code {
    /// The runtime code this contract runs as, the one code every command
    /// proves, fuzzes, profiles and checks: its creation code run in revm
    /// (the constructor included, so immutables hold what it sets), and the
    /// code the deployment leaves; for code read from a chain (no creation
    /// code), that code. An artifact's `deployedBytecode` is never used in
    /// its place: it holds zeros where the constructor writes immutables.
    pub fn deployed_runtime(&self) -> Result<Vec<u8>, crate::EvmError> {
        let mut machine = crate::Machine::new()?;
        let at = machine.load(&Target::Code(self.clone()))?;
        let runtime = machine.code_at(at);
        if runtime.is_empty() {
            return Err(crate::EvmError::NoRuntime {
                label: self.label.clone(),
            });
        }
        Ok(runtime)
    }

    /// Why a gas profile of this code cannot name its source lines though
    /// it has a source map: the map's files are unnamed (a Foundry artifact
    /// built without `ast`) or not on this machine. `None` when the lines
    /// can be named, or when the code came without a source map at all
    /// (`--bytecode`, a deployed address: the profile is by opcode).
    pub fn profile_gaps(&self) -> Option<String> {
        if self.source_map.as_deref().is_none_or(str::is_empty) {
            return None;
        }
        if self.sources.is_empty() {
            return Some(format!(
                "{} names no source file (a Foundry artifact needs its `ast`: add `ast = true` to foundry.toml and run forge build again): every line reads as compiler-generated",
                self.label
            ));
        }
        let missing: Vec<String> = self
            .sources
            .iter()
            .filter(|f| !f.path.is_file())
            .map(|f| f.path.display().to_string())
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "{}'s source {} not found: its lines read as compiler-generated (run from the project root)",
                self.label,
                missing.join(", ")
            )
        })
    }

    /// The source lines of `runtime` (this code as deployed), when the code
    /// carries a source map: the texts of the files found (at most
    /// [`FILE_CAP`] bytes each); the lines of a file not found read as
    /// compiler-generated code.
    pub fn source_lines(&self, runtime: &[u8]) -> Option<crate::source_map::SourceLines> {
        let map = self.source_map.as_deref().filter(|m| !m.is_empty())?;
        let files = self
            .sources
            .iter()
            .filter_map(|f| {
                let text = read_file(&f.path, "source").ok()?;
                Some((f.index, (f.name.clone(), String::from_utf8(text).ok()?)))
            })
            .collect();
        Some(crate::source_map::SourceLines::new(runtime, map, files))
    }
}

/// The contract a command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// One of the implementations compiled into octoku.
    Builtin(Puzzle),
    /// An author's own code.
    Code(Code),
}

impl Target {
    /// The name reports use.
    pub fn label(&self) -> String {
        match self {
            Target::Builtin(p) => p.label().to_string(),
            Target::Code(c) => c.label.clone(),
        }
    }
}

/// Why an author's contract cannot be read or compiled; every message
/// names the option (`--artifact PATH`, ...) and what was expected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// A file could not be read: missing, not a regular file, too large.
    #[error("{option} {}: {}", path.display(), read_problem(error))]
    Read {
        /// `--artifact`, `--bytecode`, `--contract`.
        option: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        error: ReadError,
    },
    /// Bytecode with library placeholders.
    #[error("{what} has unlinked library references (__$...$__); expected linked bytecode")]
    Unlinked {
        /// The option and file.
        what: String,
    },
    /// Bytecode that is not hex.
    #[error("{what} is not hex bytecode: {error}")]
    NotHex {
        /// The option and file.
        what: String,
        /// Why.
        error: hex::FromHexError,
    },
    /// A `--bytecode @FILE` that is not text.
    #[error("--bytecode {path}: not text; expected hex bytecode")]
    NotText {
        /// The file.
        path: String,
    },
    /// `--bytecode 0x`.
    #[error("--bytecode is empty; expected the contract's creation code")]
    EmptyBytecode,
    /// No contract (of that name) with bytecode in solc's output.
    #[error("{what} has no contract {}with bytecode", name.as_ref().map(|n| format!("{n} ")).unwrap_or_default())]
    NoContract {
        /// The option and file.
        what: String,
        /// The name asked for.
        name: Option<String>,
    },
    /// Several contracts with bytecode and no name to pick one.
    #[error("{what} has {} contracts with bytecode ({}); expected PATH:Name to pick one", names.len(), names.join(", "))]
    Ambiguous {
        /// The option and file.
        what: String,
        /// The contracts' names.
        names: Vec<String>,
    },
    /// An artifact that is not JSON.
    #[error("{what}: not JSON ({error}); expected a compiled artifact")]
    NotJson {
        /// The option and file.
        what: String,
        /// Why.
        error: serde_json::Error,
    },
    /// An artifact without bytecode.
    #[error(
        "{what}: no bytecode; expected a Foundry or Hardhat artifact, or solc's standard-JSON output"
    )]
    NoBytecode {
        /// The option and file.
        what: String,
    },
    /// An artifact whose bytecode is empty.
    #[error(
        "{what}: the bytecode is empty (an interface or abstract contract?); expected a deployable contract"
    )]
    Interface {
        /// The option and file.
        what: String,
    },
    /// A `--contract` source that is not UTF-8.
    #[error("--contract {}: not UTF-8 text", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// The compiler could not be started.
    #[error("--contract: cannot run the compiler {} ({error}); expected --solc PATH, OCTOKU_SOLC, the project's tools/solc or solc on the PATH", solc.display())]
    NoCompiler {
        /// The compiler tried.
        solc: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The compiler's input could not be written or its output read.
    #[error("--contract: {} failed: {error}", solc.display())]
    CompilerFailed {
        /// The compiler.
        solc: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The compiler printed more than [`COMPILER_OUTPUT`] bytes; it was killed.
    #[error(
        "--contract: {} printed more than {} and was stopped; expected a compiler's standard-JSON output",
        solc.display(),
        crate::limits::size(COMPILER_OUTPUT)
    )]
    CompilerOutputTooLarge {
        /// The compiler.
        solc: PathBuf,
    },
    /// The compiler printed no standard-JSON output.
    #[error("--contract: {} gave no standard-JSON output ({status}): {stderr}", solc.display())]
    NoOutput {
        /// The compiler.
        solc: PathBuf,
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The first line of its standard error.
        stderr: String,
    },
    /// solc refused the source.
    #[error("--contract {}: solc: {message}", path.display())]
    Solc {
        /// The source.
        path: PathBuf,
        /// The first line of solc's first error.
        message: String,
    },
}

/// A read failure as the target options word it.
fn read_problem(error: &ReadError) -> String {
    match error {
        ReadError::TooLarge { limit } => format!(
            "larger than {}; expected a compiled contract",
            crate::limits::size(*limit)
        ),
        ReadError::NotRegular => "not a regular file; expected a file".to_string(),
        e => format!("cannot read: {e}"),
    }
}

/// Reads at most [`FILE_CAP`] bytes of a regular file.
fn read_file(path: &Path, option: &'static str) -> Result<Vec<u8>, TargetError> {
    let error = |error| TargetError::Read {
        option,
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(|e| error(ReadError::Io(e)))?;
    let meta = file.metadata().map_err(|e| error(ReadError::Io(e)))?;
    if !meta.is_file() {
        return Err(error(ReadError::NotRegular));
    }
    crate::limits::read_bytes(file, FILE_CAP).map_err(error)
}

/// Hex code with or without `0x`; unlinked library placeholders refused.
fn decode_hex(text: &str, what: &str) -> Result<Vec<u8>, TargetError> {
    let text = text.trim();
    if text.contains("__") {
        return Err(TargetError::Unlinked {
            what: what.to_string(),
        });
    }
    hex::decode(text).map_err(|error| TargetError::NotHex {
        what: what.to_string(),
        error,
    })
}

/// `--bytecode 0x…` or `--bytecode @FILE`: creation code.
pub fn from_bytecode(arg: &str) -> Result<Code, TargetError> {
    let (text, label) = match arg.strip_prefix('@') {
        Some(path) => {
            let bytes = read_file(Path::new(path), "--bytecode")?;
            let text = String::from_utf8(bytes).map_err(|_| TargetError::NotText {
                path: path.to_string(),
            })?;
            (text, path.to_string())
        }
        None => (arg.to_string(), "bytecode".to_string()),
    };
    let initcode = decode_hex(&text, "--bytecode")?;
    if initcode.is_empty() {
        return Err(TargetError::EmptyBytecode);
    }
    Ok(Code {
        label,
        initcode: Some(initcode),
        runtime: None,
        source_map: None,
        sources: Vec::new(),
    })
}

/// Splits `PATH[:NAME]` (a colon followed by a name that is not part of an
/// existing path).
fn split_name(arg: &str) -> (PathBuf, Option<String>) {
    if let Some((path, name)) = arg.rsplit_once(':')
        && !name.is_empty()
        && !name.contains('/')
        && !Path::new(arg).exists()
    {
        return (PathBuf::from(path), Some(name.to_string()));
    }
    (PathBuf::from(arg), None)
}

/// The code of one contract of solc's output (`evm.bytecode.object`, ...),
/// its source map naming `sources`.
fn solc_contract(name: &str, c: &Value, sources: &[SourceFile]) -> Option<Code> {
    let evm = c.get("evm")?;
    let init = evm.pointer("/bytecode/object")?.as_str()?;
    if init.is_empty() {
        return None;
    }
    Some(Code {
        label: name.to_string(),
        initcode: Some(decode_hex(init, name).ok()?),
        runtime: evm
            .pointer("/deployedBytecode/object")
            .and_then(Value::as_str)
            .and_then(|s| decode_hex(s, name).ok()),
        source_map: evm
            .pointer("/deployedBytecode/sourceMap")
            .and_then(Value::as_str)
            .map(str::to_string),
        sources: sources.to_vec(),
    })
}

/// The source files of solc's standard-JSON output (`sources`: name to
/// `{"id": N}`), their names resolved against `root`.
fn solc_sources(output: &Value, root: &Path) -> Vec<SourceFile> {
    let Some(sources) = output.get("sources").and_then(Value::as_object) else {
        return Vec::new();
    };
    sources
        .iter()
        .filter_map(|(name, s)| {
            Some(SourceFile {
                index: usize::try_from(s.get("id")?.as_u64()?).ok()?,
                name: name.clone(),
                path: root.join(name),
            })
        })
        .collect()
}

/// The contract named `name` (or the only one with code) of solc's
/// standard-JSON output, its sources' names resolved against `root`.
fn from_solc_output(
    output: &Value,
    name: Option<&str>,
    what: &str,
    root: &Path,
) -> Result<Code, TargetError> {
    let sources = solc_sources(output, root);
    let mut found = Vec::new();
    if let Some(files) = output.get("contracts").and_then(Value::as_object) {
        for contracts in files.values().filter_map(Value::as_object) {
            for (n, c) in contracts {
                if name.is_none_or(|want| want == n)
                    && let Some(code) = solc_contract(n, c, &sources)
                {
                    found.push(code);
                }
            }
        }
    }
    match (found.len(), name) {
        (1, _) => Ok(found.pop().expect("one")),
        (0, name) => Err(TargetError::NoContract {
            what: what.to_string(),
            name: name.map(str::to_string),
        }),
        (_, _) => Err(TargetError::Ambiguous {
            what: what.to_string(),
            names: found.into_iter().map(|c| c.label).collect(),
        }),
    }
}

/// `--artifact PATH[:Contract]`: a Foundry artifact (`out/X.sol/X.json`),
/// a Hardhat artifact, or solc's standard-JSON output.
pub fn from_artifact(arg: &str) -> Result<Code, TargetError> {
    let (path, name) = split_name(arg);
    let what = format!("--artifact {}", path.display());
    let bytes = read_file(&path, "--artifact")?;
    let json: Value = serde_json::from_slice(&bytes).map_err(|error| TargetError::NotJson {
        what: what.clone(),
        error,
    })?;
    let root = project_root(&path);
    if json.get("contracts").is_some() {
        return from_solc_output(&json, name.as_deref(), &what, &root);
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let label = json
        .get("contractName")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or(name)
        .unwrap_or(stem);
    // Foundry: {"bytecode": {"object": "0x.."}, "deployedBytecode": {"object", "sourceMap"}};
    // Hardhat: {"bytecode": "0x..", "deployedBytecode": "0x.."}.
    let field = |key: &str| -> Option<&str> {
        let v = json.get(key)?;
        v.as_str()
            .or_else(|| v.get("object").and_then(Value::as_str))
    };
    let init = field("bytecode").ok_or_else(|| TargetError::NoBytecode { what: what.clone() })?;
    let initcode = decode_hex(init, &what)?;
    if initcode.is_empty() {
        return Err(TargetError::Interface { what });
    }
    Ok(Code {
        label,
        initcode: Some(initcode),
        runtime: field("deployedBytecode")
            .map(|s| decode_hex(s, &what))
            .transpose()?
            .filter(|r| !r.is_empty()),
        source_map: json
            .pointer("/deployedBytecode/sourceMap")
            .and_then(Value::as_str)
            .map(str::to_string),
        sources: foundry_source(&json, &root).into_iter().collect(),
    })
}

/// A Foundry artifact's own source file: its source unit `id` and
/// `ast.absolutePath` (relative to the project root). Its imports' ids are
/// not in the artifact: their lines read as compiler-generated code.
fn foundry_source(json: &Value, root: &Path) -> Option<SourceFile> {
    let name = json.pointer("/ast/absolutePath")?.as_str()?;
    Some(SourceFile {
        index: usize::try_from(json.get("id")?.as_u64()?).ok()?,
        name: name.to_string(),
        path: root.join(name),
    })
}

/// The compiler for `--contract`: `solc` as given (`--solc` or
/// `OCTOKU_SOLC`), else `tools/solc` of the project the file is in (the
/// octoku checkout's pinned solc-js), else `solc` on the PATH.
fn find_solc(given: Option<&Path>, root: &Path) -> PathBuf {
    if let Some(s) = given {
        return s.to_path_buf();
    }
    let pinned = root.join("tools/solc");
    if pinned.is_file() {
        return pinned;
    }
    PathBuf::from("solc")
}

/// The project a source file belongs to: the nearest directory above it
/// with a foundry.toml (or .git), else the file's own directory.
fn project_root(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
    dir.ancestors()
        .find(|d| d.join("foundry.toml").is_file() || d.join(".git").exists())
        .map_or(dir.clone(), Path::to_path_buf)
}

/// `--contract PATH.sol[:Name]`: compiled by solc (standard JSON, the
/// settings of octoku's own contracts: optimizer 200 runs, prague, no
/// metadata hash), imports resolved from the file's project root.
pub fn compile(arg: &str, solc: Option<&Path>) -> Result<Code, TargetError> {
    let (path, name) = split_name(arg);
    let file = path.canonicalize().map_err(|e| TargetError::Read {
        option: "--contract",
        path: path.clone(),
        error: ReadError::Io(e),
    })?;
    let source = read_file(&file, "--contract")?;
    let source =
        String::from_utf8(source).map_err(|_| TargetError::NotUtf8 { path: path.clone() })?;
    let root = project_root(&file);
    let unit = file
        .strip_prefix(&root)
        .unwrap_or(&file)
        .display()
        .to_string();
    let input = serde_json::json!({
        "language": "Solidity",
        "sources": { unit.clone(): { "content": source } },
        "settings": {
            "optimizer": { "enabled": true, "runs": 200 },
            "evmVersion": "prague",
            "metadata": { "bytecodeHash": "none", "appendCBOR": false },
            "outputSelection": { "*": { "*": [
                "evm.bytecode.object",
                "evm.deployedBytecode.object",
                "evm.deployedBytecode.sourceMap"
            ] } }
        }
    });
    let solc = find_solc(solc, &root);
    let mut command = Command::new(&solc);
    command
        .args(["--standard-json", "--base-path"])
        .arg(&root)
        .arg("--allow-paths")
        .arg(&root)
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::child::die_with_parent(&mut command);
    let mut child = command.spawn().map_err(|error| TargetError::NoCompiler {
        solc: solc.clone(),
        error,
    })?;
    let failed = |error| TargetError::CompilerFailed {
        solc: solc.clone(),
        error,
    };
    // The source goes in and the answers come out at once (a compiler that
    // writes before it has read everything would block a write-then-read);
    // each answer is read to its bound only.
    let mut stdin = child.stdin.take().expect("piped");
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        // An error here (the compiler closed its input) shows in its answer.
        let _ = stdin.write_all(text.as_bytes());
    });
    let stderr = child.stderr.take().expect("piped");
    let errors = std::thread::spawn(move || {
        let mut head = Vec::new();
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(stderr, 64 << 10), &mut head);
        head
    });
    let stdout = child.stdout.take().expect("piped");
    let read = crate::limits::read_bytes(stdout, COMPILER_OUTPUT);
    if read.is_err() {
        // Past the bound, or unreadable: the compiler is stopped, not left.
        let _ = child.kill();
    }
    let status = child.wait().map_err(failed)?;
    let _ = writer.join();
    let stderr = errors.join().unwrap_or_default();
    let stdout = match read {
        Ok(bytes) => bytes,
        Err(ReadError::TooLarge { .. }) => {
            return Err(TargetError::CompilerOutputTooLarge { solc: solc.clone() });
        }
        Err(ReadError::Io(e)) => return Err(failed(e)),
        Err(other) => return Err(failed(std::io::Error::other(other.to_string()))),
    };
    let output: Value = serde_json::from_slice(&stdout).map_err(|_| TargetError::NoOutput {
        solc: solc.clone(),
        status,
        stderr: crate::limits::one_line(
            String::from_utf8_lossy(&stderr)
                .lines()
                .next()
                .unwrap_or(""),
            crate::limits::NODE_TEXT,
        ),
    })?;
    if let Some(errors) = output.get("errors").and_then(Value::as_array) {
        let first = errors
            .iter()
            .find(|e| e.get("severity").and_then(Value::as_str) == Some("error"));
        if let Some(e) = first {
            let message = e
                .get("formattedMessage")
                .or_else(|| e.get("message"))
                .and_then(Value::as_str)
                .unwrap_or("unknown error");
            return Err(TargetError::Solc {
                path,
                message: message.lines().next().unwrap_or("").to_string(),
            });
        }
    }
    let mut own = output.clone();
    // Only the contracts of the file itself, not of its imports.
    if let Some(files) = own.get_mut("contracts").and_then(Value::as_object_mut) {
        files.retain(|k, _| *k == unit);
    }
    from_solc_output(
        &own,
        name.as_deref(),
        &format!("--contract {}", path.display()),
        &root,
    )
}

/// The calldata of `verify(start, solution)`.
pub fn verify_calldata(
    start: octoku_core::Board,
    solution: octoku_core::Board,
) -> alloy_primitives::Bytes {
    use alloy_sol_types::SolCall;
    let call = crate::bindings::IPuzzle::verifyCall {
        start: start.to_u256(),
        solution: solution.to_u256(),
    };
    call.abi_encode().into()
}

/// The calldata of `generate(address)`.
pub fn generate_calldata(address: &alloy_primitives::Address) -> alloy_primitives::Bytes {
    use alloy_sol_types::SolCall;
    crate::bindings::IPuzzle::generateCall { seed: *address }
        .abi_encode()
        .into()
}

/// The instructions among `steps` that a pure IPuzzle never runs: state
/// reads or writes, calls, creations, logs, and reads of the block, the
/// transaction or the gas left (their names, each once, in order met).
pub fn impure_opcodes(steps: &[crate::Step]) -> Vec<&'static str> {
    use revm::bytecode::opcode::{self, OpCode};
    const IMPURE: &[u8] = &[
        opcode::SLOAD,
        opcode::SSTORE,
        opcode::TLOAD,
        opcode::TSTORE,
        opcode::BALANCE,
        opcode::SELFBALANCE,
        opcode::EXTCODESIZE,
        opcode::EXTCODECOPY,
        opcode::EXTCODEHASH,
        opcode::ORIGIN,
        opcode::CALLER,
        opcode::GASPRICE,
        opcode::BLOCKHASH,
        opcode::COINBASE,
        opcode::TIMESTAMP,
        opcode::NUMBER,
        opcode::DIFFICULTY,
        opcode::GASLIMIT,
        opcode::CHAINID,
        opcode::BASEFEE,
        opcode::BLOBHASH,
        opcode::BLOBBASEFEE,
        opcode::GAS,
        opcode::LOG0,
        opcode::LOG1,
        opcode::LOG2,
        opcode::LOG3,
        opcode::LOG4,
        opcode::CREATE,
        opcode::CREATE2,
        opcode::CALL,
        opcode::CALLCODE,
        opcode::DELEGATECALL,
        opcode::STATICCALL,
        opcode::SELFDESTRUCT,
    ];
    let mut found = Vec::new();
    for step in steps {
        if IMPURE.contains(&step.opcode)
            && let Some(op) = OpCode::new(step.opcode)
            && !found.contains(&op.as_str())
        {
            found.push(op.as_str());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compiler that prints without end (`yes`) is read to
    /// [`COMPILER_OUTPUT`] only, killed, and said to be one; memory stays
    /// near the bound, and the call returns in moments.
    #[test]
    fn a_compiler_that_prints_without_end_is_stopped_at_the_bound() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("foundry.toml"), "").unwrap();
        let source = dir.path().join("P.sol");
        std::fs::write(&source, "contract P {}").unwrap();
        let solc = dir.path().join("endless-solc");
        std::fs::write(&solc, "#!/bin/sh\nexec yes 0123456789abcdef\n").unwrap();
        std::fs::set_permissions(&solc, std::fs::Permissions::from_mode(0o755)).unwrap();
        let started = std::time::Instant::now();
        let e = compile(source.to_str().unwrap(), Some(&solc)).unwrap_err();
        assert!(
            matches!(e, TargetError::CompilerOutputTooLarge { .. }),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("printed more than 64 MiB and was stopped"),
            "{e}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }

    #[test]
    fn a_colon_names_a_contract_unless_the_path_has_it() {
        assert_eq!(
            split_name("out/A.sol/A.json:A"),
            (PathBuf::from("out/A.sol/A.json"), Some("A".into()))
        );
        assert_eq!(split_name("A.json"), (PathBuf::from("A.json"), None));
    }

    #[test]
    fn bytecode_is_hex_creation_code() {
        assert_eq!(
            from_bytecode("0x6001").unwrap().initcode,
            Some(vec![0x60, 0x01])
        );
        assert!(from_bytecode("0x").is_err());
        assert!(from_bytecode("0xzz").is_err());
        assert!(from_bytecode("0x60__$abc$__").is_err());
    }
}

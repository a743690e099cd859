//! The options that name an author's own contract instead of a built-in
//! `--puzzle`: `--artifact`, `--bytecode`, `--contract` (with `--solc`).

use std::path::PathBuf;

use octoku_evm::{Code, Puzzle, Target};

use crate::error::CliError;

/// What `--generate` asks of an author's generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GenerateRule {
    /// The reference's board for every address.
    #[default]
    Reference,
    /// Its own boards: the same every time, and every one solvable.
    Own,
}

/// `--artifact`, `--bytecode`, `--contract`, `--solc`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TargetArgs {
    /// Your compiled IPuzzle: a Foundry artifact (out/X.sol/X.json), a
    /// Hardhat artifact or solc's standard-JSON output; PATH:Name picks one
    /// contract.
    #[arg(long, value_name = "PATH[:NAME]", conflicts_with_all = ["puzzle", "bytecode", "contract"])]
    pub artifact: Option<String>,
    /// Your IPuzzle's creation code: 0x hex, or @FILE holding it.
    #[arg(long, value_name = "0xHEX|@FILE", conflicts_with_all = ["puzzle", "contract"])]
    pub bytecode: Option<String>,
    /// Your IPuzzle's Solidity source, compiled here (optimizer 200 runs,
    /// prague); PATH:Name picks one contract.
    #[arg(long, value_name = "PATH.sol[:NAME]", conflicts_with = "puzzle")]
    pub contract: Option<String>,
    /// The solc for --contract (default: the project's tools/solc, else
    /// solc on the PATH).
    #[arg(long, value_name = "PATH", env = "OCTOKU_SOLC", requires = "contract")]
    pub solc: Option<PathBuf>,
    /// ABI-encoded constructor arguments (0x hex), appended to the creation
    /// code of --artifact, --bytecode or --contract before it is deployed:
    /// what runs, and is proved, is what that constructor leaves.
    #[arg(long, value_name = "0xHEX")]
    pub constructor_args: Option<String>,
}

impl TargetArgs {
    /// Whether one of the options names the author's code.
    pub fn given(&self) -> bool {
        self.artifact.is_some() || self.bytecode.is_some() || self.contract.is_some()
    }

    /// The options as given, for a command line that repeats the run.
    pub fn flags(&self) -> String {
        let mut out = String::new();
        for (flag, value) in [
            ("--artifact", &self.artifact),
            ("--bytecode", &self.bytecode),
            ("--contract", &self.contract),
        ] {
            if let Some(v) = value {
                out.push_str(&format!(" {flag} {v}"));
            }
        }
        if let (Some(_), Some(solc)) = (&self.contract, &self.solc) {
            out.push_str(&format!(" --solc {}", solc.display()));
        }
        if let Some(args) = &self.constructor_args {
            out.push_str(&format!(" --constructor-args {args}"));
        }
        out
    }

    /// The author's code, if one of the options names it (bad input: exit 2).
    pub fn code(&self) -> Result<Option<Code>, CliError> {
        let code = if let Some(a) = &self.artifact {
            octoku_evm::target::from_artifact(a)
        } else if let Some(b) = &self.bytecode {
            octoku_evm::target::from_bytecode(b)
        } else if let Some(c) = &self.contract {
            octoku_evm::target::compile(c, self.solc.as_deref())
        } else if self.constructor_args.is_some() {
            return Err(CliError::Input(
                "--constructor-args takes --artifact, --bytecode or --contract; expected one of them".into(),
            ));
        } else {
            return Ok(None);
        };
        let mut code = code.map_err(CliError::input)?;
        if let Some(args) = &self.constructor_args {
            let args = octoku_core::hex::decode(args.trim()).map_err(|e| {
                CliError::input_framed(
                    format!("--constructor-args {args}: not hex ("),
                    e,
                    "); expected the ABI-encoded arguments, 0x…",
                )
            })?;
            let Some(init) = &mut code.initcode else {
                return Err(CliError::Input(format!(
                    "--constructor-args: {} states no creation code, only a runtime; expected an artifact with `bytecode` (or use --bytecode with the creation code)",
                    code.label
                )));
            };
            init.extend_from_slice(&args);
        }
        Ok(Some(code))
    }
}

/// `--puzzle-address` and `--rpc-url`: an IPuzzle deployed on a chain, its
/// runtime code read (eth_getCode) and run here.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DeployedArgs {
    /// Your IPuzzle deployed on a chain: its code is read and run in the
    /// in-memory EVM (nothing is sent).
    #[arg(long, value_name = "ADDRESS", conflicts_with_all = ["puzzle", "artifact", "bytecode", "contract"])]
    pub puzzle_address: Option<String>,
    /// JSON-RPC URL of the node holding --puzzle-address (default: the
    /// embedded chain of .octoku/chain.json).
    #[arg(long, value_name = "URL", requires = "puzzle_address")]
    pub rpc_url: Option<String>,
}

impl DeployedArgs {
    /// Whether `--puzzle-address` is given.
    pub fn given(&self) -> bool {
        self.puzzle_address.is_some()
    }

    /// The options as given, for a command line that repeats the run.
    pub fn flags(&self) -> String {
        let mut out = String::new();
        if let Some(a) = &self.puzzle_address {
            out.push_str(&format!(" --puzzle-address {a}"));
        }
        if let Some(url) = &self.rpc_url {
            out.push_str(&format!(" --rpc-url {url}"));
        }
        out
    }

    /// The code at `--puzzle-address`, if given.
    pub fn code(&self) -> Result<Option<Code>, CliError> {
        let Some(address) = &self.puzzle_address else {
            return Ok(None);
        };
        code_on_chain(address, self.rpc_url.clone(), None).map(Some)
    }
}

/// The author's contract from a file ([`TargetArgs`]) or a chain
/// ([`DeployedArgs`]), for the commands that take either.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OwnArgs {
    #[command(flatten)]
    pub file: TargetArgs,
    #[command(flatten)]
    pub deployed: DeployedArgs,
}

impl OwnArgs {
    /// Whether one of the options names the author's contract.
    pub fn given(&self) -> bool {
        self.file.given() || self.deployed.given()
    }

    /// The options as given, for a command line that repeats the run.
    pub fn flags(&self) -> String {
        format!("{}{}", self.file.flags(), self.deployed.flags())
    }

    /// The author's code from a file or the chain, if the options name it.
    pub fn code(&self) -> Result<Option<Code>, CliError> {
        match self.file.code()? {
            Some(code) => Ok(Some(code)),
            None => self.deployed.code(),
        }
    }

    /// The target: the author's code, else the built-in `puzzle`.
    pub fn target(&self, puzzle: Puzzle) -> Result<Target, CliError> {
        Ok(self.code()?.map_or(Target::Builtin(puzzle), Target::Code))
    }
}

/// The runtime code at `address` on the node at `rpc_url` (else the
/// embedded chain of `state`, or its default file).
pub fn code_on_chain(
    address: &str,
    rpc_url: Option<String>,
    state: Option<PathBuf>,
) -> Result<Code, CliError> {
    use crate::error::chain_error;
    use crate::opts::chain::{DEFAULT_STATE, KeyUse};
    let at = crate::input::address(address)?;
    let state = state.unwrap_or_else(|| PathBuf::from(DEFAULT_STATE));
    let mut opened = reading(rpc_url, state).open(KeyUse::Read, false)?;
    let runtime = opened.chain.code_at(at).map_err(chain_error)?;
    if runtime.is_empty() {
        return Err(CliError::Chain(format!(
            "{at} has no code on {}; expected a deployed IPuzzle",
            opened.label
        )));
    }
    Ok(Code {
        label: at.to_checksum(None),
        initcode: None,
        runtime: Some(runtime.to_vec()),
        source_map: None,
        sources: Vec::new(),
    })
}

/// The chain of `rpc_url` (else the embedded chain of `state`), to read
/// from: no key.
pub fn reading(rpc_url: Option<String>, state: PathBuf) -> crate::opts::chain::ChainArgs {
    crate::opts::chain::ChainArgs {
        rpc_url,
        state,
        signer: crate::opts::wallet::SignerArgs {
            private_key: None,
            keystore: None,
            account: None,
            password: None,
            password_file: None,
            interactive: false,
            from: None,
            unlocked: false,
        },
    }
}

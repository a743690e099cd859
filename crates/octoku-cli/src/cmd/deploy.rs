//! `octoku deploy`: deploy a puzzle and an arena for it.

use std::process::ExitCode;

use octoku_chain::{
    self as chain, Receipt,
    arena::{ArenaDeployment, deploy_with_arena},
    deployments::{Deployment, DeploymentsFile, RecordedPuzzle},
};
use octoku_core::Address;
use octoku_evm::Puzzle;
use serde::Serialize;

use crate::curta;
use crate::error::chain_error;
use crate::opts::chain::{
    ChainArgs, DEFAULT_STATE, KeyUse, Opened, deployments_path, recorded_deployments,
};
use crate::opts::target::TargetArgs;
use crate::opts::wallet::TxArgs;
use crate::{
    error::CliError,
    input, outln,
    output::{self, Tx, print_json},
};
use octoku_chain::curta::Source;

/// `octoku deploy --json`: the record as kept on file, the chain, where it
/// was recorded and how many deployments were on record before it.
#[derive(Debug, Serialize)]
struct Deployed<'a> {
    chain_id: u64,
    #[serde(flatten)]
    record: &'a Deployment,
    chain: &'a str,
    /// The state file or `deployments/<chain-id>.json`.
    recorded_in: String,
    /// Deployments on record before this one (they stay on record).
    earlier_deployments: usize,
}

/// What `octoku deploy --puzzle` deploys: an 8×8 puzzle (one value per
/// [`Puzzle`]) with its arena, or the golfed classic 9×9 validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
enum DeployTarget {
    /// The 8×8 reference puzzle and an arena for it.
    #[default]
    Reference,
    /// The golfed 8×8 puzzle and an arena for it.
    Golf,
    /// The fair 8×8 puzzle and an arena for it.
    Fair,
    /// The golfed classic 9×9 validator (contracts/classic9/) alone: no arena,
    /// nothing recorded (the same as --size 9 --golf).
    Classic9,
}

impl DeployTarget {
    /// The puzzle kind: the 8×8 implementation, or whose 9×9 validator.
    const fn puzzle(self) -> Puzzle {
        match self {
            DeployTarget::Reference => Puzzle::Reference,
            DeployTarget::Golf | DeployTarget::Classic9 => Puzzle::Golf,
            DeployTarget::Fair => Puzzle::Fair,
        }
    }
}

/// Arguments of `octoku deploy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to deploy: an 8×8 puzzle and its arena, or classic9 (the golfed
    /// 9×9 validator).
    #[arg(long, value_enum, ignore_case = true, default_value_t)]
    puzzle: DeployTarget,
    /// Shorthand for --puzzle golf.
    #[arg(long, conflicts_with = "puzzle")]
    golf: bool,
    /// Board size: 8 (a puzzle and its arena; the default) or 9 (the classic
    /// 9×9 validator of --puzzle reference|golf, contracts/classic9/, alone: no
    /// arena, no record). --puzzle classic9 is --size 9 --golf.
    #[arg(long, value_parser = clap::value_parser!(u8).range(8..=9))]
    size: Option<u8>,
    /// Add the puzzle to Curta at this address with --token-id (needs
    /// --rpc-url); no arena is deployed.
    #[arg(long, value_name = "ADDRESS", requires = "token_id")]
    curta: Option<String>,
    /// The signer's unused Authorship Token that adds the puzzle to Curta.
    #[arg(long, value_name = "N", requires = "curta")]
    token_id: Option<u64>,
    /// Add this deployed IPuzzle to Curta instead of deploying one.
    #[arg(long, value_name = "A", requires = "curta", conflicts_with_all = ["puzzle", "golf", "size"])]
    puzzle_address: Option<String>,
    #[command(flatten)]
    chain: ChainArgs,
    #[command(flatten)]
    tx: TxArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    target: TargetArgs,
}

/// `octoku deploy --puzzle classic9 --json` (or `--size 9`): the 9×9
/// validator deployed (no arena, nothing recorded).
#[derive(Debug, Serialize)]
struct DeployedValidator<'a> {
    chain: &'a str,
    chain_id: u64,
    /// The built-in's name, or the author's validator's.
    puzzle: String,
    size: u8,
    #[serde(serialize_with = "output::checksum")]
    puzzle_address: Address,
    puzzle_tx: Tx,
}

/// Deploys the puzzle, then the arena pointing at it; records both.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let kind = if args.golf {
        Puzzle::Golf
    } else {
        args.puzzle.puzzle()
    };
    if let (Some(curta), Some(token)) = (&args.curta, args.token_id) {
        return deploy_to_curta(&args, curta, token, kind);
    }
    match (args.puzzle, args.size) {
        (DeployTarget::Classic9, Some(8)) => {
            return Err(CliError::Input(
                "--puzzle classic9 --size 8: classic9 is the 9x9 validator; expected --size 9 or no --size".into(),
            ));
        }
        (DeployTarget::Classic9, _) | (_, Some(9)) => return deploy_classic9(&args, kind),
        _ => {}
    }
    // The author's contract by its creation code, else the built-in `kind`.
    let (initcode, recorded) = match args.target.code()? {
        Some(code) => {
            let (initcode, label) = own_initcode(code)?;
            (initcode, RecordedPuzzle::Own(label))
        }
        None => (kind.artifact().initcode.to_vec(), kind.into()),
    };
    let (mut opened, chain_id) = open_to_send(&args)?;
    // Refuses a deployments file of another chain before spending gas.
    let earlier = recorded_deployments(&mut opened)?.len();
    let deployed = deploy_with_arena(&mut opened.chain, initcode.into()).map_err(chain_error)?;
    let record = deployed.record(recorded);
    // Written only now, after both receipts; added to the earlier ones. What
    // was sent is said in the error when the write fails.
    let unrecorded = |e| {
        crate::error::chain_after(
            format!(
                "sent, but not recorded: puzzle {} (tx {}), arena {} (tx {})",
                record.puzzle_address, record.puzzle_tx.hash, record.arena, record.arena_tx.hash,
            ),
            e,
        )
    };
    let written = match &mut opened.chain {
        chain::Chain::Embedded(c) => {
            c.add_deployment(record.clone()).map_err(unrecorded)?;
            c.path().to_path_buf()
        }
        chain::Chain::Rpc(_) => {
            let path = deployments_path(chain_id);
            DeploymentsFile::update(&path, chain_id, |f| f.deployments.push(record.clone()))
                .map_err(unrecorded)?;
            path
        }
    };

    if args.json {
        print_json(&Deployed {
            chain_id,
            record: &record,
            chain: &opened.label,
            recorded_in: written.display().to_string(),
            earlier_deployments: earlier,
        })?;
    } else {
        outln!("deployer  {}", deployed.deployer)?;
        print_deployed(&deployed, &record.puzzle.to_string())?;
        outln!("recorded  {}", written.display())?;
        if earlier > 0 {
            outln!(
                "default   this arena is now the default; the {earlier} earlier deployment(s) stay on record (--arena ADDRESS uses one)"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--curta C --token-id N`: the 8×8 puzzle `kind` (or `--puzzle-address`)
/// added to Curta.
fn deploy_to_curta(
    args: &Args,
    curta: &str,
    token: u64,
    kind: Puzzle,
) -> Result<ExitCode, CliError> {
    if args.puzzle == DeployTarget::Classic9 || args.size == Some(9) {
        return Err(CliError::Input(
            "--curta: Curta takes an IPuzzle (name, generate, verify); the 9x9 validator is none: expected --puzzle reference|golf|fair or --puzzle-address".into(),
        ));
    }
    let source = match (&args.puzzle_address, args.target.code()?) {
        (Some(_), Some(code)) => {
            return Err(CliError::Input(format!(
                "--puzzle-address and {}: one puzzle is added to Curta; expected either an address already deployed or the author's creation code",
                code.label
            )));
        }
        (Some(address), None) => Source::Deployed(input::address(address)?),
        // The author's contract (`--artifact`, `--bytecode`, `--contract`)
        // by its creation code: the puzzle added is the one named.
        (None, Some(code)) => Source::Initcode {
            kind: None,
            initcode: own_initcode(code)?.0,
        },
        (None, None) => Source::Initcode {
            kind: Some(kind),
            initcode: kind.artifact().initcode.to_vec(),
        },
    };
    curta::deploy(&args.chain, &args.tx, curta, token, source, args.json)
}

/// The author's creation code and label (`--artifact`, `--bytecode`,
/// `--contract`); code read from a chain has none to deploy.
fn own_initcode(code: octoku_evm::Code) -> Result<(Vec<u8>, String), CliError> {
    match code.initcode {
        Some(initcode) => Ok((initcode, code.label)),
        None => Err(CliError::Input(format!(
            "{}: no creation code to deploy; expected an artifact with bytecode or --bytecode",
            code.label
        ))),
    }
}

/// Opens the chain to send, with the transaction flags; prints which chain
/// (text output) and returns its id.
fn open_to_send(args: &Args) -> Result<(Opened, u64), CliError> {
    let mut opened = args
        .chain
        .open_with(KeyUse::Send, true, args.tx.options_shown(args.json)?)?;
    if !args.json {
        outln!("chain     {}", opened.label)?;
    }
    let chain_id = opened.chain.chain_id().map_err(chain_error)?;
    Ok((opened, chain_id))
}

/// The text lines of a puzzle and its arena: address, block, gas, transaction.
fn print_deployed(deployed: &ArenaDeployment, label: &str) -> Result<(), CliError> {
    let (puzzle, arena) = (&deployed.puzzle, &deployed.arena);
    outln!(
        "puzzle    {} ({label}, block {}, gas {}{}, tx {})",
        deployed.puzzle_address,
        puzzle.block,
        puzzle.gas_used,
        crate::output::fee_part(puzzle.fee),
        puzzle.tx_hash
    )?;
    outln!(
        "arena     {} (block {}, gas {}{}, tx {})",
        deployed.arena_address,
        arena.block,
        arena.gas_used,
        crate::output::fee_part(arena.fee),
        arena.tx_hash
    )?;
    Ok(())
}

fn created(receipt: &Receipt) -> Result<Address, CliError> {
    receipt.contract_address.ok_or_else(|| {
        CliError::Chain(format!(
            "deployment {} created no contract",
            receipt.tx_hash
        ))
    })
}

/// `--puzzle classic9` or `--size 9`: deploys the 9×9 validator of `kind`;
/// prints its address and deployment gas.
fn deploy_classic9(args: &Args, kind: Puzzle) -> Result<ExitCode, CliError> {
    // The author's validator (--artifact, --bytecode, --contract), else kind's.
    let (initcode, label) = match args.target.code()? {
        Some(code) => own_initcode(code)?,
        None => {
            let artifact = kind.classic9_artifact().ok_or_else(|| {
                CliError::Input(format!(
                    "--size 9 --puzzle {kind}: there is no 9x9 validator of it; expected reference or golf (or --puzzle classic9)"
                ))
            })?;
            (artifact.initcode.to_vec(), kind.label().to_string())
        }
    };
    let (mut opened, chain_id) = open_to_send(args)?;
    let receipt = opened.chain.deploy(initcode.into()).map_err(chain_error)?;
    let address = created(&receipt)?;
    if args.json {
        print_json(&DeployedValidator {
            chain: &opened.label,
            chain_id,
            puzzle: label.clone(),
            size: 9,
            puzzle_address: address,
            puzzle_tx: Tx::from(&receipt),
        })?;
    } else {
        outln!(
            "validator {address} (9x9 {label}, block {}, gas {}{}, tx {})",
            receipt.block,
            receipt.gas_used,
            crate::output::fee_part(receipt.fee),
            receipt.tx_hash
        )?;
        // The same chain for the next command: the node, or a state file
        // other than the default.
        let chain = match (&args.chain.rpc_url, &args.chain.state) {
            (Some(url), _) => format!(" --rpc-url {url}"),
            (None, state) if state.as_path() != std::path::Path::new(DEFAULT_STATE) => {
                format!(" --state {}", state.display())
            }
            _ => String::new(),
        };
        outln!(
            "verify    octoku verify --size 9 --puzzle-address {address}{chain} START SOLUTION"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

//! `octoku deploy`: deploy a puzzle and an arena for it.

use std::process::ExitCode;

use octoku_core::Address;
use octoku_evm::{
    Puzzle,
    chain::{self, Receipt, arena::arena_initcode, state::Deployment},
};
use serde::Serialize;

use super::onchain::{ChainArgs, KeyUse, chain_error, deployments_path, write_deployment};
use crate::{
    error::CliError,
    output::{self, Tx, print_json},
};

/// Arguments of `octoku deploy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which puzzle implementation to deploy.
    #[arg(long, value_enum, ignore_case = true, default_value_t)]
    puzzle: Puzzle,
    /// Shorthand for --puzzle golf.
    #[arg(long, conflicts_with = "puzzle")]
    golf: bool,
    #[command(flatten)]
    chain: ChainArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// What `deploy` writes to `deployments/<chain-id>.json` (on a node).
#[derive(Debug, Serialize)]
pub struct DeploymentRecord {
    chain_id: u64,
    puzzle: Puzzle,
    #[serde(serialize_with = "output::checksum")]
    puzzle_address: Address,
    #[serde(serialize_with = "output::checksum")]
    arena: Address,
    #[serde(serialize_with = "output::checksum")]
    deployer: Address,
    puzzle_tx: Tx,
    arena_tx: Tx,
}

/// `octoku deploy --json`: the record, the chain and where it was recorded.
#[derive(Debug, Serialize)]
struct Deployed<'a> {
    #[serde(flatten)]
    record: &'a DeploymentRecord,
    chain: &'a str,
    recorded_in: String,
}

/// Deploys the puzzle, then the arena pointing at it; records both.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let kind = if args.golf { Puzzle::Golf } else { args.puzzle };
    let mut opened = args.chain.open(KeyUse::Send, true)?;
    if !args.json {
        println!("chain     {}", opened.label);
    }
    let chain_id = opened.chain.chain_id().map_err(chain_error)?;
    let deployer = opened.chain.sender();
    let puzzle = opened
        .chain
        .deploy(kind.artifact().initcode.to_vec().into())
        .map_err(chain_error)?;
    let puzzle_address = created(&puzzle)?;
    let arena = opened
        .chain
        .deploy(arena_initcode(chain::ARENA_INITCODE, puzzle_address))
        .map_err(chain_error)?;
    let arena_address = created(&arena)?;

    let record = DeploymentRecord {
        chain_id,
        puzzle: kind,
        puzzle_address,
        arena: arena_address,
        deployer,
        puzzle_tx: Tx::from(&puzzle),
        arena_tx: Tx::from(&arena),
    };
    // Written only now, after both receipts.
    let written = match &mut opened.chain {
        chain::Chain::Embedded(c) => {
            c.set_deployment(Deployment {
                puzzle_kind: kind,
                puzzle: puzzle_address,
                arena: arena_address,
                puzzle_block: puzzle.block,
                arena_block: arena.block,
            })
            .map_err(chain_error)?;
            c.path().to_path_buf()
        }
        chain::Chain::Rpc(_) => {
            let path = deployments_path(chain_id);
            write_deployment(&path, &record)?;
            path
        }
    };

    if args.json {
        print_json(&Deployed {
            record: &record,
            chain: &opened.label,
            recorded_in: written.display().to_string(),
        })?;
    } else {
        println!("deployer  {deployer}");
        println!(
            "puzzle    {} ({}, block {}, gas {}, tx {})",
            puzzle_address,
            kind.label(),
            puzzle.block,
            puzzle.gas_used,
            puzzle.tx_hash
        );
        println!(
            "arena     {} (block {}, gas {}, tx {})",
            arena_address, arena.block, arena.gas_used, arena.tx_hash
        );
        println!("recorded  {}", written.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn created(receipt: &Receipt) -> Result<Address, CliError> {
    receipt.contract_address.ok_or_else(|| {
        CliError::Chain(format!(
            "deployment {} created no contract",
            receipt.tx_hash
        ))
    })
}

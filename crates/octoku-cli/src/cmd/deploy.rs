//! `octoku deploy`: deploy a puzzle and an arena for it.

use std::process::ExitCode;

use octoku_core::Address;
use octoku_evm::{
    Puzzle,
    chain::{
        self, Receipt,
        arena::arena_initcode,
        deployments::{Deployment, DeploymentsFile},
    },
};
use serde_json::json;

use super::{
    onchain::{ChainArgs, KeyUse, chain_error, deployments_path, recorded_deployments},
    wallet::TxArgs,
};
use crate::{error::CliError, outln};

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
    #[command(flatten)]
    tx: TxArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Deploys the puzzle, then the arena pointing at it; records both.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let kind = if args.golf { Puzzle::Golf } else { args.puzzle };
    let mut opened = args.chain.open(KeyUse::Send, true)?;
    opened.set_tx_options(args.tx.options()?)?;
    if !args.json {
        outln!("chain     {}", opened.label)?;
    }
    let chain_id = opened.chain.chain_id().map_err(chain_error)?;
    // Refuses a deployments file of another chain before spending gas.
    let earlier = recorded_deployments(&mut opened)?.len();
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

    let record = Deployment {
        puzzle_kind: kind,
        puzzle: puzzle_address,
        arena: arena_address,
        puzzle_block: puzzle.block,
        arena_block: arena.block,
        puzzle_tx: Some(puzzle.tx_hash),
        arena_tx: Some(arena.tx_hash),
        puzzle_gas: Some(puzzle.gas_used),
        arena_gas: Some(arena.gas_used),
        deployer: Some(deployer),
    };
    // Written only now, after both receipts; added to the earlier ones.
    let written = match &mut opened.chain {
        chain::Chain::Embedded(c) => {
            c.add_deployment(record.clone()).map_err(chain_error)?;
            c.path().to_path_buf()
        }
        chain::Chain::Rpc(_) => {
            let path = deployments_path(chain_id);
            DeploymentsFile::append(&path, chain_id, record.clone()).map_err(chain_error)?;
            path
        }
    };

    if args.json {
        let mut out = serde_json::to_value(&record)
            .map_err(|e| CliError::Evm(format!("cannot encode the deployment: {e}")))?;
        out["chain"] = json!(opened.label);
        out["chain_id"] = json!(chain_id);
        out["recorded_in"] = json!(written.display().to_string());
        out["earlier_deployments"] = json!(earlier);
        outln!("{out}")?;
    } else {
        outln!("deployer  {deployer}")?;
        outln!(
            "puzzle    {} ({}, block {}, gas {}, tx {})",
            puzzle_address,
            kind.label(),
            puzzle.block,
            puzzle.gas_used,
            puzzle.tx_hash
        )?;
        outln!(
            "arena     {} (block {}, gas {}, tx {})",
            arena_address,
            arena.block,
            arena.gas_used,
            arena.tx_hash
        )?;
        outln!("recorded  {}", written.display())?;
        if earlier > 0 {
            outln!(
                "default   this arena is now the default; the {earlier} earlier deployment(s) stay on record (--arena ADDRESS uses one)"
            )?;
        }
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

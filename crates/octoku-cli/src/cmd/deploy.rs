//! `octoku deploy`: deploy a puzzle and an arena for it.

use std::process::ExitCode;

use octoku_core::Address;
use octoku_evm::{
    Puzzle,
    chain::{self, Receipt, arena::arena_initcode, state::Deployment},
};
use serde_json::json;

use super::onchain::{
    ChainArgs, KeyUse, chain_error, deployments_path, hash_hex, write_deployment,
};
use crate::error::CliError;

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

    let record = json!({
        "chain_id": chain_id,
        "puzzle_kind": kind.label(),
        "puzzle": puzzle_address.to_string(),
        "arena": arena_address.to_string(),
        "puzzle_block": puzzle.block,
        "arena_block": arena.block,
        "puzzle_tx": hash_hex(puzzle.tx_hash),
        "arena_tx": hash_hex(arena.tx_hash),
        "puzzle_gas": puzzle.gas_used,
        "arena_gas": arena.gas_used,
        "deployer": deployer.to_string(),
    });
    // Written only now, after both receipts.
    let written = match &mut opened.chain {
        chain::Chain::Embedded(c) => {
            c.add_deployment(Deployment {
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
        let mut out = record;
        out["chain"] = json!(opened.label);
        out["recorded_in"] = json!(written.display().to_string());
        println!("{out}");
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

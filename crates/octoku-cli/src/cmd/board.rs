//! `octoku board`: the board an address must solve, read from the arena.

use std::process::ExitCode;

use octoku_core::Board;
use octoku_evm::chain::{Chain, arena};
use serde_json::json;

use super::onchain::{ArenaArgs, KeyUse, arena_address, chain_error};
use crate::{error::CliError, input};

/// Arguments of `octoku board`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Whose board (default: the --private-key's address).
    address: Option<String>,
    #[command(flatten)]
    on: ArenaArgs,
}

/// Reads `arena.boardOf(address)` and `arena.solvedAt(address)`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let player = args.address.as_deref().map(input::address).transpose()?;
    let mut opened = args.on.chain.open(KeyUse::Read, false)?;
    let player = match player {
        Some(p) => p,
        None if opened.explicit_key || matches!(opened.chain, Chain::Embedded(_)) => {
            opened.chain.sender()
        }
        None => {
            return Err(CliError::Input(
                "give an ADDRESS or --private-key; expected one of them".into(),
            ));
        }
    };
    let arena_addr = arena_address(&mut opened, args.on.arena.as_deref())?;
    let start = Board::from_u256(
        arena::board_of(&mut opened.chain, arena_addr, player).map_err(chain_error)?,
    );
    let solved = arena::solved_at(&mut opened.chain, arena_addr, player).map_err(chain_error)?;
    if args.on.json {
        let out = json!({
            "chain": opened.label,
            "arena": arena_addr.to_string(),
            "address": player.to_string(),
            "start": start.to_hex(),
            "solved": solved.rank != 0,
            "rank": (solved.rank != 0).then_some(solved.rank),
            "solved_block": (solved.rank != 0).then_some(solved.block),
        });
        println!("{out}");
    } else {
        println!("chain     {}", opened.label);
        println!("arena     {arena_addr}");
        println!("address   {player}");
        println!();
        println!("{}", start.grid());
        println!();
        println!("start     {}", start.to_hex());
        if solved.rank != 0 {
            println!("solved    rank {} in block {}", solved.rank, solved.block);
        } else {
            println!("solved    not yet");
        }
    }
    Ok(ExitCode::SUCCESS)
}

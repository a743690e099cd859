//! `octoku board`: the board an address must solve, read from the arena.

use std::process::ExitCode;

use octoku_core::{Address, Board};
use octoku_evm::chain::{Chain, arena};
use serde::Serialize;

use super::onchain::{ArenaArgs, KeyUse, arena_address, chain_error};
use crate::{
    error::CliError,
    input,
    output::{self, print_json},
};

/// Arguments of `octoku board`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Whose board (default: the --private-key's address).
    address: Option<String>,
    #[command(flatten)]
    on: ArenaArgs,
}

/// `octoku board --json`.
#[derive(Debug, Serialize)]
struct OnChainBoard<'a> {
    chain: &'a str,
    #[serde(serialize_with = "output::checksum")]
    arena: Address,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    solved: bool,
    rank: Option<u64>,
    solved_block: Option<u64>,
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
        print_json(&OnChainBoard {
            chain: &opened.label,
            arena: arena_addr,
            address: player,
            start,
            solved: solved.rank != 0,
            rank: (solved.rank != 0).then_some(solved.rank),
            solved_block: (solved.rank != 0).then_some(solved.block),
        })?;
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

//! `octoku leaderboard`: every solver of an arena in rank order, from its
//! `Solved` events (log queries of bounded block ranges) and `solverCount()`.

use std::process::ExitCode;

use octoku_chain::leaderboard::{self, DEFAULT_PAGE};
use octoku_core::Address;
use serde::Serialize;

use crate::error::chain_error;
use crate::opts::chain::{ArenaArgs, KeyUse, arena_address};
use crate::{
    error::CliError,
    outln,
    output::{self, print_json},
};

/// One row of `octoku leaderboard --json` (a list of them, in rank order).
#[derive(Debug, Serialize)]
struct Row {
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    rank: u64,
    block: u64,
}

/// Arguments of `octoku leaderboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    on: ArenaArgs,
    /// First block to search (default: the arena's deployment block when it
    /// is on record, else 0).
    #[arg(long, value_name = "BLOCK")]
    from_block: Option<u64>,
    /// Blocks per log query (halved when the node refuses a range).
    #[arg(long, value_name = "BLOCKS", default_value_t = DEFAULT_PAGE,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    page: u64,
}

/// Reads and prints the leaderboard. JSON: a list of
/// `{"address", "rank", "block"}` in rank order.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if crate::curta::wanted(&args.on) {
        return crate::curta::leaderboard(&args.on, args.from_block, args.page);
    }
    let mut opened = args.on.chain.open(KeyUse::Read, false)?;
    let info = arena_address(&mut opened, args.on.arena.as_deref())?;
    let from = args.from_block.or(info.block).unwrap_or(0);
    let board =
        leaderboard::read(&mut opened.chain, info.arena, from, args.page).map_err(chain_error)?;
    tracing::info!(queries = board.queries, from, "leaderboard read");
    if args.on.json {
        let rows: Vec<Row> = board
            .entries
            .iter()
            .map(|e| Row {
                address: e.address,
                rank: e.rank,
                block: e.block,
            })
            .collect();
        print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("chain     {}", opened.label)?;
    outln!("arena     {}", info.arena)?;
    outln!("puzzle    {}", info.puzzle_label())?;
    outln!("solvers   {}", board.solver_count)?;
    if !board.entries.is_empty() {
        outln!()?;
        outln!("rank  address                                     block")?;
        for e in &board.entries {
            outln!("{:>4}  {}  {:>5}", e.rank, e.address, e.block)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

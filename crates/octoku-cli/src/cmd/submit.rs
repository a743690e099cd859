//! `octoku submit`: send a solution found by hand to the arena.

use std::process::ExitCode;

use octoku_core::{Address, Board};
use octoku_evm::chain::arena;
use serde::Serialize;

use super::onchain::{ArenaArgs, KeyUse, Opened, arena_address, chain_error};
use crate::{
    error::CliError,
    input,
    output::{self, Tx, print_json},
};

/// Arguments of `octoku submit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The solved board (0x hex, decimal, or 64 cells of 1-8).
    solution: String,
    #[command(flatten)]
    on: ArenaArgs,
}

/// `octoku submit --json` and `octoku play --json`: the seat, the solution
/// and the mined solve (`solution`, `rank` and `tx` are null, and `reason`
/// says why, when `play` finds no solution and sends nothing).
#[derive(Debug, Serialize)]
pub(crate) struct Submission<'a> {
    pub chain: &'a str,
    #[serde(serialize_with = "output::checksum")]
    pub arena: Address,
    #[serde(serialize_with = "output::checksum")]
    pub address: Address,
    #[serde(serialize_with = "output::hex")]
    pub start: Board,
    #[serde(serialize_with = "output::hex_opt")]
    pub solution: Option<Board>,
    pub rank: Option<u64>,
    pub tx: Option<Tx>,
    pub reason: Option<String>,
}

/// Sends `arena.solve(solution)` from the key's address.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let solution = input::board("SOLUTION", &args.solution)?;
    let mut seat = Seat::take(&args.on)?;
    send_solution(&mut seat, solution, args.on.json)
}

/// The signer at the arena: the open chain, the arena, the signer's address
/// and the board the arena hands it.
pub(crate) struct Seat {
    pub opened: Opened,
    pub arena: Address,
    pub player: Address,
    pub start: Board,
}

impl Seat {
    /// Opens the chain to send, finds the arena and reads the signer's board.
    pub(crate) fn take(on: &ArenaArgs) -> Result<Seat, CliError> {
        let mut opened = on.chain.open(KeyUse::Send, false)?;
        let arena = arena_address(&mut opened, on.arena.as_deref())?;
        let player = opened.chain.sender();
        let start = Board::from_u256(
            arena::board_of(&mut opened.chain, arena, player).map_err(chain_error)?,
        );
        Ok(Seat {
            opened,
            arena,
            player,
            start,
        })
    }
}

/// Sends the solve (simulated first), waits for the receipt, prints rank, gas
/// and transaction hash.
pub(crate) fn send_solution(
    seat: &mut Seat,
    solution: Board,
    json: bool,
) -> Result<ExitCode, CliError> {
    let (arena_addr, player, start) = (seat.arena, seat.player, seat.start);
    let opened = &mut seat.opened;
    if !json {
        println!("chain     {}", opened.label);
        println!("arena     {arena_addr}");
        println!("address   {player}");
        println!("start     {}", start.to_hex());
        println!("solution  {}", solution.to_hex());
    }
    let solved =
        arena::solve(&mut opened.chain, arena_addr, solution.to_u256()).map_err(chain_error)?;
    let r = &solved.receipt;
    if json {
        print_json(&Submission {
            chain: &opened.label,
            arena: arena_addr,
            address: player,
            start,
            solution: Some(solution),
            rank: Some(solved.rank),
            tx: Some(Tx::from(r)),
            reason: None,
        })?;
    } else {
        println!("rank      {}", solved.rank);
        println!("gas used  {}", r.gas_used);
        println!("tx        {} (block {})", r.tx_hash, r.block);
    }
    Ok(ExitCode::SUCCESS)
}

//! `octoku submit`: send a solution found by hand to the arena.

use std::process::ExitCode;

use octoku_chain::arena::{self, play};
use octoku_core::{Address, Board};
use octoku_evm::Puzzle;
use serde::Serialize;

use crate::error::chain_error;
use crate::opts::chain::{ArenaArgs, ArenaInfo, KeyUse, Opened, arena_address};
use crate::opts::wallet::TxArgs;
use crate::{
    error::CliError,
    input, outln,
    output::{self, Tx, print_json},
};

/// `octoku submit --json` and `octoku play --json`: the seat, the solution
/// and the mined solve (`solution`, `rank` and `tx` are null, and `reason`
/// says why, when `play` finds no solution and sends nothing).
#[derive(Debug, Serialize)]
pub(crate) struct Submission<'a> {
    pub chain: &'a str,
    #[serde(serialize_with = "output::checksum")]
    pub arena: Address,
    /// The arena's puzzle kind (`null`: an IPuzzle not built here).
    pub puzzle: Option<Puzzle>,
    #[serde(serialize_with = "output::checksum")]
    pub puzzle_address: Address,
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

/// Arguments of `octoku submit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The solved board (0x hex, decimal, or 64 cells of 1-8).
    solution: String,
    #[command(flatten)]
    send: SendArgs,
}

/// The arena, the sender's key and `--value`: what `play` and `submit` take.
#[derive(Debug, clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub on: ArenaArgs,
    #[command(flatten)]
    pub tx: TxArgs,
    #[command(flatten)]
    pub value: ValueArg,
}

/// `--value`: wei sent with a Curta solve (its phase 2 fee).
#[derive(Debug, clap::Args)]
pub(crate) struct ValueArg {
    /// Wei to send with a Curta solve (phase 2 asks at least 0.02 ether):
    /// plain wei or with a unit (`0.02ether`, `20gwei`), as in cast.
    #[arg(long, value_name = "AMOUNT", value_parser = crate::opts::wallet::parse_price)]
    pub value: Option<u128>,
}

impl ValueArg {
    /// Refuses a value for an arena, whose `solve` takes none.
    pub(crate) fn refuse(&self) -> Result<(), CliError> {
        match self.value {
            Some(_) => Err(CliError::Input(
                "--value: an arena's solve takes no value; expected --curta or --puzzle-id (a Curta solve in phase 2)".into(),
            )),
            None => Ok(()),
        }
    }
}

/// Checks the solution locally against the board the arena hands the
/// sender, then sends `arena.solve(solution)`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let solution = input::board("SOLUTION", &args.solution)?;
    let args = args.send;
    if crate::curta::wanted(&args.on) {
        return crate::curta::solve_and_send(&args.on, &args.tx, args.value.value, Some(solution));
    }
    args.value.refuse()?;
    let mut seat = Seat::take(&args.on, &args.tx)?;
    let at = play::Seat {
        arena: seat.info.arena,
        player: seat.player,
        start: seat.start,
    };
    if let Err(refusal) = play::check(&at, seat.info.kind, solution) {
        return Err(CliError::Rejected(rejection(&seat, &refusal)));
    }
    send_solution(&mut seat, solution, args.on.json)
}

/// Why the arena's puzzle would reject the solution, in one line, naming the
/// puzzle whose board it does solve when that explains the mistake.
fn rejection(seat: &Seat, refusal: &play::Refusal) -> String {
    let play::Refusal::Wrong {
        first,
        solves_instead,
        ..
    } = refusal
    else {
        return format!("nothing sent: {refusal}");
    };
    let mut line = format!(
        "nothing sent: this arena's puzzle is {}, and the solution does not solve its board for {} ({}): {first}",
        seat.info.puzzle_label(),
        seat.player,
        seat.start
    );
    if let (Some(other), Some(kind)) = (solves_instead, seat.info.kind) {
        line.push_str(&format!(
            "; it solves the {other} puzzle's board instead: solve this one with `octoku solve --puzzle {kind} --address {}` or `octoku play`",
            seat.player
        ));
    }
    line
}

/// The signer at the arena: the open chain, the arena, the signer's address
/// and the board the arena hands it.
pub(crate) struct Seat {
    pub opened: Opened,
    pub info: ArenaInfo,
    pub player: Address,
    pub start: Board,
}

impl Seat {
    /// Opens the chain to send, finds the arena and reads the signer's board.
    pub(crate) fn take(on: &ArenaArgs, tx: &TxArgs) -> Result<Seat, CliError> {
        let mut opened = on
            .chain
            .open_with(KeyUse::Send, false, tx.options_shown(on.json)?)?;
        let info = arena_address(&mut opened, on.arena.as_deref())?;
        // As Curta's path does: a second solve is refused here (exit 1),
        // before anything is sent, instead of the arena's revert.
        let at = play::seat(&mut opened.chain, info.arena)
            .map_err(chain_error)?
            .map_err(|r| CliError::rejected_in("nothing sent", r))?;
        let (player, start) = (at.player, at.start);
        Ok(Seat {
            opened,
            info,
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
    let (arena_addr, player, start) = (seat.info.arena, seat.player, seat.start);
    let opened = &mut seat.opened;
    if !json {
        outln!("chain     {}", opened.label)?;
        outln!("arena     {arena_addr}")?;
        outln!("puzzle    {}", seat.info.puzzle_label())?;
        outln!("address   {player}")?;
        outln!("start     {}", start.to_hex())?;
        outln!("solution  {}", solution.to_hex())?;
    }
    tracing::info!(arena = %arena_addr, "sending solve");
    let solved =
        arena::solve(&mut opened.chain, arena_addr, solution.to_u256()).map_err(chain_error)?;
    let r = &solved.receipt;
    if json {
        print_json(&Submission {
            chain: &opened.label,
            arena: arena_addr,
            puzzle: seat.info.kind,
            puzzle_address: seat.info.puzzle,
            address: player,
            start,
            solution: Some(solution),
            rank: Some(solved.rank),
            tx: Some(Tx::from(r)),
            reason: None,
        })?;
    } else {
        outln!("rank      {}", solved.rank)?;
        outln!("gas used  {}", r.gas_used)?;
        if r.fee > 0 {
            outln!("fee paid  {}", octoku_chain::curta::fee_paid(r.fee))?;
        }
        outln!("tx        {} (block {})", r.tx_hash, r.block)?;
    }
    Ok(ExitCode::SUCCESS)
}

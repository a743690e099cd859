//! `octoku play`: read your board from the arena, solve it, submit it.

use std::process::ExitCode;

use super::submit::{Seat, SendArgs, Submission, send_solution};
use crate::{
    error::CliError,
    output::{DEAD_END_SHARE, print_json},
};

/// Arguments of `octoku play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    send: SendArgs,
}

/// Solves the key's board and sends the solution; an unsolvable board sends
/// nothing and exits 1.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let args = args.send;
    if crate::curta::wanted(&args.on) {
        return crate::curta::solve_and_send(&args.on, &args.tx, args.value.value, None);
    }
    args.value.refuse()?;
    let mut seat = Seat::take(&args.on, &args.tx)?;
    let (player, start) = (seat.player, seat.start);
    let at = octoku_chain::arena::play::Seat {
        arena: seat.info.arena,
        player,
        start,
    };
    let solution =
        octoku_chain::arena::play::solution(&at).map_err(|e| CliError::EvmCause(Box::new(e)))?;
    let Some(solution) = solution else {
        let reason = octoku_core::octoku::explain::contradiction(start);
        if args.on.json {
            print_json(&Submission {
                chain: &seat.opened.label,
                arena: seat.info.arena,
                puzzle: seat.info.kind,
                puzzle_address: seat.info.puzzle,
                address: player,
                start,
                solution: None,
                rank: None,
                tx: None,
                reason,
            })?;
        } else {
            let why = reason.unwrap_or_else(|| "the search found no completion".into());
            crate::outln!(
                "the board of {} has no solution, nothing sent: {why} (start {}; {DEAD_END_SHARE}, an arena on the fair puzzle cannot)",
                player,
                start.to_hex()
            )?;
        }
        return Ok(ExitCode::from(1));
    };
    send_solution(&mut seat, solution, args.on.json)
}

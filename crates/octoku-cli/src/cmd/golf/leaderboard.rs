//! `octoku golf leaderboard`: a course's King and its history, from events.

use std::process::ExitCode;

use octoku_chain::golf;
use octoku_chain::leaderboard::DEFAULT_PAGE;
use octoku_core::Address;
use serde::Serialize;

use crate::error::{CliError, chain_error};
use crate::input;
use crate::opts::chain::{ChainArgs, KeyUse};
use crate::output::{self, print_json};

/// Arguments of `octoku golf leaderboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Curta Golf contract.
    #[arg(long, value_name = "ADDRESS")]
    curta_golf: String,
    /// The course id.
    #[arg(long, value_name = "ID")]
    course: u32,
    /// First block of the event scan (default 0).
    #[arg(long, value_name = "BLOCK", default_value_t = 0)]
    from_block: u64,
    #[command(flatten)]
    chain: ChainArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// One King change, as JSON.
#[derive(Debug, Serialize)]
struct ChangeJson {
    #[serde(serialize_with = "output::checksum")]
    king: Address,
    gas_used: u32,
    block: u64,
    tx: String,
}

/// `octoku golf leaderboard --json`.
#[derive(Debug, Serialize)]
struct BoardJson {
    course: u32,
    #[serde(serialize_with = "output::checksum")]
    contract: Address,
    #[serde(serialize_with = "output::checksum_opt")]
    king: Option<Address>,
    gas_used: u32,
    solution_count: u32,
    king_count: u32,
    changes: Vec<ChangeJson>,
}

/// Reads and prints the leaderboard.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let golf_at = input::address(&args.curta_golf)?;
    let mut opened = args.chain.open(KeyUse::Read, false)?;
    let chain = &mut opened.chain;
    golf::require_curta_golf(chain, golf_at).map_err(chain_error)?;
    if golf::course(chain, golf_at, args.course)
        .map_err(chain_error)?
        .is_none()
    {
        return Err(CliError::Input(format!(
            "--course {}: Curta Golf {golf_at} has no such course",
            args.course
        )));
    }
    let b = golf::leaderboard(chain, golf_at, args.course, args.from_block, DEFAULT_PAGE)
        .map_err(chain_error)?;
    if args.json {
        return print_json(&BoardJson {
            course: args.course,
            contract: b.course.course,
            king: b.king,
            gas_used: b.course.gas_used,
            solution_count: b.course.solution_count,
            king_count: b.course.king_count,
            changes: b
                .changes
                .iter()
                .map(|c| ChangeJson {
                    king: c.recipient,
                    gas_used: c.gas_used,
                    block: c.block,
                    tx: c.tx.to_string(),
                })
                .collect(),
        })
        .map(|_| ExitCode::SUCCESS);
    }
    crate::outln!("course     {} ({})", args.course, b.course.course)?;
    match b.king {
        Some(k) => crate::outln!("king       {k} with {} gas", b.course.gas_used)?,
        None => crate::outln!("king       none yet")?,
    }
    crate::outln!(
        "solutions  {} accepted, the King changed {} times",
        b.course.solution_count,
        b.course.king_count
    )?;
    for c in &b.changes {
        crate::outln!(
            "  block {:>8}  {}  {} gas  tx {}",
            c.block,
            c.recipient,
            c.gas_used,
            c.tx
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

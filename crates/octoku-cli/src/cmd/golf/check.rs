//! `octoku golf check`: one card, one verdict, before anything is sent.

use std::process::ExitCode;

use octoku_evm::golf::Opcodes;
use octoku_prove::golf::{Checked, Verdict};

use super::solution::{SolutionArgs, print_card};
use crate::error::CliError;
use crate::output::print_json;

/// Arguments of `octoku golf check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub solution: SolutionArgs,
    /// The opcodes the course allows, a 256-bit mask (bit N allows opcode
    /// N), 0x hex; default: the mask of octoku's courses (no calls, storage,
    /// logs, creation, gas or environment reads).
    #[arg(long, value_name = "0xMASK")]
    pub allowed_opcodes: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses `--allowed-opcodes`.
pub(super) fn parse_mask(arg: &str) -> Result<Opcodes, CliError> {
    arg.trim()
        .parse::<octoku_core::U256>()
        .map(Opcodes)
        .map_err(|e| {
            CliError::input_framed(
                format!("--allowed-opcodes {arg}: "),
                e,
                "; expected a 256-bit mask, 0x hex (bit N allows opcode N)",
            )
        })
}

/// Exit 0 when ready (or unproved with --no-prove), 1 when Curta Golf or the
/// course would refuse it or the proof refutes it.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let allowed = match &args.allowed_opcodes {
        Some(m) => parse_mask(m)?,
        None => Opcodes::courses(),
    };
    let (label, initcode) = args.solution.initcode()?;
    let c = args.solution.check(&label, &initcode, allowed)?;
    if args.json {
        print_json(&Checked::new(&label, &c))?;
    } else {
        print_card(&label, &c)?;
    }
    Ok(match c.verdict() {
        Verdict::Ready | Verdict::Unproved => ExitCode::SUCCESS,
        Verdict::Refused | Verdict::Wrong => ExitCode::from(1),
    })
}

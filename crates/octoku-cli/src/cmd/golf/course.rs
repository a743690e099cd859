//! `octoku golf course add`: deploy one of octoku's courses (or name one
//! already deployed) and add it to a Curta Golf contract (its owner only).

use std::process::ExitCode;

use octoku_chain::golf;
use octoku_core::Address;
use octoku_evm::golf::{Course, Opcodes};
use serde::Serialize;

use super::check::parse_mask;
use crate::error::{CliError, chain_error};
use crate::input;
use crate::opts::chain::{ChainArgs, KeyUse};
use crate::opts::wallet::TxArgs;
use crate::output::{self, Tx, print_json};

/// What `octoku golf course` does.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Add a course (deployed here from contracts/golf/, or --course-address)
    /// with the opcodes its solutions may use; the Curta Golf owner only.
    Add(AddArgs),
}

/// Arguments of `octoku golf course add`.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// The Curta Golf contract.
    #[arg(long, value_name = "ADDRESS")]
    curta_golf: String,
    /// Which of octoku's courses to deploy and add.
    #[arg(long, value_enum, ignore_case = true, default_value = "verify8")]
    kind: Course,
    /// A course contract already deployed (ICourse) instead of deploying --kind.
    #[arg(long, value_name = "ADDRESS")]
    course_address: Option<String>,
    /// The opcodes its solutions may use, a 256-bit mask (bit N allows
    /// opcode N), 0x hex; default: the mask of octoku's courses.
    #[arg(long, value_name = "0xMASK")]
    allowed_opcodes: Option<String>,
    #[command(flatten)]
    chain: ChainArgs,
    #[command(flatten)]
    tx: TxArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `octoku golf course add --json`.
#[derive(Debug, Serialize)]
struct AddedJson {
    id: u32,
    #[serde(serialize_with = "output::checksum")]
    course: Address,
    allowed_opcodes: String,
    deploy_tx: Option<Tx>,
    tx: Tx,
}

/// Runs `golf course ...`.
pub fn run(what: What) -> Result<ExitCode, CliError> {
    let What::Add(args) = what;
    let golf_at = input::address(&args.curta_golf)?;
    let allowed = match &args.allowed_opcodes {
        Some(m) => parse_mask(m)?,
        None => Opcodes::courses(),
    };
    let existing = args
        .course_address
        .as_deref()
        .map(input::address)
        .transpose()?;
    let mut opened =
        args.chain
            .open_with(KeyUse::Send, false, args.tx.options_shown(args.json)?)?;
    let chain = &mut opened.chain;
    golf::require_curta_golf(chain, golf_at).map_err(chain_error)?;
    let (course, deploy) = match existing {
        Some(at) => {
            chain.require_code(at).map_err(chain_error)?;
            (at, None)
        }
        None => {
            let r = golf::deploy_course(chain, args.kind).map_err(chain_error)?;
            let at = r.contract_address.ok_or_else(|| {
                CliError::Chain("the course deployment created no contract".into())
            })?;
            if !args.json {
                crate::outln!(
                    "deployed  {} course at {at} (tx {})",
                    args.kind.label(),
                    r.tx_hash
                )?;
            }
            (at, Some(r))
        }
    };
    let added = golf::add_course(chain, golf_at, course, allowed).map_err(chain_error)?;
    if args.json {
        print_json(&AddedJson {
            id: added.id,
            course,
            allowed_opcodes: format!("{:#066x}", allowed.0),
            deploy_tx: deploy.as_ref().map(Tx::from),
            tx: Tx::from(&added.receipt),
        })?;
    } else {
        crate::outln!("course    {} on Curta Golf {golf_at}", added.id)?;
        crate::outln!("contract  {course}")?;
        crate::outln!("opcodes   {:#066x}", allowed.0)?;
        crate::outln!(
            "tx        {} (block {})",
            added.receipt.tx_hash,
            added.receipt.block
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

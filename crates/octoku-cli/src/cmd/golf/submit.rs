//! `octoku golf submit`: `golf check` first (nothing is sent when Curta Golf
//! or the course would refuse the solution, or the proof refutes it, unless
//! --force), then commit, wait the commit age, submit. The salt is kept in
//! a file from before the commit is sent until the submit is mined, so an
//! interrupted submit resumes with the same key.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use octoku_chain::golf::{self, MIN_COMMIT_AGE, Pending};
use octoku_core::Address;
use octoku_prove::golf::Verdict;
use serde::Serialize;

use super::solution::{SolutionArgs, print_card};
use crate::error::{CliError, chain_error};
use crate::input;
use crate::opts::chain::{ChainArgs, KeyUse};
use crate::opts::wallet::TxArgs;
use crate::output::{self, Tx, print_json};

/// Arguments of `octoku golf submit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Curta Golf contract.
    #[arg(long, value_name = "ADDRESS")]
    pub curta_golf: String,
    /// The course id on it.
    #[arg(long, value_name = "ID")]
    pub course: u32,
    #[command(flatten)]
    pub solution: SolutionArgs,
    /// Who gets the King and Par tokens (default: the sender).
    #[arg(long, value_name = "ADDRESS")]
    pub recipient: Option<String>,
    /// Send even when the check says Curta Golf or the course would refuse
    /// it or the proof refutes it.
    #[arg(long)]
    pub force: bool,
    /// On a development node (anvil): move its clock past the commit age
    /// (evm_increaseTime, evm_mine) instead of waiting.
    #[arg(long)]
    pub move_time: bool,
    /// Longest wait for the commit age, in seconds of wall time, polling the
    /// chain's latest block (a node that mines no blocks never ages it).
    #[arg(long, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub max_wait: u64,
    /// Directory of the pending commits (salt and key), one file per chain,
    /// Curta Golf, course, sender and solution.
    #[arg(long, value_name = "DIR", default_value = ".octoku/golf")]
    pub pending_dir: PathBuf,
    #[command(flatten)]
    pub chain: ChainArgs,
    #[command(flatten)]
    pub tx: TxArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `octoku golf submit --json`.
#[derive(Debug, Serialize)]
struct SubmitJson {
    chain: String,
    #[serde(serialize_with = "output::checksum")]
    curta_golf: Address,
    course: u32,
    verdict: Verdict,
    key: String,
    commit_tx: Option<String>,
    gas_used: u32,
    king: bool,
    #[serde(serialize_with = "output::checksum")]
    target: Address,
    tx: Tx,
}

/// Exit 0 when submitted; 1 refused before sending (the check, or the
/// commit too young on a node whose clock is not moved); 5 a transaction
/// would revert (e.g. PollutedSolution() with --force).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let golf_at = input::address(&args.curta_golf)?;
    let (label, initcode) = args.solution.initcode()?;
    let mut opened =
        args.chain
            .open_with(KeyUse::Send, false, args.tx.options_shown(args.json)?)?;
    let chain = &mut opened.chain;
    golf::require_curta_golf(chain, golf_at).map_err(chain_error)?;
    let info = golf::course(chain, golf_at, args.course)
        .map_err(chain_error)?
        .ok_or_else(|| {
            CliError::Input(format!(
                "--course {}: Curta Golf {golf_at} has no such course; expected an id from `octoku golf course add`",
                args.course
            ))
        })?;
    let check = args.solution.check(&label, &initcode, info.allowed)?;
    if !args.json {
        print_card(&label, &check)?;
    }
    let verdict = check.verdict();
    if matches!(verdict, Verdict::Refused | Verdict::Wrong) && !args.force {
        return Err(CliError::Rejected(format!(
            "nothing sent: {} (--force sends anyway)",
            check.reason()
        )));
    }
    let sender = chain.sender();
    let recipient = match &args.recipient {
        Some(r) => input::address(r)?,
        None => sender,
    };
    let chain_id = chain.chain_id().map_err(chain_error)?;
    let path = Pending::path(
        &args.pending_dir,
        chain_id,
        golf_at,
        args.course,
        sender,
        &initcode,
    );
    let mut pending = match Pending::load(&path, &initcode).map_err(CliError::input)? {
        Some(p) => {
            if !args.json {
                crate::outln!("resuming  the commit kept in {}", path.display())?;
            }
            p
        }
        None => Pending::new(chain_id, golf_at, args.course, sender, &initcode),
    };
    // Kept before the commit is sent: a commit mined after an interruption
    // is resumed with this salt.
    pending.save(&path).map_err(CliError::chain)?;
    let committed = match golf::get_commit(chain, golf_at, pending.key).map_err(chain_error)? {
        Some((_, at)) => at,
        None => {
            if !args.json {
                crate::outln!(
                    "commit    key {} (salt kept in {})",
                    pending.key,
                    path.display()
                )?;
            }
            let receipt = golf::commit(chain, golf_at, pending.key).map_err(chain_error)?;
            pending.commit_tx = Some(receipt.tx_hash);
            pending.save(&path).map_err(CliError::chain)?;
            if !args.json {
                crate::outln!("committed tx {} (block {})", receipt.tx_hash, receipt.block)?;
            }
            golf::get_commit(chain, golf_at, pending.key)
                .map_err(chain_error)?
                .map(|(_, at)| at)
                .ok_or_else(|| {
                    CliError::Chain(format!(
                        "the commit of key {} was mined but Curta Golf does not hold it",
                        pending.key
                    ))
                })?
        }
    };
    wait_commit_age(chain, committed, &args, &path)?;
    if !args.json {
        crate::outln!("submit    course {} to Curta Golf {golf_at}", args.course)?;
    }
    let s = golf::submit(
        chain,
        golf_at,
        args.course,
        &initcode,
        recipient,
        pending.salt,
    )
    .map_err(chain_error)?;
    // The key is spent; a leftover file would only be refused later.
    let _ = std::fs::remove_file(&path);
    if args.json {
        print_json(&SubmitJson {
            chain: opened.label.clone(),
            curta_golf: golf_at,
            course: args.course,
            verdict,
            key: pending.key.to_string(),
            commit_tx: pending.commit_tx.map(|t| t.to_string()),
            gas_used: s.gas_used,
            king: s.king,
            target: s.target,
            tx: Tx::from(&s.receipt),
        })?;
    } else {
        crate::outln!("gas used  {} (metered by the course)", s.gas_used)?;
        crate::outln!(
            "king      {}",
            if s.king {
                "yes: the King token of this course went to the recipient"
            } else {
                "no: the King's solution is as cheap or cheaper"
            }
        )?;
        crate::outln!("deployed  {}", s.target)?;
        crate::outln!(
            "tx        {} (block {})",
            s.receipt.tx_hash,
            s.receipt.block
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Waits until the chain's latest block is MIN_COMMIT_AGE seconds past the
/// commit: moves a development node's clock with --move-time, refuses on
/// anvil without it (its clock moves only with blocks), else polls.
fn wait_commit_age(
    chain: &mut octoku_chain::Chain,
    committed: u64,
    args: &Args,
    path: &std::path::Path,
) -> Result<(), CliError> {
    let ready = committed + MIN_COMMIT_AGE;
    let now = chain.timestamp().map_err(chain_error)?;
    if now >= ready {
        return Ok(());
    }
    if args.move_time {
        if !args.json {
            crate::outln!(
                "time      moving the node's clock {} s ahead (--move-time)",
                ready - now
            )?;
        }
        return chain.increase_time(ready - now).map_err(chain_error);
    }
    let client = chain.client_version().map_err(chain_error)?;
    let dev = client.starts_with("anvil") || client.to_ascii_lowercase().contains("hardhat");
    let later = format!(
        "nothing submitted: the commit is {} s old in chain time and Curta Golf needs {MIN_COMMIT_AGE} s (CommitTooNew); the salt is kept in {}: run the same command again",
        now.saturating_sub(committed),
        path.display()
    );
    if dev {
        return Err(CliError::Rejected(format!(
            "{later} with --move-time, or after `cast rpc evm_increaseTime {}` and `cast rpc evm_mine` ({client} moves its clock only with blocks)",
            ready - now
        )));
    }
    if !args.json {
        crate::outln!(
            "waiting   {} s of chain time for the commit age",
            ready - now
        )?;
    }
    let began = Instant::now();
    loop {
        std::thread::sleep(Duration::from_secs(2));
        if chain.timestamp().map_err(chain_error)? >= ready {
            return Ok(());
        }
        if began.elapsed() >= Duration::from_secs(args.max_wait) {
            return Err(CliError::Rejected(format!(
                "{later} (waited --max-wait {} s)",
                args.max_wait
            )));
        }
    }
}

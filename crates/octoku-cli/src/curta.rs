//! Curta (`--curta CURTA --puzzle-id N`): what `deploy`, `board`, `play`,
//! `submit` and `leaderboard` do on the Curta protocol instead of an arena.
//! Curta must be deployed on the node (`--rpc-url`); every refusal is
//! decided from the chain's state before anything is sent.

use std::process::ExitCode;

use std::path::Path;

use octoku_chain::{
    curta::{
        self, AddError, Source,
        play::{self, Found, PlayError, Prepared, Ready},
    },
    deployments::{CurtaPuzzleRecord, DeploymentsFile},
};
use octoku_core::{Address, Board};
use octoku_evm::Puzzle;
use serde::Serialize;

use crate::error::chain_error;
use crate::opts::chain::{ArenaArgs, ChainArgs, DEPLOYMENTS_DIR, KeyUse, Opened, deployments_path};
use crate::opts::wallet::TxArgs;
use crate::{
    error::CliError,
    outln,
    output::{self, DEAD_END_SHARE, Tx, print_json},
};

/// Curta refuses solves in phase 3 and asks a fee in phase 2: these are the
/// words for each phase.
const PHASES: [&str; 4] = [
    "0 (no solve yet)",
    "1 (up to 2 days after the first solve; free)",
    "2 (2 to 5 days after the first solve; a fee)",
    "3 (more than 5 days after the first solve; closed)",
];

pub use octoku_chain::curta::ether;

/// Whether the flags ask for Curta rather than an arena.
pub fn wanted(on: &ArenaArgs) -> bool {
    on.curta.is_some() || on.puzzle_id.is_some()
}

/// Refuses the embedded chain (no --rpc-url): Curta is not deployed there.
pub fn require_node(chain: &ChainArgs) -> Result<(), CliError> {
    match chain.rpc_url {
        None => Err(CliError::Input(
            "--curta and --puzzle-id need --rpc-url: Curta is not deployed on the embedded chain (give a node where it is, e.g. mainnet's 0x0000000006bC8D9e5e9d436217B88De704a9F307)".into(),
        )),
        Some(_) => Ok(()),
    }
}

/// Finds the Curta puzzle: `--curta` and `--puzzle-id`, each defaulting to
/// the latest puzzle `octoku deploy --curta` recorded for this chain.
fn find(opened: &mut Opened, on: &ArenaArgs) -> Result<Found, CliError> {
    require_node(&on.chain)?;
    let curta_arg = on.curta.as_deref().map(crate::input::address).transpose()?;
    play::find(
        &mut opened.chain,
        Path::new(DEPLOYMENTS_DIR),
        curta_arg,
        on.puzzle_id,
    )
    .map_err(|e| match e {
        curta::ChoiceError::Chain(e) => chain_error(e),
        other => CliError::input(other),
    })
}

/// A Curta read or solve that gave no answer, as the CLI says it: Curta's
/// refusals exit 1 (a fee refusal says which `--value` pays), the puzzle's
/// board or verify failing here exits 3, the chain's failures as
/// [`chain_error`] says.
fn play_error(e: PlayError) -> CliError {
    match e {
        PlayError::Chain(e) => chain_error(e),
        PlayError::NotAPuzzle { .. } => CliError::chain(e),
        PlayError::Refused(curta::Refusal::Fee { fee, .. }) => {
            let hint = format!(": add --value {}", ether(fee).replace(' ', ""));
            CliError::rejected(crate::error::Framed::new("", e, hint))
        }
        PlayError::Refused(_) => CliError::rejected(e),
        PlayError::InvalidStart { .. } | PlayError::Verify(_) => CliError::EvmCause(Box::new(e)),
        other => CliError::chain(other),
    }
}

/// `#1 "2 × 4 = 8" at 0x… (fair)`.
fn label(found: &Found, name: &str) -> String {
    let kind = match found.kind {
        Some(kind) => kind.to_string(),
        None => "an IPuzzle not built here".into(),
    };
    format!(
        "#{} {name:?} at {} ({kind})",
        found.puzzle.id, found.puzzle.puzzle
    )
}

/// The keys every Curta `--json` of `board`, `play` and `submit` starts
/// with: the chain, Curta, the puzzle's id, kind and contract.
#[derive(Debug, Serialize)]
struct OnCurta<'a> {
    chain: &'a str,
    #[serde(serialize_with = "output::checksum")]
    curta: Address,
    puzzle_id: u32,
    /// The puzzle's kind (`null`: an IPuzzle not built here).
    puzzle: Option<Puzzle>,
    #[serde(serialize_with = "output::checksum")]
    puzzle_address: Address,
}

fn keys<'a>(found: &Found, opened: &'a Opened) -> OnCurta<'a> {
    OnCurta {
        chain: &opened.label,
        curta: found.curta,
        puzzle_id: found.puzzle.id,
        puzzle: found.kind,
        puzzle_address: found.puzzle.puzzle,
    }
}

/// `octoku board --curta --json`.
#[derive(Debug, Serialize)]
struct CurtaBoard<'a> {
    #[serde(flatten)]
    on: OnCurta<'a>,
    name: &'a str,
    #[serde(serialize_with = "output::checksum")]
    author: Address,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    /// The phase at the latest block (0 to 3).
    phase: u8,
    /// What a solve sends at least now, in wei (`null`: closed).
    fee: Option<u128>,
    solved: bool,
}

/// `octoku board PLAYER --curta C --puzzle-id N`.
pub fn board(
    mut opened: Opened,
    on: &ArenaArgs,
    player: Address,
    svg: Option<&std::path::Path>,
) -> Result<ExitCode, CliError> {
    let found = find(&mut opened, on)?;
    let view = play::board(&mut opened.chain, &found, player).map_err(play_error)?;
    if let Some(path) = svg {
        crate::picture::board(path, view.start)?;
    }
    if on.json {
        return print_json(&CurtaBoard {
            on: keys(&found, &opened),
            name: &view.name,
            author: found.puzzle.author,
            address: player,
            start: view.start,
            phase: view.phase,
            fee: view.fee,
            solved: view.solved,
        })
        .map(|()| ExitCode::SUCCESS);
    }
    let start = view.start;
    outln!("chain     {}", opened.label)?;
    outln!("curta     {}", found.curta)?;
    outln!("puzzle    {}", label(&found, &view.name))?;
    outln!("author    {}", found.puzzle.author)?;
    outln!("address   {player}")?;
    outln!()?;
    outln!("{}", crate::style::grid(start, start, None))?;
    outln!()?;
    outln!("start     {}", start.to_hex())?;
    outln!("phase     {}", PHASES[usize::from(view.phase.min(3))])?;
    match view.fee {
        Some(0) => outln!("fee       none")?,
        Some(fee) => outln!("fee       {} (send it with --value)", ether(fee))?,
        None => outln!("fee       submissions are closed")?,
    }
    outln!("solved    {}", if view.solved { "yes" } else { "not yet" })?;
    Ok(ExitCode::SUCCESS)
}

/// `octoku play --curta --json` and `octoku submit --curta --json`.
#[derive(Debug, Serialize)]
struct CurtaSubmission<'a> {
    #[serde(flatten)]
    on: OnCurta<'a>,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    #[serde(serialize_with = "output::hex_opt")]
    solution: Option<Board>,
    /// The phase of the solve, from its `SolvePuzzle` event.
    phase: Option<u8>,
    /// Wei sent with the solve.
    value: u128,
    tx: Option<Tx>,
    reason: Option<String>,
}

/// `octoku play --curta` (`solution` None: solve the board here) and
/// `octoku submit SOLUTION --curta`: refuses what Curta would refuse, then
/// sends `solve` (simulated first).
pub fn solve_and_send(
    on: &ArenaArgs,
    tx: &TxArgs,
    value: Option<u128>,
    solution: Option<Board>,
) -> Result<ExitCode, CliError> {
    require_node(&on.chain)?;
    let mut opened = on
        .chain
        .open_with(KeyUse::Send, false, tx.options_shown(on.json)?)?;
    let found = find(&mut opened, on)?;
    let value = value.unwrap_or(0);
    match play::prepare(&mut opened.chain, &found, solution, value).map_err(play_error)? {
        Prepared::Ready(ready) => send(&mut opened, &found, &ready, on.json),
        Prepared::NoSolution {
            player,
            start,
            reason,
        } => {
            if on.json {
                print_json(&CurtaSubmission {
                    on: keys(&found, &opened),
                    address: player,
                    start,
                    solution: None,
                    phase: None,
                    value,
                    tx: None,
                    reason,
                })?;
            } else {
                let why = reason.unwrap_or_else(|| "the search found no completion".into());
                outln!(
                    "the board of {player} has no solution, nothing sent: {why} (start {}; {DEAD_END_SHARE})",
                    start.to_hex()
                )?;
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// Sends `solve` (simulated first, with the value) and prints the phase,
/// gas and transaction; what is sent is printed first.
fn send(
    opened: &mut Opened,
    found: &Found,
    ready: &Ready,
    json: bool,
) -> Result<ExitCode, CliError> {
    if !json {
        outln!("chain     {}", opened.label)?;
        outln!("curta     {}", found.curta)?;
        outln!("puzzle    #{} at {}", found.puzzle.id, found.puzzle.puzzle)?;
        outln!("address   {}", ready.player)?;
        outln!("start     {}", ready.start.to_hex())?;
        outln!("solution  {}", ready.solution.to_hex())?;
    }
    let solved = play::send(&mut opened.chain, found, ready).map_err(chain_error)?;
    let r = &solved.receipt;
    if json {
        print_json(&CurtaSubmission {
            on: keys(found, opened),
            address: ready.player,
            start: ready.start,
            solution: Some(ready.solution),
            phase: Some(solved.phase),
            value: ready.value,
            tx: Some(Tx::from(r)),
            reason: None,
        })?;
    } else {
        outln!("phase     {}", PHASES[usize::from(solved.phase.min(3))])?;
        if ready.value > 0 {
            outln!("paid      {}", ether(ready.value))?;
        }
        outln!("gas used  {}", r.gas_used)?;
        if r.fee > 0 {
            outln!("fee paid  {}", octoku_chain::curta::fee_paid(r.fee))?;
        }
        outln!("tx        {} (block {})", r.tx_hash, r.block)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One row of `octoku leaderboard --curta --json`.
#[derive(Debug, Serialize)]
struct Row {
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    /// 1-based order of solves.
    rank: u64,
    /// The phase of the solve (0 to 2).
    phase: u8,
    block: u64,
    tx: octoku_chain::primitives::B256,
}

/// `octoku leaderboard --curta C --puzzle-id N`: every solver in chain order.
pub fn leaderboard(
    on: &ArenaArgs,
    from_block: Option<u64>,
    page: u64,
) -> Result<ExitCode, CliError> {
    require_node(&on.chain)?;
    let mut opened = on.chain.open(KeyUse::Read, false)?;
    let found = find(&mut opened, on)?;
    let board =
        play::leaderboard(&mut opened.chain, &found, from_block, page).map_err(chain_error)?;
    let rows: Vec<Row> = board
        .standings
        .iter()
        .map(|s| Row {
            address: s.solver.address,
            rank: s.rank,
            phase: s.solver.phase,
            block: s.solver.block,
            tx: s.solver.tx,
        })
        .collect();
    if on.json {
        return print_json(&rows).map(|()| ExitCode::SUCCESS);
    }
    outln!("chain     {}", opened.label)?;
    outln!("curta     {}", found.curta)?;
    outln!("puzzle    #{} at {}", found.puzzle.id, found.puzzle.puzzle)?;
    outln!("solvers   {}", rows.len())?;
    if !rows.is_empty() {
        outln!()?;
        outln!("rank  phase  address                                     block  tx")?;
        for r in &rows {
            outln!(
                "{:>4}  {:>5}  {}  {:>5}  {}",
                r.rank,
                r.phase,
                r.address,
                r.block,
                r.tx
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `octoku deploy --curta --json`.
#[derive(Debug, Serialize)]
struct Added<'a> {
    chain: &'a str,
    chain_id: u64,
    #[serde(flatten)]
    record: &'a CurtaPuzzleRecord,
    name: &'a str,
    recorded_in: String,
}

/// `octoku deploy (--puzzle P | --puzzle-address A) --curta C --token-id N`:
/// checks the token and the puzzle's name, deploys the puzzle unless it
/// exists, adds it to Curta and records it.
pub fn deploy(
    chain: &ChainArgs,
    tx: &TxArgs,
    curta_arg: &str,
    token: u64,
    source: Source,
    json: bool,
) -> Result<ExitCode, CliError> {
    let curta = crate::input::address(curta_arg)?;
    require_node(chain)?;
    let mut opened = chain.open_with(KeyUse::Send, false, tx.options_shown(json)?)?;
    let chain_id = opened.chain.chain_id().map_err(chain_error)?;
    let path = deployments_path(chain_id);
    // Refuses a deployments file of another chain before spending gas.
    DeploymentsFile::load(&path, chain_id).map_err(CliError::input)?;
    let author = opened.chain.sender();
    let (kind, name) =
        curta::check_add(&mut opened.chain, curta, token, &source).map_err(|e| match e {
            e @ AddError::Refused(_) => CliError::rejected(e),
            AddError::Chain(e) => chain_error(e),
            AddError::Evm(e) => CliError::from(e),
        })?;
    if !json {
        outln!("chain     {}", opened.label)?;
    }
    let published = curta::publish(&mut opened.chain, curta, token, source).map_err(chain_error)?;
    let (puzzle_address, added) = (published.puzzle, published.added);
    let puzzle_tx = published.deployed.as_ref().map(Tx::from);
    let record = CurtaPuzzleRecord {
        curta,
        puzzle_id: added.id,
        puzzle_address,
        puzzle: kind,
        author,
        token_id: token,
        puzzle_tx,
        add_tx: Tx::from(&added.receipt),
    };
    // What was sent is said before the local write that can fail.
    DeploymentsFile::update(&path, chain_id, |f| f.curta_puzzles.push(record.clone())).map_err(
        |e| {
            crate::error::chain_after(
                format!(
                    "sent, but not recorded: puzzle {puzzle_address} added to Curta {curta} as puzzle id {} (tx {}){}",
                    added.id,
                    record.add_tx.hash,
                    record
                        .puzzle_tx
                        .as_ref()
                        .map(|t| format!(", deployed by tx {}", t.hash))
                        .unwrap_or_default(),
                ),
                e,
            )
        },
    )?;
    if json {
        print_json(&Added {
            chain: &opened.label,
            chain_id,
            record: &record,
            name: &name,
            recorded_in: path.display().to_string(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("author    {author} (Authorship Token {token})")?;
    if let Some(t) = &puzzle_tx {
        outln!(
            "puzzle    {puzzle_address} ({name:?}, block {}, gas {}{}, tx {})",
            t.block,
            t.gas,
            crate::output::fee_part(t.fee),
            t.hash
        )?;
    } else {
        outln!("puzzle    {puzzle_address} ({name:?})")?;
    }
    let t = &record.add_tx;
    outln!(
        "curta     {curta}: puzzle id {} (block {}, gas {}{}, tx {})",
        added.id,
        t.block,
        t.gas,
        crate::output::fee_part(t.fee),
        t.hash
    )?;
    outln!("recorded  {}", path.display())?;
    outln!("puzzle id {}", added.id)?;
    Ok(ExitCode::SUCCESS)
}

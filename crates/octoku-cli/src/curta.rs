//! Curta (`--curta CURTA --puzzle-id N`): what `deploy`, `board`, `play`,
//! `submit` and `leaderboard` do on the Curta protocol instead of an arena.
//! Curta must be deployed on the node (`--rpc-url`); every refusal is
//! decided from the chain's state before anything is sent.

use std::process::ExitCode;

use octoku_chain::{
    ChainError, Receipt, arena,
    curta::{self, AddError, CurtaPuzzle, Source},
    deployments::{CurtaPuzzleRecord, DeploymentsFile},
    primitives::U256,
};
use octoku_core::{Address, Board, octoku::explain::contradiction, solve::octoku as solve};
use octoku_evm::Puzzle;
use serde::Serialize;

use crate::cmd::solve::DEAD_END_SHARE;
use crate::error::chain_error;
use crate::opts::chain::{ArenaArgs, ChainArgs, KeyUse, Opened, deployments_path};
use crate::opts::wallet::TxArgs;
use crate::{
    error::CliError,
    outln,
    output::{self, Tx, print_json},
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

/// The Curta puzzle in use: Curta's address, the puzzle, and its record
/// when `octoku deploy --curta` made it.
pub struct Target {
    /// The Curta contract.
    pub curta: Address,
    /// The puzzle as Curta reports it.
    pub puzzle: CurtaPuzzle,
    /// Which of this repository's puzzles it is, by its code.
    pub kind: Option<Puzzle>,
    /// The record of its `addPuzzle`, when on file.
    pub record: Option<CurtaPuzzleRecord>,
}

impl Target {
    /// Finds the puzzle: `--curta` and `--puzzle-id`, each defaulting to the
    /// latest puzzle `octoku deploy --curta` recorded for this chain.
    pub fn find(opened: &mut Opened, on: &ArenaArgs) -> Result<Target, CliError> {
        require_node(&on.chain)?;
        let chain_id = opened.chain.chain_id().map_err(chain_error)?;
        let path = deployments_path(chain_id);
        let file =
            DeploymentsFile::load(&path, chain_id).map_err(|e| CliError::Input(e.to_string()))?;
        let curta_arg = on.curta.as_deref().map(crate::input::address).transpose()?;
        let (curta, puzzle, record) = curta::choose(
            &mut opened.chain,
            file.as_ref(),
            &path,
            curta_arg,
            on.puzzle_id,
        )
        .map_err(|e| match e {
            curta::ChoiceError::Chain(e) => chain_error(e),
            other => CliError::Input(other.to_string()),
        })?;
        let kind = arena::identify_puzzle(&mut opened.chain, puzzle.puzzle).map_err(chain_error)?;
        tracing::info!(%curta, id = puzzle.id, puzzle = %puzzle.puzzle, "Curta puzzle");
        Ok(Target {
            curta,
            puzzle,
            kind,
            record,
        })
    }

    /// `#1 "2 × 4 = 8" at 0x… (fair)`.
    fn label(&self, name: &str) -> String {
        let kind = match self.kind {
            Some(kind) => kind.to_string(),
            None => "an IPuzzle not built here".into(),
        };
        format!(
            "#{} {name:?} at {} ({kind})",
            self.puzzle.id, self.puzzle.puzzle
        )
    }
}

/// The puzzle's `name()` and the board it hands `player`, read on chain.
fn read_board(
    opened: &mut Opened,
    target: &Target,
    player: Address,
) -> Result<(String, Board), CliError> {
    let puzzle = target.puzzle.puzzle;
    let not_puzzle = |e| match e {
        ChainError::Reverted(_) | ChainError::Unexpected(_) => CliError::Chain(format!(
            "{puzzle} (Curta puzzle {}) does not answer IPuzzle's name() and generate(address)",
            target.puzzle.id
        )),
        other => chain_error(other),
    };
    let name = arena::puzzle_name(&mut opened.chain, puzzle).map_err(not_puzzle)?;
    let start = arena::puzzle_generate(&mut opened.chain, puzzle, player).map_err(not_puzzle)?;
    Ok((name, Board::from_u256(start)))
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

impl Target {
    fn keys<'a>(&self, opened: &'a Opened) -> OnCurta<'a> {
        OnCurta {
            chain: &opened.label,
            curta: self.curta,
            puzzle_id: self.puzzle.id,
            puzzle: self.kind,
            puzzle_address: self.puzzle.puzzle,
        }
    }
}

/// `octoku board --curta --json`.
#[derive(Debug, Serialize)]
struct CurtaBoard<'a> {
    #[serde(flatten)]
    on: OnCurta<'a>,
    name: String,
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
    let target = Target::find(&mut opened, on)?;
    let (name, start) = read_board(&mut opened, &target, player)?;
    if let Some(path) = svg {
        crate::picture::board(path, start)?;
    }
    let now = opened.chain.timestamp().map_err(chain_error)?;
    let phase = target.puzzle.phase_at(now);
    let solved = curta::has_solved(&mut opened.chain, target.curta, player, target.puzzle.id)
        .map_err(chain_error)?;
    if on.json {
        return print_json(&CurtaBoard {
            on: target.keys(&opened),
            name,
            author: target.puzzle.author,
            address: player,
            start,
            phase,
            fee: curta::fee(phase),
            solved,
        })
        .map(|()| ExitCode::SUCCESS);
    }
    outln!("chain     {}", opened.label)?;
    outln!("curta     {}", target.curta)?;
    outln!("puzzle    {}", target.label(&name))?;
    outln!("author    {}", target.puzzle.author)?;
    outln!("address   {player}")?;
    outln!()?;
    outln!("{}", crate::style::grid(start, start, None))?;
    outln!()?;
    outln!("start     {}", start.to_hex())?;
    outln!("phase     {}", PHASES[usize::from(phase.min(3))])?;
    match curta::fee(phase) {
        Some(0) => outln!("fee       none")?,
        Some(fee) => outln!("fee       {} (send it with --value)", ether(fee))?,
        None => outln!("fee       submissions are closed")?,
    }
    outln!("solved    {}", if solved { "yes" } else { "not yet" })?;
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

/// The signer before Curta's puzzle: the chain, the puzzle and the board it hands the signer.
struct Seat {
    opened: Opened,
    target: Target,
    player: Address,
    start: Board,
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
    let target = Target::find(&mut opened, on)?;
    let player = opened.chain.sender();
    let (_, start) = read_board(&mut opened, &target, player)?;
    let mut seat = Seat {
        opened,
        target,
        player,
        start,
    };
    let id = seat.target.puzzle.id;
    let refused = |r: curta::Refusal| CliError::Rejected(format!("nothing sent: {r}"));
    let (_, fee) = curta::admits(
        &mut seat.opened.chain,
        seat.target.curta,
        &seat.target.puzzle,
        player,
    )
    .map_err(chain_error)?
    .map_err(refused)?;
    let solution = match solution {
        Some(solution) => solution,
        None => match solve::solve(start).map_err(|e| {
            CliError::Evm(format!(
                "Curta puzzle {id} gave {player} the board {start}, which is not a valid start: {e}"
            ))
        })? {
            Some(solution) => solution,
            None => return no_solution(&seat, on.json, value.unwrap_or(0)),
        },
    };
    check_locally(&mut seat, solution)?;
    let value = value.unwrap_or(0);
    curta::pays(id, fee, value).map_err(|r| {
        CliError::Rejected(format!(
            "nothing sent: {r}: add --value {}",
            ether(fee).replace(' ', "")
        ))
    })?;
    send(&mut seat, solution, value, on.json)
}

/// The puzzle's own `verify`, run on its chain code in revm: a wrong
/// solution is refused with octoku's explanation.
fn check_locally(seat: &mut Seat, solution: Board) -> Result<(), CliError> {
    let puzzle = seat.target.puzzle.puzzle;
    let code = seat.opened.chain.code_at(puzzle).map_err(chain_error)?;
    let gas = curta::check_solution(puzzle, code, seat.player, seat.start, solution)
        .map_err(|e| {
            CliError::Evm(format!(
                "the puzzle's verify, run here on its code from the chain: {e}"
            ))
        })?
        .map_err(|r| CliError::Rejected(format!("nothing sent: {r}")))?;
    tracing::info!(gas, "verify run locally on the puzzle's code: valid");
    Ok(())
}

/// `play` found no solution: nothing sent, exit 1.
fn no_solution(seat: &Seat, json: bool, value: u128) -> Result<ExitCode, CliError> {
    let reason = contradiction(seat.start);
    if json {
        print_json(&submission(seat, None, None, value, None, reason))?;
    } else {
        let why = reason.unwrap_or_else(|| "the search found no completion".into());
        outln!(
            "the board of {} has no solution, nothing sent: {why} (start {}; {DEAD_END_SHARE})",
            seat.player,
            seat.start.to_hex()
        )?;
    }
    Ok(ExitCode::from(1))
}

fn submission<'a>(
    seat: &'a Seat,
    solution: Option<Board>,
    phase: Option<u8>,
    value: u128,
    tx: Option<&Receipt>,
    reason: Option<String>,
) -> CurtaSubmission<'a> {
    CurtaSubmission {
        on: seat.target.keys(&seat.opened),
        address: seat.player,
        start: seat.start,
        solution,
        phase,
        value,
        tx: tx.map(Tx::from),
        reason,
    }
}

/// Sends `solve` (simulated first, with the value) and prints the phase,
/// gas and transaction.
fn send(seat: &mut Seat, solution: Board, value: u128, json: bool) -> Result<ExitCode, CliError> {
    let (curta_address, id) = (seat.target.curta, seat.target.puzzle.id);
    if !json {
        outln!("chain     {}", seat.opened.label)?;
        outln!("curta     {curta_address}")?;
        outln!("puzzle    #{id} at {}", seat.target.puzzle.puzzle)?;
        outln!("address   {}", seat.player)?;
        outln!("start     {}", seat.start.to_hex())?;
        outln!("solution  {}", solution.to_hex())?;
    }
    tracing::info!(curta = %curta_address, id, value, "sending solve");
    let solved = curta::solve(
        &mut seat.opened.chain,
        curta_address,
        id,
        solution.to_u256(),
        U256::from(value),
    )
    .map_err(chain_error)?;
    let r = &solved.receipt;
    if json {
        print_json(&submission(
            seat,
            Some(solution),
            Some(solved.phase),
            value,
            Some(r),
            None,
        ))?;
    } else {
        outln!("phase     {}", PHASES[usize::from(solved.phase.min(3))])?;
        if value > 0 {
            outln!("paid      {}", ether(value))?;
        }
        outln!("gas used  {}", r.gas_used)?;
        if r.fee > 0 {
            outln!("fee paid  {}", ether(r.fee))?;
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
    let target = Target::find(&mut opened, on)?;
    let from = from_block
        .or(target.record.as_ref().map(|r| r.add_tx.block))
        .unwrap_or(0);
    let solvers = curta::solvers(
        &mut opened.chain,
        target.curta,
        target.puzzle.id,
        from,
        page,
    )
    .map_err(chain_error)?;
    tracing::info!(queries = solvers.queries, from, "Curta leaderboard read");
    let rows: Vec<Row> = solvers
        .entries
        .iter()
        .zip(1..)
        .map(|(s, rank)| Row {
            address: s.address,
            rank,
            phase: s.phase,
            block: s.block,
            tx: s.tx,
        })
        .collect();
    if on.json {
        return print_json(&rows).map(|()| ExitCode::SUCCESS);
    }
    outln!("chain     {}", opened.label)?;
    outln!("curta     {}", target.curta)?;
    outln!(
        "puzzle    #{} at {}",
        target.puzzle.id,
        target.puzzle.puzzle
    )?;
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
    DeploymentsFile::load(&path, chain_id).map_err(|e| CliError::Input(e.to_string()))?;
    let author = opened.chain.sender();
    let (kind, name) =
        curta::check_add(&mut opened.chain, curta, token, &source).map_err(|e| match e {
            AddError::Refused(_) => CliError::Rejected(e.to_string()),
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
            CliError::Chain(format!(
                "sent, but not recorded: puzzle {puzzle_address} added to Curta {curta} as puzzle id {} (tx {}){}; {}",
                added.id,
                record.add_tx.hash,
                record
                    .puzzle_tx
                    .as_ref()
                    .map(|t| format!(", deployed by tx {}", t.hash))
                    .unwrap_or_default(),
                chain_error(e)
            ))
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

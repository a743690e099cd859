//! What `octoku board`, `play`, `submit` and `leaderboard` do on Curta, as
//! library calls: [`find`] the puzzle (from the flags or the deployment
//! record), read a player's [`board`], [`prepare`] a solve (every refusal
//! decided before anything is sent) and [`send`] it, read the
//! [`leaderboard`]. Each returns a typed result; the CLI only renders it.
//!
//! ```no_run
//! use std::path::Path;
//! use octoku_chain::{Chain, PrivateKey, curta::play};
//!
//! let mut chain = Chain::rpc("http://127.0.0.1:8545", &PrivateKey::anvil_default())?;
//! let curta = "0x0000000006bC8D9e5e9d436217B88De704a9F307".parse()?;
//! let found = play::find(&mut chain, Path::new("deployments"), Some(curta), Some(1))?;
//! let me = chain.sender();
//! let view = play::board(&mut chain, &found, me)?;
//! println!("{} hands {me} the board {} (phase {})", view.name, view.start, view.phase);
//! match play::prepare(&mut chain, &found, None, 0)? {
//!     play::Prepared::Ready(ready) => {
//!         let solved = play::send(&mut chain, &found, &ready)?;
//!         println!("solved in phase {}, tx {}", solved.phase, solved.receipt.tx_hash);
//!     }
//!     play::Prepared::NoSolution { reason, .. } => println!("no solution: {reason:?}"),
//! }
//! let board = play::leaderboard(&mut chain, &found, None, 10_000)?;
//! for s in &board.standings {
//!     println!("{:>3}  {}  phase {}", s.rank, s.solver.address, s.solver.phase);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use alloy_primitives::{Address, U256};
use octoku_core::{Board, octoku::explain::contradiction, solve::octoku as solve};
use octoku_evm::{EvmError, Puzzle};

use super::{ChoiceError, CurtaPuzzle, Refusal, Solved, Solver, admits, check_solution, fee};
use crate::deployments::{CurtaPuzzleRecord, DeploymentsFile, deployments_path};
use crate::{Chain, ChainError, arena};

/// The Curta puzzle a command plays: Curta, the puzzle, which of this
/// repository's puzzles it is, and its record when on file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The Curta contract.
    pub curta: Address,
    /// The puzzle as Curta reports it.
    pub puzzle: CurtaPuzzle,
    /// Which of this repository's puzzles it is, by its code (`None`: an
    /// IPuzzle not built here).
    pub kind: Option<Puzzle>,
    /// The record of its `addPuzzle`, when `octoku deploy --curta` made it.
    pub record: Option<CurtaPuzzleRecord>,
}

/// Finds the puzzle: `curta` and `id`, each defaulting to the latest Curta
/// puzzle recorded for this chain in the deployment records under
/// `deployments` (`deployments/<chain id>.json`); checked to be Curta and
/// an existing puzzle.
pub fn find(
    chain: &mut Chain,
    deployments: &Path,
    curta: Option<Address>,
    id: Option<u32>,
) -> Result<Found, ChoiceError> {
    let chain_id = chain.chain_id()?;
    let path = deployments_path(deployments, chain_id);
    let file = DeploymentsFile::load(&path, chain_id).map_err(ChoiceError::Deployments)?;
    let (curta, puzzle, record) = super::choose(chain, file.as_ref(), &path, curta, id)?;
    let kind = arena::identify_puzzle(chain, puzzle.puzzle)?;
    tracing::info!(%curta, id = puzzle.id, puzzle = %puzzle.puzzle, "Curta puzzle");
    Ok(Found {
        curta,
        puzzle,
        kind,
        record,
    })
}

/// Why a Curta read or solve gave no answer, nothing sent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The chain failed.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The puzzle's contract does not answer IPuzzle's calls.
    #[error("{puzzle} (Curta puzzle {id}) does not answer IPuzzle's name() and generate(address)")]
    NotAPuzzle {
        /// The puzzle contract.
        puzzle: Address,
        /// Its Curta id.
        id: u32,
    },
    /// Curta would refuse the solve (solved already, closed, a wrong
    /// solution, too little sent).
    #[error("nothing sent: {0}")]
    Refused(Refusal),
    /// The puzzle hands the player a board that is not a valid start.
    #[error("Curta puzzle {id} gave {player} the board {start}, which is not a valid start")]
    InvalidStart {
        /// The Curta id.
        id: u32,
        /// The player.
        player: Address,
        /// The board.
        start: Board,
        /// Why the solver refuses it.
        source: solve::SolveError,
    },
    /// The puzzle's verify could not be run here on its chain code.
    #[error("the puzzle's verify, run here on its code from the chain")]
    Verify(#[source] EvmError),
}

/// What [`board`] reads: the board Curta's puzzle hands a player, and
/// whether and at what fee the player may solve it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The puzzle's `name()`.
    pub name: String,
    /// The player.
    pub player: Address,
    /// The board `generate(player)` hands the player.
    pub start: Board,
    /// The phase at the latest block (0 to 3).
    pub phase: u8,
    /// What a solve sends at least now, in wei (`None`: closed).
    pub fee: Option<u128>,
    /// Whether the player has solved it.
    pub solved: bool,
}

/// The puzzle's `name()` and the board it hands `player`, read on chain.
fn read(chain: &mut Chain, found: &Found, player: Address) -> Result<(String, Board), PlayError> {
    let puzzle = found.puzzle.puzzle;
    let not_puzzle = |e: ChainError| match e {
        e if e.is_no_answer() => PlayError::NotAPuzzle {
            puzzle,
            id: found.puzzle.id,
        },
        other => PlayError::Chain(other),
    };
    let name = arena::puzzle_name(chain, puzzle).map_err(not_puzzle)?;
    let start = arena::puzzle_generate(chain, puzzle, player).map_err(not_puzzle)?;
    Ok((name, Board::from_u256(start)))
}

/// The board `player` gets from the puzzle, its phase, fee and whether
/// `player` solved it, read at the latest block.
pub fn board(chain: &mut Chain, found: &Found, player: Address) -> Result<BoardView, PlayError> {
    let (name, start) = read(chain, found, player)?;
    let phase = found.puzzle.phase_at(chain.timestamp()?);
    let solved = super::has_solved(chain, found.curta, player, found.puzzle.id)?;
    Ok(BoardView {
        name,
        player,
        start,
        phase,
        fee: fee(phase),
        solved,
    })
}

/// A solve every check passed: what [`send`] sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    /// The player (the chain's sender).
    pub player: Address,
    /// The board the puzzle hands the player.
    pub start: Board,
    /// The solution, accepted by the puzzle's verify run here.
    pub solution: Board,
    /// Wei sent with the solve.
    pub value: u128,
    /// Gas of the local verify.
    pub verify_gas: u64,
}

/// What [`prepare`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prepared {
    /// Every check passed.
    Ready(Ready),
    /// Asked to solve the board here, and it has no solution (nothing to send).
    NoSolution {
        /// The player.
        player: Address,
        /// The board.
        start: Board,
        /// A simple reason, when one is found.
        reason: Option<String>,
    },
}

/// Readies the sender's solve of the puzzle with `value` wei: refuses what
/// Curta would refuse (solved already, phase 3), solves the board here
/// when `solution` is `None`, runs the puzzle's own verify on its chain
/// code, then checks the fee. Nothing is sent.
pub fn prepare(
    chain: &mut Chain,
    found: &Found,
    solution: Option<Board>,
    value: u128,
) -> Result<Prepared, PlayError> {
    let player = chain.sender();
    let (_, start) = read(chain, found, player)?;
    let id = found.puzzle.id;
    let (_, fee) =
        admits(chain, found.curta, &found.puzzle, player)?.map_err(PlayError::Refused)?;
    let solution = match solution {
        Some(solution) => solution,
        None => match solve::solve(start).map_err(|source| PlayError::InvalidStart {
            id,
            player,
            start,
            source,
        })? {
            Some(solution) => solution,
            None => {
                return Ok(Prepared::NoSolution {
                    player,
                    start,
                    reason: contradiction(start),
                });
            }
        },
    };
    let puzzle = found.puzzle.puzzle;
    let code = chain.code_at(puzzle)?;
    let verify_gas = check_solution(puzzle, code, player, start, solution)
        .map_err(PlayError::Verify)?
        .map_err(PlayError::Refused)?;
    tracing::info!(
        gas = verify_gas,
        "verify run locally on the puzzle's code: valid"
    );
    super::pays(id, fee, value).map_err(PlayError::Refused)?;
    Ok(Prepared::Ready(Ready {
        player,
        start,
        solution,
        value,
        verify_gas,
    }))
}

/// Sends the solve [`prepare`] readied (simulated first, with its value).
pub fn send(chain: &mut Chain, found: &Found, ready: &Ready) -> Result<Solved, ChainError> {
    let (curta, id) = (found.curta, found.puzzle.id);
    tracing::info!(%curta, id, value = ready.value, "sending solve");
    super::solve(
        chain,
        curta,
        id,
        ready.solution.to_u256(),
        U256::from(ready.value),
    )
}

/// One solver of the puzzle and its rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// 1-based order of solves.
    pub rank: u64,
    /// The solve.
    pub solver: Solver,
}

/// Every solver of the puzzle, in chain order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaderboard {
    /// The first block read.
    pub from: u64,
    /// One per solve, rank 1 first.
    pub standings: Vec<Standing>,
    /// Log queries made.
    pub queries: u64,
}

/// Every solver of the puzzle from block `from_block` (default: the block of
/// its recorded `addPuzzle`, else 0), reading `page` blocks per log query.
pub fn leaderboard(
    chain: &mut Chain,
    found: &Found,
    from_block: Option<u64>,
    page: u64,
) -> Result<Leaderboard, ChainError> {
    let from = from_block
        .or(found.record.as_ref().map(|r| r.add_tx.block))
        .unwrap_or(0);
    let solvers = super::solvers(chain, found.curta, found.puzzle.id, from, page)?;
    tracing::info!(queries = solvers.queries, from, "Curta leaderboard read");
    Ok(Leaderboard {
        from,
        standings: solvers
            .entries
            .into_iter()
            .zip(1..)
            .map(|(solver, rank)| Standing { rank, solver })
            .collect(),
        queries: solvers.queries,
    })
}

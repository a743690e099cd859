//! What `octoku play` and `submit` do on an arena, as library calls:
//! [`seat`] reads the board the arena hands the sender and refuses a second
//! solve, [`check`] refuses a wrong solution before anything is sent (and
//! names the puzzle whose board it does solve), [`solution`] solves the
//! board here; [`super::solve`] sends it.
//!
//! ```no_run
//! use octoku_chain::{Chain, PrivateKey, arena::{self, play}};
//!
//! let mut chain = Chain::rpc("http://127.0.0.1:8545", &PrivateKey::anvil_default())?;
//! let at = "0x5FbDB2315678afecb367f032d93F642f64180aa3".parse()?;
//! let seat = play::seat(&mut chain, at)?.map_err(|r| r.to_string())?;
//! let puzzle = arena::puzzle_of(&mut chain, at)?;
//! let kind = arena::identify_puzzle(&mut chain, puzzle)?;
//! match play::solution(&seat)? {
//!     Some(solution) => {
//!         play::check(&seat, kind, solution).map_err(|r| r.to_string())?;
//!         let solved = arena::solve(&mut chain, at, solution.to_u256())?;
//!         println!("rank {} in block {}", solved.rank, solved.receipt.block);
//!     }
//!     None => println!("the board {} has no solution", seat.start),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloy_primitives::Address;
use octoku_core::{
    Board,
    octoku::explain::{describe, explain},
    solve::octoku as solve,
    verify,
};
use octoku_evm::Puzzle;

use crate::{Chain, ChainError};

/// The sender at an arena: the board the arena hands it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat {
    /// The arena.
    pub arena: Address,
    /// The sender.
    pub player: Address,
    /// The board the arena hands the sender.
    pub start: Board,
}

/// Why the arena would refuse a solve, decided before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The sender has solved this arena already.
    #[error(
        "{player} has already solved this arena (rank {rank} in block {block}; the arena would revert with AlreadySolved({player}))"
    )]
    AlreadySolved {
        /// The sender.
        player: Address,
        /// Its rank.
        rank: u64,
        /// The block of its solve.
        block: u64,
    },
    /// The solution does not solve the sender's board.
    #[error("the solution does not solve the board of {player} ({start}): {first}")]
    Wrong {
        /// The sender.
        player: Address,
        /// The board.
        start: Board,
        /// The first problem, in words.
        first: String,
        /// Another of this repository's puzzles whose board for the sender
        /// the solution does solve (a solution for the wrong puzzle).
        solves_instead: Option<Puzzle>,
    },
}

/// The board the arena at `arena` hands the chain's sender, or the refusal
/// when the sender has solved it already.
pub fn seat(chain: &mut Chain, arena: Address) -> Result<Result<Seat, Refusal>, ChainError> {
    let player = chain.sender();
    let start = Board::from_u256(super::board_of(chain, arena, player)?);
    let solved = super::solved_at(chain, arena, player)?;
    if solved.rank > 0 {
        return Ok(Err(Refusal::AlreadySolved {
            player,
            rank: solved.rank,
            block: solved.block,
        }));
    }
    Ok(Ok(Seat {
        arena,
        player,
        start,
    }))
}

/// Whether `solution` solves the seat's board (the contracts' `verify`,
/// mirrored); if not, why, and which other puzzle (of this repository,
/// other than the arena's `kind`) hands the sender a board it solves.
pub fn check(seat: &Seat, kind: Option<Puzzle>, solution: Board) -> Result<(), Refusal> {
    if verify(seat.start, solution) {
        return Ok(());
    }
    let first = explain(seat.start, solution)
        .first()
        .map(describe)
        .unwrap_or_else(|| "it does not keep the board's givens".into());
    let solves_instead = Puzzle::ALL
        .into_iter()
        .filter(|&p| Some(p) != kind)
        .find(|p| verify(p.mirror_generate(&seat.player), solution));
    Err(Refusal::Wrong {
        player: seat.player,
        start: seat.start,
        first,
        solves_instead,
    })
}

/// The board handed out is not a valid start (a digit above 8).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the arena gave {player} the board {start}, which is not a valid start")]
pub struct InvalidStart {
    /// The sender.
    pub player: Address,
    /// The board.
    pub start: Board,
    /// Why the solver refuses it.
    #[source]
    pub source: solve::SolveError,
}

/// A solution of the seat's board, solved here (`None`: it has none).
pub fn solution(seat: &Seat) -> Result<Option<Board>, InvalidStart> {
    solve::solve(seat.start).map_err(|source| InvalidStart {
        player: seat.player,
        start: seat.start,
        source,
    })
}

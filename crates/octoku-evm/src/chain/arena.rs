//! The arena contract (contracts/Arena.sol): typed calls on a [`Chain`].

use alloy_primitives::{Address, B256, Bytes, Log, U256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};

use super::{Chain, ChainError, Receipt};
pub use crate::bindings::IArena;

/// When and in which place an address solved (`rank == 0`: never).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolvedAt {
    /// Block of the solve (0 if never).
    pub block: u64,
    /// 1-based rank (0 if never).
    pub rank: u64,
}

/// A mined solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solve {
    /// The rank from the `Solved` event.
    pub rank: u64,
    /// The receipt.
    pub receipt: Receipt,
}

/// Arena creation code: `initcode` followed by the constructor's one
/// argument, the ABI-encoded puzzle address.
pub fn arena_initcode(initcode: &[u8], puzzle: Address) -> Bytes {
    let mut code = initcode.to_vec();
    code.extend(puzzle.abi_encode());
    code.into()
}

fn call<C: SolCall>(chain: &mut Chain, to: Address, call: &C) -> Result<C::Return, ChainError> {
    let out = chain.call(to, call.abi_encode().into())?;
    C::abi_decode_returns(&out).map_err(|e| {
        ChainError::Unexpected(format!(
            "{to} answered {} with data that does not decode: {e}",
            C::SIGNATURE
        ))
    })
}

fn small(value: U256, what: &str) -> Result<u64, ChainError> {
    u64::try_from(value)
        .map_err(|_| ChainError::Unexpected(format!("{what} {value} does not fit in 64 bits")))
}

/// `arena.boardOf(player)` as the raw board word.
pub fn board_of(chain: &mut Chain, arena: Address, player: Address) -> Result<U256, ChainError> {
    call(chain, arena, &IArena::boardOfCall { player })
}

/// `arena.solvedAt(player)`.
pub fn solved_at(
    chain: &mut Chain,
    arena: Address,
    player: Address,
) -> Result<SolvedAt, ChainError> {
    let r = call(chain, arena, &IArena::solvedAtCall { player })?;
    Ok(SolvedAt {
        block: small(r.blockNumber, "block")?,
        rank: small(r.rank, "rank")?,
    })
}

/// `arena.solverCount()`.
pub fn solver_count(chain: &mut Chain, arena: Address) -> Result<u64, ChainError> {
    small(
        call(chain, arena, &IArena::solverCountCall {})?,
        "solver count",
    )
}

/// `arena.puzzle()`.
pub fn puzzle_of(chain: &mut Chain, arena: Address) -> Result<Address, ChainError> {
    call(chain, arena, &IArena::puzzleCall {})
}

/// Sends `arena.solve(solution)` (simulated first: a revert is returned
/// decoded and nothing is sent) and reads the rank from the `Solved` event.
pub fn solve(chain: &mut Chain, arena: Address, solution: U256) -> Result<Solve, ChainError> {
    let receipt = chain.send(arena, IArena::solveCall { solution }.abi_encode().into())?;
    if !receipt.status {
        return Err(ChainError::Unexpected(format!(
            "transaction {} was mined but reverted (the simulation had passed)",
            receipt.tx_hash
        )));
    }
    let event = solved_events(&receipt, arena)
        .into_iter()
        .next()
        .ok_or_else(|| {
            ChainError::Unexpected(format!(
                "transaction {} emitted no Solved event",
                receipt.tx_hash
            ))
        })?;
    Ok(Solve {
        rank: small(event.rank, "rank")?,
        receipt,
    })
}

/// The `Solved` events `arena` emitted in `receipt`.
pub fn solved_events(receipt: &Receipt, arena: Address) -> Vec<IArena::Solved> {
    receipt
        .logs
        .iter()
        .filter(|log| {
            log.address == arena && log.topics().first() == Some(&IArena::Solved::SIGNATURE_HASH)
        })
        .filter_map(decode_solved)
        .collect()
}

/// Decodes a `Solved` log (any emitter).
pub fn decode_solved(log: &Log) -> Option<IArena::Solved> {
    IArena::Solved::decode_log(log).ok().map(|l| l.data)
}

/// The `Solved` event's topic 0.
pub const SOLVED_TOPIC: B256 = IArena::Solved::SIGNATURE_HASH;

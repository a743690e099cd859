//! The arena's leaderboard: every `Solved` event, read with log queries of
//! bounded block ranges (public nodes refuse wide ones), checked against
//! `solverCount()`.

use alloy_primitives::{Address, B256, U256};

use super::{
    Chain, ChainError, LoggedAt,
    arena::{self, SOLVED_TOPIC},
};

/// Blocks per log query at first; halved when the node refuses a range.
pub const DEFAULT_PAGE: u64 = 10_000;

/// One solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The solver.
    pub address: Address,
    /// 1-based place.
    pub rank: u64,
    /// Block of the solve.
    pub block: u64,
    /// The accepted solution, from the `Solved` event.
    pub solution: U256,
}

/// Every solver of an arena, in rank order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaderboard {
    /// The arena's `solverCount()`.
    pub solver_count: u64,
    /// One entry per `Solved` event, ranks 1..=solver_count.
    pub entries: Vec<Entry>,
    /// Log queries made.
    pub queries: u64,
}

/// Reads the leaderboard of `arena`, from block `from` (its deployment
/// block when known, else 0) to the latest, `page` blocks per query.
pub fn read(
    chain: &mut Chain,
    arena: Address,
    from: u64,
    page: u64,
) -> Result<Leaderboard, ChainError> {
    arena::require_arena(chain, arena)?;
    let solver_count = arena::solver_count(chain, arena)?;
    let (logs, queries) = scan(chain, arena, &[SOLVED_TOPIC], from, page, |found| {
        found as u64 >= solver_count
    })?;
    let mut entries = Vec::new();
    for found in &logs {
        let event = arena::decode_solved(&found.log).ok_or_else(|| {
            ChainError::Unexpected(format!("a Solved log of {arena} does not decode"))
        })?;
        let rank = u64::try_from(event.rank).map_err(|_| {
            ChainError::Unexpected(format!("rank {} does not fit in 64 bits", event.rank))
        })?;
        entries.push(Entry {
            address: event.solver,
            rank,
            block: found.block,
            solution: event.solution,
        });
    }
    entries.sort_by_key(|e| e.rank);
    let ranks_ok = entries
        .iter()
        .enumerate()
        .all(|(i, e)| e.rank == i as u64 + 1);
    if entries.len() as u64 != solver_count || !ranks_ok {
        return Err(ChainError::Unexpected(format!(
            "the arena {arena} counts {solver_count} solvers, but its Solved events from block {from} give {} with ranks {:?}",
            entries.len(),
            entries.iter().map(|e| e.rank).collect::<Vec<_>>()
        )));
    }
    Ok(Leaderboard {
        solver_count,
        entries,
        queries,
    })
}

/// The logs `address` emitted whose first topics are `topics`, from block
/// `from` to the latest, `page` blocks per query (halved while the node
/// refuses a range), in chain order; stops early once `enough(found)` says
/// every log wanted is in. Returns the logs and the number of queries made.
pub fn scan(
    chain: &mut Chain,
    address: Address,
    topics: &[B256],
    from: u64,
    page: u64,
    mut enough: impl FnMut(usize) -> bool,
) -> Result<(Vec<LoggedAt>, u64), ChainError> {
    let latest = chain.block_number()?;
    let mut page = page.max(1);
    let mut found = Vec::new();
    let mut queries = 0;
    let mut start = from;
    while start <= latest && !enough(found.len()) {
        let end = start.saturating_add(page - 1).min(latest);
        queries += 1;
        match chain.events(address, topics, start, end) {
            Ok(logs) => found.extend(logs),
            // A node limiting the range or the result size: smaller pages.
            Err(ChainError::Node(_) | ChainError::TooLarge(_) | ChainError::Rpc(_)) if page > 1 => {
                page /= 2;
                continue;
            }
            Err(e) => return Err(e),
        }
        start = end + 1;
    }
    Ok((found, queries))
}

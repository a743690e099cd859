//! The arena's leaderboard: every `Solved` event, read with log queries of
//! bounded block ranges (public nodes refuse wide ones), checked against
//! `solverCount()`.

use alloy_primitives::Address;

use super::{
    Chain, ChainError,
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
    let latest = chain.block_number()?;
    let mut page = page.max(1);
    let mut entries = Vec::new();
    let mut queries = 0;
    let mut start = from;
    while start <= latest && (entries.len() as u64) < solver_count {
        let end = start.saturating_add(page - 1).min(latest);
        queries += 1;
        let logs = match chain.logs(arena, SOLVED_TOPIC, start, end) {
            Ok(logs) => logs,
            // A node limiting the range or the result size: smaller pages.
            Err(ChainError::Node(_)) if page > 1 => {
                page /= 2;
                continue;
            }
            Err(e) => return Err(e),
        };
        for (block, log) in &logs {
            let event = arena::decode_solved(log).ok_or_else(|| {
                ChainError::Unexpected(format!("a Solved log of {arena} does not decode"))
            })?;
            let rank = u64::try_from(event.rank).map_err(|_| {
                ChainError::Unexpected(format!("rank {} does not fit in 64 bits", event.rank))
            })?;
            entries.push(Entry {
                address: event.solver,
                rank,
                block: *block,
            });
        }
        start = end + 1;
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

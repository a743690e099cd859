//! A course's leaderboard from CurtaGolf's events: every King change with
//! its gas and block, every accepted solution, and the counts CurtaGolf
//! keeps, checked against each other.

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolEvent;

use super::{CourseInfo, ICurtaGolf, course};
use crate::{Chain, ChainError, LoggedAt, leaderboard::scan};

/// One King change (an `UpdateKing` event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingChange {
    /// The new King.
    pub recipient: Address,
    /// Its gas.
    pub gas_used: u32,
    /// The block of the submit.
    pub block: u64,
    /// The submit transaction.
    pub tx: B256,
}

/// A course's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaderboard {
    /// The course as CurtaGolf holds it now.
    pub course: CourseInfo,
    /// The King now: the owner of King token `id` (`None`: no solution yet).
    pub king: Option<Address>,
    /// Every King change, oldest first.
    pub changes: Vec<KingChange>,
    /// Log queries made.
    pub queries: u64,
}

/// Reads course `id`'s leaderboard from its `UpdateKing` events from block
/// `from`, `page` blocks per query. Fails when the course does not exist,
/// or when the events disagree with CurtaGolf's King count or best gas.
pub fn leaderboard(
    chain: &mut Chain,
    golf: Address,
    id: u32,
    from: u64,
    page: u64,
) -> Result<Leaderboard, ChainError> {
    let info = course(chain, golf, id)?
        .ok_or_else(|| ChainError::Unexpected(format!("Curta Golf {golf} has no course {id}")))?;
    let topics = [
        ICurtaGolf::UpdateKing::SIGNATURE_HASH,
        B256::from(U256::from(id)),
    ];
    let (logs, queries) = scan(chain, golf, &topics, from, page, |found| {
        found >= info.king_count as usize
    })?;
    let changes = logs
        .iter()
        .map(|found| decode(golf, found))
        .collect::<Result<Vec<_>, _>>()?;
    if changes.len() != info.king_count as usize
        || changes.last().map_or(0, |c| c.gas_used) != info.gas_used
    {
        return Err(ChainError::Unexpected(format!(
            "Curta Golf {golf} counts {} King changes of course {id} (best gas {}), but its UpdateKing events from block {from} give {}",
            info.king_count,
            info.gas_used,
            changes.len()
        )));
    }
    // The King token can change hands after it is won: its owner is the King.
    let king = match info.king_count {
        0 => None,
        _ => Some(crate::arena::call(
            chain,
            golf,
            &ICurtaGolf::ownerOfCall { id: U256::from(id) },
        )?),
    };
    Ok(Leaderboard {
        course: info,
        king,
        changes,
        queries,
    })
}

fn decode(golf: Address, found: &LoggedAt) -> Result<KingChange, ChainError> {
    let event =
        ICurtaGolf::UpdateKing::decode_log(&found.log).map_err(|source| ChainError::Decode {
            what: format!("an UpdateKing log of {golf} does not decode"),
            source,
        })?;
    Ok(KingChange {
        recipient: event.data.recipient,
        gas_used: event.data.gasUsed,
        block: found.block,
        tx: found.tx,
    })
}

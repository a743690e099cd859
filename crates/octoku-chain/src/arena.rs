//! The arena contract (contracts/Arena.sol): typed calls on a [`Chain`];
//! [`play`] holds what `octoku play` and `submit` decide before sending.

pub mod play;

use alloy_primitives::{Address, B256, Bytes, Log, U256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};

use super::{
    Chain, ChainError, Receipt,
    deployments::{Deployment, MinedTx, RecordedPuzzle},
};
use octoku_evm::{Puzzle, bindings::IPuzzle};

pub use octoku_evm::bindings::IArena;

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

/// A puzzle and an arena on it, as [`deploy_with_arena`] made them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaDeployment {
    /// Who sent both creations.
    pub deployer: Address,
    /// The puzzle's creation.
    pub puzzle: Receipt,
    /// The puzzle contract.
    pub puzzle_address: Address,
    /// The arena's creation.
    pub arena: Receipt,
    /// The arena contract.
    pub arena_address: Address,
}

impl ArenaDeployment {
    /// The record the deployments file and the state file keep of the
    /// puzzle deployed this way (a built-in's name or the author's label).
    pub fn record(&self, puzzle: impl Into<RecordedPuzzle>) -> Deployment {
        Deployment {
            puzzle: puzzle.into(),
            puzzle_address: self.puzzle_address,
            arena: self.arena_address,
            deployer: self.deployer,
            puzzle_tx: MinedTx::from(&self.puzzle),
            arena_tx: MinedTx::from(&self.arena),
        }
    }
}

/// Deploys a puzzle from its creation code, then an arena on it: two
/// transactions from the chain's sender, the arena's after the puzzle's.
pub fn deploy_with_arena(
    chain: &mut Chain,
    puzzle_initcode: Bytes,
) -> Result<ArenaDeployment, ChainError> {
    let created = |receipt: &Receipt| {
        receipt.contract_address.ok_or_else(|| {
            ChainError::Unexpected(format!(
                "deployment {} created no contract",
                receipt.tx_hash
            ))
        })
    };
    let deployer = chain.sender();
    let puzzle = chain.deploy(puzzle_initcode)?;
    let puzzle_address = created(&puzzle)?;
    let arena = chain.deploy(arena_initcode(super::ARENA_INITCODE, puzzle_address))?;
    let arena_address = created(&arena)?;
    Ok(ArenaDeployment {
        deployer,
        puzzle,
        puzzle_address,
        arena,
        arena_address,
    })
}

/// Calls `call` on `to` (an eth_call) and decodes its return value.
pub(crate) fn call<C: SolCall>(
    chain: &mut Chain,
    to: Address,
    call: &C,
) -> Result<C::Return, ChainError> {
    let out = chain.call(to, call.abi_encode().into())?;
    C::abi_decode_returns(&out).map_err(|source| ChainError::Decode {
        what: format!(
            "{to} answered {} with data that does not decode",
            C::SIGNATURE
        ),
        source,
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

/// Checks that `arena` is an arena: it holds code ([`ChainError::NoCode`]
/// if not) and answers `puzzle()` with an address that holds code
/// ([`ChainError::NotAnArena`] if not: a puzzle's address, say). Returns the
/// arena's puzzle.
pub fn require_arena(chain: &mut Chain, arena: Address) -> Result<Address, ChainError> {
    chain.require_code(arena)?;
    let puzzle = match puzzle_of(chain, arena) {
        Ok(puzzle) => puzzle,
        Err(e) if e.is_no_answer() => {
            return Err(ChainError::NotAnArena(arena));
        }
        Err(other) => return Err(other),
    };
    if puzzle.is_zero() || chain.code_at(puzzle)?.is_empty() {
        return Err(ChainError::NotAnArena(arena));
    }
    Ok(puzzle)
}

/// Which of this repository's puzzles is deployed at `puzzle`, by its
/// runtime code; `None` for any other contract.
pub fn identify_puzzle(chain: &mut Chain, puzzle: Address) -> Result<Option<Puzzle>, ChainError> {
    let code = chain.code_at(puzzle)?;
    Ok(Puzzle::ALL
        .into_iter()
        .find(|p| p.artifact().runtime == code.as_ref()))
}

/// `puzzle.name()` of any deployed IPuzzle, as one line of at most
/// [`octoku_evm::limits::NODE_TEXT`] characters (control characters and
/// escapes removed): the contract writes it, to terminals and pages.
pub fn puzzle_name(chain: &mut Chain, puzzle: Address) -> Result<String, ChainError> {
    let name: String = call(chain, puzzle, &IPuzzle::nameCall {})?;
    Ok(octoku_evm::limits::one_line(
        &name,
        octoku_evm::limits::NODE_TEXT,
    ))
}

/// `puzzle.generate(player)` of any deployed IPuzzle (an eth_call: nothing
/// is sent), as the raw board word.
pub fn puzzle_generate(
    chain: &mut Chain,
    puzzle: Address,
    player: Address,
) -> Result<U256, ChainError> {
    call(chain, puzzle, &IPuzzle::generateCall { seed: player })
}

/// `puzzle.verify(start, solution)` of any deployed IPuzzle, as an eth_call.
pub fn puzzle_verify(
    chain: &mut Chain,
    puzzle: Address,
    start: U256,
    solution: U256,
) -> Result<bool, ChainError> {
    call(chain, puzzle, &IPuzzle::verifyCall { start, solution })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PrivateKey;

    /// Creation code of a contract whose every call returns `text`
    /// ABI-encoded as one `string` (what `name()` answers).
    fn returning_string(text: &[u8]) -> Vec<u8> {
        let len = u32::try_from(text.len()).unwrap().to_be_bytes();
        let size = (0x40 + text.len().div_ceil(32) * 32) as u32;
        let size = size.to_be_bytes();
        // mem[0] = 0x20 (offset), mem[0x20] = len, mem[0x40..] = the text
        // copied from the code after these 29 bytes; return the encoding.
        let mut runtime = vec![0x60, 0x20, 0x60, 0x00, 0x52];
        runtime.extend([0x62, len[1], len[2], len[3], 0x60, 0x20, 0x52]);
        runtime.extend([
            0x62, len[1], len[2], len[3], 0x61, 0x00, 29, 0x60, 0x40, 0x39,
        ]);
        runtime.extend([0x62, size[1], size[2], size[3], 0x60, 0x00, 0xf3]);
        assert_eq!(runtime.len(), 29);
        runtime.extend(text);
        let rlen = u16::try_from(runtime.len()).unwrap().to_be_bytes();
        // Copies the runtime (after these 12 bytes) to memory and returns it.
        let mut init = vec![0x61, rlen[0], rlen[1], 0x80, 0x60, 12, 0x60, 0x00, 0x39];
        init.extend([0x60, 0x00, 0xf3]);
        assert_eq!(init.len(), 12);
        init.extend(runtime);
        init
    }

    /// A `name()` of 20 KB that starts with terminal escapes reaches the
    /// user as one clean line of at most 200 characters, its length said.
    #[test]
    fn a_contracts_long_name_with_escapes_is_cut_to_one_clean_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        let mut chain = Chain::embedded(&path, &PrivateKey::anvil_default(), true).unwrap();
        let mut text = b"\x1b[2J\x1b]0;owned\x07".to_vec();
        text.extend(std::iter::repeat_n(b'A', 20_000));
        let at = chain
            .deploy(returning_string(&text).into())
            .unwrap()
            .contract_address
            .unwrap();
        let name = puzzle_name(&mut chain, at).unwrap();
        assert!(name.chars().count() < 240, "{} characters", name.len());
        assert!(!name.chars().any(char::is_control), "{name:?}");
        assert!(name.contains("bytes in all"), "{name}");
    }
}

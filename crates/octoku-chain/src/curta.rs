//! The Curta protocol (waterfall-mkt/curta): typed calls on a [`Chain`] for
//! the part octoku uses. Authors add an IPuzzle with an Authorship Token,
//! players solve their own board (`puzzle.generate(player)`) once each, in
//! phases that start with the first solve:
//!
//! | phase | when (after the first solve) | a solve costs |
//! | --- | --- | --- |
//! | 0 | before any solve | nothing |
//! | 1 | up to 2 days | nothing |
//! | 2 | more than 2, up to 5 days | at least 0.02 ether |
//! | 3 | more than 5 days | closed |
//!
//! The interface below is written from Curta's ABI; only what octoku calls.
//! [`play`] holds the commands' flows on top of it (find a puzzle, read a
//! board, solve, the leaderboard).

pub mod play;

use alloy_primitives::{Address, B256, Bytes, U256};
use alloy_sol_types::{SolCall, SolEvent, SolInterface};
use octoku_core::{
    Board,
    octoku::explain::{describe, explain},
};

use super::{
    Chain, ChainError, LoggedAt, Receipt, Revert,
    arena::{self, call},
    leaderboard,
};
use octoku_evm::{EvmError, Machine, Puzzle, bindings::IPuzzle};

alloy_sol_types::sol! {
    /// Curta: puzzles added with an Authorship Token, solved for a Flag.
    interface ICurta {
        /// The Authorship Token `tokenId` has already added a puzzle.
        error AuthorshipTokenAlreadyUsed(uint256 tokenId);
        /// The puzzle's `verify` rejected the solution for the sender's board.
        error IncorrectSolution();
        /// A phase 2 solve sent less than the fee.
        error InsufficientFunds();
        /// The puzzle is already Fermat (the longest-unsolved one).
        error PuzzleAlreadyFermat(uint32 puzzleId);
        /// The sender has already solved this puzzle.
        error PuzzleAlreadySolved(uint32 puzzleId);
        /// No puzzle has this id.
        error PuzzleDoesNotExist(uint32 puzzleId);
        /// The puzzle address is zero or Curta itself.
        error PuzzleInvalidAddress();
        /// The puzzle's `name()` is empty.
        error PuzzleNotNamed();
        /// The puzzle took less time to solve than the Fermat puzzle.
        error PuzzleNotFermat(uint32 puzzleId);
        /// The puzzle has not been solved yet.
        error PuzzleNotSolved(uint32 puzzleId);
        /// Phase 3: the puzzle takes no more solves.
        error SubmissionClosed(uint32 puzzleId);
        /// The sender does not own the Authorship Token.
        error Unauthorized();

        /// Puzzle `id` was added by `author`.
        event AddPuzzle(uint32 indexed id, address indexed author, address puzzle);
        /// `solver` solved puzzle `id` with `solution` in `phase` (0 to 2).
        event SolvePuzzle(uint32 indexed id, address indexed solver, uint256 solution, uint8 phase);

        /// Adds `puzzle` with the sender's unused Authorship Token `tokenId`.
        function addPuzzle(address puzzle, uint256 tokenId) external;
        /// Solves puzzle `puzzleId` for the sender's board; phase 2 pays a fee.
        function solve(uint32 puzzleId, uint256 solution) external payable;
        /// A puzzle's contract, when it was added and when first solved (0: never).
        function getPuzzle(uint32 puzzleId) external view returns (address puzzle, uint40 addedTimestamp, uint40 firstSolveTimestamp);
        /// Who added puzzle `puzzleId`.
        function getPuzzleAuthor(uint32 puzzleId) external view returns (address);
        /// The Flag colours and the solve counts of puzzle `puzzleId`.
        function getPuzzleColorsAndSolves(uint32 puzzleId) external view returns (uint120 colors, uint32 phase0Solves, uint32 phase1Solves, uint32 phase2Solves, uint32 solves);
        /// Whether `solver` has solved puzzle `puzzleId`.
        function hasSolvedPuzzle(address solver, uint32 puzzleId) external view returns (bool);
        /// Whether Authorship Token `tokenId` has added a puzzle.
        function hasUsedAuthorshipToken(uint256 tokenId) external view returns (bool);
        /// The latest puzzle's id (0: none yet).
        function puzzleId() external view returns (uint32);
        /// The Authorship Token contract.
        function authorshipToken() external view returns (address);
    }

    /// Curta's Authorship Token (ERC-721): one token adds one puzzle.
    interface IAuthorshipToken {
        /// The owner of token `id`; reverts for a token never minted.
        function ownerOf(uint256 id) external view returns (address);
    }
}

/// Phase 1 lasts this long after the first solve (seconds): Curta's
/// `PHASE_ONE_LENGTH`, 2 days.
pub const PHASE_ONE_LENGTH: u64 = 2 * 86_400;

/// Phases 1 and 2 together (seconds): Curta's `SUBMISSION_LENGTH`, 5 days.
pub const SUBMISSION_LENGTH: u64 = 5 * 86_400;

/// The least a phase 2 solve sends, in wei (0.02 ether); 0.01 ether goes to
/// Curta's owner, the rest to the author.
pub const PHASE_TWO_FEE: u128 = 20_000_000_000_000_000;

/// The phase of a puzzle first solved at `first_solve` (0: never) at time
/// `now`: Curta's `_computePhase` (a solve exactly 2 days after the first is
/// still phase 1; exactly 5 days, still phase 2).
pub const fn phase(first_solve: u64, now: u64) -> u8 {
    if first_solve == 0 {
        0
    } else if now > first_solve + SUBMISSION_LENGTH {
        3
    } else if now > first_solve + PHASE_ONE_LENGTH {
        2
    } else {
        1
    }
}

/// The least a solve in `phase` must send, in wei; `None` when submissions
/// are closed (phase 3).
pub const fn fee(phase: u8) -> Option<u128> {
    match phase {
        0 | 1 => Some(0),
        2 => Some(PHASE_TWO_FEE),
        _ => None,
    }
}

/// `0.02 ether`, `20 gwei` or `7 wei`: wei in the largest unit that keeps it exact.
pub fn ether(wei: u128) -> String {
    let exact = |decimals: u32| {
        let unit = 10u128.pow(decimals);
        let fraction = format!("{:0>width$}", wei % unit, width = decimals as usize);
        let fraction = fraction.trim_end_matches('0');
        if fraction.is_empty() {
            format!("{}", wei / unit)
        } else {
            format!("{}.{fraction}", wei / unit)
        }
    };
    if wei >= 10u128.pow(15) {
        format!("{} ether", exact(18))
    } else if wei >= 10u128.pow(6) {
        format!("{} gwei", exact(9))
    } else {
        format!("{wei} wei")
    }
}

/// A fee paid, as a user reads it: ether to four significant digits, to
/// the nearest (`~0.0002352 ether`; `~` marks a rounded amount); below a
/// micro-ether, the exact [`ether`] form (`21 gwei`). Amounts to send stay
/// exact ([`ether`]).
pub fn fee_paid(wei: u128) -> String {
    ether_to_four_digits(wei, false)
}

/// The most a transaction can cost, as [`fee_paid`] reads it but rounded
/// up, so the bound shown is never below the true one (`~0.0007076 ether`).
pub fn fee_at_most(wei: u128) -> String {
    ether_to_four_digits(wei, true)
}

fn ether_to_four_digits(wei: u128, up: bool) -> String {
    const SHOWN: u32 = 4;
    if wei < 10u128.pow(12) {
        return ether(wei);
    }
    let cut = 10u128.pow(wei.ilog10() + 1 - SHOWN);
    let rest = wei % cut;
    let carry = if up { rest > 0 } else { rest >= cut / 2 };
    let rounded = (wei / cut + u128::from(carry)) * cut;
    let mark = if rest == 0 { "" } else { "~" };
    let unit = 10u128.pow(18);
    let fraction = format!("{:018}", rounded % unit);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{mark}{} ether", rounded / unit)
    } else {
        format!("{mark}{}.{fraction} ether", rounded / unit)
    }
}

/// Why no Curta puzzle could be chosen ([`choose`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChoiceError {
    /// Bad input: no puzzle given and none on record, or an id Curta does
    /// not have (one line saying what to pass).
    #[error("{0}")]
    Input(String),
    /// The chain failed, or the address is not Curta.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The deployment record is unreadable, or of another chain.
    #[error(transparent)]
    Deployments(ChainError),
}

/// Curta's puzzle ids as a user reads them: `it has no puzzles yet` for
/// a Curta whose last id is 0, else `its puzzles are 1 to N`.
pub fn puzzle_range(last_id: u32) -> String {
    match last_id {
        0 => "it has no puzzles yet".to_owned(),
        1 => "its one puzzle is 1".to_owned(),
        n => format!("its puzzles are 1 to {n}"),
    }
}

/// The Curta puzzle a command means: `curta` and `id` (`--curta`,
/// `--puzzle-id`), each defaulting to the latest `octoku deploy --curta`
/// recorded in `file` (read from `path`); checked to be Curta and an
/// existing puzzle. Returns Curta, the puzzle, and its record when on file.
pub fn choose(
    chain: &mut Chain,
    file: Option<&super::deployments::DeploymentsFile>,
    path: &std::path::Path,
    curta: Option<Address>,
    id: Option<u32>,
) -> Result<
    (
        Address,
        CurtaPuzzle,
        Option<super::deployments::CurtaPuzzleRecord>,
    ),
    ChoiceError,
> {
    let latest = file.and_then(|f| f.latest_curta(curta));
    let curta = match (curta, latest) {
        (Some(c), _) => c,
        (None, Some(r)) => r.curta,
        (None, None) => {
            return Err(ChoiceError::Input(format!(
                "no --curta given and no Curta puzzle recorded in {} for this chain: pass --curta ADDRESS (and --puzzle-id N), or add one with `octoku deploy --curta`",
                path.display()
            )));
        }
    };
    let last_id = require_curta(chain, curta)?;
    let id = match (id, latest) {
        (Some(id), _) => id,
        (None, Some(r)) => r.puzzle_id,
        (None, None) => {
            return Err(ChoiceError::Input(format!(
                "no --puzzle-id given and none recorded for Curta {curta}: expected --puzzle-id N ({})",
                puzzle_range(last_id)
            )));
        }
    };
    let puzzle = get_puzzle(chain, curta, id)?.ok_or_else(|| {
        ChoiceError::Input(format!(
            "--puzzle-id {id}: Curta {curta} has no such puzzle ({})",
            puzzle_range(last_id)
        ))
    })?;
    let record = file.and_then(|f| {
        f.curta_puzzles
            .iter()
            .rev()
            .find(|r| r.curta == curta && r.puzzle_id == id)
            .cloned()
    });
    Ok((curta, puzzle, record))
}

/// Why Curta would refuse a solve, decided from the chain's state before
/// anything is sent (the CLI's `play`/`submit --curta` and the page's
/// Submit say the same).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The player has solved this puzzle already.
    #[error(
        "{player} has already solved Curta puzzle {id} (Curta would revert with PuzzleAlreadySolved({id}))"
    )]
    AlreadySolved {
        /// The player.
        player: Address,
        /// The puzzle id.
        id: u32,
    },
    /// Phase 3: no more solves.
    #[error(
        "submissions to Curta puzzle {id} are closed (phase 3: more than 5 days after its first solve; Curta would revert with SubmissionClosed({id}))"
    )]
    Closed {
        /// The puzzle id.
        id: u32,
    },
    /// The puzzle's own verify (its chain code, run here) says no.
    #[error(
        "the puzzle's verify (its code from the chain, run here) rejects the solution for {player}'s board {start}: {why}"
    )]
    Incorrect {
        /// The player.
        player: Address,
        /// The board the puzzle hands the player.
        start: Board,
        /// octoku's explanation (the first problem).
        why: String,
    },
    /// Phase 2 and less than the fee sent.
    #[error("Curta puzzle {id} is in phase 2, where a solve costs at least {} ({fee} wei)", ether(*fee))]
    Fee {
        /// The puzzle id.
        id: u32,
        /// The least a solve sends now, in wei.
        fee: u128,
    },
}

impl Refusal {
    /// Curta's error that the refused solve would have reverted with.
    pub const fn error_name(&self) -> &'static str {
        match self {
            Refusal::AlreadySolved { .. } => "PuzzleAlreadySolved",
            Refusal::Closed { .. } => "SubmissionClosed",
            Refusal::Incorrect { .. } => "IncorrectSolution",
            Refusal::Fee { .. } => "InsufficientFunds",
        }
    }
}

/// Whether `player` may solve `puzzle` now: the phase and its fee, or why
/// not (solved already, phase 3). Read at the latest block.
pub fn admits(
    chain: &mut Chain,
    curta: Address,
    puzzle: &CurtaPuzzle,
    player: Address,
) -> Result<Result<(u8, u128), Refusal>, ChainError> {
    let id = puzzle.id;
    if has_solved(chain, curta, player, id)? {
        return Ok(Err(Refusal::AlreadySolved { player, id }));
    }
    let phase = puzzle.phase_at(chain.timestamp()?);
    Ok(match fee(phase) {
        Some(fee) => Ok((phase, fee)),
        None => Err(Refusal::Closed { id }),
    })
}

/// `value` wei pays for a solve of puzzle `id` whose fee is `fee`, or the refusal.
pub fn pays(id: u32, fee: u128, value: u128) -> Result<(), Refusal> {
    if value < fee {
        Err(Refusal::Fee { id, fee })
    } else {
        Ok(())
    }
}

/// The puzzle's own `verify(start, solution)` on `code` (its runtime code
/// from the chain) in revm: its gas, or the refusal with octoku's
/// explanation of what is wrong.
pub fn check_solution(
    puzzle: Address,
    code: Bytes,
    player: Address,
    start: Board,
    solution: Board,
) -> Result<Result<u64, Refusal>, EvmError> {
    let (valid, gas) =
        LocalPuzzle::new(puzzle, code)?.verify(start.to_u256(), solution.to_u256())?;
    if valid {
        return Ok(Ok(gas));
    }
    let why = explain(start, solution)
        .first()
        .map(describe)
        .unwrap_or_else(|| "the puzzle's verify says no".into());
    Ok(Err(Refusal::Incorrect { player, start, why }))
}

/// A puzzle on Curta, as `getPuzzle` and `getPuzzleAuthor` give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurtaPuzzle {
    /// Its id on Curta.
    pub id: u32,
    /// The IPuzzle contract.
    pub puzzle: Address,
    /// Who added it.
    pub author: Address,
    /// When it was added (unix seconds).
    pub added: u64,
    /// When it was first solved (0: never).
    pub first_solve: u64,
}

impl CurtaPuzzle {
    /// Its phase at time `now`.
    pub const fn phase_at(&self, now: u64) -> u8 {
        phase(self.first_solve, now)
    }
}

/// An `addPuzzle` mined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// The new puzzle id, from the `AddPuzzle` event.
    pub id: u32,
    /// The receipt.
    pub receipt: Receipt,
}

/// A `solve` mined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The phase, from the `SolvePuzzle` event.
    pub phase: u8,
    /// The receipt.
    pub receipt: Receipt,
}

/// One solve of a puzzle, from its `SolvePuzzle` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solver {
    /// Who solved.
    pub address: Address,
    /// The phase it was solved in (0 to 2).
    pub phase: u8,
    /// The accepted solution.
    pub solution: U256,
    /// Block of the solve.
    pub block: u64,
    /// The solve's transaction.
    pub tx: B256,
}

/// Every solver of one puzzle, in chain order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solvers {
    /// One per `SolvePuzzle` event of the puzzle.
    pub entries: Vec<Solver>,
    /// Log queries made.
    pub queries: u64,
}

/// Checks that `curta` is Curta: it holds code ([`ChainError::NoCode`]) and
/// answers `puzzleId()` and `authorshipToken()` ([`ChainError::NotCurta`]).
/// Returns the latest puzzle id.
pub fn require_curta(chain: &mut Chain, curta: Address) -> Result<u32, ChainError> {
    chain.require_code(curta)?;
    let not_curta = |e: ChainError| match e {
        e if e.is_no_answer() => ChainError::NotCurta(curta),
        other => other,
    };
    call(chain, curta, &ICurta::authorshipTokenCall {}).map_err(not_curta)?;
    call(chain, curta, &ICurta::puzzleIdCall {}).map_err(not_curta)
}

/// Puzzle `id` of `curta`, `None` when there is none.
pub fn get_puzzle(
    chain: &mut Chain,
    curta: Address,
    id: u32,
) -> Result<Option<CurtaPuzzle>, ChainError> {
    let data = call(chain, curta, &ICurta::getPuzzleCall { puzzleId: id })?;
    if data.puzzle.is_zero() {
        return Ok(None);
    }
    let author = call(chain, curta, &ICurta::getPuzzleAuthorCall { puzzleId: id })?;
    Ok(Some(CurtaPuzzle {
        id,
        puzzle: data.puzzle,
        author,
        added: data.addedTimestamp.to(),
        first_solve: data.firstSolveTimestamp.to(),
    }))
}

/// Whether `player` has solved puzzle `id`.
pub fn has_solved(
    chain: &mut Chain,
    curta: Address,
    player: Address,
    id: u32,
) -> Result<bool, ChainError> {
    call(
        chain,
        curta,
        &ICurta::hasSolvedPuzzleCall {
            solver: player,
            puzzleId: id,
        },
    )
}

/// The owner of Authorship Token `token`; `None` for a token never minted
/// (`ownerOf` reverts).
pub fn token_owner(
    chain: &mut Chain,
    curta: Address,
    token: U256,
) -> Result<Option<Address>, ChainError> {
    let contract = call(chain, curta, &ICurta::authorshipTokenCall {})?;
    match call(
        chain,
        contract,
        &IAuthorshipToken::ownerOfCall { id: token },
    ) {
        Ok(owner) => Ok(Some(owner).filter(|o| !o.is_zero())),
        Err(ChainError::Reverted(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether Authorship Token `token` has already added a puzzle.
pub fn token_used(chain: &mut Chain, curta: Address, token: U256) -> Result<bool, ChainError> {
    call(
        chain,
        curta,
        &ICurta::hasUsedAuthorshipTokenCall { tokenId: token },
    )
}

/// How many solves Curta counts for puzzle `id`; `None` from a Curta that
/// does not have `getPuzzleColorsAndSolves` (the first mainnet deployment).
pub fn solve_count(chain: &mut Chain, curta: Address, id: u32) -> Result<Option<u32>, ChainError> {
    match call(
        chain,
        curta,
        &ICurta::getPuzzleColorsAndSolvesCall { puzzleId: id },
    ) {
        Ok(r) => Ok(Some(r.solves)),
        Err(e) if e.is_no_answer() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Sends `addPuzzle(puzzle, token)` (simulated first) and reads the new id
/// from the `AddPuzzle` event.
pub fn add_puzzle(
    chain: &mut Chain,
    curta: Address,
    puzzle: Address,
    token: U256,
) -> Result<Added, ChainError> {
    let data = ICurta::addPuzzleCall {
        puzzle,
        tokenId: token,
    }
    .abi_encode();
    let receipt = chain.send(curta, data.into())?;
    let event: ICurta::AddPuzzle = receipt.event(curta)?;
    Ok(Added {
        id: event.id,
        receipt,
    })
}

/// Sends `solve(id, solution)` with `value` wei (simulated first, with the
/// value) and reads the phase from the `SolvePuzzle` event.
pub fn solve(
    chain: &mut Chain,
    curta: Address,
    id: u32,
    solution: U256,
    value: U256,
) -> Result<Solved, ChainError> {
    let data = ICurta::solveCall {
        puzzleId: id,
        solution,
    }
    .abi_encode();
    let receipt = chain.send_value(curta, data.into(), value)?;
    let event: ICurta::SolvePuzzle = receipt.event(curta)?;
    Ok(Solved {
        phase: event.phase,
        receipt,
    })
}

/// Every solver of puzzle `id`, from its `SolvePuzzle` events (filtered by
/// the id topic) from block `from`, `page` blocks per log query; checked
/// against Curta's solve count when it has one.
pub fn solvers(
    chain: &mut Chain,
    curta: Address,
    id: u32,
    from: u64,
    page: u64,
) -> Result<Solvers, ChainError> {
    let count = solve_count(chain, curta, id)?;
    let topics = [
        ICurta::SolvePuzzle::SIGNATURE_HASH,
        B256::from(U256::from(id)),
    ];
    let (logs, queries) = leaderboard::scan(chain, curta, &topics, from, page, |found| {
        count.is_some_and(|c| found >= c as usize)
    })?;
    let entries = logs
        .iter()
        .map(|found| decode_solve(curta, found))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(count) = count
        && entries.len() != count as usize
    {
        return Err(ChainError::Unexpected(format!(
            "Curta {curta} counts {count} solves of puzzle {id}, but its SolvePuzzle events from block {from} give {}",
            entries.len()
        )));
    }
    Ok(Solvers { entries, queries })
}

fn decode_solve(curta: Address, found: &LoggedAt) -> Result<Solver, ChainError> {
    let event =
        ICurta::SolvePuzzle::decode_log(&found.log).map_err(|source| ChainError::Decode {
            what: format!("a SolvePuzzle log of {curta} does not decode"),
            source,
        })?;
    Ok(Solver {
        address: event.data.solver,
        phase: event.data.phase,
        solution: event.data.solution,
        block: found.block,
        tx: found.tx,
    })
}

/// Curta's custom error in `revert`, by name and arguments
/// (`PuzzleAlreadySolved(1)`); `None` for data that is none of them.
pub fn error_name(revert: &Revert) -> Option<String> {
    use ICurta::ICurtaErrors as E;
    Some(match E::abi_decode(&revert.0).ok()? {
        E::AuthorshipTokenAlreadyUsed(e) => format!("AuthorshipTokenAlreadyUsed({})", e.tokenId),
        E::IncorrectSolution(_) => "IncorrectSolution()".into(),
        E::InsufficientFunds(_) => "InsufficientFunds()".into(),
        E::PuzzleAlreadyFermat(e) => format!("PuzzleAlreadyFermat({})", e.puzzleId),
        E::PuzzleAlreadySolved(e) => format!("PuzzleAlreadySolved({})", e.puzzleId),
        E::PuzzleDoesNotExist(e) => format!("PuzzleDoesNotExist({})", e.puzzleId),
        E::PuzzleInvalidAddress(_) => "PuzzleInvalidAddress()".into(),
        E::PuzzleNotNamed(_) => "PuzzleNotNamed()".into(),
        E::PuzzleNotFermat(e) => format!("PuzzleNotFermat({})", e.puzzleId),
        E::PuzzleNotSolved(e) => format!("PuzzleNotSolved({})", e.puzzleId),
        E::SubmissionClosed(e) => format!("SubmissionClosed({})", e.puzzleId),
        E::Unauthorized(_) => "Unauthorized()".into(),
    })
}

/// A puzzle's own code, run in octoku's in-memory revm: the runtime code
/// read from the chain (eth_getCode), installed as it is. Valid for puzzles
/// whose answers depend on their code and arguments only (no storage).
#[derive(Debug)]
pub struct LocalPuzzle {
    machine: Machine,
    address: Address,
}

impl LocalPuzzle {
    /// The puzzle at `address` with runtime code `code`.
    pub fn new(address: Address, code: Bytes) -> Result<LocalPuzzle, EvmError> {
        let mut machine = Machine::new()?;
        machine.install(address, code);
        Ok(LocalPuzzle { machine, address })
    }

    /// `verify(start, solution)` here, and its execution gas.
    pub fn verify(&mut self, start: U256, solution: U256) -> Result<(bool, u64), EvmError> {
        let call = IPuzzle::verifyCall { start, solution };
        let outcome = self
            .machine
            .call_raw(self.address, call.abi_encode().into())?;
        if !outcome.success {
            return Err(EvmError::Reverted(outcome.output));
        }
        let valid = IPuzzle::verifyCall::abi_decode_returns(&outcome.output)
            .map_err(EvmError::return_data)?;
        Ok((valid, outcome.gas))
    }
}

/// `name()` of the contract `initcode` creates, run in octoku's in-memory
/// revm before anything is sent; `None` when it has no `name()` (the call
/// reverts or answers no string).
pub fn local_name(initcode: &[u8]) -> Result<Option<String>, EvmError> {
    let mut machine = Machine::new()?;
    let (address, _) = machine.deploy(initcode)?;
    let outcome = machine.call_raw(address, IPuzzle::nameCall {}.abi_encode().into())?;
    Ok(outcome
        .success
        .then(|| IPuzzle::nameCall::abi_decode_returns(&outcome.output).ok())
        .flatten())
}

/// Where the puzzle added to Curta comes from ([`check_add`], [`publish`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Creation code to deploy first (`--puzzle P`; `--artifact X` adds
    /// its compiled contract here), and which puzzle it is when known.
    Initcode {
        /// The puzzle kind (`None`: a contract not built here).
        kind: Option<Puzzle>,
        /// Creation code, constructor arguments included.
        initcode: Vec<u8>,
    },
    /// A contract already deployed (`--puzzle-address A`).
    Deployed(Address),
}

/// Why Curta would refuse `addPuzzle`, decided from the chain's state
/// before anything is sent ([`check_add`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AddRefusal {
    /// The Authorship Token was never minted.
    #[error("Authorship Token {token} of Curta {curta} does not exist (never minted)")]
    NoToken {
        /// The token id.
        token: u64,
        /// The Curta contract.
        curta: Address,
    },
    /// The sender does not own the token.
    #[error(
        "{author} does not own Authorship Token {token} (its owner is {owner}; Curta would revert with Unauthorized())"
    )]
    NotOwner {
        /// The sender.
        author: Address,
        /// The token id.
        token: u64,
        /// Its owner.
        owner: Address,
    },
    /// The token has added a puzzle already.
    #[error(
        "Authorship Token {token} has already added a puzzle to Curta {curta} (Curta would revert with AuthorshipTokenAlreadyUsed({token}))"
    )]
    TokenUsed {
        /// The token id.
        token: u64,
        /// The Curta contract.
        curta: Address,
    },
    /// The puzzle has no `name()`, or an empty one.
    #[error("{what}, and Curta adds only named puzzles (PuzzleNotNamed())")]
    Unnamed {
        /// What is wrong with its name.
        what: String,
    },
    /// The puzzle's address is zero or Curta itself.
    #[error(
        "--puzzle-address {puzzle} is {}, which Curta refuses (PuzzleInvalidAddress())",
        if puzzle.is_zero() { "zero" } else { "Curta itself" }
    )]
    InvalidAddress {
        /// The address given.
        puzzle: Address,
    },
}

/// Why a puzzle could not be added to Curta.
#[derive(Debug, thiserror::Error)]
pub enum AddError {
    /// Curta would refuse it: nothing sent.
    #[error("nothing sent: {0}")]
    Refused(#[from] AddRefusal),
    /// The chain failed, or the address is not Curta.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The creation code could not be run here (to read its `name()`).
    #[error(transparent)]
    Evm(#[from] EvmError),
}

/// Whether Curta at `curta` would add the puzzle of `source` with the
/// sender's Authorship Token `token`: the puzzle's kind and `name()`, or why
/// not. Nothing is sent.
///
/// ```no_run
/// use octoku_chain::{Chain, PrivateKey, curta::{self, Source}};
/// use octoku_evm::Puzzle;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // A node where Curta is deployed, and the key of an Authorship Token's owner.
/// let mut chain = Chain::rpc("http://127.0.0.1:8545", &PrivateKey::anvil_default())?;
/// let curta = "0x0000000006bC8D9e5e9d436217B88De704a9F307".parse()?;
/// let source = Source::Initcode { kind: Some(Puzzle::Fair), initcode: Puzzle::Fair.artifact().initcode.to_vec() };
/// let (kind, name) = curta::check_add(&mut chain, curta, 7, &source)?;
/// let added = curta::publish(&mut chain, curta, 7, source)?;
/// println!("{name:?} ({kind:?}) is puzzle {} at {}", added.added.id, added.puzzle);
/// # Ok(())
/// # }
/// ```
pub fn check_add(
    chain: &mut Chain,
    curta: Address,
    token: u64,
    source: &Source,
) -> Result<(Option<Puzzle>, String), AddError> {
    require_curta(chain, curta)?;
    let author = chain.sender();
    let token_id = U256::from(token);
    match token_owner(chain, curta, token_id)? {
        None => return Err(AddRefusal::NoToken { token, curta }.into()),
        Some(owner) if owner != author => {
            return Err(AddRefusal::NotOwner {
                author,
                token,
                owner,
            }
            .into());
        }
        Some(_) => {}
    }
    if token_used(chain, curta, token_id)? {
        return Err(AddRefusal::TokenUsed { token, curta }.into());
    }
    let unnamed = |what: String| AddError::Refused(AddRefusal::Unnamed { what });
    match source {
        Source::Initcode { kind, initcode } => match local_name(initcode)? {
            Some(name) if !name.is_empty() => Ok((*kind, name)),
            Some(_) => Err(unnamed("the puzzle's name() is empty".into())),
            None => Err(unnamed("the puzzle has no name()".into())),
        },
        Source::Deployed(puzzle) => {
            if puzzle.is_zero() || *puzzle == curta {
                return Err(AddRefusal::InvalidAddress { puzzle: *puzzle }.into());
            }
            chain.require_code(*puzzle)?;
            let name = match arena::puzzle_name(chain, *puzzle) {
                Ok(name) if name.is_empty() => {
                    return Err(unnamed(format!("the name() of {puzzle} is empty")));
                }
                Ok(name) => name,
                Err(e) if e.is_no_answer() => {
                    return Err(unnamed(format!("{puzzle} has no name()")));
                }
                Err(e) => return Err(e.into()),
            };
            let kind = arena::identify_puzzle(chain, *puzzle)?;
            Ok((kind, name))
        }
    }
}

/// A puzzle [`publish`] added to Curta.
#[derive(Debug, Clone)]
pub struct Published {
    /// The puzzle contract.
    pub puzzle: Address,
    /// Its deployment, when [`publish`] deployed it.
    pub deployed: Option<Receipt>,
    /// Curta's `addPuzzle`: the new id and its receipt.
    pub added: Added,
}

/// Deploys the puzzle of `source` unless it exists, and adds it to Curta at
/// `curta` with the Authorship Token `token` (after [`check_add`]).
pub fn publish(
    chain: &mut Chain,
    curta: Address,
    token: u64,
    source: Source,
) -> Result<Published, ChainError> {
    let (puzzle, deployed) = match source {
        Source::Initcode { initcode, .. } => {
            let receipt = chain.deploy(initcode.into())?;
            let address = receipt.contract_address.ok_or_else(|| {
                ChainError::Unexpected(format!(
                    "deployment {} created no contract",
                    receipt.tx_hash
                ))
            })?;
            (address, Some(receipt))
        }
        Source::Deployed(address) => (address, None),
    };
    let added = add_puzzle(chain, curta, puzzle, U256::from(token))?;
    Ok(Published {
        puzzle,
        deployed,
        added,
    })
}

#[cfg(test)]
mod tests {
    use alloy_sol_types::SolError;

    use super::*;

    /// A Curta with no puzzle is said to have none, not "1 to 0".
    #[test]
    fn puzzle_ranges_read_for_none_one_and_many() {
        assert_eq!(puzzle_range(0), "it has no puzzles yet");
        assert_eq!(puzzle_range(1), "its one puzzle is 1");
        assert_eq!(puzzle_range(7), "its puzzles are 1 to 7");
    }

    #[test]
    fn error_selectors_are_curtas() {
        use ICurta::*;
        let selectors = [
            (AuthorshipTokenAlreadyUsed::SELECTOR, "e75c31ed"),
            (IncorrectSolution::SELECTOR, "62cebecf"),
            (InsufficientFunds::SELECTOR, "356680b7"),
            (PuzzleAlreadySolved::SELECTOR, "36a1d8d4"),
            (PuzzleDoesNotExist::SELECTOR, "684773c3"),
            (PuzzleInvalidAddress::SELECTOR, "46d045ae"),
            (PuzzleNotNamed::SELECTOR, "c2d58867"),
            (SubmissionClosed::SELECTOR, "aa5ebdc7"),
            (Unauthorized::SELECTOR, "82b42900"),
        ];
        for (selector, hex) in selectors {
            assert_eq!(alloy_primitives::hex::encode(selector), hex);
        }
    }

    #[test]
    fn amounts_read_in_the_largest_exact_unit() {
        assert_eq!(ether(20_000_000_000_000_000), "0.02 ether");
        assert_eq!(ether(10u128.pow(18)), "1 ether");
        assert_eq!(ether(20_000_000_000), "20 gwei");
        assert_eq!(ether(1_500_000), "0.0015 gwei");
        assert_eq!(ether(7), "7 wei");
    }

    #[test]
    fn fees_paid_read_in_ether_to_four_digits() {
        assert_eq!(fee_paid(235_228_000_235_228), "~0.0002352 ether");
        assert_eq!(fee_paid(1_300_000_000_000_000), "0.0013 ether");
        assert_eq!(fee_paid(123_456_789_000_000_000_000), "~123.5 ether");
        assert_eq!(fee_paid(999_960_000_000_000), "~0.001 ether");
        assert_eq!(fee_paid(21_000_000_000), "21 gwei");
        assert_eq!(fee_paid(7), "7 wei");
        assert_eq!(fee_at_most(707_554_000_353_777), "~0.0007076 ether");
        assert_eq!(fee_at_most(707_500_000_000_001), "~0.0007076 ether");
        assert_eq!(fee_at_most(707_500_000_000_000), "0.0007075 ether");
        assert_eq!(fee_paid(707_549_999_999_999), "~0.0007075 ether");
    }

    #[test]
    fn phases_change_just_after_two_and_five_days() {
        let first = 1_700_000_000;
        assert_eq!(phase(0, first), 0);
        assert_eq!(phase(first, first), 1);
        assert_eq!(phase(first, first + PHASE_ONE_LENGTH), 1);
        assert_eq!(phase(first, first + PHASE_ONE_LENGTH + 1), 2);
        assert_eq!(phase(first, first + SUBMISSION_LENGTH), 2);
        assert_eq!(phase(first, first + SUBMISSION_LENGTH + 1), 3);
        assert_eq!(fee(2), Some(PHASE_TWO_FEE));
        assert_eq!(fee(1), Some(0));
        assert_eq!(fee(3), None);
    }

    #[test]
    fn curta_errors_decode_by_name() {
        let data = ICurta::PuzzleAlreadySolved { puzzleId: 7 }.abi_encode();
        assert_eq!(Revert(data.into()).to_string(), "PuzzleAlreadySolved(7)");
        let data = ICurta::InsufficientFunds {}.abi_encode();
        assert_eq!(Revert(data.into()).to_string(), "InsufficientFunds()");
        let data = ICurta::AuthorshipTokenAlreadyUsed {
            tokenId: U256::from(1),
        }
        .abi_encode();
        assert_eq!(
            Revert(data.into()).to_string(),
            "AuthorshipTokenAlreadyUsed(1)"
        );
    }

    #[test]
    fn the_fair_puzzle_is_named_before_it_is_deployed() {
        let name = local_name(octoku_evm::Puzzle::Fair.artifact().initcode).unwrap();
        assert!(name.is_some_and(|n| !n.is_empty()));
    }
}

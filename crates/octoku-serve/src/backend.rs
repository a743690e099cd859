//! The chain the server plays on: the embedded chain (revm with its state in
//! a JSON file) or a node, the game (an arena and its puzzle, or a puzzle on
//! Curta), and who may send.
//!
//! Every chain operation is blocking (the node backend blocks on its own
//! runtime); the API runs them on tokio's blocking pool. The chain is opened
//! for each request and closed after it, so on the embedded chain the state
//! file's lock is held only while a request runs: `octoku play` and the other
//! commands in another terminal take turns with the server, and every
//! transaction of each stays in the file. Solves sent by the server go one at
//! a time (one nonce sequence per signer on a node).

use std::{
    path::{Path, PathBuf},
    sync::Mutex,
};

use octoku_chain::{
    self as chain, Chain, ChainError, DEV_ACCOUNTS, DEV_KEYS, EMBEDDED_CHAIN_ID, EmbeddedChain,
    PrivateKey, TxOptions, arena,
    curta::{self, CurtaPuzzle, Refusal},
    deployments::{Deployment, DeploymentsFile, deployments_path},
    leaderboard,
    primitives::{Address, B256},
};
use octoku_core::{Board, octoku::explain, solve::octoku as solve};
use octoku_evm::Puzzle;

use crate::{Config, ServeError};

/// What the page plays: the arena's game, or a puzzle on Curta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// An arena (`solve(uint256)`, ranks from its `Solved` events).
    Arena(Address),
    /// Puzzle `id` on the Curta protocol at `curta` (`solve(uint32,uint256)`,
    /// phases and fees, solvers from its `SolvePuzzle` events).
    Curta {
        /// The Curta contract.
        curta: Address,
        /// The puzzle's id there.
        id: u32,
    },
}

impl Game {
    /// The contract a solve is sent to: the arena, or Curta.
    pub const fn contract(&self) -> Address {
        match self {
            Game::Arena(arena) => *arena,
            Game::Curta { curta, .. } => *curta,
        }
    }
}

/// Where the chain lives.
#[derive(Debug, Clone)]
enum Where {
    Embedded(PathBuf),
    Rpc(String),
}

/// One account the page may play as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The address.
    pub address: Address,
    /// `server signer` or `dev account N`.
    pub label: String,
}

/// A board as the arena hands it to a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The player.
    pub player: Address,
    /// `arena.boardOf(player)`.
    pub start: Board,
    /// Whether some solution exists.
    pub solvable: bool,
    /// Why not, when it does not.
    pub reason: Option<String>,
    /// `(rank, block)` if the player has solved.
    pub solved: Option<(u64, u64)>,
    /// On Curta: the phase now (0 to 3).
    pub phase: Option<u8>,
}

/// One line of the leaderboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solver {
    /// Who solved.
    pub address: Address,
    /// 1-based rank.
    pub rank: u64,
    /// Block of the solve.
    pub block: u64,
    /// On Curta: the phase of the solve (0 to 2).
    pub phase: Option<u8>,
    /// The accepted solution, from the solve's event.
    pub solution: octoku_chain::primitives::U256,
}

/// A mined solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// Rank from the `Solved` event.
    pub rank: u64,
    /// Total gas of the transaction.
    pub gas_used: u64,
    /// Transaction hash.
    pub tx: B256,
    /// Block it was mined in.
    pub block: u64,
    /// On Curta: the phase of the solve, from its `SolvePuzzle` event.
    pub phase: Option<u8>,
}

/// Why a submission sent nothing or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SubmitError {
    /// Curta would refuse the solve (decided before sending).
    #[error("nothing sent: {0}")]
    Refused(Refusal),
    /// The chain failed or the transaction reverted anyway.
    #[error(transparent)]
    Chain(#[from] ChainError),
}

/// The chain, the game, its puzzle and the signers.
pub struct Backend {
    place: Where,
    label: String,
    chain_id: u64,
    game: Game,
    puzzle: Address,
    kind: Option<Puzzle>,
    /// On Curta: the puzzle's `name()`.
    name: Option<String>,
    /// Block of the arena's deployment or the puzzle's `addPuzzle` when it
    /// is on record, or `--from-block` (else 0): where the leaderboard's log
    /// queries start.
    from_block: u64,
    signer: Option<PrivateKey>,
    dev_keys: bool,
    sending: Mutex<()>,
    tx: TxOptions,
    /// A block explorer's base URL for the page's links (`--explorer-url`).
    explorer_url: Option<String>,
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Backend")
            .field("chain", &self.label)
            .field("game", &self.game)
            .field("puzzle", &self.puzzle)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

fn chain_failure(e: ChainError) -> ServeError {
    match e {
        ChainError::Key(_) | ChainError::Keystore(_) => ServeError::ChainInput(Box::new(e)),
        other => ServeError::ChainFailed(Box::new(other)),
    }
}

/// The dev account's key for `address`, if it is one.
fn dev_key(address: Address) -> Option<PrivateKey> {
    DEV_ACCOUNTS
        .iter()
        .position(|a| a.parse::<Address>().ok() == Some(address))
        .and_then(|i| PrivateKey::parse(DEV_KEYS[i]).ok())
}

impl Backend {
    /// Opens the chain named by `config` and finds the arena: `config.arena`,
    /// else the recorded deployment; on the embedded chain with none
    /// recorded, deploys the fair puzzle and its arena and records them.
    pub fn open(config: &Config) -> Result<Backend, ServeError> {
        // Opening a chain takes a key. Without a signer, anvil's first dev
        // key opens it to read (and, on a fresh embedded chain, to deploy the
        // puzzle and its arena), but it never signs for the page.
        let curta_game = config.curta.is_some() || config.puzzle_id.is_some();
        if curta_game && config.rpc_url.is_none() {
            return Err(ServeError::Input(
                "--curta and --puzzle-id need --rpc-url: Curta is not deployed on the embedded chain (give a node where it is, e.g. mainnet's 0x0000000006bC8D9e5e9d436217B88De704a9F307)".into(),
            ));
        }
        let read_key = config.key.clone().unwrap_or_else(PrivateKey::anvil_default);
        let (place, mut chain) = match &config.rpc_url {
            Some(url) => (
                Where::Rpc(url.clone()),
                Chain::rpc_with(url, &read_key, config.tx.clone()).map_err(chain_failure)?,
            ),
            None => {
                // Refused options must not leave a new state file behind.
                EmbeddedChain::check_tx_options(&config.tx)
                    .map_err(|e| ServeError::ChainInput(Box::new(e)))?;
                (
                    Where::Embedded(config.state.clone()),
                    Chain::embedded(&config.state, &read_key, true).map_err(chain_failure)?,
                )
            }
        };
        // Options the chain refuses (several confirmations on the embedded
        // chain, a gas limit above its block's) fail here, not per request.
        chain
            .set_tx_options(config.tx.clone())
            .map_err(|e| ServeError::ChainInput(Box::new(e)))?;
        let label = chain.describe().map_err(chain_failure)?;
        let chain_id = chain.chain_id().map_err(chain_failure)?;
        let (game, puzzle, name, recorded_block) = if curta_game {
            open_curta(&mut chain, config, chain_id)?
        } else {
            let (arena, block) = find_arena(&mut chain, config, chain_id)?;
            let puzzle = arena::require_arena(&mut chain, arena).map_err(chain_failure)?;
            (Game::Arena(arena), puzzle, None, block)
        };
        let kind = arena::identify_puzzle(&mut chain, puzzle).map_err(chain_failure)?;
        // Log queries from past the chain would find no solver, ever.
        if let Some(from) = config.from_block {
            let latest = chain.block_number().map_err(chain_failure)?;
            if from > latest {
                return Err(ServeError::Input(format!(
                    "--from-block {from} is past the chain's latest block {latest}; expected a block from 0 to {latest}"
                )));
            }
        }
        // The chain (and on the embedded chain the state file's lock) is
        // released here: each request opens it again.
        drop(chain);
        // The server signs only when given a key: then for itself, and on a
        // dev chain for anvil's dev accounts too. Without one the page plays
        // through the player's wallet.
        let signer = config.key.clone();
        Ok(Backend {
            dev_keys: signer.is_some()
                && (matches!(place, Where::Embedded(_)) || chain_id == EMBEDDED_CHAIN_ID),
            place,
            label,
            chain_id,
            game,
            puzzle,
            kind,
            name,
            from_block: config.from_block.or(recorded_block).unwrap_or(0),
            signer,
            sending: Mutex::new(()),
            tx: config.tx.clone(),
            explorer_url: config.explorer_url.clone(),
        })
    }

    /// The block explorer the page links transactions and addresses to
    /// (`--explorer-url`), if any.
    pub fn explorer_url(&self) -> Option<&str> {
        self.explorer_url.as_deref()
    }

    /// `embedded (PATH)` or `URL (chain id N)`.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The chain id.
    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    /// Whether the chain is the embedded one (no node a wallet could reach).
    pub fn embedded(&self) -> bool {
        matches!(self.place, Where::Embedded(_))
    }

    /// Where the leaderboard's log queries start: `--from-block`, else the
    /// block of the arena's deployment or of the puzzle's `addPuzzle` when
    /// it is on record, else 0.
    pub fn from_block(&self) -> u64 {
        self.from_block
    }

    /// What the page plays: an arena, or a puzzle on Curta.
    pub fn game(&self) -> Game {
        self.game
    }

    /// On Curta: the puzzle's `name()`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The game's puzzle contract.
    pub fn puzzle(&self) -> Address {
        self.puzzle
    }

    /// Which implementation the puzzle is (`None`: code of none of ours).
    pub fn kind(&self) -> Option<Puzzle> {
        self.kind
    }

    /// The server signer's address, if it has one.
    pub fn signer(&self) -> Option<Address> {
        self.signer.as_ref().and_then(|k| k.address().ok())
    }

    /// Accounts the page may submit as: the server's signer, then anvil's dev
    /// accounts on the embedded chain or an anvil node (chain id 31337); none
    /// without a signer.
    pub fn players(&self) -> Vec<Player> {
        let mut players = Vec::new();
        if let Some(address) = self.signer() {
            players.push(Player {
                address,
                label: "server signer".into(),
            });
        }
        if self.dev_keys {
            for (i, a) in DEV_ACCOUNTS.iter().enumerate() {
                let Ok(address) = a.parse::<Address>() else {
                    continue;
                };
                if players.iter().all(|p| p.address != address) {
                    players.push(Player {
                        address,
                        label: format!("dev account {i}"),
                    });
                }
            }
        }
        players
    }

    /// The key that signs for `player`, if the server holds one.
    fn key_for(&self, player: Address) -> Option<PrivateKey> {
        if self.signer() == Some(player) {
            return self.signer.clone();
        }
        if self.dev_keys {
            return dev_key(player);
        }
        None
    }

    /// Whether the server can submit for `player`.
    pub fn can_submit(&self, player: Address) -> bool {
        self.key_for(player).is_some()
    }

    fn open_as(&self, key: &PrivateKey) -> Result<Chain, ChainError> {
        match &self.place {
            Where::Embedded(path) => Chain::embedded(path, key, false),
            Where::Rpc(url) => Chain::rpc_with(url, key, self.tx.clone()),
        }
    }

    fn reader(&self) -> Result<Chain, ChainError> {
        let key = self
            .signer
            .clone()
            .unwrap_or_else(PrivateKey::anvil_default);
        self.open_as(&key)
    }

    /// Puzzle `id` of `curta` as it is now (its first solve sets the phase).
    fn curta_puzzle(chain: &mut Chain, curta: Address, id: u32) -> Result<CurtaPuzzle, ChainError> {
        curta::get_puzzle(chain, curta, id)?.ok_or_else(|| {
            ChainError::Unexpected(format!("Curta {curta} no longer has puzzle {id}"))
        })
    }

    /// The board `player` gets, whether it can be solved, their rank, and
    /// on Curta the phase now.
    pub fn seat(&self, player: Address) -> Result<Seat, ChainError> {
        let (start, solved, phase) = {
            let mut chain = self.reader()?;
            match self.game {
                Game::Arena(a) => {
                    let start = Board::from_u256(arena::board_of(&mut chain, a, player)?);
                    let at = arena::solved_at(&mut chain, a, player)?;
                    (start, (at.rank != 0).then_some((at.rank, at.block)), None)
                }
                Game::Curta { curta, id } => {
                    let puzzle = Backend::curta_puzzle(&mut chain, curta, id)?;
                    let start =
                        Board::from_u256(arena::puzzle_generate(&mut chain, self.puzzle, player)?);
                    let solved = if curta::has_solved(&mut chain, curta, player, id)? {
                        self.rank_on_curta(&mut chain, player)?
                    } else {
                        None
                    };
                    (start, solved, Some(puzzle.phase_at(chain.timestamp()?)))
                }
            }
        };
        let (solvable, reason) = match solve::solve(start) {
            Ok(Some(_)) => (true, None),
            Ok(None) => (
                false,
                Some(
                    explain::contradiction(start)
                        .unwrap_or_else(|| "the search found no completion".into()),
                ),
            ),
            Err(e) => (false, Some(e.to_string())),
        };
        Ok(Seat {
            player,
            start,
            solvable,
            reason,
            solved,
            phase,
        })
    }

    /// `player`'s place among the Curta puzzle's solvers and its block.
    fn rank_on_curta(
        &self,
        chain: &mut Chain,
        player: Address,
    ) -> Result<Option<(u64, u64)>, ChainError> {
        Ok(self
            .solvers_on(chain)?
            .into_iter()
            .find(|s| s.address == player)
            .map(|s| (s.rank, s.block)))
    }

    /// Sends the game's solve for `player` with `value` wei (on Curta:
    /// refused before sending when Curta would refuse it, then simulated
    /// first; on an arena: simulated first, a revert comes back decoded and
    /// nothing is sent). `Ok(None)`: the server holds no key for `player`.
    pub fn submit(
        &self,
        player: Address,
        solution: Board,
        value: u128,
    ) -> Result<Option<Solved>, SubmitError> {
        let Some(key) = self.key_for(player) else {
            return Ok(None);
        };
        let _one = self.sending.lock().unwrap_or_else(|p| p.into_inner());
        let mut chain = self.open_as(&key)?;
        chain.set_tx_options(self.tx.clone())?;
        let (curta, id) = match self.game {
            Game::Arena(a) => {
                let solved = arena::solve(&mut chain, a, solution.to_u256())?;
                return Ok(Some(Solved {
                    rank: solved.rank,
                    gas_used: solved.receipt.gas_used,
                    tx: solved.receipt.tx_hash,
                    block: solved.receipt.block,
                    phase: None,
                }));
            }
            Game::Curta { curta, id } => (curta, id),
        };
        let puzzle = Backend::curta_puzzle(&mut chain, curta, id)?;
        let (_, fee) =
            curta::admits(&mut chain, curta, &puzzle, player)?.map_err(SubmitError::Refused)?;
        let start = Board::from_u256(arena::puzzle_generate(&mut chain, self.puzzle, player)?);
        let code = chain.code_at(self.puzzle)?;
        curta::check_solution(self.puzzle, code, player, start, solution)
            .map_err(ChainError::from)?
            .map_err(SubmitError::Refused)?;
        curta::pays(id, fee, value).map_err(SubmitError::Refused)?;
        let solved = curta::solve(
            &mut chain,
            curta,
            id,
            solution.to_u256(),
            chain::primitives::U256::from(value),
        )?;
        let rank = self
            .rank_on_curta(&mut chain, player)?
            .map_or(0, |(rank, _)| rank);
        Ok(Some(Solved {
            rank,
            gas_used: solved.receipt.gas_used,
            tx: solved.receipt.tx_hash,
            block: solved.receipt.block,
            phase: Some(solved.phase),
        }))
    }

    /// Everyone who solved, in rank order: the arena's `Solved` events
    /// (kept in the embedded state too), read from the arena's deployment
    /// block and checked against `solverCount()` by the chain's leaderboard
    /// reader; on Curta the puzzle's `SolvePuzzle` events, in chain order,
    /// checked against Curta's solve count.
    pub fn leaderboard(&self) -> Result<Vec<Solver>, ChainError> {
        let mut chain = self.reader()?;
        self.solvers_on(&mut chain)
    }

    fn solvers_on(&self, chain: &mut Chain) -> Result<Vec<Solver>, ChainError> {
        match self.game {
            Game::Arena(a) => {
                let board =
                    leaderboard::read(chain, a, self.from_block, leaderboard::DEFAULT_PAGE)?;
                Ok(board
                    .entries
                    .into_iter()
                    .map(|e| Solver {
                        address: e.address,
                        rank: e.rank,
                        block: e.block,
                        phase: None,
                        solution: e.solution,
                    })
                    .collect())
            }
            Game::Curta { curta, id } => {
                let solvers =
                    curta::solvers(chain, curta, id, self.from_block, leaderboard::DEFAULT_PAGE)?;
                Ok(solvers
                    .entries
                    .into_iter()
                    .zip(1..)
                    .map(|(s, rank)| Solver {
                        address: s.address,
                        rank,
                        block: s.block,
                        phase: Some(s.phase),
                        solution: s.solution,
                    })
                    .collect())
            }
        }
    }
}

/// The arena to play and the block of its deployment when on record:
/// `config.arena`, else the latest recorded; on the embedded chain with none
/// recorded, the fair puzzle and its arena deployed now.
fn find_arena(
    chain: &mut Chain,
    config: &Config,
    chain_id: u64,
) -> Result<(Address, Option<u64>), ServeError> {
    let recorded = recorded_deployments(chain, &config.deployments_dir, chain_id)?;
    let record = match config.arena {
        Some(a) => {
            return Ok((
                a,
                recorded
                    .into_iter()
                    .rev()
                    .find(|d| d.arena == a)
                    .map(|d| d.arena_tx.block),
            ));
        }
        None => match recorded.into_iter().last() {
            Some(latest) => latest,
            None if matches!(chain, Chain::Embedded(_)) => deploy_fair(chain)?,
            None => {
                return Err(ServeError::Input(format!(
                    "no --arena given and no deployment recorded in {} for chain {chain_id}: pass --arena ADDRESS (or run octoku deploy --rpc-url URL)",
                    deployments_path(&config.deployments_dir.join("deployments"), chain_id)
                        .display()
                )));
            }
        },
    };
    Ok((record.arena, Some(record.arena_tx.block)))
}

/// The Curta puzzle to play: `config.curta` and `config.puzzle_id`, each
/// defaulting to the latest `octoku deploy --curta` recorded for this chain;
/// checked to be Curta and an existing puzzle. Returns the game, the
/// puzzle contract, its `name()` and the block of its `addPuzzle` when on
/// record.
fn open_curta(
    chain: &mut Chain,
    config: &Config,
    chain_id: u64,
) -> Result<(Game, Address, Option<String>, Option<u64>), ServeError> {
    let path = deployments_path(&config.deployments_dir.join("deployments"), chain_id);
    let file =
        DeploymentsFile::load(&path, chain_id).map_err(|e| ServeError::ChainInput(Box::new(e)))?;
    let (curta, puzzle, record) =
        curta::choose(chain, file.as_ref(), &path, config.curta, config.puzzle_id).map_err(
            |e| match e {
                curta::ChoiceError::Chain(e) => chain_failure(e),
                curta::ChoiceError::Deployments(e) => ServeError::ChainInput(Box::new(e)),
                other => ServeError::Curta(Box::new(other)),
            },
        )?;
    let id = puzzle.id;
    let name = arena::puzzle_name(chain, puzzle.puzzle).map_err(|e| match e {
        e if e.is_no_answer() => ServeError::Chain(format!(
            "{} (Curta puzzle {id}) does not answer IPuzzle's name()",
            puzzle.puzzle
        )),
        other => chain_failure(other),
    })?;
    Ok((
        Game::Curta { curta, id },
        puzzle.puzzle,
        Some(name),
        record.map(|r| r.add_tx.block),
    ))
}

/// Every deployment on record for this chain, oldest first: in the embedded
/// state, or in `deployments/<chain-id>.json` below `dir` for a node (none
/// without that file; a file of another chain id is refused).
fn recorded_deployments(
    chain: &mut Chain,
    dir: &Path,
    chain_id: u64,
) -> Result<Vec<Deployment>, ServeError> {
    match chain {
        Chain::Embedded(c) => Ok(c.deployments().to_vec()),
        Chain::Rpc(_) => {
            let path = deployments_path(&dir.join("deployments"), chain_id);
            Ok(DeploymentsFile::load(&path, chain_id)
                .map_err(|e| ServeError::ChainInput(Box::new(e)))?
                .map(|f| f.deployments)
                .unwrap_or_default())
        }
    }
}

/// Deploys the fair puzzle and an arena on it on the embedded chain, and
/// records them in its state as `octoku deploy` would.
fn deploy_fair(chain: &mut Chain) -> Result<Deployment, ServeError> {
    let kind = Puzzle::Fair;
    let record = arena::deploy_with_arena(chain, kind.artifact().initcode.to_vec().into())
        .map_err(chain_failure)?
        .record(kind);
    if let Chain::Embedded(c) = chain {
        c.add_deployment(record.clone()).map_err(chain_failure)?;
    }
    Ok(record)
}

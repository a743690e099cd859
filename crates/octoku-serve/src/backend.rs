//! The chain the server plays on: the embedded chain (revm with its state in
//! a JSON file) or a node, the arena and its puzzle, and who may send.
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

use octoku_core::{Board, octoku::explain, solve::octoku as solve};
use octoku_evm::{
    Puzzle,
    chain::{
        self, Chain, ChainError, DEV_ACCOUNTS, DEV_KEYS, EMBEDDED_CHAIN_ID, EmbeddedChain,
        PrivateKey, TxOptions,
        arena::{self, arena_initcode},
        deployments::{Deployment, DeploymentsFile, deployments_path},
        leaderboard,
        primitives::{Address, B256},
    },
};

use crate::{Config, ServeError};

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
}

/// The chain, the arena, its puzzle and the signers.
pub struct Backend {
    place: Where,
    label: String,
    chain_id: u64,
    arena: Address,
    puzzle: Address,
    kind: Option<Puzzle>,
    /// Block of the arena's deployment when it is on record (else 0): where
    /// the leaderboard's log queries start.
    from_block: u64,
    signer: Option<PrivateKey>,
    dev_keys: bool,
    sending: Mutex<()>,
    tx: TxOptions,
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Backend")
            .field("chain", &self.label)
            .field("arena", &self.arena)
            .field("puzzle", &self.puzzle)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

fn chain_failure(e: ChainError) -> ServeError {
    match e {
        ChainError::Key(m) => ServeError::Input(m),
        other => ServeError::Chain(other.to_string()),
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
        let read_key = config.key.clone().unwrap_or_else(PrivateKey::anvil_default);
        let (place, mut chain) = match &config.rpc_url {
            Some(url) => (
                Where::Rpc(url.clone()),
                Chain::rpc_with(url, &read_key, config.tx.clone()).map_err(chain_failure)?,
            ),
            None => {
                // Refused options must not leave a new state file behind.
                EmbeddedChain::check_tx_options(&config.tx)
                    .map_err(|e| ServeError::Input(e.to_string()))?;
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
            .map_err(|e| ServeError::Input(e.to_string()))?;
        let label = chain.describe().map_err(chain_failure)?;
        let chain_id = chain.chain_id().map_err(chain_failure)?;
        let recorded = recorded_deployments(&mut chain, &config.deployments_dir, chain_id)?;
        let (arena, record) = match config.arena {
            Some(a) => (a, recorded.into_iter().rev().find(|d| d.arena == a)),
            None => {
                let latest = match recorded.into_iter().last() {
                    Some(latest) => latest,
                    None if matches!(chain, Chain::Embedded(_)) => deploy_fair(&mut chain)?,
                    None => {
                        return Err(ServeError::Input(format!(
                            "no --arena given and no deployment recorded in {} for chain {chain_id}: pass --arena ADDRESS (or run octoku deploy --rpc-url URL)",
                            deployments_path(&config.deployments_dir.join("deployments"), chain_id)
                                .display()
                        )));
                    }
                };
                (latest.arena, Some(latest))
            }
        };
        let puzzle = arena::require_arena(&mut chain, arena).map_err(chain_failure)?;
        let kind = arena::identify_puzzle(&mut chain, puzzle).map_err(chain_failure)?;
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
            arena,
            puzzle,
            kind,
            from_block: record.map_or(0, |d| d.arena_tx.block),
            signer,
            sending: Mutex::new(()),
            tx: config.tx.clone(),
        })
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

    /// Block of the arena's deployment when it is on record, else 0: where
    /// the leaderboard's log queries start.
    pub fn from_block(&self) -> u64 {
        self.from_block
    }

    /// The arena contract.
    pub fn arena(&self) -> Address {
        self.arena
    }

    /// The arena's puzzle contract.
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

    /// The board `player` gets, whether it can be solved, and their rank.
    pub fn seat(&self, player: Address) -> Result<Seat, ChainError> {
        let (start, solved) = {
            let mut chain = self.reader()?;
            let start = Board::from_u256(arena::board_of(&mut chain, self.arena, player)?);
            (start, arena::solved_at(&mut chain, self.arena, player)?)
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
            solved: (solved.rank != 0).then_some((solved.rank, solved.block)),
        })
    }

    /// Sends `arena.solve(solution)` signed for `player` (simulated first: a
    /// revert comes back decoded and nothing is sent). `Ok(None)`: the
    /// server holds no key for `player`.
    pub fn submit(&self, player: Address, solution: Board) -> Result<Option<Solved>, ChainError> {
        let Some(key) = self.key_for(player) else {
            return Ok(None);
        };
        let _one = self.sending.lock().unwrap_or_else(|p| p.into_inner());
        let mut chain = self.open_as(&key)?;
        chain.set_tx_options(self.tx.clone())?;
        let solved = arena::solve(&mut chain, self.arena, solution.to_u256())?;
        Ok(Some(Solved {
            rank: solved.rank,
            gas_used: solved.receipt.gas_used,
            tx: solved.receipt.tx_hash,
            block: solved.receipt.block,
        }))
    }

    /// Everyone who solved, in rank order: the arena's `Solved` events
    /// (kept in the embedded state too), read from the arena's deployment
    /// block and checked against `solverCount()` by the chain's leaderboard
    /// reader.
    pub fn leaderboard(&self) -> Result<Vec<Solver>, ChainError> {
        let mut chain = self.reader()?;
        let board = leaderboard::read(
            &mut chain,
            self.arena,
            self.from_block,
            leaderboard::DEFAULT_PAGE,
        )?;
        Ok(board
            .entries
            .into_iter()
            .map(|e| Solver {
                address: e.address,
                rank: e.rank,
                block: e.block,
            })
            .collect())
    }
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
                .map_err(|e| ServeError::Input(e.to_string()))?
                .map(|f| f.deployments)
                .unwrap_or_default())
        }
    }
}

/// Deploys the fair puzzle and an arena on it on the embedded chain, and
/// records them in its state as `octoku deploy` would.
fn deploy_fair(chain: &mut Chain) -> Result<Deployment, ServeError> {
    let kind = Puzzle::Fair;
    let deployer = chain.sender();
    let puzzle = chain
        .deploy(kind.artifact().initcode.to_vec().into())
        .map_err(chain_failure)?;
    let puzzle_address = puzzle
        .contract_address
        .ok_or_else(|| ServeError::Chain("the puzzle deployment created no contract".into()))?;
    let arena = chain
        .deploy(arena_initcode(chain::ARENA_INITCODE, puzzle_address))
        .map_err(chain_failure)?;
    let arena_address = arena
        .contract_address
        .ok_or_else(|| ServeError::Chain("the arena deployment created no contract".into()))?;
    let record = Deployment {
        puzzle: kind.into(),
        puzzle_address,
        arena: arena_address,
        deployer,
        puzzle_tx: (&puzzle).into(),
        arena_tx: (&arena).into(),
    };
    if let Chain::Embedded(c) = chain {
        c.add_deployment(record.clone()).map_err(chain_failure)?;
    }
    Ok(record)
}

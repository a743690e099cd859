//! What `deploy`, `board`, `play` and `submit` share: the chain flags (named
//! as in Foundry's cast), opening the chain, finding the arena, one-line errors.

use std::path::{Path, PathBuf};

use octoku_chain::{
    Chain, PrivateKey, TxOptions, arena,
    deployments::{Deployment, DeploymentsFile},
};
use octoku_core::Address;
use octoku_evm::Puzzle;

use crate::error::chain_error;
use crate::opts::wallet::{Identity, SignerArgs};
use crate::{error::CliError, input};

/// Default state file of the embedded chain, relative to the current directory.
pub const DEFAULT_STATE: &str = ".octoku/chain.json";

/// Which chain to use and who signs.
#[derive(Debug, clap::Args)]
pub struct ChainArgs {
    /// JSON-RPC URL of the node (http:// or https://). Without it: the embedded chain.
    #[arg(long, env = "ETH_RPC_URL", value_name = "URL")]
    pub rpc_url: Option<String>,
    /// State file of the embedded chain (used without --rpc-url).
    #[arg(long, env = "OCTOKU_STATE", value_name = "PATH", default_value = DEFAULT_STATE)]
    pub state: PathBuf,
    #[command(flatten)]
    pub signer: SignerArgs,
}

/// Why a key is needed, for the message when it is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUse {
    /// The command sends transactions: a key is required on a node.
    Send,
    /// The command only reads: any key will do.
    Read,
}

/// An open chain and the words that say which it is.
pub struct Opened {
    /// The chain.
    pub chain: Chain,
    /// `embedded (PATH)` or `URL (chain id N)`.
    pub label: String,
    /// The user's address when one was given (--from or a key), not defaulted.
    pub me: Option<Address>,
}

impl ChainArgs {
    /// Opens the chain. `create`: the embedded state file may be created.
    /// On a node, sending needs a key; reading uses anvil's first dev
    /// account as the `eth_call` sender when there is none.
    pub fn open(&self, key_use: KeyUse, create: bool) -> Result<Opened, CliError> {
        self.open_with(key_use, create, TxOptions::default())
    }

    /// [`ChainArgs::open`] with transaction options, which hold from the
    /// first request on (`--timeout` bounds the node's first answer too).
    pub fn open_with(
        &self,
        key_use: KeyUse,
        create: bool,
        options: TxOptions,
    ) -> Result<Opened, CliError> {
        let Identity { key, address } = self.signer.identity()?;
        if self.signer.unlocked {
            return self.open_unlocked(address, options);
        }
        if key.is_none() && key_use == KeyUse::Send && (self.rpc_url.is_some() || address.is_some())
        {
            return Err(CliError::Input(
                "sending needs a key: expected --private-key, --keystore, --account or -i (--from alone only reads)".into(),
            ));
        }
        let key = key.unwrap_or_else(PrivateKey::anvil_default);
        let mut chain = match &self.rpc_url {
            Some(url) => {
                tracing::info!(%url, "connecting to the node");
                Chain::rpc_with(url, &key, options.clone()).map_err(chain_error)?
            }
            None => {
                // Refused options must not leave a new state file behind.
                octoku_chain::EmbeddedChain::check_tx_options(&options).map_err(CliError::input)?;
                tracing::info!(state = %self.state.display(), "opening the embedded chain (waits while another octoku holds it)");
                Chain::embedded(&self.state, &key, create).map_err(chain_error)?
            }
        };
        let label = chain.describe().map_err(chain_error)?;
        tracing::info!(chain = %label, sender = %chain.sender(), "chain open");
        let mut opened = Opened {
            chain,
            label,
            me: address,
        };
        opened.set_tx_options(options)?;
        Ok(opened)
    }
}

impl ChainArgs {
    /// `--unlocked --from A`: the node sends as A (eth_sendTransaction).
    fn open_unlocked(&self, from: Option<Address>, options: TxOptions) -> Result<Opened, CliError> {
        let (Some(url), Some(from)) = (&self.rpc_url, from) else {
            return Err(CliError::Input(
                "--unlocked sends from an account a node unlocked; expected --rpc-url and --from"
                    .into(),
            ));
        };
        tracing::info!(%url, %from, "connecting to the node, sending from an unlocked account");
        let mut chain = Chain::rpc_unlocked(url, from, options.clone()).map_err(chain_error)?;
        let label = chain.describe().map_err(chain_error)?;
        let mut opened = Opened {
            chain,
            label,
            me: Some(from),
        };
        opened.set_tx_options(options)?;
        Ok(opened)
    }
}

impl Opened {
    /// Sets the transaction options (a flag the chain cannot honour is bad input).
    pub fn set_tx_options(&mut self, options: TxOptions) -> Result<(), CliError> {
        self.chain.set_tx_options(options).map_err(CliError::input)
    }
}

/// The folder of the deployment records, one file per chain id.
pub const DEPLOYMENTS_DIR: &str = "deployments";

/// `deployments/<chain-id>.json`, relative to the current directory.
pub fn deployments_path(chain_id: u64) -> PathBuf {
    octoku_chain::deployments::deployments_path(Path::new(DEPLOYMENTS_DIR), chain_id)
}

/// What `board`, `play` and `submit` share: the arena, the chain, JSON output.
#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The arena contract (default: the one `octoku deploy` recorded).
    #[arg(long, value_name = "ADDRESS")]
    pub arena: Option<String>,
    /// Play a puzzle on Curta at this address instead of an arena (needs
    /// --rpc-url; default: the Curta of the latest `octoku deploy --curta`).
    #[arg(long, value_name = "ADDRESS", conflicts_with = "arena")]
    pub curta: Option<String>,
    /// The puzzle's id on Curta (default: the latest `octoku deploy --curta`
    /// recorded); with or without --curta, it selects Curta.
    #[arg(long, value_name = "N", conflicts_with = "arena")]
    pub puzzle_id: Option<u32>,
    #[command(flatten)]
    pub chain: ChainArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The arena in use: its address, its puzzle, and which of this
/// repository's puzzles that is (`None`: another IPuzzle).
#[derive(Debug, Clone, Copy)]
pub struct ArenaInfo {
    /// The arena.
    pub arena: Address,
    /// Its puzzle contract.
    pub puzzle: Address,
    /// The puzzle's kind, recognised by its code.
    pub kind: Option<Puzzle>,
    /// Block of the arena's deployment, when it is on record.
    pub block: Option<u64>,
}

impl ArenaInfo {
    /// `fair (0x…)`, or `an unknown IPuzzle (0x…)`.
    pub fn puzzle_label(&self) -> String {
        match self.kind {
            Some(kind) => format!("{kind} ({})", self.puzzle),
            None => format!("an IPuzzle not built here ({})", self.puzzle),
        }
    }
}

/// The arena to use, checked to be one: `--arena`, else the latest recorded
/// by `octoku deploy` (in the embedded state, or in
/// `deployments/<chain-id>.json` for a node, refused if its chain id is not
/// the node's).
pub fn arena_address(opened: &mut Opened, arg: Option<&str>) -> Result<ArenaInfo, CliError> {
    let (arena, record) = recorded_arena(opened, arg)?;
    let puzzle = arena::require_arena(&mut opened.chain, arena).map_err(chain_error)?;
    let kind = arena::identify_puzzle(&mut opened.chain, puzzle).map_err(chain_error)?;
    tracing::info!(%arena, %puzzle, kind = ?kind, "arena");
    Ok(ArenaInfo {
        arena,
        puzzle,
        kind,
        block: record.map(|d| d.arena_tx.block),
    })
}

/// Every deployment on record for the open chain, oldest first.
pub fn recorded_deployments(opened: &mut Opened) -> Result<Vec<Deployment>, CliError> {
    match &mut opened.chain {
        Chain::Embedded(c) => Ok(c.deployments().to_vec()),
        chain @ Chain::Rpc(_) => {
            let chain_id = chain.chain_id().map_err(chain_error)?;
            let path = deployments_path(chain_id);
            Ok(DeploymentsFile::load(&path, chain_id)
                .map_err(CliError::input)?
                .map(|f| f.deployments)
                .unwrap_or_default())
        }
    }
}

fn recorded_arena(
    opened: &mut Opened,
    arg: Option<&str>,
) -> Result<(Address, Option<Deployment>), CliError> {
    let where_recorded = match &opened.chain {
        Chain::Embedded(c) => c.path().display().to_string(),
        Chain::Rpc(_) => "deployments/".to_string(),
    };
    let deployments = recorded_deployments(opened)?;
    if let Some(a) = arg {
        let arena = input::address(a)?;
        let record = deployments.into_iter().rev().find(|d| d.arena == arena);
        return Ok((arena, record));
    }
    let latest = deployments.into_iter().last().ok_or_else(|| {
        CliError::Input(format!(
            "no --arena given and no deployment recorded in {where_recorded} for this chain: run `octoku deploy` or pass --arena ADDRESS"
        ))
    })?;
    Ok((latest.arena, Some(latest)))
}

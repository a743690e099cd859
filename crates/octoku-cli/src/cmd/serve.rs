//! `octoku serve`: play in the browser (see the octoku-serve crate).

use std::process::ExitCode;

use octoku_serve::{Config, DEFAULT_PORT, Game, ServeError, backend::Backend};

use crate::error::CliError;
use crate::opts::chain::ChainArgs;
use crate::opts::wallet::{Identity, TxArgs};

/// Arguments of `octoku serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// TCP port to listen on (0: any free port).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Interface to listen on; anything but loopback prints a warning.
    #[arg(long, value_name = "H", default_value = "127.0.0.1")]
    host: String,
    #[command(flatten)]
    game: GameArgs,
    /// The chain and the server's signer (the flags of the other chain
    /// commands; the key never reaches the page, the output or the log).
    /// Without a signer the server signs nothing: the page plays through
    /// the player's wallet.
    #[command(flatten)]
    chain: ChainArgs,
    /// How each submission's transaction is priced and awaited (the flags of
    /// the other sending commands, but --nonce: each submission takes the
    /// account's next nonce).
    #[command(flatten)]
    tx: TxArgs,
}

/// What the page plays, for `octoku serve` and `octoku site`: an arena, or
/// a puzzle on Curta.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The arena (default: the recorded one; on an embedded chain with none,
    /// `octoku serve` deploys the fair puzzle and its arena first).
    #[arg(long, value_name = "ADDRESS")]
    arena: Option<String>,
    /// Play a puzzle on Curta at this address instead of an arena (needs
    /// --rpc-url; default: the Curta of the latest `octoku deploy --curta`).
    #[arg(long, value_name = "ADDRESS", conflicts_with = "arena")]
    curta: Option<String>,
    /// The puzzle's id on Curta (default: the latest `octoku deploy --curta`
    /// recorded); with or without --curta, it selects Curta.
    #[arg(long, value_name = "N", conflicts_with = "arena")]
    puzzle_id: Option<u32>,
    // The help is an attribute, not a doc comment: rustdoc would read
    // `<chain-id>` as an HTML tag, and backticks would show in --help.
    #[arg(
        long,
        value_name = "BLOCK",
        help = "First block of the leaderboard's log queries (default: the block of the arena's deployment or the puzzle's addPuzzle when it is on record in deployments/<chain-id>.json, else 0)"
    )]
    from_block: Option<u64>,
    /// A block explorer's base URL (e.g. <https://etherscan.io>): the page
    /// links transactions to URL/tx/HASH and addresses to URL/address/ADDRESS
    /// (default: no links).
    #[arg(long, value_name = "URL")]
    explorer_url: Option<String>,
}

impl GameArgs {
    /// These flags in `config`.
    pub fn apply(&self, config: Config) -> Result<Config, CliError> {
        let address = |flag: &str, text: &Option<String>| {
            text.as_deref()
                .map(|a| octoku_core::parse_address(a).map_err(|e| CliError::input_in(flag, e)))
                .transpose()
        };
        Ok(Config {
            arena: address("--arena", &self.arena)?,
            curta: address("--curta", &self.curta)?,
            puzzle_id: self.puzzle_id,
            from_block: self.from_block,
            explorer_url: self
                .explorer_url
                .as_deref()
                .map(|url| octoku_serve::site::check_explorer_url(url).map(|()| url.to_string()))
                .transpose()
                .map_err(serve_error)?,
            ..config
        })
    }
}

/// `arena     0x… (fair puzzle)` or `curta     0x… puzzle #1 "2 × 4 = 8" (fair puzzle)`.
pub fn game_line(game: Game, name: Option<&str>, kind: &str) -> String {
    match game {
        Game::Arena(arena) => format!("arena     {arena} ({kind} puzzle)"),
        Game::Curta { curta, id } => {
            format!(
                "curta     {curta} puzzle #{id} {:?} ({kind} puzzle)",
                name.unwrap_or_default()
            )
        }
    }
}

/// What a backend's puzzle is: `fair`, or `unknown`.
pub fn kind_label(backend: &Backend) -> &'static str {
    backend.kind().map_or("unknown", |k| k.label())
}

/// A server error as the CLI reports it (bad input 2, the rest 4).
pub(crate) fn serve_error(e: ServeError) -> CliError {
    match e {
        ServeError::Input(m) => CliError::Input(m),
        ServeError::ChainInput(_)
        | ServeError::Listen { .. }
        | ServeError::BrokenLink { .. }
        | ServeError::Curta(_) => CliError::input(e),
        ServeError::Chain(m) => CliError::Chain(m),
        other => CliError::chain(other),
    }
}

/// Starts the server and serves until the process is stopped.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    // Checked before a keystore's password is asked for.
    let game = args.game.apply(Config::default())?;
    let probe = Config {
        host: args.host.clone(),
        ..Config::default()
    };
    probe.ip().map_err(serve_error)?;
    if let Some(nonce) = args.tx.nonce {
        return Err(CliError::Input(format!(
            "--nonce {nonce}: octoku serve sends one transaction per submission, each with the account's next nonce; expected no --nonce"
        )));
    }
    let tx = args.tx.options()?;
    let Identity { key, address } = args.chain.signer.identity()?;
    if key.is_none() && address.is_some() {
        return Err(CliError::Input(
            "octoku serve signs for the page: --from alone holds no key; expected --private-key, --keystore, --account or -i with it, or no --from".into(),
        ));
    }
    let config = Config {
        host: args.host,
        port: args.port,
        rpc_url: args.chain.rpc_url.clone(),
        key,
        state: args.chain.state.clone(),
        deployments_dir: ".".into(),
        tx,
        ..game
    };
    if let Some(warning) = config.host_warning() {
        crate::errln!("octoku: {warning}");
    }
    let running = octoku_serve::start(config).map_err(serve_error)?;
    let backend = running.backend();
    crate::outln!("chain     {}", backend.label())?;
    crate::outln!(
        "{}",
        game_line(backend.game(), backend.name(), kind_label(backend))
    )?;
    match backend.signer() {
        Some(signer) => crate::outln!("signer    {signer}")?,
        None => crate::outln!("signer    none: players submit through their own wallet")?,
    }
    crate::outln!("open      {}", running.url())?;
    if let Some(network) = running.network_url() {
        crate::outln!("network   {network}")?;
    }
    running.wait().map_err(serve_error)?;
    Ok(ExitCode::SUCCESS)
}

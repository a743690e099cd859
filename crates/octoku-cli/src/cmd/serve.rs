//! `octoku serve`: play in the browser (see the octoku-serve crate).

use std::process::ExitCode;

use octoku_serve::{Config, DEFAULT_PORT, ServeError};

use super::{
    onchain::ChainArgs,
    wallet::{Identity, TxArgs},
};
use crate::{error::CliError, input};

/// Arguments of `octoku serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// TCP port to listen on (0: any free port).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Interface to listen on; anything but loopback prints a warning.
    #[arg(long, value_name = "H", default_value = "127.0.0.1")]
    host: String,
    /// The arena (default: the recorded one; on an embedded chain with none,
    /// the fair puzzle and its arena are deployed first).
    #[arg(long, value_name = "ADDRESS")]
    arena: Option<String>,
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

/// A server error as the CLI reports it (bad input 2, the rest 4).
pub(crate) fn serve_error(e: ServeError) -> CliError {
    match e {
        ServeError::Input(m) => CliError::Input(m),
        ServeError::Chain(m) | ServeError::Io(m) => CliError::Chain(m),
        other => CliError::Chain(other.to_string()),
    }
}

/// Starts the server and serves until the process is stopped.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let arena = args.arena.as_deref().map(input::address).transpose()?;
    // Checked before a keystore's password is asked for.
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
        arena,
        key,
        state: args.chain.state.clone(),
        deployments_dir: ".".into(),
        tx,
        limits: octoku_serve::ServeLimits::default(),
    };
    if let Some(warning) = config.host_warning() {
        crate::errln!("octoku: {warning}");
    }
    let running = octoku_serve::start(config).map_err(serve_error)?;
    let backend = running.backend();
    crate::outln!("chain     {}", backend.label())?;
    crate::outln!(
        "arena     {} ({} puzzle)",
        backend.arena(),
        backend.kind().map_or("unknown", |k| k.label())
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

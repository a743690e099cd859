//! `octoku site`: write the page as a static site that any static file
//! server can host (see the octoku-serve crate's `site` module).

use std::{path::PathBuf, process::ExitCode};

use octoku_serve::{
    Config,
    site::{self, Site},
};

use super::serve::{GameArgs, game_line, serve_error};
use crate::error::CliError;

/// Arguments of `octoku site`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write the site into: new or empty (see --force).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    // The arena or the Curta puzzle (default: the latest recorded in
    // deployments/<chain-id>.json).
    #[command(flatten)]
    game: GameArgs,
    /// JSON-RPC URL of the chain (http:// or https://): the page reads from it
    /// until a wallet is connected, and may reach no other address.
    #[arg(long, env = "ETH_RPC_URL", value_name = "URL")]
    rpc_url: String,
    /// Replace DIR when it is not empty (the whole directory).
    #[arg(long)]
    force: bool,
}

/// Reads the chain, then writes the site.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let config = args.game.apply(Config {
        rpc_url: Some(args.rpc_url.clone()),
        deployments_dir: ".".into(),
        ..Config::default()
    })?;
    // Bad input is refused before the node is asked anything.
    site::check_target(&args.dir, args.force).map_err(serve_error)?;
    site::check_rpc_url(&args.rpc_url).map_err(serve_error)?;
    let site = Site::open(&config).map_err(serve_error)?;
    let files = site.files();
    site::write(&args.dir, &files, args.force).map_err(serve_error)?;
    crate::outln!("chain     {}", site.chain)?;
    crate::outln!("{}", game_line(site.game, site.name.as_deref(), &site.kind))?;
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    crate::outln!("wrote     {}: {}", args.dir.display(), names.join(" "))?;
    Ok(ExitCode::SUCCESS)
}

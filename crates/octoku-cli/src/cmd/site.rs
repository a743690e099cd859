//! `octoku site`: write the page as a static site that any static file
//! server can host (see the octoku-serve crate's `site` module).

use std::{path::PathBuf, process::ExitCode};

use octoku_serve::site::{self, Site};

use super::serve::serve_error;
use crate::{error::CliError, input};

/// Arguments of `octoku site`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write the site into: new or empty (see --force).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    // The help is an attribute, not a doc comment: rustdoc would read
    // `<chain-id>` as an HTML tag, and backticks would show in --help.
    #[arg(
        long,
        value_name = "ADDRESS",
        help = "The arena (default: the latest recorded in deployments/<chain-id>.json)"
    )]
    arena: Option<String>,
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
    let arena = args
        .arena
        .as_deref()
        .map(|a| input::address(a).map_err(|e| CliError::Input(format!("--arena: {e}"))))
        .transpose()?;
    // Bad input is refused before the node is asked anything.
    site::check_target(&args.dir, args.force).map_err(serve_error)?;
    site::check_rpc_url(&args.rpc_url).map_err(serve_error)?;
    let site = Site::open(&args.rpc_url, arena, ".".as_ref()).map_err(serve_error)?;
    let files = site.files();
    site::write(&args.dir, &files, args.force).map_err(serve_error)?;
    crate::outln!("chain     {}", site.chain)?;
    crate::outln!("arena     {} ({} puzzle)", site.arena, site.kind)?;
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    crate::outln!("wrote     {}: {}", args.dir.display(), names.join(" "))?;
    Ok(ExitCode::SUCCESS)
}

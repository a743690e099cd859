//! The static site of `octoku site`: the served page's own files, with the
//! chain's settings in place of a server, written atomically into a
//! directory that any static file server can serve. The page reads through
//! JSON-RPC (the wallet once connected, the RPC URL before) and submits
//! through the player's wallet; nothing else is reached.

use std::{
    io,
    path::{Path, PathBuf},
};

use octoku_chain::curta;
use serde_json::json;

use crate::{
    Config, ServeError,
    backend::{Backend, Game},
    page,
};

/// What the static page needs to know about the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The JSON-RPC URL the page reads from before a wallet is connected.
    pub rpc_url: String,
    /// `URL (chain id N)`.
    pub chain: String,
    /// The chain id the wallet must be on.
    pub chain_id: u64,
    /// What the page plays: an arena, or a puzzle on Curta.
    pub game: Game,
    /// On Curta: the puzzle's `name()`.
    pub name: Option<String>,
    /// The game's puzzle contract.
    pub puzzle: octoku_chain::primitives::Address,
    /// `reference`, `golf`, `fair` or `unknown`.
    pub kind: String,
    /// Where the leaderboard's log queries start.
    pub from_block: u64,
    /// A block explorer's base URL for the page's links (`--explorer-url`).
    pub explorer_url: Option<String>,
}

/// Checks that `url` can stand in the page's policy as its one
/// `connect-src`: `http://` or `https://`, no space, quote, comma,
/// semicolon or fragment, and no credentials (`user:password@`: the page
/// would publish them, and browsers refuse to fetch such a URL). The URL is
/// named redacted in the refusal.
pub fn check_rpc_url(url: &str) -> Result<(), ServeError> {
    // Named redacted: the URL may hold a key.
    check_url(
        "--rpc-url",
        url,
        &octoku_chain::rpc::redact_url(url),
        "cannot stand in the page's Content-Security-Policy",
    )
}

/// Checks that `url` can be the base of the page's explorer links
/// (`URL/tx/HASH`, `URL/address/ADDRESS`): the same rules as
/// [`check_rpc_url`], so it stands in an attribute unchanged.
pub fn check_explorer_url(url: &str) -> Result<(), ServeError> {
    // Named as given: the page publishes it.
    check_url(
        "--explorer-url",
        url,
        &format!("{url:?}"),
        "cannot stand in the page's links",
    )
}

/// The checks of [`check_rpc_url`] and [`check_explorer_url`]; `shown` is
/// how a refusal names the URL.
fn check_url(flag: &str, url: &str, shown: &str, why: &str) -> Result<(), ServeError> {
    let scheme_ok = url.starts_with("http://") || url.starts_with("https://");
    let bad = url
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || "'\";,<>\\#".contains(*c));
    let credentials = has_userinfo(url);
    match (scheme_ok, bad) {
        (true, None) if credentials => Err(ServeError::Input(format!(
            "{flag} {shown}: the URL carries credentials (user:password@), which the page would publish; expected a URL the page may show to everyone (a key restricted to the site's origin, or a public node)"
        ))),
        (true, None) => Ok(()),
        (false, _) => Err(ServeError::Input(format!(
            "{flag} {shown}: expected an http:// or https:// URL"
        ))),
        (true, Some(c)) => Err(ServeError::Input(format!(
            "{flag} {shown}: {c:?} {why}; expected a URL without spaces, quotes, commas, semicolons or a fragment"
        ))),
    }
}

/// Whether the authority of `url` (between `://` and the next `/`, `?` or
/// `#`) holds an `@`: a user name or password.
fn has_userinfo(url: &str) -> bool {
    url.split_once("://").is_some_and(|(_, rest)| {
        rest.split(['/', '?', '#'])
            .next()
            .is_some_and(|authority| authority.contains('@'))
    })
}

impl Site {
    /// Reads the chain at `config.rpc_url` and finds the game as `octoku
    /// serve` does: the arena (`config.arena`, else the latest in
    /// `deployments/<chain-id>.json` below `config.deployments_dir`) or the
    /// Curta puzzle (`config.curta`, `config.puzzle_id`), and its puzzle.
    /// No key is read or used.
    pub fn open(config: &Config) -> Result<Site, ServeError> {
        let Some(rpc_url) = config.rpc_url.as_deref() else {
            return Err(ServeError::Input(
                "octoku site needs --rpc-url: the page reads the chain through it".into(),
            ));
        };
        check_rpc_url(rpc_url)?;
        if let Some(url) = &config.explorer_url {
            check_explorer_url(url)?;
        }
        let backend = Backend::open(&Config {
            key: None,
            ..config.clone()
        })?;
        Ok(Site {
            rpc_url: rpc_url.to_string(),
            chain: backend.label().to_string(),
            chain_id: backend.chain_id(),
            game: backend.game(),
            name: backend.name().map(str::to_string),
            puzzle: backend.puzzle(),
            kind: backend.kind().map_or("unknown", |k| k.label()).to_string(),
            from_block: backend.from_block(),
            explorer_url: config.explorer_url.clone(),
        })
    }

    /// The settings the page reads from its `octoku-site` tag.
    pub fn settings(&self) -> String {
        let mut settings = json!({
            "rpc_url": self.rpc_url,
            "chain": self.chain,
            "chain_id": self.chain_id,
            "puzzle_address": self.puzzle.to_checksum(None),
            "puzzle": self.kind,
            "from_block": self.from_block,
            "explorer_url": self.explorer_url,
        });
        match self.game {
            Game::Arena(arena) => {
                settings["game"] = json!("arena");
                settings["arena"] = json!(arena.to_checksum(None));
            }
            Game::Curta { curta, id } => {
                settings["game"] = json!("curta");
                settings["curta"] = json!(curta.to_checksum(None));
                settings["puzzle_id"] = json!(id);
                settings["name"] = json!(self.name);
                // Curta's phase rule, for the page to apply to the chain's clock.
                settings["phase_one_length"] = json!(curta::PHASE_ONE_LENGTH);
                settings["submission_length"] = json!(curta::SUBMISSION_LENGTH);
                settings["phase_two_fee"] = json!(curta::PHASE_TWO_FEE.to_string());
            }
        }
        settings.to_string()
    }

    /// The site's files: `index.html` and the page's assets.
    pub fn files(&self) -> Vec<(&'static str, String)> {
        // The policy names the URL without its query (CSP matches paths, not queries).
        let csp_url = self.rpc_url.split('?').next().unwrap_or(&self.rpc_url);
        let mut files = vec![("index.html", page::site_html(csp_url, &self.settings()))];
        files.extend(
            page::ASSETS
                .iter()
                .map(|(name, body, _)| (*name, body.to_string())),
        );
        files
    }
}

/// Refuses `dir` when it exists and is not an empty directory (unless
/// `force`, and then only a directory).
pub fn check_target(dir: &Path, force: bool) -> Result<(), ServeError> {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) if !force => Err(ServeError::Input(format!(
            "{}: the directory is not empty; expected a new or empty directory, or --force to replace it",
            dir.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ServeError::Input(format!(
            "{}: {e}; expected a directory to write the site into",
            dir.display()
        ))),
    }
}

/// Writes `files` into `dir` at once: into a new sibling directory first,
/// then renamed into place, so `dir` holds either its old contents or the
/// whole site, never part of it. A non-empty `dir` is refused unless
/// `force`, which replaces it whole.
pub fn write(dir: &Path, files: &[(&str, String)], force: bool) -> Result<(), ServeError> {
    // A link to a directory is written through: the site goes where it
    // points (a rename onto the link itself would fail or replace it).
    let followed;
    let dir = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            followed = std::fs::canonicalize(dir).map_err(|source| ServeError::BrokenLink {
                path: dir.to_path_buf(),
                source,
            })?;
            followed.as_path()
        }
        _ => dir,
    };
    check_target(dir, force)?;
    let name = dir.file_name().ok_or_else(|| {
        ServeError::Input(format!(
            "{}: expected a directory path that ends in a name",
            dir.display()
        ))
    })?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let sibling = |what: &str| {
        parent.join(format!(
            ".{}.octoku-{what}-{}",
            name.to_string_lossy(),
            std::process::id()
        ))
    };
    let io_error = |what: &str, path: &Path, e: io::Error| {
        ServeError::io(format!("cannot {what} {}", path.display()))(e)
    };
    let fresh = sibling("new");
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh).map_err(|e| io_error("create", &fresh, e))?;
    let written = files.iter().try_for_each(|(file, body)| {
        let path = fresh.join(file);
        std::fs::write(&path, body).map_err(|e| io_error("write", &path, e))
    });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    // An empty directory is replaced by rename itself; a full one (with
    // --force) is moved aside first and removed once the site is in place.
    let full = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    let old = sibling("old");
    if full {
        let _ = std::fs::remove_dir_all(&old);
        if let Err(e) = std::fs::rename(dir, &old) {
            let _ = std::fs::remove_dir_all(&fresh);
            return Err(io_error("move aside", dir, e));
        }
    }
    if let Err(e) = std::fs::rename(&fresh, dir) {
        if full {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(io_error("write", dir, e));
    }
    if full {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

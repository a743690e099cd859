//! `octoku serve`: play octoku in the browser.
//!
//! An HTTP server (axum on tokio) bound to loopback by default. It serves one
//! page (HTML, CSS and JavaScript compiled into the binary, nothing fetched
//! from the network) and a JSON API the page uses, which scripts can use too:
//! the board an address gets from the arena, the compiled `verify` run in
//! revm, the arena's `solve` sent on the embedded chain or a node, the
//! leaderboard, and practice puzzles of any size from 4×4 to 16×16. With
//! no signer the server signs nothing: the page submits through the
//! player's wallet (EIP-1193). The same page, with JSON-RPC in place of the
//! API, is the static site of `octoku site` ([`site`]).
//!
//! ```no_run
//! use octoku_serve::{Config, start};
//! let running = start(Config::default()).unwrap();
//! println!("open {}", running.url());
//! running.wait().unwrap();
//! ```

pub mod api;
pub mod api_error;
pub mod backend;
pub mod guard;
pub mod page;
pub mod site;
pub mod verifier;

use std::{
    fmt,
    net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener},
    path::PathBuf,
    sync::Arc,
    thread::JoinHandle,
    time::Duration,
};

use hyper::server::conn::http1;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    service::TowerToHyperService,
};

use octoku_chain::{PrivateKey, TxOptions, primitives::Address};
use tokio::sync::{Semaphore, oneshot};

pub use api::router;
pub use backend::{Backend, Game};

/// Largest request body accepted: 64 KiB (a verify request is about 150 bytes).
pub const MAX_BODY: usize = 64 * 1024;

/// Default state file of the embedded chain (the CLI's default too).
pub const DEFAULT_STATE: &str = ".octoku/chain.json";

/// Default port of `octoku serve`.
pub const DEFAULT_PORT: u16 = 8580;

/// The bounds on each client of the server (`docs/limits.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    /// Longest wait for a request's header lines, and for the next request
    /// on an idle keep-alive connection: then the connection is closed.
    pub header_timeout: Duration,
    /// Longest wait for a request's body (then 408).
    pub body_timeout: Duration,
    /// Most connections served at once; more wait in the kernel's queue
    /// until one ends.
    pub max_connections: usize,
    /// Longest search of a practice board (`POST /api/puzzle`): then the
    /// search stops and the answer is 503. A search also stops when its
    /// client goes.
    pub solve_timeout: Duration,
}

impl Default for ServeLimits {
    fn default() -> ServeLimits {
        ServeLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
            solve_timeout: Duration::from_secs(10),
        }
    }
}

/// How the server is started. Its Debug form shows no key: [`PrivateKey`]'s
/// own says `<redacted>`.
#[derive(Clone, Debug)]
pub struct Config {
    /// Interface to bind: an IP address or `localhost` (default `127.0.0.1`).
    pub host: String,
    /// TCP port (0: any free port).
    pub port: u16,
    /// JSON-RPC URL of a node; `None`: the embedded chain.
    pub rpc_url: Option<String>,
    /// The arena; `None`: the recorded one (deployed on the embedded chain
    /// when none is recorded there).
    pub arena: Option<Address>,
    /// Play puzzle `puzzle_id` on the Curta protocol at this address
    /// instead of an arena (needs `rpc_url`; `None` with `puzzle_id` set:
    /// the Curta of the latest `octoku deploy --curta` on record).
    pub curta: Option<Address>,
    /// The Curta puzzle's id (`None` with `curta` set: the latest on record
    /// for that Curta).
    pub puzzle_id: Option<u32>,
    /// Where the leaderboard's log queries start (`None`: the block of the
    /// deployment or `addPuzzle` on record, else 0).
    pub from_block: Option<u64>,
    /// The server's signer; `None`: the server signs nothing and players
    /// submit through their own wallet (EIP-1193 in the page).
    pub key: Option<PrivateKey>,
    /// State file of the embedded chain.
    pub state: PathBuf,
    /// Directory holding `deployments/<chain-id>.json` (the CLI's current
    /// directory), read when `rpc_url` is set and `arena` is not.
    pub deployments_dir: PathBuf,
    /// How the submissions' transactions are priced and awaited (its
    /// `nonce` must be `None`: each submission takes the account's next).
    pub tx: TxOptions,
    /// Timeouts and the connection cap.
    pub limits: ServeLimits,
    /// A block explorer's base URL (`https://…`, no trailing path needed):
    /// the page links transactions to `URL/tx/HASH` and addresses to
    /// `URL/address/ADDRESS`. `None`: no links.
    pub explorer_url: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: "127.0.0.1".into(),
            port: DEFAULT_PORT,
            rpc_url: None,
            arena: None,
            curta: None,
            puzzle_id: None,
            from_block: None,
            key: None,
            state: PathBuf::from(DEFAULT_STATE),
            deployments_dir: PathBuf::from("."),
            tx: TxOptions::default(),
            limits: ServeLimits::default(),
            explorer_url: None,
        }
    }
}

impl Config {
    /// The address to bind: `--host` parsed (`localhost` is 127.0.0.1).
    pub fn ip(&self) -> Result<IpAddr, ServeError> {
        let host = self.host.trim();
        if host.eq_ignore_ascii_case("localhost") {
            return Ok(IpAddr::V4(Ipv4Addr::LOCALHOST));
        }
        host.trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .map_err(|_| {
                ServeError::Input(format!(
                    "--host {host:?}: expected an IP address such as 127.0.0.1 or ::1, or localhost"
                ))
            })
    }

    /// A warning to print when the bound address is reachable from other
    /// machines (anything but loopback).
    pub fn host_warning(&self) -> Option<String> {
        match self.ip() {
            Ok(ip) if !ip.is_loopback() => Some(format!(
                "warning: --host {ip} is not a loopback address: other machines on the network can reach this server and read boards (submitting needs the page's token)"
            )),
            _ => None,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// Bad input (a malformed host, no arena to use ...): exit 2.
    #[error("{0}")]
    Input(String),
    /// Bad input the chain client found (a malformed key, a keystore or a
    /// deployments file that cannot be used, options the chain refuses):
    /// exit 2. The client's error is kept whole, its causes with it.
    #[error(transparent)]
    ChainInput(Box<octoku_chain::ChainError>),
    /// The chain failed (unreachable node, a state file that cannot be
    /// read ...): exit 4. The client's error is kept whole.
    #[error(transparent)]
    ChainFailed(Box<octoku_chain::ChainError>),
    /// The chain's contracts are not what the server needs (no code at the
    /// arena, not a puzzle ...): exit 4.
    #[error("{0}")]
    Chain(String),
    /// The socket could not be bound for a reason of the user's (bad
    /// input, exit 2): the port is in use, needs privileges, or the
    /// address is not one of this machine's. The operating system's error
    /// is the source.
    #[error("{}", listen_words(addr, source))]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The site's directory is a link to nothing (bad input, exit 2).
    #[error(
        "{}: a link to nothing ({source}); expected a directory, or a link to one",
        path.display()
    )]
    BrokenLink {
        /// The link.
        path: std::path::PathBuf,
        /// Why it cannot be followed.
        source: std::io::Error,
    },
    /// No Curta puzzle could be chosen (bad input, exit 2): the chain
    /// client's reason, kept whole.
    #[error(transparent)]
    Curta(Box<octoku_chain::curta::ChoiceError>),
    /// The socket could not be bound or served, or the site not written:
    /// what was being done, and the operating system's error.
    #[error("{doing}: {source}")]
    Io {
        /// What was being done (`cannot listen on 127.0.0.1:8080`).
        doing: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The server's random token could not be drawn.
    #[error("cannot draw the server's token: {0}")]
    Token(#[source] getrandom::Error),
    /// The server's thread panicked.
    #[error("the server thread panicked")]
    Panicked,
}

/// What a user reads when the socket cannot be bound: the cause and what
/// to give instead.
fn listen_words(addr: &SocketAddr, source: &std::io::Error) -> String {
    match source.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "cannot listen on {addr}: the port is in use by another program ({source}); expected a free port (--port 0 takes any free one)"
        ),
        _ => format!(
            "cannot listen on {addr}: {source}; expected a port above 1023 on an address of this machine"
        ),
    }
}

impl ServeError {
    /// A [`ServeError::Io`] while doing `doing`.
    pub fn io(doing: impl Into<String>) -> impl FnOnce(std::io::Error) -> ServeError {
        let doing = doing.into();
        move |source| ServeError::Io { doing, source }
    }
}

/// A server running on its own thread.
pub struct Running {
    addr: SocketAddr,
    backend: Arc<Backend>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<Result<(), ServeError>>>,
}

impl fmt::Debug for Running {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Running").field("addr", &self.addr).finish()
    }
}

impl Running {
    /// The bound socket address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL (`http://127.0.0.1:PORT/`; on this machine's loopback
    /// when bound to all addresses, see [`Running::network_url`]).
    pub fn url(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        format!("http://{}/", SocketAddr::new(ip, self.addr.port()))
    }

    /// When bound to all addresses (`0.0.0.0`, `::`): how other machines
    /// reach the server, by any IP address of this machine (host names other
    /// than `localhost` are refused, against DNS rebinding).
    pub fn network_url(&self) -> Option<String> {
        self.addr.ip().is_unspecified().then(|| {
            format!(
                "http://<an IP address of this machine>:{}/ (host names other than localhost are refused)",
                self.addr.port()
            )
        })
    }

    /// The chain, arena and signer the server plays on.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// Blocks until the server stops (it runs until the process ends).
    pub fn wait(mut self) -> Result<(), ServeError> {
        self.join()
    }

    /// Stops the server and waits for its thread.
    pub fn stop(mut self) -> Result<(), ServeError> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.join()
    }

    fn join(&mut self) -> Result<(), ServeError> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(ServeError::Panicked),
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = self.join();
    }
}

/// Opens the chain (deploying the fair puzzle and its arena on the embedded
/// chain when none is recorded), binds the socket and serves on a new thread.
/// Blocking; call it outside any async runtime.
pub fn start(config: Config) -> Result<Running, ServeError> {
    let ip = config.ip()?;
    if let Some(url) = &config.explorer_url {
        site::check_explorer_url(url)?;
    }
    // The port first: one in use is said before the chain is opened (on a
    // fresh embedded chain, before anything is deployed).
    let addr = SocketAddr::new(ip, config.port);
    let listener = TcpListener::bind(addr).map_err(|source| match source.kind() {
        std::io::ErrorKind::AddrInUse
        | std::io::ErrorKind::PermissionDenied
        | std::io::ErrorKind::AddrNotAvailable => ServeError::Listen { addr, source },
        _ => ServeError::io(format!("cannot listen on {addr}"))(source),
    })?;
    let backend = Arc::new(Backend::open(&config)?);
    let addr = listener
        .local_addr()
        .map_err(ServeError::io("cannot read the bound address"))?;
    listener
        .set_nonblocking(true)
        .map_err(ServeError::io("cannot configure the socket"))?;
    let guard = guard::Guard::new(&config.host, addr)?;
    let limits = config.limits;
    let app = router(
        backend.clone(),
        guard.with_body_timeout(limits.body_timeout),
        limits.solve_timeout,
    );
    let (tx, rx) = oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("octoku-serve".into())
        .spawn(move || -> Result<(), ServeError> {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_io()
                .enable_time()
                .build()
                .map_err(ServeError::io("cannot start the server runtime"))?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)
                    .map_err(ServeError::io("cannot use the socket"))?;
                serve(listener, app, limits, rx).await;
                Ok(())
            })
        })
        .map_err(ServeError::io("cannot start the server thread"))?;
    Ok(Running {
        addr,
        backend,
        shutdown: Some(tx),
        thread: Some(thread),
    })
}

/// Accepts connections until `stop` fires: at most
/// `limits.max_connections` at once, each closed when its header lines (or
/// the next request on a kept-alive connection) take longer than
/// `limits.header_timeout`. axum's own `serve` sets no such bounds.
async fn serve(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    limits: ServeLimits,
    mut stop: oneshot::Receiver<()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let slot = tokio::select! {
            _ = &mut stop => return,
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => return,
            },
        };
        let stream = tokio::select! {
            _ = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors, say: wait instead of spinning.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            // A client that breaks the rules is simply disconnected.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

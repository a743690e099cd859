//! The JSON API and the routes (see docs/serve.md, "JSON API").
//!
//! | route | what |
//! | --- | --- |
//! | `GET /` | the page |
//! | `GET /app.js` ... | the page's scripts and styles ([`page::ASSETS`]) |
//! | `GET /api/info` | chain, game (arena or Curta), puzzle kind, players the server can submit for |
//! | `GET /api/board/{address}` | the board the game gives that address (on Curta: with the phase and its fee) |
//! | `POST /api/verify` | the compiled `verify` in revm, with the problems |
//! | `POST /api/submit` | the arena's or Curta's `solve` (needs the page's token) |
//! | `GET /api/leaderboard` | everyone who solved, in rank order |
//! | `POST /api/puzzle` | a practice puzzle of any size, or one read from text |
//! | `POST /api/puzzle/text` | a practice board written in the header text form (symbols header, comma-separated rows) |
//!
//! Errors are `{"error": "one line"}` with status 400 (bad input), 403
//! (guard), 409 (the arena or Curta reverted, or on Curta the solve was
//! refused before sending: `"revert"` names the error), 413 (body too
//! large) or 502 (the chain failed).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::{
    Json, Router,
    body::Bytes,
    extract::{DefaultBodyLimit, Path, State, rejection::BytesRejection},
    http::StatusCode,
    middleware,
    response::Response,
    routing::{get, post},
};
use octoku_chain::{curta, primitives::Address};
use octoku_core::{
    Board,
    grid::Grid,
    grid::geometry::Geometry,
    grid::text::{self, Form, ReadOptions, Symbols},
    octoku::explain::{Problem, describe, explain},
    puzzle, rules, solve,
};
use octoku_evm::Puzzle;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{
    MAX_BODY,
    backend::{Backend, Game},
    guard::{self, Guard},
    page,
    verifier::Verifier,
};

pub use crate::api_error::{ApiError, ErrorBody};

type ApiResult<T> = Result<Json<T>, ApiError>;

/// A JSON body, with the CLI's one-line messages for what is wrong.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large()
        } else {
            ApiError::bad(format!("cannot read the request body: {}", r.body_text()))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))
}

/// A board argument, named as the CLI names it (`START: ...`).
fn board(name: &str, text: &str) -> Result<Board, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad(format!("{name}: {e}")))
}

/// An address argument, with the CLI's message.
fn address(text: &str) -> Result<Address, ApiError> {
    octoku_core::parse_address(text).map_err(|e| ApiError::bad(format!("{e}")))
}

/// Shared by the handlers.
#[derive(Clone)]
struct App {
    backend: Arc<Backend>,
    index: Arc<str>,
    verifier: Verifier,
    /// The longest a practice board's search may take (`ServeLimits::solve_timeout`).
    solve_limit: Duration,
}

/// The routes, behind the guard and the body limit; a practice board's
/// search stops after `solve_limit`.
pub fn router(backend: Arc<Backend>, guard: Guard, solve_limit: Duration) -> Router {
    let app = App {
        solve_limit,
        backend,
        index: page::index_html(guard.token()).into(),
        verifier: Verifier::new(
            std::thread::available_parallelism()
                .map(usize::from)
                .unwrap_or(2),
        ),
    };
    let mut routes = Router::new().route("/", get(index));
    for (name, body, content_type) in page::ASSETS {
        routes = routes.route(
            &format!("/{name}"),
            get(move || async move { page::asset(body.into(), content_type) }),
        );
    }
    routes
        .route("/api/info", get(info))
        .route("/api/board/{address}", get(board_of))
        .route("/api/verify", post(verify))
        .route("/api/submit", post(submit))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/puzzle", post(puzzle))
        .route("/api/puzzle/text", post(puzzle_text))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(guard, guard::enforce))
        .with_state(app)
}

async fn index(State(app): State<App>) -> Response {
    page::asset(app.index.to_string(), "text/html; charset=utf-8")
}

/// Runs a blocking chain operation off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal("the chain task failed"))?
}

/// Practice boards' searches started and not ended yet (in every server
/// of the process).
static SEARCHES: AtomicUsize = AtomicUsize::new(0);

/// How many practice boards' searches run now, in every server of the
/// process: a search stopped by its time limit, or by its client going,
/// ends within milliseconds and frees its thread.
pub fn searches_running() -> usize {
    SEARCHES.load(Ordering::SeqCst)
}

/// Runs a practice board's search off the async workers, with a stop flag
/// raised when `limit` passes (at once for a limit of 0: every search with
/// work to do stops) or when the request is dropped (its client went
/// away), so no search outlives its request. A stopped search answers 503.
async fn searching<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce(&AtomicBool) -> Result<T, solve::Stopped> + Send + 'static,
) -> Result<T, ApiError> {
    /// Raises the flag when the request ends, however it ends.
    struct RaiseOnDrop(Arc<AtomicBool>);
    impl Drop for RaiseOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    /// Counts the search in [`SEARCHES`] until it ends (or never starts).
    struct Counted;
    impl Drop for Counted {
        fn drop(&mut self) {
            SEARCHES.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let stop = Arc::new(AtomicBool::new(limit.is_zero()));
    let _raise = RaiseOnDrop(stop.clone());
    SEARCHES.fetch_add(1, Ordering::SeqCst);
    let counted = Counted;
    let task = tokio::task::spawn_blocking(move || {
        let _counted = counted;
        f(&stop)
    });
    let stopped = || {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the board's search passed the server's limit of {} ms and stopped; expected a board that answers sooner",
                limit.as_millis()
            ),
        )
    };
    match tokio::time::timeout(limit, task).await {
        Ok(joined) => joined
            .map_err(|_| ApiError::internal("the search task failed"))?
            .map_err(|_| stopped()),
        Err(_) => Err(stopped()),
    }
}

/// `GET /api/info`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    /// `embedded (PATH)` or `URL (chain id N)`.
    pub chain: String,
    /// Chain id.
    pub chain_id: u64,
    /// `arena` or `curta`.
    pub game: String,
    /// The arena (`null` on Curta).
    pub arena: Option<String>,
    /// On Curta: the Curta contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curta: Option<String>,
    /// On Curta: the puzzle's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle_id: Option<u32>,
    /// On Curta: the puzzle's `name()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game's puzzle contract.
    pub puzzle_address: String,
    /// `reference`, `golf`, `fair`, or `unknown`.
    pub puzzle: String,
    /// The server signer's address, if any.
    pub signer: Option<String>,
    /// Accounts the server can submit for (the signer, dev accounts).
    pub players: Vec<PlayerInfo>,
    /// A block explorer's base URL for the page's links (`--explorer-url`).
    #[serde(default)]
    pub explorer_url: Option<String>,
}

/// One account the page may play as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Checksummed address.
    pub address: String,
    /// `server signer` or `dev account N`.
    pub label: String,
}

fn kind_label(kind: Option<Puzzle>) -> String {
    kind.map_or("unknown", Puzzle::label).to_string()
}

async fn info(State(app): State<App>) -> Json<Info> {
    let b = &app.backend;
    let (game, arena, curta, puzzle_id) = match b.game() {
        Game::Arena(a) => ("arena", Some(a.to_checksum(None)), None, None),
        Game::Curta { curta, id } => ("curta", None, Some(curta.to_checksum(None)), Some(id)),
    };
    Json(Info {
        chain: b.label().to_string(),
        chain_id: b.chain_id(),
        game: game.into(),
        arena,
        curta,
        puzzle_id,
        name: b.name().map(str::to_string),
        puzzle_address: b.puzzle().to_checksum(None),
        puzzle: kind_label(b.kind()),
        signer: b.signer().map(|a| a.to_checksum(None)),
        players: b
            .players()
            .into_iter()
            .map(|p| PlayerInfo {
                address: p.address.to_checksum(None),
                label: p.label,
            })
            .collect(),
        explorer_url: b.explorer_url().map(str::to_string),
    })
}

/// `GET /api/board/{address}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardInfo {
    /// The player, checksummed.
    pub address: String,
    /// The board word, `0x` and 64 hex digits.
    pub start: String,
    /// The 64 cells in reading order (0 empty).
    pub cells: Vec<u8>,
    /// `reference`, `golf`, `fair`, or `unknown`.
    pub puzzle: String,
    /// Whether the board has a solution.
    pub solvable: bool,
    /// Why not, when it has none.
    pub reason: Option<String>,
    /// Whether the server can submit for this address (else read-only).
    pub can_submit: bool,
    /// Rank and block if the address has solved (on Curta: the place
    /// among the puzzle's solvers).
    pub solved: Option<Ranked>,
    /// On Curta: the phase now (0 to 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<u8>,
    /// On Curta: the least a solve sends now, in wei, as a decimal string
    /// (`null`: phase 3, closed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee: Option<Option<String>>,
}

/// A rank and the block it was won in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    /// 1-based rank.
    pub rank: u64,
    /// Block of the solve.
    pub block: u64,
}

async fn board_of(State(app): State<App>, Path(text): Path<String>) -> ApiResult<BoardInfo> {
    let player = address(&text)?;
    let backend = app.backend.clone();
    let seat = blocking(move || backend.seat(player).map_err(ApiError::chain)).await?;
    Ok(Json(BoardInfo {
        address: player.to_checksum(None),
        start: seat.start.to_hex(),
        cells: seat.start.cells().to_vec(),
        puzzle: kind_label(app.backend.kind()),
        solvable: seat.solvable,
        reason: seat.reason,
        can_submit: app.backend.can_submit(player),
        solved: seat.solved.map(|(rank, block)| Ranked { rank, block }),
        phase: seat.phase,
        fee: seat.phase.map(|p| curta::fee(p).map(|wei| wei.to_string())),
    }))
}

/// `POST /api/verify` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The starting board (0x hex, decimal, or 64 cells of 0-8 / '.').
    pub start: String,
    /// The proposed solution, in the same forms.
    pub solution: String,
}

/// `POST /api/verify` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyResponse {
    /// The contract's verdict.
    pub valid: bool,
    /// Execution gas of `verify`.
    pub gas: u64,
    /// The implementation that ran (the arena's puzzle; `reference` when unknown).
    pub puzzle: String,
    /// The first problem, if any.
    pub reason: Option<String>,
    /// Every problem, with the cells involved.
    pub problems: Vec<ProblemInfo>,
}

/// One reason a solution is rejected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemInfo {
    /// `changed_given`, `bad_cell`, `repeated` or `missing`.
    pub kind: String,
    /// One line, 1-based positions.
    pub message: String,
    /// The cells involved, `[row, column]` 0-based (a missing digit: its unit).
    pub cells: Vec<[usize; 2]>,
}

/// A problem as the page lists it: its kind, its line, its cells.
pub fn problem_info(p: &Problem) -> ProblemInfo {
    let (kind, cells): (&str, Vec<(usize, usize)>) = match p {
        Problem::ChangedGiven { row, col, .. } => ("changed_given", vec![(*row, *col)]),
        Problem::BadCell { row, col, .. } => ("bad_cell", vec![(*row, *col)]),
        Problem::Repeated { cells, .. } => ("repeated", cells.clone()),
        Problem::Missing { unit, .. } => ("missing", Geometry::OCTOKU.unit_cells(*unit).collect()),
        // Two 8×8 boards always have the same shape.
        Problem::Shape { .. } => ("shape", Vec::new()),
    };
    ProblemInfo {
        kind: kind.into(),
        message: describe(p),
        cells: cells.into_iter().map(|(r, c)| [r, c]).collect(),
    }
}

async fn verify(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<VerifyResponse> {
    let request: VerifyRequest = body(bytes)?;
    let start = board("START", &request.start)?;
    let solution = board("SOLUTION", &request.solution)?;
    let puzzle = app.backend.kind().unwrap_or(Puzzle::Reference);
    let call = app
        .verifier
        .verify(puzzle, start, solution)
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let mirror = puzzle.mirror_verify(start, solution);
    if call.value != mirror {
        return Err(ApiError::internal(format!(
            "the contract says {} and the Rust mirror says {mirror} for start {start} solution {solution}",
            call.value
        )));
    }
    let problems: Vec<ProblemInfo> = explain(start, solution).iter().map(problem_info).collect();
    Ok(Json(VerifyResponse {
        valid: call.value,
        gas: call.gas,
        puzzle: puzzle.label().into(),
        reason: problems.first().map(|p| p.message.clone()),
        problems,
    }))
}

/// `POST /api/submit` body (with the `X-Octoku-Token` header).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    /// Who submits: the server signer or a dev account.
    pub player: String,
    /// The solved board (0x hex, decimal, or 64 cells of 1-8).
    pub solution: String,
    /// On Curta: the wei to send with the solve, a decimal string (default
    /// 0; phase 2 needs at least the fee the board showed).
    #[serde(default)]
    pub value: Option<String>,
}

/// `POST /api/submit` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmitResponse {
    /// The solver.
    pub player: String,
    /// Rank from the arena's `Solved` event.
    pub rank: u64,
    /// Total gas of the transaction.
    pub gas_used: u64,
    /// Transaction hash.
    pub tx: String,
    /// Block it was mined in.
    pub block: u64,
    /// On Curta: the phase of the solve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<u8>,
}

async fn submit(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<SubmitResponse> {
    let request: SubmitRequest = body(bytes)?;
    let player = address(&request.player)?;
    let solution = board("SOLUTION", &request.solution)?;
    let value = match request.value.as_deref() {
        None => 0,
        Some(text) => text.parse::<u128>().map_err(|_| {
            ApiError::bad(format!(
                "value {text:?}: expected wei as a decimal number, such as 20000000000000000"
            ))
        })?,
    };
    let backend = app.backend.clone();
    let solved = blocking(move || {
        backend
            .submit(player, solution, value)
            .map_err(ApiError::submit)
    })
    .await?;
    let solved = solved.ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "{}: read-only, this server holds no key for it; expected the server signer or a dev account",
                player.to_checksum(None)
            ),
        )
    })?;
    Ok(Json(SubmitResponse {
        player: player.to_checksum(None),
        rank: solved.rank,
        gas_used: solved.gas_used,
        tx: format!("{}", solved.tx),
        block: solved.block,
        phase: solved.phase,
    }))
}

/// `GET /api/leaderboard`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The arena (`null` on Curta).
    pub arena: Option<String>,
    /// On Curta: the Curta contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curta: Option<String>,
    /// On Curta: the puzzle's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle_id: Option<u32>,
    /// Everyone who solved, in rank order.
    pub solvers: Vec<SolverInfo>,
}

/// One line of the leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverInfo {
    /// Checksummed address.
    pub address: String,
    /// 1-based rank.
    pub rank: u64,
    /// Block of the solve.
    pub block: u64,
    /// On Curta: the phase of the solve (0 to 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<u8>,
    /// The accepted solution, `0x` and 64 hex digits (from the solve's event).
    pub solution: String,
}

async fn leaderboard(State(app): State<App>) -> ApiResult<Leaderboard> {
    let backend = app.backend.clone();
    let solvers = blocking(move || backend.leaderboard().map_err(ApiError::chain)).await?;
    let (arena, curta, puzzle_id) = match app.backend.game() {
        Game::Arena(a) => (Some(a.to_checksum(None)), None, None),
        Game::Curta { curta, id } => (None, Some(curta.to_checksum(None)), Some(id)),
    };
    Ok(Json(Leaderboard {
        arena,
        curta,
        puzzle_id,
        solvers: solvers
            .into_iter()
            .map(|s| SolverInfo {
                address: s.address.to_checksum(None),
                rank: s.rank,
                block: s.block,
                phase: s.phase,
                solution: Board::from_u256(s.solution).to_hex(),
            })
            .collect(),
    }))
}

/// `POST /api/puzzle` body: a new puzzle of a size, or a board read from text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// Side of a new puzzle: 4, 6, 8, 9, 10, 12, 14, 15 or 16.
    #[serde(default)]
    pub size: Option<usize>,
    /// Seed of the draw (default: a random one).
    #[serde(default)]
    pub seed: Option<u64>,
    /// A board in text instead: the header form, or the core's line or grid form.
    #[serde(default)]
    pub text: Option<String>,
    /// Custom symbols, symbol 1 first (default: `1`-`9`, then `A`-`G`; a
    /// a header brings its own).
    #[serde(default)]
    pub symbols: Option<Vec<String>>,
}

/// `POST /api/puzzle` answer: a practice board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticePuzzle {
    /// Side of the board.
    pub size: usize,
    /// Rows per box.
    pub box_rows: usize,
    /// Columns per box.
    pub box_cols: usize,
    /// The seed of a drawn puzzle (same seed, same puzzle); none for text.
    pub seed: Option<u64>,
    /// The symbols, symbol 1 first.
    pub symbols: Vec<String>,
    /// Cells in reading order, 0 empty, else 1..=size.
    pub cells: Vec<u8>,
    /// Number of solutions, counted up to 2.
    pub solutions: u64,
    /// The solution when there is exactly one.
    pub solution: Option<Vec<u8>>,
    /// Why there is none, when a simple reason shows.
    pub reason: Option<String>,
}

/// `POST /api/puzzle/text` body: a board to write as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextRequest {
    /// Side of the board.
    pub size: usize,
    /// Cells in reading order, 0 empty.
    pub cells: Vec<u8>,
    /// The symbols (default: the standard ones).
    #[serde(default)]
    pub symbols: Option<Vec<String>>,
}

/// `POST /api/puzzle/text` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextResponse {
    /// The board in the header form.
    pub text: String,
}

fn symbols_of(list: Option<&[String]>, g: Geometry) -> Result<Symbols, ApiError> {
    let Some(list) = list else {
        return Ok(Symbols::standard(g.size()));
    };
    let symbols = Symbols::new(list).map_err(|e| ApiError::bad(format!("symbols: {e}")))?;
    if symbols.len() != g.size() {
        return Err(ApiError::bad(format!(
            "symbols: {} given, expected {} for a {g} board",
            symbols.len(),
            g.size()
        )));
    }
    Ok(symbols)
}

fn geometry_of(size: usize) -> Result<Geometry, ApiError> {
    Geometry::for_size(size).map_err(|e| ApiError::bad(format!("size: {e}")))
}

/// A practice board as the page gets it: the solution when unique, the
/// reason when there is none; `Err` when `stop` was raised first.
fn practice(
    board: &Grid,
    symbols: &Symbols,
    seed: Option<u64>,
    stop: &AtomicBool,
) -> Result<PracticePuzzle, solve::Stopped> {
    let g = board.geometry();
    let (first, solutions) = solve::solve_counting_until(board, 2, stop)?;
    let solution = (solutions == 1)
        .then_some(first)
        .flatten()
        .map(|s| s.cells().to_vec());
    let reason = (solutions == 0).then(|| {
        rules::contradiction(board)
            .map(|c| c.message(g, &|v| symbols.name(v).to_string()))
            .unwrap_or_else(|| "the search found no completion".into())
    });
    Ok(PracticePuzzle {
        size: g.size(),
        box_rows: g.box_rows(),
        box_cols: g.box_cols(),
        seed,
        symbols: (1..=g.size() as u8)
            .map(|v| symbols.name(v).to_string())
            .collect(),
        cells: board.cells().to_vec(),
        solutions,
        solution,
        reason,
    })
}

async fn puzzle(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<PracticePuzzle> {
    let request: PuzzleRequest = body(bytes)?;
    match (request.size, request.text) {
        (Some(size), None) => {
            let g = geometry_of(size)?;
            let symbols = symbols_of(request.symbols.as_deref(), g)?;
            let seed = match request.seed {
                Some(s) => s,
                None => {
                    let mut bytes = [0u8; 8];
                    getrandom::fill(&mut bytes)
                        .map_err(|e| ApiError::internal(format!("cannot draw a seed: {e}")))?;
                    u64::from_le_bytes(bytes)
                }
            };
            let p = blocking(move || {
                puzzle::generate(g, seed, None).map_err(|e| ApiError::internal(e.to_string()))
            })
            .await?;
            let answer = searching(app.solve_limit, move |stop| {
                practice(&p.puzzle, &symbols, Some(seed), stop)
            })
            .await?;
            Ok(Json(answer))
        }
        (None, Some(text)) => {
            let options = ReadOptions {
                geometry: None,
                symbols: request
                    .symbols
                    .as_deref()
                    .map(Symbols::new)
                    .transpose()
                    .map_err(|e| ApiError::bad(format!("symbols: {e}")))?,
            };
            let parsed =
                text::read(&text, &options).map_err(|e| ApiError::bad(format!("text: {e}")))?;
            let answer = searching(app.solve_limit, move |stop| {
                practice(&parsed.board, &parsed.symbols, None, stop)
            })
            .await?;
            Ok(Json(answer))
        }
        _ => Err(ApiError::bad(
            "expected {\"size\": N} for a new puzzle or {\"text\": \"...\"} to read one, not both",
        )),
    }
}

async fn puzzle_text(bytes: Result<Bytes, BytesRejection>) -> ApiResult<TextResponse> {
    let request: TextRequest = body(bytes)?;
    let g = geometry_of(request.size)?;
    let symbols = symbols_of(request.symbols.as_deref(), g)?;
    let board =
        Grid::from_cells(g, &request.cells).map_err(|e| ApiError::bad(format!("cells: {e}")))?;
    let text = text::write(&board, &symbols, Form::Header)
        .map_err(|e| ApiError::bad(format!("text: {e}")))?;
    Ok(Json(TextResponse { text }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search whose request is dropped (its client went away) sees its
    /// stop flag and ends at once, long before its time limit: the search
    /// here spins until the flag is raised, as a search past every bound
    /// would.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_whose_client_goes_is_stopped_and_frees_its_thread() {
        let ended = Arc::new(AtomicBool::new(false));
        let seen = ended.clone();
        let request = tokio::spawn(searching(Duration::from_secs(600), move |stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            seen.store(true, Ordering::SeqCst);
            Err::<(), _>(solve::Stopped)
        }));
        let started = std::time::Instant::now();
        while searches_running() == 0 {
            assert!(started.elapsed() < Duration::from_secs(30), "never started");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!ended.load(Ordering::SeqCst), "the search runs");
        // The client goes: hyper drops the request's future.
        request.abort();
        let dropped = std::time::Instant::now();
        while !ended.load(Ordering::SeqCst) || searches_running() > 0 {
            assert!(
                dropped.elapsed() < Duration::from_secs(10),
                "the search outlived its request"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
}

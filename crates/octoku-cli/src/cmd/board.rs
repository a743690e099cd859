//! `octoku board`: the board an address must solve, read from the arena (or
//! from any deployed IPuzzle with `--puzzle-address`).

use std::process::ExitCode;

use octoku_chain::{Chain, arena};
use octoku_core::{Address, Board};
use octoku_evm::Puzzle;
use serde::Serialize;

use crate::error::chain_error;
use crate::opts::chain::{ArenaArgs, KeyUse, Opened, arena_address};
use crate::{
    error::CliError,
    input, outln,
    output::{self, print_json},
};

/// `octoku board --json` through an arena.
#[derive(Debug, Serialize)]
struct OnChainBoard<'a> {
    chain: &'a str,
    #[serde(serialize_with = "output::checksum")]
    arena: Address,
    /// The arena's puzzle kind (`null`: an IPuzzle not built here).
    puzzle: Option<Puzzle>,
    #[serde(serialize_with = "output::checksum")]
    puzzle_address: Address,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
    solved: bool,
    rank: Option<u64>,
    solved_block: Option<u64>,
}

/// `octoku board --puzzle-address P --json`: any IPuzzle, no arena.
#[derive(Debug, Serialize)]
struct PuzzleBoard<'a> {
    chain: &'a str,
    /// The puzzle's kind when it is one built here (`null` otherwise).
    puzzle: Option<Puzzle>,
    #[serde(serialize_with = "output::checksum")]
    puzzle_address: Address,
    /// The puzzle's `name()`.
    name: String,
    #[serde(serialize_with = "output::checksum")]
    address: Address,
    #[serde(serialize_with = "output::hex")]
    start: Board,
}

/// Arguments of `octoku board`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Whose board (default: --from, else the key's address).
    address: Option<String>,
    /// Read `generate(ADDRESS)` and `name()` of this IPuzzle contract directly,
    /// without an arena (the published puzzle on a fork, for example).
    #[arg(long, value_name = "P", conflicts_with_all = ["arena", "curta", "puzzle_id"])]
    puzzle_address: Option<String>,
    /// Also draw the board as a printable picture (SVG, givens in bold) in FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    on: ArenaArgs,
}

/// Reads `arena.boardOf(address)` and `arena.solvedAt(address)`, or the
/// puzzle's `generate` and `name`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let player = args.address.as_deref().map(input::address).transpose()?;
    let puzzle_arg = args
        .puzzle_address
        .as_deref()
        .map(input::address)
        .transpose()?;
    if crate::curta::wanted(&args.on) {
        crate::curta::require_node(&args.on.chain)?;
    }
    let mut opened = args.on.chain.open(KeyUse::Read, false)?;
    let player = match player.or(opened.me) {
        Some(p) => p,
        None if matches!(opened.chain, Chain::Embedded(_)) => opened.chain.sender(),
        None => {
            return Err(CliError::Input(
                "whose board? Expected an ADDRESS, --from ADDRESS, or a key (--private-key, --keystore, --account)".into(),
            ));
        }
    };
    if let Some(puzzle) = puzzle_arg {
        return puzzle_board(
            &mut opened,
            puzzle,
            player,
            args.on.json,
            args.svg.as_deref(),
        );
    }
    if crate::curta::wanted(&args.on) {
        return crate::curta::board(opened, &args.on, player, args.svg.as_deref());
    }
    let info = arena_address(&mut opened, args.on.arena.as_deref())?;
    let start = Board::from_u256(
        arena::board_of(&mut opened.chain, info.arena, player).map_err(chain_error)?,
    );
    let solved = arena::solved_at(&mut opened.chain, info.arena, player).map_err(chain_error)?;
    if let Some(path) = &args.svg {
        crate::picture::board(path, start)?;
    }
    if args.on.json {
        print_json(&OnChainBoard {
            chain: &opened.label,
            arena: info.arena,
            puzzle: info.kind,
            puzzle_address: info.puzzle,
            address: player,
            start,
            solved: solved.rank != 0,
            rank: (solved.rank != 0).then_some(solved.rank),
            solved_block: (solved.rank != 0).then_some(solved.block),
        })?;
    } else {
        outln!("chain     {}", opened.label)?;
        outln!("arena     {}", info.arena)?;
        outln!("puzzle    {}", info.puzzle_label())?;
        outln!("address   {player}")?;
        outln!()?;
        outln!("{}", crate::style::grid(start, start, None))?;
        outln!()?;
        outln!("start     {}", start.to_hex())?;
        if solved.rank != 0 {
            outln!("solved    rank {} in block {}", solved.rank, solved.block)?;
        } else {
            outln!("solved    not yet")?;
        }
        if let Some(kind) = info.kind.filter(|k| k.label() != "reference") {
            outln!(
                "solve it  octoku solve --puzzle {kind} --address {player} (this arena's puzzle is {kind})"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `puzzle.generate(player)` and `puzzle.name()` of any IPuzzle.
fn puzzle_board(
    opened: &mut Opened,
    puzzle: Address,
    player: Address,
    json: bool,
    svg: Option<&std::path::Path>,
) -> Result<ExitCode, CliError> {
    opened.chain.require_code(puzzle).map_err(chain_error)?;
    let not_puzzle = |e: octoku_chain::ChainError| match e {
        e if e.is_no_answer() => CliError::Chain(format!(
            "{puzzle} does not answer IPuzzle's name() and generate(address): not a puzzle"
        )),
        other => chain_error(other),
    };
    let name = arena::puzzle_name(&mut opened.chain, puzzle).map_err(not_puzzle)?;
    let start = Board::from_u256(
        arena::puzzle_generate(&mut opened.chain, puzzle, player).map_err(not_puzzle)?,
    );
    let kind = arena::identify_puzzle(&mut opened.chain, puzzle).map_err(chain_error)?;
    if let Some(path) = svg {
        crate::picture::board(path, start)?;
    }
    if json {
        print_json(&PuzzleBoard {
            chain: &opened.label,
            puzzle: kind,
            puzzle_address: puzzle,
            name,
            address: player,
            start,
        })?;
    } else {
        outln!("chain     {}", opened.label)?;
        outln!("puzzle    {puzzle} ({name:?})")?;
        outln!("address   {player}")?;
        outln!()?;
        outln!("{}", crate::style::grid(start, start, None))?;
        outln!()?;
        outln!("start     {}", start.to_hex())?;
    }
    Ok(ExitCode::SUCCESS)
}

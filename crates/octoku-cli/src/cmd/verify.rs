//! `octoku verify <START> <SOLUTION>`: the contract's verdict, explained.

use std::process::ExitCode;

use octoku_chain::classic9::Classic9ChainError;
use octoku_core::grid::text::{self, Form, ReadOptions};
use octoku_core::rules::verdict::verdict;
use octoku_core::{Grid, classic9, grid::geometry::Geometry};
use octoku_evm::classic9::{self as classic9_evm, Verify9Error};
use octoku_evm::verify::VerifyError;
use octoku_evm::{Machine, Puzzle, Target};

use crate::error::chain_error;
use crate::opts::chain::{self, KeyUse};
use crate::opts::size::{self, Shape};
use crate::opts::target::TargetArgs;
use crate::{
    error::CliError,
    input,
    output::{print_json, print_problems},
};

/// Arguments of `octoku verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The starting board (0x hex, decimal, or 64 cells of 0-8 / '.'; with --size: line, grid or header text, @FILE, - for standard input, or "" for none).
    start: String,
    /// The proposed solution, in the same forms.
    solution: String,
    /// Which implementation to run (default: reference). With --size 9: the
    /// 9×9 validator of reference or golf (contracts/classic9/) in the
    /// in-memory EVM; without it, --size 9 stays off-chain.
    #[arg(long, value_enum, ignore_case = true)]
    puzzle: Option<Puzzle>,
    /// With --size 9: call the 9×9 validator deployed at this address
    /// (`octoku deploy --size 9`) instead. Without --size: an 8×8 IPuzzle
    /// whose code is read from the chain and run in the in-memory EVM.
    #[arg(long, value_name = "ADDRESS")]
    puzzle_address: Option<String>,
    /// JSON-RPC URL of the node holding --puzzle-address (http://); without
    /// it, the embedded chain of --state.
    #[arg(long, value_name = "URL", requires = "puzzle_address")]
    rpc_url: Option<String>,
    /// State file of the embedded chain (with --puzzle-address, no --rpc-url).
    #[arg(long, value_name = "PATH", default_value = chain::DEFAULT_STATE)]
    state: std::path::PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    size: size::SizeArgs,
    #[command(flatten)]
    target: TargetArgs,
}

/// Runs verify in the in-memory EVM; exit 0 valid, 1 invalid.
/// With `--size`: checks a board of any shape with the core (no contract).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.target.given() && args.puzzle_address.is_some() {
        return Err(CliError::Input(
            "--artifact, --bytecode and --contract name the contract; expected no --puzzle-address with them".into(),
        ));
    }
    let on_chain = args.puzzle.is_some() || args.puzzle_address.is_some() || args.target.given();
    match args.size.shape(&[&args.start, &args.solution])? {
        Shape::Text(g) if on_chain => {
            if g != Some(Geometry::CLASSIC) {
                return Err(CliError::Input(
                    "--puzzle, --puzzle-address, --artifact, --bytecode and --contract with --size run a 9x9 validator (IClassic9); expected --size 9 (3x3 boxes)".into(),
                ));
            }
            run_classic9(&args)
        }
        Shape::Text(g) => run_text(&args, g),
        Shape::Contract => run_contract(&args),
    }
}

/// `--size N` (or a board file): any shape, checked by the core (no
/// contract); an empty START asks whether SOLUTION is a valid solved grid.
fn run_text(args: &Args, g: Option<Geometry>) -> Result<ExitCode, CliError> {
    size::one_stdin(&[&args.start, &args.solution])?;
    let options = args.size.read_options(g)?;
    let solution = size::read_board("SOLUTION", &args.solution, &options)?;
    let g = solution.board.geometry();
    let options = ReadOptions {
        geometry: Some(g),
        ..options
    };
    // The start may be empty (a blank argument or file): no givens to keep.
    let start_text = size::argument_text("START", &args.start)?;
    let start = if start_text.trim().is_empty() {
        Grid::empty(g)
    } else {
        let start_options = ReadOptions {
            symbols: options
                .symbols
                .clone()
                .or_else(|| (solution.form == Form::Header).then(|| solution.symbols.clone())),
            ..options
        };
        text::read(&start_text, &start_options)
            .map_err(|e| size::read_error("START", &start_options, &e))?
            .board
    };
    let verdict = verdict(&start, &solution.board, &solution.symbols);
    if args.json {
        print_json(&verdict)?;
    } else if verdict.valid {
        crate::outln!(
            "valid    every row, column and box holds each of the {} symbols once, and every given is kept",
            g.size()
        )?;
    } else {
        let n = verdict.problems.len();
        crate::outln!("invalid  {n} problem{}", if n == 1 { "" } else { "s" })?;
        print_problems(&verdict.problems)?;
    }
    crate::exit(verdict.valid)
}

/// The 8×8 contract board: the puzzle's `verify` in the in-memory EVM, checked against the mirror.
fn run_contract(args: &Args) -> Result<ExitCode, CliError> {
    let start = input::board("START", &args.start)?;
    let solution = input::board("SOLUTION", &args.solution)?;
    // Without --size, --puzzle-address is an 8x8 IPuzzle: its code is read
    // from the chain and run here.
    let target = match &args.puzzle_address {
        Some(_) if args.puzzle.is_some() => {
            return Err(CliError::Input(
                "--puzzle and --puzzle-address name two contracts; expected one of them".into(),
            ));
        }
        Some(address) => Target::Code(crate::opts::target::code_on_chain(
            address,
            args.rpc_url.clone(),
            Some(args.state.clone()),
        )?),
        None => match args.target.code()? {
            Some(code) => Target::Code(code),
            None => Target::Builtin(args.puzzle.unwrap_or_default()),
        },
    };
    let own = matches!(target, Target::Code(_));
    let verdict = octoku_evm::verify::verify(&mut Machine::new()?, &target, start, solution)
        .map_err(|e| match e {
            VerifyError::Evm(e) => CliError::from(e),
            e => CliError::EvmCause(Box::new(e)),
        })?;
    let mirror = verdict.mirror;
    if args.json {
        print_json(&verdict)?;
    } else if verdict.valid {
        crate::outln!(
            "{}    the contract accepts this solution",
            crate::style::paint(crate::style::OK, "valid")
        )?;
        if own && !mirror {
            crate::outln!("note     the reference rejects it")?;
        }
        crate::outln!("gas      {} (execution gas of verify)", verdict.gas)?;
    } else {
        crate::outln!(
            "{}  the contract rejects this solution",
            crate::style::paint(crate::style::FAIL, "invalid")
        )?;
        if own && mirror {
            crate::outln!("note     the reference accepts it")?;
        }
        crate::style::print_marked(start, solution, &verdict.found)?;
        crate::outln!("gas      {} (execution gas of verify)", verdict.gas)?;
    }
    crate::exit(verdict.valid)
}

/// `--size 9` with `--puzzle`, an author's validator or `--puzzle-address`:
/// the 9×9 validator in the in-memory EVM ([`classic9_evm::verify`]), or
/// the deployed one ([`octoku_chain::classic9::verify`]), cross-checked with
/// the Rust mirror.
fn run_classic9(args: &Args) -> Result<ExitCode, CliError> {
    let grid = |what: &str, text: &str| classic9::parse_grid(what, text).map_err(CliError::input);
    // An empty START (as the help says): no givens, is SOLUTION a solved grid?
    let start = if args.start.trim().is_empty() {
        vec![0; classic9::CELLS]
    } else {
        grid("START", &args.start)?
    };
    let solution = grid("SOLUTION", &args.solution)?;
    let mut verdict = if let Some(address) = &args.puzzle_address {
        let address = input::address(address)?;
        let chain_args = crate::opts::target::reading(args.rpc_url.clone(), args.state.clone());
        let mut opened = chain_args.open(KeyUse::Read, false)?;
        octoku_chain::classic9::verify(&mut opened.chain, address, &start, &solution).map_err(
            |e| match e {
                Classic9ChainError::Chain(e) => chain_error(e),
                Classic9ChainError::Verdict(e) => verify9_error(e),
                e => CliError::chain(e),
            },
        )?
    } else {
        let target = match args.target.code()? {
            Some(code) => Target::Code(code),
            None => match args.puzzle {
                Some(puzzle) => Target::Builtin(puzzle),
                // `run` comes here only with --puzzle, --puzzle-address or
                // an author's validator.
                None => {
                    return Err(CliError::Input(
                        "--size 9 without --puzzle or --puzzle-address is checked off-chain by the core".into(),
                    ));
                }
            },
        };
        classic9_evm::verify(&mut Machine::new()?, &target, &start, &solution)
            .map_err(verify9_error)?
    };
    // The document echoes --puzzle, also when --puzzle-address was called.
    verdict.puzzle = verdict.puzzle.or(args.puzzle);
    if args.json {
        print_json(&verdict)?;
    } else {
        let (said, verb) = if verdict.valid {
            ("valid  ", "accepts")
        } else {
            ("invalid", "rejects")
        };
        let who = verdict
            .validator()
            .map(|v| v.to_string())
            .unwrap_or_default();
        crate::outln!("{said}  {who} {verb} this solution")?;
        if let Some(gas) = verdict.gas {
            crate::outln!("gas      {gas} (execution gas of verify)")?;
        }
    }
    crate::exit(verdict.valid)
}

/// A 9×9 validator's error as the CLI's: a call both refuse, or `--puzzle
/// fair`, is bad input (exit 2); a disagreement with the mirror or the EVM
/// failing, exit 3 (an author's code that does not deploy is bad input).
fn verify9_error(e: Verify9Error) -> CliError {
    match e {
        Verify9Error::Refused(e) => CliError::input(e),
        Verify9Error::NoValidator(puzzle) => CliError::Input(format!(
            "--size 9 --puzzle {puzzle}: there is no 9x9 validator of it; expected reference or golf"
        )),
        Verify9Error::Evm(e) => CliError::from(e),
        e => CliError::EvmCause(Box::new(e)),
    }
}

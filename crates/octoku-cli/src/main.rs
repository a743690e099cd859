//! `octoku`: see the board an address gets, check and solve solutions, all
//! against the real compiled contracts in an in-memory EVM, cross-checked
//! with the Rust mirror.

mod cmd;
mod curta;
#[cfg(test)]
mod docs_check;
mod error;
mod help;
mod input;
#[cfg(test)]
mod layers_check;
mod logging;
#[cfg(test)]
mod manifest_check;
mod opts;
mod out;
mod output;
mod parallel;
mod picture;
mod progress;
mod style;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::{CliError, EXIT_CODES};

/// An 8×8 Sudoku puzzle for the EVM (Curta puzzle #1, "2 × 4 = 8").
#[derive(Debug, Parser)]
#[command(name = "octoku", version, about, long_about = None, after_help = EXIT_CODES)]
struct Cli {
    /// More logs on stderr: -v what octoku does, -vv also alloy's requests.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Print JSON instead of text: the command's own --json, given before it.
    #[arg(short = 'j', long)]
    json: bool,
    /// When to color the output: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t, global = true)]
    color: style::ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The board an address gets from the contract's generate.
    Generate(cmd::generate::Args),
    /// Check a solution with the contract's verify (exit 0 valid, 1 invalid, 2 bad input).
    Verify(cmd::verify::Args),
    /// Solve a board and have the contract verify the solution.
    Solve(cmd::solve::Args),
    /// Prove properties of the compiled contracts with an SMT solver (prove verify, prove generate).
    Prove(cmd::prove::Args),
    /// Check that every board generate can produce is solvable (exhaustive, up to symmetry).
    Audit(cmd::audit::Args),
    /// Generate and solve the boards of many addresses: how many have a solution.
    Sample(cmd::sample::Args),
    /// Gas of every implementation by function and input class, or a profile of one call.
    Gas(cmd::gas::Args),
    /// Differential fuzzing: the mirror against every compiled implementation.
    Fuzz(cmd::fuzz::Args),
    /// Deploy a puzzle and an arena for it, or the 9×9 validator (to --rpc-url, or the embedded chain).
    Deploy(cmd::deploy::Args),
    /// The board an address must solve, read from the arena on chain.
    Board(cmd::board::Args),
    /// Read your board from the arena, solve it and submit the solution.
    Play(cmd::play::Args),
    /// Submit a solution you found yourself to the arena.
    Submit(cmd::submit::Args),
    /// Every solver of an arena, in rank order (from its Solved events).
    Leaderboard(cmd::leaderboard::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cmd::completions::Args),
    /// A Sudoku puzzle of any size (--size N) with exactly one solution.
    Puzzle(cmd::puzzle::Args),
    /// Play in the browser: a local web server with the board, checks, submits and a leaderboard.
    Serve(cmd::serve::Args),
    /// Install what octoku runs beside itself: `setup solver`, the pinned SMT solver.
    Setup(cmd::setup::Args),
    /// The report card of an IPuzzle (yours: --artifact, --bytecode, --contract): shape, purity, verify and generate against the reference, gas, size.
    Check(cmd::check::Args),
    /// Write the page as a static site any static file server can host (play with your wallet).
    Site(cmd::site::Args),
    /// Curta Golf: check a solution against a course (purity, gas, proof), submit it, add courses, read the King.
    Golf(cmd::golf::Args),
}

/// The environment variables octoku reads. Set but empty means unset (a
/// shell's `ETH_RPC_URL=` must not become an empty URL).
const ENV_VARS: [&str; 9] = [
    "ETH_RPC_URL",
    "PRIVATE_KEY",
    "ETH_FROM",
    "ETH_KEYSTORE",
    "ETH_KEYSTORE_ACCOUNT",
    "ETH_PASSWORD",
    "OCTOKU_STATE",
    octoku_prove::solver::SOLVER_ENV,
    octoku_prove::solver::PYTHON_ENV,
];

fn main() -> ExitCode {
    for name in ENV_VARS {
        if std::env::var_os(name).is_some_and(|v| v.is_empty()) {
            // SAFETY: first thing in main, before any other thread exists.
            unsafe { std::env::remove_var(name) };
        }
    }
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let color = help::color_flag(&argv);
    style::init(color);
    let cli = match parse(argv, color) {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own words, usage and tips; --help and --version go to
            // stdout with status 0, usage errors to stderr with status 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    logging::init(cli.verbose);
    let result = match cli.command {
        Command::Generate(args) => cmd::generate::run(args),
        Command::Verify(args) => cmd::verify::run(args),
        Command::Solve(args) => cmd::solve::run(args),
        Command::Prove(args) => cmd::prove::run(args),
        Command::Audit(args) => cmd::audit::run(args),
        Command::Sample(args) => cmd::sample::run(args),
        Command::Gas(args) => cmd::gas::run(args),
        Command::Fuzz(args) => cmd::fuzz::run(args),
        Command::Deploy(args) => cmd::deploy::run(args),
        Command::Board(args) => cmd::board::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Submit(args) => cmd::submit::run(args),
        Command::Leaderboard(args) => cmd::leaderboard::run(args),
        Command::Completions(args) => cmd::completions::run::<Shaped>(args),
        Command::Puzzle(args) => cmd::puzzle::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Setup(args) => cmd::setup::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Site(args) => cmd::site::run(args),
        Command::Golf(args) => cmd::golf::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            crate::errln!("octoku: {}", error::one_line(&e));
            ExitCode::from(e.exit_code())
        }
    }
}

/// The command line as its help shows it ([`help::shape`]).
struct Shaped;

impl CommandFactory for Shaped {
    fn command() -> clap::Command {
        help::shape(Cli::command())
    }
    fn command_for_update() -> clap::Command {
        help::shape(Cli::command_for_update())
    }
}

/// Parses `argv`; `octoku --json COMMAND` (or `-j`) is `octoku COMMAND --json`.
fn parse(mut argv: Vec<std::ffi::OsString>, color: style::ColorWhen) -> Result<Cli, clap::Error> {
    let command = Shaped::command().color(color.clap());
    let mut matches = command.clone().try_get_matches_from(&argv)?;
    if matches.get_flag("json") {
        let (mut leaf, mut leaf_command) = (&matches, &command);
        while let Some((name, sub)) = leaf.subcommand() {
            leaf = sub;
            leaf_command = leaf_command.find_subcommand(name).unwrap_or(leaf_command);
        }
        let has_json = leaf_command.get_arguments().any(|a| a.get_id() == "json");
        match leaf.try_get_one::<bool>("json") {
            Ok(Some(true)) => {}
            Ok(_) if has_json => {
                // Before a `--` (arguments after it are values), else last.
                let at = argv.iter().position(|a| a == "--").unwrap_or(argv.len());
                argv.insert(at, "--json".into());
                matches = command.clone().try_get_matches_from(&argv)?;
            }
            _ => {
                return Err(command.clone().error(
                    clap::error::ErrorKind::ArgumentConflict,
                    "--json: this command has no JSON output; expected it without --json",
                ));
            }
        }
    }
    Cli::from_arg_matches(&matches)
}

/// Exit status of a command that ran to the end.
pub(crate) fn exit(ok: bool) -> Result<ExitCode, CliError> {
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

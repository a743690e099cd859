//! `octoku`: see the board an address gets, check and solve solutions, all
//! against the real compiled contracts in an in-memory EVM, cross-checked
//! with the Rust mirror.

mod cmd;
mod error;
mod input;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// An 8×8 Sudoku puzzle for the EVM (Curta puzzle #1, "2 × 4 = 8").
#[derive(Debug, Parser)]
#[command(name = "octoku", version, about, long_about = None)]
struct Cli {
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
    /// Check that every board generate can produce is solvable (exhaustive, up to symmetry).
    Audit(cmd::audit::Args),
    /// Generate and solve the boards of many addresses: how many have a solution.
    Sample(cmd::sample::Args),
    /// Gas of every implementation by function and input class, or a profile of one call.
    Gas(cmd::gas::Args),
    /// Differential fuzzing: the mirror against every compiled implementation.
    Fuzz(cmd::fuzz::Args),
    /// Deploy a puzzle and an arena for it (to --rpc-url, or the embedded chain).
    Deploy(cmd::deploy::Args),
    /// The board an address must solve, read from the arena on chain.
    Board(cmd::board::Args),
    /// Read your board from the arena, solve it and submit the solution.
    Play(cmd::play::Args),
    /// Submit a solution you found yourself to the arena.
    Submit(cmd::submit::Args),
    /// Play in the browser: a local web server with the board, checks, submits and a leaderboard.
    Serve(cmd::serve::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not errors: print them whole.
            if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            if !e.use_stderr() {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("octoku: {}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Generate(args) => cmd::generate::run(args),
        Command::Verify(args) => cmd::verify::run(args),
        Command::Solve(args) => cmd::solve::run(args),
        Command::Audit(args) => cmd::audit::run(args),
        Command::Sample(args) => cmd::sample::run(args),
        Command::Gas(args) => cmd::gas::run(args),
        Command::Fuzz(args) => cmd::fuzz::run(args),
        Command::Deploy(args) => cmd::deploy::run(args),
        Command::Board(args) => cmd::board::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Submit(args) => cmd::submit::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("octoku: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Exit status of a command that ran to the end.
pub(crate) fn exit(ok: bool) -> Result<ExitCode, CliError> {
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Folds clap's multi-line usage error into one line: the problem, then the
/// expected usage.
fn one_line(rendered: &str) -> String {
    let problem = rendered
        .lines()
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ");
    let possible = rendered.lines().find_map(|l| {
        l.trim()
            .strip_prefix("[possible values: ")
            .and_then(|v| v.strip_suffix(']'))
    });
    if let Some(values) = possible {
        return format!("{problem}; expected one of: {values}");
    }
    match rendered
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
    {
        Some(usage) => format!("{problem}; expected usage: {usage} (see --help)"),
        None => format!("{problem}; expected a subcommand such as generate or verify (see --help)"),
    }
}

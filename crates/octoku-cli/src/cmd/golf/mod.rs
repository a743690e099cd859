//! `octoku golf`: Curta Golf courses for the puzzle's verify and the 9x9
//! validator (contracts/golf/), checked locally before anything is sent
//! (purity, the course's meter, the equivalence proof), then committed and
//! submitted to a Curta Golf contract (docs/golfing.md).

mod check;
mod course;
mod leaderboard;
mod solution;
mod submit;

use std::process::ExitCode;

use crate::error::CliError;

/// Arguments of `octoku golf`: the subcommand.
pub type Args = super::Group<What>;

/// What `octoku golf` does.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Purity, the gas the course meters for several seeds, and the proof of
    /// equality with the course's reference: one card, one verdict.
    Check(check::Args),
    /// `golf check`, then commit, wait the commit age (60 s of chain time)
    /// and submit to a Curta Golf course; an interrupted submit resumes.
    Submit(submit::Args),
    /// Courses on a Curta Golf contract (the owner adds them).
    Course(super::Group<course::What>),
    /// A course's King, every King change with its gas and block, and the
    /// solution count, from Curta Golf's events.
    Leaderboard(leaderboard::Args),
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.what {
        What::Check(a) => check::run(a),
        What::Submit(a) => submit::run(a),
        What::Course(a) => course::run(a.what),
        What::Leaderboard(a) => leaderboard::run(a),
    }
}

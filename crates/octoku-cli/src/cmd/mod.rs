//! One module per subcommand.

pub mod audit;
pub mod batch;
pub mod board;
pub mod check;
pub mod completions;
pub mod curta;
pub mod deploy;
pub mod family;
pub mod fuzz;
pub mod gas;
pub mod generate;
pub mod leaderboard;
pub mod onchain;
pub mod parallel;
pub mod play;
pub mod prove;
pub mod puzzle;
pub mod sample;
pub mod serve;
pub mod setup;
pub mod site;
pub mod solve;
pub mod solve_sat;
pub mod submit;
pub mod verify;
pub mod wallet;

/// The arguments of a command that only groups subcommands (`octoku prove`,
/// `octoku setup`): the one to run.
#[derive(Debug, clap::Args)]
pub struct Group<W: clap::Subcommand> {
    /// The subcommand.
    #[command(subcommand)]
    pub what: W,
}

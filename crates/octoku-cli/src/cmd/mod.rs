//! One module per subcommand (`solve/` and `prove/` with their parts); the
//! option groups several commands share are in [`crate::opts`].

pub mod audit;
pub mod board;
pub mod check;
pub mod completions;
pub mod deploy;
pub mod fuzz;
pub mod gas;
pub mod generate;
pub mod golf;
pub mod leaderboard;
pub mod play;
pub mod prove;
pub mod puzzle;
pub mod sample;
pub mod serve;
pub mod setup;
pub mod site;
pub mod solve;
pub mod submit;
pub mod verify;

/// The arguments of a command that only groups subcommands (`octoku prove`,
/// `octoku setup`): the one to run.
#[derive(Debug, clap::Args)]
pub struct Group<W: clap::Subcommand> {
    /// The subcommand.
    #[command(subcommand)]
    pub what: W,
}

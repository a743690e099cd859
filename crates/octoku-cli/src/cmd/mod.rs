//! One module per subcommand.

pub mod audit;
pub mod board;
pub mod deploy;
pub mod fuzz;
pub mod gas;
pub mod generate;
pub mod onchain;
pub mod parallel;
pub mod play;
pub mod sample;
pub mod serve;
pub mod solve;
pub mod submit;
pub mod verify;

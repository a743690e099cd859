//! One module per subcommand.

pub mod audit;
pub mod board;
pub mod deploy;
pub mod family;
pub mod fuzz;
pub mod gas;
pub mod generate;
pub mod onchain;
pub mod parallel;
pub mod play;
pub mod puzzle;
pub mod sample;
pub mod solve;
pub mod submit;
pub mod verify;

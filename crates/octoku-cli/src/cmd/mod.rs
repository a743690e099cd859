//! One module per subcommand.

pub mod audit;
pub mod fuzz;
pub mod gas;
pub mod generate;
pub mod solve;
pub mod verify;
pub mod board;
pub mod deploy;
pub mod onchain;
pub mod play;
pub mod submit;

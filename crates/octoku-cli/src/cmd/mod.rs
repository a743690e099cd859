//! One module per subcommand.

pub mod generate;
pub mod verify;

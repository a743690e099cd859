//! The option groups several commands share, one file each (as Foundry's
//! `crates/cli/src/opts/`): the chain a command reads or writes and its
//! arena, the signer and transaction flags, an author's own contract, the
//! SMT solver, the board shape of any size, a search's time limit.

pub mod chain;
pub mod size;
pub mod solver;
pub mod target;
pub mod timeout;
pub mod wallet;

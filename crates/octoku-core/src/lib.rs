//! Pure model of the octoku 8x8 puzzle as published on chain (Curta puzzle #1).
//!
//! A board is a 256-bit word with one 4-bit cell per nibble (see [`board`]).
//! [`generate()`] and [`verify()`] mirror the published contract bit for bit;
//! [`explain`] turns a rejected solution into readable reasons. Nothing here
//! touches an EVM, the network or the file system.

pub mod address;
pub mod classic9;
pub mod error;
pub mod grid;
pub mod octoku;
pub mod puzzle;
pub mod rng;
pub mod rules;
pub mod solve;

pub use address::{Address, hex, keccak256, parse_address};
pub use alloy_primitives::U256;
pub use error::ParseError;
pub use octoku::board::Board;
pub use octoku::generate::{generate, generate_from_seed};
pub use octoku::verify::verify;

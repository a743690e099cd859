//! Pure model of the octoku 8x8 puzzle as published on chain (Curta puzzle #1).
//!
//! A board is a 256-bit word with one 4-bit cell per nibble (see [`board`]).
//! [`generate()`] and [`verify()`] mirror the published contract bit for bit;
//! [`explain`] turns a rejected solution into readable reasons. Nothing here
//! touches an EVM, the network or the file system.

pub mod address;
pub mod board;
pub mod error;
pub mod explain;
pub mod fair;
pub mod generate;
pub mod geometry;
pub mod rng;
pub mod verify;

pub use address::{Address, hex, keccak256, parse_address};
pub use alloy_primitives::U256;
pub use board::Board;
pub use error::ParseError;
pub use generate::{generate, generate_from_seed};
pub use verify::verify;
pub mod audit;
pub mod nboard;
pub mod npuzzle;
pub mod nsolve;
pub mod ntext;
pub mod solve;
pub mod symmetry;

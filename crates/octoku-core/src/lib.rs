//! Pure model of the octoku puzzles: the 8×8 puzzle as published on chain
//! (Curta puzzle #1) and the Sudoku family of every box shape from 4×4 to
//! 16×16. Nothing here touches an EVM, the network or the file system.
//!
//! The crate by concern (see `docs/architecture.md`):
//! - [`grid`]: board geometry ([`Geometry`]), the board of any size
//!   ([`Grid`]), its text forms ([`grid::text`]) and its symmetry group
//!   ([`grid::symmetry`]);
//! - [`rules`]: one check of a solution with every reason it fails
//!   ([`rules::Problem`]) and one search for why a start has no solution;
//! - [`solve`]: the solver for every geometry, with its 9×9 and 8×8 fast
//!   paths and the naive baseline;
//! - [`puzzle`]: unique puzzles of every geometry;
//! - [`octoku`]: the 8×8 puzzle's uint256 [`Board`] and the bit-exact
//!   mirrors of its contracts ([`generate()`], [`verify()`], the fair
//!   generator), its symmetry group, the audit and the explanations;
//! - [`classic9`]: the mirror of the classic 9×9 validator contracts.

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
pub use grid::Grid;
pub use grid::board::Board;
pub use grid::geometry::Geometry;
pub use octoku::generate::{generate, generate_from_seed};
pub use octoku::verify::verify;

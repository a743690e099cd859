//! The 8×8 puzzle as published on chain: the Rust mirrors of its contracts
//! on the uint256 [`Board`](crate::Board) (generate, verify, the fair generator), the
//! audit of small starts, the board's symmetry group and the explanations
//! of a rejected solution.

pub mod audit;
pub mod explain;
pub mod fair;
pub mod generate;
pub mod symmetry;
pub mod verify;

//! The EVM layer of octoku: the contracts in `contracts/`, compiled when this
//! crate is built, deployed into an in-memory revm and called through alloy
//! `sol!` bindings.
//!
//! Gas figures returned here are the **execution gas of the call**: what the
//! called contract's frame spent, without the 21,000 intrinsic transaction
//! cost, calldata cost or the EIP-7623 calldata floor. This is the number
//! `forge test` reports for an external call, so the two can be compared.
//!
//! ```
//! use octoku_evm::{Machine, Puzzle};
//! let mut evm = Machine::new().unwrap();
//! let address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045".parse().unwrap();
//! let board = evm.generate(Puzzle::Reference, &address).unwrap();
//! assert_eq!(board.value, octoku_core::generate(&address));
//! ```

pub mod artifacts;
pub mod bindings;
pub mod cases;
pub mod child;
pub mod classic9;
pub mod frame;
pub mod fuzz;
pub mod gas;
pub mod golf;
mod json;
pub mod limits;
pub mod machine;
pub mod meter;
pub mod puzzle;
pub mod sample;
pub mod solve;
pub mod source_map;
pub mod target;
pub mod verify;

pub use artifacts::Artifact;
pub use machine::{Call, DATA_SHOWN, EvmError, GAS_LIMIT, HaltReason, Machine, RawOutcome, Work};
pub use meter::Step;
pub use puzzle::Puzzle;
pub use target::{Code, Target};

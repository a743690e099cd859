//! Proofs about the octoku contracts from their compiled runtime bytecode.
//!
//! [`engine`] proves two runtime codes equal on one call shape; the 8×8
//! verify ([`prove`]), the 9×9 validators ([`classic9`]) and generate
//! ([`generate`]) are drivers on top of it; generate's fill is also proved
//! for every seed by induction ([`induction`]). Both generate proofs take
//! the fill under proof as a [`program::Program`].
//!
//! [`exec`] runs a contract's bytecode symbolically on calldata whose
//! arguments are free 256-bit variables and returns the call's outcome as
//! bit-vector terms ([`term`]); [`smt`] writes the question "can two outcomes
//! differ?" as SMT-LIB2 (QF_BV) and [`solver`] asks an SMT solver. An `unsat`
//! answer proves the two contracts equal on every input; a `sat` answer gives
//! inputs that are replayed on the real contracts in revm. No proof says
//! "proved" before [`validate`] has checked both programs' terms against
//! revm on concrete inputs. [`report`] runs each proof of `octoku prove`
//! and returns its typed report (the JSON of `--json`).

pub mod card;
pub mod classic9;
pub mod engine;
pub mod exec;
pub mod fuzz;
pub mod generate;
pub mod golf;
pub mod induction;
pub mod program;
pub mod progress;
pub mod prove;
pub mod report;
pub mod rules;
pub mod sat;
pub mod smt;
pub mod solver;
pub mod spec9;
pub mod term;
pub mod validate;

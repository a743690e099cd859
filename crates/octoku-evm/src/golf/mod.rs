//! Curta Golf on the local EVM: the courses of `contracts/golf/`, Curta
//! Golf's purity rule, and what a course meters for a solution, run in revm
//! the way `CurtaGolf.submit` runs it. The chain side (commit, submit,
//! leaderboard) is octoku-chain's `golf`; the equivalence proof is
//! octoku-prove's.

pub mod course;
pub mod purity;

pub use course::{Course, CourseRun, Measured, measure};
pub use purity::{Impurity, Opcodes};

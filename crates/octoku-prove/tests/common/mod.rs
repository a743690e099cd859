//! What the proof tests share: where their queries go, the solver, and
//! the seeds the fill tests draw. Each test file uses a part of it.
#![allow(dead_code)]

use std::{
    ops::Range,
    path::{Path, PathBuf},
};

use octoku_core::U256;
use octoku_evm::Puzzle;
use octoku_evm::bindings::{IFairHarness, IGolfHarness};
use octoku_prove::program::Program;
use octoku_prove::solver::Solver;
use proptest::prelude::*;

/// The directory `prove/<name>` below the target directory, for a test's
/// query files.
pub fn query_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("prove")
        .join(name)
}

/// The reference harness's `_fill`, called on the raw seed.
pub fn reference() -> Program<'static> {
    Program::harness(Puzzle::Reference)
}

/// A golfed harness's `fill(uint256)` in `code` (the harness or a mutant).
pub fn golf_program(code: &[u8]) -> Program<'_> {
    Program::seed::<IGolfHarness::fillCall>(code)
}

/// A fair harness's `fairFromSeed(uint256)` in `code` (the harness or a
/// mutant).
pub fn fair_program(code: &[u8]) -> Program<'_> {
    Program::seed::<IFairHarness::fairFromSeedCall>(code)
}

/// The SMT solver the environment names (see `octoku_prove::solver`).
pub fn solver() -> Solver {
    Solver::from_env().expect("a solver")
}

/// Seeds of every kind for generate's fill: random words, small words below
/// `2^small_bits` (spent early), and words of up to 43 six-bit chunks drawn
/// from `chunks` (few values, so many redraws), `lengths` chunks long.
pub fn seeds(
    small_bits: u32,
    chunks: &'static [u64],
    lengths: Range<usize>,
) -> impl Strategy<Value = U256> {
    prop_oneof![
        any::<[u8; 32]>().prop_map(U256::from_be_bytes),
        (0u64..1 << small_bits).prop_map(U256::from),
        (prop::collection::vec(0..chunks.len(), 43), lengths).prop_map(|(picks, len)| {
            let mut w = U256::ZERO;
            for (k, &p) in picks.iter().take(len).enumerate() {
                w |= U256::from(chunks[p]) << (6 * k);
            }
            w
        }),
    ]
}

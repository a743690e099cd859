//! What the proof tests share: where their queries go, and the solver.

use std::path::{Path, PathBuf};

use octoku_prove::solver::Solver;

/// The directory `prove/<name>` below the target directory, for a test's
/// query files.
pub fn query_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("prove")
        .join(name)
}

/// The SMT solver the environment names (see `octoku_prove::solver`).
pub fn solver() -> Solver {
    Solver::from_env().expect("a solver")
}

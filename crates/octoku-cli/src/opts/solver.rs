//! The options of every command that runs the SMT solver (`prove`, `solve
//! --sat`): which solver, and where its query files go.

use std::path::PathBuf;

use octoku_prove::solver::{self, SetupError, Solver};

use crate::error::CliError;

/// `--solver` and `--out`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SolverArgs {
    /// "builtin" (the bitwuzla linked into a build with the `bitwuzla`
    /// feature), or an SMT-LIB2 solver that reads a file, e.g. "z3",
    /// "cvc5", "bitwuzla" (program and arguments, no shell); default: the
    /// pinned bitwuzla in OCTOKU_SOLVER_PYTHON, else the linked one, else
    /// the venv of `octoku setup solver`.
    #[arg(long, value_name = "CMD", env = solver::SOLVER_ENV)]
    pub solver: Option<String>,
    /// Directory for the query files (created; default: a new temporary
    /// directory, printed with the report).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl SolverArgs {
    /// The solver to run: a malformed setting is bad input (exit 2), a
    /// missing solver an engine failure (exit 3).
    pub fn solver(&self) -> Result<Solver, CliError> {
        Solver::choose(self.solver.as_deref()).map_err(|e| match e {
            SetupError::Input(m) => CliError::Input(m),
            other => CliError::EvmCause(Box::new(other)),
        })
    }

    /// `--out`, or a new private temporary directory named for `what`
    /// (kept: the report names it).
    pub fn query_dir(&self, what: &str) -> Result<PathBuf, CliError> {
        match &self.out {
            Some(dir) => Ok(dir.clone()),
            None => solver::new_query_dir(what).map_err(|e| CliError::EvmCause(Box::new(e))),
        }
    }

    /// `--out`, or a private temporary directory removed when the returned
    /// guard is dropped (queries nobody asked to keep).
    pub fn scratch_dir(
        &self,
        what: &str,
    ) -> Result<(PathBuf, Option<tempfile::TempDir>), CliError> {
        match &self.out {
            Some(dir) => Ok((dir.clone(), None)),
            None => {
                let temp = tempfile::Builder::new()
                    .prefix(&format!("octoku-{what}-"))
                    .tempdir()
                    .map_err(|e| CliError::evm_in("cannot create a temporary directory", e))?;
                Ok((temp.path().to_path_buf(), Some(temp)))
            }
        }
    }
}

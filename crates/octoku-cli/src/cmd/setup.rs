//! `octoku setup solver`: installs the pinned SMT solver (bitwuzla from
//! PyPI, the version of tools/solver-requirements.txt) into a virtual
//! environment in the user's data directory, where `prove` and `solve
//! --sat` find it with no setting.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use octoku_prove::solver::{self, Answer, Solver};

use crate::error::CliError;

/// Arguments of `octoku setup`: what to install.
pub type Args = super::Group<What>;

/// What `setup` installs.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// The pinned bitwuzla from PyPI into a venv in the data directory
    /// ($XDG_DATA_HOME/octoku/solver-venv, else ~/.local/share/octoku/solver-venv).
    Solver(SolverArgs),
}

/// Arguments of `octoku setup solver`.
#[derive(Debug, clap::Args)]
pub struct SolverArgs {
    /// The Python 3 that makes the venv (3.9 or newer, with the venv module).
    #[arg(long, value_name = "PATH", default_value = "python3")]
    python: PathBuf,
}

/// The requirement lines of the embedded requirements file.
fn requirements() -> Vec<&'static str> {
    solver::REQUIREMENTS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Makes (or refreshes) the venv, installs the pinned package, and checks
/// that the solver answers a query. Exit 0 installed, 3 when a step fails.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let What::Solver(args) = args.what;
    let venv = solver::default_venv().ok_or_else(|| {
        CliError::Input(
            "neither XDG_DATA_HOME nor HOME is an absolute path; expected one of them to say where the data directory is".into(),
        )
    })?;
    let python = solver::venv_python(&venv);
    let phase = crate::progress::Phase::start("making the virtual environment", false);
    if !python.exists() {
        step(
            Command::new(&args.python).args(["-m", "venv"]).arg(&venv),
            &format!("{} -m venv {}", args.python.display(), venv.display()),
        )?;
    }
    let wanted = requirements();
    phase.set(format!("installing {} with pip", wanted.join(" ")));
    step(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-input",
            ])
            .args(&wanted),
        &format!("pip install {}", wanted.join(" ")),
    )?;
    phase.set("checking that the solver answers a query");
    check(&python)?;
    phase.done();
    crate::outln!("installed {} into {}", wanted.join(" "), venv.display())?;
    crate::outln!("python    {}", python.display())?;
    crate::outln!(
        "octoku prove and solve --sat use it unless --solver, {} or {} say otherwise",
        solver::SOLVER_ENV,
        solver::PYTHON_ENV
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one installation step, its output on stderr; a failure is one line.
fn step(command: &mut Command, what: &str) -> Result<(), CliError> {
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| CliError::evm_in(format!("setup solver: cannot run {what}"), e))?;
    if !status.success() {
        return Err(CliError::Evm(format!(
            "setup solver: {what} failed ({status})"
        )));
    }
    Ok(())
}

/// Decides a small satisfiable query with the new venv: the solver is
/// installed only if it answers, with a model.
fn check(python: &Path) -> Result<(), CliError> {
    let dir = tempfile::tempdir()
        .map_err(|e| CliError::evm_in("setup solver: a temporary directory", e))?;
    let query = dir.path().join("check.smt2");
    std::fs::write(
        &query,
        "(set-logic QF_BV)\n(declare-const x (_ BitVec 8))\n(assert (= (bvadd x #x01) #x05))\n(check-sat)\n(exit)\n",
    )
    .map_err(|e| CliError::evm_in(format!("setup solver: cannot write {}", query.display()), e))?;
    let solver = Solver::pinned(python.to_path_buf(), solver::DEFAULT_LIMIT);
    let solved = solver
        .solve(&query)
        .map_err(|e| CliError::evm_in("setup solver: the installed solver fails", e))?;
    match solved.answer {
        Answer::Sat(values) if values == [("x".to_string(), octoku_core::U256::from(4u8))] => {
            Ok(())
        }
        other => Err(CliError::Evm(format!(
            "setup solver: the installed solver answers {other:?} to x + 1 = 5; expected x = 4"
        ))),
    }
}

//! Runs the pinned SMT solver (bitwuzla from PyPI, installed by `make setup`
//! into `.venv-solver/`) on a query file through `tools/smt-solve.py`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use octoku_core::U256;

/// The solver's answer to one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// No assignment satisfies the query.
    Unsat,
    /// This assignment (variable name, value) satisfies it.
    Sat(Vec<(String, U256)>),
    /// The solver gave up.
    Unknown,
}

/// One solver run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The answer.
    pub answer: Answer,
    /// Solver name and version, as it reports them.
    pub solver: String,
    /// Time the solver spent deciding (parsing excluded), as it measured it.
    pub check: Duration,
    /// Wall time of the whole run, process start to exit.
    pub wall: Duration,
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    let raw = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    raw.canonicalize().unwrap_or(raw)
}

/// The Python interpreter of the solver's virtual environment
/// (`OCTOKU_SOLVER_PYTHON` overrides it).
pub fn python() -> PathBuf {
    match std::env::var_os("OCTOKU_SOLVER_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => repo_root().join(".venv-solver/bin/python"),
    }
}

/// The solver's time limit per query: `OCTOKU_SOLVER_TIME_LIMIT` seconds
/// (default 600). Past it the answer is [`Answer::Unknown`], so a query the
/// solver cannot decide ends as "undecided" instead of running on.
pub fn time_limit() -> Result<f64, String> {
    match std::env::var("OCTOKU_SOLVER_TIME_LIMIT") {
        Err(_) => Ok(600.0),
        Ok(text) if text.is_empty() => Ok(600.0),
        Ok(text) => match text.parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
            _ => Err(format!(
                "OCTOKU_SOLVER_TIME_LIMIT is {text:?}: expected a positive number of seconds"
            )),
        },
    }
}

/// The solver's Python interpreter, or why it cannot be run.
fn installed_python() -> Result<PathBuf, String> {
    let python = python();
    if !python.exists() {
        return Err(format!(
            "the SMT solver is not installed ({} is missing): run `make setup` in the repository root",
            python.display()
        ));
    }
    Ok(python)
}

/// The directory `dir` for a run's query files, created, with an exclusive
/// lock on `<dir>.lock` held until the returned file is dropped: a second
/// octoku proving into the same directory waits instead of overwriting (or
/// clearing) files the first one's solver is reading.
pub fn query_dir(dir: &Path) -> Result<std::fs::File, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let lock = dir.with_file_name(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| format!("cannot open the lock {}: {e}", lock.display()))?;
    file.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock.display()))?;
    Ok(file)
}

/// Decides the SMT-LIB2 file at `path` within [`time_limit`]; `wall` is
/// the whole solver process's time.
pub fn solve(path: &Path) -> Result<Solved, String> {
    let began = Instant::now();
    let solved = solve_batch(&[path.to_path_buf()])?
        .pop()
        .expect("one answer per file");
    Ok(Solved {
        wall: began.elapsed(),
        ..solved
    })
}

/// Decides the SMT-LIB2 files at `paths` one after the other in one solver
/// process (`tools/smt-solve.py`), each within [`time_limit`]. The
/// answers come in the order of `paths`; each one's `wall` is its check time
/// (the process's start-up is shared).
pub fn solve_batch(paths: &[PathBuf]) -> Result<Vec<Solved>, String> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let limit = time_limit()?;
    let python = installed_python()?;
    let script = repo_root().join("tools/smt-solve.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg("--seconds")
        .arg(limit.to_string())
        .args(paths)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "the solver failed on a batch of {} files ({}): {}",
            paths.len(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut blocks: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("file ") {
            blocks.push(String::new());
        } else if let Some(block) = blocks.last_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    if blocks.len() != paths.len() {
        return Err(format!(
            "the solver answered {} of {} files",
            blocks.len(),
            paths.len()
        ));
    }
    blocks
        .iter()
        .map(|b| {
            let solved = parse_answer(b, Duration::ZERO)?;
            Ok(Solved {
                wall: solved.check,
                ..solved
            })
        })
        .collect()
}

/// The answer in the lines the solver scripts print.
fn parse_answer(text: &str, wall: Duration) -> Result<Solved, String> {
    let mut solver = String::new();
    let mut result = None;
    let mut check = Duration::ZERO;
    let mut values = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("solver") => solver = words.collect::<Vec<_>>().join(" "),
            Some("result") => result = words.next().map(str::to_string),
            Some("seconds") => {
                check = words
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(Duration::from_secs_f64)
                    .unwrap_or_default();
            }
            Some("value") => {
                let (Some(name), Some(hex)) = (words.next(), words.next()) else {
                    return Err(format!("malformed solver line: {line}"));
                };
                let value = U256::from_str_radix(hex, 16)
                    .map_err(|e| format!("malformed value in solver line {line:?}: {e}"))?;
                values.push((name.to_string(), value));
            }
            _ => {}
        }
    }
    let answer = match result.as_deref() {
        Some("unsat") => Answer::Unsat,
        Some("sat") => Answer::Sat(values),
        Some("unknown") => Answer::Unknown,
        _ => return Err(format!("the solver printed no result: {text}")),
    };
    Ok(Solved {
        answer,
        solver,
        check,
        wall,
    })
}

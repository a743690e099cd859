//! Runs an SMT solver on query files: bitwuzla 0.9.1 linked into the binary
//! (cargo feature `bitwuzla`, module `linked`), the pinned bitwuzla (PyPI
//! `bitwuzla==0.9.1`) through a Python found at run time, or any SMT-LIB2
//! solver given as a command. Nothing is read from the directory octoku was
//! built in: the helper script is embedded in the binary.
//!
//! Which solver, first match wins:
//! 1. `--solver` or `OCTOKU_SOLVER`: [`BUILTIN`] for the linked bitwuzla,
//!    else a command run as `CMD... FILE` once per query (see
//!    [`Solver::command`]);
//! 2. `OCTOKU_SOLVER_PYTHON`, a Python that can `import bitwuzla`;
//! 3. the linked bitwuzla, when this build has it ([`Solver::has_builtin`]);
//! 4. the virtual environment `octoku setup solver` makes, [`default_venv`].
//!
//! Every child process is killed when octoku ends, by any signal (Linux:
//! `PR_SET_PDEATHSIG`), and a query that overruns the time limit is killed.

use std::fs::File;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use octoku_core::U256;

#[cfg(feature = "bitwuzla")]
pub mod linked;

/// The helper that decides files with the bitwuzla Python package
/// (`solver/smt-solve.py`, linked from `tools/`), passed to `python -I -c`: never read from disk.
const SCRIPT: &str = include_str!("../solver/smt-solve.py");

/// The pinned solver package, as `octoku setup solver` installs it
/// (`tools/solver-requirements.txt`: comments and one requirement).
pub const REQUIREMENTS: &str = include_str!("../solver/requirements.txt");

/// The `--solver` value that names the bitwuzla linked into the binary.
pub const BUILTIN: &str = "builtin";

/// The environment variable naming a solver command.
pub const SOLVER_ENV: &str = "OCTOKU_SOLVER";
/// The environment variable naming the Python of the pinned solver.
pub const PYTHON_ENV: &str = "OCTOKU_SOLVER_PYTHON";
/// The environment variable holding the time limit per query, in seconds.
pub const TIME_LIMIT_ENV: &str = "OCTOKU_SOLVER_TIME_LIMIT";

/// The default time limit per query.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(600);
/// The shortest time limit accepted: 1 ms (bitwuzla counts milliseconds).
pub const MIN_LIMIT: Duration = Duration::from_millis(1);
/// The longest time limit accepted: one day.
pub const MAX_LIMIT: Duration = Duration::from_secs(86_400);

/// The most bytes of a solver's output read (a model of a few words is a
/// few kilobytes; the rest is not read).
const OUTPUT_CAP: u64 = 16 << 20;

/// The solver's answer to one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// No assignment satisfies the query.
    Unsat,
    /// This assignment (variable name, value) satisfies it.
    Sat(Vec<(String, U256)>),
    /// The solver gave up, or ran out of time.
    Unknown,
}

/// One solver run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The answer.
    pub answer: Answer,
    /// Solver name and version, as it reports them (a command: as given).
    pub solver: String,
    /// Time the solver spent deciding (the pinned solver: parsing excluded,
    /// as it measured it; a command: its whole run).
    pub check: Duration,
    /// Wall time of the whole run, process start to exit.
    pub wall: Duration,
}

/// Why no solver can be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A setting is malformed (the CLI's bad input).
    #[error("{0}")]
    Input(String),
    /// No solver is installed where octoku looks.
    #[error("{0}")]
    Missing(String),
}

/// Why a solver run gave no answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The solver process could not be started or waited for.
    #[error("cannot run {program}: {error}")]
    Start {
        /// The program.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// A query, or the copy a solver command reads, could not be read or
    /// written.
    #[error("{what} {}: {error}", path.display())]
    File {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A temporary directory could not be made.
    #[error("cannot create a temporary directory{purpose}: {error}")]
    TempDir {
        /// What it was for (` for the queries`, or nothing).
        purpose: &'static str,
        /// Why.
        error: std::io::Error,
    },
    /// The pinned solver ran past its bound and was stopped.
    #[error("the solver ran past {seconds:.0} s on a batch of {files} files and was stopped")]
    Overran {
        /// The bound in seconds.
        seconds: f64,
        /// Files in the batch.
        files: usize,
    },
    /// The pinned solver exited with a failure.
    #[error("the solver ({program}) failed on a batch of {files} files ({status}): {stderr}")]
    Failed {
        /// The Python it ran in.
        program: String,
        /// Files in the batch.
        files: usize,
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The first line of its standard error.
        stderr: String,
    },
    /// The pinned solver answered fewer files than it was given.
    #[error("the solver answered {answered} of {files} files")]
    Short {
        /// Files answered.
        answered: usize,
        /// Files given.
        files: usize,
    },
    /// The pinned solver's output is not an answer.
    #[error(transparent)]
    Pinned(Malformed),
    /// A solver command's output is not an answer.
    #[error("{solver} on {}: {error}{}", path.display(), if stderr.is_empty() { String::new() } else { format!(" (stderr: {stderr})") })]
    Command {
        /// The command as given.
        solver: String,
        /// The query.
        path: PathBuf,
        /// What is wrong with the output.
        error: Malformed,
        /// The first line of its standard error.
        stderr: String,
    },
    /// A thread running a solver panicked.
    #[error("a solver thread panicked")]
    Panicked,
    /// The linked bitwuzla refused a query or is not the version expected.
    #[error("the linked solver: {0}")]
    Linked(String),
    /// The linked bitwuzla gave a model value that does not read as a word.
    #[error("the linked solver: the value of {name} is not hex ({hex:?}): {source}")]
    LinkedValue {
        /// The variable.
        name: String,
        /// What bitwuzla printed.
        hex: String,
        /// ruint's error.
        source: alloy_primitives::ruint::ParseError,
    },
}

/// A solver's output that is not an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Malformed {
    /// A `value` line of the pinned script without a name and a value.
    #[error("malformed solver line: {0}")]
    Line(String),
    /// A `value` line whose value is not hex.
    #[error("malformed value in solver line {line:?}: {error}")]
    Value {
        /// The line.
        line: String,
        /// Why.
        error: alloy_primitives::ruint::ParseError,
    },
    /// The pinned script printed no `result` line.
    #[error("the solver printed no result: {0}")]
    NoResult(String),
    /// No line reads sat, unsat or unknown.
    #[error("no sat, unsat or unknown on standard output (it began {0:?})")]
    NoAnswer(String),
    /// A get-value pair whose name is a list.
    #[error("a get-value name is a list")]
    ListName,
    /// A get-value answer that is not a list of pairs.
    #[error("a get-value answer is not a list of (name value) pairs")]
    NotPairs,
    /// Something other than the get-value list after sat.
    #[error("expected the get-value list after sat, found {0:?}")]
    NoValues(String),
    /// A value that is not a bit-vector literal.
    #[error("cannot read the bit-vector value {0}")]
    BadValue(String),
}

/// How a solver is run.
#[derive(Debug, Clone, PartialEq, Eq)]
enum How {
    /// bitwuzla linked into this binary ([`linked`]).
    #[cfg(feature = "bitwuzla")]
    Linked,
    /// The embedded script in this Python (bitwuzla from PyPI).
    Pinned { python: PathBuf },
    /// `program args... FILE`, one query per run.
    Command {
        program: String,
        args: Vec<String>,
        text: String,
    },
}

/// A solver and its time limit per query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solver {
    how: How,
    limit: Duration,
}

/// The virtual environment `octoku setup solver` makes:
/// `$XDG_DATA_HOME/octoku/solver-venv`, else
/// `$HOME/.local/share/octoku/solver-venv` (`None` without either).
pub fn default_venv() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data =
        absolute("XDG_DATA_HOME").or_else(|| absolute("HOME").map(|h| h.join(".local/share")))?;
    Some(data.join("octoku/solver-venv"))
}

/// The Python interpreter inside a virtual environment.
pub fn venv_python(venv: &Path) -> PathBuf {
    venv.join("bin/python")
}

/// `OCTOKU_SOLVER_TIME_LIMIT`, seconds per query: a decimal number from
/// 0.001 to 86400 (default 600). Anything else is refused, never rounded to
/// "no limit".
pub fn time_limit() -> Result<Duration, SetupError> {
    match std::env::var(TIME_LIMIT_ENV) {
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT_LIMIT),
        Err(std::env::VarError::NotUnicode(_)) => Err(bad_limit("not UTF-8")),
        Ok(text) if text.is_empty() => Ok(DEFAULT_LIMIT),
        Ok(text) => parse_limit(&text),
    }
}

fn bad_limit(text: &str) -> SetupError {
    SetupError::Input(format!(
        "{TIME_LIMIT_ENV} is {text:?}: expected seconds per query from 0.001 to 86400 (a decimal number such as 30 or 2.5)"
    ))
}

/// Seconds from 0.001 to 86400, in plain decimal notation (no exponent,
/// sign, `inf` or `nan`).
fn parse_limit(text: &str) -> Result<Duration, SetupError> {
    let plain = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit() || c == '.')
        && text.matches('.').count() <= 1
        && text.chars().any(|c| c.is_ascii_digit());
    let seconds = plain
        .then(|| text.parse::<f64>().ok())
        .flatten()
        .ok_or_else(|| bad_limit(text))?;
    let limit = Duration::try_from_secs_f64(seconds).map_err(|_| bad_limit(text))?;
    if !(MIN_LIMIT..=MAX_LIMIT).contains(&limit) {
        return Err(bad_limit(text));
    }
    Ok(limit)
}

impl Solver {
    /// The solver octoku uses: `command` (from `--solver`) if given, else
    /// `OCTOKU_SOLVER` ([`BUILTIN`] or a command), `OCTOKU_SOLVER_PYTHON`,
    /// the linked bitwuzla when built in, then [`default_venv`]; the limit
    /// from [`time_limit`].
    pub fn choose(command: Option<&str>) -> Result<Solver, SetupError> {
        let limit = time_limit()?;
        let from_env = std::env::var(SOLVER_ENV).ok().filter(|s| !s.is_empty());
        if let Some(text) = command.map(str::to_string).or(from_env) {
            if text.trim() == BUILTIN {
                return Solver::builtin(limit);
            }
            return Solver::command(&text, limit);
        }
        if let Some(python) = std::env::var_os(PYTHON_ENV).filter(|p| !p.is_empty()) {
            let python = PathBuf::from(python);
            if !python.exists() {
                return Err(SetupError::Missing(format!(
                    "{PYTHON_ENV} is {}, which does not exist; expected a Python with bitwuzla installed",
                    python.display()
                )));
            }
            return Ok(Solver::pinned(python, limit));
        }
        if Solver::has_builtin() {
            return Solver::builtin(limit);
        }
        let venv = default_venv();
        match venv.as_deref().map(venv_python) {
            Some(python) if python.exists() => Ok(Solver::pinned(python, limit)),
            _ => Err(SetupError::Missing(format!(
                "no SMT solver: run `octoku setup solver` (installs bitwuzla from PyPI into {}), or pass --solver CMD (bitwuzla, z3, cvc5), or set {PYTHON_ENV} to a Python with bitwuzla",
                venv.map_or("the data directory".into(), |p| p.display().to_string())
            ))),
        }
    }

    /// The solver from the environment alone ([`Solver::choose`] with no
    /// command).
    pub fn from_env() -> Result<Solver, SetupError> {
        Solver::choose(None)
    }

    /// Whether this build links bitwuzla in (cargo feature `bitwuzla`).
    pub const fn has_builtin() -> bool {
        cfg!(feature = "bitwuzla")
    }

    /// The bitwuzla linked into the binary; an error in a build without it.
    pub fn builtin(limit: Duration) -> Result<Solver, SetupError> {
        #[cfg(feature = "bitwuzla")]
        {
            Ok(Solver {
                how: How::Linked,
                limit,
            })
        }
        #[cfg(not(feature = "bitwuzla"))]
        {
            let _ = limit;
            Err(SetupError::Missing(format!(
                "--solver {BUILTIN}: this octoku was built without the linked bitwuzla (cargo feature `bitwuzla` of octoku-prove); pass --solver CMD (bitwuzla, z3, cvc5) or run `octoku setup solver`"
            )))
        }
    }

    /// The pinned bitwuzla through `python` (which must `import bitwuzla`).
    pub fn pinned(python: PathBuf, limit: Duration) -> Solver {
        Solver {
            how: How::Pinned { python },
            limit,
        }
    }

    /// Any SMT-LIB2 solver that reads a file: `text` is a program and its
    /// arguments separated by spaces (no shell: `z3`, `cvc5 --lang smt2`,
    /// `bitwuzla`). For each query octoku writes a copy that starts with
    /// `(set-option :produce-models true)` and ends with `(check-sat)`
    /// then `(get-value (VARS))` for every declared bit-vector constant,
    /// runs `PROGRAM ARGS... COPY`, and reads from standard output the first
    /// line that is `sat`, `unsat` or `unknown`, then the `get-value`
    /// answer (`#x...`, `#b...` or `(_ bvN W)` values). The exit status is
    /// not read (some solvers exit non-zero after `unsat`); a run past the
    /// time limit is killed and answers unknown.
    pub fn command(text: &str, limit: Duration) -> Result<Solver, SetupError> {
        let mut words = text.split_whitespace().map(str::to_string);
        let Some(program) = words.next() else {
            return Err(SetupError::Input(
                "the solver command is empty; expected a program such as bitwuzla, z3 or cvc5"
                    .into(),
            ));
        };
        Ok(Solver {
            how: How::Command {
                program,
                args: words.collect(),
                text: text.split_whitespace().collect::<Vec<_>>().join(" "),
            },
            limit,
        })
    }

    /// The same solver with another time limit per query.
    pub fn with_limit(self, limit: Duration) -> Solver {
        Solver { limit, ..self }
    }

    /// The time limit per query.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Decides the SMT-LIB2 file at `path` within the time limit.
    pub fn solve(&self, path: &Path) -> Result<Solved, SolverError> {
        let began = Instant::now();
        let solved = self
            .solve_batch(&[path.to_path_buf()])?
            .pop()
            .ok_or(SolverError::Short {
                answered: 0,
                files: 1,
            })?;
        Ok(Solved {
            wall: began.elapsed(),
            ..solved
        })
    }

    /// Decides the files at `paths` one after the other, each within the
    /// time limit; the answers come in the order of `paths`, each one's
    /// `wall` its check time (the pinned solver's start-up is shared).
    pub fn solve_batch(&self, paths: &[PathBuf]) -> Result<Vec<Solved>, SolverError> {
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        match &self.how {
            #[cfg(feature = "bitwuzla")]
            How::Linked => paths
                .iter()
                .map(|path| linked::decide(path, self.limit))
                .collect(),
            How::Pinned { python } => self.pinned_batch(python, paths),
            How::Command {
                program,
                args,
                text,
            } => paths
                .iter()
                .map(|p| self.run_command(program, args, text, p))
                .collect(),
        }
    }

    fn pinned_batch(&self, python: &Path, paths: &[PathBuf]) -> Result<Vec<Solved>, SolverError> {
        let mut command = Command::new(python);
        // -I: isolated (no PYTHON* variables, no user site, no script dir).
        command
            .args(["-I", "-c", SCRIPT, "--seconds"])
            .arg(format!("{:.3}", self.limit.as_secs_f64()))
            .args(paths);
        // The script enforces the limit per check; this bound catches a
        // solver that does not honour it.
        let slack = (self.limit + Duration::from_secs(60)) * paths.len() as u32;
        let ran = run(command, slack).map_err(|error| SolverError::Start {
            program: python.display().to_string(),
            error,
        })?;
        let status = ran.status.ok_or(SolverError::Overran {
            seconds: slack.as_secs_f64(),
            files: paths.len(),
        })?;
        if !status.success() {
            return Err(SolverError::Failed {
                program: python.display().to_string(),
                files: paths.len(),
                status,
                stderr: first_line(&ran.stderr).to_string(),
            });
        }
        let mut blocks: Vec<String> = Vec::new();
        for line in ran.stdout.lines() {
            if line.starts_with("file ") {
                blocks.push(String::new());
            } else if let Some(block) = blocks.last_mut() {
                block.push_str(line);
                block.push('\n');
            }
        }
        if blocks.len() != paths.len() {
            return Err(SolverError::Short {
                answered: blocks.len(),
                files: paths.len(),
            });
        }
        blocks
            .iter()
            .map(|b| {
                let solved = parse_pinned(b).map_err(SolverError::Pinned)?;
                Ok(Solved {
                    wall: solved.check,
                    ..solved
                })
            })
            .collect()
    }

    fn run_command(
        &self,
        program: &str,
        args: &[String],
        text: &str,
        path: &Path,
    ) -> Result<Solved, SolverError> {
        let file = |what, path: &Path| {
            let path = path.to_path_buf();
            move |error| SolverError::File { what, path, error }
        };
        let query = std::fs::read_to_string(path).map_err(file("cannot read", path))?;
        let vars = declared_bitvectors(&query);
        let dir = tempfile::Builder::new()
            .prefix("octoku-solver-")
            .tempdir()
            .map_err(|error| SolverError::TempDir { purpose: "", error })?;
        let copy = dir
            .path()
            .join(path.file_name().unwrap_or("query.smt2".as_ref()));
        std::fs::write(&copy, with_model_request(&query, &vars))
            .map_err(file("cannot write", &copy))?;
        let mut command = Command::new(program);
        command.args(args).arg(&copy);
        let began = Instant::now();
        let ran = run(command, self.limit).map_err(|error| SolverError::Start {
            program: program.to_string(),
            error,
        })?;
        let wall = began.elapsed();
        let answer = match ran.status {
            None => Answer::Unknown,
            Some(_) => parse_command_answer(&ran.stdout).map_err(|error| SolverError::Command {
                solver: text.to_string(),
                path: path.to_path_buf(),
                error,
                stderr: first_line(&ran.stderr).to_string(),
            })?,
        };
        Ok(Solved {
            answer,
            solver: text.to_string(),
            check: wall,
            wall,
        })
    }
}

fn first_line(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// A finished child: its output, and its status (`None`: killed at the
/// deadline).
struct Ran {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
}

/// Runs `command` to its end or until `deadline` passes (then kills it),
/// its output in anonymous files (no pipe to fill), the child bound to die
/// with octoku.
fn run(mut command: Command, deadline: Duration) -> std::io::Result<Ran> {
    let (mut out, mut err) = (tempfile::tempfile()?, tempfile::tempfile()?);
    command
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(err.try_clone()?);
    octoku_evm::child::die_with_parent(&mut command);
    let mut child = command.spawn()?;
    let began = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if began.elapsed() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Ran {
        status,
        stdout: read_capped(&mut out)?,
        stderr: read_capped(&mut err)?,
    })
}

fn read_capped(file: &mut File) -> std::io::Result<String> {
    file.rewind()?;
    let mut bytes = Vec::new();
    file.take(OUTPUT_CAP).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The bit-vector constants a query declares: `(declare-const NAME (_
/// BitVec N))` or `(declare-fun NAME () (_ BitVec N))`, one per line.
fn declared_bitvectors(query: &str) -> Vec<String> {
    query
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("(declare-const ")
                .or_else(|| line.strip_prefix("(declare-fun "))?;
            let (name, sort) = rest.split_once(' ')?;
            let sort = sort.strip_prefix("() ").unwrap_or(sort);
            sort.starts_with("(_ BitVec ").then(|| name.to_string())
        })
        .collect()
}

/// The query with models switched on first and a `get-value` of `vars`
/// after its `(check-sat)` (its `(exit)` moved to the end).
fn with_model_request(query: &str, vars: &[String]) -> String {
    let mut out = String::from("(set-option :produce-models true)\n");
    for line in query.lines() {
        let t = line.trim();
        if t == "(exit)" || t == "(set-option :produce-models true)" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if !vars.is_empty() {
        out.push_str(&format!("(get-value ({}))\n", vars.join(" ")));
    }
    out.push_str("(exit)\n");
    out
}

/// The answer in the lines the pinned solver's script prints.
fn parse_pinned(text: &str) -> Result<Solved, Malformed> {
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
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .unwrap_or_default();
            }
            Some("value") => {
                let (Some(name), Some(hex)) = (words.next(), words.next()) else {
                    return Err(Malformed::Line(line.to_string()));
                };
                let value = U256::from_str_radix(hex, 16).map_err(|error| Malformed::Value {
                    line: line.to_string(),
                    error,
                })?;
                values.push((name.to_string(), value));
            }
            _ => {}
        }
    }
    let answer = match result.as_deref() {
        Some("unsat") => Answer::Unsat,
        Some("sat") => Answer::Sat(values),
        Some("unknown") => Answer::Unknown,
        _ => return Err(Malformed::NoResult(text.to_string())),
    };
    Ok(Solved {
        answer,
        solver,
        check,
        wall: Duration::ZERO,
    })
}

/// The answer of a solver command: the first line that is a result, then
/// (when sat) the `get-value` list after it.
fn parse_command_answer(stdout: &str) -> Result<Answer, Malformed> {
    let mut rest = stdout;
    let result = loop {
        let Some((line, tail)) = rest
            .split_once('\n')
            .or((!rest.is_empty()).then_some((rest, "")))
        else {
            return Err(Malformed::NoAnswer(stdout.chars().take(80).collect()));
        };
        rest = tail;
        match line.trim() {
            "sat" => break true,
            "unsat" => return Ok(Answer::Unsat),
            "unknown" | "timeout" => return Ok(Answer::Unknown),
            _ => {}
        }
    };
    debug_assert!(result);
    let mut tokens = Tokens::new(rest);
    let values = match tokens.next_expr() {
        Some(Expr::List(pairs)) => pairs
            .into_iter()
            .map(|pair| match pair {
                Expr::List(p) if p.len() == 2 => {
                    let name = match &p[0] {
                        Expr::Atom(a) => a.trim_matches('|').to_string(),
                        Expr::List(_) => return Err(Malformed::ListName),
                    };
                    Ok((name, value_of(&p[1])?))
                }
                _ => Err(Malformed::NotPairs),
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
        Some(Expr::Atom(a)) => {
            return Err(Malformed::NoValues(a));
        }
    };
    Ok(Answer::Sat(values))
}

/// A bit-vector value: `#xHEX`, `#bBITS` or `(_ bvDECIMAL WIDTH)`.
fn value_of(e: &Expr) -> Result<U256, Malformed> {
    let parsed = match e {
        Expr::Atom(a) if a.starts_with("#x") => U256::from_str_radix(&a[2..], 16).ok(),
        Expr::Atom(a) if a.starts_with("#b") => U256::from_str_radix(&a[2..], 2).ok(),
        Expr::List(l) if l.len() == 3 && l[0] == Expr::Atom("_".into()) => match &l[1] {
            Expr::Atom(a) if a.starts_with("bv") => U256::from_str_radix(&a[2..], 10).ok(),
            _ => None,
        },
        _ => None,
    };
    parsed.ok_or_else(|| Malformed::BadValue(format!("{e:?}")))
}

/// An s-expression of a solver's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expr {
    Atom(String),
    List(Vec<Expr>),
}

/// Reads s-expressions from text (`|quoted|` symbols and `"strings"` are
/// single atoms; `;` comments are skipped).
struct Tokens<'a> {
    text: &'a str,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text }
    }

    fn skip_space(&mut self) {
        loop {
            self.text = self.text.trim_start();
            if self.text.starts_with(';') {
                self.text = self.text.split_once('\n').map_or("", |(_, t)| t);
            } else {
                return;
            }
        }
    }

    fn next_expr(&mut self) -> Option<Expr> {
        self.skip_space();
        let first = self.text.chars().next()?;
        match first {
            '(' => {
                self.text = &self.text[1..];
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    if self.text.is_empty() {
                        return Some(Expr::List(items));
                    }
                    if let Some(t) = self.text.strip_prefix(')') {
                        self.text = t;
                        return Some(Expr::List(items));
                    }
                    items.push(self.next_expr()?);
                }
            }
            ')' => {
                self.text = &self.text[1..];
                self.next_expr()
            }
            '|' | '"' => {
                let end = self.text[1..]
                    .find(first)
                    .map_or(self.text.len(), |i| i + 2);
                let (atom, rest) = self.text.split_at(end);
                self.text = rest;
                Some(Expr::Atom(atom.to_string()))
            }
            _ => {
                let end = self
                    .text
                    .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
                    .unwrap_or(self.text.len());
                let (atom, rest) = self.text.split_at(end);
                self.text = rest;
                Some(Expr::Atom(atom.to_string()))
            }
        }
    }
}

/// A new private directory for a run's query files, kept after the run:
/// `<temp>/octoku-<what>-XXXXXX` (mode 0700).
pub fn new_query_dir(what: &str) -> Result<PathBuf, SolverError> {
    tempfile::Builder::new()
        .prefix(&format!("octoku-{what}-"))
        .tempdir()
        .map(tempfile::TempDir::keep)
        .map_err(|error| SolverError::TempDir {
            purpose: " for the queries",
            error,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_outside_one_millisecond_to_one_day_are_refused() {
        for bad in [
            "0", "0.0001", "1e-300", "1e3", "abc", "inf", "nan", "-1", "86401", "", ".", "1.2.3",
            "+5",
        ] {
            assert!(parse_limit(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_limit("0.001").unwrap(), MIN_LIMIT);
        assert_eq!(parse_limit("86400").unwrap(), MAX_LIMIT);
        assert_eq!(parse_limit("2.5").unwrap(), Duration::from_millis(2500));
    }

    #[test]
    fn command_answers_are_read_in_every_value_notation() {
        let out = "sat\n((start #x0a) (|solution| #b101)\n (c0_1 (_ bv7 8)))\n";
        assert_eq!(
            parse_command_answer(out).unwrap(),
            Answer::Sat(vec![
                ("start".into(), U256::from(10)),
                ("solution".into(), U256::from(5)),
                ("c0_1".into(), U256::from(7)),
            ])
        );
        let unsat = "unsat\n(error \"line 9: model is not available\")\n";
        assert_eq!(parse_command_answer(unsat).unwrap(), Answer::Unsat);
        assert_eq!(
            parse_command_answer("success\nunknown\n").unwrap(),
            Answer::Unknown
        );
        assert!(parse_command_answer("(error \"bad\")\n").is_err());
        assert!(parse_command_answer("sat\n((x #xzz))").is_err());
    }

    #[test]
    fn the_model_request_names_every_declared_bitvector() {
        let q = "(set-logic QF_BV)\n(set-option :produce-models true)\n(declare-const a (_ BitVec 8))\n(declare-fun b () (_ BitVec 256))\n(declare-fun h ((_ BitVec 8)) (_ BitVec 8))\n(check-sat)\n(exit)\n";
        let vars = declared_bitvectors(q);
        assert_eq!(vars, ["a", "b"]);
        let run = with_model_request(q, &vars);
        assert!(run.starts_with("(set-option :produce-models true)\n(set-logic QF_BV)\n"));
        assert!(
            run.ends_with("(check-sat)\n(get-value (a b))\n(exit)\n"),
            "{run}"
        );
        assert_eq!(run.matches("produce-models").count(), 1);
    }
}

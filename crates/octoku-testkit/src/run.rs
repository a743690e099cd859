//! Running the `octoku` binary as a user does, and reading what it did.

use std::{
    ffi::OsStr,
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    sync::OnceLock,
};

use serde_json::Value;

use crate::{Process, Result};

/// Variables that would point a run at another node, key or state file.
const CALLER_ENV: [&str; 5] = [
    "ETH_RPC_URL",
    "PRIVATE_KEY",
    "ETH_FROM",
    "ETH_PASSWORD",
    "OCTOKU_STATE",
];

/// The `TMPDIR` of every run this test process starts (a test may set its
/// own): one private directory, made on first use and removed when the
/// process exits, by an `atexit` handler, which runs whether the tests
/// passed or failed (the harness ends through `exit` either way). What a
/// command keeps for its user in a new temporary directory, `prove`'s
/// queries, lives as long as the tests that read it, and no longer.
fn runs_tmpdir() -> &'static Path {
    RUNS_TMPDIR.get_or_init(|| {
        let dir = crate::temp_dir("test-runs").keep();
        // SAFETY: registers a plain function with no arguments; it only
        // reads a set OnceLock and removes a directory.
        unsafe { libc::atexit(remove_runs_tmpdir) };
        dir
    })
}

static RUNS_TMPDIR: OnceLock<PathBuf> = OnceLock::new();

extern "C" fn remove_runs_tmpdir() {
    if let Some(dir) = RUNS_TMPDIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `octoku!()` is `Octoku::new(env!("CARGO_BIN_EXE_octoku"))`: the binary
/// of the test crate this expands in, to add arguments to. `octoku!(&[ARGS])`
/// runs it with those arguments and returns its [`Run`].
#[macro_export]
macro_rules! octoku {
    () => {
        $crate::Octoku::new(env!("CARGO_BIN_EXE_octoku"))
    };
    ($args:expr) => {
        $crate::octoku!().args::<&[&str], &&str>($args).run()
    };
}

/// One `octoku` command line to run: a [`Command`] with no stdin, none of
/// the caller's `ETH_*`, `PRIVATE_KEY` or `OCTOKU_STATE` variables, and the
/// test process's own `TMPDIR`.
pub struct Octoku {
    command: Command,
    input: Option<Vec<u8>>,
}

impl Octoku {
    /// The binary at `bin`: a test crate passes `env!("CARGO_BIN_EXE_octoku")`
    /// (or writes [`octoku!()`](crate::octoku!)).
    pub fn new(bin: impl AsRef<OsStr>) -> Octoku {
        let mut command = Command::new(bin);
        for name in CALLER_ENV {
            command.env_remove(name);
        }
        command.stdin(Stdio::null());
        command.env("TMPDIR", runs_tmpdir());
        Octoku {
            command,
            input: None,
        }
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Octoku {
        self.command.arg(arg);
        self
    }

    /// Appends arguments.
    pub fn args<I, S>(mut self, args: I) -> Octoku
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }
    /// `--rpc-url URL --private-key KEY`, the key dev account `n`'s
    /// ([`crate::DEV_KEYS`]): a command that signs on a test node.
    pub fn as_account(self, url: &str, n: usize) -> Octoku {
        self.args(["--rpc-url", url, "--private-key", crate::DEV_KEYS[n]])
    }

    /// Runs in `dir` (where `deployments/` and relative paths resolve).
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Octoku {
        self.command.current_dir(dir);
        self
    }

    /// Sets an environment variable for this run.
    pub fn env(mut self, name: &str, value: impl AsRef<OsStr>) -> Octoku {
        self.command.env(name, value);
        self
    }

    /// Writes `text` to its standard input (then closes it).
    pub fn stdin(mut self, text: &str) -> Octoku {
        self.input = Some(text.as_bytes().to_vec());
        self
    }

    /// Connects its standard output to `out` (a file, a closed pipe).
    pub fn stdout(mut self, out: impl Into<Stdio>) -> Octoku {
        self.command.stdout(out);
        self
    }

    /// The command itself, for anything this builder does not cover.
    pub fn command(&mut self) -> &mut Command {
        &mut self.command
    }

    /// Runs it to the end and returns what it did.
    pub fn run(mut self) -> Run {
        let output = match self.input.take() {
            None => self.command.output().expect("octoku runs"),
            Some(text) => {
                let mut child = self
                    .command
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("octoku runs");
                let mut stdin = child.stdin.take().expect("piped stdin");
                // A run that exits before reading all of it closes the pipe:
                // that is its answer, not the test's failure.
                let _ = stdin.write_all(&text);
                drop(stdin);
                child.wait_with_output().expect("octoku finishes")
            }
        };
        Run::from(output)
    }

    /// Starts it in the background with stdout and stderr piped: a guard
    /// that kills it (and anything it started) on drop.
    pub fn spawn(mut self) -> Result<Process> {
        self.command.stdout(Stdio::piped()).stderr(Stdio::piped());
        Process::spawn("octoku", &mut self.command)
    }
}

/// What one run of `octoku` did.
#[derive(Debug, Clone)]
pub struct Run {
    /// The exit code; -1 when a signal ended it.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Asserts exit 0 and returns stdout.
    pub fn ok(&self) -> &str {
        self.code(0)
    }

    /// Asserts exit `code` and returns stdout.
    pub fn code(&self, code: i32) -> &str {
        assert_eq!(
            self.code, code,
            "expected exit {code}\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        &self.stdout
    }

    /// Asserts exit 0 and returns stdout as one JSON document.
    pub fn json(&self) -> Value {
        self.json_with(0)
    }

    /// Asserts exit `code` and returns stdout as one JSON document.
    pub fn json_with(&self, code: i32) -> Value {
        let stdout = self.code(code);
        serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {stdout}"))
    }

    /// Asserts the failure a user should see: exit `code`, no panic, and
    /// exactly one line on stderr, `octoku: ...`, containing `needle`.
    pub fn fails(&self, code: i32, needle: &str) -> &Run {
        self.code(code);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "expected one line on stderr, got: {}",
            self.stderr
        );
        assert!(lines[0].starts_with("octoku: "), "{}", self.stderr);
        assert!(
            lines[0].contains(needle),
            "expected {needle:?} in: {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
}

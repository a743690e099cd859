//! octoku installed anywhere: a copy of the binary, run from a temporary
//! directory with the checkout's solver venv out of reach, works; the
//! binary carries no path of the checkout; solver children end with octoku;
//! malformed solver settings are bad input.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use octoku_testkit::Run;

/// The checkout this test was built in.
fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the checkout exists")
}

/// A temporary home for one test: `bin/octoku` (a copy of the binary),
/// `work/` (the current directory), `home/`, `tmp/`.
struct Place {
    root: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let root = tempfile::Builder::new()
            .prefix("octoku-install-")
            .tempdir()
            .expect("a temporary directory");
        for dir in ["bin", "work", "home", "tmp"] {
            std::fs::create_dir(root.path().join(dir)).unwrap();
        }
        std::fs::copy(env!("CARGO_BIN_EXE_octoku"), root.path().join("bin/octoku")).unwrap();
        Place { root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The copied binary with a clean environment: no solver setting, the
    /// place's own HOME and TMPDIR, the system PATH only.
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(self.path("bin/octoku"));
        c.args(args)
            .current_dir(self.path("work"))
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", self.path("home"))
            .env("TMPDIR", self.path("tmp"));
        c
    }

    fn run(&self, args: &[&str]) -> Run {
        output(&mut self.command(args))
    }

    /// A solver command for `--solver`: bitwuzla of the checkout's venv,
    /// reading one SMT-LIB2 file as a solver binary would.
    fn wrapper(&self) -> String {
        let python = checkout().join(".venv-solver/bin/python");
        let path = self.path("bin/bitwuzla-file");
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\nexec {} -c 'import bitwuzla, sys\np = bitwuzla.Parser(bitwuzla.TermManager(), bitwuzla.Options())\np.parse(sys.argv[1])' \"$@\"\n",
                python.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    }
}

/// The binary holds no path below the checkout (no compile-time path of
/// the sources, the solver venv, the helper script or the build directory).
#[test]
fn the_binary_holds_no_path_of_the_checkout() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_octoku")).unwrap();
    let root = checkout().display().to_string();
    for needle in [root.as_str(), "/target/release/build/", ".venv-solver/bin"] {
        let found = bytes
            .windows(needle.len())
            .filter(|w| *w == needle.as_bytes())
            .count();
        assert_eq!(found, 0, "{needle:?} occurs {found} times in the binary");
    }
}

/// A copy of the binary in a temporary directory, with no solver setting:
/// the commands that need no solver work; those that do say in one line how
/// to get one (exit 3) and write nothing.
#[test]
fn a_copied_binary_works_from_anywhere_without_a_solver() {
    let place = Place::new();
    let address = "0x000000000000000000000000000000000000dEaD";
    let generated = place.run(&["generate", address, "--json"]);
    generated.code(0);
    let board: serde_json::Value = serde_json::from_str(&generated.stdout).unwrap();
    let start = board["start"].as_str().expect("a board").to_string();
    (place.run(&["solve", "--address", address])).code(0);
    (place.run(&["verify", &start, &start])).code(1);
    (place.run(&["puzzle", "--size", "4"])).code(0);
    (place.run(&["gas", "--puzzle", "golf"])).code(0);
    for args in [
        &["prove", "verify", "--puzzle", "golf"][..],
        &["solve", "--sat", "--size", "4", "12.............."],
    ] {
        let out = place.run(args);
        out.code(3);
        let err = out.stderr.as_str();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("octoku setup solver"), "{err}");
        assert!(err.contains("--solver"), "{err}");
    }
    let left: Vec<_> = std::fs::read_dir(place.path("tmp")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(
        std::fs::read_dir(place.path("work"))
            .unwrap()
            .next()
            .is_none()
    );
}

/// `--solver CMD` runs any solver that reads a file: the copied binary
/// proves with it, its queries in a new temporary directory it prints (or
/// in `--out`), never in the checkout.
#[test]
fn a_copied_binary_proves_with_a_solver_command() {
    let place = Place::new();
    let solver = place.wrapper();
    let out = place.run(&[
        "prove",
        "generate",
        "--puzzle",
        "golf",
        "--redraws",
        "0",
        "--solver",
        &solver,
    ]);
    out.code(0);
    let stdout = out.stdout.as_str();
    assert!(stdout.contains("proved for every 256-bit seed") || stdout.contains("proved"));
    let queries = stdout
        .lines()
        .find_map(|l| l.strip_prefix("queries   "))
        .and_then(|l| l.split(" (").next())
        .expect("the report names the queries");
    assert!(
        Path::new(queries).starts_with(place.path("tmp")),
        "{queries}"
    );
    assert!(std::fs::read_dir(queries).unwrap().count() > 1);

    let out = place
        .command(&[
            "solve",
            "--sat",
            "--size",
            "4",
            "12..............",
            "--count",
            "3",
            "--out",
            "q",
        ])
        .env("OCTOKU_SOLVER", &solver)
        .output_retrying();
    out.code(0);
    assert!(out.stdout.as_str().contains("solutions 3"));
    assert_eq!(std::fs::read_dir(place.path("work/q")).unwrap().count(), 4);
}

/// `octoku setup solver` installs the pinned bitwuzla from PyPI into the
/// data directory; a copied binary then proves with no setting at all.
#[test]
fn setup_solver_installs_the_pinned_solver_that_prove_then_uses() {
    let place = Place::new();
    let data = place.path("home/data");
    let setup = place
        .command(&["setup", "solver"])
        .env("XDG_DATA_HOME", &data)
        .output_retrying();
    setup.code(0);
    assert!(data.join("octoku/solver-venv/bin/python").exists());
    let out = place
        .command(&["prove", "generate", "--puzzle", "golf", "--redraws", "0"])
        .env("XDG_DATA_HOME", &data)
        .output_retrying();
    out.code(0);
    assert!(out.stdout.as_str().contains("bitwuzla 0.9.1"), "{:?}", out);
}

/// Ends a child on every path. Not the test kit's `Process`: that one ends
/// the child's whole process group when the child exits, and the test below
/// must see octoku end its solvers itself.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Processes a failing test must not leave behind (the solvers octoku
/// started): killed on drop, those already gone aside.
struct Strays(Vec<u32>);

impl Drop for Strays {
    fn drop(&mut self) {
        for &p in &self.0 {
            if !gone(p) {
                let _ = Command::new("kill")
                    .args(["-KILL", &p.to_string()])
                    .status();
            }
        }
    }
}

/// The children of process `pid`, from /proc.
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so after ')'.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        if after.split_whitespace().nth(1) == Some(pid.to_string().as_str()) {
            found.push(child);
        }
    }
    found
}

/// Whether `pid` is gone (or a zombie nobody has reaped yet).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// SIGTERM or SIGINT to octoku during a proof ends its solver processes
/// too (the pinned solver and a solver command alike).
#[test]
fn solver_processes_end_when_octoku_is_terminated() {
    let place = Place::new();
    let wrapper = place.wrapper();
    let python = checkout().join(".venv-solver/bin/python");
    for (signal, solver) in [("TERM", None), ("INT", Some(wrapper.as_str()))] {
        let mut command = place.command(&["prove", "verify", "--puzzle", "golf"]);
        command
            .env("OCTOKU_SOLVER_PYTHON", &python)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(s) = solver {
            command.args(["--solver", s]);
        }
        // A test runner started as a background job of a script ignores
        // SIGINT, and an ignored signal stays ignored through exec: octoku
        // gets the default dispositions a terminal's command has.
        // SAFETY: signal(2) is async-signal-safe; nothing else runs between
        // fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }
        let guard = Guard(retry_busy(|| command.spawn()));
        let pid = guard.0.id();
        let began = Instant::now();
        let solvers = loop {
            let now = children(pid);
            if !now.is_empty() {
                break Strays(now);
            }
            assert!(
                began.elapsed() < Duration::from_secs(120),
                "no solver started"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        // The wrapper execs python: give both a moment to be the solver.
        std::thread::sleep(Duration::from_millis(300));
        let sent = Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let mut guard = guard;
        let status = guard.0.wait().unwrap();
        assert!(!status.success(), "{signal}: {status}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !solvers.0.iter().all(|&p| gone(p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        for &p in &solvers.0 {
            assert!(gone(p), "SIG{signal}: solver {p} outlived octoku");
        }
        // All gone: their ids may be reused from here on.
        let mut solvers = solvers;
        solvers.0.clear();
    }
}

/// OCTOKU_SOLVER_TIME_LIMIT outside 0.001..=86400 seconds, or not a plain
/// decimal number, is bad input: exit 2, one line, before any work.
#[test]
fn malformed_solver_time_limits_are_bad_input() {
    let place = Place::new();
    let solver = place.wrapper();
    for limit in ["0.0001", "1e-300", "abc", "0", "inf", "-1", "86401"] {
        let out = place
            .command(&["prove", "verify", "--puzzle", "golf", "--solver", &solver])
            .env("OCTOKU_SOLVER_TIME_LIMIT", limit)
            .output_retrying();
        out.code(2);
        let err = out.stderr.as_str();
        assert_eq!(err.lines().count(), 1, "{limit}: {err}");
        assert!(err.contains("0.001 to 86400"), "{limit}: {err}");
    }
}

/// Runs a command to its end. A binary copied a moment ago can still be
/// open for writing in a child another test thread is forking (ETXTBSY,
/// "text file busy", until that child execs): spawning is tried again then.
fn output(command: &mut Command) -> Run {
    retry_busy(|| command.output()).into()
}

/// `spawn` or `output`, tried again while the executable is busy.
fn retry_busy<T>(mut start: impl FnMut() -> std::io::Result<T>) -> T {
    for _ in 0..50 {
        match start() {
            Err(e) if e.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            other => return other.expect("octoku starts"),
        }
    }
    start().expect("octoku starts (the copied binary stayed busy)")
}

/// [`output`] as a method, for commands built in place.
trait OutputRetrying {
    fn output_retrying(&mut self) -> Run;
}

impl OutputRetrying for Command {
    fn output_retrying(&mut self) -> Run {
        output(self)
    }
}

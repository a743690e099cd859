//! Hostile input, table-driven: every subcommand fed what a hostile user or
//! a hostile node would send (endless files, devices, huge arguments,
//! malformed values, nodes that never answer, stream forever or answer with
//! escape sequences and HTML). Each case asserts its exit status, exactly one
//! line of error on stderr, no panic, a wall-clock bound (the child is killed
//! past it) and a memory bound (the child runs under `RLIMIT_AS` = 1 GiB, so
//! an unbounded read dies instead of passing). Then every subcommand's text
//! and JSON output into `/dev/full` and into a closed pipe: exit 6, one line.
//! `docs/limits.md` lists the bounds these cases hold octoku to.

mod fake;

use std::{
    fs::{self, File, OpenOptions},
    io::Read,
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::Stdio,
    thread,
    time::{Duration, Instant},
};

use fake::{Behaviour, FakeNode};
use octoku_testkit::{DEV_KEYS, Process, TempDir, octoku, temp_dir};
use serde_json::Value;

/// The address space each child may use.
const MEMORY: libc::rlim_t = 1 << 30;

/// The longest any case may run (a loaded machine included); most take
/// well under a second.
const WALL: Duration = Duration::from_secs(45);

/// A node that never answers must be given up on within this, for `--timeout 2`.
const TIMEOUT_WALL: Duration = Duration::from_secs(15);

/// Where the child's stdout goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sink {
    /// Read by the test.
    Piped,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose reading end is closed before the child starts: EPIPE.
    ClosedPipe,
}

/// What one run did.
#[derive(Debug)]
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Runs `octoku args` in `dir` with stdin from `stdin` (else none), under
/// the memory limit, killed (with its process group) past `wall`.
fn run(dir: &Path, args: &[String], stdin: Option<&Path>, sink: Sink, wall: Duration) -> Outcome {
    let mut octoku = octoku!().args(args).dir(dir);
    let command = octoku.command();
    if let Some(path) = stdin {
        command.stdin(File::open(path).expect("stdin file"));
    }
    match sink {
        Sink::Piped => command.stdout(Stdio::piped()),
        Sink::Full => command.stdout(
            OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        ),
        Sink::ClosedPipe => {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            command.stdout(writer)
        }
    };
    command.stderr(Stdio::piped());
    // SAFETY: setrlimit(2) is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY,
                rlim_max: MEMORY,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut process = Process::spawn("octoku", command).expect("octoku starts");
    let child = process.child();
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        // The guard kills the child and its group as this panic unwinds.
        assert!(
            started.elapsed() < wall,
            "octoku {args:?} still running after {wall:?}"
        );
        thread::sleep(Duration::from_millis(10));
    };
    let elapsed = started.elapsed();
    Outcome {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed,
    }
}

/// One row of the table.
struct Case {
    /// What it proves.
    name: &'static str,
    args: Vec<String>,
    stdin: Option<PathBuf>,
    /// The exit status.
    code: i32,
    /// On a failure: a piece of its one line; on success: a piece of stdout.
    needle: String,
    /// Wall-clock bound of this case.
    within: Duration,
    /// A usage error, refused by clap before octoku runs: clap's own text
    /// (the problem, its tip, the usage line), documented as such.
    usage: bool,
}

fn case(name: &'static str, args: &[&str], code: i32, needle: &str) -> Case {
    Case {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: None,
        code,
        needle: needle.to_string(),
        within: WALL,
        usage: false,
    }
}

/// A usage error (exit 2): clap's message names `needle`.
fn usage(name: &'static str, args: &[&str], needle: &str) -> Case {
    Case {
        usage: true,
        ..case(name, args, 2, needle)
    }
}

impl Case {
    fn stdin(mut self, path: &Path) -> Case {
        self.stdin = Some(path.to_path_buf());
        self
    }

    fn within(mut self, wall: Duration) -> Case {
        self.within = wall;
        self
    }

    /// Runs the case; the failures it finds, as text (empty: it holds).
    fn check(&self, dir: &Path) -> Option<String> {
        let out = run(
            dir,
            &self.args,
            self.stdin.as_deref(),
            Sink::Piped,
            self.within,
        );
        let mut wrong = Vec::new();
        if out.code != self.code {
            wrong.push(format!("exit {} (expected {})", out.code, self.code));
        }
        if out.code == 101 || out.stderr.contains("panicked") {
            wrong.push("a panic".to_string());
        }
        if self.usage {
            let first = out.stderr.lines().next().unwrap_or_default();
            if !first.starts_with("error: ") || !first.contains(&self.needle) {
                wrong.push(format!("no clap error naming {:?}", self.needle));
            }
        } else if self.code >= 2 {
            let lines: Vec<&str> = out.stderr.lines().collect();
            if lines.len() != 1 || !lines[0].starts_with("octoku: ") {
                wrong.push(format!("{} lines of error", lines.len()));
            }
            if !out.stderr.contains(&self.needle) {
                wrong.push(format!("no {:?} in the error", self.needle));
            }
            if out.stderr.len() > 2_000 || out.stderr.contains('\x1b') {
                wrong.push("an error longer than 2,000 bytes or with escapes".into());
            }
        } else if !out.stdout.contains(&self.needle) {
            wrong.push(format!("no {:?} on stdout", self.needle));
        }
        if out.elapsed > self.within {
            wrong.push(format!("took {:?}", out.elapsed));
        }
        (!wrong.is_empty()).then(|| {
            format!(
                "{}: octoku {:?}: {}\n  stderr: {}\n  stdout: {}",
                self.name,
                self.args,
                wrong.join(", "),
                out.stderr.trim(),
                out.stdout.chars().take(300).collect::<String>()
            )
        })
    }
}

/// Runs every case (all of them, then reports every failure at once).
fn check_all(dir: &Path, cases: &[Case]) {
    let failures: Vec<String> = cases.iter().filter_map(|c| c.check(dir)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Runs octoku and returns its JSON (setup steps, which must succeed).
fn json(dir: &Path, args: &[&str]) -> Value {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let out = run(dir, &args, None, Sink::Piped, WALL);
    assert_eq!(out.code, 0, "octoku {args:?}: {}", out.stderr);
    serde_json::from_str(out.stdout.trim()).expect("one JSON document")
}

/// A 4×4 board with one solution, its solution, and the same in the 9×9.
const BOARD4: &str = "1..4..1..1.....1";
const GRID4: &str = "1234341221434321";
const GRID9: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// An 8×8 start and its solution (the public vector of the CLI tests).
const START8: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION8: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";
const ADDRESS: &str = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/// The files the cases read.
struct Files {
    dir: TempDir,
}

impl Files {
    fn new() -> Files {
        let files = Files {
            dir: temp_dir("hostile"),
        };
        let d = files.path();
        fs::write(d.join("bom.txt"), "\u{feff}1..4\n..1.\n.1..\n...1\n").unwrap();
        fs::write(
            d.join("seed003.txt"),
            "A B C D\nA, , ,D\n , ,A, \n ,A, , \n , , ,A\n",
        )
        .unwrap();
        fs::write(
            d.join("seed003-grid.txt"),
            "A B C D\nA,B,C,D\nC,D,A,B\nB,A,D,C\nD,C,B,A\n",
        )
        .unwrap();
        fs::write(d.join("latin1.txt"), b"1..4\xff..1..1.....1").unwrap();
        fs::write(
            d.join("batch4.txt"),
            format!("# a batch\n{BOARD4}\n\n{}\n", ".".repeat(16)),
        )
        .unwrap();
        fs::write(
            d.join("batch-bad.txt"),
            format!("{BOARD4}\n{BOARD4}\n1..4\n"),
        )
        .unwrap();
        fs::write(
            d.join("escape-header.txt"),
            "A B\u{1b}[2J C D\nA, , ,D\n , ,A, \n ,A, , \n , , ,A\n",
        )
        .unwrap();
        // A sparse file of 1 GiB: nothing on disk, everything to a reader.
        File::create(d.join("sparse.txt"))
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        fs::create_dir_all(d.join("a-directory")).unwrap();
        // A keystore as cast writes them (password "pw").
        octoku_testkit::write_keystore(d, "keystore.json", DEV_KEYS[9], "pw");
        files
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn at(&self, name: &str) -> String {
        self.path().join(name).display().to_string()
    }

    /// `@FILE` for a file of the fixtures.
    fn arg(&self, name: &str) -> String {
        format!("@{}", self.at(name))
    }
}

/// Boards, files and standard input: bounded reads, the BOM, the seed003
/// header's size, `""` as START, and malformed boards of every form.
#[test]
fn hostile_boards_are_refused_in_one_line_within_bounds() {
    let f = Files::new();
    let big_argument = "1".repeat(70_000);
    #[rustfmt::skip]
    let cases = vec![
        case("@/dev/zero is read no further than the board bound", &["solve", "--size", "9", "@/dev/zero"], 2, "larger than 64 KiB"),
        case("standard input from /dev/zero likewise", &["solve", "--size", "9", "-"], 2, "standard input: larger than 64 KiB").stdin(Path::new("/dev/zero")),
        case("verify's START from /dev/zero", &["verify", "--size", "9", "@/dev/zero", GRID9], 2, "START: cannot read /dev/zero: larger than 64 KiB"),
        case("verify's SOLUTION from standard input /dev/zero", &["verify", "--size", "4", "", "-"], 2, "SOLUTION: standard input: larger than 64 KiB").stdin(Path::new("/dev/zero")),
        case("a sparse 1 GiB file is refused from its size", &["solve", "--size", "9", &f.arg("sparse.txt")], 2, "larger than 64 KiB"),
        case("a 70,000-byte board argument", &["solve", "--size", "9", &big_argument], 2, "70000 bytes; expected a board of at most 64 KiB"),
        case("a missing board file", &["solve", "--size", "4", "@/nonexistent/board.txt"], 2, "cannot read /nonexistent/board.txt"),
        case("a directory as a board file", &["solve", "--size", "4", &f.arg("a-directory")], 2, "is a directory"),
        case("a board file that is not UTF-8", &["solve", "--size", "4", &f.arg("latin1.txt")], 2, "not UTF-8"),
        case("standard input for both boards", &["verify", "--size", "4", "-", "-"], 2, "standard input (-) can hold one board"),
        case("a byte-order mark before a board is skipped", &["solve", "--size", "4", &f.arg("bom.txt")], 0, "2 1 | 4 3"),
        case("... in verify's START too", &["verify", "--size", "4", &f.arg("bom.txt"), GRID4], 0, "valid"),
        case("a header-form file says its size (no --size)", &["solve", &f.arg("seed003.txt")], 0, "A,B,C,D"),
        case("... for verify's SOLUTION too", &["verify", "", &f.arg("seed003-grid.txt")], 0, "valid"),
        case("... and from standard input", &["solve", "-"], 0, "A,B,C,D").stdin(&f.path().join("seed003.txt")),
        case("\"\" as START with --size 9 --puzzle golf", &["verify", "--size", "9", "--puzzle", "golf", "", GRID9], 0, "valid"),
        case("\"\" as START with --size 9 --puzzle reference", &["verify", "--size", "9", "--puzzle", "reference", "", GRID9], 0, "valid"),
        case("--box with sides past any board names no saturated number", &["solve", "--box", "4294967296x4294967296", BOARD4], 2, "--box 4294967296x4294967296: expected rows x columns"),
        case("a --symbols error is labelled --symbols", &["solve", "--size", "4", "--symbols", "ab cd ef gh", "................"], 2, "octoku: --symbols: "),
        case("--sat on a board with several solutions and no --count", &["solve", "--sat", "--size", "4", "................"], 0, "|"),
        case("... with --json", &["solve", "--sat", "--size", "4", "................", "--json"], 0, "\"solution\""),
        case("a terminal escape in a board", &["solve", "--size", "4", "\u{1b}[2J.............."], 2, "START"),
        case("a terminal escape in a seed003 header is no symbol", &["solve", &f.arg("escape-header.txt")], 2, "a control character (a terminal escape) is no symbol"),
        case("a right-to-left override in a board", &["solve", "--size", "4", "1..4..1..1.....\u{202e}"], 2, "START"),
        case("a board of the wrong length", &["solve", "--size", "4", "1..4"], 2, "expected 16"),
        case("solve --batch: /dev/zero is read no further than the batch bound", &["solve", "--size", "9", "--batch", "/dev/zero"], 2, "--batch /dev/zero: cannot read it: larger than 64 MiB"),
        case("solve --batch: standard input from /dev/zero likewise", &["solve", "--size", "9", "--batch", "-"], 2, "--batch -: standard input: larger than 64 MiB").stdin(Path::new("/dev/zero")),
        case("solve --batch: a sparse 1 GiB file is refused from its size", &["solve", "--size", "9", "--batch", &f.at("sparse.txt")], 2, "larger than 64 MiB"),
        case("solve --batch: a directory", &["solve", "--size", "4", "--batch", &f.at("a-directory")], 2, "is a directory"),
        case("solve --batch: a file that is not UTF-8", &["solve", "--size", "4", "--batch", &f.at("latin1.txt")], 2, "not UTF-8"),
        case("solve --batch: a bad line is named by its number", &["solve", "--size", "4", "--batch", &f.at("batch-bad.txt")], 2, "line 3: line form: 4 symbols; expected 16"),
        case("solve --batch: a terminal escape in a line", &["solve", "--size", "4", "--batch", "-"], 2, "line 1: ").stdin(&f.path().join("escape-header.txt")),
        case("solve --batch: no --size", &["solve", "--batch", &f.at("batch4.txt")], 2, "expected --size N"),
        case("solve --batch: --format grid would print several lines an answer", &["solve", "--size", "4", "--batch", &f.at("batch4.txt"), "--format", "grid"], 2, "expected --format line or no --format"),
        case("solve --batch: answers a file", &["solve", "--size", "4", "--batch", &f.at("batch4.txt"), "--count", "2"], 0, "multiple"),
        usage("solve --batch: with a START too", &["solve", "--size", "4", "--batch", &f.at("batch4.txt"), BOARD4], "--batch"),
        case("solve --bench without --batch", &["solve", "--size", "4", BOARD4, "--bench", "1"], 2, "expected --batch FILE with it"),
        usage("solve --bench 0", &["solve", "--size", "4", "--batch", &f.at("batch4.txt"), "--bench", "0"], "--bench"),
        usage("solve --bench NaN", &["solve", "--size", "4", "--batch", &f.at("batch4.txt"), "--bench", "NaN"], "--bench"),
        case("a --size with no box shape", &["solve", "--size", "7", BOARD4], 2, "--size 7"),
        case("a --size far out of range", &["puzzle", "--size", "18446744073709551615"], 2, "--size 18446744073709551615"),
        case("a box of zero rows", &["puzzle", "--box", "0x4"], 2, "--box 0x4"),
        case("--box and --size that disagree", &["puzzle", "--size", "9", "--box", "2x4"], 2, "--box 2x4 makes a 8x8 board but --size is 9"),
        case("repeated --symbols", &["puzzle", "--size", "4", "--symbols", "AABC"], 2, "--symbols"),
        case("--givens out of reach", &["puzzle", "--size", "4", "--givens", "100000"], 2, "givens"),
        case("an 8x8 board with a hex digit too many", &["solve", &format!("0x{}", "1".repeat(65))], 2, "START"),
        case("an 8x8 grid with a cell missing", &["verify", &"1".repeat(63), SOLUTION8], 2, "START: 63 digits 0-8"),
        case("an 8x8 grid with a digit 9", &["verify", START8, &format!("9{}", &SOLUTION8[3..])], 2, "SOLUTION"),
        case("--symbols without --size", &["solve", START8, "--symbols", "ABCDEFGH"], 2, "--symbols applies to boards of any size"),
        case("a 9x9 grid of the wrong length for the validator", &["verify", "--size", "9", "--puzzle", "golf", "", "123"], 2, "SOLUTION"),
        case("--size 8 with the 9x9 validator", &["verify", "--size", "8", "--puzzle", "golf", "", GRID9], 2, "expected --size 9"),
    ];
    check_all(f.path(), &cases);
}

/// Addresses, counts, flags and values of every subcommand.
#[test]
fn hostile_flags_of_every_subcommand_are_refused_in_one_line() {
    let f = Files::new();
    let state = f.at("chain.json");
    #[rustfmt::skip]
    let cases = vec![
        case("generate: not an address", &["generate", "not-an-address"], 2, "address"),
        case("generate: a short address", &["generate", "0x1234"], 2, "address"),
        case("generate: a wrong checksum", &["generate", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046"], 2, "checksum"),
        case("solve: a bad --address", &["solve", "--address", "0xzz"], 2, "address"),
        usage("solve: --count 0", &["solve", START8, "--count", "0"], "--count"),
        case("solve: --address with --size", &["solve", "--size", "4", "--address", ADDRESS], 2, "--address"),
        usage("audit: --threads 0", &["audit", "--threads", "0"], "--threads"),
        usage("sample: --threads 1000", &["sample", "--threads", "1000"], "--threads"),
        usage("gas: --profile of an unknown function", &["gas", "--profile", "nothing"], "nothing"),
        case("gas: --profile verify without its boards", &["gas", "--profile", "verify"], 2, "verify"),
        usage("fuzz: an unknown --puzzle", &["fuzz", "--puzzle", "nonsense"], "nonsense"),
        usage("fuzz: --cases past the bound", &["fuzz", "--cases", "1000000000000000"], "--cases"),
        usage("prove: an unknown --puzzle", &["prove", "verify", "--puzzle", "nonsense"], "nonsense"),
        usage("completions: an unknown shell", &["completions", "tcsh"], "tcsh"),
        case("deploy: a malformed key", &["deploy", "--state", &state, "--private-key", "zz"], 2, "private key: expected 32 bytes of hex"),
        case("deploy: a websocket URL", &["deploy", "--rpc-url", "ws://127.0.0.1:1", "--private-key", DEV_KEYS[1]], 4, "websocket"),
        case("deploy: not a URL", &["deploy", "--rpc-url", "http://[::1", "--private-key", DEV_KEYS[1]], 4, "not a URL"),
        usage("deploy: a price below one wei", &["deploy", "--state", &state, "--gas-price", "0.5"], "below one wei"),
        case("deploy: a priority fee above the max fee", &["deploy", "--state", &state, "--gas-price", "1", "--priority-gas-price", "2"], 2, "--priority-gas-price 2 is above"),
        case("deploy: classic9 at --size 8", &["deploy", "--state", &state, "--puzzle", "classic9", "--size", "8"], 2, "classic9"),
        case("board: --from not an address", &["board", "--state", &state, "--from", "me"], 2, "address"),
        case("board: no chain yet", &["board", "--state", &state], 4, "no embedded chain"),
        usage("play: a --gas-limit below 21,000", &["play", "--state", &state, "--gas-limit", "5"], "--gas-limit"),
        case("play: --password without a keystore", &["play", "--state", &state, "--password", "x"], 2, "--password and --password-file unlock a keystore"),
        case("play: a keystore that is not JSON", &["play", "--state", &state, "--keystore", &f.arg("bom.txt")[1..]], 2, "not JSON"),
        case("play: an account name with a path", &["play", "--state", &state, "--account", "../x"], 2, "no path separators"),
        case("submit: a malformed solution", &["submit", "0xnope", "--state", &state], 2, "SOLUTION"),
        usage("leaderboard: --page 0", &["leaderboard", "--state", &state, "--page", "0"], "--page"),
        case("serve: a host that is no IP address", &["serve", "--state", &state, "--host", "example.com"], 2, "--host \"example.com\""),
        usage("serve: a port past 65535", &["serve", "--port", "99999"], "--port"),
        case("serve: --nonce", &["serve", "--state", &state, "--nonce", "1"], 2, "--nonce 1"),
        case("serve: --from alone", &["serve", "--state", &state, "--from", ADDRESS], 2, "--from alone holds no key"),
        case("serve: --confirmations 2 on the embedded chain writes no state", &["serve", "--state", &state, "--port", "0", "--confirmations", "2"], 2, "confirmations would never come"),
        case("deploy: --confirmations 2 on the embedded chain writes no state", &["deploy", "--state", &state, "--confirmations", "2"], 2, "confirmations would never come"),
        case("deploy: --puzzle classic9 --size 8", &["deploy", "--state", &state, "--puzzle", "classic9", "--size", "8"], 2, "expected --size 9 or no --size"),
        case("verify: an 8x8 --puzzle-address with no chain to read it from", &["verify", START8, SOLUTION8, "--puzzle-address", ADDRESS], 4, "no embedded chain"),
    ];
    check_all(f.path(), &cases);
    for made in [state.clone(), format!("{state}.lock")] {
        assert!(
            !Path::new(&made).exists(),
            "a refused command created {made}"
        );
    }
}

/// Keystores, password files, state files and deployment records: bounded,
/// and octoku's own files must be regular files.
#[test]
fn hostile_files_are_refused_before_memory_grows_or_a_lock_is_made() {
    let f = Files::new();
    let keystore = f.at("keystore.json");
    let sparse = f.at("sparse.txt");
    let dir = f.at("a-directory");
    // A chain with a deployment, a stale temporary file beside it.
    let state = f.at("chain.json");
    json(
        f.path(),
        &["deploy", "--state", &state, "--puzzle", "fair", "--json"],
    );
    let stale = f.path().join(".chain.json.999999.tmp");
    fs::write(&stale, "{half a state").unwrap();
    // A node that knows only its chain id, and a directory whose record of
    // deployments is a device or huge.
    let node = FakeNode::start(Behaviour::ChainIdOnly);
    let devices = f.path().join("devices");
    fs::create_dir_all(devices.join("deployments")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", devices.join("deployments/31337.json")).unwrap();
    let huge = f.path().join("huge");
    fs::create_dir_all(huge.join("deployments")).unwrap();
    File::create(huge.join("deployments/31337.json"))
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    #[rustfmt::skip]
    let cases = vec![
        case("--keystore /dev/zero", &["board", "--state", &state, "--keystore", "/dev/zero"], 2, "keystore /dev/zero: cannot read it: larger than 64 KiB"),
        case("a sparse 1 GiB keystore", &["play", "--state", &state, "--keystore", &sparse], 2, "larger than 64 KiB"),
        case("--password-file /dev/zero", &["play", "--state", &state, "--keystore", &keystore, "--password-file", "/dev/zero"], 2, "--password-file /dev/zero: cannot read it: larger than 64 KiB"),
        case("... for submit too", &["submit", SOLUTION8, "--state", &state, "--keystore", &keystore, "--password-file", "/dev/zero"], 2, "larger than 64 KiB"),
        case("a wrong password from a file", &["board", "--state", &state, "--keystore", &keystore, "--password-file", &f.at("bom.txt")], 2, "wrong password"),
        case("--state /dev/zero (deploy)", &["deploy", "--state", "/dev/zero"], 4, "/dev/zero is not a regular file"),
        case("--state /dev/zero (board)", &["board", "--state", "/dev/zero"], 4, "not a regular file"),
        case("--state /dev/zero (play)", &["play", "--state", "/dev/zero"], 4, "not a regular file"),
        case("--state /dev/zero (submit)", &["submit", SOLUTION8, "--state", "/dev/zero"], 4, "not a regular file"),
        case("--state /dev/zero (leaderboard)", &["leaderboard", "--state", "/dev/zero"], 4, "not a regular file"),
        case("--state /dev/zero (serve)", &["serve", "--port", "0", "--state", "/dev/zero"], 4, "not a regular file"),
        case("--state /dev/zero (verify --puzzle-address)", &["verify", "--size", "9", "--puzzle-address", ADDRESS, "--state", "/dev/zero", "", GRID9], 4, "not a regular file"),
        case("a directory as the state file", &["board", "--state", &dir], 4, "not a regular file"),
        case("a sparse 1 GiB state file", &["board", "--state", &sparse], 4, "larger than 64 MiB"),
        case("a state file that is not JSON", &["board", "--state", &f.at("bom.txt")], 4, "not a valid state file"),
        case("deployments/31337.json is /dev/zero", &["board", ADDRESS, "--rpc-url", &node.url()], 2, "not a regular file"),
        case("deployments/31337.json of 1 GiB", &["leaderboard", "--rpc-url", &node.url()], 2, "larger than 16 MiB"),
        case("the next write removes a killed writer's temporary file", &["deploy", "--state", &state, "--puzzle", "golf"], 0, "arena"),
    ];
    check_all(f.path(), &cases[..15]);
    check_all(&devices, &cases[15..16]);
    check_all(&huge, &cases[16..17]);
    check_all(f.path(), &cases[17..]);
    assert!(
        !Path::new("/dev/zero.lock").exists(),
        "a lock beside /dev/zero"
    );
    assert!(!stale.exists(), "the stale temporary file is still there");
}

/// Nodes that never answer, stream forever, or answer with escapes and HTML.
#[test]
fn hostile_nodes_are_given_up_on_in_time_and_quoted_in_one_clean_line() {
    let f = Files::new();
    let silent = FakeNode::start(Behaviour::Silent);
    let endless = FakeNode::start(Behaviour::EndlessBody);
    let escapes = FakeNode::start(Behaviour::HugeErrorWithEscapes);
    let html = FakeNode::start(Behaviour::Html501);
    let key = DEV_KEYS[1];
    let quick = |name, args: &[&str], needle| case(name, args, 4, needle).within(TIMEOUT_WALL);
    #[rustfmt::skip]
    let cases = vec![
        quick("deploy honours --timeout from the first request", &["deploy", "--rpc-url", &silent.url(), "--private-key", key, "--timeout", "2"], "cannot reach the node"),
        quick("submit likewise", &["submit", SOLUTION8, "--rpc-url", &silent.url(), "--private-key", key, "--timeout", "2"], "cannot reach the node"),
        quick("play likewise", &["play", "--rpc-url", &silent.url(), "--private-key", key, "--timeout", "2"], "cannot reach the node"),
        quick("serve likewise", &["serve", "--port", "0", "--rpc-url", &silent.url(), "--private-key", key, "--timeout", "2"], "cannot reach the node"),
        quick("an endless body (board)", &["board", ADDRESS, "--rpc-url", &endless.url()], "larger than 32 MiB"),
        quick("an endless body (deploy)", &["deploy", "--rpc-url", &endless.url(), "--private-key", key], "larger than 32 MiB"),
        quick("an endless body (leaderboard)", &["leaderboard", "--rpc-url", &endless.url()], "larger than 32 MiB"),
        quick("an endless body (verify --puzzle-address)", &["verify", "--size", "9", "--puzzle-address", ADDRESS, "--rpc-url", &endless.url(), "", GRID9], "larger than 32 MiB"),
        quick("a 100 KB error message with escapes (board)", &["board", ADDRESS, "--rpc-url", &escapes.url()], "bytes in all)"),
        quick("... (deploy)", &["deploy", "--rpc-url", &escapes.url(), "--private-key", key], "bytes in all)"),
        quick("HTTP 501 with HTML is an HTTP error, not unreachable", &["board", ADDRESS, "--rpc-url", &html.url()], "the node refused: HTTP 501 Not Implemented (not a JSON-RPC answer): <html>"),
        quick("... (leaderboard)", &["leaderboard", "--rpc-url", &html.url()], "HTTP 501"),
    ];
    check_all(f.path(), &cases);
    for c in &cases[10..] {
        let out = run(f.path(), &c.args, None, Sink::Piped, TIMEOUT_WALL);
        assert!(!out.stderr.contains("cannot reach"), "{}", out.stderr);
    }
}

/// A contract that is no 9×9 validator at --puzzle-address is the chain's
/// answer (exit 4, as "not an arena"), and `""` as START works with a
/// deployed validator.
#[test]
fn a_puzzle_address_that_is_no_validator_exits_4_and_an_empty_start_is_read() {
    let f = Files::new();
    let state = f.at("chain.json");
    let arena = json(f.path(), &["deploy", "--state", &state, "--json"]);
    let nine = json(
        f.path(),
        &[
            "deploy", "--state", &state, "--puzzle", "classic9", "--json",
        ],
    );
    let text = |v: &Value| v.as_str().unwrap().to_string();
    let (arena, puzzle, validator) = (
        text(&arena["arena"]),
        text(&arena["puzzle_address"]),
        text(&nine["puzzle_address"]),
    );
    #[rustfmt::skip]
    let cases = vec![
        case("an arena", &["verify", "--size", "9", "--puzzle-address", &arena, "--state", &state, "", GRID9], 4, "is not a 9x9 validator"),
        case("an 8x8 puzzle", &["verify", "--size", "9", "--puzzle-address", &puzzle, "--state", &state, "", GRID9], 4, "is not a 9x9 validator"),
        case("no code at the address", &["verify", "--size", "9", "--puzzle-address", ADDRESS, "--state", &state, "", GRID9], 4, "no contract code"),
        case("\"\" as START with --puzzle-address", &["verify", "--size", "9", "--puzzle-address", &validator, "--state", &state, "", GRID9], 0, "valid"),
    ];
    check_all(f.path(), &cases);
}

/// Every subcommand's text and JSON output into `/dev/full` and
/// into a closed pipe is exit 6 and one line, never a panic. (`prove` is
/// left out: a proof takes a minute; its printer is the same `outln!`.)
#[test]
fn every_output_into_a_full_disk_or_a_closed_pipe_is_exit_6_in_one_line() {
    let f = Files::new();
    let state = f.at("chain.json");
    json(
        f.path(),
        &["deploy", "--state", &state, "--puzzle", "fair", "--json"],
    );
    let s = state.as_str();
    let batch = f.at("batch4.txt");
    let mut commands: Vec<(Vec<String>, bool)> = Vec::new();
    let mut add = |args: &[&str], json: bool| {
        commands.push((args.iter().map(|a| a.to_string()).collect(), json));
    };
    for json in [false, true] {
        add(&["generate", ADDRESS], json);
        add(&["verify", START8, SOLUTION8], json);
        add(&["solve", START8, "--count", "2"], json);
        add(&["solve", "--size", "4", BOARD4, "--count", "1000"], json);
        add(&["solve", "--sat", "--size", "4", BOARD4], json);
        add(
            &["solve", "--size", "4", "--batch", &batch, "--count", "2"],
            json,
        );
        add(&["verify", "--size", "4", "", GRID4], json);
        add(&["verify", "--size", "4", BOARD4, "4321123434122143"], json);
        add(
            &["verify", "--size", "9", "--puzzle", "golf", "", GRID9],
            json,
        );
        add(&["puzzle", "--size", "4", "--seed", "1"], json);
        add(&["audit"], json);
        add(&["sample", "--addresses", "100"], json);
        add(&["gas", "--runs", "2"], json);
        add(&["gas", "--profile", "generate", ADDRESS], json);
        add(&["fuzz", "--cases", "100"], json);
        add(&["board", "--state", s], json);
        add(&["leaderboard", "--state", s], json);
        add(
            &[
                "check",
                "--puzzle",
                "golf",
                "--no-prove",
                "--cases",
                "10",
                "--addresses",
                "10",
            ],
            json,
        );
    }
    add(&["completions", "bash"], false);
    add(&["serve", "--port", "0", "--state", s], false);
    let mut failures = Vec::new();
    let mut check = |args: Vec<String>, sink: Sink| {
        let out = run(f.path(), &args, None, sink, WALL);
        let lines: Vec<&str> = out.stderr.lines().collect();
        let one_line =
            lines.len() == 1 && lines[0].starts_with("octoku: cannot write to standard output");
        if out.code != 6 || !one_line || out.stderr.contains("panicked") {
            failures.push(format!(
                "octoku {args:?} into {sink:?}: exit {}, stderr: {}",
                out.code,
                out.stderr.trim()
            ));
        }
    };
    for (mut args, json) in commands {
        if json {
            args.push("--json".into());
        }
        check(args.clone(), Sink::Full);
        check(args, Sink::ClosedPipe);
    }
    // Commands that send: each run its own player (a second solve of one
    // player would revert before printing anything).
    for (i, (sink, as_json)) in [
        (Sink::Full, false),
        (Sink::Full, true),
        (Sink::ClosedPipe, false),
        (Sink::ClosedPipe, true),
    ]
    .into_iter()
    .enumerate()
    {
        let mut play = vec!["play", "--state", s, "--private-key", DEV_KEYS[1 + i]];
        let mut deploy = vec!["deploy", "--state", s, "--puzzle", "fair"];
        if as_json {
            play.push("--json");
            deploy.push("--json");
        }
        let owned = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        check(owned(&play), sink);
        check(owned(&deploy), sink);
        // submit: a player's solution, found first.
        let player = octoku_testkit::DEV_ACCOUNTS[5 + i];
        let board = json(f.path(), &["board", player, "--state", s, "--json"]);
        let solved = json(
            f.path(),
            &[
                "solve",
                board["start"].as_str().unwrap(),
                "--puzzle",
                "fair",
                "--json",
            ],
        );
        let solution = solved["solution"].as_str().unwrap().to_string();
        let mut submit = owned(&[
            "submit",
            &solution,
            "--state",
            s,
            "--private-key",
            DEV_KEYS[5 + i],
        ]);
        if as_json {
            submit.push("--json".into());
        }
        check(submit, sink);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `#` among `--symbols` is a symbol, not a comment: a batch line that
/// starts with it is a puzzle and is answered (a comment skipped there
/// would shift every answer after it).
#[test]
fn a_batch_line_starting_with_a_hash_symbol_is_a_puzzle_not_a_comment() {
    let dir = temp_dir("batch-hash-symbol");
    let file = dir.path().join("hash.txt");
    let batch = |file: &Path, symbols: &[&str]| {
        let out = octoku!()
            .args(["solve", "--size", "4", "--batch", file.to_str().unwrap()])
            .args(symbols)
            .run();
        out.ok().to_owned()
    };
    // Without `#` among the symbols, a `#` line is a comment.
    std::fs::write(&file, "# four by four\n1..4..1..1.....1\n").unwrap();
    let plain = batch(&file, &[]);
    assert_eq!(plain.lines().count(), 1, "{plain}");
    // The same board with 1, 2, 3, 4 written #, a, b, c, twice: both lines
    // are puzzles, answered alike.
    std::fs::write(&file, "#..c..#..#.....#\n#..c..#..#.....#\n").unwrap();
    let hashed = batch(&file, &["--symbols", "#abc"]);
    let back: String = hashed
        .chars()
        .map(|c| match c {
            '#' => '1',
            'a' => '2',
            'b' => '3',
            'c' => '4',
            other => other,
        })
        .collect();
    assert_eq!(back, format!("{plain}{plain}"), "{hashed}");
}

/// Creation code that deploys `runtime` as it is (PUSH2 len, PUSH1 14,
/// PUSH1 0, CODECOPY, PUSH2 len, PUSH1 0, RETURN, then the runtime).
fn deploying(runtime: &[u8]) -> String {
    let [hi, lo] = u16::try_from(runtime.len())
        .expect("a short runtime")
        .to_be_bytes();
    let mut code = vec![
        0x61, hi, lo, 0x60, 0x0e, 0x60, 0x00, 0x39, 0x61, hi, lo, 0x60, 0x00, 0xf3,
    ];
    code.extend_from_slice(runtime);
    format!("0x{}", octoku_core::hex::encode(&code))
}

/// `octoku check` on an author's contract that halts (INVALID, a jump to
/// a non-JUMPDEST, a stack underflow), runs out of gas, is past EIP-170's
/// 24,576 bytes or returns 2 MB: the card, its failing row and the reason
/// in words, exit 1 (a failing check), the data cut; never exit 3 with
/// revm's words, a refusal to deploy, or megabytes of output.
#[test]
fn check_on_a_contract_that_halts_loops_or_is_oversized_gives_the_card() {
    let f = Files::new();
    let invalid = deploying(&[0xfe]);
    let bad_jump = deploying(&[0x60, 0x00, 0x56]);
    let underflow = deploying(&[0x01]);
    let spin = deploying(&[0x5b, 0x60, 0x00, 0x56]);
    let oversized = deploying(&[0; 30_000]);
    // RETURN(0, 0x200000): 2 MiB of zeros from every call.
    let huge = deploying(&[0x62, 0x20, 0x00, 0x00, 0x60, 0x00, 0xf3]);
    let check = |code: &str| {
        vec!["check", "--no-prove", "--bytecode", code.trim()]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let card = |name: &'static str, code: &str, needle: &str| Case {
        args: check(code),
        ..case(name, &[], 1, needle)
    };
    #[rustfmt::skip]
    let cases = vec![
        card("INVALID: verify's row names it", &invalid, "bytecode  halts: hits INVALID (0xfe)"),
        card("INVALID: so does shape's", &invalid, "fail    shape     name() fails: halts: hits INVALID (0xfe)"),
        card("INVALID: a halted call has no gas figure", &invalid, "verify valid halts (reference "),
        card("a bad jump", &bad_jump, "bytecode  halts: jumps to a byte that is not a JUMPDEST"),
        card("a stack underflow", &underflow, "bytecode  halts: pops an empty stack (stack underflow)"),
        card("an endless loop runs out of gas", &spin, "bytecode  halts: runs out of gas (all 30,000,000 the call was given)"),
        card("oversized: deployed and measured, the size row fails", &oversized, "fail    size      30000 bytes of runtime code (limit 24576;"),
        card("2 MB of return data: cut, its length said", &huge, "returns 0x00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000… (2097152 bytes) (no bool)"),
    ];
    check_all(f.path(), &cases);

    // The card stays small whatever the contract returns, in both forms.
    for args in [check(&huge), [check(&huge), vec!["--json".into()]].concat()] {
        let out = run(f.path(), &args, None, Sink::Piped, WALL);
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(
            out.stdout.len() < 8_000,
            "{} bytes of card",
            out.stdout.len()
        );
    }
    // JSON: the halt is the target's answer, its gas null.
    let mut args = check(&invalid);
    args.push("--json".into());
    let out = run(f.path(), &args, None, Sink::Piped, WALL);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let card: Value = serde_json::from_str(&out.stdout).expect("the card as JSON");
    let verify = card["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "verify")
        .expect("a verify row");
    assert_eq!(verify["status"], "fail");
    assert_eq!(
        verify["counterexample"]["target"],
        "halts: hits INVALID (0xfe)"
    );
    assert_eq!(verify["counterexample"]["reference"], "false");
    assert_eq!(card["gas"]["verify_valid"][0], Value::Null);
    assert!(card["gas"]["verify_valid"][1].as_u64().unwrap() > 0);
}

/// Whether process `pid` has ended (gone, or a zombie no one has reaped).
fn ended(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "PID (COMM) STATE ...": the state follows the last ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

/// The compiler of `--contract` and the SMT solver die with octoku: a fake
/// one writes its pid and sleeps a minute (`exec`, so the pid is the
/// sleeper's); octoku is killed with SIGKILL while it waits, and the child
/// must end within 5 s (`PR_SET_PDEATHSIG`), long before its minute.
#[test]
fn the_compiler_and_the_solver_die_when_octoku_is_killed() {
    use std::os::unix::fs::PermissionsExt;
    let f = Files::new();
    let pid_file = f.path().join("child.pid");
    let fake = f.path().join("fake-tool");
    fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho $$ > {}.tmp\nmv {0}.tmp {0}\nexec sleep 60\n",
            pid_file.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(f.path().join("Puzzle.sol"), "contract Puzzle {}\n").unwrap();
    let fake = fake.display().to_string();
    let runs: [(&str, Vec<&str>); 2] = [
        (
            "the compiler (check --contract)",
            vec![
                "check",
                "--no-prove",
                "--contract",
                "Puzzle.sol",
                "--solc",
                &fake,
            ],
        ),
        (
            "the SMT solver (solve --sat)",
            vec!["solve", "--sat", "--size", "4", BOARD4, "--solver", &fake],
        ),
    ];
    for (what, args) in runs {
        let _ = fs::remove_file(&pid_file);
        let mut octoku = octoku!().args(&args).dir(f.path());
        let command = octoku.command();
        command.stdout(Stdio::null()).stderr(Stdio::null());
        // The guard kills octoku's whole group when dropped: only after the
        // child's end is asserted below.
        let mut process = Process::spawn("octoku", command).expect("octoku starts");
        let started = Instant::now();
        let pid = loop {
            if let Some(pid) = fs::read_to_string(&pid_file)
                .ok()
                .and_then(|s| s.trim().parse::<i32>().ok())
            {
                break pid;
            }
            assert!(started.elapsed() < WALL, "{what}: octoku never started it");
            thread::sleep(Duration::from_millis(20));
        };
        assert!(!ended(pid), "{what}: the fake tool is running");
        process.child().kill().expect("SIGKILL to octoku alone");
        process.child().wait().expect("octoku reaped");
        let killed = Instant::now();
        while !ended(pid) {
            assert!(
                killed.elapsed() < Duration::from_secs(5),
                "{what}: pid {pid} still running 5 s after octoku was killed"
            );
            thread::sleep(Duration::from_millis(20));
        }
        eprintln!("{what}: ended {:?} after octoku", killed.elapsed());
    }
}

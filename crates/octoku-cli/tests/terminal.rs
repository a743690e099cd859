//! What a user sees in a terminal: color where it belongs and nowhere else
//! (a pipe, NO_COLOR, --color never), a wrong solution marked on its grid,
//! the help's groups and headings as cast's, `--json`/`-j` before the
//! command, `-r`, and the long `--version`.

use std::{
    collections::BTreeMap,
    io::Read,
    os::fd::{FromRawFd, OwnedFd},
    process::{Command, Stdio},
};

use octoku_testkit::{Run, octoku};

const ESC: char = '\u{1b}';
const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

/// `octoku ARGS` with its stdout on a pseudo-terminal (as in a shell), with
/// `env` set and the color variables of the caller removed; what it wrote.
fn on_a_tty(args: &[&str], env: &[(&str, &str)]) -> String {
    on_a_tty_with(args, env, false)
}

/// [`on_a_tty`], with stderr on the terminal too when `stderr` is set
/// (else it is discarded).
fn on_a_tty_with(args: &[&str], env: &[(&str, &str)], stderr: bool) -> String {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two new descriptors, owned below.
    let made = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(made, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned here only.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut command = Command::new(env!("CARGO_BIN_EXE_octoku"));
    for name in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"] {
        command.env_remove(name);
    }
    command.env("TERM", "xterm-256color");
    let err = if stderr {
        Stdio::from(slave.try_clone().expect("dup"))
    } else {
        Stdio::null()
    };
    command
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(err);
    let mut child = command.spawn().expect("octoku runs");
    // The child holds the only other copy of the slave: once it exits,
    // reading the master ends (EIO on Linux).
    drop(command);
    let mut out = Vec::new();
    let mut master = std::fs::File::from(master);
    let mut buf = [0u8; 4096];
    loop {
        match master.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    child.wait().expect("octoku ends");
    String::from_utf8_lossy(&out).replace("\r\n", "\n")
}

/// Without color variables from the caller.
fn plain(args: &[&str]) -> Run {
    octoku!()
        .env("TERM", "xterm-256color")
        .args(args)
        .command_env_removed(&["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"])
        .run()
}

trait RemoveEnv {
    fn command_env_removed(self, names: &[&str]) -> Self;
}

impl RemoveEnv for octoku_testkit::Octoku {
    fn command_env_removed(mut self, names: &[&str]) -> Self {
        for name in names {
            self.command().env_remove(name);
        }
        self
    }
}

/// On a terminal the verdict and the grid are colored; NO_COLOR and
/// --color never turn it off there; into a pipe there is none unless
/// --color always asks. The wrong cells are bracketed in every case.
#[test]
fn color_on_a_terminal_only_unless_no_color_or_color_never_or_always() {
    let wrong = ["verify", "0x123", "0x456"];
    let tty = on_a_tty(&wrong, &[]);
    assert!(tty.contains(ESC), "a terminal gets color: {tty:?}");
    assert!(
        tty.contains("\u{1b}[1m\u{1b}[31m[.]"),
        "a wrong cell is red and bracketed: {tty:?}"
    );
    for (args, env) in [
        (&[&wrong[..], &["--color", "never"]].concat(), &[][..]),
        (&wrong.to_vec(), &[("NO_COLOR", "1")][..]),
        (&[&["--color=never"][..], &wrong[..]].concat(), &[][..]),
    ] {
        let out = on_a_tty(args, env);
        assert!(!out.contains(ESC), "{args:?} {env:?}: {out:?}");
        assert!(out.contains("[.]"), "marks show without color: {out:?}");
    }
    let piped = plain(&wrong);
    piped.code(1);
    assert!(!piped.stdout.contains(ESC), "{:?}", piped.stdout);
    let forced = plain(&[&wrong[..], &["--color", "always"]].concat());
    assert!(forced.stdout.contains(ESC), "{:?}", forced.stdout);
    // Even the JSON of a colored run holds no escape codes.
    let json = plain(&["verify", START, SOLUTION, "--json", "--color", "always"]);
    assert!(!json.stdout.contains(ESC), "{:?}", json.stdout);
    // The help follows --color too (clap's styles).
    assert!(on_a_tty(&["--help"], &[]).contains(ESC));
    assert!(!on_a_tty(&["--help", "--color", "never"], &[]).contains(ESC));
}

/// A wrong solution is one grid with its wrong cells marked and a line
/// counting the problems, not a line per problem: `verify 0x123 0x456`
/// (61 empty cells, 3 changed givens) prints 12 grid lines and a summary.
#[test]
fn a_wrong_solution_is_marked_on_its_grid_and_summarised() {
    let out = plain(&["verify", "0x123", "0x456"]);
    out.code(1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines.len() <= 20, "{}", out.stdout);
    assert_eq!(lines.iter().filter(|l| l.contains("[.]")).count(), 8);
    assert!(
        lines.iter().any(|l| l.ends_with("[4][5][6]")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("problems 3 changed givens, 61 empty or bad cells"),
        "{}",
        out.stdout
    );
    // A valid solution's lines are unmarked: no brackets.
    let ok = plain(&["verify", START, SOLUTION]);
    ok.code(0);
    assert!(
        ok.stdout.starts_with("valid    the contract accepts"),
        "{}",
        ok.stdout
    );
    // A repeat is named in words under the grid.
    let swapped = format!("{}{}{}", &SOLUTION[..2], &SOLUTION[3..4], &SOLUTION[2..3]);
    let swapped = format!("{swapped}{}", &SOLUTION[4..]);
    let out = plain(&["verify", "0x0", &swapped]);
    out.code(1);
    assert!(
        out.stdout.contains("  - column 1 repeats "),
        "{}",
        out.stdout
    );
}

/// The option lines of `--help` by heading: heading → the flags under it.
fn sections(help: &str) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut heading = String::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            heading = line.trim_end_matches(':').to_string();
        } else if let Some(flag) = line
            .trim_start()
            .split([' ', ','])
            .find(|w| w.starts_with("--"))
            && line.starts_with("  ")
            && line.trim_start().starts_with('-')
        {
            map.entry(heading.clone())
                .or_default()
                .push(flag.to_string());
        }
    }
    map
}

fn heading_of(sections: &BTreeMap<String, Vec<String>>, flag: &str) -> String {
    let found: Vec<&String> = sections
        .iter()
        .filter(|(_, flags)| flags.iter().any(|f| f == flag))
        .map(|(h, _)| h)
        .collect();
    assert_eq!(found.len(), 1, "{flag} under one heading: {sections:?}");
    found[0].clone()
}

/// The headings say what is under them: deploy's --json is a display
/// option and --artifact, --bytecode, --contract, --solc are "Your
/// contract", none of them transaction options; play's --json is not a
/// signer flag; the transaction and signer flags stay where cast has them.
#[test]
fn help_headings_match_their_flags() {
    for help in ["-h", "--help"] {
        let deploy = sections(&octoku!(&["deploy", help]).stdout);
        assert_eq!(heading_of(&deploy, "--json"), "Display options");
        for flag in ["--artifact", "--bytecode", "--contract", "--solc"] {
            assert_eq!(heading_of(&deploy, flag), "Your contract", "{flag}");
        }
        assert_eq!(
            heading_of(&deploy, "--gas-limit"),
            "Transaction options (as in cast)"
        );
        assert_eq!(heading_of(&deploy, "--private-key"), "Signer (as in cast)");
        assert_eq!(heading_of(&deploy, "--unlocked"), "Signer (as in cast)");
        assert_eq!(heading_of(&deploy, "--rpc-url"), "Options");
        let play = sections(&octoku!(&["play", help]).stdout);
        assert_eq!(heading_of(&play, "--json"), "Display options");
        assert_eq!(
            heading_of(&play, "--value"),
            "Transaction options (as in cast)"
        );
        for (command, flag) in [
            ("board", "--json"),
            ("leaderboard", "--json"),
            ("verify", "--json"),
        ] {
            let s = sections(&octoku!(&[command, help]).stdout);
            assert_eq!(heading_of(&s, flag), "Display options", "{command}");
        }
    }
    let deploy = octoku!(&["deploy", "-h"]).stdout;
    assert!(deploy.contains("-r, --rpc-url <URL>"), "{deploy}");
    assert!(deploy.contains("-j, --json"), "{deploy}");
}

/// `octoku --help` lists the commands in four groups, in working order,
/// every command once; each command's --help ends with examples.
#[test]
fn commands_are_grouped_in_order_with_examples() {
    let help = octoku!(&["--help"]).stdout;
    let groups = [
        ("Boards", vec!["generate", "puzzle", "verify", "solve"]),
        (
            "On chain",
            vec![
                "deploy",
                "board",
                "play",
                "submit",
                "leaderboard",
                "serve",
                "site",
            ],
        ),
        (
            "Authors",
            vec!["check", "prove", "golf", "fuzz", "gas", "audit", "sample"],
        ),
        ("Tools", vec!["setup", "completions", "help"]),
    ];
    let mut listed = Vec::new();
    for (group, names) in &groups {
        let block: Vec<&str> = help
            .split(&format!("\n{group}:\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("a {group} group: {help}"))
            .lines()
            .take_while(|l| !l.is_empty())
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(&block, names, "{group}");
        listed.extend(block);
    }
    assert_eq!(listed.len(), 21);
    for &name in listed.iter().filter(|&&n| n != "help") {
        let long = octoku!(&[name, "--help"]).stdout;
        let examples = long
            .split("\nExamples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{name} --help has examples: {long}"));
        assert!(
            examples
                .lines()
                .next()
                .unwrap()
                .trim()
                .starts_with(&format!("octoku {name}")),
            "{name}: {examples}"
        );
        assert!(
            !octoku!(&[name, "-h"]).stdout.contains("Examples:"),
            "{name} -h stays short"
        );
    }
}

/// `--json` and `-j` before the command are the command's own --json (the
/// same document), also with the flag on both sides; a command without
/// JSON output refuses it (exit 2).
#[test]
fn json_is_accepted_before_the_command() {
    let address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    let after = octoku!(&["generate", address, "--json"]).json();
    for args in [
        vec!["--json", "generate", address],
        vec!["-j", "generate", address],
        vec!["generate", address, "-j"],
        vec!["-j", "generate", address, "--json"],
        vec!["-j", "-v", "generate", "--", address],
    ] {
        assert_eq!(octoku!(&args[..]).json(), after, "{args:?}");
    }
    let v = octoku!(&["-j", "verify", START, SOLUTION]).json();
    assert_eq!(v["valid"], true);
    let refused = octoku!(&["--json", "completions", "bash"]);
    refused.code(2);
    assert!(
        refused.stderr.contains("no JSON output"),
        "{}",
        refused.stderr
    );
}

/// `--version` and `-V` say the version, the commit (from git here), the
/// build profile, the solc and revm versions and the linked SMT solver.
#[test]
fn version_is_the_long_form() {
    for flag in ["--version", "-V"] {
        let out = octoku!(&[flag]);
        out.code(0);
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert_eq!(lines[0], format!("octoku {}", env!("CARGO_PKG_VERSION")));
        let commit = lines[1].strip_prefix("commit   ").expect("a commit line");
        assert!(
            commit == "unknown"
                || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
            "{commit}"
        );
        assert!(
            lines[2] == "profile  release" || lines[2] == "profile  debug",
            "{}",
            lines[2]
        );
        assert!(lines[3].starts_with("solc     0.8."), "{}", lines[3]);
        assert!(lines[4].starts_with("revm     "), "{}", lines[4]);
        let solver = if cfg!(feature = "bitwuzla") {
            "solver   bitwuzla 0.9.1 (linked)"
        } else {
            "solver   none linked (--solver CMD, or `octoku setup solver`)"
        };
        assert_eq!(lines[5], solver);
    }
}

/// A step that takes a while shows a spinner naming its phase on a
/// terminal's stderr; with --json, or with stderr not a terminal, nothing
/// but the answer is written.
#[test]
fn spinners_name_the_phase_on_a_terminal_only() {
    let check = ["check", "--puzzle", "golf", "--no-prove"];
    let tty = on_a_tty_with(&check, &[], true);
    assert!(tty.contains("check golf: "), "a spinner: {tty:?}");
    assert!(tty.contains("all checks hold"), "{tty:?}");
    let json = on_a_tty_with(&[&check[..], &["--json"]].concat(), &[], true);
    assert!(
        !json.contains("check golf: "),
        "silent under --json: {json:?}"
    );
    let piped = plain(&check);
    piped.code(0);
    assert!(
        piped.stderr.is_empty(),
        "nothing on a piped stderr: {:?}",
        piped.stderr
    );
}

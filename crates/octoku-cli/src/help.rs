//! The help as a user reads it, shaped as cast's: the commands grouped
//! (boards, on chain, authors, tools) in a working order, examples in each
//! command's long help (`--help`, not `-h`), `--json` under "Display
//! options" with `-j`, `-r` for `--rpc-url`, and `--version` in its long
//! form. The clap definitions stay in the command files; this module only
//! arranges what they declare.

use std::fmt::Write as _;

use clap::Command;

/// The groups of `octoku --help`, in order, each with its commands in order.
pub const GROUPS: &[(&str, &[&str])] = &[
    ("Boards", &["generate", "puzzle", "verify", "solve"]),
    (
        "On chain",
        &[
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
        &["check", "prove", "golf", "fuzz", "gas", "audit", "sample"],
    ),
    ("Tools", &["setup", "completions", "help"]),
];

/// Examples in each command's `--help`.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "generate",
        "octoku generate 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045\n\
         octoku generate 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045 --puzzle fair --json",
    ),
    (
        "puzzle",
        "octoku puzzle --size 9 --seed 7\n\
         octoku puzzle --size 9 --seed 7 --format line",
    ),
    (
        "verify",
        "octoku verify 0x0000000000003000007001000000000000000040500000060000000000020008 \\\n    \
         0x7235861418463257457361828621457323681745541728366784532131527468\n\
         octoku -j verify 0x123 0x456",
    ),
    (
        "solve",
        "octoku solve --address 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045\n\
         octoku solve --size 9 \"$(octoku puzzle --size 9 --seed 7 --format line)\"",
    ),
    (
        "deploy",
        "octoku deploy --puzzle fair                      # the embedded chain\n\
         octoku deploy -r http://127.0.0.1:8545 --private-key $KEY",
    ),
    (
        "board",
        "octoku board --from 0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\
         octoku board -r http://127.0.0.1:8545 --from $ADDRESS -j",
    ),
    (
        "play",
        "octoku play                                      # the embedded chain\n\
         octoku play -r http://127.0.0.1:8545 --account me",
    ),
    (
        "submit",
        "octoku submit 0x7235861418463257457361828621457323681745541728366784532131527468",
    ),
    (
        "leaderboard",
        "octoku leaderboard\n\
         octoku leaderboard -r http://127.0.0.1:8545 --arena $ARENA -j",
    ),
    ("serve", "octoku serve\noctoku serve --port 8080"),
    ("site", "octoku site --out public/"),
    (
        "check",
        "octoku check --artifact out/MyPuzzle.sol/MyPuzzle.json\n\
         octoku check --contract src/MyPuzzle.sol --generate own",
    ),
    (
        "prove",
        "octoku prove verify --puzzle golf\n\
         octoku prove generate --puzzle golf --all",
    ),
    (
        "fuzz",
        "octoku fuzz --cases 100000\n\
         octoku fuzz --artifact out/MyPuzzle.sol/MyPuzzle.json --generate own",
    ),
    (
        "gas",
        "octoku gas\n\
         octoku gas --profile generate 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045 --puzzle golf",
    ),
    (
        "golf",
        "octoku golf check --puzzle golf\n\
         octoku golf check --artifact out/MyVerify.sol/MyVerify.json --kind verify8\n\
         octoku golf submit --curta-golf 0x5FC8d32690cc91D4c39d9d3abcBD16989F875707 --course 1 --puzzle golf -r http://127.0.0.1:8545 --private-key $KEY",
    ),
    ("audit", "octoku audit\noctoku audit --threads 2 -j"),
    ("sample", "octoku sample --addresses 100000 --puzzle fair"),
    ("setup", "octoku setup solver"),
    (
        "completions",
        "octoku completions bash > ~/.local/share/bash-completion/completions/octoku\n\
         octoku completions zsh > ~/.zfunc/_octoku",
    ),
];

/// `octoku --version`: the version, the commit, the build profile, the
/// solc and revm the contracts were compiled and are run with, and the SMT
/// solver linked in (if any).
pub fn long_version() -> String {
    format!(
        "{}\ncommit   {}\nprofile  {}\nsolc     {}\nrevm     {}\nsolver   {}",
        env!("CARGO_PKG_VERSION"),
        env!("OCTOKU_COMMIT"),
        env!("OCTOKU_PROFILE"),
        solc_version().unwrap_or_else(|| "unknown".into()),
        env!("OCTOKU_REVM_VERSION"),
        linked_solver(),
    )
}

/// The SMT solver in the binary, or where prove finds one instead.
fn linked_solver() -> String {
    #[cfg(feature = "bitwuzla")]
    {
        format!(
            "bitwuzla {} (linked)",
            octoku_prove::solver::linked::version()
        )
    }
    #[cfg(not(feature = "bitwuzla"))]
    {
        "none linked (--solver CMD, or `octoku setup solver`)".into()
    }
}

/// The solc version in the embedded contracts' metadata.
fn solc_version() -> Option<String> {
    let metadata: serde_json::Value = serde_json::from_str(octoku_evm::artifacts::METADATA).ok()?;
    metadata["compiler"]["version"].as_str().map(str::to_owned)
}

/// `command` as the user sees it: groups, order, examples, headings, short flags.
pub fn shape(command: Command) -> Command {
    let version: &'static str = Box::leak(long_version().into_boxed_str());
    // -V says the same as --version, as cast's does.
    let mut command = command.version(version).long_version(version);
    let mut order = 0;
    for (_, names) in GROUPS {
        for name in *names {
            order += 1;
            if command.find_subcommand(name).is_some() {
                command = command.mut_subcommand(*name, |c| c.display_order(order));
            }
        }
    }
    for (name, examples) in EXAMPLES {
        if command.find_subcommand(name).is_some() {
            command = command.mut_subcommand(*name, |c| {
                c.after_long_help(format!("Examples:\n{}", indent(examples)))
            });
        }
    }
    let template = top_template(&command);
    command = command.help_template(template);
    arrange(command)
}

/// Every command below `command` (itself included): `-j` and "Display
/// options" for `--json`, `-r` for `--rpc-url`.
fn arrange(mut command: Command) -> Command {
    let ids: Vec<(String, Option<String>)> = command
        .get_arguments()
        .map(|a| {
            (
                a.get_id().to_string(),
                a.get_help_heading().map(str::to_owned),
            )
        })
        .collect();
    let shared = shared_ids();
    for (id, heading) in ids {
        match id.as_str() {
            "artifact" | "bytecode" | "contract" | "solc" | "constructor_args" => {
                command = command.mut_arg(id.as_str(), |a| a.help_heading("Your contract"));
            }
            // A flattened group's heading leaks onto the flags declared
            // after it (clap's next_help_heading): those go back to Options.
            _ if heading.is_some() && !shared.contains(&id) => {
                command = command.mut_arg(id.as_str(), |a| a.help_heading(None));
            }
            _ => {}
        }
        match id.as_str() {
            "json" => {
                command = command.mut_arg("json", |a| {
                    a.short('j')
                        .help_heading("Display options")
                        .help("Print JSON instead of text (also `octoku --json COMMAND`)")
                });
            }
            "rpc_url" => command = command.mut_arg("rpc_url", |a| a.short('r')),
            "color" | "verbose" => {
                command = command.mut_arg(id.as_str(), |a| a.help_heading("Display options"));
            }
            _ => {}
        }
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, arrange);
    }
    command
}

/// The flags of the shared groups that bring their own heading (signer,
/// transaction), and `--value`, a transaction option.
fn shared_ids() -> Vec<String> {
    use clap::Args as _;
    let group = |c: Command| {
        c.get_arguments()
            .map(|a| a.get_id().to_string())
            .collect::<Vec<_>>()
    };
    let mut ids = group(crate::opts::wallet::SignerArgs::augment_args(Command::new(
        "signer",
    )));
    ids.extend(group(crate::opts::wallet::TxArgs::augment_args(
        Command::new("tx"),
    )));
    ids.push("value".into());
    ids
}

/// The top-level help: usage, then the commands by group, then the options.
fn top_template(command: &Command) -> String {
    let styles = command.get_styles();
    let (header, literal) = (*styles.get_header(), *styles.get_literal());
    let width = command
        .get_subcommands()
        .map(|c| c.get_name().len())
        .chain(std::iter::once("help".len()))
        .max()
        .unwrap_or(0);
    let mut text = String::from("{before-help}{about-with-newline}\n{usage-heading} {usage}\n");
    for (group, names) in GROUPS {
        let _ = write!(text, "\n{header}{group}:{header:#}\n");
        for name in *names {
            let about = match command.find_subcommand(name) {
                Some(c) => c.get_about().map(|a| a.to_string()).unwrap_or_default(),
                None if *name == "help" => {
                    "Print this message or the help of the given subcommand(s)".into()
                }
                None => continue,
            };
            let pad = " ".repeat(width - name.len());
            let _ = writeln!(text, "  {literal}{name}{literal:#}{pad}  {about}");
        }
    }
    let _ = write!(
        text,
        "\n{header}Options:{header:#}\n{{options}}{{after-help}}"
    );
    text
}

/// Each line indented by two spaces.
fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `--color WHEN` (or `--color=WHEN`) as given on the command line, read
/// before parsing so that clap's own help and errors honour it too; the
/// last one wins, a bad value is left to clap.
pub fn color_flag(argv: &[std::ffi::OsString]) -> crate::style::ColorWhen {
    use clap::ValueEnum as _;
    let mut when = crate::style::ColorWhen::Auto;
    let mut args = argv.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        let value = match arg.strip_prefix("--color") {
            Some("") => args.next().map(|v| v.into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_owned),
            None => None,
        };
        if let Some(v) = value.and_then(|v| crate::style::ColorWhen::from_str(&v, true).ok()) {
            when = v;
        }
    }
    when
}

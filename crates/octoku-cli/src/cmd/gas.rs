//! `octoku gas`: gas of every implementation, or a profile of one call.

use std::process::ExitCode;

use octoku_evm::{
    Puzzle,
    gas::{self, Target},
};

use crate::opts::target::OwnArgs;
use crate::{error::CliError, input, output::print_json};

/// Arguments of `octoku gas`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cases per input class.
    #[arg(long, default_value_t = gas::SNAPSHOT_RUNS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    runs: usize,
    /// Profile one call instead: `generate <ADDRESS>`, `verify <START> <SOLUTION>`
    /// or (9×9) `isValidSolution <GRID>`.
    #[arg(long, value_name = "FUNCTION", value_parser = ["generate", "verify", "isValidSolution"])]
    profile: Option<String>,
    /// Arguments of the profiled call.
    #[arg(requires = "profile")]
    args: Vec<String>,
    /// Implementation to profile.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Puzzle::Reference)]
    puzzle: Puzzle,
    /// Board size of the profiled call: 8 (the 8×8 puzzles) or 9 (the
    /// classic 9×9 validators, contracts/classic9/).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(8..=9))]
    size: u8,
    /// Also write the profile as a flame graph (SVG) to FILE: the call at
    /// the root, its source lines, their opcodes, widths in gas (as `forge
    /// test --flamegraph`).
    #[arg(long, value_name = "FILE", requires = "profile")]
    flamegraph: Option<std::path::PathBuf>,
    /// Rows to show per profile table.
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    target: OwnArgs,
}

/// Prints the gas report or a profile.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if let Some(function) = args.profile.as_deref() {
        return profile(function, &args);
    }
    if args.target.given() {
        return target_gas(&args);
    }
    if args.runs == 0 {
        return Err(CliError::Input(
            "--runs 0: expected at least 1 case per input class".into(),
        ));
    }
    let report = gas::report(args.runs, gas::SNAPSHOT_SEED)?;
    if args.json {
        print_json(&report)?;
    } else {
        crate::outln!(
            "execution gas of the call ({} cases per class, seed {:#x})\n",
            report.runs,
            gas::SNAPSHOT_SEED
        )?;
        crate::out::write_text(&report.table())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--profile FUNCTION ARGS...` on a built-in or the author's contract.
fn profile(function: &str, args: &Args) -> Result<ExitCode, CliError> {
    let nine = args.size == 9 || function == "isValidSolution";
    let own = args.target.code()?;
    if nine && own.is_none() && args.puzzle.classic9_artifact().is_none() {
        return Err(CliError::Input(format!(
            "--puzzle {}: there is no 9x9 validator of it; expected reference or golf",
            args.puzzle
        )));
    }
    let grid = |what: &str, text: &str| {
        octoku_core::classic9::parse_grid(what, text).map_err(CliError::input)
    };
    let call = match (function, args.args.as_slice()) {
        ("isValidSolution", [g]) => Target::Classic9IsValid(grid("GRID", g)?),
        ("isValidSolution", _) => return Err(CliError::Input("--profile isValidSolution takes one GRID; expected `octoku gas --profile isValidSolution <GRID>`".into())),
        ("verify", [start, solution]) if nine => Target::Classic9Verify(grid("START", start)?, grid("SOLUTION", solution)?),
        ("generate", _) if nine => return Err(CliError::Input("--size 9: the 9x9 validators have no generate; expected --profile verify or isValidSolution".into())),
        ("generate", [address]) => Target::Generate(input::address(address)?),
        ("verify", [start, solution]) => Target::Verify(input::board("START", start)?, input::board("SOLUTION", solution)?),
        ("generate", _) => return Err(CliError::Input("--profile generate takes one ADDRESS; expected `octoku gas --profile generate <ADDRESS>`".into())),
        _ => return Err(CliError::Input("--profile verify takes START and SOLUTION; expected `octoku gas --profile verify <START> <SOLUTION>`".into())),
    };
    let target = match own {
        Some(code) => octoku_evm::Target::Code(code),
        None => octoku_evm::Target::Builtin(args.puzzle),
    };
    let profiled = gas::profile_target(&target, function, call)?;
    if let Some(warning) = &profiled.gaps {
        crate::errln!("octoku: warning: {warning}");
    }
    let (label, p) = (&profiled.label, &profiled.profile);
    if let Some(path) = &args.flamegraph {
        let svg = crate::picture::flamegraph(p, &format!("{label} {function}"))?;
        crate::picture::write("--flamegraph", path, &svg)?;
        crate::errln!("flame graph written to {}", path.display());
    }
    if args.json {
        print_json(&profiled)?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!(
        "{label} {function}: {} gas (execution gas of the call{})\n",
        p.gas,
        if p.success { "" } else { ", reverted" }
    )?;
    crate::outln!(
        "{:<14} {:>7} {:>8} {:>6}",
        "opcode",
        "count",
        "gas",
        "share"
    )?;
    for op in p.by_opcode.iter().take(args.top) {
        crate::outln!(
            "{:<14} {:>7} {:>8} {:>5.1}%",
            op.opcode,
            op.count,
            op.gas,
            100.0 * op.gas as f64 / p.gas.max(1) as f64
        )?;
    }
    if p.by_line.is_empty() {
        crate::outln!("\nno source lines: the code carries no source map")?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!("\n{:<34} {:>7} {:>8}  source", "line", "count", "gas")?;
    for line in p.by_line.iter().take(args.top) {
        let text: String = line.source.chars().take(70).collect();
        crate::outln!(
            "{:<34} {:>7} {:>8}  {text}",
            line.location,
            line.count,
            line.gas
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The author's contract beside the reference, row by row.
fn target_gas(args: &Args) -> Result<ExitCode, CliError> {
    if args.size == 9 {
        return Err(CliError::Input(
            "--artifact, --bytecode, --contract and --puzzle-address give the rows beside the reference's; expected no --size 9 with them".into(),
        ));
    }
    let code = args.target.code()?.expect("given");
    let out = gas::target_report(&octoku_evm::Target::Code(code), args.runs)?;
    if args.json {
        print_json(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!(
        "execution gas of the call ({} cases per class, seed {:#x}), {} beside the reference\n",
        out.runs,
        gas::SNAPSHOT_SEED,
        out.target
    )?;
    crate::outln!(
        "{:<9} {:<15} {:>7} {:>7} {:>7} {:>9} {:>7}",
        "function",
        "case",
        "min",
        "median",
        "max",
        "reference",
        "ratio"
    )?;
    for r in &out.rows {
        crate::outln!(
            "{:<9} {:<15} {:>7} {:>7} {:>7} {:>9} {:>7.3}",
            r.function,
            r.case,
            r.min,
            r.median,
            r.max,
            r.reference,
            r.ratio
        )?;
    }
    crate::outln!(
        "\ndeployment {} gas, runtime {} bytes (the reference's {})",
        out.deployment_gas,
        out.runtime_size,
        out.reference_runtime_size
    )?;
    Ok(ExitCode::SUCCESS)
}

//! `octoku gas`: gas of every implementation, or a profile of one call.

use std::process::ExitCode;

use octoku_evm::{
    Machine, Puzzle,
    gas::{self, Profile, Target},
};
use serde::Serialize;

use crate::{error::CliError, input, output::print_json};

/// Arguments of `octoku gas`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cases per input class.
    #[arg(long, default_value_t = gas::SNAPSHOT_RUNS)]
    runs: usize,
    /// Profile one call instead: `generate <ADDRESS>` or `verify <START> <SOLUTION>`.
    #[arg(long, value_name = "FUNCTION", value_parser = ["generate", "verify"])]
    profile: Option<String>,
    /// Arguments of the profiled call.
    #[arg(requires = "profile")]
    args: Vec<String>,
    /// Implementation to profile.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Puzzle::Reference)]
    puzzle: Puzzle,
    /// Rows to show per profile table.
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Prints the gas report or a profile.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut machine = Machine::new()?;
    if let Some(function) = args.profile.as_deref() {
        return profile(&mut machine, function, &args);
    }
    if args.runs == 0 {
        return Err(CliError::Input(
            "--runs 0: expected at least 1 case per input class".into(),
        ));
    }
    let report = gas::report(&mut machine, args.runs, gas::SNAPSHOT_SEED)?;
    if args.json {
        print_json(&report)?;
    } else {
        println!(
            "execution gas of the call ({} cases per class, seed {:#x})\n",
            report.runs,
            gas::SNAPSHOT_SEED
        );
        print!("{}", report.table());
    }
    Ok(ExitCode::SUCCESS)
}

/// `octoku gas --profile --json`.
#[derive(Debug, Serialize)]
struct Profiled<'a> {
    puzzle: Puzzle,
    function: &'a str,
    #[serde(flatten)]
    profile: &'a Profile,
}

fn profile(machine: &mut Machine, function: &str, args: &Args) -> Result<ExitCode, CliError> {
    let target = match (function, args.args.as_slice()) {
        ("generate", [address]) => Target::Generate(input::address(address)?),
        ("verify", [start, solution]) => Target::Verify(input::board("START", start)?, input::board("SOLUTION", solution)?),
        ("generate", _) => return Err(CliError::Input("--profile generate takes one ADDRESS; expected `octoku gas --profile generate <ADDRESS>`".into())),
        _ => return Err(CliError::Input("--profile verify takes START and SOLUTION; expected `octoku gas --profile verify <START> <SOLUTION>`".into())),
    };
    let puzzle = args.puzzle;
    let p = gas::profile(machine, puzzle, target)?;
    if args.json {
        print_json(&Profiled {
            puzzle,
            function,
            profile: &p,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} {function}: {} gas (execution gas of the call{})\n",
        puzzle,
        p.gas,
        if p.success { "" } else { ", reverted" }
    );
    println!(
        "{:<14} {:>7} {:>8} {:>6}",
        "opcode", "count", "gas", "share"
    );
    for op in p.by_opcode.iter().take(args.top) {
        println!(
            "{:<14} {:>7} {:>8} {:>5.1}%",
            op.opcode,
            op.count,
            op.gas,
            100.0 * op.gas as f64 / p.gas.max(1) as f64
        );
    }
    println!("\n{:<34} {:>7} {:>8}  source", "line", "count", "gas");
    for line in p.by_line.iter().take(args.top) {
        let text: String = line.source.chars().take(70).collect();
        println!(
            "{:<34} {:>7} {:>8}  {text}",
            line.location, line.count, line.gas
        );
    }
    Ok(ExitCode::SUCCESS)
}

//! `octoku gas`: gas of every implementation, or a profile of one call.

use std::process::ExitCode;

use octoku_evm::{
    Machine, Puzzle,
    gas::{self, Target},
};
use serde_json::json;

use crate::{error::CliError, input};

/// Arguments of `octoku gas`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cases per input class.
    #[arg(long, default_value_t = gas::SNAPSHOT_RUNS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
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
        let rows: Vec<_> = report
            .rows
            .iter()
            .map(|r| json!({"contract": r.contract, "function": r.function, "case": r.case, "min": r.min, "median": r.median, "max": r.max, "ratio": r.ratio, "runs": report.runs}))
            .collect();
        let deployments: Vec<_> = report
            .deployments
            .iter()
            .map(|d| json!({"contract": d.contract, "deploy_gas": d.gas, "runtime_size": d.runtime_size}))
            .collect();
        crate::outln!(
            "{}",
            json!({"runs": report.runs, "rows": rows, "deployments": deployments})
        )?;
    } else {
        crate::outln!(
            "execution gas of the call ({} cases per class, seed {:#x})\n",
            report.runs,
            gas::SNAPSHOT_SEED
        )?;
        print!("{}", report.table());
    }
    Ok(ExitCode::SUCCESS)
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
        let ops: Vec<_> = p
            .by_opcode
            .iter()
            .map(|(op, n, g)| json!({"opcode": op, "count": n, "gas": g}))
            .collect();
        let lines: Vec<_> = p
            .by_line
            .iter()
            .map(|(l, t, n, g)| json!({"location": l, "source": t, "count": n, "gas": g}))
            .collect();
        crate::outln!(
            "{}",
            json!({"contract": puzzle.label(), "function": function, "gas": p.total, "success": p.success, "by_opcode": ops, "by_line": lines})
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!(
        "{} {function}: {} gas (execution gas of the call{})\n",
        puzzle,
        p.total,
        if p.success { "" } else { ", reverted" }
    )?;
    crate::outln!(
        "{:<14} {:>7} {:>8} {:>6}",
        "opcode",
        "count",
        "gas",
        "share"
    )?;
    for (op, n, g) in p.by_opcode.iter().take(args.top) {
        crate::outln!(
            "{op:<14} {n:>7} {g:>8} {:>5.1}%",
            100.0 * *g as f64 / p.total.max(1) as f64
        )?;
    }
    crate::outln!("\n{:<34} {:>7} {:>8}  source", "line", "count", "gas")?;
    for (loc, text, n, g) in p.by_line.iter().take(args.top) {
        let text: String = text.chars().take(70).collect();
        crate::outln!("{loc:<34} {n:>7} {g:>8}  {text}")?;
    }
    Ok(ExitCode::SUCCESS)
}

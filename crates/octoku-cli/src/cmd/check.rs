//! `octoku check`: the report card of an IPuzzle before it is published
//! ([`octoku_prove::card`]). Exit 0 only when all checks hold.

use std::process::ExitCode;

use octoku_evm::Puzzle;
use octoku_prove::card::{self, Card, CardError, Generate, Status};

use crate::opts::solver::SolverArgs;
use crate::opts::target::{GenerateRule, OwnArgs};
use crate::{error::CliError, output::print_json};

/// Arguments of `octoku check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in implementation to check (instead of your own contract).
    #[arg(long, value_enum, ignore_case = true, required_unless_present_any = ["artifact", "bytecode", "contract", "puzzle_address"])]
    puzzle: Option<Puzzle>,
    #[command(flatten)]
    target: OwnArgs,
    /// What generate must do: give the reference's boards, or (own) its own
    /// boards, the same every time and every one solvable.
    #[arg(long, value_enum, default_value = "reference")]
    generate: GenerateRule,
    /// Structured verify cases compared with the reference.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    cases: u64,
    /// Addresses whose boards are compared (or solved, with --generate own).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    addresses: u64,
    /// Skip the proof of verify (no SMT solver needed; the card says so).
    #[arg(long)]
    no_prove: bool,
    #[command(flatten)]
    solver: SolverArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the card: exit 0 when every check holds, 1 when one fails.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let target = match args.target.code()? {
        Some(code) => octoku_evm::Target::Code(code),
        None => octoku_evm::Target::Builtin(args.puzzle.unwrap_or_default()),
    };
    // The solver is chosen before any work: a bad setting is bad input.
    let solver = (!args.no_prove).then(|| args.solver.solver()).transpose()?;
    let dir = solver
        .as_ref()
        .map(|_| args.solver.query_dir("check"))
        .transpose()?;
    let options = card::Options {
        generate: match args.generate {
            GenerateRule::Reference => Generate::Reference,
            GenerateRule::Own => Generate::Own,
        },
        cases: args.cases,
        addresses: args.addresses,
    };
    let phase = crate::progress::Phase::reported(format!("check {}", target.label()), args.json);
    let card =
        card::report_card(&target, &options, solver.as_ref().zip(dir.as_deref())).map_err(|e| {
            match e {
                CardError::Evm(e) => CliError::from(e),
                proof @ CardError::Proof { .. } => CliError::EvmCause(Box::new(proof)),
            }
        })?;
    phase.done();
    render(&card, args.json)?;
    crate::exit(card.ok)
}

/// The card as JSON or text.
fn render(card: &Card, json: bool) -> Result<(), CliError> {
    let Card {
        target: label,
        ok,
        checks,
        gas,
        ..
    } = card;
    let ok = *ok;
    if json {
        print_json(card)?;
    } else {
        crate::outln!("check     {label}")?;
        for c in checks {
            let style = match c.status {
                Status::Ok => crate::style::OK,
                Status::Fail => crate::style::FAIL,
                Status::Skipped => crate::style::WARN,
            };
            let status = crate::style::paint(style, format!("{:<7}", c.status.as_str()));
            crate::outln!("{status} {:<9} {}", c.name, c.detail)?;
            if let Some(x) = &c.counterexample {
                for (k, v) in [
                    ("address", &x.address),
                    ("start", &x.start),
                    ("solution", &x.solution),
                ] {
                    if let Some(v) = v {
                        crate::outln!("          {k:<9} {v}")?;
                    }
                }
                crate::outln!("          reference {}", x.reference)?;
                crate::outln!("          {label:<9} {}", x.target)?;
                if let Some(why) = &x.reason {
                    crate::outln!("          why       {why}")?;
                }
            }
        }
        // A call that halted has no figure: all its gas is spent.
        let g = |gas: Option<u64>| gas.map_or("halts".to_string(), |g| g.to_string());
        crate::outln!(
            "gas       verify valid {} (reference {}), verify invalid {} ({}), generate {} ({})",
            g(gas.verify_valid[0]),
            g(gas.verify_valid[1]),
            g(gas.verify_invalid[0]),
            g(gas.verify_invalid[1]),
            g(gas.generate[0]),
            g(gas.generate[1])
        )?;
        crate::outln!(
            "{}",
            if ok && checks.iter().any(|c| c.status == Status::Skipped) {
                "all checks hold (one skipped)"
            } else if ok {
                "all checks hold"
            } else {
                "some checks fail (above)"
            }
        )?;
    }
    Ok(())
}

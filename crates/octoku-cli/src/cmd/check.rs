//! `octoku check`: the report card of an IPuzzle before it is published.
//! Shape (name, generate, verify answer), purity, verify equal to the
//! reference (structured cases, then the proof), generate equal to the
//! reference (or, with `--generate own`, deterministic and solvable), gas
//! beside the reference's, and runtime size. Exit 0 only when all hold.

use std::process::ExitCode;

use octoku_core::rng::SplitMix64;
use octoku_core::{Address, Board};
use octoku_evm::cases::{self, VerifyClass};
use octoku_evm::target::impure_opcodes;
use octoku_evm::{Machine, Puzzle, RawOutcome};
use octoku_prove::prove::{Verdict, prove_verify};
use serde::Serialize;

use crate::opts::solver::SolverArgs;
use crate::opts::target::{GenerateRule, OwnArgs};
use crate::{error::CliError, output::print_json};

/// The EIP-170 limit on runtime code.
const MAX_RUNTIME: usize = 24_576;

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

/// One line of the card.
#[derive(Debug, Serialize)]
struct Check {
    name: &'static str,
    /// "ok", "fail" or "skipped".
    status: &'static str,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexample: Option<Counterexample>,
}

/// Inputs where the target and the reference differ, and both answers.
#[derive(Debug, Serialize)]
struct Counterexample {
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    reference: String,
    target: String,
    /// Why the reference answers as it does, in words (verify only).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// `octoku check --json`.
#[derive(Debug, Serialize)]
struct Card {
    target: String,
    ok: bool,
    checks: Vec<Check>,
    runtime_bytes: usize,
    gas: Gas,
}

/// Execution gas of the target and the reference on the same inputs.
#[derive(Debug, Serialize)]
struct Gas {
    verify_valid: [u64; 2],
    verify_invalid: [u64; 2],
    generate: [u64; 2],
}

fn outcome(o: &RawOutcome) -> String {
    format!(
        "{} {}",
        if o.success { "returns" } else { "reverts" },
        o.output
    )
}

/// A verify call's answer as a verdict: `true` or `false` for an ABI bool,
/// else the raw outcome.
fn verdict(o: &RawOutcome) -> String {
    let word = o.output.as_ref();
    match word.split_last() {
        Some((&last, rest))
            if o.success && word.len() == 32 && last <= 1 && rest.iter().all(|&b| b == 0) =>
        {
            (last == 1).to_string()
        }
        _ => format!("{} (no bool)", outcome(o)),
    }
}

/// The explainer's reason for the reference's answer on a verify input.
fn reason(start: Board, solution: Board) -> String {
    match octoku_core::octoku::explain::explain(start, solution).first() {
        Some(problem) => octoku_core::octoku::explain::describe(problem),
        None => "a valid solution".into(),
    }
}

fn check(name: &'static str, ok: bool, detail: String) -> Check {
    Check {
        name,
        status: if ok { "ok" } else { "fail" },
        detail,
        counterexample: None,
    }
}

/// The structured verify inputs: every class of the gas report, mutated
/// grids, Latin squares, generated starts, and a valid grid with one wrong
/// given at each of the 64 cells in turn.
fn verify_inputs(count: u64) -> Vec<(Board, Board)> {
    let mut rng = SplitMix64::new(0x0c7a_5eed);
    let grid = cases::valid_grid(&mut rng);
    let mut inputs: Vec<(Board, Board)> = (0..64)
        .map(|i| {
            let wrong = grid.cells()[i] % 8 + 1;
            (cases::with_index(grid, i, wrong), grid)
        })
        .collect();
    while (inputs.len() as u64) < count.max(64) {
        let pair = match rng.below(8) {
            0..=3 => cases::verify_case(VerifyClass::ALL[rng.below(4) as usize], &mut rng),
            4 => cases::mutated(&mut rng),
            5 => (Board::EMPTY, cases::latin(&mut rng)),
            6 => cases::generated_start(&mut rng),
            _ => (cases::small_digits(&mut rng), cases::small_digits(&mut rng)),
        };
        inputs.push(pair);
    }
    inputs
}

/// Runs the card: exit 0 when every check holds, 1 when one fails.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let target = match args.target.code()? {
        Some(code) => octoku_evm::Target::Code(code),
        None => octoku_evm::Target::Builtin(args.puzzle.unwrap_or_default()),
    };
    let label = target.label();
    // The solver is chosen before any work: a bad setting is bad input.
    let solver = (!args.no_prove).then(|| args.solver.solver()).transpose()?;
    let phase = crate::progress::Phase::reported(format!("check {label}"), args.json);
    phase.set(format!("check {label}: shape and purity"));
    let mut evm = Machine::new()?;
    let at = evm.load(&target)?;
    let reference = evm.address_of(Puzzle::Reference);
    let runtime = evm.code_at(at);
    let mut checks = Vec::new();
    let mut rng = SplitMix64::new(0xadd7_e55e);
    let addresses: Vec<Address> = (0..args.addresses)
        .map(|_| cases::address(&mut rng))
        .collect();
    let inputs = verify_inputs(args.cases);

    // Shape: name() is a non-empty string, generate and verify answer.
    let name = evm.name_at(at).map(|c| c.value);
    let probe = addresses[0];
    let generated = evm.generate_at(at, &probe);
    let (start, solution) = inputs[0];
    let verified = evm.verify_at(at, start, solution);
    let shape = match (&name, &generated, &verified) {
        (Ok(n), Ok(_), Ok(_)) if !n.is_empty() => check(
            "shape",
            true,
            format!("name() is {n:?}; generate and verify answer"),
        ),
        (Ok(_), Ok(_), Ok(_)) => check("shape", false, "name() is empty".into()),
        (Err(e), _, _) => check("shape", false, format!("name() fails: {e}")),
        (_, Err(e), _) => check("shape", false, format!("generate({probe}) fails: {e}")),
        (_, _, Err(e)) => check("shape", false, format!("verify fails: {e}")),
    };
    checks.push(shape);

    // Purity: no state, calls, logs or context reads on the sampled calls,
    // and the same answers twice.
    let mut impure = Vec::new();
    let mut same = true;
    for (i, &(start, solution)) in inputs.iter().take(16).enumerate() {
        let call = |evm: &mut Machine| {
            let data = octoku_evm::target::verify_calldata(start, solution);
            evm.profile_raw(at, data)
        };
        let (first, steps) = call(&mut evm)?;
        let (again, _) = call(&mut evm)?;
        same &= first.output == again.output && first.success == again.success;
        impure.extend(impure_opcodes(&steps));
        let address = addresses[i % addresses.len()];
        let data = octoku_evm::target::generate_calldata(&address);
        let (first, steps) = evm.profile_raw(at, data.clone())?;
        let (again, _) = evm.profile_raw(at, data)?;
        same &= first.output == again.output && first.success == again.success;
        impure.extend(impure_opcodes(&steps));
    }
    impure.sort_unstable();
    impure.dedup();
    checks.push(if impure.is_empty() && same {
        check(
            "pure",
            true,
            "no storage, calls, logs, block or transaction reads in 32 sampled calls; the same answers twice".into(),
        )
    } else if !impure.is_empty() {
        check("pure", false, format!("runs {}", impure.join(", ")))
    } else {
        check("pure", false, "two identical calls answered differently".into())
    });

    // verify: structured cases, then the proof.
    phase.set(format!(
        "check {label}: verify on {} structured cases",
        inputs.len()
    ));
    let mut differ = None;
    for &(start, solution) in &inputs {
        let ours = evm.verify_raw_at(at, start, solution)?;
        let theirs = evm.verify_raw_at(reference, start, solution)?;
        if ours.success != theirs.success || ours.output != theirs.output {
            differ = Some(Counterexample {
                address: None,
                start: Some(start.to_hex()),
                solution: Some(solution.to_hex()),
                reference: verdict(&theirs),
                target: verdict(&ours),
                reason: Some(reason(start, solution)),
            });
            break;
        }
    }
    checks.push(match differ {
        None => check(
            "verify",
            true,
            format!(
                "equal to the reference on {} structured cases",
                inputs.len()
            ),
        ),
        Some(c) => Check {
            counterexample: Some(c),
            ..check("verify", false, "differs from the reference".into())
        },
    });
    match &solver {
        None => checks.push(Check {
            status: "skipped",
            ..check("proof", false, "--no-prove: verify not proved".into())
        }),
        Some(solver) => {
            phase.set(format!(
                "check {label}: proving verify = the reference's (SMT solver)"
            ));
            let dir = args.solver.query_dir("check")?;
            let report = prove_verify(
                Puzzle::Reference.artifact().runtime,
                &runtime,
                &dir,
                &format!("{label} verify = reference verify"),
                solver,
            )
            .map_err(|e| CliError::Evm(format!("check {label}: the proof: {e}")))?;
            checks.push(match report.verdict {
                Verdict::Proved(v) => check(
                    "proof",
                    true,
                    format!(
                        "verify = the reference's on {} (terms checked against revm on {} inputs; {}, {:.1} s; queries {})",
                        octoku_prove::prove::DOMAIN,
                        v.inputs(),
                        report.figures.solver,
                        report.figures.solve_time.as_secs_f64(),
                        report.figures.query.display()
                    ),
                ),
                Verdict::Counterexample {
                    start,
                    solution,
                    reference,
                    implementation,
                } => Check {
                    counterexample: Some(Counterexample {
                        address: None,
                        start: Some(Board(start).to_hex()),
                        solution: Some(Board(solution).to_hex()),
                        reference: verdict(&reference),
                        target: verdict(&implementation),
                        reason: Some(reason(Board(start), Board(solution))),
                    }),
                    ..check(
                        "proof",
                        false,
                        "refuted: a counterexample, replayed in revm".into(),
                    )
                },
            });
        }
    }

    // generate.
    phase.set(format!(
        "check {label}: generate on {} addresses",
        addresses.len()
    ));
    checks.push(match args.generate {
        GenerateRule::Reference => {
            let mut differ = None;
            for address in &addresses {
                let ours = evm.generate_raw_at(at, address)?;
                let theirs = evm.generate_raw_at(reference, address)?;
                if ours.success != theirs.success || ours.output != theirs.output {
                    differ = Some(Counterexample {
                        address: Some(address.to_checksum(None)),
                        start: None,
                        solution: None,
                        reference: outcome(&theirs),
                        target: outcome(&ours),
                        reason: None,
                    });
                    break;
                }
            }
            match differ {
                None => check(
                    "generate",
                    true,
                    format!("equal to the reference on {} addresses", addresses.len()),
                ),
                Some(c) => Check {
                    counterexample: Some(c),
                    ..check(
                        "generate",
                        false,
                        "differs from the reference (--generate own if that is meant)".into(),
                    )
                },
            }
        }
        GenerateRule::Own => {
            let mut unsolvable = Vec::new();
            let mut failed = None;
            for address in &addresses {
                let first = evm.generate_at(at, address);
                let again = evm.generate_at(at, address);
                match (first, again) {
                    (Ok(a), Ok(b)) if a.value == b.value => {
                        if !matches!(octoku_core::solve::octoku::solve(a.value), Ok(Some(_))) {
                            unsolvable.push((*address, a.value));
                        }
                    }
                    (Ok(a), Ok(b)) => {
                        failed.get_or_insert(format!(
                            "not deterministic: {address} got {} then {}",
                            a.value.to_hex(),
                            b.value.to_hex()
                        ));
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        failed.get_or_insert(format!("generate({address}) fails: {e}"));
                    }
                }
            }
            match (failed, unsolvable.first()) {
                (Some(f), _) => check("generate", false, f),
                (None, None) => check(
                    "generate",
                    true,
                    format!(
                        "deterministic, and all {} sampled boards solvable",
                        addresses.len()
                    ),
                ),
                (None, Some((address, board))) => Check {
                    counterexample: Some(Counterexample {
                        address: Some(address.to_checksum(None)),
                        start: Some(board.to_hex()),
                        solution: None,
                        reference: "solvable boards".into(),
                        target: "a board with no solution".into(),
                        reason: octoku_core::octoku::explain::contradiction(*board),
                    }),
                    ..check(
                        "generate",
                        false,
                        format!(
                            "{} of {} sampled boards have no solution",
                            unsolvable.len(),
                            addresses.len()
                        ),
                    )
                },
            }
        }
    });

    checks.push(check(
        "size",
        !runtime.is_empty() && runtime.len() <= MAX_RUNTIME,
        format!(
            "{} bytes of runtime code (limit {MAX_RUNTIME}; the reference's {})",
            runtime.len(),
            Puzzle::Reference.artifact().runtime.len()
        ),
    ));

    // Gas beside the reference's: a valid solution, the given wrong in the
    // last cell read, and generate of the probe address.
    let mut rng = SplitMix64::new(3);
    let (valid_start, valid) = cases::verify_case(VerifyClass::Valid, &mut rng);
    let (late_start, late) = cases::verify_case(VerifyClass::InvalidLate, &mut rng);
    let gas_of = |evm: &mut Machine, to| -> Result<[u64; 3], CliError> {
        Ok([
            evm.verify_raw_at(to, valid_start, valid)?.gas,
            evm.verify_raw_at(to, late_start, late)?.gas,
            evm.generate_raw_at(to, &probe)?.gas,
        ])
    };
    let (ours, theirs) = (gas_of(&mut evm, at)?, gas_of(&mut evm, reference)?);
    let gas = Gas {
        verify_valid: [ours[0], theirs[0]],
        verify_invalid: [ours[1], theirs[1]],
        generate: [ours[2], theirs[2]],
    };

    phase.done();
    // A check the user skipped (--no-prove) is shown, not failed.
    let ok = checks.iter().all(|c| c.status != "fail");
    if args.json {
        print_json(&Card {
            target: label,
            ok,
            checks,
            runtime_bytes: runtime.len(),
            gas,
        })?;
    } else {
        crate::outln!("check     {label}")?;
        for c in &checks {
            let status = match c.status {
                "ok" => crate::style::paint(crate::style::OK, format!("{:<7}", c.status)),
                "fail" => crate::style::paint(crate::style::FAIL, format!("{:<7}", c.status)),
                other => crate::style::paint(crate::style::WARN, format!("{other:<7}")),
            };
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
        crate::outln!(
            "gas       verify valid {} (reference {}), verify invalid {} ({}), generate {} ({})",
            gas.verify_valid[0],
            gas.verify_valid[1],
            gas.verify_invalid[0],
            gas.verify_invalid[1],
            gas.generate[0],
            gas.generate[1]
        )?;
        crate::outln!(
            "{}",
            if ok && checks.iter().any(|c| c.status == "skipped") {
                "all checks hold (one skipped)"
            } else if ok {
                "all checks hold"
            } else {
                "some checks fail (above)"
            }
        )?;
    }
    crate::exit(ok)
}

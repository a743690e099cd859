//! The report card of an IPuzzle before it is published (`octoku check`):
//! shape (name, generate, verify answer), purity, verify equal to the
//! reference (structured cases, then the proof), generate equal to the
//! reference (or, with [`Generate::Own`], deterministic and solvable), gas
//! beside the reference's, and runtime size. The card holds when no check
//! fails ([`Card::ok`]).
//!
//! ```
//! use octoku_evm::{Puzzle, Target};
//! use octoku_prove::card::{Generate, Options, Status, report_card};
//!
//! let options = Options { generate: Generate::Reference, cases: 64, addresses: 8 };
//! // No SMT solver: the proof is shown as skipped, not failed.
//! let card = report_card(&Target::Builtin(Puzzle::Golf), &options, None).unwrap();
//! assert!(card.ok);
//! assert_eq!(card.checks.iter().filter(|c| c.status == Status::Skipped).count(), 1);
//! ```

use std::path::Path;

use octoku_core::rng::SplitMix64;
use octoku_core::{Address, Board};
use octoku_evm::cases::{self, VerifyClass};
use octoku_evm::target::impure_opcodes;
use octoku_evm::{EvmError, Machine, Puzzle, RawOutcome, Target};
use serde::Serialize;

use crate::prove::{ProveError, Verdict, prove_verify};
use crate::solver::Solver;

/// The EIP-170 limit on runtime code.
pub const MAX_RUNTIME: usize = 24_576;

/// What generate must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generate {
    /// The reference's board for every address.
    #[default]
    Reference,
    /// Its own boards: the same every time, and every one solvable.
    Own,
}

/// How much the card samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// What generate must do.
    pub generate: Generate,
    /// Structured verify cases compared with the reference (64 at least are run).
    pub cases: u64,
    /// Addresses whose boards are compared (or solved, with [`Generate::Own`]); at least 1.
    pub addresses: u64,
}

/// Why the card could not be made (a failing check is not an error).
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The EVM failed.
    #[error(transparent)]
    Evm(#[from] EvmError),
    /// The proof could not be run (no answer from the solver, a query not written).
    #[error("check {label}: the proof")]
    Proof {
        /// The target's label.
        label: String,
        /// What went wrong.
        #[source]
        source: Box<ProveError>,
    },
}

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It holds.
    Ok,
    /// It fails.
    Fail,
    /// Not run (the proof without a solver).
    Skipped,
}

impl Status {
    /// `ok`, `fail` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Fail => "fail",
            Status::Skipped => "skipped",
        }
    }
}

/// One line of the card.
#[derive(Debug, Serialize)]
pub struct Check {
    /// `shape`, `pure`, `verify`, `proof`, `generate` or `size`.
    pub name: &'static str,
    /// How it came out.
    pub status: Status,
    /// One line saying what was checked and found.
    pub detail: String,
    /// Inputs where the target and the reference differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
}

/// Inputs where the target and the reference differ, and both answers.
#[derive(Debug, Serialize)]
pub struct Counterexample {
    /// The address (checksummed) whose board differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The start, as `0x` and 64 hex digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The solution, as `0x` and 64 hex digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// What the reference answers.
    pub reference: String,
    /// What the target answers.
    pub target: String,
    /// Why the reference answers as it does, in words: the explainer's
    /// first problem for verify, the contradiction for an unsolvable board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The whole card (`octoku check --json`).
#[derive(Debug, Serialize)]
pub struct Card {
    /// The target's label.
    pub target: String,
    /// Whether no check fails (a skipped check is shown, not failed).
    pub ok: bool,
    /// The checks in order.
    pub checks: Vec<Check>,
    /// Bytes of runtime code.
    pub runtime_bytes: usize,
    /// Gas beside the reference's.
    pub gas: Gas,
}

/// Execution gas of the target and the reference on the same inputs
/// (`[target, reference]`); `None` (JSON `null`) where the target halted
/// (an exceptional halt spends all the gas the call was given).
#[derive(Debug, Serialize)]
pub struct Gas {
    /// verify of a valid solution.
    pub verify_valid: [Option<u64>; 2],
    /// verify of a solution whose wrong given is in the last cell read.
    pub verify_invalid: [Option<u64>; 2],
    /// generate of the probe address.
    pub generate: [Option<u64>; 2],
}

/// What one call of the target did: returned or reverted, or halted.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ran {
    /// It returned or reverted with this data.
    Answered(RawOutcome),
    /// An exceptional halt (INVALID, a bad jump, a stack underflow, out of
    /// gas): revm's reason.
    Halted(octoku_evm::HaltReason),
}

impl Ran {
    /// Success and data alike (gas aside).
    fn same(&self, other: &Ran) -> bool {
        match (self, other) {
            (Ran::Answered(a), Ran::Answered(b)) => a.success == b.success && a.output == b.output,
            (a, b) => a == b,
        }
    }

    fn gas(&self) -> Option<u64> {
        match self {
            Ran::Answered(o) => Some(o.gas),
            Ran::Halted(_) => None,
        }
    }
}

/// Runs `call` on the target: a halt is an answer of the target's (its
/// row fails with the reason), any other failure the EVM's.
fn ran(outcome: Result<RawOutcome, EvmError>) -> Result<Ran, CardError> {
    match outcome {
        Ok(o) => Ok(Ran::Answered(o)),
        Err(EvmError::Halted(reason)) => Ok(Ran::Halted(reason)),
        Err(e) => Err(e.into()),
    }
}

/// revm's halt reason as the card says it (an uncommon one by its name).
pub fn halt_words(reason: &octoku_evm::HaltReason) -> String {
    use octoku_evm::HaltReason as H;
    let words = match reason {
        H::OutOfGas(_) => "runs out of gas (all 30,000,000 the call was given)".to_string(),
        H::InvalidFEOpcode => "hits INVALID (0xfe)".into(),
        H::OpcodeNotFound | H::NotActivated => "runs an undefined opcode".into(),
        H::InvalidJump => "jumps to a byte that is not a JUMPDEST".into(),
        H::StackUnderflow => "pops an empty stack (stack underflow)".into(),
        H::StackOverflow => "pushes past 1,024 stack items (stack overflow)".into(),
        H::OutOfOffset => "reads return data past its end".into(),
        other => format!("{other:?}"),
    };
    format!("halts: {words}")
}

/// At most [`octoku_evm::DATA_SHOWN`] bytes of `data` and its
/// length when longer (a contract may return megabytes).
fn data_text(data: &[u8]) -> String {
    let shown = octoku_evm::DATA_SHOWN;
    match data.get(..shown) {
        Some(head) if data.len() > shown => format!(
            "{}… ({} bytes)",
            octoku_core::hex::encode_prefixed(head),
            data.len()
        ),
        _ => octoku_core::hex::encode_prefixed(data),
    }
}

fn outcome(o: &Ran) -> String {
    match o {
        Ran::Answered(o) => format!(
            "{} {}",
            if o.success { "returns" } else { "reverts" },
            data_text(&o.output)
        ),
        Ran::Halted(reason) => halt_words(reason),
    }
}

/// A verify call's answer as a verdict: `true` or `false` for an ABI bool,
/// else the raw outcome.
fn verdict(o: &Ran) -> String {
    let Ran::Answered(answer) = o else {
        return outcome(o);
    };
    let word = answer.output.as_ref();
    match word.split_last() {
        Some((&last, rest))
            if answer.success && word.len() == 32 && last <= 1 && rest.iter().all(|&b| b == 0) =>
        {
            (last == 1).to_string()
        }
        _ => format!("{} (no bool)", outcome(o)),
    }
}

/// A failed call of the target as the card words it.
fn failure(e: &EvmError) -> String {
    match e {
        EvmError::Halted(reason) => halt_words(reason),
        e => e.to_string(),
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
        status: if ok { Status::Ok } else { Status::Fail },
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

/// Makes the card of `target`. `proof` is the SMT solver and the directory
/// its queries are written to; `None` skips the proof (the card says so).
pub fn report_card(
    target: &Target,
    options: &Options,
    proof: Option<(&Solver, &Path)>,
) -> Result<Card, CardError> {
    let label = target.label();
    let mut evm = Machine::new()?;
    // An oversized contract is measured, and its size row fails.
    evm.allow_oversized_code();
    let at = evm.load(target)?;
    let reference = evm.address_of(Puzzle::Reference);
    let runtime = evm.code_at(at);
    let mut rng = SplitMix64::new(0xadd7_e55e);
    let addresses: Vec<Address> = (0..options.addresses.max(1))
        .map(|_| cases::address(&mut rng))
        .collect();
    let inputs = verify_inputs(options.cases);
    let probe = addresses[0];

    crate::progress::phase("shape and purity");
    let mut checks = vec![shape(&mut evm, at, probe, inputs[0])];
    checks.push(purity(&mut evm, at, &inputs, &addresses)?);
    crate::progress::phase(&format!("verify on {} structured cases", inputs.len()));
    checks.push(verify_cases(&mut evm, at, reference, &inputs)?);
    checks.push(match proof {
        None => Check {
            status: Status::Skipped,
            ..check("proof", false, "--no-prove: verify not proved".into())
        },
        Some((solver, dir)) => {
            crate::progress::phase("proving verify = the reference's (SMT solver)");
            verify_proof(&label, &runtime, solver, dir, |start, solution| {
                ran(evm.verify_raw_at(at, start, solution))
            })?
        }
    });
    crate::progress::phase(&format!("generate on {} addresses", addresses.len()));
    checks.push(match options.generate {
        Generate::Reference => generate_equal(&mut evm, at, reference, &addresses)?,
        Generate::Own => generate_own(&mut evm, at, &addresses),
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
    let gas = gas(&mut evm, at, reference, probe)?;
    // A check the user skipped (no proof) is shown, not failed.
    let ok = checks.iter().all(|c| c.status != Status::Fail);
    Ok(Card {
        target: label,
        ok,
        checks,
        runtime_bytes: runtime.len(),
        gas,
    })
}

/// Shape: name() is a non-empty string, generate and verify answer.
fn shape(
    evm: &mut Machine,
    at: Address,
    probe: Address,
    (start, solution): (Board, Board),
) -> Check {
    let name = evm.name_at(at).map(|c| c.value);
    let generated = evm.generate_at(at, &probe);
    let verified = evm.verify_at(at, start, solution);
    match (&name, &generated, &verified) {
        (Ok(n), Ok(_), Ok(_)) if !n.is_empty() => check(
            "shape",
            true,
            format!("name() is {n:?}; generate and verify answer"),
        ),
        (Ok(_), Ok(_), Ok(_)) => check("shape", false, "name() is empty".into()),
        (Err(e), _, _) => check("shape", false, format!("name() fails: {}", failure(e))),
        (_, Err(e), _) => check(
            "shape",
            false,
            format!("generate({probe}) fails: {}", failure(e)),
        ),
        (_, _, Err(e)) => check("shape", false, format!("verify fails: {}", failure(e))),
    }
}

/// Purity: no state, calls, logs or context reads on the sampled calls,
/// and the same answers twice.
fn purity(
    evm: &mut Machine,
    at: Address,
    inputs: &[(Board, Board)],
    addresses: &[Address],
) -> Result<Check, CardError> {
    let mut impure = Vec::new();
    let mut same = true;
    // A call that halts is run once, and one out of gas ends the sampling
    // (each costs the whole gas limit; the verify and generate rows show
    // the halt). Whether to go on is the answer.
    let mut twice = |evm: &mut Machine, data: alloy_primitives::Bytes| -> Result<bool, CardError> {
        let (first, steps) = evm.profile_any(at, data.clone());
        impure.extend(impure_opcodes(&steps));
        Ok(match ran(first)? {
            Ran::Answered(first) => {
                let again = ran(evm.profile_any(at, data).0)?;
                same &= Ran::Answered(first).same(&again);
                true
            }
            Ran::Halted(reason) => !matches!(reason, octoku_evm::HaltReason::OutOfGas(_)),
        })
    };
    let mut calls = 0;
    for (i, &(start, solution)) in inputs.iter().take(16).enumerate() {
        calls += 1;
        if !twice(evm, octoku_evm::target::verify_calldata(start, solution))? {
            break;
        }
        let address = addresses[i % addresses.len()];
        calls += 1;
        if !twice(evm, octoku_evm::target::generate_calldata(&address))? {
            break;
        }
    }
    impure.sort_unstable();
    impure.dedup();
    Ok(if impure.is_empty() && same {
        check(
            "pure",
            true,
            format!(
                "no storage, calls, logs, block or transaction reads in {calls} sampled calls; the same answers twice"
            ),
        )
    } else if !impure.is_empty() {
        check("pure", false, format!("runs {}", impure.join(", ")))
    } else {
        check(
            "pure",
            false,
            "two identical calls answered differently".into(),
        )
    })
}

/// verify on the structured cases, beside the reference.
fn verify_cases(
    evm: &mut Machine,
    at: Address,
    reference: Address,
    inputs: &[(Board, Board)],
) -> Result<Check, CardError> {
    let mut differ = None;
    for &(start, solution) in inputs {
        let ours = ran(evm.verify_raw_at(at, start, solution))?;
        let theirs = Ran::Answered(evm.verify_raw_at(reference, start, solution)?);
        if !ours.same(&theirs) {
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
    Ok(match differ {
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
    })
}

/// verify proved equal to the reference's by the SMT solver.
fn verify_proof(
    label: &str,
    runtime: &[u8],
    solver: &Solver,
    dir: &Path,
    mut target: impl FnMut(Board, Board) -> Result<Ran, CardError>,
) -> Result<Check, CardError> {
    let report = prove_verify(
        Puzzle::Reference.artifact().runtime,
        runtime,
        dir,
        &format!("{label} verify = reference verify"),
        solver,
    )
    .map_err(|source| CardError::Proof {
        label: label.to_string(),
        source: Box::new(source),
    })?;
    Ok(match report.verdict {
        Verdict::Proved(v) => check(
            "proof",
            true,
            format!(
                "verify = the reference's on {} (terms checked against revm on {} inputs; {}, {:.1} s; queries {})",
                crate::prove::DOMAIN,
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
                reference: verdict(&Ran::Answered(reference)),
                // The replay reads a halt as a failed call with no data;
                // run here, a halt is named.
                target: match target(Board(start), Board(solution))? {
                    Ran::Answered(_) => verdict(&Ran::Answered(implementation)),
                    halted => verdict(&halted),
                },
                reason: Some(reason(Board(start), Board(solution))),
            }),
            ..check(
                "proof",
                false,
                "refuted: a counterexample, replayed in revm".into(),
            )
        },
    })
}

/// generate equal to the reference's on every sampled address.
fn generate_equal(
    evm: &mut Machine,
    at: Address,
    reference: Address,
    addresses: &[Address],
) -> Result<Check, CardError> {
    let mut differ = None;
    for address in addresses {
        let ours = ran(evm.generate_raw_at(at, address))?;
        let theirs = Ran::Answered(evm.generate_raw_at(reference, address)?);
        if !ours.same(&theirs) {
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
    Ok(match differ {
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
    })
}

/// generate's own boards: the same every time, and every one solvable.
fn generate_own(evm: &mut Machine, at: Address, addresses: &[Address]) -> Check {
    let mut unsolvable = Vec::new();
    let mut failed = None;
    for address in addresses {
        // The first failure ends the row (a halt on gas costs the whole limit).
        let first = match evm.generate_at(at, address) {
            Ok(first) => first,
            Err(e) => {
                failed = Some(format!("generate({address}) fails: {}", failure(&e)));
                break;
            }
        };
        match (Ok(first), evm.generate_at(at, address)) {
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
                failed.get_or_insert(format!("generate({address}) fails: {}", failure(&e)));
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

/// Gas beside the reference's: a valid solution, the given wrong in the
/// last cell read, and generate of the probe address.
fn gas(
    evm: &mut Machine,
    at: Address,
    reference: Address,
    probe: Address,
) -> Result<Gas, CardError> {
    let mut rng = SplitMix64::new(3);
    let (valid_start, valid) = cases::verify_case(VerifyClass::Valid, &mut rng);
    let (late_start, late) = cases::verify_case(VerifyClass::InvalidLate, &mut rng);
    let gas_of = |evm: &mut Machine, to| -> Result<[Option<u64>; 3], CardError> {
        Ok([
            ran(evm.verify_raw_at(to, valid_start, valid))?.gas(),
            ran(evm.verify_raw_at(to, late_start, late))?.gas(),
            ran(evm.generate_raw_at(to, &probe))?.gas(),
        ])
    };
    let (ours, theirs) = (gas_of(evm, at)?, gas_of(evm, reference)?);
    Ok(Gas {
        verify_valid: [ours[0], theirs[0]],
        verify_invalid: [ours[1], theirs[1]],
        generate: [ours[2], theirs[2]],
    })
}

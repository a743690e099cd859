//! `octoku golf check`: what a golfer wants to know before committing a
//! solution to a Curta Golf course, in one report: whether Curta Golf's
//! purity checker accepts the creation code and the runtime it deploys,
//! what the course meters for several seeds (run in revm as `CurtaGolf.submit`
//! runs it), and whether the solution equals the course's reference on every
//! input (the prover of [`crate::prove`] for the 8×8 verify, of
//! [`crate::classic9`] for the 9×9 one), with a counterexample replayed in
//! revm when it does not.

use std::path::Path;

use alloy_primitives::{Bytes, U256};
use octoku_evm::golf::{Course, CourseRun, Impurity, Measured, Opcodes, measure};
use octoku_evm::{EvmError, Machine, RawOutcome};
use serde::Serialize;

use crate::engine::ProveError;
use crate::solver::Solver;

/// Both codes' purity: the first forbidden byte of each, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Purity {
    /// In the creation code.
    pub initcode: Option<Impurity>,
    /// In the runtime code it deploys.
    pub runtime: Option<Impurity>,
}

impl Purity {
    /// Whether both are pure.
    pub fn pure(&self) -> bool {
        self.initcode.is_none() && self.runtime.is_none()
    }
}

/// The equivalence proof's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum Proof {
    /// Equal to the reference on every input of the function's shape.
    Proved {
        /// What "every input" is.
        domain: String,
        /// Inputs both sides' terms were checked on against revm.
        validated_inputs: usize,
        /// The solver and its version.
        solver: String,
        /// Solver time.
        seconds: f64,
    },
    /// They differ on this input.
    Counterexample {
        /// The arguments in hex (two words, or two 81-byte grids).
        arguments: Vec<String>,
        /// The reference's result, replayed here in revm.
        reference: String,
        /// The solution's result, replayed here in revm.
        solution: String,
    },
    /// Not asked for (`--no-prove`).
    Skipped,
}

/// The report of one solution on one course.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// The course.
    pub course: Course,
    /// The creation code's size.
    pub initcode_bytes: usize,
    /// The deployed runtime's size.
    pub runtime_bytes: usize,
    /// The purity check.
    pub purity: Purity,
    /// The course's meter on the solution, one entry per seed.
    pub runs: Vec<Measured>,
    /// The course's meter on its reference, the same seeds.
    pub reference_runs: Vec<Measured>,
    /// The proof.
    pub proof: Proof,
}

/// What the report says in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Pure, passes every seed, proved equal to the reference.
    Ready,
    /// Pure and passes every seed; the proof was skipped.
    Unproved,
    /// Curta Golf would refuse it (purity) or the course would (a seed).
    Refused,
    /// The course passes it, but it is wrong on another input.
    Wrong,
}

impl Check {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        let passes = self
            .runs
            .iter()
            .all(|m| matches!(m.run, CourseRun::Passed { .. }));
        if !self.purity.pure() || !passes {
            return Verdict::Refused;
        }
        match self.proof {
            Proof::Proved { .. } => Verdict::Ready,
            Proof::Skipped => Verdict::Unproved,
            Proof::Counterexample { .. } => Verdict::Wrong,
        }
    }

    /// The verdict in words, as `octoku golf check` gives it (its JSON's
    /// `reason`).
    pub fn reason(&self) -> &'static str {
        match self.verdict() {
            Verdict::Ready => "ready: Curta Golf will accept it, and it is right on every input",
            Verdict::Unproved => "pure and passes the course; not proved (--no-prove)",
            Verdict::Refused if !self.purity.pure() => {
                "refused: Curta Golf's purity check would revert PollutedSolution()"
            }
            Verdict::Refused => "refused: the course would revert IncorrectSolution()",
            Verdict::Wrong => {
                "wrong: the course's draws pass it, but it differs from the reference (the counterexample above)"
            }
        }
    }

    /// The least and the most gas metered over the seeds (`None` when a
    /// seed failed).
    pub fn gas_range(runs: &[Measured]) -> Option<(u32, u32)> {
        let gas: Option<Vec<u32>> = runs
            .iter()
            .map(|m| match m.run {
                CourseRun::Passed { gas } => Some(gas),
                CourseRun::Incorrect => None,
            })
            .collect();
        let gas = gas?;
        Some((*gas.iter().min()?, *gas.iter().max()?))
    }
}

/// The report of `octoku golf check --json`: the solution's name, the
/// verdict and its reason, then the check's fields.
#[derive(Debug, Clone, Serialize)]
pub struct Checked<'a> {
    /// The solution's name.
    pub solution: &'a str,
    /// [`Check::verdict`].
    pub verdict: Verdict,
    /// [`Check::reason`].
    pub reason: &'static str,
    /// The check.
    #[serde(flatten)]
    pub check: &'a Check,
}

impl<'a> Checked<'a> {
    /// The report of `check` of the solution `solution`.
    pub fn new(solution: &'a str, check: &'a Check) -> Checked<'a> {
        Checked {
            solution,
            verdict: check.verdict(),
            reason: check.reason(),
            check,
        }
    }
}

/// Why a check could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The solution or the course did not run in revm.
    #[error(transparent)]
    Evm(#[from] EvmError),
    /// The prover refused or the solver gave up.
    #[error("the equivalence proof: {0}")]
    Prove(#[from] ProveError),
    /// A counterexample of the prover that revm does not reproduce.
    #[error(
        "the prover's counterexample does not replay in revm (reference {reference}, solution {solution}); nothing is decided"
    )]
    NoReplay {
        /// The reference's replayed result.
        reference: String,
        /// The solution's.
        solution: String,
    },
    /// The 9×9 proof gave neither a proof nor a counterexample (a bug in
    /// the prover if seen: an undecided query ends as [`CheckError::Prove`]).
    #[error("the 9x9 proof ended neither proved nor refuted")]
    Unsettled,
}

/// The proof to run, when one is asked for: the solver and the directory
/// for its queries.
pub struct Prover<'a> {
    /// The SMT solver.
    pub solver: &'a Solver,
    /// Where the queries go.
    pub dir: &'a Path,
}

/// Checks the solution `initcode` against `course`: purity under `allowed`,
/// the course's meter on `seeds`, and (with a prover) the equivalence.
pub fn check(
    course: Course,
    initcode: &[u8],
    allowed: Opcodes,
    seeds: &[U256],
    prover: Option<Prover<'_>>,
) -> Result<Check, CheckError> {
    let runtime = deployed_runtime(initcode)?;
    let purity = Purity {
        initcode: allowed.first_impurity(initcode),
        runtime: allowed.first_impurity(&runtime),
    };
    let runs = measure(course, initcode, seeds)?;
    let reference_runs = measure(course, course.reference().initcode, seeds)?;
    let proof = match prover {
        None => Proof::Skipped,
        Some(p) => prove(course, &runtime, p)?,
    };
    Ok(Check {
        course,
        initcode_bytes: initcode.len(),
        runtime_bytes: runtime.len(),
        purity,
        runs,
        reference_runs,
        proof,
    })
}

/// The runtime `initcode` deploys in revm (what CurtaGolf's CREATE leaves).
fn deployed_runtime(initcode: &[u8]) -> Result<Vec<u8>, EvmError> {
    let mut machine = Machine::new()?;
    let (at, _) = machine.deploy(initcode)?;
    let runtime = machine.code_at(at);
    if runtime.is_empty() {
        return Err(EvmError::NoRuntime {
            label: "the solution".into(),
        });
    }
    Ok(runtime)
}

fn prove(course: Course, runtime: &[u8], p: Prover<'_>) -> Result<Proof, CheckError> {
    let reference = course.reference().runtime;
    let title = format!("golf check: solution = {} reference", course.label());
    match course {
        Course::Verify8 => {
            use crate::prove::{DOMAIN, Verdict, prove_verify, verify_calldata};
            let report = prove_verify(reference, runtime, p.dir, &title, p.solver)?;
            match report.verdict {
                Verdict::Proved(v) => Ok(Proof::Proved {
                    domain: DOMAIN.to_string(),
                    validated_inputs: v.inputs(),
                    solver: report.figures.solver.clone(),
                    seconds: report.figures.solve_time.as_secs_f64(),
                }),
                Verdict::Counterexample {
                    start, solution, ..
                } => replay(
                    reference,
                    runtime,
                    verify_calldata(start, solution),
                    vec![word(start), word(solution)],
                ),
            }
        }
        Course::Classic9 => {
            use crate::classic9::{Function, prove_equal};
            let report = prove_equal(
                Function::Verify,
                reference,
                runtime,
                p.dir,
                &title,
                p.solver,
            )?;
            match (report.counterexample, report.validated) {
                (Some(c), _) => {
                    let data = octoku_core::classic9::IClassic9::verifyCall {
                        start: Bytes::from(c.grids[0].clone()),
                        solution: Bytes::from(c.grids[1].clone()),
                    };
                    use alloy_sol_types::SolCall;
                    replay(
                        reference,
                        runtime,
                        Bytes::from(data.abi_encode()),
                        c.grids
                            .iter()
                            .map(alloy_primitives::hex::encode_prefixed)
                            .collect(),
                    )
                }
                (None, Some(v)) => Ok(Proof::Proved {
                    domain: crate::classic9::domain(Function::Verify),
                    validated_inputs: v.inputs(),
                    solver: report.figures.solver.clone(),
                    seconds: report.figures.solve_time.as_secs_f64(),
                }),
                (None, None) => Err(CheckError::Unsettled),
            }
        }
    }
}

fn word(w: U256) -> String {
    format!("{w:#066x}")
}

/// Runs the reference and the solution on `data` in a fresh revm: a
/// counterexample stands only when their results differ there.
fn replay(
    reference: &[u8],
    runtime: &[u8],
    data: Bytes,
    arguments: Vec<String>,
) -> Result<Proof, CheckError> {
    let mut machine = Machine::new()?;
    let r_at = alloy_primitives::Address::repeat_byte(0x51);
    let s_at = alloy_primitives::Address::repeat_byte(0x52);
    machine.install(r_at, Bytes::copy_from_slice(reference));
    machine.install(s_at, Bytes::copy_from_slice(runtime));
    let r = machine.call_raw(r_at, data.clone())?;
    let s = machine.call_raw(s_at, data)?;
    let (reference, solution) = (outcome(&r), outcome(&s));
    if r.success == s.success && r.output == s.output {
        return Err(CheckError::NoReplay {
            reference,
            solution,
        });
    }
    Ok(Proof::Counterexample {
        arguments,
        reference,
        solution,
    })
}

fn outcome(o: &RawOutcome) -> String {
    let how = if o.success { "returns" } else { "reverts" };
    format!(
        "{how} {}",
        alloy_primitives::hex::encode_prefixed(&o.output)
    )
}

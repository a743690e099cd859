//! The prover fuzzer: random mutants of the golfed contracts' runtime code
//! and random small verify bodies, each proved equal (or not) to its
//! original by the prover's public drivers, and every answer checked in
//! revm.
//!
//! - [`mutate`]: bytecode mutants at the instructions a call executes.
//! - [`body`]: random `verify` bodies and a second body from each.
//! - [`oracle`]: both codes run in revm on edge words, real boards and
//!   random words.
//!
//! A "proved" is checked on at least 10^5 inputs plus the edge words: any
//! difference is a **false proved**, the one answer a prover must never
//! give. A counterexample is replayed: if both codes agree there, the
//! refutation is a prover bug. A mutant whose call fails with no data on a
//! typical input where the original returns (it halts: a jump to a
//! non-JUMPDEST, a stack underflow; or reverts empty: a broken selector
//! test) is *invalid*; it still counts and must be refuted. Everything is deterministic from (seed, index) but the
//! solver's time-outs.

pub mod body;
pub mod mutate;
pub mod oracle;

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use alloy_primitives::{Bytes, hex};
use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, RawOutcome, artifacts, cases};

use crate::classic9;
use crate::engine::{self, Case, Found, ProveError, Shape};
use crate::prove;
use crate::solver::{Solver, SolverError};
use oracle::{Difference, Domain};

/// What a mutant is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subject {
    /// contracts/Golf.sol's runtime, `verify(uint256,uint256)`.
    Golf,
    /// contracts/Fair.sol's runtime, `verify(uint256,uint256)`.
    Fair,
    /// The golfed 9×9 validator, `verify(bytes,bytes)`.
    Classic9,
    /// The golfed 9×9 validator's mutants proved against the 9×9
    /// reference through [`classic9::prove_equal`] (the driver of `prove
    /// verify --puzzle classic9`: six queries through the specifications).
    Classic9Spec,
    /// A random small verify body and a second one made from it.
    Body,
}

impl Subject {
    /// The subjects of the default mix ([`subject_of`]), in report order.
    pub const ALL: [Subject; 4] = [
        Subject::Golf,
        Subject::Fair,
        Subject::Classic9,
        Subject::Body,
    ];

    /// The name in reports.
    pub const fn label(self) -> &'static str {
        match self {
            Subject::Golf => "golf verify",
            Subject::Fair => "fair verify",
            Subject::Classic9 => "classic9 verify",
            Subject::Classic9Spec => "classic9 verify vs reference",
            Subject::Body => "random body",
        }
    }

    /// The original runtime code, mutated (none for the bodies: each has
    /// its own).
    pub fn original(self) -> Option<&'static [u8]> {
        match self {
            Subject::Golf => Some(artifacts::GOLF.runtime),
            Subject::Fair => Some(artifacts::FAIR.runtime),
            Subject::Classic9 | Subject::Classic9Spec => Some(artifacts::CLASSIC9_GOLF.runtime),
            Subject::Body => None,
        }
    }

    /// The code a mutant is proved against: the original, or for
    /// [`Subject::Classic9Spec`] the 9×9 reference.
    pub fn reference(self) -> Option<&'static [u8]> {
        match self {
            Subject::Classic9Spec => Some(artifacts::CLASSIC9_REFERENCE.runtime),
            other => other.original(),
        }
    }

    /// The call shape the proof and the check use.
    pub fn shape(self) -> Shape {
        match self {
            Subject::Classic9 | Subject::Classic9Spec => {
                classic9::shape(classic9::Function::Verify)
            }
            _ => prove::verify_shape(),
        }
    }

    /// The inputs the prover's own validation checks its terms on before
    /// a "proved" (in [`Subject::shape`]'s variable order).
    pub fn samples(self) -> Vec<Vec<U256>> {
        match self {
            Subject::Classic9 | Subject::Classic9Spec => crate::validate::grid_values(2),
            _ => crate::validate::verify_values(),
        }
    }

    /// The inputs the check uses.
    pub fn domain(self) -> Domain {
        match self {
            Subject::Golf | Subject::Fair => Domain::Board8,
            Subject::Classic9 | Subject::Classic9Spec => Domain::Grid9,
            Subject::Body => Domain::Words,
        }
    }

    /// The instructions one valid call of the original executes (pc,
    /// opcode), each once, in pc order: the mutation sites. The verify
    /// code of golf, fair and the 9×9 golf has no branch on the input, so
    /// one call reaches every instruction any call does.
    pub fn sites(self) -> &'static [mutate::Site] {
        static SITES: [OnceLock<Vec<mutate::Site>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let (slot, code) = match self {
            Subject::Golf => (&SITES[0], artifacts::GOLF.runtime),
            Subject::Fair => (&SITES[1], artifacts::FAIR.runtime),
            Subject::Classic9 | Subject::Classic9Spec => {
                (&SITES[2], artifacts::CLASSIC9_GOLF.runtime)
            }
            Subject::Body => return &[],
        };
        slot.get_or_init(|| {
            let mut rng = SplitMix64::new(0x5173);
            let values = match self {
                Subject::Classic9 | Subject::Classic9Spec => {
                    let grid = octoku_evm::classic9::valid_grid(&mut rng);
                    crate::validate::grid_words(&[grid.clone(), grid])
                }
                _ => {
                    let (s, g) = cases::verify_case(cases::VerifyClass::Valid, &mut rng);
                    vec![s.to_u256(), g.to_u256()]
                }
            };
            let mut machine = Machine::new().expect("an in-memory chain");
            let address = machine
                .deploy(&engine::deployer(code))
                .expect("the original deploys")
                .0;
            let (_, steps) = machine
                .profile_raw(address, self.shape().calldata(&values))
                .expect("the original runs");
            let mut sites: Vec<mutate::Site> = steps.iter().map(|s| (s.pc, s.opcode)).collect();
            sites.sort_unstable();
            sites.dedup();
            sites
        })
    }
}

/// One mutant: the original, the changed code, and what changed.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// Its index in the run (with the seed, all it is made from).
    pub index: u64,
    /// What it is made from.
    pub subject: Subject,
    /// What changed.
    pub what: String,
    /// The code it is proved against.
    pub reference: Vec<u8>,
    /// The mutant's code.
    pub code: Vec<u8>,
    /// Made by changes that keep the value on every input (random bodies
    /// only; informative: the answer is checked either way).
    pub equal_by_construction: bool,
}

/// The subject of mutant `index`: 3 in 10 golf, 1 fair, 1 classic9, 5
/// random bodies.
pub fn subject_of(seed: u64, index: u64) -> Subject {
    match SplitMix64::for_index(seed ^ 0x50b1, index).below(10) {
        0..=2 => Subject::Golf,
        3 => Subject::Fair,
        4 => Subject::Classic9,
        _ => Subject::Body,
    }
}

/// Mutant `index` of stream `seed` made from `subject`.
pub fn mutant(seed: u64, index: u64, subject: Subject) -> Mutant {
    let rng = &mut SplitMix64::for_index(seed, index);
    match subject.original() {
        Some(original) => {
            let m = mutate::mutate(original, subject.sites(), rng);
            Mutant {
                index,
                subject,
                what: m.what,
                reference: subject.reference().unwrap_or(original).to_vec(),
                code: m.code,
                equal_by_construction: false,
            }
        }
        None => {
            let p = body::pair(rng);
            Mutant {
                index,
                subject,
                what: p.what,
                reference: body::compile(&p.reference),
                code: body::compile(&p.other),
                equal_by_construction: p.equal_by_construction,
            }
        }
    }
}

/// The prover's answer, whatever driver gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Equal on every input of the shape.
    Proved,
    /// They differ at these variable values (the driver has replayed them).
    Refuted(Vec<U256>),
    /// Nothing claimed: the executor refused the code, or the solver
    /// answered unknown or ran out of time.
    Undecided {
        /// The executor refused the code (an opcode or operand it does not
        /// model, a symbolic jump): no query was written.
        refused: bool,
        /// Why.
        why: String,
    },
    /// The prover stopped with an error about itself (its terms disagree
    /// with revm, a counterexample that does not reproduce) or its
    /// machinery failed.
    Error(String),
}

/// Proves `mutant` equal to its reference through the engine's
/// [`engine::prove_equal`], the driver under `prove verify` and `check`:
/// one query over every input of the subject's call shape. Queries go to
/// `dir`.
pub fn prove(mutant: &Mutant, dir: &Path, solver: &Solver) -> Answer {
    let title = format!(
        "fuzz mutant {} ({}): {}",
        mutant.index,
        mutant.subject.label(),
        mutant.what
    );
    let codes = (mutant.reference.as_slice(), mutant.code.as_slice());
    if mutant.subject == Subject::Classic9Spec {
        let function = classic9::Function::Verify;
        return match classic9::prove_equal(function, codes.0, codes.1, dir, &title, solver) {
            Ok(report) => match report.counterexample {
                None => Answer::Proved,
                Some(c) => Answer::Refuted(crate::validate::grid_words(&c.grids)),
            },
            Err(e) => answer_of_error(e),
        };
    }
    // One query over every input (the drivers' splits into cases only add
    // assumptions to the same terms; prove_verify's is tested in
    // tests/prove_verify.rs): a refutation returns as soon as it is found.
    let every = Case {
        tag: "all".to_string(),
        note: "Every input.".to_string(),
        assume: None,
    };
    let result = engine::prove_equal(
        &mutant.subject.shape(),
        codes,
        &[every],
        &[title],
        dir,
        solver,
        &mutant.subject.samples(),
    )
    .map(|e| match e.found {
        Found::Proved(_) => Answer::Proved,
        Found::Counterexample { values, .. } => Answer::Refuted(values),
    });
    match result {
        Ok(answer) => answer,
        Err(e) => answer_of_error(e),
    }
}

/// How a prover error reads as an answer.
pub fn answer_of_error(e: ProveError) -> Answer {
    let why = e.to_string();
    match e {
        ProveError::Exec { .. } => Answer::Undecided { refused: true, why },
        ProveError::Undecided { .. }
        | ProveError::Unknown { .. }
        | ProveError::Inconclusive { .. }
        | ProveError::Solver(SolverError::Overran { .. }) => Answer::Undecided {
            refused: false,
            why,
        },
        _ => Answer::Error(why),
    }
}

/// The verdict on one answer, after revm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// Proved, and revm agrees on every input tried.
    Proved {
        /// Inputs run in revm.
        inputs: u64,
    },
    /// Refuted, and the counterexample replays as a real difference.
    Refuted,
    /// Nothing claimed.
    Undecided {
        /// Refused by the executor (else the solver's unknown or time-out).
        refused: bool,
    },
    /// Proved, but revm shows the two codes differ: a soundness bug.
    FalseProved(Difference),
    /// A refutation that does not replay, or the prover's own check
    /// failing: a prover bug, though no false claim.
    ProverBug(String),
}

/// Checks `answer` about `mutant` in revm: a "proved" on `inputs` inputs
/// past the edge words (stream `seed`), a refutation by replaying it.
pub fn classify(
    mutant: &Mutant,
    answer: &Answer,
    inputs: u64,
    seed: u64,
) -> Result<Class, octoku_evm::EvmError> {
    let shape = mutant.subject.shape();
    let codes = (mutant.reference.as_slice(), mutant.code.as_slice());
    Ok(match answer {
        Answer::Proved => {
            let (diff, ran) =
                oracle::first_difference(mutant.subject.domain(), &shape, codes, inputs, seed)?;
            match diff {
                Some(d) => Class::FalseProved(d),
                None => Class::Proved { inputs: ran },
            }
        }
        Answer::Refuted(values) => {
            let [r, o] = oracle::Pair::new(codes.0, codes.1)?.run(&shape.calldata(values))?;
            if oracle::differ(&r, &o) {
                Class::Refuted
            } else {
                Class::ProverBug(format!(
                    "the counterexample {} does not reproduce: both give {}",
                    show_values(mutant.subject, values),
                    show_outcome(&r)
                ))
            }
        }
        Answer::Undecided { refused, .. } => Class::Undecided { refused: *refused },
        Answer::Error(why) => Class::ProverBug(why.clone()),
    })
}

/// Whether the mutant's call fails with no data in revm on a typical
/// input where the reference returns: it halts (a jump to a non-JUMPDEST,
/// a stack underflow, an invalid opcode) or reverts empty.
pub fn invalid(mutant: &Mutant) -> Result<bool, octoku_evm::EvmError> {
    let values = mutant.subject.domain().input(0x1a7a, 0);
    let calldata = mutant.subject.shape().calldata(&values);
    let mut pair = oracle::Pair::new(&mutant.reference, &mutant.code)?;
    let [r, o] = pair.run(&calldata)?;
    Ok(!o.success && o.output.is_empty() && r.success)
}

/// The variables' values named as the subject's call shape names them:
/// `start = 0x…, solution = 0x…`.
pub fn show_values(subject: Subject, values: &[U256]) -> String {
    subject
        .shape()
        .variables()
        .iter()
        .zip(values)
        .map(|(name, v)| format!("{name} = {v:#x}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `returned 0x…` / `reverted 0x…`.
pub fn show_outcome(o: &RawOutcome) -> String {
    format!(
        "{} 0x{}",
        if o.success { "returned" } else { "failed" },
        hex::encode(&o.output)
    )
}

/// One mutant tried: what it is, the prover's answer, the verdict, times.
#[derive(Debug, Clone)]
pub struct Record {
    /// The mutant.
    pub mutant: Mutant,
    /// Its call fails with no data where the reference returns.
    pub invalid: bool,
    /// The prover's answer.
    pub answer: Answer,
    /// The verdict.
    pub class: Class,
    /// Time of the proof.
    pub prove_time: Duration,
    /// Time of the revm check.
    pub check_time: Duration,
}

impl Record {
    /// One line for a log.
    pub fn line(&self) -> String {
        let class = match &self.class {
            Class::Proved { inputs } => format!("proved (revm agrees on {inputs} inputs)"),
            Class::Refuted => "refuted (replays)".to_string(),
            Class::Undecided { refused } => format!(
                "undecided ({}: {})",
                if *refused { "refused" } else { "solver" },
                match &self.answer {
                    Answer::Undecided { why, .. } => why.as_str(),
                    _ => "",
                }
            ),
            Class::FalseProved(d) => format!(
                "FALSE PROVED: {}: reference {}, mutant {}",
                show_values(self.mutant.subject, &d.values),
                show_outcome(&d.reference),
                show_outcome(&d.other)
            ),
            Class::ProverBug(why) => format!("PROVER BUG: {why}"),
        };
        format!(
            "#{} {}{}: {} -> {} [{:.1?} + {:.1?}]",
            self.mutant.index,
            self.mutant.subject.label(),
            if self.invalid { " (invalid)" } else { "" },
            self.mutant.what,
            class,
            self.prove_time,
            self.check_time
        )
    }
}

/// Why one mutant could not be proved and checked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The mutant or the reference did not run in revm.
    #[error("revm on mutant {index}: {source}")]
    Revm {
        /// The mutant's index.
        index: u64,
        /// revm's failure.
        source: octoku_evm::EvmError,
    },
    /// The directory for the queries could not be made.
    #[error("cannot create a temporary directory: {0}")]
    TempDir(#[source] std::io::Error),
}

/// Proves and checks one mutant (queries in a temporary directory).
pub fn run_one(
    mutant: Mutant,
    solver: &Solver,
    inputs: u64,
    seed: u64,
) -> Result<Record, RunError> {
    let index = mutant.index;
    let revm = |source| RunError::Revm { index, source };
    let invalid = invalid(&mutant).map_err(revm)?;
    let dir = tempfile::Builder::new()
        .prefix("octoku-prove-fuzz-")
        .tempdir()
        .map_err(RunError::TempDir)?;
    let began = Instant::now();
    let answer = prove(&mutant, dir.path(), solver);
    let prove_time = began.elapsed();
    let began = Instant::now();
    let class = classify(&mutant, &answer, inputs, seed).map_err(revm)?;
    Ok(Record {
        mutant,
        invalid,
        answer,
        class,
        prove_time,
        check_time: began.elapsed(),
    })
}

/// Counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Mutants tried.
    pub tried: u64,
    /// Proved, revm agreeing.
    pub proved: u64,
    /// Refuted, the counterexample replaying.
    pub refuted: u64,
    /// Undecided: refused by the executor.
    pub refused: u64,
    /// Undecided: the solver's unknown or time-out.
    pub unknown: u64,
    /// False "proved".
    pub false_proved: u64,
    /// Prover bugs without a false claim.
    pub prover_bugs: u64,
    /// Invalid mutants (failing with no data where the original returns).
    pub invalid: u64,
    /// Invalid mutants refuted.
    pub invalid_refuted: u64,
}

impl Tally {
    /// Counts one record.
    pub fn add(&mut self, r: &Record) {
        self.tried += 1;
        match r.class {
            Class::Proved { .. } => self.proved += 1,
            Class::Refuted => self.refuted += 1,
            Class::Undecided { refused: true } => self.refused += 1,
            Class::Undecided { refused: false } => self.unknown += 1,
            Class::FalseProved(_) => self.false_proved += 1,
            Class::ProverBug(_) => self.prover_bugs += 1,
        }
        if r.invalid {
            self.invalid += 1;
            if r.class == Class::Refuted {
                self.invalid_refuted += 1;
            }
        }
    }

    /// The table of a run.
    pub fn table(&self) -> String {
        format!(
            "| mutants tried | proved | refuted | undecided (refused / solver) | false \"proved\" | prover bugs | invalid (refuted) |\n\
             | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n\
             | {} | {} | {} | {} ({} / {}) | {} | {} | {} ({}) |",
            self.tried,
            self.proved,
            self.refuted,
            self.refused + self.unknown,
            self.refused,
            self.unknown,
            self.false_proved,
            self.prover_bugs,
            self.invalid,
            self.invalid_refuted
        )
    }
}

/// The hex of a mutant, for saving a false proved: the reference's and the
/// mutant's runtime code.
pub fn hex_of(m: &Mutant) -> String {
    format!(
        "subject: {}\nwhat: {}\nreference: 0x{}\nmutant: 0x{}\n",
        m.subject.label(),
        m.what,
        hex::encode(&m.reference),
        hex::encode(&m.code)
    )
}

/// The calldata of `values` for `m` (for reproducing a case).
pub fn calldata(m: &Mutant, values: &[U256]) -> Bytes {
    m.subject.shape().calldata(values)
}

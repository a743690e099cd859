//! `octoku prove generate --all`: generate's fill (the golfed or fair
//! built-in, or an author's `generate(address)` whose fill has the golfed
//! shape) equal to the reference `_fill` on all 2^256 seeds, by induction
//! over the draws ([`crate::induction`]), as a report.

use std::path::Path;

use alloy_primitives::U256;
use octoku_core::Board;
use octoku_evm::Puzzle;
use serde::Serialize;

use super::{Conclusion, Fill, ReportError, outcome};
use crate::generate::Compare;
use crate::induction::golf::{self, Lemmas, Setup};
use crate::induction::{ConcreteState, Report, fair};
use crate::program::Program;
use crate::solver::Solver;

/// The report of `octoku prove generate --all --json`.
#[derive(Debug, Clone, Serialize)]
pub struct AllSeedsProof {
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// Always "generate".
    pub property: &'static str,
    /// Proved, counterexample (the entry lemma refuted on a seed whose two
    /// calls differ in revm), refuted lemma or undecided.
    pub result: Conclusion,
    /// The seeds (or addresses) covered, in words.
    pub class: &'static str,
    /// The calls the proof covers, in words.
    pub domain: String,
    /// Inputs on which both programs' terms were checked against revm
    /// before "proved" (null otherwise).
    pub validated_inputs: Option<usize>,
    /// Always "induction over the draws".
    pub method: &'static str,
    /// Lemmas the proof has.
    pub total_lemmas: usize,
    /// The lemmas asked, in order, up to the first not proved.
    pub lemmas: Vec<Lemma>,
    /// The solver and its version.
    pub solver: String,
    /// The solver's check time over the lemmas.
    pub check_seconds: f64,
    /// Sample runs, templates, symbolic execution and queries.
    pub build_seconds: f64,
    /// The directory of the queries (one per lemma).
    pub queries: String,
    /// The first lemma not proved.
    pub failed_lemma: Option<String>,
    /// The seed of the replayed state, in hex.
    pub seed: Option<String>,
    /// The implementation's state the failed lemma starts from.
    pub implementation_state: Option<State>,
    /// The reference's, when the lemma runs it.
    pub reference_state: Option<State>,
    /// The reference's result from its state, in revm.
    pub reference_output: Option<String>,
    /// The implementation's result from its state, in revm.
    pub implementation_output: Option<String>,
    /// The author's contract: the address of the replayed state (null
    /// when none). Absent for a built-in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Option<String>>,
    /// The author's contract: where its fill's cut points were found.
    /// Absent for a built-in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuts: Option<Vec<Cut>>,
    /// What "equal" means for this fill.
    #[serde(skip)]
    pub compare: Compare,
}

/// A cut point of the author's fill: its name (`L2`..`L8`, `J2`..`J8`,
/// `D`, `P`), program counter, and the stack slots (bottom = 0) of its loop
/// variables.
#[derive(Debug, Clone, Serialize)]
pub struct Cut {
    /// Its name.
    pub name: String,
    /// Its program counter.
    pub pc: usize,
    /// The stack slots of its loop variables.
    pub slots: Vec<usize>,
}

/// One lemma asked.
#[derive(Debug, Clone, Serialize)]
pub struct Lemma {
    /// Its name.
    pub name: String,
    /// What it says.
    pub says: String,
    /// Proved, refuted or undecided.
    pub result: LemmaResult,
    /// Time to build its query.
    pub build_seconds: f64,
    /// Solver time.
    pub check_seconds: f64,
    /// Its query file.
    pub query: String,
}

/// A lemma's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LemmaResult {
    /// unsat.
    Proved,
    /// sat: a state that breaks it.
    Refuted,
    /// The solver gave up.
    Undecided,
}

impl LemmaResult {
    /// "proved", "refuted" or "undecided".
    pub fn word(self) -> &'static str {
        match self {
            LemmaResult::Proved => "proved",
            LemmaResult::Refuted => "refuted",
            LemmaResult::Undecided => "undecided",
        }
    }
}

impl From<Option<bool>> for LemmaResult {
    fn from(proved: Option<bool>) -> LemmaResult {
        match proved {
            Some(true) => LemmaResult::Proved,
            Some(false) => LemmaResult::Refuted,
            None => LemmaResult::Undecided,
        }
    }
}

/// A machine state: program counter, stack (bottom first), memory words,
/// each word in hex.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    /// Program counter.
    pub pc: usize,
    /// Stack words, bottom first.
    pub stack: Vec<String>,
    /// Memory words.
    pub memory: Vec<String>,
}

impl From<&ConcreteState> for State {
    fn from(s: &ConcreteState) -> State {
        let hex = |v: &[U256]| v.iter().map(|w| format!("{w:#x}")).collect();
        State {
            pc: s.pc,
            stack: hex(&s.stack),
            memory: hex(&s.memory),
        }
    }
}

/// The query directory name [`prove`] is meant for, for `fill`.
///
/// ```
/// use octoku_prove::report::{Fill, all_seeds::query_name};
/// assert_eq!(query_name(&Fill::Builtin(octoku_evm::Puzzle::Golf)), "generate-all-golf");
/// ```
pub fn query_name(fill: &Fill<'_>) -> String {
    format!("generate-all-{}", fill.tag())
}

/// Proves `fill` equal to the reference `_fill` on every seed (an author's
/// `generate(address)`: on every address, when its fill has the golfed
/// shape), by induction over the draws, with one query per lemma under
/// `dir`. A refuted lemma's state is replayed in revm.
///
/// ```no_run
/// use octoku_prove::report::{Conclusion, Fill, all_seeds};
/// use octoku_prove::solver::Solver;
/// let golf = Fill::Builtin(octoku_evm::Puzzle::Golf);
/// let dir = std::env::temp_dir().join(all_seeds::query_name(&golf));
/// let proof = all_seeds::prove(&golf, &dir, &Solver::choose(None)?)?;
/// assert_eq!(proof.result, Conclusion::Proved, "{:?}", proof.failed_lemma);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove(fill: &Fill<'_>, dir: &Path, solver: &Solver) -> Result<AllSeedsProof, ReportError> {
    let reference = Program::harness(Puzzle::Reference);
    let (r, cuts, compare) = match *fill {
        Fill::Own { runtime, .. } => {
            let setup = Setup::by_shape(reference, Program::generate(runtime))?;
            let cuts = setup
                .layout()
                .describe()
                .into_iter()
                .map(|(name, pc, slots)| Cut { name, pc, slots })
                .collect::<Vec<_>>();
            let r = golf::prove(&setup, Lemmas::All, dir, solver)?;
            (r, Some(cuts), Compare::Board)
        }
        Fill::Builtin(Puzzle::Fair) => {
            let setup = fair::Setup::new(reference, Program::harness(Puzzle::Fair))?;
            (fair::prove(&setup, dir, solver)?, None, Compare::Cells)
        }
        Fill::Builtin(puzzle) => {
            let setup = Setup::new(reference, Program::harness(puzzle))?;
            let r = golf::prove(&setup, Lemmas::All, dir, solver)?;
            (r, None, Compare::Board)
        }
    };
    let result = conclusion(&r)?;
    let own = fill.is_own();
    let replay = r.replay.as_ref();
    Ok(AllSeedsProof {
        puzzle: fill.name(),
        property: "generate",
        result,
        class: if own {
            "every address, for every value of keccak256 of its 20 bytes (every 256-bit seed)"
        } else {
            "every 256-bit seed"
        },
        domain: fill.domain(),
        validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
        method: "induction over the draws",
        total_lemmas: r.total,
        lemmas: r
            .lemmas
            .iter()
            .map(|l| Lemma {
                name: l.name.clone(),
                says: l.says.clone(),
                result: l.proved.into(),
                build_seconds: l.built.as_secs_f64(),
                check_seconds: l.check.as_secs_f64(),
                query: l.file.display().to_string(),
            })
            .collect(),
        solver: r.solver.clone(),
        check_seconds: r.lemmas.iter().map(|l| l.check.as_secs_f64()).sum(),
        build_seconds: r.setup.as_secs_f64(),
        queries: r.queries.display().to_string(),
        failed_lemma: r.failed().map(|l| l.name.clone()),
        seed: replay.map(|p| Board(p.seed).to_hex()),
        implementation_state: replay.map(|p| State::from(&p.implementation_state)),
        reference_state: replay.and_then(|p| p.reference_state.as_ref().map(State::from)),
        reference_output: replay.and_then(|p| p.reference.as_ref().map(outcome)),
        implementation_output: replay.map(|p| outcome(&p.implementation)),
        address: own.then(|| replay.and_then(|p| p.address.map(|a| a.to_checksum(None)))),
        cuts,
        compare,
    })
}

/// The report's result: a counterexample only when the entry lemma is
/// refuted on a seed whose two calls differ in revm; an error when every
/// lemma was proved but not validated against revm.
fn conclusion(r: &Report) -> Result<Conclusion, ReportError> {
    let differs = r.replay.as_ref().is_some_and(|p| {
        p.reference.as_ref().is_some_and(|q| {
            (q.success, &q.output) != (p.implementation.success, &p.implementation.output)
        })
    });
    Ok(match r.failed() {
        None if r.proved() => Conclusion::Proved,
        None => {
            return Err(ReportError::NotValidated(
                "every lemma answered unsat but the proof was not validated against revm",
            ));
        }
        Some(l) if differs && l.name == "entry" => Conclusion::Counterexample,
        Some(l) if l.proved == Some(false) => Conclusion::RefutedLemma,
        Some(_) => Conclusion::Undecided,
    })
}

impl AllSeedsProof {
    /// Whether the fill proved is an author's `generate(address)` (whose
    /// report lists the cut points found).
    pub fn is_own(&self) -> bool {
        self.cuts.is_some()
    }

    /// The first lemma not proved, as listed in [`AllSeedsProof::lemmas`].
    pub fn failed(&self) -> Option<&Lemma> {
        self.lemmas.iter().find(|l| l.result != LemmaResult::Proved)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use octoku_evm::RawOutcome;

    use super::*;
    use crate::induction::{LemmaResult as Asked, Replay};

    fn lemma(name: &str, proved: Option<bool>) -> Asked {
        Asked {
            name: name.into(),
            says: String::new(),
            file: "q.smt2".into(),
            proved,
            model: Vec::new(),
            built: Duration::ZERO,
            check: Duration::ZERO,
        }
    }

    fn returns(byte: u8) -> RawOutcome {
        RawOutcome {
            success: true,
            output: vec![byte].into(),
            gas: 0,
        }
    }

    /// A report of `lemmas` out of 3, replayed with both results.
    fn report(lemmas: Vec<Asked>, results: Option<(u8, u8)>) -> Report {
        let state = ConcreteState {
            pc: 0,
            stack: Vec::new(),
            memory: Vec::new(),
        };
        Report {
            lemmas,
            total: 3,
            solver: String::new(),
            setup: Duration::ZERO,
            queries: "q".into(),
            replay: results.map(|(r, i)| Replay {
                seed: U256::ZERO,
                address: None,
                implementation_state: state.clone(),
                reference_state: Some(state.clone()),
                implementation: returns(i),
                reference: Some(returns(r)),
            }),
            validated: None,
        }
    }

    /// A counterexample is said only of the entry lemma refuted on a seed
    /// whose two calls differ in revm; a step lemma refuted, or the entry
    /// refuted with equal results, is a refuted lemma; no answer is
    /// undecided.
    #[test]
    fn only_a_differing_entry_replay_is_a_counterexample() {
        let entry = |r| report(vec![lemma("entry", Some(false))], r);
        assert_eq!(
            conclusion(&entry(Some((1, 2)))).unwrap(),
            Conclusion::Counterexample
        );
        assert_eq!(
            conclusion(&entry(Some((1, 1)))).unwrap(),
            Conclusion::RefutedLemma
        );
        let step = report(
            vec![lemma("entry", Some(true)), lemma("step", Some(false))],
            Some((1, 2)),
        );
        assert_eq!(conclusion(&step).unwrap(), Conclusion::RefutedLemma);
        let open = report(vec![lemma("entry", None)], None);
        assert_eq!(conclusion(&open).unwrap(), Conclusion::Undecided);
    }

    /// Every lemma answered unsat but nothing validated: no report says
    /// "proved".
    #[test]
    fn every_lemma_unsat_without_validation_is_not_a_proof() {
        let all = ["entry", "step", "exit"].map(|n| lemma(n, Some(true)));
        let e = conclusion(&report(all.to_vec(), None)).unwrap_err();
        assert!(matches!(e, ReportError::NotValidated(_)), "{e}");
        assert!(e.to_string().ends_with("nothing is proved"), "{e}");
    }
}

//! `octoku prove generate`: generate's fill against the reference's on every
//! seed of at most K redraws, pattern by pattern ([`crate::generate`]), as a
//! report.

use std::path::Path;

use octoku_core::Board;
use octoku_evm::Puzzle;
use serde::Serialize;

use super::{Conclusion, Fill, ReportError, outcome};
use crate::engine::ProveError;
use crate::generate::{CaseResult, Compare, prove_generate};
use crate::program::Program;
use crate::solver::Solver;

/// The report of `octoku prove generate --json`.
#[derive(Debug, Clone, Serialize)]
pub struct GenerateProof {
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// Always "generate".
    pub property: &'static str,
    /// Proved, counterexample or undecided (also when every pattern was
    /// proved but the proof was not validated against revm).
    pub result: Conclusion,
    /// The class of seeds, in words.
    pub class: String,
    /// The calls the proof covers, in words.
    pub domain: String,
    /// Inputs on which both programs' terms were checked against revm
    /// before "proved" (null otherwise).
    pub validated_inputs: Option<usize>,
    /// The class: at most this many draws land on a filled cell.
    pub max_redraws: usize,
    /// What was compared: the board (golf, an author's) or the filled
    /// cells (fair).
    pub compare: Compare,
    /// Patterns in the class.
    pub patterns: usize,
    /// Patterns proved.
    pub proved_patterns: usize,
    /// The patterns left undecided or stuck.
    pub undecided_patterns: Vec<String>,
    /// The solver and its version.
    pub solver: String,
    /// Wall time of the solver runs.
    pub solve_seconds: f64,
    /// The solver's check time.
    pub check_seconds: f64,
    /// Symbolic execution time.
    pub execution_seconds: f64,
    /// The directory of the queries.
    pub queries: String,
    /// The queries' size in bytes (each pattern's last).
    pub query_bytes: usize,
    /// The counterexample's seed in hex.
    pub seed: Option<String>,
    /// The reference's result on it.
    pub reference_output: Option<String>,
    /// The implementation's result on it.
    pub implementation_output: Option<String>,
    /// An author's contract's counterexample: the address replayed, or null
    /// when no address is known to hash to the seed (not replayable; the
    /// results are the path terms evaluated). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Option<String>>,
    /// The counterexample's pattern.
    #[serde(skip)]
    pub pattern: Option<String>,
    /// Solver rounds beyond the first query of each pattern.
    #[serde(skip)]
    pub refinement_rounds: usize,
    /// Whether the implementation is the author's contract.
    #[serde(skip)]
    pub own: bool,
}

/// The query directory name [`prove`] is meant for, for `fill`.
///
/// ```
/// use octoku_prove::report::{Fill, generate::query_name};
/// assert_eq!(query_name(&Fill::Builtin(octoku_evm::Puzzle::Fair)), "generate-fair");
/// ```
pub fn query_name(fill: &Fill<'_>) -> String {
    format!("generate-{}", fill.tag())
}

/// Proves `fill` equal to the reference's on every seed whose reference
/// `_fill` makes at most `k` draws that land on a filled cell (an author's
/// `generate(address)`: every address whose seed does), pattern by pattern,
/// with the queries under `dir`. A refutation is replayed in revm.
///
/// ```no_run
/// use octoku_prove::report::{Conclusion, Fill, generate};
/// use octoku_prove::solver::Solver;
/// let golf = Fill::Builtin(octoku_evm::Puzzle::Golf);
/// let dir = std::env::temp_dir().join(generate::query_name(&golf));
/// let proof = generate::prove(&golf, 1, &dir, &Solver::choose(None)?)?;
/// if proof.result == Conclusion::Proved {
///     println!("proved for {}", proof.class);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove(
    fill: &Fill<'_>,
    k: usize,
    dir: &Path,
    solver: &Solver,
) -> Result<GenerateProof, ProveError> {
    let (reference, implementation, compare) = match *fill {
        Fill::Builtin(p) => (
            Program::harness(Puzzle::Reference),
            Program::harness(p),
            if p == Puzzle::Fair {
                Compare::Cells
            } else {
                Compare::Board
            },
        ),
        Fill::Own { runtime, .. } => (
            Program::generate(Puzzle::Reference.artifact().runtime),
            Program::generate(runtime),
            Compare::Board,
        ),
    };
    let r = prove_generate(reference, implementation, compare, k, dir, solver)?;
    let own = fill.is_own();
    let class = if own {
        format!(
            "every address whose seed keccak256(address) has a reference _fill with at most {k} draws that land on a filled cell (keccak256 an unknown function of the address bytes both contracts hash)"
        )
    } else {
        format!(
            "every 256-bit seed whose reference _fill makes at most {k} draws that land on a filled cell"
        )
    };
    let c = r.counterexample.as_ref();
    Ok(GenerateProof {
        puzzle: fill.name(),
        property: "generate",
        result: if c.is_some() {
            Conclusion::Counterexample
        } else if r.proved() {
            Conclusion::Proved
        } else {
            Conclusion::Undecided
        },
        class,
        domain: fill.domain(),
        validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
        max_redraws: k,
        compare: r.compare,
        patterns: r.cases.len(),
        proved_patterns: r.count(|c| *c == CaseResult::Proved),
        undecided_patterns: r
            .cases
            .iter()
            .filter(|c| matches!(c.result, CaseResult::Undecided | CaseResult::Stuck))
            .map(|c| c.pattern.name())
            .collect(),
        solver: r.solver.clone(),
        solve_seconds: r.solve_time.as_secs_f64(),
        check_seconds: r.check_time.as_secs_f64(),
        execution_seconds: r.exec_time.as_secs_f64(),
        queries: r.query.display().to_string(),
        query_bytes: r.cases.iter().map(|c| c.query_bytes).sum(),
        seed: c.map(|c| Board(c.seed).to_hex()),
        reference_output: c.map(|c| outcome(&c.reference)),
        implementation_output: c.map(|c| outcome(&c.implementation)),
        address: match (own, c) {
            (true, Some(c)) => Some(c.address.map(|a| a.to_checksum(None))),
            _ => None,
        },
        pattern: c.map(|c| c.pattern.clone()),
        refinement_rounds: r.cases.iter().map(|c| c.rounds.saturating_sub(1)).sum(),
        own,
    })
}

impl GenerateProof {
    /// What was proved equal: `generate(address)` or `fill`.
    pub fn subject(&self) -> &'static str {
        if self.own {
            "generate(address)"
        } else {
            "fill"
        }
    }

    /// What it was proved equal to.
    pub fn against(&self) -> &'static str {
        if self.own {
            "the reference's generate(address)"
        } else {
            "the reference _fill"
        }
    }

    /// Why a report that is not a counterexample proves nothing: some
    /// pattern undecided, or no validation against revm; `None` when proved
    /// or refuted.
    pub fn unsettled(&self) -> Option<ReportError> {
        if self.result == Conclusion::Counterexample {
            return None;
        }
        if !self.undecided_patterns.is_empty() {
            return Some(ReportError::Undecided {
                open: self.undecided_patterns.len(),
                patterns: self.patterns,
            });
        }
        (self.result != Conclusion::Proved).then_some(ReportError::NotValidated(
            "every pattern answered unsat but the proof was not validated against revm",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of 3 patterns with `result` and `open` undecided ones.
    fn proof(result: Conclusion, open: &[&str]) -> GenerateProof {
        GenerateProof {
            puzzle: "golf".into(),
            property: "generate",
            result,
            class: String::new(),
            domain: String::new(),
            validated_inputs: None,
            max_redraws: 1,
            compare: Compare::Board,
            patterns: 3,
            proved_patterns: 3 - open.len(),
            undecided_patterns: open.iter().map(|s| s.to_string()).collect(),
            solver: String::new(),
            solve_seconds: 0.0,
            check_seconds: 0.0,
            execution_seconds: 0.0,
            queries: String::new(),
            query_bytes: 0,
            seed: None,
            reference_output: None,
            implementation_output: None,
            address: None,
            pattern: None,
            refinement_rounds: 0,
            own: false,
        }
    }

    /// Proved and refuted reports are settled; an undecided one says how
    /// many patterns are open, or that nothing was validated.
    #[test]
    fn a_report_that_proves_nothing_says_why() {
        assert!(proof(Conclusion::Proved, &[]).unsettled().is_none());
        assert!(
            proof(Conclusion::Counterexample, &["p1"])
                .unsettled()
                .is_none()
        );
        let open = proof(Conclusion::Undecided, &["p1", "p2"]).unsettled();
        assert!(
            matches!(
                open,
                Some(ReportError::Undecided {
                    open: 2,
                    patterns: 3
                })
            ),
            "{open:?}"
        );
        let unvalidated = proof(Conclusion::Undecided, &[]).unsettled();
        assert!(
            matches!(unvalidated, Some(ReportError::NotValidated(_))),
            "{unvalidated:?}"
        );
    }

    /// The JSON names the comparison as docs/commands.md does.
    #[test]
    fn the_json_names_results_and_comparisons_in_words() {
        let v = serde_json::to_value(proof(Conclusion::Undecided, &["p1"])).unwrap();
        assert_eq!(v["result"], "undecided");
        assert_eq!(v["compare"], "board");
        assert!(v.get("address").is_none() && v.get("own").is_none(), "{v}");
        let refuted = serde_json::to_value(Conclusion::RefutedLemma).unwrap();
        assert_eq!(refuted, "refuted lemma");
    }
}

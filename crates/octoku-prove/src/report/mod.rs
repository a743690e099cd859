//! The reports of `octoku prove`, one typed document per proof kind, each
//! with the function that runs its proof: [`verify`] (the 8×8
//! `verify(uint256,uint256)`), [`classic9`] (the 9×9 `verify(bytes,bytes)`),
//! [`generate`] (generate's fill on the seeds of at most K redraws) and
//! [`all_seeds`] (generate's fill on every seed, by induction). Each report
//! serializes (serde) to the JSON of `octoku prove … --json`
//! (docs/commands.md); its fields are what the text report prints.
//!
//! A report never says "proved" for a proof whose terms were not checked
//! against revm ([`crate::validate`]): such a run is a [`ReportError`]
//! (verify, classic9, all seeds) or an unsettled report
//! ([`generate::GenerateProof::unsettled`]).

pub mod all_seeds;
pub mod classic9;
pub mod generate;
pub mod verify;

use octoku_evm::{Puzzle, RawOutcome};
use serde::Serialize;

use crate::engine::{ProveError, Side};
use crate::induction::InductionError;

/// How a proof ended, as its report's `result` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Conclusion {
    /// Equal on every input of the domain, validated against revm.
    #[serde(rename = "proved")]
    Proved,
    /// An input on which the two differ (replayed in revm, or for an
    /// address no known preimage reaches, evaluated from the path terms).
    #[serde(rename = "counterexample")]
    Counterexample,
    /// Induction only: a step lemma refuted on a state between draws that
    /// no seed is shown to reach; nothing is proved.
    #[serde(rename = "refuted lemma")]
    RefutedLemma,
    /// A query the solver did not decide, or (generate) a proof not
    /// validated against revm; nothing is proved.
    #[serde(rename = "undecided")]
    Undecided,
}

/// Why a proof gave no report, or a report that proves nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The executor, the solver or the query directory failed, or the
    /// solver gave up (classic9, verify).
    #[error(transparent)]
    Prove(Box<ProveError>),
    /// The induction could not be set up or run.
    #[error(transparent)]
    Induction(Box<InductionError>),
    /// Every query answered unsat, but the terms were not validated against
    /// revm: nothing is proved. The text says what was answered.
    #[error("{0}; nothing is proved")]
    NotValidated(&'static str),
    /// Some patterns of a generate proof are undecided.
    #[error(
        "undecided: {open} of {patterns} patterns (OCTOKU_SOLVER_TIME_LIMIT seconds per query, default 600, or more paths than the refinement rounds follow); nothing is proved for them"
    )]
    Undecided {
        /// Patterns undecided or stuck.
        open: usize,
        /// Patterns in the class.
        patterns: usize,
    },
}

impl From<ProveError> for ReportError {
    fn from(e: ProveError) -> ReportError {
        ReportError::Prove(Box::new(e))
    }
}

impl From<InductionError> for ReportError {
    fn from(e: InductionError) -> ReportError {
        ReportError::Induction(Box::new(e))
    }
}

/// One side of a proof, as the symbolic executor saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideFigures {
    /// Instructions executed over all paths.
    pub instructions: u64,
    /// Paths forked at a JUMPI both ways.
    pub forks: u64,
    /// Paths merged back.
    pub merges: u64,
    /// The most states alive at once.
    pub max_states: usize,
    /// Paths that ended.
    pub ends: u64,
    /// Distinct term nodes of its outcome.
    pub term_nodes: usize,
}

impl From<&Side> for SideFigures {
    fn from(s: &Side) -> SideFigures {
        SideFigures {
            instructions: s.stats.steps,
            forks: s.stats.forks,
            merges: s.stats.merges,
            max_states: s.stats.max_live,
            ends: s.stats.ended,
            term_nodes: s.nodes,
        }
    }
}

/// How a replayed call ended, with its data: `returns 0x…` or `reverts 0x…`.
///
/// ```
/// use octoku_evm::RawOutcome;
/// let ended = RawOutcome { success: false, output: vec![0xab].into(), gas: 0 };
/// assert_eq!(octoku_prove::report::outcome(&ended), "reverts 0xab");
/// ```
pub fn outcome(call: &RawOutcome) -> String {
    let how = if call.success { "returns" } else { "reverts" };
    format!("{how} {}", octoku_core::hex::encode_prefixed(&call.output))
}

/// A name made safe for a directory name: letters, digits, '-' and '_'
/// kept, anything else '_'.
///
/// ```
/// assert_eq!(octoku_prove::report::tag("My Puzzle.sol:P"), "My_Puzzle_sol_P");
/// ```
pub fn tag(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The calls a proof of an author's `generate(address)` covers.
pub const GENERATE_DOMAIN: &str = "every call generate(address) with 36 bytes of calldata (the selector and one word below 2^160) and no value";

/// Whose fill a generate proof compares with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill<'a> {
    /// A built-in implementation, called on the raw seed through its test
    /// harness (golf: the whole board; fair: which cells are filled).
    Builtin(Puzzle),
    /// An author's contract, called as `generate(address)` and compared
    /// with the reference's `generate(address)` (the whole board).
    Own {
        /// Its name (the contract's, or the file's).
        name: &'a str,
        /// The runtime code its creation code deploys.
        runtime: &'a [u8],
    },
}

impl<'a> Fill<'a> {
    /// The name a report gives it.
    pub fn name(&self) -> String {
        match self {
            Fill::Builtin(p) => p.to_string(),
            Fill::Own { name, .. } => (*name).to_string(),
        }
    }

    /// Its name made safe for a directory name ([`tag`]).
    pub fn tag(&self) -> String {
        tag(&self.name())
    }

    /// Whether it is the author's contract.
    pub fn is_own(&self) -> bool {
        matches!(self, Fill::Own { .. })
    }

    /// The calls its proof covers, in words.
    ///
    /// ```
    /// use octoku_prove::report::Fill;
    /// let golf = Fill::Builtin(octoku_evm::Puzzle::Golf).domain();
    /// assert!(golf.starts_with("every call fill(uint256) of the raw-seed harness"));
    /// ```
    pub fn domain(&self) -> String {
        let signature = match self {
            Fill::Own { .. } => return GENERATE_DOMAIN.to_string(),
            Fill::Builtin(Puzzle::Fair) => "fairFromSeed(uint256)",
            Fill::Builtin(_) => "fill(uint256)",
        };
        format!(
            "every call {signature} of the raw-seed harness (against the reference harness's generateFromSeed(uint256)) with 36 bytes of calldata and no value"
        )
    }
}

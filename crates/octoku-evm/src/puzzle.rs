//! The puzzle catalogue: every implementation of `IPuzzle`, its compiled
//! contract and harness, and the Rust mirror it must agree with.

use std::fmt;

use alloy_primitives::U256;
use octoku_core::{Address, Board};
use serde::{Deserialize, Serialize};

use crate::artifacts::{self, Artifact};

/// Which implementation of `IPuzzle`: the one puzzle-kind type of every
/// command (`--puzzle`), the embedded chain's state file and the deployment
/// record, spelled `reference`, `golf` or `fair`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Puzzle {
    /// The published algorithm, output-identical to Curta puzzle #1.
    #[default]
    Reference,
    /// The same outputs on every input at a fraction of the gas (contracts/Golf.sol).
    Golf,
    /// Every board solvable by construction: the published cells, the digits
    /// of a hidden random valid grid (contracts/Fair.sol).
    Fair,
}

impl Puzzle {
    /// Every implementation, in the order reports list them.
    pub const ALL: [Puzzle; 3] = [Puzzle::Reference, Puzzle::Golf, Puzzle::Fair];

    /// The compiled contract behind this implementation.
    pub const fn artifact(self) -> Artifact {
        match self {
            Puzzle::Reference => artifacts::REFERENCE,
            Puzzle::Golf => artifacts::GOLF,
            Puzzle::Fair => artifacts::FAIR,
        }
    }

    /// The test-only contract that runs this implementation's own generate
    /// code on a raw seed word (contracts/harness/).
    pub const fn harness_artifact(self) -> Artifact {
        match self {
            Puzzle::Reference => artifacts::REFERENCE_HARNESS,
            Puzzle::Golf => artifacts::GOLF_HARNESS,
            Puzzle::Fair => artifacts::FAIR_HARNESS,
        }
    }

    /// The classic 9×9 validator beside this implementation
    /// (contracts/classic9/): the reference or the golfed one; the fair
    /// puzzle has none.
    pub const fn classic9_artifact(self) -> Option<Artifact> {
        match self {
            Puzzle::Reference => Some(artifacts::CLASSIC9_REFERENCE),
            Puzzle::Golf => Some(artifacts::CLASSIC9_GOLF),
            Puzzle::Fair => None,
        }
    }

    /// The 9×9 validator's name in reports: `c9-ref` or `c9-golf`.
    pub const fn classic9_label(self) -> &'static str {
        match self {
            Puzzle::Reference => "c9-ref",
            Puzzle::Golf => "c9-golf",
            Puzzle::Fair => "c9-none",
        }
    }

    /// This implementation's position in [`Puzzle::ALL`].
    pub(crate) const fn index(self) -> usize {
        match self {
            Puzzle::Reference => 0,
            Puzzle::Golf => 1,
            Puzzle::Fair => 2,
        }
    }

    /// The Rust mirror of this implementation's `generate`.
    pub fn mirror_generate(self, address: &Address) -> Board {
        if self.generates_as_published() {
            octoku_core::generate(address)
        } else {
            octoku_core::octoku::fair::fair_generate(address)
        }
    }

    /// Whether this implementation's generate and fill are the published
    /// puzzle's (the reference and golf: one mirror for both).
    pub const fn generates_as_published(self) -> bool {
        matches!(self, Puzzle::Reference | Puzzle::Golf)
    }

    /// The Rust mirror of this implementation's fill loop on a raw seed word
    /// (golf's is the published one: same outputs on every seed).
    pub fn mirror_fill(self, seed: U256) -> Board {
        if self.generates_as_published() {
            octoku_core::generate_from_seed(seed)
        } else {
            octoku_core::octoku::fair::fair_generate_from_seed(seed)
        }
    }

    /// The Rust mirror of this implementation's `verify` (one rule for all).
    pub fn mirror_verify(self, start: Board, solution: Board) -> bool {
        octoku_core::verify(start, solution)
    }

    /// The name used on the command line, in reports and in files.
    pub const fn label(self) -> &'static str {
        match self {
            Puzzle::Reference => "reference",
            Puzzle::Golf => "golf",
            Puzzle::Fair => "fair",
        }
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_spelling_is_the_label() {
        for p in Puzzle::ALL {
            let text = serde_json::to_string(&p).unwrap();
            assert_eq!(text, format!("\"{}\"", p.label()));
            assert_eq!(serde_json::from_str::<Puzzle>(&text).unwrap(), p);
        }
        assert!(serde_json::from_str::<Puzzle>("\"Golf\"").is_err());
    }

    #[test]
    fn index_is_the_position_in_all() {
        for (i, p) in Puzzle::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
        }
    }
}

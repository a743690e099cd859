//! The fill under proof: a contract's runtime code and the call that runs
//! its fill, as both the pattern proofs ([`crate::generate`]) and the
//! induction ([`crate::induction`]) take it.

use alloy_primitives::Bytes;
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_evm::Puzzle;
use octoku_evm::bindings::{IFairHarness, IGolfHarness, IPuzzle, IReferenceHarness};

use crate::exec::Call;
use crate::term::{TermId, Terms};

/// One program: runtime bytecode, the selector of the call that runs its
/// fill, and what that call takes as its one argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program<'a> {
    /// Runtime bytecode.
    pub code: &'a [u8],
    /// Selector of the fill call.
    pub selector: [u8; 4],
    /// What the call's one argument is.
    pub input: Input,
}

/// What a program's fill call takes as its one argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The raw seed (calldata `selector ++ seed`): the test harnesses.
    Seed,
    /// An address (IPuzzle's `generate(address)`): the program hashes the
    /// address's 20 bytes to the seed, as the reference's `generate` does.
    Address,
}

impl<'a> Program<'a> {
    /// A fill called on the raw seed through the one-argument function `C`
    /// (e.g. `IGolfHarness::fillCall`).
    pub fn seed<C: SolCall>(code: &'a [u8]) -> Program<'a> {
        Program {
            code,
            selector: C::SELECTOR,
            input: Input::Seed,
        }
    }

    /// An author's IPuzzle, called as `generate(address)`.
    pub fn generate(code: &'a [u8]) -> Program<'a> {
        Program {
            code,
            selector: IPuzzle::generateCall::SELECTOR,
            input: Input::Address,
        }
    }

    /// The fill call on the symbolic `arg` (the seed or the address), with
    /// the executor's default KECCAK256 handling; the proofs choose theirs
    /// ([`Call::hashes_as_variables`], [`Call::hashes_from_witness`]).
    pub fn call(&self, terms: &mut Terms, arg: TermId) -> Call {
        Call::abi(terms, self.selector, &[arg])
    }

    /// The calldata of the fill call on `arg` (the seed or the address).
    pub fn calldata(&self, arg: U256) -> Bytes {
        let mut data = self.selector.to_vec();
        data.extend_from_slice(&arg.to_be_bytes::<32>());
        Bytes::from(data)
    }
}

impl Program<'static> {
    /// The test harness of a built-in implementation, called on the raw
    /// seed: the reference's `generateFromSeed`, the golfed `fill`, the fair
    /// `fairFromSeed`.
    pub fn harness(puzzle: Puzzle) -> Program<'static> {
        let code = puzzle.harness_artifact().runtime;
        match puzzle {
            Puzzle::Reference => Program::seed::<IReferenceHarness::generateFromSeedCall>(code),
            Puzzle::Golf => Program::seed::<IGolfHarness::fillCall>(code),
            Puzzle::Fair => Program::seed::<IFairHarness::fairFromSeedCall>(code),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harness_selectors_are_the_signatures_keccak() {
        let keccak4 = |s: &str| {
            let h = alloy_primitives::keccak256(s.as_bytes());
            [h[0], h[1], h[2], h[3]]
        };
        let cases = [
            (Puzzle::Reference, "generateFromSeed(uint256)"),
            (Puzzle::Golf, "fill(uint256)"),
            (Puzzle::Fair, "fairFromSeed(uint256)"),
        ];
        for (puzzle, signature) in cases {
            let p = Program::harness(puzzle);
            assert_eq!(p.selector, keccak4(signature), "{puzzle}");
            assert_eq!(p.input, Input::Seed);
        }
        let g = Program::generate(&[]);
        assert_eq!(g.selector, keccak4("generate(address)"));
        assert_eq!(g.input, Input::Address);
        let data = g.calldata(U256::from(0xabu8));
        assert_eq!(data.len(), 36);
        assert_eq!(&data[..4], &keccak4("generate(address)"));
        assert_eq!(data[35], 0xab);
    }
}

//! Differential tests: the Rust mirror (octoku-core) against every compiled
//! implementation (reference, golfed, fair) running in revm, on random and
//! structured inputs. mirror = reference = golf on every verify and generate.
//!
//! The default run executes well over 10,000 cases in all; set
//! `PROPTEST_CASES` to scale every property. A mismatch fails with proptest's
//! minimal reproducing input printed as hex.

use octoku_core::{Board, generate, rng::SplitMix64, solve::octoku as solve, verify};
use octoku_evm::{
    Puzzle,
    cases::{self, VerifyClass},
};
use proptest::prelude::*;

mod common;
use common::EVM;

/// Default cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1_500;

/// The verdict every implementation gives; panics (failing the property with
/// its input) if two implementations disagree with each other.
fn evm_verify(start: Board, solution: Board) -> bool {
    let verdicts: Vec<(Puzzle, bool)> = EVM.with(|evm| {
        let mut evm = evm.borrow_mut();
        Puzzle::ALL
            .iter()
            .map(|&p| {
                (
                    p,
                    evm.verify(p, start, solution).expect("verify call").value,
                )
            })
            .collect()
    });
    let first = verdicts[0].1;
    assert!(
        verdicts.iter().all(|v| v.1 == first),
        "implementations disagree on verify({start}, {solution}): {verdicts:?}"
    );
    first
}

/// Every implementation gives the mirror's verdict on `verify(start, solution)`.
fn verify_agrees(start: Board, solution: Board) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        evm_verify(start, solution),
        verify(start, solution),
        "start {} solution {}",
        start,
        solution
    );
    Ok(())
}

/// An input drawn by `octoku_evm::cases` (the fuzzer's generators) from a
/// seed proptest picks; a failure prints the input and shrinks the seed.
fn drawn<T: std::fmt::Debug>(draw: fn(&mut SplitMix64) -> T) -> impl Strategy<Value = T> {
    any::<u64>().prop_map(move |seed| draw(&mut SplitMix64::new(seed)))
}

proptest! {
    #![proptest_config(common::config(DEFAULT_CASES))]

    /// generate(address): each implementation gives its mirror's board for any address.
    #[test]
    fn generate_agrees_on_random_addresses(address in drawn(cases::address)) {
        for puzzle in Puzzle::ALL {
            let evm = EVM.with(|evm| evm.borrow_mut().generate(puzzle, &address).expect("generate call"));
            prop_assert_eq!(evm.value, puzzle.mirror_generate(&address), "{} generate({})", puzzle, address);
        }
        prop_assert_eq!(Puzzle::Golf.mirror_generate(&address), generate(&address));
    }

    /// Every implementation's own fill code (through its raw-seed harness)
    /// agrees with its mirror on any raw seed, sparse ones (which run out) and
    /// colliding ones (many redraws) included.
    #[test]
    fn fills_agree_on_raw_sparse_and_colliding_seeds(seed in prop_oneof![
        drawn(|rng| rng.u256()),
        drawn(cases::sparse_seed),
        drawn(cases::colliding_seed),
    ]) {
        for harness in Puzzle::ALL {
            let evm = EVM.with(|evm| evm.borrow_mut().fill(harness, seed).expect("harness call"));
            prop_assert_eq!(evm.value, harness.mirror_fill(seed), "{} fill, seed {:#x}", harness, seed);
        }
    }

    /// A valid grid verifies against any subset of its own cells as the start.
    #[test]
    fn verify_agrees_on_valid_solutions_with_subset_starts(
        (start, grid) in drawn(|rng| cases::verify_case(VerifyClass::Valid, rng)),
    ) {
        prop_assert!(verify(start, grid));
        verify_agrees(start, grid)?;
    }

    /// Mutations of valid grids: swaps, bad digits, band row swaps, wrong givens.
    #[test]
    fn verify_agrees_on_mutated_solutions((start, solution) in drawn(cases::mutated)) {
        verify_agrees(start, solution)?;
    }

    /// Latin squares that break only subgrids: cyclic shifts pass rows and columns.
    #[test]
    fn verify_agrees_on_latin_squares(solution in drawn(cases::latin)) {
        verify_agrees(Board::EMPTY, solution)?;
    }

    /// Fully random pairs of words.
    #[test]
    fn verify_agrees_on_random_pairs(
        (start, solution) in drawn(|rng| cases::verify_case(VerifyClass::Random, rng)),
    ) {
        verify_agrees(start, solution)?;
    }

    /// Generated boards as starts against valid grids and random words.
    #[test]
    fn verify_agrees_on_generated_starts((start, grid) in drawn(cases::generated_start)) {
        verify_agrees(start, grid)?;
    }

    /// The solver's solution for a random address's board keeps its givens and
    /// verifies in the mirror and in the contract; a board it cannot solve has
    /// no completion at all.
    #[test]
    fn solver_solutions_verify_in_mirror_and_contract(address in drawn(cases::address)) {
        let start = generate(&address);
        match solve::solve(start).expect("generated boards hold digits 1-8") {
            Some(solution) => {
                prop_assert!(verify(start, solution), "mirror rejects {} for {}", solution, start);
                prop_assert!(evm_verify(start, solution), "contract rejects {} for {}", solution, start);
            }
            None => prop_assert_eq!(solve::count(start, 1), Ok(0)),
        }
    }
}

/// Seeds at the edges of the draw loops ([`cases::edge_seeds`]): every
/// implementation's harness agrees with its mirror.
#[test]
fn fills_agree_on_edge_seeds() {
    EVM.with(|evm| {
        let mut evm = evm.borrow_mut();
        for seed in cases::edge_seeds() {
            for puzzle in Puzzle::ALL {
                let board = evm.fill(puzzle, seed).expect("harness call").value;
                assert_eq!(board, puzzle.mirror_fill(seed), "{puzzle}, seed {seed:#x}");
            }
        }
    });
}

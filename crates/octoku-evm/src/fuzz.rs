//! Differential fuzzing: the same input to the Rust mirror and to every
//! compiled implementation in revm; any difference is a [`Mismatch`].
//!
//! Case `i` of seed `s` is a pure function of `(s, i)`, so a mismatch is
//! reproduced by running that one case again.

use std::fmt;

use alloy_primitives::U256;
use octoku_core::{Address, Board, rng::SplitMix64};

use crate::{
    cases::{random_subset, valid_grid, with_index},
    machine::{EvmError, Machine},
    puzzle::Puzzle,
};

/// One input, for one function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `generate(address)` on every implementation.
    Generate(Address),
    /// The fill loops on a raw seed word (through the raw-seed harnesses).
    Fill(U256),
    /// `verify(start, solution)` on every implementation.
    Verify(Board, Board),
}

/// A disagreement between two executions of the same case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The case index within its seed.
    pub index: u64,
    /// The input.
    pub case: Case,
    /// What each side answered: `(who, answer)`.
    pub answers: Vec<(String, String)>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.case {
            Case::Generate(a) => write!(f, "generate({a}) disagrees:")?,
            Case::Fill(s) => write!(f, "fill(seed {s:#x}) disagrees:")?,
            Case::Verify(s, g) => write!(f, "verify({s}, {g}) disagrees:")?,
        }
        for (who, answer) in &self.answers {
            write!(f, " {who} = {answer};")?;
        }
        Ok(())
    }
}

/// The case with index `index` of seed `seed`.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = SplitMix64::for_index(seed, index);
    match index % 10 {
        0 | 1 => Case::Generate(Address::new(rng.bytes20())),
        2 => Case::Fill(sparse_seed(&mut rng)),
        3 => {
            let grid = valid_grid(&mut rng);
            Case::Verify(random_subset(&mut rng, grid), grid)
        }
        4 | 5 => mutated(&mut rng),
        6 => latin(&mut rng),
        7 => {
            let grid = valid_grid(&mut rng);
            Case::Verify(octoku_core::generate(&Address::new(rng.bytes20())), grid)
        }
        8 => {
            // Random words whose nibbles are mostly 1..8: they get past the first checks.
            let mut cells = [0u8; 64];
            for c in &mut cells {
                *c = (rng.below(9)) as u8;
            }
            Case::Verify(Board::EMPTY, Board::from_cells(&cells))
        }
        _ => Case::Verify(Board::from_u256(rng.u256()), Board::from_u256(rng.u256())),
    }
}

/// Seeds that run out early: few set bits, short words, or draws from few cells.
fn sparse_seed(rng: &mut SplitMix64) -> U256 {
    match rng.below(4) {
        0 => (0..rng.below(12)).fold(U256::ZERO, |acc, _| {
            acc | (U256::from(1u8) << rng.below(256) as usize)
        }),
        1 => rng.u256() >> rng.below(257) as usize,
        2 => {
            (0..1 + rng.below(43)).fold(U256::ZERO, |acc, _| (acc << 6) | U256::from(rng.below(4)))
        }
        _ => rng.u256(),
    }
}

/// A valid grid with one structured defect.
fn mutated(rng: &mut SplitMix64) -> Case {
    let grid = valid_grid(rng);
    let mut start = random_subset(rng, grid);
    let mut cells = grid.cells();
    let (a, b) = (rng.below(64) as usize, rng.below(64) as usize);
    match rng.below(5) {
        0 => cells.swap(a, b),
        1 => cells[a] = [0u8, 9, 10, 11, 12, 13, 14, 15][rng.below(8) as usize],
        2 => {
            // Rows from different bands swapped: rows and columns hold, subgrids break.
            let (r1, r2) = (a % 8, (a % 8 + 2 + b % 6) % 8);
            for c in 0..8 {
                cells.swap(8 * r1 + c, 8 * r2 + c);
            }
        }
        3 => start = with_index(start, a, grid.cells()[a] % 8 + 1),
        _ => cells[a] = cells[a] % 8 + 1,
    }
    Case::Verify(start, Board::from_cells(&cells))
}

/// A Latin square (rows and columns hold 1..8) that breaks only subgrids.
fn latin(rng: &mut SplitMix64) -> Case {
    let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
    for i in (1..8).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let shift = [1usize, 3, 5, 7][rng.below(4) as usize];
    let mut cells = [0u8; 64];
    for r in 0..8 {
        for c in 0..8 {
            cells[8 * r + c] = perm[(c + shift * r) % 8];
        }
    }
    Case::Verify(Board::EMPTY, Board::from_cells(&cells))
}

/// Runs one case on the mirror and every implementation; `Ok(None)` when all agree.
pub fn check(machine: &mut Machine, seed: u64, index: u64) -> Result<Option<Mismatch>, EvmError> {
    check_only(machine, seed, index, &Puzzle::ALL)
}

/// [`check`] on the implementations in `puzzles` only. A raw-seed case runs
/// each selected implementation's own fill code through its harness.
pub fn check_only(
    machine: &mut Machine,
    seed: u64,
    index: u64,
    puzzles: &[Puzzle],
) -> Result<Option<Mismatch>, EvmError> {
    let case = case(seed, index);
    let mut answers = Vec::with_capacity(2 * puzzles.len() + 1);
    let agree = match case {
        Case::Generate(address) => {
            let mut ok = true;
            for &puzzle in puzzles {
                let got = machine.generate(puzzle, &address)?.value;
                let want = puzzle.mirror_generate(&address);
                ok &= got == want;
                answers.push((format!("{puzzle} contract"), got.to_hex()));
                answers.push((format!("{puzzle} mirror"), want.to_hex()));
            }
            ok
        }
        Case::Fill(seed_word) => {
            let mut ok = true;
            for &puzzle in puzzles {
                let got = machine.fill(puzzle, seed_word)?.value;
                let want = puzzle.mirror_fill(seed_word);
                answers.push((format!("{puzzle} harness"), got.to_hex()));
                answers.push((format!("{puzzle} mirror"), want.to_hex()));
                ok &= got == want;
            }
            ok
        }
        Case::Verify(start, solution) => {
            let want = octoku_core::verify(start, solution);
            answers.push(("mirror".into(), want.to_string()));
            let mut ok = true;
            for &puzzle in puzzles {
                let got = machine.verify(puzzle, start, solution)?.value;
                ok &= got == want;
                answers.push((format!("{puzzle} contract"), got.to_string()));
            }
            ok
        }
    };
    Ok((!agree).then_some(Mismatch {
        index,
        case,
        answers,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_a_pure_function_of_seed_and_index() {
        for i in 0..50 {
            assert_eq!(case(9, i), case(9, i));
        }
        assert_ne!(case(9, 3), case(10, 3));
    }

    #[test]
    fn every_case_kind_is_produced() {
        let kinds: Vec<u8> = (0..40)
            .map(|i| match case(1, i) {
                Case::Generate(_) => 0,
                Case::Fill(_) => 1,
                Case::Verify(..) => 2,
            })
            .collect();
        assert!(kinds.contains(&0) && kinds.contains(&1) && kinds.contains(&2));
    }

    #[test]
    fn a_run_of_cases_finds_no_mismatch() {
        let mut machine = Machine::new().expect("contracts deploy");
        for i in 0..2_000 {
            assert_eq!(check(&mut machine, 42, i).expect("calls succeed"), None);
        }
    }
}

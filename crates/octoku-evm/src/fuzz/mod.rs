//! Differential fuzzing: the same input to the Rust mirror and to every
//! compiled implementation in revm; any difference is a [`Mismatch`].
//!
//! Case `i` of seed `s` is a pure function of `(s, i)`, so a mismatch is
//! reproduced by running that one case again. [`run`] runs many cases on
//! worker threads and reports the first disagreement.

pub mod run;
mod workers;

use std::fmt;

use alloy_primitives::{Bytes, U256};
use alloy_sol_types::SolCall;
use octoku_core::{Address, Board, rng::SplitMix64};

use crate::{
    bindings::IPuzzle,
    cases::{self, VerifyClass},
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

/// The case with index `index` of seed `seed`: a tenth each of the kinds
/// below, every one drawn by [`crate::cases`] from the case's own stream.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = SplitMix64::for_index(seed, index);
    match index % 10 {
        0 | 1 => Case::Generate(cases::address(&mut rng)),
        2 => Case::Fill(cases::sparse_seed(&mut rng)),
        3 => pair(cases::verify_case(VerifyClass::Valid, &mut rng)),
        4 | 5 => pair(cases::mutated(&mut rng)),
        6 => Case::Verify(Board::EMPTY, cases::latin(&mut rng)),
        7 => pair(cases::generated_start(&mut rng)),
        8 => Case::Verify(Board::EMPTY, cases::small_digits(&mut rng)),
        _ => pair(cases::verify_case(VerifyClass::Random, &mut rng)),
    }
}

fn pair((start, solution): (Board, Board)) -> Case {
    Case::Verify(start, solution)
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
    // Answers are written out only for a disagreement: the calls are pure,
    // so running them again gives the same answers.
    if compare(machine, case, puzzles, None)? {
        return Ok(None);
    }
    let mut answers = Vec::with_capacity(2 * puzzles.len() + 1);
    compare(machine, case, puzzles, Some(&mut answers))?;
    Ok(Some(Mismatch {
        index,
        case,
        answers,
    }))
}

/// Runs `case` on the mirror and on `puzzles`; whether all agree. With
/// `answers`, also what each side answered, in report order.
fn compare(
    machine: &mut Machine,
    case: Case,
    puzzles: &[Puzzle],
    mut answers: Option<&mut Vec<(String, String)>>,
) -> Result<bool, EvmError> {
    let keep = answers.is_some();
    let mut note = |who: String, answer: String| {
        if let Some(answers) = answers.as_deref_mut() {
            answers.push((who, answer));
        }
    };
    // Work every implementation of the case shares is done once: the
    // calldata is encoded once, and the published generate (the reference's
    // and golf's mirror) runs once.
    let mut published = None;
    let mut ok = true;
    match case {
        Case::Generate(address) => {
            let data = Bytes::from(IPuzzle::generateCall { seed: address }.abi_encode());
            for &puzzle in puzzles {
                let to = machine.address_of(puzzle);
                let got = machine.call_encoded::<IPuzzle::generateCall>(to, data.clone())?;
                let got = Board::from_u256(got.value);
                let want = if puzzle.generates_as_published() {
                    *published.get_or_insert_with(|| puzzle.mirror_generate(&address))
                } else {
                    puzzle.mirror_generate(&address)
                };
                ok &= got == want;
                if keep {
                    note(format!("{puzzle} contract"), got.to_hex());
                    note(format!("{puzzle} mirror"), want.to_hex());
                }
            }
        }
        Case::Fill(seed_word) => {
            for &puzzle in puzzles {
                let got = machine.fill(puzzle, seed_word)?.value;
                let want = if puzzle.generates_as_published() {
                    *published.get_or_insert_with(|| puzzle.mirror_fill(seed_word))
                } else {
                    puzzle.mirror_fill(seed_word)
                };
                ok &= got == want;
                if keep {
                    note(format!("{puzzle} harness"), got.to_hex());
                    note(format!("{puzzle} mirror"), want.to_hex());
                }
            }
        }
        Case::Verify(start, solution) => {
            let want = octoku_core::verify(start, solution);
            if keep {
                note("mirror".into(), want.to_string());
            }
            let call = IPuzzle::verifyCall {
                start: start.to_u256(),
                solution: solution.to_u256(),
            };
            let data = Bytes::from(call.abi_encode());
            for &puzzle in puzzles {
                let to = machine.address_of(puzzle);
                let got = machine
                    .call_encoded::<IPuzzle::verifyCall>(to, data.clone())?
                    .value;
                ok &= got == want;
                if keep {
                    note(format!("{puzzle} contract"), got.to_string());
                }
            }
        }
    }
    Ok(ok)
}

/// Runs one case on an author's IPuzzle at `at` (loaded into `machine`):
/// verify against the mirror's rule always; generate against the mirror's
/// board, or with `own_generate` twice (the same board both times) and
/// through the solver (the board must have a solution). A raw-seed case
/// becomes generate of the address in the seed's low 20 bytes (an author's
/// contract has no raw-seed harness).
pub fn check_target(
    machine: &mut Machine,
    at: alloy_primitives::Address,
    seed: u64,
    index: u64,
    own_generate: bool,
) -> Result<Option<Mismatch>, EvmError> {
    let case = match case(seed, index) {
        Case::Fill(word) => Case::Generate(Address::from_word(word.into())),
        other => other,
    };
    if compare_target(machine, at, case, own_generate, None)? {
        return Ok(None);
    }
    let mut answers = Vec::new();
    compare_target(machine, at, case, own_generate, Some(&mut answers))?;
    Ok(Some(Mismatch {
        index,
        case,
        answers,
    }))
}

/// [`check_target`]'s comparison of `case`; with `answers`, what each side answered.
fn compare_target(
    machine: &mut Machine,
    at: alloy_primitives::Address,
    case: Case,
    own_generate: bool,
    answers: Option<&mut Vec<(String, String)>>,
) -> Result<bool, EvmError> {
    let mut written = Vec::new();
    let agree = match case {
        Case::Generate(address) => {
            let got = machine.generate_at(at, &address)?.value;
            if own_generate {
                let again = machine.generate_at(at, &address)?.value;
                let solvable = matches!(octoku_core::solve::octoku::solve(got), Ok(Some(_)));
                if answers.is_some() {
                    written = vec![
                        ("target contract".to_string(), got.to_hex()),
                        ("target again".into(), again.to_hex()),
                        (
                            "solver".into(),
                            if solvable { "solvable" } else { "no solution" }.into(),
                        ),
                    ];
                }
                got == again && solvable
            } else {
                let want = octoku_core::generate(&address);
                if answers.is_some() {
                    written = vec![
                        ("target contract".to_string(), got.to_hex()),
                        ("reference mirror".into(), want.to_hex()),
                    ];
                }
                got == want
            }
        }
        Case::Verify(start, solution) => {
            let want = octoku_core::verify(start, solution);
            let got = machine.verify_at(at, start, solution)?.value;
            if answers.is_some() {
                written = vec![
                    ("target contract".into(), got.to_string()),
                    ("reference mirror".into(), want.to_string()),
                ];
            }
            got == want
        }
        Case::Fill(_) => unreachable!("mapped to generate by check_target"),
    };
    if let Some(answers) = answers {
        answers.extend(written);
    }
    Ok(agree)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Case `i` of seed `s` is the same input on every machine and in every
    /// build (replay commands printed by earlier runs stay valid): pinned
    /// cases, and a digest of the first 10,000 of seed 9, computed in any order.
    #[test]
    fn cases_are_pinned_by_seed_and_index() {
        let address = |s: &str| octoku_core::parse_address(s).unwrap();
        let board = |s: &str| s.parse::<Board>().unwrap();
        assert_eq!(
            case(9, 0),
            Case::Generate(address("0x646070befe52afae62eaaf875e8a2dc0b689b544"))
        );
        assert_eq!(
            case(9, 2),
            Case::Fill(
                "238813348826440322996979955042647920837721436478741157"
                    .parse()
                    .unwrap()
            )
        );
        assert_eq!(
            case(9, 3),
            Case::Verify(
                board("0x0310000228073004026000350035621016705403458016070000700030400001"),
                board("0x6314857228573164826147357435621816725483458316275128734637462851")
            )
        );
        assert_eq!(
            case(9, 7),
            Case::Verify(
                board("0x0000200000000600000008000000040000750000000000030000000010000000"),
                board("0x8635271427143568658743214321867512635847547812367152648338467152")
            )
        );
        assert_eq!(
            case(9, 8),
            Case::Verify(
                Board::EMPTY,
                board("0x4106726410633557137134530860286427154067586234017344732631151428")
            )
        );
        // Drawn backwards: the digest does not depend on what ran before.
        let mut lines: Vec<String> = (0..10_000u64)
            .rev()
            .map(|i| format!("{:?}\n", case(9, i)))
            .collect();
        lines.reverse();
        assert_eq!(
            octoku_core::keccak256(lines.concat()).to_string(),
            "0x1573662c2e160fb6f59f7cda9f7d80c016d8126365af33fe0d4ed83353fc966b"
        );
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

//! The classic 9×9 validators (contracts/classic9/) on the in-memory EVM:
//! which contract backs `--puzzle reference|golf` at size 9, typed calls
//! through the `sol!` bindings of `IClassic9.sol`, raw calls (any calldata,
//! with or without value), and the differential cases that compare both
//! contracts with the Rust mirror ([`octoku_core::classic9::run`]).
//!
//! Case `i` of seed `s` is a pure function of `(s, i)`, as in [`crate::fuzz`].

use std::fmt;

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::{SolCall, SolError};
use octoku_core::{
    classic9::{self as mirror, CELLS, Classic9Error, Outcome},
    grid::symmetry::{self, Symmetry},
    rng::SplitMix64,
};

use crate::{
    bindings::IClassic9,
    machine::{Call, EvmError, Machine, RawOutcome},
    puzzle::Puzzle,
};

/// The implementations with a 9×9 validator, in report order.
pub const IMPLEMENTATIONS: [Puzzle; 2] = [Puzzle::Reference, Puzzle::Golf];

impl Machine {
    /// `isValidSolution(grid)` on the validator at `to`: the verdict, or the
    /// contract's `GridLength` error, and the call's execution gas.
    pub fn classic9_is_valid(
        &mut self,
        to: Address,
        grid: &[u8],
    ) -> Result<Call<Result<bool, Classic9Error>>, EvmError> {
        let call = IClassic9::isValidSolutionCall {
            grid: Bytes::copy_from_slice(grid),
        };
        self.classic9_typed(to, &call)
    }

    /// `verify(start, solution)` on the validator at `to`.
    pub fn classic9_verify(
        &mut self,
        to: Address,
        start: &[u8],
        solution: &[u8],
    ) -> Result<Call<Result<bool, Classic9Error>>, EvmError> {
        let call = IClassic9::verifyCall {
            start: Bytes::copy_from_slice(start),
            solution: Bytes::copy_from_slice(solution),
        };
        self.classic9_typed(to, &call)
    }

    fn classic9_typed<C: SolCall<Return = bool>>(
        &mut self,
        to: Address,
        call: &C,
    ) -> Result<Call<Result<bool, Classic9Error>>, EvmError> {
        let raw = self.call_raw(to, Bytes::from(call.abi_encode()))?;
        let value = match outcome(&raw)? {
            Outcome::Returned(valid) => Ok(valid),
            Outcome::Error(error) => Err(error),
            Outcome::Refused => return Err(EvmError::Reverted(raw.output)),
        };
        Ok(Call {
            value,
            gas: raw.gas,
        })
    }
}

/// A raw call's result in the mirror's terms: `abi.encode(bool)` returned,
/// `GridLength(len)` reverted, or an empty revert. Anything else is an error.
pub fn outcome(raw: &RawOutcome) -> Result<Outcome, EvmError> {
    let data = &raw.output[..];
    if raw.success {
        return IClassic9::isValidSolutionCall::abi_decode_returns_validate(data)
            .map(Outcome::Returned)
            .map_err(EvmError::return_data);
    }
    if data.is_empty() {
        return Ok(Outcome::Refused);
    }
    let error =
        IClassic9::GridLength::abi_decode_validate(data).map_err(|source| EvmError::Decode {
            what: "revert data",
            source,
        })?;
    let length =
        u64::try_from(error.length).map_err(|_| EvmError::GridLengthPast64Bits(error.length))?;
    Ok(Outcome::Error(Classic9Error::GridLength { length }))
}

/// Input classes of the gas report, each a (start, solution) pair of 81
/// bytes: a valid grid with about half its cells given; the same with its
/// first cell 0 (the reference stops at once); with its last cell another
/// digit (the reference runs its whole loop); 81 random bytes.
pub const GAS_CLASSES: [&str; 4] = ["valid", "invalid-first", "invalid-late", "random"];

/// The (start, solution) of one gas-report case of `class` (see [`GAS_CLASSES`]).
pub fn gas_case(class: &str, rng: &mut SplitMix64) -> (Vec<u8>, Vec<u8>) {
    let grid = valid_grid(rng);
    let start = givens(rng, &grid);
    match class {
        "valid" => (start, grid),
        "invalid-first" => {
            let mut bad = grid;
            bad[0] = 0;
            (start, bad)
        }
        "invalid-late" => {
            let mut bad = grid;
            bad[CELLS - 1] = bad[CELLS - 1] % 9 + 1;
            (start, bad)
        }
        _ => (random_bytes(rng, CELLS), random_bytes(rng, CELLS)),
    }
}

/// One differential input: calldata and whether value is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// What the input is, for reports.
    pub kind: &'static str,
    /// The whole calldata.
    pub calldata: Vec<u8>,
    /// Whether 1 wei is sent with the call.
    pub value: bool,
}

/// A disagreement between the mirror and a contract on one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The case index within its seed.
    pub index: u64,
    /// The input.
    pub case: Case,
    /// What each side answered: `(who, success, output)`.
    pub answers: Vec<(String, bool, Bytes)>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "classic9 {} (calldata {}, value {}) disagrees:",
            self.case.kind,
            Bytes::copy_from_slice(&self.case.calldata),
            u8::from(self.case.value)
        )?;
        for (who, success, output) in &self.answers {
            let how = if *success { "returned" } else { "reverted" };
            write!(f, " {who} {how} {output};")?;
        }
        Ok(())
    }
}

/// Runs case `index` of `seed` on the mirror and both contracts; `Ok(None)`
/// when the success flag and the return (or revert) bytes all agree.
pub fn check(machine: &mut Machine, seed: u64, index: u64) -> Result<Option<Mismatch>, EvmError> {
    let validators = validators(machine, &IMPLEMENTATIONS);
    check_at(machine, seed, index, &validators)
}

/// The 9×9 validators of `puzzles` on `machine`, each named as reports name
/// it (fair has none and is skipped): what [`check_at`] runs them as.
pub fn validators(machine: &Machine, puzzles: &[Puzzle]) -> Vec<(String, Address)> {
    puzzles
        .iter()
        .filter_map(|&p| Some((format!("classic9 {p}"), machine.classic9_address(p)?)))
        .collect()
}

/// Case `index` of `seed` on the mirror and the validators at these
/// addresses (each named for reports), as [`check`] does.
pub fn check_at(
    machine: &mut Machine,
    seed: u64,
    index: u64,
    validators: &[(String, Address)],
) -> Result<Option<Mismatch>, EvmError> {
    let case = case(seed, index);
    let expected = mirror::run(&case.calldata, case.value);
    let (success, output) = (expected.success(), expected.output());
    let value = U256::from(u8::from(case.value));
    // One calldata for every validator: each call shares it.
    let calldata = Bytes::copy_from_slice(&case.calldata);
    let mut agree = true;
    for (_, to) in validators {
        let raw = machine.call_raw_paid(*to, calldata.clone(), value)?;
        agree &= raw.success == success && raw.output[..] == output[..];
    }
    if agree {
        return Ok(None);
    }
    // Written out only for a disagreement: the calls are pure, so running
    // them again gives the same answers.
    let mut answers = vec![("mirror".to_string(), success, Bytes::from(output))];
    for (who, to) in validators {
        let raw = machine.call_raw_paid(*to, calldata.clone(), value)?;
        answers.push((who.clone(), raw.success, raw.output));
    }
    Ok(Some(Mismatch {
        index,
        case,
        answers,
    }))
}

/// The case with index `index` of seed `seed`.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = SplitMix64::for_index(seed ^ 0xc1a5_5109, index);
    let grid = valid_grid(&mut rng);
    let start = givens(&mut rng, &grid);
    let (kind, calldata) = match index % 10 {
        0 => ("valid grid with givens", encode_verify(&start, &grid)),
        1 => ("valid grid", encode_is_valid(&grid)),
        2 => {
            let mut m = grid.clone();
            m.swap(rng.below(81) as usize, rng.below(81) as usize);
            ("two cells swapped", encode_verify(&start, &m))
        }
        3 => {
            let bad = [0u8, 10 + rng.below(246) as u8][rng.below(2) as usize];
            let at = rng.below(81) as usize;
            let (mut s, mut m) = (start.clone(), grid.clone());
            if rng.below(2) == 0 {
                m[at] = bad;
            } else {
                s[at] = bad;
            }
            ("a byte set to 0 or 10..255", encode_verify(&s, &m))
        }
        4 => (
            "a box broken, rows and columns kept",
            encode_is_valid(&box_broken(&mut rng, &grid)),
        ),
        5 => ("a Latin square", encode_is_valid(&latin(&mut rng))),
        6 => {
            let cells: Vec<u8> = (0..CELLS).map(|_| rng.below(10) as u8).collect();
            let raw = random_bytes(&mut rng, CELLS);
            ("random cells", encode_verify(&raw, &cells))
        }
        7 => {
            let len = rng.below(201) as usize;
            let wrong = random_bytes(&mut rng, len);
            match rng.below(3) {
                0 => ("a length 0..200", encode_is_valid(&wrong)),
                1 => ("a length 0..200", encode_verify(&wrong, &grid)),
                _ => ("a length 0..200", encode_verify(&start, &wrong)),
            }
        }
        8 => ("an ABI edge shape", abi_edge(&mut rng, &start, &grid)),
        _ => {
            let mut data = [mirror::IS_VALID_SOLUTION_SELECTOR, mirror::VERIFY_SELECTOR]
                [rng.below(2) as usize]
                .to_vec();
            let len = rng.below(300) as usize;
            data.extend(random_bytes(&mut rng, len));
            ("random calldata", data)
        }
    };
    Case {
        kind,
        calldata,
        value: index % 10 >= 7 && rng.below(4) == 0,
    }
}

/// `abi.encodeCall(IClassic9.isValidSolution, (grid))` through the bindings.
pub fn encode_is_valid(grid: &[u8]) -> Vec<u8> {
    IClassic9::isValidSolutionCall {
        grid: Bytes::copy_from_slice(grid),
    }
    .abi_encode()
}

/// `abi.encodeCall(IClassic9.verify, (start, solution))` through the bindings.
pub fn encode_verify(start: &[u8], solution: &[u8]) -> Vec<u8> {
    IClassic9::verifyCall {
        start: Bytes::copy_from_slice(start),
        solution: Bytes::copy_from_slice(solution),
    }
    .abi_encode()
}

/// A random valid grid: a base Sudoku under random digit relabelling, band,
/// row-in-band, stack and column-in-stack permutations and transposition
/// (the maps of [`octoku_core::grid::symmetry`], drawn in that order).
pub fn valid_grid(rng: &mut SplitMix64) -> Vec<u8> {
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    let rows = symmetry::shuffled_lines(9, 3, rng);
    let cols = symmetry::shuffled_lines(9, 3, rng);
    let transpose = rng.below(2) == 1;
    // base(r, c) = (c + 3 r + r / 3) % 9 + 1: a Sudoku.
    let base: Vec<u8> = (0..CELLS)
        .map(|i| ((i % 9 + 3 * (i / 9) + i / 27) % 9) as u8 + 1)
        .collect();
    // Place (r, c) takes base(rows[r], cols[c]), or base(cols[c], rows[r])
    // when transposed: the transposition comes first here, so the drawn
    // lines trade roles.
    let (from_rows, from_cols) = if transpose {
        (&cols, &rows)
    } else {
        (&rows, &cols)
    };
    let mut cells = Symmetry::from_sources(from_rows, from_cols, transpose).apply_cells(&base);
    symmetry::relabel(&mut cells, &digits);
    cells
}

/// The grid's cells kept with probability 1/2 each, the rest 0.
fn givens(rng: &mut SplitMix64, grid: &[u8]) -> Vec<u8> {
    grid.iter()
        .map(|&d| if rng.below(2) == 0 { d } else { 0 })
        .collect()
}

/// Two rows of different bands (or two columns of different stacks) swapped,
/// chosen so that a box breaks: rows and columns still hold 1..9, at least
/// one box does not. (Two lines of one band swapped, or two lines whose
/// digits agree box by box, would leave a valid grid.) The first of the six
/// lines outside the band that breaks a box is taken, starting at a drawn
/// one; one always does, as the three lines of another band split each box's
/// digits among them and cannot all match the line drawn.
fn box_broken(rng: &mut SplitMix64, grid: &[u8]) -> Vec<u8> {
    let a = rng.below(9) as usize;
    let columns = rng.below(2) == 1;
    let first = rng.below(6) as usize;
    let swapped = |b: usize| {
        let mut out = grid.to_vec();
        for k in 0..9 {
            let (i, j) = if columns {
                (9 * k + a, 9 * k + b)
            } else {
                (9 * a + k, 9 * b + k)
            };
            out.swap(i, j);
        }
        out
    };
    let mut out = Vec::new();
    for t in 0..6 {
        let pick = (first + t) % 6;
        let band = (a / 3 + 1 + pick / 3) % 3;
        out = swapped(3 * band + pick % 3);
        if !boxes_hold_every_digit(&out) {
            break;
        }
    }
    out
}

/// Whether each of the nine 3×3 boxes holds 1..9 once.
fn boxes_hold_every_digit(cells: &[u8]) -> bool {
    (0..9).all(|b| {
        let seen = (0..9).fold(0u16, |m, k| {
            let cell = 27 * (b / 3) + 3 * (b % 3) + 9 * (k / 3) + k % 3;
            m | 1u16 << cells[cell].min(15)
        });
        seen == 0b11_1111_1110
    })
}

/// cell(r, c) = perm[(c + k r) % 9] for k in {1, 2, 4, 5, 7, 8}: rows and
/// columns hold 1..9, boxes do not.
fn latin(rng: &mut SplitMix64) -> Vec<u8> {
    let mut perm: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut perm);
    let k = [1usize, 2, 4, 5, 7, 8][rng.below(6) as usize];
    (0..CELLS)
        .map(|i| perm[(i % 9 + k * (i / 9)) % 9])
        .collect()
}

fn random_bytes(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.below(256) as u8).collect()
}

/// A well-formed call with one part of its encoding changed: an offset or a
/// length word rewritten (small, unaligned or at least 2^64), the calldata
/// cut short, or trailing bytes added.
fn abi_edge(rng: &mut SplitMix64, start: &[u8], grid: &[u8]) -> Vec<u8> {
    let mut data = if rng.below(2) == 0 {
        encode_is_valid(grid)
    } else {
        encode_verify(start, grid)
    };
    let word = match rng.below(4) {
        0 => U256::from(rng.below(0x140)),
        1 => U256::from(rng.below(0x100)) << 64,
        2 => U256::MAX - U256::from(rng.below(64)),
        _ => U256::from(81 + rng.below(3)) - U256::from(1),
    };
    match rng.below(5) {
        // the first or second offset word
        0 | 1 => {
            let at = 4 + 32 * (rng.below(2) as usize);
            data[at..at + 32].copy_from_slice(&word.to_be_bytes::<32>());
        }
        // a length word
        2 => {
            let at = 4 + 32 * (1 + rng.below(2) as usize);
            if at + 32 <= data.len() {
                data[at..at + 32].copy_from_slice(&word.to_be_bytes::<32>());
            }
        }
        3 => data.truncate(rng.below(data.len() as u64 + 1) as usize),
        _ => {
            let len = 1 + rng.below(64) as usize;
            let extra = random_bytes(rng, len);
            data.extend(extra);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_grids_are_valid_for_the_mirror() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..200 {
            let grid = valid_grid(&mut rng);
            assert_eq!(mirror::is_valid_solution(&grid), Ok(true), "{grid:?}");
        }
    }

    #[test]
    fn a_broken_box_breaks_a_box_and_keeps_rows_and_columns() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..2_000 {
            let grid = valid_grid(&mut rng);
            assert!(boxes_hold_every_digit(&grid));
            let broken = box_broken(&mut rng, &grid);
            assert!(!boxes_hold_every_digit(&broken), "{broken:?}");
            assert_eq!(mirror::is_valid_solution(&broken), Ok(false));
            for line in 0..9 {
                let row = (0..9).fold(0u16, |m, k| m | 1 << broken[9 * line + k]);
                let column = (0..9).fold(0u16, |m, k| m | 1 << broken[9 * k + line]);
                assert_eq!((row, column), (0b11_1111_1110, 0b11_1111_1110));
            }
        }
    }

    #[test]
    fn latin_squares_are_invalid_for_the_mirror() {
        let mut rng = SplitMix64::new(4);
        for _ in 0..50 {
            assert_eq!(mirror::is_valid_solution(&latin(&mut rng)), Ok(false));
        }
    }
}

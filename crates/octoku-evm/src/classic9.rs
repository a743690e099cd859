//! The classic 9×9 validators (contracts/classic9/) on the in-memory EVM:
//! which contract backs `--puzzle reference|golf` at size 9, typed calls
//! through the `sol!` bindings of `IClassic9.sol`, raw calls (any calldata,
//! with or without value), and the differential cases that compare both
//! contracts with the Rust mirror ([`octoku_core::classic9::run`]).
//!
//! [`verify`] is `octoku verify --size 9`: one validator's verdict on a
//! start and a solution, cross-checked with the mirror, as a [`Verdict9`].
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
use serde::Serialize;

use crate::{
    bindings::IClassic9,
    machine::{Call, EvmError, Machine, RawOutcome},
    puzzle::Puzzle,
    target::Target,
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

/// Which 9×9 validator gave a verdict, as messages name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validator9 {
    /// The built-in validator of an implementation (`--puzzle`), in the in-memory EVM.
    Builtin(Puzzle),
    /// An author's validator (its label), in the in-memory EVM.
    Code(String),
    /// A validator deployed at `address` on the chain `chain` describes itself as.
    Deployed {
        /// Where it is deployed.
        address: Address,
        /// The chain (`embedded (PATH)`, `URL (chain id N)`).
        chain: String,
    },
}

impl fmt::Display for Validator9 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Validator9::Builtin(puzzle) => write!(f, "the 9x9 {puzzle} contract"),
            Validator9::Code(label) => write!(f, "the 9x9 validator {label}"),
            Validator9::Deployed { address, chain } => {
                write!(f, "the 9x9 validator at {address} ({chain})")
            }
        }
    }
}

/// `octoku verify --size 9 --json`: a 9×9 validator's verdict on a start
/// and a solution, the same as the Rust mirror's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict9 {
    /// Whether the validator accepts the solution.
    pub valid: bool,
    /// The board's size: 9.
    pub size: u8,
    /// The implementation whose 9×9 validator ran in the in-memory EVM.
    pub puzzle: Option<Puzzle>,
    /// The author's validator, by its label (`--artifact`, `--bytecode`, `--contract`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The deployed validator called instead (`--puzzle-address`), checksummed.
    #[serde(serialize_with = "crate::json::shown_opt")]
    pub puzzle_address: Option<Address>,
    /// The chain it was called on (`embedded (PATH)`, `URL (chain id N)`).
    pub chain: Option<String>,
    /// The start's bytes, one per cell (`0x` hex).
    #[serde(serialize_with = "crate::json::hex_bytes")]
    pub start: Vec<u8>,
    /// The solution's bytes, one per cell (`0x` hex).
    #[serde(serialize_with = "crate::json::hex_bytes")]
    pub solution: Vec<u8>,
    /// Execution gas of verify (in-memory EVM only).
    pub gas: Option<u64>,
}

impl Verdict9 {
    /// Checks `answer`, what `validator` said to `verify(start, solution)`,
    /// against the mirror ([`mirror::verify_bytes`]): the verdict when both
    /// accept or both reject; [`Verify9Error::Refused`] when both refuse the
    /// call; [`Verify9Error::Mismatch`] when they differ. `gas`: the
    /// execution gas of the call, when known.
    pub fn checked(
        validator: Validator9,
        answer: Result<bool, Classic9Error>,
        start: &[u8],
        solution: &[u8],
        gas: Option<u64>,
    ) -> Result<Verdict9, Verify9Error> {
        let mirror = mirror::verify_bytes(start, solution);
        if answer != mirror {
            return Err(Verify9Error::Mismatch {
                validator,
                answer,
                mirror,
            });
        }
        let valid = answer.map_err(Verify9Error::Refused)?;
        let (puzzle, target, puzzle_address, chain) = match validator {
            Validator9::Builtin(puzzle) => (Some(puzzle), None, None, None),
            Validator9::Code(label) => (None, Some(label), None, None),
            Validator9::Deployed { address, chain } => (None, None, Some(address), Some(chain)),
        };
        Ok(Verdict9 {
            valid,
            size: 9,
            puzzle,
            target,
            puzzle_address,
            chain,
            start: start.to_vec(),
            solution: solution.to_vec(),
            gas,
        })
    }

    /// The validator that gave the verdict (a deployed one before an
    /// author's, an author's before a built-in).
    pub fn validator(&self) -> Option<Validator9> {
        match (&self.puzzle_address, &self.chain, &self.target, self.puzzle) {
            (Some(address), chain, _, _) => Some(Validator9::Deployed {
                address: *address,
                chain: chain.clone().unwrap_or_default(),
            }),
            (None, _, Some(label), _) => Some(Validator9::Code(label.clone())),
            (None, _, None, Some(puzzle)) => Some(Validator9::Builtin(puzzle)),
            (None, _, None, None) => None,
        }
    }
}

/// Why a 9×9 validator gave no verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Verify9Error {
    /// The implementation has no 9×9 validator (fair).
    #[error("there is no 9x9 validator of {0}; expected reference or golf")]
    NoValidator(Puzzle),
    /// The validator and the Rust mirror answer differently.
    #[error("{validator} says {answer:?} and the Rust mirror says {mirror:?}")]
    Mismatch {
        /// The validator.
        validator: Validator9,
        /// What it answered.
        answer: Result<bool, Classic9Error>,
        /// What the mirror answers.
        mirror: Result<bool, Classic9Error>,
    },
    /// Both refuse the call (a start or solution not 81 bytes long).
    #[error(transparent)]
    Refused(Classic9Error),
    /// The EVM failed, or the validator's answer does not decode as a
    /// 9×9 validator's.
    #[error(transparent)]
    Evm(#[from] EvmError),
}

/// `verify(start, solution)` on the 9×9 validator of `target` (a built-in's,
/// or an author's code deployed now) in the in-memory EVM, checked against
/// the Rust mirror.
///
/// ```
/// use octoku_core::classic9::{VALID_GRIDS, parse_grid};
/// use octoku_evm::{Machine, Puzzle, Target, classic9};
/// let solution = parse_grid("SOLUTION", VALID_GRIDS[0]).unwrap();
/// let start = vec![0; 81];
/// let mut evm = Machine::new().unwrap();
/// let verdict =
///     classic9::verify(&mut evm, &Target::Builtin(Puzzle::Golf), &start, &solution).unwrap();
/// assert!(verdict.valid);
/// assert!(verdict.gas.is_some());
/// ```
pub fn verify(
    machine: &mut Machine,
    target: &Target,
    start: &[u8],
    solution: &[u8],
) -> Result<Verdict9, Verify9Error> {
    let (to, validator) = match target {
        Target::Builtin(puzzle) => (
            machine
                .classic9_address(*puzzle)
                .ok_or(Verify9Error::NoValidator(*puzzle))?,
            Validator9::Builtin(*puzzle),
        ),
        Target::Code(code) => (machine.load(target)?, Validator9::Code(code.label.clone())),
    };
    let call = machine.classic9_verify(to, start, solution)?;
    Verdict9::checked(validator, call.value, start, solution, Some(call.gas))
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

    fn grid(text: &str) -> Vec<u8> {
        mirror::parse_grid("GRID", text).unwrap()
    }

    /// Runtime code that returns `abi.encode(true)` to any call.
    const ALWAYS_TRUE: &str = "600160005260206000f3";

    fn code(label: &str, runtime: &str) -> Target {
        Target::Code(crate::Code {
            label: label.into(),
            initcode: None,
            runtime: Some(alloy_primitives::hex::decode(runtime).unwrap()),
            source_map: None,
            sources: Vec::new(),
        })
    }

    #[test]
    fn both_validators_accept_valid_grids_and_reject_invalid_ones() {
        let mut evm = Machine::new().unwrap();
        let empty = vec![0; CELLS];
        for puzzle in IMPLEMENTATIONS {
            for (valid, invalid) in mirror::VALID_GRIDS.iter().zip(mirror::INVALID_GRIDS) {
                let target = Target::Builtin(puzzle);
                let yes = verify(&mut evm, &target, &empty, &grid(valid)).unwrap();
                assert!(yes.valid, "{puzzle} {valid}");
                assert_eq!(yes.validator(), Some(Validator9::Builtin(puzzle)));
                assert_eq!((yes.puzzle, yes.size), (Some(puzzle), 9));
                assert!(yes.gas.unwrap() > 0);
                let no = verify(&mut evm, &target, &empty, &grid(invalid)).unwrap();
                assert!(!no.valid, "{puzzle} {invalid}");
                // A start whose given differs from the solution: rejected.
                let mut start = empty.clone();
                start[0] = grid(valid)[0] % 9 + 1;
                assert!(
                    !verify(&mut evm, &target, &start, &grid(valid))
                        .unwrap()
                        .valid
                );
            }
        }
    }

    #[test]
    fn a_grid_of_the_wrong_length_is_refused_by_both() {
        let mut evm = Machine::new().unwrap();
        let e = verify(
            &mut evm,
            &Target::Builtin(Puzzle::Reference),
            &[0; CELLS],
            &[1, 2],
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                Verify9Error::Refused(Classic9Error::GridLength { length: 2 })
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("a grid of 2 bytes"), "{e}");
    }

    #[test]
    fn fair_has_no_validator() {
        let mut evm = Machine::new().unwrap();
        let e = verify(
            &mut evm,
            &Target::Builtin(Puzzle::Fair),
            &[0; CELLS],
            &[0; CELLS],
        )
        .unwrap_err();
        assert!(
            matches!(e, Verify9Error::NoValidator(Puzzle::Fair)),
            "{e:?}"
        );
    }

    #[test]
    fn an_authors_validator_that_disagrees_with_the_mirror_is_a_mismatch() {
        let mut evm = Machine::new().unwrap();
        let target = code("yes.bin", ALWAYS_TRUE);
        // It accepts a valid grid, as the mirror does.
        let ok = verify(
            &mut evm,
            &target,
            &[0; CELLS],
            &grid(mirror::VALID_GRIDS[1]),
        )
        .unwrap();
        assert!(ok.valid);
        assert_eq!(ok.target.as_deref(), Some("yes.bin"));
        assert_eq!(ok.validator(), Some(Validator9::Code("yes.bin".into())));
        // And an invalid one, which the mirror rejects.
        let e = verify(
            &mut evm,
            &target,
            &[0; CELLS],
            &grid(mirror::INVALID_GRIDS[1]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the 9x9 validator yes.bin says Ok(true) and the Rust mirror says Ok(false)"
        );
    }

    #[test]
    fn an_answer_that_does_not_decode_is_an_evm_error() {
        let mut evm = Machine::new().unwrap();
        // STOP: returns no data.
        let e = verify(&mut evm, &code("stop.bin", "00"), &[0; CELLS], &[0; CELLS]).unwrap_err();
        assert!(
            matches!(e, Verify9Error::Evm(EvmError::Decode { .. })),
            "{e:?}"
        );
    }

    #[test]
    fn the_document_shows_the_bytes_in_hex_and_the_validator() {
        let address = Address::repeat_byte(0xab);
        let validator = Validator9::Deployed {
            address,
            chain: "embedded (s.json)".into(),
        };
        let solution = grid(mirror::VALID_GRIDS[0]);
        let verdict =
            Verdict9::checked(validator.clone(), Ok(true), &[0; CELLS], &solution, None).unwrap();
        assert_eq!(verdict.validator(), Some(validator.clone()));
        assert_eq!(
            validator.to_string(),
            format!("the 9x9 validator at {address} (embedded (s.json))")
        );
        let json = serde_json::to_value(&verdict).unwrap();
        assert_eq!(json["valid"], true);
        assert_eq!(json["puzzle_address"], address.to_checksum(None));
        assert_eq!(json["chain"], "embedded (s.json)");
        assert_eq!(json["start"], format!("0x{}", "00".repeat(CELLS)));
        assert_eq!(json["solution"].as_str().unwrap().len(), 2 + 2 * CELLS);
        assert!(json["puzzle"].is_null() && json["gas"].is_null());
        assert!(json.get("target").is_none());
    }

    #[test]
    fn latin_squares_are_invalid_for_the_mirror() {
        let mut rng = SplitMix64::new(4);
        for _ in 0..50 {
            assert_eq!(mirror::is_valid_solution(&latin(&mut rng)), Ok(false));
        }
    }
}

//! Differential tests of the classic 9×9 validators: the Rust mirror
//! (`octoku_core::classic9::run`, solc's dispatcher and decoder included)
//! against `Classic9Reference` and `Classic9Golf` compiled and running in
//! revm. Every property compares the success flag and the exact return or
//! revert bytes of all three; gas of the golfed validator is asserted exactly.
//!
//! Set `PROPTEST_CASES` to scale every property.

use octoku_core::{
    classic9::{self as mirror, CELLS, Classic9Error, INVALID_GRIDS, Outcome, VALID_GRIDS},
    rng::SplitMix64,
};
use octoku_evm::{
    Machine, Puzzle,
    classic9::{IMPLEMENTATIONS, check, encode_is_valid, encode_verify, outcome, valid_grid},
};
use proptest::prelude::*;

mod common;
use common::EVM;

/// Default cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1_000;

/// Exact execution gas of the golfed validator on every call that decodes
/// with length 81 (tests/Classic9Golf.t.sol measures the same figures).
const GOLF_IS_VALID_GAS: u64 = 1_059;
const GOLF_VERIFY_GAS: u64 = 1_334;

fn digits(text: &str) -> Vec<u8> {
    text.bytes().map(|b| b - b'0').collect()
}

/// The mirror's outcome, after asserting that both contracts give exactly
/// its success flag and bytes on `calldata` (sent with 1 wei if `value`).
/// Returns the golfed validator's gas.
fn same(calldata: &[u8], value: bool) -> (Outcome, u64) {
    let expected = mirror::run(calldata, value);
    let mut golf_gas = 0;
    EVM.with(|evm| {
        let mut evm = evm.borrow_mut();
        for puzzle in IMPLEMENTATIONS {
            let to = evm.classic9_address(puzzle).expect("deployed");
            let raw = evm
                .call_raw_paid(to, calldata.to_vec().into(), alloy_value(value))
                .expect("call runs");
            assert_eq!(
                (raw.success, raw.output.to_vec()),
                (expected.success(), expected.output()),
                "classic9 {puzzle} vs mirror on calldata 0x{} (value {value})",
                octoku_core::hex::encode(calldata)
            );
            assert_eq!(outcome(&raw).expect("decodes"), expected);
            if puzzle == Puzzle::Golf {
                golf_gas = raw.gas;
            }
        }
    });
    (expected, golf_gas)
}

fn alloy_value(value: bool) -> octoku_core::U256 {
    octoku_core::U256::from(u8::from(value))
}

fn grid_from(seed: u64) -> Vec<u8> {
    valid_grid(&mut SplitMix64::new(seed))
}

/// The listed valid grids pass both contracts (as a solution, and as their
/// own start); the listed invalid ones fail, and the mirror agrees.
#[test]
fn listed_grids_get_the_same_verdict_from_both_contracts() {
    for (texts, valid) in [(&VALID_GRIDS[..], true), (&INVALID_GRIDS[..], false)] {
        for text in texts {
            let grid = digits(text);
            let mut calls = vec![encode_is_valid(&grid), encode_verify(&[0; CELLS], &grid)];
            if valid {
                calls.push(encode_verify(&grid, &grid));
            }
            for call in calls {
                assert_eq!(same(&call, false).0, Outcome::Returned(valid), "{text}");
            }
        }
    }
}

#[test]
fn typed_calls_through_the_sol_bindings_give_verdicts_and_grid_length() {
    let mut evm = Machine::new().unwrap();
    let grid = digits(VALID_GRIDS[0]);
    for puzzle in IMPLEMENTATIONS {
        let to = evm.classic9_address(puzzle).unwrap();
        assert_eq!(evm.classic9_is_valid(to, &grid).unwrap().value, Ok(true));
        assert_eq!(
            evm.classic9_verify(to, &grid[..80], &grid).unwrap().value,
            Err(Classic9Error::GridLength { length: 80 })
        );
    }
    assert_eq!(evm.classic9_address(Puzzle::Fair), None);
}

#[test]
fn every_length_0_to_200_agrees() {
    let grid = grid_from(1);
    for len in 0..=200usize {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 11) as u8).collect();
        for value in [false, true] {
            same(&encode_is_valid(&bytes), value);
            same(&encode_verify(&bytes, &grid), value);
            same(&encode_verify(&[0; CELLS], &bytes), value);
            same(&encode_verify(&bytes, &bytes), value);
        }
    }
}

#[test]
fn abi_edge_shapes_agree_with_and_without_value() {
    let grid = digits(VALID_GRIDS[2]);
    let one = encode_is_valid(&grid);
    let two = encode_verify(&grid, &grid);
    let word = |v: u128| octoku_core::U256::from(v).to_be_bytes::<32>().to_vec();
    let poke = |data: &[u8], at: usize, w: Vec<u8>| {
        let mut out = data.to_vec();
        out[at..at + 32].copy_from_slice(&w);
        out
    };
    let cat = |parts: &[&[u8]]| parts.concat();
    let shapes: Vec<Vec<u8>> = vec![
        one.clone(),
        two.clone(),
        vec![],
        one[..3].to_vec(),
        two[..3].to_vec(),
        one[..4].to_vec(),
        two[..4].to_vec(),
        cat(&[&one[..4], &word(0)]),
        cat(&[&one[..4], &word(0x20), &word(0)]),
        cat(&[&two[..4], &word(0), &word(0)]),
        cat(&[&two[..4], &word(0), &[0; 4]]),
        cat(&[&two[..4], &word(0x40), &word(0x40), &word(81), &grid]),
        one[..one.len() - 16].to_vec(),
        one[..36 + 32 + 81].to_vec(),
        one[..36 + 32 + 80].to_vec(),
        cat(&[&one, &[0xde, 0xad]]),
        cat(&[&two, &[0; 64]]),
        poke(&one, 4, word(1 << 64)),
        poke(&one, 4, vec![0xff; 32]),
        poke(&one, 36, word(1 << 64)),
        poke(&two, 36, word(u128::MAX)),
        poke(&two, 4, word(0x21)),
        cat(&[&one[..4], &word(0x20), &word(200), &grid]),
        cat(&[&one[..4], &word(0x20), &word(80), &grid]),
    ];
    for shape in &shapes {
        for value in [false, true] {
            same(shape, value);
        }
    }
}

#[test]
fn fuzz_cases_agree() {
    let mut evm = Machine::new().unwrap();
    for index in 0..5_000 {
        if let Some(m) = check(&mut evm, 11, index).unwrap() {
            panic!("case {index}: {m}");
        }
    }
}

#[test]
fn golf_gas_is_exact_and_the_same_on_every_input_of_length_81() {
    let mut rng = SplitMix64::new(81);
    for _ in 0..200 {
        let grid = valid_grid(&mut rng);
        let random: Vec<u8> = (0..CELLS).map(|_| rng.below(256) as u8).collect();
        assert_eq!(same(&encode_is_valid(&grid), false).1, GOLF_IS_VALID_GAS);
        assert_eq!(same(&encode_is_valid(&random), false).1, GOLF_IS_VALID_GAS);
        assert_eq!(
            same(&encode_verify(&random, &grid), false).1,
            GOLF_VERIFY_GAS
        );
        assert_eq!(
            same(&encode_verify(&[0; CELLS], &random), false).1,
            GOLF_VERIFY_GAS
        );
    }
}

proptest! {
    #![proptest_config(common::config(DEFAULT_CASES))]

    /// Any bytes of any length, as grid, start and solution: all three agree.
    #[test]
    fn random_byte_strings_agree(a in proptest::collection::vec(any::<u8>(), 0..200),
                                 b in proptest::collection::vec(any::<u8>(), 0..200)) {
        same(&encode_is_valid(&a), false);
        same(&encode_verify(&a, &b), false);
        same(&encode_verify(&[0; CELLS], &a), false);
    }

    /// 81 bytes drawn from 0..=9 and 0..=255 (past the length check): all agree.
    #[test]
    fn random_grids_of_81_bytes_agree(cells in proptest::collection::vec(0u8..=9, CELLS),
                                      raw in proptest::collection::vec(any::<u8>(), CELLS)) {
        same(&encode_is_valid(&cells), false);
        same(&encode_is_valid(&raw), false);
        same(&encode_verify(&raw, &cells), false);
    }

    /// A valid grid with random givens is accepted by all three.
    #[test]
    fn valid_grids_with_givens_are_accepted(seed in any::<u64>(), keep in any::<u128>()) {
        let grid = grid_from(seed);
        let start: Vec<u8> = (0..CELLS).map(|i| if keep >> (i % 128) & 1 == 1 { grid[i] } else { 0 }).collect();
        prop_assert_eq!(same(&encode_verify(&start, &grid), false).0, Outcome::Returned(true));
        prop_assert_eq!(same(&encode_is_valid(&grid), false).0, Outcome::Returned(true));
    }

    /// Mutations of a valid grid (two cells swapped, a byte set to 0 or
    /// 10..255 in the solution or the start, another digit): all agree.
    #[test]
    fn mutated_valid_grids_get_the_mirror_s_answer_from_every_validator(seed in any::<u64>(), a in 0..CELLS, b in 0..CELLS, v in any::<u8>()) {
        let grid = grid_from(seed);
        let mut swapped = grid.clone();
        swapped.swap(a, b);
        same(&encode_is_valid(&swapped), false);
        let mut bad = grid.clone();
        bad[a] = if v < 10 { 0 } else { v };
        same(&encode_is_valid(&bad), false);
        same(&encode_verify(&bad, &grid), false);
        let mut other = grid.clone();
        other[a] = (grid[a] + v % 8) % 9 + 1;
        same(&encode_verify(&[0; CELLS], &other), false);
    }

    /// A box broken while rows and columns hold (rows of two bands swapped),
    /// and Latin squares cell(r, c) = (c + k r) % 9 + 1: all agree.
    #[test]
    fn broken_boxes_and_latin_squares_agree(seed in any::<u64>(), r in 0usize..9, shift in 0usize..6, k in 1usize..9) {
        let grid = grid_from(seed);
        let other = (r + 3 + shift) % 9;
        let mut rows = grid.clone();
        for c in 0..9 {
            rows.swap(9 * r + c, 9 * other + c);
        }
        same(&encode_is_valid(&rows), false);
        let latin: Vec<u8> = (0..CELLS).map(|i| ((i % 9 + k * (i / 9)) % 9 + 1) as u8).collect();
        same(&encode_is_valid(&latin), false);
    }

    /// Calldata of any shape after a valid selector, with or without value.
    #[test]
    fn raw_calldata_agrees(verify in any::<bool>(), tail in proptest::collection::vec(any::<u8>(), 0..400), value in any::<bool>()) {
        let mut data = if verify { mirror::VERIFY_SELECTOR } else { mirror::IS_VALID_SOLUTION_SELECTOR }.to_vec();
        data.extend(tail);
        same(&data, value);
    }
}

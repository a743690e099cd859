//! The public vectors of the published Curta puzzle #1, run on the compiled
//! reference contract, and its gas against the published figures.

use octoku_core::{Address, Board};
use octoku_evm::{Machine, Puzzle};

const GENERATE: [(&str, &str); 3] = [
    (
        "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        "0x0000700000000000000000000800064000000000000000000003020000000510",
    ),
    (
        "0x00000000eCf2b58C296B47caC8C51467c0e307cE",
        "0x6200480000000007000000000000000000000000005000001000300000000000",
    ),
    (
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "0x0000000000000000000000000040700000000010003000000000280050000060",
    ),
];
const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";
const WRONG: &str = "0x7235861418463257457361828621457323681745541728366784532131527467";

fn board(s: &str) -> Board {
    s.parse().expect("vector parses")
}

#[test]
fn reference_contract_generate_reproduces_public_vectors() {
    let mut evm = Machine::new().unwrap();
    for (address, start) in GENERATE {
        let address: Address = address.parse().unwrap();
        assert_eq!(
            evm.generate(Puzzle::Reference, &address).unwrap().value,
            board(start),
            "{address}"
        );
    }
}

#[test]
fn reference_contract_verify_reproduces_public_vectors() {
    let mut evm = Machine::new().unwrap();
    for (start, solution, valid) in [
        (board(START), board(SOLUTION), true),
        (board(START), board(WRONG), false),
        (Board::EMPTY, board(SOLUTION), true),
    ] {
        let verdict = evm.verify(Puzzle::Reference, start, solution).unwrap();
        assert_eq!(verdict.value, valid, "verify({start}, {solution})");
    }
}

/// Gas is deterministic, so the reference's figures are pinned here. They sit
/// within 3% of the published puzzle's (../shared/TOOLCHAIN.md: valid verify
/// 37,994; generate 2,911..3,123 gas); `forge test` reports the same 38,998
/// for this call, so the gap is in the measured contract, not the meter.
#[test]
fn reference_gas_is_pinned_near_the_published_figures() {
    let mut evm = Machine::new().unwrap();
    for (start, gas) in [(board(START), 38_998), (Board::EMPTY, 38_790)] {
        let verdict = evm.verify(Puzzle::Reference, start, board(SOLUTION));
        assert_eq!(verdict.unwrap().gas, gas, "verify({start}, SOLUTION)");
    }
    let generated = evm
        .generate(Puzzle::Reference, &GENERATE[2].0.parse().unwrap())
        .unwrap();
    assert!(
        (2_911..=3_123).contains(&generated.gas),
        "generate gas {}",
        generated.gas
    );
}

#[test]
fn reference_name_is_the_published_name() {
    let mut evm = Machine::new().unwrap();
    assert_eq!(evm.name(Puzzle::Reference).unwrap().value, "2 × 4 = 8");
}

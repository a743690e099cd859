//! The cleared frame against the whole transaction: every call the fuzzer
//! and the differential suites make gives the same success flag, return or
//! revert bytes, halt reason and frame gas on both paths; code that needs
//! what only a transaction has (state, the block, a call) is run as one.

use alloy_primitives::{Address, Bytes, U256, hex};
use alloy_sol_types::SolCall;
use octoku_evm::{
    Machine, Puzzle,
    artifacts::{self, Artifact},
    bindings::{IFairHarness, IGolfHarness, IReferenceHarness},
    classic9,
    fuzz::{self, Case},
    target::{generate_calldata, verify_calldata},
};

/// Calls `to` with `data` (and `value` wei) on both paths and asserts they
/// agree; returns whether the call ran on the cleared frame.
fn same(machine: &mut Machine, to: Address, data: &[u8], value: u64) -> bool {
    let value = U256::from(value);
    let before = machine.work();
    let fast = machine.call_raw_paid(to, Bytes::copy_from_slice(data), value);
    let on_frame = machine.work().frames == before.frames + 1;
    let full = machine.transact_raw(to, Bytes::copy_from_slice(data), value);
    assert_eq!(
        fast,
        full,
        "cleared frame vs transaction at {to} on calldata 0x{} value {value}",
        hex::encode(data)
    );
    on_frame
}

/// The calls of one 8×8 fuzz case on `puzzle`: its generate, its harness's
/// fill or its verify.
fn calldata(machine: &Machine, puzzle: Puzzle, case: Case) -> (Address, Vec<u8>) {
    match case {
        Case::Generate(address) => (
            machine.address_of(puzzle),
            generate_calldata(&address).to_vec(),
        ),
        Case::Verify(start, solution) => (
            machine.address_of(puzzle),
            verify_calldata(start, solution).to_vec(),
        ),
        Case::Fill(seed) => {
            let data = match puzzle {
                Puzzle::Reference => IReferenceHarness::generateFromSeedCall { seed }.abi_encode(),
                Puzzle::Golf => IGolfHarness::fillCall { seed }.abi_encode(),
                Puzzle::Fair => IFairHarness::fairFromSeedCall { seed }.abi_encode(),
            };
            (machine.harness_of(puzzle), data)
        }
    }
}

#[test]
fn fuzz_cases_of_every_kind_agree_on_the_frame_and_in_a_transaction() {
    let mut machine = Machine::new().expect("contracts deploy");
    for index in 0..3_000 {
        let case = fuzz::case(7, index);
        for puzzle in Puzzle::ALL {
            let (to, data) = calldata(&machine, puzzle, case);
            assert!(
                same(&mut machine, to, &data, 0),
                "{puzzle} ran as a transaction"
            );
        }
    }
    for puzzle in Puzzle::ALL {
        let name = octoku_evm::bindings::IPuzzle::nameCall {}.abi_encode();
        let to = machine.address_of(puzzle);
        assert!(same(&mut machine, to, &name, 0));
        // Value sent to a function that is not payable: a revert.
        let (to, data) = calldata(&machine, puzzle, fuzz::case(7, 3));
        assert!(same(&mut machine, to, &data, 1));
    }
}

#[test]
fn classic9_cases_with_and_without_value_agree_on_the_frame_and_in_a_transaction() {
    let mut machine = Machine::new().expect("contracts deploy");
    let validators = classic9::validators(&machine, &classic9::IMPLEMENTATIONS);
    for index in 0..3_000 {
        let case = classic9::case(11, index);
        for (_, to) in &validators {
            let value = u64::from(case.value);
            assert!(same(&mut machine, *to, &case.calldata, value));
        }
    }
}

/// Raw code installed at a fresh address.
fn install(machine: &mut Machine, code: &str) -> Address {
    let runtime = Bytes::from(hex::decode(code).expect("hex"));
    let at = Address::from_word(alloy_primitives::keccak256(&runtime));
    machine.install(at, runtime);
    at
}

#[test]
fn halts_reverts_and_memory_agree_on_the_frame() {
    let mut machine = Machine::new().expect("contracts deploy");
    let cases = [
        // INVALID: halts, all gas spent.
        "fe",
        // JUMPDEST PUSH1 0 JUMP: loops until out of gas.
        "5b600056",
        // PUSH1 1 JUMP: a bad jump.
        "600156",
        // POP on an empty stack.
        "50",
        // REVERT with 32 bytes of memory at offset 0x40.
        "602a60405260206040fd",
        // RETURN of calldata copied into memory, and CALLVALUE, CALLER,
        // ADDRESS, GAS stored after it (read from the frame's own inputs).
        "3660006000373436523336602001523036604001525a36606001523660800160 00f3",
        // KECCAK256 over 1 MB of memory: memory expansion gas.
        "620f424060002060005260206000f3",
        // An empty return.
        "00",
    ];
    for code in cases {
        let code = code.replace(' ', "");
        let at = install(&mut machine, &code);
        for data in [&[][..], &[1, 2, 3][..], &[0xff; 100][..]] {
            for value in [0, 5] {
                assert!(same(&mut machine, at, data, value), "{code} left the frame");
            }
        }
    }
}

#[test]
fn code_that_needs_a_transaction_runs_as_one() {
    let mut machine = Machine::new().expect("contracts deploy");
    let golf = machine.address_of(Puzzle::Golf);
    let cases = [
        // SLOAD 0, returned.
        "60005460005260206000f3".to_string(),
        // TIMESTAMP, returned.
        "4260005260206000f3".to_string(),
        // PREVRANDAO, returned (the frame's host once answered None, which
        // revm unwraps: a panic).
        "4460005260206000f3".to_string(),
        // SELFBALANCE (the value sent arrives first in a transaction).
        "4760005260206000f3".to_string(),
        // ORIGIN, returned.
        "3260005260206000f3".to_string(),
        // LOG0 of nothing, then STOP.
        "60006000a000".to_string(),
        // TSTORE then TLOAD.
        "600160005d60005c60005260206000f3".to_string(),
        // STATICCALL to golf's name() with no calldata: its revert bubbles up as 0.
        format!(
            "600060006000600073{}5afa60005260206000f3",
            hex::encode(golf)
        ),
    ];
    for code in &cases {
        let at = install(&mut machine, code);
        for value in [0, 3] {
            let before = machine.work();
            assert!(
                !same(&mut machine, at, &[], value),
                "{code} ran on the frame"
            );
            assert_eq!(
                machine.work().transactions,
                before.transactions + 2,
                "{code}"
            );
        }
    }
    // A precompile's address runs the precompile (identity echoes its input).
    let identity = Address::with_last_byte(4);
    assert!(!same(&mut machine, identity, &[9, 8, 7], 0));
    // An account without code: an empty success, as a transaction.
    assert!(!same(&mut machine, Address::repeat_byte(0x77), &[1], 0));
}

/// The author fixtures: deployed from creation code, and installed as runtime code.
#[test]
fn authors_contracts_agree_on_the_frame_deployed_and_installed() {
    let fixtures: [Artifact; 3] = [
        artifacts::LOOP_PUZZLE,
        artifacts::LOOP_PUZZLE_SLIP,
        artifacts::GOLF_AUTHOR,
    ];
    let mut machine = Machine::new().expect("contracts deploy");
    for fixture in fixtures {
        let deployed = machine.deploy(fixture.initcode).expect("deploys").0;
        let installed = install(&mut machine, &hex::encode(fixture.runtime));
        for index in 0..400 {
            let (_, data) = calldata(&machine, Puzzle::Reference, fuzz::case(3, index));
            for at in [deployed, installed] {
                assert!(same(&mut machine, at, &data, 0), "{}", fixture.name);
            }
        }
    }
}

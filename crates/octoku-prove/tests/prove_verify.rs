//! The proofs themselves: the golfed and fair `verify` equal the reference's
//! on every call of 68 bytes and no value, from the compiled runtime bytecode; mutants of the
//! golfed bytecode are refuted with a counterexample replayed in revm, except
//! the one that drops a truly redundant check.

use octoku_evm::artifacts;
use octoku_prove::prove::{Report, Verdict, mutate, prove_verify};

mod common;

fn prove(implementation: &[u8], dir: &str, title: &str) -> Report {
    let report = prove_verify(
        artifacts::REFERENCE.runtime,
        implementation,
        &common::query_dir(dir),
        title,
        &common::solver(),
    )
    .unwrap_or_else(|e| panic!("{title}: {e}"));
    eprintln!(
        "{title}: {:?}; {}",
        report.verdict,
        report.figures.summary()
    );
    report
}

fn assert_proved(report: &Report) {
    assert!(
        matches!(report.verdict, Verdict::Proved(_)),
        "expected a proof, got {:?}",
        report.verdict
    );
}

/// A refutation: `prove_verify` has already replayed it in revm and checked
/// that the two contracts' results differ there and match the terms.
fn assert_refuted(report: &Report) {
    match &report.verdict {
        Verdict::Counterexample {
            reference,
            implementation,
            ..
        } => assert!(
            reference.success != implementation.success
                || reference.output != implementation.output
        ),
        Verdict::Proved(_) => panic!("a mutant was proved equal to the reference"),
    }
}

#[test]
fn golf_verify_equals_reference_on_all_inputs() {
    let report = prove(
        artifacts::GOLF.runtime,
        "verify-golf",
        "golf verify = reference verify",
    );
    assert_proved(&report);
    // The reference's early returns and short-circuits rejoin: a bounded
    // number of forks, at most two states alive at once.
    assert!(report.figures.reference.stats.max_live <= 4);
    assert_eq!(report.figures.implementation.stats.forks, 0);
}

#[test]
fn fair_verify_equals_reference_on_all_inputs() {
    let report = prove(
        artifacts::FAIR.runtime,
        "verify-fair",
        "fair verify = reference verify",
    );
    assert_proved(&report);
}

// The golfed verify's tail (contracts/GolfedPuzzle.sol), as compiled:
//   PUSH1 07 DUP6 MUL           e := add(solution, mul(7, m1))
//   PUSH3 0f000f PUSH8 ff..ff   the subgrid mask, nibbles 0 and 4 of even lanes
//   OR DUP1 ISZERO PUSH0        bad := or(bad, ...); mstore(0, iszero(bad))

#[test]
fn mutant_with_a_changed_constant_is_refuted() {
    // mul(7, m1) -> mul(6, m1): the digit offset is wrong.
    let code = mutate(artifacts::GOLF.runtime, &[0x60, 0x07, 0x85, 0x02], 1, 0x06).unwrap();
    assert_refuted(&prove(&code, "mutants/constant", "golf with mul(6, m1)"));
}

#[test]
fn mutant_with_a_swapped_opcode_is_refuted() {
    // The last `bad := or(bad, columns)` becomes `and`.
    let code = mutate(artifacts::GOLF.runtime, &[0x17, 0x80, 0x15, 0x5f], 0, 0x16).unwrap();
    assert_refuted(&prove(
        &code,
        "mutants/opcode",
        "golf with the last or as and",
    ));
}

#[test]
fn mutant_without_the_final_iszero_is_refuted() {
    // ISZERO -> JUMPDEST (a one-byte no-op): verify returns `bad` itself.
    let code = mutate(artifacts::GOLF.runtime, &[0x17, 0x80, 0x15, 0x5f], 2, 0x5b).unwrap();
    assert_refuted(&prove(
        &code,
        "mutants/iszero",
        "golf without the final iszero",
    ));
}

/// Checking one subgrid per band is enough: when both rows of a band hold
/// 1..8, the band holds every digit twice, so if one of its two subgrids
/// holds each digit once the other holds each digit exactly once too. Mask
/// 0x0f000f (subgrids at nibbles 0 and 4 of each even lane) becomes 0x00000f.
#[test]
fn mutant_checking_one_subgrid_per_band_is_proved_equal() {
    let code = mutate(artifacts::GOLF.runtime, &[0x62, 0x0f, 0x00, 0x0f], 1, 0x00).unwrap();
    assert_proved(&prove(
        &code,
        "mutants/one-subgrid-per-band",
        "golf checking one subgrid per band",
    ));
}

/// Dropping every subgrid check is not equivalent: a Latin square (every row
/// and column 1..8) whose subgrids repeat digits passes it.
#[test]
fn mutant_checking_no_subgrid_is_refuted() {
    let code = mutate(artifacts::GOLF.runtime, &[0x62, 0x0f, 0x00, 0x0f], 1, 0x00).unwrap();
    let code = mutate(&code, &[0x62, 0x00, 0x00, 0x0f], 3, 0x00).unwrap();
    assert_refuted(&prove(
        &code,
        "mutants/no-subgrid",
        "golf checking no subgrid",
    ));
}

/// A wrong term model is caught by the validation against revm, never
/// reported proved: the terms of the golfed verify stand for a mutant
/// (`mul(7, m1)` → `mul(6, m1)`) that revm runs. The solver proves those
/// terms equal to the reference's (they are the golf's), and the check of
/// the implementation's terms against revm's run of the mutant must stop
/// the proof, naming the input and the term.
#[test]
fn a_wrong_term_model_is_caught_by_the_validation_and_not_proved() {
    use octoku_prove::engine::{self, Case, ProveError};
    let mutant = mutate(artifacts::GOLF.runtime, &[0x60, 0x07, 0x85, 0x02], 1, 0x06).unwrap();
    let shape = octoku_prove::prove::verify_shape();
    let (terms, call) = shape.symbolic();
    // The model: the golf's terms; the code that runs: the mutant.
    let pair = engine::execute_pair(
        terms,
        &call,
        artifacts::REFERENCE.runtime,
        artifacts::GOLF.runtime,
    )
    .unwrap();
    let cases = [Case {
        tag: "all".into(),
        note: "every input".into(),
        assume: None,
    }];
    let answer = engine::prove_pair(
        &pair,
        &shape,
        (artifacts::REFERENCE.runtime, &mutant),
        &cases,
        &["octoku: a wrong model".into()],
        &common::query_dir("wrong-model"),
        &common::solver(),
        &octoku_prove::validate::verify_values(),
    );
    match answer {
        Err(ProveError::Unsound(why)) => {
            assert!(
                why.starts_with("translation validation: on start = "),
                "{why}"
            );
            assert!(why.contains("the implementation's terms give"), "{why}");
            assert!(
                why.contains("first differing term: data word 0 (t"),
                "{why}"
            );
        }
        Err(e) => panic!("failed for another reason: {e}"),
        Ok(proof) => panic!("a wrong model answered {:?}", proof.found),
    }
}

/// The golfed verify with one more test before its answer: when the low
/// byte of `start` is 0x42 it runs `halt` (INVALID, or a byte that is no
/// instruction) instead of returning. The tail of verify as compiled, `OR
/// DUP1 ISZERO PUSH0 SWAP1 DUP2 MSTORE SWAP1 SWAP2 SWAP1 RETURN`, jumps
/// after its MSTORE to code appended after the runtime, which makes the
/// test (the stack as it was) and ends as before.
fn halting_on_some_boards(halt: u8) -> Vec<u8> {
    let code = artifacts::GOLF.runtime;
    let tail = [
        0x17, 0x80, 0x15, 0x5f, 0x90, 0x81, 0x52, 0x90, 0x91, 0x90, 0xf3,
    ];
    let hits: Vec<usize> = (0..code.len() - tail.len())
        .filter(|&i| code[i..].starts_with(&tail))
        .collect();
    assert_eq!(hits.len(), 1, "the verify's tail occurs once");
    let at = hits[0] + 7;
    let end = u16::try_from(code.len()).unwrap().to_be_bytes();
    let mut out = code.to_vec();
    // SWAP1 SWAP2 SWAP1 RETURN -> PUSH2 end JUMP.
    out[at..at + 4].copy_from_slice(&[0x61, end[0], end[1], 0x56]);
    let halt_at = u16::try_from(code.len() + 19).unwrap().to_be_bytes();
    out.extend([
        0x5b, // JUMPDEST
        0x60, 0x04, 0x35, 0x60, 0xff, 0x16, 0x60, 0x42, 0x14, // and(start, 0xff) == 0x42
        0x61, halt_at[0], halt_at[1], 0x57, // JUMPI
        0x90, 0x91, 0x90, 0xf3, // SWAP1 SWAP2 SWAP1 RETURN, as before
        0x00, // (never reached)
        0x5b, halt, // JUMPDEST, the halt
    ]);
    assert_eq!(out[code.len() + 19], 0x5b);
    out
}

/// A verify that halts (INVALID, an undefined opcode) on the boards whose
/// start ends in 0x42 and equals the reference elsewhere: refuted, the
/// counterexample one of those boards, replayed in revm (the reference
/// returns, the author's call fails with no data). Main refused the
/// undefined opcode as "not modeled".
#[test]
fn a_verify_that_halts_on_some_boards_is_refuted_on_one_of_them() {
    for (halt, what) in [(0xfe, "INVALID"), (0x0c, "an undefined opcode")] {
        let code = halting_on_some_boards(halt);
        let report = prove(
            &code,
            &format!("mutants/halt-{halt:02x}"),
            &format!("golf hitting {what} when start ends in 0x42"),
        );
        assert_refuted(&report);
        let Verdict::Counterexample {
            start,
            reference,
            implementation,
            ..
        } = &report.verdict
        else {
            unreachable!()
        };
        assert_eq!(start.byte(0), 0x42, "{what}: start {start:#x}");
        assert!(reference.success, "{what}: the reference returns");
        assert_eq!(reference.output.len(), 32);
        assert!(
            !implementation.success && implementation.output.is_empty(),
            "{what}"
        );
    }
}

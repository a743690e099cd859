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

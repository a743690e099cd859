//! The 9×9 proofs: the golfed validator's `verify(bytes,bytes)` and
//! `isValidSolution(bytes)` equal the reference's on every pair of 81-byte
//! grids, from the compiled runtime bytecode; a mutant of the golfed bytecode
//! is refuted with a counterexample replayed in revm.

use octoku_evm::artifacts;
use octoku_prove::classic9::{Function, Report, prove_equal, symbolic_call};
use octoku_prove::exec::{self, Limits};
use octoku_prove::prove::mutate;

mod common;

fn prove(function: Function, implementation: &[u8], dir: &str, title: &str) -> Report {
    let report = prove_equal(
        function,
        artifacts::CLASSIC9_REFERENCE.runtime,
        implementation,
        &common::query_dir("classic9").join(dir),
        title,
        &common::solver(),
    )
    .unwrap_or_else(|e| panic!("{title}: {e}"));
    eprintln!(
        "{title}: {:?}; {}; cuts {:?}",
        report.counterexample,
        report.figures.summary(),
        report.cuts
    );
    for step in &report.steps {
        eprintln!(
            "  {:<17} unsat in {:>6.1?} ({} bytes): {}",
            step.name, step.time, step.bytes, step.claim
        );
    }
    report
}

/// The golfed validator's `function` proved equal to the reference's: no
/// counterexample, the six steps of the proof each answered `unsat`.
fn golf_proved(function: Function, dir: &str, title: &str) -> Report {
    let report = prove(function, artifacts::CLASSIC9_GOLF.runtime, dir, title);
    assert!(report.counterexample.is_none(), "{title}");
    let validated = report
        .validated
        .as_ref()
        .expect("proved only when validated");
    assert!(validated.inputs() >= 100, "{title}");
    let names: Vec<&str> = report.steps.iter().map(|s| s.name).collect();
    assert_eq!(names, octoku_prove::classic9::STEPS);
    report
}

/// The golfed validator's verify(bytes,bytes) equals the reference's on all
/// pairs of 81-byte grids: all six queries unsat, every cut point found.
#[test]
fn classic9_golf_verify_is_proved_equal_to_the_reference() {
    let report = golf_proved(
        Function::Verify,
        "verify-golf",
        "classic9 golf verify = classic9 reference verify",
    );
    assert_eq!(report.cuts.len(), 6, "{:?}", report.cuts);
    for step in &report.steps {
        let text = std::fs::read_to_string(&step.query).unwrap();
        assert!(text.contains("(check-sat)"), "{}", step.query.display());
    }
}

/// The same for isValidSolution(bytes): no givens, `R ∧ V` against `W`.
#[test]
fn classic9_golf_is_valid_solution_is_proved_equal_to_the_reference() {
    golf_proved(
        Function::IsValidSolution,
        "is-valid-golf",
        "classic9 golf isValidSolution = classic9 reference isValidSolution",
    );
}

/// The executor models both 9x9 validators' verify on the symbolic call
/// without refusing: the reference's loops fork and rejoin (its 81-cell loop
/// runs on concrete counters), the golfed one is straight-line code. The full
/// equivalence is proved by the tests above.
#[test]
fn both_classic9_verifies_execute_symbolically_without_refusal() {
    for (name, code) in [
        ("reference", artifacts::CLASSIC9_REFERENCE.runtime),
        ("golf", artifacts::CLASSIC9_GOLF.runtime),
    ] {
        let (mut terms, call) = symbolic_call(Function::Verify);
        let (_, stats) = exec::execute(&mut terms, code, &call, Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {stats:?}");
        if name == "golf" {
            assert_eq!(stats.forks, 0);
        } else {
            assert!(stats.forks > 0 && stats.merges > 0, "{stats:?}");
        }
    }
}

/// ISZERO before the final `mstore(0, iszero(b))` becomes JUMPDEST (a
/// one-byte no-op): the mutant returns the failure bits themselves, and the
/// prover must find grids where that differs and replay them in revm.
#[test]
fn classic9_mutant_without_the_final_iszero_is_refuted() {
    let code = mutate(
        artifacts::CLASSIC9_GOLF.runtime,
        &[0x15, 0x5f, 0x52],
        0,
        0x5b,
    )
    .unwrap();
    let report = prove(
        Function::Verify,
        &code,
        "mutant-iszero",
        "classic9 golf without the final iszero",
    );
    let c = report
        .counterexample
        .expect("the mutant was proved equal to the reference");
    assert_eq!(c.grids.len(), 2);
    assert!(
        c.reference.success != c.implementation.success
            || c.reference.output != c.implementation.output
    );
}

/// Column 8's 9 no longer checked (in the NINE mask, pushed as `PUSH14
/// 0x8080808080808080800000000000`, the last 0x80 = lane 5 = column 8
/// cleared): the mutant accepts a solved grid whose 9 in column 8 is replaced by another digit (every unit
/// still holds 1..8); the implementation step finds such grids and the
/// replay shows the reference rejecting them.
#[test]
fn classic9_mutant_missing_one_column_nine_is_refuted() {
    let mut mask = vec![0x6d];
    mask.extend([0x80; 9]);
    mask.extend([0; 5]);
    let code = mutate(artifacts::CLASSIC9_GOLF.runtime, &mask, 9, 0).unwrap();
    let report = prove(
        Function::Verify,
        &code,
        "mutant-column-nine",
        "classic9 golf without column 8's 9",
    );
    let c = report
        .counterexample
        .expect("the mutant was proved equal to the reference");
    assert!(c.reference.success && c.implementation.success);
    assert_ne!(c.reference.output, c.implementation.output);
    let solution = &c.grids[1];
    assert_eq!(
        solution.iter().filter(|&&b| b == 9).count(),
        8,
        "{solution:?}"
    );
    assert!((0..9).all(|r| solution[9 * r + 8] != 9), "{solution:?}");
}

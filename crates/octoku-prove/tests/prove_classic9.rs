//! The 9×9 proofs: the golfed validator's `verify(bytes,bytes)` and
//! `isValidSolution(bytes)` equal the reference's on every pair of 81-byte
//! grids, from the compiled runtime bytecode; a mutant of the golfed bytecode
//! is refuted with a counterexample replayed in revm.

use octoku_evm::artifacts;
use octoku_prove::classic9::{Function, Report, prove_equal, symbolic_call};
use octoku_prove::exec::{self, Limits};
use octoku_prove::prove::mutate;
use octoku_prove::solver::repo_root;

fn prove(function: Function, implementation: &[u8], file: &str, title: &str) -> Report {
    let path = repo_root().join("target/prove/classic9").join(file);
    let report = prove_equal(
        function,
        artifacts::CLASSIC9_REFERENCE.runtime,
        implementation,
        &path,
        title,
    )
    .unwrap_or_else(|e| panic!("{title}: {e}"));
    eprintln!(
        "{title}: {:?}; reference {:?}, {} nodes; implementation {:?}, {} nodes; {} in {:.1?} (execution {:.1?})",
        report.counterexample,
        report.reference.stats,
        report.reference.nodes,
        report.implementation.stats,
        report.implementation.nodes,
        report.solver,
        report.solve_time,
        report.exec_time
    );
    report
}

/// The executor models both 9x9 validators' verify on the symbolic call
/// without refusing: the reference's loops fork and rejoin (its 81-cell loop
/// runs on concrete counters), the golfed one is straight-line code. The full
/// equivalence query is written by `octoku prove verify --puzzle classic9`;
/// bitwuzla 0.9.1 does not decide it within minutes (README, Proofs), so no
/// test claims that proof.
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
        "mutant-iszero.smt2",
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

//! The prover fuzzer (`octoku_prove::fuzz`) on a fixed seed: mutants of the
//! golfed contracts and random verify bodies proved against their
//! originals, every "proved" checked in revm on 10^5 inputs plus the edge
//! words, every refutation replayed. And the classifier itself: a "proved"
//! for codes that differ must come out as a false proved, a refutation
//! that does not replay as a prover bug. The long run is `make prove-fuzz`.

use std::time::Duration;

use octoku_core::U256;
use octoku_evm::artifacts;
use octoku_prove::fuzz::{self, Answer, Class, Mutant, Subject, Tally, body};
use octoku_prove::prove::mutate;

mod common;

/// The stream of the in-suite run.
const SEED: u64 = 1;

/// Mutants 0..RUN of [`SEED`] run in the suite, but these.
const RUN: u64 = 30;

/// Mutants of [`SEED`] the prover once got wrong (before the term
/// simplifier's and EXP's fixes), checked by their own test below.
/// - 26: a body with `exp(1, x)`: EXP with the constant base 1 is modelled
///   as `x < 256`, so the prover's own replay reports its terms disagreeing
///   with revm (a prover bug, no false claim).
/// - 30: golf verify with `(x & c) | (x & iszero(c))` (c = lt(x, 16))
///   inserted: the simplifier rewrites it to `x` although it is `x & 1`,
///   and the mutant is proved equal: **false proved** (revm: start
///   0x7601…0051, solution 0x2765…8351, the original returns 1, the mutant 0).
/// - 37: the same rewrite in a random body, `x` as `(x & c) | (x & !c)`:
///   **false proved** (start 2, solution 0: the reference returns 2, the
///   mutant 0).
/// - 530: a body whose `x` (an if-then-else over the input) became
///   `exp(1, x)`: EXP base 1 modelled as `x < 256` makes the two bodies'
///   terms equal: **false proved** (start 2^256 - 2, solution 1: the
///   reference returns 0, the mutant 1).
const ONCE_WRONG: [u64; 4] = [26, 30, 37, 530];

/// Mutants of [`SEED`] whose query the solver does not decide within the
/// limit (a classic9 operator change, a golf constant): they would spend
/// the limit and prove nothing.
const UNDECIDED: [u64; 2] = [3, 24];

fn run(indexes: impl Iterator<Item = u64>) -> Tally {
    let solver = common::solver().with_limit(Duration::from_secs(60));
    let mut tally = Tally::default();
    for index in indexes {
        let mutant = fuzz::mutant(SEED, index, fuzz::subject_of(SEED, index));
        let record = fuzz::run_one(mutant, &solver, 100_000, SEED).unwrap();
        eprintln!("{}", record.line());
        tally.add(&record);
    }
    eprintln!("{}", tally.table());
    tally
}

/// A fixed-seed run: no "proved" that revm contradicts, no refutation that
/// does not replay, and both answers given.
#[test]
fn fuzzed_mutants_have_no_false_proved_and_every_refutation_replays() {
    let tally = run((0..RUN).filter(|i| !ONCE_WRONG.contains(i) && !UNDECIDED.contains(i)));
    assert_eq!(tally.false_proved, 0, "false proved: see the lines above");
    assert_eq!(tally.prover_bugs, 0, "prover bugs: see the lines above");
    assert!(tally.proved >= 5 && tally.refuted >= 5, "{tally:?}");
}

/// The mutants the prover once got wrong (see [`ONCE_WRONG`]) are answered
/// right: no false proved, no prover bug.
#[test]
fn mutants_the_prover_once_got_wrong_are_answered_right() {
    let tally = run(ONCE_WRONG.into_iter());
    assert_eq!((tally.false_proved, tally.prover_bugs), (0, 0), "{tally:?}");
}

fn golf_mutant(code: Vec<u8>, what: &str) -> Mutant {
    Mutant {
        index: 0,
        subject: Subject::Golf,
        what: what.to_string(),
        reference: artifacts::GOLF.runtime.to_vec(),
        code,
        equal_by_construction: false,
    }
}

/// A "proved" for two codes that differ is reported as a false proved, with
/// an input on which revm shows them differ: golf with `mul(7, m1)` as
/// `mul(6, m1)` (refuted by tests/prove_verify.rs), and a body returning
/// `x & 1` for one returning `x`.
#[test]
fn the_classifier_reports_a_false_proved_for_codes_that_differ() {
    let code = mutate(artifacts::GOLF.runtime, &[0x60, 0x07, 0x85, 0x02], 1, 0x06).unwrap();
    let m = golf_mutant(code, "mul(7, m1) -> mul(6, m1)");
    let Class::FalseProved(d) = fuzz::classify(&m, &Answer::Proved, 1_000, SEED).unwrap() else {
        panic!("a fake proved of a differing mutant was not flagged")
    };
    assert!(
        d.reference.success && d.reference.output != d.other.output,
        "{d:?}"
    );

    let x = body::Expr::Op(0x01, vec![body::Expr::Start, body::Expr::Solution]);
    let x_and_1 = body::Expr::Op(0x16, vec![x.clone(), body::Expr::Const(U256::from(1u8))]);
    let m = Mutant {
        subject: Subject::Body,
        reference: body::compile(&x),
        code: body::compile(&x_and_1),
        ..golf_mutant(Vec::new(), "x -> x & 1")
    };
    let class = fuzz::classify(&m, &Answer::Proved, 1_000, SEED).unwrap();
    assert!(matches!(class, Class::FalseProved(_)), "{class:?}");
}

/// A "proved" for two equal codes holds on every input (the edge words and
/// 10^5 more), and a counterexample on which they agree is a prover bug.
#[test]
fn the_classifier_confirms_equal_codes_and_flags_a_refutation_that_does_not_replay() {
    let m = golf_mutant(artifacts::GOLF.runtime.to_vec(), "none");
    assert!(matches!(
        fuzz::classify(&m, &Answer::Proved, 100_000, SEED).unwrap(),
        Class::Proved { inputs } if inputs > 100_000
    ));
    let class = fuzz::classify(&m, &Answer::Refuted(vec![U256::ZERO, U256::MAX]), 0, SEED).unwrap();
    assert!(matches!(class, Class::ProverBug(_)), "{class:?}");
}

/// A mutant that halts (its jump into verify's code retargeted) is
/// invalid, and the prover refutes it with a counterexample that replays
/// (revm's halt read as a failed call with no data).
#[test]
fn a_halting_mutant_is_invalid_and_refuted() {
    // Every call but generate jumps to the dispatcher at 0x0211 (PUSH2
    // 0x0211 JUMP); 0x0212 is no JUMPDEST.
    let code = mutate(artifacts::GOLF.runtime, &[0x61, 0x02, 0x11, 0x56], 2, 0x12).unwrap();
    let m = golf_mutant(code, "jump to the dispatcher 0x0211 -> 0x0212");
    assert!(fuzz::invalid(&m).unwrap());
    let solver = common::solver().with_limit(Duration::from_secs(60));
    let record = fuzz::run_one(m, &solver, 1_000, SEED).unwrap();
    eprintln!("{}", record.line());
    assert_eq!(record.class, Class::Refuted, "{}", record.line());
}

//! The induction over draws (crates/octoku-prove/src/induction/): the
//! executor from a symbolic mid-program state, checked against concrete
//! runs and revm; the golfed fill's invariants on concrete runs of 10,000
//! seeds; its step lemmas proved; a wrong relation and mutants of the golfed
//! fill refuted, each with its state replayed in revm.

use std::collections::HashSet;

use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, artifacts};
use octoku_prove::exec::{self, Call, Limits, Reached};
use octoku_prove::generate::{calldata, selector};
use octoku_prove::induction::fair;
use octoku_prove::induction::golf::{self, Lemmas, Setup};
use octoku_prove::induction::{Program, started_at, templates, trace, values};
use octoku_prove::prove::{deployer, mutate};
use octoku_prove::solver::Solver;
use octoku_prove::term::Terms;

fn reference() -> Program<'static> {
    Program {
        code: artifacts::REFERENCE_HARNESS.runtime,
        selector: selector("generateFromSeed(uint256)"),
    }
}

fn golf_program(code: &[u8]) -> Program<'_> {
    Program {
        code,
        selector: selector("fill(uint256)"),
    }
}

fn query_dir(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("prove/induction-test")
        .join(name)
}

fn solver() -> Solver {
    Solver::from_env().expect("a solver")
}

/// Random words, short words (the slow path), and words of few distinct
/// chunks (many redraws).
fn seeds(n: usize, stream: u64) -> Vec<U256> {
    let mut rng = SplitMix64::new(stream);
    (0..n)
        .map(|k| {
            let w = rng.u256();
            match k % 4 {
                0 => w,
                1 => w >> (rng.below(256) as usize),
                _ => {
                    let few = 2 + rng.below(12);
                    let mut v = U256::ZERO;
                    for j in 0..43 {
                        v |= U256::from(rng.below(few)) << (6 * j);
                    }
                    v >> (rng.below(80) as usize)
                }
            }
        })
        .collect()
}

/// Every cut-to-cut step of concrete runs, re-run symbolically from the
/// cut's template (its varying entries free variables): the one path whose
/// condition holds on the concrete state reaches exactly the next concrete
/// state, or the call's end with the same return.
#[test]
fn execution_from_a_symbolic_loop_head_reaches_the_next_concrete_state() {
    let golf_cuts: HashSet<usize> = exec::jumpdests(artifacts::GOLF_HARNESS.runtime);
    let ref_cuts: HashSet<usize> = [567, 583].into();
    let sample = seeds(60, 1);
    let mut steps = 0;
    for (program, cuts) in [
        (golf_program(artifacts::GOLF_HARNESS.runtime), &golf_cuts),
        (reference(), &ref_cuts),
    ] {
        let tpl = templates(program, "program", &sample, cuts).expect("templates");
        for &seed in &sample[..30] {
            let (states, end) = trace(program, seed, cuts).expect("trace");
            for k in 0..states.len() {
                let st = &states[k];
                let mut terms = Terms::new();
                let seed_var = terms.var("seed");
                let call = Call::abi(&mut terms, program.selector, &[seed_var]);
                let start = tpl[&st.pc].instance(&mut terms, "x_");
                let (paths, _) = exec::execute_from(
                    &mut terms,
                    program.code,
                    &call,
                    Limits::default(),
                    &start,
                    cuts,
                )
                .expect("a step executes");
                let mut model = vec![("seed".to_string(), seed)];
                model.extend(
                    st.stack
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| (format!("x_s{j}"), v)),
                );
                model.extend(
                    st.memory
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| (format!("x_m{j}"), v)),
                );
                let vars: Vec<U256> = terms
                    .var_names()
                    .iter()
                    .map(|n| {
                        model
                            .iter()
                            .find(|(m, _)| m == n)
                            .map_or(U256::ZERO, |m| m.1)
                    })
                    .collect();
                let taken: Vec<_> = paths
                    .iter()
                    .filter(|p| !terms.eval(p.guard, &vars).is_zero())
                    .collect();
                assert_eq!(taken.len(), 1, "seed {seed:#x} step {k}: one path holds");
                match &taken[0].reached {
                    Reached::Cut(next) => {
                        let got = values(&terms, next, &model);
                        assert_eq!(Some(&got), states.get(k + 1), "seed {seed:#x} step {k}");
                    }
                    Reached::Ended(o) => {
                        assert_eq!(k + 1, states.len(), "seed {seed:#x}: ended early");
                        let mut got = vec![terms.eval(o.success, &vars), terms.eval(o.len, &vars)];
                        got.extend(o.words.iter().map(|&w| terms.eval(w, &vars)));
                        assert_eq!(got, end, "seed {seed:#x}: the end");
                    }
                }
                steps += 1;
            }
        }
    }
    assert!(steps > 1000, "{steps} steps");
}

/// A concrete state at a cut, started in revm (`started_at`), returns what
/// the whole call returns: the replay the proof uses for counterexamples.
#[test]
fn a_state_started_in_revm_returns_what_the_whole_call_returns() {
    let mut machine = Machine::new().unwrap();
    let golf_cuts: HashSet<usize> = exec::jumpdests(artifacts::GOLF_HARNESS.runtime);
    let ref_cuts: HashSet<usize> = [583].into();
    let mut replays = 0;
    for (program, cuts) in [
        (golf_program(artifacts::GOLF_HARNESS.runtime), &golf_cuts),
        (reference(), &ref_cuts),
    ] {
        let whole = machine.deploy(&deployer(program.code)).unwrap().0;
        for seed in seeds(12, 2) {
            let want = machine
                .call_raw(whole, calldata(program.selector, seed))
                .unwrap();
            let (states, _) = trace(program, seed, cuts).unwrap();
            for st in states.iter().step_by(3) {
                let code = started_at(program.code, st.pc, &st.stack, &st.memory).unwrap();
                let at = machine.deploy(&deployer(&code)).unwrap().0;
                let got = machine
                    .call_raw(at, calldata(program.selector, seed))
                    .unwrap();
                assert_eq!(
                    (got.success, &got.output),
                    (want.success, &want.output),
                    "seed {seed:#x} from pc {}",
                    st.pc
                );
                replays += 1;
            }
        }
    }
    assert!(replays > 50, "{replays}");
}

/// The invariants the lemmas assume hold on every state of concrete runs of
/// 10,000 seeds, against the reference's state they are paired with, and
/// both fills return the same board.
#[test]
fn the_golfed_fill_invariants_hold_on_concrete_runs_of_10000_seeds() {
    let golf = golf_program(artifacts::GOLF_HARNESS.runtime);
    let setup = Setup::new(reference(), golf).expect("setup");
    let mut states = 0;
    for seed in seeds(10_000, 3) {
        states += setup.check_run(seed).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(states > 80_000, "{states} states");
}

/// A wrong relation (the reference's seed one chunk off) fails on the first
/// concrete run and is refuted by the solver, its state replayed in revm.
#[test]
fn a_wrong_relation_fails_on_concrete_runs_and_does_not_prove() {
    let golf = golf_program(artifacts::GOLF_HARNESS.runtime);
    let setup = Setup::new(reference(), golf)
        .expect("setup")
        .with_wrong_relation();
    let seed = seeds(1, 4)[0];
    assert!(setup.check_run(seed).is_err());
    let report = golf::prove(&setup, Lemmas::Steps, &query_dir("wrong"), &solver()).expect("runs");
    assert!(!report.proved());
    let failed = report.failed().expect("a lemma fails");
    assert_eq!(failed.proved, Some(false), "{}", failed.name);
    assert!(report.replay.is_some());
}

/// The step lemmas of the related skip loops (digits 2..7) and of the slow
/// loop's draw, proved for every state (the rest: `make prove-all`).
#[test]
fn the_golfed_fill_step_lemmas_are_proved() {
    let golf = golf_program(artifacts::GOLF_HARNESS.runtime);
    let setup = Setup::new(reference(), golf).expect("setup");
    let report = golf::prove(&setup, Lemmas::Steps, &query_dir("steps"), &solver()).expect("runs");
    for l in &report.lemmas {
        eprintln!("{} {:?} {:.2?}", l.name, l.proved, l.check);
    }
    assert!(report.proved(), "{:?}", report.failed());
    assert_eq!(report.lemmas.len(), 7);
}

/// The whole proof on a mutant: not proved, the first failing lemma
/// refuted, its state replayed in revm; returns that lemma's name.
fn refuted(code: &[u8], tag: &str) -> String {
    let setup = Setup::new(reference(), golf_program(code)).expect("setup");
    let report = golf::prove(&setup, Lemmas::All, &query_dir(tag), &solver()).expect("runs");
    assert!(!report.proved(), "{tag} proved");
    let failed = report.failed().expect("a lemma fails").clone();
    assert_eq!(
        failed.proved,
        Some(false),
        "{tag}: {} undecided",
        failed.name
    );
    let replay = report.replay.expect("replayed");
    eprintln!(
        "{tag}: {} refuted; replayed golf {:?} reference {:?}",
        failed.name, replay.golf, replay.reference
    );
    failed.name
}

/// A constant: `mul(..., 7)` → `mul(..., 6)` in the final v → digit step.
#[test]
fn a_golfed_fill_with_a_changed_constant_is_refuted() {
    let code = mutate(
        artifacts::GOLF_HARNESS.runtime,
        &[0x60, 0x07, 0x02, 0x90, 0x03],
        1,
        0x06,
    )
    .unwrap();
    assert_eq!(refuted(&code, "mutant-mul6"), "related-J8");
}

/// A shift: digit 3 read from `shr(16, s)` instead of `shr(10, s)`.
#[test]
fn a_golfed_fill_with_a_changed_shift_is_refuted() {
    let code = mutate(
        artifacts::GOLF_HARNESS.runtime,
        &[0x17, 0x60, 0x0a, 0x83, 0x81, 0x1c],
        2,
        0x10,
    )
    .unwrap();
    refuted(&code, "mutant-shift");
}

/// The fast-path test `shr(42, s)` → `shr(36, s)`: the fast result kept on
/// seeds the reference spends.
#[test]
fn a_golfed_fill_with_a_weaker_fast_path_test_is_refuted() {
    let code = mutate(
        artifacts::GOLF_HARNESS.runtime,
        &[0x60, 0x2a, 0x83, 0x90, 0x1c],
        1,
        0x24,
    )
    .unwrap();
    refuted(&code, "mutant-shr36");
}

/// The cell mask: digit 2's `and(shr(4, s), 0xfc)` → `0xf8`.
#[test]
fn a_golfed_fill_with_a_changed_cell_mask_is_refuted() {
    let code = mutate(
        artifacts::GOLF_HARNESS.runtime,
        &[0x60, 0x09, 0x60, 0xfc, 0x84],
        3,
        0xf8,
    )
    .unwrap();
    refuted(&code, "mutant-mask");
}

fn fair_program(code: &[u8]) -> Program<'_> {
    Program {
        code,
        selector: selector("fairFromSeed(uint256)"),
    }
}

/// The fair invariant holds on every draw of concrete runs of 10,000
/// seeds, paired with the reference's draws, and both return the same
/// filled cells.
#[test]
fn the_fair_fill_invariants_hold_on_concrete_runs_of_10000_seeds() {
    let setup = fair::Setup::new(reference(), fair_program(artifacts::FAIR_HARNESS.runtime))
        .expect("setup");
    let mut states = 0;
    for seed in seeds(10_000, 5) {
        states += setup.check_run(seed).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(states > 50_000, "{states} states");
}

/// A wrong fair relation (the reference's seed one chunk off) fails on the
/// first concrete run and does not prove: fair-count is proved (it does
/// not use the relation), fair-entry is refuted, its state replayed in revm.
#[test]
fn a_wrong_fair_relation_fails_on_concrete_runs_and_does_not_prove() {
    let setup = fair::Setup::new(reference(), fair_program(artifacts::FAIR_HARNESS.runtime))
        .expect("setup")
        .with_wrong_relation();
    assert!(setup.check_run(seeds(1, 6)[0]).is_err());
    let report = fair::prove(&setup, &query_dir("fair-wrong"), &solver()).expect("runs");
    assert!(!report.proved());
    let failed = report.failed().expect("a lemma fails");
    assert_eq!(
        (failed.name.as_str(), failed.proved),
        ("fair-entry", Some(false))
    );
    assert!(report.replay.is_some());
}

/// The fair proof's lemmas `names` on a mutant of the fair fill: not
/// proved, the first of them refuted (`name`), its state replayed in revm.
fn fair_refuted(code: &[u8], tag: &str, names: &[&str], name: &str) {
    let setup = fair::Setup::new(reference(), fair_program(code)).expect("setup");
    assert!(
        seeds(200, 7)
            .into_iter()
            .any(|s| setup.check_run(s).is_err()),
        "{tag}: every concrete run checks"
    );
    let keep = |n: &str| names.contains(&n);
    let report = fair::prove_selected(&setup, keep, &query_dir(tag), &solver()).expect("runs");
    assert!(!report.proved(), "{tag} proved");
    let failed = report.failed().expect("a lemma fails");
    assert_eq!(
        (failed.name.as_str(), failed.proved),
        (name, Some(false)),
        "{tag}"
    );
    let replay = report.replay.expect("replayed");
    eprintln!(
        "{tag}: {name} refuted; replayed fair {:?} reference {:?}",
        replay.golf, replay.reference
    );
}

/// A constant: the first batch `shr(48, s)` → `shr(54, s)` (9 draws):
/// fair-entry refuted.
#[test]
fn a_fair_fill_with_a_changed_constant_is_refuted() {
    let code = mutate(
        artifacts::FAIR_HARNESS.runtime,
        &[0x85, 0x60, 0x30, 0x1c, 0x60, 0x0f],
        2,
        0x36,
    )
    .unwrap();
    fair_refuted(&code, "fair-shr54", &["fair-entry"], "fair-entry");
}

/// A shift: a draw drops `shr(5, s)` instead of `shr(6, s)`.
#[test]
fn a_fair_fill_with_a_changed_shift_is_refuted() {
    let code = mutate(
        artifacts::FAIR_HARNESS.runtime,
        &[0x87, 0x60, 0x06, 0x1c, 0x97],
        2,
        0x05,
    )
    .unwrap();
    fair_refuted(&code, "fair-shift5", &["fair-draw-92"], "fair-draw-92");
}

/// The cell mask: a draw's cell `and(shl(2, s), 0xfc)` → `0xf8`.
#[test]
fn a_fair_fill_with_a_changed_cell_mask_is_refuted() {
    let code = mutate(
        artifacts::FAIR_HARNESS.runtime,
        &[0x60, 0xfc, 0x88, 0x60, 0x02],
        1,
        0xf8,
    )
    .unwrap();
    fair_refuted(&code, "fair-mask", &["fair-draw-0"], "fair-draw-0");
}

/// The batch test (the fair fill has no fast path; this test decides
/// whether another batch is drawn): `gt(s, end)` → `lt(s, end)`, so the
/// fill stops after its first batch of 8 draws.
#[test]
fn a_fair_fill_with_a_changed_batch_test_is_refuted() {
    let code = mutate(
        artifacts::FAIR_HARNESS.runtime,
        &[0x81, 0x88, 0x11, 0x61, 0x01, 0x6a],
        2,
        0x10,
    )
    .unwrap();
    fair_refuted(&code, "fair-batch-lt", &["fair-draw-0"], "fair-draw-0");
}

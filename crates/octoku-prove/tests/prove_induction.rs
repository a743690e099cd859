//! The induction over draws (crates/octoku-prove/src/induction/): the
//! executor from a symbolic mid-program state, checked against concrete
//! runs and revm; the golfed fill's invariants on concrete runs of 10,000
//! seeds; its step lemmas proved; a wrong relation and mutants of the golfed
//! fill refuted, each with its state replayed in revm; the fill found by
//! shape in contracts/Golf.sol and an author's copy called as
//! generate(address), and refused in code of another shape.

use std::collections::HashSet;

use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, artifacts};
use octoku_prove::engine::model_values;
use octoku_prove::exec::{self, Limits, Reached};
use octoku_prove::induction::fair;
use octoku_prove::induction::golf::{self, Layout, Lemmas, Setup};
use octoku_prove::induction::{InductionError, Report, started_at, templates, trace, values};
use octoku_prove::program::Program;
use octoku_prove::prove::{deployer, mutate};
use octoku_prove::term::Terms;

mod common;
use common::{fair_program, golf_program, reference, solver};

/// A one-byte change: the byte at `at` in the first occurrence of
/// `pattern` becomes `byte` (see `octoku_prove::prove::mutate`).
struct Mutation {
    pattern: &'static [u8],
    at: usize,
    byte: u8,
}

impl Mutation {
    const fn new(pattern: &'static [u8], at: usize, byte: u8) -> Mutation {
        Mutation { pattern, at, byte }
    }
}

fn mutant(code: &[u8], m: Mutation) -> Vec<u8> {
    mutate(code, m.pattern, m.at, m.byte).expect("the pattern is in the code")
}

/// `mul(..., 7)` → `mul(..., 6)` in the final v → digit step.
const MUL6: Mutation = Mutation::new(&[0x60, 0x07, 0x02, 0x90, 0x03], 1, 0x06);
/// Digit 3 read from `shr(16, s)` instead of `shr(10, s)`.
const SHIFT16: Mutation = Mutation::new(&[0x17, 0x60, 0x0a, 0x83, 0x81, 0x1c], 2, 0x10);
/// The fast-path test `shr(42, s)` → `shr(36, s)`: the fast result kept on
/// seeds the reference spends.
const SHR36: Mutation = Mutation::new(&[0x60, 0x2a, 0x83, 0x90, 0x1c], 1, 0x24);
/// Digit 2's cell mask `and(shr(4, s), 0xfc)` → `0xf8`.
const MASK_F8: Mutation = Mutation::new(&[0x60, 0x09, 0x60, 0xfc, 0x84], 3, 0xf8);
/// The fair first batch `shr(48, s)` → `shr(54, s)` (9 draws).
const FAIR_SHR54: Mutation = Mutation::new(&[0x85, 0x60, 0x30, 0x1c, 0x60, 0x0f], 2, 0x36);
/// A fair draw drops `shr(5, s)` instead of `shr(6, s)`.
const FAIR_SHIFT5: Mutation = Mutation::new(&[0x87, 0x60, 0x06, 0x1c, 0x97], 2, 0x05);
/// A fair draw's cell `and(shl(2, s), 0xfc)` → `0xf8`.
const FAIR_MASK_F8: Mutation = Mutation::new(&[0x60, 0xfc, 0x88, 0x60, 0x02], 1, 0xf8);
/// The fair batch test `gt(s, end)` → `lt(s, end)` (the fair fill has no
/// fast path; this test decides whether another batch is drawn), so the fill
/// stops after its first batch of 8 draws.
const FAIR_BATCH_LT: Mutation = Mutation::new(&[0x81, 0x88, 0x11, 0x61, 0x01, 0x6a], 2, 0x10);

fn query_dir(name: &str) -> std::path::PathBuf {
    common::query_dir("induction-test").join(name)
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

/// The states `check_run` checks on concrete runs of 10,000 seeds of
/// `stream` (the callers panic at the first run that breaks an invariant).
fn states_of_10000_runs(stream: u64, check_run: impl Fn(U256) -> usize) -> usize {
    seeds(10_000, stream).into_iter().map(check_run).sum()
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
                let call = program.call(&mut terms, seed_var);
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
                let vars = model_values(&terms, &model);
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
            let want = machine.call_raw(whole, program.calldata(seed)).unwrap();
            let (states, _) = trace(program, seed, cuts).unwrap();
            for st in states.iter().step_by(3) {
                let code = started_at(program.code, st.pc, &st.stack, &st.memory).unwrap();
                let at = machine.deploy(&deployer(&code)).unwrap().0;
                let got = machine.call_raw(at, program.calldata(seed)).unwrap();
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
    let states = states_of_10000_runs(3, |seed| {
        setup.check_run(seed).unwrap_or_else(|e| panic!("{e}"))
    });
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
        failed.name, replay.implementation, replay.reference
    );
    failed.name
}

/// Each mutant of the golfed fill (the mutations above) is refuted, its
/// state replayed in revm; the changed constant at the last digit's step.
#[test]
fn golfed_fill_mutants_are_refuted() {
    let failed = [
        (MUL6, "mutant-mul6"),
        (SHIFT16, "mutant-shift"),
        (SHR36, "mutant-shr36"),
        (MASK_F8, "mutant-mask"),
    ]
    .map(|(m, tag)| refuted(&mutant(artifacts::GOLF_HARNESS.runtime, m), tag));
    assert_eq!(failed[0], "related-J8");
}

/// The fair invariant holds on every draw of concrete runs of 10,000
/// seeds, paired with the reference's draws, and both return the same
/// filled cells.
#[test]
fn the_fair_fill_invariants_hold_on_concrete_runs_of_10000_seeds() {
    let setup = fair::Setup::new(reference(), fair_program(artifacts::FAIR_HARNESS.runtime))
        .expect("setup");
    let states = states_of_10000_runs(5, |seed| {
        setup.check_run(seed).unwrap_or_else(|e| panic!("{e}"))
    });
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

/// The fair proof's lemma `name` on the fair harness changed by `m`: not
/// proved but refuted, its state replayed in revm.
fn fair_refuted(m: Mutation, tag: &str, name: &str) {
    let code = mutant(artifacts::FAIR_HARNESS.runtime, m);
    let setup = fair::Setup::new(reference(), fair_program(&code)).expect("setup");
    assert!(
        seeds(200, 7)
            .into_iter()
            .any(|s| setup.check_run(s).is_err()),
        "{tag}: every concrete run checks"
    );
    let keep = |n: &str| n == name;
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
        replay.implementation, replay.reference
    );
}

/// Each mutant of the fair fill (the mutations above) is refuted at the
/// lemma it breaks, its state replayed in revm.
#[test]
fn fair_fill_mutants_are_refuted_at_the_lemma_they_break() {
    for (m, tag, lemma) in [
        (FAIR_SHR54, "fair-shr54", "fair-entry"),
        (FAIR_SHIFT5, "fair-shift5", "fair-draw-92"),
        (FAIR_MASK_F8, "fair-mask", "fair-draw-0"),
        (FAIR_BATCH_LT, "fair-batch-lt", "fair-draw-0"),
    ] {
        fair_refuted(m, tag, lemma);
    }
}

/// On the code the proof is written for, the fill found by shape is at the
/// harness's own cut points and slots.
#[test]
fn the_fill_found_by_shape_in_the_harness_is_at_its_own_cuts() {
    let found = Layout::find(golf_program(artifacts::GOLF_HARNESS.runtime)).expect("found");
    assert_eq!(found, Layout::harness());
}

/// contracts/Golf.sol itself and an author's copy with one more function
/// (contracts/harness/GolfAuthor.sol), called as generate(address): the fill
/// is found at other program counters in each, its invariants hold on
/// concrete runs (the address's hash set to each seed), and the step lemmas
/// and the lemmas that start from generate's entry or end the call prove.
#[test]
fn the_golf_contract_and_an_authors_copy_prove_their_step_and_entry_lemmas() {
    let mut layouts = Vec::new();
    for (code, tag) in [
        (artifacts::GOLF.runtime, "contract"),
        (artifacts::GOLF_AUTHOR.runtime, "author"),
    ] {
        let setup = Setup::by_shape(reference(), Program::generate(code)).expect("golfed shape");
        for seed in seeds(400, 8) {
            setup
                .check_run(seed)
                .unwrap_or_else(|e| panic!("{tag}: {e}"));
        }
        for which in [
            Lemmas::Steps,
            Lemmas::Only(&["entry", "related-J8", "escaped-J8"]),
        ] {
            let report = golf::prove(&setup, which, &query_dir(tag), &solver()).expect("runs");
            assert!(report.proved(), "{tag}: {:?}", report.failed());
        }
        layouts.push(setup.layout().clone());
    }
    assert_ne!(layouts[0], Layout::harness());
    assert_ne!(layouts[0], layouts[1]);
}

/// The whole proof on contracts/Golf.sol and on the author's copy, as
/// `octoku prove generate --all --bytecode ...` runs it (about a minute
/// each; `make prove-all`).
#[test]
#[ignore = "the full proof: make prove-all"]
fn the_golf_contract_and_an_authors_copy_are_proved_for_all_seeds() {
    for (code, tag) in [
        (artifacts::GOLF.runtime, "contract-all"),
        (artifacts::GOLF_AUTHOR.runtime, "author-all"),
    ] {
        let setup = Setup::by_shape(reference(), Program::generate(code)).expect("golfed shape");
        let report = golf::prove(&setup, Lemmas::All, &query_dir(tag), &solver()).expect("runs");
        assert!(report.proved(), "{tag}: {:?}", report.failed());
        assert_eq!(report.total, 31);
    }
}

/// The lemma `name` alone on a mutant of contracts/Golf.sol: refuted, its
/// state replayed in revm from the mutant's found cut.
fn contract_refuted(code: &[u8], name: &'static [&'static str; 1], tag: &str) -> Report {
    let setup = Setup::by_shape(reference(), Program::generate(code)).expect("golfed shape");
    let report = golf::prove(&setup, Lemmas::Only(name), &query_dir(tag), &solver()).expect("runs");
    assert!(!report.proved(), "{tag} proved");
    let failed = report.failed().expect("a lemma fails");
    assert_eq!(
        (failed.name.as_str(), failed.proved),
        (name[0], Some(false))
    );
    assert!(report.replay.is_some(), "{tag}: replayed");
    report
}

/// A constant of contracts/Golf.sol: `mul(..., 7)` → `mul(..., 6)` after
/// the loops (the loop states are unchanged, so the cuts are found): the
/// lemma at J8 is refuted, and from its state the two calls return
/// different boards in revm.
#[test]
fn a_golf_contract_with_a_changed_constant_is_refuted_with_its_state_replayed() {
    let code = mutant(artifacts::GOLF.runtime, MUL6);
    let report = contract_refuted(&code, &["related-J8"], "contract-mul6");
    let replay = report.replay.unwrap();
    let reference = replay.reference.expect("the reference replayed");
    assert_ne!(reference.output, replay.implementation.output);
}

/// A shift in a loop of contracts/Golf.sol (digit 3 read from `shr(16, s)`):
/// its loop states no longer match the golfed fill's, so the proof refuses
/// the code by shape, naming the shape it needs; never proved.
#[test]
fn a_golf_contract_with_a_changed_shift_is_refused_by_shape() {
    let code = mutant(artifacts::GOLF.runtime, SHIFT16);
    match Setup::by_shape(reference(), Program::generate(&code)) {
        Err(InductionError::Shape(why)) => assert!(why.contains(golf::SHAPE), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a loop of another shape was accepted"),
    }
}

/// An author's IPuzzle with plain loops (contracts/harness/LoopPuzzle.sol):
/// refused by shape with the one line that says what shape is required.
#[test]
fn a_fill_of_another_shape_is_refused_with_the_shape_it_needs() {
    let program = Program::generate(artifacts::LOOP_PUZZLE.runtime);
    match Setup::by_shape(reference(), program) {
        Err(InductionError::Shape(why)) => {
            assert!(why.contains(golf::SHAPE), "{why}");
            assert!(!why.contains('\n'), "{why}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("plain loops accepted as the golfed shape"),
    }
}

/// contracts/Golf.sol's runtime code compiled by the project's solc
/// (tools/solc, or `OCTOKU_SOLC`) with the optimizer off.
fn golf_without_optimizer() -> Vec<u8> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut sources = serde_json::Map::new();
    for unit in ["contracts/Golf.sol", "contracts/GolfedPuzzle.sol"] {
        let content = std::fs::read_to_string(root.join(unit)).expect("the source");
        sources.insert(unit.into(), serde_json::json!({ "content": content }));
    }
    let input = serde_json::json!({
        "language": "Solidity",
        "sources": sources,
        "settings": {
            "optimizer": { "enabled": false },
            "evmVersion": "prague",
            "outputSelection": { "*": { "*": ["evm.deployedBytecode.object"] } }
        }
    });
    let solc = std::env::var_os("OCTOKU_SOLC").map_or(root.join("tools/solc"), Into::into);
    let mut child = Command::new(solc)
        .arg("--standard-json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("solc runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("solc output");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("solc's JSON");
    let code =
        &json["contracts"]["contracts/Golf.sol"]["OctokuGolf"]["evm"]["deployedBytecode"]["object"];
    alloy_primitives::hex::decode(code.as_str().expect("compiled")).expect("hex")
}

/// contracts/Golf.sol compiled with solc's optimizer off: its fill sits at
/// other program counters than with the project's settings, with `s` and
/// `seed` in swapped stack slots; found by shape, its step lemmas and the
/// lemmas from generate's entry and at the end prove.
#[test]
fn the_golf_contract_compiled_without_the_optimizer_is_found_with_its_slots_swapped() {
    let runtime = golf_without_optimizer();
    assert_ne!(runtime, artifacts::GOLF.runtime);
    let setup = Setup::by_shape(reference(), Program::generate(&runtime)).expect("golfed shape");
    let cuts = setup.layout().describe();
    let optimized = Setup::by_shape(reference(), Program::generate(artifacts::GOLF.runtime))
        .expect("golfed shape");
    assert_ne!(cuts[0].1, optimized.layout().describe()[0].1, "another pc");
    // L2: s in slot 2, seed in slot 1.
    assert_eq!(cuts[0].2, [2, 1, 3, 4]);
    for which in [
        Lemmas::Steps,
        Lemmas::Only(&["entry", "related-J8", "escaped-J8"]),
    ] {
        let report =
            golf::prove(&setup, which, &query_dir("no-optimizer"), &solver()).expect("runs");
        assert!(report.proved(), "{:?}", report.failed());
    }
}

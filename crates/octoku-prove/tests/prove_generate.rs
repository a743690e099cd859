//! generate's fill proved equal to the reference `_fill` from bytecode, one
//! pattern of draws at a time (crates/octoku-prove/src/generate.rs), and
//! mutants of the golfed fill refuted with counterexamples replayed in revm.

use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, artifacts};
use octoku_prove::engine::ProveError;
use octoku_prove::generate::{
    self, CaseResult, Compare, Ending, GenerateReport, pattern_of, patterns,
};
use octoku_prove::program::Program;
use octoku_prove::prove::{deployer, mutate};
use octoku_prove::term::Terms;
use proptest::prelude::*;

mod common;
use common::{fair_program, golf_program, reference, solver};

/// A directory for a test's queries, below the target directory.
fn query_dir(name: &str) -> std::path::PathBuf {
    common::query_dir("generate-test").join(name)
}

/// `generate(address)` of the runtime `code` against the reference's, on
/// every pattern up to `k` redraws, queries under `name`.
fn prove_address(code: &[u8], k: usize, name: &str) -> GenerateReport {
    generate::prove_generate(
        Program::generate(artifacts::REFERENCE.runtime),
        Program::generate(code),
        Compare::Board,
        k,
        &query_dir(name),
        &solver(),
    )
    .expect("the proof runs")
}

/// Seeds of every kind (common::seeds: random, short, few chunk values),
/// and random words with few distinct values among their first chunks.
fn seed() -> impl Strategy<Value = U256> {
    prop_oneof![
        // Three kinds in one, each as likely as the last kind.
        3 => common::seeds(40, &[5, 9, 0, 5 ^ 15], 0..44),
        1 => (any::<[u8; 32]>(), 1usize..12).prop_map(|(b, chunks)| {
            // Few distinct values among the first chunks: redraws.
            let mut w = U256::from_be_bytes(b);
            for (k, byte) in b.iter().take(chunks).enumerate() {
                let c = U256::from(byte % 3);
                w = (w & !(U256::from(63u8) << (6 * k))) | (c << (6 * k));
            }
            w
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every seed satisfies the condition of its own pattern (the reference
    /// loop run on its chunks) and of no other pattern with at most 3
    /// redraws; the seed is in that list exactly when it has at most 3
    /// redraws; and the reference harness in revm fills exactly as many cells
    /// as the pattern has fresh draws.
    #[test]
    fn every_seed_is_in_exactly_its_own_pattern(seed in seed()) {
        thread_local!(static M: std::cell::RefCell<Option<(Machine, alloy_primitives::Address)>> = const { std::cell::RefCell::new(None) });
        let own = pattern_of(seed);
        let mut terms = Terms::new();
        let var = terms.var("seed");
        let list = patterns(3);
        let mut holds = Vec::new();
        for p in &list {
            let c = p.condition(&mut terms, var);
            if !terms.eval(c, &[seed]).is_zero() {
                holds.push(p.name());
            }
        }
        let c = own.condition(&mut terms, var);
        prop_assert_eq!(terms.eval(c, &[seed]), U256::from(1u8), "seed {:#x}", seed);
        if own.redraws() <= 3 {
            prop_assert_eq!(holds, vec![own.name()], "seed {:#x}", seed);
        } else {
            prop_assert!(holds.is_empty(), "seed {:#x}: {:?}", seed, holds);
        }
        let board = M.with(|cell| {
            let mut guard = cell.borrow_mut();
            let (machine, address) = guard.get_or_insert_with(|| {
                let mut m = Machine::new().unwrap();
                let a = m.deploy(&deployer(artifacts::REFERENCE_HARNESS.runtime)).unwrap().0;
                (m, a)
            });
            let run = machine
                .call_raw(*address, reference().calldata(seed))
                .unwrap();
            U256::from_be_slice(&run.output)
        });
        let filled = (0..64usize).filter(|&k| !((board >> (4 * k)) & U256::from(15u8)).is_zero()).count();
        let fresh = own.fresh.iter().filter(|&&f| f).count();
        prop_assert_eq!(filled, fresh, "seed {:#x}", seed);
    }
}

/// The listed patterns are distinct, have at most K redraws, and each one's
/// witnesses (cell 0 empty or filled) have that pattern.
#[test]
fn the_patterns_are_distinct_and_their_witnesses_belong_to_them() {
    let list = patterns(4);
    let mut names: Vec<String> = list.iter().map(|p| p.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), list.len());
    assert!(list.iter().all(|p| p.redraws() <= 4));
    let mut rng = SplitMix64::new(17);
    for p in &list {
        for cell_zero in [false, true] {
            let w = p.witness(&mut rng, cell_zero);
            assert_eq!(pattern_of(w), *p, "witness {w:#x}");
        }
    }
    // 1 + 7 + 28 full patterns (C(6+r, r) for r = 0, 1, 2), and
    // every spent pattern has fewer than 8 fresh draws.
    let two = patterns(2);
    assert_eq!(two.iter().filter(|p| p.ending == Ending::Full).count(), 36);
    assert!(
        two.iter().filter(|p| p.ending == Ending::Spent).all(|p| p
            .fresh
            .iter()
            .filter(|&&f| f)
            .count()
            < 8)
    );
}

/// The golfed fill returns exactly the reference `_fill`'s board (and
/// success, length) on every seed whose reference fill makes at most one
/// redraw, proved by bitwuzla pattern by pattern from the two harnesses'
/// runtime bytecode. (`octoku prove generate` proves up to 2 redraws; README
/// "generate: what is and is not proved".)
#[test]
fn golf_fill_equals_the_reference_on_every_seed_with_at_most_one_redraw() {
    let dir = query_dir("golf");
    let report = generate::prove_generate(
        reference(),
        golf_program(artifacts::GOLF_HARNESS.runtime),
        Compare::Board,
        1,
        &dir,
        &solver(),
    )
    .expect("the proof runs");
    assert_every_pattern_proved(&report);
    assert_eq!(report.cases.len(), patterns(1).len());
    assert!(report.proved());
    assert!(report.counterexample.is_none());
}

/// Prints the report and checks that every pattern in it is proved.
fn assert_every_pattern_proved(report: &generate::GenerateReport) {
    eprintln!("{report}");
    for c in &report.cases {
        assert_eq!(c.result, CaseResult::Proved, "pattern {}", c.pattern.name());
    }
}

/// The golfed fill with `pattern` changed (byte `at` to `to`), refuted:
/// its counterexample, replayed, differs from the reference's result.
fn golf_mutant_refuted(pattern: &[u8], at: usize, to: u8, tag: &str) -> generate::Counterexample {
    let code = mutate(artifacts::GOLF_HARNESS.runtime, pattern, at, to).unwrap();
    let dir = query_dir(tag);
    let report = generate::prove_generate(
        reference(),
        golf_program(&code),
        Compare::Board,
        0,
        &dir,
        &solver(),
    )
    .expect("the proof runs");
    assert!(!report.proved());
    let c = report
        .counterexample
        .expect("a counterexample replayed in revm");
    assert!(
        c.reference.output != c.implementation.output
            || c.reference.success != c.implementation.success
    );
    c
}

/// `mul(..., 7)` → `mul(..., 6)` in the golfed fill's final v → digit step:
/// refuted on the first full pattern.
#[test]
fn a_golfed_fill_with_a_changed_constant_is_refuted() {
    let c = golf_mutant_refuted(&[0x60, 0x07, 0x02, 0x90, 0x03], 1, 0x06, "mutant-mul6");
    assert_eq!(pattern_of(c.seed).ending, Ending::Full, "{}", c.pattern);
}

/// The fast path's exactness test `shr(42, s)` → `shr(36, s)`: the fast path
/// then also runs on seeds of exactly 7 chunks, which the reference spends
/// after 7 digits. Only the spent patterns see it.
#[test]
fn a_golfed_fill_with_a_weaker_fast_path_test_is_refuted_on_a_spent_seed() {
    let c = golf_mutant_refuted(&[0x60, 0x2a, 0x83, 0x90, 0x1c], 1, 0x24, "mutant-shr36");
    assert_eq!(pattern_of(c.seed).ending, Ending::Spent, "{}", c.pattern);
    assert_eq!(pattern_of(c.seed).fresh.len(), 7);
}

/// The fair fill (digits from keccak256 of the seed, cells from its chunks,
/// drawn in batches) fills exactly the reference's cells on every seed that
/// runs out with at most one redraw, for every value of the hash (KECCAK256
/// is a free variable; its tables are bounded by lemmas the solver proves
/// first). Its `full` patterns are not decided: README "generate: what is and
/// is not proved".
#[test]
fn fair_fill_fills_the_reference_cells_on_every_spent_seed_with_at_most_one_redraw() {
    let dir = query_dir("fair");
    let spent: Vec<_> = patterns(1)
        .into_iter()
        .filter(|p| p.ending != Ending::Full)
        .collect();
    let count = spent.len();
    let report = generate::prove_patterns(
        reference(),
        fair_program(artifacts::FAIR_HARNESS.runtime),
        Compare::Cells,
        spent,
        &dir,
        &solver(),
    )
    .expect("the proof runs");
    assert_every_pattern_proved(&report);
    assert_eq!(report.cases.len(), count);
    assert_eq!(count, 1 + 7 + 28);
}

/// The fair fill's cell mask `and(shl(2, s), 0xfc)` → `0xf8` (a chunk's
/// lowest bit dropped, so chunk 1 lands on cell 0): refuted on a spent seed,
/// with a counterexample replayed in revm (so the fair proof above is not
/// vacuous, hash variables and bounded tables included).
#[test]
fn a_fair_fill_with_a_changed_cell_mask_is_refuted() {
    let code = mutate(
        artifacts::FAIR_HARNESS.runtime,
        &[0x60, 0xfc, 0x88, 0x60, 0x02],
        1,
        0xf8,
    )
    .unwrap();
    let spent: Vec<_> = patterns(0)
        .into_iter()
        .filter(|p| p.ending == Ending::Spent)
        .collect();
    let dir = query_dir("fair-mutant");
    let report = generate::prove_patterns(
        reference(),
        fair_program(&code),
        Compare::Cells,
        spent,
        &dir,
        &solver(),
    )
    .expect("the proof runs");
    let c = report
        .counterexample
        .expect("a counterexample replayed in revm");
    assert_eq!(pattern_of(c.seed).ending, Ending::Spent, "{}", c.pattern);
    assert_ne!(c.reference.output, c.implementation.output);
}

/// A harness (called on the seed) against a contract called on an address:
/// refused before anything runs, not proved.
#[test]
fn programs_taking_different_inputs_are_refused() {
    let err = generate::prove_generate(
        reference(),
        Program::generate(artifacts::REFERENCE.runtime),
        Compare::Board,
        0,
        &query_dir("mixed-inputs"),
        &solver(),
    )
    .expect_err("a seed and an address cannot be compared");
    assert!(matches!(err, ProveError::Inconclusive { .. }), "{err}");
    assert!(err.to_string().contains("different inputs"), "{err}");
}

/// The reference's own runtime against itself through `generate(address)`:
/// both hash the same address bytes, so every pattern up to one redraw is
/// proved with keccak256 an unknown function.
#[test]
fn reference_generate_equals_itself_on_every_address_with_at_most_one_redraw() {
    let report = prove_address(artifacts::REFERENCE.runtime, 1, "reference-address");
    assert_every_pattern_proved(&report);
    assert_eq!(report.cases.len(), patterns(1).len());
}

/// The reference runtime with its 6-bit draw mask 63 patched to 31 (one
/// byte): refuted through `generate(address)`. No address is known to hash
/// to the model's seed, so the boards are the path terms evaluated; the
/// reference's is checked against the Rust mirror's fill of that seed.
#[test]
fn a_reference_with_a_patched_draw_mask_is_refuted_with_its_seed() {
    let code = mutate(
        artifacts::REFERENCE.runtime,
        &[0x60, 0x3f, 0x16, 0x91],
        1,
        0x1f,
    )
    .unwrap();
    let report = prove_address(&code, 0, "reference-mask31");
    assert!(!report.proved());
    let c = report.counterexample.expect("a counterexample");
    assert_ne!(c.reference.output, c.implementation.output);
    let board = octoku_core::octoku::generate::generate_from_seed(c.seed);
    assert_eq!(c.reference.output.as_ref(), &board.0.to_be_bytes::<32>());
    if let Some(a) = c.address {
        assert_eq!(
            U256::from_be_bytes(alloy_primitives::keccak256(a).0),
            c.seed
        );
    }
}

/// An author's own contract, contracts/harness/LoopPuzzle.sol (plain loops,
/// the reference's outputs): solc's checked `16 ** cell` branches on
/// `cell == 0`, `cell < 32` and each bit of a larger cell. The guided runs
/// merge those branches where they rejoin, so each pattern has one path per
/// contract, and every pattern up to one redraw is proved.
#[test]
fn loop_puzzle_generate_equals_the_reference_on_every_address_with_at_most_one_redraw() {
    let report = prove_address(artifacts::LOOP_PUZZLE.runtime, 1, "loop-puzzle");
    assert_every_pattern_proved(&report);
    assert_eq!(report.cases.len(), patterns(1).len());
    assert!(report.cases.iter().all(|c| c.paths == (1, 1)));
}

/// LoopPuzzle with the product in solc's exponentiation loop (`power *
/// base`, run for each set bit of a cell of 32 or more) patched to a sum
/// (one byte): the difference lies inside the branches the guided runs
/// merge, and the proof refutes it; the reference's board of the seed is
/// the Rust mirror's.
#[test]
fn a_loop_puzzle_with_a_patched_power_loop_is_refuted() {
    // SWAP1 DUP2 MUL SWAP1 JUMPDEST PUSH1 1 SWAP4: MUL becomes ADD.
    let code = mutate(
        artifacts::LOOP_PUZZLE.runtime,
        &[0x90, 0x81, 0x02, 0x90, 0x5b, 0x60, 0x01, 0x93],
        2,
        0x01,
    )
    .unwrap();
    let report = prove_address(&code, 0, "loop-puzzle-power-sum");
    assert!(report.count(|r| *r == CaseResult::Proved) < report.cases.len());
    let c = report.counterexample.expect("a counterexample");
    assert_ne!(c.reference.output, c.implementation.output);
    let board = octoku_core::octoku::generate::generate_from_seed(c.seed);
    assert_eq!(c.reference.output.as_ref(), &board.0.to_be_bytes::<32>());
}

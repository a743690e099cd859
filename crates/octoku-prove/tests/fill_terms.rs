//! The executor on the generate fill loops (input-dependent loops that rejoin):
//! the reference's `_fill` and the golfed fill, run symbolically through their
//! raw-seed harnesses (contracts/harness/), give terms that evaluate to what
//! revm returns, seed by seed. The fair harness is refused: its fill hashes
//! the seed (KECCAK256 is not modeled unless the call asks for it to be a
//! free variable, as the generate proof does: tests/prove_generate.rs).

use octoku_core::U256;
use octoku_evm::{Machine, Puzzle, artifacts};
use octoku_prove::exec::{self, ExecError, Limits, Outcome, Stats};
use octoku_prove::program::Program;
use octoku_prove::prove::deployer;
use octoku_prove::term::Terms;
use proptest::prelude::*;

mod common;

/// A store whose only variable (0) is the seed.
fn seed_terms() -> Terms {
    let mut terms = Terms::new();
    terms.var("seed");
    terms
}

fn fill(terms: &mut Terms, puzzle: Puzzle) -> Result<(Outcome, Stats), ExecError> {
    let seed = terms.id_at(0);
    let program = Program::harness(puzzle);
    let call = program.call(terms, seed);
    exec::execute(terms, program.code, &call, Limits::default())
}

fn value(terms: &Terms, o: &Outcome, seed: U256) -> (bool, Vec<u8>) {
    let vars = [seed];
    let mut memo = Default::default();
    let ok = !terms.eval_memo(o.success, &vars, &mut memo).is_zero();
    let len = terms
        .eval_memo(o.len, &vars, &mut memo)
        .saturating_to::<usize>();
    let mut data = Vec::new();
    for &w in &o.words {
        data.extend_from_slice(&terms.eval_memo(w, &vars, &mut memo).to_be_bytes::<32>());
    }
    data.truncate(len);
    (ok, data)
}

struct Fills {
    terms: Terms,
    reference: Outcome,
    golf: Outcome,
    machine: Machine,
    addresses: [alloy_primitives::Address; 2],
}

/// The reference's and the golfed fill run symbolically on one store whose
/// variable 0 is the seed: (store, reference, golf).
fn both_fills() -> (Terms, (Outcome, Stats), (Outcome, Stats)) {
    let mut terms = seed_terms();
    let reference = fill(&mut terms, Puzzle::Reference).expect("the reference fill executes");
    let golf = fill(&mut terms, Puzzle::Golf).expect("the golfed fill executes");
    (terms, reference, golf)
}

fn fills() -> Fills {
    let (terms, (reference, _), (golf, _)) = both_fills();
    let mut machine = Machine::new().unwrap();
    let r = machine
        .deploy(&deployer(artifacts::REFERENCE_HARNESS.runtime))
        .unwrap()
        .0;
    let g = machine
        .deploy(&deployer(artifacts::GOLF_HARNESS.runtime))
        .unwrap()
        .0;
    Fills {
        terms,
        reference,
        golf,
        machine,
        addresses: [r, g],
    }
}

/// Seeds that reach every path: sparse words (few set chunks run dry early),
/// words made of a few repeated chunk values (many redraws), and random words.
fn seed() -> impl Strategy<Value = U256> {
    common::seeds(20, &[5, 9, 5 ^ 63], 0..43)
}

#[test]
fn fill_loops_merge_into_a_bounded_number_of_states() {
    let (_, (_, r), (_, g)) = both_fills();
    eprintln!("reference fill {r:?}; golfed fill {g:?}");
    assert!(r.max_live < 100 && g.max_live < 100, "{r:?} {g:?}");
    assert_eq!(r.forks, r.merges);
    assert_eq!(g.forks, g.merges);
}

#[test]
fn the_fair_fill_is_refused_for_its_keccak256() {
    let mut terms = seed_terms();
    let e = fill(&mut terms, Puzzle::Fair).unwrap_err();
    assert!(
        matches!(e, ExecError::Unsupported { opcode: 0x20, .. }),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// For every seed, the fill terms of both contracts evaluate to what revm
    /// returns, and to each other.
    #[test]
    fn fill_terms_match_revm(seed in seed()) {
        thread_local!(static F: std::cell::RefCell<Option<Fills>> = const { std::cell::RefCell::new(None) });
        F.with(|cell| {
            let mut guard = cell.borrow_mut();
            let f = guard.get_or_insert_with(fills);
            let programs = [Program::harness(Puzzle::Reference), Program::harness(Puzzle::Golf)];
            let outs = [&f.reference, &f.golf];
            let mut results = Vec::new();
            for k in 0..2 {
                let run = f.machine.call_raw(f.addresses[k], programs[k].calldata(seed)).unwrap();
                let got = value(&f.terms, outs[k], seed);
                prop_assert_eq!((got.0, got.1.as_slice()), (run.success, run.output.as_ref()), "seed {:#x}", seed);
                results.push(got);
            }
            prop_assert_eq!(&results[0], &results[1]);
            Ok(())
        })?;
    }
}

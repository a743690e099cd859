//! The executor's semantics against revm: small hand-made programs run
//! symbolically once, their outcome terms evaluated at random inputs, and the
//! same bytecode run in revm on the same inputs.

use alloy_primitives::Address;
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_evm::bindings::IPuzzle;
use octoku_evm::{Machine, artifacts};
use octoku_prove::engine::evaluate;
use octoku_prove::exec::{self, Call, ExecError, Limits, Outcome, Stats};
use octoku_prove::prove::{VERIFY_SELECTOR, deployer, verify_calldata, verify_terms};
use octoku_prove::term::Terms;
use proptest::prelude::*;

/// `PUSH1 0x24 CALLDATALOAD PUSH1 0x04 CALLDATALOAD`: x = word 1 on top, y below.
const LOAD_XY: [u8; 6] = [0x60, 0x24, 0x35, 0x60, 0x04, 0x35];
/// `PUSH0 MSTORE PUSH1 0x20 PUSH0 RETURN`: return the top word.
const RETURN_TOP: [u8; 6] = [0x5f, 0x52, 0x60, 0x20, 0x5f, 0xf3];

fn binary(op: u8) -> Vec<u8> {
    [&LOAD_XY[..], &[op], &RETURN_TOP[..]].concat()
}

fn unary(op: u8) -> Vec<u8> {
    [&[0x60, 0x04, 0x35, op][..], &RETURN_TOP[..]].concat()
}

/// Programs beyond single opcodes: memory, calldata edges, branches, loops.
fn programs() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            // mstore(3, x); mstore8(5, y); return(1, 40): unaligned bytes.
            "memory bytes",
            vec![
                0x60, 0x04, 0x35, 0x60, 0x03, 0x52, 0x60, 0x24, 0x35, 0x60, 0x05, 0x53, 0x60, 0x28,
                0x60, 0x01, 0xf3,
            ],
        ),
        (
            // calldataload(1) ^ calldataload(50) (reads past the end are 0).
            "calldata edges",
            vec![
                0x60, 0x01, 0x35, 0x60, 0x32, 0x35, 0x18, 0x5f, 0x52, 0x60, 0x20, 0x5f, 0xf3,
            ],
        ),
        (
            // calldatacopy(7, 30, 40); mcopy(60, 0, 33); return(0, 96).
            "copies",
            vec![
                0x60, 0x28, 0x60, 0x1e, 0x60, 0x07, 0x37, 0x60, 0x21, 0x5f, 0x60, 0x3c, 0x5e, 0x60,
                0x60, 0x5f, 0xf3,
            ],
        ),
        (
            // if x < y { r = x * 3 } else { r = y ^ 5 }; return r; both
            // branches rejoin at one JUMPDEST.
            "branch and rejoin",
            vec![
                0x60, 0x24, 0x35, 0x60, 0x04, 0x35, // y, x
                0x10, 0x60, 0x15, 0x57, // x < y ? jump 21
                0x60, 0x24, 0x35, 0x60, 0x05, 0x18, // y ^ 5
                0x60, 0x1c, 0x56, // jump 28
                0x00, 0x00, // padding
                0x5b, 0x60, 0x04, 0x35, 0x60, 0x03, 0x02, // 21: x * 3
                0x5b, // 28
                0x5f, 0x52, 0x60, 0x20, 0x5f, 0xf3,
            ],
        ),
        (
            // Revert with 5 bytes of data when x is odd, else return 5 bytes.
            "revert or short return",
            vec![
                0x60, 0x04, 0x35, 0x5f, 0x52, 0x60, 0x04, 0x35, 0x60, 0x01, 0x16, 0x60, 0x13, 0x57,
                0x60, 0x05, 0x5f, 0xf3, 0x00, 0x5b, 0x60, 0x05, 0x60, 0x1b, 0xfd,
            ],
        ),
        (
            // exp(x, 5) + signextend(1, y) + byte(y, x) + sar(y, x) + pc + msize + codesize
            "exp signextend byte sar",
            vec![
                0x60, 0x05, 0x60, 0x04, 0x35, 0x0a, // exp(x, 5)
                0x60, 0x24, 0x35, 0x60, 0x01, 0x0b, 0x01, // + signextend(1, y)
                0x60, 0x04, 0x35, 0x60, 0x24, 0x35, 0x1a, 0x01, // + byte(y, x)
                0x60, 0x04, 0x35, 0x60, 0x24, 0x35, 0x1d, 0x01, // + sar(y, x)
                0x58, 0x01, 0x59, 0x01, 0x38, 0x01, 0x3d, 0x01, 0x34, 0x01, 0x36, 0x01, 0x5f, 0x52,
                0x60, 0x20, 0x5f, 0xf3,
            ],
        ),
    ]
}

fn op_programs() -> Vec<(String, Vec<u8>)> {
    let binaries = [
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18,
        0x1a, 0x1b, 0x1c, 0x1d,
    ];
    let mut out: Vec<(String, Vec<u8>)> = binaries
        .iter()
        .map(|&op| (format!("opcode 0x{op:02x}"), binary(op)))
        .collect();
    out.extend([0x15, 0x19].map(|op| (format!("opcode 0x{op:02x}"), unary(op))));
    out.extend(programs().into_iter().map(|(n, c)| (n.to_string(), c)));
    out
}

fn symbolic(terms: &mut Terms, code: &[u8]) -> Result<(Outcome, Stats), ExecError> {
    let (x, y) = (terms.id_at(0), terms.id_at(1));
    let call = Call::abi(terms, VERIFY_SELECTOR, &[x, y]);
    exec::execute(terms, code, &call, Limits::default())
}

/// Words that exercise edges: small numbers, powers of two and their
/// neighbours, the sign bit, all ones, and uniform random words.
fn word() -> impl Strategy<Value = U256> {
    prop_oneof![
        (0u64..300).prop_map(U256::from),
        (0usize..256).prop_map(|k| U256::from(1u8) << k),
        (0usize..256).prop_map(|k| (U256::from(1u8) << k).wrapping_sub(U256::from(1u8))),
        (0usize..256).prop_map(|k| U256::ZERO.wrapping_sub(U256::from(1u8) << k)),
        any::<[u8; 32]>().prop_map(|b| U256::from_be_bytes(b)),
    ]
}

struct Lab {
    machine: Machine,
    cases: Vec<(String, Terms, Outcome, alloy_primitives::Address)>,
}

fn lab() -> Lab {
    let mut machine = Machine::new().expect("in-memory EVM");
    let mut cases = Vec::new();
    for (name, code) in op_programs() {
        let mut terms = verify_terms();
        let (outcome, _) = symbolic(&mut terms, &code).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (address, _) = machine.deploy(&deployer(&code)).expect("deploy");
        cases.push((name, terms, outcome, address));
    }
    Lab { machine, cases }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// For every modeled opcode and program, and every input pair, the
    /// outcome terms evaluate to exactly what revm returns.
    #[test]
    fn outcome_terms_match_revm(x in word(), y in word()) {
        thread_local!(static LAB: std::cell::RefCell<Option<Lab>> = const { std::cell::RefCell::new(None) });
        LAB.with(|cell| {
            let mut guard = cell.borrow_mut();
            let lab = guard.get_or_insert_with(lab);
            for (name, terms, outcome, address) in &lab.cases {
                let run = lab.machine.call_raw(*address, verify_calldata(x, y)).expect("revm call");
                let (success, data) = evaluate(terms, outcome, &[x, y]);
                prop_assert_eq!(
                    (success, data.as_slice()),
                    (run.success, run.output.as_ref()),
                    "{} at x = {:#x}, y = {:#x}", name, x, y
                );
            }
            Ok(())
        })?;
    }
}

/// 64 times: if (x >> k) & 1 { acc += k + 1 }; return acc. Without merging
/// this is 2^64 paths.
fn sequential_branches() -> Vec<u8> {
    let mut code = vec![0x5f]; // acc = 0
    for k in 0u8..64 {
        // PUSH1 4 CALLDATALOAD PUSH1 k SHR PUSH1 1 AND ISZERO
        code.extend([0x60, 0x04, 0x35, 0x60, k, 0x1c, 0x60, 0x01, 0x16, 0x15]);
        // PUSH2 target JUMPI, skipping `PUSH1 k+1 ADD` to the JUMPDEST.
        let target = u16::try_from(code.len() + 4 + 3).unwrap().to_be_bytes();
        code.extend([0x61, target[0], target[1], 0x57]);
        code.extend([0x60, k + 1, 0x01]);
        code.push(0x5b);
    }
    code.extend(RETURN_TOP);
    code
}

#[test]
fn sequential_branches_that_rejoin_are_merged() {
    let code = sequential_branches();
    let mut terms = verify_terms();
    let (outcome, stats) = symbolic(&mut terms, &code).expect("bounded");
    assert_eq!(stats.forks, 64);
    assert_eq!(stats.merges, 64);
    assert!(stats.max_live <= 2, "{stats:?}");
    let mut machine = Machine::new().unwrap();
    let (address, _) = machine.deploy(&deployer(&code)).unwrap();
    for x in [U256::ZERO, U256::MAX, U256::from(0x1234_5678_9abc_def0u64)] {
        let run = machine
            .call_raw(address, verify_calldata(x, U256::ZERO))
            .unwrap();
        let (success, data) = evaluate(&terms, &outcome, &[x, U256::ZERO]);
        assert_eq!(
            (success, data.as_slice()),
            (run.success, run.output.as_ref())
        );
    }
}

/// Guided runs that merge the branches whose sides rejoin (the limits of a
/// `generate(address)` proof).
fn merging() -> Limits {
    Limits {
        merge_steps: 20_000,
        ..Limits::default()
    }
}

/// Programs for guided runs: the hand-made branches, and compiled
/// `verify(uint256,uint256)` code with loops and early returns
/// (contracts/harness/LoopPuzzle.sol: checked `2 ** digit` in its loops).
fn guided_programs() -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<_> = programs()
        .into_iter()
        .filter(|(name, _)| name.contains("branch") || name.contains("revert"))
        .collect();
    out.push(("sequential branches", sequential_branches()));
    out.push(("LoopPuzzle verify", artifacts::LOOP_PUZZLE.runtime.to_vec()));
    out.push(("reference verify", artifacts::REFERENCE.runtime.to_vec()));
    out
}

struct GuidedLab {
    machine: Machine,
    programs: Vec<(&'static str, Vec<u8>, alloy_primitives::Address)>,
}

fn guided_lab() -> GuidedLab {
    let mut machine = Machine::new().expect("in-memory EVM");
    let programs = guided_programs()
        .into_iter()
        .map(|(name, code)| {
            let (address, _) = machine.deploy(&deployer(&code)).expect("deploy");
            (name, code, address)
        })
        .collect();
    GuidedLab { machine, programs }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A guided run that merges the sides of branches describes every input
    /// its path condition admits: the condition holds at the witness, and
    /// at the witness and at every input near it (a few bits flipped) where
    /// the condition holds, the outcome terms evaluate to what revm returns.
    #[test]
    fn merged_guided_runs_match_revm_wherever_their_condition_holds(
        x in word(),
        y in word(),
        flips in prop::collection::vec((0usize..512, 0usize..512), 16),
    ) {
        thread_local!(static LAB: std::cell::RefCell<Option<GuidedLab>> = const { std::cell::RefCell::new(None) });
        LAB.with(|cell| {
            let mut guard = cell.borrow_mut();
            let lab = guard.get_or_insert_with(guided_lab);
            for (name, code, address) in &lab.programs {
                let mut terms = verify_terms();
                let (a, b) = (terms.id_at(0), terms.id_at(1));
                let call = Call::abi(&mut terms, VERIFY_SELECTOR, &[a, b]);
                let g = exec::execute_guided(&mut terms, code, &call, merging(), &[x, y])
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                prop_assert_eq!(terms.eval(g.guard, &[x, y]), U256::from(1u8), "{}", name);
                let flipped = flips.iter().map(|&(i, j)| {
                    let bit = |k: usize| U256::from(1u8) << (k % 256);
                    let (mut u, mut v) = (x, y);
                    for k in [i, j] {
                        if k < 256 { u ^= bit(k) } else { v ^= bit(k) }
                    }
                    (u, v)
                });
                for (u, v) in std::iter::once((x, y)).chain(flipped) {
                    if terms.eval(g.guard, &[u, v]).is_zero() {
                        continue;
                    }
                    let run = lab.machine.call_raw(*address, verify_calldata(u, v)).expect("revm call");
                    let (success, data) = evaluate(&terms, &g.outcome, &[u, v]);
                    prop_assert_eq!(
                        (success, data.as_slice()),
                        (run.success, run.output.as_ref()),
                        "{} at {:#x}, {:#x} (witness {:#x}, {:#x})", name, u, v, x, y
                    );
                }
            }
            Ok(())
        })?;
    }
}

/// LoopPuzzle's `generate(address)` run guided with merging (its checked
/// `16 ** cell` merged): at the witness address, with the real hash, the
/// outcome is revm's board, and some branches were merged.
#[test]
fn merged_guided_runs_of_loop_puzzle_generate_give_revm_boards() {
    let mut machine = Machine::new().expect("in-memory EVM");
    let code = artifacts::LOOP_PUZZLE.runtime;
    let (address, _) = machine.deploy(&deployer(code)).expect("deploy");
    let selector = IPuzzle::generateCall::SELECTOR;
    let mut rejoined = 0;
    for k in 0u64..48 {
        let seed = Address::from_word(alloy_primitives::keccak256(k.to_be_bytes()));
        let mut terms = Terms::new();
        let a = terms.var("address");
        let call = Call::abi(&mut terms, selector, &[a]).hashes_as_variables();
        let witness = U256::from_be_slice(seed.as_slice());
        let g = exec::execute_guided(&mut terms, code, &call, merging(), &[witness])
            .expect("a bounded run");
        assert_eq!(terms.eval(g.guard, &g.values), U256::from(1u8));
        let run = machine
            .call_raw(address, IPuzzle::generateCall { seed }.abi_encode().into())
            .expect("revm call");
        let (success, data) = evaluate(&terms, &g.outcome, &g.values);
        assert_eq!(
            (success, data.as_slice()),
            (run.success, run.output.as_ref()),
            "{seed}"
        );
        rejoined += g.stats.rejoined;
    }
    assert!(rejoined > 48, "{rejoined} branches merged");
}

fn refusal(code: &[u8], limits: Limits) -> ExecError {
    let mut terms = verify_terms();
    let (x, y) = (terms.id_at(0), terms.id_at(1));
    let call = Call::abi(&mut terms, VERIFY_SELECTOR, &[x, y]);
    match exec::execute(&mut terms, code, &call, limits) {
        Err(e) => e,
        Ok((o, _)) => panic!("expected a refusal, got {o:?}"),
    }
}

#[test]
fn unmodeled_opcodes_are_refused() {
    // SLOAD(0)
    let e = refusal(&[0x5f, 0x54, 0x00], Limits::default());
    assert!(
        matches!(
            e,
            ExecError::Unsupported {
                pc: 1,
                opcode: 0x54,
                ..
            }
        ),
        "{e}"
    );
    // GAS
    let e = refusal(&[0x5a, 0x00], Limits::default());
    assert!(
        matches!(e, ExecError::Unsupported { opcode: 0x5a, .. }),
        "{e}"
    );
    // KECCAK256 of memory
    let e = refusal(&[0x60, 0x20, 0x5f, 0x20, 0x00], Limits::default());
    assert!(
        matches!(e, ExecError::Unsupported { opcode: 0x20, .. }),
        "{e}"
    );
}

#[test]
fn a_jump_to_an_input_dependent_target_is_refused() {
    let e = refusal(&[0x60, 0x04, 0x35, 0x56], Limits::default());
    assert_eq!(e, ExecError::SymbolicJump { pc: 3 });
}

#[test]
fn an_input_dependent_memory_offset_is_refused() {
    // mstore(calldataload(4), 1)
    let e = refusal(&[0x60, 0x01, 0x60, 0x04, 0x35, 0x52], Limits::default());
    assert!(matches!(e, ExecError::SymbolicMemory { pc: 5, .. }), "{e}");
}

#[test]
fn a_loop_on_an_input_is_refused_at_the_bound() {
    // x = calldataload(4); loop: x = x - 1; if x != 0 goto loop; stop.
    let code = [
        0x60, 0x04, 0x35, 0x5b, 0x60, 0x01, 0x90, 0x03, 0x80, 0x60, 0x03, 0x57, 0x00,
    ];
    let limits = Limits {
        steps_per_path: 10_000,
        ..Limits::default()
    };
    let e = refusal(&code, limits);
    assert!(
        matches!(
            e,
            ExecError::LoopBound { .. } | ExecError::TooManyStates { .. }
        ),
        "{e}"
    );
}

/// The SMT-LIB2 printer agrees with term evaluation: for fixed inputs
/// (including zero divisors and shifts past 255), asserting that every
/// program's outcome differs from its evaluated value is unsatisfiable.
#[test]
fn smt_printer_agrees_with_evaluation() {
    use octoku_prove::smt::distinct_query;
    use octoku_prove::solver::{Answer, Solver};
    let pairs = [
        (U256::from(7u8), U256::ZERO),
        (U256::MAX, U256::from(300u32)),
        (U256::from(1u8) << 255, U256::MAX),
        (U256::from(0x1234_5678u64), U256::from(37u8)),
    ];
    let mut terms = verify_terms();
    let outcomes: Vec<Outcome> = op_programs()
        .iter()
        .map(|(name, code)| {
            symbolic(&mut terms, code)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .0
        })
        .collect();
    // All programs' outcomes as one: every field as a word.
    let mut words = Vec::new();
    for o in &outcomes {
        words.push(o.success);
        words.push(o.len);
        words.extend(&o.words);
    }
    let zero = terms.small(0);
    let all = Outcome {
        success: zero,
        len: zero,
        words: words.clone(),
    };
    for (k, (x, y)) in pairs.into_iter().enumerate() {
        let vars = [x, y];
        let mut memo = Default::default();
        let values: Vec<_> = words
            .iter()
            .map(|&w| terms.eval_memo(w, &vars, &mut memo))
            .collect();
        let constants: Vec<_> = values.iter().map(|&v| terms.constant(v)).collect();
        let expected = Outcome {
            success: zero,
            len: zero,
            words: constants,
        };
        let case = format!("(and (= start #x{x:064x}) (= solution #x{y:064x}))");
        let text = distinct_query(&terms, &all, &expected, &[], Some(&case));
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("prove/printer/pair-{k}.smt2"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let solved = Solver::from_env().unwrap().solve(&path).unwrap();
        assert_eq!(solved.answer, Answer::Unsat, "inputs {x:#x}, {y:#x}");
    }
}

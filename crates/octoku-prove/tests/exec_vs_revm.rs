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

/// The edge words of one operand kind (see [`OPCODE_EDGES`]).
fn edges(kind: Edge) -> Vec<U256> {
    let one = U256::from(1u8);
    let top = one << 255;
    let small = |v: &[u64]| v.iter().map(|&x| U256::from(x)).collect::<Vec<_>>();
    let mut out = match kind {
        Edge::Word => {
            let mut w = small(&[0, 1, 2, 3, 31, 32, 255, 256, 257]);
            w.extend([top, top - one, U256::MAX, U256::MAX - one, one << 128]);
            w
        }
        Edge::Amount => {
            let mut w = small(&[0, 1, 7, 8, 31, 32, 248, 255, 256, 257, 300]);
            w.extend([one << 128, top, U256::MAX]);
            w
        }
        Edge::Signed => {
            let mut w = small(&[0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000]);
            w.extend([top, top - one, top + one, U256::MAX, U256::MAX - one]);
            w
        }
        Edge::Base => {
            let mut w = small(&[0, 1, 2, 3, 4, 16, 256]);
            w.extend([one << 128, top, U256::MAX, U256::from(0x1234_5678u64)]);
            w
        }
        Edge::Exponent => {
            let mut w = small(&[0, 1, 2, 3, 31, 32, 127, 128, 255, 256, 257]);
            w.extend([one << 128, top, U256::MAX]);
            w
        }
        Edge::Modulus => {
            let mut w = small(&[0, 1, 2, 3, 7]);
            w.extend([top, top + one, U256::MAX]);
            w
        }
    };
    out.push(U256::from_be_bytes([0x5a; 32]));
    out
}

/// Kinds of operands, each with its own edge words.
#[derive(Debug, Clone, Copy)]
enum Edge {
    /// Any word: 0, 1, small, 255/256, the sign bit and neighbours, all ones.
    Word,
    /// A shift amount, BYTE or SIGNEXTEND index: around 8, 31/32, 255/256,
    /// and huge.
    Amount,
    /// Signed edges: MIN, MAX, -1, -2 and byte sign boundaries.
    Signed,
    /// An EXP base: 0, 1, powers of two, others.
    Base,
    /// An EXP exponent: small, 255/256/257, huge.
    Exponent,
    /// A modulus or divisor: 0, 1, small, the sign bit, all ones.
    Modulus,
}

/// Every stack opcode the executor models, with the edge words of each of
/// its operands (operand 0 is the top of the stack).
const OPCODE_EDGES: &[(&str, u8, &[Edge])] = &[
    ("ADD", 0x01, &[Edge::Word, Edge::Word]),
    ("MUL", 0x02, &[Edge::Word, Edge::Word]),
    ("SUB", 0x03, &[Edge::Word, Edge::Word]),
    ("DIV", 0x04, &[Edge::Word, Edge::Modulus]),
    ("SDIV", 0x05, &[Edge::Signed, Edge::Signed]),
    ("MOD", 0x06, &[Edge::Word, Edge::Modulus]),
    ("SMOD", 0x07, &[Edge::Signed, Edge::Signed]),
    ("ADDMOD", 0x08, &[Edge::Word, Edge::Word, Edge::Modulus]),
    ("MULMOD", 0x09, &[Edge::Word, Edge::Word, Edge::Modulus]),
    ("EXP", 0x0a, &[Edge::Base, Edge::Exponent]),
    ("SIGNEXTEND", 0x0b, &[Edge::Amount, Edge::Signed]),
    ("LT", 0x10, &[Edge::Word, Edge::Word]),
    ("GT", 0x11, &[Edge::Word, Edge::Word]),
    ("SLT", 0x12, &[Edge::Signed, Edge::Signed]),
    ("SGT", 0x13, &[Edge::Signed, Edge::Signed]),
    ("EQ", 0x14, &[Edge::Word, Edge::Word]),
    ("ISZERO", 0x15, &[Edge::Word]),
    ("AND", 0x16, &[Edge::Word, Edge::Word]),
    ("OR", 0x17, &[Edge::Word, Edge::Word]),
    ("XOR", 0x18, &[Edge::Word, Edge::Word]),
    ("NOT", 0x19, &[Edge::Word]),
    ("BYTE", 0x1a, &[Edge::Amount, Edge::Word]),
    ("SHL", 0x1b, &[Edge::Amount, Edge::Signed]),
    ("SHR", 0x1c, &[Edge::Amount, Edge::Signed]),
    ("SAR", 0x1d, &[Edge::Amount, Edge::Signed]),
];

/// Programs around memory, calldata, code, hashing and control flow, with
/// concrete offsets at the edges (unaligned, overlapping, past the end,
/// zero length) and the data from calldata words x, y, z. Each hashes with
/// [`Call::hashes_as_variables`] and is run guided (the real hashes as the
/// hash variables' values).
// One table of programs, one row per case.
#[allow(clippy::too_many_lines)]
fn memory_programs() -> Vec<(&'static str, Vec<u8>)> {
    // PUSH1 k CALLDATALOAD: x, y, z are at 4, 36, 68.
    let x = [0x60, 0x04, 0x35];
    let y = [0x60, 0x24, 0x35];
    let z = [0x60, 0x44, 0x35];
    let push = |v: u8| [0x60, v];
    let ret = |off: u8, len: u8| [0x60, len, 0x60, off, 0xf3];
    let cat = |parts: &[&[u8]]| parts.concat();
    vec![
        (
            // mstore(3, x) mstore(20, y) mstore8(21, z) mstore8(95, x) return(0, 96)
            "MSTORE/MSTORE8 unaligned and overlapping",
            cat(&[
                &x,
                &push(3),
                &[0x52],
                &y,
                &push(20),
                &[0x52],
                &z,
                &push(21),
                &[0x53],
                &x,
                &push(95),
                &[0x53],
                &ret(0, 96),
            ]),
        ),
        (
            // mstore(0, x) mstore(17, y) mstore(64, xor(mload(9), mload(40)))
            // mstore(96, mload(200)) mstore(128, msize) return(0, 160)
            "MLOAD unaligned, overlapping and past the end",
            cat(&[
                &x,
                &push(0),
                &[0x52],
                &y,
                &push(17),
                &[0x52],
                &push(40),
                &[0x51],
                &push(9),
                &[0x51, 0x18],
                &push(64),
                &[0x52],
                &push(200),
                &[0x51],
                &push(96),
                &[0x52],
                &[0x59],
                &push(128),
                &[0x52],
                &ret(0, 160),
            ]),
        ),
        (
            // mstore(0, x) mstore(32, y) mcopy(5, 0, 50) mcopy(40, 47, 20)
            // mcopy(250, 251, 0) mstore(96, msize) return(0, 128)
            "MCOPY overlapping both ways and empty",
            cat(&[
                &x,
                &push(0),
                &[0x52],
                &y,
                &push(32),
                &[0x52],
                &push(50),
                &push(0),
                &push(5),
                &[0x5e],
                &push(20),
                &push(47),
                &push(40),
                &[0x5e],
                &push(0),
                &push(251),
                &push(250),
                &[0x5e],
                &[0x59],
                &push(96),
                &[0x52],
                &ret(0, 128),
            ]),
        ),
        (
            // calldatacopy(3, 30, 80) calldatacopy(40, 1, 7) calldatacopy(90, 200, 9)
            // return(0, 128)
            "CALLDATACOPY unaligned, overlapping and past the end",
            cat(&[
                &push(80),
                &push(30),
                &push(3),
                &[0x37],
                &push(7),
                &push(1),
                &push(40),
                &[0x37],
                &push(9),
                &push(200),
                &push(90),
                &[0x37],
                &ret(0, 128),
            ]),
        ),
        (
            // xor(calldataload(1), calldataload(31)) ^ calldataload(90) ^
            // calldataload(2^255) ^ codesize; codecopy(32, 3, 40); return(0, 96)
            "CALLDATALOAD and CODECOPY at the edges",
            cat(&[
                &push(1),
                &[0x35],
                &push(31),
                &[0x35, 0x18],
                &push(90),
                &[0x35, 0x18],
                &[0x7f, 0x80],
                &[0u8; 31],
                &[0x35, 0x18],
                &[0x38, 0x18],
                &push(0),
                &[0x52],
                &push(40),
                &push(3),
                &push(32),
                &[0x39],
                &ret(0, 96),
            ]),
        ),
        (
            // mstore(0, x) mstore(64, x) calldatacopy(128, 4, 32) mstore(0xa0, y)
            // [keccak(0, 32), keccak(64, 32), keccak(128, 32), keccak(0, 0),
            //  keccak(5, 40), keccak(0xa0, 32)] stored from 0x100; return(0x100, 192)
            "KECCAK256 of equal contents at different offsets",
            cat(&[
                &x,
                &push(0),
                &[0x52],
                &x,
                &push(64),
                &[0x52],
                &push(32),
                &push(4),
                &push(128),
                &[0x37],
                &y,
                &push(0xa0),
                &[0x52],
                &push(32),
                &push(0),
                &[0x20],
                &[0x61, 0x01, 0x00],
                &[0x52],
                &push(32),
                &push(64),
                &[0x20],
                &[0x61, 0x01, 0x20],
                &[0x52],
                &push(32),
                &push(128),
                &[0x20],
                &[0x61, 0x01, 0x40],
                &[0x52],
                &push(0),
                &push(0),
                &[0x20],
                &[0x61, 0x01, 0x60],
                &[0x52],
                &push(40),
                &push(5),
                &[0x20],
                &[0x61, 0x01, 0x80],
                &[0x52],
                &push(32),
                &push(0xa0),
                &[0x20],
                &[0x61, 0x01, 0xa0],
                &[0x52],
                &[0x60, 0xc0, 0x61, 0x01, 0x00, 0xf3],
            ]),
        ),
        (
            // mstore(x, y) at an input-dependent offset (guided), then
            // return(0, 0x140) and msize
            "MSTORE and MLOAD at an input-dependent offset",
            cat(&[
                &y,
                &x,
                &[0x52],
                &z,
                &[0x51],
                &push(0x20),
                &[0x52],
                &[0x59],
                &push(0),
                &[0x52],
                &[0x61, 0x01, 0x40, 0x5f, 0xf3],
            ]),
        ),
        (
            // dup16/swap16 over 17 entries, pop, push0, pc, returndatasize,
            // callvalue, calldatasize folded with add; return the sum
            "DUP16 SWAP16 POP PUSH0 PC RETURNDATASIZE CALLVALUE CALLDATASIZE",
            {
                let mut c = Vec::new();
                for k in 0..17u8 {
                    c.extend([0x60, k * 3 + 1]);
                }
                c.extend(x);
                c.extend([0x8f, 0x9f, 0x50, 0x5f, 0x58, 0x3d, 0x34, 0x36]);
                c.extend([0x01; 7]);
                c.extend([0x5f, 0x52]);
                c.extend(ret(0, 32));
                c
            },
        ),
        (
            // if x { jump into push data } else { revert(0, 3) after mstore(0, y) }
            "JUMPI to an invalid destination, REVERT with data",
            cat(&[
                &x,
                &push(9),
                &[0x57],
                &y,
                &push(0),
                &[0x52],
                &[0x60, 0x03],
                &push(0),
                &[0xfd],
                &[0x60, 0x5b],
            ]),
        ),
        (
            // if lt(x, y) { invalid } else { stop }
            "INVALID and STOP",
            cat(&[
                &y,
                &x,
                &[0x10],
                &push(12),
                &[0x57, 0x00],
                &[0x00, 0x5b, 0xfe],
            ]),
        ),
    ]
}

/// Calldata `VERIFY_SELECTOR ++ words`.
fn calldata_of(words: &[U256]) -> alloy_primitives::Bytes {
    let mut data = VERIFY_SELECTOR.to_vec();
    for w in words {
        data.extend_from_slice(&w.to_be_bytes::<32>());
    }
    data.into()
}

/// revm's outcome of a call with calldata `VERIFY_SELECTOR ++ words`:
/// success and the return or revert data (an exceptional halt: failure,
/// no data, as the executor models it).
fn revm_run(machine: &mut Machine, address: Address, words: &[U256]) -> (bool, Vec<u8>) {
    match machine.call_raw(address, calldata_of(words)) {
        Ok(run) => (run.success, run.output.to_vec()),
        Err(octoku_evm::EvmError::Halted(_)) => (false, Vec::new()),
        Err(e) => panic!("revm call: {e}"),
    }
}

/// One program run symbolically: its terms and outcome, or the refusal.
type Run = Result<(Terms, Outcome), ExecError>;

/// The program that applies `op` to its operands: operand `i` a calldata
/// word when `symbolic` has bit i, else the constant `values[i]`; the
/// result returned.
fn op_program(op: u8, values: &[U256], symbolic: usize) -> Vec<u8> {
    let mut code = Vec::new();
    for i in (0..values.len()).rev() {
        if symbolic >> i & 1 == 1 {
            code.extend([0x60, 4 + 32 * i as u8, 0x35]);
        } else {
            code.push(0x7f);
            code.extend(values[i].to_be_bytes::<32>());
        }
    }
    code.push(op);
    code.extend(RETURN_TOP);
    code
}

/// Every opcode the executor models, on the edge operands of its table
/// row and a few random words, each operand symbolic (a calldata word) or
/// constant in every combination: the outcome terms evaluated at the
/// operands equal revm's execution of the same bytecode, or the executor
/// refuses (only EXP, SIGNEXTEND, ADDMOD and MULMOD on symbolic operands
/// it has no circuit for). Then the memory, calldata, hashing and control
/// programs, run guided at edge and random words, against revm wherever
/// their path condition holds.
#[test]
fn every_modelled_opcode_matches_revm_on_edge_operands() {
    let mut machine = Machine::new().expect("in-memory EVM");
    let mut rng = 0x0c70_c0de_u64;
    let mut random = move || {
        let mut limbs = [0u64; 4];
        for l in &mut limbs {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *l = rng;
        }
        U256::from_limbs(limbs)
    };
    let (mut compared, mut refused) = (0usize, 0usize);
    for &(name, op, kinds) in OPCODE_EDGES {
        let lists: Vec<Vec<U256>> = kinds
            .iter()
            .map(|&k| {
                let mut l = edges(k);
                l.extend([random(), random()]);
                l
            })
            .collect();
        // Every tuple of the lists' words (the product).
        let mut tuples: Vec<Vec<U256>> = vec![vec![]];
        for list in &lists {
            tuples = tuples
                .iter()
                .flat_map(|t| {
                    list.iter().map(move |&w| {
                        let mut t = t.clone();
                        t.push(w);
                        t
                    })
                })
                .collect();
        }
        let mut runs: std::collections::HashMap<Vec<u8>, (Run, Address)> = Default::default();
        for symbolic in 0..1usize << kinds.len() {
            for values in &tuples {
                let code = op_program(op, values, symbolic);
                let (run, address) = runs.entry(code.clone()).or_insert_with(|| {
                    let mut terms = Terms::new();
                    let vars: Vec<_> = ["a0", "a1", "a2"].iter().map(|n| terms.var(n)).collect();
                    let call = Call::abi(&mut terms, VERIFY_SELECTOR, &vars);
                    let run = exec::execute(&mut terms, &code, &call, Limits::default())
                        .map(|(o, _)| (terms, o));
                    let (address, _) = machine.deploy(&deployer(&code)).expect("deploy");
                    (run, address)
                });
                let mut words = values.clone();
                words.resize(3, U256::ZERO);
                match run {
                    Ok((terms, outcome)) => {
                        let revm = revm_run(&mut machine, *address, &words);
                        let ours = evaluate(terms, outcome, &words);
                        assert_eq!(
                            ours, revm,
                            "{name} on {values:#x?}, symbolic operands {symbolic:#b}"
                        );
                        compared += 1;
                    }
                    Err(e) => {
                        assert!(
                            symbolic != 0
                                && matches!(e, ExecError::Unsupported { .. })
                                && ["EXP", "SIGNEXTEND", "ADDMOD", "MULMOD"].contains(&name),
                            "{name} on {values:#x?}, symbolic operands {symbolic:#b}: {e}"
                        );
                        refused += 1;
                    }
                }
            }
        }
    }
    let words = edges(Edge::Word);
    for (name, code) in memory_programs() {
        let (address, _) = machine.deploy(&deployer(&code)).expect("deploy");
        for k in 0..words.len() {
            let mut xyz = [words[k], words[(k + 5) % words.len()], random()];
            if name.contains("input-dependent offset") {
                // Offsets in memory: unaligned, in and below 0x80.
                let offsets = [0u64, 3, 0x40, 0x80, 0x85, 0xa0, 0xe1];
                xyz[0] = U256::from(offsets[k % offsets.len()]);
                xyz[2] = U256::from(offsets[(k + 2) % offsets.len()]);
            }
            let mut terms = Terms::new();
            let vars: Vec<_> = ["a0", "a1", "a2"].iter().map(|n| terms.var(n)).collect();
            let call = Call::abi(&mut terms, VERIFY_SELECTOR, &vars).hashes_as_variables();
            let g = exec::execute_guided(&mut terms, &code, &call, merging(), &xyz)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(terms.eval(g.guard, &g.values), U256::from(1u8), "{name}");
            let revm = revm_run(&mut machine, address, &xyz);
            let ours = evaluate(&terms, &g.outcome, &g.values);
            assert_eq!(ours, revm, "{name} at {xyz:#x?}");
            compared += 1;
        }
    }
    // Every tuple of every row, symbolic or constant, was compared or
    // (EXP, SIGNEXTEND, ADDMOD, MULMOD only) refused.
    eprintln!("{compared} executions compared with revm, {refused} refused");
    // The counts docs/proofs/evm.md states (the words are a fixed stream).
    assert_eq!((compared, refused), (28_050, 45_488));
}

/// Every byte as the one instruction after eight zero words (then STOP):
/// each run the executor does not refuse ends as revm ends, and every byte
/// that is no instruction on Prague (undefined, or a later fork's) is such
/// a run: a halt, the call failed with no data, as on INVALID.
#[test]
fn every_byte_as_an_instruction_ends_as_in_revm_and_undefined_ones_halt() {
    let mut machine = Machine::new().expect("machine");
    let (mut compared, mut refused, mut undefined) = (0, 0, 0);
    for op in 0..=255u8 {
        let mut code = vec![0x5f; 8];
        code.push(op);
        code.extend([0u8; 33]);
        let (address, _) = machine.deploy(&deployer(&code)).expect("deploy");
        let zero = [U256::ZERO, U256::ZERO];
        let revm = machine.call_raw(address, calldata_of(&zero));
        let no_instruction = matches!(
            &revm,
            Err(octoku_evm::EvmError::Halted(
                octoku_evm::HaltReason::OpcodeNotFound | octoku_evm::HaltReason::NotActivated
            ))
        );
        assert_eq!(no_instruction, exec::undefined(op), "0x{op:02x}: {revm:?}");
        let revm = revm_run(&mut machine, address, &zero);
        let mut terms = verify_terms();
        match symbolic(&mut terms, &code) {
            Ok((outcome, _)) => {
                assert_eq!(
                    evaluate(&terms, &outcome, &zero),
                    revm,
                    "0x{op:02x} after eight zeros"
                );
                compared += 1;
                if no_instruction {
                    assert_eq!(revm, (false, Vec::new()), "0x{op:02x} halts");
                    undefined += 1;
                }
            }
            Err(e) => {
                assert!(
                    !no_instruction,
                    "0x{op:02x} is no instruction, refused: {e}"
                );
                refused += 1;
            }
        }
    }
    eprintln!(
        "{compared} bytes compared with revm ({undefined} no instruction), {refused} refused"
    );
    assert_eq!(compared + refused, 256);
    assert!(undefined >= 100, "{undefined} undefined bytes");
}

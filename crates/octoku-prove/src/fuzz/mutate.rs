//! Mutants of compiled runtime bytecode, at the instructions a call really
//! executes: an operator replaced by another of the same stack arity, a
//! PUSH constant changed, a DUP or SWAP depth changed, a zero-operand
//! opcode replaced by another, or a short corner-case sequence inserted
//! after an instruction.
//!
//! Insertion without moving a jump target: the instructions at the site
//! (at least 5 bytes of them, none a jump, a JUMPDEST or an end) are
//! replaced by `PUSH2 T JUMP JUMPDEST` and JUMPDEST padding, and the code
//! gets a tail at `T`: `JUMPDEST`, the replaced instructions, the inserted
//! sequence, `PUSH2 back JUMP` (back to the JUMPDEST). Every other byte
//! keeps its place, so every jump still lands where it did.

use octoku_core::rng::SplitMix64;
use revm::bytecode::opcode;

/// One instruction a call executed: its program counter and opcode.
pub type Site = (usize, u8);

/// Binary operators (two operands, one result), by family: a mutant
/// prefers a replacement from the same family.
const BINARY: [&[u8]; 4] = [
    &[
        opcode::ADD,
        opcode::SUB,
        opcode::MUL,
        opcode::DIV,
        opcode::SDIV,
        opcode::MOD,
        opcode::SMOD,
        opcode::EXP,
        opcode::SIGNEXTEND,
    ],
    &[opcode::LT, opcode::GT, opcode::SLT, opcode::SGT, opcode::EQ],
    &[opcode::AND, opcode::OR, opcode::XOR, opcode::BYTE],
    &[opcode::SHL, opcode::SHR, opcode::SAR],
];

/// Unary operators.
const UNARY: [u8; 2] = [opcode::ISZERO, opcode::NOT];

/// Ternary operators.
const TERNARY: [u8; 2] = [opcode::ADDMOD, opcode::MULMOD];

/// Opcodes that push one word and pop none, with no data: in a call of the
/// prover's shape (no value, no return data yet) PUSH0, CALLVALUE and
/// RETURNDATASIZE all push 0; the others push something else.
const NULLARY: [u8; 7] = [
    opcode::PUSH0,
    opcode::RETURNDATASIZE,
    opcode::CALLVALUE,
    opcode::CALLDATASIZE,
    opcode::CODESIZE,
    opcode::MSIZE,
    opcode::PC,
];

/// Sequences inserted after an instruction: each takes the word on top of
/// the stack and leaves one word. Identities first (an equivalent mutant
/// when nothing else changes), then corner cases of the opcodes' semantics
/// (shift by 256, BYTE at 32, SIGNEXTEND at 31 and 0, EXP with base 0, 1
/// and 2, division and modulus by 0, MIN / -1, MULMOD by 2^256 - 1) and
/// "guards rejoined" (`(x & c) | (x & !c)` for a 0/1 `c`, which is `x & 1`,
/// not `x`).
pub const SNIPPETS: [(&str, &[u8]); 34] = {
    use opcode::*;
    [
        ("x + 0", &[PUSH0, ADD]),
        ("x | 0", &[PUSH0, OR]),
        ("x ^ 0", &[PUSH0, XOR]),
        ("x * 1", &[PUSH1, 1, MUL]),
        ("not(not(x))", &[NOT, NOT]),
        ("x & x", &[DUP1, AND]),
        ("signextend(31, x)", &[PUSH1, 31, SIGNEXTEND]),
        ("signextend(32, x)", &[PUSH1, 32, SIGNEXTEND]),
        ("shl(0, x)", &[PUSH0, SHL]),
        ("sar(0, x)", &[PUSH0, SAR]),
        ("exp(x, 1)", &[PUSH1, 1, SWAP1, EXP]),
        ("div(x, 1)", &[PUSH1, 1, SWAP1, DIV]),
        ("x & not(0)", &[PUSH0, NOT, AND]),
        ("shr(256, x)", &[PUSH2, 1, 0, SHR]),
        ("sar(256, x)", &[PUSH2, 1, 0, SAR]),
        ("shl(255, x)", &[PUSH1, 255, SHL]),
        ("byte(32, x)", &[PUSH1, 32, BYTE]),
        ("byte(31, x)", &[PUSH1, 31, BYTE]),
        ("signextend(0, x)", &[PUSH0, SIGNEXTEND]),
        ("signextend(30, x)", &[PUSH1, 30, SIGNEXTEND]),
        ("exp(1, x)", &[PUSH1, 1, EXP]),
        ("exp(2, x)", &[PUSH1, 2, EXP]),
        ("exp(0, x)", &[PUSH0, EXP]),
        ("exp(x, 2)", &[PUSH1, 2, SWAP1, EXP]),
        ("div(x, 0)", &[PUSH0, SWAP1, DIV]),
        ("sdiv(x, 0)", &[PUSH0, SWAP1, SDIV]),
        ("mod(x, 0)", &[PUSH0, SWAP1, MOD]),
        ("smod(x, 0)", &[PUSH0, SWAP1, SMOD]),
        ("sdiv(x, -1)", &[PUSH0, NOT, SWAP1, SDIV]),
        // mulmod(x, 1, 2^256 - 1): x, except 0 for x = 2^256 - 1.
        (
            "mulmod(x, 1, not(0))",
            &[PUSH0, NOT, PUSH1, 1, DUP3, MULMOD, SWAP1, POP],
        ),
        ("addmod(x, 0, 0)", &[PUSH0, PUSH0, DUP3, ADDMOD, SWAP1, POP]),
        ("iszero(iszero(x))", &[ISZERO, ISZERO]),
        // c = iszero(x): (x & c) | (x & iszero(c)).
        (
            "or(and(x, c), and(x, iszero(c))), c = iszero(x)",
            &[
                DUP1, ISZERO, DUP2, DUP2, AND, SWAP1, ISZERO, DUP3, AND, OR, SWAP1, POP,
            ],
        ),
        // c = lt(x, 16): (x & c) | (x & iszero(c)).
        (
            "or(and(x, c), and(x, iszero(c))), c = lt(x, 16)",
            &[
                DUP1, PUSH1, 16, SWAP1, LT, DUP2, DUP2, AND, SWAP1, ISZERO, DUP3, AND, OR, SWAP1,
                POP,
            ],
        ),
    ]
};

/// Bytes of an instruction (1, or 1 + n for PUSHn).
pub fn width(op: u8) -> usize {
    if (opcode::PUSH1..=opcode::PUSH32).contains(&op) {
        1 + usize::from(op - opcode::PUSH0)
    } else {
        1
    }
}

/// A mutant of `code`: the changed code and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutation {
    /// The mutated code.
    pub code: Vec<u8>,
    /// What changed, e.g. `pc 212: ADD -> SUB`.
    pub what: String,
}

fn name(op: u8) -> String {
    revm::bytecode::opcode::OpCode::new(op)
        .map_or_else(|| format!("0x{op:02x}"), |o| o.as_str().to_string())
}

/// A random mutant of `code` at one of the executed `sites` (pcs in
/// execution order, each once): an operator, a constant, a stack depth, a
/// zero-operand opcode, or an inserted sequence.
pub fn mutate(code: &[u8], sites: &[Site], rng: &mut SplitMix64) -> Mutation {
    loop {
        let (pc, op) = sites[rng.below(sites.len() as u64) as usize];
        let found = match rng.below(10) {
            0..=3 => operator(code, pc, op, rng),
            4..=6 => constant(code, pc, op, rng),
            7 => stack(code, pc, op, rng),
            _ => insert(code, sites, pc, rng),
        };
        if let Some(m) = found {
            return m;
        }
    }
}

/// `op` at `pc` replaced by another opcode of the same stack arity.
pub fn operator(code: &[u8], pc: usize, op: u8, rng: &mut SplitMix64) -> Option<Mutation> {
    let family: Vec<u8> = if let Some(f) = BINARY.iter().find(|f| f.contains(&op)) {
        if rng.below(10) < 7 {
            f.to_vec()
        } else {
            BINARY.concat()
        }
    } else if UNARY.contains(&op) {
        UNARY.to_vec()
    } else if TERNARY.contains(&op) {
        TERNARY.to_vec()
    } else if NULLARY.contains(&op) {
        NULLARY.to_vec()
    } else {
        return None;
    };
    let others: Vec<u8> = family.into_iter().filter(|&o| o != op).collect();
    let to = others[rng.below(others.len() as u64) as usize];
    let mut out = code.to_vec();
    out[pc] = to;
    Some(Mutation {
        code: out,
        what: format!("pc {pc}: {} -> {}", name(op), name(to)),
    })
}

/// The data of the PUSH at `pc` changed: a bit flipped, plus or minus 1,
/// or an edge value of its width (0, 1, all ones, the top bit alone).
pub fn constant(code: &[u8], pc: usize, op: u8, rng: &mut SplitMix64) -> Option<Mutation> {
    let n = width(op) - 1;
    if n == 0 || pc + 1 + n > code.len() {
        return None;
    }
    let data = &code[pc + 1..pc + 1 + n];
    let old = octoku_core::U256::from_be_slice(data);
    let mask = if n == 32 {
        octoku_core::U256::MAX
    } else {
        (octoku_core::U256::from(1u8) << (8 * n)) - octoku_core::U256::from(1u8)
    };
    let one = octoku_core::U256::from(1u8);
    let (new, how) = match rng.below(6) {
        0 => {
            let bit = rng.below(8 * n as u64) as usize;
            (old ^ (one << bit), format!("bit {bit} flipped"))
        }
        1 => (old.wrapping_add(one) & mask, "+1".to_string()),
        2 => (old.wrapping_sub(one) & mask, "-1".to_string()),
        3 => (octoku_core::U256::ZERO, "0".to_string()),
        4 => (mask, "all ones".to_string()),
        _ => match rng.below(2) {
            0 => (one, "1".to_string()),
            _ => (one << (8 * n - 1), "top bit".to_string()),
        },
    };
    if new == old {
        return None;
    }
    let mut out = code.to_vec();
    out[pc + 1..pc + 1 + n].copy_from_slice(&new.to_be_bytes::<32>()[32 - n..]);
    Some(Mutation {
        code: out,
        what: format!("pc {pc}: {} 0x{old:x} -> 0x{new:x} ({how})", name(op)),
    })
}

/// A DUP or SWAP at `pc` one or two slots deeper or shallower.
pub fn stack(code: &[u8], pc: usize, op: u8, rng: &mut SplitMix64) -> Option<Mutation> {
    let base = match op {
        opcode::DUP1..=opcode::DUP16 => opcode::DUP1,
        opcode::SWAP1..=opcode::SWAP16 => opcode::SWAP1,
        _ => return None,
    };
    let depth = i16::from(op - base);
    let delta = [-2i16, -1, 1, 2][rng.below(4) as usize];
    let to = depth + delta;
    if !(0..16).contains(&to) {
        return None;
    }
    let to = base + to as u8;
    let mut out = code.to_vec();
    out[pc] = to;
    Some(Mutation {
        code: out,
        what: format!("pc {pc}: {} -> {}", name(op), name(to)),
    })
}

/// Whether an instruction may be moved into the tail: not a jump, a jump
/// target, an end, or one that reads its own place (PC) or the code.
fn movable(op: u8) -> bool {
    !matches!(
        op,
        opcode::JUMP
            | opcode::JUMPI
            | opcode::JUMPDEST
            | opcode::STOP
            | opcode::RETURN
            | opcode::REVERT
            | opcode::INVALID
            | opcode::PC
            | opcode::CODESIZE
            | opcode::CODECOPY
    )
}

/// A sequence of [`SNIPPETS`] inserted after the executed instructions at
/// `pc` (module docs: the moved instructions and a jump to the code's tail
/// and back). `None` when fewer than 5 bytes of movable, executed,
/// consecutive instructions start at `pc`, or the code reads itself.
pub fn insert(code: &[u8], sites: &[Site], pc: usize, rng: &mut SplitMix64) -> Option<Mutation> {
    if sites
        .iter()
        .any(|&(_, op)| matches!(op, opcode::CODECOPY | opcode::CODESIZE))
    {
        return None;
    }
    let executed = |p: usize| sites.iter().any(|&(q, _)| q == p);
    let mut end = pc;
    while end - pc < 5 {
        let op = *code.get(end)?;
        if !executed(end) || !movable(op) {
            return None;
        }
        end += width(op);
    }
    if end > code.len() {
        return None;
    }
    let (label, snippet) = SNIPPETS[rng.below(SNIPPETS.len() as u64) as usize];
    // Far enough past the end that no PUSH of the original code (its
    // metadata may end in one) swallows the tail's JUMPDEST.
    let tail = code.len() + 33;
    let back = pc + 4;
    let (Ok(tail16), Ok(back16)) = (u16::try_from(tail), u16::try_from(back)) else {
        return None;
    };
    let mut out = code.to_vec();
    let [th, tl] = tail16.to_be_bytes();
    out[pc..pc + 5].copy_from_slice(&[opcode::PUSH2, th, tl, opcode::JUMP, opcode::JUMPDEST]);
    out[pc + 5..end].fill(opcode::JUMPDEST);
    out.resize(tail, opcode::STOP);
    out.push(opcode::JUMPDEST);
    out.extend_from_slice(&code[pc..end]);
    out.extend_from_slice(snippet);
    let [bh, bl] = back16.to_be_bytes();
    out.extend_from_slice(&[opcode::PUSH2, bh, bl, opcode::JUMP]);
    let last = sites
        .iter()
        .filter(|&&(q, _)| (pc..end).contains(&q))
        .map(|&(q, op)| (q, op))
        .next_back()
        .map_or_else(String::new, |(q, op)| {
            format!(" (after {} at pc {q})", name(op))
        });
    Some(Mutation {
        code: out,
        what: format!("pc {pc}..{end}: inserted {label}{last}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PUSH1 2 PUSH1 3 ADD PUSH1 5 MUL PUSH0 MSTORE PUSH1 32 PUSH0 RETURN.
    const CODE: [u8; 15] = [
        0x60, 2, 0x60, 3, 0x01, 0x60, 5, 0x02, 0x5f, 0x52, 0x60, 32, 0x5f, 0xf3, 0x00,
    ];

    fn sites() -> Vec<Site> {
        let mut pc = 0;
        let mut out = Vec::new();
        while pc < 14 {
            out.push((pc, CODE[pc]));
            pc += width(CODE[pc]);
        }
        out
    }

    #[test]
    fn an_insertion_keeps_every_other_byte_in_place_and_jumps_back() {
        let mut rng = SplitMix64::new(1);
        let m = insert(&CODE, &sites(), 0, &mut rng).expect("5 movable bytes at pc 0");
        // PUSH2 tail JUMP JUMPDEST, then the rest of the code unchanged.
        assert_eq!(m.code[3], opcode::JUMP);
        assert_eq!(m.code[4], opcode::JUMPDEST);
        assert_eq!(m.code[5..15], CODE[5..15]);
        let tail = usize::from(u16::from_be_bytes([m.code[1], m.code[2]]));
        assert_eq!(tail, CODE.len() + 33);
        assert!(crate::exec::jumpdests(&m.code).contains(&tail));
        // The moved instructions, then the sequence, then PUSH2 4 JUMP.
        assert_eq!(m.code[tail + 1..tail + 6], CODE[0..5]);
        assert_eq!(
            m.code[m.code.len() - 4..],
            [opcode::PUSH2, 0, 4, opcode::JUMP]
        );
    }

    #[test]
    fn operators_keep_their_arity_and_constants_their_width() {
        let mut rng = SplitMix64::new(2);
        for _ in 0..50 {
            let m = operator(&CODE, 4, opcode::ADD, &mut rng).unwrap();
            assert_ne!(m.code[4], opcode::ADD);
            assert!(BINARY.concat().contains(&m.code[4]), "{}", m.what);
            if let Some(m) = constant(&CODE, 5, 0x60, &mut rng) {
                assert_ne!(m.code[6], 5);
                assert_eq!(m.code.len(), CODE.len());
            }
        }
    }
}

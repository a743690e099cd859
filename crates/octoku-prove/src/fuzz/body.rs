//! Random small `verify(uint256 start, uint256 solution)` bodies: an
//! expression over the two calldata words (EXP, BYTE, SIGNEXTEND, shifts,
//! signed division, ADDMOD/MULMOD, comparisons, and branches compiled to
//! JUMPI), compiled to runtime code that returns one word; and a second
//! body made from the first either by rewrites that keep its value
//! (commuting, `a - b` as `a + ~b + 1`, a shift as a multiplication, ...)
//! or by one change that may not (another operator, another constant,
//! operands swapped, a corner case substituted).

use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use revm::bytecode::opcode;

/// An expression over the two arguments. Operands are in Yul order:
/// `Op(SUB, [a, b])` is `sub(a, b)` = a - b, `Op(SHL, [k, x])` is
/// `shl(k, x)` = x << k.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `calldataload(4)`.
    Start,
    /// `calldataload(36)`.
    Solution,
    /// A constant word.
    Const(U256),
    /// An opcode applied to its operands (1, 2 or 3).
    Op(u8, Vec<Expr>),
    /// `cond ? then : else`, compiled to a JUMPI.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

use Expr::{Const, If, Op, Solution, Start};

fn c(v: u64) -> Expr {
    Const(U256::from(v))
}

fn op(code: u8, args: Vec<Expr>) -> Expr {
    Op(code, args)
}

/// Constants at the opcodes' edges and a few ordinary ones.
fn edge_constant(rng: &mut SplitMix64) -> U256 {
    let one = U256::from(1u8);
    match rng.below(12) {
        0 => U256::ZERO,
        1 => one,
        2 => U256::from(2u8),
        3 => U256::from(rng.below(300)),
        4 => one << 255,
        5 => U256::MAX,
        6 => U256::MAX >> 1,
        7 => one << rng.below(256) as usize,
        8 => U256::from(255u8),
        9 => U256::from(256u32),
        10 => U256::from(31u8 + rng.below(3) as u8),
        _ => rng.u256(),
    }
}

const BINARY: [u8; 19] = [
    opcode::ADD,
    opcode::SUB,
    opcode::MUL,
    opcode::DIV,
    opcode::SDIV,
    opcode::MOD,
    opcode::SMOD,
    opcode::LT,
    opcode::GT,
    opcode::SLT,
    opcode::SGT,
    opcode::EQ,
    opcode::AND,
    opcode::OR,
    opcode::XOR,
    opcode::BYTE,
    opcode::SHL,
    opcode::SHR,
    opcode::SAR,
];

const COMMUTATIVE: [u8; 5] = [
    opcode::ADD,
    opcode::MUL,
    opcode::AND,
    opcode::OR,
    opcode::XOR,
];

/// A random expression of at most `depth` levels. EXP, SIGNEXTEND, ADDMOD
/// and MULMOD get the operands the executor models: EXP a constant base
/// that is 1 or a power of two (any exponent) or a small constant
/// exponent; SIGNEXTEND a constant byte index; ADDMOD and MULMOD constants.
pub fn expr(rng: &mut SplitMix64, depth: u32) -> Expr {
    if depth == 0 || rng.below(5) == 0 {
        return match rng.below(5) {
            0 | 1 => Start,
            2 | 3 => Solution,
            _ => Const(edge_constant(rng)),
        };
    }
    let d = depth - 1;
    match rng.below(20) {
        0..=9 => {
            let code = BINARY[rng.below(BINARY.len() as u64) as usize];
            let a = expr(rng, d);
            // Shift amounts and byte indexes: often a small constant.
            let a = if matches!(code, opcode::SHL | opcode::SHR | opcode::SAR | opcode::BYTE)
                && rng.below(2) == 0
            {
                Const(edge_constant(rng) & U256::from(0x1ff))
            } else {
                a
            };
            op(code, vec![a, expr(rng, d)])
        }
        10 | 11 => op(
            [opcode::ISZERO, opcode::NOT][rng.below(2) as usize],
            vec![expr(rng, d)],
        ),
        12 => {
            let base = [1u64, 2, 4, 16, 256][rng.below(5) as usize];
            op(opcode::EXP, vec![c(base), expr(rng, d)])
        }
        13 => {
            let e = [0u64, 1, 2, 3][rng.below(4) as usize];
            op(opcode::EXP, vec![expr(rng, d), c(e)])
        }
        14 => {
            let b = [0u64, 1, 15, 30, 31, 32, 255][rng.below(7) as usize];
            op(opcode::SIGNEXTEND, vec![c(b), expr(rng, d)])
        }
        // The executor folds ADDMOD and MULMOD on constants only (it
        // refuses them on the input): constants at the edges (modulus 0,
        // 2^256 - 1, sums past 2^256) check its folding against revm.
        15 => op(
            [opcode::ADDMOD, opcode::MULMOD][rng.below(2) as usize],
            (0..3).map(|_| Const(edge_constant(rng))).collect(),
        ),
        _ => If(
            Box::new(boolean(rng, d)),
            Box::new(expr(rng, d)),
            Box::new(expr(rng, d)),
        ),
    }
}

/// A random 0/1 expression (a comparison or an ISZERO).
fn boolean(rng: &mut SplitMix64, depth: u32) -> Expr {
    let d = depth.saturating_sub(1);
    match rng.below(4) {
        0 => op(opcode::ISZERO, vec![expr(rng, d)]),
        _ => {
            let code = [opcode::LT, opcode::GT, opcode::SLT, opcode::SGT, opcode::EQ]
                [rng.below(5) as usize];
            op(code, vec![expr(rng, d), expr(rng, d)])
        }
    }
}

/// Whether `e` is always 0 or 1.
fn is_boolean(e: &Expr) -> bool {
    match e {
        Const(v) => *v <= U256::from(1u8),
        Op(code, _) => matches!(
            *code,
            opcode::LT | opcode::GT | opcode::SLT | opcode::SGT | opcode::EQ | opcode::ISZERO
        ),
        If(_, a, b) => is_boolean(a) && is_boolean(b),
        _ => false,
    }
}

/// Nodes of `e` in preorder (0 is `e` itself).
fn size(e: &Expr) -> usize {
    1 + match e {
        Op(_, args) => args.iter().map(size).sum(),
        If(c, a, b) => size(c) + size(a) + size(b),
        _ => 0,
    }
}

/// `e` with node `at` (preorder) replaced by `f(node)`.
fn replace(e: &Expr, at: usize, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
    fn go(e: &Expr, at: &mut usize, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
        if *at == 0 {
            *at = usize::MAX;
            return f(e);
        }
        *at = at.wrapping_sub(1);
        match e {
            Op(code, args) => Op(*code, args.iter().map(|a| go(a, at, f)).collect()),
            If(c, a, b) => If(
                Box::new(go(c, at, f)),
                Box::new(go(a, at, f)),
                Box::new(go(b, at, f)),
            ),
            other => other.clone(),
        }
    }
    let mut at = at;
    go(e, &mut at, f)
}

/// A rewrite of `e` (at its root) to an expression of the same value on
/// every input, or `None` when the chosen rewrite does not apply.
fn equal_rewrite(e: &Expr, rng: &mut SplitMix64) -> Option<(Expr, &'static str)> {
    let x = e.clone();
    let max = Const(U256::MAX);
    Some(match (rng.below(14), e) {
        (0, Op(code, args)) if COMMUTATIVE.contains(code) || *code == opcode::EQ => (
            op(*code, vec![args[1].clone(), args[0].clone()]),
            "operands commuted",
        ),
        (1, Op(code, args))
            if matches!(*code, opcode::LT | opcode::GT | opcode::SLT | opcode::SGT) =>
        {
            let flipped = match *code {
                opcode::LT => opcode::GT,
                opcode::GT => opcode::LT,
                opcode::SLT => opcode::SGT,
                _ => opcode::SLT,
            };
            (
                op(flipped, vec![args[1].clone(), args[0].clone()]),
                "comparison flipped",
            )
        }
        (2, Op(opcode::SUB, args)) => (
            op(
                opcode::ADD,
                vec![
                    args[0].clone(),
                    op(
                        opcode::ADD,
                        vec![op(opcode::NOT, vec![args[1].clone()]), c(1)],
                    ),
                ],
            ),
            "a - b as a + ~b + 1",
        ),
        (3, Op(opcode::SHL, args)) if matches!(args[0], Const(k) if k < U256::from(256u32)) => {
            let Const(k) = args[0] else { unreachable!() };
            (
                op(
                    opcode::MUL,
                    vec![args[1].clone(), op(opcode::EXP, vec![c(2), Const(k)])],
                ),
                "shl(k, x) as x * 2^k",
            )
        }
        (4, Op(opcode::SHR, args)) if matches!(args[0], Const(k) if k < U256::from(256u32)) => {
            let Const(k) = args[0] else { unreachable!() };
            (
                op(
                    opcode::DIV,
                    vec![args[1].clone(), Const(U256::from(1u8) << k.to::<usize>())],
                ),
                "shr(k, x) as x / 2^k",
            )
        }
        (5, Op(opcode::EQ, args)) => (
            op(opcode::ISZERO, vec![op(opcode::XOR, args.clone())]),
            "eq(a, b) as iszero(xor(a, b))",
        ),
        (6, Op(opcode::NOT, args)) => (
            op(opcode::SUB, vec![max, args[0].clone()]),
            "not(x) as max - x",
        ),
        (7, If(cond, a, b)) => (
            If(
                Box::new(op(opcode::ISZERO, vec![(**cond).clone()])),
                b.clone(),
                a.clone(),
            ),
            "branches swapped under iszero",
        ),
        (8, _) => {
            let k = Const(rng.u256());
            (
                op(opcode::XOR, vec![op(opcode::XOR, vec![x, k.clone()]), k]),
                "x ^ k ^ k",
            )
        }
        (9, _) => {
            let m = if rng.below(2) == 0 {
                Const(rng.u256())
            } else {
                expr(rng, 1)
            };
            (
                op(
                    opcode::OR,
                    vec![
                        op(opcode::AND, vec![x.clone(), m.clone()]),
                        op(opcode::AND, vec![x, op(opcode::NOT, vec![m])]),
                    ],
                ),
                "(x & m) | (x & ~m)",
            )
        }
        (10, _) => match rng.below(6) {
            0 => (op(opcode::ADD, vec![x, c(0)]), "x + 0"),
            1 => (op(opcode::MUL, vec![c(1), x]), "1 * x"),
            2 => (op(opcode::SIGNEXTEND, vec![c(31), x]), "signextend(31, x)"),
            3 => (op(opcode::EXP, vec![x, c(1)]), "exp(x, 1)"),
            4 => (op(opcode::SHL, vec![c(0), x]), "shl(0, x)"),
            _ => (
                op(opcode::NOT, vec![op(opcode::NOT, vec![x])]),
                "not(not(x))",
            ),
        },
        (11, _) => (
            If(Box::new(boolean(rng, 1)), Box::new(x.clone()), Box::new(x)),
            "c ? x : x",
        ),
        (12, Const(v)) if *v == U256::from(1u8) => {
            (op(opcode::EXP, vec![c(1), expr(rng, 1)]), "1 as exp(1, e)")
        }
        (13, _) if is_boolean(e) => {
            // (x & c) | (x & !c) = x for a 0/1 x.
            let cond = boolean(rng, 1);
            (
                op(
                    opcode::OR,
                    vec![
                        op(opcode::AND, vec![x.clone(), cond.clone()]),
                        op(opcode::AND, vec![x, op(opcode::ISZERO, vec![cond])]),
                    ],
                ),
                "(x & c) | (x & !c) for a 0/1 x",
            )
        }
        _ => return None,
    })
}

/// One change at the root of `e` that may change its value.
fn change(e: &Expr, rng: &mut SplitMix64) -> Option<(Expr, String)> {
    let x = e.clone();
    Some(match (rng.below(9), e) {
        (0 | 1, Op(code, args)) if args.len() == 2 && BINARY.contains(code) => {
            let to = BINARY[rng.below(BINARY.len() as u64) as usize];
            (
                op(to, args.clone()),
                format!("{} -> {}", name(*code), name(to)),
            )
        }
        (2, Op(code, args)) if args.len() == 1 => {
            let to = if *code == opcode::ISZERO {
                opcode::NOT
            } else {
                opcode::ISZERO
            };
            (
                op(to, args.clone()),
                format!("{} -> {}", name(*code), name(to)),
            )
        }
        (3, Op(code, args)) if args.len() >= 2 && !COMMUTATIVE.contains(code) => {
            let mut swapped = args.clone();
            swapped.swap(0, 1);
            (
                op(*code, swapped),
                format!("{} operands swapped", name(*code)),
            )
        }
        (4, Const(v)) => {
            let new = match rng.below(3) {
                0 => *v ^ (U256::from(1u8) << rng.below(256) as usize),
                1 => v.wrapping_add(U256::from(1u8)),
                _ => edge_constant(rng),
            };
            (Const(new), format!("constant 0x{v:x} -> 0x{new:x}"))
        }
        (5, If(cond, a, b)) => (
            If(cond.clone(), b.clone(), a.clone()),
            "branches swapped".to_string(),
        ),
        (6, _) => {
            // (x & c) | (x & !c) for a 0/1 c: x & 1 on the EVM, not x.
            let cond = boolean(rng, 1);
            (
                op(
                    opcode::OR,
                    vec![
                        op(opcode::AND, vec![x.clone(), cond.clone()]),
                        op(opcode::AND, vec![x, op(opcode::ISZERO, vec![cond])]),
                    ],
                ),
                "x -> (x & c) | (x & !c), c 0/1".to_string(),
            )
        }
        (7, _) => (
            op(opcode::EXP, vec![c(1), x]),
            "x -> exp(1, x) (always 1)".to_string(),
        ),
        (8, _) => {
            let to = match rng.below(3) {
                0 => Start,
                1 => Solution,
                _ => Const(edge_constant(rng)),
            };
            (to, "subterm replaced".to_string())
        }
        _ => return None,
    })
}

fn name(code: u8) -> String {
    opcode::OpCode::new(code).map_or_else(|| format!("0x{code:02x}"), |o| o.as_str().to_string())
}

/// A pair of bodies: the reference, the other, whether the other was made
/// by value-keeping rewrites only, and what was done.
#[derive(Debug, Clone)]
pub struct Pair {
    /// The reference expression.
    pub reference: Expr,
    /// The other expression.
    pub other: Expr,
    /// Made by rewrites that keep the value on every input.
    pub equal_by_construction: bool,
    /// The rewrites or the change.
    pub what: String,
}

/// A random pair of bodies: half of them equal by construction (1 to 3
/// value-keeping rewrites at random nodes), half with one change.
pub fn pair(rng: &mut SplitMix64) -> Pair {
    let depth = 2 + rng.below(3) as u32;
    let reference = expr(rng, depth);
    let equal = rng.below(2) == 0;
    let mut other = reference.clone();
    let mut what = Vec::new();
    let wanted = if equal { 1 + rng.below(3) } else { 1 };
    let mut tries = 0;
    while (what.len() as u64) < wanted && tries < 200 {
        tries += 1;
        let at = rng.below(size(&other) as u64) as usize;
        let mut done = None;
        let next = replace(&other, at, &mut |node| {
            let found = if equal {
                equal_rewrite(node, rng).map(|(e, w)| (e, w.to_string()))
            } else {
                change(node, rng)
            };
            match found {
                Some((e, w)) => {
                    done = Some(w);
                    e
                }
                None => node.clone(),
            }
        });
        if let Some(w) = done {
            other = next;
            what.push(w);
        }
    }
    Pair {
        reference,
        other,
        equal_by_construction: equal,
        what: what.join("; "),
    }
}

/// Runtime code that returns `e` as one word (no selector check: both
/// bodies of a pair ignore it alike).
pub fn compile(e: &Expr) -> Vec<u8> {
    let mut asm = Asm::default();
    asm.expr(e);
    asm.code.extend_from_slice(&[
        opcode::PUSH0,
        opcode::MSTORE,
        opcode::PUSH1,
        32,
        opcode::PUSH0,
        opcode::RETURN,
    ]);
    asm.code
}

#[derive(Default)]
struct Asm {
    code: Vec<u8>,
}

impl Asm {
    fn push(&mut self, v: U256) {
        if v.is_zero() {
            self.code.push(opcode::PUSH0);
            return;
        }
        let bytes = v.to_be_bytes::<32>();
        let n = 32 - v.leading_zeros() / 8;
        self.code.push(opcode::PUSH0 + n as u8);
        self.code.extend_from_slice(&bytes[32 - n..]);
    }

    /// A PUSH2 of a jump target filled in later; returns where its data is.
    fn label_ref(&mut self) -> usize {
        self.code.extend_from_slice(&[opcode::PUSH2, 0, 0]);
        self.code.len() - 2
    }

    fn place(&mut self, at: usize) {
        let pc = u16::try_from(self.code.len()).expect("a small body");
        self.code[at..at + 2].copy_from_slice(&pc.to_be_bytes());
        self.code.push(opcode::JUMPDEST);
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Start => self
                .code
                .extend_from_slice(&[opcode::PUSH1, 4, opcode::CALLDATALOAD]),
            Solution => self
                .code
                .extend_from_slice(&[opcode::PUSH1, 36, opcode::CALLDATALOAD]),
            Const(v) => self.push(*v),
            Op(code, args) => {
                for a in args.iter().rev() {
                    self.expr(a);
                }
                self.code.push(*code);
            }
            If(cond, a, b) => {
                // cond; PUSH2 then; JUMPI; b; PUSH2 end; JUMP; then: a; end:
                self.expr(cond);
                let then = self.label_ref();
                self.code.push(opcode::JUMPI);
                self.expr(b);
                let end = self.label_ref();
                self.code.push(opcode::JUMP);
                self.place(then);
                self.expr(a);
                self.place(end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_branch_compiles_to_a_jumpi_and_its_targets_are_jumpdests() {
        let e = If(
            Box::new(op(opcode::LT, vec![Start, Solution])),
            Box::new(c(7)),
            Box::new(c(9)),
        );
        let code = compile(&e);
        let dests = crate::exec::jumpdests(&code);
        assert_eq!(dests.len(), 2);
        assert!(code.contains(&opcode::JUMPI));
    }

    #[test]
    fn pairs_are_deterministic_from_the_seed() {
        let a: Vec<String> = (0..20)
            .map(|i| pair(&mut SplitMix64::new(i)).what)
            .collect();
        let b: Vec<String> = (0..20)
            .map(|i| pair(&mut SplitMix64::new(i)).what)
            .collect();
        assert_eq!(a, b);
    }
}

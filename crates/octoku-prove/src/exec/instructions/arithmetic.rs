//! Arithmetic: ADD, MUL, SUB, DIV, SDIV, MOD, SMOD, ADDMOD, MULMOD, EXP,
//! SIGNEXTEND.

use octoku_core::U256;
use revm::bytecode::opcode;

use super::{Inst, Step, push_bin};
use crate::exec::{Exec, ExecError, State};
use crate::term::{Bin, TermId, Terms};

pub(super) fn add(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Add, i.args[0], i.args[1])
}

pub(super) fn mul(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Mul, i.args[0], i.args[1])
}

pub(super) fn sub(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Sub, i.args[0], i.args[1])
}

pub(super) fn div(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Div, i.args[0], i.args[1])
}

pub(super) fn sdiv(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::SDiv, i.args[0], i.args[1])
}

/// MOD.
pub(super) fn rem(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Mod, i.args[0], i.args[1])
}

pub(super) fn smod(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::SMod, i.args[0], i.args[1])
}

/// ADDMOD and MULMOD, on constant operands only.
pub(super) fn addmod_mulmod(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let t = &mut *ex.terms;
    let c: Option<Vec<U256>> = i.args.iter().map(|&a| t.as_const(a)).collect();
    let Some(c) = c else {
        return Err(i.unsupported("ADDMOD/MULMOD on input-dependent operands"));
    };
    let v = if i.op == opcode::ADDMOD {
        c[0].add_mod(c[1], c[2])
    } else {
        c[0].mul_mod(c[1], c[2])
    };
    Ok(Step::Push(t.constant(v)))
}

/// EXP: constant operands, a constant base 0, 1 or a power of two, or a
/// constant exponent up to 256.
pub(super) fn exp(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let t = &mut *ex.terms;
    let [base, exponent, _] = i.args;
    let word = match (t.as_const(base), t.as_const(exponent)) {
        (Some(b), Some(e)) => t.constant(b.wrapping_pow(e)),
        // 0^e is 1 for e = 0, else 0; 1^e is 1.
        (Some(b), None) if b.is_zero() => t.is_zero(exponent),
        (Some(b), None) if b == U256::from(1u8) => t.small(1),
        (Some(b), None) if b == U256::from(2u8) => {
            let one = t.small(1);
            t.bin(Bin::Shl, one, exponent)
        }
        (Some(b), None) if b.is_power_of_two() => power_of_two_exp(t, b, exponent),
        (_, Some(e)) if e <= U256::from(256u32) => square_and_multiply(t, base, e.to::<u64>()),
        _ => return Err(i.unsupported("EXP with an input-dependent exponent")),
    };
    Ok(Step::Push(word))
}

/// (2^k)^e for a constant `b` = 2^k with k >= 1 (0 and 1 are handled by
/// [`exp`]): 1 << k*e while k*e < 256 (then e < 256, so k*e does not wrap),
/// else 0.
fn power_of_two_exp(t: &mut Terms, b: U256, exponent: TermId) -> TermId {
    let k = t.small(u64::from(b.trailing_zeros() as u32));
    let one = t.small(1);
    let bits = t.bin(Bin::Mul, k, exponent);
    let power = t.bin(Bin::Shl, one, bits);
    let limit = t.small(256);
    let small = t.bin(Bin::Lt, exponent, limit);
    let zero = t.small(0);
    t.ite(small, power, zero)
}

/// `base`^`e` by square-and-multiply on a symbolic base.
fn square_and_multiply(t: &mut Terms, mut base: TermId, mut e: u64) -> TermId {
    let mut result = t.small(1);
    while e > 0 {
        if e & 1 == 1 {
            result = t.bin(Bin::Mul, result, base);
        }
        base = t.bin(Bin::Mul, base, base);
        e >>= 1;
    }
    result
}

/// SIGNEXTEND with a constant byte index.
pub(super) fn signextend(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let t = &mut *ex.terms;
    let Some(b) = t.as_const(i.args[0]) else {
        return Err(i.unsupported("SIGNEXTEND with an input-dependent byte index"));
    };
    Ok(Step::Push(if b >= U256::from(31u8) {
        i.args[1]
    } else {
        let k = t.small(248 - 8 * b.to::<u64>());
        let up = t.bin(Bin::Shl, i.args[1], k);
        t.bin(Bin::Sar, up, k)
    }))
}

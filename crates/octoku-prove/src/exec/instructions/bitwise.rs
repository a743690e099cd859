//! Bitwise: AND, OR, XOR, NOT, BYTE, SHL, SHR, SAR.

use super::{Inst, Step, push_bin};
use crate::exec::{Exec, ExecError, State};
use crate::term::Bin;

pub(super) fn and(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::And, i.args[0], i.args[1])
}

pub(super) fn or(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Or, i.args[0], i.args[1])
}

pub(super) fn xor(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Xor, i.args[0], i.args[1])
}

pub(super) fn not(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.not(i.args[0])))
}

/// BYTE: byte `args[0]` (0 = most significant) of `args[1]`.
pub(super) fn byte(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.byte(i.args[0], i.args[1])))
}

/// SHL: the value (second operand) shifted by the first.
pub(super) fn shl(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Shl, i.args[1], i.args[0])
}

/// SHR: the value (second operand) shifted by the first.
pub(super) fn shr(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Shr, i.args[1], i.args[0])
}

/// SAR: the value (second operand) shifted by the first.
pub(super) fn sar(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Sar, i.args[1], i.args[0])
}

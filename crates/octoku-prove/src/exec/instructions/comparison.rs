//! Comparison: LT, GT, SLT, SGT, EQ, ISZERO (each a 0/1 word).

use super::{Inst, Step, push_bin};
use crate::exec::{Exec, ExecError, State};
use crate::term::Bin;

pub(super) fn lt(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Lt, i.args[0], i.args[1])
}

/// GT: `b < a`.
pub(super) fn gt(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Lt, i.args[1], i.args[0])
}

pub(super) fn slt(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Slt, i.args[0], i.args[1])
}

/// SGT: `b <s a`.
pub(super) fn sgt(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Slt, i.args[1], i.args[0])
}

pub(super) fn eq(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    push_bin(ex, Bin::Eq, i.args[0], i.args[1])
}

pub(super) fn iszero(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.is_zero(i.args[0])))
}

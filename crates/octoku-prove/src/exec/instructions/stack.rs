//! Stack: POP, PUSH0, PUSH1-PUSH32, DUP1-DUP16, SWAP1-SWAP16.

use octoku_core::U256;
use revm::bytecode::opcode;

use super::{Inst, Step};
use crate::exec::{Exec, ExecError, State, push_len};

/// POP: the operand is already popped.
pub(super) fn pop(_: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Next)
}

pub(super) fn push0(ex: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(0)))
}

/// PUSH1-PUSH32: the immediate bytes (zeros past the end of the code).
pub(super) fn push(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let n = push_len(i.op);
    let mut v = U256::ZERO;
    for k in 0..n {
        let b = ex.code.get(i.pc + 1 + k).copied().unwrap_or(0);
        v = (v << 8) | U256::from(b);
    }
    s.pc = i.pc + 1 + n;
    Ok(Step::Push(ex.terms.constant(v)))
}

/// DUP1-DUP16: halts when the stack is too shallow.
pub(super) fn dup(_: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let n = usize::from(i.op - opcode::DUP1) + 1;
    if s.stack.len() < n {
        return Ok(Step::Halt);
    }
    Ok(Step::Push(s.stack[s.stack.len() - n]))
}

/// SWAP1-SWAP16: halts when the stack is too shallow.
pub(super) fn swap(_: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let n = usize::from(i.op - opcode::SWAP1) + 1;
    let len = s.stack.len();
    if len < n + 1 {
        return Ok(Step::Halt);
    }
    s.stack.swap(len - 1, len - 1 - n);
    Ok(Step::Next)
}

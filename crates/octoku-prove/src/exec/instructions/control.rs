//! Control: STOP, JUMP, JUMPI, PC, JUMPDEST, RETURN, REVERT, INVALID, and
//! the fork of a JUMPI on an input-dependent condition.

use octoku_core::U256;

use super::{Inst, Step};
use crate::exec::{BAD_JUMP, Exec, ExecError, Next, State};
use crate::term::TermId;

pub(super) fn stop(_: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Return {
        success: 1,
        off: 0,
        len: 0,
    })
}

/// JUMP to a constant target; a target that is not a JUMPDEST halts.
pub(super) fn jump(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let (target, valid) = ex.jump_target(i)?;
    if !valid {
        return Ok(Step::Halt);
    }
    s.pc = target;
    Ok(Step::EndBlock)
}

/// JUMPI to a constant target: on a constant condition the jump is taken
/// or not; on an input-dependent one the state forks (see [`Exec::branch`]).
pub(super) fn jumpi(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let (target, valid) = ex.jump_target(i)?;
    let cond = i.args[1];
    match ex.terms.as_const(cond) {
        Some(c) if c.is_zero() => Ok(Step::EndBlock),
        Some(_) if !valid => Ok(Step::Halt),
        Some(_) => {
            s.pc = target;
            Ok(Step::EndBlock)
        }
        None => Ok(Step::Branch {
            cond,
            target: valid.then_some(target),
        }),
    }
}

pub(super) fn pc(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(i.pc as u64)))
}

pub(super) fn jumpdest(_: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Next)
}

/// RETURN: success with memory `args[0]..args[0]+args[1]`.
pub(super) fn ret(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    end_with(ex, s, i, 1)
}

/// REVERT: failure with memory `args[0]..args[0]+args[1]`.
pub(super) fn revert(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    end_with(ex, s, i, 0)
}

fn end_with(ex: &mut Exec<'_>, s: &mut State, i: &Inst, success: u64) -> Result<Step, ExecError> {
    let len = ex.concrete(i.args[1], i.pc, "return data size")?;
    let off = ex.touch(s, i.args[0], len, i.pc)?;
    Ok(Step::Return { success, off, len })
}

pub(super) fn invalid(_: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Halt)
}

impl Exec<'_> {
    /// The constant target of a JUMP or JUMPI and whether it is a JUMPDEST.
    fn jump_target(&self, i: &Inst) -> Result<(usize, bool), ExecError> {
        let Some(target) = self.terms.as_const(i.args[0]) else {
            return Err(ExecError::SymbolicJump { pc: i.pc });
        };
        let target = target.saturating_to::<usize>();
        Ok((target, self.jumpdests.contains(&target)))
    }

    /// A JUMPI at `pc` on the input-dependent `cond` from `s` (its pc past
    /// the JUMPI): both sides to run on (a fork), or in a guided run the
    /// witness's side, or (with [`Limits::merge_steps`](crate::exec::Limits::merge_steps))
    /// both sides to run until they rejoin. Inside a region, the region's
    /// own branch met again in the same call gives up.
    pub(super) fn branch(
        &mut self,
        s: State,
        pc: usize,
        cond: TermId,
        target: Option<usize>,
    ) -> Next {
        if let Some(r) = &self.region
            && r.root == (pc, self.depth(&s))
        {
            return Next::GiveUp;
        }
        let (taken, fall) = self.split(s, cond, target);
        if self.region.is_some() || self.guide.is_none() {
            return Next::Fork(taken, fall);
        }
        let witness_jumps = self.witness_value(cond) != U256::ZERO;
        if self.limits.merge_steps > 0 && !self.given_up.contains(&pc) {
            return Next::Branch {
                taken,
                fall,
                witness_jumps,
                pc,
            };
        }
        self.stats.forks += 1;
        Next::Continue(if witness_jumps { taken } else { fall })
    }

    /// The two sides of a JUMPI on the input-dependent `cond` from `s` (its
    /// pc already past the JUMPI): the state that jumps to `target` (or
    /// halts, for a target that is not a JUMPDEST) and the state that falls
    /// through, each with its condition added to the guard. On the side
    /// where the tested word is 0 it is the constant 0 (so that a
    /// shifted-out seed is seen to be 0 after paths merge).
    fn split(&mut self, mut s: State, cond: TermId, target: Option<usize>) -> (State, State) {
        let yes = self.terms.to_bool(cond);
        let no = self.terms.is_zero(cond);
        let mut taken = s.clone();
        taken.guard = self.terms.and_bool(s.guard, yes);
        s.guard = self.terms.and_bool(s.guard, no);
        // A taken jump to a non-JUMPDEST halts when that state is next run.
        taken.pc = target.unwrap_or(BAD_JUMP);
        let (zero_word, zero_branch) = self.zero_side(cond);
        let z = self.zero_term();
        let branch = if zero_branch { &mut taken } else { &mut s };
        for slot in branch.stack.iter_mut() {
            if *slot == zero_word {
                *slot = z;
            }
        }
        (taken, s)
    }

    /// For a JUMPI condition, the word that is 0 on one branch and whether
    /// that branch is the taken one: `iszero(x)` jumps when x = 0,
    /// `iszero(iszero(x))` and `x` itself fall through when x = 0.
    fn zero_side(&self, cond: TermId) -> (TermId, bool) {
        use crate::term::Node;
        match self.terms.node(cond) {
            Node::IsZero(x) => match self.terms.node(x) {
                Node::IsZero(y) => (y, false),
                _ => (x, true),
            },
            _ => (cond, false),
        }
    }
}

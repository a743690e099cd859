//! System and environment: KECCAK256, CALLVALUE, CALLDATALOAD,
//! CALLDATASIZE, CALLDATACOPY, CODESIZE, CODECOPY, RETURNDATASIZE (no call
//! is made, so the return data is empty).

use octoku_core::U256;
use revm::bytecode::opcode;

use super::{Inst, Step, unsupported_reason};
use crate::exec::{Cell, Exec, ExecError, State, hash_variable_name};
use crate::term::TermId;

/// KECCAK256, under [`Call::hashes_as_variables`](crate::exec::Call::hashes_as_variables)
/// only: the real hash of a constant input, else a hash variable (given up
/// inside a region, where the variable would outlive the attempt).
pub(super) fn keccak256(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    if !ex.call.hashes_as_variables {
        return Err(i.unsupported(unsupported_reason(i.op)));
    }
    let len = ex.concrete(i.args[1], i.pc, "hash length")?;
    let off = ex.touch(s, i.args[0], len, i.pc)?;
    let cells = s.memory[off..off + len].to_vec();
    let word = match ex.concrete_bytes(&cells) {
        // A concrete input: its real hash.
        Some(bytes) => {
            let h = alloy_primitives::keccak256(&bytes);
            ex.terms.constant(U256::from_be_bytes(h.0))
        }
        None if ex.region.is_some() => return Ok(Step::GiveUp),
        None => ex.hash_variable(&cells),
    };
    Ok(Step::Push(word))
}

pub(super) fn callvalue(ex: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.call.callvalue))
}

/// CALLDATALOAD at a constant offset (zeros past the end).
pub(super) fn calldataload(ex: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let off = ex.source_offset(i.args[0], i.pc, "calldata offset")?;
    let cells: Vec<Cell> = (0..32)
        .map(|k| ex.calldata_byte(off.saturating_add(k)))
        .collect();
    Ok(Step::Push(ex.gather(&cells)))
}

pub(super) fn calldatasize(ex: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(ex.call.calldata.len() as u64)))
}

/// CALLDATACOPY and CODECOPY: constant offsets and length; bytes past the
/// end of the source are zeros.
pub(super) fn calldatacopy(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    copy(ex, s, i)
}

pub(super) fn codecopy(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    copy(ex, s, i)
}

fn copy(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let len = ex.concrete(i.args[2], i.pc, "copy length")?;
    let dest = ex.touch(s, i.args[0], len, i.pc)?;
    let src = ex.source_offset(i.args[1], i.pc, "copy source offset")?;
    for k in 0..len {
        let at = src.saturating_add(k);
        s.memory[dest + k] = if i.op == opcode::CALLDATACOPY {
            ex.calldata_byte(at)
        } else {
            let b = ex.code.get(at).copied().unwrap_or(0);
            Cell {
                term: ex.terms.small(u64::from(b)),
                byte: 31,
            }
        };
    }
    Ok(Step::Next)
}

pub(super) fn codesize(ex: &mut Exec<'_>, _: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(ex.code.len() as u64)))
}

pub(super) fn returndatasize(
    ex: &mut Exec<'_>,
    _: &mut State,
    _: &Inst,
) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(0)))
}

impl Exec<'_> {
    /// The bytes of `cells` when every one is a constant.
    fn concrete_bytes(&self, cells: &[Cell]) -> Option<Vec<u8>> {
        cells
            .iter()
            .map(|c| {
                self.terms
                    .as_const(c.term)
                    .map(|v| v.to_be_bytes::<32>()[usize::from(c.byte)])
            })
            .collect()
    }

    /// The variable standing for KECCAK256 of `cells`: one per distinct input,
    /// named after a digest of the input's terms; in a guided run its value is
    /// the real hash of the input's witness value.
    fn hash_variable(&mut self, cells: &[Cell]) -> TermId {
        let v = self.terms.var_shared(&hash_variable_name(cells));
        if self.guide.is_some() {
            let bytes: Vec<u8> = cells
                .iter()
                .map(|c| {
                    let w = self.witness_value(c.term).to_be_bytes::<32>();
                    w[usize::from(c.byte)]
                })
                .collect();
            let hash = U256::from_be_bytes(alloy_primitives::keccak256(&bytes).0);
            let crate::term::Node::Var(n) = self.terms.node(v) else {
                unreachable!("var_shared gives a variable")
            };
            let guide = self.guide.as_mut().expect("a guided run");
            let n = n as usize;
            if guide.values.len() <= n {
                guide.values.resize(n + 1, U256::ZERO);
                guide.values[n] = hash;
            } else if !self.call.hashes_from_witness {
                guide.values[n] = hash;
            }
        }
        v
    }

    /// Calldata byte `i`; zero past the end.
    fn calldata_byte(&self, i: usize) -> Cell {
        self.call.calldata.get(i).copied().unwrap_or(Cell {
            term: self.zero_term(),
            byte: 31,
        })
    }
}

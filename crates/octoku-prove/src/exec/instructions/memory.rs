//! Memory: MLOAD, MSTORE, MSTORE8, MSIZE, MCOPY. Offsets and sizes are
//! constants, except that a guided run also reads and writes a 32-byte
//! word at an input-dependent offset (see [`Exec::word_candidates`]).

use octoku_core::U256;

use super::{Inst, Step};
use crate::exec::{Cell, Exec, ExecError, RESERVED, State};
use crate::term::{Bin, TermId};

pub(super) fn mload(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    if ex.guide.is_some() && ex.terms.as_const(i.args[0]).is_none() {
        return mload_symbolic(ex, s, i);
    }
    let off = ex.touch(s, i.args[0], 32, i.pc)?;
    let cells = s.memory[off..off + 32].to_vec();
    Ok(Step::Push(ex.gather(&cells)))
}

/// MLOAD at an input-dependent offset in a guided run: the ite over the
/// words the offset may address.
fn mload_symbolic(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let (candidates, within) = ex.word_candidates(s, i.args[0], i.pc)?;
    s.guard = ex.terms.and_bool(s.guard, within);
    let mut acc = ex.terms.small(0);
    for (k, hit) in candidates {
        let cells = s.memory[k..k + 32].to_vec();
        let word = ex.gather(&cells);
        acc = ex.terms.ite(hit, word, acc);
    }
    Ok(Step::Push(acc))
}

pub(super) fn mstore(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    if ex.guide.is_some() && ex.terms.as_const(i.args[0]).is_none() {
        return mstore_symbolic(ex, s, i);
    }
    let off = ex.touch(s, i.args[0], 32, i.pc)?;
    for k in 0..32 {
        s.memory[off + k] = Cell {
            term: i.args[1],
            byte: k as u8,
        };
    }
    Ok(Step::Next)
}

/// MSTORE at an input-dependent offset in a guided run: every word the
/// offset may address becomes the ite of "it is this word" over the new
/// and the old value.
fn mstore_symbolic(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let (candidates, within) = ex.word_candidates(s, i.args[0], i.pc)?;
    s.guard = ex.terms.and_bool(s.guard, within);
    for (k, hit) in candidates {
        let cells = s.memory[k..k + 32].to_vec();
        let old = ex.gather(&cells);
        let new = ex.terms.ite(hit, i.args[1], old);
        for b in 0..32 {
            s.memory[k + b] = Cell {
                term: new,
                byte: b as u8,
            };
        }
    }
    Ok(Step::Next)
}

pub(super) fn mstore8(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let off = ex.touch(s, i.args[0], 1, i.pc)?;
    s.memory[off] = Cell {
        term: i.args[1],
        byte: 31,
    };
    Ok(Step::Next)
}

pub(super) fn msize(ex: &mut Exec<'_>, s: &mut State, _: &Inst) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.small(s.memory.len() as u64)))
}

pub(super) fn mcopy(ex: &mut Exec<'_>, s: &mut State, i: &Inst) -> Result<Step, ExecError> {
    let [dest, src, len] = i.args;
    let len = ex.concrete(len, i.pc, "copy length")?;
    if len > 0 {
        let src = ex.touch(s, src, len, i.pc)?;
        let dest = ex.touch(s, dest, len, i.pc)?;
        let cells = s.memory[src..src + len].to_vec();
        s.memory[dest..dest + len].copy_from_slice(&cells);
    }
    Ok(Step::Next)
}

impl Exec<'_> {
    /// A 32-byte MLOAD or MSTORE at an offset that depends on the
    /// variables is done word by word over memory, in a guided run only
    /// (the witness fixes the offset's alignment and the memory it lies in).
    /// The words a symbolic offset may address on this path: every offset
    /// in memory (grown to cover the witness's offset) with the witness
    /// offset's alignment, from 0x80 on when the witness offset is there
    /// (Solidity's scratch space and free memory pointer stay concrete),
    /// each with the 0/1 term "off is it"; and the path condition that
    /// `off` is one of them (alignment and range), which the caller adds to
    /// the guard. Every assignment satisfying it reads or
    /// writes exactly the word the ite over the candidates selects.
    fn word_candidates(
        &mut self,
        s: &mut State,
        off: TermId,
        pc: usize,
    ) -> Result<(Vec<(usize, TermId)>, TermId), ExecError> {
        let value = self.witness_value(off);
        let at = self.terms.constant(value);
        self.touch(s, at, 32, pc)?;
        let align = value.to::<usize>() % 32;
        let low = if value >= U256::from(RESERVED) {
            RESERVED
        } else {
            0
        };
        let mut candidates = Vec::new();
        let mut k = low + align;
        while k + 32 <= s.memory.len() {
            let c = self.terms.small(k as u64);
            candidates.push((k, self.terms.bin(Bin::Eq, off, c)));
            k += 32;
        }
        let thirty_two = self.terms.small(32);
        let rem = self.terms.bin(Bin::Mod, off, thirty_two);
        let want = self.terms.small(align as u64);
        let aligned = self.terms.bin(Bin::Eq, rem, want);
        let end = self.terms.small((k - 32 + 1) as u64);
        let below = self.terms.bin(Bin::Lt, off, end);
        let start = self.terms.small((low + align) as u64);
        let under = self.terms.bin(Bin::Lt, off, start);
        let above = self.terms.is_zero(under);
        let range = self.terms.and_bool(above, below);
        Ok((candidates, self.terms.and_bool(aligned, range)))
    }
}

//! The executor's scheduling of states: which state runs next, merging
//! states that meet, running both sides of a guided run's branch until they
//! rejoin, and the memory and word helpers the instructions share.

use std::collections::HashSet;

use octoku_core::U256;

use super::{
    Cell, Exec, ExecError, MERGE_FORKS, MERGE_LIVE, Next, Outcome, Reached, Region, Rejoined,
    Segment, Snapshot, State, Stats,
};
use crate::term::{Bin, TermId};

impl Exec<'_> {
    pub(super) fn run(&mut self) -> Result<(Outcome, TermId, Stats), ExecError> {
        let root = State {
            pc: 0,
            stack: Vec::new(),
            memory: Vec::new(),
            guard: self.terms.small(1),
            steps: 0,
        };
        let mut live = vec![root];
        let mut ended: Vec<(TermId, Outcome)> = Vec::new();
        while !live.is_empty() {
            self.check_limits(live.len())?;
            // The state furthest behind in the code goes next, so that the
            // branches of a fork meet at their join point before either
            // runs past it.
            let i = (0..live.len())
                .min_by_key(|&i| live[i].pc)
                .expect("non-empty");
            let state = self.take_merged(&mut live, i);
            match self.block(state)? {
                Next::Continue(s) => live.push(s),
                Next::Fork(a, b) => self.push_fork(&mut live, a, b),
                Next::Branch {
                    taken,
                    fall,
                    witness_jumps,
                    pc,
                } => {
                    self.stats.forks += 1;
                    let witness = if witness_jumps {
                        taken.clone()
                    } else {
                        fall.clone()
                    };
                    match self.rejoin([taken, fall], pc)? {
                        Some((rest, paths)) => {
                            self.stats.rejoined += 1;
                            live.extend(rest);
                            for (guard, outcome) in paths {
                                self.record_end(&mut ended, guard, outcome);
                            }
                        }
                        None => {
                            self.given_up.insert(pc);
                            live.push(witness);
                        }
                    }
                }
                Next::End(guard, outcome) => self.record_end(&mut ended, guard, outcome),
                Next::GiveUp => unreachable!("only a region gives up"),
            }
        }
        self.stats.ended = ended.len() as u64;
        let mut reached = self.terms.small(0);
        for (guard, _) in &ended {
            reached = self.terms.or_bool(reached, *guard);
        }
        let width = ended.iter().map(|(_, o)| o.words.len()).max().unwrap_or(0);
        let zero = self.terms.small(0);
        let mut acc: Option<Outcome> = None;
        for (guard, mut outcome) in ended.into_iter().rev() {
            outcome.words.resize(width, zero);
            acc = Some(match acc {
                None => outcome,
                Some(rest) => Outcome {
                    success: self.terms.ite(guard, outcome.success, rest.success),
                    len: self.terms.ite(guard, outcome.len, rest.len),
                    words: outcome
                        .words
                        .iter()
                        .zip(&rest.words)
                        .map(|(&a, &b)| self.terms.ite(guard, a, b))
                        .collect(),
                },
            });
        }
        let outcome = acc.expect("the root path ends");
        Ok((outcome, reached, self.stats))
    }

    pub(super) fn run_from(
        &mut self,
        start: &Snapshot,
        cuts: &HashSet<usize>,
    ) -> Result<Vec<Segment>, ExecError> {
        let memory = start
            .memory
            .iter()
            .flat_map(|&term| (0..32).map(move |byte| Cell { term, byte }))
            .collect();
        let root = State {
            pc: start.pc,
            stack: start.stack.clone(),
            memory,
            guard: self.terms.small(1),
            steps: 0,
        };
        let mut live = vec![root];
        let mut out = Vec::new();
        while let Some(state) = live.pop() {
            self.check_limits(live.len() + 1)?;
            if state.steps > 0 && cuts.contains(&state.pc) {
                let words = state.memory.len() / 32;
                let memory = (0..words)
                    .map(|w| self.gather(&state.memory[32 * w..32 * w + 32]))
                    .collect();
                out.push(Segment {
                    guard: state.guard,
                    reached: Reached::Cut(Snapshot {
                        pc: state.pc,
                        stack: state.stack,
                        memory,
                    }),
                });
                continue;
            }
            match self.block(state)? {
                Next::Continue(s) => live.push(s),
                Next::Fork(a, b) => self.push_fork(&mut live, a, b),
                Next::Branch { .. } | Next::GiveUp => unreachable!("an unguided run"),
                Next::End(guard, outcome) => {
                    self.stats.ended += 1;
                    out.push(Segment {
                        guard,
                        reached: Reached::Ended(outcome),
                    });
                }
            }
        }
        Ok(out)
    }

    /// Refuses when more states are alive, or more instructions were run in
    /// all, than the limits allow.
    fn check_limits(&mut self, live: usize) -> Result<(), ExecError> {
        self.stats.max_live = self.stats.max_live.max(live);
        if live > self.limits.live_states || self.stats.steps > self.limits.total_steps {
            return Err(ExecError::TooManyStates {
                live,
                steps: self.stats.steps,
            });
        }
        Ok(())
    }

    /// `live[i]`, taken out and merged with every other live state it can be
    /// merged with.
    fn take_merged(&mut self, live: &mut Vec<State>, i: usize) -> State {
        let mut state = live.swap_remove(i);
        let mut j = 0;
        while j < live.len() {
            if self.mergeable(&state, &live[j]) {
                let other = live.swap_remove(j);
                state = self.merge(state, other);
                self.stats.merges += 1;
            } else {
                j += 1;
            }
        }
        state
    }

    /// The sides of a fork that some assignment may take, added to `live`.
    fn push_fork(&mut self, live: &mut Vec<State>, a: State, b: State) {
        self.stats.forks += 1;
        for s in [a, b] {
            if self.terms.as_const(s.guard) != Some(U256::ZERO) {
                live.push(s);
            }
        }
    }

    /// A path's end added to `ended`; paths that end alike are one path.
    fn record_end(&mut self, ended: &mut Vec<(TermId, Outcome)>, guard: TermId, outcome: Outcome) {
        if let Some(slot) = ended.iter_mut().find(|(_, o)| *o == outcome) {
            slot.0 = self.terms.or_bool(slot.0, guard);
        } else {
            ended.push((guard, outcome));
        }
    }

    /// Both sides of the branch at `pc` run until at most one state is left
    /// (the others merged into it or ended): that state and the paths that
    /// ended. `None` when the sides do not rejoin within the bounds of
    /// [`Limits::merge_steps`], or a side meets something a region cannot
    /// hold (an error, a hash of an input-dependent word, the branch itself
    /// again in the same call); nothing of the attempt is then kept.
    fn rejoin(&mut self, sides: [State; 2], pc: usize) -> Result<Option<Rejoined>, ExecError> {
        self.region = Some(Region {
            root: (pc, self.depth(&sides[0])),
            began: self.stats.steps,
            forks: 0,
        });
        let result = self.run_region(sides);
        self.region = None;
        result
    }

    fn run_region(&mut self, sides: [State; 2]) -> Result<Option<Rejoined>, ExecError> {
        let mut live: Vec<State> = sides
            .into_iter()
            .filter(|s| self.terms.as_const(s.guard) != Some(U256::ZERO))
            .collect();
        let mut ended = Vec::new();
        while live.len() > 1 {
            self.check_limits(live.len())?;
            let region = self.region.as_ref().expect("in a region");
            if live.len() > MERGE_LIVE
                || region.forks > MERGE_FORKS
                || self.stats.steps - region.began > self.limits.merge_steps
            {
                return Ok(None);
            }
            // The deepest call first, then the state furthest behind in
            // the code: the sides meet where they rejoin in their call
            // before either returns from it or goes round a loop.
            let i = (0..live.len())
                .min_by_key(|&i| (std::cmp::Reverse(self.depth(&live[i])), live[i].pc))
                .expect("non-empty");
            let state = self.take_merged(&mut live, i);
            if live.is_empty() {
                // Every side merged into this one: the branch has rejoined.
                return Ok(Some((Some(state), ended)));
            }
            match self.block(state) {
                Ok(Next::Continue(s)) => live.push(s),
                Ok(Next::Fork(a, b)) => {
                    self.region.as_mut().expect("in a region").forks += 1;
                    self.push_fork(&mut live, a, b);
                }
                Ok(Next::End(guard, outcome)) => self.record_end(&mut ended, guard, outcome),
                Ok(Next::GiveUp) | Err(_) => return Ok(None),
                Ok(Next::Branch { .. }) => unreachable!("a region forks"),
            }
        }
        Ok(Some((live.pop(), ended)))
    }

    /// Return addresses on the stack: the entries that are a JUMPDEST's
    /// program counter.
    pub(super) fn depth(&self, s: &State) -> usize {
        s.stack
            .iter()
            .filter(|&&t| self.terms.as_const(t).is_some_and(|v| self.is_jumpdest(v)))
            .count()
    }

    fn mergeable(&self, a: &State, b: &State) -> bool {
        if a.pc != b.pc || a.stack.len() != b.stack.len() || a.memory.len() != b.memory.len() {
            return false;
        }
        // Differing constants are merged unless one of them is a JUMPDEST:
        // a return address that differs means the paths are in different
        // calls, and merging would make the return jump input-dependent.
        a.stack.iter().zip(&b.stack).all(|(&x, &y)| {
            x == y
                || match (self.terms.as_const(x), self.terms.as_const(y)) {
                    (Some(u), Some(v)) => !self.is_jumpdest(u) && !self.is_jumpdest(v),
                    _ => true,
                }
        })
    }

    fn is_jumpdest(&self, v: U256) -> bool {
        v < U256::from(self.code.len()) && self.jumpdests.contains(&v.to::<usize>())
    }

    fn merge(&mut self, a: State, b: State) -> State {
        // Under the merged guard, a's guard reduces to the branch condition
        // when both come from one fork.
        // (or_bool gives the parent guard itself then: guards are 0/1.)
        let guard = self.terms.or_bool(a.guard, b.guard);
        let cond = match self.terms.split_complement(a.guard, b.guard) {
            Some((_, cond)) => cond,
            None => a.guard,
        };
        let stack = a
            .stack
            .iter()
            .zip(&b.stack)
            .map(|(&x, &y)| self.terms.ite(cond, x, y))
            .collect();
        let mut memory = a.memory.clone();
        for w in 0..a.memory.len() / 32 {
            let range = 32 * w..32 * w + 32;
            if a.memory[range.clone()] != b.memory[range.clone()] {
                let x = self.gather(&a.memory[range.clone()]);
                let y = self.gather(&b.memory[range.clone()]);
                let v = self.terms.ite(cond, x, y);
                for (k, cell) in memory[range].iter_mut().enumerate() {
                    *cell = Cell {
                        term: v,
                        byte: k as u8,
                    };
                }
            }
        }
        State {
            pc: a.pc,
            stack,
            memory,
            guard,
            steps: a.steps.max(b.steps),
        }
    }

    /// The 32-byte word made of `cells`, most significant byte first.
    pub(super) fn gather(&mut self, cells: &[Cell]) -> TermId {
        debug_assert_eq!(cells.len(), 32);
        if cells
            .iter()
            .enumerate()
            .all(|(k, c)| c.term == cells[0].term && usize::from(c.byte) == k)
        {
            return cells[0].term;
        }
        let mut acc = self.terms.small(0);
        let mut p = 0;
        while p < 32 {
            let Cell { term, byte } = cells[p];
            let mut len = 1;
            while p + len < 32
                && cells[p + len].term == term
                && usize::from(cells[p + len].byte) == usize::from(byte) + len
            {
                len += 1;
            }
            // Bytes byte..byte+len of term, placed at p..p+len.
            let piece = if let Some(c) = self.terms.as_const(term) {
                let v =
                    ((c << (8 * usize::from(byte))) >> (8 * (32 - len))) << (8 * (32 - p - len));
                self.terms.constant(v)
            } else {
                let up = self.terms.small(8 * u64::from(byte));
                let down = self.terms.small(8 * (32 - len) as u64);
                let back = self.terms.small(8 * (32 - p - len) as u64);
                let x = self.terms.bin(Bin::Shl, term, up);
                let x = self.terms.bin(Bin::Shr, x, down);
                self.terms.bin(Bin::Shl, x, back)
            };
            acc = self.terms.bin(Bin::Or, acc, piece);
            p += len;
        }
        acc
    }

    pub(super) fn concrete(
        &self,
        t: TermId,
        pc: usize,
        what: &'static str,
    ) -> Result<usize, ExecError> {
        match self.terms.as_const(t) {
            Some(v) if v <= U256::from(self.limits.memory_bytes) => Ok(v.to::<usize>()),
            _ => Err(ExecError::SymbolicMemory { pc, what }),
        }
    }

    /// An offset into calldata or code, which must be a constant (an offset
    /// past the end reads zeros, so it saturates instead of failing).
    pub(super) fn source_offset(
        &self,
        t: TermId,
        pc: usize,
        what: &'static str,
    ) -> Result<usize, ExecError> {
        match self.terms.as_const(t) {
            Some(v) => Ok(v.saturating_to::<usize>()),
            None => Err(ExecError::SymbolicMemory { pc, what }),
        }
    }

    /// Memory range [off, off+len) checked against the limits, memory grown
    /// to cover it (when len > 0).
    pub(super) fn touch(
        &self,
        s: &mut State,
        off: TermId,
        len: usize,
        pc: usize,
    ) -> Result<usize, ExecError> {
        let off = self.concrete(off, pc, "memory offset")?;
        if len == 0 {
            return Ok(off);
        }
        let end = off + len;
        if end > self.limits.memory_bytes {
            return Err(ExecError::SymbolicMemory {
                pc,
                what: "memory range",
            });
        }
        if s.memory.len() < end {
            let zero = Cell {
                term: self.zero_term(),
                byte: 31,
            };
            s.memory.resize(end.div_ceil(32) * 32, zero);
        }
        Ok(off)
    }

    pub(super) fn zero_term(&self) -> TermId {
        self.call.zero
    }

    /// The witness value of `t` in a guided run.
    pub(super) fn witness_value(&mut self, t: TermId) -> U256 {
        let guide = self.guide.as_mut().expect("a guided run");
        self.terms.eval_memo(t, &guide.values, &mut guide.memo)
    }

    /// An exceptional halt: the call fails with no data.
    pub(super) fn halt(&mut self, s: State) -> Next {
        self.end(s, 0, 0, 0)
    }

    pub(super) fn end(&mut self, s: State, success: u64, off: usize, len: usize) -> Next {
        let zero = Cell {
            term: self.zero_term(),
            byte: 31,
        };
        let words = (0..len.div_ceil(32))
            .map(|w| {
                let cells: Vec<Cell> = (0..32)
                    .map(|k| {
                        let i = 32 * w + k;
                        if i < len { s.memory[off + i] } else { zero }
                    })
                    .collect();
                self.gather(&cells)
            })
            .collect();
        let outcome = Outcome {
            success: self.terms.small(success),
            len: self.terms.small(len as u64),
            words,
        };
        Next::End(s.guard, outcome)
    }
}

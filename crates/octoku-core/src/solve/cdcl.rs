//! Clause learning for the boards where the strong search stalls: the board
//! as a SAT problem over "cell i holds symbol d" (only the candidates left
//! by the givens), solved by conflict-driven clause learning, and each
//! solution found blocked by a clause so counting goes on to the next.
//!
//! The encoding is the standard one: each empty cell holds at least one of
//! its candidates and at most one (one clause per pair), each unit holds
//! each missing symbol in at least one of its cells and at most one. The
//! solver is a small CDCL engine: two watched literals (binary clauses in
//! their own lists: the at-most-one pairs are most of the clauses), first
//! unique implication point learning with the learnt clause minimized,
//! VSIDS branching with saved phases, Luby restarts (learnt clauses are
//! kept across them) and learnt clauses halved at a restart by their LBD
//! when they grow past a bound. A depth-first search with propagation
//! proves the same dead end again and again in another branch; a learnt
//! clause proves it once.
//!
//! Nothing here is random: the same board gives the same solutions in the
//! same order, and the same number of conflicts, on every machine.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::geometry::Geometry;

/// A literal: `2 * var` (the variable true) or `2 * var + 1` (false).
type Lit = u32;

/// No reason (a decision, or a given fact), and no variable.
const NONE: u32 = u32::MAX;

/// A reason that is a binary clause: this bit, and the clause's other literal.
const BIN: u32 = 1 << 31;

/// The variable of a literal.
#[inline(always)]
fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

/// The opposite literal.
#[inline(always)]
fn not(l: Lit) -> Lit {
    l ^ 1
}

/// Conflicts between restarts: this times a term of the Luby sequence.
const RESTART_UNIT: u64 = 64;

/// Learnt clauses kept before the first reduction (then 10% more each time).
const FIRST_REDUCE: usize = 2000;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// Every solution not blocked was reported, or `found` asked to stop.
    Finished,
    /// The stop flag was raised first.
    Stopped,
}

/// A long clause's watch: the clause and one of its literals (when that
/// one is true the clause is not read).
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// The engine: clauses, the assignment, and the branching heuristic.
struct Sat {
    /// Per literal: 1 true, -1 false, 0 unassigned.
    vals: Vec<i8>,
    /// Per variable: its decision level, and its reason (a clause in
    /// `arena`, `BIN | other literal`, or `NONE`).
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<Lit>,
    /// Where each decision level starts in the trail.
    limits: Vec<usize>,
    /// The next trail literal to propagate.
    head: usize,
    /// Long clauses, each `[length, lbd | LEARNT, literals…]`.
    arena: Vec<u32>,
    /// The learnt long clauses (offsets in `arena`).
    learnts: Vec<u32>,
    /// Per literal: the long clauses watching its opposite.
    watches: Vec<Vec<Watch>>,
    /// Per literal `p`: the literals `q` of binary clauses `(¬p ∨ q)` of
    /// the encoding, `fixed[start[p]..start[p + 1]]` (one block, built
    /// once: the at-most-one pairs are most clauses, and a list per
    /// literal cost more in allocation than the whole search), then those
    /// added later (learnt, blocking) in `bins[p]`.
    start: Vec<u32>,
    fixed: Vec<Lit>,
    bins: Vec<Vec<Lit>>,
    /// A clause being added.
    scratch: Vec<Lit>,
    activity: Vec<f64>,
    bump: f64,
    /// The variables with some activity (and some assigned ones, dropped
    /// when they come to the top), by activity.
    heap: Heap,
    /// Every unassigned variable of activity 0 outside the heap is at
    /// `cursor` or after it: with few conflicts most variables are so, and
    /// the lowest of them, the heap's choice among equals, is found by a
    /// walk instead of a sift through every variable.
    cursor: usize,
    /// Per variable: the value it had last (tried first next time).
    phase: Vec<bool>,
    seen: Vec<bool>,
    /// The literals marked `seen` by an analysis, to unmark.
    marked: Vec<Lit>,
    /// Per level: the last conflict whose LBD counted it.
    stamp: Vec<u64>,
    conflicts: u64,
    reduce_at: usize,
    /// False once the clauses are known unsatisfiable.
    ok: bool,
}

/// The flag of a learnt clause (in its second header word).
const LEARNT: u32 = 1 << 31;

impl Sat {
    fn new(vars: usize) -> Sat {
        let heap = Heap {
            heap: Vec::new(),
            index: vec![NONE; vars],
        };
        let activity = vec![0.0; vars];
        Sat {
            vals: vec![0; 2 * vars],
            level: vec![0; vars],
            reason: vec![NONE; vars],
            trail: Vec::with_capacity(vars),
            limits: Vec::new(),
            head: 0,
            arena: Vec::new(),
            learnts: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            start: vec![0; 2 * vars + 1],
            fixed: Vec::new(),
            bins: vec![Vec::new(); 2 * vars],
            scratch: Vec::new(),
            activity,
            bump: 1.0,
            heap,
            cursor: 0,
            // A cell's candidate tried true first: placing a symbol
            // propagates, ruling one out seldom does.
            phase: vec![true; vars],
            seen: vec![false; vars],
            marked: Vec::new(),
            stamp: vec![0; vars + 1],
            conflicts: 0,
            reduce_at: FIRST_REDUCE,
            ok: true,
        }
    }

    #[inline(always)]
    fn val(&self, l: Lit) -> i8 {
        self.vals[l as usize]
    }

    #[inline(always)]
    fn decision_level(&self) -> u32 {
        self.limits.len() as u32
    }

    #[inline(always)]
    fn assign(&mut self, l: Lit, reason: u32) {
        let v = var(l);
        self.vals[l as usize] = 1;
        self.vals[not(l) as usize] = -1;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Adds a clause at level 0 (literals false there dropped; a clause
    /// true there skipped); an empty one makes the problem unsatisfiable.
    fn add_clause(&mut self, lits: &[Lit]) {
        debug_assert_eq!(self.decision_level(), 0);
        if !self.ok {
            return;
        }
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        for &l in lits {
            match self.val(l) {
                1 => {
                    self.scratch = c;
                    return;
                }
                -1 => {}
                _ => {
                    if !c.contains(&l) {
                        c.push(l);
                    }
                }
            }
        }
        match c.len() {
            0 => self.ok = false,
            1 => self.assign(c[0], NONE),
            2 => self.add_binary(c[0], c[1]),
            _ => {
                self.add_long(&c, 0);
            }
        }
        self.scratch = c;
    }

    /// Stores the encoding's binary clauses `(a ∨ b)` in one block.
    fn fix_binaries(&mut self, pairs: &[(Lit, Lit)]) {
        let mut count = vec![0u32; self.start.len()];
        for &(a, b) in pairs {
            count[not(a) as usize] += 1;
            count[not(b) as usize] += 1;
        }
        let mut at = 0;
        for (p, c) in count.iter().enumerate() {
            self.start[p] = at;
            at += c;
        }
        self.fixed = vec![0; at as usize];
        let mut next = self.start.clone();
        for &(a, b) in pairs {
            for (p, q) in [(not(a), b), (not(b), a)] {
                self.fixed[next[p as usize] as usize] = q;
                next[p as usize] += 1;
            }
        }
    }

    fn add_binary(&mut self, a: Lit, b: Lit) {
        self.bins[not(a) as usize].push(b);
        self.bins[not(b) as usize].push(a);
    }

    /// Stores a long clause (its first two literals watched); `lbd` 0 for
    /// a clause of the problem, else the learnt clause's LBD.
    fn add_long(&mut self, c: &[Lit], lbd: u32) -> u32 {
        let at = self.arena.len() as u32;
        self.arena.push(c.len() as u32);
        self.arena.push(if lbd == 0 { 0 } else { lbd | LEARNT });
        self.arena.extend_from_slice(c);
        self.watches[not(c[0]) as usize].push(Watch {
            clause: at,
            blocker: c[1],
        });
        self.watches[not(c[1]) as usize].push(Watch {
            clause: at,
            blocker: c[0],
        });
        if lbd != 0 {
            self.learnts.push(at);
        }
        at
    }

    /// Propagates the trail; the literals of a clause left false on a conflict.
    fn propagate(&mut self, conflict: &mut Vec<Lit>) -> bool {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            // Binary clauses (¬p ∨ q).
            let (from, to) = (
                self.start[p as usize] as usize,
                self.start[p as usize + 1] as usize,
            );
            let added = self.bins[p as usize].len();
            for k in (from..to + added).rev() {
                let q = if k < to {
                    self.fixed[k]
                } else {
                    self.bins[p as usize][k - to]
                };
                match self.val(q) {
                    0 => self.assign(q, BIN | not(p)),
                    -1 => {
                        conflict.clear();
                        conflict.extend([q, not(p)]);
                        return false;
                    }
                    _ => {}
                }
            }
            // Long clauses watching ¬p.
            let false_lit = not(p);
            let mut ws = std::mem::take(&mut self.watches[p as usize]);
            let (mut i, mut j) = (0, 0);
            let mut failed = false;
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.val(w.blocker) == 1 {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let at = w.clause as usize;
                let len = self.arena[at] as usize;
                let lits = at + 2;
                if self.arena[lits] == false_lit {
                    self.arena.swap(lits, lits + 1);
                }
                let first = self.arena[lits];
                let kept = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                if first != w.blocker && self.val(first) == 1 {
                    ws[j] = kept;
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..len {
                    let l = self.arena[lits + k];
                    if self.val(l) != -1 {
                        self.arena.swap(lits + 1, lits + k);
                        self.watches[not(l) as usize].push(kept);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = kept;
                j += 1;
                if self.val(first) == -1 {
                    conflict.clear();
                    conflict.extend_from_slice(&self.arena[lits..lits + len]);
                    while i < ws.len() {
                        ws[j] = ws[i];
                        i += 1;
                        j += 1;
                    }
                    failed = true;
                } else {
                    self.assign(first, w.clause);
                }
            }
            ws.truncate(j);
            self.watches[p as usize] = ws;
            if failed {
                return false;
            }
        }
        true
    }

    /// The literals of the reason of variable `v` other than its own.
    fn reason_lits(&self, v: usize, out: &mut Vec<Lit>) {
        out.clear();
        let r = self.reason[v];
        if r == NONE {
            return;
        }
        if r & BIN != 0 {
            out.push(r & !BIN);
            return;
        }
        let at = r as usize;
        let len = self.arena[at] as usize;
        out.extend(
            self.arena[at + 2..at + 2 + len]
                .iter()
                .copied()
                .filter(|&l| var(l) != v),
        );
    }

    fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.bump;
        if self.activity[v] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        if self.heap.index[v] == NONE {
            self.heap.insert(v as u32, &self.activity);
        } else {
            self.heap.raise(v as u32, &self.activity);
        }
    }

    /// First-UIP analysis of a conflict: the learnt clause (its asserting
    /// literal first, a literal of the backjump level second) and that level.
    fn analyze(&mut self, conflict: &[Lit], learnt: &mut Vec<Lit>, buf: &mut Vec<Lit>) -> u32 {
        learnt.clear();
        learnt.push(0);
        let here = self.decision_level();
        let mut open = 0;
        let mut index = self.trail.len();
        let mut lits: Vec<Lit> = conflict.to_vec();
        let uip = loop {
            for &q in &lits {
                let v = var(q);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.bump_var(v);
                    if self.level[v] >= here {
                        open += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            loop {
                index -= 1;
                if self.seen[var(self.trail[index])] {
                    break;
                }
            }
            let p = self.trail[index];
            self.seen[var(p)] = false;
            open -= 1;
            if open == 0 {
                break p;
            }
            self.reason_lits(var(p), buf);
            lits.clear();
            lits.extend_from_slice(buf);
        };
        learnt[0] = not(uip);
        let mut marked = std::mem::take(&mut self.marked);
        marked.clear();
        marked.extend_from_slice(&learnt[1..]);
        // Minimization: a literal whose reason's other literals are all in
        // the clause (or fixed at level 0) is implied by them.
        let mut keep = 1;
        for k in 1..learnt.len() {
            let l = learnt[k];
            let v = var(l);
            let redundant = self.reason[v] != NONE && {
                self.reason_lits(v, buf);
                buf.iter()
                    .all(|&q| self.seen[var(q)] || self.level[var(q)] == 0)
            };
            if !redundant {
                learnt[keep] = l;
                keep += 1;
            }
        }
        for &l in &marked {
            self.seen[var(l)] = false;
        }
        self.marked = marked;
        learnt.truncate(keep);
        // The backjump level: the highest below this one, its literal second.
        let mut back = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 1..learnt.len() {
                if self.level[var(learnt[k])] > self.level[var(learnt[best])] {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back = self.level[var(learnt[1])];
        }
        back
    }

    /// The number of distinct decision levels among `lits`.
    fn lbd(&mut self, lits: &[Lit]) -> u32 {
        let mark = self.conflicts + 1;
        let mut n = 0;
        for &l in lits {
            let lv = self.level[var(l)] as usize;
            if self.stamp[lv] != mark {
                self.stamp[lv] = mark;
                n += 1;
            }
        }
        n
    }

    /// Undoes every assignment above `level`.
    fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let start = self.limits[level as usize];
        for k in (start..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = var(l);
            self.vals[l as usize] = 0;
            self.vals[not(l) as usize] = 0;
            self.phase[v] = l & 1 == 0;
            if self.activity[v] > 0.0 {
                self.heap.insert(v as u32, &self.activity);
            } else {
                self.cursor = self.cursor.min(v);
            }
        }
        self.trail.truncate(start);
        self.limits.truncate(level as usize);
        self.head = start;
    }

    /// At level 0: drops the clauses true there, and when the learnt
    /// clauses grew past the bound, the worse half of them (by LBD, the
    /// older first among equals; LBD 2 and below are always kept).
    fn reduce(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let halve = self.learnts.len() > self.reduce_at;
        let mut drop_learnt = vec![false; self.learnts.len()];
        if halve {
            let mut order: Vec<usize> = (0..self.learnts.len()).collect();
            let lbd = |k: usize| self.arena[self.learnts[k] as usize + 1] & !LEARNT;
            order.sort_by_key(|&k| (std::cmp::Reverse(lbd(k)), k));
            for &k in &order[..order.len() / 2] {
                if lbd(k) > 2 {
                    drop_learnt[k] = true;
                }
            }
            self.reduce_at += self.reduce_at / 10;
        }
        let dropped: std::collections::HashSet<u32> = self
            .learnts
            .iter()
            .zip(&drop_learnt)
            .filter(|&(_, &d)| d)
            .map(|(&c, _)| c)
            .collect();
        let old = std::mem::take(&mut self.arena);
        self.learnts.clear();
        for w in &mut self.watches {
            w.clear();
        }
        for v in 0..self.reason.len() {
            self.reason[v] = NONE; // every assignment is at level 0
        }
        let mut at = 0;
        while at < old.len() {
            let len = old[at] as usize;
            let header = old[at + 1];
            let lits = &old[at + 2..at + 2 + len];
            let here = at as u32;
            at += 2 + len;
            if dropped.contains(&here) || lits.iter().any(|&l| self.val(l) == 1) {
                continue;
            }
            let lbd = if header & LEARNT != 0 {
                header & !LEARNT
            } else {
                0
            };
            self.add_long(lits, lbd);
        }
    }

    /// The next decision: the unassigned variable of highest activity
    /// (the lowest among equals), at its saved phase; `None` when every
    /// variable is assigned.
    fn decide(&mut self) -> Option<Lit> {
        // The heap's best unassigned variable.
        let top = loop {
            match self.heap.heap.first() {
                Some(&v) if self.vals[2 * v as usize] != 0 => {
                    self.heap.pop(&self.activity);
                }
                top => break top.copied(),
            }
        };
        // The lowest unassigned variable of activity 0 outside the heap.
        let vars = self.activity.len();
        while self.cursor < vars
            && (self.vals[2 * self.cursor] != 0
                || self.activity[self.cursor] > 0.0
                || self.heap.index[self.cursor] != NONE)
        {
            self.cursor += 1;
        }
        let rest = (self.cursor < vars).then_some(self.cursor as u32);
        let v = match (top, rest) {
            (Some(t), Some(r)) if !Heap::above(t, r, &self.activity) => r,
            (Some(t), _) => {
                self.heap.pop(&self.activity);
                t
            }
            (None, Some(r)) => r,
            (None, None) => return None,
        };
        Some(2 * v + u32::from(!self.phase[v as usize]))
    }

    /// Searches for a model: `Some(true)` found (the assignment holds it),
    /// `Some(false)` none, `None` stopped by `stop`.
    fn solve(&mut self, stop: Option<&AtomicBool>, restarts: &mut u64) -> Option<bool> {
        if !self.ok {
            return Some(false);
        }
        let mut conflict = Vec::new();
        let (mut learnt, mut buf) = (Vec::new(), Vec::new());
        let mut until_restart = RESTART_UNIT * luby(*restarts + 1);
        loop {
            if !self.propagate(&mut conflict) {
                self.conflicts += 1;
                if self.decision_level() == 0 {
                    self.ok = false;
                    return Some(false);
                }
                if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return None;
                }
                let back = self.analyze(&conflict, &mut learnt, &mut buf);
                self.backtrack(back);
                match learnt.len() {
                    1 => self.assign(learnt[0], NONE),
                    2 => {
                        self.add_binary(learnt[0], learnt[1]);
                        self.assign(learnt[0], BIN | learnt[1]);
                    }
                    _ => {
                        let lbd = self.lbd(&learnt).max(1);
                        let at = self.add_long(&learnt, lbd);
                        self.assign(learnt[0], at);
                    }
                }
                self.bump /= 0.95;
                until_restart = until_restart.saturating_sub(1);
                continue;
            }
            if until_restart == 0 {
                *restarts += 1;
                until_restart = RESTART_UNIT * luby(*restarts + 1);
                self.backtrack(0);
                if self.learnts.len() > self.reduce_at {
                    self.reduce();
                }
                continue;
            }
            let Some(l) = self.decide() else {
                return Some(true);
            };
            self.limits.push(self.trail.len());
            self.assign(l, NONE);
        }
    }
}

/// Term `i` (from 1) of the Luby sequence.
fn luby(i: u64) -> u64 {
    super::luby(i)
}

/// A max-heap of variables by activity, with each variable's place.
struct Heap {
    heap: Vec<u32>,
    /// Per variable: its index in `heap`, or `NONE`.
    index: Vec<u32>,
}

impl Heap {
    fn insert(&mut self, v: u32, act: &[f64]) {
        if self.index[v as usize] != NONE {
            return;
        }
        self.index[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, act);
    }

    fn raise(&mut self, v: u32, act: &[f64]) {
        let i = self.index[v as usize];
        if i != NONE {
            self.up(i as usize, act);
        }
    }

    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.index[top as usize] = NONE;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.index[last as usize] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    /// Ties go to the lower variable, so the order is the same everywhere.
    fn above(a: u32, b: u32, act: &[f64]) -> bool {
        let (x, y) = (act[a as usize], act[b as usize]);
        x > y || x == y && a < b
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !Heap::above(v, p, act) {
                break;
            }
            self.heap[i] = p;
            self.index[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.index[v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && Heap::above(self.heap[right], self.heap[left], act) {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !Heap::above(c, v, act) {
                break;
            }
            self.heap[i] = c;
            self.index[c as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.index[v as usize] = i as u32;
    }
}

/// What a clause-learning run did: conflicts, restarts, solutions reported.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Work {
    pub conflicts: u64,
    pub restarts: u64,
}

/// The candidates of start `cells` before any reasoning: bit `d` of
/// cell `i` when symbol `d + 1` may go there (a given's alone).
pub(super) fn candidates(g: Geometry, cells: &[u8]) -> Vec<u32> {
    let all = (1u32 << g.size()) - 1;
    cells
        .iter()
        .map(|&v| if v == 0 { all } else { 1 << (v - 1) })
        .collect()
}

/// Every solution of a board of `g` whose cells may hold the symbols of
/// `cands` (bit `d`: symbol `d + 1`; one bit: a fixed cell; see
/// [`candidates`]) but those in `blocked` (whole solutions, a byte a
/// cell, one after another), reported to `found` until it returns true;
/// stops early when `stop` is raised.
pub(super) fn run(
    g: Geometry,
    cands: &[u32],
    blocked: &[u8],
    stop: Option<&AtomicBool>,
    found: &mut impl FnMut(&[u8]) -> bool,
) -> (End, Work) {
    let mut work = Work::default();
    let Some((mut sat, vars, cells)) = encode(g, cands) else {
        return (End::Finished, work);
    };
    let block = |sat: &mut Sat, solution: &[u8]| {
        let clause: Vec<Lit> = vars
            .iter()
            .filter_map(|&(i, d, v)| (solution[i] == d).then_some(2 * v + 1))
            .collect();
        sat.add_clause(&clause);
    };
    for solution in blocked.chunks_exact(cands.len()) {
        block(&mut sat, solution);
    }
    let mut out = cells.to_vec();
    loop {
        let answer = sat.solve(stop, &mut work.restarts);
        work.conflicts = sat.conflicts;
        match answer {
            None => return (End::Stopped, work),
            Some(false) => return (End::Finished, work),
            Some(true) => {}
        }
        for &(i, d, v) in &vars {
            if sat.vals[2 * v as usize] == 1 {
                out[i] = d;
            }
        }
        if found(&out) {
            return (End::Finished, work);
        }
        sat.backtrack(0);
        block(&mut sat, &out);
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return (End::Stopped, work);
        }
    }
}

/// The clauses of candidates `cands` ([`run`]), their variables, each
/// `(cell, symbol, variable)`, one per candidate of an unfixed cell that no
/// fixed cell of its row, column or box holds, and the fixed cells (0
/// elsewhere). `None` when two fixed cells clash.
#[allow(clippy::type_complexity)]
fn encode(g: Geometry, cands: &[u32]) -> Option<(Sat, Vec<(usize, u8, u32)>, Vec<u8>)> {
    let n = g.size();
    let cells: Vec<u8> = cands
        .iter()
        .map(|&m| {
            if m.is_power_of_two() {
                m.trailing_zeros() as u8 + 1
            } else {
                0
            }
        })
        .collect();
    // Symbols (bit d) held by each row, column and box.
    let (mut rows, mut cols, mut boxes) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let (r, c) = g.position(i);
            let b = g.box_of(r, c);
            let bit = 1u32 << (v - 1);
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return None;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    // var_of[i * n + d]: the variable of symbol d + 1 in cell i, or NONE.
    let mut var_of = vec![NONE; cells.len() * n];
    let mut vars = Vec::new();
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            continue;
        }
        let (r, c) = g.position(i);
        let held = rows[r] | cols[c] | boxes[g.box_of(r, c)];
        for d in 0..n {
            if (cands[i] & !held) >> d & 1 != 0 {
                var_of[i * n + d] = vars.len() as u32;
                vars.push((i, d as u8 + 1, vars.len() as u32));
            }
        }
    }
    let mut sat = Sat::new(vars.len());
    let mut pairs: Vec<(Lit, Lit)> = Vec::new();
    let mut clause = Vec::with_capacity(n);
    // Each empty cell: one of its candidates, and not two.
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            continue;
        }
        clause.clear();
        clause.extend((0..n).filter_map(|d| {
            let x = var_of[i * n + d];
            (x != NONE).then_some(2 * x)
        }));
        sat.add_clause(&clause);
        for (k, &a) in clause.iter().enumerate() {
            for &b in &clause[k + 1..] {
                pairs.push((not(a), not(b)));
            }
        }
    }
    // Each unit: each symbol it misses in one of its cells, and not two
    // (a pair of cells sharing a row or column as well as a box is
    // already excluded by that line).
    let mut unit_cells = Vec::with_capacity(n);
    let mut places = Vec::with_capacity(n);
    for unit in g.units() {
        let boxed = matches!(unit, crate::grid::geometry::Unit::Box(_));
        unit_cells.clear();
        unit_cells.extend(g.unit_cells(unit));
        for d in 0..n {
            places.clear();
            let mut held = false;
            for &(r, c) in &unit_cells {
                let i = g.index(r, c);
                if cells[i] == d as u8 + 1 {
                    held = true;
                }
                let x = var_of[i * n + d];
                if x != NONE {
                    places.push((r, c, 2 * x));
                }
            }
            if held {
                continue;
            }
            clause.clear();
            clause.extend(places.iter().map(|p| p.2));
            sat.add_clause(&clause);
            for (k, a) in places.iter().enumerate() {
                for b in &places[k + 1..] {
                    if !boxed || a.0 != b.0 && a.1 != b.1 {
                        pairs.push((a.2 + 1, b.2 + 1));
                    }
                }
            }
        }
    }
    sat.fix_binaries(&pairs);
    Some((sat, vars, cells))
}

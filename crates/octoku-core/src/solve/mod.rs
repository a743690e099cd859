//! Solving boards of every geometry ([`Grid`]): `solve`, `count`,
//! `is_unique` (a one-line reason when a simple contradiction shows is
//! [`crate::rules::contradiction()`]).
//!
//! The solver keeps, for each symbol, a bitboard of the cells where it may
//! still go (bit `i` is the cell at reading index `i = N * row + col`), in
//! `W` 64-bit words (W = ⌈N²/64⌉: 1 up to 8×8, 2 for 9×9 and 10×10, 3 for
//! 12×12, 4 up to 16×16; the width is a const parameter, so each width gets
//! its own unrolled code). Placing a symbol clears its peers (row, column and
//! box, precomputed once per geometry) with W word operations. Propagation
//! applies naked singles (cells with one candidate, found by bit-sliced
//! counting over the symbol boards) and hidden singles (a symbol with one
//! place left in a unit, checked only for units still missing that symbol),
//! and the search branches on the empty cell with the fewest candidates.
//! Solving and counting (not [`solve_random`], whose search draws the
//! generator's grids and stays as it was) go further: locked candidates
//! (box/line segments, precomputed once per geometry) once singles are
//! exhausted, and before each branch every two-candidate cell is probed,
//! so a candidate that fails at once is dropped without a branch and the
//! branch taken is the pair whose children fix the most cells. That keeps
//! the hardest minimal 12×12 and 16×16 puzzles within a few times the
//! median (docs/family.md, "Speed"). A search that passes a bound on its
//! work hands the board to clause learning (`cdcl`, `Solver::run`), which
//! proves a dead end once where the search proves it again in every
//! branch: no board keeps a solve or a count for long. A cell probed
//! again below the node that probed it starts from that probe's children
//! (`memo`; the same children, for less work). Nothing is allocated
//! while searching, but for a thread's first searches growing its memo
//! pool, and the solutions kept for a handover. Every search can be
//! stopped from another thread ([`solve_counting_until`]). Classic 9×9
//! boards take a faster path on
//! the same idea (`bands`): each symbol's board cut into three 27-bit
//! bands, with box/row locked candidates from a table.

// Word loops index several W-word boards at once by the same k.
#![allow(clippy::needless_range_loop)]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;
use crate::grid::geometry::Geometry;
use crate::rng::SplitMix64;

pub mod answer;
mod bands;
pub mod batch;
mod cdcl;
pub mod deadline;
mod locked16;
mod memo;
pub mod naive;
pub mod octoku;
mod stats;

use memo::{Memo, Pooled};
use stats::Tally;
pub use stats::{SearchStats, search_stats};

/// The largest side, in symbols: a symbol set fits a `u16`.
const MAX_N: usize = Geometry::MAX_SIZE;

/// Peer and unit masks of one geometry, as 4-word bitboards (a width-W
/// solver reads the first W words).
struct Tables {
    /// Peers of each cell (same row, column or box), the cell itself excluded.
    peers: Vec<[u64; 4]>,
    /// The 3N units: rows, then columns, then boxes (the order of [`Geometry::units`]).
    units: Vec<[u64; 4]>,
    /// Bits of the three units through each cell, in a 3N-bit unit set.
    unit_bits: Vec<u64>,
    /// Every cell of the board.
    all: [u64; 4],
    /// Where a box meets a row or a column through it, for locked
    /// candidates: box by box, its rows then its columns.
    segments: Vec<Segment>,
    /// Box rows and box columns: each box has `box_rows + box_cols` segments.
    box_rows: usize,
    box_cols: usize,
    /// The unit bits of each box's first row and first column (the
    /// shifts that bring its lines' bits of a unit set down to bit 0).
    box_lines: Vec<(usize, usize)>,
}

/// Words of a mask with one bit per segment: at most 16 boxes of 1 + 16
/// lines, the last box starting at bit 255 (its bits end in word 4).
const SEGMENT_WORDS: usize = 5;

/// The cells a box shares with one line (a row or a column) through it,
/// and the rest of each: a symbol whose places in the box all lie on the
/// line leaves the rest of the line, and one whose places on the line all
/// lie in the box leaves the rest of the box.
struct Segment {
    /// The cells the box and the line share.
    cells: [u64; 4],
    /// The box's other cells.
    box_rest: [u64; 4],
    /// The line's other cells.
    line_rest: [u64; 4],
}

impl Tables {
    /// Builds the masks of `g`.
    fn build(g: Geometry) -> Tables {
        let n = g.size();
        let units: Vec<[u64; 4]> = g
            .units()
            .map(|u| {
                let mut m = [0u64; 4];
                for (r, c) in g.unit_cells(u) {
                    let i = g.index(r, c);
                    m[i / 64] |= 1 << (i % 64);
                }
                m
            })
            .collect();
        let mut peers = Vec::with_capacity(n * n);
        let mut unit_bits = Vec::with_capacity(n * n);
        for i in 0..n * n {
            let (r, c) = g.position(i);
            let ids = [r, n + c, 2 * n + g.box_of(r, c)];
            let mut m = [0u64; 4];
            for &u in &ids {
                for (w, word) in m.iter_mut().enumerate() {
                    *word |= units[u][w];
                }
            }
            m[i / 64] &= !(1 << (i % 64));
            peers.push(m);
            unit_bits.push(ids.iter().fold(0u64, |a, &u| a | 1 << u));
        }
        let mut all = [0u64; 4];
        for i in 0..n * n {
            all[i / 64] |= 1 << (i % 64);
        }
        let minus = |a: &[u64; 4], b: &[u64; 4]| std::array::from_fn(|k| a[k] & !b[k]);
        let mut segments = Vec::with_capacity(n * (g.box_rows() + g.box_cols()));
        let mut box_lines = Vec::with_capacity(n);
        for b in 0..n {
            let boxed = &units[2 * n + b];
            let (r0, c0) = g.box_origin(b);
            box_lines.push((r0, n + c0));
            let lines = (r0..r0 + g.box_rows()).chain((n + c0)..(n + c0 + g.box_cols()));
            for line in lines {
                let cells: [u64; 4] = std::array::from_fn(|k| units[line][k] & boxed[k]);
                segments.push(Segment {
                    cells,
                    box_rest: minus(boxed, &cells),
                    line_rest: minus(&units[line], &cells),
                });
            }
        }
        Tables {
            peers,
            units,
            unit_bits,
            all,
            segments,
            box_rows: g.box_rows(),
            box_cols: g.box_cols(),
            box_lines,
        }
    }

    /// The cached tables of `g` (built on first use; one slot per box shape).
    fn of(g: Geometry) -> &'static Tables {
        const SLOTS: usize = (MAX_N + 1) * (MAX_N + 1);
        static CACHE: [OnceLock<Tables>; SLOTS] = [const { OnceLock::new() }; SLOTS];
        CACHE[g.box_rows() * (MAX_N + 1) + g.box_cols()].get_or_init(|| Tables::build(g))
    }
}

/// The first W words of a 4-word mask.
#[inline(always)]
fn words<const W: usize>(m: &[u64; 4]) -> [u64; W] {
    let mut out = [0u64; W];
    out.copy_from_slice(&m[..W]);
    out
}

/// Whether a bitboard is empty.
#[inline(always)]
fn is_zero<const W: usize>(x: &[u64; W]) -> bool {
    x.iter().all(|&w| w == 0)
}

/// The lowest set bit of a non-empty bitboard.
#[inline(always)]
fn first_bit<const W: usize>(x: &[u64; W]) -> usize {
    let mut base = 0;
    for &w in x {
        if w != 0 {
            return base + w.trailing_zeros() as usize;
        }
        base += 64;
    }
    base
}

/// How many bits a bitboard holds, saturated at 2: 0, 1 or 2 (two or more).
#[inline(always)]
fn ones_upto2<const W: usize>(x: &[u64; W]) -> u32 {
    // Without a branch per word: the words holding a bit, and whether one holds two.
    let (mut words, mut more) = (0, 0);
    for &w in x {
        words += u32::from(w != 0);
        more |= w & w.wrapping_sub(1);
    }
    if more != 0 { 2 } else { words.min(2) }
}

/// Search state: the cells each symbol may take, the fixed cells, and for
/// each symbol the units (bit u of the 3N units) where it is not fixed yet.
#[derive(Clone, Copy)]
struct State<const W: usize> {
    /// `pos[d]`: cells where symbol `d + 1` may go; a fixed cell keeps only its own symbol.
    pos: [[u64; W]; MAX_N],
    /// Cells whose symbol is fixed.
    solved: [u64; W],
    /// `open[d]`: units that do not hold a fixed `d + 1` yet.
    open: [u64; MAX_N],
    /// `dirty[d]`: units where `d + 1` lost places since they were last
    /// checked for a hidden single.
    dirty: [u64; MAX_N],
    /// Bit `d`: symbol `d + 1` lost places in a unit still missing it since
    /// it was last checked for locked candidates.
    unlocked: u32,
}

/// A solver for one geometry at width W, noting its search's events in a
/// `T` (`()`: nowhere; see [`stats`]).
struct Solver<const W: usize, T: Tally = ()> {
    g: Geometry,
    n: usize,
    t: &'static Tables,
    all: [u64; W],
    /// Locked candidates, and branching on a symbol's places in a unit when
    /// they are fewer than the best cell's candidates. Off for a random
    /// solution, whose search stays the one the generator's seeds were drawn
    /// with (the same seed, the same puzzle).
    strong: bool,
    /// Where the search's events go.
    tally: T,
}

/// Evaluates `$body` with `$solver` bound to a [`Solver`] of geometry `$g`
/// at the width it needs (`$strong` as `Solver::strong`, events noted in a
/// `$tally`). `$body` is an expression of the calling function, not a
/// closure: a `return` in it returns from that function.
macro_rules! with_solver {
    ($g:expr, $strong:expr, $tally:ty, |$solver:ident| $body:expr) => {{
        let (g, strong) = ($g, $strong);
        match g.cell_count().div_ceil(64) {
            1 => {
                let $solver = $crate::solve::Solver::<1, $tally>::new(g, strong);
                $body
            }
            2 => {
                let $solver = $crate::solve::Solver::<2, $tally>::new(g, strong);
                $body
            }
            3 => {
                let $solver = $crate::solve::Solver::<3, $tally>::new(g, strong);
                $body
            }
            _ => {
                let $solver = $crate::solve::Solver::<4, $tally>::new(g, strong);
                $body
            }
        }
    }};
}
use with_solver;

/// How one search walks the tree: the order of its branches (`rng`: drawn
/// at random, else the solver's own), the work it may still do, and the
/// probe children of the nodes on its path.
struct Walk<'r, const W: usize>
where
    State<W>: Pooled,
{
    /// The generator of a random order: shuffled candidates in a branch
    /// (the plain search of [`solve_random`]).
    rng: Option<&'r mut SplitMix64>,
    /// Work (search nodes of the strong search, each counting its
    /// two-candidate cells too, a refuted node [`REFUTED_WORK`] more) the
    /// search may still do, solutions or not, before the board goes to
    /// clause learning ([`HANDOVER`]); `u64::MAX`:
    /// no bound. Kept out of the solver, which the search only reads (a
    /// `Cell` there cost 1% on minimal puzzles).
    total: u64,
    /// Raised by another thread to stop the search.
    stop: Option<&'r AtomicBool>,
    /// Solutions found so far.
    found: u64,
    /// Why the search stopped before finishing (`None`: it finished, or
    /// `found` stopped it).
    halt: Option<Halt>,
    /// The children of the cells probed on the path (the strong search).
    memo: Memo<State<W>>,
}

impl<'r, const W: usize> Walk<'r, W>
where
    State<W>: Pooled,
{
    /// A walk without a bound.
    fn new(rng: Option<&'r mut SplitMix64>) -> Walk<'r, W> {
        Walk::cut(rng, u64::MAX, None)
    }

    /// A walk that may do `total` work, and stops when `stop` is raised.
    fn cut(
        rng: Option<&'r mut SplitMix64>,
        total: u64,
        stop: Option<&'r AtomicBool>,
    ) -> Walk<'r, W> {
        Walk {
            rng,
            total,
            stop,
            found: 0,
            halt: None,
            memo: Memo::take(),
        }
    }

    /// Takes `work` from the bound; false (the reason in `halt`) when it
    /// ran out or the stop flag is raised.
    #[inline(always)]
    fn spend(&mut self, work: u64) -> bool {
        let total = self.total;
        self.total = total.saturating_sub(work);
        self.halt = if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(Halt::Stop)
        } else if total <= work {
            Some(Halt::Stall)
        } else {
            return true;
        };
        false
    }
}

impl<const W: usize> Drop for Walk<'_, W>
where
    State<W>: Pooled,
{
    fn drop(&mut self) {
        std::mem::take(&mut self.memo).give_back();
    }
}

/// Why a walk stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// Its work bound: hand the board to clause learning.
    Stall,
    /// The stop flag.
    Stop,
}

/// Each width's memos, kept by the thread ([`Pooled`]).
macro_rules! pooled {
    ($($w:literal)*) => {$(
        impl Pooled for State<$w> {
            fn pool() -> &'static std::thread::LocalKey<std::cell::Cell<Memo<State<$w>>>> {
                thread_local!(static POOL: std::cell::Cell<Memo<State<$w>>> = const {
                    std::cell::Cell::new(Memo::new())
                });
                &POOL
            }
        }
    )*};
}
pooled!(1 2 3 4);

impl<const W: usize, T: Tally> Solver<W, T>
where
    State<W>: Pooled,
{
    fn new(g: Geometry, strong: bool) -> Solver<W, T> {
        let t = Tables::of(g);
        Solver {
            g,
            n: g.size(),
            t,
            all: words(&t.all),
            strong,
            tally: T::default(),
        }
    }

    /// Reads givens into a state; `None` when two givens clash in a unit.
    fn start(&self, cells: &[u8]) -> Option<State<W>> {
        let open_all = (1u64 << (3 * self.n)) - 1;
        let mut s = State {
            pos: [[0; W]; MAX_N],
            solved: [0; W],
            open: [0; MAX_N],
            dirty: [0; MAX_N],
            unlocked: (1 << self.n) - 1,
        };
        for d in 0..self.n {
            s.pos[d] = self.all;
            s.open[d] = open_all;
            s.dirty[d] = open_all;
        }
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                let d = usize::from(v - 1);
                if (s.pos[d][i / 64] >> (i % 64)) & 1 == 0 {
                    return None;
                }
                self.place(&mut s, d, i);
            }
        }
        Some(s)
    }

    /// Fixes symbol `d + 1` in cell `i`.
    #[inline(always)]
    fn place(&self, s: &mut State<W>, d: usize, i: usize) {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let units = self.t.unit_bits[i];
        // A symbol that could go in the cell lost a place in its three units.
        for (p, dirty) in s.pos[..self.n].iter_mut().zip(&mut s.dirty[..self.n]) {
            let had = (p[w] & b) >> (i % 64);
            p[w] &= !b;
            *dirty |= units & had.wrapping_neg();
        }
        self.place_single(s, d, i);
    }

    /// Fixes symbol `d + 1` in cell `i` when it is the cell's only
    /// candidate (no other symbol loses a place).
    #[inline(always)]
    fn place_single(&self, s: &mut State<W>, d: usize, i: usize) {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let units = self.t.unit_bits[i];
        // The placed symbol lost its places among the peers: the units through them.
        let peers = &self.t.peers[i];
        let mut lost = 0;
        for (k, word) in s.pos[d].iter_mut().enumerate() {
            lost |= self.units_through(*word & peers[k], k);
            *word &= !peers[k];
        }
        s.pos[d][w] |= b;
        s.solved[w] |= b;
        s.open[d] &= !units;
        s.dirty[d] |= lost;
    }

    /// The units (bits of the 3N) through the cells of `cells`, word `k` of a board.
    #[inline(always)]
    fn units_through(&self, mut cells: u64, k: usize) -> u64 {
        let mut units = 0;
        while cells != 0 {
            units |= self.t.unit_bits[64 * k + cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        units
    }

    /// Applies naked and hidden singles until nothing changes; false on a contradiction.
    #[inline]
    fn propagate(&self, s: &mut State<W>) -> bool {
        self.propagate_with(s, self.strong)
    }

    /// [`Self::propagate`], with locked candidates (`lock`) or singles only.
    #[inline]
    fn propagate_with(&self, s: &mut State<W>, lock: bool) -> bool {
        loop {
            let mut one = [0u64; W];
            let mut two = [0u64; W];
            for p in &s.pos[..self.n] {
                for k in 0..W {
                    two[k] |= one[k] & p[k];
                    one[k] |= p[k];
                }
            }
            if one != self.all {
                return false; // a cell with no candidate
            }
            let mut placed = false;
            for k in 0..W {
                let mut singles = !two[k] & !s.solved[k] & self.all[k];
                while singles != 0 {
                    let bit = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let i = 64 * k + bit;
                    match s.pos[..self.n].iter().position(|p| (p[k] >> bit) & 1 != 0) {
                        Some(d) => self.place_single(s, d, i),
                        None => return false,
                    }
                    placed = true;
                }
            }
            if placed {
                continue;
            }
            if s.solved == self.all {
                return true;
            }
            let mut changed = false;
            for d in 0..self.n {
                let mut open = s.open[d] & s.dirty[d];
                // (`lock` is on only for the strong search; a probe's child,
                // `lock` off, gets its bits from `changed`.)
                if lock {
                    s.unlocked |= u32::from(open != 0) << d;
                }
                s.dirty[d] = 0;
                while open != 0 {
                    let u = open.trailing_zeros() as usize;
                    open &= open - 1;
                    let unit = &self.t.units[u];
                    let mut x = [0u64; W];
                    for k in 0..W {
                        x[k] = s.pos[d][k] & unit[k];
                    }
                    match ones_upto2(&x) {
                        0 => return false, // the symbol has no place in this unit
                        1 => {
                            self.place(s, d, first_bit(&x));
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
            // Locked candidates only once singles are exhausted.
            if !(changed || lock && self.locked(s)) {
                return true;
            }
        }
    }

    /// Locked candidates: a symbol whose places in a box all lie on one
    /// line leaves the rest of that line, and one whose places on a line all
    /// lie in one box leaves the rest of that box. A symbol that lost no
    /// place since its last check is skipped (its segments are as they were;
    /// on 16×16 the median count(2) is about 3% faster, the slowest 5%).
    /// True when a place went.
    fn locked(&self, s: &mut State<W>) -> bool {
        let mut changed = false;
        let stale = std::mem::take(&mut s.unlocked);
        let symbols = s.pos[..self.n]
            .iter_mut()
            .zip(&s.open[..self.n])
            .zip(&mut s.dirty[..self.n]);
        for (d, ((p, &open), dirty)) in symbols.enumerate() {
            if (stale >> d) & 1 != 0 && self.lock_symbol(p, open) {
                *dirty = u64::MAX;
                changed = true;
            }
        }
        changed
    }

    /// Locked candidates for one symbol, its places `p` and open units
    /// `open`; true when a place went. 16×16 boards take [`locked16`],
    /// which looks at every segment, open or not: where the symbol is
    /// fixed in the box or on the line, [`Self::place_single`] cleared it
    /// from the peers already, so those segments clear nothing.
    #[inline]
    fn lock_symbol(&self, p: &mut [u64; W], open: u64) -> bool {
        if self.t.box_rows == 4
            && self.t.box_cols == 4
            && let Ok(p) = <&mut [u64; 4]>::try_from(&mut p[..])
        {
            return locked16::lock(p);
        }
        self.lock_segments(p, open)
    }

    /// [`Self::lock_symbol`] on any geometry, a box/line segment at a time.
    fn lock_segments(&self, p: &mut [u64; W], open: u64) -> bool {
        let mut changed = false;
        let live = self.open_segments(open);
        for (w, &word) in live.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let seg = &self.t.segments[64 * w + word.trailing_zeros() as usize];
                word &= word - 1;
                let (mut on, mut box_rest, mut line_rest) = (0, 0, 0);
                for k in 0..W {
                    on |= p[k] & seg.cells[k];
                    box_rest |= p[k] & seg.box_rest[k];
                    line_rest |= p[k] & seg.line_rest[k];
                }
                if on == 0 || (box_rest != 0) == (line_rest != 0) {
                    continue;
                }
                let gone = if box_rest == 0 {
                    &seg.line_rest
                } else {
                    &seg.box_rest
                };
                for k in 0..W {
                    p[k] &= !gone[k];
                }
                changed = true;
            }
        }
        changed
    }

    /// The segments whose box and line both still miss a symbol whose
    /// open units are `open` (bit j: segment j; a symbol fixed in the box or
    /// on the line has nothing to lock there), built a box at a time
    /// rather than tested a segment at a time: that test was the most
    /// mispredicted branch of a 16×16 search.
    #[inline(always)]
    fn open_segments(&self, open: u64) -> [u64; SEGMENT_WORDS] {
        let (rows, cols) = (self.t.box_rows, self.t.box_cols);
        let mut live = [0u64; SEGMENT_WORDS];
        for (b, &(row0, col0)) in self.t.box_lines.iter().enumerate() {
            let lines =
                (open >> row0) & ((1 << rows) - 1) | ((open >> col0) & ((1 << cols) - 1)) << rows;
            let boxed = (open >> (2 * self.n + b)) & 1;
            let at = b * (rows + cols);
            let bits = u128::from(lines & boxed.wrapping_neg()) << (at % 64);
            live[at / 64] |= bits as u64;
            live[at / 64 + 1] |= (bits >> 64) as u64;
        }
        live
    }

    /// The unfixed cell with the fewest candidates (every unfixed cell has at least two).
    #[inline]
    fn branch_cell(&self, s: &State<W>) -> usize {
        // Bit-sliced candidate counters: plane j holds bit j of each cell's count.
        let mut planes = [[0u64; W]; 5];
        for p in &s.pos[..self.n] {
            for k in 0..W {
                let mut carry = p[k];
                for plane in planes.iter_mut() {
                    let sum = plane[k] ^ carry;
                    carry &= plane[k];
                    plane[k] = sum;
                }
            }
        }
        let mut free = [0u64; W];
        for k in 0..W {
            free[k] = !s.solved[k] & self.all[k];
        }
        for count in 2..=self.n {
            let mut exact = free;
            for (j, plane) in planes.iter().enumerate() {
                for k in 0..W {
                    exact[k] &= if (count >> j) & 1 != 0 {
                        plane[k]
                    } else {
                        !plane[k]
                    };
                }
            }
            if !is_zero(&exact) {
                return first_bit(&exact);
            }
        }
        first_bit(&free)
    }

    /// Depth-first search from a propagated state; calls `found` on each
    /// solution and stops when it returns true. Returns true when stopped.
    /// With `rng`, the candidates of a branch are tried in random order.
    fn search(
        &self,
        s: &State<W>,
        walk: &mut Walk<W>,
        found: &mut impl FnMut(&State<W>) -> bool,
    ) -> bool {
        if s.solved == self.all {
            walk.found += 1;
            if walk.found >= KEEP_LIMIT {
                walk.total = u64::MAX; // too many to hand over: no bound
            }
            return found(s);
        }
        if self.strong {
            return self.search_probing(s, walk, found);
        }
        self.branch(s, self.branch_cell(s), walk, found)
    }

    /// Tries each candidate of cell `i` (in random order with `rng`).
    fn branch(
        &self,
        s: &State<W>,
        i: usize,
        walk: &mut Walk<W>,
        found: &mut impl FnMut(&State<W>) -> bool,
    ) -> bool {
        let (w, bit) = (i / 64, i % 64);
        let mut order = [0u8; MAX_N];
        let mut len = 0;
        for d in 0..self.n {
            if (s.pos[d][w] >> bit) & 1 != 0 {
                order[len] = d as u8;
                len += 1;
            }
        }
        if let Some(r) = walk.rng.as_deref_mut() {
            r.shuffle(&mut order[..len]);
        }
        for &d in &order[..len] {
            let mut t = *s;
            self.place(&mut t, usize::from(d), i);
            if self.propagate(&mut t) && self.search(&t, walk, found) {
                return true;
            }
        }
        false
    }

    /// Unfixed cells with exactly two candidates.
    fn bivalue(&self, s: &State<W>) -> [u64; W] {
        let (mut one, mut two, mut three) = ([0u64; W], [0u64; W], [0u64; W]);
        for p in &s.pos[..self.n] {
            for k in 0..W {
                three[k] |= two[k] & p[k];
                two[k] |= one[k] & p[k];
                one[k] |= p[k];
            }
        }
        std::array::from_fn(|k| two[k] & !three[k] & !s.solved[k] & self.all[k])
    }

    /// The search of the strong solver: every two-candidate cell is probed
    /// (each candidate placed, singles propagated); a cell one of whose
    /// candidates fails at once fixes the other without a branch, and
    /// otherwise the branch is the cell whose two children fix the most
    /// cells (the second cell of a naked pair is not probed: its children
    /// are the first one's). Probing cuts the rare huge search trees of minimal 12×12 and
    /// 16×16 puzzles (a 16×16 that took 290,000 nodes takes 500). A cell
    /// an ancestor probed starts from that probe's children ([`memo`]).
    fn search_probing(
        &self,
        s: &State<W>,
        walk: &mut Walk<W>,
        found: &mut impl FnMut(&State<W>) -> bool,
    ) -> bool {
        let mark = walk.memo.len();
        let stop = self.probe_node(s, walk, found);
        walk.memo.pop_to(mark);
        stop
    }

    /// [`Self::search_probing`] but for dropping the node's pairs from the memo.
    fn probe_node(
        &self,
        s: &State<W>,
        walk: &mut Walk<W>,
        found: &mut impl FnMut(&State<W>) -> bool,
    ) -> bool {
        let pairs = self.bivalue(s);
        // The work of a node: itself and the cells it may probe.
        let work = pairs.iter().map(|w| w.count_ones()).sum::<u32>();
        if !walk.spend(1 + u64::from(work)) {
            return true; // out of budget, or stopped: `walk.halt` says which
        }
        self.tally.note(|t| {
            t.nodes += 1;
            t.work += 1 + u64::from(work);
        });
        if is_zero(&pairs) {
            self.tally.note(|t| t.branches += 1);
            return self.branch(s, self.branch_cell(s), walk, found);
        }
        let fixed = |t: &State<W>| t.solved.iter().map(|w| w.count_ones()).sum::<u32>();
        // The best pair so far: its score and its index in the memo.
        let mut best: Option<(u32, usize)> = None;
        // Probed cells: a peer with the same two candidates (the other cell
        // of a naked pair) would give the same two children, so it is skipped.
        let mut probed = [0u64; W];
        let mut probes = 0;
        for (k, &word) in pairs.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                let i = 64 * k + bit;
                let mut symbols = (0..self.n).filter(|&d| (s.pos[d][k] >> bit) & 1 != 0);
                let (Some(da), Some(db)) = (symbols.next(), symbols.next()) else {
                    continue;
                };
                let peers = &self.t.peers[i];
                if (0..W).any(|j| peers[j] & probed[j] & s.pos[da][j] & s.pos[db][j] != 0) {
                    continue;
                }
                probed[k] |= 1 << bit;
                probes += 2;
                // Both children, in place in the memo.
                let (held, pair) = walk.memo.start(i, s);
                if held {
                    self.tally.note(|t| t.narrowed += 2);
                }
                let [ok_a, ok_b] = [(0, da), (1, db)].map(|(c, d)| {
                    let t = &mut pair[c];
                    if held {
                        self.narrow(t, s)
                    } else {
                        self.probe(t, d, i)
                    }
                });
                #[cfg(test)]
                self.check_probe(s, i, [da, db], [ok_a, ok_b], walk.memo.started());
                let forced = |t: &mut SearchStats| {
                    t.probes += probes;
                    t.probes_forcing += probes;
                    t.forced += 1;
                };
                match (ok_a, ok_b) {
                    (false, false) => {
                        walk.total = walk.total.saturating_sub(REFUTED_WORK);
                        walk.memo.drop_started();
                        self.tally.note(|t| {
                            t.probes += probes;
                            t.refuted += 1;
                        });
                        return false;
                    }
                    (true, false) | (false, true) => {
                        let child = walk.memo.started()[usize::from(ok_b)];
                        walk.memo.drop_started();
                        self.tally.note(forced);
                        return self.descend(s, child, walk, found);
                    }
                    (true, true) => {
                        let [a, b] = walk.memo.started();
                        let score = fixed(a) + fixed(b);
                        let at = walk.memo.keep(i, self.n * self.n);
                        if best.is_none_or(|(most, _)| score > most) {
                            best = Some((score, at));
                        }
                    }
                }
            }
        }
        // (Not reached: the first two-candidate cell is always probed, and
        // it returns or sets `best`; so every node is a branch, a forced
        // or a refuted one.)
        let Some((_, at)) = best else {
            return false;
        };
        self.tally.note(|t| {
            t.probes += probes;
            t.branches += 1;
        });
        // The child that fixed more cells first: on 16×16 the slowest first
        // solution takes 2.5 ms instead of 3.3 ms.
        let swap = {
            let [a, b] = walk.memo.pair(at);
            fixed(b) > fixed(a)
        };
        let order = if swap { [1, 0] } else { [0, 1] };
        // (The second child is read after the first returns: its search
        // may have grown the memo.)
        self.descend(s, walk.memo.pair(at)[order[0]], walk, found)
            || self.descend(s, walk.memo.pair(at)[order[1]], walk, found)
    }

    /// Places symbol `d + 1` in cell `i` of `t` and propagates singles (a
    /// probe's child); false on a contradiction.
    #[inline]
    fn probe(&self, t: &mut State<W>, d: usize, i: usize) -> bool {
        self.place(t, d, i);
        self.propagate_with(t, false)
    }

    /// A probe's child in `s` (a candidate placed, singles propagated; false on
    /// a contradiction) from `t`, the child of the same probe in an
    /// ancestor of `s`: `t` narrowed to the candidates of `s` propagates to
    /// the same state ([`memo`]). Both are propagated, so a symbol has two
    /// places or more in each unit still missing it in either; a unit where
    /// the narrowed state has fewer (a hidden single, or none) lost places
    /// from both, and only those are marked for a check.
    #[inline]
    fn narrow(&self, t: &mut State<W>, s: &State<W>) -> bool {
        let mut narrowed = false;
        for d in 0..self.n {
            let lost_t: [u64; W] = std::array::from_fn(|k| t.pos[d][k] & !s.pos[d][k]);
            if is_zero(&lost_t) {
                continue; // `t` has no place of the symbol that `s` has not
            }
            narrowed = true;
            let lost_s: [u64; W] = std::array::from_fn(|k| s.pos[d][k] & !t.pos[d][k]);
            if !is_zero(&lost_s) {
                let (mut units_t, mut units_s) = (0, 0);
                for k in 0..W {
                    units_t |= self.units_through(lost_t[k], k);
                    units_s |= self.units_through(lost_s[k], k);
                }
                t.dirty[d] = units_t & units_s;
            }
            for k in 0..W {
                t.pos[d][k] &= s.pos[d][k];
            }
            t.open[d] &= s.open[d];
        }
        if !narrowed {
            return true; // `t` is the child in `s` already
        }
        for k in 0..W {
            t.solved[k] |= s.solved[k];
        }
        self.propagate_with(t, false)
    }

    /// Tests: both children of probing cell `i` of `s` (symbols `ds`),
    /// however they were reached, are what placing each candidate in `s`
    /// and propagating gives.
    #[cfg(test)]
    fn check_probe(
        &self,
        s: &State<W>,
        i: usize,
        ds: [usize; 2],
        ok: [bool; 2],
        got: &[State<W>; 2],
    ) {
        for ((d, ok), t) in ds.into_iter().zip(ok).zip(got) {
            let mut want = *s;
            assert_eq!(
                ok,
                self.probe(&mut want, d, i),
                "cell {i}, symbol {}",
                d + 1
            );
            if ok {
                assert_eq!(
                    t.pos[..self.n],
                    want.pos[..self.n],
                    "cell {i}, symbol {}",
                    d + 1
                );
                assert_eq!(t.solved, want.solved);
                assert_eq!(t.open[..self.n], want.open[..self.n]);
                // (Propagation stops once every cell is fixed, with units
                // still marked; it clears every mark otherwise.)
                if want.solved != self.all {
                    assert_eq!(t.dirty[..self.n], want.dirty[..self.n]);
                }
            }
        }
    }

    /// Searches `child`, a probe's child of `s`, once locked candidates
    /// are applied to it: the symbols whose places differ from `s` are the
    /// ones to check (`s`, propagated with them, has nothing to lock).
    fn descend(
        &self,
        s: &State<W>,
        mut child: State<W>,
        walk: &mut Walk<W>,
        found: &mut impl FnMut(&State<W>) -> bool,
    ) -> bool {
        let mut changed = 0;
        for (d, (p, q)) in child.pos[..self.n].iter().zip(&s.pos[..self.n]).enumerate() {
            changed |= u32::from(p != q) << d;
        }
        child.unlocked = changed;
        self.propagate(&mut child) && self.search(&child, walk, found)
    }

    /// The cells of a fully fixed state.
    fn grid(&self, s: &State<W>, out: &mut [u8]) {
        for (d, p) in s.pos[..self.n].iter().enumerate() {
            for (k, &word) in p.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    out[64 * k + bit] = d as u8 + 1;
                }
            }
        }
    }

    /// Whether start `cells` have a solution without symbol `d + 1` in cell `i`.
    fn solvable_without(&self, cells: &[u8], i: usize, d: usize) -> bool {
        let Some(mut s) = self.start(cells) else {
            return false;
        };
        s.pos[d][i / 64] &= !(1 << (i % 64));
        self.propagate(&mut s) && self.search(&s, &mut Walk::new(None), &mut |_: &State<W>| true)
    }

    /// Runs the search on start `cells`, calling `found` with each
    /// solution's cells until it returns true; false when `stop` was
    /// raised before the search finished.
    ///
    /// The strong search without `rng` (solve, count) runs within a bound
    /// on its work ([`HANDOVER`]); past it the board goes to clause
    /// learning ([`cdcl`]), which reports the solutions not reported yet,
    /// so counts stay exact and no board keeps the search for long. (A
    /// sparse 16×16 start whose search went wrong early, into a part
    /// without a solution that probing cannot refute, took seconds to
    /// minutes; counting on a partial grid with a quarter of its cells
    /// given, longer.)
    fn run(
        &self,
        cells: &[u8],
        rng: Option<&mut SplitMix64>,
        stop: Option<&AtomicBool>,
        found: &mut impl FnMut(&[u8]) -> bool,
    ) -> bool {
        self.run_capped(cells, rng, stop, found, HANDOVER)
    }

    /// [`Self::run`] with the bound `total` (the tests make handovers
    /// happen on small boards with tiny ones).
    fn run_capped(
        &self,
        cells: &[u8],
        rng: Option<&mut SplitMix64>,
        stop: Option<&AtomicBool>,
        found: &mut impl FnMut(&[u8]) -> bool,
        total: u64,
    ) -> bool {
        let Some(mut s) = self.start(cells) else {
            return true;
        };
        if !self.propagate(&mut s) {
            return true;
        }
        let mut buf = [0u8; MAX_N * MAX_N];
        let out = &mut buf[..cells.len()];
        if rng.is_some() || !self.strong {
            self.search(&s, &mut Walk::new(rng), &mut |t: &State<W>| {
                self.grid(t, out);
                found(out)
            });
            return true;
        }
        // The solutions reported, one after another: clause learning
        // blocks them when the board is handed over.
        let mut kept: Vec<u8> = Vec::new();
        let mut walk = Walk::cut(None, total, stop);
        self.search(&s, &mut walk, &mut |t: &State<W>| {
            self.grid(t, out);
            if kept.len() < KEEP_LIMIT as usize * out.len() {
                kept.extend_from_slice(out);
            }
            found(out)
        });
        let halt = walk.halt;
        // (Its memo back to the thread's pool.)
        drop(walk);
        match halt {
            None => true, // finished, or stopped by `found`
            Some(Halt::Stop) => false,
            Some(Halt::Stall) => self.learn(cells, &kept, stop, found),
        }
    }

    /// Hands start `cells` to clause learning ([`cdcl`]), the solutions in
    /// `kept` already reported; false when `stop` was raised first.
    fn learn(
        &self,
        cells: &[u8],
        kept: &[u8],
        stop: Option<&AtomicBool>,
        found: &mut impl FnMut(&[u8]) -> bool,
    ) -> bool {
        // The candidates of the propagated start (the same solutions,
        // fewer variables), or the givens' when they clash or fail.
        let mut cands = cdcl::candidates(self.g, cells);
        if let Some(mut s) = self.start(cells)
            && self.propagate(&mut s)
        {
            cands.iter_mut().for_each(|m| *m = 0);
            for (d, p) in s.pos[..self.n].iter().enumerate() {
                for (k, &word) in p.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        cands[64 * k + word.trailing_zeros() as usize] |= 1 << d;
                        word &= word - 1;
                    }
                }
            }
        }
        let (end, work) = cdcl::run(self.g, &cands, kept, stop, found);
        self.tally.note(|t| {
            t.handovers += 1;
            t.conflicts += work.conflicts;
        });
        end == cdcl::End::Finished
    }
}

/// The work (search nodes, each counting its two-candidate cells too, and
/// [`REFUTED_WORK`] for each refuted node) of the strong search, solutions
/// or not, past which the board goes to clause learning ([`cdcl`]). A
/// count to two of a minimal 16×16 puzzle takes at most 24,154 so (16,254
/// work and 79 refuted nodes; seeds 0..400 of the generator, median work
/// 1,539; data/minimal_slowest.txt keeps the slowest, and none hands
/// over): clause learning is no cure for those, it took 77-1,031 conflicts
/// and up to 20 ms on the seven that passed 10,000 work, where the search
/// alone takes 3.5-4.3 ms. On a partial grid that stalls it takes a few
/// conflicts (docs/family.md, "Worst case").
const HANDOVER: u64 = 30_000;

/// The extra work a refuted node (both candidates of a probed cell fail)
/// counts towards [`HANDOVER`]: a search that keeps meeting dead ends is
/// what clause learning cures. Partial grids that stall refute a node in
/// every 3-8 (data/partial_slowest.txt), a minimal puzzle's search one in
/// 6-20, so with this weight the partial grids hand over at about the
/// point they did at a bound of 10,000 work alone, and no minimal puzzle
/// does.
const REFUTED_WORK: u64 = 100;

/// The most solutions the strong search keeps for a handover (2.5 MB on
/// 16×16): past them its bound is off (a count to more goes on with the
/// search alone, as it did before clause learning; its flag still stops it).
const KEEP_LIMIT: u64 = 10_000;

/// Term `i` (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...
fn luby(mut i: u64) -> u64 {
    loop {
        let k = 64 - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// A search path of the solver. Every path has one signature: start cells
/// of its geometry in, each solution's cells out to `found` until it returns
/// true; so every fast path is checked against the generic one by the same
/// table of boards (see the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// The generic bitboard solver, at the width the board needs.
    Generic,
    /// The 9×9 band solver ([`bands`]).
    Bands,
    /// The 8×8 solver of the uint256 board ([`octoku`]); it draws no random order.
    Octoku,
}

impl Path {
    /// The path [`solve`], [`count`] and [`solve_random`] take for `g`:
    /// the band solver for 9×9, the uint256 solver for 8×8 unless the
    /// search must draw a `random` order (it draws none), the generic
    /// solver otherwise.
    fn of(g: Geometry, random: bool) -> Path {
        if g == Geometry::CLASSIC {
            Path::Bands
        } else if g == Geometry::OCTOKU && !random {
            Path::Octoku
        } else {
            Path::Generic
        }
    }

    /// Runs the search on the cells of `g`; false when `stop` was raised
    /// before it finished. The generic path looks at `stop` at every node
    /// of its search and every conflict of clause learning; the 9×9 and
    /// 8×8 paths, whose searches without a solution take milliseconds at
    /// most, between solutions.
    pub(crate) fn run(
        self,
        g: Geometry,
        cells: &[u8],
        rng: Option<&mut SplitMix64>,
        stop: Option<&AtomicBool>,
        found: &mut impl FnMut(&[u8]) -> bool,
    ) -> bool {
        let raised = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let mut halted = false;
        let mut between = |cells: &[u8]| {
            halted = raised();
            halted || found(cells)
        };
        match self {
            Path::Bands => bands::run(cells, rng, &mut between),
            Path::Octoku => {
                let cells: &[u8; 64] = cells.try_into().expect("the 8x8 path takes 64 cells");
                octoku::run(cells, &mut between)
            }
            Path::Generic => {
                return with_solver!(g, rng.is_none(), (), |solver| {
                    solver.run(cells, rng, stop, found)
                });
            }
        }
        !halted
    }
}

/// Runs the search the board's geometry takes; false when stopped.
fn run(
    board: &Grid,
    rng: Option<&mut SplitMix64>,
    stop: Option<&AtomicBool>,
    found: &mut impl FnMut(&[u8]) -> bool,
) -> bool {
    let g = board.geometry();
    Path::of(g, rng.is_some()).run(g, board.cells(), rng, stop, found)
}

/// A search stopped before its answer: the flag it was given was raised
/// ([`solve_counting_until`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped before it finished")]
pub struct Stopped;

/// Solves a board: `Some(grid)` keeps every given; `None` means no solution.
pub fn solve(board: &Grid) -> Option<Grid> {
    let mut out = None;
    run(board, None, None, &mut |cells: &[u8]| {
        out = Grid::from_cells(board.geometry(), cells).ok();
        true
    });
    out
}

/// A solution picked at random (the candidates of each branch in an order
/// drawn from `rng`): the same seed gives the same grid.
pub fn solve_random(board: &Grid, rng: &mut SplitMix64) -> Option<Grid> {
    let mut out = None;
    run(board, Some(rng), None, &mut |cells: &[u8]| {
        out = Grid::from_cells(board.geometry(), cells).ok();
        true
    });
    out
}

/// Counts the solutions of a board, exactly up to `limit` (the count stops there).
pub fn count(board: &Grid, limit: u64) -> u64 {
    if limit == 0 {
        return 0;
    }
    let mut n = 0u64;
    run(board, None, None, &mut |_: &[u8]| {
        n += 1;
        n >= limit
    });
    n
}

/// The first solution of a board and how many it has, exactly up to
/// `limit` (at least 1), from one search (what [`solve`] and [`count`]
/// give apart).
pub fn solve_counting(board: &Grid, limit: u64) -> (Option<Grid>, u64) {
    let never = AtomicBool::new(false);
    solve_counting_until(board, limit, &never).unwrap_or((None, 0))
}

/// [`solve_counting`], stopped when another thread raises `stop` (a
/// deadline's timer, a client gone): `Err(Stopped)` then. The search looks
/// at the flag at each node (and each conflict once clause learning took
/// over), so it stops within a fraction of a millisecond; on 9×9 and 8×8,
/// whose searches without a solution take milliseconds at most, between
/// solutions.
pub fn solve_counting_until(
    board: &Grid,
    limit: u64,
    stop: &AtomicBool,
) -> Result<(Option<Grid>, u64), Stopped> {
    let limit = limit.max(1);
    let mut first = None;
    let mut n = 0u64;
    let finished = run(board, None, Some(stop), &mut |cells: &[u8]| {
        if first.is_none() {
            first = Grid::from_cells(board.geometry(), cells).ok();
        }
        n += 1;
        n >= limit
    });
    if finished {
        Ok((first, n))
    } else {
        Err(Stopped)
    }
}

/// The largest side for which [`solvable_without`] searches without
/// locked candidates and probing: on the generator's boards up to 12×12 the
/// plain search is faster (12×12 median per puzzle 1.3 ms against 4.4 ms),
/// on 16×16 the strong one (39 ms against 148 ms, docs/family.md).
const STRONG_WITHOUT: usize = 12;

/// Whether `board` has a solution that does not put `symbol` in the cell at
/// reading index `cell` (an empty cell of the board; a symbol 1..=N).
///
/// The generator's test for a removed given: when the board with `symbol`
/// back in `cell` has one solution, the board has another exactly when it
/// has a solution without it, and that search (one solution or none) is
/// much shorter than counting to two.
pub fn solvable_without(board: &Grid, cell: usize, symbol: u8) -> bool {
    let g = board.geometry();
    let (cells, d) = (board.cells(), usize::from(symbol) - 1);
    with_solver!(g, g.size() > STRONG_WITHOUT, (), |solver| {
        solver.solvable_without(cells, cell, d)
    })
}

/// Whether a board has exactly one solution.
pub fn is_unique(board: &Grid) -> bool {
    count(board, 2) == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::solved_grid;
    use proptest::prelude::*;
    use std::cell::Cell;

    /// Every solution of `cells` on `path`, up to `limit`.
    fn solutions(path: Path, g: Geometry, cells: &[u8], limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        path.run(g, cells, None, None, &mut |s: &[u8]| {
            out.push(s.to_vec());
            out.len() >= limit
        });
        out
    }

    /// A random start of `g`: a random solved grid with `keep` of 256 of its
    /// cells kept, and `noise` random givens written over it (which may make
    /// it unsolvable).
    fn random_start(g: Geometry, seed: u64, keep: u8, noise: &[(usize, u8)]) -> Grid {
        let mut rng = SplitMix64::new(seed);
        let grid = solved_grid(g, &mut rng);
        let n = g.size();
        let mut cells: Vec<u8> = grid
            .cells()
            .iter()
            .map(|&v| {
                if rng.below(256) < u64::from(keep) {
                    v
                } else {
                    0
                }
            })
            .collect();
        for &(i, v) in noise {
            cells[i % (n * n)] = v % (n as u8 + 1);
        }
        Grid::from_cells(g, &cells).expect("values 0..=N")
    }

    /// The fast path's answers on `start` equal the generic solver's: the same
    /// number of solutions (up to 12), each a valid grid keeping the givens.
    fn agrees(fast: Path, start: &Grid) -> Result<(), TestCaseError> {
        let g = start.geometry();
        let generic = solutions(Path::Generic, g, start.cells(), 12);
        let quick = solutions(fast, g, start.cells(), 12);
        prop_assert_eq!(quick.len(), generic.len(), "{:?} on {:?}", fast, start);
        for s in quick.iter().chain(&generic) {
            let s = Grid::from_cells(g, s).expect("a solution holds symbols");
            prop_assert!(
                crate::rules::is_solution(start, &s),
                "{:?} gave {:?}",
                fast,
                s
            );
        }
        let mut quick = quick;
        let mut generic = generic;
        quick.sort();
        generic.sort();
        if quick.len() < 12 {
            prop_assert_eq!(quick, generic, "the same solutions");
        }
        Ok(())
    }

    proptest! {
        /// The 9×9 band path and the 8×8 uint256 path find the same solutions
        /// as the generic solver on random starts of their size (sparse ones
        /// with many solutions, dense ones, and contradictory ones).
        #[test]
        fn every_fast_path_agrees_with_the_generic_solver(
            seed in any::<u64>(),
            keep in 0u8..=255,
            noise in proptest::collection::vec((0usize..81, 0u8..10), 0..3),
        ) {
            agrees(Path::Bands, &random_start(Geometry::CLASSIC, seed, keep, &noise))?;
            agrees(Path::Octoku, &random_start(Geometry::OCTOKU, seed, keep, &noise))?;
        }
    }

    /// Every solution (up to `limit`) of the generic solver, strong (locked
    /// candidates, probing) or plain (singles, fewest-candidates branching).
    fn generic_solutions(g: Geometry, cells: &[u8], strong: bool, limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut found = |s: &[u8]| {
            out.push(s.to_vec());
            out.len() >= limit
        };
        with_solver!(g, strong, (), |solver| solver
            .run(cells, None, None, &mut found));
        out.sort();
        out
    }

    /// The givens kept (of 256) and the noise used on an `n`×`n` start of
    /// the strong-versus-plain property. From 12×12 up, partial grids between
    /// about 10% and 78% givens have a heavy-tailed search time: one 16×16
    /// start with 15% givens (keep 38, seed 3714815344285489213) took the
    /// strong search 17 s to find 12 solutions, and runs drew cases of over
    /// 8 minutes. So those sizes draw sparse starts (at most 8% givens, many
    /// solutions) or dense ones (at least 78%), and only dense starts get
    /// noise (contradictions). Even at 2% givens a 16×16 start has taken
    /// 0.6 s, so the property runs on a fixed sequence of cases (see its
    /// config): the same cases every run, no run can draw a slow one.
    fn tractable(n: usize, keep: u8, noise: &[(usize, u8)]) -> (u8, &[(usize, u8)]) {
        if n < 12 {
            return (keep, noise);
        }
        if keep < 128 {
            (keep % 21, &[])
        } else {
            (200 + (keep - 128) % 56, noise)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x0c70_6b75),
            ..ProptestConfig::default()
        })]
        /// The strong generic search (locked candidates, probing) finds the same
        /// solutions as the plain one on random starts of 12×12, 16×16, 6×6 and
        /// 10×10 boards, sparse (many solutions), dense and contradictory.
        #[test]
        fn strong_search_finds_the_plain_searchs_solutions(
            n in prop::sample::select(vec![6usize, 10, 12, 16]),
            seed in any::<u64>(),
            keep in 0u8..=255,
            noise in proptest::collection::vec((0usize..256, 0u8..17), 0..3),
        ) {
            let g = Geometry::for_size(n).unwrap();
            let (keep, noise) = tractable(n, keep, &noise);
            let start = random_start(g, seed, keep, noise);
            let strong = generic_solutions(g, start.cells(), true, 12);
            let plain = generic_solutions(g, start.cells(), false, 12);
            prop_assert_eq!(strong.len(), plain.len());
            if strong.len() < 12 {
                prop_assert_eq!(strong, plain);
            }
        }
    }

    /// A sparse 16×16 start whose first branch leads into a part without a
    /// solution that probing cannot refute quickly: the search alone took
    /// 17 s to find a first solution; past its bound clause learning
    /// finds one at once. Its work and its first solution are pinned, so a
    /// lost handover, or an order that differs on another machine, fails.
    #[test]
    fn a_sparse_16x16_start_with_a_heavy_search_solves_at_once() {
        let g = Geometry::for_size(16).unwrap();
        let start = random_start(g, 3714815344285489213, 38, &[]);
        let solution = solve(&start).expect("a start cut from a solved grid");
        assert!(crate::rules::is_solution(&start, &solution));
        let s = search_stats(&start, 1);
        assert_eq!(
            (s.solutions, s.handovers, s.nodes, s.conflicts),
            (1, 1, 883, 3),
            "{s:?}"
        );
        assert_eq!(
            fnv1a(solution.cells()),
            3529863028672708873,
            "the first solution's FNV-1a hash"
        );
    }

    /// The FNV-1a hash of a board's cells.
    fn fnv1a(cells: &[u8]) -> u64 {
        cells.iter().fold(0xcbf2_9ce4_8422_2325, |h, &v| {
            (h ^ u64::from(v)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// On a start whose search hands over before its first solution (seed
    /// 1765288248144937629, keep 38), counting to 12 gives 12 distinct
    /// valid solutions, the first of them `solve`'s.
    #[test]
    fn counting_past_a_handover_gives_each_solution_once() {
        let g = Geometry::for_size(16).unwrap();
        let start = random_start(g, 1765288248144937629, 38, &[]);
        let mut all = solutions(Path::Generic, g, start.cells(), 12);
        let first = solve(&start).expect("a start cut from a solved grid");
        assert_eq!(all[0], first.cells());
        for s in &all {
            let s = Grid::from_cells(g, s).expect("a solution holds symbols");
            assert!(crate::rules::is_solution(&start, &s));
        }
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 12);
        assert_eq!(solve_counting(&start, 12), (Some(first), 12));
    }

    /// Every solution (up to `limit`, in the order found) of the strong
    /// search with the bound `total` (see `Solver::run_capped`), and its counts.
    fn cut_solutions(
        g: Geometry,
        cells: &[u8],
        total: u64,
        limit: usize,
    ) -> (Vec<Vec<u8>>, SearchStats) {
        let mut out = Vec::new();
        let mut found = |s: &[u8]| {
            out.push(s.to_vec());
            out.len() >= limit
        };
        let stats = with_solver!(g, true, Cell<SearchStats>, |solver| {
            assert!(solver.run_capped(cells, None, None, &mut found, total));
            solver.tally.get()
        });
        (out, stats)
    }

    /// No bound: the complete search alone.
    const UNCAPPED: u64 = u64::MAX;

    /// With a bound on the search's work small enough that most boards
    /// go to clause learning (some after the search reported solutions,
    /// some before their first), the solutions are exactly the complete
    /// search's, each once, and every start without one has none.
    #[test]
    fn clause_learning_takes_over_with_the_same_solutions() {
        let mut rng = SplitMix64::new(43);
        let (mut handed, mut after_some, mut none) = (0, 0, 0);
        for case in 0..240u64 {
            let n = [6, 9, 10, 12, 16][case as usize % 5];
            let g = Geometry::for_size(n).unwrap();
            let (keep, noise) = (
                rng.below(256) as u8,
                [(rng.below(256) as usize, rng.below(17) as u8)],
            );
            let (keep, noise) = tractable(n, keep, &noise[..(case % 2) as usize]);
            let start = random_start(g, rng.below(u64::MAX), keep, noise);
            let caps = rng.below(60);
            let limit = [1, 2, 12][case as usize % 3];
            let (cut, stats) = cut_solutions(g, start.cells(), caps, limit);
            let (whole, _) = cut_solutions(g, start.cells(), UNCAPPED, limit);
            assert_eq!(cut.len(), whole.len(), "{start:?} {caps:?}");
            let mut distinct = cut.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), cut.len(), "a solution twice: {start:?}");
            for s in &cut {
                let s = Grid::from_cells(g, s).expect("a solution holds symbols");
                assert!(crate::rules::is_solution(&start, &s), "{start:?}");
            }
            if whole.len() < limit {
                let mut whole = whole.clone();
                whole.sort();
                assert_eq!(distinct, whole, "{start:?} {caps:?}");
            }
            none += u32::from(whole.is_empty());
            handed += u32::from(stats.handovers > 0);
            // (A start whose search reported a solution before the bound.)
            let (early, _) = cut_solutions(g, start.cells(), UNCAPPED, 1);
            after_some += u32::from(stats.handovers > 0 && stats.nodes > 0 && early.len() == 1);
        }
        // The cases reach what they test.
        assert!(
            handed > 80 && after_some > 40 && none > 40,
            "{handed} handed over, {after_some} with solutions, {none} without a solution"
        );
    }

    /// Clause learning alone (a bound of 0) finds every solution of random
    /// starts of every size, as the complete search does.
    #[test]
    fn clause_learning_alone_finds_the_complete_searchs_solutions() {
        let mut rng = SplitMix64::new(7);
        for case in 0..150u64 {
            let n = [4, 6, 8, 9, 10, 12, 16][case as usize % 7];
            let g = Geometry::for_size(n).unwrap();
            let (keep, noise) = (
                rng.below(256) as u8,
                [(rng.below(256) as usize, rng.below(17) as u8)],
            );
            let (keep, noise) = tractable(n, keep, &noise[..(case % 2) as usize]);
            let start = random_start(g, rng.below(u64::MAX), keep, noise);
            let mut learnt = Vec::new();
            let cands = cdcl::candidates(g, start.cells());
            let (end, _) = cdcl::run(g, &cands, &[], None, &mut |s: &[u8]| {
                learnt.push(s.to_vec());
                learnt.len() >= 12
            });
            assert_eq!(end, cdcl::End::Finished);
            let (whole, _) = cut_solutions(g, start.cells(), UNCAPPED, 12);
            assert_eq!(learnt.len(), whole.len(), "{start:?}");
            learnt.sort();
            let before = learnt.len();
            learnt.dedup();
            assert_eq!(learnt.len(), before, "a solution twice: {start:?}");
            for s in &learnt {
                let s = Grid::from_cells(g, s).expect("a solution holds symbols");
                assert!(crate::rules::is_solution(&start, &s), "{start:?}");
            }
            if whole.len() < 12 {
                let mut whole = whole;
                whole.sort();
                assert_eq!(learnt, whole, "{start:?}");
            }
        }
    }

    #[test]
    fn locked16_ends_where_the_segment_loop_ends() {
        // Random places of one symbol, from half the cells down to a
        // sixteenth, with every unit open: both ways, repeated until
        // nothing changes, end in the same places, or both leave a unit
        // with none (a contradiction, where what is left does not matter).
        let solver = Solver::<4>::new(Geometry::for_size(16).expect("16x16"), true);
        let open = (1u64 << 48) - 1;
        let no_place = |q: &[u64; 4]| {
            let units = &solver.t.units;
            units.iter().any(|u| (0..4).all(|k| q[k] & u[k] == 0))
        };
        let mut rng = SplitMix64::new(16);
        let (mut changed, mut agreed) = (0, 0);
        for case in 0..4000 {
            let mut p = [u64::MAX; 4];
            for _ in 0..=case % 4 {
                for w in &mut p {
                    *w &= rng.next_u64();
                }
            }
            let (mut a, mut b) = (p, p);
            while solver.lock_segments(&mut a, open) {}
            while locked16::lock(&mut b) {}
            assert_eq!(no_place(&a), no_place(&b), "{p:x?}");
            if !no_place(&a) {
                assert_eq!(a, b, "{p:x?}");
                changed += usize::from(a != p);
                agreed += 1;
            }
        }
        // The cases compared are many, and many of them lost places.
        assert!(
            agreed > 1000 && changed > 300,
            "{agreed} compared, {changed} changed"
        );
    }

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn solve_takes_the_fast_paths_for_9x9_and_8x8() {
        assert_eq!(Path::of(Geometry::CLASSIC, false), Path::Bands);
        assert_eq!(Path::of(Geometry::CLASSIC, true), Path::Bands);
        assert_eq!(Path::of(Geometry::OCTOKU, false), Path::Octoku);
        // The uint256 path draws no random order: a random solve of an 8×8
        // board takes the generic one.
        assert_eq!(Path::of(Geometry::OCTOKU, true), Path::Generic);
        assert_eq!(
            Path::of(Geometry::for_size(16).unwrap(), false),
            Path::Generic
        );
        assert_eq!(
            Path::of(Geometry::for_size(6).unwrap(), false),
            Path::Generic
        );
    }
}

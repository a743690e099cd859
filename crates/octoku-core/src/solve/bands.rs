//! The 9×9 path of the solver: the same per-symbol bitboards, each cut into
//! its three bands (3 rows × 9 columns = 27 bits, bit `9 * row + col` inside
//! the band, so cell `27 * band + bit` in reading order).
//!
//! In a band, a symbol sits once in each of its 3 rows and once in each of
//! its 3 boxes, so which row holds it in which box is a permutation of 3.
//! The 9-bit pattern "row r has a place in box k" of a band is looked up in a
//! table of the places that some permutation can still use; every other place
//! goes (this is locked candidates, hidden singles in rows and boxes, and an
//! empty row or box, all at once). A box whose places lie in one column
//! takes that column from the other two bands. A row left with one place
//! fixes the symbol there. Cells (naked singles, bit-sliced over the nine
//! symbols) are checked when the bands are settled, then the same
//! permutation rule on the stacks (columns × bands: locked candidates and
//! hidden singles along columns), and the search branches on a cell with
//! two candidates of the symbol that can go in the most such cells (or the
//! emptiest cell). Every choice of the search reads the pattern of places
//! only: ties go by a hash of a symbol's places and a fixed scrambled
//! order of the cells, never by a symbol's label or the reading order, so
//! relabelled copies of a board search the same tree and shuffled copies
//! of a set about as many nodes. The same idea as bit-packed solvers such
//! as jczsolve; the code is this crate's own.
//!
//! Speed (figures and commands in docs/solver.md): each board keeps a copy
//! of itself as last settled, and a round settles exactly the boards that
//! differ from it, found by one vector compare of all 27 (SSE2 on x86-64,
//! a vectorizable loop elsewhere): no branch per board, no bookkeeping per
//! write. The whole search is compiled twice, portable and for
//! POPCNT/BMI1/BMI2/LZCNT ([`Fast`]: the pattern is one `pext`), and a
//! solve picks one by a run-time check. The search state is a `Copy` value
//! on the stack: nothing is allocated while solving.

use crate::rng::SplitMix64;

#[cfg(test)]
thread_local! {
    /// The search's nodes on this thread (tests only: the searches they
    /// count are deterministic, so the count is the same on any machine).
    static NODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// Row `r` of a band.
const fn row_mask(r: usize) -> u32 {
    0x1FF << (9 * r)
}

/// Column `c` of a band.
const fn col_mask(c: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << c
}

/// Box `k` (0-2, left to right) of a band.
const fn box_mask(k: usize) -> u32 {
    (7 | 7 << 9 | 7 << 18) << (3 * k)
}

/// For a 9-bit row of a band: bit k set when the row has a place in box k.
const fn row_boxes(x: u32) -> u32 {
    (x & 7 != 0) as u32 | ((x >> 3 & 7 != 0) as u32) << 1 | ((x >> 6 & 7 != 0) as u32) << 2
}

/// `KEEP[m]`, for a 9-bit pattern m (bit `3r + k`: row r has a place in box k):
/// the band cells of every (row, box) pair used by some permutation row → box
/// inside m; 0 when none fits.
///
/// | m (rows 0, 1, 2 as box bits)       | KEEP                            |
/// | ---------------------------------- | ------------------------------- |
/// | 0b001_010_100 (row0 box2, row1 box1, row2 box0) | those three 3-cell segments |
/// | 0b111_111_111 (every pair)          | all 27 cells                    |
/// | 0b001_001_110 (rows 1, 2 only box 0)| 0 (two rows need box 0)         |
const KEEP: [u32; 512] = build_keep();

const fn build_keep() -> [u32; 512] {
    // The six permutations of 3 as (box of row 0, box of row 1, box of row 2).
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut fits = true;
            let mut cells = 0u32;
            let mut r = 0;
            while r < 3 {
                let k = perm[r];
                if (m >> (3 * r + k)) & 1 == 0 {
                    fits = false;
                }
                cells |= 7 << (9 * r + 3 * k);
                r += 1;
            }
            if fits {
                keep |= cells;
            }
            p += 1;
        }
        out[m] = keep;
        m += 1;
    }
    out
}

/// `ROW_BOXES[x]`: [`row_boxes`] of every 9-bit row.
const ROW_BOXES: [u8; 512] = {
    let mut out = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        out[x] = row_boxes(x as u32) as u8;
        x += 1;
    }
    out
};

/// The 9-bit row/box pattern of a band.
#[inline(always)]
fn pattern(s: u32) -> usize {
    usize::from(ROW_BOXES[(s & 0x1FF) as usize])
        | usize::from(ROW_BOXES[(s >> 9 & 0x1FF) as usize]) << 3
        | usize::from(ROW_BOXES[(s >> 18 & 0x1FF) as usize]) << 6
}

/// [`pattern`] by BMI2: bit `9r + 3k` of `x | x >> 1 | x >> 2` tells
/// whether row r has a place in box k; `pext` gathers those 9 bits in order.
/// Only called where BMI2 is enabled (the fast build, [`Fast`]); elsewhere
/// it is the table form.
#[inline(always)]
fn pattern_pext(x: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: reached only through `settle_with::<true>`, which only
        // the fast build instantiates (target feature bmi2, entered after
        // the run-time check of `Fast::detected`).
        unsafe { std::arch::x86_64::_pext_u32(x | x >> 1 | x >> 2, 0o111_111_111) as usize }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        pattern(x)
    }
}

/// The places of band board `s` whose row holds no other (every row of `s`
/// holds at least one place).
#[inline(always)]
fn single_rows(s: u32) -> u32 {
    let mut solved = 0;
    for r in 0..3 {
        let row = s & row_mask(r);
        solved |= row & 0u32.wrapping_sub(u32::from(row & row.wrapping_sub(1) == 0));
    }
    solved
}

/// [`single_rows`] by BMI2: the three rows spread to 16-bit lanes (`pdep`),
/// each lane's lowest place cleared (no borrow crosses a lane: no row is
/// empty), a lane left empty was a single place; its row's cells gathered
/// back (`pext`). Only called where BMI2 is enabled, like [`pattern_pext`].
#[inline(always)]
fn single_rows_bmi2(s: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_pdep_u64, _pext_u64};
        const LANES: u64 = 0x01FF_01FF_01FF; // rows 0, 1, 2 at bits 0, 16, 32
        const ONES: u64 = 0x0001_0001_0001;
        // SAFETY: as for `pattern_pext`: only instantiated in the fast build.
        unsafe {
            let w = _pdep_u64(u64::from(s), LANES);
            let rest = w & w.wrapping_sub(ONES); // each row without its lowest place
            let more = (rest + LANES) >> 9 & ONES; // 1 where a row had two or more
            let single = (ONES ^ more) * 0x1FF; // all 9 bits of the single rows' lanes
            s & _pext_u64(single, LANES) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        single_rows(s)
    }
}

/// `SOLE[cols]`, for the 9-bit set of columns where a symbol has a place in
/// a band: the columns that are the only one of their box (that box of the
/// band holds the symbol in that column, so no other band may).
///
/// | cols (boxes 2, 1, 0)  | SOLE          |
/// | --------------------- | ------------- |
/// | 0b000_000_001         | 0b000_000_001 |
/// | 0b100_011_010         | 0b100_000_010 |
/// | 0b111_111_111         | 0             |
const SOLE: [u16; 512] = {
    let mut out = [0u16; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut k = 0;
        while k < 3 {
            let seg = (cols >> (3 * k)) & 7;
            if seg != 0 && seg & (seg - 1) == 0 {
                out[cols] |= (seg << (3 * k)) as u16;
            }
            k += 1;
        }
        cols += 1;
    }
    out
};

/// `OTHER_BANDS_KEEP[cols]`: the cells the symbol keeps in the other two
/// bands, every cell but those of the [`SOLE`] columns of `cols` (the table
/// saves spreading them per call).
const OTHER_BANDS_KEEP: [u32; 512] = {
    let mut out = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        out[cols] = !spread(SOLE[cols] as u32);
        cols += 1;
    }
    out
};

/// `PAIRS[m]`: [`KEEP`]`[m]` as a pattern again: the (row, box) pairs of
/// the permutations that fit m. The same rule serves a stack, read as
/// (band, column) pairs: each band's box in the stack holds the symbol in
/// one column, each column holds it in one band.
///
/// | m                                   | PAIRS         |
/// | ----------------------------------- | ------------- |
/// | 0b001_010_100 (one permutation)     | 0b001_010_100 |
/// | 0b011_011_100 (row 0 fixed to box 2) | 0b011_011_100 |
/// | 0b111_111_100 (rows 1, 2 free)      | 0b011_011_100 |
/// | 0b001_001_110 (rows 1, 2 only box 0)| 0             |
const PAIRS: [u16; 512] = {
    let mut out = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let keep = KEEP[m];
        let mut r = 0;
        while r < 3 {
            out[m] |= (row_boxes(keep >> (9 * r) & 0x1FF) << (3 * r)) as u16;
            r += 1;
        }
        m += 1;
    }
    out
};

/// Gathers the bits of `mask` (a stack's 3 × 3 (band, column) bits of a
/// 27-bit column word) to the low 9 bits: `pext`, or a loop without BMI2.
#[inline(always)]
fn gather<const PEXT: bool>(x: u32, s: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: as for `pattern_pext`: `PEXT` only in the fast build.
        return unsafe { std::arch::x86_64::_pext_u32(x, box_mask(s)) };
    }
    let y = x >> (3 * s);
    (y & 7) | (y >> 6 & 0o70) | (y >> 12 & 0o700)
}

/// The inverse of [`gather`]: `pdep`, or shifts without BMI2.
#[inline(always)]
fn scatter<const PEXT: bool>(m: u32, s: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: as for `gather`.
        return unsafe { std::arch::x86_64::_pdep_u32(m, box_mask(s)) };
    }
    ((m & 7) | (m & 0o70) << 6 | (m & 0o700) << 12) << (3 * s)
}

/// The band cells of a 9-bit column set.
#[inline(always)]
const fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// `RANK[c]`, a fixed scrambled order of the 81 cells (a permutation of
/// 0..81 drawn by a fixed seed): ties between cells go to the highest rank,
/// so no row, band or corner of the reading order is preferred.
const RANK: [u8; 81] = {
    let mut out = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        out[i] = i as u8;
        i += 1;
    }
    // Fisher-Yates with SplitMix64 steps, in const.
    let mut state: u64 = 0x0C70_C0DE_5EED_0009;
    let mut i = 80;
    while i > 0 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let j = (z % (i as u64 + 1)) as usize;
        let t = out[i];
        out[i] = out[j];
        out[j] = t;
        i -= 1;
    }
    out
};

/// Peers of band cell `i` inside its band (row, box and column), `i` excluded.
const PEERS: [u32; 27] = {
    let mut out = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        out[i] = (row_mask(r) | box_mask(c / 3) | col_mask(c)) & !(1 << i);
        i += 1;
    }
    out
};

/// `NEIGHBOURS[k]` for board k = 3d + b (symbol d + 1, band b): b, and the
/// boards of the same symbol in the two other bands. (Boards 27-31 are
/// spares, never settled.)
///
/// | k | NEIGHBOURS[k] |
/// |---|---|
/// | 0 (symbol 1, band 0) | [0, 1, 2] |
/// | 5 (symbol 2, band 2) | [2, 3, 4] |
/// | 25 (symbol 9, band 1) | [1, 26, 24] |
const NEIGHBOURS: [[u8; 3]; 32] = {
    let mut out = [[0u8; 3]; 32];
    let mut k = 0;
    while k < 27 {
        let (d, b) = (k / 3, k % 3);
        out[k] = [
            b as u8,
            (3 * d + (b + 1) % 3) as u8,
            (3 * d + (b + 2) % 3) as u8,
        ];
        k += 1;
    }
    out
};

/// Search state: `f[3 * d + b]` the cells of band b where symbol d + 1 may
/// go (5 spare empty boards pad it to 32 for the vector compare); `seen[k]` board k as it was when last settled (a board that differs
/// from it is settled again; `u32::MAX`, never a board, before the first
/// time); the unsolved cells of each band; the cells with two candidates as
/// last counted.
#[derive(Clone, Copy)]
struct Bands {
    f: [u32; 32],
    seen: [u32; 32],
    unsolved: [u32; 3],
    pairs: [u32; 3],
}

impl Bands {
    /// Reads 81 givens; `None` when two clash.
    fn start(cells: &[u8]) -> Option<Bands> {
        let mut s = Bands {
            f: [BAND; 32],
            seen: [u32::MAX; 32],
            unsolved: [BAND; 3],
            pairs: [0; 3],
        };
        // The 5 spare boards (27-31) are empty and settled: never changed.
        for k in 27..32 {
            (s.f[k], s.seen[k]) = (0, 0);
        }
        for (idx, &v) in cells.iter().enumerate() {
            if v != 0 {
                let (d, b, i) = (usize::from(v - 1), idx / 27, idx % 27);
                if s.f[3 * d + b] >> i & 1 == 0 {
                    return None;
                }
                s.place(d, b, i);
            }
        }
        Some(s)
    }

    /// Fixes symbol d + 1 at cell i of band b: the cell leaves every other
    /// symbol, and the symbol leaves the cell's row, box and column.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: usize) {
        let bit = 1u32 << i;
        self.unsolved[b] &= !bit;
        for e in 0..9 {
            self.f[3 * e + b] &= !bit;
        }
        self.f[3 * d + b] = (self.f[3 * d + b] & !PEERS[i]) | bit;
        let col = !col_mask(i % 9);
        self.f[3 * d + (b + 1) % 3] &= col;
        self.f[3 * d + (b + 2) % 3] &= col;
    }

    /// Puts symbol d + 1 at cell i of band b lazily: it only leaves the
    /// cell's row, box and column in the band; settling then finds the row
    /// solved and clears the cell from the other symbols.
    #[inline(always)]
    fn assume(&mut self, d: usize, b: usize, i: usize) {
        self.f[3 * d + b] &= !PEERS[i];
    }

    /// The boards (bit k) that differ from their settled copy, with no
    /// branch per board: SSE2 where the target has it (every x86-64), a loop
    /// the compiler vectorizes elsewhere.
    #[inline(always)]
    fn changed(&self) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            // SAFETY: the build's target has SSE2 (the cfg above), which is
            // all `changed_sse2` requires; it reads only the two arrays.
            unsafe { changed_sse2(&self.f, &self.seen) }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            changed_portable(&self.f, &self.seen)
        }
    }

    /// Settles board k (symbol k / 3 + 1, band k % 3); false on a
    /// contradiction. Keeps the places some row → box permutation uses; a
    /// column that is the only one of its box for the symbol leaves the
    /// other two bands; a row left with one place is solved, and its cell
    /// leaves every other symbol's board. Branch-free but for the
    /// contradiction: mispredicted branches cost more than these ANDs.
    #[inline(always)]
    fn settle_board<const PEXT: bool>(&mut self, k: usize) -> bool {
        let k = k & 31; // (k < 27; the mask only spares bounds checks)
        let x = self.f[k];
        let m = if PEXT { pattern_pext(x) } else { pattern(x) };
        let s = x & KEEP[m & 0x1FF];
        if s == 0 {
            return false;
        }
        let [b, n1, n2] = NEIGHBOURS[k].map(usize::from);
        let off = OTHER_BANDS_KEEP[((s | s >> 9 | s >> 18) & 0x1FF) as usize];
        self.f[n1 & 31] &= off;
        self.f[n2 & 31] &= off;
        let solved = if PEXT {
            single_rows_bmi2(s)
        } else {
            single_rows(s)
        };
        self.unsolved[b] &= !solved;
        // Boards b, b + 3, …, b + 24: the band's nine symbols (one slice check).
        let band = &mut self.f[b..b + 25];
        for e in 0..9 {
            band[3 * e] &= !solved;
        }
        self.f[k] = s;
        self.seen[k] = s;
        true
    }

    /// Settles boards until none changes; false on a contradiction. Each
    /// round settles, in order, the boards that changed since the last. In
    /// the fast build ([`Fast`]) the row/box pattern is one `pext` instead
    /// of three table lookups.
    #[inline(always)]
    fn settle<const FAST: bool>(&mut self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: `FAST` is only instantiated by the fast build, entered
            // after `Fast::detected`.
            return unsafe { self.settle_fast() };
        }
        self.settle_portable()
    }

    /// [`Bands::settle`], portable build.
    #[inline(never)]
    fn settle_portable(&mut self) -> bool {
        self.settle_with::<false>()
    }

    /// [`Bands::settle`], fast build.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    #[inline(never)]
    fn settle_fast(&mut self) -> bool {
        self.settle_with::<true>()
    }

    /// The settling loop; `PEXT` only where BMI2 is enabled.
    #[inline(always)]
    fn settle_with<const PEXT: bool>(&mut self) -> bool {
        loop {
            let mut dirty = self.changed();
            if dirty == 0 {
                return true;
            }
            while dirty != 0 {
                let k = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                if !self.settle_board::<PEXT>(k) {
                    return false;
                }
            }
        }
    }

    /// Naked singles: `Some(true)` when a cell was fixed, `None` when a cell
    /// has no candidate; notes the cells with two candidates in `pairs`. A
    /// fixed cell only clears its symbol's band peers here: settling sees
    /// its row solved and finishes the job.
    #[inline(always)]
    fn cells<const FAST: bool>(&mut self) -> Option<bool> {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: as in `settle`.
            return unsafe { self.cells_fast() };
        }
        self.cells_portable()
    }

    /// [`Bands::cells`], portable build.
    #[inline(never)]
    fn cells_portable(&mut self) -> Option<bool> {
        self.cells_with()
    }

    /// [`Bands::cells`], fast build.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    #[inline(never)]
    fn cells_fast(&mut self) -> Option<bool> {
        self.cells_with()
    }

    /// The work of [`Bands::cells`].
    #[inline(always)]
    fn cells_with(&mut self) -> Option<bool> {
        let mut placed = false;
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            if one != BAND {
                return None;
            }
            self.pairs[b] = two & !three;
            let mut single = one & !two & self.unsolved[b];
            while single != 0 {
                let i = single.trailing_zeros() as usize;
                single &= single - 1;
                let d = (0..9).find(|&d| self.f[3 * d + b] >> i & 1 != 0)?;
                self.assume(d, b, i);
                placed = true;
            }
        }
        Some(placed)
    }

    /// The band rule on stacks: for each symbol, the columns where it has a
    /// place in each band, and in each stack the (band, column) pairs some
    /// permutation band → column uses; the symbol leaves every other
    /// column of the band. That is locked candidates along columns and
    /// hidden singles in columns. `None` on a contradiction (a stack where
    /// no permutation fits), else whether a board changed.
    #[inline(always)]
    fn stacks<const PEXT: bool>(&mut self) -> Option<bool> {
        let mut changed = 0;
        for d in 0..9 {
            let [x0, x1, x2] = [self.f[3 * d], self.f[3 * d + 1], self.f[3 * d + 2]];
            let cols = |x: u32| (x | x >> 9 | x >> 18) & 0x1FF;
            let all = cols(x0) | cols(x1) << 9 | cols(x2) << 18;
            let mut keep = 0;
            for s in 0..3 {
                let pairs = u32::from(PAIRS[gather::<PEXT>(all, s) as usize]);
                if pairs == 0 {
                    return None;
                }
                keep |= scatter::<PEXT>(pairs, s);
            }
            let gone = all & !keep;
            for (j, x) in [x0, x1, x2].into_iter().enumerate() {
                self.f[3 * d + j] = x & !spread(gone >> (9 * j) & 0x1FF);
            }
            changed |= gone;
        }
        Some(changed != 0)
    }

    /// Propagates to a fixed point; false on a contradiction.
    #[inline(always)]
    fn propagate<const FAST: bool>(&mut self) -> bool {
        loop {
            if !self.settle::<FAST>() {
                return false;
            }
            if self.unsolved == [0; 3] {
                return true;
            }
            match self.cells::<FAST>() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.stacks::<FAST>() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// The cell (band, bit) of [`Bands::branch`], for the tests.
    #[cfg(test)]
    fn branch_cell(&self) -> (usize, usize) {
        let (b, i, _) = self.branch();
        (b, i)
    }

    /// A number drawn from symbol d's places alone (its three band boards),
    /// the same whatever its label: ties between symbols are broken by it,
    /// so no label and no reading order is preferred.
    #[inline(always)]
    fn symbol_hash(&self, d: usize) -> u32 {
        let [x0, x1, x2] = [0, 1, 2].map(|b| u64::from(self.f[3 * d + b]));
        let h = (x0 | x1 << 27).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ x2.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> 40) as u32
    }

    /// The unsolved cell (band, bit) to branch on and the symbol to try
    /// first there (9 for none). Of the symbols that can go in cells with
    /// two candidates, the one that can go in the most (over the whole
    /// grid), and of those cells the one whose peers (row, box and column)
    /// score most: a place for the symbol counts 1, an unsolved cell 2 and
    /// a cell with two candidates 2 more (branching there settles most:
    /// either branch fixes or removes the symbol in many two-candidate
    /// cells, placing it removes the most places, and it sits where the
    /// grid is least settled); else the cell with the fewest candidates. Ties between symbols go by [`Bands::symbol_hash`] and
    /// between cells by [`RANK`], so the choice depends on the pattern of
    /// places alone, not on which label a symbol has or where in the
    /// reading order a cell is: relabelled copies of a board search the
    /// same tree, and a set laid out in some canonical form gains nothing.
    /// Counted with `popcnt` in the fast build.
    #[inline(always)]
    fn branch(&self) -> (usize, usize, usize) {
        let pairs = [0, 1, 2].map(|b| self.pairs[b] & self.unsolved[b]);
        // Key: count of two-candidate cells, then the hash, then the symbol
        // (only for symbols with the same places, whose subtrees are the
        // same up to their labels); the maximum is a conditional move.
        let mut best = 0u64;
        for d in 0..9 {
            let n = (0..3)
                .map(|b| (self.f[3 * d + b] & pairs[b]).count_ones())
                .sum::<u32>();
            best = best.max(u64::from(n) << 32 | u64::from(self.symbol_hash(d)) << 4 | d as u64);
        }
        if best >> 32 != 0 {
            let d = (best & 15) as usize % 9;
            // Key: the peers' places for the symbol plus twice their open
            // cells (unsolved ones, and again those with two candidates),
            // then the cell's rank, then the cell.
            let both = |b: usize| u64::from(self.unsolved[b]) << 32 | u64::from(pairs[b]);
            let open = [both(0), both(1), both(2)];
            let mut top = 0u32;
            for b in 0..3 {
                let k = 3 * d + b;
                let [_, n1, n2] = NEIGHBOURS[k].map(usize::from);
                let (here, there) = (self.f[k], [self.f[n1 & 31], self.f[n2 & 31]]);
                let (o1, o2) = (open[(b + 1) % 3], open[(b + 2) % 3]);
                let mut cells = here & pairs[b];
                while cells != 0 {
                    let i = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    let col = col_mask(i % 9);
                    let col2 = u64::from(col) << 32 | u64::from(col);
                    let peers2 = u64::from(PEERS[i]) << 32 | u64::from(PEERS[i]);
                    let n = (here & PEERS[i]).count_ones()
                        + (u64::from(there[0] & col) << 32 | u64::from(there[1] & col))
                            .count_ones();
                    let free = (open[b] & peers2).count_ones()
                        + (o1 & col2).count_ones()
                        + (o2 & col2).count_ones();
                    let c = 27 * b + i;
                    top = top.max((n + 2 * free) << 16 | u32::from(RANK[c]) << 8 | c as u32);
                }
            }
            let c = (top & 0xFF) as usize % 81;
            return (c / 27, c % 27, d);
        }
        // No pair: the unsolved cell with the fewest candidates, ties by rank.
        let mut best = 0u32;
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let i = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let n = (0..9).map(|d| self.f[3 * d + b] >> i & 1).sum::<u32>();
                let c = 27 * b + i;
                best = best.max((15 - n) << 16 | u32::from(RANK[c]) << 8 | c as u32);
            }
        }
        let c = (best & 0xFF) as usize % 81;
        (c / 27, c % 27, 9)
    }

    /// The branch cell of seeded random solving ([`run`] with an `rng`,
    /// which `solve_random` and so the 9×9 puzzle generator use): the rule
    /// of reading order kept as it was, so a seed keeps giving the same
    /// grid and puzzle. Of the symbols that can go in cells with two
    /// candidates, the first that can go in the most; of its cells the
    /// first with the most places for it among its peers; else the emptiest
    /// of the first unsolved cells of the bands. The candidates are then
    /// shuffled by the `rng`.
    #[inline(always)]
    fn branch_seeded(&self) -> (usize, usize) {
        // Key: count of two-candidate cells above, 31 - symbol below, so
        // the maximum (a conditional move, no branch) is the first fullest.
        let pairs = [0, 1, 2].map(|b| self.pairs[b] & self.unsolved[b]);
        let mut best = 0u32;
        for d in 0..9 {
            let n = (0..3)
                .map(|b| (self.f[3 * d + b] & pairs[b]).count_ones())
                .sum::<u32>();
            best = best.max(n << 5 | (31 - d as u32));
        }
        if best >> 5 != 0 {
            let d = (31 - (best & 31) as usize) % 9;
            // Of its cells with two candidates, the one whose peers (row,
            // box and column in the band, the column in the other two)
            // hold the symbol most: placing it there removes the most.
            // Key: that count, then 3 - band, then 31 - cell (the first of
            // the best).
            let mut top = 0u32;
            for b in 0..3 {
                let k = 3 * d + b;
                let [_, n1, n2] = NEIGHBOURS[k].map(usize::from);
                let (here, there) = (self.f[k], [self.f[n1 & 31], self.f[n2 & 31]]);
                let mut cells = here & pairs[b];
                while cells != 0 {
                    let i = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    let col = col_mask(i % 9);
                    let n = (here & PEERS[i]).count_ones()
                        + (u64::from(there[0] & col) << 32 | u64::from(there[1] & col))
                            .count_ones();
                    top = top.max(n << 10 | (3 - b as u32) << 5 | (31 - i as u32));
                }
            }
            return (3 - (top >> 5 & 3) as usize, 31 - (top & 31) as usize);
        }
        // No pair: of the first unsolved cell of each band, the one with the
        // fewest candidates (an exact minimum over every cell costs more
        // than it saves here).
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            if self.unsolved[b] != 0 {
                let i = self.unsolved[b].trailing_zeros() as usize;
                let n = (0..9).map(|d| self.f[3 * d + b] >> i & 1).sum::<u32>();
                if n < best.0 {
                    best = (n, b, i);
                }
            }
        }
        (best.1, best.2)
    }

    /// Depth-first search from a propagated state (left changed: the last
    /// candidate is tried in place); calls `found` on each
    /// solution and stops when it returns true. Returns true when stopped.
    #[inline(always)]
    fn search<const FAST: bool>(
        &mut self,
        rng: &mut Option<&mut SplitMix64>,
        found: &mut impl FnMut(&Bands) -> bool,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: as in `settle`.
            return unsafe { self.search_fast(rng, found) };
        }
        self.search_portable(rng, found)
    }

    /// [`Bands::search`], portable build.
    fn search_portable(
        &mut self,
        rng: &mut Option<&mut SplitMix64>,
        found: &mut impl FnMut(&Bands) -> bool,
    ) -> bool {
        self.search_with::<false>(rng, found)
    }

    /// [`Bands::search`], fast build.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn search_fast(
        &mut self,
        rng: &mut Option<&mut SplitMix64>,
        found: &mut impl FnMut(&Bands) -> bool,
    ) -> bool {
        self.search_with::<true>(rng, found)
    }

    /// The work of [`Bands::search`].
    #[inline(always)]
    fn search_with<const FAST: bool>(
        &mut self,
        rng: &mut Option<&mut SplitMix64>,
        found: &mut impl FnMut(&Bands) -> bool,
    ) -> bool {
        #[cfg(test)]
        NODES.with(|n| n.set(n.get() + 1));
        if self.unsolved == [0; 3] {
            return found(self);
        }
        let (b, i, sym) = match rng {
            Some(_) => {
                let (b, i) = self.branch_seeded();
                (b, i, 9)
            }
            None => self.branch(),
        };
        let mut order = [0u8; 9];
        let mut len = 0;
        for d in 0..9 {
            if self.f[3 * d + b] >> i & 1 != 0 {
                order[len] = d as u8;
                len += 1;
            }
        }
        // The order of the candidates, label-free too: in a two-candidate
        // cell the chosen symbol first; elsewhere by the symbols' hashes.
        if sym < 9 && len == 2 {
            if usize::from(order[0]) != sym {
                order.swap(0, 1);
            }
        } else if len > 2 && rng.is_none() {
            order[..len]
                .sort_unstable_by_key(|&d| std::cmp::Reverse(self.symbol_hash(usize::from(d))));
        }
        if let Some(r) = rng.as_deref_mut() {
            r.shuffle(&mut order[..len]);
        }
        let Some((&last, rest)) = order[..len].split_last() else {
            return false;
        };
        for &d in rest {
            // Propagated, every board is as last settled (`seen == f`), so
            // the copy reads the boards once.
            let mut t = Bands {
                seen: self.f,
                ..*self
            };
            t.assume(usize::from(d), b, i);
            if t.propagate::<FAST>() && t.search::<FAST>(rng, found) {
                return true;
            }
        }
        // The last candidate needs no copy: this state is not read again.
        self.assume(usize::from(last), b, i);
        self.propagate::<FAST>() && self.search::<FAST>(rng, found)
    }

    /// The 81 cells of a solved state.
    fn grid(&self, out: &mut [u8]) {
        for k in 0..27 {
            let (d, b) = (k / 3, k % 3);
            let mut x = self.f[k];
            while x != 0 {
                let i = x.trailing_zeros() as usize;
                x &= x - 1;
                out[27 * b + i] = d as u8 + 1;
            }
        }
    }
}

/// The lanes (bit k) where `f` and `seen` differ, one compare per lane in a
/// loop the compiler vectorizes (the path of targets without SSE2; the
/// tests hold the SSE2 form to it).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn changed_portable(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    let mut m = 0;
    for k in 0..32 {
        m |= u32::from(f[k] != seen[k]) << k;
    }
    m
}

/// The lanes (bit k) where `f` and `seen` differ: 8 compares of 4 lanes,
/// narrowed to bytes by saturating packs (all-ones / zero lanes stay so),
/// then one bit per lane.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn changed_sse2(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi32, _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32,
        _mm_set_epi32,
    };
    let lanes = |a: &[u32; 32], k: usize| {
        let [x0, x1, x2, x3] = [a[k], a[k + 1], a[k + 2], a[k + 3]].map(|x| x as i32);
        _mm_set_epi32(x3, x2, x1, x0)
    };
    let same = |k: usize| -> __m128i { _mm_cmpeq_epi32(lanes(f, k), lanes(seen, k)) };
    let mut m = 0;
    for k in [0, 16] {
        let lo = _mm_packs_epi32(same(k), same(k + 4));
        let hi = _mm_packs_epi32(same(k + 8), same(k + 12));
        let equal = _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32;
        m |= (!equal & 0xFFFF) << k;
    }
    m
}

/// The x86-64 features the fast build of the search is compiled for (the
/// `target_feature` lists above name the same ones): `popcnt` for the
/// counts, BMI1/LZCNT for the bit scans, BMI2 for `pext`/`pdep`. AVX2 as
/// well was measured slower (docs/solver.md).
#[cfg(target_arch = "x86_64")]
struct Fast;

#[cfg(target_arch = "x86_64")]
impl Fast {
    /// Whether this CPU has every feature of the fast build (checked at run
    /// time; std caches the answer).
    fn detected() -> bool {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
}

/// Runs the search on 81 cells, calling `found` with each solution until it
/// returns true: the fast build where the CPU has its features, else the
/// portable one.
pub(super) fn run(
    cells: &[u8],
    rng: Option<&mut SplitMix64>,
    found: &mut impl FnMut(&[u8]) -> bool,
) {
    #[cfg(target_arch = "x86_64")]
    if Fast::detected() {
        // SAFETY: the CPU has every feature `run_fast` enables.
        return unsafe { run_fast(cells, rng, found) };
    }
    run_with::<false>(cells, rng, found);
}

/// [`run`], fast build.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn run_fast(cells: &[u8], rng: Option<&mut SplitMix64>, found: &mut impl FnMut(&[u8]) -> bool) {
    run_with::<true>(cells, rng, found);
}

/// The work of [`run`]; `FAST` only under the fast build's features.
#[inline(always)]
fn run_with<const FAST: bool>(
    cells: &[u8],
    mut rng: Option<&mut SplitMix64>,
    found: &mut impl FnMut(&[u8]) -> bool,
) {
    let Some(mut s) = Bands::start(cells) else {
        return;
    };
    if !s.propagate::<FAST>() {
        return;
    }
    let mut out = [0u8; 81];
    s.search::<FAST>(&mut rng, &mut |t: &Bands| {
        t.grid(&mut out);
        found(&out)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::geometry::Geometry;
    use crate::solve::Path;

    /// The puzzles of `data/classic9` (`.` or `0` for an empty cell), as cells.
    fn public_sets() -> Vec<[u8; 81]> {
        [
            include_str!("../../data/classic9/clue17.txt"),
            include_str!("../../data/classic9/top1465.txt"),
            include_str!("../../data/classic9/hardest11.txt"),
            include_str!("../../data/classic9/hardest1106.txt"),
            include_str!("../../data/classic9/minimal.txt"),
        ]
        .iter()
        .flat_map(|text| text.lines())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut cells = [0u8; 81];
            for (c, ch) in cells.iter_mut().zip(l.bytes()) {
                *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
            }
            cells
        })
        .collect()
    }

    /// The solutions `path` finds for `cells`, up to `limit`, in its order.
    fn solutions(path: Path, cells: &[u8], limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        path.run(Geometry::CLASSIC, cells, None, None, &mut |s: &[u8]| {
            out.push(s.to_vec());
            out.len() >= limit
        });
        out
    }

    /// On every puzzle of the public sets (6,758), as given (one solution
    /// each), with 2 to 9 givens removed (most then have several) and with
    /// one given changed (most then have none), the band path finds the same
    /// solutions as the generic solver, up to 3, and its portable build the
    /// same as its fast one.
    #[test]
    fn band_path_agrees_with_the_generic_solver_on_the_public_sets() {
        let mut rng = SplitMix64::new(0x26);
        let (mut unique, mut several, mut none) = (0, 0, 0);
        for puzzle in public_sets() {
            let givens: Vec<usize> = (0..81).filter(|&i| puzzle[i] != 0).collect();
            let mut fewer = puzzle;
            for _ in 0..2 + rng.below(8) {
                fewer[givens[rng.below(givens.len() as u64) as usize]] = 0;
            }
            let mut changed = puzzle;
            let i = givens[rng.below(givens.len() as u64) as usize];
            changed[i] = (changed[i] + rng.below(8) as u8) % 9 + 1;
            for (form, cells) in [("as given", puzzle), ("fewer", fewer), ("changed", changed)] {
                let mut band = solutions(Path::Bands, &cells, 3);
                // The portable build, forced, finds the same in the same
                // order as the dispatched one (the fast build on most CPUs).
                let mut portable = Vec::new();
                run_with::<false>(&cells, None, &mut |s: &[u8]| {
                    portable.push(s.to_vec());
                    portable.len() >= 3
                });
                assert_eq!(portable, band, "{form}: {cells:?}");
                let mut generic = solutions(Path::Generic, &cells, 3);
                assert_eq!(band.len(), generic.len(), "{form}: {cells:?}");
                if band.len() < 3 {
                    band.sort();
                    generic.sort();
                    assert_eq!(band, generic, "{form}: {cells:?}");
                }
                match (form, band.len()) {
                    ("as given", n) => assert_eq!(n, 1, "a public puzzle with {n} solutions"),
                    (_, 0) => none += 1,
                    (_, 1) => unique += 1,
                    _ => several += 1,
                }
            }
        }
        // The variants cover every outcome in numbers.
        assert!(
            unique > 50 && several > 5000 && none > 2000,
            "{unique} {several} {none}"
        );
    }

    /// The search's nodes on each board, solving (`limit` 1) or counting
    /// to `limit`, and the solutions found.
    fn nodes(boards: &[[u8; 81]], limit: usize) -> (Vec<u64>, Vec<Vec<u8>>) {
        let mut counts = Vec::with_capacity(boards.len());
        let mut found = Vec::new();
        for cells in boards {
            NODES.with(|n| n.set(0));
            let mut k = 0;
            run(cells, None, &mut |s: &[u8]| {
                found.push(s.to_vec());
                k += 1;
                k >= limit
            });
            counts.push(NODES.with(|n| n.get()));
        }
        (counts, found)
    }

    /// Forum hardest 1106, the set that owed most to its layout.
    fn hardest1106() -> Vec<[u8; 81]> {
        let all = public_sets();
        // The sets in the order of `public_sets`: 17-clue 1,967, top1465
        // 1,465, hardest 11+ 1,951, then hardest 1106's 375.
        all[1967 + 1465 + 1951..][..375].to_vec()
    }

    /// Relabelling the digits of a board changes no choice of the search:
    /// on every public puzzle, solving and counting to 2 search as many
    /// nodes as on a copy with its digits relabelled at random, and find
    /// the relabelled solution.
    #[test]
    fn relabelled_boards_search_the_same_tree() {
        let mut rng = SplitMix64::new(43);
        let boards = public_sets();
        let relabelled: Vec<[u8; 81]> = boards
            .iter()
            .map(|cells| {
                let mut labels: Vec<u8> = (1..=9).collect();
                rng.shuffle(&mut labels);
                cells.map(|v| {
                    if v == 0 {
                        0
                    } else {
                        labels[usize::from(v - 1)]
                    }
                })
            })
            .collect();
        for limit in [1, 2] {
            let (a, sa) = nodes(&boards, limit);
            let (b, sb) = nodes(&relabelled, limit);
            assert_eq!(a, b, "limit {limit}");
            assert_eq!(sa.len(), sb.len());
            // Solution k of a board, relabelled, is solution k of the copy.
            for (x, y) in sa.iter().zip(&sb) {
                let map: Vec<(u8, u8)> = x.iter().copied().zip(y.iter().copied()).collect();
                assert!(
                    map.iter()
                        .all(|&(p, q)| map.iter().all(|&(r, t)| (p == r) == (q == t)))
                );
            }
        }
    }

    /// The search owes nothing to a set's layout: on forum hardest 1106 as
    /// published, the nodes searched (summed over the set; the same on any
    /// machine) are within 8% of the median over five shuffled copies
    /// (`puzzle::transform`, seeds 1 to 5, as `family_times shuffle`
    /// makes them), solving and counting to 2. A search that breaks ties
    /// by reading order fails it (55.3 nodes a puzzle solving the set as
    /// published, 80.9 to 87.5 shuffled). The published totals are
    /// docs/solver.md's figures (70.07 and 146.24 a puzzle).
    #[test]
    fn shuffled_copies_of_hardest_1106_search_as_many_nodes_as_published() {
        use crate::grid::Grid;
        let published = hardest1106();
        let shuffled: Vec<Vec<[u8; 81]>> = (1..=5)
            .map(|seed| {
                published
                    .iter()
                    .enumerate()
                    .map(|(k, cells)| {
                        let g = Grid::from_cells(Geometry::CLASSIC, cells).unwrap();
                        let mut rng = SplitMix64::for_index(seed, k as u64);
                        let copy = crate::puzzle::transform(&g, &mut rng);
                        <[u8; 81]>::try_from(copy.cells()).unwrap()
                    })
                    .collect()
            })
            .collect();
        let total = |boards: &[[u8; 81]], limit| nodes(boards, limit).0.iter().sum::<u64>();
        for (limit, expected) in [(1, 26_277u64), (2, 54_840)] {
            let here = total(&published, limit);
            let mut there: Vec<u64> = shuffled.iter().map(|set| total(set, limit)).collect();
            there.sort_unstable();
            let median = there[2];
            assert!(
                here.abs_diff(median) * 100 <= median * 8,
                "limit {limit}: published {here}, shuffled {there:?}"
            );
            assert_eq!(here, expected, "limit {limit}: docs/solver.md's figure");
        }
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn the_sse2_changed_mask_is_the_portable_one() {
        let mut rng = SplitMix64::new(9);
        for _ in 0..10_000 {
            let f: [u32; 32] = std::array::from_fn(|_| rng.below(1 << 27) as u32);
            // Each lane equal or not at random, lane values at random.
            let seen: [u32; 32] = std::array::from_fn(|k| {
                if rng.below(2) == 0 {
                    f[k]
                } else {
                    f[k] ^ (1 << rng.below(27))
                }
            });
            // SAFETY: the cfg above: the target has SSE2.
            assert_eq!(
                unsafe { changed_sse2(&f, &seen) },
                changed_portable(&f, &seen)
            );
        }
    }

    /// [`Bands::propagate`] in the fast build, for the tests.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn propagate_fast(s: &mut Bands) -> bool {
        s.propagate::<true>()
    }

    /// [`Bands::branch_cell`] in the fast build, for the tests.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn branch_cell_fast(s: &Bands) -> (usize, usize) {
        s.branch_cell()
    }

    #[test]
    fn both_builds_propagate_alike_and_pick_the_same_cell() {
        // Random partial grids (givens drawn at random, clashing ones
        // skipped): the portable build and, on a CPU with the fast build's
        // features, the fast one (pext, popcnt) agree on contradictions,
        // leave identical states and choose the same open cell.
        let mut rng = SplitMix64::new(26);
        let mut checked = 0;
        for _ in 0..2000 {
            let mut cells = [0u8; 81];
            for _ in 0..rng.below(30) {
                cells[rng.below(81) as usize] = rng.below(9) as u8 + 1;
            }
            let Some(start) = Bands::start(&cells) else {
                continue;
            };
            let mut portable = start;
            let ok = portable.propagate::<false>();
            let open = ok && portable.unsolved != [0; 3];
            if open {
                let (b, i) = portable.branch_cell();
                assert_ne!(portable.unsolved[b] >> i & 1, 0);
                checked += 1;
            }
            #[cfg(target_arch = "x86_64")]
            if Fast::detected() {
                let mut fast = start;
                // SAFETY: the CPU has the fast build's features (just checked).
                assert_eq!(unsafe { propagate_fast(&mut fast) }, ok);
                if ok {
                    assert_eq!((fast.f, fast.unsolved), (portable.f, portable.unsolved));
                }
                if open {
                    // SAFETY: as above.
                    assert_eq!(unsafe { branch_cell_fast(&fast) }, portable.branch_cell());
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn pairs_table_matches_its_documented_rows() {
        assert_eq!(PAIRS[0b001_010_100], 0b001_010_100);
        assert_eq!(PAIRS[0b011_011_100], 0b011_011_100);
        assert_eq!(PAIRS[0b111_111_100], 0b011_011_100);
        assert_eq!(PAIRS[0b001_001_110], 0);
        assert_eq!(PAIRS[0b111_111_111], 0b111_111_111);
    }

    #[test]
    fn gather_and_scatter_move_a_stacks_bits_both_ways() {
        let mut rng = SplitMix64::new(28);
        for _ in 0..10_000 {
            let x = rng.below(1 << 27) as u32;
            for s in 0..3 {
                let m = gather::<false>(x, s);
                assert!(m < 512);
                assert_eq!(scatter::<false>(m, s), x & box_mask(s));
                #[cfg(target_arch = "x86_64")]
                if Fast::detected() {
                    // `PEXT` needs BMI2, which the CPU has (just checked).
                    assert_eq!(gather::<true>(x, s), m);
                    assert_eq!(scatter::<true>(m, s), x & box_mask(s));
                }
            }
        }
    }

    #[test]
    fn keep_table_matches_its_documented_rows() {
        // One permutation: exactly its three segments.
        let m = 0b001_010_100;
        assert_eq!(KEEP[m], 7 << 6 | 7 << (9 + 3) | 7 << 18);
        assert_eq!(KEEP[0b111_111_111], BAND);
        // Rows 1 and 2 both only in box 0: no permutation.
        assert_eq!(KEEP[0b001_001_110], 0);
        // Every kept segment is inside the pattern.
        for m in 0..512 {
            assert_eq!(pattern(KEEP[m]) & !m, 0);
        }
    }
}

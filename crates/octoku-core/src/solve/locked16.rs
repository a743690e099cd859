//! Locked candidates on a 16×16 board, one symbol at a time, in word
//! operations rather than a test per box/line segment.
//!
//! A symbol's places are a 4-word bitboard in reading order: word `k`
//! holds rows `4k..4k+3`, 16 bits each, so a word is one band of four
//! 4×4 boxes. Folding each 4-cell run of a row to its first bit gives
//! where the rows meet the boxes; folding the four rows of a band onto
//! each other gives the columns. The slowest 16×16 count(2) spent 38% of
//! its instructions in the generic segment loop; this takes about 40% of
//! what that loop took (docs/family.md, "A seventh look"). The
//! eliminations are those of the segment loop, all taken from one look
//! at the board: propagation repeats either until nothing changes, and
//! both end in the same state (or both in a contradiction).

/// Row 0 of a band.
const ROW: u64 = 0xFFFF;
/// Column 0 of a band.
const COL: u64 = 0x0001_0001_0001_0001;
/// The first box of a band (columns 0-3 of its four rows).
const BOX: u64 = 0x000F_000F_000F_000F;
/// The first cell of each row's run through a box.
const RUNS: u64 = 0x1111_1111_1111_1111;

/// Applies locked candidates to `p`, one symbol's places: a box whose
/// places lie on one line clears the rest of that line, and a line whose
/// places lie in one box clears the rest of that box. True when a place went.
pub(super) fn lock(p: &mut [u64; 4]) -> bool {
    let mut gone = [0u64; 4];
    // Bit c of cols[k]: column c holds a place in band k.
    let mut cols = [0u64; 4];
    for (k, &w) in p.iter().enumerate() {
        // Bit 16r + 4b: row r of the band holds a place in box b.
        let runs = (w | w >> 1 | w >> 2 | w >> 3) & RUNS;
        cols[k] = (w | w >> 16 | w >> 32 | w >> 48) & ROW;
        for b in 0..4 {
            // The box's places on one row: the rest of the row goes.
            let rows = (runs >> (4 * b)) & COL;
            if rows.count_ones() == 1 {
                gone[k] |= (ROW << rows.trailing_zeros()) & !(BOX << (4 * b));
            }
            // The box's places in one column: the column goes from the other bands.
            let in_box = (cols[k] >> (4 * b)) & 0xF;
            if in_box.count_ones() == 1 {
                let c = 4 * b + in_box.trailing_zeros() as usize;
                for (j, g) in gone.iter_mut().enumerate() {
                    if j != k {
                        *g |= COL << c;
                    }
                }
            }
        }
        for r in 0..4 {
            // The row's places in one box: the rest of the box goes.
            let boxes = (runs >> (16 * r)) & 0x1111;
            if boxes.count_ones() == 1 {
                gone[k] |= (BOX << boxes.trailing_zeros()) & !(ROW << (16 * r));
            }
        }
    }
    // The columns whose places all lie in one band (so in one box): the
    // rest of that box goes.
    let [c0, c1, c2, c3] = cols;
    let twice = c0 & c1 | (c0 | c1) & c2 | (c0 | c1 | c2) & c3;
    let once = (c0 | c1 | c2 | c3) & !twice;
    for (k, g) in gone.iter_mut().enumerate() {
        let mut only = once & cols[k];
        while only != 0 {
            let c = only.trailing_zeros() as usize;
            only &= only - 1;
            *g |= (BOX << (c / 4 * 4)) & !(COL << c);
        }
    }
    let mut changed = false;
    for (w, g) in p.iter_mut().zip(gone) {
        changed |= *w & g != 0;
        *w &= !g;
    }
    changed
}

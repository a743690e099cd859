//! The plain-backtracking baseline: first empty cell, digits 1-8 in order,
//! each checked by scanning the cell's row, column and subgrid. A benchmark
//! baseline and a test oracle for the bitboard solver in [`super`].

use crate::grid::board::Board;
use crate::grid::geometry::{Geometry, Unit};

/// The board shape the baseline scans.
const G: Geometry = Geometry::OCTOKU;

/// Whether digit `v` may go in cell `i` of `cells`, by scanning its row, column and subgrid.
fn naive_fits(cells: &[u8; 64], i: usize, v: u8) -> bool {
    let (r, c) = G.position(i);
    (0..G.size()).all(|k| cells[G.index(r, k)] != v && cells[G.index(k, c)] != v)
        && G.unit_cells(Unit::Box(G.box_of(r, c)))
            .all(|(rr, cc)| cells[G.index(rr, cc)] != v)
}

/// Plain backtracking from reading index `from`: first empty cell, digits 1-8 in order.
fn naive_fill(cells: &mut [u8; 64], from: usize) -> bool {
    let Some(i) = (from..64).find(|&i| cells[i] == 0) else {
        return true;
    };
    for v in 1..=8 {
        if naive_fits(cells, i, v) {
            cells[i] = v;
            if naive_fill(cells, i + 1) {
                return true;
            }
        }
    }
    cells[i] = 0;
    false
}

/// Checks that every value is 0-8 and no digit is given twice in a unit.
fn naive_valid_givens(cells: &[u8; 64]) -> bool {
    let mut work = *cells;
    for i in 0..64 {
        let v = cells[i];
        if v > 8 {
            return false;
        }
        if v != 0 {
            work[i] = 0;
            let ok = naive_fits(&work, i, v);
            work[i] = v;
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Plain backtracking baseline (first empty cell, try 1-8, check by scanning);
/// `None` when there is no solution or a value is no digit. Used as a
/// benchmark baseline and a test oracle; it can be very slow on hard
/// unsolvable boards.
pub fn solve_naive(start: Board) -> Option<Board> {
    let mut cells = start.cells();
    if !naive_valid_givens(&cells) {
        return None;
    }
    naive_fill(&mut cells, 0).then(|| Board::from_cells(&cells))
}

/// Counts solutions by plain backtracking, up to `limit` (a test oracle for
/// [`count`](super::count)).
#[cfg(test)]
pub(crate) fn count_naive(start: Board, limit: u64) -> u64 {
    fn go(cells: &mut [u8; 64], n: &mut u64, limit: u64) {
        let Some(i) = (0..64).find(|&i| cells[i] == 0) else {
            *n += 1;
            return;
        };
        for v in 1..=8 {
            if *n >= limit {
                return;
            }
            if naive_fits(cells, i, v) {
                cells[i] = v;
                go(cells, n, limit);
            }
        }
        cells[i] = 0;
    }
    let mut cells = start.cells();
    if !naive_valid_givens(&cells) {
        return 0;
    }
    let mut n = 0;
    go(&mut cells, &mut n, limit);
    n
}

//! The symmetry group of a board of any geometry, written once: the 8×8
//! group's numbering ([`crate::octoku::symmetry`]), random symmetries of the
//! generator ([`crate::puzzle::transform`]) and the 9×9 test grids all build
//! their maps here.
//!
//! A map moves whole lines and keeps boxes whole:
//! - rows: the bands (the `N / box_rows` groups of `box_rows` rows) are
//!   permuted as blocks and the rows inside each band are permuted;
//! - columns: the stacks and the columns inside each stack, the same way;
//! - for square boxes, the board may then be transposed.
//!
//! Symbols are relabelled apart ([`relabel`]). Every map sends a valid grid
//! to a valid grid.
//!
//! ```
//! use octoku_core::grid::symmetry::{Symmetry, line_map, permutations};
//! // Rows of a 4×4 board (2×2 boxes): the two bands swapped, rows kept in order.
//! let rows = line_map(&[1, 0], &[vec![0, 1], vec![0, 1]]);
//! assert_eq!(rows, [2, 3, 0, 1]);
//! let s = Symmetry { rows, cols: vec![0, 1, 2, 3], transpose: false };
//! assert_eq!(s.destination(0, 3), (2, 3));
//! assert_eq!(permutations(3).len(), 6);
//! ```

use crate::grid::Grid;
use crate::rng::SplitMix64;

/// One map of the group: cell (r, c) moves to (`rows[r]`, `cols[c]`), then,
/// when `transpose` is set, to (`cols[c]`, `rows[r]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Destination row of each row.
    pub rows: Vec<u8>,
    /// Destination column of each column.
    pub cols: Vec<u8>,
    /// Whether rows and columns change places after the move.
    pub transpose: bool,
}

/// The permutations of `0..n` in lexicographic order (`n!` of them).
pub fn permutations(n: u8) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..n).collect();
    loop {
        out.push(p.clone());
        // The next permutation in lexicographic order, or none after the last.
        let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
        p.swap(i - 1, j);
        p[i..].reverse();
    }
}

/// Permutation number `k` of `0..n` in the order of [`permutations`]
/// (`permutations(n)[k]`), found without listing the others; `k` is taken
/// modulo `n!`.
pub fn nth_permutation(n: u8, k: usize) -> Vec<u8> {
    let mut left: Vec<u8> = (0..n).collect();
    // (n - 1)!: how many permutations share each first element.
    let mut block: usize = (1..usize::from(n)).product();
    let mut k = k % (block * usize::from(n.max(1)));
    let mut out = Vec::with_capacity(left.len());
    while !left.is_empty() {
        out.push(left.remove(k / block));
        k %= block;
        block /= left.len().max(1);
    }
    out
}

/// A line map that keeps groups of lines whole: line `g * inner + k` (line
/// `k` of group `g`, `inner = within[g].len()`) goes to line
/// `order[g] * inner + within[g][k]`.
pub fn line_map(order: &[u8], within: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (&to, inside) in order.iter().zip(within) {
        let inner = inside.len() as u8;
        out.extend(inside.iter().map(|&k| to * inner + k));
    }
    out
}

/// A random order of `n` lines in groups of `inner`: the groups shuffled,
/// then the lines inside each group, one group after the other. Entry `i`
/// is the line that comes to place `i` (a source, not a destination; see
/// [`Symmetry::from_sources`]). The draws from `rng` are pinned: generated
/// puzzles and test grids depend on them.
pub fn shuffled_lines(n: usize, inner: usize, rng: &mut SplitMix64) -> Vec<u8> {
    let mut groups: Vec<u8> = (0..(n / inner) as u8).collect();
    rng.shuffle(&mut groups);
    let mut out = Vec::with_capacity(n);
    for group in groups {
        let mut inside: Vec<u8> = (0..inner as u8).collect();
        rng.shuffle(&mut inside);
        out.extend(inside.into_iter().map(|k| group * inner as u8 + k));
    }
    out
}

/// The inverse of a permutation of `0..p.len()`.
fn inverse(p: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; p.len()];
    for (i, &to) in p.iter().enumerate() {
        out[usize::from(to)] = i as u8;
    }
    out
}

impl Symmetry {
    /// The identity map of an `n`×`n` board.
    pub fn identity(n: usize) -> Symmetry {
        let lines: Vec<u8> = (0..n as u8).collect();
        Symmetry {
            rows: lines.clone(),
            cols: lines,
            transpose: false,
        }
    }

    /// The map whose place (r, c) receives cell (`rows[r]`, `cols[c]`), the
    /// board then transposed when `transpose` is set (sources, as
    /// [`shuffled_lines`] draws them, rather than destinations).
    pub fn from_sources(rows: &[u8], cols: &[u8], transpose: bool) -> Symmetry {
        Symmetry {
            rows: inverse(rows),
            cols: inverse(cols),
            transpose,
        }
    }

    /// Where cell (`row`, `col`) goes.
    pub fn destination(&self, row: usize, col: usize) -> (usize, usize) {
        let (r, c) = (usize::from(self.rows[row]), usize::from(self.cols[col]));
        if self.transpose { (c, r) } else { (r, c) }
    }

    /// The map as a permutation of reading indices: cell `i` moves to `perm[i]`.
    pub fn cell_permutation(&self) -> Vec<usize> {
        let n = self.rows.len();
        (0..n * n)
            .map(|i| {
                let (r, c) = self.destination(i / n, i % n);
                n * r + c
            })
            .collect()
    }

    /// Moves the cells of an `n`×`n` board given in reading order.
    pub fn apply_cells(&self, cells: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; cells.len()];
        for (&v, to) in cells.iter().zip(self.cell_permutation()) {
            out[to] = v;
        }
        out
    }

    /// Moves every cell of `board` (of the map's size).
    pub fn apply(&self, board: &Grid) -> Grid {
        let cells = self.apply_cells(board.cells());
        Grid::from_cells(board.geometry(), &cells).expect("a map keeps the values of the board")
    }
}

/// Relabels symbols in place: symbol `v` (1..=`labels.len()`) becomes
/// `labels[v - 1]`; empty cells, and values above the labels, stay as they are.
pub fn relabel(cells: &mut [u8], labels: &[u8]) {
    for v in cells.iter_mut() {
        if (1..=labels.len()).contains(&usize::from(*v)) {
            *v = labels[usize::from(*v) - 1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::Geometry;

    #[test]
    fn permutations_are_lexicographic_and_complete() {
        let p = permutations(4);
        assert_eq!(p.len(), 24);
        assert_eq!(p[0], [0, 1, 2, 3]);
        assert_eq!(p[1], [0, 1, 3, 2]);
        assert_eq!(p[23], [3, 2, 1, 0]);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(permutations(1), [vec![0]]);
    }

    #[test]
    fn nth_permutation_is_the_listed_one() {
        for n in 1..=5u8 {
            for (k, p) in permutations(n).into_iter().enumerate() {
                assert_eq!(nth_permutation(n, k), p, "n {n} k {k}");
            }
        }
    }

    #[test]
    fn from_sources_places_each_source_line() {
        let s = Symmetry::from_sources(&[2, 0, 1], &[1, 2, 0], false);
        // Place (0, 0) receives cell (2, 1).
        assert_eq!(s.destination(2, 1), (0, 0));
        let t = Symmetry::from_sources(&[2, 0, 1], &[1, 2, 0], true);
        assert_eq!(t.destination(2, 1), (0, 0));
        assert_eq!(t.destination(0, 1), (0, 1));
    }

    /// Random maps of the 9×9 board (transposition included) keep a solved
    /// grid solved.
    #[test]
    fn shuffled_maps_keep_grids_valid() {
        let g = Geometry::CLASSIC;
        let mut rng = SplitMix64::new(5);
        let grid = crate::puzzle::solved_grid(g, &mut rng);
        for _ in 0..50 {
            let rows = shuffled_lines(9, 3, &mut rng);
            let cols = shuffled_lines(9, 3, &mut rng);
            let s = Symmetry::from_sources(&rows, &cols, rng.below(2) == 1);
            assert!(s.apply(&grid).is_valid_grid());
        }
    }
}

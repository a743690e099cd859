//! The symmetry group of the 8x8 board with 2x4 subgrids, as used by the audit.
//!
//! A map permutes rows and columns independently:
//! - rows: permute the 4 bands (row pairs 1-2, 3-4, 5-6, 7-8) and swap or keep
//!   the two rows of each band: 4! * 2^4 = 384 row maps;
//! - columns: permute the 4 columns inside each stack (columns 1-4 and 5-8) and
//!   swap or keep the two stacks: (4!)^2 * 2 = 1152 column maps.
//!
//! Together 384 * 1152 = 442,368 maps, each sending valid grids to valid grids.
//! Digit relabelling is separate ([`relabel`]).

use crate::octoku::board::Board;

/// Number of row maps (band permutations times in-band swaps).
pub const ROW_MAPS: usize = 384;
/// Number of column maps (in-stack permutations times the stack swap).
pub const COL_MAPS: usize = 1152;
/// Number of maps in the group.
pub const ORDER: u32 = (ROW_MAPS * COL_MAPS) as u32;

/// One map of the group: cell (r, c) moves to (`rows[r]`, `cols[c]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Destination row of each row.
    pub rows: [u8; 8],
    /// Destination column of each column.
    pub cols: [u8; 8],
}

/// The 24 permutations of 0..4, in lexicographic order.
pub(crate) fn perms4() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    if a != b && a != c && a != d && b != c && b != d && c != d {
                        out.push([a, b, c, d]);
                    }
                }
            }
        }
    }
    out
}

/// All 384 row maps: `map[r]` is the destination row of row `r`; bands move as blocks.
pub fn row_maps() -> Vec<[u8; 8]> {
    let mut out = Vec::with_capacity(ROW_MAPS);
    for bands in perms4() {
        for swaps in 0..16u8 {
            let mut m = [0u8; 8];
            for (r, slot) in m.iter_mut().enumerate() {
                let band = r / 2;
                let half = (r % 2) as u8 ^ (swaps >> band & 1);
                *slot = 2 * bands[band] + half;
            }
            out.push(m);
        }
    }
    out
}

/// All 1152 column maps: `map[c]` is the destination column of column `c`; stacks move as blocks.
pub fn col_maps() -> Vec<[u8; 8]> {
    let p = perms4();
    let mut out = Vec::with_capacity(COL_MAPS);
    for swap in 0..2u8 {
        for left in &p {
            for right in &p {
                let mut m = [0u8; 8];
                for (c, slot) in m.iter_mut().enumerate() {
                    let (stack, within) = (c / 4, c % 4);
                    let inner = if stack == 0 {
                        left[within]
                    } else {
                        right[within]
                    };
                    *slot = 4 * ((stack as u8) ^ swap) + inner;
                }
                out.push(m);
            }
        }
    }
    out
}

impl Symmetry {
    /// The identity map.
    pub const IDENTITY: Symmetry = Symmetry {
        rows: [0, 1, 2, 3, 4, 5, 6, 7],
        cols: [0, 1, 2, 3, 4, 5, 6, 7],
    };

    /// Map number `i` (row map `i / 1152`, column map `i % 1152`); `None` when `i >= 442,368`.
    pub fn from_index(i: u32) -> Option<Symmetry> {
        if i >= ORDER {
            return None;
        }
        let (r, c) = ((i as usize) / COL_MAPS, (i as usize) % COL_MAPS);
        Some(Symmetry {
            rows: row_maps()[r],
            cols: col_maps()[c],
        })
    }

    /// Every map of the group, each once (442,368 of them).
    pub fn all() -> impl Iterator<Item = Symmetry> {
        let rows = row_maps();
        let cols = col_maps();
        (0..ROW_MAPS).flat_map(move |r| {
            let rm = rows[r];
            let cols = cols.clone();
            (0..COL_MAPS).map(move |c| Symmetry {
                rows: rm,
                cols: cols[c],
            })
        })
    }

    /// The map as a permutation of reading indices: cell `i` moves to `perm[i]`.
    pub fn cell_permutation(&self) -> [u8; 64] {
        let mut p = [0u8; 64];
        for (i, slot) in p.iter_mut().enumerate() {
            *slot = 8 * self.rows[i / 8] + self.cols[i % 8];
        }
        p
    }

    /// Moves every cell (r, c) of `board` to (`rows[r]`, `cols[c]`).
    pub fn apply(&self, board: Board) -> Board {
        let from = board.cells();
        let mut to = [0u8; 64];
        for (i, &v) in from.iter().enumerate() {
            let j = 8 * usize::from(self.rows[i / 8] & 7) + usize::from(self.cols[i % 8] & 7);
            to[j] = v;
        }
        Board::from_cells(&to)
    }

    /// Moves a cell set (bit `i` = reading index `i`) the same way as [`Symmetry::apply`].
    pub fn apply_mask(&self, set: u64) -> u64 {
        let mut out = 0u64;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= 1u64 << (8 * (self.rows[i / 8] & 7) + (self.cols[i % 8] & 7));
        }
        out
    }
}

/// Relabels digits: digit `d` becomes `perm[d - 1]`, empty cells stay empty
/// (values 9-15 are kept as they are).
pub fn relabel(board: Board, perm: &[u8; 8]) -> Board {
    let mut cells = board.cells();
    for v in cells.iter_mut() {
        if (1..=8).contains(v) {
            *v = perm[usize::from(*v - 1)];
        }
    }
    Board::from_cells(&cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octoku::verify::is_valid_grid;
    use std::collections::HashSet;

    #[test]
    fn map_counts() {
        assert_eq!(row_maps().len(), 384);
        assert_eq!(col_maps().len(), 1152);
        assert_eq!(row_maps().into_iter().collect::<HashSet<_>>().len(), 384);
        assert_eq!(col_maps().into_iter().collect::<HashSet<_>>().len(), 1152);
        assert_eq!(Symmetry::from_index(0), Some(Symmetry::IDENTITY));
        assert_eq!(Symmetry::from_index(ORDER), None);
    }

    #[test]
    fn exactly_442368_distinct_maps_as_cell_permutations() {
        let perms: HashSet<[u8; 64]> = Symmetry::all().map(|s| s.cell_permutation()).collect();
        assert_eq!(perms.len(), 442_368);
        for p in perms.iter().take(1000) {
            let mut seen = [false; 64];
            for &j in p {
                seen[usize::from(j)] = true;
            }
            assert!(seen.iter().all(|&b| b), "a permutation");
        }
    }

    #[test]
    fn all_maps_send_valid_grids_to_valid_grids() {
        let g = Board::BASE_GRID;
        assert!(is_valid_grid(g));
        let mut n = 0;
        for s in Symmetry::all() {
            assert!(is_valid_grid(s.apply(g)), "{s:?}");
            n += 1;
        }
        assert_eq!(n, 442_368);
        assert_eq!(
            Symmetry::from_index(300_001).unwrap(),
            Symmetry::all().nth(300_001).unwrap()
        );
    }

    #[test]
    fn relabel_keeps_validity_and_empties() {
        let g = Board::BASE_GRID;
        let perm = [3, 1, 4, 8, 5, 2, 7, 6];
        let r = relabel(g, &perm);
        assert!(is_valid_grid(r));
        assert_eq!(r.cell(0, 0), perm[usize::from(g.cell(0, 0)) - 1]);
        let b = Board::EMPTY.with_cell(1, 1, 2);
        assert_eq!(relabel(b, &perm), Board::EMPTY.with_cell(1, 1, 1));
    }

    #[test]
    fn apply_mask_matches_apply() {
        let g = Board::BASE_GRID;
        let s = Symmetry::from_index(123_457).unwrap();
        let set = 0x8001_0203_4050_6070u64;
        let gc = g.cells();
        let c: [u8; 64] = std::array::from_fn(|i| if set >> i & 1 != 0 { gc[i] } else { 0 });
        let moved = s.apply(Board::from_cells(&c)).cells();
        let mask = s.apply_mask(set);
        for (i, &v) in moved.iter().enumerate() {
            assert_eq!(v != 0, mask >> i & 1 != 0);
        }
    }
}

//! The symmetry group of the 8x8 board with 2x4 subgrids, as used by the
//! audit, numbered once and for all.
//!
//! The maps are those of [`crate::grid::symmetry`] for this geometry (no
//! transposition: the boxes are not square). A map permutes rows and columns
//! independently:
//! - rows: permute the 4 bands (row pairs 1-2, 3-4, 5-6, 7-8) and swap or keep
//!   the two rows of each band: 4! * 2^4 = 384 row maps;
//! - columns: permute the 4 columns inside each stack (columns 1-4 and 5-8) and
//!   swap or keep the two stacks: (4!)^2 * 2 = 1152 column maps.
//!
//! Together 384 * 1152 = 442,368 maps, each sending valid grids to valid grids.
//! Their numbering ([`row_maps`], [`col_maps`], [`from_index`]) is pinned:
//! the gas report's and the fuzzer's cases draw map numbers from a seed.
//! Digit relabelling is separate ([`relabel`]).

use crate::grid::board::Board;
pub use crate::grid::symmetry::Symmetry;
use crate::grid::symmetry::{self as group, line_map, nth_permutation};

/// Number of row maps (band permutations times in-band swaps).
pub const ROW_MAPS: usize = 384;
/// Number of column maps (in-stack permutations times the stack swap).
pub const COL_MAPS: usize = 1152;
/// Number of maps in the group.
pub const ORDER: u32 = (ROW_MAPS * COL_MAPS) as u32;

/// All 384 row maps: `map[r]` is the destination row of row `r`; bands move
/// as blocks. Map `16 * i + s` moves band `b` to band `permutations(4)[i][b]`
/// and swaps its two rows when bit `b` of `s` is set.
pub fn row_maps() -> Vec<Vec<u8>> {
    (0..ROW_MAPS).map(row_map).collect()
}

/// Row map number `i` of [`row_maps`] (taken modulo [`ROW_MAPS`]), built alone.
pub fn row_map(i: usize) -> Vec<u8> {
    let (bands, swaps) = (nth_permutation(4, i / 16), i % 16);
    let within: Vec<Vec<u8>> = (0..4)
        .map(|band| nth_permutation(2, swaps >> band & 1))
        .collect();
    line_map(&bands, &within)
}

/// All 1152 column maps: `map[c]` is the destination column of column `c`;
/// stacks move as blocks. Map `576 * s + 24 * i + j` swaps the stacks when
/// `s` is 1 and permutes the left stack's columns by `permutations(4)[i]`,
/// the right stack's by `permutations(4)[j]`.
pub fn col_maps() -> Vec<Vec<u8>> {
    (0..COL_MAPS).map(col_map).collect()
}

/// Column map number `i` of [`col_maps`] (taken modulo [`COL_MAPS`]), built alone.
pub fn col_map(i: usize) -> Vec<u8> {
    let i = i % COL_MAPS;
    let (stacks, left, right) = (i / 576, i / 24 % 24, i % 24);
    line_map(
        &nth_permutation(2, stacks),
        &[nth_permutation(4, left), nth_permutation(4, right)],
    )
}

/// Map number `i` (row map `i / 1152`, column map `i % 1152`); `None` when
/// `i >= 442,368`. Builds that one map only (the fuzzer draws one per case).
pub fn from_index(i: u32) -> Option<Symmetry> {
    if i >= ORDER {
        return None;
    }
    let (r, c) = ((i as usize) / COL_MAPS, (i as usize) % COL_MAPS);
    Some(Symmetry {
        rows: row_map(r),
        cols: col_map(c),
        transpose: false,
    })
}

/// Every map of the group, each once (442,368 of them), in the order of [`from_index`].
pub fn all() -> impl Iterator<Item = Symmetry> {
    let cols = col_maps();
    row_maps().into_iter().flat_map(move |rows| {
        cols.clone().into_iter().map(move |cols| Symmetry {
            rows: rows.clone(),
            cols,
            transpose: false,
        })
    })
}

/// Moves every cell (r, c) of `board` by the map `s` of the 8x8 group.
pub fn apply(s: &Symmetry, board: Board) -> Board {
    let mut to = [0u8; 64];
    for (i, &v) in board.cells().iter().enumerate() {
        let (r, c) = s.destination(i / 8, i % 8);
        to[8 * r + c] = v;
    }
    Board::from_cells(&to)
}

/// Moves a cell set (bit `i` = reading index `i`) the same way as [`apply`].
pub fn apply_mask(s: &Symmetry, set: u64) -> u64 {
    s.cell_permutation()
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| set >> i & 1 != 0)
        .fold(0, |out, (_, to)| out | 1 << to)
}

/// Relabels digits: digit `d` becomes `perm[d - 1]`, empty cells stay empty
/// (values 9-15 are kept as they are).
pub fn relabel(board: Board, perm: &[u8; 8]) -> Board {
    let mut cells = board.cells();
    group::relabel(&mut cells, perm);
    Board::from_cells(&cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octoku::verify::is_valid_grid;
    use std::collections::HashSet;

    /// 384 distinct row maps, 1152 distinct column maps; the numbering
    /// starts at the identity and ends before `ORDER`.
    #[test]
    fn there_are_384_distinct_row_maps_and_1152_column_maps_numbered_from_the_identity() {
        assert_eq!(row_maps().len(), 384);
        assert_eq!(col_maps().len(), 1152);
        assert_eq!(row_maps().into_iter().collect::<HashSet<_>>().len(), 384);
        assert_eq!(col_maps().into_iter().collect::<HashSet<_>>().len(), 1152);
        assert_eq!(from_index(0), Some(Symmetry::identity(8)));
        assert_eq!(from_index(ORDER), None);
    }

    /// The numbering the gas cases draw from, worked out by hand: map 96,371
    /// is row map 83 (bands to 0, 3, 2, 1 by permutation 5; swaps 3: bands 0
    /// and 1 swap their rows) and column map 771 (stacks swapped; the left
    /// stack by permutation 7 = 1, 0, 3, 2, the right by permutation 11 =
    /// 1, 3, 2, 0).
    #[test]
    fn numbering_is_pinned() {
        let s = from_index(96_371).unwrap();
        assert_eq!(s.rows, [1, 0, 7, 6, 4, 5, 2, 3]);
        assert_eq!(s.cols, [5, 4, 7, 6, 1, 3, 2, 0]);
        assert!(!s.transpose);
    }

    #[test]
    fn exactly_442368_distinct_maps_as_cell_permutations() {
        let perms: HashSet<Vec<usize>> = all().map(|s| s.cell_permutation()).collect();
        assert_eq!(perms.len(), 442_368);
        for p in perms.iter().take(1000) {
            let mut seen = [false; 64];
            for &j in p {
                seen[j] = true;
            }
            assert!(seen.iter().all(|&b| b), "a permutation");
        }
    }

    #[test]
    fn all_maps_send_valid_grids_to_valid_grids() {
        let g = Board::BASE_GRID;
        assert!(is_valid_grid(g));
        let mut n = 0;
        for s in all() {
            assert!(is_valid_grid(apply(&s, g)), "{s:?}");
            n += 1;
        }
        assert_eq!(n, 442_368);
        assert_eq!(from_index(300_001).unwrap(), all().nth(300_001).unwrap());
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
        let s = from_index(123_457).unwrap();
        let set = 0x8001_0203_4050_6070u64;
        let gc = g.cells();
        let c: [u8; 64] = std::array::from_fn(|i| if set >> i & 1 != 0 { gc[i] } else { 0 });
        let moved = apply(&s, Board::from_cells(&c)).cells();
        let mask = apply_mask(&s, set);
        for (i, &v) in moved.iter().enumerate() {
            assert_eq!(v != 0, mask >> i & 1 != 0);
        }
    }
}

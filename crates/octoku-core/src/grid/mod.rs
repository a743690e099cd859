//! A board of any Sudoku-family shape: N×N cells for a [`Geometry`], one byte
//! per cell in reading order, 0 for an empty cell and 1..=N for a symbol.
//!
//! The cell order is the one of the 8×8 [`Board`](crate::Board) and of the classic 81-byte
//! calldata form: index `N * row + col`. [`Grid::cells`] is that byte slice
//! and [`Grid::from_cells`] builds a board from one, checking its length and
//! every value.
//!
//! ```
//! use octoku_core::grid::geometry::Geometry;
//! use octoku_core::grid::Grid;
//! let mut b = Grid::empty(Geometry::CLASSIC);
//! b.set(0, 8, 9);
//! assert_eq!(b.cells()[8], 9);
//! assert_eq!(Grid::from_cells(Geometry::CLASSIC, b.cells()), Ok(b));
//! ```

pub mod board;
pub mod geometry;
pub mod svg;
pub mod symmetry;
pub mod text;

use std::fmt;

use crate::grid::geometry::Geometry;

/// An N×N board of a given geometry: one value per cell, 0 = empty, 1..=N a symbol.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    geometry: Geometry,
    cells: Vec<u8>,
}

/// Why raw cells do not make a board of the asked geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellsError {
    /// The slice does not hold N² cells.
    #[error("{found} cells for a {geometry} board; expected exactly {}", geometry.cell_count())]
    WrongLength {
        /// The geometry asked for.
        geometry: Geometry,
        /// Cells found.
        found: usize,
    },
    /// A cell holds a value above N.
    #[error(
        "row {} column {} holds {value}; cells of a {geometry} board must be 0 (empty) or 1-{}",
        row + 1,
        col + 1,
        geometry.size()
    )]
    ValueOutOfRange {
        /// The geometry asked for.
        geometry: Geometry,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The value found there.
        value: u8,
    },
    /// An 8×8 uint256 [`Board`](crate::Board) was asked of a board of another geometry.
    #[error("a {geometry} board has no 8x8 word form; expected an 8x8 board with 2x4 boxes")]
    NotOctoku {
        /// The board's geometry.
        geometry: Geometry,
    },
}

impl Grid {
    /// The board of `geometry` with every cell empty.
    pub fn empty(geometry: Geometry) -> Grid {
        Grid {
            geometry,
            cells: vec![0; geometry.cell_count()],
        }
    }

    /// A board from N² cells in reading order; every value must be 0..=N.
    pub fn from_cells(geometry: Geometry, cells: &[u8]) -> Result<Grid, CellsError> {
        if cells.len() != geometry.cell_count() {
            return Err(CellsError::WrongLength {
                geometry,
                found: cells.len(),
            });
        }
        let n = geometry.size();
        if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
            let (row, col) = geometry.position(i);
            return Err(CellsError::ValueOutOfRange {
                geometry,
                row,
                col,
                value: cells[i],
            });
        }
        Ok(Grid {
            geometry,
            cells: cells.to_vec(),
        })
    }

    /// The board's shape.
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The side N.
    pub const fn size(&self) -> usize {
        self.geometry.size()
    }

    /// The N² cells in reading order (index `N * row + col`), 0 = empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cell at `row`, `col` (0-based).
    ///
    /// # Panics
    /// Panics if `row` or `col` is N or more (a caller bug).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let n = self.size();
        assert!(row < n && col < n, "cell ({row}, {col}) outside {n}x{n}");
        self.cells[n * row + col]
    }

    /// Sets the cell at `row`, `col` to `value` (0 empties it).
    ///
    /// # Panics
    /// Panics if `row` or `col` is N or more, or `value` is above N (caller bugs).
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        let n = self.size();
        assert!(row < n && col < n, "cell ({row}, {col}) outside {n}x{n}");
        assert!(usize::from(value) <= n, "value {value} above {n}");
        self.cells[n * row + col] = value;
    }

    /// The number of non-empty cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a symbol.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Whether this is a solved grid: every row, column and box holds each of 1..=N once.
    pub fn is_valid_grid(&self) -> bool {
        let g = self.geometry;
        let full = (1u32 << (g.size() + 1)) - 2;
        g.units().all(|u| {
            g.unit_cells(u)
                .fold(0u32, |seen, (r, c)| seen | 1 << self.cells[g.index(r, c)])
                == full
        })
    }

    /// Whether `self` keeps every given of `start` (same geometry required).
    pub fn keeps_givens(&self, start: &Grid) -> bool {
        self.geometry == start.geometry
            && start
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&s, &v)| s == 0 || s == v)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self
            .cells
            .iter()
            .map(|&v| match v {
                0 => '.',
                1..=9 => char::from(b'0' + v),
                _ => char::from(b'A' + v - 10),
            })
            .collect();
        write!(f, "Grid({}, {text})", self.geometry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_cells_rejects_wrong_lengths_and_values_above_n() {
        let g = Geometry::for_size(4).unwrap();
        assert_eq!(
            Grid::from_cells(g, &[0; 15]),
            Err(CellsError::WrongLength {
                geometry: g,
                found: 15
            })
        );
        let mut cells = [0u8; 16];
        cells[6] = 5;
        let err = Grid::from_cells(g, &cells).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 2 column 3 holds 5; cells of a 4x4 (2x2 boxes) board must be 0 (empty) or 1-4"
        );
    }
}

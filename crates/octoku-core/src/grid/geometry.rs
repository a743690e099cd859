//! Board shapes: an N×N board split into boxes of `box_rows` × `box_cols`
//! cells, N = `box_rows` · `box_cols`, from 4×4 to 16×16.
//!
//! The published puzzle is [`Geometry::OCTOKU`] (8×8, 2×4 boxes); classic
//! Sudoku is [`Geometry::CLASSIC`] (9×9, 3×3 boxes). Boxes are numbered in
//! reading order: box `b` covers rows `box_rows * (b / bands_width)..` where
//! there are `N / box_cols` boxes across a band, so for 8×8 box `b` covers
//! rows `2 * (b / 2)..+2` and columns `4 * (b % 2)..+4`.
//!
//! ```
//! use octoku_core::grid::geometry::{Geometry, Unit};
//! let g = Geometry::OCTOKU;
//! assert_eq!(g.size(), 8);
//! assert_eq!(g.box_of(3, 5), 3);
//! assert_eq!(g.units().count(), 24);
//! assert_eq!(g.unit_cells(Unit::Box(3)).next(), Some((2, 4)));
//! ```

use std::fmt;

/// An N×N board shape with boxes of `box_rows` × `box_cols` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    box_rows: u8,
    box_cols: u8,
}

/// Why a requested board shape is not one octoku plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GeometryError {
    /// N = r·c is outside 4..=16.
    #[error(
        "boxes of {box_rows}x{box_cols} make a {n}x{n} board; expected box rows x box columns with a product from {min} to {max} (for example 2x4 or 3x3)",
        n = box_rows.saturating_mul(*box_cols),
        min = Geometry::MIN_SIZE,
        max = Geometry::MAX_SIZE
    )]
    SizeOutOfRange {
        /// Box rows asked for.
        box_rows: usize,
        /// Box columns asked for.
        box_cols: usize,
    },
    /// A size with no default box shape (a prime N, or out of range).
    #[error(
        "no board of size {size}: expected 4, 6, 8, 9, 10, 12, 14, 15 or 16 (or a --box RxC whose product is from {min} to {max})",
        min = Geometry::MIN_SIZE,
        max = Geometry::MAX_SIZE
    )]
    NoDefaultBox {
        /// The size asked for.
        size: usize,
    },
}

/// A row, column or box of a board (0-based index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Row 0..N, top to bottom.
    Row(usize),
    /// Column 0..N, left to right.
    Column(usize),
    /// Box 0..N in reading order (see [`Geometry::box_of`]).
    Box(usize),
}

impl Geometry {
    /// The smallest side octoku plays.
    pub const MIN_SIZE: usize = 4;
    /// The largest side octoku plays (symbols `1`-`9`, `A`-`G`).
    pub const MAX_SIZE: usize = 16;
    /// The published puzzle: 8×8 with 2×4 boxes.
    pub const OCTOKU: Geometry = Geometry {
        box_rows: 2,
        box_cols: 4,
    };
    /// Classic Sudoku: 9×9 with 3×3 boxes.
    pub const CLASSIC: Geometry = Geometry {
        box_rows: 3,
        box_cols: 3,
    };

    /// A board of boxes `box_rows` × `box_cols`; the side is their product.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Geometry, GeometryError> {
        let size = box_rows.checked_mul(box_cols);
        match size {
            Some(n) if (Self::MIN_SIZE..=Self::MAX_SIZE).contains(&n) && box_rows > 0 => {
                Ok(Geometry {
                    box_rows: box_rows as u8,
                    box_cols: box_cols as u8,
                })
            }
            _ => Err(GeometryError::SizeOutOfRange { box_rows, box_cols }),
        }
    }

    /// The default shape for a side: 4 → 2×2, 6 → 2×3, 8 → 2×4, 9 → 3×3,
    /// 10 → 2×5, 12 → 3×4, 14 → 2×7, 15 → 3×5, 16 → 4×4 (the squarest
    /// split with no more rows than columns per box).
    pub fn for_size(size: usize) -> Result<Geometry, GeometryError> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return Err(GeometryError::NoDefaultBox { size });
        }
        (2..=size.isqrt())
            .rev()
            .find(|&r| size.is_multiple_of(r))
            .map(|r| Geometry {
                box_rows: r as u8,
                box_cols: (size / r) as u8,
            })
            .ok_or(GeometryError::NoDefaultBox { size })
    }

    /// The side N: cells per row, column and box, and the number of symbols.
    pub const fn size(self) -> usize {
        self.box_rows as usize * self.box_cols as usize
    }

    /// N², the number of cells.
    pub const fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// Rows per box.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The box holding the cell at `row`, `col`, numbered in reading order.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        let across = self.size() / self.box_cols();
        (row / self.box_rows()) * across + col / self.box_cols()
    }

    /// The top-left cell `(row, col)` of box `b`.
    pub const fn box_origin(self, b: usize) -> (usize, usize) {
        let across = self.size() / self.box_cols();
        (
            (b / across) * self.box_rows(),
            (b % across) * self.box_cols(),
        )
    }

    /// The reading-order index `N * row + col` of a cell.
    pub const fn index(self, row: usize, col: usize) -> usize {
        self.size() * row + col
    }

    /// The `(row, col)` of reading-order index `i`.
    pub const fn position(self, i: usize) -> (usize, usize) {
        (i / self.size(), i % self.size())
    }

    /// The N cells `(row, col)` of a unit, in reading order.
    pub fn unit_cells(self, unit: Unit) -> impl Iterator<Item = (usize, usize)> {
        let n = self.size();
        (0..n).map(move |k| match unit {
            Unit::Row(r) => (r, k),
            Unit::Column(c) => (k, c),
            Unit::Box(b) => {
                let (r0, c0) = self.box_origin(b);
                (r0 + k / self.box_cols(), c0 + k % self.box_cols())
            }
        })
    }

    /// All 3N units: rows, then columns, then boxes.
    pub fn units(self) -> impl Iterator<Item = Unit> {
        let n = self.size();
        (0..n)
            .map(Unit::Row)
            .chain((0..n).map(Unit::Column))
            .chain((0..n).map(Unit::Box))
    }

    /// The three units through a cell: its row, column and box.
    pub const fn units_of(self, row: usize, col: usize) -> [Unit; 3] {
        [
            Unit::Row(row),
            Unit::Column(col),
            Unit::Box(self.box_of(row, col)),
        ]
    }

    /// A unit for people, 1-based: `row 3`, `column 5`,
    /// `subgrid 2 (rows 1-2, columns 5-8)`.
    pub fn describe(self, unit: Unit) -> String {
        match unit {
            Unit::Row(r) => format!("row {}", r + 1),
            Unit::Column(c) => format!("column {}", c + 1),
            Unit::Box(b) => {
                let (r0, c0) = self.box_origin(b);
                format!(
                    "subgrid {} (rows {}-{}, columns {}-{})",
                    b + 1,
                    r0 + 1,
                    r0 + self.box_rows(),
                    c0 + 1,
                    c0 + self.box_cols()
                )
            }
        }
    }

    /// The position `0..3N` of a unit in [`Geometry::units`] order: rows
    /// `0..N`, columns `N..2N`, boxes `2N..3N`.
    pub const fn unit_index(self, unit: Unit) -> usize {
        match unit {
            Unit::Row(r) => r,
            Unit::Column(c) => self.size() + c,
            Unit::Box(b) => 2 * self.size() + b,
        }
    }
}

impl Geometry {
    /// The box shape as `RxC` (rows x columns of a box), as `--box` takes it.
    pub fn box_label(self) -> String {
        format!("{}x{}", self.box_rows, self.box_cols)
    }
}

impl fmt::Display for Geometry {
    /// `9x9 (3x3 boxes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        write!(f, "{n}x{n} ({}x{} boxes)", self.box_rows, self.box_cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes_are_the_documented_ones() {
        let shapes: Vec<(usize, usize, usize)> = (4..=16)
            .filter_map(|n| {
                Geometry::for_size(n)
                    .ok()
                    .map(|g| (n, g.box_rows(), g.box_cols()))
            })
            .collect();
        assert_eq!(
            shapes,
            [
                (4, 2, 2),
                (6, 2, 3),
                (8, 2, 4),
                (9, 3, 3),
                (10, 2, 5),
                (12, 3, 4),
                (14, 2, 7),
                (15, 3, 5),
                (16, 4, 4)
            ]
        );
        assert_eq!(
            Geometry::for_size(7),
            Err(GeometryError::NoDefaultBox { size: 7 })
        );
        assert!(Geometry::new(1, 3).is_err());
        assert!(Geometry::new(0, 9).is_err());
        assert!(Geometry::new(4, 5).is_err());
        assert_eq!(Geometry::new(4, 2).unwrap().size(), 8);
    }

    #[test]
    fn every_unit_covers_each_cell_once_per_kind() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (1, 4),
        ] {
            let g = Geometry::new(r, c).unwrap();
            let n = g.size();
            let mut seen = vec![0u8; n * n];
            for (k, unit) in g.units().enumerate() {
                assert_eq!(g.unit_index(unit), k, "{g}: {unit:?}");
                let cells: Vec<_> = g.unit_cells(unit).collect();
                assert_eq!(cells.len(), n);
                for (row, col) in cells {
                    seen[g.index(row, col)] += 1;
                    assert!(g.units_of(row, col).contains(&unit), "{g}: {unit:?}");
                }
            }
            assert!(seen.iter().all(|&k| k == 3), "{g}");
        }
    }

    #[test]
    fn octoku_boxes_match_the_contract_numbering() {
        let g = Geometry::OCTOKU;
        for row in 0..8 {
            for col in 0..8 {
                assert_eq!(g.box_of(row, col), (row / 2) * 2 + col / 4);
            }
        }
        assert_eq!(
            g.describe(Unit::Box(1)),
            "subgrid 2 (rows 1-2, columns 5-8)"
        );
    }
}

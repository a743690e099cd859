//! Practice puzzles of any size from 4×4 to 16×16 (boxes from
//! [`Geometry::for_size`]), played off-chain: a random complete grid, then
//! givens removed in random order while the solution stays unique.
//!
//! Until the Sudoku-family generator of issue 14 lands in the core, this is
//! the server's own small generator: candidate masks per row, column and box,
//! search on the cell with the fewest candidates. Each uniqueness check has a
//! node budget; a check that runs out keeps the given, so every puzzle
//! returned has exactly one solution (the budget only makes it less sparse).

use octoku_core::{geometry::Geometry, rng::SplitMix64};

/// Search nodes one uniqueness check may visit before the given is kept.
const CHECK_BUDGET: u64 = 20_000;
/// Search nodes one attempt at a complete grid may visit before restarting.
const FILL_BUDGET: u64 = 200_000;

/// A practice puzzle and its unique solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Practice {
    /// Board shape.
    pub geometry: Geometry,
    /// Cells in reading order: 0 empty, else a digit 1..=N.
    pub cells: Vec<u8>,
    /// The solution, same order.
    pub solution: Vec<u8>,
}

/// Row, column and box masks of the digits placed so far (bit d-1 = digit d).
struct Grid {
    g: Geometry,
    cells: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
    all: u32,
}

impl Grid {
    fn new(g: Geometry, cells: &[u8]) -> Grid {
        let n = g.size();
        let mut grid = Grid {
            g,
            cells: vec![0; n * n],
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
            all: (1u32 << n) - 1,
        };
        for (i, &d) in cells.iter().enumerate() {
            if d != 0 {
                grid.place(i, d);
            }
        }
        grid
    }

    fn place(&mut self, i: usize, d: u8) {
        let (r, c) = self.g.position(i);
        let bit = 1u32 << (d - 1);
        self.cells[i] = d;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[self.g.box_of(r, c)] |= bit;
    }

    fn clear(&mut self, i: usize) {
        let (r, c) = self.g.position(i);
        let bit = !(1u32 << (self.cells[i] - 1));
        self.cells[i] = 0;
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[self.g.box_of(r, c)] &= bit;
    }

    fn candidates(&self, i: usize) -> u32 {
        let (r, c) = self.g.position(i);
        self.all & !(self.rows[r] | self.cols[c] | self.boxes[self.g.box_of(r, c)])
    }

    /// The empty cell with the fewest candidates, and them; `None` when full.
    fn most_constrained(&self) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        for i in 0..self.cells.len() {
            if self.cells[i] != 0 {
                continue;
            }
            let m = self.candidates(i);
            if best.is_none_or(|(_, b)| m.count_ones() < b.count_ones()) {
                best = Some((i, m));
                if m.count_ones() <= 1 {
                    break;
                }
            }
        }
        best
    }

    /// Counts solutions up to `limit`, visiting at most `*budget` nodes;
    /// `None` when the budget ran out first.
    fn count(&mut self, limit: u32, budget: &mut u64) -> Option<u32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let Some((i, mut m)) = self.most_constrained() else {
            return Some(1);
        };
        let mut found = 0;
        while m != 0 && found < limit {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            self.place(i, d);
            let sub = self.count(limit - found, budget);
            self.clear(i);
            found += sub?;
        }
        Some(found)
    }

    /// Completes the grid with digits tried in random order; false when the
    /// budget runs out or there is no completion.
    fn fill(&mut self, rng: &mut SplitMix64, budget: &mut u64) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let Some((i, m)) = self.most_constrained() else {
            return true;
        };
        let mut digits: Vec<u8> = (0..32u8)
            .filter(|b| m >> b & 1 != 0)
            .map(|b| b + 1)
            .collect();
        rng.shuffle(&mut digits);
        for d in digits {
            self.place(i, d);
            if self.fill(rng, budget) {
                return true;
            }
            self.clear(i);
        }
        false
    }
}

/// A unique puzzle of `geometry`'s size drawn from `seed`.
pub fn generate(geometry: Geometry, seed: u64) -> Practice {
    let mut rng = SplitMix64::new(seed);
    let n = geometry.size();
    let solution = loop {
        let mut grid = Grid::new(geometry, &vec![0; n * n]);
        let mut budget = FILL_BUDGET;
        if grid.fill(&mut rng, &mut budget) {
            break grid.cells;
        }
    };
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    let mut grid = Grid::new(geometry, &solution);
    for i in order {
        let d = grid.cells[i];
        grid.clear(i);
        let mut budget = CHECK_BUDGET;
        if grid.count(2, &mut budget) != Some(1) {
            grid.place(i, d);
        }
    }
    Practice {
        geometry,
        cells: grid.cells,
        solution,
    }
}

/// Number of solutions of `cells` (a board of `geometry`), counted up to `limit`.
pub fn count_solutions(geometry: Geometry, cells: &[u8], limit: u32) -> u32 {
    let mut grid = Grid::new(geometry, cells);
    let mut budget = u64::MAX;
    grid.count(limit, &mut budget).unwrap_or(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every puzzle drawn has exactly one solution, the one returned, and
    /// keeps that solution's digits on its givens.
    #[test]
    fn puzzles_of_every_size_are_unique_and_agree_with_their_solution() {
        for size in [4, 6, 8, 9, 10, 12, 16] {
            let g = Geometry::for_size(size).unwrap();
            for seed in 0..2 {
                let p = generate(g, seed);
                assert_eq!(p.cells.len(), size * size);
                assert_eq!(
                    count_solutions(g, &p.cells, 2),
                    1,
                    "size {size} seed {seed}"
                );
                for (i, (&c, &s)) in p.cells.iter().zip(&p.solution).enumerate() {
                    assert!(c == 0 || c == s, "size {size} cell {i}");
                }
                let givens = p.cells.iter().filter(|&&c| c != 0).count();
                assert!(givens < size * size, "size {size}: no cell was removed");
            }
        }
    }

    #[test]
    fn the_solution_is_a_valid_grid() {
        let g = Geometry::CLASSIC;
        let p = generate(g, 7);
        for unit in g.units() {
            let mut seen = 0u32;
            for (r, c) in g.unit_cells(unit) {
                seen |= 1 << (p.solution[g.index(r, c)] - 1);
            }
            assert_eq!(seen, (1 << 9) - 1, "{unit:?}");
        }
    }

    #[test]
    fn same_seed_same_puzzle() {
        let g = Geometry::for_size(6).unwrap();
        assert_eq!(generate(g, 42), generate(g, 42));
        assert_ne!(generate(g, 42).cells, generate(g, 43).cells);
    }
}

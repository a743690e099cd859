//! Puzzles with exactly one solution, for every geometry, reproducible from a seed.
//!
//! A puzzle starts as a random solved grid (the empty board solved with the
//! candidates of every branch tried in an order drawn from the seed, then a
//! random symmetry of the board); givens are then removed one by one, in a
//! random order, each removal kept only while the solution stays unique.
//! With a target number of givens the removal stops there; when one pass
//! ends above the target, more passes are tried on fresh grids, and if none
//! reaches it the error says the fewest givens reached.
//!
//! ```
//! use octoku_core::grid::geometry::Geometry;
//! use octoku_core::{puzzle, solve};
//! let p = puzzle::generate(Geometry::CLASSIC, 7, Some(30)).unwrap();
//! assert_eq!(p.puzzle.givens(), 30);
//! assert!(solve::is_unique(&p.puzzle));
//! assert_eq!(solve::solve(&p.puzzle), Some(p.solution));
//! ```

use crate::grid::Grid;
use crate::grid::geometry::Geometry;
use crate::grid::symmetry::{self, Symmetry};
use crate::rng::SplitMix64;
use crate::solve;

/// Passes tried (each on a fresh grid) before a target number of givens is declared out of reach.
pub const PASSES: usize = 8;

/// A puzzle and its one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The start board.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
}

/// Why no puzzle was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// More givens asked for than the board has cells.
    #[error(
        "--givens {asked} is more than the {n} cells of a {geometry} board; expected at most {n}",
        n = geometry.cell_count()
    )]
    TooManyGivens {
        /// The geometry.
        geometry: Geometry,
        /// Givens asked for.
        asked: usize,
    },
    /// No pass got down to the target while keeping the solution unique.
    #[error(
        "--givens {asked} is out of reach for a unique {geometry} puzzle: {passes} passes removed givens while the solution stayed unique and the fewest reached was {fewest}; expected --givens {fewest} or more (or another --seed)"
    )]
    Unreachable {
        /// The geometry.
        geometry: Geometry,
        /// Givens asked for.
        asked: usize,
        /// The fewest givens any pass reached.
        fewest: usize,
        /// Passes tried.
        passes: usize,
    },
}

/// Applies a random symmetry of the board's geometry ([`crate::grid::symmetry`]):
/// bands and the rows inside each band permuted, stacks and the columns
/// inside each stack permuted, symbols relabelled, and (for square boxes) a
/// transposition at random. A valid grid stays valid. The draws from `rng`
/// come in that order; generated puzzles depend on it.
pub fn transform(board: &Grid, rng: &mut SplitMix64) -> Grid {
    let g = board.geometry();
    let n = g.size();
    let (br, bc) = (g.box_rows(), g.box_cols());
    let rows = symmetry::shuffled_lines(n, br, rng);
    let cols = symmetry::shuffled_lines(n, bc, rng);
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut labels);
    let transpose = br == bc && rng.below(2) == 1;
    let mut cells = Symmetry::from_sources(&rows, &cols, transpose).apply_cells(board.cells());
    symmetry::relabel(&mut cells, &labels);
    Grid::from_cells(g, &cells).expect("a symmetry keeps the values of the board")
}

/// A random solved grid of `g`.
pub fn solved_grid(g: Geometry, rng: &mut SplitMix64) -> Grid {
    let grid = solve::solve_random(&Grid::empty(g), rng)
        .expect("the empty board of every geometry has a solution");
    transform(&grid, rng)
}

/// Removes givens of `solution` in a random order while the solution stays
/// unique, stopping at `target` givens. The board is unique before each
/// removal, so it stays unique exactly when no solution avoids the removed
/// given ([`solve::solvable_without`]: one search, not a count to two).
fn remove_givens(solution: &Grid, target: usize, rng: &mut SplitMix64) -> Grid {
    let g = solution.geometry();
    let mut board = solution.clone();
    let mut order: Vec<usize> = (0..g.cell_count()).collect();
    rng.shuffle(&mut order);
    let mut givens = g.cell_count();
    for i in order {
        if givens <= target {
            break;
        }
        let (r, c) = g.position(i);
        let v = board.get(r, c);
        board.set(r, c, 0);
        if !solve::solvable_without(&board, i, v) {
            givens -= 1;
        } else {
            board.set(r, c, v);
        }
    }
    board
}

/// A puzzle of `g` with exactly one solution, the same for the same `seed`:
/// with `givens`, exactly that many; without, as few as one pass reaches
/// (every remaining given is needed for uniqueness).
pub fn generate(g: Geometry, seed: u64, givens: Option<usize>) -> Result<Puzzle, PuzzleError> {
    if let Some(k) = givens
        && k > g.cell_count()
    {
        return Err(PuzzleError::TooManyGivens {
            geometry: g,
            asked: k,
        });
    }
    let mut rng = SplitMix64::new(seed);
    let target = givens.unwrap_or(0);
    let mut fewest = usize::MAX;
    for _ in 0..if givens.is_some() { PASSES } else { 1 } {
        let solution = solved_grid(g, &mut rng);
        let puzzle = remove_givens(&solution, target, &mut rng);
        let left = puzzle.givens();
        if givens.is_none() || left == target {
            return Ok(Puzzle { puzzle, solution });
        }
        fewest = fewest.min(left);
    }
    Err(PuzzleError::Unreachable {
        geometry: g,
        asked: target,
        fewest,
        passes: PASSES,
    })
}

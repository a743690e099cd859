//! What the 9×9 benchmarks against the `sudoku` crate share (classic9 and
//! family): the puzzle files and the four criterion runs per set.

use criterion::{Criterion, black_box};
use octoku_core::grid::Grid;
use octoku_core::grid::text::{self, ReadOptions};
use octoku_core::solve;

use crate::common::cycle;

/// The puzzles of a data file (one per line, `#` comments).
pub fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            text::read(l, &ReadOptions::default())
                .expect("data files hold valid boards")
                .board
        })
        .collect()
}

/// A 9×9 board as the `sudoku` crate's type (the same 81 bytes, 0 = empty).
pub fn to_sudoku(b: &Grid) -> sudoku::Sudoku {
    let cells: [u8; 81] = b.cells().try_into().expect("a 9x9 board");
    sudoku::Sudoku::from_bytes(cells).expect("cells 0-9")
}

/// The criterion group `name` on a 9×9 `set`: octoku's solve and count to 2
/// against the `sudoku` crate's (its first solution benchmarked as
/// `sudoku_solve_id`).
pub fn bench_set(c: &mut Criterion, name: &str, set: &[Grid], sudoku_solve_id: &str) {
    let theirs: Vec<sudoku::Sudoku> = set.iter().map(to_sudoku).collect();
    let mut g = c.benchmark_group(name);
    cycle(&mut g, "octoku_solve", set, |b| {
        black_box(solve::solve(b));
    });
    cycle(&mut g, sudoku_solve_id, &theirs, |s| {
        black_box(s.some_solution());
    });
    cycle(&mut g, "octoku_count2", set, |b| {
        black_box(solve::count(b, 2));
    });
    cycle(&mut g, "sudoku_count2", &theirs, |s| {
        black_box(s.solutions_count_up_to(2));
    });
    g.finish();
}

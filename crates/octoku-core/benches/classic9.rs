//! 9×9 benchmarks on the public sets of `data/classic9` (sources in its
//! README): octoku's solver against the `sudoku` crate 0.8 (a Rust port of
//! jczsolve) on the same puzzles in the same process, first solution and
//! count to 2.
//!
//! Run: `cargo bench -p octoku-core --bench classic9`. Before the criterion
//! groups it prints a table: for each set and task, µs per puzzle over whole
//! passes of the set (at least a second each), the median of 3 rounds in
//! which the two solvers take turns, and the ratio octoku ÷ sudoku (below 1:
//! octoku is faster) as the median of the 3 rounds' ratios (each round's
//! two figures saw the same load); then the 8×8 path's per-board median.
//! `cargo bench -p octoku-core --bench classic9 -- table` prints the table
//! alone (no criterion group is named `table`).

use criterion::{Criterion, black_box};
use octoku_core::grid::Grid;
use octoku_core::solve::{self, octoku};
use std::time::{Duration, Instant};

mod common;
use common::{generated_boards, sorted_times};
#[path = "common/versus.rs"]
mod versus;
use versus::{puzzles, to_sudoku};

/// The sets, in the order of the docs' table.
fn sets() -> Vec<(&'static str, Vec<Grid>)> {
    vec![
        (
            "clue17",
            puzzles(include_str!("../data/classic9/clue17.txt")),
        ),
        (
            "top1465",
            puzzles(include_str!("../data/classic9/top1465.txt")),
        ),
        (
            "hardest11",
            puzzles(include_str!("../data/classic9/hardest11.txt")),
        ),
        (
            "hardest1106",
            puzzles(include_str!("../data/classic9/hardest1106.txt")),
        ),
        (
            "minimal",
            puzzles(include_str!("../data/classic9/minimal.txt")),
        ),
    ]
}

/// µs per item of one pass of `f` over `items`, repeated until `at_least` has passed.
fn per_item<T>(items: &[T], at_least: Duration, f: &impl Fn(&T)) -> f64 {
    let start = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || start.elapsed() < at_least {
        for x in items {
            f(black_box(x));
        }
        passes += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(passes) / items.len() as f64
}

/// The median of three.
fn median3(mut v: [f64; 3]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[1]
}

/// Prints µs per puzzle (median of 3 alternating rounds) and the ratios.
fn print_table() {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at start: {}", load.trim());
    println!(
        "| set | puzzles | octoku solve | sudoku solve | ratio | octoku count 2 | sudoku count 2 | ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let slice = Duration::from_secs(1);
    for (name, set) in sets() {
        let theirs: Vec<sudoku::Sudoku> = set.iter().map(to_sudoku).collect();
        // Three rounds, each timing the four in turn: [octoku solve, sudoku solve, octoku count, sudoku count].
        let rounds: [[f64; 4]; 3] = std::array::from_fn(|_| {
            [
                per_item(&set, slice, &|b: &Grid| {
                    black_box(solve::solve(b));
                }),
                per_item(&theirs, slice, &|s: &sudoku::Sudoku| {
                    black_box(s.some_solution());
                }),
                per_item(&set, slice, &|b: &Grid| {
                    black_box(solve::count(b, 2));
                }),
                per_item(&theirs, slice, &|s: &sudoku::Sudoku| {
                    black_box(s.solutions_count_up_to(2));
                }),
            ]
        });
        let [os, ss, oc, sc]: [f64; 4] = std::array::from_fn(|i| median3(rounds.map(|r| r[i])));
        let solve_ratio = median3(rounds.map(|r| r[0] / r[1]));
        let count_ratio = median3(rounds.map(|r| r[2] / r[3]));
        println!(
            "| {name} | {} | {os:.2} | {ss:.2} | {solve_ratio:.2} | {oc:.2} | {sc:.2} | {count_ratio:.2} |",
            set.len()
        );
    }
    // The 8×8 path in the same run: per-board median (the figure docs/family.md gives).
    let boards = generated_boards(256);
    let times = sorted_times(&boards, 200, |&b| {
        black_box(octoku::solve(b)).ok();
    });
    println!(
        "8x8 generated-like boards, octoku::solve per-board median: {:.3} µs",
        times[times.len() / 2].as_secs_f64() * 1e6
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at end: {}", load.trim());
}

fn bench_classic9(c: &mut Criterion) {
    for (name, set) in sets() {
        versus::bench_set(c, name, &set, "sudoku_solve");
    }
}

fn main() {
    common::main(print_table, bench_classic9);
}

//! Solver benchmarks: the fast solver against the naive baseline on
//! generated-like boards (8 distinct digits on 8 random cells, solvable ones
//! only), and count / is_unique on unique-solution puzzles with 20-30 givens.
//!
//! Run: `cargo bench -p octoku-core --bench solve`. Before the criterion
//! groups it prints a per-board distribution (median, p90, max) of the fast
//! solver's time, each board timed on its own.

use criterion::{Criterion, black_box};
use octoku_core::Board;
use octoku_core::solve::naive::solve_naive;
use octoku_core::solve::octoku::{count, is_unique, solve};
use std::time::Duration;

mod common;
use common::{cycle, generated_boards, sorted_times};

/// The unique-solution puzzles kept in `data/unique_puzzles.txt`.
fn unique_puzzles() -> Vec<Board> {
    include_str!("../data/unique_puzzles.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.parse().ok())
        .collect()
}

/// Median, 90th percentile and maximum time of `f` per board, each board timed alone.
fn distribution(boards: &[Board], reps: u32, f: impl Fn(Board)) -> (Duration, Duration, Duration) {
    let times = sorted_times(boards, reps, |&b| f(b));
    let n = times.len();
    (times[n / 2], times[n * 9 / 10], times[n - 1])
}

fn bench_solve(c: &mut Criterion) {
    let boards = generated_boards(256);
    let puzzles = unique_puzzles();

    let mut g = c.benchmark_group("generated");
    cycle(&mut g, "solve", &boards, |&b| {
        black_box(solve(b)).ok();
    });
    cycle(&mut g, "solve_naive", &boards, |&b| {
        black_box(solve_naive(b));
    });
    g.finish();

    let mut g = c.benchmark_group("unique_20_30");
    cycle(&mut g, "count_limit_2", &puzzles, |&b| {
        black_box(count(b, 2)).ok();
    });
    cycle(&mut g, "is_unique", &puzzles, |&b| {
        black_box(is_unique(b)).ok();
    });
    cycle(&mut g, "solve", &puzzles, |&b| {
        black_box(solve(b)).ok();
    });
    cycle(&mut g, "solve_naive", &puzzles, |&b| {
        black_box(solve_naive(b));
    });
    g.finish();
}

/// Prints per-board distributions of the fast and naive solvers on generated boards.
fn print_distributions() {
    let boards = generated_boards(256);
    let (med, p90, max) = distribution(&boards, 200, |b| {
        let _ = black_box(solve(b));
    });
    println!(
        "per-board fast solve over {} generated boards: median {med:?}, p90 {p90:?}, max {max:?}",
        boards.len()
    );
    let (nmed, np90, nmax) = distribution(&boards, 1, |b| {
        let _ = black_box(solve_naive(b));
    });
    println!(
        "per-board naive solve over the same boards: median {nmed:?}, p90 {np90:?}, max {nmax:?}"
    );
    println!(
        "median ratio naive/fast: {:.1}",
        nmed.as_secs_f64() / med.as_secs_f64().max(1e-12)
    );
}

fn main() {
    common::main(print_distributions, bench_solve);
}

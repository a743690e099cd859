//! Sudoku-family benchmarks: the general solver (`octoku_core::solve`) on 9×9
//! against the `sudoku` crate (a Rust port of jczsolve) on the same fixed
//! puzzle sets, on 6×6, 12×12 and 16×16 puzzles, and on 8×8 boards against
//! the 8×8-only solver (`octoku_core::solve::octoku`).
//!
//! Run: `cargo bench -p octoku-core --bench family -- --warm-up-time 1 --measurement-time 3`.
//! Before the criterion groups it prints, per set, each puzzle timed on its
//! own (median and mean over the set) for both solvers, and the ratio of the
//! means (octoku time / sudoku time: below 1 means octoku is faster).

use criterion::{Criterion, black_box};
use octoku_core::grid::Grid;
use octoku_core::solve::{self, octoku};
use std::time::Duration;

mod common;
use common::{cycle, generated_boards, sorted_times};
#[path = "common/versus.rs"]
mod versus;
use versus::{puzzles, to_sudoku};

/// The 9×9 sets.
fn classic_sets() -> Vec<(&'static str, Vec<Grid>)> {
    vec![
        (
            "classic_generated",
            puzzles(include_str!("../data/classic_generated.txt")),
        ),
        (
            "classic_hard",
            puzzles(include_str!("../data/classic_hard.txt")),
        ),
    ]
}

/// The other sizes.
fn other_sets() -> Vec<(&'static str, Vec<Grid>)> {
    vec![
        ("size6", puzzles(include_str!("../data/size6.txt"))),
        ("size12", puzzles(include_str!("../data/size12.txt"))),
        ("size16", puzzles(include_str!("../data/size16.txt"))),
    ]
}

/// Per-item times of `f` (each item timed alone over `reps` runs): (median, mean).
fn timed<T>(items: &[T], reps: u32, f: impl Fn(&T)) -> (Duration, Duration) {
    let times = sorted_times(items, reps, f);
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    (times[times.len() / 2], mean)
}

/// Prints per-set medians, means and ratios.
fn print_summary() {
    println!(
        "set                 task          octoku median/mean      sudoku median/mean      ratio of means (octoku/sudoku)"
    );
    for (name, set) in classic_sets() {
        let theirs: Vec<sudoku::Sudoku> = set.iter().map(to_sudoku).collect();
        let (om, oa) = timed(&set, 20, |b| {
            black_box(solve::solve(b));
        });
        let (sm, sa) = timed(&theirs, 20, |s| {
            black_box(s.some_solution());
        });
        println!(
            "{name:<19} solve         {om:>9.2?} / {oa:>9.2?}   {sm:>9.2?} / {sa:>9.2?}   {:.2}",
            oa.as_secs_f64() / sa.as_secs_f64()
        );
        let (om, oa) = timed(&set, 20, |b| {
            black_box(solve::count(b, 2));
        });
        let (sm, sa) = timed(&theirs, 20, |s| {
            black_box(s.solutions_count_up_to(2));
        });
        println!(
            "{name:<19} count(2)      {om:>9.2?} / {oa:>9.2?}   {sm:>9.2?} / {sa:>9.2?}   {:.2}",
            oa.as_secs_f64() / sa.as_secs_f64()
        );
    }
    for (name, set) in other_sets() {
        let (m, a) = timed(&set, 10, |b| {
            black_box(solve::solve(b));
        });
        println!("{name:<19} solve         {m:>9.2?} / {a:>9.2?}");
    }
    let boards = generated_boards(256);
    let general: Vec<Grid> = boards.iter().map(|&b| Grid::try_from(b).unwrap()).collect();
    let (m8, a8) = timed(&boards, 200, |&b| {
        black_box(octoku::solve(b)).ok();
    });
    let (mg, ag) = timed(&general, 200, |b| {
        black_box(solve::solve(b));
    });
    println!("8x8 generated       solve (8x8)   {m8:>9.2?} / {a8:>9.2?}");
    println!(
        "8x8 generated       generic       {mg:>9.2?} / {ag:>9.2?}   median ratio generic/8x8 {:.2}",
        mg.as_secs_f64() / m8.as_secs_f64()
    );
}

fn bench_family(c: &mut Criterion) {
    for (name, set) in classic_sets() {
        versus::bench_set(c, name, &set, "sudoku_some_solution");
    }
    for (name, set) in other_sets() {
        let mut g = c.benchmark_group(name);
        cycle(&mut g, "octoku_solve", &set, |b| {
            black_box(solve::solve(b));
        });
        g.finish();
    }
    let boards = generated_boards(256);
    let general: Vec<Grid> = boards.iter().map(|&b| Grid::try_from(b).unwrap()).collect();
    let mut g = c.benchmark_group("octoku8_generated");
    cycle(&mut g, "solve_8x8", &boards, |&b| {
        black_box(octoku::solve(b)).ok();
    });
    cycle(&mut g, "generic", &general, |b| {
        black_box(solve::solve(b));
    });
    g.finish();
}

fn main() {
    common::main(print_summary, bench_family);
}

//! What the benchmarks share: the 8×8 board set and per-item timing.

use criterion::{Criterion, black_box};
use octoku_core::Board;
use octoku_core::rng::SplitMix64;
use octoku_core::solve::octoku::solve;
use std::time::{Duration, Instant};

/// `n` solvable 8×8 boards like the published generate's: digits 1-8
/// (shuffled) on 8 distinct random cells.
pub fn generated_boards(n: usize) -> Vec<Board> {
    let mut rng = SplitMix64::new(0x2545_F491_4F6C_DD1D);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut cells = [0u8; 64];
        let mut digits: Vec<u8> = (1..=8).collect();
        rng.shuffle(&mut digits);
        let mut placed = 0;
        while placed < 8 {
            let i = rng.below(64) as usize;
            if cells[i] == 0 {
                cells[i] = digits[placed];
                placed += 1;
            }
        }
        let b = Board::from_cells(&cells);
        if matches!(solve(b), Ok(Some(_))) {
            out.push(b);
        }
    }
    out
}

/// The time of `f` per item (each item timed alone, averaged over `reps`
/// runs), shortest first.
pub fn sorted_times<T>(items: &[T], reps: u32, f: impl Fn(&T)) -> Vec<Duration> {
    let mut times: Vec<Duration> = items
        .iter()
        .map(|x| {
            let t = Instant::now();
            for _ in 0..reps {
                f(black_box(x));
            }
            t.elapsed() / reps
        })
        .collect();
    times.sort();
    times
}

/// Benchmarks `f` over `items`, one item per iteration, cycling.
pub fn cycle<T>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    items: &[T],
    f: impl Fn(&T),
) {
    let mut k = 0usize;
    g.bench_function(name, |b| {
        b.iter(|| {
            k = (k + 1) % items.len();
            f(black_box(&items[k]))
        })
    });
}

/// The criterion settings of every group: 1 s warm-up, 3 s measurement,
/// 50 samples.
pub fn criterion() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(50)
}

/// A benchmark binary's `main`: `report` (a real benchmark run only, not
/// `cargo test --benches`), then `benches` with the settings of
/// [`criterion`] and the command line's.
pub fn main(report: fn(), benches: fn(&mut Criterion)) {
    if std::env::args().any(|a| a == "--bench") {
        report();
    }
    benches(&mut criterion().configure_from_args());
    Criterion::default().configure_from_args().final_summary();
}

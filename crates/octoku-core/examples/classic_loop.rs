//! Solves a fixed 9×9 set many times with one solver, for CPU-time figures
//! on a shared machine (wall-clock benchmarks there count time spent
//! waiting for a core):
//!
//! ```sh
//! cargo build --release -p octoku-core --example classic_loop
//! perf stat -e task-clock target/release/examples/classic_loop octoku-solve hard 60
//! perf stat -e task-clock target/release/examples/classic_loop sudoku-solve hard 60
//! ```
//!
//! Solvers: `octoku-solve`, `octoku-count2`, `sudoku-solve`, `sudoku-count2`,
//! `none` (reads the set only, the baseline to subtract). Sets: `generated`
//! (data/classic_generated.txt), `hard` (data/classic_hard.txt), the
//! public sets of data/classic9 (`clue17`, `top1465`, `hardest11`,
//! `hardest1106`, `minimal`; see its README), or a path (a name with a `/`)
//! to a file of line-form puzzles, such as a shuffled copy made by
//! `family_times shuffle`.
//!
//! It prints the thread CPU time of the passes (reading the set excluded),
//! in µs per puzzle, after one untimed pass that warms up caches and
//! predictors: `ns_per_puzzle / 1000` to three decimals.

use octoku_core::grid::Grid;
use octoku_core::grid::text::{self, ReadOptions};
use octoku_core::solve;
use std::hint::black_box;
use std::process::ExitCode;

fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| text::read(l, &ReadOptions::default()).ok())
        .map(|p| p.board)
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(solver), Some(set), Some(Ok(reps))) = (
        args.get(1),
        args.get(2),
        args.get(3).map(|r| r.parse::<usize>()),
    ) else {
        eprintln!("usage: classic_loop SOLVER SET REPS (see the doc comment for the choices)");
        return ExitCode::from(2);
    };
    let ours = match set.as_str() {
        "generated" => puzzles(include_str!("../data/classic_generated.txt")),
        "hard" => puzzles(include_str!("../data/classic_hard.txt")),
        "clue17" => puzzles(include_str!("../data/classic9/clue17.txt")),
        "top1465" => puzzles(include_str!("../data/classic9/top1465.txt")),
        "hardest11" => puzzles(include_str!("../data/classic9/hardest11.txt")),
        "hardest1106" => puzzles(include_str!("../data/classic9/hardest1106.txt")),
        "minimal" => puzzles(include_str!("../data/classic9/minimal.txt")),
        path if path.contains('/') => match std::fs::read_to_string(path) {
            Ok(text) => puzzles(&text),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!(
                "unknown set {set}; expected generated, hard, clue17, top1465, hardest11, hardest1106, minimal or a path with a /"
            );
            return ExitCode::from(2);
        }
    };
    let theirs: Vec<sudoku::Sudoku> = ours
        .iter()
        .filter_map(|b| <[u8; 81]>::try_from(b.cells()).ok())
        .filter_map(|c| sudoku::Sudoku::from_bytes(c).ok())
        .collect();
    let mut start = cpu_time();
    for pass in 0..=reps {
        if pass == 1 {
            start = cpu_time();
        }
        match solver.as_str() {
            "octoku-solve" => ours.iter().for_each(|b| {
                black_box(solve::solve(black_box(b)));
            }),
            "octoku-count2" => ours.iter().for_each(|b| {
                black_box(solve::count(black_box(b), 2));
            }),
            "sudoku-solve" => theirs.iter().for_each(|s| {
                black_box(black_box(*s).some_solution());
            }),
            "sudoku-count2" => theirs.iter().for_each(|s| {
                black_box(black_box(*s).solutions_count_up_to(2));
            }),
            "none" => {}
            _ => {
                eprintln!("unknown solver {solver}");
                return ExitCode::from(2);
            }
        }
    }
    let passes = reps.max(1) * ours.len().max(1);
    println!(
        "{:.3}",
        (cpu_time() - start) as f64 / passes as f64 / 1000.0
    );
    ExitCode::SUCCESS
}

/// This thread's CPU time in ns (the machine is shared: wall time would
/// count the time spent waiting for a core).
fn cpu_time() -> u128 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as u128 * 1_000_000_000 + t.tv_nsec as u128
}

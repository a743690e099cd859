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
//! (data/classic_generated.txt), `hard` (data/classic_hard.txt), and the
//! public sets of data/classic9 (`clue17`, `top1465`, `hardest11`,
//! `hardest1106`, `minimal`; see its README).

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
        _ => {
            eprintln!(
                "unknown set {set}; expected generated, hard, clue17, top1465, hardest11, hardest1106 or minimal"
            );
            return ExitCode::from(2);
        }
    };
    let theirs: Vec<sudoku::Sudoku> = ours
        .iter()
        .filter_map(|b| <[u8; 81]>::try_from(b.cells()).ok())
        .filter_map(|c| sudoku::Sudoku::from_bytes(c).ok())
        .collect();
    for _ in 0..reps {
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
    ExitCode::SUCCESS
}

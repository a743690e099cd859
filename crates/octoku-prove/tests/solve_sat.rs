//! Checker-driven solving (`octoku solve --sat`) against the bitboard solver
//! of the core (8×8) and against direct enumeration (4×4, 6×6), plus a 9×9.

use octoku_core::Board;
use octoku_core::grid::geometry::Geometry;
use octoku_prove::sat::{Cells, is_solution, solve};
use octoku_prove::solver::Solver;

fn dir(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("prove/sat")
        .join(name)
}

fn octoku(board: Board) -> Cells {
    Cells {
        geometry: Geometry::OCTOKU,
        values: board.cells().to_vec(),
    }
}

fn unique_puzzles() -> Vec<Board> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../octoku-core/data/unique_puzzles.txt"),
    )
    .expect("the unique puzzles file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(3)
        .map(|l| l.trim().parse().expect("a board"))
        .collect()
}

/// On unique 8×8 puzzles the SAT answer is the bitboard solver's solution,
/// and the exclusion query proves there is no second one.
#[test]
fn sat_solutions_of_unique_octoku_puzzles_match_the_bitboard_solver() {
    for (k, start) in unique_puzzles().into_iter().enumerate() {
        let found = solve(
            &octoku(start),
            2,
            &dir(&format!("unique-{k}")),
            &Solver::from_env().unwrap(),
        )
        .unwrap();
        let began = std::time::Instant::now();
        let bitboard = octoku_core::solve::octoku::count(start, 2).unwrap();
        eprintln!(
            "unique puzzle {k}: {} in {:.3?} over {} calls (solution + uniqueness); bitboard count(_, 2) = {bitboard} in {:.1?}",
            found.solver,
            found.solver_time,
            found.calls,
            began.elapsed()
        );
        assert!(found.complete, "puzzle {k}: uniqueness not settled");
        assert_eq!(found.solutions.len(), 1, "puzzle {k}");
        let expected = octoku_core::solve::octoku::solve(start)
            .unwrap()
            .expect("solvable");
        assert_eq!(found.solutions[0], octoku(expected), "puzzle {k}");
        assert_eq!(octoku_core::solve::octoku::count(start, 2).unwrap(), 1);
    }
}

/// A generated 8-given board has many solutions: --count 3 gives three
/// distinct valid ones, as the bitboard solver counts at least three.
#[test]
fn sat_count_on_a_sparse_octoku_board_agrees_with_the_bitboard_count() {
    let start: Board = "0x0000010000000000000700000000040200000000030000800000006000500000"
        .parse()
        .unwrap();
    let found = solve(
        &octoku(start),
        3,
        &dir("sparse"),
        &Solver::from_env().unwrap(),
    )
    .unwrap();
    assert_eq!(found.solutions.len(), 3);
    assert!(!found.complete);
    for s in &found.solutions {
        assert!(is_solution(&octoku(start), s));
    }
    assert_ne!(found.solutions[0], found.solutions[1]);
    assert_ne!(found.solutions[1], found.solutions[2]);
    assert_ne!(found.solutions[0], found.solutions[2]);
    assert_eq!(octoku_core::solve::octoku::count(start, 3).unwrap(), 3);
}

#[test]
fn a_board_with_a_repeated_given_has_no_sat_solution() {
    let start = octoku(Board::default().with_cell(0, 0, 5).with_cell(0, 7, 5));
    let found = solve(
        &start,
        1,
        &dir("contradiction"),
        &Solver::from_env().unwrap(),
    )
    .unwrap();
    assert!(found.solutions.is_empty());
    assert!(found.complete);
    assert_eq!(
        octoku_core::solve::octoku::count(start_board(&start), 1).unwrap(),
        0
    );
}

fn start_board(c: &Cells) -> Board {
    Board::from_cells(&c.values.clone().try_into().expect("64 cells"))
}

/// Every solution by plain enumeration (small boards only).
fn enumerate(start: &Cells) -> usize {
    fn go(start: &Cells, board: &mut Cells, i: usize) -> usize {
        let g = board.geometry;
        if i == g.cell_count() {
            return usize::from(is_solution(start, board));
        }
        if start.values[i] != 0 {
            return go(start, board, i + 1);
        }
        let (r, c) = g.position(i);
        let mut total = 0;
        for d in 1..=g.size() as u8 {
            let clash = g.units_of(r, c).iter().any(|&u| {
                g.unit_cells(u)
                    .any(|(rr, cc)| board.values[g.index(rr, cc)] == d)
            });
            if !clash {
                board.values[i] = d;
                total += go(start, board, i + 1);
                board.values[i] = 0;
            }
        }
        total
    }
    let mut board = start.clone();
    go(start, &mut board, 0)
}

/// Other geometries: the number of solutions found by exclusion equals the
/// number found by enumeration (4×4 with 2×2 boxes, 6×6 with 2×3 boxes).
#[test]
fn sat_counts_match_enumeration_on_small_geometries() {
    let g4 = Geometry::new(2, 2).unwrap();
    let mut v4 = vec![0u8; 16];
    v4[0] = 1;
    v4[5] = 3;
    v4[10] = 2;
    // 6×6, 2×3 boxes: a valid grid (cell = (3 (r mod 2) + r div 2 + c) mod 6
    // + 1), two cells of every three kept as givens.
    let g6 = Geometry::new(2, 3).unwrap();
    let v6: Vec<u8> = (0..36)
        .map(|i| {
            let (r, c) = (i / 6, i % 6);
            if i % 3 != 1 {
                ((3 * (r % 2) + r / 2 + c) % 6 + 1) as u8
            } else {
                0
            }
        })
        .collect();
    for (name, start) in [
        (
            "4x4",
            Cells {
                geometry: g4,
                values: v4,
            },
        ),
        (
            "6x6",
            Cells {
                geometry: g6,
                values: v6,
            },
        ),
    ] {
        let expected = enumerate(&start);
        assert!((1..40).contains(&expected), "{name}: {expected} solutions");
        let found = solve(&start, 100, &dir(name), &Solver::from_env().unwrap()).unwrap();
        assert!(found.complete, "{name}");
        assert_eq!(found.solutions.len(), expected, "{name}");
    }
}

#[test]
fn a_classic_9x9_puzzle_is_solved_by_sat() {
    // 9×9 with 3×3 boxes, 30 givens.
    let text = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let values: Vec<u8> = text.bytes().map(|b| b - b'0').collect();
    let start = Cells {
        geometry: Geometry::CLASSIC,
        values,
    };
    let found = solve(&start, 2, &dir("9x9"), &Solver::from_env().unwrap()).unwrap();
    eprintln!(
        "9x9: {} in {:.3?} over {} calls",
        found.solver, found.solver_time, found.calls
    );
    assert_eq!(found.solutions.len(), 1);
    assert!(found.complete);
    assert!(is_solution(&start, &found.solutions[0]));
}

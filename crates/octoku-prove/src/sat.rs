//! Checker-driven solving: the rule "every row, column and box holds 1..N
//! once, and every given is kept" written as an SMT-LIB2 (QF_BV) checker over
//! unknown cells; the solver's model is a solution. More solutions are found
//! by excluding each model found so far.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use octoku_core::grid::geometry::Geometry;

use crate::solver::{self, Answer, Solver};

/// A board of any geometry: `size²` cells in reading order, 0 = empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cells {
    /// The box shape and size.
    pub geometry: Geometry,
    /// Cell values, row by row; 0 is an empty cell.
    pub values: Vec<u8>,
}

/// The solutions found and what they cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SatSolutions {
    /// Solutions, in the order the solver found them (at most the limit asked).
    pub solutions: Vec<Cells>,
    /// Whether the search proved there are no more solutions than these.
    pub complete: bool,
    /// Solver calls made.
    pub calls: usize,
    /// Time inside the solver, added over all calls (parsing excluded).
    pub solver_time: Duration,
    /// Solver name and version.
    pub solver: String,
}

fn cell_name(geometry: Geometry, i: usize) -> String {
    let (r, c) = geometry.position(i);
    format!("c{r}_{c}")
}

/// Bits per cell: enough for the digits 1..N.
fn width(geometry: Geometry) -> usize {
    (usize::BITS - geometry.size().leading_zeros()) as usize
}

fn lit(v: usize, bits: usize) -> String {
    format!("(_ bv{v} {bits})")
}

/// The query: cells are unknowns; every unit contains every digit 1..N (so,
/// with N cells per unit, each exactly once); givens are kept; each board in
/// `exclude` is ruled out.
pub fn query(start: &Cells, exclude: &[Cells]) -> String {
    let g = start.geometry;
    let n = g.size();
    let bits = width(g);
    let mut out = String::new();
    writeln!(
        out,
        "; octoku solve --sat: a {n}x{n} board ({}x{} boxes); satisfiable exactly when a solution keeps the givens",
        g.box_rows(),
        g.box_cols()
    )
    .expect("write to String");
    out.push_str("(set-logic QF_BV)\n(set-option :produce-models true)\n");
    for i in 0..g.cell_count() {
        writeln!(out, "(declare-const {} (_ BitVec {bits}))", cell_name(g, i))
            .expect("write to String");
    }
    // The checker: a unit is valid when it contains every digit 1..N.
    for unit in g.units() {
        let cells: Vec<String> = g
            .unit_cells(unit)
            .map(|(r, c)| cell_name(g, g.index(r, c)))
            .collect();
        for d in 1..=n {
            let hits: Vec<String> = cells
                .iter()
                .map(|c| format!("(= {c} {})", lit(d, bits)))
                .collect();
            writeln!(out, "(assert (or {}))", hits.join(" ")).expect("write to String");
        }
    }
    // Every cell holds a digit 1..N (implied by the above for a full unit,
    // stated so the checker reads as the rule).
    for i in 0..g.cell_count() {
        let c = cell_name(g, i);
        writeln!(
            out,
            "(assert (and (bvuge {c} {}) (bvule {c} {})))",
            lit(1, bits),
            lit(n, bits)
        )
        .expect("write to String");
    }
    for (i, &v) in start.values.iter().enumerate() {
        if v != 0 {
            writeln!(
                out,
                "(assert (= {} {}))",
                cell_name(g, i),
                lit(usize::from(v), bits)
            )
            .expect("write to String");
        }
    }
    for board in exclude {
        let same: Vec<String> = board
            .values
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("(= {} {})", cell_name(g, i), lit(usize::from(v), bits)))
            .collect();
        writeln!(out, "(assert (not (and {})))", same.join(" ")).expect("write to String");
    }
    out.push_str("(check-sat)\n(exit)\n");
    out
}

/// Why `solve` found no answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SatError {
    /// The board does not have its geometry's cell count.
    #[error("the board has {cells} cells, a {size}x{size} board has {expected}")]
    Cells {
        /// Cells given.
        cells: usize,
        /// The board's side.
        size: usize,
        /// Cells it has.
        expected: usize,
    },
    /// A given above the largest digit.
    #[error("a given is {given}, above the largest digit {largest}")]
    Given {
        /// The given.
        given: u8,
        /// The largest digit.
        largest: usize,
    },
    /// The query directory or a query could not be made or written.
    #[error(transparent)]
    Query(#[from] crate::engine::ProveError),
    /// The solver could not be run.
    #[error(transparent)]
    Solver(#[from] solver::SolverError),
    /// The solver gave up.
    #[error("the solver answered unknown")]
    Unknown,
    /// A model that is not a solution keeping the givens.
    #[error("solver bug: its model is not a solution keeping the givens: {0:?}")]
    NotASolution(Vec<u8>),
}

/// Up to `limit` solutions of `start` (limit >= 1), each query written to
/// `dir` (created if missing) and decided by the pinned solver. `complete`
/// is true when fewer than `limit` exist, or exactly the ones found.
pub fn solve(
    start: &Cells,
    limit: usize,
    dir: &Path,
    solver: &Solver,
) -> Result<SatSolutions, SatError> {
    let g = start.geometry;
    if start.values.len() != g.cell_count() {
        return Err(SatError::Cells {
            cells: start.values.len(),
            size: g.size(),
            expected: g.cell_count(),
        });
    }
    if let Some(&v) = start.values.iter().find(|&&v| usize::from(v) > g.size()) {
        return Err(SatError::Given {
            given: v,
            largest: g.size(),
        });
    }
    let mut queries = crate::engine::QueryDir::open(dir)?;
    let mut result = SatSolutions {
        solutions: Vec::new(),
        complete: false,
        calls: 0,
        solver_time: Duration::ZERO,
        solver: String::new(),
    };
    // Each call finds one more solution or proves there is none.
    while result.solutions.len() < limit {
        let text = query(start, &result.solutions);
        let path = queries.write(&format!("solve-{}.smt2", result.calls), &text)?;
        let solved = solver.solve(&path)?;
        result.calls += 1;
        result.solver_time += solved.check;
        result.solver = solved.solver;
        match solved.answer {
            Answer::Unsat => {
                result.complete = true;
                break;
            }
            Answer::Unknown => return Err(SatError::Unknown),
            Answer::Sat(values) => {
                let mut board = vec![0u8; g.cell_count()];
                for (name, value) in values {
                    let Some((r, c)) = name
                        .strip_prefix('c')
                        .and_then(|rest| rest.split_once('_'))
                        .and_then(|(r, c)| {
                            Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?))
                        })
                    else {
                        continue;
                    };
                    board[g.index(r, c)] = value.to::<u8>();
                }
                let found = Cells {
                    geometry: g,
                    values: board,
                };
                if !is_solution(start, &found) {
                    return Err(SatError::NotASolution(found.values));
                }
                result.solutions.push(found);
            }
        }
    }
    Ok(result)
}

/// Whether `board` is a full valid grid that keeps every given of `start`:
/// checked directly, not through the solver.
pub fn is_solution(start: &Cells, board: &Cells) -> bool {
    let g = board.geometry;
    let n = g.size();
    let keeps = start
        .values
        .iter()
        .zip(&board.values)
        .all(|(&s, &b)| s == 0 || s == b);
    keeps
        && g.units().all(|unit| {
            let mut seen = 0u32;
            for (r, c) in g.unit_cells(unit) {
                let v = usize::from(board.values[g.index(r, c)]);
                if v == 0 || v > n {
                    return false;
                }
                seen |= 1 << v;
            }
            seen.count_ones() as usize == n
        })
}

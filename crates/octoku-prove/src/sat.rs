//! Checker-driven solving: the rule "every row, column and box holds 1..N
//! once, and every given is kept" written as an SMT-LIB2 (QF_BV) checker over
//! unknown cells; the solver's model is a solution. More solutions are found
//! by excluding each model found so far.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use std::time::Instant;

use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::{CellsError, Grid};
use octoku_core::{Address, Board, rules, solve as core};
use octoku_evm::{EvmError, Machine};

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

/// What `octoku solve --sat` answers: the SAT solver's solutions of a
/// board, cross-checked against octoku's own solver (and, for an 8×8
/// contract board, by the contract's `verify`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossChecked {
    /// The board solved.
    pub start: Grid,
    /// Every solution found, in the solver's order (at most the limit asked).
    pub found: Vec<Grid>,
    /// Whether the solver proved there are no others.
    pub all_found: bool,
    /// Solver name and version.
    pub solver: String,
    /// Solver calls made.
    pub solver_calls: usize,
    /// Time inside the solver, added over all calls.
    pub solver_time: Duration,
    /// Time of the SAT search in all (queries written, solver run, models read).
    pub time: Duration,
    /// Gas of the contract's `verify` on the first solution (`None`: no
    /// contract checked it, or no solution).
    pub gas: Option<u64>,
}

impl CrossChecked {
    /// The first solution found.
    pub fn solution(&self) -> Option<&Grid> {
        self.found.first()
    }

    /// Whether the board has exactly one solution, proved by the solver.
    pub fn unique(&self) -> bool {
        self.all_found && self.found.len() == 1
    }
}

/// A cross-check's answer as `octoku solve --sat --json` gives it, one shape
/// for every board: boards as the caller writes them (the 8×8 contract
/// board as `0x` and 64 hex digits, other shapes in their text form).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SatSolved {
    /// The built-in's name, or the author's contract's (`None`: no contract).
    pub puzzle: Option<String>,
    /// Always `sat`.
    pub method: &'static str,
    /// The board solved.
    pub start: String,
    /// The first solution found.
    pub solution: Option<String>,
    /// A solution was found.
    pub valid: bool,
    /// Gas of the contract's verify on the first solution (`None`: no contract).
    pub gas: Option<u64>,
    /// Every solution found, in the solver's order.
    pub found: Vec<String>,
    /// How many were found.
    pub solutions: usize,
    /// Whether the solver proved there are no others.
    pub all_found: bool,
    /// Exactly one solution, proved.
    pub unique: bool,
    /// Solver name and version.
    pub solver: String,
    /// Solver calls made.
    pub solver_calls: usize,
    /// Time inside the solver, in seconds.
    pub solver_seconds: f64,
    /// Time of the SAT search in all, in seconds.
    pub seconds: f64,
}

impl CrossChecked {
    /// This answer as [`SatSolved`], for the contract named `puzzle` (if
    /// any), each board written by `board`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use octoku_core::{Geometry, Grid};
    /// use octoku_prove::sat::CrossChecked;
    /// let g = Geometry::for_size(4).unwrap();
    /// let checked = CrossChecked {
    ///     start: Grid::empty(g),
    ///     found: vec![],
    ///     all_found: true,
    ///     solver: "bitwuzla".into(),
    ///     solver_calls: 1,
    ///     solver_time: Duration::ZERO,
    ///     time: Duration::ZERO,
    ///     gas: None,
    /// };
    /// let report = checked.report(None, |b| Ok::<_, ()>(format!("{b:?}"))).unwrap();
    /// assert_eq!((report.valid, report.solutions, report.method), (false, 0, "sat"));
    /// ```
    pub fn report<E>(
        &self,
        puzzle: Option<&str>,
        board: impl Fn(&Grid) -> Result<String, E>,
    ) -> Result<SatSolved, E> {
        let found = self
            .found
            .iter()
            .map(&board)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SatSolved {
            puzzle: puzzle.map(str::to_owned),
            method: "sat",
            start: board(&self.start)?,
            solution: found.first().cloned(),
            valid: !found.is_empty(),
            gas: self.gas,
            solutions: found.len(),
            found,
            all_found: self.all_found,
            unique: self.unique(),
            solver: self.solver.clone(),
            solver_calls: self.solver_calls,
            solver_seconds: self.solver_time.as_secs_f64(),
            seconds: self.time.as_secs_f64(),
        })
    }
}

/// Why the cross-check of `solve --sat` gave no answer: the SAT search
/// failed, or the solvers (or the contract) disagree.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrossCheckError {
    /// The SAT search failed (its causes kept).
    #[error(transparent)]
    Sat(Box<SatError>),
    /// The 8×8 start is not a board the bitboard solver takes.
    #[error("START {start}")]
    Start {
        /// The start.
        start: Board,
        /// Why the bitboard solver refuses it.
        source: core::octoku::SolveError,
    },
    /// The solvers count different numbers of solutions.
    #[error("the SAT solver found {sat} solutions of {board} and the {other} solver {count}")]
    Counts {
        /// Solutions the SAT solver found.
        sat: usize,
        /// The board, as the message names it.
        board: String,
        /// The other solver: `bitboard` or `core`.
        other: &'static str,
        /// Solutions it counted.
        count: u64,
    },
    /// The SAT solver's model is not a board of the geometry.
    #[error("the SAT solver returned a malformed board")]
    Malformed(#[source] CellsError),
    /// A SAT solution does not solve the board.
    #[error("the SAT solver returned {found} for this {geometry} board, which does not solve it")]
    NotASolution {
        /// The solution, one digit per cell (0 empty).
        found: String,
        /// The board's geometry.
        geometry: Geometry,
    },
    /// The board has one solution and the two solvers give different ones.
    #[error("the SAT solver and the core solver give different unique solutions")]
    DifferentUnique,
    /// The contract's `verify` refuses a SAT solution.
    #[error("the contract rejects the SAT solution {solution} for {start}")]
    ContractRejects {
        /// The start.
        start: Board,
        /// The solution refused.
        solution: Board,
    },
    /// The contract could not be run.
    #[error(transparent)]
    Evm(#[from] EvmError),
}

impl From<SatError> for CrossCheckError {
    fn from(e: SatError) -> CrossCheckError {
        CrossCheckError::Sat(Box::new(e))
    }
}

/// The SAT search of the cross-check: up to `limit` (1 to 10,000) solutions
/// of `cells`, timed, as boards.
fn search(
    cells: &Cells,
    limit: u64,
    dir: &Path,
    smt: &Solver,
) -> Result<(SatSolutions, Vec<Grid>, Duration), CrossCheckError> {
    let began = Instant::now();
    let found = solve(cells, limit.clamp(1, 10_000) as usize, dir, smt)?;
    let time = began.elapsed();
    let boards = found
        .solutions
        .iter()
        .map(|c| Grid::from_cells(c.geometry, &c.values))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CrossCheckError::Malformed)?;
    Ok((found, boards, time))
}

fn checked(start: Grid, found: SatSolutions, boards: Vec<Grid>, time: Duration) -> CrossChecked {
    CrossChecked {
        start,
        found: boards,
        all_found: found.complete,
        solver: found.solver,
        solver_calls: found.calls,
        solver_time: found.solver_time,
        time,
        gas: None,
    }
}

/// Up to `limit` solutions of `start` (clamped to 1 to 10,000) by SAT, each
/// checked: the core solver must count as many (up to the limit), every
/// solution must solve the board, and a unique solution must be the core's.
/// Queries are written to `dir`.
///
/// ```no_run
/// use octoku_core::grid::text::{self, ReadOptions};
/// use octoku_prove::{sat, solver::Solver};
///
/// let start = text::read("1.3..........2.1", &ReadOptions::default())?.board;
/// // --solver's choice: the pinned solver `octoku setup solver` installs.
/// let smt = Solver::choose(None)?;
/// let dir = std::env::temp_dir().join("octoku-sat-example");
/// let checked = sat::cross_check(&start, 2, &dir, &smt)?;
/// println!("{} solution(s), unique: {}", checked.found.len(), checked.unique());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cross_check(
    start: &Grid,
    limit: u64,
    dir: &Path,
    smt: &Solver,
) -> Result<CrossChecked, CrossCheckError> {
    let g = start.geometry();
    let cells = Cells {
        geometry: g,
        values: start.cells().to_vec(),
    };
    let (found, boards, time) = search(&cells, limit, dir, smt)?;
    let count = core::count(start, limit.clamp(1, 10_000));
    if count != boards.len() as u64 {
        return Err(CrossCheckError::Counts {
            sat: boards.len(),
            board: format!("this {g} board"),
            other: "core",
            count,
        });
    }
    // Every SAT solution must solve the board; when the core says the
    // solution is unique, it must be the core's (with several solutions the
    // two solvers may rightly find different ones first).
    if let Some(bad) = boards.iter().find(|b| !rules::check(start, b).is_empty()) {
        return Err(CrossCheckError::NotASolution {
            found: bad.cells().iter().map(|v| v.to_string()).collect(),
            geometry: g,
        });
    }
    if let Some(first) = boards.first()
        && core::count(start, 2) == 1
        && Some(first) != core::solve(start).as_ref()
    {
        return Err(CrossCheckError::DifferentUnique);
    }
    Ok(checked(start.clone(), found, boards, time))
}

/// [`cross_check`] for an 8×8 board of a puzzle contract at `at` in `evm`:
/// the bitboard solver must count as many solutions, and the contract's
/// `verify` must accept every one (the gas of the first is reported).
///
/// ```no_run
/// use octoku_core::Board;
/// use octoku_evm::{Machine, Puzzle, Target};
/// use octoku_prove::{sat, solver::Solver};
///
/// let mut evm = Machine::new()?;
/// let at = evm.load(&Target::Builtin(Puzzle::Golf))?;
/// let start: Board = "0x0000306106007040030500001420030007010000280004007150682082005130".parse()?;
/// let dir = std::env::temp_dir().join("octoku-sat-example");
/// let checked = sat::cross_check_contract(start, 2, &dir, &Solver::choose(None)?, &mut evm, at)?;
/// assert_eq!(checked.unique(), true);
/// println!("verify accepts it for {} gas", checked.gas.unwrap_or_default());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cross_check_contract(
    start: Board,
    limit: u64,
    dir: &Path,
    smt: &Solver,
    evm: &mut Machine,
    at: Address,
) -> Result<CrossChecked, CrossCheckError> {
    let cells = Cells {
        geometry: Geometry::OCTOKU,
        values: start.cells().to_vec(),
    };
    let (found, boards, time) = search(&cells, limit, dir, smt)?;
    let count = core::octoku::count(start, limit.clamp(1, 10_000))
        .map_err(|source| CrossCheckError::Start { start, source })?;
    if count != boards.len() as u64 {
        return Err(CrossCheckError::Counts {
            sat: boards.len(),
            board: start.to_string(),
            other: "bitboard",
            count,
        });
    }
    let mut gas = None;
    for b in &boards {
        let solution = Board::try_from(b).map_err(CrossCheckError::Malformed)?;
        let verdict = evm.verify_at(at, start, solution)?;
        if !verdict.value {
            return Err(CrossCheckError::ContractRejects { start, solution });
        }
        gas.get_or_insert(verdict.gas);
    }
    let grid = Grid::try_from(start).map_err(CrossCheckError::Malformed)?;
    Ok(CrossChecked {
        gas,
        ..checked(grid, found, boards, time)
    })
}

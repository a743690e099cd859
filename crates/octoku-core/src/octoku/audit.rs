//! Audit: is every board that `generate` can produce solvable?
//!
//! `generate` fills at most 8 cells with pairwise different digits. Such a
//! board is solvable exactly when some valid grid has pairwise different
//! digits on those cells (relabel the grid's digits to match). So solvability
//! depends only on the cell set, and it is the same for every cell set in one
//! orbit of the board's symmetry group ([`crate::octoku::symmetry`], 442,368 maps).
//!
//! The audit enumerates the orbits of k-cell sets by orderly generation: the
//! canonical representatives of (k-1)-cell orbits, each grown by every free
//! cell and canonicalized again, give every k-cell orbit. Each orbit's size is
//! |G| / |Stab|; the sizes must add up to C(64, k), which is the evidence that
//! no cell set was missed. One representative per orbit is then solved with
//! digits 1..k placed on its cells in reading order.
//!
//! Canonical form: a cell set is read column by column (8-bit column patterns
//! over the rows). For a fixed row arrangement, the column group (full S4
//! inside each stack, and the stack swap) is handled by sorting the patterns of
//! each stack and ordering the two stacks; the minimum over the 384 row maps of
//! that column-canonical code is the canonical code of the set.
//!
//! [`audit`] is the whole audit (`octoku audit`): every 8-cell set, then the
//! smaller sets `generate` makes when its seed runs out, as one [`Audit`].

use crate::grid::board::Board;
use crate::octoku::symmetry::{self, ORDER};
use crate::solve::octoku::solve;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// One orbit of cell sets on which digits cannot be pairwise different in
/// any valid grid. In JSON: `{"size": 8, "example": "0x…"}` (the board as
/// its hex word).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnsolvableClass {
    /// Number of cell sets in the class (the orbit size).
    pub size: u64,
    /// A representative board: digits 1..k on the cells of the set, in reading order.
    pub example: Board,
}

/// Outcome of an audit.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditReport {
    /// Cell sets covered: the sum of all orbit sizes (must be C(64, k)).
    pub cell_sets: u64,
    /// Number of orbits (classes) examined.
    pub classes: u64,
    /// The classes whose representative has no solution.
    pub unsolvable: Vec<UnsolvableClass>,
    /// Cell sets in unsolvable classes.
    pub unsolvable_cell_sets: u64,
    /// Wall time of the audit, in seconds.
    pub seconds: f64,
}

/// Binomial coefficient C(n, k), exact for the sizes used here (n <= 64).
pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * u128::from(n - i) / u128::from(i + 1);
    }
    u64::try_from(acc).unwrap_or(u64::MAX)
}

/// Canonical codes of cell sets (bit `i` = reading index `i`) under the symmetry group.
#[derive(Clone)]
pub struct Canonizer {
    /// For each of the 384 row maps: how it moves an 8-bit column pattern.
    tables: Vec<[u8; 256]>,
}

impl Default for Canonizer {
    fn default() -> Self {
        Self::new()
    }
}

/// Orders a and b so that a <= b.
#[inline(always)]
fn cswap(a: &mut u8, b: &mut u8) {
    let (x, y) = (*a, *b);
    *a = x.min(y);
    *b = x.max(y);
}

/// The four patterns sorted ascending, packed with the smallest most significant.
#[inline(always)]
fn sort4(mut a: u8, mut b: u8, mut c: u8, mut d: u8) -> u32 {
    cswap(&mut a, &mut b);
    cswap(&mut c, &mut d);
    cswap(&mut a, &mut c);
    cswap(&mut b, &mut d);
    cswap(&mut b, &mut c);
    u32::from_be_bytes([a, b, c, d])
}

/// Column patterns of a cell set: bit r of `p[c]` is cell (r, c).
fn col_patterns(set: u64) -> [u8; 8] {
    let mut p = [0u8; 8];
    for r in 0..8 {
        let byte = (set >> (8 * r)) as u8;
        for (c, slot) in p.iter_mut().enumerate() {
            *slot |= ((byte >> c) & 1) << r;
        }
    }
    p
}

/// The cell set whose column-major code is `code` (column 0 in the top byte).
pub fn code_to_set(code: u64) -> u64 {
    let mut set = 0u64;
    for c in 0..8 {
        let p = (code >> (8 * (7 - c))) as u8;
        for r in 0..8 {
            if p >> r & 1 != 0 {
                set |= 1u64 << (8 * r + c);
            }
        }
    }
    set
}

/// Order of the column-group stabilizer of a column-canonical code.
fn column_stabilizer(code: u64) -> u64 {
    fn runs(stack: u32) -> u64 {
        let b = stack.to_be_bytes();
        let mut prod = 1u64;
        let mut run = 1u64;
        for k in 1..4 {
            if b[k] == b[k - 1] {
                run += 1;
                prod *= run;
            } else {
                run = 1;
            }
        }
        prod
    }
    let (left, right) = ((code >> 32) as u32, code as u32);
    runs(left) * runs(right) * if left == right { 2 } else { 1 }
}

impl Canonizer {
    /// Builds the 384 row-map tables (about 96 KiB).
    pub fn new() -> Canonizer {
        let tables = symmetry::row_maps()
            .iter()
            .map(|m| {
                let mut t = [0u8; 256];
                for (p, slot) in t.iter_mut().enumerate() {
                    let mut q = 0u8;
                    for (r, &dest) in m.iter().enumerate() {
                        if p >> r & 1 != 0 {
                            q |= 1 << dest;
                        }
                    }
                    *slot = q;
                }
                t
            })
            .collect();
        Canonizer { tables }
    }

    /// The canonical code of a cell set and the order of its stabilizer in
    /// the group; two sets share an orbit exactly when their codes are equal,
    /// and the orbit has 442,368 / stabilizer sets.
    pub fn canonical(&self, set: u64) -> (u64, u64) {
        let p = col_patterns(set);
        let mut best = u64::MAX;
        let mut hits = 0u64;
        for t in &self.tables {
            let q = p.map(|x| t[usize::from(x)]);
            let a = sort4(q[0], q[1], q[2], q[3]);
            let b = sort4(q[4], q[5], q[6], q[7]);
            let code = if a <= b {
                (u64::from(a) << 32) | u64::from(b)
            } else {
                (u64::from(b) << 32) | u64::from(a)
            };
            if code < best {
                best = code;
                hits = 1;
            } else if code == best {
                hits += 1;
            }
        }
        (best, hits * column_stabilizer(best))
    }
}

/// The board with digits 1, 2, ... on the cells of `set` in reading order.
pub fn set_board(set: u64) -> Board {
    let mut cells = [0u8; 64];
    let mut digit = 1u8;
    for (i, slot) in cells.iter_mut().enumerate() {
        if set >> i & 1 != 0 {
            *slot = digit;
            digit = digit.saturating_add(1);
        }
    }
    Board::from_cells(&cells)
}

/// A rayon pool of `threads` workers (at least one) for one audit.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        // Building a pool fails only when the OS refuses threads: nothing
        // can run then, and that must not read as an empty audit.
        .unwrap_or_else(|e| panic!("cannot start {threads} audit threads: {e}"))
}

/// Canonical codes of all orbits of `k`-cell sets, sorted, each with its
/// orbit size; built level by level on `threads` threads.
pub fn orbits(k: usize, threads: usize) -> Vec<(u64, u64)> {
    let canon = Canonizer::new();
    let pool = pool(threads);
    let mut level: Vec<(u64, u64)> = vec![(0, 1)];
    for _ in 0..k.min(64) {
        // Every worker grows its share of the level into a map; a code maps
        // to the same orbit size whichever worker finds it.
        let merged: HashMap<u64, u64> = pool.install(|| {
            level
                .par_iter()
                .fold(HashMap::new, |mut found, &(code, _)| {
                    let set = code_to_set(code);
                    let mut free = !set;
                    while free != 0 {
                        let i = free.trailing_zeros();
                        free &= free - 1;
                        let (c, stab) = canon.canonical(set | (1u64 << i));
                        found.entry(c).or_insert(u64::from(ORDER) / stab);
                    }
                    found
                })
                .reduce(HashMap::new, |mut a, b| {
                    a.extend(b);
                    a
                })
        });
        level = merged.into_iter().collect();
        level.sort_unstable();
    }
    level
}

/// Classes a worker takes at a time (and reports progress after).
const CHUNK: usize = 512;

/// Audits all `k`-cell sets (k <= 64): enumerates their orbits, solves one
/// representative per orbit on `threads` threads, and reports.
/// `progress(done, total)` is called now and then with the classes solved
/// so far out of all (each costs about one solve, so the rate and ETA of a
/// progress bar over them hold).
///
/// A panic in a worker is a panic of this call (rayon passes it on), never
/// a report that silently lacks the worker's classes.
pub fn audit_k(k: usize, threads: usize, progress: &(dyn Fn(u64, u64) + Sync)) -> AuditReport {
    audit_with(k, threads, progress, &|board| {
        matches!(solve(board), Ok(Some(_)))
    })
}

/// [`audit_k`] with the solvability test given: the tests put a failing
/// worker in through it.
fn audit_with(
    k: usize,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
    solvable: &(dyn Fn(Board) -> bool + Sync),
) -> AuditReport {
    let start = Instant::now();
    let k = k.min(64);
    let classes = orbits(k, threads);
    let total = classes.len() as u64;
    progress(0, total);
    let done = AtomicU64::new(0);
    let unsolvable: Vec<UnsolvableClass> = pool(threads).install(|| {
        classes
            .par_chunks(CHUNK)
            .flat_map_iter(|part| {
                let bad: Vec<UnsolvableClass> = part
                    .iter()
                    .map(|&(code, size)| (set_board(code_to_set(code)), size))
                    .filter(|&(board, _)| !solvable(board))
                    .map(|(example, size)| UnsolvableClass { size, example })
                    .collect();
                let solved = part.len() as u64;
                progress(done.fetch_add(solved, Ordering::Relaxed) + solved, total);
                bad
            })
            .collect()
    });
    // Workers report out of order: the last word is the total.
    progress(done.load(Ordering::Relaxed), total);
    let cell_sets: u64 = classes.iter().map(|&(_, size)| size).sum();
    AuditReport {
        cell_sets,
        classes: classes.len() as u64,
        unsolvable_cell_sets: unsolvable.iter().map(|c| c.size).sum(),
        unsolvable,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The most cells `generate` fills: the audit's main level.
pub const GIVENS: usize = 8;

/// Upper bound on the chance that a random address hits the seed-exhaustion
/// path, where generate ORs a digit into a filled cell; derivation in
/// docs/fair.md.
pub const EXHAUSTION_BOUND: f64 = 1e-26;

/// The whole audit (`octoku audit --json`): every 8-cell set up to
/// symmetry, and the smaller sets `generate` makes when its seed runs out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Audit {
    /// 8-cell sets covered: the sum of the classes' sizes, C(64, 8) (the
    /// evidence that no set was missed; [`audit`] checks it).
    pub cell_sets: u64,
    /// C(64, 8), the number of 8-cell sets.
    pub expected_cell_sets: u64,
    /// Classes (orbits under the symmetry group) of 8-cell sets.
    pub classes: u64,
    /// The order of the symmetry group ([`symmetry::ORDER`]).
    pub symmetries: u32,
    /// The unsolvable classes of 8-cell sets, each with its size and a board.
    pub unsolvable: Vec<UnsolvableClass>,
    /// 8-cell sets in unsolvable classes.
    pub unsolvable_cell_sets: u64,
    /// The share of 8-cell sets that are unsolvable (of 1).
    pub unsolvable_fraction: f64,
    /// The audits of the sets of 1 to 7 cells, fewest first.
    pub fewer_givens: Vec<Fewer>,
    /// [`EXHAUSTION_BOUND`].
    pub exhaustion_probability_bound: f64,
    /// Worker threads the audit ran on.
    pub threads: usize,
    /// Wall time of the whole audit, in seconds.
    pub seconds: f64,
}

/// The audit of the sets of `givens` cells (fewer than 8: the seed ran out early).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fewer {
    /// Cells in each set.
    pub givens: usize,
    /// Sets covered: C(64, givens).
    pub cell_sets: u64,
    /// Classes of sets under symmetry.
    pub classes: u64,
    /// Classes with no solution.
    pub unsolvable_classes: usize,
    /// Sets in those classes.
    pub unsolvable_cell_sets: u64,
}

impl Fewer {
    /// The summary of `report`, the audit of the `givens`-cell sets.
    ///
    /// ```
    /// use octoku_core::octoku::audit::{Fewer, audit_k, binomial};
    /// let report = audit_k(3, 1, &|_, _| {});
    /// let fewer = Fewer::new(3, &report);
    /// assert_eq!(fewer.cell_sets, binomial(64, 3));
    /// assert_eq!(fewer.unsolvable_classes, 0);
    /// ```
    pub fn new(givens: usize, report: &AuditReport) -> Fewer {
        Fewer {
            givens,
            cell_sets: report.cell_sets,
            classes: report.classes,
            unsolvable_classes: report.unsolvable.len(),
            unsolvable_cell_sets: report.unsolvable_cell_sets,
        }
    }
}

/// Where [`audit`] is, told to its progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The classes of 8-cell sets are enumerated: `done` of `total` solved
    /// (first told with `done` 0, when the solving starts).
    Solving {
        /// Classes solved so far.
        done: u64,
        /// Classes in all.
        total: u64,
    },
    /// The 8-cell sets are done; the sets of fewer cells are audited now.
    Fewer,
}

/// The classes of the audit's sets do not add up to every set: some set
/// was missed (or counted twice), so the audit proves nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the classes cover {covered} cell sets, not C(64,{givens}) = {expected}")]
pub struct Uncovered {
    /// Cells in each set.
    pub givens: usize,
    /// The sets the classes cover.
    pub covered: u64,
    /// C(64, givens).
    pub expected: u64,
}

/// Fails unless `report`, the audit of the `givens`-cell sets, covers
/// C(64, givens) sets.
pub fn check_cover(givens: usize, report: &AuditReport) -> Result<(), Uncovered> {
    let expected = binomial(64, givens as u64);
    if report.cell_sets == expected {
        Ok(())
    } else {
        Err(Uncovered {
            givens,
            covered: report.cell_sets,
            expected,
        })
    }
}

/// The audit of every board `generate` can produce, on `threads` threads:
/// all 8-cell sets up to symmetry (checked to cover C(64, 8) sets), then the
/// sets of 1 to 7 cells. `progress` is told how the solving of the 8-cell
/// classes goes, then when the smaller sets start.
///
/// ```no_run
/// use octoku_core::octoku::audit::{audit, Progress};
/// // A few seconds on two threads.
/// let audit = audit(2, &|step| {
///     if let Progress::Solving { done, total } = step {
///         eprint!("\r{done} of {total} classes");
///     }
/// })
/// .unwrap();
/// assert_eq!(audit.cell_sets, audit.expected_cell_sets);
/// println!("{} unsolvable classes", audit.unsolvable.len());
/// ```
pub fn audit(threads: usize, progress: &(dyn Fn(Progress) + Sync)) -> Result<Audit, Uncovered> {
    let start = Instant::now();
    let eight = audit_k(GIVENS, threads, &|done, total| {
        progress(Progress::Solving { done, total });
    });
    check_cover(GIVENS, &eight)?;
    progress(Progress::Fewer);
    let fewer: Vec<Fewer> = (1..GIVENS)
        .map(|k| Fewer::new(k, &audit_k(k, threads, &|_, _| {})))
        .collect();
    Ok(assemble(
        eight,
        fewer,
        threads,
        start.elapsed().as_secs_f64(),
    ))
}

/// The document of an audit of the 8-cell sets (`eight`) and the smaller ones.
fn assemble(eight: AuditReport, fewer_givens: Vec<Fewer>, threads: usize, seconds: f64) -> Audit {
    let expected_cell_sets = binomial(64, GIVENS as u64);
    Audit {
        cell_sets: eight.cell_sets,
        expected_cell_sets,
        classes: eight.classes,
        symmetries: ORDER,
        unsolvable_fraction: eight.unsolvable_cell_sets as f64 / expected_cell_sets as f64,
        unsolvable: eight.unsolvable,
        unsolvable_cell_sets: eight.unsolvable_cell_sets,
        fewer_givens,
        exhaustion_probability_bound: EXHAUSTION_BOUND,
        threads,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn binomial_gives_known_counts_and_zero_when_choosing_more_than_there_are() {
        assert_eq!(binomial(64, 8), 4_426_165_368);
        assert_eq!(binomial(64, 0), 1);
        assert_eq!(binomial(64, 64), 1);
        assert_eq!(binomial(64, 3), 41_664);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn code_round_trips() {
        let c = Canonizer::new();
        for set in [0u64, 1, 0x8000_0000_0000_0001, 0x0123_4567_89AB_CDEF] {
            let (code, _) = c.canonical(set);
            assert_eq!(c.canonical(code_to_set(code)).0, code);
            assert_eq!(code_to_set(code).count_ones(), set.count_ones());
        }
    }

    #[test]
    fn small_audits_cover_every_cell_set() {
        for k in 0..=4usize {
            let r = audit_k(k, 2, &|_, _| {});
            assert_eq!(r.cell_sets, binomial(64, k as u64), "k = {k}");
            assert!(r.unsolvable.is_empty(), "k = {k}");
        }
        // One cell: a single orbit; two cells: same row/band/column/stack relations.
        assert_eq!(audit_k(1, 1, &|_, _| {}).classes, 1);
        // Two cells: same row (same stack / other stack), same band other row
        // (same column / same stack / other stack), other band (same column /
        // same stack / other stack): 8 orbits.
        assert_eq!(audit_k(2, 2, &|_, _| {}).classes, 8);
    }

    #[test]
    fn orbit_sizes_match_brute_force_for_pairs() {
        // Count each 2-cell set's orbit by brute force over the group.
        let c = Canonizer::new();
        let mut counts: HashMap<u64, u64> = HashMap::new();
        for i in 0..64 {
            for j in i + 1..64 {
                *counts
                    .entry(c.canonical((1u64 << i) | (1u64 << j)).0)
                    .or_default() += 1;
            }
        }
        for (code, (_, size)) in orbits(2, 1).into_iter().map(|(k, s)| (k, (k, s))) {
            assert_eq!(counts[&code], size);
        }
        let set = code_to_set(orbits(2, 1)[0].0);
        let images: std::collections::HashSet<u64> = symmetry::all()
            .map(|s| symmetry::apply_mask(&s, set))
            .collect();
        assert_eq!(images.len() as u64, orbits(2, 1)[0].1);
    }

    /// A worker that panics fails the whole audit: rayon passes the panic on
    /// to the caller, so no report can come back short of that worker's
    /// classes (the old thread pool joined with `unwrap_or_default()` and
    /// returned the other workers' classes as if complete).
    #[test]
    fn a_panicking_worker_fails_the_audit() {
        // One class in the middle of the list fails; the others are fine.
        let classes = orbits(3, 1);
        let doomed = set_board(code_to_set(classes[classes.len() / 2].0));
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            audit_with(3, 2, &|_, _| {}, &|board| {
                assert_ne!(board, doomed, "worker fails on {board}");
                true
            })
        }));
        let message = outcome.expect_err("the audit must not return a report");
        let text = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.contains("worker fails on"), "{text}");
        // The same audit with a working test covers every cell set.
        let r = audit_with(3, 2, &|_, _| {}, &|_| true);
        assert_eq!(r.cell_sets, binomial(64, 3));
    }

    #[test]
    fn a_cover_short_of_every_set_is_refused() {
        let mut report = audit_k(2, 1, &|_, _| {});
        assert_eq!(check_cover(2, &report), Ok(()));
        report.cell_sets -= 1;
        let e = check_cover(2, &report).unwrap_err();
        assert_eq!(
            e,
            Uncovered {
                givens: 2,
                covered: 2015,
                expected: 2016
            }
        );
        assert_eq!(
            e.to_string(),
            "the classes cover 2015 cell sets, not C(64,2) = 2016"
        );
    }

    /// The document's JSON: its fields in order, the boards as hex words.
    #[test]
    fn the_document_lists_the_classes_and_the_smaller_sets() {
        let dead_end = set_board(dead_end_set());
        let eight = AuditReport {
            cell_sets: binomial(64, 8),
            classes: 10,
            unsolvable: vec![UnsolvableClass {
                size: 884_736,
                example: dead_end,
            }],
            unsolvable_cell_sets: 884_736,
            seconds: 1.0,
        };
        let fewer = (1..3)
            .map(|k| Fewer::new(k, &audit_k(k, 1, &|_, _| {})))
            .collect();
        let doc = assemble(eight, fewer, 2, 3.5);
        let json = serde_json::to_value(&doc).unwrap();
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            format!(
                concat!(
                    r#"{{"cell_sets":4426165368,"expected_cell_sets":4426165368,"classes":10,"symmetries":442368,"#,
                    r#""unsolvable":[{{"size":884736,"example":"{}"}}],"unsolvable_cell_sets":884736,"#,
                    r#""unsolvable_fraction":{},"fewer_givens":["#,
                    r#"{{"givens":1,"cell_sets":64,"classes":1,"unsolvable_classes":0,"unsolvable_cell_sets":0}},"#,
                    r#"{{"givens":2,"cell_sets":2016,"classes":8,"unsolvable_classes":0,"unsolvable_cell_sets":0}}],"#,
                    r#""exhaustion_probability_bound":1e-26,"threads":2,"seconds":3.5}}"#
                ),
                dead_end.to_hex(),
                json["unsolvable_fraction"]
            )
        );
        assert_eq!(
            json["unsolvable_fraction"].as_f64(),
            Some(884_736.0 / 4_426_165_368.0)
        );
    }

    #[test]
    fn progress_reaches_total() {
        let last = std::sync::Mutex::new((0u64, 0u64));
        let r = audit_k(3, 2, &|d, t| *last.lock().unwrap() = (d, t));
        assert_eq!(*last.lock().unwrap(), (r.classes, r.classes));
    }

    /// Whether the board has a solution (digits 9 and up count as none).
    fn solvable(b: Board) -> bool {
        matches!(solve(b), Ok(Some(_)))
    }

    /// The cells of a published dead end (8 givens, no solution).
    fn dead_end_set() -> u64 {
        let b: Board = "0x0000056070423000000000000000000000000000000000000000800100000000"
            .parse()
            .unwrap();
        let cells = b.cells();
        (0..64)
            .filter(|&i| cells[i] != 0)
            .fold(0, |m, i| m | 1u64 << i)
    }

    #[test]
    fn dead_end_set_is_unsolvable_with_any_distinct_digits() {
        let set = dead_end_set();
        assert_eq!(set.count_ones(), 8);
        assert!(!solvable(set_board(set)));
        let mut rng = crate::rng::SplitMix64::new(12);
        for _ in 0..20 {
            let mut digits: Vec<u8> = (1..=8).collect();
            rng.shuffle(&mut digits);
            let mut cells = [0u8; 64];
            for (k, i) in (0..64).filter(|&i| set >> i & 1 != 0).enumerate() {
                cells[i] = digits[k];
            }
            assert!(!solvable(Board::from_cells(&cells)), "{digits:?}");
        }
    }

    /// A cell set of at most 8 cells: a random one, or the dead end (so both
    /// outcomes of solving occur).
    fn small_set() -> impl Strategy<Value = u64> {
        prop_oneof![
            3 => proptest::sample::subsequence((0..64u32).collect::<Vec<_>>(), 0..=8)
                .prop_map(|cells| cells.iter().fold(0u64, |a, &i| a | (1u64 << i))),
            1 => Just(dead_end_set()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Moving a cell set (up to 12 cells) by any symmetry keeps its
        /// canonical code and stabilizer, and the code's set has as many cells.
        #[test]
        fn canonical_form_is_invariant_under_random_symmetries(
            cells in proptest::sample::subsequence((0..64u32).collect::<Vec<_>>(), 0..=12),
            g in 0..ORDER,
        ) {
            let c = Canonizer::new();
            let set = cells.iter().fold(0u64, |a, &i| a | (1u64 << i));
            let moved = symmetry::apply_mask(&symmetry::from_index(g).unwrap(), set);
            prop_assert_eq!(c.canonical(set), c.canonical(moved));
            let canon_set = code_to_set(c.canonical(set).0);
            prop_assert_eq!(canon_set.count_ones(), set.count_ones());
        }

        /// A set of at most 8 cells (digits 1..k in reading order), its image
        /// under any symmetry and its canonical representative are all
        /// solvable or all unsolvable, as the solver finds.
        #[test]
        fn canonical_set_is_solvable_iff_the_set_is(base in small_set(), g in 0..ORDER) {
            let c = Canonizer::new();
            let set = symmetry::apply_mask(&symmetry::from_index(g).unwrap(), base);
            let canon_set = code_to_set(c.canonical(set).0);
            prop_assert_eq!(c.canonical(canon_set).0, c.canonical(set).0);
            let want = solvable(set_board(base));
            prop_assert_eq!(solvable(set_board(set)), want);
            prop_assert_eq!(solvable(set_board(canon_set)), want);
        }
    }

    /// The full audit of every set of up to 8 cells (printing what it
    /// finds), in release mode: `cargo test -p octoku-core --release --lib
    /// -- --ignored audits_of_up_to_8_cells_visit_every_cell_set --nocapture`.
    #[test]
    #[ignore]
    fn audits_of_up_to_8_cells_visit_every_cell_set() {
        for k in 0..=8usize {
            let r = audit_k(k, 2, &|_, _| {});
            println!(
                "k={k}: cell sets {} (C(64,{k}) = {}), classes {}, unsolvable classes {}, unsolvable cell sets {}, {:.2} s",
                r.cell_sets,
                binomial(64, k as u64),
                r.classes,
                r.unsolvable.len(),
                r.unsolvable_cell_sets,
                r.seconds
            );
            let explained = r
                .unsolvable
                .iter()
                .filter(|u| crate::octoku::explain::contradiction(u.example).is_some())
                .count();
            println!("  unsolvable classes with a simple reason from `contradiction`: {explained}");
            for u in r.unsolvable.iter().take(3) {
                println!(
                    "  reason: {:?}",
                    crate::octoku::explain::contradiction(u.example)
                );
                println!("  unsolvable: {} ({} sets)", u.example.to_hex(), u.size);
            }
            assert_eq!(r.cell_sets, binomial(64, k as u64));
        }
    }
}

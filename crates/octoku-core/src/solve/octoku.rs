//! Solving octoku boards: a fast bitboard solver and a solution counter.
//! The plain-backtracking baseline is [`naive`](super::naive); human-readable reasons why a
//! board has no solution are [`contradiction`](crate::octoku::explain::contradiction).
//!
//! The fast solver keeps, for each digit, a 64-bit board of the cells where
//! that digit may still go (bit `i` is the cell at reading index
//! `i = 8 * row + col`). Placing a digit clears its peers with a handful of
//! word operations. Propagation applies naked singles (cells with one
//! candidate) and hidden singles (a digit with one place in a row, column or
//! subgrid, once a quarter of the board is fixed), counting candidates
//! bit-sliced over the eight digit boards.
//! The search branches on the empty cell with the fewest candidates. Nothing
//! is allocated while searching and no `U256` arithmetic happens after the
//! start board has been read into cells once.

use super::Stopped;
use crate::grid::board::Board;
use crate::grid::geometry::Geometry;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a start board cannot be solved as given: it holds a value that is no digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The cell at `row`, `col` (0-based) holds `digit`, which is neither 0 (empty) nor 1-8.
    #[error(
        "row {} column {} holds {digit}; givens must be 0 (empty) or 1-8",
        row + 1,
        col + 1
    )]
    InvalidDigit {
        /// Row of the cell, 0-based.
        row: usize,
        /// Column of the cell, 0-based.
        col: usize,
        /// The value found there (9 to 15).
        digit: u8,
    },
}

/// Hidden singles are looked for only once this many cells are fixed: on
/// nearly empty boards they almost never fire and cost more than they save
/// (median on generated boards about 2.2 us with them from the start, about
/// 1.6 us from 24 fixed cells; unique 20-30 given puzzles barely change).
const HIDDEN_FROM: u32 = 24;

/// The board shape the bitboards encode (bit `G.index(row, col)`).
const G: Geometry = Geometry::OCTOKU;

/// Every cell.
const ALL: u64 = !0;
/// Bit 0 of every byte: column 0 of every row, or the anchor of each row.
const BYTE_LSB: u64 = 0x0101_0101_0101_0101;

/// Peers of each cell (same row, column or subgrid), the cell itself excluded.
const PEERS: [u64; 64] = build_peers();

const fn row_mask(r: usize) -> u64 {
    0xFFu64 << (8 * r)
}

const fn col_mask(c: usize) -> u64 {
    BYTE_LSB << c
}

/// The cells of box `b` ([`Geometry::box_of`] numbering): the 2×4 block
/// `0x0F0F` (two rows of four bits) moved to the box's top-left cell.
const fn box_mask(b: usize) -> u64 {
    let (r0, c0) = G.box_origin(b);
    0x0F0Fu64 << G.index(r0, c0)
}

const fn build_peers() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = G.position(i);
        out[i] = (row_mask(r) | col_mask(c) | box_mask(G.box_of(r, c))) & !(1u64 << i);
        i += 1;
    }
    out
}

/// One step of a saturating bit-sliced count: pairs each representative bit
/// under `m` with the bit `s` above it; `o` = at least one, `t` = at least two.
#[inline(always)]
fn fold(o: u64, t: u64, s: u32, m: u64) -> (u64, u64) {
    let lo = o & m;
    let hi = (o >> s) & m;
    (lo | hi, (t & m) | ((t >> s) & m) | (lo & hi))
}

/// High bit of every byte of `x` that is zero, nothing else.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// For one digit's board of possible cells: the cells that are the only place
/// of the digit in some unit, or `None` when some unit has no place left.
#[inline(always)]
fn unit_singles(p: u64) -> Option<u64> {
    // Rows are bytes: none may be zero; x & (x - 1) clears the lowest bit of each.
    if zero_bytes(p) != 0 {
        return None;
    }
    let rows = (zero_bytes(p & p.wrapping_sub(BYTE_LSB)) >> 7).wrapping_mul(0xFF);
    // Columns: fold the 8 bytes onto the low byte; subgrids share the first fold
    // (row pairs), then fold each nibble onto its bit 0.
    const BOX_ANCHORS: u64 = 0x0011_0011_0011_0011;
    let (o1, t1) = fold(p, 0, 8, 0x00FF_00FF_00FF_00FF);
    let (o, t) = fold(o1, t1, 16, 0x0000_00FF_0000_00FF);
    let (co, ct) = fold(o, t, 32, 0xFF);
    let (o, t) = fold(o1, t1, 1, 0x0055_0055_0055_0055);
    let (bo, bt) = fold(o, t, 2, BOX_ANCHORS);
    if co != 0xFF || bo != BOX_ANCHORS {
        return None;
    }
    let cols = (co & !ct & 0xFF).wrapping_mul(BYTE_LSB);
    let boxes = (bo & !bt).wrapping_mul(0x0F0F);
    Some(p & (rows | cols | boxes))
}

/// Search state: possible cells per digit and the cells already fixed.
#[derive(Clone, Copy)]
struct State {
    /// `pos[d]`: cells where digit `d + 1` may go; a fixed cell keeps only its own digit.
    pos: [u64; 8],
    /// Cells whose digit is fixed.
    solved: u64,
}

impl State {
    /// Reads givens; `None` when two givens clash in a unit.
    fn from_cells(cells: &[u8; 64]) -> Option<State> {
        let mut s = State {
            pos: [ALL; 8],
            solved: 0,
        };
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                let d = usize::from(v - 1);
                if (s.pos[d] >> i) & 1 == 0 {
                    return None;
                }
                s.place(d, i);
            }
        }
        Some(s)
    }

    /// Fixes digit `d + 1` in cell `i`.
    #[inline(always)]
    fn place(&mut self, d: usize, i: usize) {
        let b = 1u64 << i;
        for p in self.pos.iter_mut() {
            *p &= !b;
        }
        self.pos[d] = (self.pos[d] & !PEERS[i]) | b;
        self.solved |= b;
    }

    /// Applies naked and hidden singles until nothing changes; false on contradiction.
    #[inline]
    fn propagate(&mut self) -> bool {
        loop {
            let mut one = 0u64;
            let mut two = 0u64;
            for &p in &self.pos {
                two |= one & p;
                one |= p;
            }
            if one != ALL {
                return false; // a cell with no candidate
            }
            let mut singles = !two & !self.solved;
            if singles != 0 {
                while singles != 0 {
                    let i = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let b = 1u64 << i;
                    match self.pos.iter().position(|&p| p & b != 0) {
                        Some(d) => self.place(d, i),
                        None => return false,
                    }
                }
                continue;
            }
            if self.solved == ALL {
                return true;
            }
            if self.solved.count_ones() < HIDDEN_FROM {
                return true;
            }
            let mut changed = false;
            for d in 0..8 {
                let Some(h) = unit_singles(self.pos[d]) else {
                    return false;
                };
                let mut h = h & !self.solved;
                while h != 0 {
                    let i = h.trailing_zeros() as usize;
                    h &= h - 1;
                    if (self.pos[d] >> i) & 1 != 0 {
                        self.place(d, i);
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The unfixed cell with the fewest candidates (after propagation every
    /// unfixed cell has at least two).
    #[inline]
    fn branch_cell(&self) -> usize {
        // ge[k]: cells with at least k + 1 candidates.
        let mut ge = [0u64; 8];
        for &p in &self.pos {
            for k in (1..8).rev() {
                ge[k] |= ge[k - 1] & p;
            }
            ge[0] |= p;
        }
        let free = !self.solved;
        for k in 1..7 {
            let exact = ge[k] & !ge[k + 1] & free;
            if exact != 0 {
                return exact.trailing_zeros() as usize;
            }
        }
        (ge[7] & free).trailing_zeros() as usize
    }

    /// The grid of a fully fixed state.
    fn grid_cells(&self) -> [u8; 64] {
        let mut cells = [0u8; 64];
        for (d, &p) in self.pos.iter().enumerate() {
            let mut p = p;
            while p != 0 {
                let i = p.trailing_zeros() as usize;
                p &= p - 1;
                cells[i] = d as u8 + 1;
            }
        }
        cells
    }
}

/// Depth-first search from a propagated state; calls `found` on each
/// solution and stops as soon as it returns true. Returns true when stopped.
fn search(s: &State, found: &mut impl FnMut(&State) -> bool) -> bool {
    if s.solved == ALL {
        return found(s);
    }
    let i = s.branch_cell();
    let b = 1u64 << i;
    for d in 0..8 {
        if s.pos[d] & b != 0 {
            let mut t = *s;
            t.place(d, i);
            if t.propagate() && search(&t, found) {
                return true;
            }
        }
    }
    false
}

/// Reads a board into cells, rejecting values 9-15.
pub(crate) fn checked_cells(start: Board) -> Result<[u8; 64], SolveError> {
    let cells = start.cells();
    match cells.iter().position(|&v| v > 8) {
        Some(i) => {
            let (row, col) = G.position(i);
            Err(SolveError::InvalidDigit {
                row,
                col,
                digit: cells[i],
            })
        }
        None => Ok(cells),
    }
}

/// Reads and propagates a start board: `Ok(None)` when it is already contradictory.
fn start_state(start: Board) -> Result<Option<State>, SolveError> {
    let cells = checked_cells(start)?;
    Ok(State::from_cells(&cells).and_then(|mut s| s.propagate().then_some(s)))
}

/// Runs the search on 64 cells of 0..=8 (the signature of every path of
/// [`crate::solve`]), calling `found` with each solution until it returns true.
pub(super) fn run(cells: &[u8; 64], found: &mut dyn FnMut(&[u8]) -> bool) {
    let Some(s) = State::from_cells(cells).and_then(|mut s| s.propagate().then_some(s)) else {
        return;
    };
    search(&s, &mut |t: &State| found(&t.grid_cells()));
}

/// Solves a board: `Ok(Some(grid))` keeps every given, `Ok(None)` means no solution.
pub fn solve(start: Board) -> Result<Option<Board>, SolveError> {
    let cells = checked_cells(start)?;
    let mut out = None;
    super::Path::Octoku.run(G, &cells, None, None, &mut |s: &[u8]| {
        out = <&[u8; 64]>::try_from(s).ok().map(Board::from_cells);
        true
    });
    Ok(out)
}

/// Counts the solutions of a board, exactly up to `limit` (the count stops there).
pub fn count(start: Board, limit: u64) -> Result<u64, SolveError> {
    let Some(s) = start_state(start)? else {
        return Ok(0);
    };
    if limit == 0 {
        return Ok(0);
    }
    let mut n = 0u64;
    search(&s, &mut |_: &State| {
        n += 1;
        n >= limit
    });
    Ok(n)
}

/// Counts like [`count`], looking at `stop` after each solution (an 8×8
/// search between two solutions takes microseconds): `Ok(Err(Stopped))`
/// when the flag was raised before the count reached `limit` or ended.
pub fn count_until(
    start: Board,
    limit: u64,
    stop: &AtomicBool,
) -> Result<Result<u64, Stopped>, SolveError> {
    let Some(s) = start_state(start)? else {
        return Ok(Ok(0));
    };
    if limit == 0 {
        return Ok(Ok(0));
    }
    let (mut n, mut stopped) = (0u64, false);
    search(&s, &mut |_: &State| {
        n += 1;
        stopped = n < limit && stop.load(Ordering::Relaxed);
        n >= limit || stopped
    });
    Ok(if stopped { Err(Stopped) } else { Ok(n) })
}

/// Whether a board has exactly one solution.
pub fn is_unique(start: Board) -> Result<bool, SolveError> {
    Ok(count(start, 2)? == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octoku::explain::contradiction;
    use crate::octoku::verify::is_valid_grid;
    use crate::rng::SplitMix64;
    use crate::solve::naive::{count_naive, solve_naive};
    use proptest::prelude::*;

    const UNSOLVABLE: &str = "0x0000056070423000000000000000000000000000000000000000800100000000";

    /// A board with up to 8 distinct digits on distinct cells, like `generate` makes.
    fn generated_like() -> impl Strategy<Value = Board> {
        (
            proptest::sample::subsequence((0..64usize).collect::<Vec<_>>(), 0..=8),
            any::<u64>(),
        )
            .prop_map(|(cells, seed)| {
                let mut digits: Vec<u8> = (1..=8).collect();
                SplitMix64::new(seed).shuffle(&mut digits);
                let mut b = [0u8; 64];
                for (j, &i) in cells.iter().enumerate() {
                    b[i] = digits[j];
                }
                Board::from_cells(&b)
            })
    }

    /// The known grid with `blanks` (indices) cleared.
    fn blanked(blanks: &[usize]) -> Board {
        let mut c = Board::BASE_GRID.cells();
        for &i in blanks {
            c[i] = 0;
        }
        Board::from_cells(&c)
    }

    #[test]
    fn known_grid_is_valid_and_unique() {
        assert!(is_valid_grid(Board::BASE_GRID));
        assert_eq!(is_unique(Board::BASE_GRID), Ok(true));
        assert_eq!(solve(Board::BASE_GRID), Ok(Some(Board::BASE_GRID)));
    }

    #[test]
    fn empty_board_solves_to_a_valid_grid() {
        let s = solve(Board::EMPTY).unwrap().unwrap();
        assert!(is_valid_grid(s));
        assert_eq!(count(Board::EMPTY, 1000), Ok(1000));
    }

    #[test]
    fn example_unsolvable_board_has_no_solution_and_a_reason() {
        let b: Board = UNSOLVABLE.parse().unwrap();
        assert_eq!(solve(b), Ok(None));
        assert_eq!(count(b, 10), Ok(0));
        assert_eq!(is_unique(b), Ok(false));
        assert_eq!(solve_naive(b), None);
        let why = contradiction(b).expect("a reason");
        assert!(why.starts_with("row 2"), "{why}");
    }

    /// `count_until` counts as `count` while the flag is down and stops at
    /// the next solution once it is raised; a count reached, a board with
    /// no solution and a bad digit answer as before.
    #[test]
    fn count_until_stops_at_a_raised_flag_and_otherwise_counts() {
        let (down, up) = (AtomicBool::new(false), AtomicBool::new(true));
        let b: Board = UNSOLVABLE.parse().unwrap();
        assert_eq!(count_until(Board::EMPTY, 5000, &down), Ok(Ok(5000)));
        assert_eq!(count_until(Board::EMPTY, 5000, &up), Ok(Err(Stopped)));
        assert_eq!(count_until(Board::EMPTY, 1, &up), Ok(Ok(1)));
        assert_eq!(count_until(b, 10, &up), Ok(Ok(0)));
        let full = solve(Board::EMPTY).unwrap().unwrap();
        assert_eq!(count_until(full, 10, &down), Ok(Ok(1)));
        assert_eq!(
            count_until(Board::EMPTY.with_cell(0, 0, 9), 10, &down),
            Err(SolveError::InvalidDigit {
                row: 0,
                col: 0,
                digit: 9
            })
        );
    }

    #[test]
    fn digits_nine_to_fifteen_give_solve_error() {
        for v in 9..=15u8 {
            let b = Board::EMPTY.with_cell(2, 4, v);
            let e = SolveError::InvalidDigit {
                row: 2,
                col: 4,
                digit: v,
            };
            assert_eq!(solve(b), Err(e));
            assert_eq!(count(b, 5), Err(e));
            assert_eq!(is_unique(b), Err(e));
            assert_eq!(solve_naive(b), None);
            assert_eq!(
                e.to_string(),
                format!("row 3 column 5 holds {v}; givens must be 0 (empty) or 1-8")
            );
            assert!(contradiction(b).is_some());
        }
    }

    #[test]
    fn count_limit_zero_is_zero() {
        assert_eq!(count(Board::EMPTY, 0), Ok(0));
    }

    #[test]
    fn unique_puzzle_file_lines_are_unique_with_20_to_30_givens() {
        let text = include_str!("../../data/unique_puzzles.txt");
        let mut n = 0;
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let b: Board = line.parse().unwrap();
            assert!(
                (20..=30).contains(&b.givens()),
                "{line} has {} givens",
                b.givens()
            );
            assert_eq!(is_unique(b), Ok(true), "{line}");
            assert_eq!(count_naive(b, 2), 1, "{line}");
            n += 1;
        }
        assert!(n >= 20);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On generate-like boards, a solution keeps every given and is a valid
        /// grid, and no solution means a count of zero.
        #[test]
        fn solution_keeps_every_given_and_is_a_valid_grid(b in generated_like()) {
            // generated-like boards may be unsolvable; when solved, check the grid.
            if let Some(s) = solve(b).unwrap() {
                prop_assert!(is_valid_grid(s));
                let (bc, sc) = (b.cells(), s.cells());
                for i in 0..64 {
                    prop_assert!(bc[i] == 0 || bc[i] == sc[i]);
                }
            } else {
                prop_assert_eq!(count(b, 1).unwrap(), 0);
            }
        }

        /// On a valid grid with cells blanked and a few overwritten, the fast
        /// and naive solvers agree on solvability, a solution keeps the givens
        /// and is valid, and a solvable board gets no contradiction.
        #[test]
        fn solve_agrees_with_naive_on_solvability(
            blanks in proptest::sample::subsequence((0..64usize).collect::<Vec<_>>(), 20..40),
            extra in proptest::sample::subsequence((0..64usize).collect::<Vec<_>>(), 0..4),
            d in 1u8..=8,
        ) {
            // Blank cells of a valid grid, then overwrite a few with digit d: sometimes unsolvable.
            let mut c = Board::BASE_GRID.cells();
            for &i in &blanks { c[i] = 0; }
            for &i in &extra { c[i] = d; }
            let b = Board::from_cells(&c);
            let fast = solve(b).unwrap();
            let naive = solve_naive(b);
            prop_assert_eq!(fast.is_some(), naive.is_some());
            if let Some(s) = fast {
                prop_assert!(is_valid_grid(s));
                prop_assert!(c.iter().zip(s.cells()).all(|(&g, v)| g == 0 || g == v));
                // A board with a solution never gets a reason it has none.
                prop_assert_eq!(contradiction(b), None);
            }
        }

        /// With 6-14 cells of a valid grid blanked, the solution count equals
        /// plain backtracking's.
        #[test]
        fn count_agrees_with_brute_force(
            blanks in proptest::sample::subsequence((0..64usize).collect::<Vec<_>>(), 6..=14),
        ) {
            let b = blanked(&blanks);
            prop_assert_eq!(count(b, 1_000_000).unwrap(), count_naive(b, 1_000_000));
        }

        /// With 24-34 cells of a valid grid blanked, the solution count equals
        /// plain backtracking's.
        #[test]
        fn count_agrees_with_brute_force_on_sparser_boards(
            blanks in proptest::sample::subsequence((0..64usize).collect::<Vec<_>>(), 24..=34),
        ) {
            let b = blanked(&blanks);
            prop_assert_eq!(count(b, 1_000_000).unwrap(), count_naive(b, 1_000_000));
        }
    }

    /// Writes a fresh set of unique puzzles (20-30 givens) to stdout:
    /// `cargo test -p octoku-core --release --lib -- --ignored print_unique_puzzles --nocapture`.
    #[test]
    #[ignore]
    fn print_unique_puzzles() {
        let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut made = 0;
        while made < 20 {
            // A random grid: solve a random generated-like board.
            let mut c = [0u8; 64];
            let mut digits: Vec<u8> = (1..=8).collect();
            rng.shuffle(&mut digits);
            for &d in &digits {
                c[rng.below(64) as usize] = d;
            }
            let Ok(Some(g)) = solve(Board::from_cells(&c)) else {
                continue;
            };
            let mut cells = g.cells();
            let target = 20 + rng.below(11) as usize;
            let mut order: Vec<usize> = (0..64).collect();
            rng.shuffle(&mut order);
            let mut givens = 64;
            for &i in &order {
                if givens <= target {
                    break;
                }
                let v = cells[i];
                cells[i] = 0;
                if is_unique(Board::from_cells(&cells)) == Ok(true) {
                    givens -= 1;
                } else {
                    cells[i] = v;
                }
            }
            if (20..=30).contains(&givens) {
                println!("{}", Board::from_cells(&cells).to_hex());
                made += 1;
            }
        }
    }
}

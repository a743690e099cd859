//! What the generic strong search did on a board ([`search_stats`]). The
//! solver takes its counter as a type: `solve` and `count` run with `()`,
//! whose hooks compile to nothing; only [`search_stats`] runs with a
//! [`Cell`] that counts.

use std::cell::Cell;

use super::with_solver;
use crate::grid::Grid;

/// The work of one search (see [`search_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Solutions found (the search stops at the limit).
    pub solutions: u64,
    /// States the search reached past propagation and did not find solved:
    /// each is probed, or, with no two-candidate cell, branched on at once
    /// (a state where a run ran out of its cutoff, and stopped, is not one).
    pub nodes: u64,
    /// Probe children propagated: two for each two-candidate cell probed.
    pub probes: u64,
    /// Nodes where one candidate of a probed cell failed, so the other was
    /// fixed without a branch.
    pub forced: u64,
    /// Probes spent at those nodes (a pass cut short by the failure).
    pub probes_forcing: u64,
    /// Probes started from the same probe's child in an ancestor, narrowed
    /// (cheaper than placing the candidate afresh; the result is the same).
    pub narrowed: u64,
    /// Nodes where both candidates of a probed cell failed (the node is refuted).
    pub refuted: u64,
    /// Nodes that branched: on the best probed pair, or on a cell with the
    /// fewest candidates when no cell has two.
    pub branches: u64,
    /// The work the search's bound counts: each node and its
    /// two-candidate cells.
    pub work: u64,
    /// 1 when the search reached its bound and handed the board to clause
    /// learning, else 0.
    pub handovers: u64,
    /// The conflicts clause learning met (0 without a handover).
    pub conflicts: u64,
}

/// What the solver calls at each event of its search. `()` ignores them
/// (and compiles to nothing); a [`Cell`] counts them.
pub(super) trait Tally: Default {
    /// Records an event.
    fn note(&self, event: impl FnOnce(&mut SearchStats));
}

impl Tally for () {
    #[inline(always)]
    fn note(&self, _: impl FnOnce(&mut SearchStats)) {}
}

impl Tally for Cell<SearchStats> {
    #[inline]
    fn note(&self, event: impl FnOnce(&mut SearchStats)) {
        let mut stats = self.get();
        event(&mut stats);
        self.set(stats);
    }
}

/// Runs the generic strong search (locked candidates, probing: what
/// [`solve`](super::solve) and [`count`](super::count) run on every size but
/// 9×9 and 8×8, which have faster paths) on `board` until `limit` solutions
/// are found (at least 1: unlike `count`, a limit of 0 still looks for
/// one), and returns what it did, clause learning included where the
/// search reached its bound. With `limit` 1 that is
/// the work of a first solution; with 2, of [`is_unique`](super::is_unique).
///
/// The counts are the same on any machine and under any load, so a change
/// to the search can be judged by them before it is timed
/// (docs/family.md, "A sixth look").
pub fn search_stats(board: &Grid, limit: u64) -> SearchStats {
    let g = board.geometry();
    let limit = limit.max(1);
    with_solver!(g, true, Cell<SearchStats>, |solver| {
        let mut solutions = 0;
        solver.run(board.cells(), None, None, &mut |_: &[u8]| {
            solutions += 1;
            solutions >= limit
        });
        let stats = solver.tally.get();
        SearchStats { solutions, ..stats }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::text::{self, ReadOptions};

    /// Line `k` (from 0, comments skipped) of a data set.
    fn puzzle(data: &str, k: usize) -> Grid {
        let line = data
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .nth(k)
            .expect("a puzzle");
        text::read(line, &ReadOptions::default())
            .expect("a line-form board")
            .board
    }

    /// The counts of `board`'s search to `limit`, checked against `count`
    /// and against the one way each node ends.
    fn checked(board: &Grid, limit: u64) -> SearchStats {
        let s = search_stats(board, limit);
        assert_eq!(s.solutions, super::super::count(board, limit), "{s:?}");
        assert_eq!(s.forced + s.refuted + s.branches, s.nodes, "{s:?}");
        s
    }

    #[test]
    fn counts_pin_known_searches_and_every_node_ends_one_way() {
        let size12 = include_str!("../../data/size12_minimal.txt");
        let size16 = include_str!("../../data/size16_minimal.txt");
        // Pinned from this search (docs/family.md, "A sixth look"): a change
        // to the search changes them on purpose, and says by how much. The
        // second is the slowest count(2) of the 16×16 set; 4 of its 109
        // branches are at nodes without a two-candidate cell, and 2,110 of
        // its 3,600 probes start from an ancestor's (the memo, "A seventh
        // look").
        let pins = [
            (puzzle(size12, 0), 1, [9, 52, 7, 34, 1, 1, 24]),
            (puzzle(size16, 96), 2, [560, 3600, 378, 2092, 73, 109, 2110]),
        ];
        for (board, limit, pinned) in pins {
            let s = checked(&board, limit);
            let got = [
                s.nodes,
                s.probes,
                s.forced,
                s.probes_forcing,
                s.refuted,
                s.branches,
                s.narrowed,
            ];
            assert_eq!(
                got, pinned,
                "nodes, probes, forced, probes_forcing, refuted, branches, narrowed"
            );
        }
        // Counting to two goes on where the first solution stopped.
        for board in [puzzle(size12, 0), puzzle(size16, 0)] {
            let (first, unique) = (checked(&board, 1), checked(&board, 2));
            assert_eq!((first.solutions, unique.solutions), (1, 1));
            assert!(unique.nodes >= first.nodes, "{first:?} {unique:?}");
            assert!(unique.probes >= first.probes, "{first:?} {unique:?}");
        }
    }

    #[test]
    fn a_board_propagation_solves_takes_no_node_and_a_clash_finds_nothing() {
        let g = crate::grid::geometry::Geometry::for_size(16).expect("16x16");
        let full = crate::puzzle::solved_grid(g, &mut crate::rng::SplitMix64::new(5));
        let s = search_stats(&full, 2);
        assert_eq!((s.solutions, s.nodes, s.probes), (1, 0, 0), "{s:?}");
        let mut cells = full.cells().to_vec();
        cells[1] = cells[0];
        let clash = Grid::from_cells(g, &cells).expect("symbols 1..=16");
        assert_eq!(search_stats(&clash, 2), SearchStats::default());
    }
}

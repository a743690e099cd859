//! The probe children of the nodes on the strong search's path, kept for
//! their descendants.
//!
//! A probe's child is a state with one candidate of a two-candidate cell
//! placed and singles propagated. A descendant has fewer candidates than
//! its ancestor, and singles only ever remove candidates, so probing the
//! same candidate there ends where the ancestor's child, narrowed to the
//! descendant's candidates, ends once propagated (the closure of singles
//! does not depend on the order they are applied in); and that narrowed
//! child is mostly propagated already. Along a chain of forced candidates
//! most cells are probed again at every node (`Solver::search_probing`),
//! so this is where the chains' probes get cheaper.

use std::cell::Cell;
use std::thread::LocalKey;

/// Pairs of probe children, a stack following the search's path: a node
/// pushes the pairs it probed and pops them when it returns, so the pairs
/// held are those of the node and its ancestors.
pub(super) struct Memo<S> {
    /// The two children of each pair held (the smaller symbol's first).
    children: Vec<[S; 2]>,
    /// For each pair held: its cell, and that cell's `latest` before it.
    cells: Vec<(u16, u32)>,
    /// For each cell: 1 + the index of its most recent pair held, 0 for none.
    latest: Vec<u32>,
}

impl<S> Memo<S> {
    /// An empty stack (it allocates on its first pair).
    pub(super) const fn new() -> Memo<S> {
        Memo {
            children: Vec::new(),
            cells: Vec::new(),
            latest: Vec::new(),
        }
    }
}

impl<S> Default for Memo<S> {
    fn default() -> Memo<S> {
        Memo::new()
    }
}

impl<S: Copy> Memo<S> {
    /// How many pairs are held: a mark for [`Memo::pop_to`].
    pub(super) fn len(&self) -> usize {
        self.children.len()
    }

    /// The most recent pair of cell `i` held.
    #[cfg(test)]
    fn get(&self, i: usize) -> Option<&[S; 2]> {
        match self.latest.get(i) {
            Some(&k) if k != 0 => Some(&self.children[k as usize - 1]),
            _ => None,
        }
    }

    /// Pair `k` (an index [`Memo::push`] returned).
    pub(super) fn pair(&self, k: usize) -> &[S; 2] {
        &self.children[k]
    }

    /// Starts a pair for cell `i`, to be filled in place: a copy of the
    /// cell's most recent pair held (true), or two copies of `fresh`
    /// (false). Until [`Memo::keep`] it is not the cell's pair, and
    /// [`Memo::drop_started`] drops it.
    #[inline]
    pub(super) fn start(&mut self, i: usize, fresh: &S) -> (bool, &mut [S; 2]) {
        let held = match self.latest.get(i) {
            Some(&k) if k != 0 => {
                self.children.extend_from_within(k as usize - 1..k as usize);
                true
            }
            _ => {
                self.children.push([*fresh; 2]);
                false
            }
        };
        let last = self.children.len() - 1;
        (held, &mut self.children[last])
    }

    /// The pair started last, whole.
    pub(super) fn started(&self) -> &[S; 2] {
        &self.children[self.children.len() - 1]
    }

    /// Keeps the pair started last as cell `i`'s, on a board of `cells`
    /// cells; returns its index.
    pub(super) fn keep(&mut self, i: usize, cells: usize) -> usize {
        if self.latest.len() < cells {
            self.latest.resize(cells, 0);
        }
        let k = self.children.len() - 1;
        self.cells.push((i as u16, self.latest[i]));
        self.latest[i] = k as u32 + 1;
        k
    }

    /// Drops the pair started last (not kept).
    pub(super) fn drop_started(&mut self) {
        self.children.pop();
    }

    /// Drops the pairs pushed since the stack held `mark`.
    pub(super) fn pop_to(&mut self, mark: usize) {
        while self.children.len() > mark {
            self.children.pop();
            if let Some((i, before)) = self.cells.pop() {
                self.latest[usize::from(i)] = before;
            }
        }
    }
}

/// The most pairs a thread's pool keeps between searches (about 0.8 MB
/// on 16×16): a larger search's storage is cut back when it ends.
const KEPT_PAIRS: usize = 512;

/// A type whose memos a thread keeps between searches (its own pool per
/// type), so a memo's storage is allocated, and its pages touched, once
/// per thread rather than on every search (a pair is two states, 1.3 kB
/// on 12×12, and a node may keep dozens): allocated afresh, the slowest
/// 12×12 count(2) took two page faults a search and more time than the
/// memo saved. A thread keeps the storage its largest search grew, up
/// to [`KEPT_PAIRS`]: the minimal sets and 1,000 sparse 16×16 starts grew
/// at most 256 pairs (0.4 MB; measured with a temporary counter).
pub(super) trait Pooled: Copy + 'static {
    /// The thread's pool of memos of this type.
    fn pool() -> &'static LocalKey<Cell<Memo<Self>>>;
}

impl<S: Pooled> Memo<S> {
    /// The thread's memo (empty; a new one when a search on this thread
    /// holds it already).
    pub(super) fn take() -> Memo<S> {
        S::pool().with(Cell::take)
    }

    /// Gives the memo back to the thread's pool, emptied, its storage kept
    /// up to [`KEPT_PAIRS`].
    pub(super) fn give_back(mut self) {
        self.pop_to(0);
        self.children.shrink_to(KEPT_PAIRS);
        self.cells.shrink_to(KEPT_PAIRS);
        S::pool().with(|pool| pool.set(self));
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;

    #[test]
    fn a_popped_pair_gives_way_to_the_one_before() {
        let mut m = Memo::new();
        assert!(m.get(3).is_none());
        assert_eq!(m.start(3, &7), (false, &mut [7, 7]));
        m.drop_started();
        *m.start(3, &7).1 = [1, 2];
        let a = m.keep(3, 9);
        let mark = m.len();
        *m.start(5, &7).1 = [3, 4];
        m.keep(5, 9);
        // A started pair is not the cell's until kept.
        let (held, pair) = m.start(3, &7);
        assert_eq!((held, *pair), (true, [1, 2]));
        *pair = [5, 6];
        assert_eq!(m.get(3), Some(&[1, 2]));
        let c = m.keep(3, 9);
        assert_eq!((a, c), (0, 2));
        assert_eq!(m.get(3), Some(&[5, 6]));
        assert_eq!(m.get(5), Some(&[3, 4]));
        m.start(8, &7);
        m.drop_started();
        m.pop_to(mark);
        assert_eq!(m.get(3), Some(&[1, 2]));
        assert!(m.get(5).is_none());
        assert_eq!(m.pair(a), &[1, 2]);
        m.pop_to(0);
        assert!(m.get(3).is_none());
        assert_eq!(m.len(), 0);
    }
}

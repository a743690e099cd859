//! A simple reason why a start has no solution, when one shows from its
//! givens: one search for every board of the family (the 8×8 explanations
//! word its findings in digits, see [`crate::octoku::explain::contradiction`]).

use crate::grid::Grid;
use crate::grid::geometry::{Geometry, Unit};
use crate::rules::{cells_phrase, default_name, join_and};

/// How many cells (or symbols) the subset step of [`contradiction()`] takes
/// at most on boards of every size: 2, then 3.
pub const FAMILY_SUBSETS: usize = 3;

/// A simple reason why a board has no solution, visible from its givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A symbol given twice in a unit.
    Repeated {
        /// The unit.
        unit: Unit,
        /// The symbol (1..=N).
        symbol: u8,
    },
    /// An empty cell whose row, column and box already hold every symbol.
    DeadCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// A symbol missing from a unit with no empty cell of the unit able to take it.
    NoPlace {
        /// The unit.
        unit: Unit,
        /// The symbol (1..=N).
        symbol: u8,
    },
    /// `cells.len()` empty cells of a unit that can hold fewer symbols between them.
    CrowdedCells {
        /// The unit.
        unit: Unit,
        /// The cells `(row, col)`.
        cells: Vec<(usize, usize)>,
        /// Every symbol they can hold.
        symbols: Vec<u8>,
    },
    /// `symbols.len()` missing symbols of a unit with fewer places between them.
    CrowdedSymbols {
        /// The unit.
        unit: Unit,
        /// The symbols.
        symbols: Vec<u8>,
        /// Every cell `(row, col)` that can take one of them.
        cells: Vec<(usize, usize)>,
    },
}

/// The words a [`Contradiction`] is told in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Words {
    /// The family's: an empty cell "can take no symbol" as its "box" holds
    /// "all N"; a list of symbols is said bare ("5 and 6").
    Symbols,
    /// The 8×8 puzzle's: "digit", "subgrid", "1-8", and "digits 5 and 6".
    Digits,
}

impl Contradiction {
    /// The reason in one line in the family's words, naming symbols with
    /// `name` (e.g. the board's own symbol set).
    pub fn message(&self, geometry: Geometry, name: &dyn Fn(u8) -> String) -> String {
        self.worded(geometry, name, Words::Symbols)
    }

    /// The reason in one line in `words`, naming symbols with `name`.
    pub fn worded(&self, geometry: Geometry, name: &dyn Fn(u8) -> String, words: Words) -> String {
        let unit_name = |u: Unit| geometry.describe(u);
        let names = |v: &[u8]| v.iter().map(|&s| name(s)).collect::<Vec<_>>();
        match self {
            Contradiction::Repeated { unit, symbol } => {
                format!("{} holds {} twice", unit_name(*unit), name(*symbol))
            }
            Contradiction::DeadCell { row, col } => {
                let (symbol, unit_box, every) = match words {
                    Words::Symbols => ("symbol", "box", format!("all {}", geometry.size())),
                    Words::Digits => (
                        "digit",
                        "subgrid",
                        format!("{}-{}", name(1), name(geometry.size() as u8)),
                    ),
                };
                format!(
                    "row {} column {} can take no {symbol}: its row, column and {unit_box} already hold {every}",
                    row + 1,
                    col + 1,
                )
            }
            Contradiction::NoPlace { unit, symbol } => {
                format!("{} has no place for {}", unit_name(*unit), name(*symbol))
            }
            Contradiction::CrowdedCells {
                unit,
                cells,
                symbols,
            } => format!(
                "{}: {} can only hold {}",
                unit_name(*unit),
                cells_phrase(*unit, cells),
                join_and(&names(symbols), "or")
            ),
            Contradiction::CrowdedSymbols {
                unit,
                symbols,
                cells,
            } => {
                let list = join_and(&names(symbols), "and");
                let list = match words {
                    Words::Symbols => list,
                    Words::Digits => format!("digits {list}"),
                };
                format!(
                    "{}: {list} can only go in {}",
                    unit_name(*unit),
                    cells_phrase(*unit, cells)
                )
            }
        }
    }

    /// The reason in one line in the family's words with the default
    /// symbols (`1`-`9`, then `A`-`G`).
    pub fn describe(&self, geometry: Geometry) -> String {
        self.message(geometry, &default_name)
    }
}

/// A simple reason why `board` has no solution, when one shows from its
/// givens; `None` when none is found (the board may still have no solution).
///
/// [`contradiction_in`] on the board's cells, subsets of 2 and 3.
pub fn contradiction(board: &Grid) -> Option<Contradiction> {
    contradiction_in(board.geometry(), board.cells(), FAMILY_SUBSETS)
}

/// A simple reason why the start `cells` of geometry `g` (each 0 or 1..=N)
/// have no solution; `None` when none is found.
///
/// Looks, in order, for: a symbol given twice in a unit; an empty cell that
/// can take no symbol; a symbol with no place left in a unit; and k empty
/// cells of a unit that can hold fewer than k symbols between them, or k
/// missing symbols of a unit with fewer than k places between them (k = 2
/// up to `largest_subset`; for each k unit by unit, subsets in increasing
/// order of their bit masks).
pub fn contradiction_in(g: Geometry, cells: &[u8], largest_subset: usize) -> Option<Contradiction> {
    let n = g.size();
    let units: Vec<(Unit, Vec<usize>)> = g
        .units()
        .map(|u| (u, g.unit_cells(u).map(|(r, c)| g.index(r, c)).collect()))
        .collect();
    // Symbols given in each unit (bit v for symbol v); a repeat ends the search.
    let mut used = vec![0u32; 3 * n];
    for (k, (unit, members)) in units.iter().enumerate() {
        for &i in members {
            let v = cells[i];
            if v != 0 {
                if used[k] >> v & 1 != 0 {
                    return Some(Contradiction::Repeated {
                        unit: *unit,
                        symbol: v,
                    });
                }
                used[k] |= 1 << v;
            }
        }
    }
    // Candidates of each empty cell from its three units.
    let full = (1u32 << (n + 1)) - 2;
    let mut cand = vec![0u32; n * n];
    for i in 0..n * n {
        if cells[i] == 0 {
            let (r, c) = g.position(i);
            cand[i] = full & !(used[r] | used[n + c] | used[2 * n + g.box_of(r, c)]);
            if cand[i] == 0 {
                return Some(Contradiction::DeadCell { row: r, col: c });
            }
        }
    }
    // A missing symbol with no place in a unit.
    for (k, (unit, members)) in units.iter().enumerate() {
        for v in 1..=n as u8 {
            if used[k] >> v & 1 == 0 && !members.iter().any(|&i| cand[i] >> v & 1 != 0) {
                return Some(Contradiction::NoPlace {
                    unit: *unit,
                    symbol: v,
                });
            }
        }
    }
    // Subsets of empty cells (naked) or missing symbols (hidden), smallest first.
    let symbols_of =
        |mask: u32| -> Vec<u8> { (1..=n as u8).filter(|v| mask >> v & 1 != 0).collect() };
    for size in 2..=largest_subset {
        for (k, (unit, members)) in units.iter().enumerate() {
            let empty: Vec<usize> = members.iter().copied().filter(|&i| cells[i] == 0).collect();
            for pick in subsets(empty.len(), size) {
                let chosen: Vec<usize> = picked(pick).map(|j| empty[j]).collect();
                let union = chosen.iter().fold(0u32, |a, &i| a | cand[i]);
                if (union.count_ones() as usize) < size {
                    return Some(Contradiction::CrowdedCells {
                        unit: *unit,
                        cells: chosen.iter().map(|&i| g.position(i)).collect(),
                        symbols: symbols_of(union),
                    });
                }
            }
            let missing = symbols_of(full & !used[k]);
            for pick in subsets(missing.len(), size) {
                let mask = picked(pick).fold(0u32, |a, j| a | 1 << missing[j]);
                let places: Vec<usize> = empty
                    .iter()
                    .copied()
                    .filter(|&i| cand[i] & mask != 0)
                    .collect();
                if places.len() < size {
                    return Some(Contradiction::CrowdedSymbols {
                        unit: *unit,
                        symbols: symbols_of(mask),
                        cells: places.iter().map(|&i| g.position(i)).collect(),
                    });
                }
            }
        }
    }
    None
}

/// Every `size`-element subset of `0..len` as a bit mask, in increasing
/// order (Gosper's next-subset step); nothing when `size > len`.
fn subsets(len: usize, size: usize) -> impl Iterator<Item = u32> {
    let end = 1u64 << len;
    let first = (size <= len).then_some((1u64 << size) - 1);
    std::iter::successors(first, move |&s| {
        let low = s & s.wrapping_neg();
        let ripple = s + low;
        let next = (((ripple ^ s) >> 2) / low) | ripple;
        (next < end).then_some(next)
    })
    .map(|s| s as u32)
}

/// The indices of the bits set in a subset mask, ascending.
fn picked(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |j| mask >> j & 1 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_lists_every_k_subset_once_in_increasing_order() {
        let all: Vec<u32> = subsets(5, 2).collect();
        assert_eq!(all.len(), 10);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert!(all.iter().all(|s| s.count_ones() == 2 && *s < 32));
        assert_eq!(subsets(3, 4).count(), 0);
        assert_eq!(subsets(16, 16).collect::<Vec<_>>(), [0xFFFF]);
    }
}

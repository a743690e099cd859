//! Human-readable reasons why a start board has no solution, when a simple
//! one is visible from the givens alone.

use super::{G, cells_phrase, join_and};
use crate::octoku::board::Board;
use crate::solve::octoku::checked_cells;

/// Digits of a mask (bit d = digit d + 1) as strings.
fn digit_list(mask: u8) -> Vec<String> {
    (0..8)
        .filter(|d| mask >> d & 1 != 0)
        .map(|d| (d + 1).to_string())
        .collect()
}

/// A simple human reason why a board has no solution, when one is visible
/// from the givens alone; `None` when none is found (the board may still be
/// unsolvable).
///
/// Looks, in order, for: a value that is no digit; a digit given twice in a
/// row, column or subgrid; an empty cell that can take no digit; a digit with
/// no place left in a unit; and k empty cells of a unit that can hold fewer
/// than k digits between them, or k missing digits of a unit that have fewer
/// than k places between them (smallest k first).
pub fn contradiction(start: Board) -> Option<String> {
    let cells = match checked_cells(start) {
        Ok(c) => c,
        Err(e) => return Some(e.to_string()),
    };
    let at = |(r, c): (usize, usize)| G.index(r, c);
    let units: Vec<_> = G
        .units()
        .map(|u| (u, G.unit_cells(u).collect::<Vec<_>>()))
        .collect();
    // Digits given in each unit; duplicates.
    let mut used = [0u8; 24];
    for (u, (unit, cs)) in units.iter().enumerate() {
        for &rc in cs {
            let v = cells[at(rc)];
            if v != 0 {
                let b = 1u8 << (v - 1);
                if used[u] & b != 0 {
                    return Some(format!("{} holds {} twice", G.describe(*unit), v));
                }
                used[u] |= b;
            }
        }
    }
    // Candidates of each empty cell from its three units.
    let mut cand = [0u8; 64];
    for i in 0..64 {
        if cells[i] == 0 {
            let (r, c) = G.position(i);
            let seen = G.units_of(r, c);
            cand[i] = !seen.iter().fold(0, |a, &u| a | used[G.unit_index(u)]);
            if cand[i] == 0 {
                return Some(format!(
                    "row {} column {} can take no digit: its row, column and subgrid already hold 1-8",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    // A missing digit with no place in a unit.
    for (u, (unit, cs)) in units.iter().enumerate() {
        for d in 0..8u8 {
            let b = 1u8 << d;
            let room = |&rc: &(usize, usize)| cells[at(rc)] == 0 && cand[at(rc)] & b != 0;
            if used[u] & b == 0 && !cs.iter().any(room) {
                return Some(format!("{} has no place for {}", G.describe(*unit), d + 1));
            }
        }
    }
    // Subsets of empty cells (naked) or missing digits (hidden), smallest first.
    for k in 2..=8usize {
        for (u, (unit, cs)) in units.iter().enumerate() {
            let empty: Vec<(usize, usize)> = cs
                .iter()
                .copied()
                .filter(|&rc| cells[at(rc)] == 0)
                .collect();
            let n = empty.len();
            if k <= n {
                for sub in 0u32..(1 << n) {
                    if sub.count_ones() as usize != k {
                        continue;
                    }
                    let chosen: Vec<(usize, usize)> = (0..n)
                        .filter(|j| sub >> j & 1 != 0)
                        .map(|j| empty[j])
                        .collect();
                    let union = chosen.iter().fold(0u8, |a, &rc| a | cand[at(rc)]);
                    if (union.count_ones() as usize) < k {
                        let digits = digit_list(union);
                        return Some(format!(
                            "{}: {} can only hold {}",
                            G.describe(*unit),
                            cells_phrase(*unit, &chosen),
                            join_and(&digits, "or")
                        ));
                    }
                }
            }
            let missing = !used[u];
            if k <= missing.count_ones() as usize {
                for sub in 0u32..256 {
                    let sub = sub as u8;
                    if sub & !missing != 0 || sub.count_ones() as usize != k {
                        continue;
                    }
                    let places: Vec<(usize, usize)> = empty
                        .iter()
                        .copied()
                        .filter(|&rc| cand[at(rc)] & sub != 0)
                        .collect();
                    if places.len() < k {
                        let digits = digit_list(sub);
                        return Some(format!(
                            "{}: digits {} can only go in {}",
                            G.describe(*unit),
                            join_and(&digits, "and"),
                            cells_phrase(*unit, &places)
                        ));
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::octoku::solve;

    #[test]
    fn contradiction_names_duplicate_givens_and_dead_cells() {
        let b = Board::EMPTY.with_cell(1, 0, 4).with_cell(1, 6, 4);
        assert_eq!(contradiction(b).as_deref(), Some("row 2 holds 4 twice"));
        assert_eq!(solve(b), Ok(None));
        let b = Board::EMPTY.with_cell(0, 0, 3).with_cell(7, 0, 3);
        assert_eq!(contradiction(b).as_deref(), Some("column 1 holds 3 twice"));
        let b = Board::EMPTY.with_cell(0, 0, 3).with_cell(1, 3, 3);
        assert!(contradiction(b).unwrap().starts_with("subgrid 1"));
        // Row 1 column 1 sees 1-4 in its row and 5-8 in its column.
        let mut b = Board::EMPTY;
        for (k, d) in (1..=4).enumerate() {
            b = b.with_cell(0, k + 1, d);
        }
        for (k, d) in (5..=8).enumerate() {
            b = b.with_cell(k + 2, 0, d);
        }
        assert_eq!(
            contradiction(b).as_deref(),
            Some("row 1 column 1 can take no digit: its row, column and subgrid already hold 1-8")
        );
        assert_eq!(solve(b), Ok(None));
        assert_eq!(contradiction(Board::BASE_GRID), None);
        assert_eq!(contradiction(Board::EMPTY), None);
    }
}

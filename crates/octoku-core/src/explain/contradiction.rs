//! Human-readable reasons why a start board has no solution, when a simple
//! one is visible from the givens alone.

use crate::board::Board;
use crate::solve::{UNITS, checked_cells};

/// Name of unit `u` (0-23) for messages, 1-based.
fn unit_name(u: usize) -> String {
    match u {
        0..=7 => format!("row {}", u + 1),
        8..=15 => format!("column {}", u - 7),
        _ => {
            let s = u - 16;
            let r = 2 * (s / 2) + 1;
            let c = 4 * (s % 2) + 1;
            format!(
                "subgrid {} (rows {}-{}, columns {}-{})",
                s + 1,
                r,
                r + 1,
                c,
                c + 3
            )
        }
    }
}

/// How a cell is named inside unit `u` in messages.
fn cell_in_unit(u: usize, i: usize) -> String {
    match u {
        0..=7 => format!("column {}", i % 8 + 1),
        8..=15 => format!("row {}", i / 8 + 1),
        _ => format!("row {} column {}", i / 8 + 1, i % 8 + 1),
    }
}

/// Joins items as "a", "a and b" or "a, b and c".
fn join_and(items: &[String], last: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {} {}", items[..n - 1].join(", "), last, items[n - 1]),
    }
}

/// Digits of a mask (bit d = digit d + 1) as strings.
fn digit_list(mask: u8) -> Vec<String> {
    (0..8)
        .filter(|d| mask >> d & 1 != 0)
        .map(|d| (d + 1).to_string())
        .collect()
}

/// Names cells of a unit: "columns 5, 6 and 7" in a row, "rows 1 and 2" in a column.
fn cells_phrase(u: usize, cells: &[usize]) -> String {
    match u {
        0..=15 => {
            let word = if u < 8 { "column" } else { "row" };
            let nums: Vec<String> = cells
                .iter()
                .map(|&i| if u < 8 { i % 8 + 1 } else { i / 8 + 1 }.to_string())
                .collect();
            if nums.len() == 1 {
                format!("{word} {}", nums[0])
            } else {
                format!("{word}s {}", join_and(&nums, "and"))
            }
        }
        _ => {
            let names: Vec<String> = cells.iter().map(|&i| cell_in_unit(u, i)).collect();
            join_and(&names, "and")
        }
    }
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
    let members: Vec<Vec<usize>> = UNITS
        .iter()
        .map(|&m| (0..64).filter(|&i| m >> i & 1 != 0).collect())
        .collect();
    // Digits given in each unit; duplicates.
    let mut used = [0u8; 24];
    for (u, cs) in members.iter().enumerate() {
        for &i in cs {
            let v = cells[i];
            if v != 0 {
                let b = 1u8 << (v - 1);
                if used[u] & b != 0 {
                    return Some(format!("{} holds {} twice", unit_name(u), v));
                }
                used[u] |= b;
            }
        }
    }
    // Candidates of each empty cell from its three units.
    let mut cand = [0u8; 64];
    for i in 0..64 {
        if cells[i] == 0 {
            let (r, c) = (i / 8, i % 8);
            let s = (r / 2) * 2 + c / 4;
            cand[i] = !(used[r] | used[8 + c] | used[16 + s]);
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
    for (u, cs) in members.iter().enumerate() {
        for d in 0..8u8 {
            let b = 1u8 << d;
            if used[u] & b == 0 && !cs.iter().any(|&i| cells[i] == 0 && cand[i] & b != 0) {
                return Some(format!("{} has no place for {}", unit_name(u), d + 1));
            }
        }
    }
    // Subsets of empty cells (naked) or missing digits (hidden), smallest first.
    for k in 2..=8usize {
        for (u, cs) in members.iter().enumerate() {
            let empty: Vec<usize> = cs.iter().copied().filter(|&i| cells[i] == 0).collect();
            let n = empty.len();
            if k <= n {
                for sub in 0u32..(1 << n) {
                    if sub.count_ones() as usize != k {
                        continue;
                    }
                    let chosen: Vec<usize> = (0..n)
                        .filter(|j| sub >> j & 1 != 0)
                        .map(|j| empty[j])
                        .collect();
                    let union = chosen.iter().fold(0u8, |a, &i| a | cand[i]);
                    if (union.count_ones() as usize) < k {
                        let digits = digit_list(union);
                        return Some(format!(
                            "{}: {} can only hold {}",
                            unit_name(u),
                            cells_phrase(u, &chosen),
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
                    let places: Vec<usize> = empty
                        .iter()
                        .copied()
                        .filter(|&i| cand[i] & sub != 0)
                        .collect();
                    if places.len() < k {
                        let digits = digit_list(sub);
                        return Some(format!(
                            "{}: digits {} can only go in {}",
                            unit_name(u),
                            join_and(&digits, "and"),
                            cells_phrase(u, &places)
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
    use crate::solve::solve;

    const GRID: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

    fn grid() -> Board {
        GRID.parse().unwrap()
    }

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
        assert_eq!(contradiction(grid()), None);
        assert_eq!(contradiction(Board::EMPTY), None);
    }
}

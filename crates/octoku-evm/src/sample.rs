//! Boards of many addresses: how many solve, how many have exactly one
//! solution, and whether the compiled contract gives the mirror's board.
//!
//! Address `i` of seed `s` is always the same 20 bytes (SplitMix64 seeded with
//! `s` mixed with `i`), so a run can be split across threads and replayed.

use octoku_core::{Address, Board, rng::SplitMix64, solve::octoku as solve};

use crate::{EvmError, Machine, Puzzle};

/// The address with index `index` in the stream of `seed`.
pub fn address(seed: u64, index: u64) -> Address {
    let mut rng = SplitMix64::for_index(seed, index);
    rng.next_u64();
    Address::new(rng.bytes20())
}

/// Tallies of one run (mergeable across threads).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Addresses sampled.
    pub addresses: u64,
    /// Boards with at least one solution.
    pub solvable: u64,
    /// Boards with exactly one solution.
    pub unique: u64,
    /// Boards whose givens were compared with the compiled contract's.
    pub contract_checked: u64,
    /// Boards with fewer than 8 givens (the seed ran out).
    pub short: u64,
    /// The first few addresses whose board has no solution, lowest index first.
    pub unsolvable_examples: Vec<(u64, Address, Board)>,
    /// An address whose contract board differs from the mirror's, if any.
    pub contract_mismatch: Option<(u64, Address)>,
}

/// How many unsolvable examples a tally keeps.
const EXAMPLES: usize = 5;

impl Tally {
    /// Boards with no solution.
    pub fn unsolvable(&self) -> u64 {
        self.addresses - self.solvable
    }

    /// Adds `other` into `self`.
    pub fn merge(&mut self, other: Tally) {
        self.addresses += other.addresses;
        self.solvable += other.solvable;
        self.unique += other.unique;
        self.contract_checked += other.contract_checked;
        self.short += other.short;
        self.unsolvable_examples.extend(other.unsolvable_examples);
        self.unsolvable_examples.sort_by_key(|e| e.0);
        self.unsolvable_examples.truncate(EXAMPLES);
        self.contract_mismatch = match (self.contract_mismatch, other.contract_mismatch) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
    }
}

/// Samples addresses `from..to` of `seed`: each board from the mirror of
/// `puzzle`, solved and counted up to two solutions; every `check_every`-th
/// board (0 = none) also from the compiled contract in `machine`.
pub fn sample(
    machine: &mut Machine,
    puzzle: Puzzle,
    seed: u64,
    from: u64,
    to: u64,
    check_every: u64,
) -> Result<Tally, EvmError> {
    let mut tally = Tally::default();
    for index in from..to {
        let address = address(seed, index);
        let board = puzzle.mirror_generate(&address);
        if check_every != 0 && index % check_every == 0 {
            tally.contract_checked += 1;
            if machine.generate(puzzle, &address)?.value != board
                && tally.contract_mismatch.is_none()
            {
                tally.contract_mismatch = Some((index, address));
            }
        }
        tally.addresses += 1;
        if board.givens() < 8 {
            tally.short += 1;
        }
        // Digits are 0..=8 by construction, so the solver cannot refuse the board.
        let solutions =
            solve::count(board, 2).map_err(|e| EvmError::Decode(format!("{address}: {e}")))?;
        if solutions >= 1 {
            tally.solvable += 1;
        } else if tally.unsolvable_examples.len() < EXAMPLES {
            tally.unsolvable_examples.push((index, address, board));
        }
        if solutions == 1 {
            tally.unique += 1;
        }
    }
    Ok(tally)
}

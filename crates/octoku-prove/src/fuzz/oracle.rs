//! The check of every answer against revm: both codes run on the same
//! calldata, a halt read as the executor reads it (a failed call with no
//! data). Inputs are edge words (0, 1, 2, 2^255, 2^256 - 1, single bits,
//! repeated nibbles) first, then real boards and near misses, then random
//! words, each input drawn on its own from (seed, index) so a run splits
//! across threads and replays.

use alloy_primitives::{Address, Bytes};
use octoku_core::octoku::symmetry;
use octoku_core::rng::SplitMix64;
use octoku_core::{Board, U256};
use octoku_evm::{EvmError, Machine, RawOutcome, cases};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::{self, Shape};

/// The inputs an answer is checked on: which arguments the call takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Domain {
    /// `verify(uint256 start, uint256 solution)` of an 8×8 puzzle: boards,
    /// valid solutions, near misses, words.
    Board8,
    /// Two free words (the random bodies): small numbers (shift amounts,
    /// exponents, byte indexes), edges, words.
    Words,
    /// `verify(bytes start, bytes solution)` of a 9×9 validator, 81 bytes
    /// each (three words per argument): valid grids, givens, near misses.
    Grid9,
}

/// Words at the edges: 0, 1, 2, 2^255, 2^256 - 1, 2^255 - 1, 2^256 - 2, the
/// nibble patterns of the SWAR verify (0x11..1, 0x77..7, 0x88..8), and
/// every single bit.
pub fn edge_words() -> Vec<U256> {
    let one = U256::from(1u8);
    let nibbles = |n: u64| (0..64).fold(U256::ZERO, |acc, _| (acc << 4) | U256::from(n));
    let mut words = vec![
        U256::ZERO,
        one,
        U256::from(2u8),
        one << 255,
        U256::MAX,
        U256::MAX >> 1,
        U256::MAX - one,
        U256::from(255u8),
        U256::from(256u32),
        nibbles(1),
        nibbles(7),
        nibbles(8),
        nibbles(9),
        nibbles(15),
    ];
    words.extend((0..256).map(|k| one << k));
    words
}

impl Domain {
    /// Variables (words) of one input.
    pub fn words(self) -> usize {
        match self {
            Domain::Board8 | Domain::Words => 2,
            Domain::Grid9 => 6,
        }
    }

    /// Inputs made of edge words only: every pair of the first 14 edge
    /// words, and each edge word in every argument with the others 0 (for a
    /// 9×9 grid: each word of each argument).
    pub fn edges(self) -> Vec<Vec<U256>> {
        let words = edge_words();
        let n = self.words();
        let mut out = Vec::new();
        if n == 2 {
            for a in &words[..14] {
                for b in &words[..14] {
                    out.push(vec![*a, *b]);
                }
            }
        }
        for w in &words {
            for k in 0..n {
                let mut v = vec![U256::ZERO; n];
                v[k] = *w;
                out.push(v.clone());
                v.iter_mut().for_each(|x| *x = *w);
                out.push(v);
            }
        }
        out
    }

    /// Input `index` of stream `seed` past the edges: real boards, near
    /// misses and random words.
    pub fn input(self, seed: u64, index: u64) -> Vec<U256> {
        let rng = &mut SplitMix64::for_index(seed, index);
        match self {
            Domain::Board8 => {
                let grid = valid_grid(rng);
                let (start, solution) = match rng.below(8) {
                    0 => (cases::random_subset(rng, grid), grid),
                    1 => {
                        // A near miss: two cells swapped, a digit out of
                        // 1..8, or one digit changed.
                        let mut cells = grid.cells();
                        let (a, b) = (rng.below(64) as usize, rng.below(64) as usize);
                        match rng.below(3) {
                            0 => cells.swap(a, b),
                            1 => cells[a] = [0u8, 9, 10, 15][rng.below(4) as usize],
                            _ => cells[a] = cells[a] % 8 + 1,
                        }
                        let solution = Board::from_cells(&cells);
                        (cases::random_subset(rng, grid), solution)
                    }
                    2 => (cases::random_subset(rng, grid), cases::latin(rng)),
                    3 => {
                        // A real board, its solution or a near miss.
                        let boards = real_boards();
                        let (start, grid) = boards[rng.below(boards.len() as u64) as usize];
                        let mut cells = grid.cells();
                        if rng.below(2) == 0 {
                            let i = rng.below(64) as usize;
                            cells[i] = cells[i] % 8 + 1;
                        }
                        (start, Board::from_cells(&cells))
                    }
                    4 => (cases::small_digits(rng), cases::small_digits(rng)),
                    5 => {
                        // One wrong given.
                        let i = rng.below(64) as usize;
                        let wrong = grid.cells()[i] % 8 + 1;
                        let start = cases::with_index(cases::random_subset(rng, grid), i, wrong);
                        (start, grid)
                    }
                    6 => (Board::EMPTY, grid),
                    _ => (Board::from_u256(rng.u256()), Board::from_u256(rng.u256())),
                };
                vec![start.to_u256(), solution.to_u256()]
            }
            Domain::Words => (0..2).map(|_| word(rng)).collect(),
            Domain::Grid9 => {
                let solution = octoku_evm::classic9::valid_grid(rng);
                let mut start: Vec<u8> = solution
                    .iter()
                    .map(|&b| if rng.below(2) == 0 { b } else { 0 })
                    .collect();
                let mut solution = solution;
                match rng.below(6) {
                    0 => {}
                    1 => solution[rng.below(81) as usize] = rng.below(10) as u8,
                    2 => start[rng.below(81) as usize] = rng.below(256) as u8,
                    3 => solution.iter_mut().for_each(|b| *b = rng.below(10) as u8),
                    4 => solution.swap(rng.below(81) as usize, rng.below(81) as usize),
                    _ => solution.iter_mut().for_each(|b| *b = rng.below(256) as u8),
                }
                crate::validate::grid_words(&[start, solution])
            }
        }
    }
}

/// A random valid 8×8 grid: one of 256 made by [`cases::valid_grid`] (a
/// random symmetry of the base grid, which takes a few hundred
/// microseconds), its digits relabelled.
fn valid_grid(rng: &mut SplitMix64) -> Board {
    static GRIDS: OnceLock<Vec<Board>> = OnceLock::new();
    let grids = GRIDS.get_or_init(|| {
        let mut rng = SplitMix64::new(0x9a1d);
        (0..256).map(|_| cases::valid_grid(&mut rng)).collect()
    });
    let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
    rng.shuffle(&mut perm);
    symmetry::relabel(grids[rng.below(256) as usize], &perm)
}

/// 64 boards the published `generate` gives (addresses from a fixed
/// stream) with their solutions: generating one takes about a millisecond,
/// so they are made once.
fn real_boards() -> &'static [(Board, Board)] {
    static BOARDS: OnceLock<Vec<(Board, Board)>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        let mut rng = SplitMix64::new(0xb0a2d);
        (0..64)
            .filter_map(|_| {
                let start = octoku_core::generate(&cases::address(&mut rng));
                let grid = octoku_core::solve::octoku::solve(start).ok().flatten()?;
                Some((start, grid))
            })
            .collect()
    })
}

/// A random word for the bodies: small numbers, edges, a shifted random
/// word, or 256 random bits.
fn word(rng: &mut SplitMix64) -> U256 {
    let one = U256::from(1u8);
    match rng.below(8) {
        0 => U256::from(rng.below(300)),
        1 => one << rng.below(256) as usize,
        2 => (one << rng.below(256) as usize).wrapping_sub(one),
        3 => U256::MAX - U256::from(rng.below(300)),
        4 => rng.u256() >> rng.below(257) as usize,
        5 => (one << 255) ^ U256::from(rng.below(4)),
        _ => rng.u256(),
    }
}

/// Two codes deployed on one in-memory chain, called alike.
pub struct Pair {
    machine: Machine,
    addresses: [Address; 2],
}

impl std::fmt::Debug for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pair")
            .field("addresses", &self.addresses)
            .finish()
    }
}

impl Pair {
    /// Deploys `reference` and `other` (runtime codes) on a fresh chain.
    pub fn new(reference: &[u8], other: &[u8]) -> Result<Pair, EvmError> {
        let mut machine = Machine::new()?;
        let a = machine.deploy(&engine::deployer(reference))?.0;
        let b = machine.deploy(&engine::deployer(other))?.0;
        Ok(Pair {
            machine,
            addresses: [a, b],
        })
    }

    /// Both results of one call.
    pub fn run(&mut self, calldata: &Bytes) -> Result<[RawOutcome; 2], EvmError> {
        let a = engine::call(&mut self.machine, self.addresses[0], calldata)?;
        let b = engine::call(&mut self.machine, self.addresses[1], calldata)?;
        Ok([a, b])
    }
}

/// Whether two results differ (success flag or data; gas aside).
pub fn differ(a: &RawOutcome, b: &RawOutcome) -> bool {
    a.success != b.success || a.output != b.output
}

/// An input on which two codes give different results in revm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The variables' values.
    pub values: Vec<U256>,
    /// The reference's result.
    pub reference: RawOutcome,
    /// The other's result.
    pub other: RawOutcome,
}

/// The edge inputs of `domain` then `count` inputs of stream `seed`, made
/// once per run and shared (a board input takes a few microseconds to
/// draw; a "proved" is checked on 10^5 of them).
pub fn inputs(domain: Domain, seed: u64, count: u64) -> Arc<Vec<Vec<U256>>> {
    type Cache = Mutex<HashMap<(Domain, u64, u64), Arc<Vec<Vec<U256>>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((domain, seed, count))
        .or_insert_with(|| {
            let mut all = domain.edges();
            all.par_extend((0..count).into_par_iter().map(|i| domain.input(seed, i)));
            Arc::new(all)
        })
        .clone()
}

/// Runs `reference` and `other` on every edge input of `domain` and on
/// `count` more (stream `seed`), in parallel on rayon's pool (one chain per
/// batch); returns the first input (in input order) where they differ, and
/// the number of inputs run.
pub fn first_difference(
    domain: Domain,
    shape: &Shape,
    (reference, other): (&[u8], &[u8]),
    count: u64,
    seed: u64,
) -> Result<(Option<Difference>, u64), EvmError> {
    let inputs = inputs(domain, seed, count);
    let total = inputs.len() as u64;
    let value = |i: u64| inputs[i as usize].clone();
    const BATCH: u64 = 2_048;
    let batches: Vec<u64> = (0..total.div_ceil(BATCH)).collect();
    let found = batches
        .par_iter()
        .map(|&b| -> Result<Option<Difference>, EvmError> {
            let mut pair = Pair::new(reference, other)?;
            for i in b * BATCH..((b + 1) * BATCH).min(total) {
                let values = value(i);
                let [r, o] = pair.run(&shape.calldata(&values))?;
                if differ(&r, &o) {
                    return Ok(Some(Difference {
                        values,
                        reference: r,
                        other: o,
                    }));
                }
            }
            Ok(None)
        })
        .find_map_first(|r| match r {
            Ok(None) => None,
            other => Some(other),
        });
    Ok((found.transpose()?.flatten(), total))
}

//! Boards of many addresses: how many solve, how many have exactly one
//! solution, and whether the compiled contract gives the mirror's board.
//!
//! Address `i` of seed `s` is always the same 20 bytes (SplitMix64 seeded with
//! `s` mixed with `i`), so a run can be split across threads and replayed.

use octoku_core::{Address, Board, rng::SplitMix64, solve::octoku as solve};
use rayon::prelude::*;
use serde::{Serialize, Serializer};

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

    /// Every board solvable and the contract never differing from the
    /// mirror.
    pub fn ok(&self) -> bool {
        self.unsolvable() == 0 && self.contract_mismatch.is_none()
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
        // The solver refuses a board holding a value that is no digit: the
        // published generate ORs a digit into a filled cell when its seed
        // runs out (8 | 1 = 9; below 1e-26 per address, docs/fair.md). No
        // solution keeps such a given, so the board has none.
        let solutions = solve::count(board, 2).unwrap_or(0);
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

/// Addresses a worker takes at a time in [`sample_many`].
pub const BATCH: u64 = 1024;

/// Why a sampling worker stopped: its machine could not be built, or a
/// batch failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// The worker's in-memory EVM.
    #[error("{0}")]
    Machine(EvmError),
    /// A batch of addresses.
    #[error("addresses {first}..{last}: {error}")]
    Batch {
        /// The first address index of the batch.
        first: u64,
        /// One past its last.
        last: u64,
        /// What the EVM said.
        error: EvmError,
    },
}

/// What [`sample_many`] sampled: the tally of every address below `next`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampling {
    /// The tally of addresses `from..next`.
    pub tally: Tally,
    /// One past the last address sampled: `from + count` when finished.
    pub next: u64,
    /// Whether every address asked for was sampled (not stopped).
    pub finished: bool,
}

/// Samples `count` addresses of `seed` from index `from` ([`sample`]) in
/// batches of [`BATCH`] on the current rayon pool, each worker with its own
/// [`Machine`]. `progress` hears how many addresses each finished batch
/// held; once `stop` answers true, no batch starts, and the result is the
/// finished prefix.
///
/// ```
/// use octoku_evm::{Puzzle, sample};
/// let run = sample::sample_many(Puzzle::Fair, 1, 0, 50, 10, &|_| {}, &|| false)?;
/// assert!(run.finished && run.next == 50 && run.tally.addresses == 50);
/// assert_eq!(run.tally.contract_checked, 5);
/// # Ok::<(), sample::SampleError>(())
/// ```
pub fn sample_many(
    puzzle: Puzzle,
    seed: u64,
    from: u64,
    count: u64,
    check_every: u64,
    progress: &(dyn Fn(u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Sampling, SampleError> {
    let end = from + count;
    let batches = count.div_ceil(BATCH);
    // One tally per batch, in order; None for a batch skipped after a stop.
    let tallies: Vec<Option<Tally>> = (0..batches)
        .into_par_iter()
        .map_init(Machine::new, |machine, batch| {
            if stop() {
                return Ok(None);
            }
            let machine = machine
                .as_mut()
                .map_err(|e| SampleError::Machine(e.clone()))?;
            let first = from + batch * BATCH;
            let last = (first + BATCH).min(end);
            let t = sample(machine, puzzle, seed, first, last, check_every)
                .map_err(|error| SampleError::Batch { first, last, error })?;
            progress(last - first);
            Ok(Some(t))
        })
        .collect::<Result<_, SampleError>>()?;
    // The finished prefix: every address below the first skipped batch.
    let done = tallies.iter().take_while(|b| b.is_some()).count() as u64;
    let tally = tallies
        .into_iter()
        .map_while(|t| t)
        .fold(Tally::default(), |mut a, b| {
            a.merge(b);
            a
        });
    Ok(Sampling {
        tally,
        next: (from + done * BATCH).min(end),
        finished: done == batches,
    })
}

/// The report of `octoku sample --json`: the run's figures and tally.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The implementation sampled.
    pub puzzle: Puzzle,
    /// The seed of the address stream.
    pub seed: u64,
    /// Index of the first address.
    pub from: u64,
    /// Addresses sampled.
    pub addresses: u64,
    /// Boards with at least one solution.
    pub solvable: u64,
    /// Boards with none.
    pub unsolvable: u64,
    /// Boards with exactly one.
    pub unique: u64,
    /// Boards with fewer than 8 givens.
    pub short_boards: u64,
    /// Boards compared with the compiled contract.
    pub contract_checked: u64,
    /// The first address whose contract board differs from the mirror's.
    pub contract_mismatch: Option<Indexed>,
    /// The first few addresses whose board has no solution.
    pub unsolvable_examples: Vec<Example>,
    /// Worker threads.
    pub threads: usize,
    /// Wall time.
    pub seconds: f64,
    /// Addresses per second.
    pub per_second: f64,
}

/// An address of the stream, by its index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Indexed {
    /// Its index.
    pub index: u64,
    /// The address, checksummed.
    #[serde(serialize_with = "display")]
    pub address: Address,
}

/// An address of the stream and the board it gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// Its index.
    pub index: u64,
    /// The address, checksummed.
    #[serde(serialize_with = "display")]
    pub address: Address,
    /// Its board, `0x` and 64 hex digits.
    #[serde(serialize_with = "display")]
    pub start: Board,
}

/// A value as its Display spelling (an address checksummed, a board in hex).
fn display<T: std::fmt::Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

impl Report {
    /// The report of `tally`, sampled from index `from` of `seed` on
    /// `threads` workers in `seconds`.
    pub fn new(
        puzzle: Puzzle,
        seed: u64,
        from: u64,
        tally: &Tally,
        threads: usize,
        seconds: f64,
    ) -> Report {
        Report {
            puzzle,
            seed,
            from,
            addresses: tally.addresses,
            solvable: tally.solvable,
            unsolvable: tally.unsolvable(),
            unique: tally.unique,
            short_boards: tally.short,
            contract_checked: tally.contract_checked,
            contract_mismatch: tally
                .contract_mismatch
                .map(|(index, address)| Indexed { index, address }),
            unsolvable_examples: tally
                .unsolvable_examples
                .iter()
                .map(|&(index, address, start)| Example {
                    index,
                    address,
                    start,
                })
                .collect(),
            threads,
            seconds,
            per_second: tally.addresses as f64 / seconds.max(1e-9),
        }
    }
}

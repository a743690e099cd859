//! Differential tests: the Rust mirror (octoku-core) against every compiled
//! implementation (reference, golfed, fair) running in revm, on random and
//! structured inputs. mirror = reference = golf on every verify and generate.
//!
//! The default run executes well over 10,000 cases in all; set
//! `PROPTEST_CASES` to scale every property. A mismatch fails with proptest's
//! minimal reproducing input printed as hex.

use std::cell::RefCell;

use octoku_core::{Address, Board, U256, generate, solve, symmetry, verify};
use octoku_evm::{Machine, Puzzle};
use proptest::prelude::*;

thread_local! {
    static EVM: RefCell<Machine> = RefCell::new(Machine::new().expect("contracts deploy"));
}

/// Default cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1_500;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A valid solution from the public vectors; every other valid grid here is a
/// symmetry and digit relabelling of it.
const GRID: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

fn base_grid() -> Board {
    GRID.parse().expect("grid parses")
}

/// The verdict every implementation gives; panics (failing the property with
/// its input) if two implementations disagree with each other.
fn evm_verify(start: Board, solution: Board) -> bool {
    let verdicts: Vec<(Puzzle, bool)> = EVM.with(|evm| {
        let mut evm = evm.borrow_mut();
        Puzzle::ALL
            .iter()
            .map(|&p| {
                (
                    p,
                    evm.verify(p, start, solution).expect("verify call").value,
                )
            })
            .collect()
    });
    let first = verdicts[0].1;
    assert!(
        verdicts.iter().all(|v| v.1 == first),
        "implementations disagree on verify({start}, {solution}): {verdicts:?}"
    );
    first
}

fn u256() -> impl Strategy<Value = U256> {
    any::<[u64; 4]>().prop_map(U256::from_limbs)
}

/// Colliding words: every 6-bit draw from a few cell values, over a prefix
/// of the 43 draws, so the draw loops skip often, run dry mid-skip, and hit
/// the published loop's exhaustion path (a digit ORed into a filled cell).
/// The 43rd draw is 4 bits wide: a cell value placed there keeps its low 4
/// bits (the shift drops the rest), as a seed's last draw does.
fn colliding_u256() -> impl Strategy<Value = U256> {
    (
        proptest::collection::vec(0u64..64, 1..=9),
        proptest::collection::vec(any::<u8>(), 1..=43),
    )
        .prop_map(|(cells, picks)| {
            picks
                .iter()
                .enumerate()
                .fold(U256::ZERO, |acc, (draw, &pick)| {
                    let cell = cells[usize::from(pick) % cells.len()];
                    acc | (U256::from(cell) << (6 * draw))
                })
        })
}

/// Sparse words: few set bits, or short words, which spend a seed early.
fn sparse_u256() -> impl Strategy<Value = U256> {
    prop_oneof![
        proptest::collection::vec(0usize..256, 0..12).prop_map(|bits| {
            bits.into_iter()
                .fold(U256::ZERO, |acc, b| acc | (U256::from(1u8) << b))
        }),
        (any::<[u64; 4]>(), 0usize..=256).prop_map(|(limbs, width)| {
            let v = U256::from_limbs(limbs);
            if width == 256 {
                v
            } else {
                v & ((U256::from(1u8) << width) - U256::from(1u8))
            }
        }),
        // Draws of 6 bits from a small alphabet of cells: many collisions.
        (proptest::collection::vec(0u8..4, 1..43)).prop_map(|draws| {
            draws
                .iter()
                .rev()
                .fold(U256::ZERO, |acc, d| (acc << 6) | U256::from(*d))
        }),
    ]
}

/// A random valid grid: a random symmetry and digit relabelling of the base grid.
fn valid_grid() -> impl Strategy<Value = Board> {
    (
        0u32..symmetry::ORDER,
        Just(()).prop_perturb(|_, mut rng| {
            let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
            for i in (1..8).rev() {
                let j = (rng.next_u32() as usize) % (i + 1);
                perm.swap(i, j);
            }
            perm
        }),
    )
        .prop_map(|(index, perm)| {
            symmetry::relabel(
                symmetry::Symmetry::from_index(index)
                    .expect("index below ORDER")
                    .apply(base_grid()),
                &perm,
            )
        })
}

/// Keeps the cells of `board` whose bit is set in `mask` (bit i = reading index i).
fn subset(board: Board, mask: u64) -> Board {
    let mut cells = board.cells();
    for (i, cell) in cells.iter_mut().enumerate() {
        if mask >> i & 1 == 0 {
            *cell = 0;
        }
    }
    Board::from_cells(&cells)
}

proptest! {
    #![proptest_config(config())]

    /// generate(address): each implementation gives its mirror's board for any address.
    #[test]
    fn generate_agrees_on_random_addresses(bytes in any::<[u8; 20]>()) {
        let address = Address::new(bytes);
        for puzzle in Puzzle::ALL {
            let evm = EVM.with(|evm| evm.borrow_mut().generate(puzzle, &address).expect("generate call"));
            prop_assert_eq!(evm.value, puzzle.mirror_generate(&address), "{} generate({})", puzzle, address);
        }
        prop_assert_eq!(Puzzle::Golf.mirror_generate(&address), generate(&address));
    }

    /// Every implementation's own fill code (through its raw-seed harness)
    /// agrees with its mirror on any raw seed, sparse ones (which run out) and
    /// colliding ones (many redraws) included.
    #[test]
    fn fills_agree_on_raw_sparse_and_colliding_seeds(seed in prop_oneof![u256(), sparse_u256(), colliding_u256()]) {
        for harness in Puzzle::ALL {
            let evm = EVM.with(|evm| evm.borrow_mut().fill(harness, seed).expect("harness call"));
            prop_assert_eq!(evm.value, harness.mirror_fill(seed), "{} fill, seed {:#x}", harness, seed);
        }
    }

    /// A valid grid verifies against any subset of its own cells as the start.
    #[test]
    fn verify_agrees_on_valid_solutions_with_subset_starts(grid in valid_grid(), mask in any::<u64>()) {
        let start = subset(grid, mask);
        prop_assert!(verify(start, grid));
        prop_assert_eq!(evm_verify(start, grid), verify(start, grid), "start {} solution {}", start, grid);
    }

    /// Mutations of valid grids: swaps, bad digits, band row swaps, wrong givens.
    #[test]
    fn verify_agrees_on_mutated_solutions(
        grid in valid_grid(),
        mask in any::<u64>(),
        a in 0usize..64, b in 0usize..64,
        bad in prop_oneof![Just(0u8), 9u8..16],
        kind in 0u8..5,
    ) {
        let mut cells = grid.cells();
        let mut start = subset(grid, mask);
        match kind {
            0 => cells.swap(a, b),
            1 => cells[a] = bad,
            2 => {
                // Swap two whole rows from different bands: rows and columns
                // stay permutations, subgrids break.
                let (r1, r2) = (a % 8, (a % 8 + 2 + b % 6) % 8);
                for c in 0..8 { cells.swap(8 * r1 + c, 8 * r2 + c); }
            }
            3 => {
                // A given that disagrees with the solution.
                let given = (grid.cells()[a] % 8) + 1;
                start = Board::from_cells(&{ let mut s = start.cells(); s[a] = given; s });
            }
            _ => cells[a] = (cells[a] % 8) + 1,
        }
        let solution = Board::from_cells(&cells);
        prop_assert_eq!(evm_verify(start, solution), verify(start, solution), "start {} solution {}", start, solution);
    }

    /// Latin squares that break only subgrids: cyclic shifts pass rows and columns.
    #[test]
    fn verify_agrees_on_latin_squares(shift in prop::sample::select(vec![1usize, 3, 5, 7]), perm_seed in any::<u64>()) {
        let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let mut s = perm_seed;
        for i in (1..8).rev() { s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); perm.swap(i, (s >> 33) as usize % (i + 1)); }
        let mut cells = [0u8; 64];
        for r in 0..8 { for c in 0..8 { cells[8 * r + c] = perm[(c + shift * r) % 8]; } }
        let solution = Board::from_cells(&cells);
        prop_assert_eq!(evm_verify(Board::EMPTY, solution), verify(Board::EMPTY, solution), "solution {}", solution);
    }

    /// Fully random pairs of words.
    #[test]
    fn verify_agrees_on_random_pairs(start in u256(), solution in u256()) {
        let (start, solution) = (Board::from_u256(start), Board::from_u256(solution));
        prop_assert_eq!(evm_verify(start, solution), verify(start, solution), "start {} solution {}", start, solution);
    }

    /// Generated boards as starts against valid grids and random words.
    #[test]
    fn verify_agrees_on_generated_starts(bytes in any::<[u8; 20]>(), grid in valid_grid()) {
        let start = generate(&Address::new(bytes));
        prop_assert_eq!(evm_verify(start, grid), verify(start, grid), "start {} solution {}", start, grid);
    }

    /// The solver's solution for a random address's board keeps its givens and
    /// verifies in the mirror and in the contract; a board it cannot solve has
    /// no completion at all.
    #[test]
    fn solver_solutions_verify_in_mirror_and_contract(bytes in any::<[u8; 20]>()) {
        let start = generate(&Address::new(bytes));
        match solve::solve(start).expect("generated boards hold digits 1-8") {
            Some(solution) => {
                prop_assert!(verify(start, solution), "mirror rejects {} for {}", solution, start);
                prop_assert!(evm_verify(start, solution), "contract rejects {} for {}", solution, start);
            }
            None => prop_assert_eq!(solve::count(start, 1), Ok(0)),
        }
    }
}

/// Seeds at the edges of the draw loops: zero, one bit, all ones above or
/// below any bit, only the last 4-bit draw set, and a repeated cell followed
/// by nothing at every draw position (the seed runs out mid-redraw). Every
/// implementation's harness agrees with its mirror.
#[test]
fn fills_agree_on_edge_seeds() {
    let one = U256::from(1u8);
    let mut seeds = vec![U256::ZERO, U256::MAX];
    for bit in 0..256 {
        seeds.extend([one << bit, U256::MAX >> bit, U256::MAX << bit]);
    }
    for top in 1..16u64 {
        seeds.push(U256::from(top) << 252);
    }
    for draw in 0..43 {
        seeds.push(U256::from(5u64 | 5 << 6) << (6 * draw));
    }
    EVM.with(|evm| {
        let mut evm = evm.borrow_mut();
        for seed in seeds {
            for puzzle in Puzzle::ALL {
                let board = evm.fill(puzzle, seed).expect("harness call").value;
                assert_eq!(board, puzzle.mirror_fill(seed), "{puzzle}, seed {seed:#x}");
            }
        }
    });
}

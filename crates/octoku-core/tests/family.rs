//! The Sudoku family through the core: boards of every geometry, their text
//! forms, the general solver and the puzzle generator, checked on the seeds'
//! boards, on properties over every geometry, and on every kind of bad input.

use octoku_core::Board;
use octoku_core::grid::Grid;
use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::{self, Form, ReadOptions, Symbols, TextError};
use octoku_core::puzzle::{self, PuzzleError};
use octoku_core::rng::SplitMix64;
use octoku_core::rules::{self, Contradiction};
use octoku_core::solve;
use proptest::prelude::*;

/// Every box shape octoku plays: r×c boxes with 4 ≤ r·c ≤ 16.
fn all_geometries() -> Vec<Geometry> {
    let mut out = Vec::new();
    for r in 1..=16 {
        for c in 1..=16 {
            if let Ok(g) = Geometry::new(r, c) {
                out.push(g);
            }
        }
    }
    out
}

/// Reads a board with the default options, panicking with the error message.
fn parse(text: &str) -> text::Parsed {
    text::read(text, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// A 9×9 board from its 81-character line form.
fn classic(line: &str) -> Grid {
    let p = parse(line);
    assert_eq!(p.board.geometry(), Geometry::CLASSIC);
    p.board
}

// ---------------------------------------------------------------------------
// The seeds' boards
// ---------------------------------------------------------------------------

/// Seed 000's valid grids.
const SEED000_VALID: [&str; 5] = [
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
    "256734198891265374347198652514683729728519436963427581135942867689371245472856913",
    "964532178187694235235817964629451783573986412841273596416728359352169847798345621",
    "123675948456982371789314562964157283517238496832496157271849635395761824648523719",
    "123745689456819237789263514897452361632198745541637928315924876274586193968371452",
];

/// Seed 000's invalid grids (one cell of each valid grid changed).
const SEED000_INVALID: [&str; 5] = [
    "953168742862734951417952836746893125281645397395271468138529674574386219629417582",
    "256734198891265374347198652414683729728519436963427581135942867689371245472856913",
    "964532178187594235235817964629451783573986412841273596416728359352169847798345621",
    "423675948456982371789314562964157283517238496832496157271849635395761824648523719",
    "723745689456819237789263514897452361632198745541637928315924876274586193968371452",
];

#[test]
fn seed000_valid_grids_are_solved_grids_and_invalid_ones_are_not() {
    for line in SEED000_VALID {
        let b = classic(line);
        assert!(b.is_valid_grid(), "{line}");
        assert_eq!(solve::count(&b, 2), 1, "{line}");
    }
    for line in SEED000_INVALID {
        let b = classic(line);
        assert!(!b.is_valid_grid(), "{line}");
        assert_eq!(solve::count(&b, 2), 0, "{line}");
        assert!(matches!(
            rules::contradiction(&b),
            Some(Contradiction::Repeated { .. })
        ));
    }
}

/// Seed 002's easy puzzle (the Cryptol blog's) and its stated solution.
const SEED002_EASY: &str =
    ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.";
const SEED002_EASY_SOLUTION: &str =
    "295743861431865927876192543387459216612387495549216738763524189928671354154938672";
/// Seed 002's hard puzzle (Arto Inkala's) and its stated solution.
const SEED002_HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const SEED002_HARD_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

#[test]
fn seed002_puzzles_solve_to_their_stated_solutions_uniquely() {
    for (puzzle, solution) in [
        (SEED002_EASY, SEED002_EASY_SOLUTION),
        (SEED002_HARD, SEED002_HARD_SOLUTION),
    ] {
        let p = classic(puzzle);
        assert_eq!(solve::solve(&p), Some(classic(solution)));
        assert!(solve::is_unique(&p));
        assert_eq!(solve::count(&p, 10), 1);
    }
}

/// Seed 003's example, byte for byte (its header ends in a space).
const SEED003_EXAMPLE: &str = "1 2 3 4 \n ,1, ,4\n4,2,1, \n ,3,4,2\n2, ,3, ";

#[test]
fn the_header_form_example_reads_in_its_own_form_writes_back_exactly_and_solves() {
    let p = parse(SEED003_EXAMPLE);
    assert_eq!(p.form, Form::Header);
    assert_eq!(p.board.geometry(), Geometry::for_size(4).unwrap());
    assert_eq!(
        p.board.cells(),
        [0, 1, 0, 4, 4, 2, 1, 0, 0, 3, 4, 2, 2, 0, 3, 0]
    );
    assert_eq!(p.to_text().unwrap(), SEED003_EXAMPLE);
    let solution = solve::solve(&p.board).unwrap();
    assert!(solve::is_unique(&p.board));
    assert_eq!(
        text::write(&solution, &p.symbols, Form::Header).unwrap(),
        "1 2 3 4\n3,1,2,4\n4,2,1,3\n1,3,4,2\n2,4,3,1"
    );
}

#[test]
fn the_header_form_takes_letters_and_non_ascii_symbols() {
    let text = "α β γ δ\nα, , ,δ\n ,δ,α, \n ,α,δ, \nδ, , ,α";
    let p = parse(text);
    assert_eq!(p.symbols.name(2), "β");
    assert_eq!(p.to_text().unwrap(), text);
    let s = solve::solve(&p.board).unwrap();
    assert!(s.is_valid_grid() && s.keeps_givens(&p.board));
    let words = "one two three four\none, , , \n , , , \n , , , \n , , ,four";
    let p = parse(words);
    assert_eq!(p.board.get(3, 3), 4);
    assert_eq!(p.to_text().unwrap(), words);
}

// ---------------------------------------------------------------------------
// The 8×8 word form
// ---------------------------------------------------------------------------

#[test]
fn octoku_board_and_n_board_agree_on_cells_and_solutions() {
    let start: Board = "0x0000306106007040030500001420030007010000280004007150682082005130"
        .parse()
        .unwrap();
    let nb = Grid::try_from(start).unwrap();
    let fast = octoku_core::solve::octoku::solve(start).unwrap().unwrap();
    let general = solve::solve(&nb).unwrap();
    assert_eq!(Board::try_from(&general).unwrap(), fast);
    assert_eq!(
        solve::count(&nb, 5),
        octoku_core::solve::octoku::count(start, 5).unwrap()
    );
}

// ---------------------------------------------------------------------------
// Properties over every geometry
// ---------------------------------------------------------------------------

/// A geometry, a solved grid of it, and a random subset of its cells as givens.
fn puzzle_case() -> impl Strategy<Value = (Grid, Grid)> {
    (0..all_geometries().len(), any::<u64>(), 0u32..=100).prop_map(|(k, seed, keep)| {
        let g = all_geometries()[k];
        let mut rng = SplitMix64::new(seed);
        let grid = puzzle::solved_grid(g, &mut rng);
        let mut start = grid.clone();
        for i in 0..g.cell_count() {
            if rng.below(100) >= u64::from(keep) {
                let (r, c) = g.position(i);
                start.set(r, c, 0);
            }
        }
        (grid, start)
    })
}

/// Plain backtracking: counts solutions up to `limit`, branching on the
/// empty cell with the fewest symbols its units allow (symbols in order).
/// The first empty cell in reading order instead took minutes on some
/// dense 16×16 boards with two rows emptied.
fn brute_count(b: &mut Grid, limit: u64) -> u64 {
    let g = b.geometry();
    // The empty cell with the fewest allowed symbols, and those symbols.
    let mut best: Option<(usize, Vec<u8>)> = None;
    for i in (0..g.cell_count()).filter(|&i| b.cells()[i] == 0) {
        let (r, c) = g.position(i);
        let allowed: Vec<u8> = (1..=g.size() as u8)
            .filter(|&v| {
                !g.units_of(r, c)
                    .iter()
                    .any(|&u| g.unit_cells(u).any(|(rr, cc)| b.get(rr, cc) == v))
            })
            .collect();
        if best
            .as_ref()
            .is_none_or(|(_, fewest)| allowed.len() < fewest.len())
        {
            best = Some((i, allowed));
        }
    }
    let Some((i, allowed)) = best else {
        return 1;
    };
    let (r, c) = g.position(i);
    let mut n = 0;
    for v in allowed {
        b.set(r, c, v);
        n += brute_count(b, limit - n);
        b.set(r, c, 0);
        if n >= limit {
            break;
        }
    }
    n
}

/// Whether no symbol is given twice in a unit.
fn givens_consistent(b: &Grid) -> bool {
    let g = b.geometry();
    g.units().all(|u| {
        let mut seen = 0u32;
        g.unit_cells(u).all(|(r, c)| {
            let v = b.get(r, c);
            let fresh = v == 0 || seen >> v & 1 == 0;
            seen |= 1 << v;
            fresh
        })
    })
}

/// A solved grid of `g` drawn from `rng`, each cell kept with a chance of
/// `keep` in 100 (else emptied).
fn thinned_solution(g: Geometry, rng: &mut SplitMix64, keep: u64) -> Grid {
    let mut b = puzzle::solved_grid(g, rng);
    for i in 0..g.cell_count() {
        if rng.below(100) >= keep {
            let (r, c) = g.position(i);
            b.set(r, c, 0);
        }
    }
    b
}

/// Writes `noise` random digits over random cells of `b`.
fn write_noise(b: &mut Grid, rng: &mut SplitMix64, noise: usize) {
    let g = b.geometry();
    for _ in 0..noise {
        let i = rng.below(g.cell_count() as u64) as usize;
        let (r, c) = g.position(i);
        b.set(r, c, 1 + rng.below(g.size() as u64) as u8);
    }
}

/// A pool of symbols for custom sets: digits, letters, punctuation and non-ASCII.
const POOL: &str =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ#@*!?αβγδεζηθ字é€Ж";

/// Picks N distinct characters of the pool.
fn custom_symbols(n: usize, rng: &mut SplitMix64) -> Symbols {
    let mut pool: Vec<char> = POOL.chars().collect();
    rng.shuffle(&mut pool);
    let picked: Vec<String> = pool[..n].iter().map(|c| c.to_string()).collect();
    Symbols::new(&picked).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A solution found for givens drawn from a valid grid is a valid grid keeping every given.
    #[test]
    fn solutions_are_valid_grids_that_keep_the_givens((_grid, start) in puzzle_case()) {
        let s = solve::solve(&start).expect("givens from a valid grid have a solution");
        prop_assert!(s.is_valid_grid());
        prop_assert!(s.keeps_givens(&start));
        prop_assert!(solve::count(&start, 1) == 1);
    }

    /// Random givens (often contradictory): a solution, when there is one, is valid and keeps
    /// them; `count` is 0 exactly when `solve` finds none.
    #[test]
    fn random_givens_solve_validly_or_count_zero(k in 0..all_geometries().len(), seed: u64) {
        let g = all_geometries()[k];
        let mut rng = SplitMix64::new(seed);
        let mut b = Grid::empty(g);
        for _ in 0..g.size() * 2 {
            let i = rng.below(g.cell_count() as u64) as usize;
            let (r, c) = g.position(i);
            b.set(r, c, 1 + rng.below(g.size() as u64) as u8);
        }
        match solve::solve(&b) {
            Some(s) => {
                prop_assert!(s.is_valid_grid() && s.keeps_givens(&b));
                prop_assert!(solve::count(&b, 1) == 1);
            }
            None => prop_assert_eq!(solve::count(&b, 3), 0),
        }
        if !givens_consistent(&b) {
            let repeated = matches!(rules::contradiction(&b), Some(Contradiction::Repeated { .. }));
            prop_assert!(repeated);
        }
    }

    /// On 4×4 and 6×6 boards `count(limit)` equals a plain backtracking count up to the same limit.
    #[test]
    fn count_agrees_with_brute_force_on_small_boards(
        shape in prop::sample::select(vec![(2usize, 2usize), (1, 4), (4, 1), (2, 3), (3, 2), (1, 6)]),
        seed: u64,
        keep in 0u64..=100,
        noise in 0usize..3,
    ) {
        let g = Geometry::new(shape.0, shape.1).unwrap();
        let mut rng = SplitMix64::new(seed);
        let mut b = thinned_solution(g, &mut rng, keep);
        write_noise(&mut b, &mut rng, noise);
        let limit = 60;
        let brute = if givens_consistent(&b) { brute_count(&mut b.clone(), limit) } else { 0 };
        prop_assert_eq!(solve::count(&b, limit), brute);
        prop_assert_eq!(solve::is_unique(&b), brute == 1);
    }

    /// On 12×12 and 16×16 boards `count(limit)` and `solve` agree with plain backtracking:
    /// dense starts from a solved grid, some with two rows of a band emptied (so at least two
    /// solutions: the rows may swap) and some with a random given written over (often none).
    #[test]
    fn count_agrees_with_brute_force_on_12x12_and_16x16_boards(
        n in prop::sample::select(vec![12usize, 16]),
        seed: u64,
        keep in 75u64..=100,
        two_rows: bool,
        noise in 0usize..2,
    ) {
        let g = Geometry::for_size(n).unwrap();
        let mut rng = SplitMix64::new(seed);
        let mut b = thinned_solution(g, &mut rng, keep);
        if two_rows {
            let band = rng.below((n / g.box_rows()) as u64) as usize * g.box_rows();
            for c in 0..n {
                b.set(band, c, 0);
                b.set(band + 1, c, 0);
            }
        }
        write_noise(&mut b, &mut rng, noise);
        let limit = 3;
        let brute = if givens_consistent(&b) { brute_count(&mut b.clone(), limit) } else { 0 };
        prop_assert_eq!(solve::count(&b, limit), brute);
        if two_rows && noise == 0 {
            prop_assert!(brute >= 2);
        }
        let (first, counted) = solve::solve_counting(&b, limit);
        prop_assert_eq!(counted, brute);
        prop_assert_eq!(first.is_some(), brute > 0);
        if let Some(s) = solve::solve(&b) {
            prop_assert!(s.is_valid_grid() && s.keeps_givens(&b));
        }
    }

    /// Writing a board in any form with standard or custom symbols and reading it back gives
    /// the same board, symbols and form, and writing that again gives the same text.
    #[test]
    fn every_form_round_trips_with_standard_and_custom_symbols(
        (_grid, start) in puzzle_case(),
        seed: u64,
        custom: bool,
    ) {
        let g = start.geometry();
        let mut rng = SplitMix64::new(seed);
        let symbols = if custom { custom_symbols(g.size(), &mut rng) } else { Symbols::standard(g.size()) };
        for form in [Form::Line, Form::Grid, Form::Header] {
            let text = text::write(&start, &symbols, form).unwrap();
            let options = ReadOptions {
                geometry: Some(g),
                symbols: (custom && form != Form::Header).then(|| symbols.clone()),
            };
            let back = text::read(&text, &options).unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(&back.board, &start);
            prop_assert_eq!(&back.symbols, &symbols);
            prop_assert_eq!(back.form, form);
            prop_assert_eq!(back.to_text().unwrap(), text.clone());
            // With the default shape, the text alone says everything.
            if Geometry::for_size(g.size()) == Ok(g) && (!custom || form == Form::Header) {
                let alone = text::read(&text, &ReadOptions::default()).unwrap();
                prop_assert_eq!(&alone.board, &start);
            }
        }
    }

    /// A random symmetry (relabelling, band/row/stack/column permutations, transposition)
    /// of a solved grid is a solved grid.
    #[test]
    fn random_symmetries_of_solved_grids_stay_valid(k in 0..all_geometries().len(), seed: u64) {
        let g = all_geometries()[k];
        let mut rng = SplitMix64::new(seed);
        let grid = puzzle::solved_grid(g, &mut rng);
        prop_assert!(grid.is_valid_grid());
        let moved = puzzle::transform(&grid, &mut rng);
        prop_assert!(moved.is_valid_grid());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A generated puzzle has exactly one solution, the one reported, and is the same for the same seed.
    #[test]
    fn generated_puzzles_have_exactly_one_solution(k in 0..all_geometries().len(), seed: u64) {
        let g = all_geometries()[k];
        let p = puzzle::generate(g, seed, None).unwrap();
        prop_assert_eq!(solve::count(&p.puzzle, 2), 1);
        prop_assert_eq!(solve::solve(&p.puzzle), Some(p.solution.clone()));
        prop_assert!(p.solution.keeps_givens(&p.puzzle));
        prop_assert_eq!(puzzle::generate(g, seed, None).unwrap(), p);
    }
}

#[test]
fn generator_hits_a_reachable_target_and_says_when_one_is_not() {
    for (n, k) in [(4, 8), (6, 16), (8, 30), (9, 28), (12, 90), (16, 150)] {
        let g = Geometry::for_size(n).unwrap();
        let p = puzzle::generate(g, 42, Some(k)).unwrap();
        assert_eq!(p.puzzle.givens(), k, "{g}");
        assert!(solve::is_unique(&p.puzzle), "{g}");
    }
    let g = Geometry::CLASSIC;
    let err = puzzle::generate(g, 1, Some(12)).unwrap_err();
    let PuzzleError::Unreachable { fewest, .. } = err else {
        panic!("{err}");
    };
    assert!(fewest > 12);
    assert!(
        err.to_string().starts_with(
            "--givens 12 is out of reach for a unique 9x9 (3x3 boxes) puzzle: 8 passes"
        ),
        "{err}"
    );
    assert_eq!(
        puzzle::generate(g, 1, Some(82)).unwrap_err().to_string(),
        "--givens 82 is more than the 81 cells of a 9x9 (3x3 boxes) board; expected at most 81"
    );
}

// ---------------------------------------------------------------------------
// Contradictions
// ---------------------------------------------------------------------------

#[test]
fn contradictions_name_the_simplest_reason_in_one_line() {
    let g = Geometry::CLASSIC;
    let cases = [
        ("11", "row 1 holds 1 twice"),
        (
            "12345678.........9",
            "row 1 column 9 can take no symbol: its row, column and box already hold all 9",
        ),
        ("1........1", "column 1 holds 1 twice"),
    ];
    for (prefix, want) in cases {
        let line = format!("{prefix:.<81}");
        let b = classic(&line);
        assert_eq!(
            rules::contradiction(&b).unwrap().describe(g),
            want,
            "{line}"
        );
        assert_eq!(solve::count(&b, 2), 0);
    }
    /// A first-row prefix, cells placed after it (row, column, value), the reason.
    type Case = (&'static str, &'static [(usize, usize, u8)], &'static str);
    let placed: [Case; 2] = [
        // Columns 1 and 2 and row 2 hold a 1 outside box 1, and column 3's
        // other cells in box 1 are taken: column 3 (and box 1) have no place for 1.
        (
            "",
            &[(3, 0, 1), (6, 1, 1), (1, 5, 1), (0, 2, 2), (2, 2, 3)],
            "column 3 has no place for 1",
        ),
        // Row 1 misses 7, 8 and 9; columns 8 and 9 already hold 7 and 8.
        (
            "123456",
            &[(3, 7, 8), (6, 8, 8), (4, 8, 7), (7, 7, 7)],
            "row 1: columns 8 and 9 can only hold 9",
        ),
    ];
    for (prefix, cells, want) in placed {
        let mut b = classic(&format!("{prefix:.<81}"));
        for &(r, c, v) in cells {
            b.set(r, c, v);
        }
        assert_eq!(rules::contradiction(&b).unwrap().describe(g), want);
    }
    // A solvable board has no contradiction to report.
    assert_eq!(rules::contradiction(&classic(SEED002_HARD)), None);
    // Custom names.
    let b = classic(&format!("{:.<81}", "55"));
    let syms = Symbols::parse("a b c d e f g h i").unwrap();
    assert_eq!(
        rules::contradiction(&b)
            .unwrap()
            .message(g, &|v| syms.name(v).to_owned()),
        "row 1 holds e twice"
    );
}

// ---------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------

/// The one-line message for reading `text` with `options`.
fn error_of(text: &str, options: &ReadOptions) -> String {
    let e: TextError = text::read(text, options).unwrap_err();
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "{msg}");
    msg
}

#[test]
fn bad_text_gets_one_line_naming_the_problem_and_the_expectation() {
    let none = ReadOptions::default();
    let nine = ReadOptions {
        geometry: Some(Geometry::CLASSIC),
        symbols: None,
    };
    let cases: Vec<(String, &ReadOptions, &str)> = vec![
        ("  \n ".into(), &none, "board text is empty; expected a line of N² symbols"),
        (".".repeat(80), &none, "line form: 80 symbols; expected N² for a board of side N: 16, 36, 64, 81, 100, 144, 196, 225 or 256"),
        (".".repeat(80), &nine, "line form: 80 symbols; expected 81 for a 9x9 (3x3 boxes) board"),
        (".".repeat(49), &none, "line form: a board of side 7: no board of size 7: expected 4, 6, 8, 9, 10, 12, 14, 15 or 16"),
        (format!("{:.<81}", "12X"), &none, "line form: row 1 column 3 is `X`, not a symbol; expected one of 1 2 3 4 5 6 7 8 9, or `.` for an empty cell"),
        (format!("{:.<16}", "5"), &none, "line form: row 1 column 1 is `5`, not a symbol; expected one of 1 2 3 4, or `.`"),
        ("1 2 3 4\n1,2,3,4\n1,2,3\n ,,,\n , , , ".into(), &none, "header form: row 2 has 3 cells; expected 4"),
        ("1 2 3 4\n1,2,3,4\n1,2,3,4\n , , , ".into(), &none, "header form: 3 rows; expected 4"),
        ("1 2 3 4\n1,2,3,4\n1,2,3,4\n , , , \n ,,5, ".into(), &none, "header form: row 4 column 2 holds nothing; expected one of 1 2 3 4, or one space for an empty cell"),
        ("1 2 3 4\n1,2,3,4\n1,2,3,4\n , , , \n , ,5, ".into(), &none, "header form: row 4 column 3 is `5`, not a symbol; expected one of 1 2 3 4, or one space"),
        ("a b a d\n , , , \n , , , \n , , , \n , , , ".into(), &none, "symbols: `a` is listed twice; expected N distinct symbols"),
        ("a  b c d\n , , , \n , , , \n , , , \n , , , ".into(), &none, "symbols: `` cannot be a symbol: the header lists its symbols separated by single spaces"),
        ("a b c d e f g\n , , , , , , \n , , , , , , \n , , , , , , \n , , , , , , \n , , , , , , \n , , , , , , \n , , , , , , ".into(), &none, "header form: a board of side 7: no board of size 7: expected 4, 6, 8, 9, 10, 12, 14, 15 or 16"),
        ("a b c\n , , \n , , \n , , ".into(), &none, "symbols: 3 given; expected from 4 to 16 distinct symbols"),
        ("1 2 3 4\n1,2,3,4\n1,2,3,4\n , , , \n , , , ".into(), &nine, "header form: the text holds a 4x4 board; expected 9x9 (3x3 boxes)"),
        ("1,2,3,4\n1,2,3,4".into(), &none, "mixed forms: a comma in the first line"),
        ("1234\n1234\n12,3,4\n1234".into(), &none, "mixed forms: commas below a line without any"),
        (format!("{:.<40} {:.<40}", "1", "2"), &none, "mixed forms: ` ` at character 41 of a one-line board"),
        ("1 2 3 4\n1 2 3\n. . . .\n. . . .".into(), &none, "grid form: row 2 has 3 cells; expected 4"),
        ("1 2 3 4 5\n. . . . .\n. . . . .\n. . . . .\n. . . . .".into(), &none, "grid form: a board of side 5: no board of size 5"),
        ("1 2 3 4\n. . . .\n. . . .\n. . . .".into(), &nine, "grid form: 4 rows; expected 9"),
        ("1 2 | 3 4\n. . | . .\n----+----\n. Z | . .\n. . | . .".into(), &none, "grid form: row 3 column 2 is `Z`, not a symbol"),
    ];
    for (text, options, want) in cases {
        let msg = error_of(&text, options);
        assert!(msg.starts_with(want), "{text:?}\n got: {msg}\nwant: {want}");
    }
}

#[test]
fn bad_symbol_sets_and_forms_they_cannot_write_are_refused() {
    assert_eq!(
        Symbols::parse("ABCA").unwrap_err().to_string(),
        "symbols: `A` is listed twice; expected N distinct symbols"
    );
    assert_eq!(
        Symbols::parse("AB,D").unwrap_err().to_string(),
        "symbols: `,` cannot be a symbol: symbols must be non-empty and hold no space or comma"
    );
    assert_eq!(
        Symbols::parse("ABC").unwrap_err().to_string(),
        "symbols: 3 given; expected from 4 to 16 distinct symbols"
    );
    let g = Geometry::for_size(4).unwrap();
    let b = Grid::empty(g);
    let long = Symbols::parse("one two three four").unwrap();
    assert_eq!(
        text::write(&b, &long, Form::Line).unwrap_err().to_string(),
        "symbols: `one` cannot be a symbol: the line and grid forms need one character per symbol (the header form takes longer symbols)"
    );
    let dot = Symbols::parse("1.34").unwrap();
    assert!(
        text::write(&b, &dot, Form::Grid)
            .unwrap_err()
            .to_string()
            .starts_with(
                "symbols: `.` cannot be a symbol: the line and grid forms use `.` for an empty cell"
            )
    );
    assert_eq!(
        text::write(&b, &Symbols::standard(9), Form::Line)
            .unwrap_err()
            .to_string(),
        "symbols: 9 given; expected exactly 4 for a 4x4 (2x2 boxes) board"
    );
    // A header must agree with symbols asked for.
    let asked = ReadOptions {
        geometry: None,
        symbols: Some(Symbols::parse("ABCD").unwrap()),
    };
    assert_eq!(
        error_of(SEED003_EXAMPLE, &asked),
        "header form: the header lists the symbols 1 2 3 4 but the symbols asked for are A B C D; expected the same symbols in the same order"
    );
    // Custom symbols for the line form: `0` is then a symbol, not an empty cell.
    let opts = ReadOptions {
        geometry: None,
        symbols: Some(Symbols::parse("0123").unwrap()),
    };
    let p = text::read("0123230.........", &opts).unwrap();
    assert_eq!(&p.board.cells()[..8], [1, 2, 3, 4, 3, 4, 1, 0]);
}

#[test]
fn grid_form_is_what_octoku_prints_and_zero_reads_as_empty() {
    let b = classic(SEED002_EASY);
    let grid = text::write(&b, &Symbols::standard(9), Form::Grid).unwrap();
    assert_eq!(
        grid.lines().take(4).collect::<Vec<_>>(),
        [
            ". 9 . | 7 . . | 8 6 .",
            ". 3 1 | . . 5 | . 2 .",
            "8 . 6 | . . . | . . .",
            "------+-------+------",
        ]
    );
    assert_eq!(parse(&grid).board, b);
    let zeros = SEED002_EASY.replace('.', "0");
    assert_eq!(classic(&zeros), b);
    // The 8×8 grid the existing Board prints reads as the same board.
    let word: Board = "0x0000306106007040030500001420030007010000280004007150682082005130"
        .parse()
        .unwrap();
    let p = parse(&word.grid());
    assert_eq!(Board::try_from(&p.board).unwrap(), word);
    assert_eq!(p.to_text().unwrap(), word.grid());
}

// ---------------------------------------------------------------------------
// Benchmark data
// ---------------------------------------------------------------------------

/// Puzzles of a data file: one line-form board per line, `#` comments.
fn data_puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| parse(l).board)
        .collect()
}

#[test]
fn every_benchmark_puzzle_has_exactly_one_solution_and_its_stated_givens() {
    let sets: [(&str, &str, usize, std::ops::RangeInclusive<usize>); 7] = [
        (
            "classic_generated",
            include_str!("../data/classic_generated.txt"),
            9,
            17..=30,
        ),
        (
            "classic_hard",
            include_str!("../data/classic_hard.txt"),
            9,
            17..=30,
        ),
        ("size6", include_str!("../data/size6.txt"), 6, 0..=36),
        ("size12", include_str!("../data/size12.txt"), 12, 0..=144),
        ("size16", include_str!("../data/size16.txt"), 16, 128..=154),
        (
            "size12_minimal",
            include_str!("../data/size12_minimal.txt"),
            12,
            0..=144,
        ),
        (
            "size16_minimal",
            include_str!("../data/size16_minimal.txt"),
            16,
            0..=256,
        ),
    ];
    for (name, text, n, givens) in sets {
        let puzzles = data_puzzles(text);
        assert!(puzzles.len() >= 10, "{name}");
        for p in puzzles {
            assert_eq!(p.size(), n, "{name}");
            assert!(givens.contains(&p.givens()), "{name}: {p:?}");
            assert_eq!(solve::count(&p, 2), 1, "{name}: {p:?}");
        }
    }
}

/// The slowest random partial grids of count(2) (data/partial_slowest.txt:
/// 9×9, 12×12 and 16×16, solvable and not) stay within a bound that does
/// not depend on the machine: the strong search's work, with 100 for each
/// refuted node, at most its bound (30,000) plus one refuted node's,
/// clause learning's conflicts at most 200, and the count is `count`'s,
/// the first solution valid.
#[test]
fn the_slowest_partial_grids_count_to_two_within_a_bound_on_work() {
    let puzzles = data_puzzles(include_str!("../data/partial_slowest.txt"));
    assert!(puzzles.len() >= 25);
    let mut handed = 0;
    for p in &puzzles {
        let s = solve::search_stats(p, 2);
        assert!(s.work + 100 * s.refuted <= 30_100, "{p:?}: {s:?}");
        assert!(s.conflicts <= 200, "{p:?}: {s:?}");
        let (first, n) = solve::solve_counting(p, 2);
        assert_eq!((n, solve::count(p, 2)), (s.solutions, s.solutions), "{p:?}");
        match first {
            Some(f) => assert!(rules::is_solution(p, &f), "{p:?}"),
            None => assert_eq!(n, 0, "{p:?}"),
        }
        handed += s.handovers;
    }
    // The set reaches clause learning (10 of its grids hand over).
    assert!(handed >= 8, "{handed} handed over");
}

/// The slowest minimal puzzles the generator made (data/minimal_slowest.txt:
/// by the strong search's work counting to two, 12×12 of seeds 0..3000 and
/// 16×16 of seeds 0..400) have one solution and stay within a bound that
/// does not depend on the machine: no handover to clause learning (which
/// is slower on them), the 12×12 ones within 2,500 work (1,840 at most
/// today, median of the 3,000: 100), the 16×16 ones within 20,000 (16,254;
/// median of the 400: 1,539).
#[test]
fn the_slowest_minimal_puzzles_count_to_two_within_a_bound_on_work() {
    let puzzles = data_puzzles(include_str!("../data/minimal_slowest.txt"));
    assert!(puzzles.len() >= 16);
    for p in &puzzles {
        let s = solve::search_stats(p, 2);
        let bound = if p.size() == 12 { 2_500 } else { 20_000 };
        assert_eq!((s.solutions, s.handovers), (1, 0), "{p:?}: {s:?}");
        assert!(s.work <= bound, "{p:?}: {s:?}");
        assert_eq!(solve::count(p, 2), 1, "{p:?}");
    }
}

/// A raised stop flag stops a search that has work to do, on the generic
/// path (the 60-given 16×16 grid) and the 9×9 one (an empty board, at its
/// first solution); a flag left down changes no answer.
#[test]
fn a_raised_stop_flag_stops_the_search_and_a_lowered_one_changes_nothing() {
    use std::sync::atomic::AtomicBool;
    let hard = data_puzzles(include_str!("../data/partial_slowest.txt"))
        .pop()
        .expect("the 60-given grid is the last");
    assert_eq!(hard.givens(), 60);
    let empty9 = Grid::empty(Geometry::CLASSIC);
    let (up, down) = (AtomicBool::new(true), AtomicBool::new(false));
    for board in [&hard, &empty9] {
        assert_eq!(
            solve::solve_counting_until(board, 2, &up),
            Err(solve::Stopped)
        );
        let (first, n) = solve::solve_counting_until(board, 2, &down).expect("not stopped");
        assert_eq!(n, 2);
        assert_eq!(first, solve::solve(board));
    }
}

/// Prints the generated benchmark sets (the files in `data/` say which part of the output they are).
#[test]
#[ignore = "prints data files: cargo test --release -p octoku-core --test family -- --ignored print_bench_puzzles --nocapture"]
fn print_bench_puzzles() {
    let line = |b: &Grid| text::write(b, &Symbols::standard(b.size()), Form::Line).unwrap();
    println!("## classic_generated: seeds 0..300, as few givens as one pass reaches");
    for seed in 0..300 {
        let p = puzzle::generate(Geometry::CLASSIC, seed, None).unwrap();
        println!("{}", line(&p.puzzle));
    }
    for (n, count, givens) in [(6usize, 100u64, None), (12, 50, None)] {
        println!("## size{n}: seeds 0..{count}, as few givens as one pass reaches");
        for seed in 0..count {
            let p = puzzle::generate(Geometry::for_size(n).unwrap(), seed, givens).unwrap();
            println!("{}", line(&p.puzzle));
        }
    }
    println!("## size16: seeds 0..50, 128 + seed % 26 givens (50-60% of 256)");
    for seed in 0..50u64 {
        let p = puzzle::generate(
            Geometry::for_size(16).unwrap(),
            seed,
            Some(128 + (seed % 26) as usize),
        )
        .unwrap();
        println!("{}", line(&p.puzzle));
    }
}

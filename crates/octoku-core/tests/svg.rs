//! Golden pictures: the SVG of fixed boards, compared byte for byte with the
//! checked-in files under `tests/golden/`. A change to the drawing shows up
//! here as a changed file to look at; after looking (open the new picture in
//! a browser), remake them with
//! `OCTOKU_BLESS=1 cargo test --release -p octoku-core --test svg`.

use std::path::PathBuf;

use octoku_core::grid::{Grid, svg, text::Symbols};
use octoku_core::{Address, Geometry, generate, puzzle};

/// Compares `svg` with the golden file `name` (or rewrites it when blessing).
fn golden(name: &str, svg: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("OCTOKU_BLESS").is_some() {
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; remake it with OCTOKU_BLESS=1", path.display()));
    assert!(
        expected == svg,
        "{} differs from the drawing now; look at both, then remake it with OCTOKU_BLESS=1",
        path.display()
    );
}

/// `octoku puzzle --size 9 --seed 1`: givens in bold, the empty cells blank.
#[test]
fn a_9x9_puzzle_matches_its_golden_picture() {
    let p = puzzle::generate(Geometry::CLASSIC, 1, None).unwrap();
    golden(
        "puzzle-9x9-seed-1.svg",
        &svg::render(&p.puzzle, None, &Symbols::standard(9)),
    );
}

/// The 8×8 board of an address (2×4 boxes: the thick lines differ across
/// and down).
#[test]
fn an_8x8_board_matches_its_golden_picture() {
    let address: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        .parse()
        .unwrap();
    let start = Grid::try_from(generate(&address)).unwrap();
    golden(
        "board-8x8.svg",
        &svg::render(&start, None, &Symbols::standard(8)),
    );
}

/// A 16×16 puzzle and its solution with symbols `1`-`9`, `A`-`G`: givens
/// bold, the rest regular.
#[test]
fn a_16x16_puzzle_with_its_solution_matches_its_golden_picture() {
    let g = Geometry::for_size(16).unwrap();
    let p = puzzle::generate(g, 7, Some(120)).unwrap();
    golden(
        "solved-16x16-seed-7.svg",
        &svg::render(&p.puzzle, Some(&p.solution), &Symbols::standard(16)),
    );
}

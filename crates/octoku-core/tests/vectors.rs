//! Public vectors of the published Curta puzzle #1 `generate` and `verify`.

use octoku_core::{Address, Board, generate, verify};

fn address(s: &str) -> Address {
    s.parse().expect("vector address parses")
}

fn board(s: &str) -> Board {
    s.parse().expect("vector board parses")
}

const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";

#[test]
fn generate_matches_published_vector_vitalik() {
    assert_eq!(
        generate(&address("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045")).to_hex(),
        "0x0000700000000000000000000800064000000000000000000003020000000510"
    );
}

#[test]
fn generate_matches_published_vector_leading_zero_address() {
    assert_eq!(
        generate(&address("0x00000000eCf2b58C296B47caC8C51467c0e307cE")).to_hex(),
        "0x6200480000000007000000000000000000000000005000001000300000000000"
    );
}

#[test]
fn generate_matches_published_vector_anvil_account() {
    assert_eq!(
        generate(&address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).to_hex(),
        "0x0000000000000000000000000040700000000010003000000000280050000060"
    );
}

#[test]
fn verify_accepts_published_solution() {
    assert!(verify(board(START), board(SOLUTION)));
}

#[test]
fn verify_rejects_published_solution_with_last_cell_changed() {
    let bad = board("0x7235861418463257457361828621457323681745541728366784532131527467");
    assert!(!verify(board(START), bad));
}

#[test]
fn base_grid_is_the_published_solution() {
    assert_eq!(Board::BASE_GRID, board(SOLUTION));
}

#[test]
fn verify_accepts_published_solution_for_empty_start() {
    assert!(verify(Board::EMPTY, board(SOLUTION)));
}

#[test]
fn explain_is_empty_exactly_for_published_verdicts() {
    use octoku_core::octoku::explain::explain;
    assert!(explain(board(START), board(SOLUTION)).is_empty());
    let bad = board("0x7235861418463257457361828621457323681745541728366784532131527467");
    assert!(!explain(board(START), bad).is_empty());
}

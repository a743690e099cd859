//! Writes the SMT-LIB2 query "the golfed fill and the reference `_fill` give
//! different boards for some seed" from the two harnesses' bytecode, to
//! a new temporary directory (printed); docs/proofs/README.md, "Tried and not
//! kept", reports what bitwuzla does with it.
//!
//! `cargo run --release -p octoku-prove --example fill_query [-- BITS]`:
//! with BITS, only seeds below 2^BITS (the seed word is masked).

use octoku_core::U256;
use octoku_evm::Puzzle;
use octoku_prove::exec::{self, Limits};
use octoku_prove::program::Program;
use octoku_prove::term::{Bin, Terms};

fn main() {
    let bits: Option<usize> = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => None,
        Some(Ok(b)) if (1..=256).contains(&b) => Some(b),
        Some(_) => {
            eprintln!("fill_query: BITS must be a number of bits 1..256");
            std::process::exit(2);
        }
    };
    let mut terms = Terms::new();
    let mut seed = terms.var("seed");
    if let Some(b) = bits.filter(|&b| b < 256) {
        let mask = terms.constant((U256::from(1u8) << b) - U256::from(1u8));
        seed = terms.bin(Bin::And, seed, mask);
    }
    let mut outcomes = Vec::new();
    for (name, puzzle) in [
        ("reference _fill", Puzzle::Reference),
        ("golfed fill", Puzzle::Golf),
    ] {
        let program = Program::harness(puzzle);
        let call = program.call(&mut terms, seed);
        match exec::execute(&mut terms, program.code, &call, Limits::default()) {
            Ok((outcome, stats)) => {
                println!("{name}: {stats:?}");
                outcomes.push(outcome);
            }
            Err(e) => {
                eprintln!("fill_query: {name}: {e}");
                std::process::exit(3);
            }
        }
    }
    let label = bits.map_or("all".to_string(), |b| format!("below-2^{b}"));
    let header = [format!(
        "octoku: golfed fill = reference _fill for seeds {label}? (unsat = proved)"
    )];
    let text = octoku_prove::smt::distinct_query(&terms, &outcomes[0], &outcomes[1], &header, None);
    let dir = octoku_prove::solver::new_query_dir("fill").unwrap_or_else(|e| {
        eprintln!("fill_query: {e}");
        std::process::exit(3);
    });
    let path = dir.join(format!("{label}.smt2"));
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &text)) {
        eprintln!("fill_query: cannot write {}: {e}", path.display());
        std::process::exit(3);
    }
    println!("wrote {} ({} bytes)", path.display(), text.len());
}

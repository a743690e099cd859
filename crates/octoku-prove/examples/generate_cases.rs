//! Runs the pattern-by-pattern generate proof and prints every case:
//! `cargo run --release -p octoku-prove --example generate_cases -- K [golf|fair]`.

use octoku_evm::Puzzle;
use octoku_prove::generate::{self, Compare};
use octoku_prove::program::Program;
use octoku_prove::solver::{self, Solver};

fn main() {
    let k: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let which = std::env::args().nth(2).unwrap_or_else(|| "golf".into());
    let reference = Program::harness(Puzzle::Reference);
    let (imp, compare) = match which.as_str() {
        "fair" => (Program::harness(Puzzle::Fair), Compare::Cells),
        _ => (Program::harness(Puzzle::Golf), Compare::Board),
    };
    let dir = solver::new_query_dir(&format!("generate-{which}")).unwrap_or_else(|e| {
        eprintln!("generate_cases: {e}");
        std::process::exit(3);
    });
    let solver = Solver::from_env().unwrap_or_else(|e| {
        eprintln!("generate_cases: {e}");
        std::process::exit(3);
    });
    println!("queries in {}", dir.display());
    match generate::prove_generate(reference, imp, compare, k, &dir, &solver) {
        Ok(report) => {
            for c in &report.cases {
                println!(
                    "{:24} {:?} paths {:?} rounds {} check {:.3}s bytes {}",
                    c.pattern.name(),
                    c.result,
                    c.paths,
                    c.rounds,
                    c.check.as_secs_f64(),
                    c.query_bytes
                );
            }
            println!("{report}");
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

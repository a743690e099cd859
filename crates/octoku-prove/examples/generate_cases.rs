//! Runs the pattern-by-pattern generate proof and prints every case:
//! `cargo run --release -p octoku-prove --example generate_cases -- K [golf|fair]`.

use octoku_evm::artifacts;
use octoku_prove::generate::{self, Compare, Fill};
use octoku_prove::solver::{self, Solver};

fn main() {
    let k: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let which = std::env::args().nth(2).unwrap_or_else(|| "golf".into());
    let reference = Fill {
        code: artifacts::REFERENCE_HARNESS.runtime,
        selector: generate::selector("generateFromSeed(uint256)"),
    };
    let (imp, compare) = match which.as_str() {
        "fair" => (
            Fill {
                code: artifacts::FAIR_HARNESS.runtime,
                selector: generate::selector("fairFromSeed(uint256)"),
            },
            Compare::Cells,
        ),
        _ => (
            Fill {
                code: artifacts::GOLF_HARNESS.runtime,
                selector: generate::selector("fill(uint256)"),
            },
            Compare::Board,
        ),
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

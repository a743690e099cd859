//! Runs the fair fill's induction lemmas (all, or those named in the
//! comma-separated argument) and prints each answer and time.
use octoku_evm::artifacts;
use octoku_prove::generate::selector;
use octoku_prove::induction::{self, Program, fair::Setup};
use octoku_prove::solver::Solver;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let reference = Program {
        code: artifacts::REFERENCE_HARNESS.runtime,
        selector: selector("generateFromSeed(uint256)"),
    };
    let fair = Program {
        code: artifacts::FAIR_HARNESS.runtime,
        selector: selector("fairFromSeed(uint256)"),
    };
    let setup = Setup::new(reference, fair).expect("setup");
    let queries: Vec<_> = setup
        .queries()
        .expect("queries")
        .into_iter()
        .filter(|q| filter.is_empty() || filter.split(',').any(|f| q.name == f))
        .collect();
    let dir = std::path::PathBuf::from(
        std::env::var("INDUCT_DIR").unwrap_or_else(|_| "target/prove/induction-fair".into()),
    );
    let solver = Solver::from_env().expect("solver");
    let mut results = Vec::new();
    let mut name = String::new();
    for q in &queries {
        let (mut r, n) = induction::decide(std::slice::from_ref(q), &dir, &solver).expect("decide");
        println!("{:12} {:?} {:.2?}", r[0].name, r[0].proved, r[0].check);
        results.append(&mut r);
        name = n;
    }
    for (q, r) in queries.iter().zip(&results) {
        println!(
            "{:12} {:?} built {:.2?} check {:.2?}",
            r.name, r.proved, r.built, r.check
        );
        if r.proved == Some(false) {
            let (h, pairs) = q.explain(&r.model);
            println!("  hyp {h}");
            for p in pairs {
                if !p[0].is_zero() && !p[1].is_zero() {
                    println!("  pair ok {:#x}", p[2]);
                }
            }
            println!("  model {:?}", r.model);
        }
    }
    println!("{name}");
}

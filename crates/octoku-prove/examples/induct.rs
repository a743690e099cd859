//! Runs an induction proof over the draws lemma by lemma and prints each
//! answer and time: `golf` (the golfed harness), `fair` (the fair harness)
//! or `contract` (contracts/Golf.sol itself, called as generate(address),
//! its cuts found by shape). A second argument keeps only the
//! comma-separated lemmas named; `INDUCT_DIR` sets the query directory.
use octoku_evm::{Puzzle, artifacts};
use octoku_prove::induction::golf::Setup;
use octoku_prove::induction::{self, fair};
use octoku_prove::program::Program;
use octoku_prove::solver::Solver;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "golf".into());
    let filter = std::env::args().nth(2).unwrap_or_default();
    let reference = Program::harness(Puzzle::Reference);
    let queries = match which.as_str() {
        "fair" => {
            let setup = fair::Setup::new(reference, Program::harness(Puzzle::Fair)).expect("setup");
            setup.queries()
        }
        "contract" => {
            let golf = Program::generate(artifacts::GOLF.runtime);
            let setup = Setup::by_shape(reference, golf).expect("the golfed shape");
            for (name, pc, slots) in setup.layout().describe() {
                println!("{name:3} pc {pc:4} slots {slots:?}");
            }
            setup.queries()
        }
        _ => {
            let setup = Setup::new(reference, Program::harness(Puzzle::Golf)).expect("setup");
            setup.queries()
        }
    };
    let queries: Vec<_> = queries
        .expect("the lemmas")
        .into_iter()
        .filter(|q| filter.is_empty() || filter.split(',').any(|f| q.name == f))
        .collect();
    let dir = std::path::PathBuf::from(
        std::env::var("INDUCT_DIR").unwrap_or_else(|_| format!("target/prove/induction-{which}")),
    );
    let solver = Solver::from_env().expect("solver");
    for q in &queries {
        let (r, name) = induction::decide(std::slice::from_ref(q), &dir, &solver).expect("decide");
        let r = &r[0];
        println!(
            "{:14} {:?} built {:.2?} check {:.2?} ({name})",
            r.name, r.proved, r.built, r.check
        );
        if r.proved == Some(false) {
            let (h, pairs) = q.explain(&r.model);
            println!("  hyp {h}");
            for p in pairs.iter().filter(|p| !p[0].is_zero() && !p[1].is_zero()) {
                println!("  pair ok {:#x}", p[2]);
            }
            println!("  model {:?}", r.model);
        }
    }
}

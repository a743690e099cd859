//! Runs the induction proof for the golfed fill and prints each lemma's
//! answer and times (what `octoku prove generate --all` prints, without the
//! CLI).
use octoku_evm::artifacts;
use octoku_prove::generate::selector;
use octoku_prove::induction::Program;
use octoku_prove::induction::golf::{self, Lemmas, Setup};
use octoku_prove::solver::Solver;

fn main() {
    let reference = Program {
        code: artifacts::REFERENCE_HARNESS.runtime,
        selector: selector("generateFromSeed(uint256)"),
    };
    let golf = Program {
        code: artifacts::GOLF_HARNESS.runtime,
        selector: selector("fill(uint256)"),
    };
    let setup = Setup::new(reference, golf).expect("setup");
    let dir = std::path::PathBuf::from("target/prove/induction-golf");
    let solver = Solver::from_env().expect("solver");
    let report = golf::prove(&setup, Lemmas::All, &dir, &solver).expect("proof");
    for l in &report.lemmas {
        println!(
            "{:14} {:?} built {:.2?} check {:.2?}",
            l.name, l.proved, l.built, l.check
        );
    }
    println!(
        "proved {} ({} lemmas, {})",
        report.proved(),
        report.total,
        report.solver
    );
}

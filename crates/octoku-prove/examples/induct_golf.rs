//! Runs the induction proof's lemmas for the golfed fill (all, or those
//! whose names contain the argument) and prints each answer and time.
use std::time::Instant;

use octoku_evm::artifacts;
use octoku_prove::generate::selector;
use octoku_prove::induction::{self, Program, golf::Setup};
use octoku_prove::solver::Solver;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let reference = Program {
        code: artifacts::REFERENCE_HARNESS.runtime,
        selector: selector("generateFromSeed(uint256)"),
    };
    let golf = Program {
        code: artifacts::GOLF_HARNESS.runtime,
        selector: selector("fill(uint256)"),
    };
    let began = Instant::now();
    let setup = Setup::new(reference, golf).expect("setup");
    println!("templates in {:?}", began.elapsed());
    let queries: Vec<_> = setup
        .queries()
        .expect("queries")
        .into_iter()
        .filter(|q| q.name.contains(&filter))
        .collect();
    println!("{} queries in {:?}", queries.len(), began.elapsed());
    let dir = std::path::PathBuf::from("target/prove/induction-golf");
    std::fs::create_dir_all(&dir).unwrap();
    let solver = Solver::from_env().expect("solver");
    let names: Vec<String> = queries.iter().map(|q| q.name.clone()).collect();
    let (results, name) = induction::decide(queries, &dir, &solver).expect("decide");
    let again: Vec<_> = setup
        .queries()
        .expect("queries")
        .into_iter()
        .filter(|q| names.contains(&q.name))
        .collect();
    for (q, r) in again.iter().zip(&results) {
        if r.proved == Some(false) {
            let (h, pairs) = q.explain(&r.model);
            println!("{} hyp {h}", q.name);
            for p in pairs {
                if !p[0].is_zero() && !p[1].is_zero() {
                    println!("   pair g {} r {} ok {}", p[0], p[1], p[2]);
                }
            }
        }
    }
    println!("solver {name}");
    for r in results {
        println!(
            "{:14} {:?} built {:?} check {:?} {}",
            r.name,
            r.proved,
            r.built,
            r.check,
            if r.model.is_empty() {
                String::new()
            } else {
                format!("{:?}", r.model)
            }
        );
    }
}

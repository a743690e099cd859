//! The prover fuzzer's long run (`make prove-fuzz`): mutants of the golfed
//! contracts and random verify bodies, each proved against its original and
//! every answer checked in revm (`octoku_prove::fuzz`). Prints one line per
//! mutant, then the table: mutants tried, proved, refuted, undecided, false
//! "proved". Exit status 1 when any "proved" is false or any refutation
//! does not replay, 2 on bad settings.
//!
//! Settings (environment):
//! - `PROVE_FUZZ_MUTANTS`: how many (default 200);
//! - `PROVE_FUZZ_SEED`: the stream (default 1); mutant `i` of seed `s` is
//!   always the same mutant;
//! - `PROVE_FUZZ_FIRST`: the first index (default 0), to resume a run;
//! - `PROVE_FUZZ_INPUTS`: revm inputs per "proved", past the edge words
//!   (default 100000);
//! - `PROVE_FUZZ_TIME_LIMIT`: solver seconds per query (default 20);
//! - `PROVE_FUZZ_SUBJECTS`: a comma-separated subset of golf, fair,
//!   classic9, body (default all four) and classic9-spec (the classic9
//!   mutants proved against the 9×9 reference through its six-query
//!   driver instead of against the golf: about a minute each);
//! - `PROVE_FUZZ_SAVE`: a directory where every false "proved" and prover
//!   bug is written as hex (reference, mutant, input).
//!
//! revm runs use rayon's pool (`RAYON_NUM_THREADS`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use octoku_prove::fuzz::{self, Class, Subject, Tally};
use octoku_prove::solver::Solver;

fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) if !text.is_empty() => text.parse().unwrap_or_else(|_| {
            eprintln!("prove-fuzz: {name} is {text:?}: expected a non-negative number");
            std::process::exit(2)
        }),
        _ => default,
    }
}

fn subjects() -> Vec<Subject> {
    let text = std::env::var("PROVE_FUZZ_SUBJECTS").unwrap_or_default();
    if text.is_empty() {
        return Subject::ALL.to_vec();
    }
    text.split(',')
        .map(|s| match s.trim() {
            "golf" => Subject::Golf,
            "fair" => Subject::Fair,
            "classic9" => Subject::Classic9,
            "classic9-spec" => Subject::Classic9Spec,
            "body" => Subject::Body,
            other => {
                eprintln!(
                    "prove-fuzz: PROVE_FUZZ_SUBJECTS has {other:?}: expected golf, fair, classic9, classic9-spec or body"
                );
                std::process::exit(2)
            }
        })
        .collect()
}

fn main() {
    let mutants: u64 = setting("PROVE_FUZZ_MUTANTS", 200);
    let seed: u64 = setting("PROVE_FUZZ_SEED", 1);
    let first: u64 = setting("PROVE_FUZZ_FIRST", 0);
    let inputs: u64 = setting("PROVE_FUZZ_INPUTS", 100_000);
    let limit: f64 = setting("PROVE_FUZZ_TIME_LIMIT", 20.0);
    let save = std::env::var_os("PROVE_FUZZ_SAVE").map(std::path::PathBuf::from);
    let subjects = subjects();
    let Ok(limit) = Duration::try_from_secs_f64(limit) else {
        eprintln!("prove-fuzz: PROVE_FUZZ_TIME_LIMIT must be seconds, e.g. 30");
        std::process::exit(2)
    };
    let solver = match Solver::from_env() {
        Ok(s) => s.with_limit(limit),
        Err(e) => {
            eprintln!("prove-fuzz: {e}");
            std::process::exit(2)
        }
    };
    println!(
        "prove-fuzz: {mutants} mutants from index {first}, seed {seed}, {inputs} revm inputs per proved, {:.0} s per query",
        limit.as_secs_f64()
    );
    let began = Instant::now();
    let mut total = Tally::default();
    let mut by_subject: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut bad = Vec::new();
    let (mut prove_time, mut check_time) = (Duration::ZERO, Duration::ZERO);
    let mut index = first;
    let mut tried = 0;
    while tried < mutants {
        let mut subject = fuzz::subject_of(seed, index);
        if subject == Subject::Classic9 && subjects.contains(&Subject::Classic9Spec) {
            subject = Subject::Classic9Spec;
        }
        if !subjects.contains(&subject) {
            index += 1;
            continue;
        }
        let mutant = fuzz::mutant(seed, index, subject);
        let record = match fuzz::run_one(mutant, &solver, inputs, seed) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("prove-fuzz: {e}");
                std::process::exit(2)
            }
        };
        println!("{}", record.line());
        total.add(&record);
        by_subject
            .entry(record.mutant.subject.label())
            .or_default()
            .add(&record);
        prove_time += record.prove_time;
        check_time += record.check_time;
        if matches!(record.class, Class::FalseProved(_) | Class::ProverBug(_)) {
            if let Some(dir) = &save {
                let mut text = fuzz::hex_of(&record.mutant);
                text.push_str(&format!(
                    "seed: {seed}\nindex: {index}\nverdict: {}\n",
                    record.line()
                ));
                if let Class::FalseProved(d) = &record.class {
                    text.push_str(&format!(
                        "calldata: {}\n",
                        fuzz::calldata(&record.mutant, &d.values)
                    ));
                }
                let kind = if matches!(record.class, Class::FalseProved(_)) {
                    "false-proved"
                } else {
                    "prover-bug"
                };
                let path = dir.join(format!("{kind}-seed{seed}-{index}.txt"));
                if let Err(e) =
                    std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text))
                {
                    eprintln!("prove-fuzz: cannot write {}: {e}", path.display());
                }
            }
            bad.push(record.line());
        }
        tried += 1;
        index += 1;
        if tried % 100 == 0 && tried < mutants {
            println!("{}", total.table().lines().last().unwrap_or_default());
        }
    }
    println!();
    println!("{}", total.table());
    println!();
    for (label, tally) in &by_subject {
        println!(
            "{label}: {} tried, {} proved, {} refuted, {} undecided ({} refused), {} false proved, {} prover bugs, {} invalid ({} refuted)",
            tally.tried,
            tally.proved,
            tally.refuted,
            tally.refused + tally.unknown,
            tally.refused,
            tally.false_proved,
            tally.prover_bugs,
            tally.invalid,
            tally.invalid_refuted
        );
    }
    println!(
        "wall {:.0?}: proofs {:.0?}, revm checks {:.0?}; next index {index}",
        began.elapsed(),
        prove_time,
        check_time
    );
    if !bad.is_empty() {
        println!("\n{} FALSE PROVED OR PROVER BUGS:", bad.len());
        for line in &bad {
            println!("{line}");
        }
        std::process::exit(1);
    }
}

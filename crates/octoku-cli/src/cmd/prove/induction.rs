//! `octoku prove generate --all`: the golfed fill (or an author's
//! generate(address) whose fill has its shape) equal to the reference
//! `_fill` on all 2^256 seeds, by induction over the draws
//! (octoku_prove::induction; docs/proofs/induction.md).

use std::process::ExitCode;

use octoku_core::{Board, U256};
use octoku_evm::Puzzle;
use octoku_prove::induction::fair;
use octoku_prove::induction::golf::{self, Lemmas, Setup};
use octoku_prove::induction::{ConcreteState, Replay, Report};
use octoku_prove::program::Program;
use serde::Serialize;

use super::wording::{GENERATE_DOMAIN, harness_domain, outcome, tag};
use crate::opts::solver::SolverArgs;
use crate::{
    error::CliError,
    output::{self, print_json},
};

/// `octoku prove generate --all --json`.
#[derive(Debug, Serialize)]
struct AllSeeds {
    /// The built-in's name, or the author's contract's.
    puzzle: String,
    property: &'static str,
    /// "proved", "counterexample", "refuted lemma" or "undecided".
    result: &'static str,
    class: &'static str,
    /// The calls the proof covers, in words.
    domain: String,
    /// Inputs on which both programs' terms were checked against revm
    /// before "proved" (null otherwise).
    validated_inputs: Option<usize>,
    method: &'static str,
    total_lemmas: usize,
    lemmas: Vec<LemmaJson>,
    solver: String,
    check_seconds: f64,
    build_seconds: f64,
    queries: String,
    failed_lemma: Option<String>,
    #[serde(serialize_with = "output::hex_opt")]
    seed: Option<Board>,
    implementation_state: Option<StateJson>,
    reference_state: Option<StateJson>,
    reference_output: Option<String>,
    implementation_output: Option<String>,
    /// The author's contract: the address of the replayed state.
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<Option<String>>,
    /// The author's contract: where its fill's cut points were found.
    #[serde(skip_serializing_if = "Option::is_none")]
    cuts: Option<Vec<CutJson>>,
}

/// A cut point of the author's fill: its name (`L2`..`L8`, `J2`..`J8`,
/// `D`, `P`), program counter, and the stack slots (bottom = 0) of its loop
/// variables.
#[derive(Debug, Serialize)]
struct CutJson {
    name: String,
    pc: usize,
    slots: Vec<usize>,
}

#[derive(Debug, Serialize)]
struct LemmaJson {
    name: String,
    says: String,
    /// "proved", "refuted" or "undecided".
    result: &'static str,
    build_seconds: f64,
    check_seconds: f64,
    query: String,
}

/// A machine state: program counter, stack (bottom first), memory words.
#[derive(Debug, Serialize)]
struct StateJson {
    pc: usize,
    stack: Vec<String>,
    memory: Vec<String>,
}

impl From<&ConcreteState> for StateJson {
    fn from(s: &ConcreteState) -> StateJson {
        let hex = |v: &[U256]| v.iter().map(|w| format!("{w:#x}")).collect();
        StateJson {
            pc: s.pc,
            stack: hex(&s.stack),
            memory: hex(&s.memory),
        }
    }
}

fn verdict(p: Option<bool>) -> &'static str {
    match p {
        Some(true) => "proved",
        Some(false) => "refuted",
        None => "undecided",
    }
}

/// Exit 0 proved; 1 a counterexample (the entry lemma refuted on a seed
/// whose two calls differ in revm); 3 anything else not proved (a step
/// lemma refuted on a state from which both calls agree or that no seed
/// may reach, a lemma undecided, the executor or solver failing, an
/// author's fill not of the golfed shape). `own` is the author's contract
/// (its name and runtime code), proved as `generate(address)`.
pub(super) fn generate_all(
    puzzle: Puzzle,
    own: Option<(String, Vec<u8>)>,
    json: bool,
    solver_args: &SolverArgs,
) -> Result<ExitCode, CliError> {
    let command = match &own {
        Some((name, _)) => format!("prove generate --all on {name}"),
        None => format!("prove generate --puzzle {puzzle} --all"),
    };
    let (r, cuts) = prove_all(puzzle, own.as_ref(), solver_args, &command)?;
    let name = own
        .as_ref()
        .map_or_else(|| puzzle.to_string(), |o| o.0.clone());
    let failed = r.failed();
    let replay = r.replay.as_ref();
    let differs = replay.is_some_and(|p| {
        p.reference.as_ref().is_some_and(|q| {
            (q.success, &q.output) != (p.implementation.success, &p.implementation.output)
        })
    });
    let counterexample = differs && failed.is_some_and(|l| l.name == "entry");
    let result = match failed {
        None if r.proved() => "proved",
        None => {
            return Err(CliError::Evm(format!(
                "{command}: every lemma answered unsat but the proof was not validated against revm; nothing is proved"
            )));
        }
        Some(_) if counterexample => "counterexample",
        Some(l) if l.proved == Some(false) => "refuted lemma",
        Some(_) => "undecided",
    };
    let domain = if own.is_some() {
        GENERATE_DOMAIN.to_string()
    } else {
        harness_domain(puzzle)
    };
    if json {
        let class = if own.is_some() {
            "every address, for every value of keccak256 of its 20 bytes (every 256-bit seed)"
        } else {
            "every 256-bit seed"
        };
        let mut out = all_seeds_json(&r, name, result, class, domain, cuts);
        out.address = own
            .as_ref()
            .map(|_| replay.and_then(|p| p.address.map(|a| a.to_checksum(None))));
        print_json(&out)?;
    } else {
        print_verdict(&r, puzzle, own.is_some(), &name)?;
        print_details(&r, &name, &domain, counterexample)?;
    }
    Ok(match result {
        "proved" => ExitCode::SUCCESS,
        "counterexample" => ExitCode::from(1),
        _ => ExitCode::from(3),
    })
}

/// The induction proof of the built-in `puzzle`'s fill, or of the author's
/// contract `own` (with where its cut points were found).
fn prove_all(
    puzzle: Puzzle,
    own: Option<&(String, Vec<u8>)>,
    solver_args: &SolverArgs,
    command: &str,
) -> Result<(Report, Option<Vec<CutJson>>), CliError> {
    let solver = solver_args.solver()?;
    let label = own.map_or_else(|| puzzle.label().to_string(), |o| tag(&o.0));
    let dir = solver_args.query_dir(&format!("generate-all-{label}"))?;
    let reference = Program::harness(Puzzle::Reference);
    let fail =
        |e: octoku_prove::induction::InductionError| CliError::Evm(format!("{command}: {e}"));
    Ok(match (own, puzzle) {
        (Some((_, runtime)), _) => {
            let setup = Setup::by_shape(reference, Program::generate(runtime)).map_err(fail)?;
            let cuts = setup
                .layout()
                .describe()
                .into_iter()
                .map(|(name, pc, slots)| CutJson { name, pc, slots })
                .collect::<Vec<_>>();
            let r = golf::prove(&setup, Lemmas::All, &dir, &solver).map_err(fail)?;
            (r, Some(cuts))
        }
        (None, Puzzle::Fair) => {
            let setup = fair::Setup::new(reference, Program::harness(puzzle)).map_err(fail)?;
            (fair::prove(&setup, &dir, &solver).map_err(fail)?, None)
        }
        (None, _) => {
            let setup = Setup::new(reference, Program::harness(puzzle)).map_err(fail)?;
            let r = golf::prove(&setup, Lemmas::All, &dir, &solver).map_err(fail)?;
            (r, None)
        }
    })
}

/// `octoku prove generate --all --json` of the report `r` (its `address`
/// left for the caller).
fn all_seeds_json(
    r: &Report,
    name: String,
    result: &'static str,
    class: &'static str,
    domain: String,
    cuts: Option<Vec<CutJson>>,
) -> AllSeeds {
    let replay = r.replay.as_ref();
    AllSeeds {
        puzzle: name,
        property: "generate",
        result,
        class,
        domain,
        validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
        method: "induction over the draws",
        total_lemmas: r.total,
        lemmas: r
            .lemmas
            .iter()
            .map(|l| LemmaJson {
                name: l.name.clone(),
                says: l.says.clone(),
                result: verdict(l.proved),
                build_seconds: l.built.as_secs_f64(),
                check_seconds: l.check.as_secs_f64(),
                query: l.file.display().to_string(),
            })
            .collect(),
        solver: r.solver.clone(),
        check_seconds: r.lemmas.iter().map(|l| l.check.as_secs_f64()).sum(),
        build_seconds: r.setup.as_secs_f64(),
        queries: r.queries.display().to_string(),
        failed_lemma: r.failed().map(|l| l.name.clone()),
        seed: replay.map(|p| Board(p.seed)),
        implementation_state: replay.map(|p| StateJson::from(&p.implementation_state)),
        reference_state: replay.and_then(|p| p.reference_state.as_ref().map(StateJson::from)),
        reference_output: replay
            .and_then(|p| p.reference.as_ref().map(|o| outcome(o.success, &o.output))),
        implementation_output: replay
            .map(|p| outcome(p.implementation.success, &p.implementation.output)),
        address: None,
        cuts,
    }
}

/// The first line: what was proved, or the lemma that was not.
fn print_verdict(r: &Report, puzzle: Puzzle, own: bool, name: &str) -> std::io::Result<()> {
    match r.failed() {
        None if own => crate::outln!(
            "proved for every address (every 256-bit seed): {name} generate(address) gives the same board as the reference's generate(address) ({} lemmas, induction over the draws)",
            r.total
        ),
        None => crate::outln!(
            "proved for all 2^256 seeds: {puzzle} fill gives {} as the reference _fill ({} lemmas, induction over the draws)",
            if puzzle == Puzzle::Fair {
                "the same filled cells"
            } else {
                "the same board"
            },
            r.total
        ),
        Some(l) => crate::outln!(
            "not proved: lemma {} is {} ({}); {} of {} lemmas proved before it",
            l.name,
            verdict(l.proved),
            l.says,
            r.lemmas.len() - 1,
            r.total
        ),
    }
}

/// The validation, the lemmas, the replayed state (if any), the solver and
/// where the queries are.
fn print_details(
    r: &Report,
    name: &str,
    domain: &str,
    counterexample: bool,
) -> std::io::Result<()> {
    if let Some(v) = &r.validated {
        crate::outln!("calls     {domain}")?;
        crate::outln!(
            "validated both programs' terms against revm on {} inputs",
            v.inputs()
        )?;
    }
    for l in &r.lemmas {
        crate::outln!(
            "  {:14} {:9} {:7.2} s",
            l.name,
            verdict(l.proved),
            l.check.as_secs_f64()
        )?;
    }
    if let Some(p) = &r.replay {
        print_replay(p, name, counterexample)?;
    }
    let check: f64 = r.lemmas.iter().map(|l| l.check.as_secs_f64()).sum();
    crate::outln!(
        "solver    {}, {check:.1} s of checks; symbolic execution and queries {:.2} s",
        r.solver,
        r.setup.as_secs_f64()
    )?;
    crate::outln!(
        "queries   {} (one .smt2 per lemma; each must answer unsat)",
        r.queries.display()
    )
}

/// The state a refuted lemma was replayed from, and both results in revm.
fn print_replay(p: &Replay, name: &str, counterexample: bool) -> std::io::Result<()> {
    let state = |s: &ConcreteState| {
        let words: Vec<String> = s.stack.iter().map(|w| format!("{w:#x}")).collect();
        format!("pc {} stack [{}]", s.pc, words.join(" "))
    };
    crate::outln!("seed      {}", Board(p.seed).to_hex())?;
    if let Some(a) = p.address {
        crate::outln!("address   {}", a.to_checksum(None))?;
    }
    crate::outln!("state     {name} at {}", state(&p.implementation_state))?;
    if let Some(s) = &p.reference_state {
        crate::outln!("          reference at {}", state(s))?;
    }
    let reference = p
        .reference
        .as_ref()
        .map_or("not run".to_string(), |o| outcome(o.success, &o.output));
    crate::outln!(
        "replayed  from that state in revm: reference {reference}; {name} {}",
        outcome(p.implementation.success, &p.implementation.output)
    )?;
    if !counterexample {
        crate::outln!(
            "          (a state between draws: no seed is shown to reach it; nothing is proved)"
        )?;
    }
    Ok(())
}

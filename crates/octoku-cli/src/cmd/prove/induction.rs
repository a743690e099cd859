//! `octoku prove generate --all`: the golfed fill (or an author's
//! generate(address) whose fill has its shape) equal to the reference
//! `_fill` on all 2^256 seeds, by induction over the draws
//! (octoku_prove::report::all_seeds; docs/proofs/induction.md).

use std::process::ExitCode;

use octoku_prove::report::all_seeds::{self, AllSeedsProof, State};
use octoku_prove::report::{Conclusion, Fill};

use super::CommonArgs;
use crate::error::CliError;

/// Exit 0 proved; 1 a counterexample (the entry lemma refuted on a seed
/// whose two calls differ in revm); 3 anything else not proved (a step
/// lemma refuted on a state from which both calls agree or that no seed
/// may reach, a lemma undecided, the executor or solver failing, an
/// author's fill not of the golfed shape).
pub(super) fn generate_all(fill: &Fill<'_>, args: &CommonArgs) -> Result<ExitCode, CliError> {
    let command = match fill {
        Fill::Own { name, .. } => format!("prove generate --all on {name}"),
        Fill::Builtin(puzzle) => format!("prove generate --puzzle {puzzle} --all"),
    };
    let (solver, dir) = (
        args.solver.solver()?,
        args.solver.query_dir(&all_seeds::query_name(fill))?,
    );
    let proof = all_seeds::prove(fill, &dir, &solver).map_err(|e| CliError::evm_in(command, e))?;
    super::show(&proof, args.json, |p| {
        print_verdict(p)?;
        print_details(p)
    })?;
    Ok(match proof.result {
        Conclusion::Proved => ExitCode::SUCCESS,
        Conclusion::Counterexample => ExitCode::from(1),
        _ => ExitCode::from(3),
    })
}

/// The first line: what was proved, or the lemma that was not.
fn print_verdict(p: &AllSeedsProof) -> std::io::Result<()> {
    let name = &p.puzzle;
    match p.failed() {
        None if p.is_own() => crate::outln!(
            "proved for every address (every 256-bit seed): {name} generate(address) gives the same board as the reference's generate(address) ({} lemmas, induction over the draws)",
            p.total_lemmas
        ),
        None => crate::outln!(
            "proved for all 2^256 seeds: {name} fill gives {} as the reference _fill ({} lemmas, induction over the draws)",
            p.compare.sameness(),
            p.total_lemmas
        ),
        Some(l) => crate::outln!(
            "not proved: lemma {} is {} ({}); {} of {} lemmas proved before it",
            l.name,
            l.result.word(),
            l.says,
            p.lemmas.len() - 1,
            p.total_lemmas
        ),
    }
}

/// The validation, the lemmas, the replayed state (if any), the solver and
/// where the queries are.
fn print_details(p: &AllSeedsProof) -> std::io::Result<()> {
    if let Some(inputs) = p.validated_inputs {
        crate::outln!("calls     {}", p.domain)?;
        super::print_validated("programs'", inputs)?;
    }
    for l in &p.lemmas {
        crate::outln!(
            "  {:14} {:9} {:7.2} s",
            l.name,
            l.result.word(),
            l.check_seconds
        )?;
    }
    if let Some(state) = &p.implementation_state {
        print_replay(p, state)?;
    }
    crate::outln!(
        "solver    {}, {:.1} s of checks; symbolic execution and queries {:.2} s",
        p.solver,
        p.check_seconds,
        p.build_seconds
    )?;
    crate::outln!(
        "queries   {} (one .smt2 per lemma; each must answer unsat)",
        p.queries
    )
}

/// The state a refuted lemma was replayed from (`state`, the
/// implementation's), and both results in revm.
fn print_replay(p: &AllSeedsProof, state: &State) -> std::io::Result<()> {
    let at = |s: &State| format!("pc {} stack [{}]", s.pc, s.stack.join(" "));
    let name = &p.puzzle;
    crate::outln!("seed      {}", p.seed.as_deref().unwrap_or_default())?;
    if let Some(Some(a)) = &p.address {
        crate::outln!("address   {a}")?;
    }
    crate::outln!("state     {name} at {}", at(state))?;
    if let Some(s) = &p.reference_state {
        crate::outln!("          reference at {}", at(s))?;
    }
    crate::outln!(
        "replayed  from that state in revm: reference {}; {name} {}",
        p.reference_output.as_deref().unwrap_or("not run"),
        p.implementation_output.as_deref().unwrap_or_default()
    )?;
    if p.result != Conclusion::Counterexample {
        crate::outln!(
            "          (a state between draws: no seed is shown to reach it; nothing is proved)"
        )?;
    }
    Ok(())
}

//! `octoku prove verify`: prove from the compiled runtime bytecode that an
//! implementation's verify equals the reference's on every call of 68 bytes
//! and no value
//! (crates/octoku-prove; docs/prove.md). `octoku prove generate`: the same
//! for generate's fill on every seed with at most K redraws
//! (docs/proofs/generate.md).

mod induction;

use std::process::ExitCode;

use octoku_evm::Puzzle;
use octoku_prove::report::classic9::{self, Classic9Proof};
use octoku_prove::report::generate::{self, GenerateProof};
use octoku_prove::report::verify::{self, VerifyProof};
use octoku_prove::report::{Conclusion, Fill, ReportError, SideFigures};

use crate::opts::solver::SolverArgs;
use crate::opts::target::OwnArgs;
use crate::{error::CliError, output::print_json};

/// Arguments of `octoku prove`: what to prove.
pub type Args = super::Group<What>;

/// The properties `prove` knows.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// verify(start, solution) of --puzzle equals the reference's on every input.
    Verify(VerifyArgs),
    /// generate's fill of --puzzle equals the reference `_fill` on every raw
    /// seed with at most --redraws draws on filled cells (the board for golf,
    /// the filled cells for fair).
    Generate(GenerateArgs),
}

/// Arguments of `octoku prove generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// The implementation to compare with the reference: golf (the whole
    /// board) or fair (which cells are filled; its digits come from a hash).
    #[arg(long, value_enum, ignore_case = true, default_value = "golf")]
    puzzle: FillTarget,
    /// The class: every seed whose reference fill makes at most this many
    /// draws that land on a filled cell (0..=6).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=6))]
    redraws: u8,
    /// Every 2^256 seed, by induction over the draws, instead of
    /// the patterns of at most --redraws redraws (with your own contract:
    /// every address, when its fill has the golfed shape of Golf.sol).
    #[arg(long, conflicts_with = "redraws")]
    all: bool,
    /// With your own contract: its generate(address) against the
    /// reference's, for every address whose seed has at most --redraws
    /// redraws (or every address, with --all).
    #[command(flatten)]
    common: CommonArgs,
}

/// The flags both `prove verify` and `prove generate` take: the output,
/// the solver, and your own contract.
#[derive(Debug, clap::Args)]
struct CommonArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    target: OwnArgs,
}

/// Arguments of `octoku prove verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The implementation to compare with the reference: golf or fair (8x8),
    /// or classic9 (the golfed 9x9 validator against the 9x9 reference).
    #[arg(long, value_enum, ignore_case = true, default_value = "golf")]
    puzzle: Target,
    #[command(flatten)]
    common: CommonArgs,
    /// With your own contract: 9 for a 9x9 validator (IClassic9), proved
    /// equal to the 9x9 reference's verify(bytes,bytes).
    #[arg(long, value_parser = clap::value_parser!(u8).range(8..=9))]
    size: Option<u8>,
}

/// What `prove verify --puzzle` compares with its reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    /// The 8x8 reference itself (refused: nothing to compare).
    Reference,
    /// The golfed 8x8 puzzle.
    Golf,
    /// The fair 8x8 puzzle.
    Fair,
    /// The golfed 9x9 validator (contracts/classic9).
    Classic9,
}

/// Whose fill `prove generate --puzzle` compares with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FillTarget {
    /// The golfed puzzle: the whole board.
    Golf,
    /// The fair puzzle: which cells are filled.
    Fair,
}

/// Runs the proof: exit 0 proved, 1 refuted (a counterexample, replayed in
/// revm), 2 bad input, 3 when the executor refuses, the solver is missing or
/// gives up, or a counterexample does not replay.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let json = match &args.what {
        What::Verify(a) => a.common.json,
        What::Generate(a) => a.common.json,
    };
    let _phase = crate::progress::Phase::reported("proving", json);
    let args = match args.what {
        What::Verify(args) => args,
        What::Generate(args) => return generate(args),
    };
    if let Some(code) = args.common.target.code()? {
        let runtime = code.deployed_runtime()?;
        if args.size == Some(9) {
            return prove_classic9(&code.label, &runtime, &args.common);
        }
        return prove_verify(&code.label, &runtime, &args.common);
    }
    if args.size.is_some() {
        return Err(CliError::Input(
            "--size takes your own contract (--artifact, --bytecode, --contract, --puzzle-address); expected --puzzle classic9 for the built-in 9x9 validator".into(),
        ));
    }
    let puzzle = match args.puzzle {
        Target::Classic9 => {
            let golf = octoku_evm::artifacts::CLASSIC9_GOLF.runtime;
            return prove_classic9("golf", golf, &args.common);
        }
        Target::Reference => {
            return Err(CliError::Input(
                "--puzzle reference is what the others are proved equal to; expected golf, fair or classic9"
                    .into(),
            ));
        }
        Target::Golf => Puzzle::Golf,
        Target::Fair => Puzzle::Fair,
    };
    prove_verify(puzzle.label(), puzzle.artifact().runtime, &args.common)
}

/// The exit of a verify proof: 0 proved, 1 refuted.
/// A proof's report: its JSON document with `--json`, else `text`.
fn show<T: serde::Serialize>(
    proof: &T,
    json: bool,
    text: impl FnOnce(&T) -> std::io::Result<()>,
) -> Result<(), CliError> {
    if json {
        print_json(proof)
    } else {
        Ok(text(proof)?)
    }
}

fn exit_of(result: Conclusion) -> ExitCode {
    match result {
        Conclusion::Proved => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// The 8x8 verify of the runtime code `runtime` (called `label`) against the
/// reference's.
fn prove_verify(label: &str, runtime: &[u8], args: &CommonArgs) -> Result<ExitCode, CliError> {
    let (solver, dir) = (
        args.solver.solver()?,
        args.solver.query_dir(&verify::query_name(label))?,
    );
    let proof = verify::prove(label, runtime, &dir, &solver)
        .map_err(|e| CliError::evm_in(format!("prove verify {label}"), e))?;
    show(&proof, args.json, print_verify)?;
    Ok(exit_of(proof.result))
}

fn print_verify(p: &VerifyProof) -> std::io::Result<()> {
    let puzzle = &p.puzzle;
    if p.result == Conclusion::Counterexample {
        crate::outln!("refuted: {puzzle} verify differs from the reference's")?;
        crate::outln!("start     {}", p.start.as_deref().unwrap_or_default())?;
        crate::outln!("solution  {}", p.solution.as_deref().unwrap_or_default())?;
        print_replayed(&p.reference_output, puzzle, &p.implementation_output)?;
    } else {
        crate::outln!(
            "proved for {}: {puzzle} verify = reference verify",
            p.domain
        )?;
        print_validated("contracts'", p.validated_inputs.unwrap_or(0))?;
    }
    crate::outln!(
        "solver    {} in {:.1} s (two queries: every nibble of the solution 1..8, or not)",
        p.solver,
        p.solve_seconds
    )?;
    print_sides(
        puzzle,
        [&p.reference, &p.implementation],
        &p.query_dir,
        p.query_bytes,
    )
}

/// `validated both contracts' terms against revm on N inputs`: what a
/// "proved" rests on (`whose`: `contracts'` or `programs'`).
fn print_validated(whose: &str, inputs: usize) -> std::io::Result<()> {
    crate::outln!("validated both {whose} terms against revm on {inputs} inputs")
}

/// `replayed  reference …; NAME …`: both results of a counterexample.
fn print_replayed(
    reference: &Option<String>,
    name: &str,
    implementation: &Option<String>,
) -> std::io::Result<()> {
    crate::outln!(
        "replayed  reference {}; {name} {}",
        reference.as_deref().unwrap_or_default(),
        implementation.as_deref().unwrap_or_default()
    )
}

/// The executor's figures of both contracts, then where the queries are.
fn print_sides(
    label: &str,
    sides: [&SideFigures; 2],
    query: &str,
    query_bytes: usize,
) -> std::io::Result<()> {
    for (name, s) in ["reference", label].into_iter().zip(sides) {
        crate::outln!(
            "{name:<9} {} instructions, {} forks, {} merges, at most {} states alive, {} term nodes",
            s.instructions,
            s.forks,
            s.merges,
            s.max_states,
            s.term_nodes
        )?;
    }
    crate::outln!(
        "queries   {query} ({query_bytes} bytes; each file must answer unsat in any SMT-LIB2 solver)"
    )
}

/// A 9x9 validator's verify(bytes,bytes) (`runtime`, called `label`: the
/// golfed one, or the author's) against the 9x9 reference's, on every pair
/// of 81-byte arguments.
fn prove_classic9(label: &str, runtime: &[u8], args: &CommonArgs) -> Result<ExitCode, CliError> {
    let (solver, dir) = (
        args.solver.solver()?,
        args.solver.query_dir(&classic9::query_name(label))?,
    );
    let proof = classic9::prove(label, runtime, &dir, &solver).map_err(|e| {
        let what = match &e {
            ReportError::NotValidated(_) => format!("classic9 {label}"),
            _ if classic9::is_builtin(label, runtime) => "--puzzle classic9".to_string(),
            _ => format!("{label} --size 9"),
        };
        CliError::evm_in(format!("prove verify {what}"), e)
    })?;
    show(&proof, args.json, print_classic9)?;
    Ok(exit_of(proof.result))
}

fn print_classic9(p: &Classic9Proof) -> std::io::Result<()> {
    let label = &p.label;
    match &p.grids {
        None => {
            crate::outln!(
                "proved for {}: classic9 {label} verify(bytes,bytes) = reference verify",
                p.domain
            )?;
            print_validated("contracts'", p.validated_inputs.unwrap_or(0))?;
        }
        Some(grids) => {
            crate::outln!("refuted: classic9 {label} verify differs from the reference's")?;
            for (name, g) in ["start", "solution"].iter().zip(grids) {
                crate::outln!("{name:<9} 0x{g}")?;
            }
            print_replayed(&p.reference_output, label, &p.implementation_output)?;
        }
    }
    crate::outln!(
        "solver    {} in {:.1} s ({} queries)",
        p.solver,
        p.solve_seconds,
        p.steps.len()
    )?;
    for s in &p.steps {
        crate::outln!("  unsat {:>6.1} s  {} ({})", s.seconds, s.claim, s.query)?;
    }
    print_sides(
        label,
        [&p.reference, &p.implementation],
        &p.query,
        p.query_bytes,
    )
}

/// generate's fill of the chosen implementation against the reference
/// `_fill`, pattern by pattern: exit 0 proved, 1 refuted (replayed in revm),
/// 3 when some pattern is undecided or the executor or solver fails.
fn generate(args: GenerateArgs) -> Result<ExitCode, CliError> {
    let builtin = match args.puzzle {
        FillTarget::Golf => Puzzle::Golf,
        FillTarget::Fair => Puzzle::Fair,
    };
    let common = &args.common;
    let own = match common.target.code()? {
        Some(code) => Some((code.deployed_runtime()?, code.label)),
        None => None,
    };
    let (fill, flags) = match &own {
        Some((runtime, name)) => (Fill::Own { name, runtime }, common.target.flags()),
        None => (Fill::Builtin(builtin), format!(" --puzzle {builtin}")),
    };
    if args.all {
        return induction::generate_all(&fill, common);
    }
    let (solver, dir) = (
        common.solver.solver()?,
        common.solver.query_dir(&generate::query_name(&fill))?,
    );
    let proof = generate::prove(&fill, usize::from(args.redraws), &dir, &solver)
        .map_err(|e| CliError::evm_in(format!("prove generate {}", flags.trim()), e))?;
    show(&proof, common.json, print_generate)?;
    if proof.result == Conclusion::Counterexample {
        return Ok(ExitCode::from(1));
    }
    match proof.unsettled() {
        Some(e) => Err(CliError::evm_in(format!("prove generate{flags}"), e)),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// The verdict, then the patterns, the solver and the queries.
fn print_generate(p: &GenerateProof) -> std::io::Result<()> {
    let (puzzle, subject, against) = (&p.puzzle, p.subject(), p.against());
    match p.result {
        Conclusion::Counterexample => print_counterexample(p)?,
        Conclusion::Proved => {
            crate::outln!(
                "proved for {}: {puzzle} {subject} gives {} as {against}",
                p.class,
                p.compare.sameness()
            )?;
            crate::outln!("calls     {}", p.domain)?;
            print_validated("programs'", p.validated_inputs.unwrap_or(0))?;
        }
        _ if p.undecided_patterns.is_empty() => {
            crate::outln!("not validated against revm: nothing is proved")?;
        }
        _ => crate::outln!(
            "undecided: {} of {} patterns not decided ({}); nothing is proved for them",
            p.undecided_patterns.len(),
            p.patterns,
            p.undecided_patterns.join(", ")
        )?,
    }
    crate::outln!(
        "patterns  {} of {} proved, one query each (+{} refinement rounds)",
        p.proved_patterns,
        p.patterns,
        p.refinement_rounds
    )?;
    crate::outln!(
        "solver    {} in {:.1} s ({:.1} s of checks); execution {:.2} s",
        p.solver,
        p.solve_seconds,
        p.check_seconds,
        p.execution_seconds
    )?;
    crate::outln!(
        "queries   {} ({} bytes; each file must answer unsat in any SMT-LIB2 solver)",
        p.queries,
        p.query_bytes
    )
}

/// The refutation: the seed, the address replayed (if any) and both
/// results.
fn print_counterexample(p: &GenerateProof) -> std::io::Result<()> {
    let puzzle = &p.puzzle;
    crate::outln!(
        "refuted: {puzzle} {} differs from {}",
        p.subject(),
        p.against()
    )?;
    crate::outln!(
        "seed      {} (pattern {})",
        p.seed.as_deref().unwrap_or_default(),
        p.pattern.as_deref().unwrap_or_default()
    )?;
    let how = match &p.address {
        Some(None) => {
            crate::outln!(
                "address   none known whose keccak256 is this seed: not replayable; the results are the path terms evaluated"
            )?;
            "evaluated"
        }
        Some(Some(a)) => {
            crate::outln!("address   {a}")?;
            "replayed "
        }
        None => "replayed ",
    };
    crate::outln!(
        "{how} reference {}; {puzzle} {}",
        p.reference_output.as_deref().unwrap_or_default(),
        p.implementation_output.as_deref().unwrap_or_default()
    )
}

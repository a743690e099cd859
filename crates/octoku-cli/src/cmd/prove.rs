//! `octoku prove verify`: prove from the compiled runtime bytecode that an
//! implementation's verify equals the reference's on every call of 68 bytes
//! and no value
//! (crates/octoku-prove; docs/prove.md). `octoku prove generate`: the same
//! for generate's fill on every seed with at most K redraws
//! (docs/proofs/generate.md).

mod induction;
mod wording;

use std::process::ExitCode;

use octoku_core::Board;
use octoku_evm::Puzzle;
use octoku_prove::generate::{
    CaseResult, Compare, Counterexample as GenerateCounterexample, GenerateReport, prove_generate,
};
use octoku_prove::program::Program;
use octoku_prove::prove::{Figures, Report, Side, Verdict, prove_verify};
use serde::Serialize;
use wording::{GENERATE_DOMAIN, harness_domain, outcome, tag};

use crate::opts::solver::SolverArgs;
use crate::opts::target::OwnArgs;
use crate::{
    error::CliError,
    output::{self, print_json},
};

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

/// One side of the proof, as the executor saw it.
#[derive(Debug, Serialize)]
struct SideJson {
    instructions: u64,
    forks: u64,
    merges: u64,
    max_states: usize,
    ends: u64,
    term_nodes: usize,
}

impl From<&Side> for SideJson {
    fn from(s: &Side) -> SideJson {
        SideJson {
            instructions: s.stats.steps,
            forks: s.stats.forks,
            merges: s.stats.merges,
            max_states: s.stats.max_live,
            ends: s.stats.ended,
            term_nodes: s.nodes,
        }
    }
}

/// `octoku prove verify --json`.
#[derive(Debug, Serialize)]
struct Proof {
    /// The built-in's name, or the author's contract's.
    puzzle: String,
    /// "proved" or "counterexample".
    result: &'static str,
    /// The calls the proof covers, in words.
    domain: &'static str,
    /// Inputs on which both contracts' terms were checked against revm
    /// before "proved" (null when refuted).
    validated_inputs: Option<usize>,
    solver: String,
    solve_seconds: f64,
    execution_seconds: f64,
    queries: Vec<String>,
    query_bytes: usize,
    reference: SideJson,
    implementation: SideJson,
    #[serde(serialize_with = "output::hex_opt")]
    start: Option<Board>,
    #[serde(serialize_with = "output::hex_opt")]
    solution: Option<Board>,
    reference_output: Option<String>,
    implementation_output: Option<String>,
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
        let runtime = runtime_of(&code)?;
        if args.size == Some(9) {
            return classic9(&code.label, &runtime, args.common.json, &args.common.solver);
        }
        return prove_code(&code.label, &runtime, &args);
    }
    if args.size.is_some() {
        return Err(CliError::Input(
            "--size takes your own contract (--artifact, --bytecode, --contract, --puzzle-address); expected --puzzle classic9 for the built-in 9x9 validator".into(),
        ));
    }
    let puzzle = match args.puzzle {
        Target::Classic9 => {
            let golf = octoku_evm::artifacts::CLASSIC9_GOLF.runtime;
            return classic9("golf", golf, args.common.json, &args.common.solver);
        }
        Target::Reference => Puzzle::Reference,
        Target::Golf => Puzzle::Golf,
        Target::Fair => Puzzle::Fair,
    };
    if puzzle == Puzzle::Reference {
        return Err(CliError::Input(
            "--puzzle reference is what the others are proved equal to; expected golf, fair or classic9"
                .into(),
        ));
    }
    prove_code(puzzle.label(), puzzle.artifact().runtime, &args)
}

/// The runtime code of the author's contract as it runs: its creation code
/// deployed in revm, constructor included (never an artifact's
/// `deployedBytecode`, whose immutables are zero).
fn runtime_of(code: &octoku_evm::target::Code) -> Result<Vec<u8>, CliError> {
    Ok(code.deployed_runtime()?)
}

/// Proves the runtime code `runtime` (called `label`) equal to the
/// reference's verify, or refutes it with a replayed counterexample.
fn prove_code(label: &str, runtime: &[u8], args: &VerifyArgs) -> Result<ExitCode, CliError> {
    let solver = args.common.solver.solver()?;
    let dir = args
        .common
        .solver
        .query_dir(&format!("verify-{}", tag(label)))?;
    let title = format!("{label} verify = reference verify");
    let report = prove_verify(
        Puzzle::Reference.artifact().runtime,
        runtime,
        &dir,
        &title,
        &solver,
    )
    .map_err(|e| CliError::Evm(format!("prove verify {label}: {e}")))?;
    if args.common.json {
        print_json(&proof_json(label, &report))?;
    } else {
        print_text(label, &report)?;
    }
    Ok(match report.verdict {
        Verdict::Proved(_) => ExitCode::SUCCESS,
        Verdict::Counterexample { .. } => ExitCode::from(1),
    })
}

fn proof_json(puzzle: &str, r: &Report) -> Proof {
    let mut proof = Proof {
        puzzle: puzzle.to_string(),
        result: "proved",
        domain: octoku_prove::prove::DOMAIN,
        validated_inputs: match &r.verdict {
            Verdict::Proved(v) => Some(v.inputs()),
            Verdict::Counterexample { .. } => None,
        },
        solver: r.figures.solver.clone(),
        solve_seconds: r.figures.solve_time.as_secs_f64(),
        execution_seconds: r.figures.exec_time.as_secs_f64(),
        queries: ["digits.smt2", "nondigit.smt2"]
            .iter()
            .map(|f| r.figures.query.join(f).display().to_string())
            .collect(),
        query_bytes: r.figures.query_bytes,
        reference: SideJson::from(&r.figures.reference),
        implementation: SideJson::from(&r.figures.implementation),
        start: None,
        solution: None,
        reference_output: None,
        implementation_output: None,
    };
    if let Verdict::Counterexample {
        start,
        solution,
        reference,
        implementation,
    } = &r.verdict
    {
        proof.result = "counterexample";
        proof.start = Some(Board(*start));
        proof.solution = Some(Board(*solution));
        proof.reference_output = Some(outcome(reference.success, &reference.output));
        proof.implementation_output = Some(outcome(implementation.success, &implementation.output));
    }
    proof
}

fn print_text(puzzle: &str, r: &Report) -> std::io::Result<()> {
    match &r.verdict {
        Verdict::Proved(v) => {
            crate::outln!(
                "proved for {}: {puzzle} verify = reference verify",
                octoku_prove::prove::DOMAIN
            )?;
            crate::outln!(
                "validated both contracts' terms against revm on {} inputs",
                v.inputs()
            )?;
        }
        Verdict::Counterexample {
            start,
            solution,
            reference,
            implementation,
        } => {
            crate::outln!("refuted: {puzzle} verify differs from the reference's")?;
            crate::outln!("start     {}", Board(*start).to_hex())?;
            crate::outln!("solution  {}", Board(*solution).to_hex())?;
            crate::outln!(
                "replayed  reference {}; {puzzle} {}",
                outcome(reference.success, &reference.output),
                outcome(implementation.success, &implementation.output)
            )?;
        }
    }
    crate::outln!(
        "solver    {} in {:.1} s (two queries: every nibble of the solution 1..8, or not)",
        r.figures.solver,
        r.figures.solve_time.as_secs_f64()
    )?;
    print_sides(puzzle, &r.figures)
}

/// The executor's figures of both contracts, then where the queries are.
fn print_sides(label: &str, f: &Figures) -> std::io::Result<()> {
    for (name, s) in [("reference", &f.reference), (label, &f.implementation)] {
        crate::outln!(
            "{name:<9} {} instructions, {} forks, {} merges, at most {} states alive, {} term nodes",
            s.stats.steps,
            s.stats.forks,
            s.stats.merges,
            s.stats.max_live,
            s.nodes
        )?;
    }
    crate::outln!(
        "queries   {} ({} bytes; each file must answer unsat in any SMT-LIB2 solver)",
        f.query.display(),
        f.query_bytes
    )
}

/// `octoku prove verify --puzzle classic9 --json`.
#[derive(Debug, Serialize)]
struct Classic9Proof {
    puzzle: String,
    function: &'static str,
    /// "proved" or "counterexample".
    result: &'static str,
    /// The calls the proof covers, in words.
    domain: String,
    /// Inputs on which both contracts' terms were checked against revm
    /// before "proved" (null when refuted).
    validated_inputs: Option<usize>,
    solver: String,
    solve_seconds: f64,
    execution_seconds: f64,
    /// The directory of the saved queries.
    query: String,
    query_bytes: usize,
    /// The queries answered unsat, in order.
    steps: Vec<StepJson>,
    reference: SideJson,
    implementation: SideJson,
    /// The differing 81-byte grids in hex, one per argument.
    grids: Option<Vec<String>>,
    reference_output: Option<String>,
    implementation_output: Option<String>,
}

/// One query of the 9x9 proof.
#[derive(Debug, Serialize)]
struct StepJson {
    name: &'static str,
    claim: String,
    query: String,
    query_bytes: usize,
    seconds: f64,
}

/// A 9x9 validator's verify(bytes,bytes) (`runtime`, called `label`: the
/// golfed one, or the author's) against the 9x9 reference's, on every pair
/// of 81-byte arguments.
fn classic9(
    label: &str,
    runtime: &[u8],
    json: bool,
    solver: &SolverArgs,
) -> Result<ExitCode, CliError> {
    use octoku_evm::artifacts;
    use octoku_prove::classic9::{Function, prove_equal};
    let builtin = label == "golf" && runtime == artifacts::CLASSIC9_GOLF.runtime;
    let (solver, dir) = (
        solver.solver()?,
        solver.query_dir(&format!("classic9-verify-{}", tag(label)))?,
    );
    let r = prove_equal(
        Function::Verify,
        artifacts::CLASSIC9_REFERENCE.runtime,
        runtime,
        &dir,
        &format!("classic9 {label} verify = classic9 reference verify"),
        &solver,
    )
    .map_err(|e| {
        let what = if builtin {
            "--puzzle classic9".to_string()
        } else {
            format!("{label} --size 9")
        };
        CliError::Evm(format!("prove verify {what}: {e}"))
    })?;
    let hex = |g: &[u8]| octoku_core::hex::encode(g);
    if r.counterexample.is_none() && r.validated.is_none() {
        return Err(CliError::Evm(format!(
            "prove verify classic9 {label}: no counterexample and no validation against revm; nothing is proved"
        )));
    }
    let domain = octoku_prove::classic9::domain(Function::Verify);
    if json {
        let c = r.counterexample.as_ref();
        print_json(&Classic9Proof {
            puzzle: if builtin {
                "classic9".to_string()
            } else {
                label.to_string()
            },
            function: Function::Verify.signature(),
            result: if c.is_some() {
                "counterexample"
            } else {
                "proved"
            },
            domain: domain.clone(),
            validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
            solver: r.figures.solver.clone(),
            solve_seconds: r.figures.solve_time.as_secs_f64(),
            execution_seconds: r.figures.exec_time.as_secs_f64(),
            query: r.figures.query.display().to_string(),
            query_bytes: r.figures.query_bytes,
            steps: r
                .steps
                .iter()
                .map(|s| StepJson {
                    name: s.name,
                    claim: s.claim.clone(),
                    query: s.query.display().to_string(),
                    query_bytes: s.bytes,
                    seconds: s.time.as_secs_f64(),
                })
                .collect(),
            reference: SideJson::from(&r.figures.reference),
            implementation: SideJson::from(&r.figures.implementation),
            grids: c.map(|c| c.grids.iter().map(|g| hex(g)).collect()),
            reference_output: c.map(|c| outcome(c.reference.success, &c.reference.output)),
            implementation_output: c
                .map(|c| outcome(c.implementation.success, &c.implementation.output)),
        })?;
    } else {
        match &r.counterexample {
            None => {
                crate::outln!(
                    "proved for {domain}: classic9 {label} verify(bytes,bytes) = reference verify"
                )?;
                crate::outln!(
                    "validated both contracts' terms against revm on {} inputs",
                    r.validated.as_ref().map_or(0, |v| v.inputs())
                )?;
            }
            Some(c) => {
                crate::outln!("refuted: classic9 {label} verify differs from the reference's")?;
                for (name, g) in ["start", "solution"].iter().zip(&c.grids) {
                    crate::outln!("{name:<9} 0x{}", hex(g))?;
                }
                crate::outln!(
                    "replayed  reference {}; {label} {}",
                    outcome(c.reference.success, &c.reference.output),
                    outcome(c.implementation.success, &c.implementation.output)
                )?;
            }
        }
        crate::outln!(
            "solver    {} in {:.1} s ({} queries)",
            r.figures.solver,
            r.figures.solve_time.as_secs_f64(),
            r.steps.len()
        )?;
        for s in &r.steps {
            crate::outln!(
                "  unsat {:>6.1} s  {} ({})",
                s.time.as_secs_f64(),
                s.claim,
                s.query.display()
            )?;
        }
        print_sides(label, &r.figures)?;
    }
    Ok(match r.counterexample {
        None => ExitCode::SUCCESS,
        Some(_) => ExitCode::from(1),
    })
}

/// `octoku prove generate --json`.
#[derive(Debug, Serialize)]
struct GenerateProof {
    puzzle: String,
    property: &'static str,
    /// "proved", "counterexample" or "undecided".
    result: &'static str,
    /// The class of seeds, in words.
    class: String,
    /// The calls the proof covers, in words.
    domain: String,
    /// Inputs on which both programs' terms were checked against revm
    /// before "proved" (null otherwise).
    validated_inputs: Option<usize>,
    max_redraws: usize,
    /// "board" (golf) or "cells" (fair).
    compare: &'static str,
    patterns: usize,
    proved_patterns: usize,
    undecided_patterns: Vec<String>,
    solver: String,
    solve_seconds: f64,
    check_seconds: f64,
    execution_seconds: f64,
    queries: String,
    query_bytes: usize,
    #[serde(serialize_with = "output::hex_opt")]
    seed: Option<Board>,
    reference_output: Option<String>,
    implementation_output: Option<String>,
    /// Your own contract's counterexample: the address replayed, or null
    /// when no address is known to hash to the seed (not replayable).
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<Option<String>>,
}

/// generate's fill of the chosen implementation against the reference
/// `_fill`, pattern by pattern: exit 0 proved, 1 refuted (replayed in revm),
/// 3 when some pattern is undecided or the executor or solver fails.
fn generate(args: GenerateArgs) -> Result<ExitCode, CliError> {
    let (builtin, compare) = match args.puzzle {
        FillTarget::Golf => (Puzzle::Golf, Compare::Board),
        FillTarget::Fair => (Puzzle::Fair, Compare::Cells),
    };
    let own = args.common.target.code()?;
    if args.all {
        let own = match &own {
            Some(code) => Some((code.label.clone(), runtime_of(code)?)),
            None => None,
        };
        return induction::generate_all(builtin, own, args.common.json, &args.common.solver);
    }
    let k = usize::from(args.redraws);
    let (puzzle, flags, r) = prove_fill(&args, own.as_ref(), builtin, compare, k)?;
    let summary = GenerateSummary::new(&r, puzzle, own.is_some(), builtin, compare, k);
    if args.common.json {
        print_json(&summary.json(&r))?;
    } else {
        summary.print_text(&r)?;
    }
    generate_exit(&r, &summary.open, &flags)
}

/// The pattern proof of `generate`: the author's `generate(address)` (when
/// `own` is given) or the built-in's raw-seed harness against the
/// reference's; with the puzzle's name and its flags for messages.
fn prove_fill(
    args: &GenerateArgs,
    own: Option<&octoku_evm::target::Code>,
    builtin: Puzzle,
    compare: Compare,
    k: usize,
) -> Result<(String, String, GenerateReport), CliError> {
    let solver = args.common.solver.solver()?;
    match own {
        Some(code) => {
            let runtime = runtime_of(code)?;
            let dir = args
                .common
                .solver
                .query_dir(&format!("generate-{}", tag(&code.label)))?;
            let reference = Program::generate(Puzzle::Reference.artifact().runtime);
            let implementation = Program::generate(&runtime);
            let r = prove_generate(reference, implementation, Compare::Board, k, &dir, &solver)
                .map_err(|e| {
                    CliError::Evm(format!(
                        "prove generate {}: {e}",
                        args.common.target.flags().trim()
                    ))
                })?;
            Ok((code.label.clone(), args.common.target.flags(), r))
        }
        None => {
            let dir = args
                .common
                .solver
                .query_dir(&format!("generate-{}", builtin.label()))?;
            let reference = Program::harness(Puzzle::Reference);
            let implementation = Program::harness(builtin);
            let r = prove_generate(reference, implementation, compare, k, &dir, &solver)
                .map_err(|e| CliError::Evm(format!("prove generate --puzzle {builtin}: {e}")))?;
            Ok((builtin.to_string(), format!(" --puzzle {builtin}"), r))
        }
    }
}

/// The words and counts `prove generate` prints about a report.
struct GenerateSummary {
    puzzle: String,
    /// Whether the implementation is the author's contract.
    own: bool,
    k: usize,
    compare: Compare,
    /// What was proved equal: "generate(address)" or "fill".
    subject: &'static str,
    against: &'static str,
    /// What "equal" means: the same board or the same filled cells.
    what: &'static str,
    class: String,
    domain: String,
    /// "proved", "counterexample" or "undecided".
    result: &'static str,
    proved: usize,
    /// The patterns left undecided or stuck.
    open: Vec<String>,
    query_bytes: usize,
}

impl GenerateSummary {
    fn new(
        r: &GenerateReport,
        puzzle: String,
        own: bool,
        builtin: Puzzle,
        compare: Compare,
        k: usize,
    ) -> GenerateSummary {
        let class = if own {
            format!(
                "every address whose seed keccak256(address) has a reference _fill with at most {k} draws that land on a filled cell (keccak256 an unknown function of the address bytes both contracts hash)"
            )
        } else {
            format!(
                "every 256-bit seed whose reference _fill makes at most {k} draws that land on a filled cell"
            )
        };
        let result = if r.counterexample.is_some() {
            "counterexample"
        } else if r.proved() {
            "proved"
        } else {
            "undecided"
        };
        GenerateSummary {
            puzzle,
            own,
            k,
            compare,
            subject: if own { "generate(address)" } else { "fill" },
            against: if own {
                "the reference's generate(address)"
            } else {
                "the reference _fill"
            },
            what: match compare {
                Compare::Board => "the same board",
                Compare::Cells => "the same filled cells",
            },
            class,
            domain: if own {
                GENERATE_DOMAIN.to_string()
            } else {
                harness_domain(builtin)
            },
            result,
            proved: r.count(|c| *c == CaseResult::Proved),
            open: r
                .cases
                .iter()
                .filter(|c| matches!(c.result, CaseResult::Undecided | CaseResult::Stuck))
                .map(|c| c.pattern.name())
                .collect(),
            query_bytes: r.cases.iter().map(|c| c.query_bytes).sum(),
        }
    }

    /// `octoku prove generate --json`.
    fn json(&self, r: &GenerateReport) -> GenerateProof {
        let c = r.counterexample.as_ref();
        GenerateProof {
            puzzle: self.puzzle.clone(),
            property: "generate",
            result: self.result,
            class: self.class.clone(),
            domain: self.domain.clone(),
            validated_inputs: r.validated.as_ref().map(|v| v.inputs()),
            max_redraws: self.k,
            compare: match self.compare {
                Compare::Board => "board",
                Compare::Cells => "cells",
            },
            patterns: r.cases.len(),
            proved_patterns: self.proved,
            undecided_patterns: self.open.clone(),
            solver: r.solver.clone(),
            solve_seconds: r.solve_time.as_secs_f64(),
            check_seconds: r.check_time.as_secs_f64(),
            execution_seconds: r.exec_time.as_secs_f64(),
            queries: r.query.display().to_string(),
            query_bytes: self.query_bytes,
            seed: c.map(|c| Board(c.seed)),
            reference_output: c.map(|c| outcome(c.reference.success, &c.reference.output)),
            implementation_output: c
                .map(|c| outcome(c.implementation.success, &c.implementation.output)),
            address: match (self.own, c) {
                (true, Some(c)) => Some(c.address.map(|a| a.to_checksum(None))),
                _ => None,
            },
        }
    }

    /// The verdict, then the patterns, the solver and the queries.
    fn print_text(&self, r: &GenerateReport) -> std::io::Result<()> {
        let (puzzle, subject, against) = (&self.puzzle, self.subject, self.against);
        match (&r.counterexample, self.open.is_empty()) {
            (Some(c), _) => self.print_counterexample(c)?,
            (None, true) if r.proved() => {
                crate::outln!(
                    "proved for {}: {puzzle} {subject} gives {} as {against}",
                    self.class,
                    self.what
                )?;
                crate::outln!("calls     {}", self.domain)?;
                crate::outln!(
                    "validated both programs' terms against revm on {} inputs",
                    r.validated.as_ref().map_or(0, |v| v.inputs())
                )?;
            }
            (None, true) => crate::outln!("not validated against revm: nothing is proved")?,
            (None, false) => crate::outln!(
                "undecided: {} of {} patterns not decided ({}); nothing is proved for them",
                self.open.len(),
                r.cases.len(),
                self.open.join(", ")
            )?,
        }
        crate::outln!(
            "patterns  {} of {} proved, one query each (+{} refinement rounds)",
            self.proved,
            r.cases.len(),
            r.cases
                .iter()
                .map(|c| c.rounds.saturating_sub(1))
                .sum::<usize>()
        )?;
        crate::outln!(
            "solver    {} in {:.1} s ({:.1} s of checks); execution {:.2} s",
            r.solver,
            r.solve_time.as_secs_f64(),
            r.check_time.as_secs_f64(),
            r.exec_time.as_secs_f64()
        )?;
        crate::outln!(
            "queries   {} ({} bytes; each file must answer unsat in any SMT-LIB2 solver)",
            r.query.display(),
            self.query_bytes
        )
    }

    /// The refutation: the seed, the address replayed (if any) and both
    /// results.
    fn print_counterexample(&self, c: &GenerateCounterexample) -> std::io::Result<()> {
        let (puzzle, subject, against) = (&self.puzzle, self.subject, self.against);
        crate::outln!("refuted: {puzzle} {subject} differs from {against}")?;
        crate::outln!(
            "seed      {} (pattern {})",
            Board(c.seed).to_hex(),
            c.pattern
        )?;
        let how = match (self.own, c.address) {
            (true, None) => {
                crate::outln!(
                    "address   none known whose keccak256 is this seed: not replayable; the results are the path terms evaluated"
                )?;
                "evaluated"
            }
            (true, Some(a)) => {
                crate::outln!("address   {}", a.to_checksum(None))?;
                "replayed "
            }
            (false, _) => "replayed ",
        };
        crate::outln!(
            "{how} reference {}; {puzzle} {}",
            outcome(c.reference.success, &c.reference.output),
            outcome(c.implementation.success, &c.implementation.output)
        )
    }
}

/// The exit of `prove generate`: 1 refuted; an error when a pattern is
/// undecided or the proof was not validated against revm; else success.
fn generate_exit(r: &GenerateReport, open: &[String], flags: &str) -> Result<ExitCode, CliError> {
    if r.counterexample.is_some() {
        return Ok(ExitCode::from(1));
    }
    if open.is_empty() && !r.proved() {
        return Err(CliError::Evm(format!(
            "prove generate{flags}: every pattern answered unsat but the proof was not validated against revm; nothing is proved"
        )));
    }
    if !open.is_empty() {
        return Err(CliError::Evm(format!(
            "prove generate{flags}: undecided: {} of {} patterns (OCTOKU_SOLVER_TIME_LIMIT seconds per query, default 600, or more paths than the refinement rounds follow); nothing is proved for them",
            open.len(),
            r.cases.len()
        )));
    }
    Ok(ExitCode::SUCCESS)
}

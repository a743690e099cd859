//! The solution a golf command checks or submits: a built-in (`--puzzle`)
//! or the author's creation code (`--artifact`, `--bytecode`, `--contract`),
//! for one course kind (`--kind`).

use octoku_core::U256;
use octoku_evm::Puzzle;
use octoku_evm::golf::Course;
use octoku_prove::golf::{Check, CheckError, Proof, Prover, check};

use crate::error::CliError;
use crate::opts::solver::SolverArgs;
use crate::opts::target::TargetArgs;

/// `--kind`, `--puzzle` or your own code, `--seeds`, `--no-prove` and the
/// solver options: what `golf check` and `golf submit` share.
#[derive(Debug, clap::Args)]
pub struct SolutionArgs {
    /// The course: verify8 (verify(uint256,uint256) of the 8x8 puzzle) or
    /// classic9 (verify(bytes,bytes) of the 9x9 validator).
    #[arg(long, value_enum, ignore_case = true, default_value = "verify8")]
    pub kind: Course,
    /// A built-in solution instead of your own code: golf (octoku's golfed
    /// verify, or the golfed 9x9 validator with --kind classic9) or
    /// reference.
    #[arg(long, value_enum, ignore_case = true)]
    pub puzzle: Option<Puzzle>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// How many seeds the course is run on here (seeds 1..=N).
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub seeds: u32,
    /// Skip the equivalence proof (purity and the course's meter only).
    #[arg(long)]
    pub no_prove: bool,
    #[command(flatten)]
    pub solver: SolverArgs,
}

impl SolutionArgs {
    /// The label and creation code of the solution.
    pub fn initcode(&self) -> Result<(String, Vec<u8>), CliError> {
        if let Some(code) = self.target.code()? {
            let init = code.initcode.clone().ok_or_else(|| {
                CliError::Input(format!(
                    "{}: no creation code; expected an artifact with a bytecode, creation code, or a source (Curta Golf deploys the creation code)",
                    code.label
                ))
            })?;
            return Ok((code.label, init));
        }
        use octoku_evm::artifacts::{CLASSIC9_GOLF, CLASSIC9_REFERENCE};
        let puzzle = self.puzzle.ok_or_else(|| {
            CliError::Input(
                "no solution: expected --puzzle golf|reference, or your own code with --artifact, --bytecode or --contract".into(),
            )
        })?;
        let artifact = match (self.kind, puzzle) {
            (Course::Verify8, p) => p.artifact(),
            (Course::Classic9, Puzzle::Golf) => CLASSIC9_GOLF,
            (Course::Classic9, Puzzle::Reference) => CLASSIC9_REFERENCE,
            (Course::Classic9, Puzzle::Fair) => {
                return Err(CliError::Input(
                    "--puzzle fair has no 9x9 validator; expected golf or reference with --kind classic9".into(),
                ));
            }
        };
        Ok((
            format!("{} ({})", puzzle.label(), artifact.name),
            artifact.initcode.to_vec(),
        ))
    }

    /// Runs the check of `initcode` against the opcodes `allowed`.
    pub fn check(
        &self,
        label: &str,
        initcode: &[u8],
        allowed: octoku_evm::golf::Opcodes,
    ) -> Result<Check, CliError> {
        let seeds: Vec<U256> = (1..=self.seeds).map(U256::from).collect();
        let solver;
        let dir;
        let prover = if self.no_prove {
            None
        } else {
            solver = self.solver.solver()?;
            dir = self
                .solver
                .query_dir(&format!("golf-{}", self.kind.label()))?;
            Some(Prover {
                solver: &solver,
                dir: &dir,
            })
        };
        check(self.kind, initcode, allowed, &seeds, prover).map_err(|e| match e {
            CheckError::Evm(e) => CliError::evm_in(label, e),
            other => CliError::evm_in(label, other),
        })
    }
}

/// Prints the card of a check.
pub fn print_card(label: &str, c: &Check) -> std::io::Result<()> {
    crate::outln!("solution  {label}")?;
    crate::outln!("course    {} ({})", c.course.label(), c.course.function())?;
    crate::outln!(
        "code      {} bytes of creation code, {} bytes of runtime",
        c.initcode_bytes,
        c.runtime_bytes
    )?;
    let purity = match (c.purity.initcode, c.purity.runtime) {
        (None, None) => "pure (creation code and runtime)".to_string(),
        (Some(i), _) => format!(
            "{} (0x{:02x}) at byte {} of the creation code",
            i.name(),
            i.opcode,
            i.offset
        ),
        (None, Some(i)) => format!(
            "{} (0x{:02x}) at byte {} of the runtime",
            i.name(),
            i.opcode,
            i.offset
        ),
    };
    crate::outln!("purity    {purity}")?;
    let n = c.runs.len();
    let gas = match Check::gas_range(&c.runs) {
        Some((lo, hi)) if lo == hi => format!("{lo} on seeds 1..={n}"),
        Some((lo, hi)) => format!("{lo} to {hi} on seeds 1..={n}"),
        None => {
            let failed: Vec<String> = c
                .runs
                .iter()
                .filter(|m| m.run == octoku_evm::golf::CourseRun::Incorrect)
                .map(|m| m.seed.to_string())
                .collect();
            format!(
                "IncorrectSolution() on seeds {} of 1..={n}",
                failed.join(", ")
            )
        }
    };
    let reference = match Check::gas_range(&c.reference_runs) {
        Some((lo, hi)) if lo == hi => format!("{lo}"),
        Some((lo, hi)) => format!("{lo} to {hi}"),
        None => "refused".into(),
    };
    crate::outln!("gas       {gas} (the reference: {reference})")?;
    let proof = match &c.proof {
        Proof::Proved {
            domain,
            solver,
            seconds,
            ..
        } => format!("proved equal to the reference for {domain} ({solver}, {seconds:.1} s)"),
        Proof::Counterexample {
            arguments,
            reference,
            solution,
        } => format!(
            "counterexample ({}): the reference {reference}, the solution {solution} (replayed in revm)",
            arguments.join(", ")
        ),
        Proof::Skipped => "skipped (--no-prove)".into(),
    };
    crate::outln!("proof     {proof}")?;
    crate::outln!("verdict   {}", c.reason())
}

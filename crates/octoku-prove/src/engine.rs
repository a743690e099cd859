//! The prover as one engine: two runtime codes proved equal on one call
//! shape (a function signature and its arguments' widths).
//!
//! [`prove_equal`] executes both codes symbolically on the same call
//! ([`exec`]), asks the solver whether their outcomes can differ (one query
//! per case of a split the caller chooses, together covering every input),
//! and replays any model in revm, checking that each side's terms give what
//! revm gives. The 8×8 `verify` ([`crate::prove`]) is a driver on top of
//! it; the 9×9 validators ([`crate::classic9`]) and the generate proof
//! ([`crate::generate`]) build their own queries from the same pieces:
//! [`Shape`] for the call, [`execute_pair`], [`evaluate`], [`replay_checked`]
//! and [`QueryDir`].

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alloy_primitives::{Bytes, hex};
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_evm::{Machine, RawOutcome};
use revm::bytecode::opcode;

use crate::exec::{self, Call, Cell, Limits, Outcome, Stats};
use crate::smt;
use crate::solver::{self, Answer, Solver};
use crate::term::{TermId, Terms};
use crate::validate::{self, Agreement, Validated};

/// What went wrong, short of an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// The executor refused one of the contracts.
    #[error("cannot execute the {which} symbolically: {error}")]
    Exec {
        /// Which contract.
        which: &'static str,
        /// Why.
        error: exec::ExecError,
    },
    /// The solver could not be run, or gave up.
    #[error(transparent)]
    Solver(#[from] solver::SolverError),
    /// The solver answered unknown: nothing is proved.
    #[error(
        "undecided: {solver} answered unknown on a query in {} (OCTOKU_SOLVER_TIME_LIMIT seconds per query, default 600); nothing is proved",
        dir.display()
    )]
    Undecided {
        /// The solver's name and version.
        solver: String,
        /// The directory of the queries.
        dir: PathBuf,
    },
    /// The solver answered unknown on one query of a proof in steps.
    #[error(
        "undecided: {solver} answered unknown on {} ({claim}) within {seconds:.0} s (OCTOKU_SOLVER_TIME_LIMIT sets the limit); nothing is proved",
        query.display()
    )]
    Unknown {
        /// The solver's name and version.
        solver: String,
        /// The query.
        query: PathBuf,
        /// What its `unsat` would have shown.
        claim: String,
        /// Time the solver spent.
        seconds: f64,
    },
    /// A proof's decomposition does not apply to these contracts.
    #[error("undecided: {why} ({}); nothing is proved", query.display())]
    Inconclusive {
        /// What failed.
        why: &'static str,
        /// The query that showed it.
        query: PathBuf,
    },
    /// The query directory or a query file could not be made or written.
    #[error("{what} {}: {error}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why it failed.
        error: std::io::Error,
    },
    /// A counterexample that does not reproduce in revm, or terms that
    /// disagree with revm: a bug in the prover.
    #[error("prover bug: {0}")]
    Unsound(String),
    /// revm itself failed.
    #[error("replay in revm failed: {0}")]
    Evm(#[from] octoku_evm::EvmError),
}

/// One argument of a call shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A static 32-byte word (`uint256`, `address`, ...): one variable.
    Word,
    /// A dynamic `bytes` of this fixed length: one variable per 32 bytes of
    /// it, the offset and length words concrete.
    Bytes(usize),
}

impl Arg {
    /// Variables (32-byte words) the argument's data takes.
    pub const fn words(self) -> usize {
        match self {
            Arg::Word => 1,
            Arg::Bytes(len) => len.div_ceil(32),
        }
    }
}

/// A call shape: the function's signature and its arguments, each named;
/// calldata is the standard ABI encoding, no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    signature: &'static str,
    selector: [u8; 4],
    args: Vec<(String, Arg)>,
}

impl Shape {
    /// The shape of the call `C` (a `sol!` binding) with these named
    /// arguments.
    pub fn new<C: SolCall>(args: &[(&str, Arg)]) -> Shape {
        Shape {
            signature: C::SIGNATURE,
            selector: C::SELECTOR,
            args: args.iter().map(|&(n, a)| (n.to_string(), a)).collect(),
        }
    }

    /// The Solidity signature, e.g. `verify(uint256,uint256)`.
    pub fn signature(&self) -> &'static str {
        self.signature
    }

    /// The arguments' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.args.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The function selector.
    pub fn selector(&self) -> [u8; 4] {
        self.selector
    }

    /// The variables' names in declaration order: an argument `a` that is a
    /// word is `a`; one of `bytes` is `a0`, `a1`, ... (32 bytes each).
    pub fn variables(&self) -> Vec<String> {
        self.args
            .iter()
            .flat_map(|(name, arg)| match arg {
                Arg::Word => vec![name.clone()],
                Arg::Bytes(_) => (0..arg.words()).map(|k| format!("{name}{k}")).collect(),
            })
            .collect()
    }

    /// The calldata with the variables at `values` (declaration order;
    /// missing ones 0): the selector, one head word per argument (the word
    /// itself, or the offset of the `bytes`), then per `bytes` its length
    /// and its data padded to whole words.
    pub fn calldata(&self, values: &[U256]) -> Bytes {
        let mut values = values.iter().copied().chain(std::iter::repeat(U256::ZERO));
        let mut head = self.selector().to_vec();
        let mut tail = Vec::new();
        let heads = 32 * self.args.len();
        for (_, arg) in &self.args {
            match *arg {
                Arg::Word => {
                    head.extend_from_slice(&values.next().expect("endless").to_be_bytes::<32>())
                }
                Arg::Bytes(len) => {
                    head.extend_from_slice(&U256::from(heads + tail.len()).to_be_bytes::<32>());
                    tail.extend_from_slice(&U256::from(len).to_be_bytes::<32>());
                    let mut data: Vec<u8> = (0..arg.words())
                        .flat_map(|_| values.next().expect("endless").to_be_bytes::<32>())
                        .collect();
                    data[len..].fill(0);
                    tail.extend_from_slice(&data);
                }
            }
        }
        head.extend_from_slice(&tail);
        head.into()
    }

    /// A store whose variables (in [`Shape::variables`] order, indexes 0..)
    /// are the arguments' words, and the call whose calldata is the
    /// encoding with those words: every other byte concrete, a `bytes`
    /// argument's bytes past its length 0.
    pub fn symbolic(&self) -> (Terms, Call) {
        let mut terms = Terms::new();
        let vars: Vec<TermId> = self.variables().iter().map(|v| terms.var(v)).collect();
        // The concrete skeleton from the encoder, every variable 0.
        let skeleton = self.calldata(&[]);
        let mut constants = std::collections::HashMap::new();
        let mut cells: Vec<Cell> = skeleton
            .iter()
            .map(|&b| Cell {
                term: *constants
                    .entry(b)
                    .or_insert_with(|| terms.small(u64::from(b))),
                byte: 31,
            })
            .collect();
        let (mut var, mut tail) = (0, 4 + 32 * self.args.len());
        for (i, (_, arg)) in self.args.iter().enumerate() {
            let (at, bytes) = match *arg {
                Arg::Word => (4 + 32 * i, 32),
                Arg::Bytes(len) => {
                    let at = tail + 32;
                    tail = at + 32 * arg.words();
                    (at, len)
                }
            };
            for j in 0..bytes {
                cells[at + j] = Cell {
                    term: vars[var + j / 32],
                    byte: (j % 32) as u8,
                };
            }
            var += arg.words();
        }
        let call = Call::from_cells(&mut terms, cells);
        (terms, call)
    }
}

/// One contract's side of a proof, executed symbolically.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// Executor counters.
    pub stats: Stats,
    /// Distinct term nodes reachable from its outcome.
    pub nodes: usize,
}

/// Both codes executed on the same symbolic call.
#[derive(Debug)]
pub struct Pair {
    /// The store holding both outcomes' terms.
    pub terms: Terms,
    /// The reference's outcome.
    pub reference: Outcome,
    /// The implementation's outcome.
    pub implementation: Outcome,
    /// The reference's counters.
    pub reference_side: Side,
    /// The implementation's counters.
    pub implementation_side: Side,
    /// Time of both executions.
    pub exec_time: Duration,
}

/// Executes `reference` and `implementation` (runtime code) symbolically on
/// `call` over `terms`.
pub fn execute_pair(
    mut terms: Terms,
    call: &Call,
    reference: &[u8],
    implementation: &[u8],
) -> Result<Pair, ProveError> {
    let began = Instant::now();
    let mut run = |which, code| {
        exec::execute(&mut terms, code, call, Limits::default())
            .map_err(|error| ProveError::Exec { which, error })
    };
    let (ref_out, ref_stats) = run("reference", reference)?;
    let (imp_out, imp_stats) = run("implementation", implementation)?;
    let side = |o: &Outcome, stats| Side {
        stats,
        nodes: terms.reachable(&smt::roots(o)),
    };
    Ok(Pair {
        reference_side: side(&ref_out, ref_stats),
        implementation_side: side(&imp_out, imp_stats),
        terms,
        reference: ref_out,
        implementation: imp_out,
        exec_time: began.elapsed(),
    })
}

/// An outcome's terms evaluated at `values` (by variable index), in revm's
/// form: whether the call returned, and its return or revert data.
pub fn evaluate(terms: &Terms, outcome: &Outcome, values: &[U256]) -> (bool, Vec<u8>) {
    let mut memo = Default::default();
    let success = !terms
        .eval_memo(outcome.success, values, &mut memo)
        .is_zero();
    let len = terms
        .eval_memo(outcome.len, values, &mut memo)
        .saturating_to::<usize>();
    let mut data = Vec::new();
    for &w in &outcome.words {
        data.extend_from_slice(&terms.eval_memo(w, values, &mut memo).to_be_bytes::<32>());
    }
    data.truncate(len);
    (success, data)
}

/// Initcode that deploys `runtime` as is: CODECOPY it to memory 0 and
/// return it.
pub fn deployer(runtime: &[u8]) -> Vec<u8> {
    let len = u16::try_from(runtime.len()).expect("runtime code below 64 KiB");
    let [hi, lo] = len.to_be_bytes();
    // The prefix is 14 bytes: PUSH2 len, PUSH1 14, PUSH1 0, CODECOPY (the
    // runtime to memory 0), PUSH2 len, PUSH1 0, RETURN (memory 0..len).
    let mut code = vec![
        opcode::PUSH2,
        hi,
        lo,
        opcode::PUSH1,
        14,
        opcode::PUSH1,
        0,
        opcode::CODECOPY,
        opcode::PUSH2,
        hi,
        lo,
        opcode::PUSH1,
        0,
        opcode::RETURN,
    ];
    code.extend_from_slice(runtime);
    code
}

/// Runs `calldata` on each runtime code in revm.
pub fn replay(codes: &[&[u8]], calldata: &Bytes) -> Result<Vec<RawOutcome>, ProveError> {
    let mut machine = Machine::new()?;
    let mut out = Vec::new();
    for code in codes {
        let (address, _) = machine.deploy(&deployer(code))?;
        out.push(call(&mut machine, address, calldata)?);
    }
    Ok(out)
}

/// Calls `address` with `calldata` in revm, in the executor's terms: a
/// halt (a bad jump, an invalid opcode, a stack underflow, out of gas) is
/// a failed call with no data, as [`exec`] models it.
pub fn call(
    machine: &mut Machine,
    address: alloy_primitives::Address,
    calldata: &Bytes,
) -> Result<RawOutcome, octoku_evm::EvmError> {
    match machine.call_raw(address, calldata.clone()) {
        Err(octoku_evm::EvmError::Halted(_)) => Ok(RawOutcome {
            success: false,
            output: Bytes::new(),
            gas: 0,
        }),
        other => other,
    }
}

/// Replays the call at `values` on both codes in revm and checks that each
/// side's terms give what revm gives (else a prover bug, described with
/// `input`); returns the reference's and the implementation's results.
pub fn replay_checked(
    pair: &Pair,
    shape: &Shape,
    (reference, implementation): (&[u8], &[u8]),
    values: &[U256],
    input: &str,
) -> Result<(RawOutcome, RawOutcome), ProveError> {
    let mut runs = replay(&[reference, implementation], &shape.calldata(values))?.into_iter();
    let (r, i) = (
        runs.next().expect("two replays"),
        runs.next().expect("two replays"),
    );
    for (which, outcome, run) in [
        ("reference", &pair.reference, &r),
        ("implementation", &pair.implementation, &i),
    ] {
        let (success, data) = evaluate(&pair.terms, outcome, values);
        if success != run.success || data != run.output.as_ref() {
            return Err(ProveError::Unsound(format!(
                "the {which}'s terms give ({success}, 0x{}) at {input}, revm gives ({}, {})",
                hex::encode(&data),
                run.success,
                run.output
            )));
        }
    }
    Ok((r, i))
}

/// The values of the store's variables in declaration order from a
/// solver's model (absent ones 0).
pub fn model_values(terms: &Terms, model: &[(String, U256)]) -> Vec<U256> {
    terms
        .var_names()
        .iter()
        .map(|name| model_value(model, name))
        .collect()
}

/// The value a solver's model gives the variable `name` (0 when the model
/// leaves it out: any value will do).
pub fn model_value(model: &[(String, U256)], name: &str) -> U256 {
    model
        .iter()
        .find(|(n, _)| n == name)
        .map_or(U256::ZERO, |(_, v)| *v)
}

/// A run's query directory: created, and locked (`<dir>/.lock`) while this
/// value lives, so a second octoku proving into the same directory waits
/// instead of overwriting files the first one's solver reads.
#[derive(Debug)]
pub struct QueryDir {
    path: PathBuf,
    bytes: usize,
    _lock: File,
}

impl QueryDir {
    /// Creates (if missing) and locks `dir`.
    pub fn open(dir: &Path) -> Result<QueryDir, ProveError> {
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |error| ProveError::Io { what, path, error }
        };
        std::fs::create_dir_all(dir).map_err(io("cannot create", dir))?;
        let lock = dir.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)
            .map_err(io("cannot open the lock", &lock))?;
        file.lock().map_err(io("cannot lock", &lock))?;
        Ok(QueryDir {
            path: dir.to_path_buf(),
            bytes: 0,
            _lock: file,
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `text` to the file `name` in the directory; returns its path.
    pub fn write(&mut self, name: &str, text: &str) -> Result<PathBuf, ProveError> {
        let path = self.path.join(name);
        std::fs::write(&path, text).map_err(|error| ProveError::Io {
            what: "cannot write",
            path: path.clone(),
            error,
        })?;
        self.bytes += text.len();
        Ok(path)
    }

    /// Removes the directory's files ending in `.ext` (the queries of an
    /// earlier run, which would be mistaken for this one's).
    pub fn clear(&mut self, ext: &str) -> Result<(), ProveError> {
        let entries = std::fs::read_dir(&self.path).map_err(|error| ProveError::Io {
            what: "cannot read",
            path: self.path.clone(),
            error,
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == ext) {
                std::fs::remove_file(&path).map_err(|error| ProveError::Io {
                    what: "cannot remove",
                    path: path.clone(),
                    error,
                })?;
            }
        }
        Ok(())
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// One case of a split of the inputs: the cases of a proof together must
/// cover every input (P and not P, say); each is one query.
#[derive(Debug, Clone)]
pub struct Case {
    /// The query file's name: `<tag>.smt2`.
    pub tag: String,
    /// A line for the query's header.
    pub note: String,
    /// The case as an SMT-LIB2 boolean over the shape's variables (`None`:
    /// every input).
    pub assume: Option<String>,
}

/// The answer of [`prove_equal`].
#[derive(Debug, Clone)]
pub enum Found {
    /// Equal on every input of the shape, and both sides' terms checked
    /// against revm ([`crate::validate`]).
    Proved(Validated),
    /// They differ on this input, replayed in revm.
    Counterexample {
        /// The variables' values, in [`Shape::variables`] order.
        values: Vec<U256>,
        /// The reference's result.
        reference: RawOutcome,
        /// The implementation's result.
        implementation: RawOutcome,
    },
}

/// The figures every report of an equivalence proof gives.
#[derive(Debug, Clone)]
pub struct Figures {
    /// The reference side.
    pub reference: Side,
    /// The implementation side.
    pub implementation: Side,
    /// The directory of the saved queries.
    pub query: PathBuf,
    /// Size of all queries in bytes.
    pub query_bytes: usize,
    /// Solver name and version.
    pub solver: String,
    /// Wall time of the solver runs (processes included).
    pub solve_time: Duration,
    /// Time of the symbolic execution of both contracts.
    pub exec_time: Duration,
}

impl Figures {
    /// One line for a log: both sides' counters, the solver and the times.
    pub fn summary(&self) -> String {
        format!(
            "reference {:?}, {} nodes; implementation {:?}, {} nodes; {} in {:.1?} (execution {:.1?})",
            self.reference.stats,
            self.reference.nodes,
            self.implementation.stats,
            self.implementation.nodes,
            self.solver,
            self.solve_time,
            self.exec_time
        )
    }
}

/// A finished equivalence proof, with every figure a report needs.
#[derive(Debug, Clone)]
pub struct Equivalence {
    /// Proved or refuted.
    pub found: Found,
    /// Both sides, the queries, the solver and the times (the solver runs
    /// all cases at once).
    pub figures: Figures,
}

/// Proves `implementation` equal to `reference` (runtime codes) on every
/// call of `shape`: the same success and the same return or revert data.
/// One query per case of `cases` (all at once, one solver process each),
/// written to `dir` with `header` above the shape's own lines; a
/// satisfying model is replayed in revm and returned as a counterexample
/// (after checking each side's terms against revm).
pub fn prove_equal(
    shape: &Shape,
    codes: (&[u8], &[u8]),
    cases: &[Case],
    header: &[String],
    dir: &Path,
    solver: &Solver,
    samples: &[Vec<U256>],
) -> Result<Equivalence, ProveError> {
    let (terms, call) = shape.symbolic();
    crate::progress::phase("executing both codes symbolically");
    let pair = execute_pair(terms, &call, codes.0, codes.1)?;
    prove_pair(&pair, shape, codes, cases, header, dir, solver, samples)
}

/// [`prove_equal`] on codes already executed into `pair` (whose terms a
/// test may change, to see the validation catch a wrong model): the
/// queries, the solver, and before "proved" the validation of both sides'
/// terms against revm on `samples` (variable values in
/// [`Shape::variables`] order, at least [`validate::MIN_INPUTS`]).
#[allow(clippy::too_many_arguments)]
pub fn prove_pair(
    pair: &Pair,
    shape: &Shape,
    (reference, implementation): (&[u8], &[u8]),
    cases: &[Case],
    header: &[String],
    dir: &Path,
    solver: &Solver,
    samples: &[Vec<U256>],
) -> Result<Equivalence, ProveError> {
    let (r, i) = (pair.reference_side, pair.implementation_side);
    let mut header = header.to_vec();
    header.extend([
        format!(
            "Satisfiable exactly when the two {} calls (no value, standard ABI encoding, variables {}) can give different results.",
            shape.signature(),
            shape.variables().join(" ")
        ),
        "Packed outcome: success (1 returned, 0 reverted or halted) ++ data length ++ data words."
            .to_string(),
        format!(
            "reference: {} forks, {} merges, {} distinct ends, {} nodes; implementation: {} forks, {} merges, {} distinct ends, {} nodes",
            r.stats.forks,
            r.stats.merges,
            r.stats.ended,
            r.nodes,
            i.stats.forks,
            i.stats.merges,
            i.stats.ended,
            i.nodes
        ),
    ]);
    let mut queries = QueryDir::open(dir)?;
    let mut files = Vec::new();
    for case in cases {
        let mut header = header.clone();
        header.push(case.note.clone());
        let text = smt::distinct_query(
            &pair.terms,
            &pair.reference,
            &pair.implementation,
            &header,
            case.assume.as_deref(),
        );
        files.push(queries.write(&format!("{}.smt2", case.tag), &text)?);
    }
    // Every case at once (one solver process each).
    crate::progress::phase(&format!(
        "solving {} {} with the SMT solver",
        files.len(),
        if files.len() == 1 { "query" } else { "queries" }
    ));
    let solve_began = Instant::now();
    let answers: Vec<Result<solver::Solved, solver::SolverError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|path| scope.spawn(move || solver.solve(path)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(solver::SolverError::Panicked)))
            .collect()
    });
    let solved_all = answers.into_iter().collect::<Result<Vec<_>, _>>()?;
    let solve_time = solve_began.elapsed();
    let solver_name = solved_all
        .first()
        .map(|s| s.solver.clone())
        .unwrap_or_default();
    // A sat case gives the counterexample; otherwise every one must be unsat.
    let decisive = solved_all
        .iter()
        .find(|s| matches!(s.answer, Answer::Sat(_)))
        .or_else(|| solved_all.iter().find(|s| s.answer == Answer::Unknown));
    let found = match decisive.map(|s| &s.answer) {
        None | Some(Answer::Unsat) => Found::Proved({
            crate::progress::phase("validating both sides' terms against revm");
            validate_pair(pair, shape, (reference, implementation), samples)?
        }),
        Some(Answer::Unknown) => {
            return Err(ProveError::Undecided {
                solver: solver_name,
                dir: dir.to_path_buf(),
            });
        }
        Some(Answer::Sat(model)) => {
            let values = model_values(&pair.terms, model);
            let input = shape
                .variables()
                .iter()
                .zip(&values)
                .map(|(n, v)| format!("{n} = {v:#x}"))
                .collect::<Vec<_>>()
                .join(", ");
            let (r, i) = replay_checked(pair, shape, (reference, implementation), &values, &input)?;
            if r.success == i.success && r.output == i.output {
                return Err(ProveError::Unsound(format!(
                    "the counterexample {input} does not reproduce in revm"
                )));
            }
            Found::Counterexample {
                values,
                reference: r,
                implementation: i,
            }
        }
    };
    Ok(Equivalence {
        found,
        figures: Figures {
            reference: pair.reference_side,
            implementation: pair.implementation_side,
            query: dir.to_path_buf(),
            query_bytes: queries.bytes(),
            solver: solver_name,
            solve_time,
            exec_time: pair.exec_time,
        },
    })
}

/// Checks both sides' terms of `pair` against revm on `samples` (values
/// of the shape's variables), and that revm's two results agree there: the
/// validation every "proved" of a [`Shape`] goes through.
pub fn validate_pair(
    pair: &Pair,
    shape: &Shape,
    (reference, implementation): (&[u8], &[u8]),
    samples: &[Vec<U256>],
) -> Result<Validated, ProveError> {
    let names = shape.variables();
    let inputs: Vec<validate::Input> = samples
        .iter()
        .map(|values| {
            let calldata = shape.calldata(values);
            validate::Input {
                label: names
                    .iter()
                    .zip(values)
                    .map(|(n, v)| format!("{n} = {v:#x}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                values: [values.clone(), values.clone()],
                calldata: [calldata.clone(), calldata],
                claimed: true,
            }
        })
        .collect();
    let outcomes = [&pair.reference, &pair.implementation];
    validate::validate(
        [reference, implementation],
        &inputs,
        |side, values| Ok(validate::Modeled::of(&pair.terms, outcomes[side], values)),
        Agreement::Same,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calldata_is_the_standard_abi_encoding() {
        use alloy_sol_types::SolCall;
        let verify = crate::prove::verify_shape();
        let (start, solution) = (U256::from(7), U256::MAX);
        let call = octoku_evm::bindings::IPuzzle::verifyCall { start, solution };
        assert_eq!(
            verify.calldata(&[start, solution]).as_ref(),
            call.abi_encode().as_slice()
        );
        let nine = crate::classic9::shape(crate::classic9::Function::Verify);
        let grids: Vec<Vec<u8>> = vec![(1..=81).collect(), (100..181).collect()];
        let values: Vec<U256> = grids
            .iter()
            .flat_map(|g| {
                let mut padded = g.clone();
                padded.resize(96, 0xee);
                padded
                    .chunks(32)
                    .map(U256::from_be_slice)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            nine.calldata(&values).as_ref(),
            octoku_evm::classic9::encode_verify(&grids[0], &grids[1]).as_slice()
        );
        assert_eq!(
            nine.variables(),
            [
                "start0",
                "start1",
                "start2",
                "solution0",
                "solution1",
                "solution2"
            ]
        );
    }

    #[test]
    fn the_symbolic_call_evaluates_to_the_concrete_calldata() {
        alloy_sol_types::sol! {
            function f(uint256 a, bytes b);
        }
        let shape = Shape::new::<fCall>(&[("a", Arg::Word), ("b", Arg::Bytes(40))]);
        let (terms, call) = shape.symbolic();
        // The second word of `b` is all ones: its 24 bytes past the length
        // must still read 0.
        let values = [U256::from(0x1234), U256::from(5) << 200, U256::MAX];
        let concrete: Vec<u8> = call
            .calldata
            .iter()
            .map(|c| terms.eval(c.term, &values).to_be_bytes::<32>()[usize::from(c.byte)])
            .collect();
        assert_eq!(concrete, shape.calldata(&values).to_vec());
        assert_eq!(concrete.len(), 4 + 2 * 32 + 32 + 64);
        assert!(concrete[concrete.len() - 24..].iter().all(|&b| b == 0));
    }

    /// A second run opening the same query directory waits until the first
    /// lets it go (the lock is what makes it wait: without it the second
    /// open returns at once).
    #[test]
    fn a_query_directory_is_held_until_its_run_ends() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("queries");
        let first = QueryDir::open(&dir).unwrap();
        let (sent, opened) = std::sync::mpsc::channel();
        let second = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let queries = QueryDir::open(&dir).unwrap();
                sent.send(()).unwrap();
                queries.path().to_path_buf()
            })
        };
        assert!(
            opened.recv_timeout(Duration::from_millis(500)).is_err(),
            "the second run opened the directory while the first held it"
        );
        drop(first);
        opened.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(second.join().unwrap(), dir);
    }
}

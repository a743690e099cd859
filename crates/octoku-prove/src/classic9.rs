//! Equivalence of two 9×9 validators' `verify(bytes,bytes)` (and
//! `isValidSolution(bytes)`) on every pair of 81-byte grids, from their
//! runtime bytecode: a well-formed ABI call with concrete offsets and lengths
//! whose 81 bytes per argument are unknowns, one SMT query, and a replay in
//! revm of any counterexample.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alloy_primitives::Bytes;
use octoku_core::U256;
use octoku_evm::RawOutcome;
use octoku_evm::classic9::{encode_is_valid, encode_verify};

use crate::exec::{self, Call, Cell, Limits, Outcome};
use crate::prove::{ProveError, Side, deployer};
use crate::smt;
use crate::solver::{self, Answer};
use crate::term::{TermId, Terms};

/// Cells of a 9×9 grid argument.
pub const CELLS: usize = 81;

/// 32-byte words that hold one argument's 81 bytes (the last one 17 bytes).
const WORDS: usize = CELLS.div_ceil(32);

/// Which function of the 9×9 validators is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `verify(bytes start, bytes solution)`: 162 unknown bytes.
    Verify,
    /// `isValidSolution(bytes grid)`: 81 unknown bytes.
    IsValidSolution,
}

impl Function {
    /// The Solidity signature.
    pub fn signature(self) -> &'static str {
        match self {
            Function::Verify => "verify(bytes,bytes)",
            Function::IsValidSolution => "isValidSolution(bytes)",
        }
    }

    /// The names of the arguments, each 81 unknown bytes.
    pub fn arguments(self) -> &'static [&'static str] {
        match self {
            Function::Verify => &["start", "solution"],
            Function::IsValidSolution => &["grid"],
        }
    }

    /// The standard ABI encoding of a call with these 81-byte grids.
    pub fn calldata(self, grids: &[Vec<u8>]) -> Vec<u8> {
        match self {
            Function::Verify => encode_verify(&grids[0], &grids[1]),
            Function::IsValidSolution => encode_is_valid(&grids[0]),
        }
    }
}

/// A finished 9×9 equivalence check.
#[derive(Debug, Clone)]
pub struct Report {
    /// Which function was compared.
    pub function: Function,
    /// `None` when proved; else the differing grids and both replayed results.
    pub counterexample: Option<Counterexample>,
    /// The reference side.
    pub reference: Side,
    /// The implementation side.
    pub implementation: Side,
    /// The saved query.
    pub query: PathBuf,
    /// Size of the query in bytes.
    pub query_bytes: usize,
    /// Solver name and version.
    pub solver: String,
    /// Wall time of the solver run (process included).
    pub solve_time: Duration,
    /// Time of the symbolic execution of both contracts.
    pub exec_time: Duration,
}

/// Grids on which the two contracts differ, as replayed in revm.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// One 81-byte grid per argument.
    pub grids: Vec<Vec<u8>>,
    /// The reference's concrete result.
    pub reference: RawOutcome,
    /// The implementation's concrete result.
    pub implementation: RawOutcome,
}

/// A store whose variables are the argument words `name0`, `name1`, `name2`
/// of each argument (81 bytes = 32 + 32 + 17), and the call's calldata.
///
/// The calldata is the standard encoding: the selector, one head word per
/// argument (its offset), then per argument its length word (81) and its 81
/// bytes padded with zeros to 96. Only the 81 data bytes are unknown.
pub fn symbolic_call(function: Function) -> (Terms, Call) {
    let mut terms = Terms::new();
    let args = function.arguments();
    let vars: Vec<Vec<TermId>> = args
        .iter()
        .map(|a| (0..WORDS).map(|k| terms.var(&format!("{a}{k}"))).collect())
        .collect();
    // The concrete skeleton from the real encoder, with all grids zero.
    let zeros = vec![vec![0u8; CELLS]; args.len()];
    let skeleton = function.calldata(&zeros);
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
    // Argument i's data starts after the selector, the heads, and the
    // (32-byte length + 96-byte data) blocks of the arguments before it.
    for (i, words) in vars.iter().enumerate() {
        let data = 4 + 32 * args.len() + 128 * i + 32;
        for j in 0..CELLS {
            cells[data + j] = Cell {
                term: words[j / 32],
                byte: (j % 32) as u8,
            };
        }
    }
    let call = Call::from_cells(&mut terms, cells);
    (terms, call)
}

/// The argument grids from the values of the variables (in declaration order).
pub fn grids_of(function: Function, values: &[U256]) -> Vec<Vec<u8>> {
    values
        .chunks(WORDS)
        .take(function.arguments().len())
        .map(|words| {
            let mut grid: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes::<32>()).collect();
            grid.truncate(CELLS);
            grid
        })
        .collect()
}

/// Runs `function` with `grids` on each runtime code in revm.
pub fn replay(
    codes: &[&[u8]],
    function: Function,
    grids: &[Vec<u8>],
) -> Result<Vec<RawOutcome>, ProveError> {
    let mut machine = octoku_evm::Machine::new().map_err(|e| ProveError::Evm(e.to_string()))?;
    let data = Bytes::from(function.calldata(grids));
    let mut out = Vec::new();
    for code in codes {
        let (address, _) = machine
            .deploy(&deployer(code))
            .map_err(|e| ProveError::Evm(e.to_string()))?;
        out.push(
            machine
                .call_raw(address, data.clone())
                .map_err(|e| ProveError::Evm(e.to_string()))?,
        );
    }
    Ok(out)
}

fn evaluate(terms: &Terms, outcome: &Outcome, vars: &[U256]) -> (bool, Vec<u8>) {
    let mut memo = Default::default();
    let success = !terms.eval_memo(outcome.success, vars, &mut memo).is_zero();
    let len = terms
        .eval_memo(outcome.len, vars, &mut memo)
        .saturating_to::<usize>();
    let mut data = Vec::new();
    for &w in &outcome.words {
        data.extend_from_slice(&terms.eval_memo(w, vars, &mut memo).to_be_bytes::<32>());
    }
    data.truncate(len);
    (success, data)
}

fn side(terms: &Terms, o: &Outcome, stats: exec::Stats) -> Side {
    let mut roots = vec![o.success, o.len];
    roots.extend(&o.words);
    Side {
        stats,
        nodes: terms.reachable(&roots),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Proves `implementation`'s `function` equal to `reference`'s on every
/// choice of the 81-byte grids, or finds and replays grids where they
/// differ. The query is written to `query` (a file; its directory is created).
pub fn prove_equal(
    function: Function,
    reference: &[u8],
    implementation: &[u8],
    query: &Path,
    title: &str,
) -> Result<Report, ProveError> {
    let began = Instant::now();
    let (mut terms, call) = symbolic_call(function);
    let (ref_out, ref_stats) = exec::execute(&mut terms, reference, &call, Limits::default())
        .map_err(|error| ProveError::Exec {
            which: "reference",
            error,
        })?;
    let (imp_out, imp_stats) = exec::execute(&mut terms, implementation, &call, Limits::default())
        .map_err(|error| ProveError::Exec {
            which: "implementation",
            error,
        })?;
    let exec_time = began.elapsed();
    let (ref_side, imp_side) = (
        side(&terms, &ref_out, ref_stats),
        side(&terms, &imp_out, imp_stats),
    );
    let header = vec![
        format!("octoku: {title}"),
        format!(
            "Satisfiable exactly when the two {} calls (no value, standard ABI encoding,",
            function.signature()
        ),
        format!(
            "each argument 81 bytes, held in the variables NAME0 NAME1 NAME2: bytes 0..31, 32..63, 64..80) can give different results; arguments: {}.",
            function.arguments().join(", ")
        ),
        "Packed outcome: success (1 returned, 0 reverted or halted) ++ data length ++ data words."
            .to_string(),
        format!(
            "reference: {} forks, {} merges, {} distinct ends, {} nodes; implementation: {} forks, {} merges, {} distinct ends, {} nodes",
            ref_stats.forks,
            ref_stats.merges,
            ref_stats.ended,
            ref_side.nodes,
            imp_stats.forks,
            imp_stats.merges,
            imp_stats.ended,
            imp_side.nodes
        ),
    ];
    let text = smt::distinct_query(&terms, &ref_out, &imp_out, &header, None);
    if let Some(dir) = query.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| ProveError::Io(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(query, &text)
        .map_err(|e| ProveError::Io(format!("cannot write {}: {e}", query.display())))?;
    let solve_began = Instant::now();
    let solved = solver::solve(query).map_err(ProveError::Solver)?;
    let solve_time = solve_began.elapsed();
    let counterexample = match solved.answer {
        Answer::Unsat => None,
        Answer::Unknown => {
            return Err(ProveError::Solver(format!(
                "undecided: {} answered unknown on {} within {:.0} s (OCTOKU_SOLVER_TIME_LIMIT sets the limit); nothing is proved",
                solved.solver,
                query.display(),
                solved.wall.as_secs_f64()
            )));
        }
        Answer::Sat(values) => {
            let vars: Vec<U256> = terms
                .var_names()
                .iter()
                .map(|name| {
                    values
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| *v)
                        .unwrap_or(U256::ZERO)
                })
                .collect();
            // The bytes of the third words past byte 17 are not in the
            // calldata; zero them so the terms see exactly the replayed input.
            let grids = grids_of(function, &vars);
            let vars: Vec<U256> = grids
                .iter()
                .flat_map(|g| {
                    let mut padded = g.clone();
                    padded.resize(32 * WORDS, 0);
                    padded
                        .chunks(32)
                        .map(U256::from_be_slice)
                        .collect::<Vec<_>>()
                })
                .collect();
            let concrete = replay(&[reference, implementation], function, &grids)?;
            let (r, i) = (concrete[0].clone(), concrete[1].clone());
            for (which, outcome, run) in [
                ("reference", &ref_out, &r),
                ("implementation", &imp_out, &i),
            ] {
                let (success, data) = evaluate(&terms, outcome, &vars);
                if success != run.success || data != run.output.as_ref() {
                    return Err(ProveError::Unsound(format!(
                        "the {which}'s terms give ({success}, 0x{}) on grids {}, revm gives ({}, {})",
                        hex(&data),
                        grids.iter().map(|g| hex(g)).collect::<Vec<_>>().join(", "),
                        run.success,
                        run.output
                    )));
                }
            }
            if r.success == i.success && r.output == i.output {
                return Err(ProveError::Unsound(format!(
                    "the counterexample {} does not reproduce in revm",
                    grids.iter().map(|g| hex(g)).collect::<Vec<_>>().join(", ")
                )));
            }
            Some(Counterexample {
                grids,
                reference: r,
                implementation: i,
            })
        }
    };
    Ok(Report {
        function,
        counterexample,
        reference: ref_side,
        implementation: imp_side,
        query: query.to_path_buf(),
        query_bytes: text.len(),
        solver: solved.solver,
        solve_time,
        exec_time,
    })
}

//! Gas figures of every puzzle implementation: min / median / max per function
//! and input class, deployment gas and runtime size, and a per-call profile by
//! opcode and by Solidity source line (read through solc's source map).

use std::{collections::BTreeMap, fmt::Write as _};

use alloy_primitives::Bytes;
use alloy_sol_types::SolCall;
use octoku_core::{Address, Board, rng::SplitMix64};
use rayon::prelude::*;
use revm::bytecode::opcode::OpCode;
use serde::Serialize;

use crate::{
    artifacts::SOURCES,
    bindings::IPuzzle,
    cases::{VerifyClass, verify_case},
    classic9::{GAS_CLASSES, IMPLEMENTATIONS, encode_is_valid, encode_verify, gas_case},
    machine::{EvmError, Machine},
    meter::Step,
    puzzle::Puzzle,
    source_map::SourceLines,
};

/// Seed of the deterministic cases behind `octoku gas` and the gas snapshot.
pub const SNAPSHOT_SEED: u64 = 0x0c70_c0de;

/// Cases per input class in the checked-in gas snapshot.
pub const SNAPSHOT_RUNS: usize = 200;

/// One row of the report: a function of one contract on one class of input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The implementation.
    pub puzzle: Puzzle,
    /// Board size: 8 (the puzzle) or 9 (its classic 9×9 validator, contracts/classic9/).
    pub size: u8,
    /// `generate` or `verify`.
    pub function: &'static str,
    /// The input class.
    pub case: &'static str,
    /// Smallest execution gas seen.
    pub min: u64,
    /// Median execution gas (lower median for even counts).
    pub median: u64,
    /// Largest execution gas seen.
    pub max: u64,
    /// Median of this row over the reference's median for the same function and case.
    pub ratio: f64,
}

/// Deployment cost and size of one contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Deployment {
    /// The implementation.
    pub puzzle: Puzzle,
    /// Board size: 8 (the puzzle) or 9 (its classic 9×9 validator).
    pub size: u8,
    /// Total gas of the deployment transaction.
    pub gas: u64,
    /// Runtime code size in bytes.
    pub runtime_size: usize,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Cases per input class.
    pub runs: usize,
    /// Function rows, grouped by function and case, implementations in [`Puzzle::ALL`] order.
    pub rows: Vec<Row>,
    /// Deployment rows.
    pub deployments: Vec<Deployment>,
}

/// Gas rows of both 9×9 validators (contract `c9-ref` / `c9-golf`,
/// functions `isValid` and `verify`, the [`GAS_CLASSES`](crate::classic9::GAS_CLASSES)), `runs` cases per
/// class drawn from `seed`, and their deployments.
fn classic9_rows(
    machine: &mut Machine,
    runs: usize,
    seed: u64,
) -> Result<(Vec<Row>, Vec<Deployment>), EvmError> {
    let mut rng = SplitMix64::new(seed ^ 0xc1a5_5109);
    let mut rows = Vec::new();
    for class in GAS_CLASSES {
        let inputs: Vec<(Vec<u8>, Vec<u8>)> = (0..runs.max(1))
            .map(|_| gas_case(class, &mut rng))
            .collect();
        for function in ["isValid", "verify"] {
            let mut medians = Vec::new();
            for puzzle in IMPLEMENTATIONS {
                let to = machine.classic9_address(puzzle).unwrap_or_default();
                let gas = inputs
                    .iter()
                    .map(|(start, solution)| {
                        let data = if function == "isValid" {
                            encode_is_valid(solution)
                        } else {
                            encode_verify(start, solution)
                        };
                        machine.call_raw(to, data.into()).map(|r| r.gas)
                    })
                    .collect::<Result<Vec<u64>, EvmError>>()?;
                let (min, median, max) = spread(gas);
                medians.push(median);
                rows.push(Row {
                    puzzle,
                    size: 9,
                    function,
                    case: class,
                    min,
                    median,
                    max,
                    ratio: median as f64 / medians[0].max(1) as f64,
                });
            }
        }
    }
    let deployments = IMPLEMENTATIONS
        .iter()
        .map(|&p| Deployment {
            puzzle: p,
            size: 9,
            gas: machine.classic9_deploy_gas(p).unwrap_or_default(),
            runtime_size: p.classic9_artifact().map_or(0, |a| a.runtime.len()),
        })
        .collect();
    Ok((rows, deployments))
}

/// The least, the median (the lower one for an even count) and the most of
/// `gas`, which holds at least one figure.
fn spread(mut gas: Vec<u64>) -> (u64, u64, u64) {
    gas.sort_unstable();
    (gas[0], gas[(gas.len() - 1) / 2], gas[gas.len() - 1])
}

/// The inputs of one report row group: random addresses for `generate`,
/// one class of (start, solution) pairs for `verify`.
enum Inputs {
    Generate(Vec<Address>),
    Verify(VerifyClass, Vec<(Board, Board)>),
}

impl Inputs {
    /// `(function, case)` as the report names them.
    fn names(&self) -> (&'static str, &'static str) {
        match self {
            Inputs::Generate(_) => ("generate", "random-address"),
            Inputs::Verify(class, _) => ("verify", class.label()),
        }
    }

    /// The execution gas of every input on `puzzle`, in input order.
    fn measure(&self, machine: &mut Machine, puzzle: Puzzle) -> Result<Vec<u64>, EvmError> {
        self.measure_at(machine, machine.address_of(puzzle))
    }

    /// Gas of each input on the IPuzzle at `to`.
    fn measure_at(&self, machine: &mut Machine, to: Address) -> Result<Vec<u64>, EvmError> {
        match self {
            Inputs::Generate(addresses) => addresses
                .iter()
                .map(|a| machine.generate_at(to, a).map(|c| c.gas))
                .collect(),
            Inputs::Verify(_, pairs) => pairs
                .iter()
                .map(|&(s, g)| machine.verify_at(to, s, g).map(|c| c.gas))
                .collect(),
        }
    }
}

/// The report's inputs: `runs` random addresses, then `runs` cases of each
/// verify class, drawn from `seed`.
fn input_groups(runs: usize, seed: u64) -> Vec<Inputs> {
    let mut rng = SplitMix64::new(seed);
    let mut groups = vec![Inputs::Generate(
        (0..runs).map(|_| Address::new(rng.bytes20())).collect(),
    )];
    for class in VerifyClass::ALL {
        groups.push(Inputs::Verify(
            class,
            (0..runs).map(|_| verify_case(class, &mut rng)).collect(),
        ));
    }
    groups
}

/// One row of an author's contract beside the reference: the same inputs
/// as the report's rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetRow {
    /// `generate` or `verify`.
    pub function: &'static str,
    /// The input class.
    pub case: &'static str,
    /// The target's gas: least, median, most.
    pub min: u64,
    pub median: u64,
    pub max: u64,
    /// The reference's median on the same inputs.
    pub reference: u64,
    /// `median / reference`.
    pub ratio: f64,
}

/// Gas of the IPuzzle at `to` (loaded into `machine`) beside the
/// reference's, on the report's inputs.
pub fn target_rows(
    machine: &mut Machine,
    to: Address,
    runs: usize,
    seed: u64,
) -> Result<Vec<TargetRow>, EvmError> {
    let reference = machine.address_of(Puzzle::Reference);
    input_groups(runs.max(1), seed)
        .iter()
        .map(|group| {
            let (function, case) = group.names();
            let (min, median, max) = spread(group.measure_at(machine, to)?);
            let (_, reference, _) = spread(group.measure_at(machine, reference)?);
            Ok(TargetRow {
                function,
                case,
                min,
                median,
                max,
                reference,
                ratio: median as f64 / reference.max(1) as f64,
            })
        })
        .collect()
}

/// An author's contract beside the reference (`octoku gas --artifact …
/// --json`): its rows, what deploying it costs, and both runtimes' sizes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetReport {
    /// The contract's name.
    pub target: String,
    /// Cases per input class.
    pub runs: usize,
    /// Gas of its creation transaction (0 for code read from a chain,
    /// never deployed here).
    pub deployment_gas: u64,
    /// The runtime code that runs, in bytes.
    pub runtime_size: usize,
    /// The reference's runtime code, in bytes.
    pub reference_runtime_size: usize,
    /// Its gas beside the reference's, per input class ([`target_rows`]).
    pub rows: Vec<TargetRow>,
}

/// Gas of `target` beside the reference on `runs` cases per input class
/// drawn from [`SNAPSHOT_SEED`], with its deployment gas and code size.
///
/// ```
/// use octoku_evm::{Puzzle, Target, gas};
/// let report = gas::target_report(&Target::Builtin(Puzzle::Golf), 2)?;
/// assert_eq!(report.target, "golf");
/// assert!(report.deployment_gas > 0 && !report.rows.is_empty());
/// # Ok::<(), octoku_evm::EvmError>(())
/// ```
pub fn target_report(target: &crate::Target, runs: usize) -> Result<TargetReport, EvmError> {
    let mut machine = Machine::new()?;
    let at = machine.load(target)?;
    let deployment_gas = match target {
        crate::Target::Code(c) => match &c.initcode {
            Some(init) => Machine::new()?.deploy(init)?.1,
            None => 0,
        },
        crate::Target::Builtin(p) => machine.deploy_gas(*p),
    };
    let rows = target_rows(&mut machine, at, runs, SNAPSHOT_SEED)?;
    Ok(TargetReport {
        target: target.label(),
        runs,
        deployment_gas,
        runtime_size: machine.code_at(at).len(),
        reference_runtime_size: Puzzle::Reference.artifact().runtime.len(),
        rows,
    })
}

/// One profiled call (`octoku gas --profile … --json`): whose, which
/// function, and its [`Profile`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profiled {
    /// The built-in's name, or the author's contract's.
    pub puzzle: String,
    /// 9 when a 9×9 validator was profiled; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    /// The function called.
    pub function: String,
    /// Its gas.
    #[serde(flatten)]
    pub profile: Profile,
    /// The name a text report gives the code: the 9×9 validator's name for
    /// a built-in's (`classic9-golf`), else [`Profiled::puzzle`].
    #[serde(skip)]
    pub label: String,
    /// Why some of an author's instructions have no source line, when its
    /// source map does not cover them ([`crate::target::Code::profile_gaps`]).
    #[serde(skip)]
    pub gaps: Option<String>,
}

/// Profiles `call` (named `function`) on `target`: a built-in (its 9×9
/// validator when the call is a 9×9 one) with its Solidity lines, or an
/// author's code as loaded, with its lines when it carries a source map.
///
/// ```
/// use octoku_core::{Address, Board};
/// use octoku_evm::{Puzzle, Target, gas};
/// let call = gas::Target::Generate(Address::ZERO);
/// let p = gas::profile_target(&Target::Builtin(Puzzle::Golf), "generate", call)?;
/// assert_eq!((p.puzzle.as_str(), p.size), ("golf", None));
/// assert!(p.profile.gas > 0 && !p.profile.by_line.is_empty());
/// # Ok::<(), octoku_evm::EvmError>(())
/// ```
pub fn profile_target(
    target: &crate::Target,
    function: &str,
    call: Target,
) -> Result<Profiled, EvmError> {
    let nine = matches!(
        call,
        Target::Classic9IsValid(_) | Target::Classic9Verify(..)
    );
    let mut machine = Machine::new()?;
    match target {
        crate::Target::Code(code) => {
            let at = machine.load(target)?;
            let lines = code.source_lines(&machine.code_at(at));
            let profile = profile_call(&mut machine, at, call.calldata(), lines.as_ref())?;
            Ok(Profiled {
                puzzle: code.label.clone(),
                size: nine.then_some(9),
                function: function.to_string(),
                profile,
                label: code.label.clone(),
                gaps: code.profile_gaps(),
            })
        }
        crate::Target::Builtin(puzzle) => {
            let profile = profile(&mut machine, *puzzle, call)?;
            let label = if nine {
                puzzle.classic9_label()
            } else {
                puzzle.label()
            };
            Ok(Profiled {
                puzzle: puzzle.label().to_string(),
                size: nine.then_some(9),
                function: function.to_string(),
                profile,
                label: label.to_string(),
                gaps: None,
            })
        }
    }
}

/// Measures every implementation on `runs` deterministic cases per input class.
///
/// Every implementation sees the same inputs, drawn from `seed` before any
/// is measured; each (input class, implementation) pair is measured on a
/// rayon worker with its own [`Machine`] (gas does not depend on which).
pub fn report(runs: usize, seed: u64) -> Result<Report, EvmError> {
    let runs = runs.max(1);
    let groups = input_groups(runs, seed);
    let jobs: Vec<(&Inputs, Puzzle)> = groups
        .iter()
        .flat_map(|g| Puzzle::ALL.map(|p| (g, p)))
        .collect();
    let measured: Vec<Vec<u64>> = jobs
        .par_iter()
        .map_init(Machine::new, |machine, &(inputs, puzzle)| {
            let machine = machine.as_mut().map_err(|e| e.clone())?;
            inputs.measure(machine, puzzle)
        })
        .collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for (group, per_puzzle) in groups.iter().zip(measured.chunks(Puzzle::ALL.len())) {
        let (function, case) = group.names();
        let stats: Vec<(Puzzle, u64, u64, u64)> = Puzzle::ALL
            .into_iter()
            .zip(per_puzzle)
            .map(|(p, gas)| {
                let (min, median, max) = spread(gas.clone());
                (p, min, median, max)
            })
            .collect();
        let reference = stats
            .iter()
            .find(|s| s.0 == Puzzle::Reference)
            .map_or(1, |s| s.2.max(1));
        for (puzzle, min, median, max) in stats {
            rows.push(Row {
                puzzle,
                size: 8,
                function,
                case,
                min,
                median,
                max,
                ratio: median as f64 / reference as f64,
            });
        }
    }
    let mut machine = Machine::new()?;
    let mut deployments: Vec<Deployment> = Puzzle::ALL
        .iter()
        .map(|&p| Deployment {
            puzzle: p,
            size: 8,
            gas: machine.deploy_gas(p),
            runtime_size: p.artifact().runtime.len(),
        })
        .collect();
    // The classic 9×9 validators, after the 8×8 rows.
    let (classic_rows, classic_deployments) = classic9_rows(&mut machine, runs, seed)?;
    rows.extend(classic_rows);
    deployments.extend(classic_deployments);
    Ok(Report {
        runs,
        rows,
        deployments,
    })
}

impl Report {
    /// The report as a fixed-width table (what `octoku gas` prints and the snapshot holds).
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<10} {:<9} {:<15} {:>7} {:>7} {:>7} {:>9}",
            "contract", "function", "case", "min", "median", "max", "vs ref"
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{:<10} {:<9} {:<15} {:>7} {:>7} {:>7} {:>9}",
                label(r.puzzle, r.size),
                r.function,
                r.case,
                r.min,
                r.median,
                r.max,
                format!("{:.4}", r.ratio)
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<10} {:>10} {:>13}",
            "contract", "deploy gas", "runtime bytes"
        );
        for d in &self.deployments {
            let _ = writeln!(
                out,
                "{:<10} {:>10} {:>13}",
                label(d.puzzle, d.size),
                d.gas,
                d.runtime_size
            );
        }
        out
    }
}

/// A row's contract in the table: the puzzle's label, or `c9-ref` /
/// `c9-golf` for a 9×9 validator.
fn label(puzzle: Puzzle, size: u8) -> &'static str {
    if size == 9 {
        puzzle.classic9_label()
    } else {
        puzzle.label()
    }
}

/// Gas of one call, broken down by opcode and by source line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    /// Execution gas of the call frame.
    pub gas: u64,
    /// Whether the call returned (rather than reverted).
    pub success: bool,
    /// Gas per opcode, costliest first.
    pub by_opcode: Vec<OpcodeGas>,
    /// Gas per Solidity source line, costliest first.
    pub by_line: Vec<LineGas>,
    /// Gas per source line and opcode, in the order of the source
    /// (`file:line` then opcode): the frames of a flame graph (see
    /// [`Profile::folded`]). Without a source map, one line per opcode
    /// under `(no source map)`.
    #[serde(skip)]
    pub by_line_opcode: Vec<LineOpcodeGas>,
}

/// The gas of one opcode on one source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOpcodeGas {
    /// `file:line` and the line's text, as in [`LineGas`].
    pub location: String,
    /// The line's text, trimmed.
    pub source: String,
    /// Mnemonic, as in [`OpcodeGas`].
    pub opcode: String,
    /// Gas it spent on that line.
    pub gas: u64,
}

impl Profile {
    /// The profile as folded stacks, the text form flame graph tools read
    /// (Brendan Gregg's `stackcollapse` output, which `inferno` draws): one
    /// line per source line and opcode, `SOURCE  (LOCATION);OPCODE GAS`
    /// (`LOCATION;OPCODE GAS` for a line without text). A `;` in the source
    /// text, which would split a frame, is shown as `,`.
    pub fn folded(&self) -> Vec<String> {
        self.by_line_opcode
            .iter()
            .filter(|e| e.gas > 0)
            .map(|e| {
                let source = e.source.trim_end_matches(';').replace(';', ",");
                let line = if source.is_empty() {
                    e.location.clone()
                } else {
                    format!("{source}  ({})", e.location)
                };
                format!("{line};{} {}", e.opcode, e.gas)
            })
            .collect()
    }
}

/// The gas one opcode spent in a profiled call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpcodeGas {
    /// Mnemonic (`SLOAD`), or `0x..` for an unknown byte.
    pub opcode: String,
    /// Times it executed.
    pub count: u64,
    /// Gas it spent in all.
    pub gas: u64,
}

/// The gas the instructions of one source line spent in a profiled call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineGas {
    /// `file:line`, or a parenthesised note for compiler-generated code.
    pub location: String,
    /// The line's text, trimmed.
    pub source: String,
    /// Instructions executed.
    pub count: u64,
    /// Gas they spent.
    pub gas: u64,
}

/// The call to profile.
#[derive(Debug, Clone)]
pub enum Target {
    /// `generate(address)`.
    Generate(Address),
    /// `verify(start, solution)`.
    Verify(Board, Board),
    /// `isValidSolution(grid)` of the 9×9 validator (contracts/classic9/).
    Classic9IsValid(Vec<u8>),
    /// `verify(start, solution)` of the 9×9 validator.
    Classic9Verify(Vec<u8>, Vec<u8>),
}

impl Target {
    /// The calldata of the call.
    pub fn calldata(&self) -> Bytes {
        match self {
            Target::Generate(seed) => IPuzzle::generateCall { seed: *seed }.abi_encode().into(),
            Target::Verify(s, g) => IPuzzle::verifyCall {
                start: s.to_u256(),
                solution: g.to_u256(),
            }
            .abi_encode()
            .into(),
            Target::Classic9IsValid(grid) => crate::classic9::encode_is_valid(grid).into(),
            Target::Classic9Verify(s, g) => crate::classic9::encode_verify(s, g).into(),
        }
    }
}

/// Profiles one call of `puzzle`: every instruction's gas, grouped by opcode
/// and by the Solidity line solc's source map attributes it to.
pub fn profile(machine: &mut Machine, puzzle: Puzzle, target: Target) -> Result<Profile, EvmError> {
    let data = target.calldata();
    let (to, artifact) = match target {
        Target::Generate(_) | Target::Verify(..) => (machine.address_of(puzzle), puzzle.artifact()),
        Target::Classic9IsValid(_) | Target::Classic9Verify(..) => {
            match (machine.classic9_address(puzzle), puzzle.classic9_artifact()) {
                (Some(to), Some(artifact)) => (to, artifact),
                _ => {
                    return Err(EvmError::NoValidator(puzzle));
                }
            }
        }
    };
    let files = SOURCES
        .iter()
        .enumerate()
        .map(|(i, &(path, text))| (i, (path.to_string(), text.to_string())))
        .collect();
    let lines = SourceLines::new(artifact.runtime, artifact.source_map, files);
    profile_call(machine, to, data, Some(&lines))
}

/// Profiles the call `data` to the contract at `to`: every instruction's gas,
/// grouped by opcode, and by source line when `lines` maps its code (else
/// `by_line` is empty).
pub fn profile_call(
    machine: &mut Machine,
    to: Address,
    data: Bytes,
    lines: Option<&SourceLines>,
) -> Result<Profile, EvmError> {
    let (outcome, steps) = machine.profile_raw(to, data)?;
    let name_of = |step: &Step| {
        OpCode::new(step.opcode).map_or_else(
            || format!("0x{:02x}", step.opcode),
            |o| o.as_str().to_string(),
        )
    };
    let mut by_opcode: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for step in &steps {
        let e = by_opcode.entry(name_of(step)).or_default();
        e.0 += 1;
        e.1 += step.gas;
    }
    let mut by_line: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    let mut by_line_opcode: BTreeMap<(String, String, String), u64> = BTreeMap::new();
    for step in &steps {
        let (location, source) = match lines {
            Some(lines) => lines.locate(step),
            None => ("(no source map)".to_string(), String::new()),
        };
        *by_line_opcode
            .entry((location.clone(), source.clone(), name_of(step)))
            .or_default() += step.gas;
        if lines.is_some() {
            let e = by_line.entry((location, source)).or_default();
            e.0 += 1;
            e.1 += step.gas;
        }
    }
    let by_line_opcode = by_line_opcode
        .into_iter()
        .map(|((location, source, opcode), gas)| LineOpcodeGas {
            location,
            source,
            opcode,
            gas,
        })
        .collect();
    let mut by_opcode: Vec<OpcodeGas> = by_opcode
        .into_iter()
        .map(|(opcode, (count, gas))| OpcodeGas { opcode, count, gas })
        .collect();
    by_opcode.sort_by(|a, b| b.gas.cmp(&a.gas).then_with(|| a.opcode.cmp(&b.opcode)));
    let mut by_line: Vec<LineGas> = by_line
        .into_iter()
        .map(|((location, source), (count, gas))| LineGas {
            location,
            source,
            count,
            gas,
        })
        .collect();
    by_line.sort_by(|a, b| b.gas.cmp(&a.gas).then_with(|| a.location.cmp(&b.location)));
    Ok(Profile {
        gas: outcome.gas,
        success: outcome.success,
        by_opcode,
        by_line,
        by_line_opcode,
    })
}

//! A symbolic EVM over runtime bytecode: one message call, its calldata made of
//! constant bytes and bytes of free 256-bit variables, executed into terms.
//!
//! Control flow that depends on a variable forks the state; states that reach
//! the same program counter with the same stack depth, the same memory size
//! and the same concrete stack entries are merged into one whose entries are
//! if-then-else terms. A guided run ([`execute_guided`]) follows a witness at
//! the branches that do not rejoin (loops on the input) and, with
//! [`Limits::merge_steps`], runs both sides of the others until they rejoin
//! and merges them the same way. Everything the executor does not model is
//! refused with an [`ExecError`], so a result always describes every path.
//!
//! Layout: this file holds the public API (the runs, their limits, results
//! and errors); `machine` chooses which state runs next and merges states;
//! `instructions` runs a state's instructions, one module per opcode family
//! as in revm's interpreter (arithmetic, bitwise, comparison, memory,
//! control, stack, system), one small function per opcode, dispatched
//! through one table.

use std::collections::{HashMap, HashSet};

use octoku_core::U256;

use revm::bytecode::opcode;

use crate::term::{TermId, Terms};

mod instructions;
mod machine;

/// Bounds that make every run finite; exceeding one is a refusal.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Instructions one path may execute (a loop past this is refused).
    pub steps_per_path: u64,
    /// Instructions executed over all states together.
    pub total_steps: u64,
    /// States alive at the same time.
    pub live_states: usize,
    /// Highest memory byte offset a concrete access may reach.
    pub memory_bytes: usize,
    /// In a guided run, the instructions that running both sides of one
    /// input-dependent branch until they rejoin may take (nested branches
    /// included; at most [`MERGE_LIVE`] states and [`MERGE_FORKS`] forks).
    /// Past it, or when a side comes back to the branch (a loop on the
    /// input), the attempt is given up and the witness's side alone is
    /// followed. 0: the witness's side is followed at every branch.
    pub merge_steps: u64,
}

/// States alive at once while the sides of one branch are run to their
/// rejoining point (see [`Limits::merge_steps`]).
pub const MERGE_LIVE: usize = 64;

/// Input-dependent branches inside one attempt to rejoin the sides of a
/// branch (see [`Limits::merge_steps`]).
pub const MERGE_FORKS: u64 = 64;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps_per_path: 100_000,
            total_steps: 20_000_000,
            live_states: 4_096,
            memory_bytes: 1 << 16,
            merge_steps: 0,
        }
    }
}

/// Why the executor refused to produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExecError {
    /// An opcode the executor has no semantics for.
    #[error("opcode 0x{opcode:02x} at pc {pc} is not modeled: {why}")]
    Unsupported {
        /// Program counter.
        pc: usize,
        /// The opcode byte.
        opcode: u8,
        /// What is missing.
        why: &'static str,
    },
    /// A JUMP or JUMPI whose target depends on the variables.
    #[error("jump at pc {pc} has a target that depends on the input")]
    SymbolicJump {
        /// Program counter.
        pc: usize,
    },
    /// A memory or calldata offset or size that depends on the variables, or
    /// is too large.
    #[error(
        "at pc {pc} the {what} depends on the input or is too large; only concrete offsets and sizes are modeled"
    )]
    SymbolicMemory {
        /// Program counter.
        pc: usize,
        /// Which operand.
        what: &'static str,
    },
    /// A path ran more instructions than [`Limits::steps_per_path`].
    #[error(
        "a path ran more than {steps} instructions (a loop not bounded by constants?), at pc {pc}"
    )]
    LoopBound {
        /// Program counter where the bound was hit.
        pc: usize,
        /// The bound.
        steps: u64,
    },
    /// More states alive, or more instructions in all, than the limits allow.
    #[error(
        "path explosion: {live} states alive after {steps} instructions; the paths do not rejoin"
    )]
    TooManyStates {
        /// States alive.
        live: usize,
        /// Instructions executed.
        steps: u64,
    },
}

/// Memory below this offset (Solidity's scratch space, free memory pointer
/// and zero slot) is left out of a symbolic word access's candidates when
/// the witness offset is above it.
const RESERVED: usize = 0x80;

/// One byte of memory or calldata: byte `byte` (0 = most significant) of the
/// word `term`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The word the byte is taken from.
    pub term: TermId,
    /// Which byte of it, 0 = most significant.
    pub byte: u8,
}

/// The environment of the message call.
#[derive(Debug, Clone)]
pub struct Call {
    /// The calldata, byte by byte.
    pub calldata: Vec<Cell>,
    /// CALLVALUE.
    pub callvalue: TermId,
    /// The constant 0 in the same store (unwritten memory, missing calldata).
    zero: TermId,
    /// Whether KECCAK256 gives a free variable (see [`Call::hashes_as_variables`])
    /// instead of a refusal.
    hashes_as_variables: bool,
    /// Whether a guided run keeps a hash variable's value given in the
    /// witness (see [`Call::hashes_from_witness`]).
    hashes_from_witness: bool,
}

impl Call {
    /// Calldata given byte by byte, no value.
    pub fn from_cells(terms: &mut Terms, calldata: Vec<Cell>) -> Call {
        let zero = terms.small(0);
        Call {
            calldata,
            callvalue: zero,
            zero,
            hashes_as_variables: false,
            hashes_from_witness: false,
        }
    }

    /// KECCAK256 of concrete-offset, concrete-size memory gives a free
    /// 256-bit variable, one per distinct input (the same input bytes give
    /// the same variable, named `keccak_<len>_<keccak256 of the input's term
    /// ids and byte positions>`).
    /// A query proved unsat over such variables holds for every value of
    /// them, so in particular for the real hash; a satisfying model may give a
    /// value that is not the hash, so it must be replayed before it is called
    /// a counterexample.
    pub fn hashes_as_variables(mut self) -> Call {
        self.hashes_as_variables = true;
        self
    }

    /// With [`Call::hashes_as_variables`]: in a guided run, a hash variable
    /// whose index the witness covers keeps the witness's value instead of
    /// the real hash (keccak256 as an unknown function: the run follows the
    /// path of that hash value). Variables beyond the witness get the real
    /// hash.
    pub fn hashes_from_witness(mut self) -> Call {
        self.hashes_as_variables = true;
        self.hashes_from_witness = true;
        self
    }

    /// Calldata `selector ++ args` (each argument a 32-byte word), no value.
    pub fn abi(terms: &mut Terms, selector: [u8; 4], args: &[TermId]) -> Call {
        let mut calldata: Vec<Cell> = selector
            .iter()
            .map(|&b| Cell {
                term: terms.small(u64::from(b)),
                byte: 31,
            })
            .collect();
        for &arg in args {
            calldata.extend((0..32).map(|byte| Cell { term: arg, byte }));
        }
        Call::from_cells(terms, calldata)
    }
}

/// What a path (or the merge of all paths) ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// 1 if the call returned (RETURN or STOP), 0 if it reverted or halted.
    pub success: TermId,
    /// Length of the return or revert data in bytes.
    pub len: TermId,
    /// The data, as 32-byte words, zero-padded after `len`.
    pub words: Vec<TermId>,
}

/// Counters of one run, for reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Forks on an input-dependent JUMPI.
    pub forks: u64,
    /// Merges of two states into one.
    pub merges: u64,
    /// Paths that ended (after merging).
    pub ended: u64,
    /// Most states alive at once.
    pub max_live: usize,
    /// Branches of a guided run whose sides were run until they rejoined
    /// (see [`Limits::merge_steps`]).
    pub rejoined: u64,
    /// Instructions executed over all states.
    pub steps: u64,
}

#[derive(Debug, Clone)]
struct State {
    pc: usize,
    stack: Vec<TermId>,
    memory: Vec<Cell>,
    guard: TermId,
    steps: u64,
}

/// Symbolic execution of runtime `code` on `call`: the outcome over all
/// paths, as terms in `terms`.
pub fn execute(
    terms: &mut Terms,
    code: &[u8],
    call: &Call,
    limits: Limits,
) -> Result<(Outcome, Stats), ExecError> {
    Exec::new(terms, code, call, limits, None)
        .run()
        .map(|(outcome, _, stats)| (outcome, stats))
}

/// The paths of a program around one witness: the path the witness takes,
/// widened by every branch whose sides were run to where they rejoin.
#[derive(Debug, Clone)]
pub struct Guided {
    /// The outcome on these paths (if-then-else terms where merged sides
    /// differ, or where some side ended early).
    pub outcome: Outcome,
    /// The path condition, a 0/1 term: the branch conditions the witness's
    /// path took at the branches followed alone, and the disjunction of the
    /// sides' conditions at the branches merged. Every assignment that makes
    /// it 1 runs one of these paths and so ends with `outcome`.
    pub guard: TermId,
    /// Executor counters (`forks` counts the input-dependent branches met).
    pub stats: Stats,
    /// The values of all variables: the witness given, then the real hash of
    /// every KECCAK256 input met (see [`Call::hashes_as_variables`]).
    pub values: Vec<U256>,
}

/// Symbolic execution along the path that the variables' values `witness`
/// (by variable index) take: at an input-dependent JUMPI the branch the
/// witness takes is followed and its condition added to the path condition,
/// the other branch dropped; with [`Limits::merge_steps`], both branches are
/// first run until they rejoin (nested branches too) and merged, and only a
/// branch whose sides do not rejoin within the bound (a loop on the input)
/// is decided by the witness. The terms stay symbolic, so the result holds
/// for every assignment that satisfies [`Guided::guard`], not only the
/// witness.
pub fn execute_guided(
    terms: &mut Terms,
    code: &[u8],
    call: &Call,
    limits: Limits,
    witness: &[U256],
) -> Result<Guided, ExecError> {
    let guide = Guide {
        values: witness.to_vec(),
        memo: HashMap::new(),
    };
    let mut machine = Exec::new(terms, code, call, limits, Some(guide));
    let (outcome, guard, stats) = machine.run()?;
    let values = machine.guide.map(|g| g.values).unwrap_or_default();
    Ok(Guided {
        outcome,
        guard,
        stats,
        values,
    })
}

/// A machine state at a program point in the middle of a run: the program
/// counter, the stack (bottom first) and memory as 32-byte words, each a term
/// (a free variable where the state is unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Program counter.
    pub pc: usize,
    /// Stack entries, bottom first.
    pub stack: Vec<TermId>,
    /// Memory words from offset 0; memory is exactly this long.
    pub memory: Vec<TermId>,
}

/// Where one path from a [`Snapshot`] went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reached {
    /// It came to one of the cut program counters.
    Cut(Snapshot),
    /// The call ended (returned, reverted or halted).
    Ended(Outcome),
}

/// One path of [`execute_from`]: the condition under which it is taken and
/// where it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The path condition, a 0/1 term; the paths' conditions are disjoint
    /// and, under the start's constraints, cover every assignment.
    pub guard: TermId,
    /// Where the path went.
    pub reached: Reached,
}

/// Symbolic execution from `start` (a state in the middle of `code`, its
/// unknowns free variables) until every path reaches one of the program
/// counters in `cuts` (after at least one instruction) or ends. Paths are
/// not merged: each is one [`Segment`] with its path condition, so a loop
/// body run from its head gives one segment per way through the body.
pub fn execute_from(
    terms: &mut Terms,
    code: &[u8],
    call: &Call,
    limits: Limits,
    start: &Snapshot,
    cuts: &HashSet<usize>,
) -> Result<(Vec<Segment>, Stats), ExecError> {
    let mut machine = Exec::new(terms, code, call, limits, None);
    let segments = machine.run_from(start, cuts)?;
    Ok((segments, machine.stats))
}

/// Concrete values that choose the branches of a guided run.
struct Guide {
    values: Vec<U256>,
    memo: HashMap<TermId, U256>,
}

/// The name of the variable that stands for KECCAK256 of `cells` under
/// [`Call::hashes_as_variables`]: `keccak_<len>_<digest of the input's term
/// ids and byte positions>`, so that a caller can name the hash of a known
/// input (say, an address's 20 bytes).
pub fn hash_variable_name(cells: &[Cell]) -> String {
    let mut key = Vec::with_capacity(5 * cells.len());
    for c in cells {
        key.extend_from_slice(&(c.term.index() as u32).to_be_bytes());
        key.push(c.byte);
    }
    // The whole digest: two inputs sharing a variable would constrain
    // their hashes to be equal, which no real hash promises.
    let digest = alloy_primitives::keccak256(&key);
    format!("keccak_{}_{digest:x}", cells.len())
}

/// Program counters of the valid JUMPDESTs (not inside PUSH data).
pub fn jumpdests(code: &[u8]) -> HashSet<usize> {
    let mut set = HashSet::new();
    let mut pc = 0;
    while pc < code.len() {
        let op = code[pc];
        if op == opcode::JUMPDEST {
            set.insert(pc);
        }
        pc += 1 + push_len(op);
    }
    set
}

/// The program counter of a state that took a jump to an invalid destination.
const BAD_JUMP: usize = usize::MAX;

fn push_len(op: u8) -> usize {
    if (opcode::PUSH1..=opcode::PUSH32).contains(&op) {
        usize::from(op - opcode::PUSH0)
    } else {
        0
    }
}

struct Exec<'a> {
    terms: &'a mut Terms,
    code: &'a [u8],
    call: &'a Call,
    limits: Limits,
    jumpdests: HashSet<usize>,
    stats: Stats,
    guide: Option<Guide>,
    /// The attempt under way to rejoin the sides of a guided run's branch.
    region: Option<Region>,
    /// Branches (by program counter) whose sides did not rejoin in this
    /// run: the witness decides them without another attempt.
    given_up: HashSet<usize>,
}

/// An attempt to run both sides of a branch until they rejoin (see
/// [`Limits::merge_steps`]).
struct Region {
    /// The branch's program counter and call depth: a side that meets the
    /// same branch in the same call has gone round a loop.
    root: (usize, usize),
    /// [`Stats::steps`] when the attempt began.
    began: u64,
    /// Input-dependent branches met inside it.
    forks: u64,
}

/// What is left of a branch whose sides rejoined: the state they merged
/// into (none when every side ended) and the paths that ended on the way,
/// each with its condition.
type Rejoined = (Option<State>, Vec<(TermId, Outcome)>);

impl<'a> Exec<'a> {
    fn new(
        terms: &'a mut Terms,
        code: &'a [u8],
        call: &'a Call,
        limits: Limits,
        guide: Option<Guide>,
    ) -> Exec<'a> {
        Exec {
            terms,
            code,
            call,
            limits,
            jumpdests: jumpdests(code),
            stats: Stats::default(),
            guide,
            region: None,
            given_up: HashSet::new(),
        }
    }
}

/// What one executed block left behind.
enum Next {
    Continue(State),
    /// Both sides of an input-dependent branch, to be run on.
    Fork(State, State),
    /// In a guided run that merges branches: both sides of an
    /// input-dependent JUMPI at `pc`, and whether the witness jumps.
    Branch {
        taken: State,
        fall: State,
        witness_jumps: bool,
        pc: usize,
    },
    End(TermId, Outcome),
    /// Inside a region, a side that cannot be rejoined: it came back to the
    /// region's branch, or hashes an input-dependent word (a hash variable
    /// made there would outlive the attempt).
    GiveUp,
}

/// Whether `op` is no instruction on Prague (octoku's fork): a byte no
/// fork defines, or one defined by a later fork (CLZ, SLOTNUM, DUPN, SWAPN,
/// EXCHANGE). revm halts on it as on INVALID: the call fails with no data
/// and all its gas. (Jump destinations are found the same way for these
/// bytes: revm's analysis skips PUSH data only.)
pub fn undefined(op: u8) -> bool {
    const LATER: [u8; 5] = [0x1e, 0x4b, 0xe6, 0xe7, 0xe8];
    opcode::OpCode::new(op).is_none() || LATER.contains(&op)
}

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

use std::collections::{HashMap, HashSet};

use octoku_core::U256;

use revm::bytecode::opcode;

use crate::term::{Bin, TermId, Terms};

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

impl Exec<'_> {
    fn run(&mut self) -> Result<(Outcome, TermId, Stats), ExecError> {
        let root = State {
            pc: 0,
            stack: Vec::new(),
            memory: Vec::new(),
            guard: self.terms.small(1),
            steps: 0,
        };
        let mut live = vec![root];
        let mut ended: Vec<(TermId, Outcome)> = Vec::new();
        while !live.is_empty() {
            self.check_limits(live.len())?;
            // The state furthest behind in the code goes next, so that the
            // branches of a fork meet at their join point before either
            // runs past it.
            let i = (0..live.len())
                .min_by_key(|&i| live[i].pc)
                .expect("non-empty");
            let state = self.take_merged(&mut live, i);
            match self.block(state)? {
                Next::Continue(s) => live.push(s),
                Next::Fork(a, b) => self.push_fork(&mut live, a, b),
                Next::Branch {
                    taken,
                    fall,
                    witness_jumps,
                    pc,
                } => {
                    self.stats.forks += 1;
                    let witness = if witness_jumps {
                        taken.clone()
                    } else {
                        fall.clone()
                    };
                    match self.rejoin([taken, fall], pc)? {
                        Some((rest, paths)) => {
                            self.stats.rejoined += 1;
                            live.extend(rest);
                            for (guard, outcome) in paths {
                                self.record_end(&mut ended, guard, outcome);
                            }
                        }
                        None => {
                            self.given_up.insert(pc);
                            live.push(witness);
                        }
                    }
                }
                Next::End(guard, outcome) => self.record_end(&mut ended, guard, outcome),
                Next::GiveUp => unreachable!("only a region gives up"),
            }
        }
        self.stats.ended = ended.len() as u64;
        let mut reached = self.terms.small(0);
        for (guard, _) in &ended {
            reached = self.terms.or_bool(reached, *guard);
        }
        let width = ended.iter().map(|(_, o)| o.words.len()).max().unwrap_or(0);
        let zero = self.terms.small(0);
        let mut acc: Option<Outcome> = None;
        for (guard, mut outcome) in ended.into_iter().rev() {
            outcome.words.resize(width, zero);
            acc = Some(match acc {
                None => outcome,
                Some(rest) => Outcome {
                    success: self.terms.ite(guard, outcome.success, rest.success),
                    len: self.terms.ite(guard, outcome.len, rest.len),
                    words: outcome
                        .words
                        .iter()
                        .zip(&rest.words)
                        .map(|(&a, &b)| self.terms.ite(guard, a, b))
                        .collect(),
                },
            });
        }
        let outcome = acc.expect("the root path ends");
        Ok((outcome, reached, self.stats))
    }

    fn run_from(
        &mut self,
        start: &Snapshot,
        cuts: &HashSet<usize>,
    ) -> Result<Vec<Segment>, ExecError> {
        let memory = start
            .memory
            .iter()
            .flat_map(|&term| (0..32).map(move |byte| Cell { term, byte }))
            .collect();
        let root = State {
            pc: start.pc,
            stack: start.stack.clone(),
            memory,
            guard: self.terms.small(1),
            steps: 0,
        };
        let mut live = vec![root];
        let mut out = Vec::new();
        while let Some(state) = live.pop() {
            self.check_limits(live.len() + 1)?;
            if state.steps > 0 && cuts.contains(&state.pc) {
                let words = state.memory.len() / 32;
                let memory = (0..words)
                    .map(|w| self.gather(&state.memory[32 * w..32 * w + 32]))
                    .collect();
                out.push(Segment {
                    guard: state.guard,
                    reached: Reached::Cut(Snapshot {
                        pc: state.pc,
                        stack: state.stack,
                        memory,
                    }),
                });
                continue;
            }
            match self.block(state)? {
                Next::Continue(s) => live.push(s),
                Next::Fork(a, b) => self.push_fork(&mut live, a, b),
                Next::Branch { .. } | Next::GiveUp => unreachable!("an unguided run"),
                Next::End(guard, outcome) => {
                    self.stats.ended += 1;
                    out.push(Segment {
                        guard,
                        reached: Reached::Ended(outcome),
                    });
                }
            }
        }
        Ok(out)
    }

    /// Refuses when more states are alive, or more instructions were run in
    /// all, than the limits allow.
    fn check_limits(&mut self, live: usize) -> Result<(), ExecError> {
        self.stats.max_live = self.stats.max_live.max(live);
        if live > self.limits.live_states || self.stats.steps > self.limits.total_steps {
            return Err(ExecError::TooManyStates {
                live,
                steps: self.stats.steps,
            });
        }
        Ok(())
    }

    /// `live[i]`, taken out and merged with every other live state it can be
    /// merged with.
    fn take_merged(&mut self, live: &mut Vec<State>, i: usize) -> State {
        let mut state = live.swap_remove(i);
        let mut j = 0;
        while j < live.len() {
            if self.mergeable(&state, &live[j]) {
                let other = live.swap_remove(j);
                state = self.merge(state, other);
                self.stats.merges += 1;
            } else {
                j += 1;
            }
        }
        state
    }

    /// The sides of a fork that some assignment may take, added to `live`.
    fn push_fork(&mut self, live: &mut Vec<State>, a: State, b: State) {
        self.stats.forks += 1;
        for s in [a, b] {
            if self.terms.as_const(s.guard) != Some(U256::ZERO) {
                live.push(s);
            }
        }
    }

    /// A path's end added to `ended`; paths that end alike are one path.
    fn record_end(&mut self, ended: &mut Vec<(TermId, Outcome)>, guard: TermId, outcome: Outcome) {
        if let Some(slot) = ended.iter_mut().find(|(_, o)| *o == outcome) {
            slot.0 = self.terms.or_bool(slot.0, guard);
        } else {
            ended.push((guard, outcome));
        }
    }

    /// Both sides of the branch at `pc` run until at most one state is left
    /// (the others merged into it or ended): that state and the paths that
    /// ended. `None` when the sides do not rejoin within the bounds of
    /// [`Limits::merge_steps`], or a side meets something a region cannot
    /// hold (an error, a hash of an input-dependent word, the branch itself
    /// again in the same call); nothing of the attempt is then kept.
    fn rejoin(&mut self, sides: [State; 2], pc: usize) -> Result<Option<Rejoined>, ExecError> {
        self.region = Some(Region {
            root: (pc, self.depth(&sides[0])),
            began: self.stats.steps,
            forks: 0,
        });
        let result = self.run_region(sides);
        self.region = None;
        result
    }

    fn run_region(&mut self, sides: [State; 2]) -> Result<Option<Rejoined>, ExecError> {
        let mut live: Vec<State> = sides
            .into_iter()
            .filter(|s| self.terms.as_const(s.guard) != Some(U256::ZERO))
            .collect();
        let mut ended = Vec::new();
        while live.len() > 1 {
            self.check_limits(live.len())?;
            let region = self.region.as_ref().expect("in a region");
            if live.len() > MERGE_LIVE
                || region.forks > MERGE_FORKS
                || self.stats.steps - region.began > self.limits.merge_steps
            {
                return Ok(None);
            }
            // The deepest call first, then the state furthest behind in
            // the code: the sides meet where they rejoin in their call
            // before either returns from it or goes round a loop.
            let i = (0..live.len())
                .min_by_key(|&i| (std::cmp::Reverse(self.depth(&live[i])), live[i].pc))
                .expect("non-empty");
            let state = self.take_merged(&mut live, i);
            if live.is_empty() {
                // Every side merged into this one: the branch has rejoined.
                return Ok(Some((Some(state), ended)));
            }
            match self.block(state) {
                Ok(Next::Continue(s)) => live.push(s),
                Ok(Next::Fork(a, b)) => {
                    self.region.as_mut().expect("in a region").forks += 1;
                    self.push_fork(&mut live, a, b);
                }
                Ok(Next::End(guard, outcome)) => self.record_end(&mut ended, guard, outcome),
                Ok(Next::GiveUp) | Err(_) => return Ok(None),
                Ok(Next::Branch { .. }) => unreachable!("a region forks"),
            }
        }
        Ok(Some((live.pop(), ended)))
    }

    /// Return addresses on the stack: the entries that are a JUMPDEST's
    /// program counter.
    fn depth(&self, s: &State) -> usize {
        s.stack
            .iter()
            .filter(|&&t| self.terms.as_const(t).is_some_and(|v| self.is_jumpdest(v)))
            .count()
    }

    fn mergeable(&self, a: &State, b: &State) -> bool {
        if a.pc != b.pc || a.stack.len() != b.stack.len() || a.memory.len() != b.memory.len() {
            return false;
        }
        // Differing constants are merged unless one of them is a JUMPDEST:
        // a return address that differs means the paths are in different
        // calls, and merging would make the return jump input-dependent.
        a.stack.iter().zip(&b.stack).all(|(&x, &y)| {
            x == y
                || match (self.terms.as_const(x), self.terms.as_const(y)) {
                    (Some(u), Some(v)) => !self.is_jumpdest(u) && !self.is_jumpdest(v),
                    _ => true,
                }
        })
    }

    fn is_jumpdest(&self, v: U256) -> bool {
        v < U256::from(self.code.len()) && self.jumpdests.contains(&v.to::<usize>())
    }

    fn merge(&mut self, a: State, b: State) -> State {
        // Under the merged guard, a's guard reduces to the branch condition
        // when both come from one fork.
        // (or_bool gives the parent guard itself then: guards are 0/1.)
        let guard = self.terms.or_bool(a.guard, b.guard);
        let cond = match self.terms.split_complement(a.guard, b.guard) {
            Some((_, cond)) => cond,
            None => a.guard,
        };
        let stack = a
            .stack
            .iter()
            .zip(&b.stack)
            .map(|(&x, &y)| self.terms.ite(cond, x, y))
            .collect();
        let mut memory = a.memory.clone();
        for w in 0..a.memory.len() / 32 {
            let range = 32 * w..32 * w + 32;
            if a.memory[range.clone()] != b.memory[range.clone()] {
                let x = self.gather(&a.memory[range.clone()]);
                let y = self.gather(&b.memory[range.clone()]);
                let v = self.terms.ite(cond, x, y);
                for (k, cell) in memory[range].iter_mut().enumerate() {
                    *cell = Cell {
                        term: v,
                        byte: k as u8,
                    };
                }
            }
        }
        State {
            pc: a.pc,
            stack,
            memory,
            guard,
            steps: a.steps.max(b.steps),
        }
    }

    /// The 32-byte word made of `cells`, most significant byte first.
    fn gather(&mut self, cells: &[Cell]) -> TermId {
        debug_assert_eq!(cells.len(), 32);
        if cells
            .iter()
            .enumerate()
            .all(|(k, c)| c.term == cells[0].term && usize::from(c.byte) == k)
        {
            return cells[0].term;
        }
        let mut acc = self.terms.small(0);
        let mut p = 0;
        while p < 32 {
            let Cell { term, byte } = cells[p];
            let mut len = 1;
            while p + len < 32
                && cells[p + len].term == term
                && usize::from(cells[p + len].byte) == usize::from(byte) + len
            {
                len += 1;
            }
            // Bytes byte..byte+len of term, placed at p..p+len.
            let piece = if let Some(c) = self.terms.as_const(term) {
                let v =
                    ((c << (8 * usize::from(byte))) >> (8 * (32 - len))) << (8 * (32 - p - len));
                self.terms.constant(v)
            } else {
                let up = self.terms.small(8 * u64::from(byte));
                let down = self.terms.small(8 * (32 - len) as u64);
                let back = self.terms.small(8 * (32 - p - len) as u64);
                let x = self.terms.bin(Bin::Shl, term, up);
                let x = self.terms.bin(Bin::Shr, x, down);
                self.terms.bin(Bin::Shl, x, back)
            };
            acc = self.terms.bin(Bin::Or, acc, piece);
            p += len;
        }
        acc
    }

    fn concrete(&self, t: TermId, pc: usize, what: &'static str) -> Result<usize, ExecError> {
        match self.terms.as_const(t) {
            Some(v) if v <= U256::from(self.limits.memory_bytes) => Ok(v.to::<usize>()),
            _ => Err(ExecError::SymbolicMemory { pc, what }),
        }
    }

    /// An offset into calldata or code, which must be a constant (an offset
    /// past the end reads zeros, so it saturates instead of failing).
    fn source_offset(&self, t: TermId, pc: usize, what: &'static str) -> Result<usize, ExecError> {
        match self.terms.as_const(t) {
            Some(v) => Ok(v.saturating_to::<usize>()),
            None => Err(ExecError::SymbolicMemory { pc, what }),
        }
    }

    /// Memory range [off, off+len) checked against the limits, memory grown
    /// to cover it (when len > 0).
    fn touch(&self, s: &mut State, off: TermId, len: usize, pc: usize) -> Result<usize, ExecError> {
        let off = self.concrete(off, pc, "memory offset")?;
        if len == 0 {
            return Ok(off);
        }
        let end = off + len;
        if end > self.limits.memory_bytes {
            return Err(ExecError::SymbolicMemory {
                pc,
                what: "memory range",
            });
        }
        if s.memory.len() < end {
            let zero = Cell {
                term: self.zero_term(),
                byte: 31,
            };
            s.memory.resize(end.div_ceil(32) * 32, zero);
        }
        Ok(off)
    }

    /// A 32-byte MLOAD or MSTORE at an offset that depends on the
    /// variables is done word by word over memory, in a guided run only
    /// (the witness fixes the offset's alignment and the memory it lies in).
    /// The words a symbolic offset may address on this path: every offset
    /// in memory (grown to cover the witness's offset) with the witness
    /// offset's alignment, from 0x80 on when the witness offset is there
    /// (Solidity's scratch space and free memory pointer stay concrete),
    /// each with the 0/1 term "off is it"; and the path condition that
    /// `off` is one of them (alignment and range), which the caller adds to
    /// the guard. Every assignment satisfying it reads or
    /// writes exactly the word the ite over the candidates selects.
    fn word_candidates(
        &mut self,
        s: &mut State,
        off: TermId,
        pc: usize,
    ) -> Result<(Vec<(usize, TermId)>, TermId), ExecError> {
        let value = self.witness_value(off);
        let at = self.terms.constant(value);
        self.touch(s, at, 32, pc)?;
        let align = value.to::<usize>() % 32;
        let low = if value >= U256::from(RESERVED) {
            RESERVED
        } else {
            0
        };
        let mut candidates = Vec::new();
        let mut k = low + align;
        while k + 32 <= s.memory.len() {
            let c = self.terms.small(k as u64);
            candidates.push((k, self.terms.bin(Bin::Eq, off, c)));
            k += 32;
        }
        let thirty_two = self.terms.small(32);
        let rem = self.terms.bin(Bin::Mod, off, thirty_two);
        let want = self.terms.small(align as u64);
        let aligned = self.terms.bin(Bin::Eq, rem, want);
        let end = self.terms.small((k - 32 + 1) as u64);
        let below = self.terms.bin(Bin::Lt, off, end);
        let start = self.terms.small((low + align) as u64);
        let under = self.terms.bin(Bin::Lt, off, start);
        let above = self.terms.is_zero(under);
        let range = self.terms.and_bool(above, below);
        Ok((candidates, self.terms.and_bool(aligned, range)))
    }

    fn zero_term(&self) -> TermId {
        self.call.zero
    }

    /// Executes from `s.pc` until a jump, a fork, an end, or the next JUMPDEST.
    fn block(&mut self, mut s: State) -> Result<Next, ExecError> {
        if s.pc == BAD_JUMP {
            return Ok(self.halt(s));
        }
        let mut first = true;
        loop {
            let pc = s.pc;
            if !first && self.jumpdests.contains(&pc) {
                return Ok(Next::Continue(s));
            }
            first = false;
            s.steps += 1;
            self.stats.steps += 1;
            if s.steps > self.limits.steps_per_path {
                return Err(ExecError::LoopBound {
                    pc,
                    steps: self.limits.steps_per_path,
                });
            }
            let op = self.code.get(pc).copied().unwrap_or(opcode::STOP);
            let (pops, _) = stack_io(op);
            if s.stack.len() < pops {
                return Ok(self.halt(s));
            }
            let mut args = [self.zero_term(); 7];
            for a in args.iter_mut().take(pops) {
                *a = s.stack.pop().expect("checked depth");
            }
            let mut next_pc = pc + 1;
            let mut push: Option<TermId> = None;
            let t = &mut *self.terms;
            match op {
                opcode::STOP => return Ok(self.end(s, 1, 0, 0)),
                opcode::ADD => push = Some(t.bin(Bin::Add, args[0], args[1])),
                opcode::MUL => push = Some(t.bin(Bin::Mul, args[0], args[1])),
                opcode::SUB => push = Some(t.bin(Bin::Sub, args[0], args[1])),
                opcode::DIV => push = Some(t.bin(Bin::Div, args[0], args[1])),
                opcode::SDIV => push = Some(t.bin(Bin::SDiv, args[0], args[1])),
                opcode::MOD => push = Some(t.bin(Bin::Mod, args[0], args[1])),
                opcode::SMOD => push = Some(t.bin(Bin::SMod, args[0], args[1])),
                opcode::ADDMOD | opcode::MULMOD => {
                    let c: Option<Vec<U256>> = args[..3].iter().map(|&a| t.as_const(a)).collect();
                    let Some(c) = c else {
                        return Err(ExecError::Unsupported {
                            pc,
                            opcode: op,
                            why: "ADDMOD/MULMOD on input-dependent operands",
                        });
                    };
                    let v = if op == opcode::ADDMOD {
                        c[0].add_mod(c[1], c[2])
                    } else {
                        c[0].mul_mod(c[1], c[2])
                    };
                    push = Some(t.constant(v));
                }
                opcode::EXP => {
                    push = Some(match (t.as_const(args[0]), t.as_const(args[1])) {
                        (Some(b), Some(e)) => t.constant(b.wrapping_pow(e)),
                        // 0^e is 1 for e = 0, else 0; 1^e is 1.
                        (Some(b), None) if b.is_zero() => t.is_zero(args[1]),
                        (Some(b), None) if b == U256::from(1u8) => t.small(1),
                        (Some(b), None) if b == U256::from(2u8) => {
                            let one = t.small(1);
                            t.bin(Bin::Shl, one, args[1])
                        }
                        (Some(b), None) if b.is_power_of_two() => {
                            // (2^k)^e for k >= 1 (0 and 1 are above) is
                            // 1 << k*e while k*e < 256 (then e < 256, so
                            // k*e does not wrap), else 0.
                            let k = t.small(u64::from(b.trailing_zeros() as u32));
                            let one = t.small(1);
                            let bits = t.bin(Bin::Mul, k, args[1]);
                            let power = t.bin(Bin::Shl, one, bits);
                            let limit = t.small(256);
                            let small = t.bin(Bin::Lt, args[1], limit);
                            let zero = t.small(0);
                            t.ite(small, power, zero)
                        }
                        (_, Some(e)) if e <= U256::from(256u32) => {
                            // Square-and-multiply on a symbolic base.
                            let mut result = t.small(1);
                            let mut base = args[0];
                            let mut e = e.to::<u64>();
                            while e > 0 {
                                if e & 1 == 1 {
                                    result = t.bin(Bin::Mul, result, base);
                                }
                                base = t.bin(Bin::Mul, base, base);
                                e >>= 1;
                            }
                            result
                        }
                        _ => {
                            return Err(ExecError::Unsupported {
                                pc,
                                opcode: op,
                                why: "EXP with an input-dependent exponent",
                            });
                        }
                    });
                }
                opcode::SIGNEXTEND => {
                    let Some(b) = t.as_const(args[0]) else {
                        return Err(ExecError::Unsupported {
                            pc,
                            opcode: op,
                            why: "SIGNEXTEND with an input-dependent byte index",
                        });
                    };
                    push = Some(if b >= U256::from(31u8) {
                        args[1]
                    } else {
                        let k = t.small(248 - 8 * b.to::<u64>());
                        let up = t.bin(Bin::Shl, args[1], k);
                        t.bin(Bin::Sar, up, k)
                    });
                }
                opcode::LT => push = Some(t.bin(Bin::Lt, args[0], args[1])),
                opcode::GT => push = Some(t.bin(Bin::Lt, args[1], args[0])),
                opcode::SLT => push = Some(t.bin(Bin::Slt, args[0], args[1])),
                opcode::SGT => push = Some(t.bin(Bin::Slt, args[1], args[0])),
                opcode::EQ => push = Some(t.bin(Bin::Eq, args[0], args[1])),
                opcode::ISZERO => push = Some(t.is_zero(args[0])),
                opcode::AND => push = Some(t.bin(Bin::And, args[0], args[1])),
                opcode::OR => push = Some(t.bin(Bin::Or, args[0], args[1])),
                opcode::XOR => push = Some(t.bin(Bin::Xor, args[0], args[1])),
                opcode::NOT => push = Some(t.not(args[0])),
                opcode::BYTE => push = Some(t.byte(args[0], args[1])),
                opcode::SHL => push = Some(t.bin(Bin::Shl, args[1], args[0])),
                opcode::SHR => push = Some(t.bin(Bin::Shr, args[1], args[0])),
                opcode::SAR => push = Some(t.bin(Bin::Sar, args[1], args[0])),
                opcode::CALLVALUE => push = Some(self.call.callvalue),
                opcode::CALLDATALOAD => {
                    let off = self.source_offset(args[0], pc, "calldata offset")?;
                    let cells: Vec<Cell> = (0..32)
                        .map(|k| self.calldata_byte(off.saturating_add(k)))
                        .collect();
                    push = Some(self.gather(&cells));
                }
                opcode::CALLDATASIZE => push = Some(t.small(self.call.calldata.len() as u64)),
                opcode::CALLDATACOPY | opcode::CODECOPY => {
                    let len = self.concrete(args[2], pc, "copy length")?;
                    let dest = self.touch(&mut s, args[0], len, pc)?;
                    let src = self.source_offset(args[1], pc, "copy source offset")?;
                    for k in 0..len {
                        let i = src.saturating_add(k);
                        s.memory[dest + k] = if op == opcode::CALLDATACOPY {
                            self.calldata_byte(i)
                        } else {
                            let b = self.code.get(i).copied().unwrap_or(0);
                            Cell {
                                term: self.terms.small(u64::from(b)),
                                byte: 31,
                            }
                        };
                    }
                }
                opcode::CODESIZE => push = Some(t.small(self.code.len() as u64)),
                opcode::RETURNDATASIZE => push = Some(t.small(0)),
                opcode::POP => {}
                opcode::MLOAD if self.guide.is_some() && t.as_const(args[0]).is_none() => {
                    let (candidates, within) = self.word_candidates(&mut s, args[0], pc)?;
                    s.guard = self.terms.and_bool(s.guard, within);
                    let mut acc = self.terms.small(0);
                    for (k, hit) in candidates {
                        let cells = s.memory[k..k + 32].to_vec();
                        let word = self.gather(&cells);
                        acc = self.terms.ite(hit, word, acc);
                    }
                    push = Some(acc);
                }
                opcode::MSTORE if self.guide.is_some() && t.as_const(args[0]).is_none() => {
                    let (candidates, within) = self.word_candidates(&mut s, args[0], pc)?;
                    s.guard = self.terms.and_bool(s.guard, within);
                    for (k, hit) in candidates {
                        let cells = s.memory[k..k + 32].to_vec();
                        let old = self.gather(&cells);
                        let new = self.terms.ite(hit, args[1], old);
                        for b in 0..32 {
                            s.memory[k + b] = Cell {
                                term: new,
                                byte: b as u8,
                            };
                        }
                    }
                }
                opcode::MLOAD => {
                    let off = self.touch(&mut s, args[0], 32, pc)?;
                    let cells = s.memory[off..off + 32].to_vec();
                    push = Some(self.gather(&cells));
                }
                opcode::MSTORE => {
                    let off = self.touch(&mut s, args[0], 32, pc)?;
                    for k in 0..32 {
                        s.memory[off + k] = Cell {
                            term: args[1],
                            byte: k as u8,
                        };
                    }
                }
                opcode::MSTORE8 => {
                    let off = self.touch(&mut s, args[0], 1, pc)?;
                    s.memory[off] = Cell {
                        term: args[1],
                        byte: 31,
                    };
                }
                opcode::JUMP | opcode::JUMPI => {
                    let Some(target) = self.terms.as_const(args[0]) else {
                        return Err(ExecError::SymbolicJump { pc });
                    };
                    let target = target.saturating_to::<usize>();
                    let valid = self.jumpdests.contains(&target);
                    if op == opcode::JUMP {
                        if !valid {
                            return Ok(self.halt(s));
                        }
                        next_pc = target;
                    } else {
                        let cond = args[1];
                        match self.terms.as_const(cond) {
                            Some(c) if c.is_zero() => {}
                            Some(_) => {
                                if !valid {
                                    return Ok(self.halt(s));
                                }
                                next_pc = target;
                            }
                            None => {
                                if let Some(r) = &self.region
                                    && r.root == (pc, self.depth(&s))
                                {
                                    return Ok(Next::GiveUp);
                                }
                                s.pc = pc + 1;
                                let (taken, fall) = self.split(s, cond, valid.then_some(target));
                                if self.region.is_some() || self.guide.is_none() {
                                    return Ok(Next::Fork(taken, fall));
                                }
                                let witness_jumps = self.witness_value(cond) != U256::ZERO;
                                if self.limits.merge_steps > 0 && !self.given_up.contains(&pc) {
                                    return Ok(Next::Branch {
                                        taken,
                                        fall,
                                        witness_jumps,
                                        pc,
                                    });
                                }
                                self.stats.forks += 1;
                                return Ok(Next::Continue(if witness_jumps {
                                    taken
                                } else {
                                    fall
                                }));
                            }
                        }
                    }
                }
                opcode::KECCAK256 if self.call.hashes_as_variables => {
                    let len = self.concrete(args[1], pc, "hash length")?;
                    let off = self.touch(&mut s, args[0], len, pc)?;
                    let cells = s.memory[off..off + len].to_vec();
                    push = Some(match self.concrete_bytes(&cells) {
                        // A concrete input: its real hash.
                        Some(bytes) => {
                            let h = alloy_primitives::keccak256(&bytes);
                            self.terms.constant(U256::from_be_bytes(h.0))
                        }
                        None if self.region.is_some() => return Ok(Next::GiveUp),
                        None => self.hash_variable(&cells),
                    });
                }
                opcode::PC => push = Some(t.small(pc as u64)),
                opcode::MSIZE => push = Some(t.small(s.memory.len() as u64)),
                opcode::JUMPDEST => {}
                opcode::MCOPY => {
                    let len = self.concrete(args[2], pc, "copy length")?;
                    if len > 0 {
                        let src = self.touch(&mut s, args[1], len, pc)?;
                        let dest = self.touch(&mut s, args[0], len, pc)?;
                        let cells = s.memory[src..src + len].to_vec();
                        s.memory[dest..dest + len].copy_from_slice(&cells);
                    }
                }
                opcode::PUSH0 => push = Some(t.small(0)),
                opcode::PUSH1..=opcode::PUSH32 => {
                    let n = push_len(op);
                    let mut v = U256::ZERO;
                    for k in 0..n {
                        let b = self.code.get(pc + 1 + k).copied().unwrap_or(0);
                        v = (v << 8) | U256::from(b);
                    }
                    push = Some(t.constant(v));
                    next_pc = pc + 1 + n;
                }
                opcode::DUP1..=opcode::DUP16 => {
                    let n = usize::from(op - opcode::DUP1) + 1;
                    if s.stack.len() < n {
                        return Ok(self.halt(s));
                    }
                    push = Some(s.stack[s.stack.len() - n]);
                }
                opcode::SWAP1..=opcode::SWAP16 => {
                    let n = usize::from(op - opcode::SWAP1) + 1;
                    let len = s.stack.len();
                    if len < n + 1 {
                        return Ok(self.halt(s));
                    }
                    s.stack.swap(len - 1, len - 1 - n);
                }
                opcode::RETURN | opcode::REVERT => {
                    let len = self.concrete(args[1], pc, "return data size")?;
                    let off = self.touch(&mut s, args[0], len, pc)?;
                    let success = u64::from(op == opcode::RETURN);
                    return Ok(self.end(s, success, off, len));
                }
                opcode::INVALID => return Ok(self.halt(s)),
                // No instruction at Prague: revm halts, as on INVALID.
                op if undefined(op) => return Ok(self.halt(s)),
                _ => {
                    return Err(ExecError::Unsupported {
                        pc,
                        opcode: op,
                        why: unsupported_reason(op),
                    });
                }
            }
            if let Some(v) = push {
                if s.stack.len() >= 1024 {
                    return Ok(self.halt(s));
                }
                s.stack.push(v);
            }
            s.pc = next_pc;
            if matches!(op, opcode::JUMP | opcode::JUMPI) {
                return Ok(Next::Continue(s));
            }
        }
    }

    /// The bytes of `cells` when every one is a constant.
    fn concrete_bytes(&self, cells: &[Cell]) -> Option<Vec<u8>> {
        cells
            .iter()
            .map(|c| {
                self.terms
                    .as_const(c.term)
                    .map(|v| v.to_be_bytes::<32>()[usize::from(c.byte)])
            })
            .collect()
    }

    /// The witness value of `t` in a guided run.
    fn witness_value(&mut self, t: TermId) -> U256 {
        let guide = self.guide.as_mut().expect("a guided run");
        self.terms.eval_memo(t, &guide.values, &mut guide.memo)
    }

    /// The variable standing for KECCAK256 of `cells`: one per distinct input,
    /// named after a digest of the input's terms; in a guided run its value is
    /// the real hash of the input's witness value.
    fn hash_variable(&mut self, cells: &[Cell]) -> TermId {
        let v = self.terms.var_shared(&hash_variable_name(cells));
        if self.guide.is_some() {
            let bytes: Vec<u8> = cells
                .iter()
                .map(|c| {
                    let w = self.witness_value(c.term).to_be_bytes::<32>();
                    w[usize::from(c.byte)]
                })
                .collect();
            let hash = U256::from_be_bytes(alloy_primitives::keccak256(&bytes).0);
            let crate::term::Node::Var(n) = self.terms.node(v) else {
                unreachable!("var_shared gives a variable")
            };
            let guide = self.guide.as_mut().expect("a guided run");
            let n = n as usize;
            if guide.values.len() <= n {
                guide.values.resize(n + 1, U256::ZERO);
                guide.values[n] = hash;
            } else if !self.call.hashes_from_witness {
                guide.values[n] = hash;
            }
        }
        v
    }

    /// The two sides of a JUMPI on the input-dependent `cond` from `s` (its
    /// pc already past the JUMPI): the state that jumps to `target` (or
    /// halts, for a target that is not a JUMPDEST) and the state that falls
    /// through, each with its condition added to the guard. On the side
    /// where the tested word is 0 it is the constant 0 (so that a
    /// shifted-out seed is seen to be 0 after paths merge).
    fn split(&mut self, mut s: State, cond: TermId, target: Option<usize>) -> (State, State) {
        let yes = self.terms.to_bool(cond);
        let no = self.terms.is_zero(cond);
        let mut taken = s.clone();
        taken.guard = self.terms.and_bool(s.guard, yes);
        s.guard = self.terms.and_bool(s.guard, no);
        // A taken jump to a non-JUMPDEST halts when that state is next run.
        taken.pc = target.unwrap_or(BAD_JUMP);
        let (zero_word, zero_branch) = self.zero_side(cond);
        let z = self.zero_term();
        let branch = if zero_branch { &mut taken } else { &mut s };
        for slot in branch.stack.iter_mut() {
            if *slot == zero_word {
                *slot = z;
            }
        }
        (taken, s)
    }

    /// For a JUMPI condition, the word that is 0 on one branch and whether
    /// that branch is the taken one: `iszero(x)` jumps when x = 0,
    /// `iszero(iszero(x))` and `x` itself fall through when x = 0.
    fn zero_side(&self, cond: TermId) -> (TermId, bool) {
        use crate::term::Node;
        match self.terms.node(cond) {
            Node::IsZero(x) => match self.terms.node(x) {
                Node::IsZero(y) => (y, false),
                _ => (x, true),
            },
            _ => (cond, false),
        }
    }

    fn calldata_byte(&self, i: usize) -> Cell {
        self.call.calldata.get(i).copied().unwrap_or(Cell {
            term: self.zero_term(),
            byte: 31,
        })
    }

    /// An exceptional halt: the call fails with no data.
    fn halt(&mut self, s: State) -> Next {
        self.end(s, 0, 0, 0)
    }

    fn end(&mut self, s: State, success: u64, off: usize, len: usize) -> Next {
        let zero = Cell {
            term: self.zero_term(),
            byte: 31,
        };
        let words = (0..len.div_ceil(32))
            .map(|w| {
                let cells: Vec<Cell> = (0..32)
                    .map(|k| {
                        let i = 32 * w + k;
                        if i < len { s.memory[off + i] } else { zero }
                    })
                    .collect();
                self.gather(&cells)
            })
            .collect();
        let outcome = Outcome {
            success: self.terms.small(success),
            len: self.terms.small(len as u64),
            words,
        };
        Next::End(s.guard, outcome)
    }
}

/// (stack items consumed, produced) of the modeled opcodes; DUP and SWAP
/// check their own depth.
fn stack_io(op: u8) -> (usize, usize) {
    match op {
        opcode::ADD..=opcode::SMOD
        | opcode::EXP
        | opcode::SIGNEXTEND
        | opcode::LT..=opcode::EQ
        | opcode::AND..=opcode::XOR
        | opcode::BYTE..=opcode::SAR
        | opcode::KECCAK256 => (2, 1),
        opcode::ADDMOD | opcode::MULMOD => (3, 1),
        opcode::ISZERO | opcode::NOT | opcode::CALLDATALOAD | opcode::MLOAD => (1, 1),
        opcode::CALLDATACOPY | opcode::CODECOPY | opcode::MCOPY => (3, 0),
        opcode::POP | opcode::JUMP => (1, 0),
        opcode::MSTORE | opcode::MSTORE8 | opcode::JUMPI | opcode::RETURN | opcode::REVERT => {
            (2, 0)
        }
        _ => (0, 0),
    }
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

fn unsupported_reason(op: u8) -> &'static str {
    match op {
        opcode::KECCAK256 => "KECCAK256 is not modeled",
        opcode::ADDRESS..=opcode::CALLER
        | opcode::GASPRICE..=opcode::EXTCODECOPY
        | opcode::EXTCODEHASH..=opcode::BLOBBASEFEE => {
            "environment and block values are not modeled"
        }
        opcode::RETURNDATACOPY => "RETURNDATACOPY is not modeled",
        opcode::SLOAD | opcode::SSTORE | opcode::TLOAD | opcode::TSTORE => "storage is not modeled",
        opcode::GAS => "GAS is not modeled (the result would depend on the gas supplied)",
        opcode::LOG0..=opcode::LOG4 => "logs are not modeled",
        opcode::CREATE..=opcode::SELFDESTRUCT => "calls, creates and self-destruct are not modeled",
        _ => "undefined opcode",
    }
}

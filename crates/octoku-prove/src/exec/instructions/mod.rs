//! The instructions, one module per opcode family as in revm's interpreter,
//! one small function per opcode (or per group of opcodes that differ only
//! in an operand), dispatched through [`TABLE`] by [`Exec::block`].
//!
//! An instruction gets the state (its pc already on the next instruction)
//! and its operands, popped in stack order; it changes the state and says
//! with a [`Step`] what happens next. The loop in [`Exec::block`] does what
//! every instruction shares: the step bounds, the stack depth check, the
//! pops, the push (and its 1024-entry bound) and the end of the block.

mod arithmetic;
mod bitwise;
mod comparison;
mod control;
mod memory;
mod stack;
mod system;

use revm::bytecode::opcode;

use super::{BAD_JUMP, Exec, ExecError, Next, State};
use crate::term::{Bin, TermId};

/// The instruction being run: its program counter, its opcode and the
/// operands it popped (top of the stack first; unused ones are 0).
pub(super) struct Inst {
    pc: usize,
    op: u8,
    args: [TermId; 3],
}

/// What an instruction leaves for the loop to do.
enum Step {
    /// Go on with the next instruction.
    Next,
    /// Push the word, then go on.
    Push(TermId),
    /// The block ends (a jump taken or not); the state goes on at its pc.
    EndBlock,
    /// An exceptional halt: the call fails with no data.
    Halt,
    /// The call ends (STOP, RETURN, REVERT) with memory `off..off+len`.
    Return {
        success: u64,
        off: usize,
        len: usize,
    },
    /// A JUMPI on the input-dependent `cond`, to `target` when it is a
    /// JUMPDEST (see [`Exec::branch`]).
    Branch { cond: TermId, target: Option<usize> },
    /// Inside a region, a side that cannot be rejoined (see [`Next::GiveUp`]).
    GiveUp,
}

type Run = fn(&mut Exec<'_>, &mut State, &Inst) -> Result<Step, ExecError>;

/// An opcode's entry in [`TABLE`]: the stack items it pops before it runs
/// (DUP and SWAP check their own depth) and its function.
#[derive(Clone, Copy)]
struct Instruction {
    pops: usize,
    run: Run,
}

/// Every opcode's [`Instruction`]; opcodes the executor does not model
/// refuse with [`ExecError::Unsupported`].
static TABLE: [Instruction; 256] = table();

const fn table() -> [Instruction; 256] {
    use arithmetic as a;
    use bitwise as b;
    use comparison as c;
    use control as f;
    use memory as m;
    use stack as s;
    use system as e;
    let mut t = [Instruction {
        pops: 0,
        run: unsupported,
    }; 256];
    let table = &mut t;
    // Arithmetic.
    set(table, opcode::ADD, 2, a::add);
    set(table, opcode::MUL, 2, a::mul);
    set(table, opcode::SUB, 2, a::sub);
    set(table, opcode::DIV, 2, a::div);
    set(table, opcode::SDIV, 2, a::sdiv);
    set(table, opcode::MOD, 2, a::rem);
    set(table, opcode::SMOD, 2, a::smod);
    set(table, opcode::ADDMOD, 3, a::addmod_mulmod);
    set(table, opcode::MULMOD, 3, a::addmod_mulmod);
    set(table, opcode::EXP, 2, a::exp);
    set(table, opcode::SIGNEXTEND, 2, a::signextend);
    // Comparison.
    set(table, opcode::LT, 2, c::lt);
    set(table, opcode::GT, 2, c::gt);
    set(table, opcode::SLT, 2, c::slt);
    set(table, opcode::SGT, 2, c::sgt);
    set(table, opcode::EQ, 2, c::eq);
    set(table, opcode::ISZERO, 1, c::iszero);
    // Bitwise.
    set(table, opcode::AND, 2, b::and);
    set(table, opcode::OR, 2, b::or);
    set(table, opcode::XOR, 2, b::xor);
    set(table, opcode::NOT, 1, b::not);
    set(table, opcode::BYTE, 2, b::byte);
    set(table, opcode::SHL, 2, b::shl);
    set(table, opcode::SHR, 2, b::shr);
    set(table, opcode::SAR, 2, b::sar);
    // System and environment.
    set(table, opcode::KECCAK256, 2, e::keccak256);
    set(table, opcode::CALLVALUE, 0, e::callvalue);
    set(table, opcode::CALLDATALOAD, 1, e::calldataload);
    set(table, opcode::CALLDATASIZE, 0, e::calldatasize);
    set(table, opcode::CALLDATACOPY, 3, e::calldatacopy);
    set(table, opcode::CODESIZE, 0, e::codesize);
    set(table, opcode::CODECOPY, 3, e::codecopy);
    set(table, opcode::RETURNDATASIZE, 0, e::returndatasize);
    // Memory.
    set(table, opcode::MLOAD, 1, m::mload);
    set(table, opcode::MSTORE, 2, m::mstore);
    set(table, opcode::MSTORE8, 2, m::mstore8);
    set(table, opcode::MSIZE, 0, m::msize);
    set(table, opcode::MCOPY, 3, m::mcopy);
    // Control.
    set(table, opcode::STOP, 0, f::stop);
    set(table, opcode::JUMP, 1, f::jump);
    set(table, opcode::JUMPI, 2, f::jumpi);
    set(table, opcode::PC, 0, f::pc);
    set(table, opcode::JUMPDEST, 0, f::jumpdest);
    set(table, opcode::RETURN, 2, f::ret);
    set(table, opcode::REVERT, 2, f::revert);
    set(table, opcode::INVALID, 0, f::invalid);
    // Stack.
    set(table, opcode::POP, 1, s::pop);
    set(table, opcode::PUSH0, 0, s::push0);
    let mut op = opcode::PUSH1;
    while op <= opcode::PUSH32 {
        set(table, op, 0, s::push);
        op += 1;
    }
    let mut op = opcode::DUP1;
    while op <= opcode::DUP16 {
        set(table, op, 0, s::dup);
        op += 1;
    }
    let mut op = opcode::SWAP1;
    while op <= opcode::SWAP16 {
        set(table, op, 0, s::swap);
        op += 1;
    }
    t
}

const fn set(table: &mut [Instruction; 256], op: u8, pops: usize, run: Run) {
    table[op as usize] = Instruction { pops, run };
}

/// An opcode the executor has no semantics for; a byte that is no
/// instruction at Prague halts, as revm halts on it (as on INVALID).
fn unsupported(_: &mut Exec<'_>, _: &mut State, i: &Inst) -> Result<Step, ExecError> {
    if super::undefined(i.op) {
        return Ok(Step::Halt);
    }
    Err(i.unsupported(unsupported_reason(i.op)))
}

impl Inst {
    /// The refusal of this instruction, for the reason `why`.
    fn unsupported(&self, why: &'static str) -> ExecError {
        ExecError::Unsupported {
            pc: self.pc,
            opcode: self.op,
            why,
        }
    }
}

/// Why an opcode without semantics here is not modeled.
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

/// The word `a <op> b`, pushed.
fn push_bin(ex: &mut Exec<'_>, op: Bin, a: TermId, b: TermId) -> Result<Step, ExecError> {
    Ok(Step::Push(ex.terms.bin(op, a, b)))
}

impl Exec<'_> {
    /// Executes from `s.pc` until a jump, a fork, an end, or the next JUMPDEST.
    pub(super) fn block(&mut self, mut s: State) -> Result<Next, ExecError> {
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
            let instruction = TABLE[usize::from(op)];
            if s.stack.len() < instruction.pops {
                return Ok(self.halt(s));
            }
            let mut args = [self.zero_term(); 3];
            for a in args.iter_mut().take(instruction.pops) {
                *a = s.stack.pop().expect("checked depth");
            }
            s.pc = pc + 1;
            match (instruction.run)(self, &mut s, &Inst { pc, op, args })? {
                Step::Next => {}
                Step::Push(v) => {
                    if s.stack.len() >= 1024 {
                        return Ok(self.halt(s));
                    }
                    s.stack.push(v);
                }
                Step::EndBlock => return Ok(Next::Continue(s)),
                Step::Halt => return Ok(self.halt(s)),
                Step::Return { success, off, len } => return Ok(self.end(s, success, off, len)),
                Step::Branch { cond, target } => return Ok(self.branch(s, pc, cond, target)),
                Step::GiveUp => return Ok(Next::GiveUp),
            }
        }
    }
}

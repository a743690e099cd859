//! The gas meter: a revm inspector that records the gas the outermost call
//! frame spent and, when profiling, every instruction it executed.

use revm::{
    Inspector,
    interpreter::{CallInputs, CallOutcome, Interpreter, interpreter_types::Jumps},
};

/// One executed instruction of the outermost frame, for profiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Program counter in the runtime code.
    pub pc: usize,
    /// The opcode byte.
    pub opcode: u8,
    /// Gas the instruction cost (memory expansion included).
    pub gas: u64,
}

/// Records the gas spent by the outermost call frame of a transaction, and,
/// when profiling, every instruction that frame executed.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    depth: usize,
    /// Execution gas of the last transaction's outermost frame.
    pub(crate) spent: u64,
    /// Whether to record [`Step`]s.
    pub(crate) profiling: bool,
    /// The recorded steps.
    pub(crate) steps: Vec<Step>,
    before: u64,
}

impl<CTX> Inspector<CTX> for Meter {
    fn step(&mut self, interp: &mut Interpreter, _context: &mut CTX) {
        if self.profiling && self.depth == 1 {
            self.before = interp.gas.remaining();
            self.steps.push(Step {
                pc: interp.bytecode.pc(),
                opcode: interp.bytecode.opcode(),
                gas: 0,
            });
        }
    }

    fn step_end(&mut self, interp: &mut Interpreter, _context: &mut CTX) {
        if self.profiling && self.depth == 1 {
            if let Some(last) = self.steps.last_mut() {
                last.gas = self.before.saturating_sub(interp.gas.remaining());
            }
        }
    }

    fn call(&mut self, _context: &mut CTX, _inputs: &mut CallInputs) -> Option<CallOutcome> {
        self.depth += 1;
        None
    }

    fn call_end(&mut self, _context: &mut CTX, _inputs: &CallInputs, outcome: &mut CallOutcome) {
        self.depth -= 1;
        if self.depth == 0 {
            self.spent = outcome.result.gas.total_gas_spent();
        }
    }
}

//! An in-memory EVM (revm) holding the deployed puzzle contracts.

use std::fmt;

use alloy_primitives::{Address, Bytes, TxKind, U256};
use alloy_sol_types::SolCall;
use octoku_core::Board;
use revm::{
    Context, ExecuteCommitEvm, InspectEvm, Inspector, MainBuilder, MainContext,
    context::{
        TxEnv,
        result::{ExecutionResult, Output},
    },
    database::InMemoryDB,
    handler::MainnetEvm,
    interpreter::{CallInputs, CallOutcome, Interpreter, interpreter_types::Jumps},
    primitives::hardfork::SpecId,
    state::AccountInfo,
};

use crate::{
    artifacts::{self, Artifact},
    bindings::{IFairHarness, IGolfHarness, IPuzzle, IReferenceHarness},
};

/// The hardfork the contracts are compiled for (solc `evmVersion`) and run on.
pub const SPEC: SpecId = SpecId::PRAGUE;

/// The account that deploys and calls, funded in the in-memory state.
pub const CALLER: Address = Address::new([0x0c; 20]);

/// Gas limit of every transaction the machine sends.
const GAS_LIMIT: u64 = 30_000_000;

/// Which implementation of `IPuzzle` to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Puzzle {
    /// The seed's algorithm, output-identical to the published Curta puzzle #1.
    Reference,
    /// The same outputs on every input at a fraction of the gas (contracts/Golf.sol).
    Golf,
    /// Every board solvable by construction: the published cells, the digits
    /// of a hidden random valid grid (contracts/Fair.sol).
    Fair,
}

impl Puzzle {
    /// Every implementation, in the order reports list them.
    pub const ALL: [Puzzle; 3] = [Puzzle::Reference, Puzzle::Golf, Puzzle::Fair];

    /// The compiled contract behind this implementation.
    pub const fn artifact(self) -> Artifact {
        match self {
            Puzzle::Reference => artifacts::REFERENCE,
            Puzzle::Golf => artifacts::GOLF,
            Puzzle::Fair => artifacts::FAIR,
        }
    }

    /// The Rust mirror of this implementation's `generate`.
    pub fn mirror_generate(self, address: &Address) -> Board {
        match self {
            Puzzle::Reference | Puzzle::Golf => octoku_core::generate(address),
            Puzzle::Fair => octoku_core::fair::fair_generate(address),
        }
    }

    /// The test-only contract that runs this implementation's own generate
    /// code on a raw seed word (contracts/harness/).
    pub const fn harness_artifact(self) -> Artifact {
        match self {
            Puzzle::Reference => artifacts::REFERENCE_HARNESS,
            Puzzle::Golf => artifacts::GOLF_HARNESS,
            Puzzle::Fair => artifacts::FAIR_HARNESS,
        }
    }

    /// This implementation's position in [`Puzzle::ALL`].
    const fn index(self) -> usize {
        match self {
            Puzzle::Reference => 0,
            Puzzle::Golf => 1,
            Puzzle::Fair => 2,
        }
    }

    /// The Rust mirror of this implementation's fill loop on a raw seed word
    /// (golf's is the published one: same outputs on every seed).
    pub fn mirror_fill(self, seed: U256) -> Board {
        match self {
            Puzzle::Reference | Puzzle::Golf => octoku_core::generate_from_seed(seed),
            Puzzle::Fair => octoku_core::fair::fair_generate_from_seed(seed),
        }
    }

    /// The Rust mirror of this implementation's `verify` (one rule for all).
    pub fn mirror_verify(self, start: Board, solution: Board) -> bool {
        octoku_core::verify(start, solution)
    }

    /// The name used on the command line and in reports.
    pub const fn label(self) -> &'static str {
        match self {
            Puzzle::Reference => "reference",
            Puzzle::Golf => "golf",
            Puzzle::Fair => "fair",
        }
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A call's decoded result and the execution gas it spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call<T> {
    /// The decoded return value.
    pub value: T,
    /// Execution gas of the call frame (no intrinsic or calldata cost).
    pub gas: u64,
}

impl<T> Call<T> {
    /// The same call with its value converted.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Call<U> {
        Call {
            value: f(self.value),
            gas: self.gas,
        }
    }
}

/// Why a call into the EVM did not give a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvmError {
    /// The contract reverted, with this revert data.
    Reverted(Bytes),
    /// Execution halted (out of gas, invalid opcode, ...).
    Halted(String),
    /// The return data did not decode as the function's return type.
    Decode(String),
    /// revm refused the transaction itself (a bug in this crate if seen).
    Transaction(String),
}

impl fmt::Display for EvmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvmError::Reverted(data) if data.is_empty() => {
                write!(f, "the contract reverted without data")
            }
            EvmError::Reverted(data) => write!(f, "the contract reverted with 0x{}", hex(data)),
            EvmError::Halted(reason) => write!(f, "execution halted: {reason}"),
            EvmError::Decode(e) => write!(f, "could not decode the contract's return data: {e}"),
            EvmError::Transaction(e) => {
                write!(f, "the in-memory EVM rejected the transaction: {e}")
            }
        }
    }
}

impl std::error::Error for EvmError {}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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
struct Meter {
    depth: usize,
    spent: u64,
    profiling: bool,
    steps: Vec<Step>,
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

type Evm = MainnetEvm<revm::handler::MainnetContext<InMemoryDB>, Meter>;

/// The outcome of a raw call: success flag, return or revert data, gas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawOutcome {
    /// Whether the call returned (as opposed to reverting or halting).
    pub success: bool,
    /// Return data, or revert data when `success` is false.
    pub output: Bytes,
    /// Execution gas of the call frame.
    pub gas: u64,
}

/// An in-memory chain with every puzzle implementation and the raw-seed
/// harnesses (each puzzle's fill code on a raw seed word) deployed.
pub struct Machine {
    evm: Evm,
    nonce: u64,
    /// Every implementation, at [`Puzzle::index`].
    deployed: [Deployed; 3],
}

/// One implementation on the machine's chain.
#[derive(Debug, Clone, Copy, Default)]
struct Deployed {
    /// The puzzle contract.
    address: Address,
    /// Total gas of the transaction that deployed it.
    gas: u64,
    /// Its raw-seed harness (contracts/harness/).
    harness: Address,
}

impl fmt::Debug for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Machine")
            .field("deployed", &self.deployed)
            .finish()
    }
}

impl Machine {
    /// A fresh in-memory chain on [`SPEC`] with all contracts deployed.
    pub fn new() -> Result<Machine, EvmError> {
        let mut db = InMemoryDB::default();
        db.insert_account_info(
            CALLER,
            AccountInfo {
                balance: U256::from(10u128.pow(24)),
                ..Default::default()
            },
        );
        let evm = Context::mainnet()
            .with_db(db)
            .modify_cfg_chained(|cfg| {
                cfg.spec = SPEC;
                cfg.tx_gas_limit_cap = Some(u64::MAX);
            })
            .build_mainnet_with_inspector(Meter::default());
        let mut machine = Machine {
            evm,
            nonce: 0,
            deployed: [Deployed::default(); 3],
        };
        for puzzle in Puzzle::ALL {
            let (address, gas) = machine.deploy(puzzle.artifact().initcode)?;
            let slot = &mut machine.deployed[puzzle.index()];
            (slot.address, slot.gas) = (address, gas);
        }
        for puzzle in Puzzle::ALL {
            machine.deployed[puzzle.index()].harness =
                machine.deploy(puzzle.harness_artifact().initcode)?.0;
        }
        Ok(machine)
    }

    /// Deploys `initcode`; returns the new address and the transaction's total gas used.
    pub fn deploy(&mut self, initcode: &[u8]) -> Result<(Address, u64), EvmError> {
        let tx = self.tx(TxKind::Create, Bytes::copy_from_slice(initcode));
        let result = self
            .evm
            .transact_commit(tx)
            .map_err(|e| EvmError::Transaction(e.to_string()))?;
        self.nonce += 1;
        match result {
            ExecutionResult::Success {
                output: Output::Create(_, Some(address)),
                gas,
                ..
            } => Ok((address, gas.tx_gas_used())),
            ExecutionResult::Success { .. } => {
                Err(EvmError::Halted("create returned no address".into()))
            }
            ExecutionResult::Revert { output, .. } => Err(EvmError::Reverted(output)),
            ExecutionResult::Halt { reason, .. } => Err(EvmError::Halted(format!("{reason:?}"))),
        }
    }

    /// The address `puzzle` is deployed at.
    pub fn address_of(&self, puzzle: Puzzle) -> Address {
        self.deployed[puzzle.index()].address
    }

    /// Total gas used by the transaction that deployed `puzzle`.
    pub fn deploy_gas(&self, puzzle: Puzzle) -> u64 {
        self.deployed[puzzle.index()].gas
    }

    /// Calls `to` with `data` without changing state; returns data and frame gas.
    pub fn call_raw(&mut self, to: Address, data: Bytes) -> Result<RawOutcome, EvmError> {
        let tx = self.tx(TxKind::Call(to), data);
        self.evm.inspector.spent = 0;
        let result = self
            .evm
            .inspect_tx(tx)
            .map_err(|e| EvmError::Transaction(e.to_string()))?
            .result;
        let gas = self.evm.inspector.spent;
        match result {
            ExecutionResult::Success { output, .. } => Ok(RawOutcome {
                success: true,
                output: output.into_data(),
                gas,
            }),
            ExecutionResult::Revert { output, .. } => Ok(RawOutcome {
                success: false,
                output,
                gas,
            }),
            ExecutionResult::Halt { reason, .. } => Err(EvmError::Halted(format!("{reason:?}"))),
        }
    }

    /// Like [`Machine::call_raw`], also returning every instruction the called
    /// frame executed with its gas.
    pub fn profile_raw(
        &mut self,
        to: Address,
        data: Bytes,
    ) -> Result<(RawOutcome, Vec<Step>), EvmError> {
        self.evm.inspector.profiling = true;
        self.evm.inspector.steps.clear();
        let outcome = self.call_raw(to, data);
        self.evm.inspector.profiling = false;
        let steps = std::mem::take(&mut self.evm.inspector.steps);
        Ok((outcome?, steps))
    }

    fn call<C: SolCall>(&mut self, to: Address, call: &C) -> Result<Call<C::Return>, EvmError> {
        let outcome = self.call_raw(to, Bytes::from(call.abi_encode()))?;
        if !outcome.success {
            return Err(EvmError::Reverted(outcome.output));
        }
        let value =
            C::abi_decode_returns(&outcome.output).map_err(|e| EvmError::Decode(e.to_string()))?;
        Ok(Call {
            value,
            gas: outcome.gas,
        })
    }

    /// `puzzle.name()`.
    pub fn name(&mut self, puzzle: Puzzle) -> Result<Call<String>, EvmError> {
        self.call(self.address_of(puzzle), &IPuzzle::nameCall {})
    }

    /// `puzzle.generate(address)`: the board that address gets.
    pub fn generate(&mut self, puzzle: Puzzle, address: &Address) -> Result<Call<Board>, EvmError> {
        let call = IPuzzle::generateCall { seed: *address };
        Ok(self
            .call(self.address_of(puzzle), &call)?
            .map(Board::from_u256))
    }

    /// `puzzle.verify(start, solution)`.
    pub fn verify(
        &mut self,
        puzzle: Puzzle,
        start: Board,
        solution: Board,
    ) -> Result<Call<bool>, EvmError> {
        let call = IPuzzle::verifyCall {
            start: start.to_u256(),
            solution: solution.to_u256(),
        };
        self.call(self.address_of(puzzle), &call)
    }

    /// `puzzle`'s own fill code on a raw seed word, through its raw-seed
    /// harness (contracts/harness/): what `generate` returns for an address
    /// hashing to `seed`, including seeds no keccak256 output is known to give.
    pub fn fill(&mut self, puzzle: Puzzle, seed: U256) -> Result<Call<Board>, EvmError> {
        let harness = self.deployed[puzzle.index()].harness;
        let out = match puzzle {
            Puzzle::Reference => {
                self.call(harness, &IReferenceHarness::generateFromSeedCall { seed })?
            }
            Puzzle::Golf => self.call(harness, &IGolfHarness::fillCall { seed })?,
            Puzzle::Fair => self.call(harness, &IFairHarness::fairFromSeedCall { seed })?,
        };
        Ok(out.map(Board::from_u256))
    }

    fn tx(&self, kind: TxKind, data: Bytes) -> TxEnv {
        TxEnv {
            caller: CALLER,
            kind,
            data,
            nonce: self.nonce,
            gas_limit: GAS_LIMIT,
            gas_price: 0,
            ..Default::default()
        }
    }
}

//! Calls on a cleared frame: the machine's call path for code that only
//! computes (the puzzles, their harnesses, the 9×9 validators, an author's
//! pure contract).
//!
//! A transaction in revm validates the transaction, loads and warms the
//! caller and the target, opens a journal, builds a frame, runs it and then
//! settles gas and state. For a call that never leaves its own frame all of
//! that is the same every time, so it is done once per machine here: the
//! contract's analysed code is looked up once, and every call clears one
//! kept interpreter (its stack and memory buffer reused) and runs the frame
//! with revm's own instruction and gas tables, the gas limit the
//! transaction would give the frame, and the transaction's caller, calldata
//! and value.
//!
//! The frame's gas limit is what revm's handler leaves the frame after the
//! transaction's intrinsic cost. That cost depends on the calldata only
//! through its length and its number of zero bytes (EIP-2028's tokens and
//! EIP-7623's floor), so revm computes it once per such shape and machine,
//! not once per call: the implementations of a fuzz case share their
//! calldata, and most cases share a shape with an earlier one.
//!
//! The frame's host answers only the gas constants. Any instruction that
//! would read or change state, read the block or the transaction, log,
//! call or create asks the host for something else; the host then refuses
//! (the frame halts at once) or notes it, and the call is run again as a
//! whole transaction. So a call's success, return or revert bytes, halt
//! reason and frame gas are the transaction's on every input; the tests in
//! `tests/frames.rs` compare both paths case by case.

use std::{cell::Cell, cell::RefCell, rc::Rc};

use alloy_primitives::{Address, B256, Log, U256, map::HashMap};
use revm::{
    DatabaseRef,
    bytecode::Bytecode,
    context::{CfgEnv, TxEnv, result::HaltReason},
    context_interface::{
        Cfg, Host,
        cfg::GasParams,
        context::{SStoreResult, SelfDestructResult, StateLoad},
        host::LoadError,
        journaled_state::AccountInfoLoad,
    },
    database::InMemoryDB,
    handler::validation::validate_initial_tx_gas_with_gas_params,
    interpreter::{
        CallInput, GasTable, InputsImpl, InstructionResult, InstructionTable, Interpreter,
        InterpreterAction, SharedMemory, SuccessOrHalt, interpreter::EthInterpreter,
        interpreter::ExtBytecode,
    },
    primitives::{StorageKey, StorageValue},
};

use crate::machine::{CALLER, EvmError, GAS_LIMIT, RawOutcome, SPEC};

/// revm's instructions, run against [`PureHost`].
const TABLE: InstructionTable<EthInterpreter, PureHost> = revm::interpreter::instruction_table();

/// The frame every fast call of one machine runs in, and the code it found.
pub(crate) struct Frames {
    /// Cleared before each call; its stack keeps its allocation.
    interpreter: Interpreter<EthInterpreter>,
    /// The frame's memory buffer, emptied before each call.
    memory: Rc<RefCell<Vec<u8>>>,
    host: PureHost,
    /// Static gas of each opcode: the machine's EVM's own table.
    gas_table: GasTable,
    /// Code of every address called so far: `None` when it does not run here
    /// (no code, not legacy bytecode, a precompile's address).
    codes: Vec<(Address, Option<Bytecode>)>,
    /// The frame's gas limit and reservoir for each calldata shape seen.
    frame_gas: HashMap<Shape, (u64, u64)>,
    /// How many times revm's intrinsic gas validation ran on this frame.
    intrinsic_runs: u64,
}

/// What a call transaction's intrinsic gas depends on when it has no access
/// list and no authorizations (the machine's calls): its type, calldata
/// length and zero bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    tx_type: u8,
    len: usize,
    zeros: usize,
}

/// The most shapes kept; past it the table starts again (a long run of
/// calldata of ever new lengths keeps bounded memory).
const SHAPES_KEPT: usize = 1 << 14;

/// The zero bytes of `data`, counted in lanes of bytes (which vectorise).
fn zero_bytes(data: &[u8]) -> usize {
    data.chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &b| n + u8::from(b == 0))))
        .sum()
}

/// How a call on the cleared frame ended.
pub(crate) enum Ran {
    /// The frame returned, reverted or halted without leaving itself.
    Done(Result<RawOutcome, EvmError>),
    /// It needs what only a transaction has (state, the block, a sub-call),
    /// or the code does not run here: run the call as a transaction.
    Transaction,
}

impl Frames {
    /// A frame for calls on an EVM configured by `cfg`, with its static gas table.
    pub(crate) fn new(cfg: &CfgEnv, gas_table: GasTable) -> Frames {
        Frames {
            interpreter: Interpreter::default(),
            memory: Rc::new(RefCell::new(Vec::with_capacity(4 * 1024))),
            host: PureHost {
                gas_params: cfg.gas_params().clone(),
                eip8037: cfg.is_amsterdam_eip8037_enabled(),
                touched: Cell::new(false),
            },
            gas_table,
            codes: Vec::new(),
            frame_gas: HashMap::default(),
            intrinsic_runs: 0,
        }
    }

    /// How many times revm computed a call's intrinsic gas on this frame
    /// (once per calldata shape: what the per-case tests hold).
    pub(crate) fn intrinsic_runs(&self) -> u64 {
        self.intrinsic_runs
    }

    /// The gas limit and reservoir revm's handler gives the frame of `tx`
    /// (the transaction's gas after its intrinsic cost), or `None` when revm
    /// refuses the transaction. Computed by revm once per calldata shape.
    fn frame_gas(&mut self, cfg: &CfgEnv, tx: &TxEnv) -> Option<(u64, u64)> {
        let shape =
            (tx.access_list.is_empty() && tx.authorization_list.is_empty()).then(|| Shape {
                tx_type: tx.tx_type,
                len: tx.data.len(),
                zeros: zero_bytes(&tx.data),
            });
        if let Some(gas) = shape.and_then(|shape| self.frame_gas.get(&shape)) {
            return Some(*gas);
        }
        self.intrinsic_runs += 1;
        let initial = validate_initial_tx_gas_with_gas_params(
            tx,
            cfg.spec,
            cfg.gas_params(),
            cfg.is_eip7623_disabled(),
            cfg.is_amsterdam_eip8037_enabled(),
            cfg.tx_gas_limit_cap(),
            None,
        )
        .ok()?;
        let gas = initial.initial_gas_and_reservoir(tx.gas_limit, cfg.tx_gas_limit_cap());
        if let Some(shape) = shape {
            if self.frame_gas.len() >= SHAPES_KEPT {
                self.frame_gas.clear();
            }
            self.frame_gas.insert(shape, gas);
        }
        Some(gas)
    }

    /// Forgets the code found so far (after a deployment or an install).
    pub(crate) fn forget(&mut self) {
        self.codes.clear();
    }

    /// The code at `to` as `db` holds it, looked up once.
    fn code(&mut self, db: &InMemoryDB, to: Address) -> Option<Bytecode> {
        if let Some((_, code)) = self.codes.iter().find(|(a, _)| *a == to) {
            return code.clone();
        }
        let code = runnable_code(db, to);
        self.codes.push((to, code.clone()));
        code
    }

    /// Runs `tx` (a call from [`CALLER`]) on the cleared frame.
    pub(crate) fn run(&mut self, cfg: &CfgEnv, db: &InMemoryDB, tx: &TxEnv) -> Ran {
        let revm::primitives::TxKind::Call(to) = tx.kind else {
            return Ran::Transaction;
        };
        if tx.caller != CALLER || tx.gas_limit != GAS_LIMIT {
            return Ran::Transaction;
        }
        let Some(code) = self.code(db, to) else {
            return Ran::Transaction;
        };
        // The frame's gas: what the transaction has left after its intrinsic
        // cost, as revm's handler computes it.
        let Some((limit, reservoir)) = self.frame_gas(cfg, tx) else {
            return Ran::Transaction;
        };
        self.memory.borrow_mut().clear();
        let mut memory = SharedMemory::new_with_buffer(Rc::clone(&self.memory));
        memory.set_memory_limit(cfg.memory_limit());
        let input = InputsImpl {
            target_address: to,
            bytecode_address: Some(to),
            caller_address: tx.caller,
            input: CallInput::Bytes(tx.data.clone()),
            call_value: tx.value,
            depth: 0,
        };
        self.interpreter.clear(
            memory,
            ExtBytecode::new(code),
            input,
            false,
            SPEC,
            limit,
            reservoir,
        );
        self.host.touched.set(false);
        let action = self
            .interpreter
            .run_plain(&TABLE, &self.gas_table, &mut self.host);
        let InterpreterAction::Return(result) = action else {
            return Ran::Transaction;
        };
        if self.host.touched.get() {
            return Ran::Transaction;
        }
        let gas = result.gas.total_gas_spent();
        Ran::Done(match SuccessOrHalt::<HaltReason>::from(result.result) {
            SuccessOrHalt::Success(_) => Ok(RawOutcome {
                success: true,
                output: result.output,
                gas,
            }),
            SuccessOrHalt::Revert => Ok(RawOutcome {
                success: false,
                output: result.output,
                gas,
            }),
            SuccessOrHalt::Halt(reason)
                if result.result != InstructionResult::FatalExternalError =>
            {
                Err(EvmError::Halted(reason))
            }
            _ => return Ran::Transaction,
        })
    }
}

/// The code at `to` if it runs on the cleared frame: legacy bytecode, not
/// empty, not at a precompile's address (a transaction runs the precompile).
fn runnable_code(db: &InMemoryDB, to: Address) -> Option<Bytecode> {
    // Precompiles sit at small addresses (0x01.., 0x0100 for P256VERIFY).
    if to.0[..18].iter().all(|&b| b == 0) {
        return None;
    }
    let info = db.basic_ref(to).ok()??;
    let code = match info.code {
        Some(code) => code,
        None => db.code_by_hash_ref(info.code_hash).ok()?,
    };
    (code.is_legacy() && !code.is_empty()).then_some(code)
}

/// The host of a frame that only computes: it answers the gas constants;
/// every other question marks the call as one for a transaction, and a
/// question about accounts or storage also halts the frame at once.
struct PureHost {
    gas_params: GasParams,
    eip8037: bool,
    /// Set when the frame asked for anything but gas constants.
    touched: Cell<bool>,
}

impl PureHost {
    /// Notes a question only a transaction can answer; returns `value`.
    fn touch<T>(&self, value: T) -> T {
        self.touched.set(true);
        value
    }
}

impl Host for PureHost {
    fn basefee(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn blob_gasprice(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn gas_limit(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn difficulty(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn prevrandao(&self) -> Option<U256> {
        // Some word: revm unwraps it after the merge (None panicked); the
        // frame's answer is thrown away and the call run as a transaction.
        self.touch(Some(U256::ZERO))
    }
    fn block_number(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn timestamp(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn beneficiary(&self) -> Address {
        self.touch(Address::ZERO)
    }
    fn slot_num(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn chain_id(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn effective_gas_price(&self) -> U256 {
        self.touch(U256::ZERO)
    }
    fn caller(&self) -> Address {
        self.touch(Address::ZERO)
    }
    fn blob_hash(&self, _number: usize) -> Option<U256> {
        self.touch(None)
    }
    fn max_initcode_size(&self) -> usize {
        self.touch(0)
    }
    fn gas_params(&self) -> &GasParams {
        &self.gas_params
    }
    fn is_amsterdam_eip8037_enabled(&self) -> bool {
        self.eip8037
    }
    fn block_hash(&mut self, _number: u64) -> Option<B256> {
        self.touch(None)
    }
    fn selfdestruct(
        &mut self,
        _address: Address,
        _target: Address,
        _skip_cold_load: bool,
    ) -> Result<StateLoad<SelfDestructResult>, LoadError> {
        self.touch(Err(LoadError::DBError))
    }
    fn log(&mut self, _log: Log) {
        self.touch(())
    }
    fn sstore_skip_cold_load(
        &mut self,
        _address: Address,
        _key: StorageKey,
        _value: StorageValue,
        _skip_cold_load: bool,
    ) -> Result<StateLoad<SStoreResult>, LoadError> {
        self.touch(Err(LoadError::DBError))
    }
    fn sload_skip_cold_load(
        &mut self,
        _address: Address,
        _key: StorageKey,
        _skip_cold_load: bool,
    ) -> Result<StateLoad<StorageValue>, LoadError> {
        self.touch(Err(LoadError::DBError))
    }
    fn tstore(&mut self, _address: Address, _key: StorageKey, _value: StorageValue) {
        self.touch(())
    }
    fn tload(&mut self, _address: Address, _key: StorageKey) -> StorageValue {
        self.touch(StorageValue::ZERO)
    }
    fn load_account_info_skip_cold_load(
        &mut self,
        _address: Address,
        _load_code: bool,
        _skip_cold_load: bool,
    ) -> Result<AccountInfoLoad<'_>, LoadError> {
        self.touch(Err(LoadError::DBError))
    }
}

//! An in-memory EVM (revm) holding the deployed puzzle contracts, and the
//! one reading of revm's execution results ([`settle`]) that it and the
//! embedded chain share.

use std::{
    fmt,
    sync::atomic::{AtomicU64, Ordering},
};

use alloy_primitives::{Address, Bytes, Log, TxKind, U256};
use alloy_sol_types::SolCall;
use octoku_core::Board;
use revm::{
    Context, ExecuteCommitEvm, InspectEvm, MainBuilder, MainContext,
    context::{
        TxEnv,
        result::{ExecutionResult, Output},
    },
    database::InMemoryDB,
    handler::MainnetEvm,
    primitives::hardfork::SpecId,
    state::AccountInfo,
};

use crate::{
    bindings::{IFairHarness, IGolfHarness, IPuzzle, IReferenceHarness},
    frame::{Frames, Ran},
    meter::{Meter, Step},
    puzzle::Puzzle,
    target::Target,
};
use revm::DatabaseRef;

/// The hardfork the contracts are compiled for (solc `evmVersion`) and run on.
pub const SPEC: SpecId = SpecId::PRAGUE;

/// The account that deploys and calls, funded in the in-memory state.
pub const CALLER: Address = Address::new([0x0c; 20]);

/// The code size [`Machine::allow_oversized_code`] allows (gas stops a
/// deployment long before it).
const OVERSIZED_CODE: usize = 1 << 24;

/// Gas limit of every transaction the machine and the embedded chain send
/// (and of an embedded block).
pub const GAS_LIMIT: u64 = 30_000_000;

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

/// Why a call into the EVM did not give a value. Every variant keeps what
/// revm or the ABI decoder said, typed: [`std::error::Error::source`] gives
/// the decoder's or revm's own error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EvmError {
    /// The contract reverted, with this revert data.
    #[error("{}", reverted(.0))]
    Reverted(Bytes),
    /// Execution halted (out of gas, invalid opcode, ...): revm's reason.
    #[error("execution halted: {0:?}")]
    Halted(HaltReason),
    /// The contract's return or revert data did not decode as its ABI
    /// says (the decoder's words, which may quote the data, cut to one
    /// line of [`crate::limits::NODE_TEXT`] characters when shown).
    #[error(
        "could not decode the contract's {what}: {}",
        crate::limits::one_line(&source.to_string(), crate::limits::NODE_TEXT)
    )]
    Decode {
        /// What did not decode: `return data`, `revert data`.
        what: &'static str,
        /// The ABI decoder's error.
        source: alloy_sol_types::Error,
    },
    /// A 9×9 validator reverted `GridLength(length)` with a length past 64
    /// bits (no calldata is that long).
    #[error("the contract reverted GridLength({0}), a length past 64 bits")]
    GridLengthPast64Bits(U256),
    /// revm refused the transaction itself (a bug in this crate if seen).
    #[error("the in-memory EVM rejected the transaction: {0}")]
    Transaction(#[source] Box<Rejected>),
    /// A target to load holds neither creation code nor runtime code.
    #[error("{label} has no code")]
    NoCode {
        /// What reports call the code.
        label: String,
    },
    /// Creation code ran without reverting but left no runtime code.
    #[error(
        "deploying {label} left no runtime code; expected creation code that returns a contract"
    )]
    NoRuntime {
        /// What reports call the code (`the solution`).
        label: String,
    },
    /// A built-in puzzle without a 9×9 validator was asked for one.
    #[error("{0} has no 9x9 validator (expected reference or golf)")]
    NoValidator(Puzzle),
    /// An author's creation code did not deploy: its constructor reverted
    /// or halted (bad input, not a fault of the EVM).
    #[error(
        "deploying {label}: {cause}; expected creation code whose constructor succeeds (with its ABI-encoded arguments appended, if it takes any)"
    )]
    Undeployable {
        /// What reports call the code.
        label: String,
        /// What the deployment did instead.
        #[source]
        cause: Box<EvmError>,
    },
}

/// revm's refusal of a transaction (the in-memory database never fails).
pub type Rejected = revm::context::result::EVMError<std::convert::Infallible>;

/// revm's reason for an exceptional halt.
pub use revm::context::result::HaltReason;

impl EvmError {
    /// Return data that did not decode as the function's return type.
    pub fn return_data(source: alloy_sol_types::Error) -> EvmError {
        EvmError::Decode {
            what: "return data",
            source,
        }
    }
}

/// The most revert data an [`EvmError`] shows: the contract chooses its
/// data, up to megabytes of it.
pub const DATA_SHOWN: usize = 64;

/// How a revert reads in an [`EvmError`]: its data, the first
/// [`DATA_SHOWN`] bytes and the length when longer.
fn reverted(data: &Bytes) -> String {
    match data.get(..DATA_SHOWN) {
        _ if data.is_empty() => "the contract reverted without data".to_owned(),
        Some(head) if data.len() > DATA_SHOWN => format!(
            "the contract reverted with {}… ({} bytes)",
            Bytes::copy_from_slice(head),
            data.len()
        ),
        _ => format!("the contract reverted with {data}"),
    }
}

/// A transaction that succeeded: what it returned or created, its total gas
/// (intrinsic cost included) and its logs.
#[derive(Debug, Clone)]
pub struct Executed {
    /// Return data, or the created contract.
    pub output: Output,
    /// Total gas used by the transaction.
    pub gas_used: u64,
    /// Logs it emitted.
    pub logs: Vec<Log>,
}

/// Reads revm's result of a transaction: success, or the revert data
/// ([`EvmError::Reverted`]) or the halt reason ([`EvmError::Halted`]).
pub fn settle(result: ExecutionResult<HaltReason>) -> Result<Executed, EvmError> {
    match result {
        ExecutionResult::Success {
            output, gas, logs, ..
        } => Ok(Executed {
            output,
            gas_used: gas.tx_gas_used(),
            logs,
        }),
        ExecutionResult::Revert { output, .. } => Err(EvmError::Reverted(output)),
        ExecutionResult::Halt { reason, .. } => Err(EvmError::Halted(reason)),
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
///
/// A call runs on a cleared frame (see [`crate::frame`]) when the code only
/// computes, and as a whole transaction otherwise; both give the same
/// success flag, bytes, halt reason and frame gas.
pub struct Machine {
    evm: Evm,
    nonce: u64,
    /// Every implementation, at [`Puzzle::index`].
    deployed: [Deployed; 3],
    frames: Frames,
    work: Work,
}

/// What a machine has run since it was built: counts, the same on every
/// run of the same calls, that tests hold per case (a fuzz case runs no
/// transaction, deploys nothing and builds no EVM).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Transactions revm ran in full: deployments, and calls that needed
    /// state, the block, a sub-call or a profile.
    pub transactions: u64,
    /// Contracts deployed or installed.
    pub deploys: u64,
    /// Calls run on the cleared frame.
    pub frames: u64,
    /// Intrinsic gas computations by revm for calls on the frame: one per
    /// calldata shape (length, zero bytes), not one per call.
    pub intrinsic: u64,
}

/// EVM contexts built by [`Machine::new`] in this process.
static CONTEXTS: AtomicU64 = AtomicU64::new(0);

/// One implementation on the machine's chain.
#[derive(Debug, Clone, Copy, Default)]
struct Deployed {
    /// The puzzle contract.
    address: Address,
    /// Total gas of the transaction that deployed it.
    gas: u64,
    /// Its raw-seed harness (contracts/harness/).
    harness: Address,
    /// Its classic 9×9 validator, if it has one: address, deploy gas.
    classic9: Option<(Address, u64)>,
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
        CONTEXTS.fetch_add(1, Ordering::Relaxed);
        let frames = Frames::new(&evm.ctx.cfg, *evm.instruction.gas_table());
        let mut machine = Machine {
            evm,
            nonce: 0,
            deployed: [Deployed::default(); 3],
            frames,
            work: Work::default(),
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
        // Deployed last, so every 8×8 contract keeps its address.
        for puzzle in Puzzle::ALL {
            if let Some(artifact) = puzzle.classic9_artifact() {
                machine.deployed[puzzle.index()].classic9 =
                    Some(machine.deploy(artifact.initcode)?);
            }
        }
        Ok(machine)
    }

    /// EVM contexts [`Machine::new`] has built in this process so far.
    pub fn contexts_built() -> u64 {
        CONTEXTS.load(Ordering::Relaxed)
    }

    /// What this machine has run since it was built.
    pub fn work(&self) -> Work {
        Work {
            intrinsic: self.frames.intrinsic_runs(),
            ..self.work
        }
    }

    /// Deploys `initcode`; returns the new address and the transaction's total gas used.
    pub fn deploy(&mut self, initcode: &[u8]) -> Result<(Address, u64), EvmError> {
        let tx = self.tx(TxKind::Create, Bytes::copy_from_slice(initcode));
        self.frames.forget();
        self.work.transactions += 1;
        self.work.deploys += 1;
        let result = self
            .evm
            .transact_commit(tx)
            .map_err(|e| EvmError::Transaction(Box::new(e)))?;
        self.nonce += 1;
        let executed = settle(result)?;
        match executed.output {
            Output::Create(_, Some(address)) => Ok((address, executed.gas_used)),
            _ => Err(EvmError::NoRuntime {
                label: "the creation code".into(),
            }),
        }
    }

    /// Lets this machine deploy runtime code past EIP-170's 24,576 bytes
    /// (and creation code past EIP-3860's 49,152): for a report that
    /// measures an author's oversized contract and says so, instead of
    /// stopping at its deployment. Gas still bounds both (30,000,000 pays
    /// for about 150 KB of runtime code).
    pub fn allow_oversized_code(&mut self) {
        self.frames.forget();
        let cfg = &mut self.evm.ctx.cfg;
        cfg.limit_contract_code_size = Some(OVERSIZED_CODE);
        cfg.limit_contract_initcode_size = Some(2 * OVERSIZED_CODE);
    }

    /// Puts `runtime` code at `address` as it is (no constructor runs): a
    /// contract read from a chain, to be called here.
    pub fn install(&mut self, address: Address, runtime: Bytes) {
        self.frames.forget();
        self.work.deploys += 1;
        let code = revm::bytecode::Bytecode::new_raw(runtime);
        let info = AccountInfo::new(U256::ZERO, 1, code.hash_slow(), code);
        self.evm
            .ctx
            .journaled_state
            .database
            .insert_account_info(address, info);
    }

    /// The address `puzzle` is deployed at.
    pub fn address_of(&self, puzzle: Puzzle) -> Address {
        self.deployed[puzzle.index()].address
    }

    /// The address of `puzzle`'s raw-seed harness (contracts/harness/).
    pub fn harness_of(&self, puzzle: Puzzle) -> Address {
        self.deployed[puzzle.index()].harness
    }

    /// Total gas used by the transaction that deployed `puzzle`.
    pub fn deploy_gas(&self, puzzle: Puzzle) -> u64 {
        self.deployed[puzzle.index()].gas
    }

    /// Where the machine deployed the 9×9 validator of `puzzle` (none for fair).
    pub fn classic9_address(&self, puzzle: Puzzle) -> Option<Address> {
        self.deployed[puzzle.index()]
            .classic9
            .map(|(address, _)| address)
    }

    /// Total gas of the transaction that deployed the 9×9 validator of `puzzle`.
    pub fn classic9_deploy_gas(&self, puzzle: Puzzle) -> Option<u64> {
        self.deployed[puzzle.index()].classic9.map(|(_, gas)| gas)
    }

    /// Calls `to` with `data` without changing state; returns data and frame gas.
    pub fn call_raw(&mut self, to: Address, data: Bytes) -> Result<RawOutcome, EvmError> {
        self.call_raw_paid(to, data, U256::ZERO)
    }

    /// [`Machine::call_raw`] sending `value` wei with the call.
    pub fn call_raw_paid(
        &mut self,
        to: Address,
        data: Bytes,
        value: U256,
    ) -> Result<RawOutcome, EvmError> {
        let mut tx = self.tx(TxKind::Call(to), data);
        tx.value = value;
        if !self.evm.inspector.profiling {
            let ctx = &self.evm.ctx;
            if let Ran::Done(outcome) =
                self.frames
                    .run(&ctx.cfg, &ctx.journaled_state.database, &tx)
            {
                self.work.frames += 1;
                return outcome;
            }
        }
        self.transact_call(tx)
    }

    /// [`Machine::call_raw_paid`] run as a whole revm transaction, never on
    /// the cleared frame: what the frame is checked against.
    pub fn transact_raw(
        &mut self,
        to: Address,
        data: Bytes,
        value: U256,
    ) -> Result<RawOutcome, EvmError> {
        let mut tx = self.tx(TxKind::Call(to), data);
        tx.value = value;
        self.transact_call(tx)
    }

    /// Runs a call transaction without committing it; returns data and frame gas.
    fn transact_call(&mut self, tx: TxEnv) -> Result<RawOutcome, EvmError> {
        self.work.transactions += 1;
        self.evm.inspector.spent = 0;
        let result = self
            .evm
            .inspect_tx(tx)
            .map_err(|e| EvmError::Transaction(Box::new(e)))?
            .result;
        let gas = self.evm.inspector.spent;
        let (success, output) = match settle(result) {
            Ok(executed) => (true, executed.output.into_data()),
            Err(EvmError::Reverted(output)) => (false, output),
            Err(e) => return Err(e),
        };
        Ok(RawOutcome {
            success,
            output,
            gas,
        })
    }

    /// Like [`Machine::call_raw`], also returning every instruction the called
    /// frame executed with its gas.
    pub fn profile_raw(
        &mut self,
        to: Address,
        data: Bytes,
    ) -> Result<(RawOutcome, Vec<Step>), EvmError> {
        let (outcome, steps) = self.profile_any(to, data);
        Ok((outcome?, steps))
    }

    /// [`Machine::profile_raw`] that keeps the instructions run when the
    /// call fails too (a halt: what ran before it).
    pub fn profile_any(
        &mut self,
        to: Address,
        data: Bytes,
    ) -> (Result<RawOutcome, EvmError>, Vec<Step>) {
        self.evm.inspector.profiling = true;
        self.evm.inspector.steps.clear();
        let outcome = self.call_raw(to, data);
        self.evm.inspector.profiling = false;
        (outcome, std::mem::take(&mut self.evm.inspector.steps))
    }

    pub(crate) fn call<C: SolCall>(
        &mut self,
        to: Address,
        call: &C,
    ) -> Result<Call<C::Return>, EvmError> {
        self.call_encoded::<C>(to, Bytes::from(call.abi_encode()))
    }

    /// [`Machine::call`] on calldata `C` already encoded (one encoding that
    /// several contracts of a fuzz case share).
    pub(crate) fn call_encoded<C: SolCall>(
        &mut self,
        to: Address,
        data: Bytes,
    ) -> Result<Call<C::Return>, EvmError> {
        let outcome = self.call_raw(to, data)?;
        if !outcome.success {
            return Err(EvmError::Reverted(outcome.output));
        }
        let value = C::abi_decode_returns(&outcome.output).map_err(EvmError::return_data)?;
        Ok(Call {
            value,
            gas: outcome.gas,
        })
    }

    /// `puzzle.name()`.
    pub fn name(&mut self, puzzle: Puzzle) -> Result<Call<String>, EvmError> {
        self.name_at(self.address_of(puzzle))
    }

    /// `puzzle.generate(address)`: the board that address gets.
    pub fn generate(&mut self, puzzle: Puzzle, address: &Address) -> Result<Call<Board>, EvmError> {
        self.generate_at(self.address_of(puzzle), address)
    }

    /// `puzzle.verify(start, solution)`.
    pub fn verify(
        &mut self,
        puzzle: Puzzle,
        start: Board,
        solution: Board,
    ) -> Result<Call<bool>, EvmError> {
        self.verify_at(self.address_of(puzzle), start, solution)
    }

    /// `name()` of the IPuzzle at `to`.
    pub fn name_at(&mut self, to: Address) -> Result<Call<String>, EvmError> {
        self.call(to, &IPuzzle::nameCall {})
    }

    /// `generate(address)` of the IPuzzle at `to`.
    pub fn generate_at(&mut self, to: Address, address: &Address) -> Result<Call<Board>, EvmError> {
        let call = IPuzzle::generateCall { seed: *address };
        Ok(self.call(to, &call)?.map(Board::from_u256))
    }

    /// `verify(start, solution)` of the IPuzzle at `to`.
    pub fn verify_at(
        &mut self,
        to: Address,
        start: Board,
        solution: Board,
    ) -> Result<Call<bool>, EvmError> {
        let call = IPuzzle::verifyCall {
            start: start.to_u256(),
            solution: solution.to_u256(),
        };
        self.call(to, &call)
    }

    /// `verify(start, solution)` at `to` as raw bytes: whatever it returns
    /// or reverts with (for comparing two contracts exactly).
    pub fn verify_raw_at(
        &mut self,
        to: Address,
        start: Board,
        solution: Board,
    ) -> Result<RawOutcome, EvmError> {
        self.call_raw(to, crate::target::verify_calldata(start, solution))
    }

    /// `generate(address)` at `to` as raw bytes.
    pub fn generate_raw_at(
        &mut self,
        to: Address,
        address: &Address,
    ) -> Result<RawOutcome, EvmError> {
        self.call_raw(to, crate::target::generate_calldata(address))
    }

    /// The address `target` runs at: a built-in's, or the author's code
    /// deployed now (its creation code, else its runtime code installed).
    pub fn load(&mut self, target: &Target) -> Result<Address, EvmError> {
        let code = match target {
            Target::Builtin(p) => return Ok(self.address_of(*p)),
            Target::Code(code) => code,
        };
        match (&code.initcode, &code.runtime) {
            (Some(init), _) => match self.deploy(init) {
                Ok((address, _)) => Ok(address),
                Err(cause @ (EvmError::Reverted(_) | EvmError::Halted(_))) => {
                    Err(EvmError::Undeployable {
                        label: code.label.clone(),
                        cause: Box::new(cause),
                    })
                }
                Err(e) => Err(e),
            },
            (None, Some(runtime)) => {
                self.frames.forget();
                self.work.deploys += 1;
                // No transaction (the caller's nonce stays): an address of
                // the code's own, the same on every machine.
                let address = Address::from_word(alloy_primitives::keccak256(runtime));
                let info = AccountInfo::default().with_code(revm::bytecode::Bytecode::new_raw(
                    Bytes::copy_from_slice(runtime),
                ));
                self.evm
                    .ctx
                    .journaled_state
                    .database
                    .insert_account_info(address, info);
                Ok(address)
            }
            (None, None) => Err(EvmError::NoCode {
                label: code.label.clone(),
            }),
        }
    }

    /// The runtime code deployed at `address` (empty when none).
    pub fn code_at(&self, address: Address) -> Vec<u8> {
        self.evm
            .ctx
            .journaled_state
            .database
            .basic_ref(address)
            .ok()
            .flatten()
            .and_then(|info| info.code)
            .map(|c| c.original_bytes().to_vec())
            .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Megabytes of revert or return data from a contract reach the user as
    /// one short line: the first bytes and the length.
    #[test]
    fn a_contracts_long_revert_or_return_data_is_cut_when_shown() {
        let long = Bytes::from(vec![0xab; 2 << 20]);
        let shown = EvmError::Reverted(long).to_string();
        assert!(shown.len() < 200, "{} characters", shown.len());
        assert!(
            shown.ends_with(&format!("… ({} bytes)", 2 << 20)),
            "{shown}"
        );
        let short = EvmError::Reverted(Bytes::from(vec![0xab; 4])).to_string();
        assert_eq!(short, "the contract reverted with 0xabababab");
        let decode = EvmError::return_data(alloy_sol_types::Error::TypeCheckFail {
            expected_type: "bool".into(),
            data: "ab".repeat(1 << 20),
        });
        let shown = decode.to_string();
        assert!(shown.chars().count() < 300, "{} characters", shown.len());
        assert!(!shown.contains('\n'));
    }
}

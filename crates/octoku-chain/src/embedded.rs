//! The embedded chain: revm over an in-memory database loaded from, and
//! saved back to, a JSON state file ([`ChainState`]).
//!
//! Chain id 31337, one block per transaction (12 s apart), base fee 0, gas
//! price 1 gwei (so an account without ether cannot send), anvil's dev
//! accounts funded at genesis. Transactions are not signed: the sender is the
//! key's address. A transaction that would revert or halt is not mined.
//!
//! An open chain holds the state file's lock ([`FileLock`]) until dropped:
//! commands on one state file run one after the other, each seeing every
//! transaction of the ones before.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use alloy_primitives::{Address, B256, Bytes, TxKind, U256, keccak256};
use revm::{
    Context, ExecuteCommitEvm, ExecuteEvm, MainBuilder, MainContext,
    bytecode::Bytecode,
    context::{
        BlockEnv, TxEnv,
        result::{EVMError, InvalidTransaction, Output},
    },
    database::{AccountState as DbAccountState, InMemoryDB},
    handler::{MainnetContext, MainnetEvm},
    primitives::KECCAK_EMPTY,
    state::AccountInfo,
};

use super::{
    ChainError, EMBEDDED_CHAIN_ID, LoggedAt, PrivateKey, Receipt, TxOptions,
    state::{AccountState, ChainState, Deployment, FileLock, TxRecord},
};
use crate::cause::FileError;
use octoku_evm::machine::{GAS_LIMIT, SPEC, settle};

/// Gas price of mined transactions: 1 gwei.
const GAS_PRICE: u128 = 1_000_000_000;
/// Seconds between blocks.
const BLOCK_TIME: u64 = 12;

type Evm = MainnetEvm<MainnetContext<InMemoryDB>>;

/// revm plus the state file it is saved to.
pub struct EmbeddedChain {
    path: PathBuf,
    state: ChainState,
    evm: Evm,
    sender: Address,
    options: TxOptions,
    _lock: FileLock,
}

impl fmt::Debug for EmbeddedChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EmbeddedChain")
            .field("path", &self.path)
            .field("block", &self.state.block)
            .field("sender", &self.sender)
            .finish()
    }
}

/// `path`, or the file it links to when it is a symbolic link (through
/// every link); a link to nothing is refused, as nothing could be locked
/// or written through it without replacing the link.
fn follow_link(path: &Path) -> Result<PathBuf, ChainError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|source| {
                ChainError::State(FileError::Link {
                    path: path.to_path_buf(),
                    source,
                })
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

impl EmbeddedChain {
    /// Opens the state at `path`. When the file does not exist: with
    /// `create`, a genesis state is written there; without, an error tells to
    /// run `octoku deploy` first.
    pub fn open(path: &Path, key: &PrivateKey, create: bool) -> Result<EmbeddedChain, ChainError> {
        let sender = key.address()?;
        let missing = || {
            ChainError::State(FileError::Missing {
                path: path.to_path_buf(),
            })
        };
        // A link is followed to its file: the lock is taken beside that file
        // and the rename replaces it, not the link (which would leave the
        // real state without the new transactions).
        let resolved = follow_link(path)?;
        let path = resolved.as_path();
        // A device or a pipe would be locked through a sibling (`/dev/zero.lock`)
        // and read forever: refused before anything is created.
        octoku_evm::limits::require_regular(path)
            .map_err(|e| super::state::state_read_error(path, e))?;
        if !create && !path.exists() {
            return Err(missing());
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(FileError::io("create the directory", dir))?;
        }
        let lock = FileLock::acquire(path)?;
        let state = if path.exists() {
            ChainState::load(path)?
        } else if create {
            let state = ChainState::genesis(EMBEDDED_CHAIN_ID);
            state.save(path)?;
            state
        } else {
            return Err(missing());
        };
        let evm = build_evm(&state);
        Ok(EmbeddedChain {
            path: path.to_path_buf(),
            state,
            evm,
            sender,
            options: TxOptions::default(),
            _lock: lock,
        })
    }

    /// Sets the options of the following transactions. The embedded chain
    /// mines each transaction at once in its own block: more than one
    /// confirmation would never come, and is refused.
    pub fn set_tx_options(&mut self, options: TxOptions) -> Result<(), ChainError> {
        Self::check_tx_options(&options)?;
        self.options = options;
        Ok(())
    }

    /// Refuses the options the embedded chain cannot honour, before any
    /// state file is opened or made (a refused command writes nothing).
    pub fn check_tx_options(options: &TxOptions) -> Result<(), ChainError> {
        if options.confirmations > 1 {
            return Err(ChainError::Node(format!(
                "the embedded chain mines one block per transaction, so {} confirmations would never come: use --rpc-url for more than 1",
                options.confirmations
            )));
        }
        if let Some(limit) = options.gas_limit.filter(|&l| l > GAS_LIMIT) {
            return Err(ChainError::Node(format!(
                "gas limit {limit} is above the embedded chain's block gas limit {GAS_LIMIT}"
            )));
        }
        Ok(())
    }

    /// The state file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The sender's address.
    pub fn sender(&self) -> Address {
        self.sender
    }

    /// Number of the last mined block.
    pub fn block_number(&self) -> u64 {
        self.state.block
    }

    /// The whole state, as saved.
    pub fn state(&self) -> &ChainState {
        &self.state
    }

    /// The latest deployment recorded by `octoku deploy`: the default arena.
    pub fn deployment(&self) -> Option<&Deployment> {
        self.state.deployments.last()
    }

    /// Every deployment recorded by `octoku deploy`, oldest first.
    pub fn deployments(&self) -> &[Deployment] {
        &self.state.deployments
    }

    /// Adds `deployment` to the record (it becomes the default) and saves.
    pub fn add_deployment(&mut self, deployment: Deployment) -> Result<(), ChainError> {
        self.state.deployments.push(deployment);
        self.state.save(&self.path)
    }

    /// Logs `address` emitted in blocks `from..=to` whose first topics are
    /// `topics`, each with its block and transaction.
    pub fn events(&self, address: Address, topics: &[B256], from: u64, to: u64) -> Vec<LoggedAt> {
        self.state
            .transactions
            .iter()
            .filter(|tx| (from..=to).contains(&tx.block))
            .flat_map(|tx| tx.logs.iter().map(move |log| (tx, log)))
            .filter(|(_, log)| log.address == address && log.topics().starts_with(topics))
            .map(|(tx, log)| LoggedAt {
                block: tx.block,
                tx: tx.hash,
                log: log.clone(),
            })
            .collect()
    }

    /// The timestamp of the latest block (genesis for block 0).
    pub fn timestamp(&self) -> u64 {
        self.state.genesis_timestamp + BLOCK_TIME * self.state.block
    }

    /// Runtime code at `address`.
    pub fn code_at(&self, address: Address) -> Bytes {
        self.state
            .accounts
            .get(&address)
            .map(|a| a.code.clone())
            .unwrap_or_default()
    }

    /// Balance of `address` in wei.
    pub fn balance(&self, address: Address) -> U256 {
        self.state
            .accounts
            .get(&address)
            .map(|a| a.balance)
            .unwrap_or_default()
    }

    fn nonce(&self, address: Address) -> u64 {
        self.state
            .accounts
            .get(&address)
            .map(|a| a.nonce)
            .unwrap_or_default()
    }

    fn tx(&self, to: Option<Address>, data: Bytes, gas_price: u128) -> TxEnv {
        TxEnv {
            caller: self.sender,
            kind: to.map_or(TxKind::Create, TxKind::Call),
            data,
            nonce: self.nonce(self.sender),
            gas_limit: GAS_LIMIT,
            gas_price,
            chain_id: Some(self.state.chain_id),
            ..Default::default()
        }
    }

    /// The transaction as sent, with the options applied: gas limit, price
    /// (legacy, or max fee and priority fee), nonce.
    fn sent_tx(&self, to: Option<Address>, data: Bytes) -> Result<TxEnv, ChainError> {
        let o = &self.options;
        let mut tx = self.tx(to, data, o.gas_price.unwrap_or(GAS_PRICE));
        if let Some(limit) = o.gas_limit {
            tx.gas_limit = limit;
        }
        if !o.legacy {
            // Base fee 0: the sender pays the priority fee, at most the max fee.
            let priority = o.priority_gas_price.unwrap_or(tx.gas_price);
            if priority > tx.gas_price {
                return Err(ChainError::Node(format!(
                    "priority gas price {priority} is above the max fee per gas {}",
                    tx.gas_price
                )));
            }
            tx.tx_type = 2;
            tx.gas_priority_fee = Some(priority);
        }
        if let Some(nonce) = o.nonce
            && nonce != tx.nonce
        {
            return Err(ChainError::Node(format!(
                "nonce {nonce}: the next nonce of {} is {}",
                self.sender, tx.nonce
            )));
        }
        Ok(tx)
    }

    fn set_block(&mut self, number: u64) {
        self.evm.ctx.block = BlockEnv {
            number: U256::from(number),
            timestamp: U256::from(self.state.genesis_timestamp + BLOCK_TIME * number),
            gas_limit: GAS_LIMIT,
            basefee: 0,
            ..Default::default()
        };
    }

    /// eth_call: runs `data` against `to` on top of the latest block, changes nothing.
    pub fn call(&mut self, to: Option<Address>, data: Bytes) -> Result<Bytes, ChainError> {
        let tx = self.tx(to, data, 0);
        self.set_block(self.state.block + 1);
        let result = self.evm.transact(tx).map_err(|e| self.tx_error(e))?.result;
        Ok(settle(result)?.output.into_data())
    }

    /// Runs a transaction with `value` wei attached in a new block; if it
    /// succeeds, commits it and saves the state file, else mines nothing and
    /// returns the revert.
    pub fn send(
        &mut self,
        to: Option<Address>,
        data: Bytes,
        value: U256,
    ) -> Result<Receipt, ChainError> {
        let nonce = self.nonce(self.sender);
        let tx_hash = self.tx_hash(nonce, to, &data);
        let mut tx = self.sent_tx(to, data)?;
        tx.value = value;
        let number = self.state.block + 1;
        self.set_block(number);
        let outcome = self.evm.transact(tx).map_err(|e| self.tx_error(e))?;
        let executed = settle(outcome.result)?;
        let created = match executed.output {
            Output::Create(_, address) => address,
            Output::Call(_) => None,
        };
        let (gas_used, logs) = (executed.gas_used, executed.logs);
        self.evm.commit(outcome.state);
        self.state.block = number;
        self.sync_accounts();
        self.state.transactions.push(TxRecord {
            hash: tx_hash,
            block: number,
            from: self.sender,
            to,
            created,
            gas_used,
            status: true,
            logs: logs.clone(),
        });
        self.state.save(&self.path)?;
        if let Some(nonce) = &mut self.options.nonce {
            *nonce += 1;
        }
        Ok(Receipt {
            tx_hash,
            block: number,
            gas_used,
            fee: 0,
            status: true,
            logs,
            contract_address: created,
        })
    }

    /// keccak256(chain id ‖ sender ‖ nonce ‖ target ‖ calldata): unique per
    /// transaction on this chain, since the nonce is.
    fn tx_hash(&self, nonce: u64, to: Option<Address>, data: &[u8]) -> B256 {
        let mut preimage = Vec::with_capacity(56 + data.len());
        preimage.extend(self.state.chain_id.to_be_bytes());
        preimage.extend(self.sender.as_slice());
        preimage.extend(nonce.to_be_bytes());
        preimage.extend(to.unwrap_or_default().as_slice());
        preimage.extend(data);
        keccak256(preimage)
    }

    fn tx_error(&self, e: octoku_evm::machine::Rejected) -> ChainError {
        match e {
            EVMError::Transaction(InvalidTransaction::LackOfFundForMaxFee { fee, balance }) => {
                ChainError::InsufficientFunds {
                    address: self.sender,
                    detail: format!(
                        "balance {balance} wei, the transaction may cost up to {fee} wei"
                    ),
                }
            }
            other => ChainError::Evm(octoku_evm::EvmError::Transaction(Box::new(other))),
        }
    }

    /// Copies the database's accounts into the saved state.
    fn sync_accounts(&mut self) {
        let cache = &self.evm.ctx.journaled_state.database.cache;
        for (address, account) in &cache.accounts {
            if matches!(account.account_state, DbAccountState::NotExisting) {
                self.state.accounts.remove(address);
                continue;
            }
            let info = &account.info;
            let code = match &info.code {
                Some(code) if !code.is_empty() => code.original_bytes(),
                _ if info.code_hash != KECCAK_EMPTY => cache
                    .contracts
                    .get(&info.code_hash)
                    .map(|c| c.original_bytes())
                    .unwrap_or_default(),
                _ => Bytes::new(),
            };
            let storage = account
                .storage
                .iter()
                .filter(|(_, v)| !v.is_zero())
                .map(|(k, v)| (*k, *v))
                .collect();
            let entry = AccountState {
                balance: info.balance,
                nonce: info.nonce,
                code,
                storage,
            };
            if entry == AccountState::default() {
                self.state.accounts.remove(address);
            } else {
                self.state.accounts.insert(*address, entry);
            }
        }
    }
}

fn build_evm(state: &ChainState) -> Evm {
    let mut db = InMemoryDB::default();
    for (address, account) in &state.accounts {
        let info = if account.code.is_empty() {
            AccountInfo {
                balance: account.balance,
                nonce: account.nonce,
                ..Default::default()
            }
        } else {
            let code = Bytecode::new_raw(account.code.clone());
            AccountInfo::new(account.balance, account.nonce, code.hash_slow(), code)
        };
        db.insert_account_info(*address, info);
        for (slot, value) in &account.storage {
            // Cannot fail: the account was just inserted and EmptyDB never errs.
            let _ = db.insert_account_storage(*address, *slot, *value);
        }
    }
    let chain_id = state.chain_id;
    Context::mainnet()
        .with_db(db)
        .modify_cfg_chained(|cfg| {
            cfg.spec = SPEC;
            cfg.chain_id = chain_id;
            cfg.tx_gas_limit_cap = Some(GAS_LIMIT);
        })
        .build_mainnet()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chain, TxOptions, arena, state::ChainState};

    /// A state file path in a fresh directory, removed when the guard drops.
    fn temp_state() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chain.json");
        (dir, path)
    }

    /// A state file reached through a symbolic link is locked and written
    /// where it is: the link stays a link and the file behind it gets the
    /// transaction; a link to nothing is refused and left alone.
    #[test]
    fn a_state_file_behind_a_link_is_written_through_it() {
        let (dir, real) = temp_state();
        drop(Chain::embedded(&real, &PrivateKey::anvil_default(), true).unwrap());
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut chain = Chain::embedded(&link, &PrivateKey::anvil_default(), false).unwrap();
        chain.send(Address::repeat_byte(1), Bytes::new()).unwrap();
        drop(chain);
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(ChainState::load(&real).unwrap().block, 1);
        assert!(!dir.path().join("link.json.lock").exists());

        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink(dir.path().join("nothing.json"), &dangling).unwrap();
        let e = Chain::embedded(&dangling, &PrivateKey::anvil_default(), true).unwrap_err();
        assert!(
            e.to_string()
                .contains("is a link to a file that cannot be opened"),
            "{e}"
        );
        assert!(!dir.path().join("nothing.json").exists());
    }

    #[test]
    fn missing_state_without_create_is_an_error() {
        let (_dir, path) = temp_state();
        let e = EmbeddedChain::open(&path, &PrivateKey::anvil_default(), false).unwrap_err();
        assert!(e.to_string().contains("octoku deploy"), "{e}");
    }

    #[test]
    fn deploys_persist_and_blocks_advance() {
        let (_dir, path) = temp_state();
        let key = PrivateKey::anvil_default();
        let mut chain = Chain::embedded(&path, &key, true).unwrap();
        let code = octoku_evm::artifacts::REFERENCE.initcode.to_vec().into();
        let deployed = arena::deploy_with_arena(&mut chain, code).unwrap();
        assert_eq!((deployed.puzzle.block, deployed.arena.block), (1, 2));
        let (puzzle_address, arena_address) = (deployed.puzzle_address, deployed.arena_address);
        drop(chain);

        let saved = ChainState::load(&path).unwrap();
        assert_eq!(saved.block, 2);
        assert_eq!(saved.transactions.len(), 2);

        let mut chain = Chain::embedded(&path, &key, false).unwrap();
        assert_eq!(
            arena::puzzle_of(&mut chain, arena_address).unwrap(),
            puzzle_address
        );
        assert_eq!(arena::solver_count(&mut chain, arena_address).unwrap(), 0);
        let board = arena::board_of(&mut chain, arena_address, key.address().unwrap()).unwrap();
        let me = key.address().unwrap();
        assert_eq!(board, octoku_core::generate(&me).to_u256());

        // A wrong solution reverts by name and mines nothing.
        let e = arena::solve(&mut chain, arena_address, U256::from(1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the transaction would revert: WrongSolution()"
        );
        let Chain::Embedded(inner) = &chain else {
            unreachable!()
        };
        assert_eq!(inner.block_number(), 2);

        // A sender with no ether cannot send.
        drop(chain);
        let poor = PrivateKey::parse(&"11".repeat(32)).unwrap();
        let mut broke = Chain::embedded(&path, &poor, false).unwrap();
        let e = arena::solve(&mut broke, arena_address, U256::from(1)).unwrap_err();
        assert!(matches!(e, ChainError::InsufficientFunds { .. }), "{e}");
        drop(broke);
    }

    /// While one command has the chain open, another waits for it, then
    /// sees its transactions: threads that each open, send and close all
    /// get their own block, and the file holds every transaction.
    #[test]
    fn chains_opened_at_once_take_turns_and_lose_nothing() {
        let (_dir, path) = temp_state();
        drop(Chain::embedded(&path, &PrivateKey::anvil_default(), true).unwrap());
        let threads: Vec<_> = (1..=6u8)
            .map(|i| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut chain =
                        Chain::embedded(&path, &PrivateKey::anvil_default(), false).unwrap();
                    let to = Address::repeat_byte(i);
                    chain.send(to, Bytes::new()).unwrap().block
                })
            })
            .collect();
        let mut blocks: Vec<u64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        blocks.sort();
        assert_eq!(blocks, vec![1, 2, 3, 4, 5, 6]);
        let saved = ChainState::load(&path).unwrap();
        assert_eq!(saved.transactions.len(), 6);
        assert_eq!(
            saved.accounts[&PrivateKey::anvil_default().address().unwrap()].nonce,
            6
        );
    }

    #[test]
    fn every_deployment_stays_on_record_and_the_latest_is_the_default() {
        let (_dir, path) = temp_state();
        let key = PrivateKey::anvil_default();
        let mut chain = Chain::embedded(&path, &key, true).unwrap();
        let code: Bytes = octoku_evm::artifacts::REFERENCE.initcode.to_vec().into();
        let mut deployed = Vec::new();
        for _ in 0..2 {
            let record = arena::deploy_with_arena(&mut chain, code.clone())
                .unwrap()
                .record(octoku_evm::Puzzle::Reference);
            let Chain::Embedded(embedded) = &mut chain else {
                unreachable!("opened embedded")
            };
            embedded.add_deployment(record.clone()).unwrap();
            deployed.push(record);
        }
        drop(chain);
        let Chain::Embedded(chain) = Chain::embedded(&path, &key, false).unwrap() else {
            unreachable!()
        };
        assert_eq!(chain.deployments(), deployed.as_slice());
        assert_eq!(chain.deployment(), deployed.last());
        drop(chain);
    }

    #[test]
    fn transaction_options_set_the_price_limit_and_nonce() {
        let (_dir, path) = temp_state();
        let key = PrivateKey::anvil_default();
        let me = key.address().unwrap();
        let mut chain = Chain::embedded(&path, &key, true).unwrap();
        let before = chain.balance(me).unwrap();
        chain
            .set_tx_options(TxOptions {
                gas_price: Some(7),
                legacy: true,
                nonce: Some(0),
                ..TxOptions::default()
            })
            .unwrap();
        let r = chain.send(Address::repeat_byte(1), Bytes::new()).unwrap();
        assert_eq!(r.gas_used, 21_000);
        assert_eq!(before - chain.balance(me).unwrap(), U256::from(7 * 21_000));
        // The nonce counted up to 1; 5 is refused by name.
        chain
            .set_tx_options(TxOptions {
                nonce: Some(5),
                ..TxOptions::default()
            })
            .unwrap();
        let e = chain
            .send(Address::repeat_byte(1), Bytes::new())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("the node refused: nonce 5: the next nonce of {me} is 1")
        );
        // A gas limit below the intrinsic cost is refused, nothing mined.
        chain
            .set_tx_options(TxOptions {
                gas_limit: Some(20_000),
                ..TxOptions::default()
            })
            .unwrap();
        assert!(chain.send(Address::repeat_byte(1), Bytes::new()).is_err());
        assert_eq!(chain.block_number().unwrap(), 1);
        let e = chain
            .set_tx_options(TxOptions {
                confirmations: 2,
                ..TxOptions::default()
            })
            .unwrap_err();
        assert!(e.to_string().contains("would never come"), "{e}");
        drop(chain);
    }
}

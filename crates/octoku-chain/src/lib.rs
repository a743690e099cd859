//! On-chain play: the arena and puzzle contracts on a real node (JSON-RPC
//! through alloy) or on an embedded chain (revm whose state lives in a JSON
//! file), behind one synchronous [`Chain`] type.
//!
//! Both backends simulate every transaction before sending it, so a revert is
//! reported with its decoded custom error (`AlreadySolved(0x…)`,
//! `WrongSolution()`) and nothing is sent.
//!
//! ```no_run
//! use octoku_chain::{Chain, PrivateKey};
//! let key = PrivateKey::anvil_default();
//! let mut chain = Chain::embedded(".octoku/chain.json".as_ref(), &key, true).unwrap();
//! println!("chain: {}", chain.describe().unwrap());
//! ```

pub mod arena;
pub mod cause;
pub mod classic9;
pub mod curta;
pub mod deployments;
pub mod embedded;
pub mod golf;
pub mod leaderboard;
pub mod rpc;
pub mod signer;
pub mod state;

use std::{fmt, path::Path, time::Duration};

use alloy_primitives::{Address, B256, Bytes, Log, U256, hex};
use alloy_signer_local::PrivateKeySigner;
use alloy_sol_types::SolError;

pub use alloy_primitives as primitives;
pub use arena::{IArena, Solve, SolvedAt};
pub use cause::{FileError, FileKind, KeystoreError, Unreachable};
pub use embedded::EmbeddedChain;
pub use rpc::RpcChain;

/// The arena's creation code (contracts/Arena.sol, OctokuArena), without
/// the constructor argument: see [`arena::arena_initcode`].
pub const ARENA_INITCODE: &[u8] = octoku_evm::artifacts::ARENA.initcode;

/// Chain id of the embedded chain (the same as anvil's default).
pub const EMBEDDED_CHAIN_ID: u64 = 31337;

/// anvil's ten well-known dev keys (public: printed by every anvil at
/// start), in the order of [`DEV_ACCOUNTS`]. Key 0 is the default sender on
/// the embedded chain. Public knowledge; never use them on a real network.
pub const DEV_KEYS: [&str; 10] = [
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
    "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
    "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
    "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
];

/// anvil's ten dev accounts, funded at genesis on the embedded chain too.
pub const DEV_ACCOUNTS: [&str; 10] = [
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
    "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
];

/// A private key. Its `Debug` and `Display` never show the key, and parse
/// errors never quote it.
#[derive(Clone)]
pub struct PrivateKey(B256);

impl PrivateKey {
    /// Parses 32 bytes of hex, with or without `0x`.
    pub fn parse(text: &str) -> Result<PrivateKey, ChainError> {
        let bad = || ChainError::Key("private key: expected 32 bytes of hex".into());
        let text = text.trim();
        let digits = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .unwrap_or(text);
        // Checked before decoding: `hex` would strip a second `0x` too. The
        // error never quotes the text.
        if digits.len() != 64 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let bytes: [u8; 32] = hex::decode_to_array(digits).map_err(|_| bad())?;
        let key = PrivateKey(B256::from(bytes));
        // Zero and keys at or above the curve order are not valid keys.
        key.signer()?;
        Ok(key)
    }

    /// anvil's account 0 key, the embedded chain's default sender.
    pub fn anvil_default() -> PrivateKey {
        PrivateKey::parse(DEV_KEYS[0]).unwrap_or(PrivateKey(B256::repeat_byte(1)))
    }

    /// The signer for this key.
    pub fn signer(&self) -> Result<PrivateKeySigner, ChainError> {
        PrivateKeySigner::from_bytes(&self.0).map_err(|_| {
            ChainError::Key(
                "private key: not a valid secp256k1 key (zero or above the curve order)".into(),
            )
        })
    }

    /// The address this key controls.
    pub fn address(&self) -> Result<Address, ChainError> {
        Ok(self.signer()?.address())
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrivateKey(<redacted>)")
    }
}

/// How transactions are priced, numbered and awaited (the flags of Foundry's
/// cast). `None` leaves the choice to the node (or the embedded chain).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxOptions {
    /// Gas limit of each transaction (default: estimated; embedded: 30,000,000).
    pub gas_limit: Option<u64>,
    /// Gas price of a legacy transaction, or the max fee per gas of an
    /// EIP-1559 one, in wei.
    pub gas_price: Option<u128>,
    /// Max priority fee per gas (EIP-1559), in wei.
    pub priority_gas_price: Option<u128>,
    /// Nonce of the first transaction; later ones count up from it.
    pub nonce: Option<u64>,
    /// Send legacy (type 0) transactions instead of EIP-1559 ones.
    pub legacy: bool,
    /// Blocks to wait for (1: the block of the transaction itself).
    pub confirmations: u64,
    /// Longest wait for one answer of the node.
    pub request_timeout: Duration,
    /// Longest wait for a receipt and its confirmations.
    pub receipt_timeout: Duration,
    /// The highest max fee per gas (legacy: gas price) any transaction may
    /// carry, whether the node quoted it or the user gave it: above it,
    /// nothing is sent ([`ChainError::FeeAboveCeiling`]).
    pub fee_ceiling: u128,
    /// Told each transaction's [`Plan`] just before it is signed and sent.
    pub announce: Announce,
}

/// The default [`TxOptions::fee_ceiling`]: 500 gwei per gas.
pub const DEFAULT_FEE_CEILING: u128 = 500_000_000_000;

/// What a transaction will cost at most, known before it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The contract called (`None`: a deployment).
    pub to: Option<Address>,
    /// Wei sent with it.
    pub value: U256,
    /// Its gas limit (the node's estimate unless given).
    pub gas_limit: u64,
    /// Max fee per gas (legacy: the gas price), in wei.
    pub max_fee_per_gas: u128,
    /// Max priority fee per gas (`None`: legacy), in wei.
    pub priority_fee_per_gas: Option<u128>,
}

impl Plan {
    /// The most the fees can come to: gas limit × max fee per gas, in wei.
    pub fn max_fee(&self) -> u128 {
        u128::from(self.gas_limit).saturating_mul(self.max_fee_per_gas)
    }
}

/// A hook told each transaction's [`Plan`] before it is sent (the CLI prints
/// it); the default tells no one.
#[derive(Clone, Default)]
pub struct Announce(Option<std::sync::Arc<Hook>>);

/// What an [`Announce`] calls.
type Hook = dyn Fn(&Plan) + Send + Sync;

impl Announce {
    /// A hook that calls `f` with each plan.
    pub fn new(f: impl Fn(&Plan) + Send + Sync + 'static) -> Announce {
        Announce(Some(std::sync::Arc::new(f)))
    }

    /// Tells the hook, if any.
    pub fn tell(&self, plan: &Plan) {
        if let Some(f) = &self.0 {
            f(plan);
        }
    }
}

impl fmt::Debug for Announce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Announce(hook)"
        } else {
            "Announce(none)"
        })
    }
}

impl PartialEq for Announce {
    /// Equal when both tell no one or both tell the same hook.
    fn eq(&self, other: &Announce) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Announce {}

impl Default for TxOptions {
    fn default() -> TxOptions {
        TxOptions {
            gas_limit: None,
            gas_price: None,
            priority_gas_price: None,
            nonce: None,
            legacy: false,
            confirmations: 1,
            request_timeout: Duration::from_secs(30),
            receipt_timeout: Duration::from_secs(120),
            fee_ceiling: DEFAULT_FEE_CEILING,
            announce: Announce::default(),
        }
    }
}

/// A mined transaction, the same shape from both backends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// Transaction hash (on the embedded chain: keccak of chain id, sender,
    /// nonce, target and calldata, since nothing is signed there).
    pub tx_hash: B256,
    /// Block the transaction was mined in.
    pub block: u64,
    /// Total gas used by the transaction (intrinsic cost included).
    pub gas_used: u64,
    /// What the sender paid in fees: gas used × the effective gas price, in
    /// wei (the embedded chain charges none).
    pub fee: u128,
    /// Whether it succeeded.
    pub status: bool,
    /// Logs it emitted.
    pub logs: Vec<Log>,
    /// The created contract, for a deployment.
    pub contract_address: Option<Address>,
}

impl Receipt {
    /// The first event `E` that `emitter` emitted in this receipt, which
    /// must be of a successful transaction.
    pub fn event<E: alloy_sol_types::SolEvent>(&self, emitter: Address) -> Result<E, ChainError> {
        if !self.status {
            return Err(ChainError::Unexpected(format!(
                "transaction {} was mined but reverted (the simulation had passed)",
                self.tx_hash
            )));
        }
        self.logs
            .iter()
            .filter(|log| log.address == emitter)
            .find_map(|log| E::decode_log(log).ok())
            .map(|log| log.data)
            .ok_or_else(|| {
                ChainError::Unexpected(format!(
                    "transaction {} emitted no {} event",
                    self.tx_hash,
                    E::SIGNATURE
                ))
            })
    }
}

/// A log and where it was emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedAt {
    /// Block of the transaction.
    pub block: u64,
    /// The transaction that emitted it.
    pub tx: B256,
    /// The log.
    pub log: Log,
}

/// Revert data, decoded by name where the error is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revert(pub Bytes);

impl Revert {
    /// The arena's custom error, if the data is one.
    pub fn arena_error(&self) -> Option<IArena::IArenaErrors> {
        use IArena::{AlreadySolved, IArenaErrors as E, PuzzleNotAContract, WrongSolution};
        // Each error on its own: the generated IArenaErrors decoder indexes
        // a table, and its bounds check would carry a panic location in the
        // build directory (OUT_DIR) into the binary (docs/your-own-puzzle.md:
        // nothing of the build path in an installed octoku).
        let data = &self.0;
        AlreadySolved::abi_decode(data)
            .map(E::AlreadySolved)
            .or_else(|_| WrongSolution::abi_decode(data).map(E::WrongSolution))
            .or_else(|_| PuzzleNotAContract::abi_decode(data).map(E::PuzzleNotAContract))
            .ok()
    }
}

impl fmt::Display for Revert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IArena::IArenaErrors as E;
        match self.arena_error() {
            Some(E::AlreadySolved(e)) => return write!(f, "AlreadySolved({})", e.solver),
            Some(E::WrongSolution(_)) => return f.write_str("WrongSolution()"),
            Some(E::PuzzleNotAContract(e)) => return write!(f, "PuzzleNotAContract({})", e.puzzle),
            None => {}
        }
        if let Some(name) = curta::error_name(self) {
            return f.write_str(&name);
        }
        if let Some(name) = golf::error_name(self) {
            return f.write_str(&name);
        }
        if let Ok(e) = alloy_sol_types::Revert::abi_decode(&self.0) {
            let reason = octoku_evm::limits::one_line(&e.reason, octoku_evm::limits::NODE_TEXT);
            return write!(f, "Error({reason:?})");
        }
        if let Ok(p) = alloy_sol_types::Panic::abi_decode(&self.0) {
            return write!(f, "Panic({})", p.code);
        }
        if self.0.is_empty() {
            f.write_str("no revert data")
        } else {
            // The data comes from the contract: at most 64 bytes of it are shown.
            const SHOWN: usize = 64;
            match self.0.get(..SHOWN) {
                Some(head) if self.0.len() > SHOWN => write!(
                    f,
                    "unknown error data {}… ({} bytes)",
                    Bytes::copy_from_slice(head),
                    self.0.len()
                ),
                _ => write!(f, "unknown error data {}", self.0),
            }
        }
    }
}

/// Why a chain operation failed. Each renders as one line that already
/// shows its causes; the error that caused it is kept as its `source()`
/// (a file's [`std::io::Error`], serde_json's, the keystore library's, the
/// EVM's), so a caller can walk the chain down to it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// The node did not answer at the transport level.
    #[error("cannot reach the node at {url}: {reason}")]
    Unreachable {
        /// The RPC URL, redacted.
        url: String,
        /// Why (the transport's errors with the URL's secrets taken out).
        #[source]
        reason: Unreachable,
    },
    /// The address has no contract code.
    #[error("no contract code at {0} on this chain (wrong address, or deployed on another chain?)")]
    NoCode(Address),
    /// The call or transaction reverted.
    #[error("the transaction would revert: {0}")]
    Reverted(Revert),
    /// The sender cannot pay for the transaction.
    #[error("insufficient funds: {address} cannot pay for the transaction ({detail})")]
    InsufficientFunds {
        /// The sender.
        address: Address,
        /// The node's or the EVM's words.
        detail: String,
    },
    /// The private key or the account name is malformed.
    #[error("{0}")]
    Key(String),
    /// A keystore cannot be read or decrypted.
    #[error(transparent)]
    Keystore(#[from] KeystoreError),
    /// The address holds a contract, but not an arena (`puzzle()` does not answer).
    #[error(
        "{0} is not an arena: it holds a contract, but it does not answer the arena's puzzle() (a puzzle's address? give the arena's)"
    )]
    NotAnArena(Address),
    /// The address holds a contract, but not Curta (`puzzleId()` and
    /// `authorshipToken()` do not answer).
    #[error(
        "{0} is not Curta: it holds a contract, but it does not answer Curta's puzzleId() and authorshipToken()"
    )]
    NotCurta(Address),
    /// The embedded chain's state file, a deployments file or a pending
    /// Curta Golf submit cannot be used: missing, unreadable, unwritable,
    /// locked too long, not JSON of its shape, or impossible.
    #[error(transparent)]
    State(#[from] FileError),
    /// Execution halted (out of gas, invalid opcode ...).
    #[error("execution halted: {0:?}")]
    Halted(octoku_evm::HaltReason),
    /// The max fee per gas is above the ceiling: nothing was sent.
    #[error(
        "nothing sent: {source_} a max fee of {} per gas, above the ceiling of {} (--fee-ceiling raises it)",
        gwei(*.quoted),
        gwei(*.ceiling)
    )]
    FeeAboveCeiling {
        /// Where the fee came from: "the node quotes" or "--gas-price gives".
        source_: &'static str,
        /// The max fee per gas, in wei.
        quoted: u128,
        /// The ceiling, in wei.
        ceiling: u128,
    },
    /// A mined transaction is no longer in the block it was mined in (a
    /// reorganisation), or its block changed before the confirmations came.
    #[error("transaction {hash} was mined in block {block}, but {what}: not confirmed")]
    Reorged {
        /// The transaction.
        hash: B256,
        /// Where it was first mined.
        block: u64,
        /// What the node says now.
        what: String,
    },
    /// The transaction was sent, but no receipt (or not enough
    /// confirmations) came within the receipt timeout.
    #[error(
        "transaction {hash} sent, but no receipt with {confirmations} confirmation(s) from {url} within {waited}: it may still be mined (look it up by its hash before sending again)"
    )]
    NotMined {
        /// The transaction.
        hash: B256,
        /// The confirmations waited for.
        confirmations: u64,
        /// The node's URL, redacted.
        url: String,
        /// How long octoku waited (`120 s`).
        waited: String,
    },
    /// The node answered with an error that is none of the above (its
    /// JSON-RPC error message and code, or its HTTP status and body).
    #[error("the node refused: {0}")]
    Node(String),
    /// The node's answer passed the size limit of one response.
    #[error("the node refused: {0}")]
    TooLarge(#[source] cause::AnswerTooLarge),
    /// The RPC client failed in a way that is none of the above.
    #[error("the node refused: {0}")]
    Rpc(#[source] cause::Redacted),
    /// The node answered something that is not a JSON-RPC response
    /// (serde_json's words may quote the answer: shown as one line of at
    /// most [`octoku_evm::limits::NODE_TEXT`] characters).
    #[error(
        "the node at {url} answered something that is not a JSON-RPC response: {}",
        octoku_evm::limits::one_line(&source.to_string(), octoku_evm::limits::NODE_TEXT)
    )]
    NotJsonRpc {
        /// The node's URL, redacted.
        url: String,
        /// serde_json's words.
        source: serde_json::Error,
    },
    /// Return data or a log did not decode as the contract's ABI says.
    #[error(
        "{what}: {}",
        octoku_evm::limits::one_line(&source.to_string(), octoku_evm::limits::NODE_TEXT)
    )]
    Decode {
        /// What did not decode (`a Solved log of 0x…`).
        what: String,
        /// The decoder's error (which may quote the data: shown as one
        /// line of at most [`octoku_evm::limits::NODE_TEXT`] characters).
        source: alloy_sol_types::Error,
    },
    /// The in-memory EVM failed in a way that is not a revert or a halt
    /// (return data that does not decode, a transaction revm refused).
    #[error("{0}")]
    Evm(#[source] octoku_evm::EvmError),
    /// The async runtime of an RPC client could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The node or EVM answered something this crate did not expect.
    #[error("{0}")]
    Unexpected(String),
}

impl ChainError {
    /// Whether a call got no answer of the interface it asked for: the
    /// contract reverted or halted, or its return data did not decode as
    /// the ABI says (the address holds some other contract). A node that
    /// cannot be reached, a key or a file is not this.
    pub fn is_no_answer(&self) -> bool {
        matches!(
            self,
            ChainError::Reverted(_)
                | ChainError::Halted(_)
                | ChainError::Unexpected(_)
                | ChainError::Evm(_)
                | ChainError::Decode { .. }
                | ChainError::NotJsonRpc { .. }
        )
    }
}

/// Wei per gas in gwei, as a user reads it (`100000 gwei`, `0.5 gwei`).
pub fn gwei(wei: u128) -> String {
    let whole = wei / 1_000_000_000;
    let frac = wei % 1_000_000_000;
    if frac == 0 {
        format!("{whole} gwei")
    } else {
        let digits = format!("{frac:09}");
        format!("{whole}.{} gwei", digits.trim_end_matches('0'))
    }
}

impl From<octoku_evm::EvmError> for ChainError {
    /// A revert keeps its data (decoded by name when shown); a halt its reason.
    fn from(e: octoku_evm::EvmError) -> ChainError {
        match e {
            octoku_evm::EvmError::Reverted(data) => ChainError::Reverted(Revert(data)),
            octoku_evm::EvmError::Halted(reason) => ChainError::Halted(reason),
            other => ChainError::Evm(other),
        }
    }
}

/// A chain to deploy to and play on: the embedded one or a node.
#[derive(Debug)]
pub enum Chain {
    /// revm with its state in a local JSON file.
    Embedded(Box<EmbeddedChain>),
    /// A JSON-RPC node.
    Rpc(Box<RpcChain>),
}

impl Chain {
    /// Opens the embedded chain at `path`; `create` makes a fresh one (genesis
    /// with anvil's dev accounts funded) when the file does not exist.
    pub fn embedded(path: &Path, key: &PrivateKey, create: bool) -> Result<Chain, ChainError> {
        Ok(Chain::Embedded(Box::new(EmbeddedChain::open(
            path, key, create,
        )?)))
    }

    /// Connects to the node at `url` (checks it answers `eth_chainId`).
    pub fn rpc(url: &str, key: &PrivateKey) -> Result<Chain, ChainError> {
        Chain::rpc_with(url, key, TxOptions::default())
    }

    /// Connects to the node at `url` with transaction options.
    pub fn rpc_with(url: &str, key: &PrivateKey, options: TxOptions) -> Result<Chain, ChainError> {
        Ok(Chain::Rpc(Box::new(RpcChain::connect(url, key, options)?)))
    }

    /// Connects to the node at `url`, sending as `from`, an account the node
    /// unlocked (`eth_sendTransaction`; no key here).
    pub fn rpc_unlocked(url: &str, from: Address, options: TxOptions) -> Result<Chain, ChainError> {
        Ok(Chain::Rpc(Box::new(RpcChain::connect_unlocked(
            url, from, options,
        )?)))
    }

    /// Sets how the following transactions are priced, numbered and awaited.
    pub fn set_tx_options(&mut self, options: TxOptions) -> Result<(), ChainError> {
        match self {
            Chain::Embedded(c) => c.set_tx_options(options),
            Chain::Rpc(c) => {
                c.set_tx_options(options);
                Ok(())
            }
        }
    }

    /// The current block number.
    pub fn block_number(&mut self) -> Result<u64, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(c.block_number()),
            Chain::Rpc(c) => c.block_number(),
        }
    }

    /// Logs `address` emitted in blocks `from..=to` whose first topics are
    /// `topics` (topic 0 the event, then its indexed arguments), in chain
    /// order, each with its block and transaction.
    pub fn events(
        &mut self,
        address: Address,
        topics: &[B256],
        from: u64,
        to: u64,
    ) -> Result<Vec<LoggedAt>, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(c.events(address, topics, from, to)),
            Chain::Rpc(c) => c.events(address, topics, from, to),
        }
    }

    /// The timestamp of the latest block, in seconds.
    pub fn timestamp(&mut self) -> Result<u64, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(c.timestamp()),
            Chain::Rpc(c) => c.timestamp(),
        }
    }

    /// One line saying which chain this is, e.g. `embedded (.octoku/chain.json)`
    /// or `http://127.0.0.1:8545 (chain id 31337)`.
    pub fn describe(&mut self) -> Result<String, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(format!("embedded ({})", c.path().display())),
            Chain::Rpc(c) => Ok(format!("{} (chain id {})", c.url(), c.chain_id()?)),
        }
    }

    /// The chain id.
    pub fn chain_id(&mut self) -> Result<u64, ChainError> {
        match self {
            Chain::Embedded(_) => Ok(EMBEDDED_CHAIN_ID),
            Chain::Rpc(c) => c.chain_id(),
        }
    }

    /// The address transactions are sent from.
    pub fn sender(&self) -> Address {
        match self {
            Chain::Embedded(c) => c.sender(),
            Chain::Rpc(c) => c.sender(),
        }
    }

    /// The code deployed at `address` (empty for none).
    pub fn code_at(&mut self, address: Address) -> Result<Bytes, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(c.code_at(address)),
            Chain::Rpc(c) => c.code_at(address),
        }
    }

    /// Fails with [`ChainError::NoCode`] unless `address` holds a contract.
    pub fn require_code(&mut self, address: Address) -> Result<(), ChainError> {
        if self.code_at(address)?.is_empty() {
            Err(ChainError::NoCode(address))
        } else {
            Ok(())
        }
    }

    /// Calls `to` without a transaction (eth_call) from the sender.
    pub fn call(&mut self, to: Address, data: Bytes) -> Result<Bytes, ChainError> {
        match self {
            Chain::Embedded(c) => c.call(Some(to), data),
            Chain::Rpc(c) => c.call(Some(to), data),
        }
    }

    /// Simulates, then sends a transaction calling `to` and waits for its receipt.
    pub fn send(&mut self, to: Address, data: Bytes) -> Result<Receipt, ChainError> {
        self.send_value(to, data, U256::ZERO)
    }

    /// [`Chain::send`] with `value` wei attached (the simulation too).
    pub fn send_value(
        &mut self,
        to: Address,
        data: Bytes,
        value: U256,
    ) -> Result<Receipt, ChainError> {
        // A call to an address without code succeeds in the simulation and
        // would be mined, fee paid, doing nothing (an arena gone with a
        // restarted node): refused before anything is sent. A plain
        // transfer (no data) needs no code.
        if !data.is_empty() {
            self.require_code(to)?;
        }
        match self {
            Chain::Embedded(c) => c.send(Some(to), data, value),
            Chain::Rpc(c) => c.send(Some(to), data, value),
        }
    }

    /// Deploys `initcode` (constructor arguments appended) and waits for the
    /// receipt; `contract_address` is set.
    pub fn deploy(&mut self, initcode: Bytes) -> Result<Receipt, ChainError> {
        let receipt = match self {
            Chain::Embedded(c) => c.send(None, initcode, U256::ZERO)?,
            Chain::Rpc(c) => c.send(None, initcode, U256::ZERO)?,
        };
        match receipt.contract_address {
            Some(_) if receipt.status => Ok(receipt),
            _ => Err(ChainError::Unexpected(format!(
                "deployment {} did not create a contract",
                receipt.tx_hash
            ))),
        }
    }

    /// [`Chain::send`] with the node's gas estimate raised by `percent`
    /// unless a gas limit is set (the embedded chain gives every transaction
    /// its block's gas): for calls whose gas depends on the block.
    pub fn send_padded(
        &mut self,
        to: Address,
        data: Bytes,
        percent: u64,
    ) -> Result<Receipt, ChainError> {
        match self {
            Chain::Embedded(c) => c.send(Some(to), data, U256::ZERO),
            Chain::Rpc(c) => c.send_padded(to, data, percent),
        }
    }

    /// Moves a development node's clock `seconds` ahead and mines a block
    /// there (`evm_increaseTime`, `evm_mine`: anvil, hardhat). The embedded
    /// chain has no such clock to move.
    pub fn increase_time(&mut self, seconds: u64) -> Result<(), ChainError> {
        match self {
            Chain::Embedded(_) => Err(ChainError::Unexpected(
                "the embedded chain's clock cannot be moved; expected --rpc-url of a development node".into(),
            )),
            Chain::Rpc(c) => c.increase_time(seconds),
        }
    }

    /// The node's `web3_clientVersion` (e.g. `anvil/v1.7.1`); the embedded
    /// chain answers `octoku-embedded`.
    pub fn client_version(&mut self) -> Result<String, ChainError> {
        match self {
            Chain::Embedded(_) => Ok("octoku-embedded".into()),
            Chain::Rpc(c) => c.client_version(),
        }
    }

    /// The sender's balance in wei.
    pub fn balance(&mut self, address: Address) -> Result<alloy_primitives::U256, ChainError> {
        match self {
            Chain::Embedded(c) => Ok(c.balance(address)),
            Chain::Rpc(c) => c.balance(address),
        }
    }
}

/// Decodes `data` as the given custom error, for callers matching one error.
pub fn decode_error<E: SolError>(revert: &Revert) -> Option<E> {
    E::abi_decode(&revert.0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_keys_control_the_dev_accounts_in_order() {
        for (i, (key, account)) in DEV_KEYS.iter().zip(DEV_ACCOUNTS).enumerate() {
            let key = PrivateKey::parse(key).unwrap();
            assert_eq!(key.address().unwrap().to_checksum(None), account, "key {i}");
        }
    }

    #[test]
    fn key_parses_with_and_without_prefix_and_never_shows() {
        let a = PrivateKey::parse(DEV_KEYS[0]).unwrap();
        let b = PrivateKey::parse(DEV_KEYS[0].trim_start_matches("0x")).unwrap();
        assert_eq!(a.address().unwrap(), b.address().unwrap());
        assert_eq!(a.address().unwrap().to_checksum(None), DEV_ACCOUNTS[0]);
        let shown = format!("{a:?}");
        assert!(
            !shown.contains("ac0974") && shown.contains("redacted"),
            "{shown}"
        );
    }

    #[test]
    fn malformed_keys_are_one_error_without_the_key() {
        for bad in [
            "",
            "0x",
            "0x1234",
            "zz",
            &"g".repeat(64),
            &"0".repeat(64),
            &format!("{}00", DEV_KEYS[0]),
        ] {
            let e = PrivateKey::parse(bad).unwrap_err();
            let text = e.to_string();
            assert!(text.starts_with("private key:"), "{text}");
            assert!(bad.len() < 8 || !text.contains(bad), "{text}");
        }
    }

    #[test]
    fn reverts_decode_by_name() {
        let solver: Address = DEV_ACCOUNTS[1].parse().unwrap();
        let data = IArena::AlreadySolved { solver }.abi_encode();
        assert_eq!(
            Revert(data.into()).to_string(),
            format!("AlreadySolved({solver})")
        );
        let data = IArena::WrongSolution {}.abi_encode();
        assert_eq!(Revert(data.into()).to_string(), "WrongSolution()");
        let data = alloy_sol_types::Revert::from("nope").abi_encode();
        assert_eq!(Revert(data.into()).to_string(), "Error(\"nope\")");
        assert_eq!(Revert(Bytes::new()).to_string(), "no revert data");
    }
}

//! A JSON-RPC node through alloy, behind a synchronous interface: each
//! [`RpcChain`] owns a current-thread tokio runtime and blocks on it.
//!
//! Every transaction is simulated with `eth_call` first; a revert's data is
//! taken from the JSON-RPC error payload and returned decoded, and nothing is
//! sent. Sending signs locally (the key never leaves the process), then polls
//! for the receipt.

use std::{fmt, future::Future, task::Poll, time::Duration};

use alloy_json_rpc::{RequestPacket, ResponsePacket, RpcError};
use alloy_network::{EthereumWallet, ReceiptResponse, TransactionBuilder};
use alloy_primitives::{Address, B256, Bytes, Log, TxKind, U256};
use alloy_provider::{DynProvider, Provider, ProviderBuilder};
use alloy_rpc_client::RpcClient;
use alloy_rpc_types_eth::{Filter, TransactionRequest};
use alloy_transport::{TransportError, TransportErrorKind, TransportFut, TransportResult};

use octoku_evm::limits::{NODE_TEXT, one_line};

use super::{ChainError, LoggedAt, Plan, PrivateKey, Receipt, Revert, TxOptions};
use crate::cause::{AnswerTooLarge, Redacted, Unreachable};

/// Interval between receipt polls.
const RECEIPT_POLL: Duration = Duration::from_millis(50);

/// A node, a signer for the key, and the runtime the requests run on.
pub struct RpcChain {
    /// The URL as octoku shows it: [`redact_url`] of the one given.
    url: String,
    /// What [`redact_url`] hides of the given URL ([`url_secrets`]): taken
    /// out of the transport's errors, which name the URL they failed on.
    secrets: Vec<String>,
    runtime: tokio::runtime::Runtime,
    provider: DynProvider,
    sender: Address,
    chain_id: u64,
    options: TxOptions,
}

impl fmt::Debug for RpcChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RpcChain")
            .field("url", &self.url)
            .field("sender", &self.sender)
            .field("chain_id", &self.chain_id)
            .finish()
    }
}

impl RpcChain {
    /// Connects to `url` and asks for the chain id (so an unreachable node is
    /// reported here, before anything else).
    pub fn connect(
        url: &str,
        key: &PrivateKey,
        options: TxOptions,
    ) -> Result<RpcChain, ChainError> {
        let signer = key.signer()?;
        let sender = signer.address();
        RpcChain::connect_as(url, Some(signer), sender, options)
    }

    /// Connects to `url` sending as `from`, an account the node itself
    /// unlocked (anvil's, or a dev node's): transactions go out unsigned
    /// through `eth_sendTransaction`, as cast's `--unlocked` does.
    pub fn connect_unlocked(
        url: &str,
        from: Address,
        options: TxOptions,
    ) -> Result<RpcChain, ChainError> {
        RpcChain::connect_as(url, None, from, options)
    }

    fn connect_as(
        url: &str,
        signer: Option<alloy_signer_local::PrivateKeySigner>,
        sender: Address,
        options: TxOptions,
    ) -> Result<RpcChain, ChainError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ChainError::Runtime)?;
        let shown = redact_url(url);
        let unreachable = |reason: Unreachable| ChainError::Unreachable {
            url: shown.clone(),
            reason,
        };
        if url.starts_with("wss://") || url.starts_with("ws://") {
            return Err(unreachable(Unreachable::Websocket));
        }
        // reqwest (rustls, no built-in provider) takes the process default
        // provider when it builds a client: ring. Err only means one is set.
        let _ = rustls::crypto::ring::default_provider().install_default();
        if !url.starts_with("http://") && !url.starts_with("https://") {
            return Err(unreachable(Unreachable::NotHttp));
        }
        // The parser's words are fixed texts that never quote the URL.
        let endpoint = reqwest::Url::parse(url)
            .map_err(|e| unreachable(Unreachable::NotAUrl(Redacted::new(&e, &[]))))?;
        let secrets = url_secrets(&endpoint);
        // The whole exchange (connect, send, read the answer) within the
        // request timeout; the answer's size is capped by `CappedHttp`.
        let client = reqwest::Client::builder()
            .timeout(options.request_timeout)
            .build()
            .map_err(|e| unreachable(Unreachable::Transport(Redacted::new(&e, &secrets))))?;
        let transport = CappedHttp {
            client,
            url: endpoint,
            limit: octoku_evm::limits::RPC_RESPONSE,
        };
        let is_local = alloy_transport::utils::guess_local_url(url);
        let client = RpcClient::new(transport, is_local);
        let provider = match signer {
            Some(signer) => ProviderBuilder::new()
                .wallet(EthereumWallet::from(signer))
                .connect_client(client)
                .erased(),
            None => ProviderBuilder::new().connect_client(client).erased(),
        };
        let mut chain = RpcChain {
            url: shown,
            secrets,
            runtime,
            provider,
            sender,
            chain_id: 0,
            options,
        };
        let provider = chain.provider.clone();
        chain.chain_id = chain.request(async move { provider.get_chain_id().await })?;
        Ok(chain)
    }

    /// The node's URL, redacted ([`redact_url`]): what octoku shows of it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The sender's address.
    pub fn sender(&self) -> Address {
        self.sender
    }

    /// The chain id the node reported when connecting.
    pub fn chain_id(&self) -> Result<u64, ChainError> {
        Ok(self.chain_id)
    }

    /// Sets the options of the following transactions.
    pub fn set_tx_options(&mut self, options: TxOptions) {
        self.options = options;
    }

    /// The latest block number.
    pub fn block_number(&self) -> Result<u64, ChainError> {
        let provider = self.provider.clone();
        self.request(async move { provider.get_block_number().await })
    }

    /// Runs one request on the runtime with a timeout, classifying errors.
    fn request<T, F>(&self, future: F) -> Result<T, ChainError>
    where
        F: Future<Output = Result<T, RpcError<TransportErrorKind>>>,
    {
        let limit = self.options.request_timeout;
        match self
            .runtime
            .block_on(async { tokio::time::timeout(limit, future).await })
        {
            Ok(result) => result.map_err(|e| self.classify(e)),
            Err(_) => Err(ChainError::Unreachable {
                url: self.url.clone(),
                reason: Unreachable::Timeout(limit),
            }),
        }
    }

    /// Turns an alloy RPC error into a [`ChainError`].
    fn classify(&self, e: RpcError<TransportErrorKind>) -> ChainError {
        match e {
            RpcError::ErrorResp(payload) => {
                if let Some(data) = payload.as_revert_data() {
                    return ChainError::Reverted(Revert(data));
                }
                let message = one_line(&payload.message, NODE_TEXT);
                let lower = message.to_ascii_lowercase();
                if lower.contains("insufficient funds") || lower.contains("lack of funds") {
                    return ChainError::InsufficientFunds {
                        address: self.sender,
                        detail: message,
                    };
                }
                if lower.contains("revert") {
                    // A revert without data (e.g. `revert()`), or data the node did not attach.
                    return ChainError::Reverted(Revert(Bytes::new()));
                }
                ChainError::Node(format!("{message} (code {})", payload.code))
            }
            RpcError::Transport(TransportErrorKind::HttpError(http)) => {
                ChainError::Node(http_status_line(&http))
            }
            RpcError::Transport(TransportErrorKind::Custom(e))
                if e.downcast_ref::<AnswerTooLarge>().is_some() =>
            {
                match e.downcast::<AnswerTooLarge>() {
                    Ok(too_large) => ChainError::TooLarge(*too_large),
                    Err(e) => ChainError::Rpc(Redacted::new(&*e, &self.secrets)),
                }
            }
            RpcError::Transport(TransportErrorKind::Custom(e))
                if e.downcast_ref::<NotMined>().is_some() =>
            {
                let late = e.downcast_ref::<NotMined>().expect("checked above");
                ChainError::NotMined {
                    hash: late.hash,
                    confirmations: late.confirmations,
                    url: self.url.clone(),
                    waited: seconds(late.waited),
                }
            }
            RpcError::Transport(kind) => ChainError::Unreachable {
                url: self.url.clone(),
                // reqwest names the URL in its errors: its secrets taken out.
                reason: Unreachable::Transport(Redacted::new(&kind, &self.secrets)),
            },
            RpcError::NullResp => {
                ChainError::Unexpected(format!("the node at {} answered null", self.url))
            }
            RpcError::DeserError { err, .. } => ChainError::NotJsonRpc {
                url: self.url.clone(),
                source: err,
            },
            other => ChainError::Rpc(Redacted::new(&other, &self.secrets)),
        }
    }

    /// Runtime code at `address` (latest block).
    pub fn code_at(&self, address: Address) -> Result<Bytes, ChainError> {
        let provider = self.provider.clone();
        self.request(async move { provider.get_code_at(address).await })
    }

    /// Balance of `address` in wei.
    pub fn balance(&self, address: Address) -> Result<U256, ChainError> {
        let provider = self.provider.clone();
        self.request(async move { provider.get_balance(address).await })
    }

    /// Logs `address` emitted with topic 0 `topic0` in blocks `from..=to`,
    /// each with its block number.
    pub fn logs(
        &self,
        address: Address,
        topic0: B256,
        from: u64,
        to: u64,
    ) -> Result<Vec<(u64, Log)>, ChainError> {
        Ok(self
            .events(address, &[topic0], from, to)?
            .into_iter()
            .map(|e| (e.block, e.log))
            .collect())
    }

    /// Logs `address` emitted in blocks `from..=to` whose first topics are
    /// `topics` (topic 0, then topic 1 ...), each with its block and transaction.
    pub fn events(
        &self,
        address: Address,
        topics: &[B256],
        from: u64,
        to: u64,
    ) -> Result<Vec<LoggedAt>, ChainError> {
        let provider = self.provider.clone();
        let mut filter = Filter::new().address(address).from_block(from).to_block(to);
        for (i, topic) in topics.iter().enumerate() {
            filter.topics[i] = (*topic).into();
        }
        let logs = self.request(async move { provider.get_logs(&filter).await })?;
        Ok(logs
            .into_iter()
            .map(|l| LoggedAt {
                block: l.block_number.unwrap_or_default(),
                tx: l.transaction_hash.unwrap_or_default(),
                log: l.inner,
            })
            .collect())
    }

    /// [`RpcChain::send`] (no value) with the node's gas estimate raised by
    /// `percent` when no gas limit is set: for a call whose gas depends on
    /// the block it lands in (a Curta Golf submit runs its course on
    /// `block.prevrandao`), which the estimate's block does not predict.
    pub fn send_padded(
        &mut self,
        to: Address,
        data: Bytes,
        percent: u64,
    ) -> Result<Receipt, ChainError> {
        if self.options.gas_limit.is_some() {
            return self.send(Some(to), data, U256::ZERO);
        }
        // Simulated first, so that a revert reads as it does from `send`.
        self.call_value(Some(to), data.clone(), U256::ZERO)?;
        let provider = self.provider.clone();
        let request = self.request_for(Some(to), data.clone(), U256::ZERO);
        let estimate = self.request(async move { provider.estimate_gas(request).await })?;
        self.options.gas_limit = Some(estimate.saturating_mul(100 + percent) / 100);
        let sent = self.send(Some(to), data, U256::ZERO);
        self.options.gas_limit = None;
        sent
    }

    /// `evm_increaseTime(seconds)` then `evm_mine`, on a development node.
    pub fn increase_time(&self, seconds: u64) -> Result<(), ChainError> {
        let provider = self.provider.clone();
        self.request(async move {
            provider
                .raw_request::<_, serde_json::Value>("evm_increaseTime".into(), (seconds,))
                .await
        })?;
        let provider = self.provider.clone();
        self.request(async move {
            provider
                .raw_request::<_, serde_json::Value>("evm_mine".into(), ())
                .await
        })?;
        Ok(())
    }

    /// The node's `web3_clientVersion`.
    pub fn client_version(&self) -> Result<String, ChainError> {
        let provider = self.provider.clone();
        self.request(async move { provider.get_client_version().await })
    }

    /// The timestamp of the latest block.
    pub fn timestamp(&self) -> Result<u64, ChainError> {
        let provider = self.provider.clone();
        let block = self.request(async move {
            provider
                .get_block_by_number(alloy_rpc_types_eth::BlockNumberOrTag::Latest)
                .await
        })?;
        block
            .map(|b| b.header.timestamp)
            .ok_or_else(|| ChainError::Unexpected(format!("{} has no latest block", self.url)))
    }

    fn request_for(&self, to: Option<Address>, data: Bytes, value: U256) -> TransactionRequest {
        let mut tx = TransactionRequest::default().with_from(self.sender);
        if !value.is_zero() {
            tx = tx.with_value(value);
        }
        match to {
            Some(to) => tx.with_to(to).with_input(data),
            None => tx.with_kind(TxKind::Create).with_input(data),
        }
    }

    /// eth_call from the sender; a revert comes back decoded.
    pub fn call(&self, to: Option<Address>, data: Bytes) -> Result<Bytes, ChainError> {
        self.call_value(to, data, U256::ZERO)
    }

    /// [`RpcChain::call`] with `value` wei attached.
    pub fn call_value(
        &self,
        to: Option<Address>,
        data: Bytes,
        value: U256,
    ) -> Result<Bytes, ChainError> {
        let provider = self.provider.clone();
        let tx = self.request_for(to, data, value);
        self.request(async move { provider.call(tx).await })
    }

    /// The transaction request with the options applied and priced: gas
    /// limit (given or the node's estimate), nonce, and the price (legacy:
    /// the given or the node's gas price; EIP-1559: a fee the user left out
    /// is taken from the node's estimate). A max fee above the ceiling is
    /// refused here, before anything is signed; the plan is announced.
    fn priced_request(
        &self,
        to: Option<Address>,
        data: Bytes,
        value: U256,
    ) -> Result<TransactionRequest, ChainError> {
        let o = &self.options;
        let mut tx = self.request_for(to, data, value);
        if let Some(nonce) = o.nonce {
            tx = tx.with_nonce(nonce);
        }
        let quoted = |given: Option<u128>| {
            if given.is_some() {
                "--gas-price gives"
            } else {
                "the node quotes"
            }
        };
        let (max_fee, priority) = if o.legacy {
            let price = match o.gas_price {
                Some(p) => p,
                None => {
                    let provider = self.provider.clone();
                    self.request(async move { provider.get_gas_price().await })?
                }
            };
            (price, None)
        } else {
            let (max_fee, priority) = match (o.gas_price, o.priority_gas_price) {
                (Some(max), Some(priority)) => (max, priority),
                _ => {
                    let provider = self.provider.clone();
                    let estimate =
                        self.request(async move { provider.estimate_eip1559_fees().await })?;
                    match (o.gas_price, o.priority_gas_price) {
                        (Some(max), _) => (max, estimate.max_priority_fee_per_gas.min(max)),
                        (_, Some(priority)) => (estimate.max_fee_per_gas.max(priority), priority),
                        _ => (estimate.max_fee_per_gas, estimate.max_priority_fee_per_gas),
                    }
                }
            };
            if priority > max_fee {
                return Err(ChainError::Node(format!(
                    "priority gas price {priority} is above the max fee per gas {max_fee}"
                )));
            }
            (max_fee, Some(priority))
        };
        if max_fee > o.fee_ceiling {
            return Err(ChainError::FeeAboveCeiling {
                source_: quoted(o.gas_price),
                quoted: max_fee,
                ceiling: o.fee_ceiling,
            });
        }
        let gas_limit = match o.gas_limit {
            Some(limit) => limit,
            None => {
                let provider = self.provider.clone();
                let request = tx.clone();
                self.request(async move { provider.estimate_gas(request).await })?
            }
        };
        tx = tx.with_gas_limit(gas_limit);
        tx = match priority {
            None => tx.with_gas_price(max_fee),
            Some(priority) => tx
                .with_max_fee_per_gas(max_fee)
                .with_max_priority_fee_per_gas(priority),
        };
        o.announce.tell(&Plan {
            to,
            value,
            gas_limit,
            max_fee_per_gas: max_fee,
            priority_fee_per_gas: priority,
        });
        Ok(tx)
    }

    /// Simulates (eth_call), then signs and sends with `value` wei
    /// attached, then polls for the receipt and waits for the confirmations
    /// asked for.
    pub fn send(
        &mut self,
        to: Option<Address>,
        data: Bytes,
        value: U256,
    ) -> Result<Receipt, ChainError> {
        self.call_value(to, data.clone(), value)?;
        let provider = self.provider.clone();
        let tx = self.priced_request(to, data, value)?;
        let pending = self.request(async move { provider.send_transaction(tx).await })?;
        let hash = *pending.tx_hash();
        if let Some(nonce) = &mut self.options.nonce {
            *nonce += 1;
        }
        let provider = self.provider.clone();
        let (request_timeout, receipt_timeout) =
            (self.options.request_timeout, self.options.receipt_timeout);
        let confirmations = self.options.confirmations.max(1);
        let receipt = self.runtime.block_on(async move {
            let deadline = tokio::time::Instant::now() + receipt_timeout;
            let late = || {
                TransportErrorKind::custom(NotMined {
                    hash,
                    confirmations,
                    waited: receipt_timeout,
                })
            };
            let receipt = loop {
                match tokio::time::timeout(request_timeout, provider.get_transaction_receipt(hash))
                    .await
                {
                    Ok(Ok(Some(receipt))) => break receipt,
                    Ok(Ok(None)) => {}
                    Ok(Err(e)) => return Err(e),
                    Err(_) => {}
                }
                if tokio::time::Instant::now() >= deadline {
                    return Err(late());
                }
                tokio::time::sleep(RECEIPT_POLL).await;
            };
            let mined = receipt.block_number().unwrap_or_default();
            // Confirmed when `confirmations` blocks, the transaction's own
            // included, are on the chain (in u128: a block number near
            // 2^64 does not wrap) ...
            if confirmations <= 1 {
                return Ok((receipt, None));
            }
            loop {
                if let Ok(Ok(latest)) =
                    tokio::time::timeout(request_timeout, provider.get_block_number()).await
                    && u128::from(latest) + 1 >= u128::from(mined) + u128::from(confirmations)
                {
                    break;
                }
                if tokio::time::Instant::now() >= deadline {
                    return Err(late());
                }
                tokio::time::sleep(RECEIPT_POLL).await;
            }
            // ... and the receipt, read again at that depth, is still in the
            // block it was first mined in.
            let again =
                match tokio::time::timeout(request_timeout, provider.get_transaction_receipt(hash))
                    .await
                {
                    Ok(Ok(again)) => again,
                    Ok(Err(e)) => return Err(e),
                    Err(_) => return Err(late()),
                };
            let moved = match again {
                None => Some("the node no longer has its receipt".to_owned()),
                Some(again) if again.block_hash() != receipt.block_hash() => Some(format!(
                    "its receipt now names block {} ({})",
                    again.block_number().unwrap_or_default(),
                    again
                        .block_hash()
                        .map(|h| h.to_string())
                        .unwrap_or_default()
                )),
                Some(_) => None,
            };
            Ok((receipt, moved))
        });
        let (receipt, moved) = receipt.map_err(|e| self.classify(e))?;
        if let Some(what) = moved {
            return Err(ChainError::Reorged {
                hash,
                block: receipt.block_number().unwrap_or_default(),
                what,
            });
        }
        Ok(Receipt {
            tx_hash: receipt.transaction_hash(),
            block: receipt.block_number().unwrap_or_default(),
            gas_used: receipt.gas_used(),
            fee: u128::from(receipt.gas_used()).saturating_mul(receipt.effective_gas_price()),
            status: receipt.status(),
            logs: receipt
                .inner
                .logs()
                .iter()
                .map(|l| l.inner.clone())
                .collect(),
            contract_address: receipt.contract_address(),
        })
    }
}

/// An HTTP error status and what its body says, as one line: `HTTP 501 Not
/// Implemented: <html>…`.
fn http_status_line(http: &alloy_transport::HttpError) -> String {
    let reason = reqwest::StatusCode::from_u16(http.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default();
    let body = one_line(&http.body, NODE_TEXT);
    if body.is_empty() {
        format!("HTTP {}{reason} (not a JSON-RPC answer)", http.status)
    } else {
        format!(
            "HTTP {}{reason} (not a JSON-RPC answer): {body}",
            http.status
        )
    }
}

/// A sent transaction without its receipt (or its confirmations) in time:
/// carried through alloy's transport error, then made a
/// [`ChainError::NotMined`].
#[derive(Debug, thiserror::Error)]
#[error("transaction {hash} sent, but not mined with {confirmations} confirmation(s) in time")]
struct NotMined {
    hash: B256,
    confirmations: u64,
    waited: Duration,
}

/// The length from which a path segment of an RPC URL is taken for a key
/// (Infura's and Alchemy's are 32 characters; `v2`, `rpc`, `mainnet` are
/// shorter).
pub const KEY_LIKE: usize = 12;

/// What [`redact_url`] hides of `url`: its user name and password, its
/// query and fragment, and its path segments of [`KEY_LIKE`] characters or
/// more, longest first (a query holds its keys, replaced whole).
fn url_secrets(url: &reqwest::Url) -> Vec<String> {
    let mut secrets: Vec<String> = [
        Some(url.username()),
        url.password(),
        url.query(),
        url.fragment(),
    ]
    .into_iter()
    .flatten()
    .chain(url.path().split('/').filter(|s| s.len() >= KEY_LIKE))
    .filter(|s| !s.is_empty())
    .map(str::to_owned)
    .collect();
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets
}

/// `url` as octoku may show it: credentials (`user:password@`), the query,
/// the fragment and every path segment of [`KEY_LIKE`] characters or more
/// (an API key) replaced by `<redacted>`; text that is no URL becomes
/// `<an RPC URL that does not parse>`. A loopback URL without any of them,
/// `http://127.0.0.1:8545`, is shown as given.
pub fn redact_url(url: &str) -> String {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return "<an RPC URL that does not parse>".to_owned();
    };
    if parsed.cannot_be_a_base() {
        // `scheme:anything` (no `//`): nothing of it is shown.
        return format!("{}:<redacted>", parsed.scheme());
    }
    let mut shown = format!("{}://", parsed.scheme());
    if !parsed.username().is_empty() || parsed.password().is_some() {
        shown.push_str("<redacted>@");
    }
    shown.push_str(parsed.host_str().unwrap_or_default());
    if let Some(port) = parsed.port() {
        shown.push_str(&format!(":{port}"));
    }
    let path = parsed.path();
    // `http://host` parses to the path `/`: shown only when it was given.
    let slash_given = url
        .split_once("://")
        .and_then(|(_, rest)| {
            rest.find(['/', '?', '#'])
                .map(|i| rest[i..].starts_with('/'))
        })
        .unwrap_or(false);
    if path != "/" || slash_given {
        let segments: Vec<&str> = path
            .split('/')
            .map(|segment| {
                if segment.len() >= KEY_LIKE {
                    "<redacted>"
                } else {
                    segment
                }
            })
            .collect();
        shown.push_str(&segments.join("/"));
    }
    if parsed.query().is_some() {
        shown.push_str("?<redacted>");
    }
    if parsed.fragment().is_some() {
        shown.push_str("#<redacted>");
    }
    shown
}

/// alloy's HTTP transport with the answer's size capped: reqwest's client
/// (its timeout bounds the whole exchange), the body read chunk by chunk
/// and refused past `limit` bytes, where alloy's own transport reads any
/// body whole.
#[derive(Clone, Debug)]
struct CappedHttp {
    client: reqwest::Client,
    url: reqwest::Url,
    limit: u64,
}

impl CappedHttp {
    async fn exchange(self, request: RequestPacket) -> TransportResult<ResponsePacket> {
        let too_large = || TransportErrorKind::custom(AnswerTooLarge { limit: self.limit });
        let body = serde_json::to_vec(&request).map_err(TransportError::ser_err)?;
        let mut response = self
            .client
            .post(self.url.clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .map_err(TransportErrorKind::custom)?;
        if response.content_length().is_some_and(|n| n > self.limit) {
            return Err(too_large());
        }
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(TransportErrorKind::custom)? {
            if (body.len() + chunk.len()) as u64 > self.limit {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            // A JSON-RPC error sent with an HTTP error status is still the node's answer.
            if let Ok(answer) = serde_json::from_slice::<ResponsePacket>(&body)
                && answer.is_error()
            {
                return Ok(answer);
            }
            return Err(TransportErrorKind::http_error(
                status.as_u16(),
                String::from_utf8_lossy(&body).into_owned(),
            ));
        }
        serde_json::from_slice(&body)
            .map_err(|e| TransportError::deser_err(e, String::from_utf8_lossy(&body)))
    }
}

impl tower::Service<RequestPacket> for CappedHttp {
    type Response = ResponsePacket;
    type Error = TransportError;
    type Future = TransportFut<'static>;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> Poll<Result<(), TransportError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: RequestPacket) -> Self::Future {
        Box::pin(self.clone().exchange(request))
    }
}

/// `30 s`, or `1.5 s` for a fraction.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No credential, key or query of an RPC URL survives; what says
    /// which node it is (scheme, host, port, short path words) does.
    #[test]
    fn redact_url_keeps_the_node_and_drops_credentials_keys_and_queries() {
        let cases = [
            ("http://127.0.0.1:8545", "http://127.0.0.1:8545"),
            ("http://127.0.0.1:8545/", "http://127.0.0.1:8545/"),
            (
                "http://127.0.0.1:8545/?key=k",
                "http://127.0.0.1:8545/?<redacted>",
            ),
            (
                "http://127.0.0.1:8545?key=k",
                "http://127.0.0.1:8545?<redacted>",
            ),
            (
                "https://alice:s3cret@node.example:8443/rpc",
                "https://<redacted>@node.example:8443/rpc",
            ),
            (
                "https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161",
                "https://mainnet.infura.io/v3/<redacted>",
            ),
            (
                "https://node.example/rpc?apikey=k3y&x=1#frag",
                "https://node.example/rpc?<redacted>#<redacted>",
            ),
            (
                "not a url at all s3cret",
                "<an RPC URL that does not parse>",
            ),
        ];
        for (given, shown) in cases {
            assert_eq!(redact_url(given), shown, "{given}");
        }
    }

    /// The URL octoku keeps for its messages is the redacted one, from the
    /// refusal of an unreachable node on.
    #[test]
    fn an_unreachable_node_is_named_without_its_credentials() {
        // Port 9 on loopback (discard) refuses the connection at once.
        let e = RpcChain::connect(
            "http://bob:hunter2@127.0.0.1:9/v2/AKEYAKEYAKEYAKEY?token=t0k3n",
            &PrivateKey::anvil_default(),
            super::super::TxOptions::default(),
        )
        .unwrap_err()
        .to_string();
        for secret in ["bob", "hunter2", "AKEYAKEYAKEYAKEY", "t0k3n"] {
            assert!(!e.contains(secret), "{secret} in {e}");
        }
        assert!(e.contains("127.0.0.1:9"), "{e}");
    }
}

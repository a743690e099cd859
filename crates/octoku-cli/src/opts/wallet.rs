//! Who signs and how transactions are sent: the flags of Foundry's cast.
//!
//! A key comes from exactly one of `--private-key`, `--keystore PATH`,
//! `--account NAME` (a keystore in `~/.foundry/keystores`) or `-i` (typed at
//! a prompt that does not echo). A keystore's password comes from
//! `--password`, `--password-file` or a prompt. `--from` names "my" address
//! for reads without any key. Keys and passwords are never printed or logged.

use std::{convert::Infallible, fmt, path::PathBuf, str::FromStr, time::Duration};

use octoku_chain::{Announce, Plan, PrivateKey, TxOptions, curta::ether, gwei, signer};
use octoku_core::Address;
use octoku_evm::limits;

use crate::error::chain_error;
use crate::{error::CliError, input};

/// A command-line secret: kept as typed, never shown by `Debug`.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// The secret's text, for the one place that consumes it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl FromStr for Secret {
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Infallible> {
        // Never validated here: clap would quote the value in its error.
        Ok(Secret(s.to_string()))
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// The signer flags.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Signer (as in cast)")]
pub struct SignerArgs {
    /// Private key to sign with (32 bytes of hex). Prefer a keystore: a key on
    /// the command line is visible to other users of the machine.
    #[arg(long, env = "PRIVATE_KEY", value_name = "KEY", hide_env_values = true)]
    pub private_key: Option<Secret>,
    /// A Web3 Secret Storage (v3) keystore file, as cast and geth write them.
    #[arg(
        long,
        env = "ETH_KEYSTORE",
        value_name = "PATH",
        conflicts_with_all = ["private_key", "account", "interactive"]
    )]
    pub keystore: Option<PathBuf>,
    /// The keystore named NAME in ~/.foundry/keystores (`cast wallet import NAME`).
    #[arg(
        long,
        env = "ETH_KEYSTORE_ACCOUNT",
        value_name = "NAME",
        conflicts_with_all = ["private_key", "interactive"]
    )]
    pub account: Option<String>,
    /// The keystore's password (else --password-file, else a prompt).
    #[arg(
        long,
        env = "ETH_PASSWORD",
        value_name = "PASSWORD",
        hide_env_values = true,
        conflicts_with = "password_file"
    )]
    pub password: Option<Secret>,
    /// A file whose first line is the keystore's password.
    #[arg(long, value_name = "PATH")]
    pub password_file: Option<PathBuf>,
    /// Type the private key at a prompt (no echo).
    #[arg(short = 'i', long, conflicts_with = "private_key")]
    pub interactive: bool,
    /// Your address, for reading your board without any key; with a key it
    /// must be the key's address.
    #[arg(long, env = "ETH_FROM", value_name = "ADDRESS")]
    pub from: Option<String>,
    /// Send from --from, an account the node itself unlocked (anvil's dev
    /// accounts): unsigned, through eth_sendTransaction, as cast's --unlocked.
    #[arg(
        long,
        requires = "from",
        conflicts_with_all = ["private_key", "keystore", "account", "interactive"]
    )]
    pub unlocked: bool,
}

/// Who the user is: the key, if one was given, and the address.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The signing key, if any source gave one.
    pub key: Option<PrivateKey>,
    /// `--from`, or the key's address.
    pub address: Option<Address>,
}

impl SignerArgs {
    /// Reads the key from its source (decrypting a keystore, prompting if
    /// asked) and checks `--from` against it.
    pub fn identity(&self) -> Result<Identity, CliError> {
        let key = self.key()?;
        let from = self.from.as_deref().map(input::address).transpose()?;
        let key_address = key
            .as_ref()
            .map(|k| k.address().map_err(chain_error))
            .transpose()?;
        if let (Some(from), Some(signer)) = (from, key_address)
            && from != signer
        {
            return Err(CliError::Input(format!(
                "--from {from} is not the signer's address {signer}; expected the same address or no --from"
            )));
        }
        Ok(Identity {
            key,
            address: from.or(key_address),
        })
    }

    fn key(&self) -> Result<Option<PrivateKey>, CliError> {
        if let Some(secret) = &self.private_key {
            return PrivateKey::parse(secret.expose())
                .map(Some)
                .map_err(chain_error);
        }
        if self.interactive {
            let typed = prompt("private key: ")?;
            return PrivateKey::parse(&typed).map(Some).map_err(chain_error);
        }
        let path = match (&self.keystore, &self.account) {
            (Some(path), _) => path.clone(),
            (None, Some(name)) => {
                let dir = signer::foundry_keystores_dir().ok_or_else(|| {
                    CliError::Input(
                        "--account: HOME is not set, so ~/.foundry/keystores is unknown; pass --keystore PATH".into(),
                    )
                })?;
                signer::account_keystore(&dir, name).map_err(chain_error)?
            }
            (None, None) => {
                if self.password.is_some() || self.password_file.is_some() {
                    return Err(CliError::Input(
                        "--password and --password-file unlock a keystore; expected --keystore or --account with them".into(),
                    ));
                }
                return Ok(None);
            }
        };
        signer::check_keystore(&path).map_err(chain_error)?;
        let password = self.password(&path)?;
        tracing::debug!(keystore = %path.display(), "decrypting the keystore");
        signer::decrypt_keystore(&path, password.as_bytes())
            .map(Some)
            .map_err(chain_error)
    }

    fn password(&self, keystore: &std::path::Path) -> Result<String, CliError> {
        if let Some(p) = &self.password {
            return Ok(p.expose().to_string());
        }
        if let Some(file) = &self.password_file {
            let text = limits::read_file(file, limits::PASSWORD_FILE).map_err(|e| {
                CliError::input_framed(
                    format!("--password-file {}: cannot read it: ", file.display()),
                    e,
                    format!(
                        "; expected a file whose first line is the password (at most {})",
                        limits::size(limits::PASSWORD_FILE)
                    ),
                )
            })?;
            return Ok(text.lines().next().unwrap_or_default().to_string());
        }
        prompt(&format!("password for {}: ", keystore.display()))
    }
}

/// Reads a secret from the terminal without echo.
fn prompt(what: &str) -> Result<String, CliError> {
    rpassword::prompt_password(what).map_err(|e| {
        CliError::input_framed(
            format!("cannot prompt for the {} (", what.trim_end_matches(": ")),
            e,
            "): no terminal? Expected --password, --password-file or --private-key",
        )
    })
}

/// Transaction flags, as in cast.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Transaction options (as in cast)")]
pub struct TxArgs {
    /// Gas limit of each transaction (default: the node's estimate).
    #[arg(long, value_name = "GAS",
          value_parser = clap::value_parser!(u64).range(21_000..=1_000_000_000))]
    pub gas_limit: Option<u64>,
    /// Gas price (legacy) or max fee per gas (EIP-1559): wei, or with a unit
    /// (`2gwei`, `0.5gwei`, `1ether`).
    #[arg(long, visible_alias = "max-fee-per-gas", value_name = "PRICE", value_parser = parse_price)]
    pub gas_price: Option<u128>,
    /// The highest max fee per gas octoku sends with, whoever chose it (the
    /// node's quote or --gas-price): above it nothing is sent (exit 1).
    #[arg(long, value_name = "PRICE", value_parser = parse_price, default_value = "500gwei")]
    pub fee_ceiling: u128,
    /// Max priority fee per gas (EIP-1559), same units as --gas-price.
    #[arg(long, value_name = "PRICE", value_parser = parse_price, conflicts_with = "legacy")]
    pub priority_gas_price: Option<u128>,
    /// Nonce of the first transaction (later ones count up from it).
    #[arg(long, value_name = "NONCE")]
    pub nonce: Option<u64>,
    /// Send legacy (type 0) transactions, for chains without EIP-1559.
    #[arg(long)]
    pub legacy: bool,
    /// Blocks to wait for, the transaction's own included (1: mined).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub confirmations: u64,
    /// Longest wait, in seconds, for each answer of the node and for the
    /// receipt (default: 30 per answer, 120 for the receipt).
    #[arg(long, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: Option<u64>,
}

impl TxArgs {
    /// [`TxArgs::options`], and in text output (not `--json`) each
    /// transaction's most expensive case said on stdout before it is sent.
    pub fn options_shown(&self, json: bool) -> Result<TxOptions, CliError> {
        let mut options = self.options()?;
        if !json {
            options.announce = Announce::new(|plan: &Plan| {
                let to = plan
                    .to
                    .map_or_else(|| "a deployment".to_owned(), |to| format!("to {to}"));
                let value = if plan.value.is_zero() {
                    String::new()
                } else {
                    format!(", value {}", ether(plan.value.saturating_to()))
                };
                // A failed write shows at the result's line (exit 6).
                let _ = crate::outln!(
                    "sending   {to}{value}: fees at most {} (gas limit {} × max fee {})",
                    octoku_chain::curta::fee_at_most(plan.max_fee()),
                    plan.gas_limit,
                    gwei(plan.max_fee_per_gas)
                );
            });
        }
        Ok(options)
    }

    /// The options for the chain; a priority fee above the max fee is bad input.
    pub fn options(&self) -> Result<TxOptions, CliError> {
        if let (Some(max), Some(priority)) = (self.gas_price, self.priority_gas_price)
            && priority > max
        {
            return Err(CliError::Input(format!(
                "--priority-gas-price {priority} is above --gas-price {max} (the max fee per gas); expected at most the max fee"
            )));
        }
        let mut options = TxOptions {
            gas_limit: self.gas_limit,
            gas_price: self.gas_price,
            priority_gas_price: self.priority_gas_price,
            nonce: self.nonce,
            legacy: self.legacy,
            confirmations: self.confirmations,
            fee_ceiling: self.fee_ceiling,
            ..TxOptions::default()
        };
        if let Some(seconds) = self.timeout {
            options.request_timeout = Duration::from_secs(seconds);
            options.receipt_timeout = Duration::from_secs(seconds);
        }
        Ok(options)
    }
}

/// Why a price was refused (the text is quoted as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PriceError {
    /// Not a number of wei, or a number with a unit.
    #[error("{0:?}: expected wei, or a number with a unit such as 2gwei")]
    Malformed(String),
    /// More decimals than the unit has: a fraction of a wei.
    #[error("{0:?}: below one wei")]
    BelowOneWei(String),
    /// Above 2^128 - 1 wei.
    #[error("{0:?}: too large")]
    TooLarge(String),
}

/// Parses a price: an integer number of wei, or a decimal number followed by
/// `wei`, `gwei` or `ether`.
pub fn parse_price(text: &str) -> Result<u128, PriceError> {
    let t = text.trim().to_ascii_lowercase();
    let (number, decimals) = if let Some(n) = t.strip_suffix("gwei") {
        (n, 9)
    } else if let Some(n) = t.strip_suffix("ether") {
        (n, 18)
    } else if let Some(n) = t.strip_suffix("wei") {
        (n, 0)
    } else {
        (t.as_str(), 0)
    };
    let bad = || PriceError::Malformed(text.to_owned());
    let number = number.trim();
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(bad());
    }
    if fraction.len() > decimals {
        return Err(PriceError::BelowOneWei(text.to_owned()));
    }
    let scaled = format!("{whole}{fraction:0<decimals$}");
    scaled
        .parse::<u128>()
        .map_err(|_| PriceError::TooLarge(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_read_in_wei_gwei_and_ether() {
        assert_eq!(parse_price("7"), Ok(7));
        assert_eq!(parse_price("2gwei"), Ok(2_000_000_000));
        assert_eq!(parse_price("0.5gwei"), Ok(500_000_000));
        assert_eq!(parse_price("1ether"), Ok(10u128.pow(18)));
        assert_eq!(parse_price("3wei"), Ok(3));
        assert!(
            parse_price("0.5")
                .unwrap_err()
                .to_string()
                .ends_with("below one wei")
        );
        assert!(parse_price("gwei").is_err());
        assert!(parse_price("-1").is_err());
        assert!(
            parse_price(&"9".repeat(60))
                .unwrap_err()
                .to_string()
                .ends_with("too large")
        );
    }

    #[test]
    fn secrets_do_not_show_in_debug() {
        let shown = format!("{:?}", "0xdeadbeef".parse::<Secret>().unwrap());
        assert_eq!(shown, "<redacted>");
    }
}

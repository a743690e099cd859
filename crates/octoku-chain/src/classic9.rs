//! The 9×9 validators deployed on a chain (`octoku deploy --size 9`,
//! contracts/classic9/): `verify(start, solution)` by `eth_call`, its answer
//! checked against the Rust mirror as the in-memory validators' is
//! ([`octoku_evm::classic9::verify`]).

use std::fmt;

use alloy_primitives::{Address, Bytes, hex};
use octoku_core::classic9::Outcome;
use octoku_evm::{
    RawOutcome,
    classic9::{self as evm, Validator9, Verdict9, Verify9Error},
};

use crate::{Chain, ChainError};

/// Bytes of an answer that is not a validator's shown in [`Classic9ChainError::NotAValidator`].
pub const SHOWN: usize = 64;

/// Why a deployed 9×9 validator gave no verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Classic9ChainError {
    /// The chain failed, or the address holds no code.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The address holds some other contract: its answer to `verify` is
    /// neither a verdict nor the validator's `GridLength` error.
    #[error(
        "{address} is not a 9x9 validator: it answered verify(bytes,bytes) with {} data of {} bytes ({}); expected the address octoku deploy --size 9 printed",
        if *.reverted { "revert" } else { "return" },
        .data.len(),
        Cut(.data)
    )]
    NotAValidator {
        /// The address called.
        address: Address,
        /// Whether it reverted (else it returned).
        reverted: bool,
        /// What it returned or reverted with.
        data: Bytes,
    },
    /// The validator refused the call, or it and the mirror disagree.
    #[error(transparent)]
    Verdict(#[from] Verify9Error),
}

/// Data as `0x` hex, cut to its first [`SHOWN`] bytes (then `…`).
struct Cut<'a>(&'a [u8]);

impl fmt::Display for Cut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.0.get(..SHOWN).unwrap_or(self.0);
        let more = if shown.len() < self.0.len() {
            "…"
        } else {
            ""
        };
        write!(f, "0x{}{more}", hex::encode(shown))
    }
}

/// `eth_call`s `verify(start, solution)` on the 9×9 validator deployed at
/// `address`, and checks its answer against the Rust mirror. The verdict
/// names the chain as [`Chain::describe`] does.
///
/// ```no_run
/// use octoku_chain::{Chain, PrivateKey, classic9};
/// use octoku_core::classic9::{VALID_GRIDS, parse_grid};
/// let key = PrivateKey::anvil_default();
/// let mut chain = Chain::embedded(".octoku/chain.json".as_ref(), &key, false).unwrap();
/// let address = "0x5FbDB2315678afecb367f032d93F642f64180aa3".parse().unwrap();
/// let solution = parse_grid("SOLUTION", VALID_GRIDS[0]).unwrap();
/// let verdict = classic9::verify(&mut chain, address, &[0; 81], &solution).unwrap();
/// assert!(verdict.valid);
/// ```
pub fn verify(
    chain: &mut Chain,
    address: Address,
    start: &[u8],
    solution: &[u8],
) -> Result<Verdict9, Classic9ChainError> {
    let label = chain.describe()?;
    chain.require_code(address)?;
    let data = evm::encode_verify(start, solution);
    let raw = match chain.call(address, data.into()) {
        Ok(output) => RawOutcome {
            success: true,
            output,
            gas: 0,
        },
        Err(ChainError::Reverted(revert)) => RawOutcome {
            success: false,
            output: revert.0,
            gas: 0,
        },
        Err(e) => return Err(e.into()),
    };
    let answer = match evm::outcome(&raw) {
        Ok(Outcome::Returned(valid)) => Ok(valid),
        Ok(Outcome::Error(e)) => Err(e),
        // Like "not an arena": the address holds some other contract.
        Ok(Outcome::Refused) | Err(_) => {
            return Err(Classic9ChainError::NotAValidator {
                address,
                reverted: !raw.success,
                data: raw.output,
            });
        }
    };
    let validator = Validator9::Deployed {
        address,
        chain: label,
    };
    Ok(Verdict9::checked(validator, answer, start, solution, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PrivateKey;
    use octoku_core::classic9::{CELLS, Classic9Error, INVALID_GRIDS, VALID_GRIDS, parse_grid};
    use octoku_evm::Puzzle;

    fn grid(text: &str) -> Vec<u8> {
        parse_grid("GRID", text).unwrap()
    }

    /// A fresh embedded chain in `dir`.
    fn chain(dir: &tempfile::TempDir) -> Chain {
        let path = dir.path().join("chain.json");
        Chain::embedded(&path, &PrivateKey::anvil_default(), true).unwrap()
    }

    fn deploy(chain: &mut Chain, initcode: &[u8]) -> Address {
        let receipt = chain.deploy(Bytes::copy_from_slice(initcode)).unwrap();
        receipt.contract_address.unwrap()
    }

    #[test]
    fn deployed_validators_give_the_mirrors_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        let mut chain = chain(&dir);
        let label = chain.describe().unwrap();
        for puzzle in evm::IMPLEMENTATIONS {
            let artifact = puzzle.classic9_artifact().unwrap();
            let at = deploy(&mut chain, artifact.initcode);
            for (valid, invalid) in VALID_GRIDS.iter().zip(INVALID_GRIDS) {
                let yes = verify(&mut chain, at, &[0; CELLS], &grid(valid)).unwrap();
                assert!(yes.valid, "{puzzle} {valid}");
                assert_eq!(
                    yes.validator(),
                    Some(Validator9::Deployed {
                        address: at,
                        chain: label.clone()
                    })
                );
                assert_eq!((yes.puzzle, yes.gas), (None, None));
                let no = verify(&mut chain, at, &[0; CELLS], &grid(invalid)).unwrap();
                assert!(!no.valid, "{puzzle} {invalid}");
            }
            // Both refuse a solution of 3 bytes.
            let e = verify(&mut chain, at, &[0; CELLS], &[1, 2, 3]).unwrap_err();
            assert!(
                matches!(
                    e,
                    Classic9ChainError::Verdict(Verify9Error::Refused(Classic9Error::GridLength {
                        length: 3
                    }))
                ),
                "{e:?}"
            );
        }
    }

    #[test]
    fn an_8x8_puzzle_is_not_a_validator_and_its_answer_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let mut chain = chain(&dir);
        let at = deploy(&mut chain, Puzzle::Reference.artifact().initcode);
        let e = verify(&mut chain, at, &[0; CELLS], &grid(VALID_GRIDS[0])).unwrap_err();
        let Classic9ChainError::NotAValidator { address, data, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(*address, at);
        let text = e.to_string();
        assert!(
            text.starts_with(&format!(
                "{at} is not a 9x9 validator: it answered verify(bytes,bytes) with "
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("data of {} bytes", data.len())),
            "{text}"
        );
        assert!(
            text.ends_with("; expected the address octoku deploy --size 9 printed"),
            "{text}"
        );
    }

    #[test]
    fn long_data_is_cut_to_64_bytes() {
        let e = Classic9ChainError::NotAValidator {
            address: Address::ZERO,
            reverted: false,
            data: Bytes::from(vec![0xab; 100]),
        };
        assert_eq!(
            e.to_string(),
            format!(
                "{} is not a 9x9 validator: it answered verify(bytes,bytes) with return data of 100 bytes (0x{}…); expected the address octoku deploy --size 9 printed",
                Address::ZERO,
                "ab".repeat(64)
            )
        );
        let short = Classic9ChainError::NotAValidator {
            address: Address::ZERO,
            reverted: true,
            data: Bytes::new(),
        };
        assert!(
            short
                .to_string()
                .contains("with revert data of 0 bytes (0x);"),
            "{short}"
        );
    }

    #[test]
    fn an_address_without_code_is_the_chains_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut chain = chain(&dir);
        let e = verify(
            &mut chain,
            Address::repeat_byte(7),
            &[0; CELLS],
            &[0; CELLS],
        )
        .unwrap_err();
        assert!(
            matches!(e, Classic9ChainError::Chain(ChainError::NoCode(_))),
            "{e:?}"
        );
    }
}

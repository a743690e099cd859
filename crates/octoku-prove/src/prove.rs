//! Equivalence of two contracts' `verify(uint256,uint256)`, from their
//! runtime bytecode: the 8×8 driver of the [`crate::engine`] (its
//! call shape, and the split of the inputs into two cases by the solution's
//! nibbles).

use std::path::Path;

use alloy_primitives::{Bytes, hex};
use alloy_sol_types::SolCall;
use octoku_core::U256;
use octoku_evm::{RawOutcome, bindings::IPuzzle};

use crate::engine::{self, Arg, Case, Found, Shape};
pub use crate::engine::{Figures, ProveError, Side, deployer};
use crate::exec::{self, Call, Limits, Outcome, Stats};
use crate::smt;
use crate::solver::Solver;
use crate::term::Terms;
use crate::validate::{self, Validated};

/// The selector of `verify(uint256,uint256)`.
pub const VERIFY_SELECTOR: [u8; 4] = IPuzzle::verifyCall::SELECTOR;

/// The calls a proof of `verify` covers, in words.
pub const DOMAIN: &str = "every call verify(uint256,uint256) with 68 bytes of calldata (the selector and two words) and no value";

/// The call shape of `verify(uint256 start, uint256 solution)`.
pub fn verify_shape() -> Shape {
    Shape::new::<IPuzzle::verifyCall>(&[("start", Arg::Word), ("solution", Arg::Word)])
}

/// The answer to "do these two verify functions ever differ?".
#[derive(Debug, Clone)]
pub enum Verdict {
    /// They agree on every call of [`verify_shape`] ([`DOMAIN`]), and both
    /// sides' terms were checked against revm ([`crate::validate`]).
    Proved(Validated),
    /// They differ on this input, as replayed in revm.
    Counterexample {
        /// The `start` argument.
        start: U256,
        /// The `solution` argument.
        solution: U256,
        /// The reference's concrete result.
        reference: RawOutcome,
        /// The implementation's concrete result.
        implementation: RawOutcome,
    },
}

/// A finished equivalence check, with every figure a report needs.
#[derive(Debug, Clone)]
pub struct Report {
    /// Proved or refuted.
    pub verdict: Verdict,
    /// Both sides, the queries (`digits.smt2`, `nondigit.smt2`), the solver
    /// and the times (both halves solved at once).
    pub figures: Figures,
}

/// `verify(start, solution)` of `code`, with both arguments the variables
/// `start` and `solution` of `terms` (which must be variables 0 and 1).
pub fn verify_outcome(terms: &mut Terms, code: &[u8]) -> Result<(Outcome, Stats), exec::ExecError> {
    let start = terms.id_at(0);
    let solution = terms.id_at(1);
    let call = Call::abi(terms, VERIFY_SELECTOR, &[start, solution]);
    exec::execute(terms, code, &call, Limits::default())
}

/// A store whose variables 0 and 1 are `start` and `solution`.
pub fn verify_terms() -> Terms {
    let mut terms = Terms::new();
    terms.var("start");
    terms.var("solution");
    terms
}

/// The calldata of `verify(start, solution)`.
pub fn verify_calldata(start: U256, solution: U256) -> Bytes {
    IPuzzle::verifyCall { start, solution }.abi_encode().into()
}

/// Runs `verify(start, solution)` of each runtime code in revm.
pub fn replay(codes: &[&[u8]], start: U256, solution: U256) -> Result<Vec<RawOutcome>, ProveError> {
    engine::replay(codes, &verify_calldata(start, solution))
}

/// Proves `implementation`'s verify equal to `reference`'s on every input, or
/// finds and replays an input where they differ. The queries are written to
/// the directory `query` (created if missing).
pub fn prove_verify(
    reference: &[u8],
    implementation: &[u8],
    query: &Path,
    title: &str,
    solver: &Solver,
) -> Result<Report, ProveError> {
    // Two cases, P and not P, so together every input: every nibble of the
    // solution is a digit 1..8, or some nibble is not. Measured: bitwuzla
    // decides the two halves about 6x faster than the whole (docs/proofs/README.md).
    let digits = smt::all_nibbles_digits("solution");
    let cases = [
        ("digits", digits.clone()),
        ("nondigit", format!("(not {digits})")),
    ]
    .map(|(tag, assume)| Case {
        note: format!(
            "Case {tag}: the solution's nibbles are {} digits 1..8; the other case is the file *.{}.smt2.",
            if tag == "digits" { "all" } else { "not all" },
            if tag == "digits" { "nondigit" } else { "digits" },
        ),
        tag: tag.to_string(),
        assume: Some(assume),
    });
    let proof = engine::prove_equal(
        &verify_shape(),
        (reference, implementation),
        &cases,
        &[format!("octoku: {title}")],
        query,
        solver,
        &validate::verify_values(),
    )?;
    let verdict = match proof.found {
        Found::Proved(v) => Verdict::Proved(v),
        Found::Counterexample {
            values,
            reference,
            implementation,
        } => Verdict::Counterexample {
            start: values[0],
            solution: values[1],
            reference,
            implementation,
        },
    };
    Ok(Report {
        verdict,
        figures: proof.figures,
    })
}

/// A pattern that does not occur exactly once in the code to mutate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the pattern {} occurs {count} times in the code, expected once",
    hex::encode(pattern)
)]
pub struct MutateError {
    /// The bytes looked for.
    pub pattern: Vec<u8>,
    /// How often they occur.
    pub count: usize,
}

/// `code` with the bytes `pattern` (which must occur exactly once) changed:
/// byte `at` of the occurrence becomes `to`. For building mutants.
pub fn mutate(code: &[u8], pattern: &[u8], at: usize, to: u8) -> Result<Vec<u8>, MutateError> {
    let hits: Vec<usize> = (0..code.len().saturating_sub(pattern.len() - 1))
        .filter(|&i| code[i..].starts_with(pattern))
        .collect();
    match hits.as_slice() {
        [i] => {
            let mut out = code.to_vec();
            out[i + at] = to;
            Ok(out)
        }
        _ => Err(MutateError {
            pattern: pattern.to_vec(),
            count: hits.len(),
        }),
    }
}

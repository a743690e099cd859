//! The words a proof's report uses, shared by `prove` and its induction
//! over all seeds: how a replayed call ended, which calls a proof covers,
//! and a label made safe for a directory name.

use octoku_evm::Puzzle;

/// How a replayed call ended, with its data: `returns 0x…` or `reverts 0x…`.
pub(super) fn outcome(success: bool, data: &[u8]) -> String {
    let how = if success { "returns" } else { "reverts" };
    format!("{how} {}", octoku_core::hex::encode_prefixed(data))
}

/// The calls a proof of an author's `generate(address)` covers.
pub(super) const GENERATE_DOMAIN: &str = "every call generate(address) with 36 bytes of calldata (the selector and one word below 2^160) and no value";

/// The calls a proof of a built-in fill covers: its raw-seed harness's.
pub(super) fn harness_domain(puzzle: Puzzle) -> String {
    let signature = match puzzle {
        Puzzle::Fair => "fairFromSeed(uint256)",
        _ => "fill(uint256)",
    };
    format!(
        "every call {signature} of the raw-seed harness (against the reference harness's generateFromSeed(uint256)) with 36 bytes of calldata and no value"
    )
}

/// A name made safe for a directory name: letters, digits, '-' and '_'.
pub(super) fn tag(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

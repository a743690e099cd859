//! What the differential test files share: one in-memory EVM per test
//! thread and the proptest configuration.

use std::cell::RefCell;

use octoku_evm::Machine;
use proptest::test_runner::Config as ProptestConfig;

thread_local! {
    /// This thread's EVM with every contract deployed.
    pub static EVM: RefCell<Machine> = RefCell::new(Machine::new().expect("contracts deploy"));
}

/// `default_cases` per property, or `PROPTEST_CASES` when set; no failure files.
pub fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

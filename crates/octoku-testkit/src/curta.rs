//! The real Curta protocol for tests: its compiled contracts
//! (`../shared/curta/curta.json`, read at run time, never copied into the
//! repository) deployed on anvil by the recipe of its README. No stand-in
//! for Curta anywhere.

use octoku_chain::{
    Chain, PrivateKey,
    primitives::{Address, U256, hex},
};
use serde_json::Value;

use crate::{Anvil, DEV_KEYS};

/// Where the compiled protocol is, relative to the checkout.
pub const CURTA_JSON: &str = "../shared/curta/curta.json";

/// curta.json, or `None` (skipped, one line on stderr) when it is missing;
/// under `CI=true` a missing file fails the test with that line.
pub fn artifacts() -> Option<Value> {
    crate::shared_artifacts(CURTA_JSON, "the Curta tests")
}

/// Curta on a node, and its FlagRenderer (a contract with no `name()`).
#[derive(Debug, Clone, Copy)]
pub struct Deployed {
    /// The Curta contract, owned by dev account 0.
    pub curta: Address,
    /// The FlagRenderer.
    pub renderer: Address,
}

/// Deploys the Curta protocol from `artifacts` on `anvil` by its recipe,
/// from dev account 0: FlagRenderer; AuthorshipToken(Curta's address
/// predicted from the deployer's nonce, one day, `authors`: token 1 to the
/// first, 2 to the second ...); Curta(token, renderer).
pub fn deploy(anvil: &Anvil, artifacts: &Value, authors: &[Address]) -> Deployed {
    use alloy_sol_types::SolValue;
    let key = PrivateKey::parse(DEV_KEYS[0]).unwrap();
    let deployer = key.address().unwrap();
    let mut chain = Chain::rpc(&anvil.url(), &key).expect("anvil answers");
    let creation = |name: &str| {
        hex::decode(artifacts[name]["bytecode"].as_str().expect("creation code")).unwrap()
    };
    let mut deploy = |code: Vec<u8>| {
        chain
            .deploy(code.into())
            .expect("deploys")
            .contract_address
            .unwrap()
    };
    let nonce = anvil.nonce(&deployer.to_string()).expect("a nonce");
    let curta_will_be = deployer.create(nonce + 2);
    let renderer = deploy(creation("FlagRenderer"));
    let mut token_code = creation("AuthorshipToken");
    token_code.extend((curta_will_be, U256::from(86_400), authors.to_vec()).abi_encode_params());
    let token = deploy(token_code);
    let mut curta_code = creation("Curta");
    curta_code.extend((token, renderer).abi_encode_params());
    let curta = deploy(curta_code);
    assert_eq!(curta, curta_will_be, "Curta is where the token expects it");
    Deployed { curta, renderer }
}

//! The real Curta Golf protocol for tests: its compiled contracts
//! (`../shared/curta-golf/curta-golf.json`, read at run time, never copied
//! into the repository) deployed on anvil by the recipe of its README:
//! three libraries linked into the bytecode, Par told CurtaGolf's address
//! before CurtaGolf exists (predicted from the deployer's nonce). No
//! stand-in for Curta Golf anywhere.

use octoku_chain::{
    Chain, PrivateKey,
    primitives::{Address, hex},
};
use serde_json::Value;

use crate::{Anvil, DEV_KEYS};

/// Where the compiled protocol is, relative to the checkout.
pub const CURTA_GOLF_JSON: &str = "../shared/curta-golf/curta-golf.json";

/// curta-golf.json, or `None` (skipped, one line on stderr) when it is
/// missing; under `CI=true` a missing file fails the test with that line.
pub fn artifacts() -> Option<Value> {
    crate::shared_artifacts(CURTA_GOLF_JSON, "the Curta Golf tests")
}

/// Curta Golf on a node.
#[derive(Debug, Clone, Copy)]
pub struct Deployed {
    /// The CurtaGolf contract, owned by dev account 0.
    pub curta_golf: Address,
    /// Its Par token.
    pub par: Address,
    /// Its purity checker.
    pub purity_checker: Address,
}

/// The creation code of `name` with each library of `links` (name,
/// address) written over its placeholders, at the byte offsets the
/// artifact's `linkReferences` give.
fn linked(artifacts: &Value, name: &str, links: &[(&str, Address)]) -> Vec<u8> {
    let artifact = &artifacts[name];
    let text = artifact["bytecode"].as_str().expect("creation code");
    let mut digits = text.trim_start_matches("0x").to_string();
    if let Some(files) = artifact["linkReferences"].as_object() {
        for libraries in files.values() {
            for (library, places) in libraries.as_object().expect("libraries") {
                let (_, address) = links
                    .iter()
                    .find(|(l, _)| l == library)
                    .unwrap_or_else(|| panic!("{name} links {library}, which is not deployed"));
                for place in places.as_array().expect("places") {
                    let start = place["start"].as_u64().expect("start") as usize * 2;
                    digits.replace_range(start..start + 40, &hex::encode(address));
                }
            }
        }
    }
    hex::decode(digits).expect("linked creation code is hex")
}

/// Deploys Curta Golf from `artifacts` on `anvil` by its recipe, from dev
/// account 0 (the owner): Perlin, KingArt (linked to Perlin), ParArt,
/// PurityChecker, Par(CurtaGolf's address, predicted), CurtaGolf(Par,
/// PurityChecker) linked to KingArt.
pub fn deploy(anvil: &Anvil, artifacts: &Value) -> Deployed {
    use alloy_sol_types::SolValue;
    let key = PrivateKey::parse(DEV_KEYS[0]).unwrap();
    let deployer = key.address().unwrap();
    let mut chain = Chain::rpc(&anvil.url(), &key).expect("anvil answers");
    let mut deploy = |code: Vec<u8>| {
        chain
            .deploy(code.into())
            .expect("deploys")
            .contract_address
            .unwrap()
    };
    let perlin = deploy(linked(artifacts, "Perlin", &[]));
    let king_art = deploy(linked(artifacts, "KingArt", &[("Perlin", perlin)]));
    let par_art = deploy(linked(artifacts, "ParArt", &[]));
    let purity_checker = deploy(linked(artifacts, "PurityChecker", &[]));
    let nonce = anvil.nonce(&deployer.to_string()).expect("a nonce");
    let golf_will_be = deployer.create(nonce + 1);
    let mut par_code = linked(artifacts, "Par", &[("ParArt", par_art)]);
    par_code.extend(golf_will_be.abi_encode());
    let par = deploy(par_code);
    let mut golf_code = linked(artifacts, "CurtaGolf", &[("KingArt", king_art)]);
    golf_code.extend((par, purity_checker).abi_encode_params());
    let curta_golf = deploy(golf_code);
    assert_eq!(
        curta_golf, golf_will_be,
        "CurtaGolf is where Par expects it"
    );
    Deployed {
        curta_golf,
        par,
        purity_checker,
    }
}

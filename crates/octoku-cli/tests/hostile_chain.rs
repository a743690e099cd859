//! The `octoku` binary against a node that misbehaves after a transaction
//! went out: a transaction never mined, a receipt that a reorganisation
//! takes back before its confirmations, and a record that cannot be written
//! after sending. Each says what was sent, by hash, and none of them is
//! reported as a node that cannot be reached.

use std::path::Path;
use std::time::{Duration, Instant};

use octoku_testkit::{Anvil, DEV_ACCOUNTS, Run, octoku, temp_dir};
use serde_json::{Value, json};

/// The node's latest block number.
fn block(anvil: &Anvil) -> u64 {
    let n = anvil.request("eth_blockNumber", json!([])).unwrap();
    u64::from_str_radix(n.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// Whether `address` holds code on the node.
fn has_code(anvil: &Anvil, address: &str) -> bool {
    let code = anvil
        .request("eth_getCode", json!([address, "latest"]))
        .unwrap();
    code.as_str().is_some_and(|c| c.len() > 2)
}

/// `octoku deploy --puzzle fair MORE` in `dir`, signed by account 0 on `url`.
fn deploy_fair(dir: &Path, url: &str, more: &[&str]) -> Run {
    octoku!()
        .dir(dir)
        .args(["deploy", "--puzzle", "fair"])
        .args(more)
        .as_account(url, 0)
        .run()
}

/// Every `0x` + 64 hex digits (a transaction hash) in `text`.
fn hashes(text: &str) -> Vec<&str> {
    text.match_indices("0x")
        .filter_map(|(i, _)| text.get(i..i + 66))
        .filter(|h| h[2..].chars().all(|c| c.is_ascii_hexdigit()))
        .collect()
}

/// On a node that never mines, the deployment's first transaction is sent
/// and its receipt never comes: exit 4 naming the transaction as not mined
/// (it may still be), not "cannot reach the node".
#[test]
fn a_transaction_never_mined_is_named_by_its_hash_not_as_an_unreachable_node() {
    let anvil = Anvil::start_with(&["--no-mining"]).expect("anvil starts");
    let dir = temp_dir("never-mined");
    let started = Instant::now();
    let run = deploy_fair(dir.path(), &anvil.url(), &["--timeout", "2"]);
    run.fails(4, "sent, but no receipt with 1 confirmation(s)");
    let line = run.stderr.trim();
    assert!(!line.contains("cannot reach"), "{line}");
    assert!(line.contains("may still be mined"), "{line}");
    let sent = hashes(line);
    assert_eq!(sent.len(), 1, "{line}");
    // The transaction named is the one in the node's pool.
    let pooled = anvil
        .request("eth_getTransactionByHash", json!([sent[0]]))
        .unwrap();
    assert_eq!(pooled["hash"], json!(sent[0]), "{pooled}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// A play waiting for 3 confirmations whose block a reorganisation takes
/// back (anvil reverts to a snapshot taken before it and mines on): the
/// receipt, read again at depth, is gone, and the play is not called
/// confirmed (exit 4).
#[test]
fn a_receipt_taken_back_by_a_reorg_is_not_confirmed() {
    let anvil = Anvil::start().expect("anvil starts");
    let dir = temp_dir("reorged");
    let url = anvil.url();
    let deployed: Value = deploy_fair(dir.path(), &url, &["--json"]).json();
    let arena = deployed["arena"].as_str().unwrap().to_owned();
    let snapshot = anvil.request("evm_snapshot", json!([])).unwrap();
    let before = block(&anvil);
    let play = std::thread::spawn({
        let (dir, url) = (dir.path().to_path_buf(), url.clone());
        move || {
            octoku!()
                .dir(&dir)
                .args(["play", "--arena", &arena])
                .args(["--confirmations", "3", "--timeout", "60"])
                .as_account(&url, 1)
                .run()
        }
    });
    // The play is mined (anvil mines each transaction at once) ...
    let started = Instant::now();
    while block(&anvil) == before {
        assert!(started.elapsed() < Duration::from_secs(60), "never mined");
        std::thread::sleep(Duration::from_millis(20));
    }
    // ... octoku reads its receipt (a poll every 50 ms) and waits for two
    // more blocks; the chain goes back before it and mines three others.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        anvil.request("evm_revert", json!([snapshot])).unwrap(),
        json!(true)
    );
    for _ in 0..3 {
        anvil.request("evm_mine", json!([])).unwrap();
    }
    let run = play.join().unwrap();
    run.fails(4, "but the node no longer has its receipt: not confirmed");
    let line = run.stderr.trim();
    assert_eq!(hashes(line).len(), 1, "{line}");
    assert_eq!(
        anvil
            .request(
                "eth_getTransactionCount",
                json!([DEV_ACCOUNTS[1], "latest"])
            )
            .unwrap(),
        json!("0x0"),
        "the play is gone from the chain"
    );
}

/// Both deployment transactions are mined, then the record cannot be
/// written (its lock's path is a directory): exit 4, and the error names
/// what was sent, both contracts on the chain.
#[test]
fn a_deployment_that_cannot_be_recorded_names_what_was_sent() {
    let anvil = Anvil::start().expect("anvil starts");
    let dir = temp_dir("unrecorded");
    std::fs::create_dir_all(dir.path().join("deployments/31337.json.lock")).unwrap();
    let run = deploy_fair(dir.path(), &anvil.url(), &[]);
    run.fails(4, "sent, but not recorded: puzzle 0x");
    let line = run.stderr.trim();
    assert!(line.contains("cannot open the lock"), "{line}");
    let words: Vec<&str> = line.split([' ', ',', '(', ')', ';']).collect();
    let after = |w: &str| {
        let i = words.iter().position(|x| *x == w).unwrap();
        words[i + 1].to_owned()
    };
    let (puzzle, arena) = (after("puzzle"), after("arena"));
    assert!(has_code(&anvil, &puzzle), "{line}");
    assert!(has_code(&anvil, &arena), "{line}");
    assert_eq!(hashes(line).len(), 2, "both transactions: {line}");
}

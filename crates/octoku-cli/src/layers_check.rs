//! The crates keep their layers (docs/architecture.md): every arrow between
//! octoku's crates points down, and the layers below the chain client build
//! no network stack. Read from the workspace's Cargo.lock, which names every
//! package's dependencies (normal, build and dev together, so a network crate
//! reached through a dev-dependency fails this too).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// octoku's crates, each with its layer (a crate may depend only on crates
/// of a lower layer).
const LAYERS: [(&str, u8); 7] = [
    ("octoku-core", 1),
    ("octoku-evm", 2),
    ("octoku-chain", 3),
    ("octoku-prove", 3),
    ("octoku-serve", 4),
    ("octoku-cli", 5),
    ("octoku-testkit", 6),
];

/// The network stack the chain client brings in.
const NETWORK: [&str; 4] = ["tokio", "hyper", "reqwest", "rustls"];

/// Each package of Cargo.lock with the names of its direct dependencies.
fn lock_graph() -> BTreeMap<String, Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    let text = std::fs::read_to_string(&path).expect("Cargo.lock is readable");
    let lock: toml::Table = text.parse().expect("Cargo.lock is TOML");
    let mut graph = BTreeMap::new();
    for package in lock["package"].as_array().expect("[[package]] entries") {
        let name = package["name"].as_str().expect("a package name").to_owned();
        let deps: Vec<String> = package
            .get("dependencies")
            .and_then(|d| d.as_array())
            .map(|deps| {
                deps.iter()
                    // "name" or "name version" when two versions are locked.
                    .map(|d| {
                        d.as_str()
                            .expect("a dependency")
                            .split(' ')
                            .next()
                            .unwrap()
                            .to_owned()
                    })
                    .collect()
            })
            .unwrap_or_default();
        graph.entry(name).or_insert_with(Vec::new).extend(deps);
    }
    graph
}

/// Every package `name` reaches, itself excluded.
fn closure(graph: &BTreeMap<String, Vec<String>>, name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![name.to_owned()];
    while let Some(next) = stack.pop() {
        for dep in graph.get(&next).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                stack.push(dep.clone());
            }
        }
    }
    seen
}

#[test]
fn every_arrow_between_octokus_crates_points_down() {
    let graph = lock_graph();
    let layer: BTreeMap<&str, u8> = LAYERS.into_iter().collect();
    let mut up = Vec::new();
    for (name, from) in LAYERS {
        let deps = graph
            .get(name)
            .unwrap_or_else(|| panic!("{name} is in Cargo.lock"));
        for dep in deps {
            // The test kit is a dev-dependency of the crates it tests.
            if let Some(&to) = layer.get(dep.as_str())
                && to >= from
                && dep != "octoku-testkit"
            {
                up.push(format!("{name} (layer {from}) -> {dep} (layer {to})"));
            }
        }
    }
    assert!(up.is_empty(), "arrows that do not point down: {up:?}");
}

#[test]
fn the_evm_layer_and_the_prover_build_no_network_stack() {
    let graph = lock_graph();
    for name in ["octoku-core", "octoku-evm", "octoku-prove"] {
        let reached = closure(&graph, name);
        let network: Vec<&str> = NETWORK
            .into_iter()
            .filter(|n| reached.contains(*n))
            .collect();
        assert!(network.is_empty(), "{name} reaches {network:?}");
    }
    // The check can fail: the chain client does reach them.
    let chain = closure(&graph, "octoku-chain");
    assert!(
        NETWORK.iter().all(|n| chain.contains(*n)),
        "octoku-chain reaches the network stack"
    );
}

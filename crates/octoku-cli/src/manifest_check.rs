//! The published crates' manifests say where to read about them, coherently:
//! a repository (one address for all), the README packaged as each crate's
//! readme, `documentation` on docs.rs for a library and the command reference
//! for the binary (docs.rs has no API to show for a binary), and a homepage
//! that is the user's book (docs/README.md in the repository), not a copy of
//! either.

use std::path::Path;

/// The crates `make package` packages, each with whether it is a library.
const PUBLISHED: [(&str, bool); 6] = [
    ("octoku-core", true),
    ("octoku-evm", true),
    ("octoku-chain", true),
    ("octoku-prove", true),
    ("octoku-serve", true),
    ("octoku-cli", false),
];

fn manifest(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).expect("the manifest is readable");
    text.parse().expect("the manifest is TOML")
}

#[test]
fn every_published_crate_says_coherently_where_its_docs_are() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace = manifest(&root.join("Cargo.toml"));
    let shared = workspace["workspace"]["package"]
        .as_table()
        .expect("[workspace.package]");
    let repository = shared["repository"].as_str().expect("a repository");
    let readme = shared["readme"].as_str().expect("a readme");
    assert!(root.join(readme).is_file(), "{readme} exists");
    let homepage = shared["homepage"].as_str().expect("a homepage");
    let book = homepage
        .strip_prefix(&format!("{repository}/blob/main/"))
        .unwrap_or_else(|| panic!("{homepage} is not in {repository}"));
    assert_eq!(book, "docs/README.md", "the homepage is the book's index");
    assert!(root.join(book).is_file(), "{book} exists");
    for (name, library) in PUBLISHED {
        let dir = root.join("crates").join(name);
        let package = manifest(&dir.join("Cargo.toml"))["package"]
            .as_table()
            .expect("[package]")
            .clone();
        let inherited = |key: &str| {
            package
                .get(key)
                .and_then(|v| v.as_table())
                .map(|t| t.get("workspace"))
                == Some(Some(&toml::Value::Boolean(true)))
        };
        for key in ["repository", "readme", "license", "description"] {
            assert!(
                inherited(key) || package.get(key).is_some_and(|v| v.is_str()),
                "{name} has no {key}"
            );
        }
        assert!(
            inherited("homepage"),
            "{name} takes the workspace's homepage"
        );
        assert_eq!(dir.join("src/lib.rs").is_file(), library, "{name}");
        let docs = package["documentation"].as_str().expect("documentation");
        if library {
            assert_eq!(docs, format!("https://docs.rs/{name}"), "{name}");
        } else {
            let page = docs
                .strip_prefix(&format!("{repository}/blob/main/"))
                .unwrap_or_else(|| panic!("{name}: {docs} is not in {repository}"));
            assert!(root.join(page).is_file(), "{name}: {page} exists");
        }
    }
}

//! What `octoku --version` says beyond the version: the commit it was built
//! from, the build profile and the revm it links.
//!
//! The commit comes from the packaged crate's `.cargo_vcs_info.json` when
//! there is one (a `.crate` has no `.git`; its source may even sit inside
//! another checkout, whose HEAD is not this crate's), else from `git`, else
//! "unknown". revm's version is read from `Cargo.lock` (the workspace's, or
//! the one `cargo package` puts in a binary crate), else "unknown".

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

fn main() {
    let dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = packaged_commit(&dir).unwrap_or_else(|| git_commit(&dir));
    let profile = env::var("PROFILE").unwrap_or_else(|_| "unknown".into());
    let revm = [dir.join("Cargo.lock"), dir.join("../../Cargo.lock")]
        .iter()
        .find_map(|lock| locked_version(lock, "revm"))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=OCTOKU_COMMIT={commit}");
    println!("cargo:rustc-env=OCTOKU_PROFILE={profile}");
    println!("cargo:rustc-env=OCTOKU_REVM_VERSION={revm}");
    println!("cargo:rerun-if-changed=build.rs");
    for lock in ["Cargo.lock", "../../Cargo.lock"] {
        watch(&dir.join(lock));
    }
}

/// Reruns this script when `path` changes; a path that does not exist is
/// not watched (cargo would rerun the script on every build).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The commit a packaged crate was made from (`None` outside a package;
/// "unknown" in a package made without git).
fn packaged_commit(dir: &Path) -> Option<String> {
    let info = dir.join(".cargo_vcs_info.json");
    watch(&info);
    let text = fs::read_to_string(info).ok()?;
    let sha = text
        .split("\"sha1\"")
        .nth(1)
        .and_then(|rest| rest.split('"').nth(1))
        .filter(|sha| sha.len() >= 12 && sha.bytes().all(|b| b.is_ascii_hexdigit()));
    Some(sha.map_or_else(|| "unknown".into(), |sha| sha[..12].to_string()))
}

/// HEAD of the checkout holding `dir`; "unknown" without git. Rebuilds when
/// HEAD moves.
fn git_commit(dir: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".into();
    };
    for path in [
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--symbolic-full-name", "HEAD"])
            .and_then(|name| git(&["rev-parse", "--git-path", &name])),
        git(&["rev-parse", "--git-path", "packed-refs"]),
    ]
    .into_iter()
    .flatten()
    {
        watch(&dir.join(path));
    }
    commit
}

/// The version of `name` in the lock file at `lock`.
fn locked_version(lock: &Path, name: &str) -> Option<String> {
    let text = fs::read_to_string(lock).ok()?;
    let wanted = format!("name = \"{name}\"");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(version.trim_end_matches('"').to_string());
        }
    }
    None
}

//! With the `bitwuzla` feature: links bitwuzla 0.9.1 into the binary, found
//! through pkg-config (`bitwuzla.pc` of a static build; set
//! `PKG_CONFIG_PATH` to its `lib/…/pkgconfig`). bitwuzla and CaDiCaL are
//! linked statically; GMP and MPFR, in system directories, dynamically
//! (pkg-config's rule for system libraries), so the binary needs the
//! system's libgmp and libmpfr (Debian `libgmp10`, `libmpfr6`) and no solver
//! or Python. How to build bitwuzla: docs/proofs/smt-solver.md, "Building
//! bitwuzla 0.9.1". Without the feature this script does nothing.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "bitwuzla")]
    link_bitwuzla();
}

#[cfg(feature = "bitwuzla")]
fn link_bitwuzla() {
    // solver/linked.rs declares the C API of exactly this version.
    const VERSION: &str = "0.9.1";
    if let Err(error) = pkg_config::Config::new()
        .statik(true)
        .exactly_version(VERSION)
        .probe("bitwuzla")
    {
        println!(
            "cargo::error=the `bitwuzla` feature links bitwuzla {VERSION} built as a static library, \
             found through pkg-config (set PKG_CONFIG_PATH to its pkgconfig directory; \
             docs/proofs/smt-solver.md \"Building bitwuzla 0.9.1\" says how to build it): {error}"
        );
        return;
    }
    // bitwuzla and CaDiCaL are C++.
    println!("cargo::rustc-link-lib=stdc++");
}

//! With the `bitwuzla` feature: links bitwuzla 0.9.1 into the binary, found
//! through pkg-config (`bitwuzla.pc` of a static build; set
//! `PKG_CONFIG_PATH` to its `lib/…/pkgconfig`), its dependencies GMP and
//! MPFR statically too, so the binary needs no solver, Python or GMP on the
//! machine that runs it. How to build bitwuzla: docs/proofs.md, "The solver
//! in the binary". Without the feature this script does nothing.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "bitwuzla")]
    link_bitwuzla();
}

#[cfg(feature = "bitwuzla")]
fn link_bitwuzla() {
    // solver/linked.rs declares the C API of exactly this version.
    const VERSION: &str = "0.9.1";
    // Static: the libraries bitwuzla.pc names (bitwuzla's own, CaDiCaL's,
    // GMP, MPFR) are linked into the binary, system directories included.
    // SAFETY: the build script is single-threaded here.
    unsafe { std::env::set_var("PKG_CONFIG_ALL_STATIC", "1") };
    if let Err(error) = pkg_config::Config::new()
        .statik(true)
        .exactly_version(VERSION)
        .probe("bitwuzla")
    {
        println!(
            "cargo::error=the `bitwuzla` feature links bitwuzla {VERSION} built as a static library, \
             found through pkg-config (set PKG_CONFIG_PATH to its pkgconfig directory; \
             docs/proofs.md \"The solver in the binary\" says how to build it): {error}"
        );
        return;
    }
    // bitwuzla and CaDiCaL are C++.
    println!("cargo::rustc-link-lib=stdc++");
}

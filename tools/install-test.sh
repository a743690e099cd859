#!/usr/bin/env bash
# make install-test: `cargo install` of octoku-cli from the packaged crates
# (target/package, written by `make package`) into a fresh CARGO_HOME and
# root, with only cargo, rustc and the C toolchain on PATH (no node, npm or
# python), then the installed binary used from an empty directory.
#
# The packaged crates stand in for crates.io through [patch.crates-io]
# (octoku's crates are not published yet). The registry's download cache is
# shared with the caller's CARGO_HOME (downloads only; the index, the
# installed binaries and the build are the fresh home's). INSTALL_TARGET_DIR
# (default: a new directory) is the build directory; pointing it at the
# checkout's target/ reuses the release builds of the dependencies.
# SOLVER picks prove's SMT solver: `builtin` installs with the `bitwuzla`
# feature (bitwuzla 0.9.1 linked in, found through pkg-config and the
# caller's PKG_CONFIG_PATH) and proves golf's verify with it; an SMT-LIB2
# command (z3) proves golf's generate on all seeds instead (verify's
# non-digit half is beyond z3 4.8.12 in minutes). Default: builtin when
# pkg-config finds bitwuzla 0.9.1, else z3.
set -euo pipefail

checkout=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$checkout/Cargo.toml" | head -n 1)
packaged=$checkout/target/package
if [ -z "${SOLVER:-}" ] && pkg-config --exists 'bitwuzla = 0.9.1' 2>/dev/null; then
  SOLVER=builtin
fi
solver=${SOLVER:-z3}
for crate in octoku-core octoku-evm octoku-chain octoku-prove octoku-serve octoku-cli; do
  [ -f "$packaged/$crate-$version/Cargo.toml" ] || {
    echo "install-test: $packaged/$crate-$version is missing: run make package first" >&2
    exit 1
  }
done

place=$(mktemp -d "${TMPDIR:-/tmp}/octoku-install-test-XXXXXX")
trap 'rm -rf "$place"' EXIT
mkdir -p "$place"/{bin,cargo-home,root,work,home,tmp}
target=${INSTALL_TARGET_DIR:-$place/target}

# PATH: cargo, rustc (the toolchain's own binaries, not rustup's proxies),
# the C toolchain, and the solver command; nothing else.
link() { ln -s "$1" "$place/bin/$(basename "$1")"; }
for tool in cargo rustc; do
  link "$(rustup which "$tool" 2>/dev/null || command -v "$tool")"
done
for tool in cc gcc ld as ar; do link "$(command -v "$tool")"; done
features=()
solver_env=()
if [ "$solver" = builtin ]; then
  # The build script finds the static bitwuzla through pkg-config.
  link "$(command -v pkg-config)"
  features=(--features bitwuzla)
  solver_env=(PKG_CONFIG_PATH="${PKG_CONFIG_PATH:-}")
else
  link "$(command -v "$solver")"
fi
ln -s "${CARGO_HOME:-$HOME/.cargo}/registry" "$place/cargo-home/registry"

patches=()
for crate in octoku-core octoku-evm octoku-chain octoku-prove octoku-serve; do
  patches+=(--config "patch.crates-io.$crate.path='$packaged/$crate-$version'")
done

clean_env=(env -i PATH="$place/bin" HOME="$place/home" TMPDIR="$place/tmp"
  CARGO_HOME="$place/cargo-home" "${solver_env[@]}")
for tool in node npm python python3; do
  if "${clean_env[@]}" sh -c "command -v $tool" >/dev/null 2>&1; then
    echo "install-test: $tool is reachable on the clean PATH" >&2
    exit 1
  fi
done

began=$(date +%s)
"${clean_env[@]}" CARGO_TARGET_DIR="$target" cargo install --quiet \
  "${patches[@]}" "${features[@]}" --root "$place/root" --path "$packaged/octoku-cli-$version"
echo "install-test: cargo install took $(( $(date +%s) - began )) s"

octoku=$place/root/bin/octoku
cd "$place/work"
run() {
  echo "\$ octoku $*"
  "${clean_env[@]}" "$octoku" "$@"
}
address=0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045
run generate $address
run verify 0x0000000000003000007001000000000000000040500000060000000000020008 \
  0x7235861418463257457361828621457323681745541728366784532131527468
run solve --size 9 "$(run puzzle --size 9 --seed 7 --format line | tail -n 1)"
run fuzz --cases 10000
run gas
if [ "$solver" = builtin ]; then
  # The linked bitwuzla is the default when nothing else is set.
  run --version
  run prove verify --puzzle golf
else
  # A proof with the solver on PATH: generate on all seeds (z3 proves it in
  # about the CPU time bitwuzla takes; verify's non-digit half is beyond z3
  # 4.8.12 and cvc5 1.0.3 in minutes, docs/proofs/smt-solver.md).
  run prove generate --puzzle golf --all --solver "$solver"
fi
# An author's creation code (the golfed puzzle's, from the checkout's
# generated artifacts) given as a file.
sed -n '/^pub const GOLF: /,/^};/s/.*initcode: &alloy_primitives::hex!("\([0-9a-f]*\)").*/0x\1/p' \
  "$checkout/crates/octoku-evm/src/generated/artifacts.rs" > golf.hex
run check --bytecode @golf.hex --no-prove
run deploy --puzzle fair
run play
# The static site reads the chain it is for: anvil's own binary (not npm's
# node launcher) on a free loopback port, stopped on exit.
anvil=$checkout/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
port=$(( 20000 + RANDOM % 20000 ))
"$anvil" --port "$port" --silent &
anvil_pid=$!
trap 'kill "$anvil_pid" 2>/dev/null; rm -rf "$place"' EXIT
for _ in $(seq 50); do
  "${clean_env[@]}" "$octoku" deploy --puzzle fair --rpc-url "http://127.0.0.1:$port" \
    --private-key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80 \
    > deploy.log 2>&1 && break
  sleep 0.2
done
cat deploy.log
run site --rpc-url "http://127.0.0.1:$port" site
[ -f site/index.html ] || { echo "install-test: site/index.html was not written" >&2; exit 1; }
echo "install-test: every command passed ($(du -h "$octoku" | cut -f1) binary)"

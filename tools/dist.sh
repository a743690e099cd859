#!/usr/bin/env bash
# make dist: target/dist/octoku-VERSION-x86_64-unknown-linux-gnu.tar.gz (the
# release binary, LICENSE, README.md, completions for bash, zsh and fish) and
# its .sha256; then the archived binary, unpacked into an empty directory,
# runs there with a clean environment.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo=${CARGO:-cargo}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
name=octoku-$version-x86_64-unknown-linux-gnu
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "dist: builds the Linux x86_64 archive; this is $(uname -s)-$(uname -m)" >&2; exit 1; }

"$cargo" build --release --locked -q -p octoku-cli
stage=$(mktemp -d "${TMPDIR:-/tmp}/octoku-dist-XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/completions"
cp target/release/octoku LICENSE README.md "$stage/$name/"
strip "$stage/$name/octoku"
octoku=$stage/$name/octoku
"$octoku" completions bash > "$stage/$name/completions/octoku.bash"
"$octoku" completions zsh > "$stage/$name/completions/_octoku"
"$octoku" completions fish > "$stage/$name/completions/octoku.fish"

mkdir -p target/dist
archive=target/dist/$name.tar.gz
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$archive" "$name"
(cd target/dist && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

# The archive as a user gets it: checked, unpacked into an empty directory,
# run there with nothing of the checkout on PATH or in the environment.
try=$stage/try
mkdir -p "$try/work" "$try/home"
(cd target/dist && sha256sum --check --quiet "$name.tar.gz.sha256")
tar -C "$try" -xzf "$archive"
cd "$try/work"
env -i PATH=/usr/bin:/bin HOME="$try/home" "$try/$name/octoku" --version
env -i PATH=/usr/bin:/bin HOME="$try/home" "$try/$name/octoku" generate 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045 > /dev/null
env -i PATH=/usr/bin:/bin HOME="$try/home" "$try/$name/octoku" verify \
  0x0000000000003000007001000000000000000040500000060000000000020008 \
  0x7235861418463257457361828621457323681745541728366784532131527468 > /dev/null
cd - > /dev/null
echo "dist: $archive ($(stat -c %s "$archive") bytes; binary $(stat -c %s "$octoku") bytes unpacked), $(cut -d' ' -f1 "target/dist/$name.tar.gz.sha256")"

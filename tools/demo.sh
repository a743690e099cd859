#!/usr/bin/env bash
# `make demo`: what octoku does, on the real compiled contracts in an in-memory EVM.
set -euo pipefail
octoku=${1:-target/release/octoku}

section() { printf '\n== %s\n\n' "$1"; }

section "Boards that addresses get (generate, in the in-memory EVM; the Rust mirror agrees)"
for address in 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045 0x00000000eCf2b58C296B47caC8C51467c0e307cE 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266; do
  "$octoku" generate "$address"
  echo
done

start=0x0000000000003000007001000000000000000040500000060000000000020008
solution=0x7235861418463257457361828621457323681745541728366784532131527468
section "A solution checked by the contract (verify)"
"$octoku" verify "$start" "$solution"

section "A wrong solution: the contract says no, octoku says why"
"$octoku" verify "$start" 0x7235861418463257457361828621457323681745541728366784532131527467 || true

section "Solving boards: the solver's answer, verified by the contract"
"$octoku" solve --address 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045
echo
"$octoku" solve --address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

section "Not every published board can be won: this address's board has no solution"
"$octoku" solve --address 0xe0522c0611b8c66a5b429ad403b92e84c11173be || true

section "The audit: every 8-cell set generate can pick, decided up to symmetry"
"$octoku" audit

#!/usr/bin/env bash
# `make demo`: what octoku does, on the real compiled contracts in an in-memory EVM.
set -euo pipefail
octoku=$(realpath "${1:-target/release/octoku}")

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

section "The fair puzzle: the same cells, the digits of a hidden valid grid, so it always solves"
"$octoku" solve --address 0xe0522c0611b8c66a5b429ad403b92e84c11173be --puzzle fair

section "The audit: every 8-cell set generate can pick, decided up to symmetry"
"$octoku" audit

section "Sampling: 200,000 addresses' boards solved, published against fair"
"$octoku" sample --puzzle reference --addresses 200000 || true
echo
"$octoku" sample --puzzle fair --addresses 200000

section "On chain: a local anvil node, the fair puzzle and an arena deployed, three players play"
root=$(cd "$(dirname "$0")/.." && pwd)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rpc="http://127.0.0.1:$port"
workdir=$(mktemp -d)
setsid "$root/node_modules/.bin/anvil" --host 127.0.0.1 --port "$port" --silent > "$workdir/anvil.log" 2>&1 &
anvil_pid=$!
trap 'kill -- -"$anvil_pid" 2>/dev/null || true; rm -rf "$workdir"' EXIT
for _ in $(seq 50); do
  "$octoku" board 0x0000000000000000000000000000000000000001 --arena 0x0000000000000000000000000000000000000001 --rpc-url "$rpc" >/dev/null 2>&1 && break
  grep -q "Listening" "$workdir/anvil.log" 2>/dev/null && break
  sleep 0.2
done
# anvil's well-known dev accounts 0, 1 and 2 (public test keys, funded on any anvil).
keys=(0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
      0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d
      0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a)
cd "$workdir"
# The deployment is recorded in deployments/<chain-id>.json; later commands default to it.
"$octoku" deploy --puzzle "${DEMO_PUZZLE:-fair}" --rpc-url "$rpc" --private-key "${keys[0]}"
for i in 2 0 1; do
  echo
  "$octoku" play --rpc-url "$rpc" --private-key "${keys[$i]}"
done

section "Leaderboard (the arena's Solved events and solverCount)"
"$octoku" leaderboard --rpc-url "$rpc"

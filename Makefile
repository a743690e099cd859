# octoku: one-command setup, demo and tests. See README.md.
# (npm ci rejects lockfiles that omit other platforms' optional binaries, a known
# npm limitation; npm install with exact pins in package.json and the committed
# lockfile installs the same versions.)
SHELL := /bin/bash
NODE_BIN := node_modules/.bin
STAMP := node_modules/.octoku-setup
SOLVER_VENV := .venv-solver
SOLVER_STAMP := $(SOLVER_VENV)/.octoku-setup
PYTHON ?= python3
CARGO ?= cargo

.PHONY: contracts install-test setup-z3 dist setup setup-node setup-solver setup-browser demo test lint test-rust test-forge forge-build gas-snapshot fuzz-bench prove prove-all prove-fuzz package clean

## setup: everything the tests use (idempotent): setup-node, setup-solver
## and setup-browser
setup: setup-node setup-solver setup-browser

## setup-node: the pinned solc-js, forge and anvil into node_modules (all
## that the build and the demo need)
setup-node: $(STAMP)

## setup-solver: the pinned SMT solver (bitwuzla, PyPI) into .venv-solver,
## for the proofs of crates/octoku-prove and `octoku solve --sat`
setup-solver: $(SOLVER_STAMP)

$(SOLVER_STAMP): tools/solver-requirements.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "octoku setup: $(PYTHON) is missing; install Python 3.9 or newer (it runs the SMT solver), then run make setup again" >&2; exit 1; }
	$(PYTHON) -m venv $(SOLVER_VENV)
	$(SOLVER_VENV)/bin/pip install --quiet --disable-pip-version-check -r tools/solver-requirements.txt
	@$(SOLVER_VENV)/bin/python -c 'import bitwuzla; print("bitwuzla", bitwuzla.version())'
	@touch $(SOLVER_STAMP)

## setup-browser: Debian's chromium and chromedriver for octoku-serve's browser tests
setup-browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; \
	else echo "octoku setup: the browser tests need Chromium: run 'sudo apt-get install chromium chromium-driver' (Debian), then make setup again" >&2; fi

$(STAMP): package.json package-lock.json tools/solc
	@command -v node >/dev/null 2>&1 || { echo "octoku setup: node is missing; install Node.js 18 or newer (it runs solc-js), then run make setup again" >&2; exit 1; }
	@command -v npm >/dev/null 2>&1 || { echo "octoku setup: npm is missing; install npm (it comes with Node.js), then run make setup again" >&2; exit 1; }
	npm install --no-audit --no-fund --loglevel=error
	@tools/solc --version | tail -n 1
	@$(NODE_BIN)/forge --version | head -n 1
	@$(NODE_BIN)/anvil --version | head -n 1
	@touch $(STAMP)

## demo: several addresses' boards, and a solution checked by the contract
## (installs only what it uses: setup-node)
demo: setup-node
	$(CARGO) build --release -q -p octoku-cli
	@bash tools/demo.sh target/release/octoku

## test: formatting, lints, every suite (cargo and forge), packaging, then
## the install test (the packaged CLI installed and used with no node, npm
## or python)
test: setup lint test-rust test-forge package install-test

## lint: rustfmt, clippy and rustdoc (warnings are errors) on every crate and target
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --release -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --release

test-rust: setup
	$(CARGO) test --workspace --release

## forge-build: every contract and test compiled from scratch; any compiler
## warning or forge lint note fails the build
forge-build: setup-node
	@out=$$($(NODE_BIN)/forge build --force 2>&1); status=$$?; echo "$$out"; \
	if [ $$status -ne 0 ]; then exit $$status; fi; \
	if grep -qi warning <<< "$$out"; then echo "forge build: warnings above; expected none" >&2; exit 1; fi

test-forge: forge-build
	$(NODE_BIN)/forge test

## fuzz-bench: forge's fuzzer and octoku fuzz on the same property and the
## same number of cases, in cases per CPU-second (RUNS=N per forge property)
fuzz-bench: setup-node
	$(CARGO) build --release -q -p octoku-cli
	@tools/fuzz-bench.sh $(or $(RUNS),20000) target/release/octoku

## gas-snapshot: accept the current gas figures into gas-snapshot.txt
gas-snapshot: setup-node
	OCTOKU_UPDATE_GAS_SNAPSHOT=1 $(CARGO) test --release -p octoku-evm --test gas_snapshot

## prove: the symbolic-execution proofs of crates/octoku-prove (also run by test-rust)
prove: setup-node setup-solver
	$(CARGO) test --release -p octoku-prove

## prove-all: the golfed generate equal to the reference's on all 2^256
## seeds, by induction over the draws, on the harness and then on
## contracts/Golf.sol and an author's copy (docs/proofs/induction.md; about three minutes)
prove-all: setup-node setup-solver
	$(CARGO) run --release -q -p octoku-cli -- prove generate --puzzle golf --all
	$(CARGO) test --release -p octoku-prove --test prove_induction -- --ignored

## prove-fuzz: the prover fuzzer's long run (docs/proofs/checking.md): mutants of the
## golfed contracts and random verify bodies, each proved against its
## original, every "proved" checked in revm on 10^5 inputs plus the edge
## words, every refutation replayed; prints the table and exits 1 on any
## false "proved". PROVE_FUZZ_MUTANTS (default 2000), PROVE_FUZZ_SEED
## (default 1), PROVE_FUZZ_TIME_LIMIT (solver seconds per query, default 20);
## false "proved" go to PROVE_FUZZ_SAVE (default target/prove-fuzz)
PROVE_FUZZ_MUTANTS ?= 2000
PROVE_FUZZ_SEED ?= 1
PROVE_FUZZ_TIME_LIMIT ?= 20
PROVE_FUZZ_SAVE ?= target/prove-fuzz
prove-fuzz: setup-node setup-solver
	PROVE_FUZZ_MUTANTS=$(PROVE_FUZZ_MUTANTS) PROVE_FUZZ_SEED=$(PROVE_FUZZ_SEED) \
	PROVE_FUZZ_TIME_LIMIT=$(PROVE_FUZZ_TIME_LIMIT) PROVE_FUZZ_SAVE=$(PROVE_FUZZ_SAVE) \
	$(CARGO) run --release -q -p octoku-prove --example prove_fuzz

## package: what crates.io would get: every published crate packaged and
## built from its .crate alone (the unpublished ones resolved through cargo's
## temporary local registry), with no Node, solc or Python; the verifying
## build is cargo's dev profile in target/debug, without debug info
package:
	@# The verification takes octoku's crates from a temporary local
	@# registry, whose crates cargo takes as immutable: their sources
	@# unpacked by an earlier run of the same version would be built again
	@# instead of the new ones, so they are removed first (octoku's crates
	@# only; they are not on crates.io). Their builds in target/debug are
	@# removed for the same reason: cargo would link the old ones.
	@for c in core evm chain prove serve cli; do rm -rf "$${CARGO_HOME:-$$HOME/.cargo}"/registry/src/*/octoku-$$c-[0-9]*; done
	@rm -rf target/debug/.fingerprint/octoku-* target/debug/deps/liboctoku_* target/debug/deps/octoku_* target/debug/build/octoku-*
	CARGO_PROFILE_DEV_DEBUG=0 $(CARGO) package --workspace --exclude octoku-testkit --exclude octoku-contracts --quiet --allow-dirty

## install-test: `cargo install` of octoku-cli from the packaged crates into
## a fresh CARGO_HOME with only cargo, rustc and the C toolchain on PATH (no
## node, npm or python), then the binary used from an empty directory
## (tools/install-test.sh; SOLVER=CMD picks prove's SMT-LIB2 solver, default
## builtin when pkg-config finds bitwuzla 0.9.1, else z3, installed by
## setup-z3). It builds the CLI and its dependencies a second time
## (docs/testing.md gives its time)
install-test: package setup-z3
	INSTALL_TARGET_DIR=$(CURDIR)/target tools/install-test.sh

## setup-z3: Debian's z3 (an SMT-LIB2 solver on PATH, for the install test's
## proof without Python)
setup-z3:
	@if command -v z3 >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q z3; \
	else echo "octoku setup: the install test needs z3: run 'sudo apt-get install z3' (Debian), then make install-test again" >&2; exit 1; fi

## dist: target/dist/octoku-VERSION-x86_64-unknown-linux-gnu.tar.gz (binary,
## LICENSE, README, bash/zsh/fish completions) and its .sha256, then the
## archived binary run from an empty directory (tools/dist.sh)
dist:
	CARGO=$(CARGO) tools/dist.sh

## contracts: compile contracts/ with the pinned solc into the files
## octoku-evm embeds (crates/octoku-evm/src/generated/); the test of
## crates/octoku-contracts fails when they differ. To embed another
## contract, add one line to WANTED in crates/octoku-contracts/src/lib.rs,
## then run this
contracts: setup-node
	$(CARGO) run --release -q -p octoku-contracts

clean:
	rm -rf target node_modules $(SOLVER_VENV)

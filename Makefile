# octoku: one-command setup, demo and tests. See README.md.
# (npm ci rejects lockfiles that omit other platforms' optional binaries, a known
# npm limitation; npm install with exact pins in package.json and the committed
# lockfile installs the same versions.)
SHELL := /bin/bash
NODE_BIN := node_modules/.bin
STAMP := node_modules/.octoku-setup
CARGO ?= cargo

.PHONY: setup setup-browser demo test test-rust test-forge gas-snapshot clean

## setup: install the pinned solc-js, forge and anvil into node_modules (idempotent)
setup: $(STAMP) setup-browser

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
demo: setup
	$(CARGO) build --release -q -p octoku-cli
	@bash tools/demo.sh target/release/octoku

## test: every suite, cargo and forge
test: setup test-rust test-forge

test-rust: setup
	$(CARGO) test --workspace --release

test-forge: setup
	$(NODE_BIN)/forge test

## gas-snapshot: accept the current gas figures into gas-snapshot.txt
gas-snapshot: setup
	OCTOKU_UPDATE_GAS_SNAPSHOT=1 $(CARGO) test --release -p octoku-evm --test gas_snapshot

clean:
	rm -rf target node_modules

// The chain as the page sees it: ABI words (a selector and 32-byte words,
// the selectors from the page's octoku-abi tag, which the server fills from
// the sol! bindings of contracts/IArena.sol and IPuzzle.sol), JSON-RPC over
// fetch, and an EIP-1193 wallet (window.ethereum).
"use strict";

const OCTOKU_CHAIN = (() => {
  const ABI = JSON.parse(document.querySelector('meta[name="octoku-abi"]').content);

  /** A value as one 32-byte ABI word: 64 hex digits, no 0x. */
  function word(hex) {
    const digits = String(hex).replace(/^0x/i, "").toLowerCase();
    if (!/^[0-9a-f]{0,64}$/.test(digits)) throw new Error(`not a 32-byte word: ${hex}`);
    return digits.padStart(64, "0");
  }

  /** Calldata: the selector, then each argument as one word. */
  function calldata(selector, ...args) {
    return selector + args.map(word).join("");
  }

  /** 64 cells in reading order as the board word (one hex digit a cell). */
  function boardWord(cells) {
    return "0x" + cells.map((v) => v.toString(16)).join("");
  }

  /** The board word's 64 cells. */
  function cellsOf(hex) {
    return [...word(hex)].map((d) => parseInt(d, 16));
  }

  /** The n-th word of ABI-encoded data as a number (small values only). */
  function wordAt(data, n) {
    const digits = String(data).replace(/^0x/i, "").slice(64 * n, 64 * (n + 1));
    return digits ? Number(BigInt("0x" + digits)) : 0;
  }

  /** The n-th word of ABI-encoded data as `0x` and 64 hex digits. */
  function wordHex(data, n) {
    return "0x" + word(String(data).replace(/^0x/i, "").slice(64 * n, 64 * (n + 1)));
  }

  /** Networks by chain id (the ids of chainlist.org), for people to read. */
  const NETWORKS = {
    1: "Ethereum mainnet",
    10: "OP Mainnet",
    56: "BNB Smart Chain",
    100: "Gnosis",
    137: "Polygon",
    8453: "Base",
    17000: "Holesky",
    42161: "Arbitrum One",
    84532: "Base Sepolia",
    560048: "Hoodi",
    11155111: "Sepolia",
    11155420: "OP Sepolia",
    31337: "a local dev chain",
  };

  /** "Sepolia (chain id 11155111)"; an unknown id as "chain id N". */
  function network(chainId) {
    const name = NETWORKS[Number(chainId)];
    return name ? `${name} (chain id ${chainId})` : `chain id ${chainId}`;
  }

  /** An error of a JSON-RPC answer or a wallet, with its code and data. */
  function rpcError(e) {
    const err = new Error(e.message || String(e));
    err.code = e.code;
    err.data = e.data;
    return err;
  }

  /** Sends one JSON-RPC request to `url` (the static site's node). */
  async function rpc(url, method, params) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    } catch (e) {
      throw new Error(`the node at ${url} did not answer: ${e.message}`);
    }
    const answer = await response.json().catch(() => null);
    if (!answer) throw new Error(`the node at ${url} answered HTTP ${response.status} without JSON`);
    if (answer.error) throw rpcError(answer.error);
    return answer.result;
  }

  /** The revert data a node or a wallet attached to an error, if any
   *  (wallets nest it in different places). */
  function revertData(e) {
    for (const d of [e && e.data, e && e.data && e.data.data, e && e.data && e.data.originalError && e.data.originalError.data, e && e.error && e.error.data]) {
      if (typeof d === "string" && /^0x[0-9a-fA-F]{8}/.test(d)) return d;
    }
    return null;
  }

  /** The arena's error by name (AlreadySolved, WrongSolution, ...), or null. */
  function revertName(e) {
    const data = revertData(e);
    return data ? ABI.errors[data.slice(0, 10).toLowerCase()] || null : null;
  }

  /** `0.02 ether`, `20 gwei` or `7 wei`: wei (a BigInt) in the largest
   *  unit that keeps it exact, as the CLI writes it. */
  function ether(wei) {
    const exact = (decimals) => {
      const unit = 10n ** BigInt(decimals);
      const fraction = (wei % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
      return (wei / unit).toString() + (fraction ? "." + fraction : "");
    };
    if (wei >= 10n ** 15n) return exact(18) + " ether";
    if (wei >= 10n ** 6n) return exact(9) + " gwei";
    return wei.toString() + " wei";
  }

  /** EIP-1193 code of a request the user rejected. */
  const REJECTED = 4001;

  /** The injected wallet: accounts, chain and requests. */
  class Wallet {
    constructor(provider) {
      this.provider = provider;
      this.account = null;
      this.chainId = null;
    }

    request(method, params) {
      return this.provider.request({ method, params: params || [] });
    }

    async readChainId() {
      this.chainId = Number(BigInt(await this.request("eth_chainId")));
      return this.chainId;
    }

    /** Asks for the accounts (the wallet's prompt); the first one plays. */
    async connect() {
      const accounts = await this.request("eth_requestAccounts");
      this.account = accounts && accounts.length ? accounts[0] : null;
      await this.readChainId();
      return this.account;
    }

    /** Asks the wallet to switch to chain `want` (where `what`, "the
     *  arena" or "Curta", is) if it is on another; throws an Error whose
     *  `switchRefused` says the wallet said no. */
    async ensureChain(want, what) {
      if ((await this.readChainId()) === want) return;
      const from = this.chainId;
      try {
        await this.request("wallet_switchEthereumChain", [{ chainId: "0x" + want.toString(16) }]);
      } catch (e) {
        const err = new Error(`Your wallet is on chain ${from} and ${what} is on chain ${want}; switching was refused (${e.message}). Switch your wallet to chain ${want} and submit again.`);
        err.switchRefused = true;
        throw err;
      }
      if ((await this.readChainId()) !== want)
        throw Object.assign(new Error(`Your wallet is still on chain ${this.chainId}; ${what} is on chain ${want}. Switch your wallet to chain ${want} and submit again.`), { switchRefused: true });
    }

    /** Polls the transaction's receipt until it is mined (or `limitMs` passes). */
    async receipt(hash, limitMs) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const receipt = await this.request("eth_getTransactionReceipt", [hash]);
        if (receipt) return receipt;
        if (Date.now() > deadline) throw new Error(`transaction ${hash} was not mined within ${Math.round(limitMs / 1000)} s; it may still be`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }

    on(event, listener) {
      if (typeof this.provider.on === "function") this.provider.on(event, listener);
    }
  }

  return { ABI, word, calldata, boardWord, cellsOf, wordAt, wordHex, network, rpc, revertName, ether, REJECTED, Wallet };
})();

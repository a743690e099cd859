// Where the page's data comes from, chosen once at start: the API of the
// octoku serve that served the page, or, on the static site of octoku site,
// JSON-RPC (the wallet once connected to the right chain, the site's RPC URL
// before). Both answer the same questions in the same shapes: info(),
// board(address), verify(start, cells), leaderboard(), and submit(player,
// cells) when the server signs; solveTx(from, cells) and rankOf(receipt)
// say what the wallet sends and how its receipt ranks the player. Another
// game on chain (a Curta puzzle: the board from getPuzzle(id)'s generate,
// Submit to Curta's solve(uint32,uint256) with the phase's fee as the
// value, the leaderboard from SolvePuzzle events with a phase per row) is
// one more source with these methods.
"use strict";

/** The arena's solve(uint256) as the wallet's transaction. */
function arenaSolveTx(arena, from, cells) {
  const { ABI, calldata, boardWord } = OCTOKU_CHAIN;
  return { from, to: arena, data: calldata(ABI.solve, boardWord(cells)) };
}

/** The rank in the arena's Solved event of a mined solve, or null. */
function arenaRank(arena, receipt) {
  const log = (receipt.logs || []).find((l) => String(l.address).toLowerCase() === arena.toLowerCase() && l.topics[0] === OCTOKU_CHAIN.ABI.Solved);
  return log ? OCTOKU_CHAIN.wordAt(log.data, 0) : null;
}

/** The octoku serve API (see the README's JSON API table). */
class ServerSource {
  constructor() {
    this.kind = "server";
    this.practice = true;
    this.token = document.querySelector('meta[name="octoku-token"]').content;
  }

  async api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    if (path === "/api/submit") init.headers["X-Octoku-Token"] = this.token;
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new Error("the server did not answer: " + e.message);
    }
    const data = await response.json().catch(() => ({ error: "HTTP " + response.status }));
    if (!response.ok) {
      const err = new Error(data.error || "HTTP " + response.status);
      err.revert = data.revert;
      throw err;
    }
    return data;
  }

  async info() {
    const i = await this.api("GET", "/api/info");
    this.arena = i.arena;
    return {
      chain: i.chain,
      chainId: i.chain_id,
      arena: i.arena,
      puzzleAddress: i.puzzle_address,
      puzzle: i.puzzle,
      players: i.players,
      // The embedded chain lives in the server's state file: no node a wallet could reach.
      walletCanPlay: !i.chain.startsWith("embedded"),
    };
  }

  async board(address) {
    const s = await this.api("GET", "/api/board/" + encodeURIComponent(address));
    return { address: s.address, start: s.start, cells: s.cells, puzzle: s.puzzle, solvable: s.solvable, reason: s.reason, serverSigns: s.can_submit, solved: s.solved };
  }

  async verify(start, cells) {
    return this.api("POST", "/api/verify", { start, solution: cells.map(String).join("") });
  }

  async leaderboard() {
    return this.api("GET", "/api/leaderboard");
  }

  solveTx(from, cells) {
    return arenaSolveTx(this.arena, from, cells);
  }

  rankOf(receipt) {
    return arenaRank(this.arena, receipt);
  }

  /** The arena's solve, signed by the server (its signer or a dev account). */
  async submit(player, cells) {
    return this.api("POST", "/api/submit", { player, solution: cells.map(String).join("") });
  }
}

/** JSON-RPC to the chain, for the static site. */
class RpcSource {
  constructor(settings, wallet) {
    this.kind = "rpc";
    this.practice = false;
    this.settings = settings;
    this.wallet = wallet;
  }

  /** One read: through the wallet when it is connected to the arena's
   *  chain, else through the site's RPC URL. */
  read(method, params) {
    const w = this.wallet();
    if (w && w.account && w.chainId === this.settings.chain_id) return w.request(method, params);
    return OCTOKU_CHAIN.rpc(this.settings.rpc_url, method, params);
  }

  call(to, data) {
    return this.read("eth_call", [{ to, data }, "latest"]);
  }

  solveTx(from, cells) {
    return arenaSolveTx(this.settings.arena, from, cells);
  }

  rankOf(receipt) {
    return arenaRank(this.settings.arena, receipt);
  }

  async info() {
    const s = this.settings;
    return { chain: s.chain, chainId: s.chain_id, arena: s.arena, puzzleAddress: s.puzzle_address, puzzle: s.puzzle, players: [], walletCanPlay: true };
  }

  async board(address) {
    const { ABI, calldata, cellsOf, wordAt } = OCTOKU_CHAIN;
    const s = this.settings;
    const start = await this.call(s.puzzle_address, calldata(ABI.generate, address));
    const solvedAt = await this.call(s.arena, calldata(ABI.solvedAt, address));
    const cells = cellsOf(start);
    const solvable = OCTOKU_RULES.solvable(cells);
    const rank = wordAt(solvedAt, 1);
    return {
      address,
      start: "0x" + OCTOKU_CHAIN.word(start),
      cells,
      puzzle: s.puzzle,
      solvable,
      reason: solvable ? null : "no completion keeps every row, column and box free of repeats",
      serverSigns: false,
      solved: rank ? { rank, block: wordAt(solvedAt, 0) } : null,
    };
  }

  /** The puzzle's own verify (eth_call), explained by the page's rules. */
  async verify(start, cells) {
    const { ABI, calldata, boardWord, cellsOf, wordAt } = OCTOKU_CHAIN;
    const answer = await this.call(this.settings.puzzle_address, calldata(ABI.verify, start, boardWord(cells)));
    const valid = wordAt(answer, 0) === 1;
    const problems = OCTOKU_RULES.explain(cellsOf(start), cells);
    if (valid === (problems.length > 0))
      throw new Error(`the puzzle says ${valid ? "valid" : "invalid"} but the page's rules say ${problems.length ? "invalid" : "valid"}: this puzzle is not the 8×8 one the page explains`);
    return { valid, gas: null, puzzle: this.settings.puzzle, reason: problems.length ? problems[0].message : null, problems };
  }

  /** Every Solved event of the arena, in rank order (log queries of at
   *  most 10,000 blocks from the arena's deployment block). */
  async leaderboard() {
    const s = this.settings;
    const latest = Number(BigInt(await this.read("eth_blockNumber", [])));
    const solvers = [];
    const PAGE = 10000;
    for (let from = s.from_block; from <= latest; from += PAGE) {
      const to = Math.min(latest, from + PAGE - 1);
      const logs = await this.read("eth_getLogs", [{ address: s.arena, topics: [OCTOKU_CHAIN.ABI.Solved], fromBlock: "0x" + from.toString(16), toBlock: "0x" + to.toString(16) }]);
      for (const log of logs) {
        solvers.push({ address: "0x" + log.topics[1].slice(-40), rank: OCTOKU_CHAIN.wordAt(log.data, 0), block: Number(BigInt(log.blockNumber)) });
      }
    }
    solvers.sort((a, b) => a.rank - b.rank);
    return { arena: s.arena, solvers };
  }
}

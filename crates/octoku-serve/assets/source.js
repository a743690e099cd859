// Where the page's data comes from, chosen once at start: the API of the
// octoku serve that served the page, or, on the static site of octoku site,
// JSON-RPC (the wallet once connected to the right chain, the site's RPC URL
// before). Both answer the same questions in the same shapes: info(),
// board(address) (on Curta with the phase and what a solve costs now),
// phase(address), verify(start, cells), leaderboard(), practicePuzzle(body)
// and practiceText(body) (the static site draws them in the page), and submit(player,
// cells, fee) when the server signs; solveTx(from, cells, fee) and
// solvedBy(receipt, player) say what the wallet sends and how its receipt
// ranks the player. The leaderboard's rows carry each accepted solution. The game is an arena (solve(uint256), ranks from its
// Solved events) or a puzzle on Curta (solve(uint32,uint256) with the
// phase's fee as the value, solvers from its SolvePuzzle events, a phase
// per row).
"use strict";

/** What the wallet sends to solve: the arena's solve(uint256), or Curta's
 *  solve(uint32,uint256) with `fee` wei (a BigInt) as the value. */
function gameSolveTx(game, from, cells, fee) {
  const { ABI, calldata, boardWord } = OCTOKU_CHAIN;
  if (game.kind === "arena") return { from, to: game.arena, data: calldata(ABI.solve, boardWord(cells)) };
  const tx = { from, to: game.curta, data: calldata(ABI.curtaSolve, game.id.toString(16), boardWord(cells)) };
  if (fee) tx.value = "0x" + fee.toString(16);
  return tx;
}

/** The game's event in a mined solve: the arena's Solved (its rank) or
 *  Curta's SolvePuzzle (its phase); null when there is none. */
function gameEvent(game, receipt) {
  const { ABI, wordAt } = OCTOKU_CHAIN;
  const [address, topic] = game.kind === "arena" ? [game.arena, ABI.Solved] : [game.curta, ABI.SolvePuzzle];
  const log = (receipt.logs || []).find((l) => String(l.address).toLowerCase() === address.toLowerCase() && l.topics[0] === topic);
  if (!log) return null;
  return game.kind === "arena" ? { rank: wordAt(log.data, 0), phase: null } : { rank: null, phase: wordAt(log.data, 1) };
}

/** The phase's fee as a BigInt of wei, or null when closed (phase 3). */
function feeOf(text) {
  return text === null || text === undefined ? null : BigInt(text);
}

/** The octoku serve API (see the README's JSON API table). */
class ServerSource {
  constructor() {
    this.kind = "server";
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
    this.game = i.game === "curta" ? { kind: "curta", curta: i.curta, id: i.puzzle_id, name: i.name } : { kind: "arena", arena: i.arena };
    return {
      chain: i.chain,
      chainId: i.chain_id,
      game: this.game,
      puzzleAddress: i.puzzle_address,
      puzzle: i.puzzle,
      players: i.players,
      explorerUrl: i.explorer_url || null,
      // The embedded chain lives in the server's state file: no node a wallet could reach.
      walletCanPlay: !i.chain.startsWith("embedded"),
    };
  }

  async board(address) {
    const s = await this.api("GET", "/api/board/" + encodeURIComponent(address));
    const seat = { address: s.address, start: s.start, cells: s.cells, puzzle: s.puzzle, solvable: s.solvable, reason: s.reason, serverSigns: s.can_submit, solved: s.solved };
    if (s.phase !== undefined) Object.assign(seat, { phase: s.phase, fee: feeOf(s.fee) });
    return seat;
  }

  async phase(address) {
    const s = await this.board(address);
    return { phase: s.phase, fee: s.fee };
  }

  async verify(start, cells) {
    return this.api("POST", "/api/verify", { start, solution: cells.map(String).join("") });
  }

  async leaderboard() {
    return this.api("GET", "/api/leaderboard");
  }

  /** A practice puzzle drawn or read by the server. */
  async practicePuzzle(body) {
    return this.api("POST", "/api/puzzle", body);
  }

  /** A practice board in the header text form, written by the server. */
  async practiceText(body) {
    return this.api("POST", "/api/puzzle/text", body);
  }

  solveTx(from, cells, fee) {
    return gameSolveTx(this.game, from, cells, fee);
  }

  async solvedBy(receipt, player) {
    return solvedByPlayer(this, receipt, player);
  }

  /** The game's solve, signed by the server (its signer or a dev account),
   *  with `fee` wei on Curta. */
  async submit(player, cells, fee) {
    const body = { player, solution: cells.map(String).join("") };
    if (fee) body.value = fee.toString();
    return this.api("POST", "/api/submit", body);
  }
}

/** The rank and phase of `player`'s mined solve: the arena's event gives
 *  the rank; on Curta the event gives the phase and the rank is the
 *  player's place among the solvers. */
async function solvedByPlayer(source, receipt, player) {
  const found = gameEvent(source.game, receipt) || { rank: null, phase: null };
  if (found.rank === null) {
    const board = await source.leaderboard().catch(() => ({ solvers: [] }));
    const row = board.solvers.find((s) => s.address.toLowerCase() === player.toLowerCase());
    if (row) found.rank = row.rank;
  }
  return found;
}

/** JSON-RPC to the chain, for the static site. */
class RpcSource {
  constructor(settings, wallet) {
    this.kind = "rpc";
    this.settings = settings;
    this.wallet = wallet;
    this.game = settings.game === "curta" ? { kind: "curta", curta: settings.curta, id: settings.puzzle_id, name: settings.name } : { kind: "arena", arena: settings.arena };
  }

  /** One read: through the wallet when it is connected to the game's
   *  chain, else through the site's RPC URL. */
  read(method, params) {
    const w = this.wallet();
    if (w && w.account && w.chainId === this.settings.chain_id) return w.request(method, params);
    return OCTOKU_CHAIN.rpc(this.settings.rpc_url, method, params);
  }

  call(to, data) {
    return this.read("eth_call", [{ to, data }, "latest"]);
  }

  solveTx(from, cells, fee) {
    return gameSolveTx(this.game, from, cells, fee);
  }

  async solvedBy(receipt, player) {
    return solvedByPlayer(this, receipt, player);
  }

  /** A practice puzzle drawn or read in the page (practice.js). */
  async practicePuzzle(body) {
    return OCTOKU_PRACTICE.puzzle(body);
  }

  /** A practice board in the header text form, written in the page. */
  async practiceText(body) {
    return OCTOKU_PRACTICE.text(body);
  }

  async info() {
    const s = this.settings;
    return { chain: s.chain, chainId: s.chain_id, game: this.game, puzzleAddress: s.puzzle_address, puzzle: s.puzzle, players: [], walletCanPlay: true, explorerUrl: s.explorer_url || null };
  }

  /** On Curta: the phase now (Curta's rule on the latest block's clock)
   *  and its fee; for an arena, nothing. */
  async phase() {
    if (this.game.kind !== "curta") return { phase: undefined, fee: null };
    const { ABI, calldata, wordAt } = OCTOKU_CHAIN;
    const s = this.settings;
    const puzzle = await this.call(s.curta, calldata(ABI.getPuzzle, s.puzzle_id.toString(16)));
    const first = wordAt(puzzle, 2);
    const block = await this.read("eth_getBlockByNumber", ["latest", false]);
    const now = Number(BigInt(block.timestamp));
    let phase = 1;
    if (first === 0) phase = 0;
    else if (now > first + s.submission_length) phase = 3;
    else if (now > first + s.phase_one_length) phase = 2;
    return { phase, fee: phase === 3 ? null : phase === 2 ? BigInt(s.phase_two_fee) : 0n };
  }

  async board(address) {
    const { ABI, calldata, cellsOf, wordAt } = OCTOKU_CHAIN;
    const s = this.settings;
    const start = await this.call(s.puzzle_address, calldata(ABI.generate, address));
    const cells = cellsOf(start);
    const solvable = OCTOKU_RULES.solvable(cells);
    const seat = {
      address: OCTOKU_KECCAK.checksum(address),
      start: "0x" + OCTOKU_CHAIN.word(start),
      cells,
      puzzle: s.puzzle,
      solvable,
      reason: solvable ? null : "no completion keeps every row, column and box free of repeats",
      serverSigns: false,
      solved: null,
    };
    if (this.game.kind === "arena") {
      const solvedAt = await this.call(s.arena, calldata(ABI.solvedAt, address));
      const rank = wordAt(solvedAt, 1);
      if (rank) seat.solved = { rank, block: wordAt(solvedAt, 0) };
      return seat;
    }
    Object.assign(seat, await this.phase());
    const solved = await this.call(s.curta, calldata(ABI.hasSolvedPuzzle, address, s.puzzle_id.toString(16)));
    if (wordAt(solved, 0) === 1) {
      const row = (await this.leaderboard()).solvers.find((r) => r.address.toLowerCase() === address.toLowerCase());
      seat.solved = row ? { rank: row.rank, block: row.block, solution: row.solution } : { rank: "?", block: "?" };
    }
    return seat;
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

  /** Every solve in order: the arena's Solved events (ranked by the
   *  event), or the Curta puzzle's SolvePuzzle events (ranked by order,
   *  each with its phase); log queries of at most 10,000 blocks from the
   *  deployment block. */
  async leaderboard() {
    const { ABI, wordAt, wordHex, word } = OCTOKU_CHAIN;
    const s = this.settings;
    const curta = this.game.kind === "curta";
    const address = curta ? s.curta : s.arena;
    const topics = curta ? [ABI.SolvePuzzle, "0x" + word(s.puzzle_id.toString(16))] : [ABI.Solved];
    const latest = Number(BigInt(await this.read("eth_blockNumber", [])));
    const solvers = [];
    const PAGE = 10000;
    for (let from = s.from_block; from <= latest; from += PAGE) {
      const to = Math.min(latest, from + PAGE - 1);
      const logs = await this.read("eth_getLogs", [{ address, topics, fromBlock: "0x" + from.toString(16), toBlock: "0x" + to.toString(16) }]);
      for (const log of logs) {
        const who = OCTOKU_KECCAK.checksum("0x" + log.topics[curta ? 2 : 1].slice(-40));
        const block = Number(BigInt(log.blockNumber));
        // Curta's SolvePuzzle data: (solution, phase); the arena's Solved: (rank, solution).
        if (curta) solvers.push({ address: who, rank: solvers.length + 1, block, phase: wordAt(log.data, 1), solution: wordHex(log.data, 0) });
        else solvers.push({ address: who, rank: wordAt(log.data, 0), block, solution: wordHex(log.data, 1) });
      }
    }
    solvers.sort((a, b) => a.rank - b.rank);
    return curta ? { curta: s.curta, puzzle_id: s.puzzle_id, solvers } : { arena: s.arena, solvers };
  }
}

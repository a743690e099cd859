// octoku in the browser: the game's board (8x8, 2x4 boxes; an arena's, or
// a puzzle's on Curta with its phases and fees), checked by the puzzle's
// compiled verify and submitted through the server's signer or the
// player's own wallet (EIP-1193), and practice puzzles of any size. The
// same script runs the served page and the static site (source.js picks
// the data source). Plain script, no build step, no network but this
// server or the site's RPC URL.
"use strict";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- source

/** The static site carries its chain in an octoku-site tag; the served page does not. */
const SITE = document.querySelector('meta[name="octoku-site"]');
/** The injected EIP-1193 wallet, if any (a wallet that injects late
 *  announces itself with `ethereum#initialized`; see the start below). */
let wallet = window.ethereum ? new OCTOKU_CHAIN.Wallet(window.ethereum) : null;
const source = SITE ? new RpcSource(JSON.parse(SITE.content), () => wallet) : new ServerSource();

// ---------------------------------------------------------------- symbols

/** Default symbols for a board of side n: 1-9, then A, B, ... */
function defaultSymbols(n) {
  const out = [];
  for (let d = 1; d <= n; d++) out.push(d <= 9 ? String(d) : String.fromCharCode(55 + d));
  return out;
}

// ---------------------------------------------------------------- board

/** An interactive Sudoku grid: keyboard and mouse input, pencil marks,
 *  undo/redo, repeats highlighted as you type. */
class Board {
  constructor(gridEl, padEl, name) {
    this.grid = gridEl;
    this.pad = padEl;
    this.name = name;
    this.n = 0;
    this.pencil = false;
    this.onchange = () => {};
    gridEl.addEventListener("keydown", (e) => this.key(e));
    gridEl.addEventListener("click", (e) => {
      const cell = e.target.closest(".cell");
      if (cell) this.select(Number(cell.dataset.index), true);
    });
  }

  /** A board of side `size`; `filled` (a solved board's cells) shows
   *  them and locks the board: nothing can be entered any more. */
  load({ size, boxRows, boxCols, cells, symbols, filled }) {
    this.n = size;
    this.boxRows = boxRows;
    this.boxCols = boxCols;
    this.symbols = symbols || defaultSymbols(size);
    this.givens = cells.slice();
    this.values = (filled || cells).slice();
    this.locked = !!filled;
    this.marks = cells.map(() => new Set());
    this.history = [];
    this.future = [];
    this.bad = new Set();
    this.selected = this.givens.findIndex((v) => v === 0);
    if (this.selected < 0) this.selected = 0;
    this.build();
    this.render();
  }

  /** Fills the board with `filled` and locks it (a solve went through). */
  lock(filled) {
    this.values = filled.slice();
    this.marks = this.values.map(() => new Set());
    this.bad = new Set();
    this.locked = true;
    this.render();
  }

  build() {
    const { n, grid } = this;
    grid.style.setProperty("--n", n);
    grid.replaceChildren();
    this.cells = [];
    for (let r = 0; r < n; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.style.display = "contents";
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const el = document.createElement("div");
        el.className = "cell";
        el.setAttribute("role", "gridcell");
        el.dataset.index = i;
        el.dataset.row = r;
        el.dataset.col = c;
        el.tabIndex = -1;
        if ((c + 1) % this.boxCols === 0) el.classList.add("box-right");
        if ((r + 1) % this.boxRows === 0) el.classList.add("box-bottom");
        if (c === n - 1) el.classList.add("last-col");
        if (r === n - 1) el.classList.add("last-row");
        if (this.givens[i]) el.classList.add("given");
        row.appendChild(el);
        this.cells.push(el);
      }
      grid.appendChild(row);
    }
    this.pad.replaceChildren();
    this.symbols.forEach((s, k) => {
      this.pad.appendChild(this.button(s, "Enter " + s, () => this.input(k + 1)));
    });
    this.pad.appendChild(this.button("⌫", "Clear cell", () => this.erase()));
    this.pencilButton = this.button("✎", "Pencil marks", () => {
      this.pencil = !this.pencil;
      this.pencilButton.classList.toggle("on", this.pencil);
      this.pencilButton.setAttribute("aria-pressed", String(this.pencil));
    });
    this.pencilButton.setAttribute("aria-pressed", "false");
    this.pad.appendChild(this.pencilButton);
    this.pad.appendChild(this.button("↶", "Undo", () => this.undo()));
    this.pad.appendChild(this.button("↷", "Redo", () => this.redo()));
  }

  button(text, label, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => {
      action();
      this.focus();
    });
    return b;
  }

  focus() {
    if (this.cells && this.cells[this.selected]) this.cells[this.selected].focus();
  }

  select(i, focus) {
    this.selected = i;
    this.render();
    if (focus) this.focus();
  }

  unitsOf(i) {
    const { n, boxRows, boxCols } = this;
    const r = Math.floor(i / n), c = i % n;
    const br = r - (r % boxRows), bc = c - (c % boxCols);
    const row = [], col = [], box = [];
    for (let k = 0; k < n; k++) {
      row.push(r * n + k);
      col.push(k * n + c);
      box.push((br + Math.floor(k / boxCols)) * n + bc + (k % boxCols));
    }
    return [row, col, box];
  }

  /** Indices of cells whose digit repeats in their row, column or box. */
  conflicts() {
    const { n } = this;
    const out = new Set();
    const units = [];
    for (let k = 0; k < n; k++) {
      const [row] = this.unitsOf(k * n);
      const [, col] = this.unitsOf(k);
      units.push(row, col);
    }
    for (let br = 0; br < n; br += this.boxRows)
      for (let bc = 0; bc < n; bc += this.boxCols) units.push(this.unitsOf(br * n + bc)[2]);
    for (const unit of units) {
      const seen = new Map();
      for (const i of unit) {
        const v = this.values[i];
        if (!v) continue;
        if (!seen.has(v)) seen.set(v, []);
        seen.get(v).push(i);
      }
      for (const list of seen.values()) if (list.length > 1) list.forEach((i) => out.add(i));
    }
    return out;
  }

  describe(i, conflict) {
    const r = Math.floor(i / this.n) + 1, c = (i % this.n) + 1;
    const v = this.values[i];
    let text = `row ${r} column ${c}, `;
    if (this.givens[i]) text += "given " + this.symbols[v - 1];
    else if (v) text += this.symbols[v - 1];
    else if (this.marks[i].size)
      text += "empty, pencil marks " + [...this.marks[i]].sort((a, b) => a - b).map((d) => this.symbols[d - 1]).join(" ");
    else text += "empty";
    if (conflict) text += ", repeated";
    if (this.bad.has(i)) text += ", rejected by the check";
    return text;
  }

  render() {
    const conflicts = this.conflicts();
    const sel = this.selected;
    const peers = new Set(this.unitsOf(sel).flat());
    const selValue = this.values[sel];
    const mcols = Math.ceil(Math.sqrt(this.n));
    this.grid.classList.toggle("locked", !!this.locked);
    this.pad.querySelectorAll("button").forEach((b) => { b.disabled = !!this.locked; });
    this.cells.forEach((el, i) => {
      const v = this.values[i];
      el.classList.toggle("selected", i === sel);
      el.classList.toggle("peer", i !== sel && peers.has(i));
      el.classList.toggle("same", i !== sel && selValue !== 0 && v === selValue);
      el.classList.toggle("conflict", conflicts.has(i));
      el.classList.toggle("bad", this.bad.has(i));
      el.tabIndex = i === sel ? 0 : -1;
      el.setAttribute("aria-selected", String(i === sel));
      el.setAttribute("aria-label", this.describe(i, conflicts.has(i)));
      if (v) {
        el.textContent = this.symbols[v - 1];
      } else if (this.marks[i].size) {
        const marks = document.createElement("div");
        marks.className = "marks";
        marks.style.setProperty("--mcols", mcols);
        marks.setAttribute("aria-hidden", "true");
        for (let d = 1; d <= this.n; d++) {
          const s = document.createElement("span");
          s.textContent = this.marks[i].has(d) ? this.symbols[d - 1] : "";
          marks.appendChild(s);
        }
        el.replaceChildren(marks);
      } else {
        el.textContent = "";
      }
    });
  }

  snapshot(i) {
    return { v: this.values[i], marks: [...this.marks[i]] };
  }

  restore(i, s) {
    this.values[i] = s.v;
    this.marks[i] = new Set(s.marks);
  }

  /** Applies a change to the selected cell as one undoable step. */
  change(mutate) {
    const i = this.selected;
    if (this.givens[i] || this.locked) return;
    const before = this.snapshot(i);
    mutate(i);
    const after = this.snapshot(i);
    if (before.v === after.v && before.marks.join() === after.marks.join()) return;
    this.history.push({ i, before, after });
    this.future = [];
    this.bad.clear();
    this.render();
    this.onchange();
  }

  input(d) {
    if (this.pencil) return this.mark(d);
    this.change((i) => {
      this.values[i] = this.values[i] === d ? 0 : d;
      this.marks[i].clear();
    });
  }

  mark(d) {
    this.change((i) => {
      if (this.values[i]) return;
      if (this.marks[i].has(d)) this.marks[i].delete(d);
      else this.marks[i].add(d);
    });
  }

  erase() {
    this.change((i) => {
      if (this.values[i]) this.values[i] = 0;
      else this.marks[i].clear();
    });
  }

  undo() {
    this.replay(this.history, this.future, "before");
  }

  redo() {
    this.replay(this.future, this.history, "after");
  }

  /** Takes the last step off `from`, sets its cell as it was `side` the
   * step ("before" or "after"), and keeps the step on `to`. The board
   * changed, so the last check's outlines go, as on any change. */
  replay(from, to, side) {
    if (this.locked) return;
    const step = from.pop();
    if (!step) return;
    this.restore(step.i, step[side]);
    to.push(step);
    this.selected = step.i;
    this.bad.clear();
    this.render();
    this.onchange();
  }

  /** The digit a key stands for, or 0. */
  digitOf(e) {
    const m = /^(?:Digit|Numpad)([0-9])$/.exec(e.code || "");
    if (e.shiftKey && m) return Number(m[1]);
    const k = this.symbols.findIndex((s) => s.toLowerCase() === (e.key || "").toLowerCase());
    if (k >= 0) return k + 1;
    if (m) return Number(m[1]);
    return 0;
  }

  key(e) {
    const { n } = this;
    const ctrl = e.ctrlKey || e.metaKey;
    const key = e.key;
    if (ctrl && (key === "z" || key === "Z")) {
      e.preventDefault();
      if (e.shiftKey) this.redo();
      else this.undo();
      return;
    }
    if (ctrl && (key === "y" || key === "Y")) {
      e.preventDefault();
      this.redo();
      return;
    }
    if (ctrl || e.altKey) return;
    const r = Math.floor(this.selected / n), c = this.selected % n;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[key]) {
      e.preventDefault();
      const nr = Math.min(n - 1, Math.max(0, r + moves[key][0]));
      const nc = Math.min(n - 1, Math.max(0, c + moves[key][1]));
      this.select(nr * n + nc, true);
      return;
    }
    if (key === "Home" || key === "End") {
      e.preventDefault();
      this.select(r * n + (key === "Home" ? 0 : n - 1), true);
      return;
    }
    if (key === "Backspace" || key === "Delete") {
      e.preventDefault();
      this.erase();
      return;
    }
    const d = this.digitOf(e);
    if (d >= 1 && d <= n) {
      e.preventDefault();
      if (e.shiftKey && /^(Digit|Numpad)/.test(e.code || "")) this.mark(d);
      else this.input(d);
      return;
    }
    if (key === "0" || key === ".") {
      e.preventDefault();
      this.erase();
    }
  }

  /** Marks cells the server rejected; cleared by the next edit. */
  showBad(indices) {
    this.bad = new Set(indices);
    this.render();
  }

  clear() {
    if (this.locked) return;
    this.values = this.givens.slice();
    this.marks = this.givens.map(() => new Set());
    this.history = [];
    this.future = [];
    this.bad.clear();
    this.render();
    this.onchange();
  }
}

// ---------------------------------------------------------------- tabs

function showTab(which) {
  for (const name of ["arena", "practice"]) {
    const on = name === which;
    $("tab-" + name).setAttribute("aria-selected", String(on));
    $("tab-" + name).tabIndex = on ? 0 : -1;
    $(name).hidden = !on;
  }
}
$("tab-arena").addEventListener("click", () => showTab("arena"));
$("tab-practice").addEventListener("click", () => {
  showTab("practice");
  if (!practice.n) newPuzzle();
});

// ---------------------------------------------------------------- arena

const arena = new Board($("arena-grid"), $("arena-pad"), "arena");
/** The select's value for the connected wallet's account. */
const WALLET = "wallet";
let info = null;
let seat = null;
let sending = false;

/** A demo address whose board the page shows, read-only, while nobody
 *  is chosen to play: the page never opens on an empty board. */
const DEMO = "0x1111111111111111111111111111111111111111";

/** 0x14dC…9955: the first 4 and last 4 hex digits of an address or hash. */
function short(a) {
  return a.slice(0, 6) + "…" + a.slice(-4);
}

/** An address or transaction hash as a short word that never breaks:
 *  the whole one on hover (title) and when copied (data-full, see the copy
 *  handler below); a link to the operator's block explorer when there is
 *  one (`--explorer-url`). `kind` is "address" or "tx". */
function hexLink(full, kind) {
  const explorer = info && info.explorerUrl;
  const el = document.createElement(explorer ? "a" : "span");
  el.className = kind === "tx" ? "addr tx" : "addr";
  el.textContent = short(full);
  el.title = full;
  el.dataset.full = full;
  if (explorer) {
    el.href = `${explorer.replace(/\/+$/, "")}/${kind}/${full}`;
    el.target = "_blank";
    el.rel = "noopener noreferrer";
  }
  return el;
}

/** An address, EIP-55 checksummed, as hexLink shows it. */
function addressEl(a) {
  return hexLink(checksum(a), "address");
}

/** Copying text that holds short addresses or hashes copies the whole ones. */
document.addEventListener("copy", (e) => {
  const sel = document.getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount || !e.clipboardData) return;
  const range = sel.getRangeAt(0);
  const anchor = range.commonAncestorContainer;
  const within = (anchor.nodeType === Node.ELEMENT_NODE ? anchor : anchor.parentElement).closest("[data-full]");
  let text;
  if (within) {
    text = within.dataset.full;
  } else {
    const copy = range.cloneContents();
    const shortened = copy.querySelectorAll("[data-full]");
    if (!shortened.length) return;
    shortened.forEach((el) => { el.textContent = el.dataset.full; });
    text = [...copy.childNodes].map((n) => n.textContent).join("");
  }
  e.clipboardData.setData("text/plain", text);
  e.preventDefault();
});

/** Sets a status line. `parts` is a string or a list of strings and
 *  nodes; in strings, command-line flags (`--rpc-url`) and `quoted`
 *  words become code that never breaks inside. */
function setStatus(el, parts, cls) {
  el.replaceChildren();
  for (const part of Array.isArray(parts) ? parts : [parts]) {
    if (typeof part !== "string") {
      el.append(part);
      continue;
    }
    part.split(/(`[^`]*`|--[a-z][a-z0-9-]*)/).forEach((piece, k) => {
      if (k % 2 === 0) return piece && el.append(piece);
      const code = document.createElement("code");
      code.className = "flag";
      code.textContent = piece.replace(/`/g, "");
      el.append(code);
    });
  }
  el.className = cls || "";
}

function sameAddress(a, b) {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** An address as EIP-55 mixed case, as the CLI prints it. */
const checksum = (a) => OCTOKU_KECCAK.checksum(a);

/** Whether the page plays a puzzle on Curta (else an arena). */
function onCurta() {
  return !!info && info.game.kind === "curta";
}

/** "the arena" or "Curta": where solves go. */
function gameName() {
  return onCurta() ? "Curta" : "the arena";
}

/** What each Curta phase means for a solve (Curta's rule). */
function phaseText(phase, fee) {
  const { ether } = OCTOKU_CHAIN;
  switch (phase) {
    case 0: return "Phase 0: nobody has solved it yet; the first solve is free.";
    case 1: return "Phase 1 (up to 2 days after the first solve): a solve is free.";
    case 2: return `Phase 2 (2 to 5 days after the first solve): a solve costs ${ether(fee)}, sent with Submit (half to Curta's owner, half to the puzzle's author).`;
    default: return "Phase 3 (more than 5 days after the first solve): submissions are closed; Curta would revert a solve with SubmissionClosed.";
  }
}

/** Shows the Curta puzzle's phase and what a solve costs now (not once
 *  the board is solved: nothing more is to be paid), and labels Submit. */
function showPhase(phase, fee) {
  const el = $("phase");
  el.hidden = !onCurta() || phase === undefined || phase === null || !!(seat && seat.solved);
  if (!el.hidden) setStatus(el, phaseText(phase, fee), phase === 3 ? "warn" : phase === 2 ? "fee" : "");
  showSubmit();
}

/** Submit's label and state: "Solved" and off once the board is solved;
 *  else with the fee to pay, on when a solve can be sent from here. */
function showSubmit() {
  const button = $("submit");
  $("clear").disabled = !!(seat && seat.solved);
  button.classList.toggle("solved", !!(seat && seat.solved));
  if (seat && seat.solved) {
    button.textContent = "Solved";
    button.disabled = true;
    return;
  }
  const fee = seat && onCurta() ? seat.fee : null;
  button.textContent = fee ? `Submit and pay ${OCTOKU_CHAIN.ether(fee)}` : "Submit";
  button.disabled = sending || !submitPath().ok;
}

/** One line about the wallet: missing, not connected, or its account and chain. */
function showWallet() {
  const status = $("wallet-status");
  $("connect").hidden = !wallet || !!wallet.account;
  if (!wallet) {
    setStatus(status, "No wallet in this browser: an EIP-1193 wallet (window.ethereum) lets you submit from your own account.", "muted");
  } else if (!wallet.account) {
    setStatus(status, "Connect your wallet to play your own board.", "muted");
  } else if (info && wallet.chainId !== info.chainId) {
    const { network } = OCTOKU_CHAIN;
    setStatus(status, ["Wallet ", addressEl(wallet.account), ` on ${network(wallet.chainId)}; ${gameName()} is on ${network(info.chainId)}: Submit asks your wallet to switch.`], "warn");
  } else {
    setStatus(status, ["Wallet ", addressEl(wallet.account), ` on ${OCTOKU_CHAIN.network(wallet.chainId)}.`], "muted");
  }
}

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.appendChild(o);
}

/** The accounts to play as: the wallet's, the server's, any address. */
function fillPlayers(prefer) {
  const select = $("player");
  const keep = prefer || select.value;
  select.replaceChildren();
  if (wallet && wallet.account) option(select, WALLET, `your wallet ${short(checksum(wallet.account))}`);
  for (const p of info.players) option(select, p.address, `${p.label} ${short(p.address)}`);
  option(select, "other", "another address (read-only)");
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  $("other").hidden = select.value !== "other";
}

/** The network for people: its name from the chain id, or the embedded
 *  chain; the server's own description on hover. */
function networkEl() {
  const el = document.createElement("span");
  el.id = "network";
  el.textContent = info.chain.startsWith("embedded") ? "the embedded chain (no node; this server's state file)" : OCTOKU_CHAIN.network(info.chainId);
  el.title = info.chain;
  return el;
}

async function loadInfo() {
  info = await source.info();
  const g = info.game;
  const head = $("chain");
  if (g.kind === "curta") {
    setStatus(head, [networkEl(), " · Curta ", addressEl(g.curta), ` · puzzle #${g.id} “${g.name}” at `, addressEl(info.puzzleAddress), ` · ${info.puzzle} puzzle`], "muted");
    $("tab-arena").textContent = `Curta #${g.id}`;
    $("arena-grid").setAttribute("aria-label", `Curta puzzle ${g.id} board, 8 by 8, boxes of 2 rows by 4 columns`);
    $("phase-col").hidden = false;
  } else {
    setStatus(head, [networkEl(), " · arena ", addressEl(g.arena), ` · ${info.puzzle} puzzle`], "muted");
  }
  fillPlayers();
}

function chosenAddress() {
  const v = $("player").value;
  if (v === WALLET) return wallet && wallet.account;
  return v === "other" ? $("other").value.trim() : v;
}

/** How to make a server on the embedded chain without a key playable. */
const RESTART = "start `octoku serve` with --private-key (or a keystore) to play here, or with --rpc-url to play with a wallet";

/** Whether Submit can send for the board shown, and if not, why. */
function submitPath() {
  if (!seat || !seat.solvable || seat.solved) return { ok: false };
  if (seat.demo) return { ok: false };
  if (seat.phase === 3) return { ok: false, why: " Submissions are closed: the puzzle is in phase 3 (SubmissionClosed); Check still works." };
  const embeddedOnly = !info.walletCanPlay && !info.players.length;
  if ($("player").value === WALLET && sameAddress(seat.address, wallet && wallet.account)) {
    if (info.walletCanPlay) return { ok: true, wallet: true };
    if (seat.serverSigns) return { ok: true, wallet: false };
    const instead = info.players.length ? "play as the server's signer or a dev account, or start octoku serve with --rpc-url to play with a wallet" : RESTART;
    return { ok: false, why: ` Read-only: no wallet can reach this server's embedded chain. Check works; ${instead}.` };
  }
  if (seat.serverSigns) return { ok: true, wallet: false };
  if (embeddedOnly) return { ok: false, why: ` Read-only: Check works; this server holds no key: ${RESTART}.` };
  const how = wallet ? "connect your wallet and play as it" : "use a wallet in this browser (EIP-1193)";
  const server = info.players.length ? ", or play as the server's signer or a dev account" : "";
  return { ok: false, why: ` Read-only: Check works; to submit, ${how}${server}.` };
}

/** What to do when there is no account to play as yet. */
function nobodyToPlay() {
  const read = "type an address to read its board.";
  if (wallet && info.walletCanPlay) return "Connect your wallet to play, or " + read;
  if (info.players.length) return "Choose an account, or " + read;
  if (info.walletCanPlay) return "Playing needs a wallet in this browser (EIP-1193); meanwhile, " + read;
  return `This server holds no key and runs the embedded chain, which no wallet can reach: ${RESTART}. Or ` + read;
}

/** The leaderboard's row of `address` (with its accepted solution), or null. */
async function solverRow(address) {
  const board = await source.leaderboard().catch(() => ({ solvers: [] }));
  return board.solvers.find((r) => sameAddress(r.address, address)) || null;
}

/** Which board load is the latest (an older answer arriving late is dropped). */
let loads = 0;

/** Reads the chosen address's board, or a demo address's (read-only)
 *  when nobody is chosen; a solved board shows its accepted solution. A
 *  board that cannot be read keeps the board shown (or shows the demo's),
 *  with the reason. */
async function loadBoard() {
  const chosen = chosenAddress();
  const status = $("board-status");
  const ticket = ++loads;
  $("result").replaceChildren();
  setStatus(status, "Reading the board…");
  let failed = null;
  let next = null;
  for (const [address, demo] of chosen ? [[chosen, false], [DEMO, true]] : [[DEMO, true]]) {
    try {
      next = await source.board(address);
      next.demo = demo;
      if (next.solved && !next.solved.solution) {
        const row = await solverRow(next.address);
        if (row && row.solution) next.solved.solution = row.solution;
      }
      break;
    } catch (e) {
      failed = failed || `Cannot read the board of ${address}: ${e.message}`;
      next = null;
      if (seat) break;
    }
  }
  if (ticket !== loads) return;
  if (next) {
    seat = next;
    seat.address = checksum(seat.address);
    const solution = seat.solved && seat.solved.solution;
    arena.load({ size: 8, boxRows: 2, boxCols: 4, cells: seat.cells, filled: solution ? OCTOKU_CHAIN.cellsOf(solution) : undefined });
    if (!seat.demo) history.replaceState(null, "", "?address=" + seat.address);
  }
  showPhase(seat && seat.phase, seat && seat.fee);
  if (failed && seat && seat.demo) setStatus(status, [`${failed.replace(/\.?$/, ".")} Meanwhile, a demo: the board of `, addressEl(seat.address), ", read-only."], "warn");
  else if (failed) setStatus(status, failed, "warn");
  else describeSeat();
  if (seat && !seat.demo) arena.focus();
  refreshLeaderboard();
}

/** The status line of the board shown: whose, solved or not, and what
 *  the player can do with it. */
function describeSeat() {
  const status = $("board-status");
  if (!seat) return;
  const whose = seat.demo
    ? ["Meanwhile, a demo: the board of ", addressEl(seat.address), ` (${seat.puzzle} puzzle), read-only.`]
    : ["Board of ", addressEl(seat.address), ` (${seat.puzzle} puzzle).`];
  if (!seat.solvable) return setStatus(status, [`This board has no solution: ${seat.reason}. `, ...whose], "warn");
  if (seat.demo) return setStatus(status, [nobodyToPlay() + " ", ...whose], "demo");
  if (seat.solved) {
    const shown = seat.solved.solution ? ` The board shows the solution ${gameName()} accepted.` : "";
    return setStatus(status, [...whose, ` Solved: rank ${seat.solved.rank} in block ${seat.solved.block}.${shown}`], "good");
  }
  const path = submitPath();
  setStatus(status, [...whose, path.why || ""], "");
}

/** Problems to list: the sharpest first (a changed given, a repeat, a
 *  cell out of range), then the empty cells as one line, then misses. */
function problemLines(problems) {
  const empty = problems.filter((p) => p.kind === "bad_cell" && p.message.endsWith("is empty; cells must hold 1-8"));
  const rank = { changed_given: 0, repeated: 1, bad_cell: 2, missing: 4 };
  const lines = problems
    .filter((p) => !empty.includes(p))
    .map((p) => ({ order: rank[p.kind] ?? 3, text: p.message }));
  if (empty.length === 1) lines.push({ order: 3, text: empty[0].message });
  else if (empty.length > 1) lines.push({ order: 3, text: `${empty.length} cells are empty; cells must hold 1-8` });
  // "row 1 misses 1", "row 1 misses 2" ... as "row 1 misses 1, 2".
  const merged = [];
  for (const line of lines.sort((a, b) => a.order - b.order)) {
    const m = / misses (\d+)$/.exec(line.text);
    const last = merged[merged.length - 1];
    if (m && last && last.unit === line.text.slice(0, m.index)) last.digits.push(m[1]);
    else merged.push(m ? { unit: line.text.slice(0, m.index), digits: [m[1]] } : { text: line.text });
  }
  return merged.map((l) => (l.unit !== undefined ? `${l.unit} misses ${l.digits.join(", ")}` : l.text));
}

function showProblems(title, cls, problems, gas) {
  const box = $("result");
  box.replaceChildren();
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = title + (gas !== undefined && gas !== null ? ` (verify gas ${gas.toLocaleString("en-US")})` : "");
  box.appendChild(p);
  const lines = problemLines(problems || []);
  if (lines.length) {
    const ul = document.createElement("ul");
    for (const line of lines.slice(0, 12)) {
      const li = document.createElement("li");
      li.textContent = line;
      ul.appendChild(li);
    }
    if (lines.length > 12) {
      const li = document.createElement("li");
      li.textContent = `… and ${lines.length - 12} more`;
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
}

async function check() {
  if (!seat) return;
  try {
    const v = await source.verify(seat.start, arena.values);
    if (v.valid) {
      arena.showBad([]);
      showProblems("Valid: the contract accepts this solution.", "good", [], v.gas);
    } else {
      // Outline the cells of the sharpest problems: changed givens, repeats
      // and out-of-range cells; else the empty cells; else the units missing a digit.
      const isEmpty = (p) => p.kind === "bad_cell" && p.message.includes("is empty");
      const tiers = [
        v.problems.filter((p) => p.kind !== "missing" && !isEmpty(p)),
        v.problems.filter(isEmpty),
        v.problems,
      ];
      const bad = new Set();
      for (const tier of tiers) {
        tier.forEach((p) => p.cells.forEach(([r, c]) => bad.add(r * 8 + c)));
        if (bad.size) break;
      }
      arena.showBad([...bad]);
      showProblems("Invalid: the contract rejects this solution.", "warn", v.problems, v.gas);
    }
  } catch (e) {
    showProblems(e.message, "warn");
  }
}

/** A solve: its line, the transaction, and the board's status; the board
 *  keeps the solution and takes no more entries, Submit says "Solved". On
 *  Curta, `phase` is the solve's and `paid` the wei sent (a BigInt). */
function showSolved(rank, gasUsed, block, tx, phase, paid) {
  const box = $("result");
  box.replaceChildren();
  const p = document.createElement("p");
  p.className = "good";
  const onPhase = phase === null || phase === undefined ? "" : `, phase ${phase}`;
  const fee = paid ? `, paid ${OCTOKU_CHAIN.ether(paid)}` : "";
  p.textContent = `Solved! Rank ${rank}${onPhase}${fee}, gas used ${gasUsed.toLocaleString("en-US")}, block ${block}.`;
  const line = document.createElement("p");
  const link = hexLink(tx, "tx");
  link.id = "tx";
  line.append("Transaction ", link);
  box.append(p, line);
  seat.solved = { rank, block, solution: OCTOKU_CHAIN.boardWord(arena.values) };
  arena.lock(arena.values);
  showPhase(seat.phase, seat.fee);
  describeSeat();
}

/** On Curta, before anything is sent: the phase now. Returns the fee to
 *  send, or null after showing why nothing is sent (closed; or the fee
 *  rose since the board was read, so the player has not seen it). */
async function feeToSend() {
  if (!onCurta()) return 0n;
  const now = await source.phase(seat.address);
  const shown = seat.fee;
  seat.phase = now.phase;
  seat.fee = now.fee;
  showPhase(now.phase, now.fee);
  if (now.fee === null) {
    showProblems("SubmissionClosed: the puzzle is in phase 3, more than 5 days after its first solve; Curta takes no more solves, so nothing was sent.", "warn");
    $("submit").disabled = true;
    return null;
  }
  if (shown === null || shown === undefined || now.fee > shown) {
    showProblems(`InsufficientFunds: the puzzle is in phase ${now.phase} now, where a solve costs ${OCTOKU_CHAIN.ether(now.fee)}; nothing was sent. Submit again to pay it. Your entries are kept.`, "warn");
    return null;
  }
  return now.fee;
}

/** A refusal by name, explained: a wrong solution lists its problems. */
async function showRefusal(name, line) {
  if (name === "WrongSolution" || name === "IncorrectSolution") {
    try {
      const v = await source.verify(seat.start, arena.values);
      return showProblems(`${name}: ${line}`, "warn", v.problems);
    } catch (e) {
      // Fall through to the line alone.
    }
  }
  showProblems(`${name}: ${line}`, "warn");
}

/** Submit through the server's signer (or a dev account it holds). */
async function serverSubmit() {
  showProblems("Sending the solve…", "");
  try {
    const fee = await feeToSend();
    if (fee === null) return;
    const s = await source.submit(seat.address, arena.values, fee);
    showSolved(s.rank, s.gas_used, s.block, s.tx, s.phase, fee);
  } catch (e) {
    if (e.revert) return showRefusal(e.revert, e.message);
    showProblems(e.message, "warn");
  }
}

/** Submit through the wallet: the right chain, a simulation, the
 *  transaction, then its receipt. The entries stay whatever happens. */
async function walletSubmit() {
  const { revertName, REJECTED } = OCTOKU_CHAIN;
  showProblems("Asking your wallet…", "");
  try {
    await wallet.ensureChain(info.chainId, gameName());
  } catch (e) {
    showWallet();
    return showProblems(e.message + " Your entries are kept.", "warn");
  }
  showWallet();
  let fee;
  try {
    fee = await feeToSend();
  } catch (e) {
    return showProblems(`Cannot read the puzzle's phase: ${e.message}`, "warn");
  }
  if (fee === null) return;
  const tx = source.solveTx(wallet.account, arena.values, fee);
  try {
    await wallet.request("eth_call", [tx, "latest"]);
  } catch (e) {
    const name = revertName(e);
    if (name) return showRefusal(name, `${gameName()} would revert this solve, so nothing was sent. Your entries are kept.`);
    return showProblems(`${onCurta() ? "Curta" : "The arena"}'s solve fails: ${e.message}`, "warn");
  }
  let hash;
  try {
    hash = await wallet.request("eth_sendTransaction", [tx]);
  } catch (e) {
    if (e.code === REJECTED) return showProblems("You rejected the transaction in your wallet: nothing was sent, and your entries are kept.", "warn");
    return showProblems(`Your wallet did not send the transaction: ${e.message}. Your entries are kept.`, "warn");
  }
  showProblems(`Pending: transaction ${hash} sent, waiting for it to be mined…`, "");
  $("result").firstChild.id = "pending";
  let receipt;
  try {
    receipt = await wallet.receipt(hash, 10 * 60 * 1000);
  } catch (e) {
    return showProblems(e.message, "warn");
  }
  const block = Number(BigInt(receipt.blockNumber));
  if (Number(BigInt(receipt.status)) !== 1) return showProblems(`Transaction ${hash} reverted in block ${block}.`, "warn");
  const solved = await source.solvedBy(receipt, wallet.account);
  showSolved(solved.rank === null ? "?" : solved.rank, Number(BigInt(receipt.gasUsed)), block, hash, solved.phase, fee);
}

async function submit() {
  const path = submitPath();
  if (!path.ok || sending) return;
  sending = true;
  $("submit").disabled = true;
  try {
    if (path.wallet) await walletSubmit();
    else await serverSubmit();
  } finally {
    sending = false;
    showSubmit();
  }
  refreshLeaderboard();
}

async function refreshLeaderboard() {
  const body = $("leaderboard").querySelector("tbody");
  const note = (text, cls) => {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = onCurta() ? 4 : 3;
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    body.replaceChildren(tr);
  };
  let board;
  try {
    board = await source.leaderboard();
  } catch (e) {
    return note(e.message);
  }
  if (!board.solvers.length) return note(`Nobody yet: the first to solve ${onCurta() ? "the puzzle" : "a board"} takes rank 1.`, "muted");
  body.replaceChildren();
  for (const s of board.solvers) {
    const tr = document.createElement("tr");
    if (seat && sameAddress(s.address, seat.address)) tr.className = "me";
    const cells = [String(s.rank), addressEl(s.address)];
    if (onCurta()) cells.push(String(s.phase));
    cells.push(String(s.block));
    for (const cell of cells) {
      const td = document.createElement("td");
      td.append(cell);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

async function connect() {
  try {
    await wallet.connect();
  } catch (e) {
    const text = e.code === OCTOKU_CHAIN.REJECTED ? "You declined the connection in your wallet." : `The wallet did not connect: ${e.message}`;
    return setStatus($("wallet-status"), text, "warn");
  }
  showWallet();
  fillPlayers(WALLET);
  await loadBoard();
}

/** Follows the wallet: another account plays its own board; a change of
 *  chain is shown at once (Submit asks to switch back). */
function followWallet() {
  wallet.on("accountsChanged", (accounts) => {
    const next = accounts && accounts.length ? accounts[0] : null;
    if (sameAddress(next, wallet.account)) return;
    const wasPlaying = $("player").value === WALLET;
    wallet.account = next;
    showWallet();
    fillPlayers(next ? WALLET : undefined);
    if (next || wasPlaying) loadBoard();
  });
  wallet.on("chainChanged", (id) => {
    wallet.chainId = Number(BigInt(id));
    showWallet();
    refreshLeaderboard();
  });
}

$("player").addEventListener("change", () => {
  const other = $("player").value === "other";
  $("other").hidden = !other;
  if (other) $("other").focus();
  else loadBoard();
});
$("other").addEventListener("keydown", (e) => {
  if (e.key === "Enter") loadBoard();
});
$("load").addEventListener("click", loadBoard);
$("check").addEventListener("click", check);
$("submit").addEventListener("click", submit);
$("connect").addEventListener("click", connect);
$("clear").addEventListener("click", () => {
  arena.clear();
  $("result").replaceChildren();
});

// ---------------------------------------------------------------- practice

const practice = new Board($("practice-grid"), $("practice-pad"), "practice");
let practiceSolution = null;

/** The custom symbols typed, or null for the standard ones (the server checks them). */
function chosenSymbols() {
  const text = $("symbols").value.trim();
  return text ? text.split(/\s+/) : null;
}

/** One line about a practice board from the server. */
function describePractice(p, verb) {
  const givens = p.cells.filter((v) => v).length;
  let text = `${verb} ${p.size}×${p.size} puzzle with ${givens} givens, `;
  if (p.solutions === 1) text += "one solution";
  else if (p.solutions === 0) text += "no solution: " + (p.reason || "the search found no completion");
  else text += "more than one solution";
  return text + (p.seed !== null && p.seed !== undefined ? ` (seed ${p.seed}).` : ".");
}

function loadPractice(p) {
  practiceSolution = p.solution;
  practice.load({ size: p.size, boxRows: p.box_rows, boxCols: p.box_cols, cells: p.cells, symbols: p.symbols });
}

async function newPuzzle() {
  const n = Number($("size").value);
  const status = $("practice-status");
  setStatus(status, `Drawing a ${n}×${n} puzzle…`);
  try {
    const body = { size: n };
    const symbols = chosenSymbols();
    if (symbols) body.symbols = symbols;
    const p = await source.practicePuzzle(body);
    loadPractice(p);
    setStatus(status, describePractice(p, "A"));
    practice.focus();
  } catch (e) {
    setStatus(status, e.message, "warn");
  }
}

function practiceCheck() {
  const status = $("practice-status");
  if (!practice.n) return;
  const conflicts = practice.conflicts();
  const empty = practice.values.filter((v) => !v).length;
  if (conflicts.size) {
    setStatus(status, `${conflicts.size} cells repeat a symbol in a row, column or box.`, "warn");
  } else if (empty) {
    setStatus(status, `No repeats so far; ${empty} cells to go.`);
  } else {
    setStatus(status, "Solved! Every row, column and box holds each symbol once.", "good");
  }
}

$("new-puzzle").addEventListener("click", newPuzzle);
$("practice-check").addEventListener("click", practiceCheck);
$("export").addEventListener("click", async () => {
  if (!practice.n) return;
  try {
    const t = await source.practiceText({ size: practice.n, cells: practice.values, symbols: practice.symbols });
    $("text").value = t.text;
    setStatus($("practice-status"), "Exported to the text box below.");
  } catch (e) {
    setStatus($("practice-status"), e.message, "warn");
  }
});
$("import").addEventListener("click", async () => {
  try {
    const p = await source.practicePuzzle({ text: $("text").value });
    loadPractice(p);
    $("symbols").value = p.symbols.join(" ");
    $("size").value = String(p.size);
    setStatus($("practice-status"), describePractice(p, "Imported a"), p.solutions === 1 ? "" : "warn");
    practice.focus();
  } catch (e) {
    setStatus($("practice-status"), e.message, "warn");
  }
});
practice.onchange = () => {
  if (practice.values.every((v) => v) && !practice.conflicts().size) practiceCheck();
};

// ---------------------------------------------------------------- start

/** A deep link, `?address=0x…`: that address plays (the wallet's or the
 *  server's account when it is one of them, else read-only). */
function followLink() {
  const linked = new URLSearchParams(location.search).get("address");
  if (!linked) return;
  const select = $("player");
  const mine = [...select.options].find((o) => o.value !== "other" && sameAddress(o.value === WALLET ? wallet && wallet.account : o.value, linked.trim()));
  if (mine) {
    select.value = mine.value;
    $("other").hidden = true;
  } else {
    select.value = "other";
    $("other").hidden = false;
    $("other").value = linked.trim();
  }
}

(async () => {
  if (!wallet) {
    window.addEventListener("ethereum#initialized", () => {
      if (wallet || !window.ethereum) return;
      wallet = new OCTOKU_CHAIN.Wallet(window.ethereum);
      followWallet();
      showWallet();
    }, { once: true });
  }
  try {
    await loadInfo();
    // The leaderboard whoever plays, even before a board is chosen.
    refreshLeaderboard();
    if (wallet) {
      followWallet();
      // An account the wallet already allowed this page: no prompt.
      const accounts = await wallet.request("eth_accounts").catch(() => []);
      if (accounts && accounts.length) {
        wallet.account = accounts[0];
        await wallet.readChainId().catch(() => null);
        fillPlayers(WALLET);
      }
    }
    followLink();
    showWallet();
    await loadBoard();
  } catch (e) {
    setStatus($("board-status"), e.message, "warn");
  }
})();

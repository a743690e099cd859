// octoku in the browser: the arena board (8x8, 2x4 boxes) checked by the
// compiled contract on the server, and practice puzzles of any size.
// Plain script, no build step, no network but this server.
"use strict";

const TOKEN = document.querySelector('meta[name="octoku-token"]').content;
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- API

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (path === "/api/submit") init.headers["X-Octoku-Token"] = TOKEN;
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

  load({ size, boxRows, boxCols, cells, symbols }) {
    this.n = size;
    this.boxRows = boxRows;
    this.boxCols = boxCols;
    this.symbols = symbols || defaultSymbols(size);
    this.givens = cells.slice();
    this.values = cells.slice();
    this.marks = cells.map(() => new Set());
    this.history = [];
    this.future = [];
    this.bad = new Set();
    this.selected = this.givens.findIndex((v) => v === 0);
    if (this.selected < 0) this.selected = 0;
    this.build();
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
    if (this.givens[i]) return;
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
    const step = this.history.pop();
    if (!step) return;
    this.restore(step.i, step.before);
    this.future.push(step);
    this.selected = step.i;
    this.bad.clear();
    this.render();
    this.onchange();
  }

  redo() {
    const step = this.future.pop();
    if (!step) return;
    this.restore(step.i, step.after);
    this.history.push(step);
    this.selected = step.i;
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
let info = null;
let seat = null;

function short(a) {
  return a.slice(0, 6) + "…" + a.slice(-4);
}

function setStatus(el, text, cls) {
  el.textContent = text;
  el.className = cls || "";
}

async function loadInfo() {
  info = await api("GET", "/api/info");
  $("chain").textContent = `${info.chain} · arena ${info.arena} · ${info.puzzle} puzzle`;
  const select = $("player");
  select.replaceChildren();
  for (const p of info.players) {
    const o = document.createElement("option");
    o.value = p.address;
    o.textContent = `${p.label} ${short(p.address)}`;
    select.appendChild(o);
  }
  const other = document.createElement("option");
  other.value = "other";
  other.textContent = "another address (read-only)";
  select.appendChild(other);
  $("other").hidden = select.value !== "other";
}

function chosenAddress() {
  const v = $("player").value;
  return v === "other" ? $("other").value.trim() : v;
}

async function loadBoard() {
  const address = chosenAddress();
  const status = $("board-status");
  $("result").replaceChildren();
  if (!address) {
    setStatus(status, "Type an address to read its board.", "warn");
    return;
  }
  setStatus(status, "Reading the board…");
  try {
    seat = await api("GET", "/api/board/" + encodeURIComponent(address));
  } catch (e) {
    setStatus(status, e.message, "warn");
    return;
  }
  arena.load({ size: 8, boxRows: 2, boxCols: 4, cells: seat.cells });
  let text = `Board of ${seat.address} (${seat.puzzle} puzzle).`;
  let cls = "";
  if (!seat.solvable) {
    text = `This board has no solution: ${seat.reason}. ${text}`;
    cls = "warn";
  } else if (seat.solved) {
    text += ` Solved: rank ${seat.solved.rank} in block ${seat.solved.block}.`;
    cls = "good";
  }
  if (!seat.can_submit) text += " Read-only: Check works, Submit needs the server signer or a dev account.";
  setStatus(status, text, cls);
  $("submit").disabled = !seat.can_submit || !seat.solvable;
  arena.focus();
  refreshLeaderboard();
}

function solutionText(board) {
  return board.values.map((v) => String(v)).join("");
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
  p.textContent = title + (gas !== undefined ? ` (verify gas ${gas.toLocaleString("en-US")})` : "");
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
    const v = await api("POST", "/api/verify", { start: seat.start, solution: solutionText(arena) });
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

async function submit() {
  if (!seat) return;
  const box = $("result");
  showProblems("Sending the solve…", "");
  try {
    const s = await api("POST", "/api/submit", { player: seat.address, solution: solutionText(arena) });
    box.replaceChildren();
    const p = document.createElement("p");
    p.className = "good";
    p.textContent = `Solved! Rank ${s.rank}, gas used ${s.gas_used.toLocaleString("en-US")}, block ${s.block}.`;
    const tx = document.createElement("p");
    tx.append("Transaction ");
    const code = document.createElement("code");
    code.id = "tx";
    code.textContent = s.tx;
    tx.appendChild(code);
    box.append(p, tx);
    setStatus($("board-status"), `Board of ${seat.address}. Solved: rank ${s.rank} in block ${s.block}.`, "good");
  } catch (e) {
    const name = e.revert ? e.revert + ": " : "";
    showProblems(name + e.message, "warn");
  }
  refreshLeaderboard();
}

async function refreshLeaderboard() {
  const body = $("leaderboard").querySelector("tbody");
  let board;
  try {
    board = await api("GET", "/api/leaderboard");
  } catch (e) {
    body.replaceChildren();
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 3;
    td.textContent = e.message;
    tr.appendChild(td);
    body.appendChild(tr);
    return;
  }
  body.replaceChildren();
  if (!board.solvers.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 3;
    td.className = "muted";
    td.textContent = "Nobody has solved yet.";
    tr.appendChild(td);
    body.appendChild(tr);
  }
  for (const s of board.solvers) {
    const tr = document.createElement("tr");
    if (seat && s.address.toLowerCase() === seat.address.toLowerCase()) tr.className = "me";
    for (const [text, cls] of [[String(s.rank), ""], [s.address, "addr"], [String(s.block), ""]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
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
    const p = await api("POST", "/api/puzzle", body);
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
    const t = await api("POST", "/api/puzzle/text", { size: practice.n, cells: practice.values, symbols: practice.symbols });
    $("text").value = t.text;
    setStatus($("practice-status"), "Exported to the text box below.");
  } catch (e) {
    setStatus($("practice-status"), e.message, "warn");
  }
});
$("import").addEventListener("click", async () => {
  try {
    const p = await api("POST", "/api/puzzle", { text: $("text").value });
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

(async () => {
  try {
    await loadInfo();
    await loadBoard();
  } catch (e) {
    setStatus($("board-status"), e.message, "warn");
  }
})();

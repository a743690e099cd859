// Practice puzzles where no server draws them (the static site of octoku
// site): a unique-solution puzzle of any size from 4×4 to 16×16 drawn here
// (a random full grid, then cells emptied while one solution remains), and
// the header text form (symbols on the first line, then comma-separated
// rows, a space for an empty cell) read and written as the CLI does. The
// answers have the shapes of the server's /api/puzzle and /api/puzzle/text.
"use strict";

const OCTOKU_PRACTICE = (() => {
  /** Box shape (rows × columns) of each side the page offers: the CLI's. */
  const BOXES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 10: [2, 5], 12: [3, 4], 14: [2, 7], 15: [3, 5], 16: [4, 4] };

  function geometry(n) {
    const box = BOXES[n];
    if (!box) throw new Error(`size: ${n} is not offered; expected one of ${Object.keys(BOXES).join(", ")}`);
    return { n, boxRows: box[0], boxCols: box[1] };
  }

  /** 1-9, then A, B, ... */
  function standardSymbols(n) {
    return [...Array(n).keys()].map((k) => (k < 9 ? String(k + 1) : String.fromCharCode(56 + k)));
  }

  function checkSymbols(symbols, n) {
    if (symbols.length !== n) throw new Error(`symbols: ${symbols.length} given, expected ${n} for a ${n}×${n} board`);
    if (new Set(symbols).size !== n) throw new Error("symbols: a symbol is listed twice; expected distinct symbols");
    const bad = symbols.find((s) => !s || /[\s,]/.test(s));
    if (bad !== undefined) throw new Error(`symbols: ${JSON.stringify(bad)} holds a space or a comma; expected neither`);
  }

  /** A small seeded generator (mulberry32): numbers in [0, 1). */
  function random(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** Counts completions of `cells` up to `limit` (most constrained cell
   *  first); `next` shuffles the candidates when given. Returns the count,
   *  the first completion, and whether `budget` search steps ran out. */
  function search(g, cells, limit, next, budget) {
    const { n, boxRows, boxCols } = g;
    const box = (i) => Math.floor(Math.floor(i / n) / boxRows) * boxRows + Math.floor((i % n) / boxCols);
    const rows = new Array(n).fill(0), cols = new Array(n).fill(0), boxes = new Array(n).fill(0);
    const values = cells.slice();
    for (let i = 0; i < n * n; i++) {
      const v = values[i];
      if (!v) continue;
      const bit = 1 << v;
      const [r, c, b] = [Math.floor(i / n), i % n, box(i)];
      if ((rows[r] | cols[c] | boxes[b]) & bit) return { count: 0, solution: null, exhausted: false };
      rows[r] |= bit;
      cols[c] |= bit;
      boxes[b] |= bit;
    }
    const all = ((1 << (n + 1)) - 1) & ~1;
    let count = 0, solution = null, steps = 0, exhausted = false;
    const step = () => {
      if (++steps > budget) {
        exhausted = true;
        return true;
      }
      let best = -1, bestFree = 0, bestSize = n + 1;
      for (let i = 0; i < n * n; i++) {
        if (values[i]) continue;
        const free = all & ~(rows[Math.floor(i / n)] | cols[i % n] | boxes[box(i)]);
        let size = 0;
        for (let f = free; f; f &= f - 1) size++;
        if (size < bestSize) [best, bestFree, bestSize] = [i, free, size];
        if (size === 0) return false;
      }
      if (best < 0) {
        if (++count === 1) solution = values.slice();
        return count >= limit;
      }
      const options = [];
      for (let v = 1; v <= n; v++) if (bestFree & (1 << v)) options.push(v);
      if (next) for (let k = options.length - 1; k > 0; k--) {
        const j = Math.floor(next() * (k + 1));
        [options[k], options[j]] = [options[j], options[k]];
      }
      const [r, c, b] = [Math.floor(best / n), best % n, box(best)];
      for (const v of options) {
        const bit = 1 << v;
        values[best] = v;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        const stop = step();
        values[best] = 0;
        rows[r] &= ~bit;
        cols[c] &= ~bit;
        boxes[b] &= ~bit;
        if (stop) return true;
      }
      return false;
    };
    step();
    return { count, solution, exhausted };
  }

  /** The answer the page shows: counts up to 2 and the unique solution. */
  function describe(g, cells, symbols, seed) {
    const found = search(g, cells, 2, null, 2000000);
    const solutions = found.exhausted ? 2 : found.count;
    return {
      size: g.n,
      box_rows: g.boxRows,
      box_cols: g.boxCols,
      seed,
      symbols,
      cells,
      solutions,
      solution: solutions === 1 ? found.solution : null,
      reason: solutions === 0 ? "the search found no completion" : null,
    };
  }

  /** A puzzle of side `n` with one solution, drawn from `seed`: a random
   *  full grid, then each cell in random order emptied unless that makes
   *  a second solution (a cell whose check runs too long stays). */
  function generate(n, seed, symbols) {
    const g = geometry(n);
    const next = random(seed);
    const full = search(g, new Array(n * n).fill(0), 1, next, Infinity).solution;
    const cells = full.slice();
    const order = [...cells.keys()];
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(next() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    // Larger boards get a smaller budget a check, so a draw stays within
    // a second or two: they keep a few more givens.
    const budget = n <= 10 ? 20000 : 600;
    for (const i of order) {
      const kept = cells[i];
      cells[i] = 0;
      const check = search(g, cells, 2, null, budget);
      if (check.exhausted || check.count !== 1) cells[i] = kept;
    }
    return describe(g, cells, symbols, seed);
  }

  /** Reads the header form. */
  function read(text) {
    const lines = text.replace(/[\r\n]+$/, "").split("\n").map((l) => l.replace(/\r$/, ""));
    const symbols = lines[0].replace(/ $/, "").split(" ");
    if (symbols.some((s) => !s)) throw new Error("text: the header lists its symbols separated by single spaces");
    const g = geometry(symbols.length);
    checkSymbols(symbols, g.n);
    const rows = lines.slice(1);
    if (rows.length !== g.n) throw new Error(`text: ${rows.length} rows after the header, expected ${g.n}`);
    const cells = [];
    rows.forEach((line, r) => {
      const parts = line.split(",");
      if (parts.length !== g.n) throw new Error(`text: row ${r + 1} has ${parts.length} cells, expected ${g.n}`);
      parts.forEach((p, c) => {
        if (p === " ") return cells.push(0);
        const v = symbols.indexOf(p);
        if (v < 0) throw new Error(`text: row ${r + 1} column ${c + 1} holds ${JSON.stringify(p)}, not one of the symbols ${symbols.join(" ")}`);
        cells.push(v + 1);
      });
    });
    return describe(g, cells, symbols, null);
  }

  /** The page's POST /api/puzzle, here: `{size, symbols?, seed?}` draws,
   *  `{text}` reads. */
  function puzzle(body) {
    if (body.text !== undefined) return read(body.text);
    const g = geometry(body.size);
    const symbols = body.symbols || standardSymbols(g.n);
    checkSymbols(symbols, g.n);
    const seed = body.seed !== undefined ? body.seed : crypto.getRandomValues(new Uint32Array(1))[0];
    return generate(g.n, seed, symbols);
  }

  /** The page's POST /api/puzzle/text, here: the header form of a board. */
  function text(body) {
    const g = geometry(body.size);
    const symbols = body.symbols || standardSymbols(g.n);
    const lines = [symbols.join(" ")];
    for (let r = 0; r < g.n; r++) lines.push(body.cells.slice(r * g.n, (r + 1) * g.n).map((v) => (v ? symbols[v - 1] : " ")).join(","));
    return { text: lines.join("\n") };
  }

  return { puzzle, text, geometry, search };
})();

if (typeof module === "object" && module.exports) module.exports = OCTOKU_PRACTICE;

// The rules of the 8x8 board (rows, columns, 2x4 boxes) for the static
// site, where no server explains: why a proposed solution is wrong, in the
// words and order of the CLI (octoku_core::octoku::explain; a test runs both on the
// same boards), and whether a board can be completed at all.
"use strict";

const OCTOKU_RULES = (() => {
  const N = 8, BOX_ROWS = 2, BOX_COLS = 4;

  /** Every unit in the CLI's order: rows, columns, then boxes; each with
   *  its cells [row, column] in reading order. */
  const UNITS = (() => {
    const units = [];
    for (let r = 0; r < N; r++) units.push({ kind: "row", name: `row ${r + 1}`, cells: [...Array(N).keys()].map((c) => [r, c]) });
    for (let c = 0; c < N; c++) units.push({ kind: "column", name: `column ${c + 1}`, cells: [...Array(N).keys()].map((r) => [r, c]) });
    for (let b = 0; b < N; b++) {
      const r0 = Math.floor(b / (N / BOX_COLS)) * BOX_ROWS, c0 = (b % (N / BOX_COLS)) * BOX_COLS;
      const cells = [];
      for (let r = r0; r < r0 + BOX_ROWS; r++) for (let c = c0; c < c0 + BOX_COLS; c++) cells.push([r, c]);
      units.push({ kind: "box", name: `subgrid ${b + 1} (rows ${r0 + 1}-${r0 + BOX_ROWS}, columns ${c0 + 1}-${c0 + BOX_COLS})`, cells });
    }
    return units;
  })();

  /** `a`, `a and b`, `a, b and c`. */
  function joinAnd(items) {
    if (items.length < 2) return items.join("");
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }

  /** The cells of a repeat named as the CLI names them. */
  function cellsPhrase(unit, cells) {
    if (unit.kind === "box") return joinAnd(cells.map(([r, c]) => `row ${r + 1} column ${c + 1}`));
    const word = unit.kind === "row" ? "column" : "row";
    const nums = cells.map(([r, c]) => String((unit.kind === "row" ? c : r) + 1));
    return nums.length === 1 ? `${word} ${nums[0]}` : `${word}s ${joinAnd(nums)}`;
  }

  /** Every reason `solution` fails for `start` (64 cells each, reading
   *  order): [{kind, message, cells: [[row, col], ...]}], empty exactly when
   *  the puzzle's verify accepts. */
  function explain(start, solution) {
    const problems = [];
    const at = (r, c) => solution[r * N + c];
    start.forEach((given, i) => {
      const r = Math.floor(i / N), c = i % N;
      if (given !== 0 && given !== solution[i])
        problems.push({ kind: "changed_given", message: solution[i] === 0 ? `row ${r + 1} column ${c + 1}: the given ${given} was emptied` : `row ${r + 1} column ${c + 1}: the given ${given} was changed to ${solution[i]}`, cells: [[r, c]] });
    });
    solution.forEach((v, i) => {
      const r = Math.floor(i / N), c = i % N;
      if (v >= 1 && v <= N) return;
      const message = v === 0 ? `row ${r + 1} column ${c + 1} is empty; cells must hold 1-8` : `row ${r + 1} column ${c + 1} holds ${v}; cells must hold 1-8`;
      problems.push({ kind: "bad_cell", message, cells: [[r, c]] });
    });
    for (const unit of UNITS) {
      const misses = [];
      for (let d = 1; d <= N; d++) {
        const holding = unit.cells.filter(([r, c]) => at(r, c) === d);
        if (holding.length === 0) misses.push(d);
        else if (holding.length > 1)
          problems.push({ kind: "repeated", message: `${unit.name} repeats ${d} (${cellsPhrase(unit, holding)})`, cells: holding });
      }
      for (const d of misses) problems.push({ kind: "missing", message: `${unit.name} misses ${d}`, cells: unit.cells });
    }
    return problems;
  }

  /** Whether the givens of `cells` (0 empty) can be completed to a solved
   *  grid: a depth-first search on the cell with the fewest candidates. */
  function solvable(cells) {
    const box = (r, c) => Math.floor(r / BOX_ROWS) * (N / BOX_COLS) + Math.floor(c / BOX_COLS);
    const rows = new Array(N).fill(0), cols = new Array(N).fill(0), boxes = new Array(N).fill(0);
    const grid = cells.slice();
    for (let i = 0; i < N * N; i++) {
      const v = grid[i];
      if (!v) continue;
      const r = Math.floor(i / N), c = i % N, bit = 1 << v;
      if (v > N || (rows[r] | cols[c] | boxes[box(r, c)]) & bit) return false;
      rows[r] |= bit; cols[c] |= bit; boxes[box(r, c)] |= bit;
    }
    const full = ((1 << (N + 1)) - 1) & ~1;
    const search = () => {
      let best = -1, bestFree = 0, bestCount = N + 1;
      for (let i = 0; i < N * N; i++) {
        if (grid[i]) continue;
        const r = Math.floor(i / N), c = i % N;
        const free = full & ~(rows[r] | cols[c] | boxes[box(r, c)]);
        let count = 0;
        for (let x = free; x; x &= x - 1) count++;
        if (count < bestCount) { best = i; bestFree = free; bestCount = count; }
        if (count === 0) return false;
      }
      if (best < 0) return true;
      const r = Math.floor(best / N), c = best % N, b = box(r, c);
      for (let d = 1; d <= N; d++) {
        const bit = 1 << d;
        if (!(bestFree & bit)) continue;
        grid[best] = d; rows[r] |= bit; cols[c] |= bit; boxes[b] |= bit;
        if (search()) return true;
        grid[best] = 0; rows[r] &= ~bit; cols[c] &= ~bit; boxes[b] &= ~bit;
      }
      return false;
    };
    return search();
  }

  return { explain, solvable };
})();

if (typeof module === "object" && module.exports) module.exports = OCTOKU_RULES;

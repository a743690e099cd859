//! The fair fill fills the reference's cells on every seed: the induction
//! over draws (docs/proofs/induction.md).
//!
//! Cut points: the reference's inner loop head `H`, taken only where it is
//! about to draw (its cell is filled and its seed non-zero); the fair fill's
//! draw loop head `F` (stack `s, labels, base, p, rows, cols, end, m1`). One
//! step of the fair fill is one draw; the reference makes the same draw, then
//! places its digit if the cell was empty, and stops where it is about to
//! draw again or at the end. keccak256 is an unknown function: the fair
//! fill's tables (`rows`, `cols`, `labels`) are unknowns at `F`, known only
//! through the invariant "the digit of every cell is 1..8", which the entry
//! lemma proves for every value of the hash.

use std::time::Instant;

use octoku_core::U256;

use super::golf::{REF_HEAD, bit, m1, nibble_marks, r};
use super::{InductionError, Pair, Program, Query, all, eq, eq_c, lt_c, shr};
use crate::exec::{self, Call, Limits, Outcome, Reached, Snapshot};
use crate::term::{Bin, TermId, Terms};
use crate::validate::Agreement;

/// The fair fill's draw loop head.
const DRAW: usize = 363;

/// Stack slots of the fair fill at `F`.
mod f {
    pub const S: usize = 0;
    pub const LABELS: usize = 1;
    pub const BASE: usize = 2;
    pub const P: usize = 3;
    pub const ROWS: usize = 4;
    pub const COLS: usize = 5;
    pub const END: usize = 6;
}

/// The two programs and their cut templates.
pub struct Setup<'a> {
    pair: Pair<'a>,
    /// Bits the relation's `s` is off by (0; 6 for the wrong relation of
    /// the negative control).
    slip: u64,
}

impl<'a> Setup<'a> {
    /// Templates from sample runs; refuses bytecode of another shape.
    pub fn new(reference: Program<'a>, fair: Program<'a>) -> Result<Setup<'a>, InductionError> {
        let pair = Pair::new(reference, fair, "fair fill", [DRAW].into())?;
        match pair.imp_templates.get(&DRAW) {
            Some(t) if t.stack.len() == 8 => {}
            _ => {
                return Err(InductionError::Shape(format!(
                    "the fair fill has no draw loop at pc {DRAW} with 8 stack entries: not the bytecode this proof is written for"
                )));
            }
        }
        Ok(Setup { pair, slip: 0 })
    }

    /// The negative control: a wrong relation (the reference's seed one
    /// chunk ahead of the fair `s`), which must fail on concrete runs and
    /// must not prove.
    pub fn with_wrong_relation(mut self) -> Setup<'a> {
        self.slip = 6;
        self
    }

    /// The lemmas: the count identity, the entry, one draw.
    pub fn queries(&self) -> Result<Vec<Query>, InductionError> {
        let mut out = vec![count_lemma(), self.lemma(false, None)?.0];
        // One query per pair of paths of the draw step (their disjunction
        // is the lemma; each alone is smaller for the solver).
        let (_, pairs) = self.lemma(true, None)?;
        for k in 0..pairs {
            out.push(self.lemma(true, Some(k))?.0);
        }
        Ok(out)
    }

    fn lemma(&self, step: bool, only: Option<usize>) -> Result<(Query, usize), InductionError> {
        let began = Instant::now();
        let mut terms = Terms::new();
        let seed = terms.var("seed");
        let ref_call = self
            .pair
            .reference
            .call(&mut terms, seed)
            .hashes_as_variables();
        let fair_call = self
            .pair
            .implementation
            .call(&mut terms, seed)
            .hashes_as_variables();
        let entry = Snapshot {
            pc: 0,
            stack: Vec::new(),
            memory: Vec::new(),
        };
        let (fair_start, ref_start, hyp) = if step {
            let g = self.pair.imp_templates[&DRAW].instance(&mut terms, "f_");
            let rr = self.pair.ref_templates[&REF_HEAD].instance(&mut terms, "r_");
            let batch = terms.var("batch");
            let hyp = invariant(&mut terms, &rr.stack, &g.stack, seed, batch, self.slip);
            (g, rr, hyp)
        } else {
            (entry.clone(), entry, terms.small(1))
        };
        let exec_err = |which| move |error| InductionError::Exec { which, error };
        let (fair_paths, _) = exec::execute_from(
            &mut terms,
            self.pair.implementation.code,
            &fair_call,
            Limits::default(),
            &fair_start,
            &self.pair.imp_cuts,
        )
        .map_err(exec_err("fair fill"))?;
        let ref_paths = self
            .until_draw(&mut terms, &ref_call, &ref_start)
            .map_err(exec_err("reference"))?;
        let mut broken = terms.small(0);
        let mut parts = Vec::new();
        let mut pair = 0;
        for fp in &fair_paths {
            for (rg, rend) in &ref_paths {
                pair += 1;
                if only.is_some_and(|k| k + 1 != pair) {
                    continue;
                }
                let ok = self.conclusion(&mut terms, step, &fair_start, &fp.reached, rend, seed);
                parts.push([fp.guard, *rg, ok]);
                let bad = terms.is_zero(ok);
                let case = all(&mut terms, &[hyp, fp.guard, *rg, bad]);
                broken = terms.or_bool(broken, case);
            }
        }
        let (name, says) = if step {
            (
                match only {
                    Some(k) => format!("fair-draw-{k}"),
                    None => "fair-draw".to_string(),
                },
                "one draw of the fair fill and of the reference keeps the invariant, or both end with the same cells",
            )
        } else {
            (
                "fair-entry".to_string(),
                "from the call's start both reach the invariant (every cell's digit 1..8, for every hash), or both end with the same cells",
            )
        };
        let query = Query {
            starts: (fair_start, Some(ref_start)),
            name,
            says: says.to_string(),
            terms,
            broken,
            built: began.elapsed(),
            parts: (hyp, parts),
        };
        Ok((query, pair))
    }

    /// The reference's paths from `start` to the next state at `H` where it
    /// is about to draw (after at least one segment), or to its end; at
    /// most 3 segments.
    fn until_draw(
        &self,
        terms: &mut Terms,
        call: &Call,
        start: &Snapshot,
    ) -> Result<Vec<(TermId, Reached)>, exec::ExecError> {
        let mut frontier = vec![(terms.small(1), start.clone())];
        let mut out = Vec::new();
        for _ in 0..3 {
            let mut next = Vec::new();
            for (guard, at) in frontier {
                let (paths, _) = exec::execute_from(
                    terms,
                    self.pair.reference.code,
                    call,
                    Limits::default(),
                    &at,
                    &self.pair.ref_cuts,
                )?;
                for p in paths {
                    let g = terms.and_bool(guard, p.guard);
                    if terms.as_const(g) == Some(U256::ZERO) {
                        continue;
                    }
                    match p.reached {
                        Reached::Cut(s) => {
                            let d = draws(terms, &s.stack);
                            let stop = terms.and_bool(g, d);
                            out.push((stop, Reached::Cut(s.clone())));
                            let not_d = terms.is_zero(d);
                            let go = terms.and_bool(g, not_d);
                            next.push((go, s));
                        }
                        ended @ Reached::Ended(_) => out.push((g, ended)),
                    }
                }
            }
            frontier = next;
        }
        // Paths still short of a draw after 3 segments break every lemma.
        for (g, s) in frontier {
            out.push((
                g,
                Reached::Cut(Snapshot {
                    pc: usize::MAX,
                    ..s
                }),
            ));
        }
        Ok(out)
    }

    fn conclusion(
        &self,
        terms: &mut Terms,
        step: bool,
        fair_start: &Snapshot,
        fend: &Reached,
        rend: &Reached,
        seed: TermId,
    ) -> TermId {
        let zero = terms.small(0);
        match (fend, rend) {
            (Reached::Ended(fo), Reached::Ended(ro)) => {
                let same = same_cells(terms, ro, fo);
                let p = fo.words.first().copied().unwrap_or(zero);
                assuming_count(terms, p, same)
            }
            (Reached::Cut(g), Reached::Cut(rr)) if g.pc == DRAW && rr.pc == REF_HEAD => {
                let fits_f = self.pair.imp_templates[&DRAW].fits(terms, g);
                let fits_r = self.pair.ref_templates[&REF_HEAD].fits(terms, rr);
                // The batch left after this state: one less than before in
                // the same batch, or a new batch of 8 - filled draws.
                let filled = nonzero_nibbles(terms, g.stack[f::P]);
                let eight = terms.small(8);
                let fresh_batch = terms.bin(Bin::Sub, eight, filled);
                let mut witnesses = vec![fresh_batch];
                if step {
                    let batch = terms.var_shared("batch");
                    let one = terms.small(1);
                    witnesses.push(terms.bin(Bin::Sub, batch, one));
                }
                let mut inv = zero;
                for w in witnesses {
                    let i = invariant(terms, &rr.stack, &g.stack, seed, w, self.slip);
                    inv = terms.or_bool(inv, i);
                }
                let measure = if step {
                    terms.bin(Bin::Lt, g.stack[f::S], fair_start.stack[f::S])
                } else {
                    terms.small(1)
                };
                let ok = all(terms, &[fits_f, fits_r, measure, inv]);
                assuming_count(terms, g.stack[f::P], ok)
            }
            _ => zero,
        }
    }
}

/// `ok`, or the count identity (lemma fair-count) fails for `p`: the
/// identity is proved valid, so its instance for the new board may be
/// assumed.
fn assuming_count(terms: &mut Terms, p: TermId, ok: TermId) -> TermId {
    let digits = nibbles_digits(terms, p);
    let n = nonzero_nibbles(terms, p);
    let few = lt_c(terms, n, 9);
    let c = recount(terms, p);
    let holds = eq(terms, c, n);
    let premise = terms.and_bool(digits, few);
    let instance = {
        let not_premise = terms.is_zero(premise);
        terms.or_bool(not_premise, holds)
    };
    let fails = terms.is_zero(instance);
    terms.or_bool(fails, ok)
}

/// 0/1: the reference at `H` is about to draw: its cell is filled (or the
/// sentinel 64) and its seed is not spent.
fn draws(terms: &mut Terms, rs: &[TermId]) -> TermId {
    let cell = bit(terms, rs[r::BITMAP], rs[r::INDEX]);
    let live = terms.to_bool(rs[r::SEED]);
    terms.and_bool(cell, live)
}

/// The number of non-zero nibbles of `p`.
fn nonzero_nibbles(terms: &mut Terms, p: TermId) -> TermId {
    let mut acc = terms.small(0);
    let fifteen = terms.small(15);
    for k in 0..64u64 {
        let x = shr(terms, p, 4 * k);
        let n = terms.bin(Bin::And, x, fifteen);
        let b = terms.to_bool(n);
        acc = terms.bin(Bin::Add, acc, b);
    }
    acc
}

/// The fair fill's recount of `p`, as its code computes it.
fn recount(terms: &mut Terms, p: TermId) -> TermId {
    let seven = terms.constant(m1() * U256::from(7u8));
    let m1 = terms.constant(m1());
    let a = terms.bin(Bin::Add, p, seven);
    let a = shr(terms, a, 3);
    let a = terms.bin(Bin::And, a, m1);
    let a = terms.bin(Bin::Mul, a, m1);
    shr(terms, a, 252)
}

/// 0/1: every nibble of `p` is at most 8.
fn nibbles_digits(terms: &mut Terms, p: TermId) -> TermId {
    let mut parts = Vec::new();
    let fifteen = terms.small(15);
    for k in 0..64u64 {
        let x = shr(terms, p, 4 * k);
        let n = terms.bin(Bin::And, x, fifteen);
        parts.push(lt_c(terms, n, 9));
    }
    all(terms, &parts)
}

/// Lemma fair-count: for every word whose nibbles are 0..8 with at most 8
/// non-zero, the fair fill's recount is the number of non-zero nibbles.
fn count_lemma() -> Query {
    let began = Instant::now();
    let mut terms = Terms::new();
    let p = terms.var("p");
    let digits = nibbles_digits(&mut terms, p);
    let n = nonzero_nibbles(&mut terms, p);
    let few = lt_c(&mut terms, n, 9);
    let hyp = terms.and_bool(digits, few);
    let c = recount(&mut terms, p);
    let ok = eq(&mut terms, c, n);
    let bad = terms.is_zero(ok);
    let broken = terms.and_bool(hyp, bad);
    let entry = Snapshot {
        pc: 0,
        stack: Vec::new(),
        memory: Vec::new(),
    };
    Query {
        starts: (entry, None),
        name: "fair-count".to_string(),
        says: "the recount of a word of nibbles 0..8 with at most 8 non-zero is their number"
            .to_string(),
        terms,
        broken,
        built: began.elapsed(),
        parts: (hyp, Vec::new()),
    }
}

/// The digit the fair fill writes on cell `k`: `labels` byte at nibble
/// `rows[k >> 3] + cols[(4k) & 28]` of `base`.
fn digit(terms: &mut Terms, fs: &[TermId], k: u64) -> TermId {
    let k4 = 4 * k;
    let (r, c) = (terms.small(k4 >> 5), terms.small(k4 & 28));
    let row = terms.byte(r, fs[f::ROWS]);
    let col = terms.byte(c, fs[f::COLS]);
    let at = terms.bin(Bin::Add, row, col);
    let nib = terms.bin(Bin::Shr, fs[f::BASE], at);
    let fifteen = terms.small(15);
    let slot = terms.bin(Bin::And, nib, fifteen);
    // slot < 16: byte's guard folds away.
    terms.byte(slot, fs[f::LABELS])
}

/// The invariant at `F` with the reference at `H` about to draw, `batch`
/// draws left in the fair fill's batch.
fn invariant(
    terms: &mut Terms,
    rs: &[TermId],
    fs: &[TermId],
    seed: TermId,
    batch: TermId,
    slip: u64,
) -> TermId {
    let about = draws(terms, rs);
    let index_ok = lt_c(terms, rs[r::INDEX], 65);
    let s = shr(terms, fs[f::S], slip);
    let same_s = eq(terms, rs[r::SEED], s);
    let seed0 = eq(terms, rs[r::SEED0], seed);
    let p = fs[f::P];
    let marks = nibble_marks(terms, rs[r::BITMAP], p);
    // The reference's board has its digits exactly on the marked cells.
    let puzzle = rs[r::PUZZLE];
    let ref_marks = nibble_marks(terms, rs[r::BITMAP], puzzle);
    // Every cell's digit is 1..8, and a filled cell holds its digit.
    let mut cells = Vec::new();
    for k in 0..64u64 {
        let d = digit(terms, fs, k);
        let zero = eq_c(terms, d, 0);
        let nonzero = terms.is_zero(zero);
        let small = lt_c(terms, d, 9);
        let fifteen = terms.small(15);
        let x = shr(terms, p, 4 * k);
        let n = terms.bin(Bin::And, x, fifteen);
        let empty = eq_c(terms, n, 0);
        let same = eq(terms, n, d);
        let held = terms.or_bool(empty, same);
        cells.push(all(terms, &[nonzero, small, held]));
    }
    let cells = all(terms, &cells);
    // i - 1 cells are filled (counted on the fair board, as the count
    // lemma does).
    let filled = nonzero_nibbles(terms, p);
    let one = terms.small(1);
    let i1 = terms.bin(Bin::Sub, rs[r::I], one);
    let count = eq(terms, i1, filled);
    let i_ok = lt_c(terms, rs[r::I], 9);
    let i_zero = eq_c(terms, rs[r::I], 0);
    let i_pos = terms.is_zero(i_zero);
    // The batch: end = s >> 6·batch, 1 <= batch, filled + batch <= 8.
    let six = terms.small(6);
    let sh = terms.bin(Bin::Mul, batch, six);
    let want_end = terms.bin(Bin::Shr, fs[f::S], sh);
    let end_ok = eq(terms, fs[f::END], want_end);
    let b_zero = eq_c(terms, batch, 0);
    let b_pos = terms.is_zero(b_zero);
    let b_small = lt_c(terms, batch, 9);
    let total = terms.bin(Bin::Add, filled, batch);
    let fits = lt_c(terms, total, 9);
    all(
        terms,
        &[
            about, index_ok, same_s, seed0, marks, ref_marks, cells, count, i_ok, i_pos, end_ok,
            b_pos, b_small, fits,
        ],
    )
}

/// 0/1: the two outcomes agree in success and length, and their first words
/// have the same non-zero nibbles.
fn same_cells(terms: &mut Terms, a: &Outcome, b: &Outcome) -> TermId {
    let s = eq(terms, a.success, b.success);
    let l = eq(terms, a.len, b.len);
    let zero = terms.small(0);
    let wa = a.words.first().copied().unwrap_or(zero);
    let wb = b.words.first().copied().unwrap_or(zero);
    let mut parts = vec![s, l];
    let fifteen = terms.small(15);
    for k in 0..64u64 {
        let x = shr(terms, wa, 4 * k);
        let x = terms.bin(Bin::And, x, fifteen);
        let x = terms.to_bool(x);
        let y = shr(terms, wb, 4 * k);
        let y = terms.bin(Bin::And, y, fifteen);
        let y = terms.to_bool(y);
        parts.push(eq(terms, x, y));
    }
    let extra = a.words.len().max(b.words.len());
    for k in 1..extra {
        let x = a.words.get(k).copied().unwrap_or(zero);
        let y = b.words.get(k).copied().unwrap_or(zero);
        parts.push(eq(terms, x, y));
    }
    all(terms, &parts)
}

impl Setup<'_> {
    /// Checks the invariant on the concrete runs of both programs on
    /// `seed`: the k-th state of the fair fill at `F` against the
    /// reference's k-th state at `H` about to draw (both fitting their
    /// templates, the invariant holding for the hash values of the run and
    /// some batch 1..8), as many draws in both, and the same filled cells
    /// returned; the number of states checked.
    pub fn check_run(&self, seed: U256) -> Result<usize, InductionError> {
        let [(rs, rend), (fs, fend)] = self.pair.traces(seed)?;
        let mut terms = Terms::new();
        let seed_t = terms.constant(seed);
        let holds = |terms: &mut Terms, t: TermId| !terms.eval(t, &[]).is_zero();
        let mut drawing = Vec::new();
        for st in &rs {
            let r = st.snapshot(&mut terms);
            let d = draws(&mut terms, &r.stack);
            if holds(&mut terms, d) {
                drawing.push(r);
            }
        }
        if drawing.len() != fs.len() {
            return Err(InductionError::Invariant {
                seed,
                what: format!(
                    "the reference draws {} times, the fair fill {}",
                    drawing.len(),
                    fs.len()
                ),
            });
        }
        for (n, (st, r)) in fs.iter().zip(&drawing).enumerate() {
            let fail = |what: &str| {
                Err(InductionError::Invariant {
                    seed,
                    what: format!("fair state {n} at pc {} breaks the {what}", st.pc),
                })
            };
            let g = st.snapshot(&mut terms);
            let fits_f = self.pair.imp_templates[&DRAW].fits(&mut terms, &g);
            let fits_r = self.pair.ref_templates[&REF_HEAD].fits(&mut terms, r);
            if !holds(&mut terms, fits_f) || !holds(&mut terms, fits_r) {
                return fail("templates");
            }
            let some_batch = (1..=8u64).any(|b| {
                let b = terms.small(b);
                let inv = invariant(&mut terms, &r.stack, &g.stack, seed_t, b, self.slip);
                holds(&mut terms, inv)
            });
            if !some_batch {
                return fail("invariant (for every batch 1..8)");
            }
        }
        let same = {
            let to = |terms: &mut Terms, v: &[U256]| Outcome {
                success: terms.constant(v[0]),
                len: terms.constant(v[1]),
                words: super::constants(terms, &v[2..]),
            };
            let a = to(&mut terms, &rend);
            let b = to(&mut terms, &fend);
            same_cells(&mut terms, &a, &b)
        };
        if !holds(&mut terms, same) {
            return Err(InductionError::Invariant {
                seed,
                what: "the two calls return different cells".into(),
            });
        }
        Ok(fs.len())
    }
}

/// Runs the fair fill's induction: every lemma, written under `dir`,
/// asked of `solver` in order up to the first that is not proved; a
/// refuted lemma's state is replayed in revm.
pub fn prove(
    setup: &Setup<'_>,
    dir: &std::path::Path,
    solver: &crate::solver::Solver,
) -> Result<super::Report, InductionError> {
    prove_selected(setup, |_| true, dir, solver)
}

/// [`prove`] on the lemmas whose names `keep` accepts, in their order (the
/// fast checks of a mutant; `proved` then covers those lemmas only).
pub fn prove_selected(
    setup: &Setup<'_>,
    keep: impl Fn(&str) -> bool,
    dir: &std::path::Path,
    solver: &crate::solver::Solver,
) -> Result<super::Report, InductionError> {
    let began = Instant::now();
    let queries: Vec<Query> = setup
        .queries()?
        .into_iter()
        .filter(|q| keep(&q.name))
        .collect();
    setup
        .pair
        .prove(&queries, began.elapsed(), dir, solver, Agreement::Cells)
}

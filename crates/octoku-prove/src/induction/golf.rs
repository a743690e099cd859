//! The golfed fill equals the reference's `_fill` on every seed: the
//! induction over draws (docs/proofs/induction.md).
//!
//! Cut points. The reference's inner `while` head `H` (its stack holds
//! `seed`, `puzzle`, `bitmap`, `index`, `i`). The golfed fill's fast path:
//! `J_d` where digit d's cell `m` was found (before `q |= m`) and `L_d` the
//! head of digit d's skip loop (its cell is filled), d = 2..8, stack `s,
//! seed0, q, m`; its slow path (the reference loop transcribed): `D` before a
//! draw and `P` after it, stack `s, seed0, p, i, c4`.
//!
//! Invariants, over the unknown calldata seed `seed`:
//! - *related* `A_X` at a fast cut X with the reference at `H` just after a
//!   draw: `s >> 42 != 0`, the reference's seed is `s >> 6d`, `i = d`, `m`
//!   is `(d + 7) << 4 index`, every nibble of `q` is 0 or the reference's
//!   digit + 7, the bitmap marks exactly the non-zero nibbles (and bit 64),
//!   and the cell is filled (`L_d`) or empty (`J_d`);
//! - *escaped* `E_X`: `s >> 42 == 0` (the fast result will be discarded);
//! - *slow* `B_D`, `B_P`: the slow loop's `s, p, i` are the reference's
//!   `seed, puzzle, i` (reference at `H` about to draw, or just after one).
//!
//! Lemmas (each one query; `unsat` proves it for every state): from the
//! entry, both calls reach a related or escaped state; each related state
//! steps to a related or escaped one (the reference 1 or 2 segments), and
//! at `J_8` both calls return the same board; each escaped state steps to an
//! escaped one and at `J_8` starts the slow loop in `B_D` with a fresh run
//! of the reference; `B_D` and `B_P` step to each other or both calls return
//! the same board. Every state of the golfed fill at a cut is covered, so
//! by induction over its cuts both calls return the same on every seed.
//! Every step lemma also requires its step to lower a termination measure
//! (`measure`: a later cut, or a skip loop's head again with a smaller `s`;
//! in the slow loop a larger `i`, or a later cut, or a smaller `s`), so no
//! seed makes the golfed fill loop forever between its cuts: a code that
//! comes back to a cut without progress refutes the lemma of that step.

use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

use octoku_core::U256;

use super::shape::{self, KnownCut};
use super::{
    InductionError, Input, Pair, Program, Query, Report, address_seed, all, constants, eq, eq_c,
    is_address, lt_c, run, same_outcome, shr,
};
use crate::exec::{Reached, Snapshot};
use crate::solver::Solver;
use crate::term::{Bin, TermId, Terms};
use crate::validate::Agreement;

/// The reference's inner loop head.
pub(super) const REF_HEAD: usize = 583;
/// `L_d`, d = 2..8: the golfed skip loops' heads.
const LOOPS: [usize; 7] = [41, 91, 143, 195, 247, 299, 351];
/// `J_d`, d = 2..8: digit d's cell found.
const JOINS: [usize; 7] = [72, 122, 174, 226, 278, 330, 382];
/// The slow path: before a draw, after a draw.
const SLOW_DRAW: usize = 431;
const SLOW_PLACE: usize = 461;
/// How many stack entries (from the bottom) of the harness's fast and slow
/// cuts are loop variables: all of them.
const FAST_VARS: usize = 4;
const SLOW_VARS: usize = 5;

/// Stack slots of the reference at `H`.
pub(super) mod r {
    pub const SEED0: usize = 2;
    pub const SEED: usize = 5;
    pub const PUZZLE: usize = 6;
    pub const BITMAP: usize = 7;
    pub const INDEX: usize = 8;
    pub const I: usize = 9;
}
/// Stack slots of the golfed fast path.
mod g {
    pub const S: usize = 0;
    pub const SEED0: usize = 1;
    pub const Q: usize = 2;
    pub const M: usize = 3;
}
/// Stack slots of the golfed slow path (slot 1 is the original seed).
mod gs {
    pub const S: usize = 0;
    pub const P: usize = 2;
    pub const I: usize = 3;
    pub const C4: usize = 4;
}

/// A cut of the golfed fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    Join(u64),
    Loop(u64),
    SlowDraw,
    SlowPlace,
}

impl Cut {
    /// Every cut, in the harness's order of program counters per kind.
    fn all() -> impl Iterator<Item = Cut> {
        (2..=8)
            .map(Cut::Loop)
            .chain((2..=8).map(Cut::Join))
            .chain([Cut::SlowDraw, Cut::SlowPlace])
    }

    /// Where the harness has it, and how many loop variables it holds.
    fn in_harness(self) -> KnownCut {
        let (pc, vars) = match self {
            Cut::Join(d) => (JOINS[d as usize - 2], FAST_VARS),
            Cut::Loop(d) => (LOOPS[d as usize - 2], FAST_VARS),
            Cut::SlowDraw => (SLOW_DRAW, SLOW_VARS),
            Cut::SlowPlace => (SLOW_PLACE, SLOW_VARS),
        };
        KnownCut { pc, vars }
    }

    fn name(self) -> String {
        match self {
            Cut::Join(d) => format!("J{d}"),
            Cut::Loop(d) => format!("L{d}"),
            Cut::SlowDraw => "D".to_string(),
            Cut::SlowPlace => "P".to_string(),
        }
    }

    fn fast(self) -> bool {
        matches!(self, Cut::Join(_) | Cut::Loop(_))
    }

    /// The cut's place in the order the golfed fill passes its cuts within
    /// a phase: L2 < J2 < L3 < J3 < ... < L8 < J8, and D < P.
    fn rank(self) -> u64 {
        match self {
            Cut::Loop(d) => 2 * d,
            Cut::Join(d) => 2 * d + 1,
            Cut::SlowDraw => 0,
            Cut::SlowPlace => 1,
        }
    }
}

/// 0/1: the step from the cut `from` (its loop variables, in the harness's
/// order) to the cut `to` lowers the golfed fill's termination measure, a
/// lexicographic order that has no infinite descending chain:
///
/// - the phase: the fast path before the slow loop, never back;
/// - on the fast path: a later cut ([`Cut::rank`]), or the same cut (a skip
///   loop's head) with a smaller `s` (unsigned);
/// - in the slow loop: a larger `i` (unsigned, so at most 2^256 times), or
///   the same `i` and a later cut (D before P), or the same `i` and cut
///   with a smaller `s`.
///
/// A step lemma's conclusion requires it, so a loop of the code that comes
/// back to a cut without progress (say a loop around a cell search that
/// spins on one seed) refutes the lemma instead of proving it: the lemmas
/// then prove equal results for every seed on which the golfed fill
/// terminates, and that it terminates on every seed.
fn measure(terms: &mut Terms, (from, x): (Cut, &[TermId]), (to, y): (Cut, &[TermId])) -> TermId {
    let (zero, one) = (terms.small(0), terms.small(1));
    let later = |terms: &mut Terms, s_from: TermId, s_to: TermId| {
        use std::cmp::Ordering;
        match to.rank().cmp(&from.rank()) {
            Ordering::Greater => one,
            Ordering::Equal => terms.bin(Bin::Lt, s_to, s_from),
            Ordering::Less => zero,
        }
    };
    match (from.fast(), to.fast()) {
        (true, true) => later(terms, x[g::S], y[g::S]),
        (true, false) => one,
        (false, true) => zero,
        (false, false) => {
            let up = terms.bin(Bin::Lt, x[gs::I], y[gs::I]);
            let same_i = eq(terms, x[gs::I], y[gs::I]);
            let on = later(terms, x[gs::S], y[gs::S]);
            let same = terms.and_bool(same_i, on);
            terms.or_bool(up, same)
        }
    }
}

/// The shape a fill must have for this proof, one line (for the refusal).
pub const SHAPE: &str = "the golfed fill of contracts/Golf.sol: digit 1 placed, then for each digit 2..8 a skip loop (head holding s, seed, q, m) and a join where the digit's cell is found, then the slow loop (s, seed, p, i, c4) at its draw and at its place";

/// Where the golfed fill's cuts are in one bytecode, and which stack slot
/// holds each loop variable there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Each cut, its program counter, and for each loop variable (the
    /// harness's stack slot 0, 1, ..) the stack slot holding it.
    cuts: Vec<(Cut, usize, Vec<usize>)>,
}

impl Layout {
    /// The test harness's layout (contracts/harness/GolfHarness.sol): the
    /// cuts this proof is written for, each variable in its own slot.
    pub fn harness() -> Layout {
        let cuts = Cut::all()
            .map(|c| {
                let k = c.in_harness();
                (c, k.pc, (0..k.vars).collect())
            })
            .collect();
        Layout { cuts }
    }

    /// The layout of the golfed fill in `golf`, found by running it on the
    /// sample seeds next to the harness ([`shape::find`]); refuses code
    /// whose fill does not have the shape.
    pub fn find(golf: Program<'_>) -> Result<Layout, InductionError> {
        let harness = Program::harness(octoku_evm::Puzzle::Golf);
        let cuts: Vec<Cut> = Cut::all().collect();
        let known: Vec<KnownCut> = cuts.iter().map(|c| c.in_harness()).collect();
        match shape::find(harness, &known, golf, &sample_seeds())? {
            Ok(found) => Ok(Layout {
                cuts: cuts
                    .into_iter()
                    .zip(found)
                    .map(|(c, f)| (c, f.pc, f.slots))
                    .collect(),
            }),
            Err(k) => Err(InductionError::Shape(format!(
                "no loop head of this code holds the golfed fill's {} (its states on sample seeds match no JUMPDEST's); --all handles fills of one shape: {SHAPE}",
                describe_cut(cuts[k])
            ))),
        }
    }

    /// The cut at `pc`.
    fn of(&self, pc: usize) -> Option<Cut> {
        self.cuts.iter().find(|c| c.1 == pc).map(|c| c.0)
    }

    /// The program counter of `cut`.
    fn pc(&self, cut: Cut) -> usize {
        self.cuts.iter().find(|c| c.0 == cut).expect("every cut").1
    }

    /// The loop variables of a stack at `pc`, in the harness's order (empty
    /// at no cut). The stack must be as deep as the cut's template.
    fn view<T: Copy>(&self, pc: usize, stack: &[T]) -> Vec<T> {
        self.cuts
            .iter()
            .find(|c| c.1 == pc)
            .map(|c| c.2.iter().map(|&j| stack[j]).collect())
            .unwrap_or_default()
    }

    /// Each cut's name, program counter and loop variables' stack slots.
    pub fn describe(&self) -> Vec<(String, usize, Vec<usize>)> {
        self.cuts
            .iter()
            .map(|(c, pc, slots)| (c.name(), *pc, slots.clone()))
            .collect()
    }
}

/// What the loop variables at `cut` are, for messages.
fn describe_cut(cut: Cut) -> String {
    match cut {
        Cut::Loop(d) => format!("skip loop head of digit {d} (s, seed, q, m)"),
        Cut::Join(d) => format!("join of digit {d} (s, seed, q, m)"),
        Cut::SlowDraw => "slow loop before a draw (s, seed, p, i, c4)".to_string(),
        Cut::SlowPlace => "slow loop after a draw (s, seed, p, i, c4)".to_string(),
    }
}

/// The two programs and their cut templates.
pub struct Setup<'a> {
    pair: Pair<'a>,
    layout: Layout,
    slip: u64,
}

/// Sample seeds for the templates: every loop of both fills is visited
/// (collisions at each digit, short seeds for the slow path).
pub fn sample_seeds() -> Vec<U256> {
    let mut seeds = vec![U256::from(0x1c3a5b7d9u64), U256::from(5u8), U256::ZERO];
    let mut rng = octoku_core::rng::SplitMix64::new(27);
    for k in 0..400u64 {
        let mut w = U256::ZERO;
        // Chunks drawn from a few cells so that every digit collides often.
        for j in 0..43 {
            let c = if k % 2 == 0 {
                rng.next_u64() % 64
            } else {
                rng.next_u64() % 9
            };
            w |= U256::from(c) << (6 * j);
        }
        let cut = rng.next_u64() % 256;
        seeds.push(if k % 3 == 0 { w >> cut as usize } else { w });
    }
    seeds
}

impl<'a> Setup<'a> {
    /// The harness's fill (or a mutant of it): templates from sample runs
    /// at the harness's cuts; refuses bytecode whose cut points are not
    /// there.
    pub fn new(reference: Program<'a>, golf: Program<'a>) -> Result<Setup<'a>, InductionError> {
        Setup::with_layout(reference, golf, Layout::harness())
    }

    /// Any bytecode whose fill has the golfed shape (an author's IPuzzle
    /// called as `generate(address)`, the harness, ...): the cuts found by
    /// [`Layout::find`], then templates from sample runs.
    pub fn by_shape(
        reference: Program<'a>,
        golf: Program<'a>,
    ) -> Result<Setup<'a>, InductionError> {
        let layout = Layout::find(golf)?;
        Setup::with_layout(reference, golf, layout)
    }

    fn with_layout(
        reference: Program<'a>,
        golf: Program<'a>,
        layout: Layout,
    ) -> Result<Setup<'a>, InductionError> {
        let golf_cuts: HashSet<usize> = layout.cuts.iter().map(|c| c.1).collect();
        let pair = Pair::new(reference, golf, "golfed fill", golf_cuts)?;
        for (cut, pc, slots) in &layout.cuts {
            let depth = slots.iter().max().map_or(0, |&j| j + 1);
            if pair
                .imp_templates
                .get(pc)
                .is_none_or(|t| t.stack.len() < depth)
            {
                return Err(InductionError::Shape(format!(
                    "the golfed fill has no {} at pc {pc} with at least {depth} stack entries: not the bytecode this proof is written for",
                    describe_cut(*cut)
                )));
            }
        }
        Ok(Setup {
            pair,
            layout,
            slip: 0,
        })
    }

    /// Where the cuts are.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The same proof with a wrong relation (the reference's seed taken as
    /// `s >> 6(d - 1)` instead of `s >> 6d`), for the soundness tests: it
    /// must neither hold on concrete runs nor prove.
    pub fn with_wrong_relation(mut self) -> Setup<'a> {
        self.slip = 6;
        self
    }

    /// Every lemma of the induction, as queries.
    pub fn queries(&self) -> Result<Vec<Query>, InductionError> {
        let mut out = vec![self.lemma(Kind::Entry)?];
        for d in 2..=8 {
            out.push(self.lemma(Kind::Related(Cut::Loop(d)))?);
            out.push(self.lemma(Kind::Related(Cut::Join(d)))?);
        }
        for d in 2..=8 {
            out.push(self.lemma(Kind::Escaped(Cut::Loop(d)))?);
            out.push(self.lemma(Kind::Escaped(Cut::Join(d)))?);
        }
        out.push(self.lemma(Kind::Slow(Cut::SlowDraw))?);
        out.push(self.lemma(Kind::Slow(Cut::SlowPlace))?);
        Ok(out)
    }

    /// The step lemmas only (no entry, no end): the fast part `make test`
    /// runs.
    pub fn step_queries(&self) -> Result<Vec<Query>, InductionError> {
        let mut out = Vec::new();
        for d in 2..=7 {
            out.push(self.lemma(Kind::Related(Cut::Loop(d)))?);
        }
        out.push(self.lemma(Kind::Slow(Cut::SlowDraw))?);
        Ok(out)
    }

    fn lemma(&self, kind: Kind) -> Result<Query, InductionError> {
        let began = Instant::now();
        let mut terms = Terms::new();
        let mut seed = terms.var("seed");
        let golf_arg = match self.pair.implementation.input {
            Input::Seed => seed,
            Input::Address => terms.var("address"),
        };
        let golf_call = self
            .pair
            .implementation
            .call(&mut terms, golf_arg)
            .hashes_as_variables();
        let entry = Snapshot {
            pc: 0,
            stack: Vec::new(),
            memory: Vec::new(),
        };
        let ref_exec = |error| InductionError::Exec {
            which: "reference",
            error,
        };
        let golf_exec = |error| InductionError::Exec {
            which: "golfed fill",
            error,
        };
        // Start states, the hypothesis, and the reference's segments.
        let layout = &self.layout;
        let (golf_start, ref_start, mut hyp, segments, from) = match kind {
            // The reference: before and after digit 1's draw, then digit 2's.
            Kind::Entry => (entry.clone(), Some(entry.clone()), terms.small(1), 4, None),
            Kind::Related(cut) => {
                let g = self.pair.imp_templates[&layout.pc(cut)].instance(&mut terms, "g_");
                let r = self.pair.ref_templates[&REF_HEAD].instance(&mut terms, "r_");
                let gv = layout.view(g.pc, &g.stack);
                let hyp = related(&mut terms, cut, &r.stack, &gv, seed, self.slip);
                let segments = if matches!(cut, Cut::Join(d) if d < 8) {
                    2
                } else {
                    1
                };
                (g, Some(r), hyp, segments, Some(cut))
            }
            Kind::Escaped(Cut::Join(8)) => {
                let g =
                    self.pair.imp_templates[&layout.pc(Cut::Join(8))].instance(&mut terms, "g_");
                let hyp = escaped(&mut terms, &layout.view(g.pc, &g.stack), seed);
                (g, Some(entry.clone()), hyp, 1, Some(Cut::Join(8)))
            }
            Kind::Escaped(cut) => {
                let g = self.pair.imp_templates[&layout.pc(cut)].instance(&mut terms, "g_");
                let hyp = escaped(&mut terms, &layout.view(g.pc, &g.stack), seed);
                (g, None, hyp, 0, Some(cut))
            }
            Kind::Slow(cut) => {
                let g = self.pair.imp_templates[&layout.pc(cut)].instance(&mut terms, "g_");
                let r = self.pair.ref_templates[&REF_HEAD].instance(&mut terms, "r_");
                let gv = layout.view(g.pc, &g.stack);
                let hyp = slow(&mut terms, cut, &r.stack, &gv, seed);
                (g, Some(r), hyp, 1, Some(cut))
            }
        };
        let golf_paths = run(
            &mut terms,
            self.pair.implementation,
            &golf_call,
            &golf_start,
            &self.pair.imp_cuts,
            1,
        )
        .map_err(golf_exec)?;
        if kind == Kind::Entry && self.pair.implementation.input == Input::Address {
            // The seed is the program's hash of the address, which must be
            // the reference's: keccak256 of the address's 20 bytes.
            seed = address_seed(&mut terms, golf_arg).ok_or_else(|| {
                InductionError::Shape(
                    "generate(address) does not hash the address's 20 bytes (keccak256 of calldata bytes 16..35) before its fill, as the reference does".to_string(),
                )
            })?;
            hyp = is_address(&mut terms, golf_arg);
        }
        let ref_call = self
            .pair
            .reference
            .call(&mut terms, seed)
            .hashes_as_variables();
        let ref_paths = match &ref_start {
            Some(r) => run(
                &mut terms,
                self.pair.reference,
                &ref_call,
                r,
                &self.pair.ref_cuts,
                segments,
            )
            .map_err(ref_exec)?,
            None => vec![(terms.small(1), Reached::Ended(dummy(&mut terms)))],
        };
        let mut broken = terms.small(0);
        let mut parts = Vec::new();
        for (gg, gend) in &golf_paths {
            for (rg, rend) in &ref_paths {
                let ok = self.conclusion(
                    &mut terms,
                    kind,
                    from,
                    &golf_start,
                    gend,
                    rend,
                    ref_start.is_some(),
                    seed,
                );
                parts.push([*gg, *rg, ok]);
                let bad = terms.is_zero(ok);
                let case = all(&mut terms, &[hyp, *gg, *rg, bad]);
                broken = terms.or_bool(broken, case);
            }
        }
        let (name, says) = describe(kind);
        Ok(Query {
            starts: (golf_start.clone(), ref_start.clone()),
            name,
            says,
            terms,
            broken,
            built: began.elapsed(),
            parts: (hyp, parts),
        })
    }

    /// 0/1: the pair of path ends satisfies the lemma's conclusion.
    #[allow(clippy::too_many_arguments)]
    fn conclusion(
        &self,
        terms: &mut Terms,
        kind: Kind,
        from: Option<Cut>,
        golf_start: &Snapshot,
        gend: &Reached,
        rend: &Reached,
        with_ref: bool,
        seed: TermId,
    ) -> TermId {
        let zero = terms.small(0);
        match gend {
            Reached::Ended(go) => match rend {
                Reached::Ended(ro) if with_ref => same_outcome(terms, ro, go),
                _ => zero,
            },
            Reached::Cut(g) => {
                let Some(to) = self.layout.of(g.pc) else {
                    return zero;
                };
                let template = &self.pair.imp_templates[&g.pc];
                if g.stack.len() != template.stack.len() {
                    // Not the cut's state (and no slot to read it from).
                    return zero;
                }
                let fits_g = template.fits(terms, g);
                let gv = self.layout.view(g.pc, &g.stack);
                let start = self.layout.view(golf_start.pc, &golf_start.stack);
                // Every step to a cut lowers the measure (termination).
                let measure = match from {
                    Some(from) => measure(terms, (from, &start), (to, &gv)),
                    // The entry is no loop step.
                    None => terms.small(1),
                };
                let head = |terms: &mut Terms, rend: &Reached| match rend {
                    Reached::Cut(r) if r.pc == REF_HEAD => Some((
                        self.pair.ref_templates[&REF_HEAD].fits(terms, r),
                        r.stack.clone(),
                    )),
                    _ => None,
                };
                let body = match (kind, to.fast()) {
                    (Kind::Escaped(Cut::Join(8)) | Kind::Slow(_), false) => {
                        match head(terms, rend) {
                            Some((fits_r, rs)) => {
                                let rel = slow(terms, to, &rs, &gv, seed);
                                all(terms, &[fits_r, rel])
                            }
                            None => zero,
                        }
                    }
                    (Kind::Escaped(_), true) => escaped(terms, &gv, seed),
                    (Kind::Entry | Kind::Related(_), true) => {
                        let esc = escaped(terms, &gv, seed);
                        let rel = match head(terms, rend) {
                            Some((fits_r, rs)) => {
                                let rel = related(terms, to, &rs, &gv, seed, self.slip);
                                all(terms, &[fits_r, rel])
                            }
                            None => zero,
                        };
                        terms.or_bool(esc, rel)
                    }
                    _ => zero,
                };
                all(terms, &[fits_g, measure, body])
            }
        }
    }
}

/// Which lemma.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// From the call's start to the first cut.
    Entry,
    /// From a related state at a fast cut.
    Related(Cut),
    /// From an escaped state at a fast cut (at `J_8`: into the slow loop,
    /// with the reference from its start).
    Escaped(Cut),
    /// From a slow-loop state.
    Slow(Cut),
}

fn describe(kind: Kind) -> (String, String) {
    match kind {
        Kind::Entry => (
            "entry".to_string(),
            "from the call's start both fills reach a related state, or the golfed fill an escaped one".to_string(),
        ),
        Kind::Related(Cut::Join(8)) => (
            "related-J8".to_string(),
            "at J8 a related state returns the reference's board".to_string(),
        ),
        Kind::Related(c) => (
            format!("related-{}", c.name()),
            format!(
                "a related state at {} steps to a related or escaped state at a later cut, or at the same loop head with a smaller s (reference: {} segment(s))",
                c.name(),
                if matches!(c, Cut::Join(_)) { 2 } else { 1 }
            ),
        ),
        Kind::Escaped(Cut::Join(8)) => (
            "escaped-J8".to_string(),
            "at J8 an escaped state enters the slow loop related to a fresh reference run".to_string(),
        ),
        Kind::Escaped(c) => (
            format!("escaped-{}", c.name()),
            format!(
                "an escaped state at {} steps to an escaped state at a later cut, or at the same loop head with a smaller s",
                c.name()
            ),
        ),
        Kind::Slow(c) => (
            format!("slow-{}", c.name()),
            format!(
                "a slow-loop state at {} steps to a slow-loop state with a larger i, or the same i and a later cut or a smaller s, or both return the same board",
                c.name()
            ),
        ),
    }
}

/// A placeholder outcome for golf-only lemmas (never compared).
fn dummy(terms: &mut Terms) -> crate::exec::Outcome {
    let z = terms.small(0);
    crate::exec::Outcome {
        success: z,
        len: z,
        words: Vec::new(),
    }
}

/// The nibble mask 0x1111…1.
pub(super) fn m1() -> U256 {
    U256::MAX / U256::from(15u8)
}

/// Bit `k` of `w`, as 0/1.
pub(super) fn bit(terms: &mut Terms, w: TermId, k: TermId) -> TermId {
    let one = terms.small(1);
    let x = terms.bin(Bin::Shr, w, k);
    terms.bin(Bin::And, x, one)
}

/// The bitmap marks exactly the cells `filled(k)` says, and bit 64.
pub(super) fn bitmap_marks(
    terms: &mut Terms,
    bitmap: TermId,
    mut filled: impl FnMut(&mut Terms, u64) -> TermId,
) -> TermId {
    let mut parts = Vec::new();
    for k in 0..64u64 {
        let kt = terms.small(k);
        let b = bit(terms, bitmap, kt);
        let f = filled(terms, k);
        parts.push(eq(terms, b, f));
    }
    let top = shr(terms, bitmap, 64);
    parts.push(eq_c(terms, top, 1));
    all(terms, &parts)
}

/// The bitmap marks exactly the non-zero nibbles of `word`, and bit 64.
pub(super) fn nibble_marks(terms: &mut Terms, bitmap: TermId, word: TermId) -> TermId {
    bitmap_marks(terms, bitmap, |terms, k| {
        let fifteen = terms.small(15);
        let x = shr(terms, word, 4 * k);
        let n = terms.bin(Bin::And, x, fifteen);
        terms.to_bool(n)
    })
}

/// The golfed fast path's `q` (digit + 7 per filled nibble) is the
/// reference's `puzzle` and `bitmap`.
fn board_fast(terms: &mut Terms, q: TermId, puzzle: TermId, bitmap: TermId) -> TermId {
    let m1 = terms.constant(m1());
    let seven = terms.small(7);
    let fifteen = terms.small(15);
    let three = terms.small(3);
    let high = terms.bin(Bin::Shr, q, three);
    let nz = terms.bin(Bin::And, high, m1);
    let add = terms.bin(Bin::Mul, nz, seven);
    let digits = terms.bin(Bin::Sub, q, add);
    let same = eq(terms, puzzle, digits);
    let mask = terms.bin(Bin::Mul, nz, fifteen);
    let outside = terms.not(mask);
    let stray = terms.bin(Bin::And, q, outside);
    let clean = eq_c(terms, stray, 0);
    let marks = bitmap_marks(terms, bitmap, |terms, k| {
        let one = terms.small(1);
        let x = shr(terms, q, 4 * k + 3);
        terms.bin(Bin::And, x, one)
    });
    all(terms, &[same, clean, marks])
}

/// The invariant of a related state at fast cut `cut`.
fn related(
    terms: &mut Terms,
    cut: Cut,
    rs: &[TermId],
    gs_: &[TermId],
    seed: TermId,
    slip: u64,
) -> TermId {
    let d = match cut {
        Cut::Join(d) | Cut::Loop(d) => d,
        _ => unreachable!("fast cuts only"),
    };
    let s = gs_[g::S];
    let q = gs_[g::Q];
    let m = gs_[g::M];
    let index = rs[r::INDEX];
    let high = shr(terms, s, 42);
    let live = terms.to_bool(high);
    let i = eq_c(terms, rs[r::I], d);
    let small = lt_c(terms, index, 64);
    let four = terms.small(4);
    let at = terms.bin(Bin::Mul, index, four);
    let v = terms.small(d + 7);
    let want_m = terms.bin(Bin::Shl, v, at);
    let m_ok = eq(terms, m, want_m);
    let rest = shr(terms, s, 6 * d - slip);
    let seed_ok = eq(terms, rs[r::SEED], rest);
    let seed0_r = eq(terms, rs[r::SEED0], seed);
    let seed0_g = eq(terms, gs_[g::SEED0], seed);
    let board = board_fast(terms, q, rs[r::PUZZLE], rs[r::BITMAP]);
    let hit = terms.bin(Bin::And, q, m);
    let filled = match cut {
        Cut::Loop(_) => terms.to_bool(hit),
        _ => terms.is_zero(hit),
    };
    all(
        terms,
        &[
            live, i, small, m_ok, seed_ok, seed0_r, seed0_g, board, filled,
        ],
    )
}

/// The invariant of an escaped state: the fast result will be discarded.
fn escaped(terms: &mut Terms, gs_: &[TermId], seed: TermId) -> TermId {
    let high = shr(terms, gs_[g::S], 42);
    let spent = terms.is_zero(high);
    let seed0 = eq(terms, gs_[g::SEED0], seed);
    terms.and_bool(spent, seed0)
}

/// The invariant of the slow loop at `cut` against the reference at `H`.
fn slow(terms: &mut Terms, cut: Cut, rs: &[TermId], g: &[TermId], seed: TermId) -> TermId {
    let same_seed = eq(terms, rs[r::SEED], g[gs::S]);
    let same_p = eq(terms, rs[r::PUZZLE], g[gs::P]);
    let same_i = eq(terms, rs[r::I], g[gs::I]);
    let i_low = lt_c(terms, rs[r::I], 9);
    let i_zero = eq_c(terms, rs[r::I], 0);
    let i_pos = terms.is_zero(i_zero);
    let seed0 = eq(terms, rs[r::SEED0], seed);
    let p = g[gs::P];
    let marks = nibble_marks(terms, rs[r::BITMAP], p);
    let index = rs[r::INDEX];
    let cell = bit(terms, rs[r::BITMAP], index);
    let seed_live = terms.to_bool(rs[r::SEED]);
    let draws = terms.and_bool(cell, seed_live);
    let specific = match cut {
        Cut::SlowDraw => {
            let in_range = lt_c(terms, index, 65);
            all(terms, &[in_range, draws])
        }
        _ => {
            let in_range = lt_c(terms, index, 64);
            let four = terms.small(4);
            let at = terms.bin(Bin::Mul, index, four);
            let c4 = eq(terms, g[gs::C4], at);
            let stops = terms.is_zero(draws);
            all(terms, &[in_range, c4, stops])
        }
    };
    all(
        terms,
        &[
            same_seed, same_p, same_i, i_low, i_pos, seed0, marks, specific,
        ],
    )
}

/// Which lemmas to ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lemmas {
    /// All of them: the proof for every seed.
    All,
    /// The step lemmas of the related skip loops and of the slow loop's
    /// draw (the fast part `make test` runs).
    Steps,
    /// Those of [`Setup::queries`] named here, in its order (a quick check
    /// of one lemma; `proved` then covers those lemmas only).
    Only(&'static [&'static str]),
}

/// Runs the induction proof: the lemmas `which`, written under `dir`, asked
/// of `solver` in order up to the first that is not proved; a refuted
/// lemma's state is replayed in revm.
pub fn prove(
    setup: &Setup<'_>,
    which: Lemmas,
    dir: &Path,
    solver: &Solver,
) -> Result<Report, InductionError> {
    let began = Instant::now();
    let queries = match which {
        Lemmas::All => setup.queries()?,
        Lemmas::Steps => setup.step_queries()?,
        Lemmas::Only(names) => setup
            .queries()?
            .into_iter()
            .filter(|q| names.contains(&q.name.as_str()))
            .collect(),
    };
    setup
        .pair
        .prove(&queries, began.elapsed(), dir, solver, Agreement::Same)
}

impl Setup<'_> {
    /// Checks the invariants on the concrete runs of both fills on `seed`
    /// (every state of the golfed fill at a cut, against the reference's
    /// state the lemmas pair it with) and that both return the same; the
    /// number of states checked.
    pub fn check_run(&self, seed: U256) -> Result<usize, InductionError> {
        let [(rs, rend), (gs_, gend)] = self.pair.traces(seed)?;
        if rend[..2] != gend[..2] || rend.get(2) != gend.get(2) {
            return Err(InductionError::Invariant {
                seed,
                what: "the two calls return differently".into(),
            });
        }
        let mut terms = Terms::new();
        let seed_t = terms.constant(seed);
        // After the entry the reference has made 4 segments (before and
        // after digit 1's draw, before and after digit 2's).
        let mut at_ref = 3;
        let mut escaped_seen = false;
        let mut slow_at: Option<usize> = None;
        for (n, st) in gs_.iter().enumerate() {
            let fail = |what: &str| {
                Err(InductionError::Invariant {
                    seed,
                    what: format!(
                        "golfed state {n} at pc {} breaks the {what} invariant",
                        st.pc
                    ),
                })
            };
            let cut = self.layout.of(st.pc).expect("only cuts are traced");
            let snap = st.snapshot(&mut terms);
            let fits = self.pair.imp_templates[&st.pc].fits(&mut terms, &snap);
            if terms.eval(fits, &[]).is_zero() {
                return fail("template");
            }
            let g = self.layout.view(st.pc, &snap.stack);
            let holds = |terms: &mut Terms, t: TermId| !terms.eval(t, &[]).is_zero();
            if cut.fast() {
                if (self.layout.view(st.pc, &st.stack)[g::S] >> 42usize).is_zero() {
                    escaped_seen = true;
                    let e = escaped(&mut terms, &g, seed_t);
                    if !holds(&mut terms, e) {
                        return fail("escaped");
                    }
                } else {
                    if escaped_seen {
                        return fail("escaped (s grew back)");
                    }
                    let Some(r) = rs.get(at_ref) else {
                        return fail("related (the reference stopped)");
                    };
                    let r = constants(&mut terms, &r.stack);
                    let rel = related(&mut terms, cut, &r, &g, seed_t, self.slip);
                    if !holds(&mut terms, rel) {
                        return fail("related");
                    }
                    at_ref += match cut {
                        Cut::Join(_) => 2,
                        _ => 1,
                    };
                }
            } else {
                let k = slow_at.map_or(0, |k| k + 1);
                slow_at = Some(k);
                let Some(r) = rs.get(k) else {
                    return fail("slow (the reference stopped)");
                };
                let r = constants(&mut terms, &r.stack);
                let rel = slow(&mut terms, cut, &r, &g, seed_t);
                if !holds(&mut terms, rel) {
                    return fail("slow");
                }
            }
        }
        Ok(gs_.len())
    }
}

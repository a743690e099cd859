//! The classic 9×9 rules written as SMT-LIB2 over the 81 bytes of each
//! argument, and the lemmas that break the golfed validator's equivalence
//! proof into queries the solver decides in seconds.
//!
//! The one-shot query "reference ≠ golf" asks the solver to rediscover a
//! counting argument (the golfed contract checks 1..8 per unit and a 9 per
//! column, the reference checks 1..9 per unit); bitwuzla does not decide it in
//! ten minutes. Instead the proof goes through two specifications over the
//! argument bytes `b0..b80` (solution) and `s0..s80` (start):
//!
//! - `V`: every byte is 1..9 and every row, column and box holds each of 1..9
//!   (the Sudoku rule; the reference's method);
//! - `W`: every byte is 0..9, every unit holds each of 1..8, and every column
//!   holds a 9 (the golfed contract's method: it never tests for 0, which a
//!   column holding 1..8 and a 9 has no room for);
//! - `G`: every non-zero start byte equals the solution byte.
//!
//! and these facts, each an SMT query that must be `unsat`:
//!
//! 1. the reference's outcome is "returned `G ∧ V`" on every input;
//! 2. lemmas on nodes of the implementation's own terms (cut points, found by
//!    evaluating its terms on sample grids and proved here for all grids):
//!    per band, the one-hot word of digits 1..8 and the flags of 9s, for
//!    bytes 0..9;
//! 3. with 2 as hypotheses, the implementation's outcome is "returned `G ∧ W`";
//! 4. a unit lemma over nine fresh bytes: if all are 0..9 and hold 1..8, at
//!    most one is 9, one is 9 exactly when 9 is among them, and then none
//!    is 0;
//! 5. the number of 9s is the sum of the per-unit counts, for each kind of
//!    unit;
//! 6. with 4 (one instance per unit) and 5 as hypotheses, `W = V`.
//!
//! A valid formula stays valid under any substitution, so the instances of
//! 4 and the lemmas of 2 and 5 may be assumed wherever they are used. From 1,
//! 3 and 6 the two outcomes are equal on every input. The specifications are
//! never trusted: if one were wrong, 1, 3 or 6 would fail.

use std::fmt::Write as _;

use octoku_core::U256;
use octoku_core::grid::geometry::Geometry;

/// Cells of a 9×9 grid.
pub const CELLS: usize = 81;

/// Bytes of one band (three rows), the golfed contract's word.
const BAND: usize = 27;

/// Lanes of a band word below the band's bytes (the golfed contract loads
/// band k as the 32 bytes at 27k: band byte j in lane 31 - j, lanes 0..4
/// the next bytes), which no cut point constrains.
const BELOW: usize = 32 - BAND;

/// `((_ extract hi lo) {name}{word})`: byte `i` of an 81-byte argument held
/// in the 256-bit variables `{name}0`, `{name}1`, `{name}2` (big-endian).
fn byte(name: &str, i: usize) -> String {
    let (word, j) = (i / 32, i % 32);
    let hi = 255 - 8 * j;
    format!("((_ extract {hi} {}) {name}{word})", hi - 7)
}

/// The 27 units of the classic grid, as cell indices (row-major).
pub fn units() -> Vec<Vec<usize>> {
    let geometry = Geometry::new(3, 3).expect("3x3 boxes are a geometry");
    geometry
        .units()
        .map(|u| {
            geometry
                .unit_cells(u)
                .map(|(r, c)| 9 * r + c)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `(OP ARG ARG ...)`: `op` applied to `args`, separated by spaces.
fn apply(op: &str, args: impl IntoIterator<Item = String>) -> String {
    let parts: Vec<String> = args.into_iter().collect();
    format!("({op} {})", parts.join(" "))
}

/// Every byte of `cells` is 1..9.
fn range(cells: impl IntoIterator<Item = usize>) -> String {
    let each = |i| format!("(bvule #x01 b{i}) (bvule b{i} #x09)");
    apply("and", cells.into_iter().map(each))
}

/// Every byte of `cells` is 0..9.
fn at_most_nine(cells: impl IntoIterator<Item = usize>) -> String {
    apply(
        "and",
        cells.into_iter().map(|i| format!("(bvule b{i} #x09)")),
    )
}

/// Some byte of `cells` is `digit`.
fn holds(cells: &[usize], digit: u8) -> String {
    apply(
        "or",
        cells.iter().map(|i| format!("(= b{i} #x{digit:02x})")),
    )
}

/// The 8-bit count of 9s among `cells`: a sum of one-bit flags, zero-extended
/// (the shape bitwuzla's normaliser reorders freely).
fn nines(cells: impl IntoIterator<Item = usize>) -> String {
    let flag = |i| format!("((_ zero_extend 7) (ite (= b{i} #x09) #b1 #b0))");
    apply("bvadd", cells.into_iter().map(flag))
}

/// Definitions of `b0..b80` (bytes of `solution`), `s0..s80` (bytes of
/// `start`, when there is one), the predicates `G`, `R` (every byte 1..9),
/// `R0` (every byte 0..9), `H8` (every unit holds 1..8), `V`, `W`, and
/// `count9` (the number of 9s).
pub fn definitions(solution: &str, start: Option<&str>) -> String {
    let mut out = String::new();
    for i in 0..CELLS {
        writeln!(
            out,
            "(define-fun b{i} () (_ BitVec 8) {})",
            byte(solution, i)
        )
        .expect("String");
    }
    let givens = match start {
        Some(start) => {
            for i in 0..CELLS {
                writeln!(out, "(define-fun s{i} () (_ BitVec 8) {})", byte(start, i))
                    .expect("String");
            }
            apply(
                "and",
                (0..CELLS).map(|i| format!("(or (= s{i} #x00) (= s{i} b{i}))")),
            )
        }
        None => "true".to_string(),
    };
    let units = units();
    let all = |digits: std::ops::RangeInclusive<u8>| {
        apply(
            "and",
            units
                .iter()
                .flat_map(|u| digits.clone().map(move |d| holds(u, d))),
        )
    };
    writeln!(out, "(define-fun G () Bool {givens})").expect("String");
    writeln!(out, "(define-fun R () Bool {})", range(0..CELLS)).expect("String");
    writeln!(out, "(define-fun R0 () Bool {})", at_most_nine(0..CELLS)).expect("String");
    writeln!(out, "(define-fun H8 () Bool {})", all(1..=8)).expect("String");
    writeln!(out, "(define-fun V () Bool (and R {}))", all(1..=9)).expect("String");
    writeln!(
        out,
        "(define-fun count9 () (_ BitVec 8) {})",
        nines(0..CELLS)
    )
    .expect("String");
    let columns: Vec<String> = units[9..18].iter().map(|u| holds(u, 9)).collect();
    writeln!(
        out,
        "(define-fun W () Bool (and R0 H8 {}))",
        columns.join(" ")
    )
    .expect("String");
    out
}

/// A packed outcome "returned the 32-byte word `(ite P 1 0)`": success 1,
/// length 32, then `width` data words, the first the flag, the rest zero.
pub fn returned(predicate: &str, width: usize) -> String {
    let mut parts = vec![
        "(_ bv1 256)".to_string(),
        "(_ bv32 256)".to_string(),
        format!("(ite {predicate} (_ bv1 256) (_ bv0 256))"),
    ];
    parts.extend((1..width).map(|_| "(_ bv0 256)".to_string()));
    apply("concat", parts)
}

/// Lemma 4 over fresh bytes `x0..x8`, as a query that is `unsat` when it holds.
pub fn unit_lemma_query() -> String {
    let mut out = String::from(
        "; Unit lemma: nine bytes in 0..9 that hold each of 1..8 hold at most one 9,\n\
         ; exactly one when 9 is among them, and then no 0. unsat = the lemma holds.\n(set-logic QF_BV)\n",
    );
    for i in 0..9 {
        writeln!(out, "(declare-const x{i} (_ BitVec 8))").expect("String");
    }
    out.push_str(&unit_lemma_body(
        &(0..9).map(|i| format!("x{i}")).collect::<Vec<_>>(),
    ));
    out.push_str("(assert (not unit))\n(check-sat)\n(exit)\n");
    out
}

/// `(define-fun unit () Bool ...)`: lemma 4 for the nine byte expressions.
fn unit_lemma_body(x: &[String]) -> String {
    format!("(define-fun unit () Bool {})\n", unit_lemma(x))
}

/// Lemma 4 as a Boolean expression over nine byte expressions.
fn unit_lemma(x: &[String]) -> String {
    let range: Vec<String> = x.iter().map(|v| format!("(bvule {v} #x09)")).collect();
    let no_zero: Vec<String> = x.iter().map(|v| format!("(bvule #x01 {v})")).collect();
    let has = |d: u8| apply("or", x.iter().map(|v| format!("(= {v} #x{d:02x})")));
    let h8: Vec<String> = (1..=8).map(has).collect();
    let count: Vec<String> = x
        .iter()
        .map(|v| format!("((_ zero_extend 7) (ite (= {v} #x09) #b1 #b0))"))
        .collect();
    format!(
        "(let ((n (bvadd {}))) (=> (and {} {}) (and (bvule n #x01) (= (= n #x01) {}) (=> (= n #x01) (and {})))))",
        count.join(" "),
        range.join(" "),
        h8.join(" "),
        has(9),
        no_zero.join(" ")
    )
}

/// `(and ...)`: count9 equals the sum of the per-unit counts, for rows,
/// columns and boxes (lemma 5).
fn identities() -> String {
    let units = units();
    let sum = |kind: &[Vec<usize>]| {
        let sums = kind.iter().map(|u| nines(u.iter().copied()));
        format!("(= count9 {})", apply("bvadd", sums))
    };
    apply("and", units.chunks(9).map(sum))
}

/// The declarations of the 256-bit argument words.
pub fn declarations(names: &[&str]) -> String {
    let mut out = String::new();
    for name in names {
        for k in 0..CELLS.div_ceil(32) {
            writeln!(out, "(declare-const {name}{k} (_ BitVec 256))").expect("String");
        }
    }
    out
}

/// Lemma 5 as a query over the solution's bytes.
pub fn identities_query(solution: &str) -> String {
    let mut out = String::from(
        "; Count identities: the number of 9s in the grid is the sum of the rows',\n\
         ; of the columns' and of the boxes' counts. unsat = they hold.\n(set-logic QF_BV)\n",
    );
    out.push_str(&declarations(&[solution]));
    out.push_str(&definitions(solution, None));
    writeln!(out, "(assert (not {}))\n(check-sat)\n(exit)", identities()).expect("String");
    out
}

/// Fact 6: with lemma 4 for each of the 27 units and lemma 5 assumed, `W`
/// and `V` agree on every grid.
pub fn equivalence_query(solution: &str) -> String {
    let mut out = String::from(
        "; W = V on every grid, assuming the unit lemma (unit-lemma.smt2) for each\n\
         ; of the 27 units and the count identities (count-identities.smt2).\n\
         ; unsat = W and V agree.\n(set-logic QF_BV)\n",
    );
    out.push_str(&declarations(&[solution]));
    out.push_str(&definitions(solution, None));
    for u in units() {
        let x: Vec<String> = u.iter().map(|i| format!("b{i}")).collect();
        writeln!(out, "(assert {})", unit_lemma(&x)).expect("String");
    }
    writeln!(out, "(assert {})", identities()).expect("String");
    out.push_str("(assert (distinct W V))\n(check-sat)\n(exit)\n");
    out
}

/// A cut point of the golfed contract: a word every band computes, with its
/// value when the band's bytes and the (up to) 5 grid bytes after it are
/// 0..9, as a function of the band's bytes. Lanes 0..4 (the bytes after the
/// band) are not looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Lane `31 - j` holds `1 << (x - 1)` for the band's byte `j` = x in
    /// 1..8, else 0.
    OneHot(usize),
    /// Bit 7 of lane `31 - j` is set when the band's byte `j` is 9 (the
    /// other bits are not looked at).
    Nines(usize),
}

impl Cut {
    /// Every cut point looked for.
    pub fn all() -> Vec<Cut> {
        (0..3)
            .flat_map(|k| [Cut::OneHot(k), Cut::Nines(k)])
            .collect()
    }

    fn band(self) -> usize {
        match self {
            Cut::OneHot(k) | Cut::Nines(k) => k,
        }
    }

    /// Its value for the concrete grid `grid` (all bytes 0..9 in its band).
    pub fn value(self, grid: &[u8]) -> U256 {
        let mut word = [0u8; 32];
        let band = &grid[BAND * self.band()..BAND * (self.band() + 1)];
        for (j, &x) in band.iter().enumerate() {
            word[j] = match self {
                Cut::OneHot(_) if (1..=8).contains(&x) => 1 << (x - 1),
                Cut::OneHot(_) => 0,
                Cut::Nines(_) => 0x80 * u8::from(x == 9),
            };
        }
        U256::from_be_bytes(word)
    }

    /// The bits of the node the cut is about.
    pub fn mask(self) -> U256 {
        let lanes = U256::MAX << (8 * BELOW);
        match self {
            Cut::OneHot(_) => lanes,
            Cut::Nines(_) => (U256::MAX / U256::from(255u8) * U256::from(0x80u8)) & lanes,
        }
    }

    /// `(=> R_band (= node value))` with the value written over the bytes.
    pub fn fact(self, node: &str) -> String {
        let cells = BAND * self.band()..BAND * (self.band() + 1);
        let lanes: Vec<String> = cells
            .clone()
            .map(|i| match self {
                Cut::OneHot(_) => format!(
                    "(ite (and (bvule #x01 b{i}) (bvule b{i} #x08)) (bvshl #x01 (bvsub b{i} #x01)) #x00)"
                ),
                Cut::Nines(_) => format!("(ite (= b{i} #x09) #x80 #x00)"),
            })
            .collect();
        format!(
            "(=> {} (= (bvand {node} #x{:064x}) (concat {} #x{})))",
            // The bytes after the band too: one of 0x89 or more would carry
            // into the band's last lane.
            at_most_nine(cells.start..(cells.end + BELOW).min(CELLS)),
            self.mask(),
            lanes.join(" "),
            "00".repeat(BELOW)
        )
    }

    /// A name for reports.
    pub fn describe(self) -> String {
        match self {
            Cut::OneHot(k) => format!("band {k} one-hot digits 1..8"),
            Cut::Nines(k) => format!("band {k} flags of 9"),
        }
    }
}

//! The simplifier's rules proved: every row of `octoku_prove::rules::RULES`
//! is a 256-bit identity under its side conditions (asked of the SMT solver,
//! Alive-style), constant folding agrees with the solver's semantics of
//! each operator, and the known bits the rules rely on agree with
//! evaluation.

mod common;

use std::path::PathBuf;

use octoku_core::U256;
use octoku_prove::rules::{ALL_BIN, Builder, PatternError, RULES, Rule};
use octoku_prove::smt::{node_name, preamble};
use octoku_prove::solver::Answer;
use octoku_prove::term::{Bin, Node, TermId, Terms};

const ZERO: &str = "(_ bv0 256)";

/// Words at the edges of every operator: 0, 1, small shift amounts and
/// indices, 255/256, the sign bit and its neighbours, all ones, a power of
/// two, and a word with no structure.
fn edge_words() -> Vec<U256> {
    let one = U256::from(1u8);
    let mut out: Vec<U256> = [0u64, 1, 2, 3, 7, 8, 31, 32, 33, 248, 255, 256, 257]
        .into_iter()
        .map(U256::from)
        .collect();
    let top = one << 255;
    out.extend([
        top,
        top - one,
        top + one,
        U256::MAX,
        U256::MAX - one,
        one << 128,
        U256::from_be_bytes([0x5a; 32]),
    ]);
    out
}

/// `(and a b …)` or `(or a b …)`, or the one operand alone (SMT-LIB's
/// connectives take two or more).
fn connective(op: &str, parts: &[String]) -> String {
    match parts {
        [one] => one.clone(),
        _ => format!("({op} {})", parts.join(" ")),
    }
}

/// The queries "the side conditions hold and lhs differs from rhs" for one
/// instance of a rule (its `op` as `op`): one per case of its splits, each
/// over every value of its `each` words at once.
fn identity_queries(
    row: &octoku_prove::rules::RuleDef,
    op: Option<Bin>,
) -> Result<Vec<(String, String)>, PatternError> {
    let base = match op {
        Some(op) => format!("{}-{op:?}", row.name),
        None => row.name.to_string(),
    };
    let mut instances: Vec<Vec<(&str, U256)>> = vec![vec![]];
    for &name in row.each {
        instances = instances
            .iter()
            .flat_map(|i| {
                (0..256u32).map(move |v| {
                    let mut i = i.clone();
                    i.push((name, U256::from(v)));
                    i
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for case in 0..1usize << row.split.len() {
        let mut terms = Terms::new();
        let mut b = Builder::new(&mut terms, op);
        let mut roots = Vec::new();
        let mut differs = Vec::new();
        for inst in &instances {
            for &(name, v) in inst {
                b.bind(name, v);
            }
            let lhs = b.term(row.lhs)?;
            let rhs = b.term(row.rhs)?;
            let sides = row
                .sides
                .iter()
                .map(|s| b.term(s))
                .collect::<Result<Vec<TermId>, PatternError>>()?;
            roots.extend([lhs, rhs]);
            roots.extend(&sides);
            differs.push((lhs, rhs, sides));
        }
        let mut cases = Vec::new();
        for (k, word) in row.split.iter().enumerate() {
            let t = b.term(word)?;
            cases.push((t, case >> k & 1 == 1));
        }
        let name = format!(
            "{base}{}",
            if row.split.is_empty() {
                String::new()
            } else {
                format!("-case{case}")
            }
        );
        let mut text = preamble(&terms, &roots, std::slice::from_ref(&name));
        for (t, nonzero) in cases {
            let op = if nonzero { "distinct" } else { "=" };
            text.push_str(&format!(
                "(assert ({op} {} {ZERO}))\n",
                node_name(&terms, t)
            ));
        }
        let n = |t| node_name(&terms, t);
        let disjuncts: Vec<String> = differs
            .iter()
            .map(|(lhs, rhs, sides)| {
                let mut all: Vec<String> = sides
                    .iter()
                    .map(|&s| format!("(distinct {} {ZERO})", n(s)))
                    .collect();
                all.push(format!("(distinct {} {})", n(*lhs), n(*rhs)));
                connective("and", &all)
            })
            .collect();
        text.push_str(&format!(
            "(assert {})\n(check-sat)\n(exit)\n",
            connective("or", &disjuncts)
        ));
        out.push((name, text));
    }
    Ok(out)
}

/// The query "some folded constant differs from the solver's value of the
/// same operation" over every operator a folding rule covers and every pair
/// of edge words.
fn folding_query(rule: Rule) -> String {
    let words = edge_words();
    let mut terms = Terms::new();
    let mut pairs: Vec<(TermId, U256)> = Vec::new();
    match rule {
        Rule::FoldBin => {
            for op in ALL_BIN {
                for &x in &words {
                    for &y in &words {
                        let (a, b) = (terms.raw(Node::Const(x)), terms.raw(Node::Const(y)));
                        pairs.push((terms.raw(Node::Bin(op, a, b)), op.eval(x, y)));
                    }
                }
            }
        }
        Rule::FoldNot | Rule::FoldIsZero => {
            for &x in &words {
                let a = terms.raw(Node::Const(x));
                pairs.push(if rule == Rule::FoldNot {
                    (terms.raw(Node::Not(a)), !x)
                } else {
                    (
                        terms.raw(Node::IsZero(a)),
                        U256::from(u8::from(x.is_zero())),
                    )
                });
            }
        }
        _ => unreachable!("{rule:?} is not a folding rule"),
    }
    let roots: Vec<TermId> = pairs.iter().map(|&(t, _)| t).collect();
    let mut out = preamble(&terms, &roots, &[format!("{rule:?}")]);
    let differ: Vec<String> = pairs
        .iter()
        .map(|&(t, v)| format!("(distinct {} #x{v:064x})", node_name(&terms, t)))
        .collect();
    out.push_str(&format!(
        "(assert (or {}))\n(check-sat)\n(exit)\n",
        differ.join(" ")
    ));
    out
}

/// Every row of the table is proved by the solver: each rewrite as an
/// identity under its side conditions (once per operator for rules over
/// `op`), each folding rule on every pair of edge words; and the number of
/// rows checked is the table's length.
#[test]
fn every_rule_is_proved_by_the_solver() {
    let dir = common::query_dir("rules");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let mut rows_checked = 0;
    for (i, row) in RULES.iter().enumerate() {
        assert_eq!(row.rule as usize, i, "{} is out of order", row.name);
        let queries: Vec<(String, String)> = if row.rhs == "value" {
            vec![(row.name.to_string(), folding_query(row.rule))]
        } else if row.lhs.contains("(op ") || row.rhs.contains("(op ") {
            ALL_BIN
                .iter()
                .flat_map(|&op| {
                    identity_queries(row, Some(op)).unwrap_or_else(|e| panic!("{}: {e}", row.name))
                })
                .collect()
        } else {
            identity_queries(row, None).unwrap_or_else(|e| panic!("{}: {e}", row.name))
        };
        for (name, text) in queries {
            let path = dir.join(format!("{name}.smt2"));
            std::fs::write(&path, text).unwrap();
            files.push((name, path));
        }
        rows_checked += 1;
    }
    assert_eq!(rows_checked, RULES.len());
    // The count docs/proofs/checking.md states.
    assert_eq!(files.len(), 156);
    let paths: Vec<PathBuf> = files.iter().map(|(_, p)| p.clone()).collect();
    let answers = common::solver()
        .solve_batch(&paths)
        .expect("the solver runs");
    assert_eq!(answers.len(), files.len());
    let failed: Vec<String> = files
        .iter()
        .zip(&answers)
        .filter(|(_, a)| a.answer != Answer::Unsat)
        .map(|((name, path), a)| format!("{name} ({}): {:?}", path.display(), a.answer))
        .collect();
    assert!(failed.is_empty(), "rules not proved: {failed:#?}");
}

/// A rule the solver can refute is refuted: the flawed rule this table
/// replaced, `(x & y) | (x & !y) = x` for a 0/1 `y`, is sat (x = 2).
#[test]
fn a_wrong_rule_is_refuted() {
    let row = octoku_prove::rules::RuleDef {
        rhs: "x",
        ..*Rule::OrComplement.def()
    };
    let dir = common::query_dir("rules");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrong-or-complement.smt2");
    let queries = identity_queries(&row, None).unwrap();
    assert_eq!(queries.len(), 1);
    std::fs::write(&path, &queries[0].1).unwrap();
    let solved = common::solver().solve(&path).unwrap();
    assert!(matches!(solved.answer, Answer::Sat(_)), "{solved:?}");
}

/// SplitMix64: a fixed stream, so that a failure names a case that can be
/// run again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn word(&mut self, edges: &[U256]) -> U256 {
        match self.below(4) {
            0 => edges[self.below(edges.len())],
            1 => U256::from(1u8) << self.below(256),
            2 => U256::from(self.below(300)),
            _ => U256::from_limbs([self.next(), self.next(), self.next(), self.next()]),
        }
    }
}

/// A term of the random corpus: the same operation built as is
/// ([`Terms::raw`]) and through the simplifier, and its value under every
/// assignment.
#[derive(Clone)]
struct Entry {
    raw: TermId,
    simple: TermId,
    values: Vec<U256>,
}

/// Raw and simplified stores side by side, over three variables.
struct Corpus {
    raw: Terms,
    simple: Terms,
    assignments: Vec<[U256; 3]>,
    pool: Vec<Entry>,
}

impl Corpus {
    fn new(rng: &mut Rng) -> Corpus {
        let edges = edge_words();
        let mut c = Corpus {
            raw: Terms::new(),
            simple: Terms::new(),
            assignments: (0..12)
                .map(|_| [rng.word(&edges), rng.word(&edges), rng.word(&edges)])
                .collect(),
            pool: Vec::new(),
        };
        for (n, name) in ["x", "y", "z"].into_iter().enumerate() {
            let raw = c.raw.var(name);
            let simple = c.simple.var(name);
            let values = c.assignments.iter().map(|a| a[n]).collect();
            c.pool.push(Entry {
                raw,
                simple,
                values,
            });
        }
        c
    }

    fn constant(&mut self, v: U256) -> Entry {
        Entry {
            raw: self.raw.raw(Node::Const(v)),
            simple: self.simple.constant(v),
            values: vec![v; self.assignments.len()],
        }
    }

    fn bin(&mut self, op: Bin, a: &Entry, b: &Entry) -> Entry {
        Entry {
            raw: self.raw.raw(Node::Bin(op, a.raw, b.raw)),
            simple: self.simple.bin(op, a.simple, b.simple),
            values: a
                .values
                .iter()
                .zip(&b.values)
                .map(|(&x, &y)| op.eval(x, y))
                .collect(),
        }
    }

    fn not(&mut self, a: &Entry) -> Entry {
        Entry {
            raw: self.raw.raw(Node::Not(a.raw)),
            simple: self.simple.not(a.simple),
            values: a.values.iter().map(|&x| !x).collect(),
        }
    }

    fn is_zero(&mut self, a: &Entry) -> Entry {
        Entry {
            raw: self.raw.raw(Node::IsZero(a.raw)),
            simple: self.simple.is_zero(a.simple),
            values: a
                .values
                .iter()
                .map(|&x| U256::from(u8::from(x.is_zero())))
                .collect(),
        }
    }

    fn ite(&mut self, c: &Entry, a: &Entry, b: &Entry) -> Entry {
        Entry {
            raw: self.raw.raw(Node::Ite(c.raw, a.raw, b.raw)),
            simple: self.simple.ite(c.simple, a.simple, b.simple),
            values: (0..self.assignments.len())
                .map(|k| {
                    if c.values[k].is_zero() {
                        b.values[k]
                    } else {
                        a.values[k]
                    }
                })
                .collect(),
        }
    }

    /// EVM BYTE; the raw side spelled as in the rules' pattern language.
    fn byte(&mut self, i: &Entry, x: &Entry) -> Entry {
        let eight = self.raw.raw(Node::Const(U256::from(8u8)));
        let up = self.raw.raw(Node::Bin(Bin::Mul, i.raw, eight));
        let shifted = self.raw.raw(Node::Bin(Bin::Shl, x.raw, up));
        let c248 = self.raw.raw(Node::Const(U256::from(248u8)));
        let top = self.raw.raw(Node::Bin(Bin::Shr, shifted, c248));
        let c32 = self.raw.raw(Node::Const(U256::from(32u8)));
        let inside = self.raw.raw(Node::Bin(Bin::Lt, i.raw, c32));
        let zero = self.raw.raw(Node::Const(U256::ZERO));
        Entry {
            raw: self.raw.raw(Node::Ite(inside, top, zero)),
            simple: self.simple.byte(i.simple, x.simple),
            values: i
                .values
                .iter()
                .zip(&x.values)
                .map(|(&i, &x)| {
                    if i < U256::from(32u8) {
                        U256::from(x.to_be_bytes::<32>()[i.to::<usize>()])
                    } else {
                        U256::ZERO
                    }
                })
                .collect(),
        }
    }

    fn pick(&self, rng: &mut Rng) -> Entry {
        // Recent terms more often, so that terms grow deep.
        let n = self.pool.len();
        let k = if rng.below(2) == 0 {
            n - 1 - rng.below(n.min(6))
        } else {
            rng.below(n)
        };
        self.pool[k].clone()
    }

    /// One more term: an operator on terms of the pool, or a shape the
    /// rules look for (guards rejoining, shifts of shifts, masks, ite on
    /// one condition, products by powers of two).
    fn grow(&mut self, rng: &mut Rng) {
        let edges = edge_words();
        let a = self.pick(rng);
        let b = self.pick(rng);
        let e = match rng.below(12) {
            0..=3 => {
                let op = ALL_BIN[rng.below(ALL_BIN.len())];
                let b = if rng.below(3) == 0 {
                    self.constant(rng.word(&edges))
                } else {
                    b
                };
                if rng.below(2) == 0 {
                    self.bin(op, &a, &b)
                } else {
                    self.bin(op, &b, &a)
                }
            }
            4 => self.not(&a),
            5 => self.is_zero(&a),
            6 => {
                let c = self.pick(rng);
                self.ite(&c, &a, &b)
            }
            7 => {
                // (a & g) | (a & !g), g a 0/1 term.
                let g = if rng.below(2) == 0 {
                    self.bin(Bin::Lt, &b, &a)
                } else {
                    self.is_zero(&b)
                };
                let ng = self.is_zero(&g);
                let (l, r) = (self.bin(Bin::And, &a, &g), self.bin(Bin::And, &a, &ng));
                self.bin(Bin::Or, &l, &r)
            }
            8 => {
                // Two constant shifts, or a product or quotient by 2^k.
                let ops = [Bin::Shl, Bin::Shr, Bin::Mul, Bin::Div];
                let op = ops[rng.below(4)];
                let k1 = self.constant(U256::from(rng.below(300)));
                let inner = self.bin(op, &a, &k1);
                let k2 = self.constant(if rng.below(2) == 0 {
                    U256::from(1u8) << rng.below(256)
                } else {
                    U256::from(rng.below(300))
                });
                self.bin(op, &inner, &k2)
            }
            9 => {
                // A mask of a masked or shifted term.
                let m = self.constant(rng.word(&edges));
                let inner = self.bin(Bin::And, &a, &m);
                let m2 = self.constant(rng.word(&edges));
                self.bin(Bin::And, &inner, &m2)
            }
            10 => {
                // ite nested on one condition, and 0/1 sides.
                let c = self.pick(rng);
                let one = self.constant(U256::from(1u8));
                let zero = self.constant(U256::ZERO);
                let inner = if rng.below(2) == 0 {
                    self.ite(&c, &one, &zero)
                } else {
                    self.ite(&c, &a, &b)
                };
                if rng.below(2) == 0 {
                    self.ite(&c, &inner, &b)
                } else {
                    self.ite(&c, &a, &inner)
                }
            }
            _ => {
                let i = if rng.below(2) == 0 {
                    self.constant(U256::from(rng.below(40)))
                } else {
                    b
                };
                self.byte(&i, &a)
            }
        };
        self.pool.push(e);
    }
}

fn check_known(terms: &Terms, t: TermId, values: &[U256], what: &str) {
    let k = terms.known(t);
    for &v in values {
        assert!(
            (v & k.zeros).is_zero() && (v & k.ones) == k.ones,
            "{what}: value {v:#x} against known zeros {:#x}, ones {:#x} ({:?})",
            k.zeros,
            k.ones,
            terms.node(t)
        );
    }
}

/// The simplifier changes no value and its known bits are right: random
/// terms over three variables (every operator, and the shapes the rules
/// look for) built as they are and through the simplifier evaluate alike
/// under random and edge assignments; the known bits of both agree with
/// every value; and folding if-then-else trees changes no value.
#[test]
fn simplified_terms_and_known_bits_agree_with_evaluation() {
    let mut terms_seen = 0;
    for seed in 0..40u64 {
        let mut rng = Rng(seed);
        let mut c = Corpus::new(&mut rng);
        for _ in 0..150 {
            c.grow(&mut rng);
        }
        for (n, e) in c.pool.iter().enumerate() {
            let what = format!("seed {seed}, term {n}");
            check_known(&c.raw, e.raw, &e.values, &format!("{what} (raw)"));
            check_known(
                &c.simple,
                e.simple,
                &e.values,
                &format!("{what} (simplified)"),
            );
            for (k, a) in c.assignments.iter().enumerate() {
                assert_eq!(c.raw.eval(e.raw, a), e.values[k], "{what} (raw) at {a:x?}");
                assert_eq!(
                    c.simple.eval(e.simple, a),
                    e.values[k],
                    "{what} (simplified) at {a:x?}"
                );
            }
            terms_seen += 1;
        }
        for e in c.pool.iter().rev().take(20) {
            let folded = c.simple.fold_constant_ites(e.simple, 64);
            for (k, a) in c.assignments.iter().enumerate() {
                assert_eq!(c.simple.eval(folded, a), e.values[k], "seed {seed}: folded");
            }
        }
    }
    assert_eq!(terms_seen, 40 * 153);
}

/// The shapes of the two rules this table replaced, at the values that
/// showed them wrong: `(x & c) | (x & !c)` with x = 2 is 0 (x & 1), not 2;
/// and the simplifier keeps every rewrite it makes in its count.
#[test]
fn rejoining_a_non_boolean_word_keeps_its_low_bit_only() {
    let mut t = Terms::new();
    let x = t.var("x");
    let y = t.var("y");
    let c = t.bin(Bin::Lt, x, y);
    let nc = t.is_zero(c);
    let l = t.bin(Bin::And, x, c);
    let r = t.bin(Bin::And, x, nc);
    let w = t.bin(Bin::Or, l, r);
    assert_ne!(w, x);
    assert_eq!(t.applied(Rule::OrComplement), 1);
    for (xv, yv) in [(2u64, 5u64), (2, 0), (3, 9), (1, 0)] {
        let v = t.eval(w, &[U256::from(xv), U256::from(yv)]);
        assert_eq!(v, U256::from(xv & 1), "x = {xv}, y = {yv}");
    }
}

/// docs/proofs/checking.md lists every rule of the table, by name.
#[test]
fn the_docs_list_every_rule() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/proofs/checking.md"),
    )
    .unwrap();
    for row in RULES {
        assert!(
            docs.contains(&format!("| `{}` | `{}` |", row.name, row.lhs)),
            "docs/proofs/checking.md has no row for {}",
            row.name
        );
    }
}

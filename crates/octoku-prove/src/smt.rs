//! SMT-LIB2 (QF_BV) text for terms: one `define-fun` per shared node, then
//! the question whether two outcomes can differ.

use std::fmt::Write as _;

use octoku_core::U256;

use crate::exec::Outcome;
use crate::term::{Bin, Node, TermId, Terms};

/// An SMT-LIB2 bit-vector literal of 256 bits.
fn lit(c: U256) -> String {
    format!("#x{c:064x}")
}

const ZERO: &str = "(_ bv0 256)";
const ONE: &str = "(_ bv1 256)";

/// The name a node is referred to by: a literal for constants, the variable's
/// name, else `tN`.
fn name(terms: &Terms, t: TermId) -> String {
    match terms.node(t) {
        Node::Const(c) => lit(c),
        Node::Var(n) => terms.var_name(n).to_string(),
        _ => format!("t{}", t.index()),
    }
}

/// A Boolean SMT expression for "t is non-zero", looking one node deep.
fn cond(terms: &Terms, t: TermId) -> String {
    let n = |x| name(terms, x);
    match terms.node(t) {
        Node::IsZero(x) => format!("(= {} {ZERO})", n(x)),
        Node::Bin(Bin::Lt, a, b) => format!("(bvult {} {})", n(a), n(b)),
        Node::Bin(Bin::Slt, a, b) => format!("(bvslt {} {})", n(a), n(b)),
        Node::Bin(Bin::Eq, a, b) => format!("(= {} {})", n(a), n(b)),
        _ => format!("(distinct {} {ZERO})", n(t)),
    }
}

fn definition(terms: &Terms, t: TermId) -> String {
    let n = |x| name(terms, x);
    let boolean = |c: String| format!("(ite {c} {ONE} {ZERO})");
    match terms.node(t) {
        Node::Const(_) | Node::Var(_) => unreachable!("leaves are not defined"),
        Node::Not(x) => format!("(bvnot {})", n(x)),
        Node::IsZero(_) => boolean(cond(terms, t)),
        Node::Ite(c, a, b) => format!("(ite {} {} {})", cond(terms, c), n(a), n(b)),
        Node::Bin(op, a, b) => {
            let (a, b) = (n(a), n(b));
            let guarded = |f: &str| format!("(ite (= {b} {ZERO}) {ZERO} ({f} {a} {b}))");
            match op {
                Bin::Add => format!("(bvadd {a} {b})"),
                Bin::Sub => format!("(bvsub {a} {b})"),
                Bin::Mul => format!("(bvmul {a} {b})"),
                Bin::Div => guarded("bvudiv"),
                Bin::Mod => guarded("bvurem"),
                Bin::SDiv => guarded("bvsdiv"),
                Bin::SMod => guarded("bvsrem"),
                Bin::And => format!("(bvand {a} {b})"),
                Bin::Or => format!("(bvor {a} {b})"),
                Bin::Xor => format!("(bvxor {a} {b})"),
                Bin::Shl => format!("(bvshl {a} {b})"),
                Bin::Shr => format!("(bvlshr {a} {b})"),
                Bin::Sar => format!("(bvashr {a} {b})"),
                Bin::Lt | Bin::Slt | Bin::Eq => boolean(cond(terms, t)),
            }
        }
    }
}

/// Every node reachable from `roots`, children before parents.
pub fn reachable(terms: &Terms, roots: &[TermId]) -> Vec<TermId> {
    let mut seen = vec![false; terms.len()];
    let mut stack: Vec<TermId> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if std::mem::replace(&mut seen[t.index()], true) {
            continue;
        }
        match terms.node(t) {
            Node::Const(_) | Node::Var(_) => {}
            Node::Bin(_, x, y) => stack.extend([x, y]),
            Node::Not(x) | Node::IsZero(x) => stack.push(x),
            Node::Ite(c, x, y) => stack.extend([c, x, y]),
        }
    }
    // Ids are allocated children first, so id order is a topological order.
    (0..terms.len())
        .filter(|&i| seen[i])
        .map(|i| terms.id_at(i))
        .collect()
}

/// The outcome packed into one bit-vector expression: success, length, then
/// each data word (`width` words, zero-padded), 256 bits each.
pub fn packed(terms: &Terms, o: &Outcome, width: usize) -> String {
    let mut parts = vec![name(terms, o.success), name(terms, o.len)];
    for k in 0..width {
        parts.push(o.words.get(k).map_or(ZERO.to_string(), |&w| name(terms, w)));
    }
    format!("(concat {})", parts.join(" "))
}

/// The name by which a query refers to node `t` (a literal, a variable or `tN`).
pub fn node_name(terms: &Terms, t: TermId) -> String {
    name(terms, t)
}

/// The roots of an outcome: success, length and data words.
pub fn roots(o: &Outcome) -> Vec<TermId> {
    let mut roots = vec![o.success, o.len];
    roots.extend(&o.words);
    roots
}

/// The start of a QF_BV query: `header` lines as comments, the logic, every
/// variable of `terms` (256 bits), and one `define-fun` per node reachable
/// from `roots`, children first.
pub fn preamble(terms: &Terms, roots: &[TermId], header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        writeln!(out, "; {line}").expect("write to String");
    }
    out.push_str("(set-logic QF_BV)\n(set-option :produce-models true)\n");
    for v in terms.var_names() {
        writeln!(out, "(declare-const {v} (_ BitVec 256))").expect("write to String");
    }
    for t in reachable(terms, roots) {
        if matches!(terms.node(t), Node::Const(_) | Node::Var(_)) {
            continue;
        }
        writeln!(
            out,
            "(define-fun t{} () (_ BitVec 256) {})",
            t.index(),
            definition(terms, t)
        )
        .expect("write to String");
    }
    out
}

/// A QF_BV query that is satisfiable exactly when the two outcomes differ for
/// some value of the variables where `case` holds:
/// `(assert (distinct reference implementation))`, then `(assert case)` when
/// a case is given (a Boolean SMT-LIB2 expression over the variables).
/// `header` lines are written as comments at the top.
pub fn distinct_query(
    terms: &Terms,
    reference: &Outcome,
    implementation: &Outcome,
    header: &[String],
    case: Option<&str>,
) -> String {
    let width = reference.words.len().max(implementation.words.len());
    let mut all = roots(reference);
    all.extend(roots(implementation));
    let mut out = preamble(terms, &all, header);
    let bits = 256 * (2 + width);
    writeln!(
        out,
        "(define-fun reference () (_ BitVec {bits}) {})",
        packed(terms, reference, width)
    )
    .expect("write to String");
    writeln!(
        out,
        "(define-fun implementation () (_ BitVec {bits}) {})",
        packed(terms, implementation, width)
    )
    .expect("write to String");
    out.push_str("(assert (distinct reference implementation))\n");
    if let Some(case) = case {
        writeln!(out, "(assert {case})").expect("write to String");
    }
    out.push_str("(check-sat)\n(exit)\n");
    out
}

/// A QF_BV query that is satisfiable exactly when the 0/1 term `claim` can
/// be non-zero: one `define-fun` per node reachable from it, then
/// `(assert (distinct claim 0))`. `header` lines are written as comments at
/// the top.
pub fn nonzero_query(terms: &Terms, claim: TermId, header: &[String]) -> String {
    let mut out = preamble(terms, &[claim], header);
    writeln!(out, "(assert {})", cond(terms, claim)).expect("write to String");
    out.push_str("(check-sat)\n(exit)\n");
    out
}

/// "Every nibble of the 256-bit variable `var` is a digit 1..8", as a
/// Boolean SMT-LIB2 expression.
pub fn all_nibbles_digits(var: &str) -> String {
    let nibbles: Vec<String> = (0..64)
        .map(|k| {
            format!(
                "(let ((n ((_ extract {} {}) {var}))) (and (bvuge n #x1) (bvule n #x8)))",
                4 * k + 3,
                4 * k
            )
        })
        .collect();
    format!("(and {})", nibbles.join(" "))
}

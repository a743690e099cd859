//! Hash-consed 256-bit bit-vector terms with constant folding, known-bits
//! reasoning and a few cheap rewrites.
//!
//! Every term is a 256-bit word, as on the EVM stack. Comparisons give 0 or 1.
//! The store keeps one node per distinct (operator, operands), so equal
//! sub-terms are shared and `TermId` equality is structural equality.
//!
//! Every rewrite names its [`Rule`], a row of [`crate::rules::RULES`] (the
//! table states each as lhs, rhs and side conditions; a test proves each
//! with the SMT solver).

use std::collections::HashMap;

use octoku_core::U256;

use crate::rules::{RULES, Rule};

/// A term in a [`Terms`] store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(u32);

impl TermId {
    /// The position of this term in its store (terms only refer to earlier ones).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Binary operators, with the EVM's semantics (division by zero gives 0,
/// shifts by 256 or more give 0, or all sign bits for `Sar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bin {
    /// a + b mod 2^256.
    Add,
    /// a - b mod 2^256.
    Sub,
    /// a * b mod 2^256.
    Mul,
    /// a / b, unsigned, 0 when b = 0.
    Div,
    /// a / b, two's complement, 0 when b = 0.
    SDiv,
    /// a mod b, unsigned, 0 when b = 0.
    Mod,
    /// a mod b, two's complement (sign of a), 0 when b = 0.
    SMod,
    /// 1 if a < b (unsigned) else 0.
    Lt,
    /// 1 if a < b (signed) else 0.
    Slt,
    /// 1 if a = b else 0.
    Eq,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// a << b (0 when b >= 256).
    Shl,
    /// a >> b, logical (0 when b >= 256).
    Shr,
    /// a >> b, arithmetic.
    Sar,
}

impl Bin {
    fn commutative(self) -> bool {
        matches!(
            self,
            Bin::Add | Bin::Mul | Bin::Eq | Bin::And | Bin::Or | Bin::Xor
        )
    }

    /// The operator applied to two constants.
    pub fn eval(self, a: U256, b: U256) -> U256 {
        let one = U256::from(1u8);
        let bool_word = |x: bool| if x { one } else { U256::ZERO };
        match self {
            Bin::Add => a.wrapping_add(b),
            Bin::Sub => a.wrapping_sub(b),
            Bin::Mul => a.wrapping_mul(b),
            Bin::Div => a.checked_div(b).unwrap_or(U256::ZERO),
            Bin::Mod => a.checked_rem(b).unwrap_or(U256::ZERO),
            Bin::SDiv => {
                if b.is_zero() {
                    return U256::ZERO;
                }
                let (na, nb) = (negative(a), negative(b));
                let q = abs(a) / abs(b);
                if na != nb { neg(q) } else { q }
            }
            Bin::SMod => {
                if b.is_zero() {
                    return U256::ZERO;
                }
                let r = abs(a) % abs(b);
                if negative(a) { neg(r) } else { r }
            }
            Bin::Lt => bool_word(a < b),
            Bin::Slt => bool_word(match (negative(a), negative(b)) {
                (true, false) => true,
                (false, true) => false,
                _ => a < b,
            }),
            Bin::Eq => bool_word(a == b),
            Bin::And => a & b,
            Bin::Or => a | b,
            Bin::Xor => a ^ b,
            Bin::Shl => shift_amount(b).map_or(U256::ZERO, |k| a << k),
            Bin::Shr => shift_amount(b).map_or(U256::ZERO, |k| a >> k),
            Bin::Sar => {
                let fill = if negative(a) { U256::MAX } else { U256::ZERO };
                match shift_amount(b) {
                    None => fill,
                    Some(0) => a,
                    Some(k) => (a >> k) | (fill << (256 - k)),
                }
            }
        }
    }
}

fn shift_amount(b: U256) -> Option<usize> {
    if b < U256::from(256u32) {
        Some(b.to::<usize>())
    } else {
        None
    }
}

fn negative(a: U256) -> bool {
    a.bit(255)
}

fn neg(a: U256) -> U256 {
    U256::ZERO.wrapping_sub(a)
}

fn abs(a: U256) -> U256 {
    if negative(a) { neg(a) } else { a }
}

/// One node of the term DAG.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// A constant word.
    Const(U256),
    /// The n-th free variable (for verify: 0 = start, 1 = solution).
    Var(u32),
    /// A binary operator.
    Bin(Bin, TermId, TermId),
    /// Bitwise not.
    Not(TermId),
    /// 1 if the operand is 0, else 0.
    IsZero(TermId),
    /// If the first operand is non-zero, the second, else the third.
    Ite(TermId, TermId, TermId),
}

impl Node {
    /// The operands, in order (none for a constant or a variable).
    pub fn children(self) -> Vec<TermId> {
        match self {
            Node::Const(_) | Node::Var(_) => vec![],
            Node::Bin(_, a, b) => vec![a, b],
            Node::Not(a) | Node::IsZero(a) => vec![a],
            Node::Ite(c, a, b) => vec![c, a, b],
        }
    }
}

/// Bits of a term known from its structure: `zeros` has a 1 where the term's
/// bit is surely 0, `ones` where it is surely 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// Bits that are 0 for every value of the variables.
    pub zeros: U256,
    /// Bits that are 1 for every value of the variables.
    pub ones: U256,
}

impl Known {
    const NONE: Known = Known {
        zeros: U256::ZERO,
        ones: U256::ZERO,
    };

    fn constant(c: U256) -> Known {
        Known { zeros: !c, ones: c }
    }

    fn not(k: Known) -> Known {
        Known {
            zeros: k.ones,
            ones: k.zeros,
        }
    }

    /// The bits known in both sides of an if-then-else.
    fn either(a: Known, b: Known) -> Known {
        Known {
            zeros: a.zeros & b.zeros,
            ones: a.ones & b.ones,
        }
    }

    fn boolean() -> Known {
        Known {
            zeros: !U256::from(1u8),
            ones: U256::ZERO,
        }
    }

    /// The largest value the term can take.
    pub fn max(self) -> U256 {
        !self.zeros
    }

    /// The smallest value the term can take.
    pub fn min(self) -> U256 {
        self.ones
    }

    fn value(self) -> Option<U256> {
        ((self.zeros | self.ones) == U256::MAX).then_some(self.ones)
    }

    /// A mask of the bits below the highest possibly-set bit: values are below
    /// 2^bits.
    fn bits(self) -> usize {
        256 - self.max().leading_zeros()
    }
}

fn below_bits(bits: usize) -> Known {
    if bits >= 256 {
        Known::NONE
    } else {
        Known {
            zeros: U256::MAX << bits,
            ones: U256::ZERO,
        }
    }
}

/// The term store: hash-consing table, known bits of every node.
#[derive(Debug, Default)]
pub struct Terms {
    nodes: Vec<Node>,
    known: Vec<Known>,
    table: HashMap<Node, TermId>,
    /// Names of the variables, by index.
    names: Vec<String>,
    /// How many times each rule was applied, by [`Rule`] (empty until the
    /// first).
    applied: Vec<u64>,
}

impl Terms {
    /// An empty store.
    pub fn new() -> Terms {
        Terms::default()
    }

    /// Number of distinct nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the store holds no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The term at position `i` of the store.
    pub fn id_at(&self, i: usize) -> TermId {
        assert!(i < self.nodes.len(), "term {i} is not in the store");
        TermId(i as u32)
    }

    /// The node of a term.
    pub fn node(&self, t: TermId) -> Node {
        self.nodes[t.index()]
    }

    /// The known bits of a term.
    pub fn known(&self, t: TermId) -> Known {
        self.known[t.index()]
    }

    /// The constant value of a term, if it has one.
    pub fn as_const(&self, t: TermId) -> Option<U256> {
        match self.node(t) {
            Node::Const(c) => Some(c),
            _ => None,
        }
    }

    /// Whether the term is 0 or 1 for every value of the variables.
    pub fn is_boolean(&self, t: TermId) -> bool {
        self.known(t).zeros | U256::from(1u8) == U256::MAX
    }

    /// How many times the simplifier applied `rule` in this store.
    pub fn applied(&self, rule: Rule) -> u64 {
        self.applied.get(rule as usize).copied().unwrap_or(0)
    }

    /// Counts an application of `rule`: every rewrite goes through here.
    fn by(&mut self, rule: Rule) {
        if self.applied.is_empty() {
            self.applied = vec![0; RULES.len()];
        }
        self.applied[rule as usize] += 1;
    }

    /// The node `node` as it is, with its known bits, not simplified (for
    /// checks of the simplifier: a rule's two sides are built this way).
    pub fn raw(&mut self, node: Node) -> TermId {
        if let Some(&id) = self.table.get(&node) {
            return id;
        }
        let known = match node {
            Node::Const(c) => Known::constant(c),
            Node::Var(_) => Known::NONE,
            Node::Bin(op, a, b) => self.known_bin(op, a, b),
            Node::Not(a) => Known::not(self.known(a)),
            Node::IsZero(_) => Known::boolean(),
            Node::Ite(_, a, b) => Known::either(self.known(a), self.known(b)),
        };
        let id = TermId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 terms"));
        self.nodes.push(node);
        self.known.push(known);
        self.table.insert(node, id);
        id
    }

    /// The name of variable `n`.
    pub fn var_name(&self, n: u32) -> &str {
        &self.names[n as usize]
    }

    /// Names of all variables, by index.
    pub fn var_names(&self) -> &[String] {
        &self.names
    }

    fn intern(&mut self, node: Node, known: Known) -> TermId {
        if let Some(&id) = self.table.get(&node) {
            return id;
        }
        if let Some(c) = known.value()
            && !matches!(node, Node::Const(_))
        {
            self.by(Rule::KnownValue);
            return self.constant(c);
        }
        let id = TermId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 terms"));
        self.nodes.push(node);
        self.known.push(known);
        self.table.insert(node, id);
        id
    }

    /// The constant word `c`.
    pub fn constant(&mut self, c: U256) -> TermId {
        self.intern(Node::Const(c), Known::constant(c))
    }

    /// The constant word `c` from a small integer.
    pub fn small(&mut self, c: u64) -> TermId {
        self.constant(U256::from(c))
    }

    /// A new free variable named `name`.
    pub fn var(&mut self, name: &str) -> TermId {
        let n = u32::try_from(self.names.len()).expect("few variables");
        self.names.push(name.to_string());
        self.intern(Node::Var(n), Known::NONE)
    }

    /// The variable named `name`: the existing one if there is one, else a
    /// new one.
    pub fn var_shared(&mut self, name: &str) -> TermId {
        match self.names.iter().position(|n| n == name) {
            Some(n) => self.intern(Node::Var(n as u32), Known::NONE),
            None => self.var(name),
        }
    }

    /// Bitwise not.
    pub fn not(&mut self, a: TermId) -> TermId {
        match self.node(a) {
            Node::Const(c) => {
                self.by(Rule::FoldNot);
                self.constant(!c)
            }
            Node::Not(x) => {
                self.by(Rule::NotNot);
                x
            }
            _ => {
                let k = Known::not(self.known(a));
                self.intern(Node::Not(a), k)
            }
        }
    }

    /// EVM `BYTE`: byte `i` of `x` counted from the most significant,
    /// `(x >> (248 - 8i)) & 0xff` for `i < 32`, else 0.
    pub fn byte(&mut self, i: TermId, x: TermId) -> TermId {
        let ff = self.small(0xff);
        if self.as_const(i).is_some_and(|i| i >= U256::from(32u8)) {
            self.by(Rule::ByteFar);
            return self.small(0);
        }
        self.by(Rule::ByteShift);
        let down = match self.as_const(i) {
            Some(i) => self.small(248 - 8 * i.to::<u64>()),
            None => {
                let eight = self.small(8);
                let bits = self.bin(Bin::Mul, i, eight);
                let c248 = self.small(248);
                self.bin(Bin::Sub, c248, bits)
            }
        };
        let v = self.bin(Bin::Shr, x, down);
        let v = self.bin(Bin::And, v, ff);
        // The guard folds away when i is a constant or its known bits keep
        // it below 32.
        let c32 = self.small(32);
        let inside = self.bin(Bin::Lt, i, c32);
        let zero = self.small(0);
        self.ite(inside, v, zero)
    }

    /// 1 if `a` is zero, else 0.
    pub fn is_zero(&mut self, a: TermId) -> TermId {
        let k = self.known(a);
        if let Some(c) = k.value() {
            self.by(Rule::FoldIsZero);
            return self.small(u64::from(c.is_zero()));
        }
        if k.ones != U256::ZERO {
            self.by(Rule::IsZeroKnownNonZero);
            return self.small(0);
        }
        // iszero(iszero(iszero(x))) = iszero(x).
        if let Node::IsZero(x) = self.node(a)
            && let Node::IsZero(y) = self.node(x)
        {
            self.by(Rule::IsZeroThrice);
            return self.is_zero(y);
        }
        self.intern(Node::IsZero(a), Known::boolean())
    }

    /// 1 if `a` is non-zero, else 0 (the term itself when it is already 0/1).
    pub fn to_bool(&mut self, a: TermId) -> TermId {
        if self.is_boolean(a) {
            self.by(Rule::BoolOfBool);
            a
        } else {
            let z = self.is_zero(a);
            self.is_zero(z)
        }
    }

    /// If `c` is non-zero then `a` else `b`.
    pub fn ite(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        if a == b {
            self.by(Rule::IteSame);
            return a;
        }
        let kc = self.known(c);
        if kc.ones != U256::ZERO {
            self.by(Rule::IteKnownTrue);
            return a;
        }
        if kc.zeros == U256::MAX {
            self.by(Rule::IteKnownFalse);
            return b;
        }
        if let Node::IsZero(x) = self.node(c) {
            self.by(Rule::IteNegated);
            return self.ite(x, b, a);
        }
        let (zero, one) = (U256::ZERO, U256::from(1u8));
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if x == one && y == zero => {
                self.by(Rule::IteOneZero);
                return self.to_bool(c);
            }
            (Some(x), Some(y)) if x == zero && y == one => {
                self.by(Rule::IteZeroOne);
                return self.is_zero(c);
            }
            _ => {}
        }
        // Nested ITE on the same condition.
        if let Node::Ite(c2, a2, _) = self.node(a)
            && c2 == c
        {
            self.by(Rule::IteNestedThen);
            return self.ite(c, a2, b);
        }
        if let Node::Ite(c2, _, b2) = self.node(b)
            && c2 == c
        {
            self.by(Rule::IteNestedElse);
            return self.ite(c, a, b2);
        }
        if !self.is_boolean(c) {
            self.by(Rule::IteBoolCondition);
        }
        let c = self.to_bool(c);
        let k = Known::either(self.known(a), self.known(b));
        self.intern(Node::Ite(c, a, b), k)
    }

    /// Logical and of two 0/1 terms (guards).
    pub fn and_bool(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = (self.to_bool(a), self.to_bool(b));
        self.bin(Bin::And, a, b)
    }

    /// Logical or of two 0/1 terms (guards).
    pub fn or_bool(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = (self.to_bool(a), self.to_bool(b));
        self.bin(Bin::Or, a, b)
    }

    /// If `a` = x & y and `b` = x & !y for a 0/1 term y (in any operand
    /// order), returns (x, y); then `a | b` is `x & 1` (x itself when x is
    /// 0/1 too).
    pub fn split_complement(&self, a: TermId, b: TermId) -> Option<(TermId, TermId)> {
        let (Node::Bin(Bin::And, a1, a2), Node::Bin(Bin::And, b1, b2)) =
            (self.node(a), self.node(b))
        else {
            return None;
        };
        for (x, y) in [(a1, a2), (a2, a1)] {
            for (u, v) in [(b1, b2), (b2, b1)] {
                if x == u && self.complements(y, v) {
                    return Some((x, y));
                }
            }
        }
        None
    }

    /// Whether the 0/1 terms `y` and `v` are each other's negation.
    fn complements(&self, y: TermId, v: TermId) -> bool {
        let neg_of = |p: TermId, q: TermId| matches!(self.node(q), Node::IsZero(x) if x == p);
        (neg_of(y, v) || neg_of(v, y)) && self.is_boolean(y) && self.is_boolean(v)
    }

    /// A binary operator, simplified.
    pub fn bin(&mut self, op: Bin, a: TermId, b: TermId) -> TermId {
        let (ka, kb) = (self.known(a), self.known(b));
        if let (Some(x), Some(y)) = (ka.value(), kb.value()) {
            self.by(Rule::FoldBin);
            return self.constant(op.eval(x, y));
        }
        let (mut a, mut b) = (a, b);
        if op.commutative() && (self.as_const(a).is_some() || (a > b && self.as_const(b).is_none()))
        {
            self.by(match op {
                Bin::Add => Rule::CommuteAdd,
                Bin::Mul => Rule::CommuteMul,
                Bin::Eq => Rule::CommuteEq,
                Bin::And => Rule::CommuteAnd,
                Bin::Or => Rule::CommuteOr,
                _ => Rule::CommuteXor,
            });
            std::mem::swap(&mut a, &mut b);
        }
        match self.rewrite(op, a, b) {
            Some(t) => t,
            None => {
                let known = self.known_bin(op, a, b);
                self.intern(Node::Bin(op, a, b), known)
            }
        }
    }

    /// The rewrite of `op(a, b)` (operands in the order [`Terms::bin`]
    /// puts them: a constant second), if a rule applies.
    fn rewrite(&mut self, op: Bin, a: TermId, b: TermId) -> Option<TermId> {
        let (ka, kb) = (self.known(a), self.known(b));
        let cb = kb.value();
        let one_word = U256::from(1u8);
        let rule = match op {
            Bin::Add if cb == Some(U256::ZERO) => Rule::AddZero,
            Bin::Sub if cb == Some(U256::ZERO) => Rule::SubZero,
            Bin::Sub if a == b => Rule::SubSelf,
            Bin::Mul if cb == Some(U256::ZERO) => Rule::MulZero,
            Bin::Mul if cb == Some(one_word) => Rule::MulOne,
            Bin::Mul if cb.is_some_and(|c| c.count_ones() == 1) => Rule::MulPowerOfTwo,
            Bin::Div if cb == Some(one_word) => Rule::DivOne,
            Bin::Div if cb.is_some_and(|c| c.count_ones() == 1) => Rule::DivPowerOfTwo,
            Bin::And if a == b => Rule::AndSelf,
            // A mask that keeps every possibly-set bit is redundant.
            Bin::And if cb.is_some() && (!kb.ones & !ka.zeros).is_zero() => Rule::AndMask,
            Bin::And if (ka.zeros | kb.zeros) == U256::MAX => Rule::AndDisjoint,
            Bin::Or if a == b => Rule::OrSelf,
            Bin::Or if cb == Some(U256::ZERO) => Rule::OrZero,
            Bin::Or if self.split_complement(a, b).is_some() => Rule::OrComplement,
            Bin::Xor if a == b => Rule::XorSelf,
            Bin::Xor if cb == Some(U256::ZERO) => Rule::XorZero,
            Bin::Eq if a == b => Rule::EqSelf,
            // Some bit known to differ.
            Bin::Eq if !((ka.ones & kb.zeros) | (ka.zeros & kb.ones)).is_zero() => {
                Rule::EqKnownDiffer
            }
            Bin::Eq if cb == Some(U256::ZERO) => Rule::EqZero,
            Bin::Lt if ka.max() < kb.min() => Rule::LtBelow,
            Bin::Lt if ka.min() >= kb.max() => Rule::LtAbove,
            Bin::Shl if cb == Some(U256::ZERO) => Rule::ShlZero,
            Bin::Shr if cb == Some(U256::ZERO) => Rule::ShrZero,
            Bin::Sar if cb == Some(U256::ZERO) => Rule::SarZero,
            Bin::Shl if cb.is_some_and(|k| k >= U256::from(256u32)) => Rule::ShlFar,
            Bin::Shr if cb.is_some_and(|k| k >= U256::from(256u32)) => Rule::ShrFar,
            // Two constant shifts in the same direction, both below 256.
            Bin::Shl | Bin::Shr if cb.is_some() && self.inner_shift(op, a).is_some() => {
                if op == Bin::Shl {
                    Rule::ShlShl
                } else {
                    Rule::ShrShr
                }
            }
            _ => return None,
        };
        self.by(rule);
        let zero = self.small(0);
        Some(match rule {
            Rule::AddZero | Rule::SubZero | Rule::MulOne | Rule::DivOne => a,
            Rule::AndSelf | Rule::AndMask | Rule::OrSelf | Rule::OrZero | Rule::XorZero => a,
            Rule::ShlZero | Rule::ShrZero | Rule::SarZero => a,
            Rule::SubSelf | Rule::MulZero | Rule::AndDisjoint | Rule::XorSelf => zero,
            Rule::EqKnownDiffer | Rule::LtAbove | Rule::ShlFar | Rule::ShrFar => zero,
            Rule::EqSelf | Rule::LtBelow => self.small(1),
            Rule::EqZero => self.is_zero(a),
            Rule::MulPowerOfTwo | Rule::DivPowerOfTwo => {
                let c = cb.expect("a constant operand");
                let k = self.small(c.trailing_zeros() as u64);
                let shift = if op == Bin::Mul { Bin::Shl } else { Bin::Shr };
                self.bin(shift, a, k)
            }
            Rule::OrComplement => {
                let (x, _) = self.split_complement(a, b).expect("matched above");
                let one = self.small(1);
                self.bin(Bin::And, x, one)
            }
            Rule::ShlShl | Rule::ShrShr => {
                let (x, j) = self.inner_shift(op, a).expect("matched above");
                let total = self.constant(j + cb.expect("a constant shift"));
                self.bin(op, x, total)
            }
            _ => unreachable!("{rule:?} is not a rule of a binary operator"),
        })
    }

    /// For `a` = `x op j` with a constant `j` below 256 (`op` a left or
    /// right shift), (x, j).
    fn inner_shift(&self, op: Bin, a: TermId) -> Option<(TermId, U256)> {
        match self.node(a) {
            Node::Bin(op2, x, j) if op2 == op => self
                .as_const(j)
                .filter(|&j| j < U256::from(256u32))
                .map(|j| (x, j)),
            _ => None,
        }
    }

    fn known_bin(&self, op: Bin, a: TermId, b: TermId) -> Known {
        let (ka, kb) = (self.known(a), self.known(b));
        let cb = kb.value().and_then(shift_amount);
        match op {
            Bin::And => Known {
                zeros: ka.zeros | kb.zeros,
                ones: ka.ones & kb.ones,
            },
            Bin::Or => Known {
                zeros: ka.zeros & kb.zeros,
                ones: ka.ones | kb.ones,
            },
            Bin::Xor => {
                let both = (ka.zeros | ka.ones) & (kb.zeros | kb.ones);
                let v = ka.ones ^ kb.ones;
                Known {
                    zeros: both & !v,
                    ones: both & v,
                }
            }
            Bin::Shl => match cb {
                Some(k) => Known {
                    zeros: (ka.zeros << k) | !(U256::MAX << k),
                    ones: ka.ones << k,
                },
                None => Known::NONE,
            },
            Bin::Shr => match cb {
                Some(k) => Known {
                    zeros: (ka.zeros >> k) | !(U256::MAX >> k),
                    ones: ka.ones >> k,
                },
                None => below_bits(ka.bits()),
            },
            Bin::Lt | Bin::Slt | Bin::Eq => Known::boolean(),
            Bin::Add => below_bits(ka.bits().max(kb.bits()) + 1),
            Bin::Mul => below_bits(ka.bits() + kb.bits()),
            Bin::Div => below_bits(ka.bits()),
            // Below the divisor (0 for a divisor of 0), and at most the dividend.
            Bin::Mod => {
                let below_divisor = 256 - kb.max().saturating_sub(U256::from(1u8)).leading_zeros();
                below_bits(ka.bits().min(below_divisor))
            }
            Bin::Sub | Bin::SDiv | Bin::SMod | Bin::Sar => Known::NONE,
        }
    }

    /// The value of a term when the variables have the values `vars`
    /// (by index), computed bottom-up over the DAG.
    pub fn eval(&self, t: TermId, vars: &[U256]) -> U256 {
        let mut memo: HashMap<TermId, U256> = HashMap::new();
        self.eval_memo(t, vars, &mut memo)
    }

    /// [`Terms::eval`] sharing a memo table across several terms.
    pub fn eval_memo(&self, t: TermId, vars: &[U256], memo: &mut HashMap<TermId, U256>) -> U256 {
        // Iterative post-order walk: terms can be deep (long ITE chains).
        let mut stack = vec![t];
        while let Some(&top) = stack.last() {
            if memo.contains_key(&top) {
                stack.pop();
                continue;
            }
            let missing: Vec<TermId> = self
                .node(top)
                .children()
                .into_iter()
                .filter(|c| !memo.contains_key(c))
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            let v = match self.node(top) {
                Node::Const(c) => c,
                Node::Var(n) => vars[n as usize],
                Node::Bin(op, x, y) => op.eval(memo[&x], memo[&y]),
                Node::Not(x) => !memo[&x],
                Node::IsZero(x) => U256::from(u8::from(memo[&x].is_zero())),
                Node::Ite(c, x, y) => {
                    if memo[&c].is_zero() {
                        memo[&y]
                    } else {
                        memo[&x]
                    }
                }
            };
            memo.insert(top, v);
            stack.pop();
        }
        memo[&t]
    }

    /// `root` rebuilt with every operation on if-then-else trees of
    /// constants done leaf by leaf, while the result keeps at most `limit`
    /// leaves: `x + ite(c, 1, 2)` with x = 5 is `ite(c, 6, 7)`, and two trees
    /// with the same condition on top are combined branch by branch. A merged
    /// run leaves such trees where the sides computed different constants
    /// (solc's checked `16 ** cell` tests the exponent's bits); folded, a
    /// division or product of two of them becomes a table of constants the
    /// solver reads by cases instead of a 256-bit circuit. Every rule is an
    /// identity, so the result equals `root` for every value of the
    /// variables.
    pub fn fold_constant_ites(&mut self, root: TermId, limit: usize) -> TermId {
        let mut fold = Fold {
            limit,
            leaves: HashMap::new(),
            done: HashMap::new(),
        };
        self.rebuild(
            root,
            |_, _| None,
            |terms, node| match node {
                Node::Bin(op, a, b) => fold.bin(terms, op, a, b),
                Node::Not(a) => fold.unary(terms, a, Folded::Not),
                Node::IsZero(a) => fold.unary(terms, a, Folded::IsZero),
                Node::Ite(c, a, b) => fold.ite(terms, c, a, b),
                Node::Const(_) | Node::Var(_) => unreachable!("leaves are kept"),
            },
        )
    }

    /// `root` rebuilt bottom-up: a node for which `replace` gives a term is
    /// replaced by it (and not looked into); every other operation is made
    /// again by `build` from its rebuilt operands (constants and variables
    /// stay). An iterative walk: terms can be deep (long ITE chains).
    pub(crate) fn rebuild(
        &mut self,
        root: TermId,
        mut replace: impl FnMut(&mut Terms, TermId) -> Option<TermId>,
        mut build: impl FnMut(&mut Terms, Node) -> TermId,
    ) -> TermId {
        let mut done: HashMap<TermId, TermId> = HashMap::new();
        let mut stack = vec![(root, false)];
        while let Some((t, ready)) = stack.pop() {
            if done.contains_key(&t) {
                continue;
            }
            if !ready {
                if let Some(r) = replace(self, t) {
                    done.insert(t, r);
                    continue;
                }
                stack.push((t, true));
                stack.extend(self.node(t).children().into_iter().map(|c| (c, false)));
                continue;
            }
            let m = |x: TermId| done[&x];
            let new = match self.node(t) {
                Node::Const(_) | Node::Var(_) => t,
                Node::Bin(op, a, b) => build(self, Node::Bin(op, m(a), m(b))),
                Node::Not(a) => build(self, Node::Not(m(a))),
                Node::IsZero(a) => build(self, Node::IsZero(m(a))),
                Node::Ite(c, a, b) => build(self, Node::Ite(m(c), m(a), m(b))),
            };
            done.insert(t, new);
        }
        done[&root]
    }

    /// The term of an operation node (simplified as [`Terms::bin`] and its
    /// kin simplify); constants and variables are interned as they are.
    pub(crate) fn make(&mut self, node: Node) -> TermId {
        match node {
            Node::Bin(op, a, b) => self.bin(op, a, b),
            Node::Not(a) => self.not(a),
            Node::IsZero(a) => self.is_zero(a),
            Node::Ite(c, a, b) => self.ite(c, a, b),
            Node::Const(c) => self.constant(c),
            Node::Var(_) => unreachable!("a variable is made by Terms::var"),
        }
    }

    /// Number of distinct nodes reachable from `roots`.
    pub fn reachable(&self, roots: &[TermId]) -> usize {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<TermId> = roots.to_vec();
        let mut count = 0;
        while let Some(t) = stack.pop() {
            if std::mem::replace(&mut seen[t.index()], true) {
                continue;
            }
            count += 1;
            match self.node(t) {
                Node::Const(_) | Node::Var(_) => {}
                Node::Bin(_, x, y) => stack.extend([x, y]),
                Node::Not(x) | Node::IsZero(x) => stack.push(x),
                Node::Ite(c, x, y) => stack.extend([c, x, y]),
            }
        }
        count
    }
}

/// The state of [`Terms::fold_constant_ites`]: its leaf bound, the leaf
/// count of every term seen (`None`: not a tree of constants), and the
/// operations folded so far (trees share branches).
struct Fold {
    limit: usize,
    leaves: HashMap<TermId, Option<usize>>,
    done: HashMap<(Folded, TermId, TermId, TermId), TermId>,
}

/// An operation [`Fold`] pushes into trees, as a key of its memo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Folded {
    Bin(Bin),
    Not,
    IsZero,
    Ite,
}

impl Fold {
    /// Leaves of `t` when it is a constant or an if-then-else of two trees
    /// of constants.
    fn leaves(&mut self, terms: &Terms, t: TermId) -> Option<usize> {
        if let Some(&n) = self.leaves.get(&t) {
            return n;
        }
        let n = match terms.node(t) {
            Node::Const(_) => Some(1),
            Node::Ite(_, a, b) => match (self.leaves(terms, a), self.leaves(terms, b)) {
                (Some(x), Some(y)) => Some(x + y),
                _ => None,
            },
            _ => None,
        };
        self.leaves.insert(t, n);
        n
    }

    /// `t` written as the tree of its values over its unknown bits (bit
    /// tests on `t` as conditions), when it has at most `limit` values.
    fn values(&mut self, terms: &mut Terms, t: TermId) -> Option<TermId> {
        let known = terms.known(t);
        let unknown = !(known.zeros | known.ones);
        let count = unknown.count_ones();
        if count == 0 || (1usize << count.min(63)) > self.limit {
            return None;
        }
        let bits: Vec<usize> = (0..256).filter(|&i| unknown.bit(i)).collect();
        terms.by(Rule::SplitOnBit);
        let tree = self.values_over(terms, t, &bits, known.ones);
        Some(tree)
    }

    /// The tree over `bits`, the lowest tested first: the last test picks
    /// between two values that differ in a higher bit, so no pair of leaves
    /// is 1 and 0 (which [`Terms::ite`] would turn into the bit test itself)
    /// unless only bit 0 is unknown.
    fn values_over(&mut self, terms: &mut Terms, t: TermId, bits: &[usize], fixed: U256) -> TermId {
        let Some((&bit, rest)) = bits.split_first() else {
            return terms.constant(fixed);
        };
        let k = terms.small(bit as u64);
        let shifted = terms.bin(Bin::Shr, t, k);
        let one = terms.small(1);
        let set = terms.bin(Bin::And, shifted, one);
        let yes = self.values_over(terms, t, rest, fixed | (U256::from(1u8) << bit));
        let no = self.values_over(terms, t, rest, fixed);
        terms.ite(set, yes, no)
    }

    /// `op(a, b)`, pushed into the branches of a tree operand. An operand
    /// with few possible values is first written as the tree of them when
    /// the other is a tree and `op` is a circuit the solver finds costly
    /// with it symbolic: a shift amount, a factor, a divisor or dividend.
    fn bin(&mut self, terms: &mut Terms, op: Bin, a: TermId, b: TermId) -> TermId {
        let key = (Folded::Bin(op), a, b, a);
        if let Some(&t) = self.done.get(&key) {
            return t;
        }
        let t = self.bin_new(terms, op, a, b);
        self.done.insert(key, t);
        t
    }

    fn bin_new(&mut self, terms: &mut Terms, op: Bin, a: TermId, b: TermId) -> TermId {
        let (mut a, mut b) = (a, b);
        let costly_a = matches!(op, Bin::Mul | Bin::Div | Bin::Mod);
        let costly_b = costly_a || matches!(op, Bin::Shl | Bin::Shr);
        if costly_b
            && self.leaves(terms, a).is_some()
            && self.leaves(terms, b).is_none()
            && let Some(tree) = self.values(terms, b)
        {
            b = tree;
        } else if costly_a
            && self.leaves(terms, b).is_some()
            && self.leaves(terms, a).is_none()
            && let Some(tree) = self.values(terms, a)
        {
            a = tree;
        }
        if let (Some(x), Some(y)) = (self.leaves(terms, a), self.leaves(terms, b))
            && x * y > 1
        {
            match (terms.node(a), terms.node(b)) {
                (Node::Ite(c, a1, a2), Node::Ite(d, b1, b2)) if c == d => {
                    terms.by(Rule::PushBoth);
                    let yes = self.bin(terms, op, a1, b1);
                    let no = self.bin(terms, op, a2, b2);
                    return terms.ite(c, yes, no);
                }
                (Node::Ite(c, a1, a2), _) if x * y <= self.limit => {
                    terms.by(Rule::PushLeft);
                    let yes = self.bin(terms, op, a1, b);
                    let no = self.bin(terms, op, a2, b);
                    return terms.ite(c, yes, no);
                }
                (_, Node::Ite(c, b1, b2)) if x * y <= self.limit => {
                    terms.by(Rule::PushRight);
                    let yes = self.bin(terms, op, a, b1);
                    let no = self.bin(terms, op, a, b2);
                    return terms.ite(c, yes, no);
                }
                _ => {}
            }
        }
        terms.bin(op, a, b)
    }

    /// `f(a)`, pushed into the branches of a tree.
    fn unary(&mut self, terms: &mut Terms, a: TermId, op: Folded) -> TermId {
        let key = (op, a, a, a);
        if let Some(&t) = self.done.get(&key) {
            return t;
        }
        let t = if self.leaves(terms, a).is_some_and(|n| n <= self.limit)
            && let Node::Ite(c, a1, a2) = terms.node(a)
        {
            terms.by(if op == Folded::Not {
                Rule::PushNot
            } else {
                Rule::PushIsZero
            });
            let yes = self.unary(terms, a1, op);
            let no = self.unary(terms, a2, op);
            terms.ite(c, yes, no)
        } else if op == Folded::Not {
            terms.not(a)
        } else {
            terms.is_zero(a)
        };
        self.done.insert(key, t);
        t
    }

    /// `ite(c, a, b)` with a tree condition split on the tree's own
    /// condition (its leaves then pick `a` or `b`).
    fn ite(&mut self, terms: &mut Terms, c: TermId, a: TermId, b: TermId) -> TermId {
        let key = (Folded::Ite, c, a, b);
        if let Some(&t) = self.done.get(&key) {
            return t;
        }
        let t = if self.leaves(terms, c).is_some_and(|n| n <= self.limit)
            && let Node::Ite(d, c1, c2) = terms.node(c)
        {
            terms.by(Rule::PushCondition);
            let yes = self.ite(terms, c1, a, b);
            let no = self.ite(terms, c2, a, b);
            terms.ite(d, yes, no)
        } else {
            terms.ite(c, a, b)
        };
        self.done.insert(key, t);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold_and_shifts_combine() {
        let mut t = Terms::new();
        let x = t.var("x");
        let four = t.small(4);
        let s1 = t.bin(Bin::Shr, x, four);
        let s2 = t.bin(Bin::Shr, s1, four);
        let eight = t.small(8);
        assert_eq!(s2, t.bin(Bin::Shr, x, eight));
        let big = t.small(300);
        assert_eq!(t.bin(Bin::Shl, x, big), t.small(0));
    }

    #[test]
    fn known_top_bits_decide_a_selector_comparison() {
        // (0x41161b10 << 224 | x >> 32) >> 224 folds to the selector.
        let mut t = Terms::new();
        let x = t.var("x");
        let k32 = t.small(32);
        let low = t.bin(Bin::Shr, x, k32);
        let sel = t.constant(U256::from(0x41161b10u64) << 224);
        let word = t.bin(Bin::Or, sel, low);
        let k224 = t.small(224);
        let top = t.bin(Bin::Shr, word, k224);
        assert_eq!(t.as_const(top), Some(U256::from(0x41161b10u64)));
    }

    #[test]
    fn rejoining_guards_simplify_to_the_parent() {
        let mut t = Terms::new();
        let x = t.var("x");
        let y = t.var("y");
        let g = t.to_bool(x);
        let c = t.to_bool(y);
        let nc = t.is_zero(y);
        let a = t.and_bool(g, c);
        let b = t.and_bool(g, nc);
        assert_eq!(t.or_bool(a, b), g);
    }

    #[test]
    fn a_remainder_is_below_its_divisor() {
        let mut t = Terms::new();
        let x = t.var("x");
        let c64 = t.small(64);
        let cell = t.bin(Bin::Mod, x, c64);
        assert_eq!(t.known(cell).max(), U256::from(63u8));
        let c65 = t.small(65);
        let inside = t.bin(Bin::Lt, cell, c65);
        assert_eq!(t.as_const(inside), Some(U256::from(1u8)));
    }

    /// solc's overflow check of `3 * 16 ** cell`, `(p * 3) / 3 == p`, is a
    /// 256-bit division circuit as it stands; folded over the 64 values of
    /// the cell it is the constant 1. Folding changes no value.
    #[test]
    fn folding_a_checked_product_over_a_small_cell_decides_it() {
        let mut t = Terms::new();
        let x = t.var("x");
        let c63 = t.small(63);
        let cell = t.bin(Bin::And, x, c63);
        let two = t.small(2);
        let four_cell = t.bin(Bin::Shl, cell, two);
        let one = t.small(1);
        let power = t.bin(Bin::Shl, one, four_cell);
        let three = t.small(3);
        let product = t.bin(Bin::Mul, power, three);
        let back = t.bin(Bin::Div, product, three);
        let check = t.bin(Bin::Eq, back, power);
        assert!(t.as_const(check).is_none());
        let folded = t.fold_constant_ites(check, 256);
        assert_eq!(t.as_const(folded), Some(U256::from(1u8)));
        let sum = t.bin(Bin::Add, product, x);
        let folded = t.fold_constant_ites(sum, 256);
        assert!(matches!(t.node(folded), Node::Bin(Bin::Add, _, _)));
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = [U256::from(rng) << (rng % 200)];
            assert_eq!(t.eval(folded, &v), t.eval(sum, &v));
        }
    }
}

//! Every rewrite of the term simplifier ([`crate::term`]), stated once as
//! data: a left-hand side, the right-hand side it becomes, and the side
//! conditions under which it may. The simplifier names the [`Rule`] at each
//! place it rewrites, and a [`Rule`] exists only as a row of [`RULES`], so
//! the table is the whole list; `tests/rules.rs` asks the SMT solver to
//! prove every row a 256-bit identity (Alive-style).
//!
//! # The pattern language
//!
//! S-expressions over EVM words, each 256 bits:
//! - a name (`x`, `c`, `k`, …) is a free word; a number (decimal, `0x` hex)
//!   or `max` (2^256 - 1) is a constant;
//! - `(add a b)` `(sub a b)` `(mul a b)` `(div a b)` `(sdiv a b)` `(mod a b)`
//!   `(smod a b)` `(lt a b)` `(slt a b)` `(eq a b)` `(and a b)` `(or a b)`
//!   `(xor a b)` are the [`Bin`] operators (EVM semantics: division by 0
//!   gives 0, comparisons give 0 or 1); `(shl a k)` `(shr a k)` `(sar a k)`
//!   shift `a` by `k` (the operand order of [`Bin::Shl`], not of the
//!   opcode);
//! - `(not a)`, `(iszero a)`, `(ite c a b)` (`a` if `c` is non-zero);
//! - `(byte i x)`: EVM `BYTE`, spelled for the check as
//!   `(ite (lt i 32) (shr (shl x (mul i 8)) 248) 0)`;
//! - `(op a b)`: any binary operator; a rule using it is checked once for
//!   each [`Bin`] operator.
//!
//! After the sides, `split "c"` has the check prove the rule once with `c`
//! zero and once with it non-zero (an if-then-else the solver finds costly
//! as a whole), and `each "k"` once for every value of `k` below 256 (a
//! word that is a constant below 256 wherever the rule is applied).
//!
//! A side condition holds when its word is non-zero. Conditions on what the
//! simplifier knows of a term (its known bits, [`crate::term::Known`]) are
//! stated on its value with extra free words: "`z` has a 1 where `x` is
//! surely 0" is `(iszero (and x z))`. That the known bits are right is
//! checked on its own (`tests/rules.rs`: known bits against evaluation).
//!
//! A rule whose right-hand side is `value` is constant folding: the
//! operator applied to constants by [`Bin::eval`] (or Rust's `!`, or a
//! test for zero); the check compares that evaluation with the solver's
//! semantics of the operator on edge constants.

use std::collections::HashMap;

use octoku_core::U256;

use crate::term::{Bin, Node, TermId, Terms};

/// Why a rule's pattern does not spell a term (a typo in [`RULES`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The pattern stops inside a term.
    #[error("the pattern ends early")]
    EndsEarly,
    /// A whole term, then more text.
    #[error("{0:?}: text after the term")]
    TextAfter(String),
    /// An operator with the wrong number of operands.
    #[error("{head} takes {takes} operands, got {got}")]
    Arity {
        /// The operator.
        head: String,
        /// Its operands.
        takes: usize,
        /// The operands written.
        got: usize,
    },
    /// `op` in a rule checked for no operator.
    #[error("`op` in a pattern with no operator given")]
    NoOperator,
    /// A head that is no operator of the language.
    #[error("unknown operator {0:?}")]
    UnknownOperator(String),
    /// A constant that does not fit in or does not read as a word.
    #[error("{token}: {source}")]
    Number {
        /// The token.
        token: String,
        /// ruint's error.
        source: alloy_primitives::ruint::ParseError,
    },
    /// A parenthesis where a name or a constant belongs.
    #[error("unexpected {0:?}")]
    Unexpected(String),
}

/// One row of [`RULES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleDef {
    /// The rule.
    pub rule: Rule,
    /// Its name in reports.
    pub name: &'static str,
    /// The term the simplifier rewrites.
    pub lhs: &'static str,
    /// The term it becomes (`value` for constant folding).
    pub rhs: &'static str,
    /// The conditions under which it may (each a word that must be
    /// non-zero).
    pub sides: &'static [&'static str],
    /// Words the check splits on: each case (the word 0, the word not 0)
    /// is its own query (the cases cover every value).
    pub split: &'static [&'static str],
    /// Words that are constants below 256 wherever the simplifier applies
    /// the rule (its side conditions say so): the check tries each value.
    pub each: &'static [&'static str],
}

macro_rules! rules {
    ($($(#[doc = $doc:literal])+ $id:ident: $lhs:literal => $rhs:literal
       $(if $($side:literal),+)? $(split $($split:literal),+)? $(each $($each:literal),+)?;)*) => {
        /// A rewrite of the simplifier: a row of [`RULES`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Rule {
            $($(#[doc = $doc])+ $id,)*
        }

        /// Every rewrite the simplifier may make, in [`Rule`] order.
        pub const RULES: &[RuleDef] = &[
            $(RuleDef {
                rule: Rule::$id,
                name: stringify!($id),
                lhs: $lhs,
                rhs: $rhs,
                sides: &[$($($side),+)?],
                split: &[$($($split),+)?],
                each: &[$($($each),+)?],
            },)*
        ];
    };
}

rules! {
    /// Constants combine: a binary operator on two constants.
    FoldBin: "(op c d)" => "value";
    /// Constants combine: not of a constant.
    FoldNot: "(not c)" => "value";
    /// Constants combine: iszero of a constant.
    FoldIsZero: "(iszero c)" => "value";
    /// A term whose every bit is known is that constant (`z`: its known
    /// zeros, `o`: its known ones).
    KnownValue: "x" => "o" if "(iszero (and x z))", "(eq (and x o) o)", "(eq (or z o) max)";
    /// Commutative operators take their operands in one order.
    CommuteAdd: "(add x y)" => "(add y x)";
    /// Commutative operators take their operands in one order.
    CommuteMul: "(mul x y)" => "(mul y x)";
    /// Commutative operators take their operands in one order.
    CommuteEq: "(eq x y)" => "(eq y x)";
    /// Commutative operators take their operands in one order.
    CommuteAnd: "(and x y)" => "(and y x)";
    /// Commutative operators take their operands in one order.
    CommuteOr: "(or x y)" => "(or y x)";
    /// Commutative operators take their operands in one order.
    CommuteXor: "(xor x y)" => "(xor y x)";
    /// x + 0.
    AddZero: "(add x 0)" => "x";
    /// x - 0.
    SubZero: "(sub x 0)" => "x";
    /// x - x.
    SubSelf: "(sub x x)" => "0";
    /// x * 0.
    MulZero: "(mul x 0)" => "0";
    /// x * 1.
    MulOne: "(mul x 1)" => "x";
    /// A product by a power of two is a shift.
    MulPowerOfTwo: "(mul x (shl 1 k))" => "(shl x k)" if "(lt k 256)" each "k";
    /// x / 1.
    DivOne: "(div x 1)" => "x";
    /// A quotient by a power of two is a shift.
    DivPowerOfTwo: "(div x (shl 1 k))" => "(shr x k)" if "(lt k 256)" each "k";
    /// x & x.
    AndSelf: "(and x x)" => "x";
    /// A constant mask that keeps every bit of x that may be set.
    AndMask: "(and x c)" => "x" if "(iszero (and x (not c)))";
    /// Operands with no bit that may be set in both (`z1`, `z2`: their
    /// known zeros).
    AndDisjoint: "(and x y)" => "0" if "(iszero (and x z1))", "(iszero (and y z2))", "(eq (or z1 z2) max)";
    /// x | x.
    OrSelf: "(or x x)" => "x";
    /// x | 0.
    OrZero: "(or x 0)" => "x";
    /// Two guards rejoining, `y` 0/1 (x any word); also with the operands
    /// of either `and` or of the `or` swapped, or `y` = iszero(v).
    OrComplement: "(or (and x y) (and x (iszero y)))" => "(and x 1)" if "(lt y 2)";
    /// x ^ x.
    XorSelf: "(xor x x)" => "0";
    /// x ^ 0.
    XorZero: "(xor x 0)" => "x";
    /// x = x.
    EqSelf: "(eq x x)" => "1";
    /// A bit known 1 in one operand and 0 in the other (`o`: known ones,
    /// `z`: known zeros).
    EqKnownDiffer: "(eq x y)" => "0" if "(eq (and x o1) o1)", "(iszero (and x z1))", "(eq (and y o2) o2)", "(iszero (and y z2))", "(or (and o1 z2) (and z1 o2))";
    /// x = 0.
    EqZero: "(eq x 0)" => "(iszero x)";
    /// The largest value of x (`a`) is below the smallest of y (`b`).
    LtBelow: "(lt x y)" => "1" if "(iszero (lt a x))", "(iszero (lt y b))", "(lt a b)";
    /// The smallest value of x (`a`) is at least the largest of y (`b`).
    LtAbove: "(lt x y)" => "0" if "(iszero (lt x a))", "(iszero (lt b y))", "(iszero (lt a b))";
    /// A shift by 0.
    ShlZero: "(shl x 0)" => "x";
    /// A shift by 0.
    ShrZero: "(shr x 0)" => "x";
    /// A shift by 0.
    SarZero: "(sar x 0)" => "x";
    /// A left shift by 256 or more.
    ShlFar: "(shl x k)" => "0" if "(iszero (lt k 256))";
    /// A right shift by 256 or more.
    ShrFar: "(shr x k)" => "0" if "(iszero (lt k 256))";
    /// Two constant left shifts below 256 add up.
    ShlShl: "(shl (shl x j) k)" => "(shl x (add j k))" if "(lt j 256)", "(lt k 256)" each "j", "k";
    /// Two constant right shifts below 256 add up.
    ShrShr: "(shr (shr x j) k)" => "(shr x (add j k))" if "(lt j 256)", "(lt k 256)" each "j", "k";
    /// not(not(x)).
    NotNot: "(not (not x))" => "x";
    /// A term with a bit known to be 1 (`o`) is not zero.
    IsZeroKnownNonZero: "(iszero x)" => "0" if "(eq (and x o) o)", "o";
    /// Three iszero are one.
    IsZeroThrice: "(iszero (iszero (iszero x)))" => "(iszero x)";
    /// A 0/1 term as a condition is itself.
    BoolOfBool: "(iszero (iszero x))" => "x" if "(lt x 2)";
    /// BYTE at an index of 32 or more.
    ByteFar: "(byte i x)" => "0" if "(iszero (lt i 32))";
    /// BYTE as a shift and a mask, guarded by the index.
    ByteShift: "(byte i x)" => "(ite (lt i 32) (and (shr x (sub 248 (mul i 8))) 255) 0)";
    /// Both sides alike.
    IteSame: "(ite c a a)" => "a";
    /// A condition with a bit known to be 1 (`o`).
    IteKnownTrue: "(ite c a b)" => "a" if "(eq (and c o) o)", "o";
    /// A condition known to be 0.
    IteKnownFalse: "(ite c a b)" => "b" if "(iszero c)";
    /// A negated condition swaps the sides.
    IteNegated: "(ite (iszero x) a b)" => "(ite x b a)";
    /// ite(c, 1, 0) is c as 0/1.
    IteOneZero: "(ite c 1 0)" => "(iszero (iszero c))";
    /// ite(c, 0, 1) is iszero(c).
    IteZeroOne: "(ite c 0 1)" => "(iszero c)";
    /// The same condition nested in the then side.
    IteNestedThen: "(ite c (ite c a1 a2) b)" => "(ite c a1 b)";
    /// The same condition nested in the else side.
    IteNestedElse: "(ite c a (ite c b1 b2))" => "(ite c a b2)";
    /// A condition is kept as 0/1.
    IteBoolCondition: "(ite c a b)" => "(ite (iszero (iszero c)) a b)";
    /// Folding if-then-else trees: an operator into the first operand's
    /// sides.
    PushLeft: "(op (ite c a1 a2) b)" => "(ite c (op a1 b) (op a2 b))" split "c";
    /// Folding if-then-else trees: an operator into the second operand's
    /// sides.
    PushRight: "(op a (ite c b1 b2))" => "(ite c (op a b1) (op a b2))" split "c";
    /// Folding if-then-else trees: two trees on the same condition side by
    /// side.
    PushBoth: "(op (ite c a1 a2) (ite c b1 b2))" => "(ite c (op a1 b1) (op a2 b2))" split "c";
    /// Folding if-then-else trees: not into the sides.
    PushNot: "(not (ite c a b))" => "(ite c (not a) (not b))" split "c";
    /// Folding if-then-else trees: iszero into the sides.
    PushIsZero: "(iszero (ite c a b))" => "(ite c (iszero a) (iszero b))" split "c";
    /// Folding if-then-else trees: a tree as a condition.
    PushCondition: "(ite (ite d c1 c2) a b)" => "(ite d (ite c1 a b) (ite c2 a b))" split "d";
    /// Folding if-then-else trees: a term with few unknown bits as the tree
    /// of its values, one bit `i` at a time.
    SplitOnBit: "x" => "(ite (and (shr x i) 1) (or x (shl 1 i)) (and x (not (shl 1 i))))" if "(lt i 256)";
}

impl Rule {
    /// The row of [`RULES`] for this rule.
    pub fn def(self) -> &'static RuleDef {
        &RULES[self as usize]
    }
}

/// Every binary operator, for rules over `op`.
pub const ALL_BIN: [Bin; 16] = [
    Bin::Add,
    Bin::Sub,
    Bin::Mul,
    Bin::Div,
    Bin::SDiv,
    Bin::Mod,
    Bin::SMod,
    Bin::Lt,
    Bin::Slt,
    Bin::Eq,
    Bin::And,
    Bin::Or,
    Bin::Xor,
    Bin::Shl,
    Bin::Shr,
    Bin::Sar,
];

/// The binary operator a pattern name spells.
fn bin_named(name: &str) -> Option<Bin> {
    Some(match name {
        "add" => Bin::Add,
        "sub" => Bin::Sub,
        "mul" => Bin::Mul,
        "div" => Bin::Div,
        "sdiv" => Bin::SDiv,
        "mod" => Bin::Mod,
        "smod" => Bin::SMod,
        "lt" => Bin::Lt,
        "slt" => Bin::Slt,
        "eq" => Bin::Eq,
        "and" => Bin::And,
        "or" => Bin::Or,
        "xor" => Bin::Xor,
        "shl" => Bin::Shl,
        "shr" => Bin::Shr,
        "sar" => Bin::Sar,
        _ => return None,
    })
}

/// A pattern parsed into `terms` as it is written ([`Terms::raw`]: no
/// simplification): free names become the variables of `terms` of that
/// name, `op` the operator the builder is given.
pub struct Builder<'a> {
    terms: &'a mut Terms,
    op: Option<Bin>,
    names: HashMap<String, TermId>,
}

impl<'a> Builder<'a> {
    /// A builder into `terms`, with `op` standing for the pattern's `op`.
    pub fn new(terms: &'a mut Terms, op: Option<Bin>) -> Builder<'a> {
        Builder {
            terms,
            op,
            names: HashMap::new(),
        }
    }

    /// Binds `name` to the constant `value` in the terms built after.
    pub fn bind(&mut self, name: &str, value: U256) {
        let c = self.terms.raw(Node::Const(value));
        self.names.insert(name.to_string(), c);
    }

    /// The term `text` spells.
    pub fn term(&mut self, text: &str) -> Result<TermId, PatternError> {
        let tokens: Vec<String> = text
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let mut at = 0;
        let t = self.parse(&tokens, &mut at)?;
        if at != tokens.len() {
            return Err(PatternError::TextAfter(text.to_owned()));
        }
        Ok(t)
    }

    fn parse(&mut self, tokens: &[String], at: &mut usize) -> Result<TermId, PatternError> {
        let token = tokens.get(*at).ok_or(PatternError::EndsEarly)?.clone();
        *at += 1;
        if token != "(" {
            return self.leaf(&token);
        }
        let head = tokens.get(*at).ok_or(PatternError::EndsEarly)?.clone();
        *at += 1;
        let mut args = Vec::new();
        while tokens.get(*at).map(String::as_str) != Some(")") {
            args.push(self.parse(tokens, at)?);
        }
        *at += 1;
        let t = &mut *self.terms;
        let arity = |n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                Err(PatternError::Arity {
                    head: head.clone(),
                    takes: n,
                    got: args.len(),
                })
            }
        };
        let bin = if head == "op" {
            Some(self.op.ok_or(PatternError::NoOperator)?)
        } else {
            bin_named(&head)
        };
        if let Some(op) = bin {
            arity(2)?;
            return Ok(t.raw(Node::Bin(op, args[0], args[1])));
        }
        match head.as_str() {
            "not" => {
                arity(1)?;
                Ok(t.raw(Node::Not(args[0])))
            }
            "iszero" => {
                arity(1)?;
                Ok(t.raw(Node::IsZero(args[0])))
            }
            "ite" => {
                arity(3)?;
                Ok(t.raw(Node::Ite(args[0], args[1], args[2])))
            }
            "byte" => {
                arity(2)?;
                let (i, x) = (args[0], args[1]);
                let eight = t.raw(Node::Const(U256::from(8u8)));
                let up = t.raw(Node::Bin(Bin::Mul, i, eight));
                let shifted = t.raw(Node::Bin(Bin::Shl, x, up));
                let c248 = t.raw(Node::Const(U256::from(248u8)));
                let top = t.raw(Node::Bin(Bin::Shr, shifted, c248));
                let c32 = t.raw(Node::Const(U256::from(32u8)));
                let inside = t.raw(Node::Bin(Bin::Lt, i, c32));
                let zero = t.raw(Node::Const(U256::ZERO));
                Ok(t.raw(Node::Ite(inside, top, zero)))
            }
            _ => Err(PatternError::UnknownOperator(head)),
        }
    }

    fn leaf(&mut self, token: &str) -> Result<TermId, PatternError> {
        let number = |source| PatternError::Number {
            token: token.to_owned(),
            source,
        };
        let constant = if token == "max" {
            Some(U256::MAX)
        } else if let Some(hex) = token.strip_prefix("0x") {
            Some(U256::from_str_radix(hex, 16).map_err(number)?)
        } else if token.starts_with(|c: char| c.is_ascii_digit()) {
            Some(U256::from_str_radix(token, 10).map_err(number)?)
        } else {
            None
        };
        if let Some(c) = constant {
            return Ok(self.terms.raw(Node::Const(c)));
        }
        if token == ")" || token == "(" {
            return Err(PatternError::Unexpected(token.to_owned()));
        }
        if let Some(&t) = self.names.get(token) {
            return Ok(t);
        }
        let t = self.terms.var_shared(token);
        self.names.insert(token.to_string(), t);
        Ok(t)
    }
}

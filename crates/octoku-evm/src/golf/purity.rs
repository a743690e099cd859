//! Curta Golf's purity rule (its `PurityChecker.check(code, allowedOpcodes)`):
//! bit `op` of a 256-bit mask allows opcode `op`; code is pure when every
//! byte read as an opcode is allowed. Bytes are read one by one from the
//! start, and the 1 to 32 data bytes after a PUSH1..PUSH32 (0x60..0x7f) are
//! skipped; everything else is an opcode, data sections and the runtime
//! embedded in creation code included. CurtaGolf checks the submitted
//! creation code and the runtime code it deploys.

use alloy_primitives::U256;
use serde::{Deserialize, Serialize};

/// A 256-bit set of allowed opcodes (bit `op` allows opcode `op`), as
/// `CurtaGolf.getAllowedOpcodes(courseId)` holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opcodes(pub U256);

/// Opcodes the courses of `contracts/golf/` forbid: everything that reads
/// the world outside the call (balances, other code, block and transaction
/// data, storage, gas left) or acts on it (logs, calls, creation,
/// self-destruct). A verify needs none of them; a solution that calls the
/// reference or reads what the course stored could pass without computing.
pub const FORBIDDEN: &[(u8, &str)] = &[
    (0x31, "BALANCE"),
    (0x32, "ORIGIN"),
    (0x3a, "GASPRICE"),
    (0x3b, "EXTCODESIZE"),
    (0x3c, "EXTCODECOPY"),
    (0x3f, "EXTCODEHASH"),
    (0x40, "BLOCKHASH"),
    (0x41, "COINBASE"),
    (0x42, "TIMESTAMP"),
    (0x43, "NUMBER"),
    (0x44, "PREVRANDAO"),
    (0x45, "GASLIMIT"),
    (0x46, "CHAINID"),
    (0x47, "SELFBALANCE"),
    (0x48, "BASEFEE"),
    (0x49, "BLOBHASH"),
    (0x4a, "BLOBBASEFEE"),
    (0x54, "SLOAD"),
    (0x55, "SSTORE"),
    (0x5a, "GAS"),
    (0x5c, "TLOAD"),
    (0x5d, "TSTORE"),
    (0xa0, "LOG0"),
    (0xa1, "LOG1"),
    (0xa2, "LOG2"),
    (0xa3, "LOG3"),
    (0xa4, "LOG4"),
    (0xf0, "CREATE"),
    (0xf1, "CALL"),
    (0xf2, "CALLCODE"),
    (0xf4, "DELEGATECALL"),
    (0xf5, "CREATE2"),
    (0xfa, "STATICCALL"),
    (0xff, "SELFDESTRUCT"),
];

/// The first byte read as an opcode that the mask does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Impurity {
    /// Its offset in the code.
    pub offset: usize,
    /// The byte.
    pub opcode: u8,
}

impl Impurity {
    /// The opcode's mnemonic when it is one the courses forbid, else its hex.
    pub fn name(&self) -> String {
        FORBIDDEN
            .iter()
            .find(|(op, _)| *op == self.opcode)
            .map(|(_, name)| (*name).to_string())
            .unwrap_or_else(|| format!("0x{:02x}", self.opcode))
    }
}

impl Opcodes {
    /// Every opcode allowed (the mask Curta Golf's own tests use).
    pub const ALL: Opcodes = Opcodes(U256::MAX);

    /// The mask of `contracts/golf/`'s courses: every opcode but [`FORBIDDEN`].
    pub fn courses() -> Opcodes {
        let mut mask = U256::MAX;
        for (op, _) in FORBIDDEN {
            mask.set_bit(usize::from(*op), false);
        }
        Opcodes(mask)
    }

    /// Whether opcode `op` is allowed.
    pub fn allows(&self, op: u8) -> bool {
        self.0.bit(usize::from(op))
    }

    /// The first byte of `code` read as an opcode that is not allowed
    /// (`None`: the code is pure), by Curta Golf's rule above.
    pub fn first_impurity(&self, code: &[u8]) -> Option<Impurity> {
        let mut offset = 0;
        while let Some(&opcode) = code.get(offset) {
            if !self.allows(opcode) {
                return Some(Impurity { offset, opcode });
            }
            offset += 1;
            if (0x60..=0x7f).contains(&opcode) {
                offset += usize::from(opcode - 0x5f);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_data_is_skipped_and_other_bytes_are_opcodes() {
        let mask = Opcodes::courses();
        // PUSH1 0x54 (SLOAD as data) then STOP: pure.
        assert_eq!(mask.first_impurity(&[0x60, 0x54, 0x00]), None);
        // PUSH2 0x5a5a then SLOAD at offset 3.
        assert_eq!(
            mask.first_impurity(&[0x61, 0x5a, 0x5a, 0x54]),
            Some(Impurity {
                offset: 3,
                opcode: 0x54
            })
        );
        // A PUSH32 whose data runs past the end hides nothing after it.
        assert_eq!(mask.first_impurity(&[0x7f, 0xf1]), None);
        assert_eq!(mask.first_impurity(&[]), None);
        assert_eq!(Opcodes::ALL.first_impurity(&[0xff, 0xf1]), None);
    }

    #[test]
    fn the_courses_mask_forbids_exactly_the_listed_opcodes() {
        let mask = Opcodes::courses();
        let denied: Vec<u8> = (0..=255u8).filter(|op| !mask.allows(*op)).collect();
        let listed: Vec<u8> = FORBIDDEN.iter().map(|(op, _)| *op).collect();
        assert_eq!(denied, listed);
    }

    #[test]
    fn the_built_in_implementations_are_pure_for_the_courses() {
        use crate::artifacts::{CLASSIC9_GOLF, CLASSIC9_REFERENCE, GOLF, LOOP_PUZZLE, REFERENCE};
        let mask = Opcodes::courses();
        for a in [
            REFERENCE,
            GOLF,
            LOOP_PUZZLE,
            CLASSIC9_REFERENCE,
            CLASSIC9_GOLF,
        ] {
            assert_eq!(mask.first_impurity(a.initcode), None, "{} initcode", a.name);
            assert_eq!(mask.first_impurity(a.runtime), None, "{} runtime", a.name);
        }
    }
}

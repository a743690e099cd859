//! Courses, commits and submissions.

use alloy_primitives::{Address, B256, Bytes, U256, keccak256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};
use octoku_evm::golf::{Course, Opcodes};

use super::ICurtaGolf;
use crate::{Chain, ChainError, Receipt, arena::call};

/// Seconds of chain time between a commit and its submit
/// (`CurtaGolf.MIN_COMMIT_AGE`): a submit needs
/// `block.timestamp >= commit.timestamp + 60`.
pub const MIN_COMMIT_AGE: u64 = 60;

/// Percent added to the node's gas estimate of a submit (no --gas-limit).
pub const SUBMIT_GAS_MARGIN: u64 = 50;

/// The commit key of `submitter` (the later `submit`'s sender) for the
/// creation code `initcode` and `salt`: `keccak256(abi.encode(submitter,
/// initcode, salt))`.
pub fn commit_key(submitter: Address, initcode: &[u8], salt: U256) -> B256 {
    keccak256((submitter, Bytes::copy_from_slice(initcode), salt).abi_encode_params())
}

/// A course as CurtaGolf holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CourseInfo {
    /// Its id.
    pub id: u32,
    /// The course contract.
    pub course: Address,
    /// The King's gas (0: no solution yet).
    pub gas_used: u32,
    /// Solutions accepted.
    pub solution_count: u32,
    /// Times the King changed.
    pub king_count: u32,
    /// The opcodes its solutions may use.
    pub allowed: Opcodes,
}

/// A course added.
#[derive(Debug, Clone)]
pub struct Added {
    /// The new course id.
    pub id: u32,
    /// The `addCourse` transaction.
    pub receipt: Receipt,
}

/// A solution accepted.
#[derive(Debug, Clone)]
pub struct Submitted {
    /// The gas the course metered.
    pub gas_used: u32,
    /// Whether it took the King (an `UpdateKing` event).
    pub king: bool,
    /// Where CurtaGolf deployed it.
    pub target: Address,
    /// The `submit` transaction.
    pub receipt: Receipt,
}

/// Checks that `golf` is Curta Golf: it holds code ([`ChainError::NoCode`])
/// and answers `courseId()` and `purityChecker()`. Returns the latest
/// course id.
pub fn require_curta_golf(chain: &mut Chain, golf: Address) -> Result<u32, ChainError> {
    chain.require_code(golf)?;
    let not_golf = |e: ChainError| match e {
        e if e.is_no_answer() => ChainError::Unexpected(format!(
            "{golf} does not answer courseId() and purityChecker(): expected a Curta Golf contract"
        )),
        other => other,
    };
    call(chain, golf, &ICurtaGolf::purityCheckerCall {}).map_err(not_golf)?;
    call(chain, golf, &ICurtaGolf::courseIdCall {}).map_err(not_golf)
}

/// Course `id`, `None` when there is none.
pub fn course(chain: &mut Chain, golf: Address, id: u32) -> Result<Option<CourseInfo>, ChainError> {
    let c = call(chain, golf, &ICurtaGolf::getCourseCall { courseId: id })?;
    if c.course.is_zero() {
        return Ok(None);
    }
    let allowed = call(
        chain,
        golf,
        &ICurtaGolf::getAllowedOpcodesCall { courseId: id },
    )?;
    Ok(Some(CourseInfo {
        id,
        course: c.course,
        gas_used: c.gasUsed,
        solution_count: c.solutionCount,
        king_count: c.kingCount,
        allowed: Opcodes(allowed),
    }))
}

/// Deploys the built-in `course` contract (its constructor deploys its
/// reference); `contract_address` is the course.
pub fn deploy_course(chain: &mut Chain, course: Course) -> Result<Receipt, ChainError> {
    chain.deploy(Bytes::from_static(course.artifact().initcode))
}

/// Sends `addCourse(course, allowed)` (simulated first; owner only) and
/// reads the new id from the `AddCourse` event.
pub fn add_course(
    chain: &mut Chain,
    golf: Address,
    course: Address,
    allowed: Opcodes,
) -> Result<Added, ChainError> {
    let data = ICurtaGolf::addCourseCall {
        course,
        allowedOpcodes: allowed.0,
    }
    .abi_encode();
    let receipt = chain.send(golf, data.into())?;
    let event: ICurtaGolf::AddCourse = receipt.event(golf)?;
    Ok(Added {
        id: event.id,
        receipt,
    })
}

/// Sends `commit(key)` (simulated first).
pub fn commit(chain: &mut Chain, golf: Address, key: B256) -> Result<Receipt, ChainError> {
    let receipt = chain.send(golf, ICurtaGolf::commitCall { key }.abi_encode().into())?;
    let _: ICurtaGolf::CommitSolution = receipt.event(golf)?;
    Ok(receipt)
}

/// Who committed `key` and at what chain time; `None` when nobody did.
pub fn get_commit(
    chain: &mut Chain,
    golf: Address,
    key: B256,
) -> Result<Option<(Address, u64)>, ChainError> {
    let c = call(chain, golf, &ICurtaGolf::getCommitCall { key })?;
    Ok((!c.player.is_zero()).then(|| (c.player, c.timestamp.to::<u64>())))
}

/// Sends `submit(id, initcode, recipient, salt)` (simulated first) and reads
/// the gas from `SubmitSolution`, the King from `UpdateKing`.
pub fn submit(
    chain: &mut Chain,
    golf: Address,
    id: u32,
    initcode: &[u8],
    recipient: Address,
    salt: U256,
) -> Result<Submitted, ChainError> {
    let data = ICurtaGolf::submitCall {
        courseId: id,
        solution: Bytes::copy_from_slice(initcode),
        recipient,
        salt,
    }
    .abi_encode();
    // The course runs on the block's prevrandao: its gas varies from the
    // estimate's block to the mined one (the reference's 16 calls on the
    // 8x8 course: 283,090 to 350,926 over seeds 1..=4).
    let receipt = chain.send_padded(golf, data.into(), SUBMIT_GAS_MARGIN)?;
    let event: ICurtaGolf::SubmitSolution = receipt.event(golf)?;
    let king = receipt
        .logs
        .iter()
        .filter(|log| log.address == golf)
        .any(|log| ICurtaGolf::UpdateKing::decode_log(log).is_ok());
    Ok(Submitted {
        gas_used: event.gasUsed,
        king,
        target: event.target,
        receipt,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key is abi.encode's layout: the address word, the offset of the
    /// bytes (0x60), the salt, then the length and the padded bytes.
    #[test]
    fn the_commit_key_hashes_abi_encode_of_submitter_initcode_salt() {
        let submitter = Address::repeat_byte(0x11);
        let mut encoded = vec![0u8; 12];
        encoded.extend_from_slice(submitter.as_slice());
        encoded.extend_from_slice(&U256::from(0x60).to_be_bytes::<32>());
        encoded.extend_from_slice(&U256::from(7).to_be_bytes::<32>());
        encoded.extend_from_slice(&U256::from(3).to_be_bytes::<32>());
        let mut data = [0u8; 32];
        data[..3].copy_from_slice(&[0x60, 0x01, 0x00]);
        encoded.extend_from_slice(&data);
        assert_eq!(
            commit_key(submitter, &[0x60, 0x01, 0x00], U256::from(7)),
            keccak256(&encoded)
        );
    }
}

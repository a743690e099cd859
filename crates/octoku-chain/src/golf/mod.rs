//! Curta Golf (waterfall-mkt/curta-golf): typed calls on a [`Chain`](crate::Chain) for
//! what `octoku golf` does. The owner adds a course with the opcodes its
//! solutions may use; a golfer commits `keccak256(abi.encode(submitter,
//! initcode, salt))`, waits [`MIN_COMMIT_AGE`] seconds of chain time, then
//! submits the creation code and the salt: CurtaGolf checks the purity of
//! the creation code and of the runtime it deploys, runs the course on it
//! (`course.run(target, block.prevrandao)`), and the cheapest solution of a
//! course holds its King token (token id = course id).
//!
//! The interface below is written from Curta Golf's ABI; only what octoku
//! calls. Local checks (purity, the course's meter) are octoku-evm's
//! `golf`; the resumable commit state is [`pending`].

pub mod board;
pub mod pending;
pub mod play;

pub use board::{KingChange, Leaderboard, leaderboard};
pub use pending::Pending;
pub use play::{
    Added, CourseInfo, MIN_COMMIT_AGE, Submitted, add_course, commit, commit_key, course,
    deploy_course, get_commit, require_curta_golf, submit,
};

use super::Revert;

alloy_sol_types::sol! {
    /// Curta Golf: courses, commits and submissions, a King token per course.
    interface ICurtaGolf {
        /// A zero address was given where a contract was expected.
        error AddressIsZeroAddress();
        /// The commit is younger than 60 seconds of chain time.
        error CommitTooNew(bytes32 key);
        /// No course has this id.
        error CourseDoesNotExist(uint32 id);
        /// The key is already committed (commits are never deleted).
        error KeyAlreadyCommitted(bytes32 key);
        /// No commit holds this key (wrong submitter, initcode or salt).
        error KeyNotCommitted(bytes32 key);
        /// The creation code or the runtime it deployed uses an opcode the course forbids.
        error PollutedSolution();
        /// The caller may not do this.
        error Unauthorized();
        /// The course said the solution answered wrong (ICourse's error).
        error IncorrectSolution();

        /// Course `id` was added.
        event AddCourse(uint32 indexed id, address indexed course);
        /// `player` committed `key`.
        event CommitSolution(address indexed player, bytes32 indexed key);
        /// A solution deployed at `target` passed course `courseId` using `gasUsed`.
        event SubmitSolution(uint32 indexed courseId, address indexed recipient, address target, uint32 indexed gasUsed);
        /// `recipient` is the new King of course `courseId` with `gasUsed`.
        event UpdateKing(uint32 indexed courseId, address indexed recipient, uint32 indexed gasUsed);

        /// Adds `course` whose solutions may use the opcodes of the bitmap (owner only).
        function addCourse(address course, uint256 allowedOpcodes) external;
        /// Commits a key for a later submit.
        function commit(bytes32 key) external;
        /// Submits the creation code of a solution committed with `salt`.
        function submit(uint32 courseId, bytes solution, address recipient, uint256 salt) external returns (uint32);
        /// The latest course id (0: none yet).
        function courseId() external view returns (uint32);
        /// A course, its best gas (0: none yet) and its counts.
        function getCourse(uint32 courseId) external view returns (address course, uint32 gasUsed, uint32 solutionCount, uint32 kingCount);
        /// Who committed `key` and when (seconds; 0: never).
        function getCommit(bytes32 key) external view returns (address player, uint96 timestamp);
        /// The opcodes course `courseId` allows.
        function getAllowedOpcodes(uint32 courseId) external view returns (uint256);
        /// The King of course `id` (token id = course id); reverts when none.
        function ownerOf(uint256 id) external view returns (address owner);
        /// The contract's owner (who may add courses).
        function owner() external view returns (address);
        /// The purity checker.
        function purityChecker() external view returns (address);
    }
}

/// Curta Golf's custom error in `revert`, by name and arguments
/// (`CommitTooNew(0x…)`); `None` for data that is none of them.
pub fn error_name(revert: &Revert) -> Option<String> {
    use ICurtaGolf::ICurtaGolfErrors as E;
    use alloy_sol_types::SolInterface;
    Some(match E::abi_decode(&revert.0).ok()? {
        E::AddressIsZeroAddress(_) => "AddressIsZeroAddress()".into(),
        E::CommitTooNew(e) => format!("CommitTooNew({})", e.key),
        E::CourseDoesNotExist(e) => format!("CourseDoesNotExist({})", e.id),
        E::KeyAlreadyCommitted(e) => format!("KeyAlreadyCommitted({})", e.key),
        E::KeyNotCommitted(e) => format!("KeyNotCommitted({})", e.key),
        E::PollutedSolution(_) => "PollutedSolution()".into(),
        E::Unauthorized(_) => "Unauthorized()".into(),
        E::IncorrectSolution(_) => "IncorrectSolution()".into(),
    })
}

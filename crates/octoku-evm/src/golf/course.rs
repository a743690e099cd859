//! The Curta Golf courses of `contracts/golf/` and what they meter: a
//! solution's creation code deployed in revm (as `CurtaGolf.submit` creates
//! it), then `course.run(target, seed)` called for each seed.

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::{SolCall, SolError};
use serde::{Deserialize, Serialize};

use crate::artifacts::{self, Artifact};
use crate::bindings::ICourse;
use crate::{EvmError, Machine};

/// Which course: the one course-kind type of `octoku golf` (`--kind`), the
/// JSON and the state file, spelled `verify8` or `classic9`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Course {
    /// `verify(uint256,uint256)` of the 8×8 puzzle (contracts/golf/VerifyCourse.sol).
    #[default]
    Verify8,
    /// `verify(bytes,bytes)` of the classic 9×9 validator
    /// (contracts/golf/Classic9Course.sol).
    Classic9,
}

impl Course {
    /// Both courses.
    pub const ALL: [Course; 2] = [Course::Verify8, Course::Classic9];

    /// The compiled course contract (its constructor deploys its reference).
    pub const fn artifact(self) -> Artifact {
        match self {
            Course::Verify8 => artifacts::VERIFY_COURSE,
            Course::Classic9 => artifacts::CLASSIC9_COURSE,
        }
    }

    /// The reference whose answers the course requires.
    pub const fn reference(self) -> Artifact {
        match self {
            Course::Verify8 => artifacts::REFERENCE,
            Course::Classic9 => artifacts::CLASSIC9_REFERENCE,
        }
    }

    /// The course's spelling on the command line.
    pub const fn label(self) -> &'static str {
        match self {
            Course::Verify8 => "verify8",
            Course::Classic9 => "classic9",
        }
    }

    /// The function a solution implements.
    pub const fn function(self) -> &'static str {
        match self {
            Course::Verify8 => "verify(uint256,uint256)",
            Course::Classic9 => "verify(bytes,bytes)",
        }
    }
}

/// What the course said for one seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum CourseRun {
    /// Every case answered as the reference: the gas metered.
    Passed {
        /// `run`'s return value: the solution's calls' gas, summed.
        gas: u32,
    },
    /// `IncorrectSolution()`: some case answered otherwise.
    Incorrect,
}

/// A solution measured on one seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Measured {
    /// The seed (`block.prevrandao` of the submit on chain).
    pub seed: U256,
    /// The course's verdict.
    #[serde(flatten)]
    pub run: CourseRun,
    /// The course's own gas around it: the whole `run` call's execution gas
    /// less what it metered (the cases drawn, the reference asked).
    pub course_gas: u64,
}

/// Deploys `course` and the solution `initcode` in a fresh revm and runs
/// the course on each seed: what `CurtaGolf.submit` would measure when its
/// block's `prevrandao` is that seed.
pub fn measure(course: Course, initcode: &[u8], seeds: &[U256]) -> Result<Vec<Measured>, EvmError> {
    let mut machine = Machine::new()?;
    let (at, _) = machine.deploy(course.artifact().initcode)?;
    let (target, _) = machine.deploy(initcode)?;
    if machine.code_at(target).is_empty() {
        return Err(EvmError::NoRuntime {
            label: "the solution".into(),
        });
    }
    seeds
        .iter()
        .map(|&seed| run(&mut machine, at, target, seed))
        .collect()
}

fn run(
    machine: &mut Machine,
    course: Address,
    target: Address,
    seed: U256,
) -> Result<Measured, EvmError> {
    let data = ICourse::runCall { target, seed }.abi_encode();
    let outcome = machine.call_raw(course, Bytes::from(data))?;
    if !outcome.success {
        if ICourse::IncorrectSolution::abi_decode(&outcome.output).is_ok() {
            return Ok(Measured {
                seed,
                run: CourseRun::Incorrect,
                course_gas: outcome.gas,
            });
        }
        return Err(EvmError::Reverted(outcome.output));
    }
    let gas =
        ICourse::runCall::abi_decode_returns(&outcome.output).map_err(EvmError::return_data)?;
    Ok(Measured {
        seed,
        run: CourseRun::Passed { gas },
        course_gas: outcome.gas - u64::from(gas),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures tests/GolfCourse.t.sol pins for seed 1 (forge meters the
    /// same calls): the course's meter is deterministic and the same here.
    #[test]
    fn seed_1_meters_what_the_forge_test_pins() {
        let one = [U256::from(1)];
        let at = |course, a: Artifact| match measure(course, a.initcode, &one).unwrap()[0].run {
            CourseRun::Passed { gas } => gas,
            CourseRun::Incorrect => panic!("{} refused", a.name),
        };
        assert_eq!(at(Course::Verify8, artifacts::REFERENCE), 283_090);
        assert_eq!(at(Course::Verify8, artifacts::GOLF), 15_136);
        assert_eq!(
            at(Course::Classic9, artifacts::CLASSIC9_REFERENCE),
            1_430_574
        );
        assert_eq!(at(Course::Classic9, artifacts::CLASSIC9_GOLF), 23_360);
    }

    #[test]
    fn a_solution_of_the_other_course_is_incorrect() {
        let m = measure(
            Course::Verify8,
            artifacts::CLASSIC9_GOLF.initcode,
            &[U256::from(7)],
        )
        .unwrap();
        assert_eq!(m[0].run, CourseRun::Incorrect);
    }
}

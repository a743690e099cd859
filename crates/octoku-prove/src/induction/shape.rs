//! Finding a known loop in other bytecode by what its states hold, not by
//! where it is.
//!
//! The *known* program (a test harness whose cut points and stack slots a
//! proof is written for) and the *target* (say, an author's IPuzzle) are run
//! concretely on the same sample seeds; the target stops at every JUMPDEST.
//! A known cut is found at the target's JUMPDEST whose visits, seed by
//! seed, are as many as the cut's and hold the cut's loop variables: for
//! each variable some stack slot equal to it on every visit. The lemmas are
//! then stated at the found program counters and slots, so nothing here is
//! trusted: a wrong match makes a lemma fail, never prove.

use std::collections::{BTreeMap, HashMap, HashSet};

use octoku_core::U256;

use super::{InductionError, Program, trace};
use crate::exec;

/// A cut point of the known program: its program counter, and how many stack
/// entries from the bottom hold its loop variables (all of its stack, as the
/// harnesses' fills keep nothing else there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownCut {
    /// Program counter in the known program.
    pub pc: usize,
    /// Stack slots 0..vars are the loop variables.
    pub vars: usize,
}

/// Where a known cut is in the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Program counter in the target.
    pub pc: usize,
    /// For each loop variable (the known cut's slot 0, 1, ..), the target's
    /// stack slot that holds it.
    pub slots: Vec<usize>,
}

/// Per program counter, per seed, the stacks of the visits in order.
type Visits = HashMap<usize, Vec<Vec<Vec<U256>>>>;

fn visits(
    program: Program<'_>,
    which: &'static str,
    seeds: &[U256],
    cuts: &HashSet<usize>,
) -> Result<Visits, InductionError> {
    let mut out: Visits = HashMap::new();
    for (k, &seed) in seeds.iter().enumerate() {
        let (states, _) =
            trace(program, seed, cuts).map_err(|error| InductionError::Exec { which, error })?;
        for st in states {
            let per_seed = out
                .entry(st.pc)
                .or_insert_with(|| vec![Vec::new(); seeds.len()]);
            per_seed[k].push(st.stack);
        }
    }
    Ok(out)
}

/// Finds each of `cuts` of `known` in `target` (see the module comment),
/// each at a different program counter: the found places in the order of
/// `cuts`, or the index of the first cut that no JUMPDEST of the target
/// matches.
pub fn find(
    known: Program<'_>,
    cuts: &[KnownCut],
    target: Program<'_>,
    seeds: &[U256],
) -> Result<Result<Vec<Found>, usize>, InductionError> {
    let known_pcs: HashSet<usize> = cuts.iter().map(|c| c.pc).collect();
    let known_visits = visits(known, "known fill", seeds, &known_pcs)?;
    let target_visits = visits(
        target,
        "implementation",
        seeds,
        &exec::jumpdests(target.code),
    )?;
    // Program counters in order, so that the first of equal candidates wins.
    let target_visits: BTreeMap<usize, _> = target_visits.into_iter().collect();
    let mut used = HashSet::new();
    let mut found = Vec::new();
    for (k, cut) in cuts.iter().enumerate() {
        let Some(want) = known_visits.get(&cut.pc) else {
            return Ok(Err(k));
        };
        let hit = target_visits
            .iter()
            .filter(|(pc, _)| !used.contains(*pc))
            .find_map(|(&pc, got)| matches(want, cut.vars, got).map(|slots| Found { pc, slots }));
        match hit {
            Some(f) => {
                used.insert(f.pc);
                found.push(f);
            }
            None => return Ok(Err(k)),
        }
    }
    Ok(Ok(found))
}

/// The target slots of the known cut's `vars` loop variables when the
/// target's visits `got` hold them on every visit of every seed (as many
/// visits as `want`, one stack depth).
fn matches(want: &[Vec<Vec<U256>>], vars: usize, got: &[Vec<Vec<U256>>]) -> Option<Vec<usize>> {
    if want.iter().zip(got).any(|(w, g)| w.len() != g.len()) {
        return None;
    }
    let pairs: Vec<(&Vec<U256>, &Vec<U256>)> = want
        .iter()
        .zip(got)
        .flat_map(|(w, g)| w.iter().zip(g))
        .collect();
    let (first_w, first_g) = pairs.first()?;
    let depth = first_g.len();
    let known_depth = first_w.len();
    if pairs
        .iter()
        .any(|(w, g)| g.len() != depth || w.len() < vars)
    {
        return None;
    }
    (0..vars)
        .map(|j| {
            let holds = |t: usize| pairs.iter().all(|(w, g)| g[t] == w[j]);
            // The slot as far from the top as in the known program, if it
            // holds the variable; else the highest that does.
            let same = (depth + j).checked_sub(known_depth);
            same.filter(|&t| t < depth && holds(t))
                .or_else(|| (0..depth).rev().find(|&t| holds(t)))
        })
        .collect()
}

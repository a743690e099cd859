//! The work of one fuzz case, counted rather than timed: on a worker's
//! machine set up once (contracts deployed, the author's code loaded), a
//! case of `octoku fuzz` or of the differential suites builds no EVM
//! context, deploys nothing, runs no revm transaction (each contract call
//! runs on the machine's cleared frame) and makes at most a fixed number of
//! heap allocations, whatever the case and however many ran before it. The
//! counts are deterministic, so a per-case cost creeping back (a context or
//! a deployment per case, a table rebuilt per case) fails here, not on a
//! stopwatch.
//!
//! One test function: the count of EVM contexts is per process.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
};

use octoku_evm::{
    Code, Machine, Puzzle, Target,
    artifacts::{self, Artifact},
    classic9, fuzz,
};

/// The system allocator, counting the allocations each thread makes.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on to `System` unchanged; counting touches
// only a const-initialised thread-local cell (no allocation, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Cases per subject: enough for every case kind many times over.
const CASES: u64 = 3_000;

/// What a run of cases cost beyond the per-case assertions of [`per_case`].
struct Run {
    /// The most heap allocations one case made.
    most: u64,
    /// Intrinsic gas computations by revm in the whole run (one per calldata
    /// shape not seen before on the machine, not one per call).
    intrinsic: u64,
}

/// Runs cases `0..CASES` through `check` on `machine` and asserts, case by
/// case, that each built no context, deployed nothing, ran no transaction
/// and ran `calls` calls on the cleared frame.
fn per_case(
    what: &str,
    machine: &mut Machine,
    calls: u64,
    mut check: impl FnMut(&mut Machine, u64),
) -> Run {
    let mut most = 0;
    let first = machine.work().intrinsic;
    for index in 0..CASES {
        let (contexts, work, before) = (Machine::contexts_built(), machine.work(), allocations());
        check(machine, index);
        most = most.max(allocations() - before);
        let done = machine.work();
        assert_eq!(
            Machine::contexts_built(),
            contexts,
            "{what}: case {index} built an EVM context"
        );
        assert_eq!(
            (done.transactions, done.deploys, done.frames),
            (work.transactions, work.deploys, work.frames + calls),
            "{what}: case {index}: transactions, deployments, calls on the frame (before {work:?})"
        );
    }
    let intrinsic = machine.work().intrinsic - first;
    eprintln!(
        "{what}: at most {most} allocations in one case; {intrinsic} intrinsic gas computations"
    );
    Run { most, intrinsic }
}

/// A worker's machine: built, and the author's code (if any) loaded, once.
fn worker(load: Option<Artifact>) -> (Machine, Option<alloy_primitives::Address>) {
    let mut machine = Machine::new().expect("contracts deploy");
    let at = load.map(|artifact| {
        let code = Code {
            label: artifact.name.to_string(),
            initcode: Some(artifact.initcode.to_vec()),
            runtime: None,
            source_map: None,
            sources: Vec::new(),
        };
        machine
            .load(&Target::Code(code))
            .expect("the author's code deploys")
    });
    assert_eq!(machine.work().frames, 0);
    (machine, at)
}

/// The bounds: the most allocations a case of each run may make (measured
/// maxima, rounded up). A valid grid's symmetry map and the calldata and
/// return data of each call are most of them; the 9×9 cases build their
/// grids and calldata as vectors.
const MOST_8X8_ALL: u64 = 40;
const MOST_8X8_GOLF: u64 = 30;
const MOST_9X9: u64 = 40;
const MOST_TARGET: u64 = 30;

/// The most intrinsic gas computations a run of [`CASES`] 8×8 cases may
/// make: one per calldata shape (length, zero bytes) new to the machine
/// (measured: 59 on every implementation, 0 then on golf, 47 on an
/// author's IPuzzle), against one per call (3 × 3,000 on every
/// implementation) were the frame gas not kept per shape.
const SHAPES_8X8: u64 = 80;

/// The distinct calldata shapes (length, zero bytes) of 9×9 cases `0..CASES`
/// of seed 9: what a machine that has made no call before computes the
/// intrinsic gas of, once each.
fn shapes_9x9() -> u64 {
    let shapes: std::collections::HashSet<(usize, usize)> = (0..CASES)
        .map(|i| {
            let data = classic9::case(9, i).calldata;
            (data.len(), data.iter().filter(|&&b| b == 0).count())
        })
        .collect();
    shapes.len() as u64
}

#[test]
fn a_fuzz_case_builds_no_context_deploys_nothing_runs_no_transaction_and_allocates_a_bounded_amount()
 {
    let (mut machine, _) = worker(None);
    let run = per_case("8x8, every implementation", &mut machine, 3, |m, i| {
        assert_eq!(fuzz::check(m, 9, i).expect("calls run"), None);
    });
    assert!(
        run.most <= MOST_8X8_ALL,
        "8x8, every implementation: {} allocations in one case",
        run.most
    );
    assert!(
        run.intrinsic <= SHAPES_8X8,
        "8x8, every implementation: {} intrinsic gas computations in {CASES} cases",
        run.intrinsic
    );
    let run = per_case("8x8, golf", &mut machine, 1, |m, i| {
        let found = fuzz::check_only(m, 424_242, i, &[Puzzle::Golf]).expect("calls run");
        assert_eq!(found, None);
    });
    assert!(
        run.most <= MOST_8X8_GOLF,
        "8x8, golf: {} allocations in one case",
        run.most
    );
    assert!(
        run.intrinsic <= SHAPES_8X8,
        "8x8, golf: {} intrinsic gas computations in {CASES} cases",
        run.intrinsic
    );
    let run = per_case("9x9, both validators", &mut machine, 2, |m, i| {
        assert_eq!(classic9::check(m, 9, i).expect("calls run"), None);
    });
    assert!(
        run.most <= MOST_9X9,
        "9x9: {} allocations in one case",
        run.most
    );
    let shapes = shapes_9x9();
    assert!(
        run.intrinsic <= shapes,
        "9x9: {} intrinsic gas computations for {shapes} calldata shapes",
        run.intrinsic
    );

    let (mut machine, at) = worker(Some(artifacts::LOOP_PUZZLE));
    let at = at.expect("loaded");
    let run = per_case("an author's IPuzzle", &mut machine, 1, |m, i| {
        assert_eq!(
            fuzz::check_target(m, at, 9, i, false).expect("calls run"),
            None
        );
    });
    assert!(
        run.most <= MOST_TARGET,
        "an author's IPuzzle: {} allocations in one case",
        run.most
    );
    assert!(
        run.intrinsic <= SHAPES_8X8,
        "an author's IPuzzle: {} intrinsic gas computations in {CASES} cases",
        run.intrinsic
    );

    // A fresh machine: exactly one computation per shape.
    let (mut machine, at) = worker(Some(artifacts::CLASSIC9_REFERENCE));
    let validators = [("author".to_string(), at.expect("loaded"))];
    let run = per_case("an author's 9x9 validator", &mut machine, 1, |m, i| {
        assert_eq!(
            classic9::check_at(m, 9, i, &validators).expect("calls run"),
            None
        );
    });
    assert!(
        run.most <= MOST_9X9,
        "an author's 9x9 validator: {} allocations in one case",
        run.most
    );
    assert_eq!(
        run.intrinsic, shapes,
        "an author's 9x9 validator: intrinsic gas computations against calldata shapes"
    );
}

//! Per-puzzle solve times on a fixed set of any size, and per-seed times of
//! the generator: the median, p90 and max the 12×12 and 16×16 goals are
//! stated in (docs/family.md, "Speed").
//!
//! ```sh
//! cargo build --release -p octoku-core --example family_times
//! target/release/examples/family_times count2 crates/octoku-core/data/size12_minimal.txt 5
//! target/release/examples/family_times solve crates/octoku-core/data/size12_minimal.txt 5 passes
//! target/release/examples/family_times solve crates/octoku-core/data/size16_minimal.txt 5
//! target/release/examples/family_times generate 16 40
//! target/release/examples/family_times make 12 200 > set.txt
//! ```
//!
//! Times are the thread's CPU time (so waiting for a core on a shared
//! machine does not count). `solve` and `count2` time each puzzle of the
//! file REPS times in a row and keep its fastest run; with `passes`, they
//! go through the whole file REPS times and keep each puzzle's fastest run
//! (the branch predictor then has not just learnt that puzzle's path, as
//! it has on the fourth run in a row: about a user's time for a puzzle
//! met once, docs/family.md);
//! `generate N SEEDS` times `puzzle::generate` on seeds 0..SEEDS (the
//! fastest of 3 runs each);
//! `make N SEEDS` prints those puzzles, one line-form board per line;
//! `answers FILE` prints each puzzle's first solution (or `unsolvable`)
//! and its count to 2, to check that a change to the solver keeps them;
//! `stats solve|count2 FILE` prints what the generic strong search did on
//! each puzzle (`solve::search_stats`: nodes, probes, forced and refuted
//! nodes, branches; the same on any machine and under any load), then the
//! median, p90, max, max ÷ median and total of its probes, nodes and
//! branches;
//! `shuffle FILE SEED` prints each puzzle of FILE through a random
//! symmetry of its geometry (`puzzle::transform`: bands, rows in a band,
//! stacks, columns in a stack, relabelling, transposition; puzzle k's drawn
//! from SEED and k), the same difficulty in another layout;
//! `peer SOLVER FILE` counts each puzzle to two with a DIMACS SAT solver
//! (e.g. `cadical`; the standard cell/row/column/box encoding, a blocking
//! clause after the first solution, its child CPU time less an empty
//! formula's) and with octoku, checks that the counts agree and prints
//! the sums and the ratio;
//! `slowest solve|count2 FILE K` times each puzzle once, prints the
//! summary, the total and the K slowest puzzles (each after a `#` line
//! with its index and time: a set file of the tail);
//! `partial N GIVENS COUNT SEED` prints COUNT random partial grids of
//! N×N with GIVENS givens each (placed one by one, a random symbol in a
//! random empty cell where its row, column and box do not hold it: no
//! direct conflict, but often no solution), the same for the same seed;
//! `sparse N STARTS solve|count12 CAP_MS` times `solve` (or `count` to 12;
//! the fastest of 3 runs, or the first when it takes over 10 ms)
//! on STARTS sparse starts of N×N (a random solved grid with 10, 20, 38,
//! 60 or 90 of each 256 cells kept, STARTS/5 of each, seeds drawn from
//! the start's index), each in a child process (`sparse-one N SEED KEEP
//! OP`, which prints its thread CPU time) killed after CAP_MS of wall
//! time, and prints median, p99, max, the counts over 10 ms, 100 ms and
//! 1 s (a killed start counts as over the cap) and the slowest starts;
//! with NOISE, each start gets that many random givens added (where no
//! given of the row, column or box has the symbol: often no solution).
//!
//! ```sh
//! target/release/examples/family_times sparse 16 1000 solve 2000
//! target/release/examples/family_times sparse-one 16 3714815344285489213 38 solve
//! ```

use octoku_core::grid::Grid;
use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::{self, Form, ReadOptions, Symbols};
use octoku_core::rng::SplitMix64;
use octoku_core::{puzzle, solve};
use std::hint::black_box;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// Why a run stopped: one line for standard error.
type Error = Box<dyn std::error::Error>;

/// The boards of a line-form file (`#` comments and blank lines skipped;
/// at least one).
fn puzzles(path: &str) -> Result<Vec<Grid>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let set = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            text::read(l, &ReadOptions::default())
                .map(|p| p.board)
                .map_err(|e| Error::from(format!("{path}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if set.is_empty() {
        return Err(format!("{path}: no puzzle; expected one line-form board a line").into());
    }
    Ok(set)
}

/// The CPU time this thread has used: time waiting for a core (other
/// work on a shared machine) does not count.
fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `t` is.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The fastest of `reps` runs of `f`, in thread CPU time.
fn fastest(reps: usize, mut f: impl FnMut()) -> Duration {
    (0..reps.max(1))
        .map(|_| {
            let t = cpu_time();
            f();
            cpu_time().saturating_sub(t)
        })
        .min()
        .unwrap_or_default()
}

/// Writes one line to stdout; a closed pipe or a full disk is an error, not a panic.
fn say(line: String) -> Result<(), Error> {
    Ok(writeln!(std::io::stdout().lock(), "{line}").map_err(|e| format!("stdout: {e}"))?)
}

/// The `q` quantile (0 to 1, nearest rank) of a sorted, non-empty slice.
fn quantile<T: Copy>(sorted: &[T], q: f64) -> T {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Prints median, p90, max, mean and max ÷ median of `times`, in µs.
fn report(what: &str, mut times: Vec<Duration>) -> Result<(), Error> {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let at = |q: f64| quantile(&times, q);
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let (median, max) = (at(0.5), at(1.0));
    say(format!(
        "{what}: {} items, median {:.1} µs, p90 {:.1} µs, max {:.1} µs, mean {:.1} µs, max/median {:.1}",
        times.len(),
        us(median),
        us(at(0.9)),
        us(max),
        us(mean),
        us(max) / us(median)
    ))
}

/// Solves one puzzle, or counts its solutions to 2: one call per run,
/// never inlined, so callgrind can count each puzzle's instructions apart
/// (`--toggle-collect='*solve_one*' --dump-after='*solve_one*'`).
#[inline(never)]
fn solve_one(p: &Grid, count2: bool) {
    if count2 {
        black_box(solve::count(black_box(p), 2));
    } else {
        black_box(solve::solve(black_box(p)));
    }
}

/// Each puzzle's fastest of `reps` runs of `solve`: `reps` runs in a row
/// per puzzle, or with `passes`, `reps` passes through the whole set.
fn fastest_each(set: &[Grid], reps: usize, passes: bool, solve: impl Fn(&Grid)) -> Vec<Duration> {
    if !passes {
        return set.iter().map(|p| fastest(reps, || solve(p))).collect();
    }
    let mut best = vec![Duration::MAX; set.len()];
    for _ in 0..reps.max(1) {
        for (p, best) in set.iter().zip(&mut best) {
            *best = (*best).min(fastest(1, || solve(p)));
        }
    }
    best
}

/// The kept cells (of each 256) of the sparse starts, one fifth of the starts each.
const KEEPS: [u64; 5] = [10, 20, 38, 60, 90];

/// A sparse start of `g`: a random solved grid (from `seed`) with about
/// `keep` of each 256 cells kept (the solve tests' `random_start`), and
/// `noise` random givens added in empty cells where no given of their row,
/// column or box has their symbol (which may leave it without a solution).
fn sparse_start(g: Geometry, seed: u64, keep: u64, noise: usize) -> Grid {
    let mut rng = SplitMix64::new(seed);
    let grid = puzzle::solved_grid(g, &mut rng);
    let mut cells: Vec<u8> = grid
        .cells()
        .iter()
        .map(|&v| if rng.below(256) < keep { v } else { 0 })
        .collect();
    let n = g.size();
    let mut added = 0;
    while added < noise {
        let i = rng.below(g.cell_count() as u64) as usize;
        let v = 1 + rng.below(n as u64) as u8;
        let (r, c) = g.position(i);
        let clash = (0..g.cell_count()).any(|j| {
            let (rj, cj) = g.position(j);
            cells[j] == v && (rj == r || cj == c || g.box_of(rj, cj) == g.box_of(r, c))
        });
        if cells[i] == 0 && !clash {
            cells[i] = v;
            added += 1;
        }
    }
    Grid::from_cells(g, &cells).expect("symbols 0..=N")
}

/// Random partial grid `index` of the set (`seed`) of `givens` givens on
/// `g`: givens placed one by one, each a random symbol in a random empty
/// cell where no given of its row, column or box has that symbol (so no
/// direct conflict; the grid may have no solution). At most the cells of
/// the board.
fn partial_grid(g: Geometry, givens: usize, seed: u64, index: u64) -> Grid {
    let mut rng = SplitMix64::for_index(seed, index);
    let n = g.size();
    let mut cells = vec![0u8; g.cell_count()];
    // Symbols (bit v) held by each row, column and box.
    let (mut rows, mut cols, mut boxes) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    let mut placed = 0;
    // (Every attempt that fails is one of a bounded number: a board
    // where no given fits any more ends the placing.)
    let mut misses = 0;
    while placed < givens.min(g.cell_count()) && misses < 64 * g.cell_count() {
        let i = rng.below(g.cell_count() as u64) as usize;
        let v = 1 + rng.below(n as u64) as u8;
        let (r, c) = g.position(i);
        let b = g.box_of(r, c);
        let bit = 1u32 << v;
        if cells[i] != 0 || (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            misses += 1;
            continue;
        }
        cells[i] = v;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        placed += 1;
    }
    Grid::from_cells(g, &cells).expect("symbols 0..=N")
}

/// The seed and keep of sparse start `index` of `starts`.
fn sparse_case(index: usize, starts: usize) -> (u64, u64) {
    let seed = SplitMix64::for_index(0x5ba7_5e16, index as u64).next_u64();
    (
        seed,
        KEEPS[(index * KEEPS.len() / starts.max(1)).min(KEEPS.len() - 1)],
    )
}

/// Times `op` (`solve` or `count12`) on one sparse start: thread CPU time in µs.
fn sparse_one(g: Geometry, seed: u64, keep: u64, op: &str, noise: usize) -> Result<(), Error> {
    let p = sparse_start(g, seed, keep, noise);
    // The solver's tables of `g` are built on first use: not timed.
    black_box(solve::solve(&Grid::empty(g)));
    let mut n = 0;
    let mut once = || -> Result<Duration, Error> {
        let t = cpu_time();
        n = match op {
            "solve" => u64::from(black_box(solve::solve(black_box(&p))).is_some()),
            "count12" => black_box(solve::count(black_box(&p), 12)),
            _ => return Err(format!("unknown op {op}").into()),
        };
        Ok(cpu_time().saturating_sub(t))
    };
    // The fastest of 3 runs (a process's first run pays for cold caches),
    // or the first alone when it takes over 10 ms.
    let mut best = once()?;
    if best < Duration::from_millis(10) {
        for _ in 0..2 {
            best = best.min(once()?);
        }
    }
    let us = best.as_secs_f64() * 1e6;
    say(format!("{us:.1} {n}"))
}

/// Runs `sparse-one` on each sparse start in a child process, killed after `cap`.
fn sparse(n: usize, starts: usize, op: &str, cap: Duration, noise: usize) -> Result<(), Error> {
    let me = std::env::current_exe()?;
    let mut times = Vec::with_capacity(starts);
    // Starts found to have no solution.
    let mut none = 0;
    for index in 0..starts {
        let (seed, keep) = sparse_case(index, starts);
        let mut child = std::process::Command::new(&me)
            .args(["sparse-one", &n.to_string(), &seed.to_string()])
            .args([&keep.to_string(), op, &noise.to_string()])
            .stdout(std::process::Stdio::piped())
            .spawn()?;
        let begun = std::time::Instant::now();
        let us = loop {
            if child.try_wait()?.is_some() {
                let out = child.wait_with_output()?;
                let text = String::from_utf8_lossy(&out.stdout);
                let mut words = text.split_whitespace().map(str::parse::<f64>);
                let (Some(Ok(us)), Some(Ok(found))) = (words.next(), words.next()) else {
                    return Err(format!("start {index}: child said {text:?}").into());
                };
                none += usize::from(found == 0.0);
                break us;
            }
            if begun.elapsed() > cap {
                child.kill()?;
                child.wait()?;
                break f64::INFINITY;
            }
            std::thread::sleep(Duration::from_micros(200));
        };
        times.push((us, index, seed, keep));
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| quantile(&times, q).0;
    let over = |us: f64| times.iter().filter(|t| t.0 > us).count();
    say(format!(
        "sparse {n}x{n} {op}: {starts} starts, median {:.1} µs, p90 {:.1} µs, p99 {:.1} µs, max {:.1} µs; over 10 ms {}, 100 ms {}, 1 s {}, killed at {} ms {}; no solution {}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        over(1e4),
        over(1e5),
        over(1e6),
        cap.as_millis(),
        over(f64::MAX),
        none
    ))?;
    for &(us, index, seed, keep) in times.iter().rev().take(8) {
        say(format!(
            "  start {index}: seed {seed} keep {keep}: {us:.1} µs"
        ))?;
    }
    Ok(())
}

/// The standard CNF of a board of `g`: variable `N * i + d + 1` for
/// "cell i holds symbol d + 1"; each cell holds one symbol and not two,
/// each unit holds each symbol once and not twice (pairwise), each given
/// is a unit clause; `blocked` solutions each get a clause that excludes
/// them (over the empty cells).
fn cnf(p: &Grid, blocked: &[Vec<u8>]) -> String {
    let g = p.geometry();
    let n = g.size();
    let x = |i: usize, d: usize| (n * i + d + 1) as i64;
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    let exactly_one = |lits: Vec<i64>, clauses: &mut Vec<Vec<i64>>| {
        for (k, &a) in lits.iter().enumerate() {
            for &b in &lits[k + 1..] {
                clauses.push(vec![-a, -b]);
            }
        }
        clauses.push(lits);
    };
    for i in 0..g.cell_count() {
        exactly_one((0..n).map(|d| x(i, d)).collect(), &mut clauses);
    }
    for unit in g.units() {
        let cells: Vec<usize> = g.unit_cells(unit).map(|(r, c)| g.index(r, c)).collect();
        for d in 0..n {
            exactly_one(cells.iter().map(|&i| x(i, d)).collect(), &mut clauses);
        }
    }
    for (i, &v) in p.cells().iter().enumerate() {
        if v != 0 {
            clauses.push(vec![x(i, usize::from(v) - 1)]);
        }
    }
    for s in blocked {
        clauses.push(
            (0..g.cell_count())
                .filter(|&i| p.cells()[i] == 0)
                .map(|i| -x(i, usize::from(s[i]) - 1))
                .collect(),
        );
    }
    let mut out = format!("p cnf {} {}\n", n * g.cell_count(), clauses.len());
    for c in clauses {
        for l in c {
            out.push_str(&l.to_string());
            out.push(' ');
        }
        out.push_str("0\n");
    }
    out
}

/// The CPU time (user and system) of this process's waited-for children.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes one rusage, which `u` is.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    assert_eq!(rc, 0, "getrusage(RUSAGE_CHILDREN)");
    let t = |v: libc::timeval| Duration::new(v.tv_sec as u64, v.tv_usec as u32 * 1000);
    t(u.ru_utime) + t(u.ru_stime)
}

/// Runs `solver` (a DIMACS SAT solver reading standard input, printing
/// `s` and `v` lines) on `text`: the model's true variables (None when
/// unsatisfiable) and the child's CPU time.
fn sat_run(solver: &str, text: &str) -> Result<(Option<Vec<i64>>, Duration), Error> {
    let before = children_cpu();
    let mut child = std::process::Command::new(solver)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{solver}: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(text.as_bytes())?;
    let out = child.wait_with_output()?;
    let spent = children_cpu().saturating_sub(before);
    let text = String::from_utf8_lossy(&out.stdout);
    if text.lines().any(|l| l.starts_with("s UNSATISFIABLE")) {
        return Ok((None, spent));
    }
    if !text.lines().any(|l| l.starts_with("s SATISFIABLE")) {
        return Err(format!("{solver}: no answer line: {text}").into());
    }
    let model = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .filter_map(|w| w.parse::<i64>().ok())
        .filter(|&v| v > 0)
        .collect();
    Ok((Some(model), spent))
}

/// Counts to two with `solver` on every board of `set`, a blocking clause
/// after the first solution, against octoku's `count(_, 2)` (thread CPU
/// time, one run a board after a warm-up); the solver's time is its
/// child CPU time less an empty formula's (its process start).
fn peer(solver: &str, file: &str) -> Result<(), Error> {
    let set = puzzles(file)?;
    let (_, empty) = sat_run(solver, "p cnf 1 1\n1 0\n")?;
    let start = (0..5)
        .map(|_| sat_run(solver, "p cnf 1 1\n1 0\n").map(|r| r.1))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .min()
        .unwrap_or(empty);
    for p in &set {
        black_box(solve::solve(&Grid::empty(p.geometry())));
    }
    let (mut ours, mut theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut worst_ours, mut worst_theirs) = (Duration::ZERO, Duration::ZERO);
    for p in &set {
        let t = fastest(1, || solve_one(p, true));
        let want = solve::count(p, 2);
        let mut spent = Duration::ZERO;
        let mut found: Vec<Vec<u8>> = Vec::new();
        while found.len() < 2 {
            let (model, time) = sat_run(solver, &cnf(p, &found))?;
            spent += time.saturating_sub(start);
            let Some(model) = model else { break };
            let n = p.geometry().size();
            let mut cells = vec![0u8; p.geometry().cell_count()];
            for v in model {
                let k = (v - 1) as usize;
                cells[k / n] = (k % n) as u8 + 1;
            }
            found.push(cells);
        }
        if found.len() as u64 != want {
            return Err(format!(
                "{file}: {solver} counted {} where octoku counted {want}",
                found.len()
            )
            .into());
        }
        ours += t;
        theirs += spent;
        worst_ours = worst_ours.max(t);
        worst_theirs = worst_theirs.max(spent);
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    say(format!(
        "{file}: {} boards, count(2) summed: octoku {:.2} ms, {solver} {:.2} ms (process start {:.2} ms a run subtracted), ratio {:.3}; slowest board: octoku {:.2} ms, {solver} {:.2} ms",
        set.len(),
        ms(ours),
        ms(theirs),
        ms(start),
        ours.as_secs_f64() / theirs.as_secs_f64().max(1e-9),
        ms(worst_ours),
        ms(worst_theirs)
    ))
}

/// `answers FILE`: each puzzle's first solution (or "unsolvable") and its
/// count of solutions up to 2.
fn answers(file: &str) -> Result<(), Error> {
    for p in puzzles(file)? {
        let symbols = Symbols::standard(p.geometry().size());
        let first = match solve::solve(&p) {
            Some(s) => text::write(&s, &symbols, Form::Line).map_err(|e| e.to_string())?,
            None => "unsolvable".to_owned(),
        };
        say(format!("{first} {}", solve::count(&p, 2)))?;
    }
    Ok(())
}

/// `stats solve|count2 FILE`: the search counters of each puzzle and their
/// spread.
fn stats(task: &str, file: &str, usage: impl Fn() -> String) -> Result<(), Error> {
    let limit = match task {
        "solve" => 1,
        "count2" => 2,
        _ => return Err(usage().into()),
    };
    let set = puzzles(file)?;
    let mut all = Vec::with_capacity(set.len());
    for (i, p) in set.iter().enumerate() {
        let s = solve::search_stats(p, limit);
        say(format!(
            "{i} nodes {} probes {} forced {} probes_forcing {} refuted {} branches {} narrowed {} handovers {} conflicts {} work {}",
            s.nodes,
            s.probes,
            s.forced,
            s.probes_forcing,
            s.refuted,
            s.branches,
            s.narrowed,
            s.handovers,
            s.conflicts,
            s.work
        ))?;
        all.push(s);
    }
    let spread = |what: &str, mut v: Vec<u64>| {
        v.sort_unstable();
        let at = |q: f64| quantile(&v, q);
        let total: u64 = v.iter().sum();
        say(format!(
            "{what}: median {}, p90 {}, max {}, max/median {:.2}, total {total}",
            at(0.5),
            at(0.9),
            at(1.0),
            at(1.0) as f64 / at(0.5).max(1) as f64
        ))
    };
    spread("probes", all.iter().map(|s| s.probes).collect())?;
    spread("narrowed", all.iter().map(|s| s.narrowed).collect())?;
    spread("nodes", all.iter().map(|s| s.nodes).collect())?;
    spread("conflicts", all.iter().map(|s| s.conflicts).collect())?;
    spread("work", all.iter().map(|s| s.work).collect())?;
    say(format!(
        "handed to clause learning: {} of {}",
        all.iter().filter(|s| s.handovers > 0).count(),
        all.len()
    ))?;
    spread("branches", all.iter().map(|s| s.branches).collect())
}

/// `slowest solve|count2 FILE K`: the times of FILE's puzzles and the K
/// slowest of them.
fn slowest(task: &str, file: &str, k: &str, usage: impl Fn() -> String) -> Result<(), Error> {
    let count2 = match task {
        "solve" => false,
        "count2" => true,
        _ => return Err(usage().into()),
    };
    let k: usize = k.parse().map_err(|_| usage())?;
    let set = puzzles(file)?;
    // The solver's tables of each geometry are built on first use: not timed.
    for p in &set {
        black_box(solve::solve(&Grid::empty(p.geometry())));
    }
    let times = fastest_each(&set, 1, false, |p| solve_one(p, count2));
    report(&format!("{task} {file}"), times.clone())?;
    let total: Duration = times.iter().sum();
    say(format!("total {:.1} ms", total.as_secs_f64() * 1e3))?;
    let mut order: Vec<usize> = (0..set.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(times[i]));
    for &i in order.iter().take(k) {
        let symbols = Symbols::standard(set[i].geometry().size());
        let line = text::write(&set[i], &symbols, Form::Line).map_err(|e| e.to_string())?;
        say(format!(
            "# {i}: {:.1} µs\n{line}",
            times[i].as_secs_f64() * 1e6
        ))?;
    }
    Ok(())
}

/// `solve|count2 FILE REPS [passes]` and `generate|make N SEEDS`.
fn timed(args: &[String], usage: impl Fn() -> String) -> Result<(), Error> {
    let (what, arg, k, passes) = match args {
        [what, arg, k] => (what, arg, k, false),
        [what, arg, k, mode] if mode == "passes" => (what, arg, k, true),
        _ => return Err(usage().into()),
    };
    let k: usize = k.parse().map_err(|_| usage())?;
    let size = || -> Result<Geometry, Error> {
        let n: usize = arg.parse().map_err(|_| usage())?;
        Ok(Geometry::for_size(n)?)
    };
    match what.as_str() {
        "solve" | "count2" => {
            let set = puzzles(arg)?;
            let times = fastest_each(&set, k, passes, |p| solve_one(p, what == "count2"));
            let how = if passes { " (passes)" } else { "" };
            report(&format!("{what} {arg}{how}"), times)?;
        }
        "generate" | "make" if passes => return Err(usage().into()),
        "generate" => {
            let g = size()?;
            let mut givens = Vec::new();
            let times = (0..k as u64)
                .map(|seed| {
                    let p = puzzle::generate(g, seed, None).expect("a minimal puzzle");
                    givens.push(p.puzzle.givens());
                    fastest(3, || {
                        black_box(puzzle::generate(g, seed, None).ok());
                    })
                })
                .collect();
            report(&format!("generate {g} seeds 0..{k}"), times)?;
            givens.sort();
            say(format!(
                "givens: min {}, median {}, max {}",
                givens[0],
                givens[givens.len() / 2],
                givens[givens.len() - 1]
            ))?;
        }
        "make" => {
            let g = size()?;
            let symbols = Symbols::standard(g.size());
            for seed in 0..k as u64 {
                let p = puzzle::generate(g, seed, None).expect("a minimal puzzle");
                let line =
                    text::write(&p.puzzle, &symbols, Form::Line).map_err(|e| e.to_string())?;
                say(line)?;
            }
        }
        _ => return Err(usage().into()),
    }
    Ok(())
}

fn run(args: &[String]) -> Result<(), Error> {
    let usage = || {
        "usage: family_times solve|count2 FILE REPS [passes] | generate|make N SEEDS | answers FILE \
         | stats solve|count2 FILE | shuffle FILE SEED | peer SOLVER FILE | slowest solve|count2 FILE K | partial N GIVENS COUNT SEED | sparse N STARTS solve|count12 CAP_MS [NOISE] \
         | sparse-one N SEED KEEP solve|count12 [NOISE]"
            .to_owned()
    };
    if let [what, file] = args
        && what == "answers"
    {
        return answers(file);
    }
    if let [what, task, file] = args
        && what == "stats"
    {
        return stats(task, file, usage);
    }
    // NOISE, the givens added to each sparse start: 0 unless given.
    let noise = |rest: &[String]| -> Result<usize, Error> {
        match rest {
            [] => Ok(0),
            [k] => Ok(k.parse().map_err(|_| usage())?),
            _ => Err(usage().into()),
        }
    };
    if let [what, file, seed] = args
        && what == "shuffle"
    {
        let seed: u64 = seed.parse().map_err(|_| usage())?;
        for (k, p) in puzzles(file)?.iter().enumerate() {
            let copy = puzzle::transform(p, &mut SplitMix64::for_index(seed, k as u64));
            let symbols = Symbols::standard(copy.geometry().size());
            say(text::write(&copy, &symbols, Form::Line).map_err(|e| e.to_string())?)?;
        }
        return Ok(());
    }
    if let [what, solver, file] = args
        && what == "peer"
    {
        return peer(solver, file);
    }
    if let [what, task, file, k] = args
        && what == "slowest"
    {
        return slowest(task, file, k, usage);
    }
    if let [what, n, givens, count, seed] = args
        && what == "partial"
    {
        let g = Geometry::for_size(n.parse().map_err(|_| usage())?)?;
        let givens: usize = givens.parse().map_err(|_| usage())?;
        let count: u64 = count.parse().map_err(|_| usage())?;
        let seed: u64 = seed.parse().map_err(|_| usage())?;
        let symbols = Symbols::standard(g.size());
        for index in 0..count {
            let p = partial_grid(g, givens, seed, index);
            say(text::write(&p, &symbols, Form::Line).map_err(|e| e.to_string())?)?;
        }
        return Ok(());
    }
    if let [what, n, seed, keep, op, rest @ ..] = args
        && what == "sparse-one"
    {
        let g = Geometry::for_size(n.parse().map_err(|_| usage())?)?;
        let seed = seed.parse().map_err(|_| usage())?;
        let keep = keep.parse().map_err(|_| usage())?;
        return sparse_one(g, seed, keep, op, noise(rest)?);
    }
    if let [what, n, starts, op, cap, rest @ ..] = args
        && what == "sparse"
    {
        let n: usize = n.parse().map_err(|_| usage())?;
        Geometry::for_size(n)?;
        let starts = starts.parse().map_err(|_| usage())?;
        let cap = Duration::from_millis(cap.parse().map_err(|_| usage())?);
        return sparse(n, starts, op, cap, noise(rest)?);
    }
    timed(args, usage)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

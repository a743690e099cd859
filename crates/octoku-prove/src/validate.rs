//! Translation validation: no proof says "proved" before the prover has
//! checked its own model against revm on the code that runs.
//!
//! Before an equivalence proof answers "proved", both programs' symbolic
//! results (the executor's terms) are evaluated on at least
//! [`MIN_INPUTS`] concrete inputs (edge words, real boards and solutions,
//! random words) and must equal revm's execution of the same bytecode on
//! the same calldata: the same success flag and the same return or revert
//! data. On every input the proof claims, revm's two results must also
//! agree. A mismatch is a prover bug ([`ProveError::Unsound`], exit 3 in the
//! CLI), named by its input and the first outcome term that differs.
//!
//! [`Validated`] is the token every "proved" answer carries
//! ([`crate::engine::Found::Proved`], [`crate::prove::Verdict::Proved`], the
//! 9×9, generate and induction reports); its field is private, so
//! [`validate`] is its only maker.

use alloy_primitives::{Address, Bytes, hex};
use octoku_core::U256;
use octoku_core::rng::SplitMix64;
use octoku_evm::{Machine, RawOutcome};

use crate::engine::{ProveError, deployer, evaluate};
use crate::exec::{self, Limits, Outcome};
use crate::program::{Input as FillInput, Program};
use crate::smt;
use crate::term::Terms;

/// The fewest inputs a validation checks (on both programs, each claimed
/// equal by the proof).
pub const MIN_INPUTS: usize = 100;

/// A proof's "equal" answer, checked against revm on [`Validated::inputs`]
/// inputs. Only [`validate`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    inputs: usize,
}

impl Validated {
    /// How many inputs both programs' terms were checked against revm on.
    pub fn inputs(&self) -> usize {
        self.inputs
    }
}

/// What the executor's terms give on one input, as revm would say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modeled {
    /// Whether the call returned.
    pub success: bool,
    /// Its return or revert data.
    pub data: Vec<u8>,
    /// The names of the outcome's terms: success, length, each data word.
    terms: Vec<String>,
}

impl Modeled {
    /// `outcome`'s terms evaluated at `values` (by variable index).
    pub fn of(terms: &Terms, outcome: &Outcome, values: &[U256]) -> Modeled {
        let (success, data) = evaluate(terms, outcome, values);
        let mut names = vec![
            smt::node_name(terms, outcome.success),
            smt::node_name(terms, outcome.len),
        ];
        names.extend(outcome.words.iter().map(|&w| smt::node_name(terms, w)));
        Modeled {
            success,
            data,
            terms: names,
        }
    }

    /// The first term of the outcome whose value is not revm's.
    fn first_difference(&self, run: &RawOutcome) -> String {
        let word = |k: usize| {
            self.terms.get(2 + k).map_or_else(
                || format!("data word {k}"),
                |t| format!("data word {k} ({t})"),
            )
        };
        if self.success != run.success {
            format!("the success flag ({})", self.terms[0])
        } else if self.data.len() != run.output.len() {
            format!("the data length ({})", self.terms[1])
        } else {
            let at = self
                .data
                .iter()
                .zip(run.output.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            word(at / 32)
        }
    }
}

/// One concrete input: each program's variable values and calldata, and
/// whether the proof claims the two programs agree on it.
#[derive(Debug, Clone)]
pub struct Input {
    /// The input in words, for messages.
    pub label: String,
    /// The values of each side's variables (reference, implementation), in
    /// the order the side's model takes them.
    pub values: [Vec<U256>; 2],
    /// Each side's calldata.
    pub calldata: [Bytes; 2],
    /// Whether the proof says the two programs' results agree here.
    pub claimed: bool,
}

/// How two results must agree where a proof claims they do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// The same success flag and the same bytes.
    Same,
    /// The same success flag and length, and the same non-zero nibbles
    /// (which cells of a board are filled).
    Cells,
}

impl Agreement {
    fn holds(self, a: &RawOutcome, b: &RawOutcome) -> bool {
        if a.success != b.success || a.output.len() != b.output.len() {
            return false;
        }
        match self {
            Agreement::Same => a.output == b.output,
            Agreement::Cells => a.output.iter().zip(b.output.iter()).all(|(x, y)| {
                ((x >> 4) == 0) == ((y >> 4) == 0) && ((x & 15) == 0) == ((y & 15) == 0)
            }),
        }
    }
}

const SIDES: [&str; 2] = ["reference", "implementation"];

/// Runs every input on both runtime `codes` (reference, implementation) in
/// revm and through `model` (the side's index and the side's values: what
/// its terms give), and checks that each side's terms give what revm gives
/// and that, where claimed, revm's two results agree by `agree`. At least
/// [`MIN_INPUTS`] claimed inputs are needed.
pub fn validate(
    codes: [&[u8]; 2],
    inputs: &[Input],
    mut model: impl FnMut(usize, &[U256]) -> Result<Modeled, ProveError>,
    agree: Agreement,
) -> Result<Validated, ProveError> {
    let claimed = inputs.iter().filter(|i| i.claimed).count();
    if claimed < MIN_INPUTS {
        return Err(ProveError::Unsound(format!(
            "translation validation has {claimed} inputs, fewer than {MIN_INPUTS}"
        )));
    }
    let mut machine = Machine::new()?;
    let mut at = [Address::ZERO; 2];
    for (a, code) in at.iter_mut().zip(codes) {
        *a = machine.deploy(&deployer(code))?.0;
    }
    for input in inputs {
        let mut runs = Vec::with_capacity(2);
        for side in 0..2 {
            let run = machine.call_raw(at[side], input.calldata[side].clone())?;
            let got = model(side, &input.values[side])?;
            if got.success != run.success || got.data != run.output.as_ref() {
                return Err(ProveError::Unsound(format!(
                    "translation validation: on {} the {}'s terms give ({}, 0x{}) and revm gives ({}, {}); first differing term: {}",
                    input.label,
                    SIDES[side],
                    got.success,
                    hex::encode(&got.data),
                    run.success,
                    run.output,
                    got.first_difference(&run)
                )));
            }
            runs.push(run);
        }
        if input.claimed && !agree.holds(&runs[0], &runs[1]) {
            return Err(ProveError::Unsound(format!(
                "translation validation: the proof says equal, but on {} revm gives the reference ({}, {}) and the implementation ({}, {})",
                input.label, runs[0].success, runs[0].output, runs[1].success, runs[1].output
            )));
        }
    }
    Ok(Validated {
        inputs: inputs.len(),
    })
}

/// Edge words: 0, 1, 2^255, 2^256 - 1, single bits, nibble patterns.
pub fn edge_words() -> Vec<U256> {
    let one = U256::from(1u8);
    let m1 = U256::MAX / U256::from(15u8);
    let mut words = vec![
        U256::ZERO,
        one,
        one << 255,
        U256::MAX,
        m1,
        m1 * U256::from(8u8),
    ];
    words.extend([1usize, 2, 3, 4, 7, 31, 32, 63, 64, 128, 160, 252, 254].map(|k| one << k));
    words.extend([
        m1 * U256::from(7u8),
        U256::MAX >> 4,
        U256::MAX << 4,
        U256::from(0xffu8),
    ]);
    words
}

/// Inputs of `verify(start, solution)` (values `[start, solution]`): edge
/// words in both places, the givens and solutions of real boards (valid,
/// one given wrong, a cell changed, empty start), and random words.
pub fn verify_values() -> Vec<Vec<U256>> {
    use octoku_evm::cases::{self, VerifyClass};
    let mut rng = SplitMix64::new(0x7a11_da7e);
    let edges = edge_words();
    let mut out: Vec<Vec<U256>> = Vec::new();
    for (k, &e) in edges.iter().enumerate() {
        out.push(vec![e, e]);
        out.push(vec![U256::ZERO, e]);
        out.push(vec![e, edges[(k + 3) % edges.len()]]);
    }
    for k in 0..48u64 {
        let (start, solution) = match k % 6 {
            0 => cases::verify_case(VerifyClass::Valid, &mut rng),
            1 => cases::verify_case(VerifyClass::InvalidFirst, &mut rng),
            2 => cases::verify_case(VerifyClass::InvalidLate, &mut rng),
            3 => cases::mutated(&mut rng),
            4 => cases::generated_start(&mut rng),
            _ => (octoku_core::Board::EMPTY, cases::latin(&mut rng)),
        };
        out.push(vec![start.to_u256(), solution.to_u256()]);
    }
    for _ in 0..16 {
        out.push(vec![rng.u256(), rng.u256()]);
    }
    out
}

/// The call variables of 81-byte grids: three words per grid (bytes
/// 0..31, 32..63, 64..80, zero-padded), in order.
pub fn grid_words(grids: &[Vec<u8>]) -> Vec<U256> {
    grids
        .iter()
        .flat_map(|g| {
            let mut padded = g.clone();
            padded.resize(96, 0);
            padded
                .chunks(32)
                .map(U256::from_be_slice)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Inputs of a 9×9 validator's function taking `grids` 81-byte arguments
/// (values: three words per argument, bytes 0..31, 32..63, 64..80): real
/// grids and starts (valid, two cells swapped, a byte 0 or 10..255), bytes
/// 0..9, random bytes, and edge words.
pub fn grid_values(grids: usize) -> Vec<Vec<U256>> {
    const CELLS: usize = crate::classic9::CELLS;
    let mut rng = SplitMix64::new(0x0c1a_5519);
    let mut out = Vec::new();
    for k in 0..80u64 {
        let grid = octoku_evm::classic9::valid_grid(&mut rng);
        let start: Vec<u8> = grid
            .iter()
            .map(|&d| if rng.below(3) == 0 { d } else { 0 })
            .collect();
        let mut solution = grid.clone();
        match k % 5 {
            0 | 1 => {}
            2 => solution.swap(rng.below(81) as usize, rng.below(81) as usize),
            3 => solution[rng.below(81) as usize] = [0, 10, 255][rng.below(3) as usize],
            _ => solution = (0..CELLS).map(|_| rng.below(10) as u8).collect(),
        }
        let args = if grids == 2 {
            vec![start, solution]
        } else {
            vec![solution]
        };
        out.push(grid_words(&args));
    }
    for _ in 0..12 {
        let args: Vec<Vec<u8>> = (0..grids)
            .map(|_| (0..CELLS).map(|_| rng.below(256) as u8).collect())
            .collect();
        out.push(grid_words(&args));
    }
    for e in edge_words() {
        out.push(vec![e; 3 * grids]);
    }
    out
}

/// What `program`'s fill gives on `arg` (the seed, or the address) by its
/// terms: executed symbolically along the path `arg` takes (KECCAK256 a
/// variable holding the real hash), the path's condition checked to hold,
/// the outcome evaluated.
pub fn model_fill(program: Program<'_>, arg: U256) -> Result<Modeled, ProveError> {
    let mut terms = Terms::new();
    let var = terms.var(match program.input {
        FillInput::Seed => "seed",
        FillInput::Address => "address",
    });
    let call = program.call(&mut terms, var).hashes_as_variables();
    let run = exec::execute_guided(&mut terms, program.code, &call, Limits::default(), &[arg])
        .map_err(|error| ProveError::Exec {
            which: "program under validation",
            error,
        })?;
    if terms.eval(run.guard, &run.values).is_zero() {
        return Err(ProveError::Unsound(format!(
            "translation validation: the path the executor followed on {arg:#x} does not hold there"
        )));
    }
    Ok(Modeled::of(&terms, &run.outcome, &run.values))
}

/// The argument of a fill call for `seed`: the seed itself, or (for a
/// `generate(address)` program) the address, whose hash is the seed.
fn fill_input(programs: [Program<'_>; 2], label: String, args: [U256; 2], claimed: bool) -> Input {
    Input {
        label,
        values: args.map(|a| vec![a]),
        calldata: [programs[0].calldata(args[0]), programs[1].calldata(args[1])],
        claimed,
    }
}

/// Inputs of two fills (`reference`, `implementation`), both taking the
/// same kind of argument or the reference a raw seed and the implementation
/// an address: edge seeds, short and colliding seeds (raw-seed programs),
/// keccak256 seeds of random addresses, until `claim` (given the seed)
/// holds on at least [`MIN_INPUTS`] of them.
pub fn fill_inputs(programs: [Program<'_>; 2], mut claim: impl FnMut(U256) -> bool) -> Vec<Input> {
    use octoku_core::octoku::generate::seed_of;
    use octoku_evm::cases;
    let mut rng = SplitMix64::new(0x5eed_7a11);
    let by_address = programs.iter().any(|p| p.input == FillInput::Address);
    let arg_of = |p: &Program<'_>, address: U256, seed: U256| match p.input {
        FillInput::Seed => seed,
        FillInput::Address => address,
    };
    let mut out: Vec<Input> = Vec::new();
    let mut push = |address: U256, seed: U256, label: String| {
        let args = [
            arg_of(&programs[0], address, seed),
            arg_of(&programs[1], address, seed),
        ];
        fill_input(programs, label, args, claim(seed))
    };
    if !by_address {
        let mut seeds = edge_words();
        seeds.extend(cases::edge_seeds().into_iter().step_by(9));
        for k in 0..48 {
            seeds.push(if k % 2 == 0 {
                cases::sparse_seed(&mut rng)
            } else {
                cases::colliding_seed(&mut rng)
            });
        }
        for s in seeds {
            out.push(push(U256::ZERO, s, format!("seed {s:#x}")));
        }
        // A claim over a few patterns (seeds spent after at most one
        // redraw ...) holds on few real seeds: more sparse and colliding
        // seeds, until MIN_INPUTS are claimed (a bounded number of draws).
        for k in 0..64 * MIN_INPUTS {
            if out.iter().filter(|i| i.claimed).count() >= MIN_INPUTS {
                break;
            }
            let s = if k % 2 == 0 {
                cases::sparse_seed(&mut rng)
            } else {
                cases::colliding_seed(&mut rng)
            };
            let input = push(U256::ZERO, s, format!("seed {s:#x}"));
            if input.claimed {
                out.push(input);
            }
        }
    }
    // Real seeds: keccak256 of addresses (edge addresses first), at least
    // 16 of them, and until MIN_INPUTS inputs are claimed.
    let edge_addresses = [
        U256::ZERO,
        U256::from(1u8),
        (U256::from(1u8) << 160) - U256::from(1u8),
    ];
    for k in 0..8 * MIN_INPUTS {
        let claimed = out.iter().filter(|i| i.claimed).count();
        if claimed >= MIN_INPUTS && k >= edge_addresses.len() + 16 {
            break;
        }
        let a = match edge_addresses.get(k) {
            Some(&a) => a,
            None => U256::from_be_slice(cases::address(&mut rng).as_slice()),
        };
        let address = Address::from_word(a.to_be_bytes::<32>().into());
        let seed = seed_of(&address);
        out.push(push(a, seed, format!("address {address} (seed {seed:#x})")));
    }
    out
}

/// Validates two fills (`programs`: reference, implementation) on
/// [`fill_inputs`]: `claim` says, for a seed, whether the proof covers it.
pub fn validate_fills(
    programs: [Program<'_>; 2],
    claim: impl FnMut(U256) -> bool,
    agree: Agreement,
) -> Result<Validated, ProveError> {
    let inputs = fill_inputs(programs, claim);
    validate(
        [programs[0].code, programs[1].code],
        &inputs,
        |side, values| model_fill(programs[side], values[0]),
        agree,
    )
}

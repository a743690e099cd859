//! `octoku puzzle --size N`: a puzzle of any shape with exactly one solution.

use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use octoku_core::grid::text::{Form, Symbols};
use octoku_core::puzzle;
use serde::Serialize;

use crate::opts::size::{self, SizeArgs};
use crate::{error::CliError, output::print_json};

/// Arguments of `octoku puzzle`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    size: SizeArgs,
    /// Exactly this many givens (else as few as one pass of removals reaches).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// Seed: the same seed gives the same puzzle (default: from the clock, printed).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the puzzle as a printable picture (SVG, givens in bold) in FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
}

/// `octoku puzzle --json`.
#[derive(Debug, Serialize)]
struct Made {
    size: usize,
    #[serde(rename = "box")]
    box_shape: String,
    seed: u64,
    givens: usize,
    puzzle: String,
    solution: String,
}

/// Makes and prints a puzzle.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let g = args.size.geometry()?;
    let symbols = args
        .size
        .symbols(g)?
        .unwrap_or_else(|| Symbols::standard(g.size()));
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let p = puzzle::generate(g, seed, args.givens).map_err(CliError::input)?;
    if let Some(path) = &args.svg {
        let svg = octoku_core::grid::svg::render(&p.puzzle, None, &symbols);
        crate::picture::write("--svg", path, &svg)?;
    }
    if args.json {
        print_json(&Made {
            size: g.size(),
            box_shape: g.box_label(),
            seed,
            givens: p.puzzle.givens(),
            puzzle: size::json_board(&p.puzzle, &symbols)?,
            solution: size::json_board(&p.solution, &symbols)?,
        })?;
    } else {
        let form = args.size.format.map(Form::from).unwrap_or(Form::Grid);
        crate::outln!("{}", size::text_of(&p.puzzle, &symbols, form)?)?;
        // The summary goes to stderr, so stdout is a board the other commands read.
        crate::errln!(
            "{g}, {} givens, exactly one solution (seed {seed}: octoku puzzle --size {} --box {}x{} --seed {seed}{})",
            p.puzzle.givens(),
            g.size(),
            g.box_rows(),
            g.box_cols(),
            args.givens
                .map(|k| format!(" --givens {k}"))
                .unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

//! `--size N`, `--box RxC`, `--symbols` and `--format`: the options that
//! switch `solve`, `verify` and `puzzle` from the 8×8 contract to boards of
//! any shape (solved and checked by the core, no contract), as does a board
//! read from `@FILE` or `-`, whose text says its size.
//!
//! A board argument is the board's text (line form on the command line),
//! `@FILE` for a file, or `-` for standard input, in any of the core's text
//! forms (line, grid, header; see `octoku_core::grid::text`).

use std::path::Path;

use octoku_core::grid::Grid;
use octoku_core::grid::geometry::Geometry;
use octoku_core::grid::text::{self, Form, ReadOptions, Symbols};
use octoku_evm::limits;

use crate::error::CliError;

/// The text forms selectable with `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// N² symbols on one line, `.` for an empty cell.
    Line,
    /// One row per line, with box rules.
    Grid,
    /// A header of the symbols, then comma-separated rows.
    #[value(alias = "seed003")]
    Header,
}

impl From<FormatArg> for Form {
    fn from(f: FormatArg) -> Form {
        match f {
            FormatArg::Line => Form::Line,
            FormatArg::Grid => Form::Grid,
            FormatArg::Header => Form::Header,
        }
    }
}

/// Options of every command that takes boards of any size.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SizeArgs {
    /// Board side N (4 to 16; 9 is classic Sudoku): boards of any size, solved and checked by the core, no contract.
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Box shape RxC (rows x columns of a box, R·C = N), instead of the default for --size.
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,
    /// Symbols of the line and grid forms: N characters (ABCD) or N symbols separated by spaces.
    #[arg(long, value_name = "SYMBOLS")]
    pub symbols: Option<String>,
    /// Form of the boards printed (default: grid in text output).
    #[arg(long, value_enum, value_name = "FORM")]
    pub format: Option<FormatArg>,
}

/// The board a command works on, resolved once from its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// No `--size` or `--box`: the 8×8 member of the family
    /// ([`Geometry::OCTOKU`]) in its uint256 encoding, as the contracts take it.
    Contract,
    /// `--size` or `--box`: a board of this geometry in the text forms;
    /// `None` when a board read from a file or standard input says its size.
    Text(Option<Geometry>),
}

impl SizeArgs {
    /// The board shape the options and the board arguments ask for,
    /// resolved once: `--box`, else the default for `--size`, else the size
    /// a board file (`@FILE` or `-`) says, else the 8×8 contract board (which
    /// refuses the text-only options `--symbols` and `--format`).
    pub fn shape(&self, boards: &[&str]) -> Result<Shape, CliError> {
        if self.size.is_some() || self.box_shape.is_some() {
            Ok(Shape::Text(Some(self.geometry()?)))
        } else if boards.iter().any(|b| reads_a_file(b)) {
            Ok(Shape::Text(None))
        } else {
            self.refuse_without_size()?;
            Ok(Shape::Contract)
        }
    }

    /// Refuses the family-only options when the 8×8 contract path runs.
    fn refuse_without_size(&self) -> Result<(), CliError> {
        let given = [
            (self.symbols.is_some(), "--symbols"),
            (self.format.is_some(), "--format"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, flag)) => Err(CliError::Input(format!(
                "{flag} applies to boards of any size; expected --size N with it (the 8x8 contract boards take hex or 64 cells)"
            ))),
            None => Ok(()),
        }
    }

    /// The board shape: `--box`, else the default for `--size`; both must agree.
    pub fn geometry(&self) -> Result<Geometry, CliError> {
        let from_box = match &self.box_shape {
            Some(text) => Some(parse_box(text)?),
            None => None,
        };
        match (self.size, from_box) {
            (Some(n), Some(g)) if g.size() != n => Err(CliError::Input(format!(
                "--box {} makes a {}x{} board but --size is {n}; expected boxes whose rows x columns is {n}",
                self.box_shape.as_deref().unwrap_or_default(),
                g.size(),
                g.size()
            ))),
            (_, Some(g)) => Ok(g),
            (Some(n), None) => {
                Geometry::for_size(n).map_err(|e| CliError::input_in(format!("--size {n}"), e))
            }
            (None, None) => Err(CliError::Input(
                "no board size; expected --size N (4 to 16) or --box RxC".into(),
            )),
        }
    }

    /// The custom symbols, if any, checked against the board side.
    pub fn symbols(&self, g: Geometry) -> Result<Option<Symbols>, CliError> {
        let Some(text) = &self.symbols else {
            return Ok(None);
        };
        let symbols = Symbols::parse(text).map_err(|e| CliError::input_in("--symbols", e))?;
        if symbols.len() != g.size() {
            return Err(CliError::Input(format!(
                "--symbols: {} given; expected exactly {} for a {g} board",
                symbols.len(),
                g.size()
            )));
        }
        Ok(Some(symbols))
    }

    /// The read options for boards of `geometry` on this command line; with
    /// no geometry (a board file read as such) the text says its size.
    pub fn read_options(&self, geometry: Option<Geometry>) -> Result<ReadOptions, CliError> {
        let symbols = match geometry {
            Some(g) => self.symbols(g)?,
            None => self
                .symbols
                .as_deref()
                .map(|text| Symbols::parse(text).map_err(|e| CliError::input_in("--symbols", e)))
                .transpose()?,
        };
        Ok(ReadOptions { geometry, symbols })
    }

    /// The START argument read with this command line's options.
    pub fn read_start(
        &self,
        geometry: Option<Geometry>,
        start: &str,
    ) -> Result<text::Parsed, CliError> {
        read_board("START", start, &self.read_options(geometry)?)
    }
}

/// Parses `RxC` (also `R×C`, `R*C`).
fn parse_box(text: &str) -> Result<Geometry, CliError> {
    let bad = || {
        CliError::Input(format!(
            "--box {text}: expected rows x columns of a box, such as 3x3 or 2x4, with a product from 4 to 16"
        ))
    };
    let (r, c) = text.split_once(['x', 'X', '×', '*']).ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse::<usize>().map_err(|_| bad())?,
        c.trim().parse::<usize>().map_err(|_| bad())?,
    );
    // A side above 16 makes no board whatever the other is (and its product
    // would not fit a number).
    if r > Geometry::MAX_SIZE || c > Geometry::MAX_SIZE {
        return Err(bad());
    }
    Geometry::new(r, c).map_err(|e| CliError::input_in(format!("--box {text}"), e))
}

/// The text of a board argument: itself, a file (`@FILE`) or standard input
/// (`-`), each at most [`limits::BOARD_TEXT`] bytes (read no further).
pub fn argument_text(name: &str, arg: &str) -> Result<String, CliError> {
    let bound = limits::size(limits::BOARD_TEXT);
    let text = if arg == "-" {
        limits::read_text(std::io::stdin().lock(), limits::BOARD_TEXT).map_err(|e| {
            CliError::input_framed(
                format!("{name}: standard input: "),
                e,
                format!("; expected a board as UTF-8 text of at most {bound}"),
            )
        })?
    } else if let Some(path) = arg.strip_prefix('@') {
        limits::read_file(Path::new(path), limits::BOARD_TEXT).map_err(|e| {
            CliError::input_framed(
                format!("{name}: cannot read {path}: "),
                e,
                format!("; expected a readable UTF-8 board file of at most {bound}"),
            )
        })?
    } else if arg.len() as u64 > limits::BOARD_TEXT {
        return Err(CliError::Input(format!(
            "{name}: {} bytes; expected a board of at most {bound}",
            arg.len()
        )));
    } else {
        arg.to_owned()
    };
    Ok(text)
}

/// Whether a board argument names a file or standard input, whose text
/// may say its own size (the header form lists the N symbols).
pub fn reads_a_file(arg: &str) -> bool {
    arg == "-" || arg.starts_with('@')
}

/// A board argument read in any form.
pub fn read_board(name: &str, arg: &str, options: &ReadOptions) -> Result<text::Parsed, CliError> {
    let text = argument_text(name, arg)?;
    text::read(&text, options).map_err(|e| read_error(name, options, &e))
}

/// A read error labelled with the argument, or with `--symbols` when one
/// of the symbols asked for is what cannot be used.
pub fn read_error(name: &str, options: &ReadOptions, e: &text::TextError) -> CliError {
    let from_flag = match (e, &options.symbols) {
        (text::TextError::BadSymbol { symbol, .. }, Some(asked)) => {
            (1..=asked.len()).any(|v| asked.name(v as u8) == symbol)
        }
        _ => false,
    };
    let label = if from_flag { "--symbols" } else { name };
    CliError::input_in(label, e.clone())
}

/// Refuses `-` for more than one argument (standard input is read once).
pub fn one_stdin(args: &[&str]) -> Result<(), CliError> {
    if args.iter().filter(|a| **a == "-").count() > 1 {
        return Err(CliError::Input(
            "standard input (-) can hold one board; expected - for at most one argument".into(),
        ));
    }
    Ok(())
}

/// A board in a form, with one-line errors.
pub fn text_of(board: &Grid, symbols: &Symbols, form: Form) -> Result<String, CliError> {
    text::write(board, symbols, form).map_err(CliError::input)
}

/// The JSON form of a board ([`text::compact`]), with one-line errors.
pub fn json_board(board: &Grid, symbols: &Symbols) -> Result<String, CliError> {
    text::compact(board, symbols).map_err(CliError::input)
}

/// The form boards are printed in: `--format`, else the one read (grid for the line form).
pub fn display_form(args: &SizeArgs, read: Option<Form>) -> Form {
    match (args.format, read) {
        (Some(f), _) => f.into(),
        (None, Some(Form::Header)) => Form::Header,
        _ => Form::Grid,
    }
}

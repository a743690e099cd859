//! Text forms of an [`Grid`], read and written exactly.
//!
//! - **line**: the N² cells row by row, one symbol each, `.` (or `0` when `0`
//!   is not a symbol) for an empty cell: `1.3.` …
//! - **grid**: one row per line; spaces and box rules (`|`, `-`, `+`) are
//!   ignored when reading, and [`write()`] draws them between boxes.
//! - **header** (symbols header, comma-separated rows): a header line
//!   with the N symbols separated by single spaces, then one line per row,
//!   cells separated by commas, a single space for an empty cell. Symbols are
//!   any N distinct non-empty strings without a space or a comma, so letters
//!   and non-ASCII symbols work. A text is in this form when its first line
//!   has no comma and its second line does.
//!
//! The symbols of the line and grid forms are `1`-`9`, then `A`-`G`
//! ([`Symbols::standard`]) unless a custom set of single characters is given.
//! [`read`] then [`Parsed::to_text`] gives back the text read, for every text
//! [`write()`] can produce (and for a header that ends in one space, as some
//! published examples of this form do).
//!
//! ```
//! use octoku_core::grid::text::{read, write, Form, ReadOptions};
//! let text = "1 2 3 4 \n ,1, ,4\n4,2,1, \n ,3,4,2\n2, ,3, ";
//! let parsed = read(text, &ReadOptions::default()).unwrap();
//! assert_eq!(parsed.form, Form::Header);
//! assert_eq!(parsed.to_text().unwrap(), text);
//! assert_eq!(write(&parsed.board, &parsed.symbols, Form::Line).unwrap(), ".1.4421..3422.3.");
//! ```

use std::fmt;

use crate::grid::Grid;
use crate::grid::geometry::{Geometry, GeometryError};

/// One of the three text forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// N² symbols on one line.
    Line,
    /// One row per line, with box rules.
    Grid,
    /// A header of the symbols, then comma-separated rows.
    Header,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Line => "line",
            Form::Grid => "grid",
            Form::Header => "header",
        })
    }
}

/// The N symbols of a board, symbol `v` (1..=N) first: what each cell value is written as.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbols(Vec<String>);

/// The standard symbols in order: `1`-`9`, then `A`-`G`.
const STANDARD: &str = "123456789ABCDEFG";

impl Symbols {
    /// The standard symbols for side `n` (4..=16): `1`..`9`, then `A`..`G`.
    pub fn standard(n: usize) -> Symbols {
        Symbols(
            STANDARD
                .chars()
                .take(n.min(STANDARD.len()))
                .map(String::from)
                .collect(),
        )
    }

    /// A symbol set from its symbols in order; each must be non-empty, hold no
    /// whitespace, comma or control character (a terminal escape), and appear once.
    pub fn new<S: AsRef<str>>(symbols: &[S]) -> Result<Symbols, TextError> {
        let mut out: Vec<String> = Vec::with_capacity(symbols.len());
        for s in symbols {
            let s = s.as_ref();
            if s.is_empty() || s.chars().any(|c| c.is_whitespace() || c == ',') {
                return Err(TextError::BadSymbol {
                    symbol: s.to_owned(),
                    why: "symbols must be non-empty and hold no space or comma",
                });
            }
            if s.chars().any(char::is_control) {
                return Err(TextError::BadSymbol {
                    symbol: s.to_owned(),
                    why: "a control character (a terminal escape) is no symbol",
                });
            }
            if out.iter().any(|o| o == s) {
                return Err(TextError::RepeatedSymbol {
                    symbol: s.to_owned(),
                });
            }
            out.push(s.to_owned());
        }
        if !(Geometry::MIN_SIZE..=Geometry::MAX_SIZE).contains(&out.len()) {
            return Err(TextError::SymbolCount {
                found: out.len(),
                expected: None,
            });
        }
        Ok(Symbols(out))
    }

    /// Reads a `--symbols` value: symbols separated by spaces (`A B C D`), or,
    /// with no space, one symbol per character (`ABCD`, `αβγδ`).
    pub fn parse(text: &str) -> Result<Symbols, TextError> {
        let text = text.trim();
        if text.contains(' ') {
            let parts: Vec<&str> = text.split(' ').filter(|p| !p.is_empty()).collect();
            Symbols::new(&parts)
        } else {
            let parts: Vec<String> = text.chars().map(String::from).collect();
            Symbols::new(&parts)
        }
    }

    /// How many symbols: the side N of boards written with them.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty (never, for a set built by [`Symbols::new`]).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text of symbol `v` (1..=N).
    ///
    /// # Panics
    /// Panics if `v` is 0 or above N (a caller bug).
    pub fn name(&self, v: u8) -> &str {
        &self.0[usize::from(v) - 1]
    }

    /// The value 1..=N of a symbol, if it is one.
    pub fn value(&self, symbol: &str) -> Option<u8> {
        self.0.iter().position(|s| s == symbol).map(|i| i as u8 + 1)
    }

    /// The symbols separated by spaces, as the header form writes them.
    pub fn listed(&self) -> String {
        self.0.join(" ")
    }

    /// The symbols as single characters, for the line and grid forms; an error
    /// names a symbol those forms cannot hold.
    fn chars(&self) -> Result<Vec<char>, TextError> {
        self.0
            .iter()
            .map(|s| {
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) if !matches!(c, '.' | '|' | '-' | '+') => Ok(c),
                    (Some(_), None) => Err(TextError::BadSymbol {
                        symbol: s.clone(),
                        why: "the line and grid forms use `.` for an empty cell and `|`, `-`, `+` for box rules",
                    }),
                    _ => Err(TextError::BadSymbol {
                        symbol: s.clone(),
                        why: "the line and grid forms need one character per symbol (the header form takes longer symbols)",
                    }),
                }
            })
            .collect()
    }
}

/// Why a text is not a board, or a board cannot be written in a form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// Nothing but whitespace.
    #[error("board text is empty; expected {FORMS}")]
    Empty,
    /// A line whose length is no N² for a board octoku plays (or not the asked one).
    #[error("line form: {found} symbols; expected {}", line_expected(*expected))]
    LineLength {
        /// Symbols found.
        found: usize,
        /// The geometry asked for, if any.
        expected: Option<Geometry>,
    },
    /// A cell that is no symbol of the set and no empty mark.
    #[error("{}", unknown_symbol(*form, *row, *col, found, symbols))]
    UnknownSymbol {
        /// The form being read.
        form: Form,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The text found there.
        found: String,
        /// The symbols allowed, separated by spaces.
        symbols: String,
    },
    /// The wrong number of rows.
    #[error("{form} form: {found} rows; expected {expected}")]
    RowCount {
        /// The form being read.
        form: Form,
        /// Rows found.
        found: usize,
        /// Rows needed.
        expected: usize,
    },
    /// A row with the wrong number of cells.
    #[error("{form} form: row {} has {found} cells; expected {expected}", row + 1)]
    RowLength {
        /// The form being read.
        form: Form,
        /// 0-based row.
        row: usize,
        /// Cells found.
        found: usize,
        /// Cells needed.
        expected: usize,
    },
    /// A symbol listed twice (a header or `--symbols`).
    #[error(
        "symbols: `{}` is listed twice; expected N distinct symbols",
        symbol.escape_debug()
    )]
    RepeatedSymbol {
        /// The symbol.
        symbol: String,
    },
    /// A symbol a form cannot hold.
    #[error("symbols: `{}` cannot be a symbol: {why}", symbol.escape_debug())]
    BadSymbol {
        /// The symbol.
        symbol: String,
        /// Why, and what is allowed.
        why: &'static str,
    },
    /// A symbol set of the wrong size.
    #[error("symbols: {found} given; expected {}", symbols_expected(*expected))]
    SymbolCount {
        /// Symbols found.
        found: usize,
        /// The geometry they are for, if known.
        expected: Option<Geometry>,
    },
    /// The side N read from the text has no board shape.
    #[error("{form} form: a board of side {size}: {error}")]
    Shape {
        /// The form being read.
        form: Form,
        /// The side found.
        size: usize,
        /// Why it is no shape.
        error: GeometryError,
    },
    /// The text holds a board of another side than the one asked for.
    #[error("{form} form: the text holds a {found}x{found} board; expected {expected}")]
    SizeMismatch {
        /// The form being read.
        form: Form,
        /// The side found.
        found: usize,
        /// The geometry asked for.
        expected: Geometry,
    },
    /// Pieces of two forms in one text.
    #[error("mixed forms: {detail}; expected {FORMS}")]
    Mixed {
        /// What was seen.
        detail: String,
    },
    /// The header disagrees with the symbols asked for.
    #[error(
        "header form: the header lists the symbols {header} but the symbols asked for are {asked}; expected the same symbols in the same order"
    )]
    HeaderMismatch {
        /// The header's symbols.
        header: String,
        /// The symbols asked for.
        asked: String,
    },
}

/// The accepted forms, for messages about text that fits none.
const FORMS: &str = "a line of N² symbols, a grid with one row per line, or the header form (a header of N symbols, then rows of comma-separated cells)";

/// What a line of symbols should have held.
fn line_expected(expected: Option<Geometry>) -> String {
    match expected {
        Some(g) => format!("{} for a {g} board", g.cell_count()),
        None => "N² for a board of side N: 16, 36, 64, 81, 100, 144, 196, 225 or 256".to_owned(),
    }
}

/// How many symbols a set should have held.
fn symbols_expected(expected: Option<Geometry>) -> String {
    match expected {
        Some(g) => format!("exactly {} for a {g} board", g.size()),
        None => format!(
            "from {} to {} distinct symbols",
            Geometry::MIN_SIZE,
            Geometry::MAX_SIZE
        ),
    }
}

/// A cell that is no symbol, in one line.
fn unknown_symbol(form: Form, row: usize, col: usize, found: &str, symbols: &str) -> String {
    let empty = match form {
        Form::Header => "one space",
        _ => "`.`",
    };
    let (row, col) = (row + 1, col + 1);
    if found.is_empty() {
        format!(
            "{form} form: row {row} column {col} holds nothing; expected one of {symbols}, or {empty} for an empty cell"
        )
    } else {
        format!(
            "{form} form: row {row} column {col} is `{}`, not a symbol; expected one of {symbols}, or {empty} for an empty cell",
            found.escape_debug()
        )
    }
}

/// What [`read`] may be told beforehand.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The shape the board must have (else N comes from the text, with its default boxes).
    pub geometry: Option<Geometry>,
    /// Custom symbols (else the standard ones; a header must then agree).
    pub symbols: Option<Symbols>,
}

/// A board read from text, with what is needed to write the text back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The board.
    pub board: Grid,
    /// Its symbols (the standard ones, the custom ones, or the header's).
    pub symbols: Symbols,
    /// The form it was read in.
    pub form: Form,
    /// A header ended in one space.
    header_space: bool,
}

impl Parsed {
    /// The board written in the form it was read in (the text read, for every
    /// text [`write()`] produces).
    pub fn to_text(&self) -> Result<String, TextError> {
        let mut text = write(&self.board, &self.symbols, self.form)?;
        if self.header_space {
            let end = text.find('\n').unwrap_or(text.len());
            text.insert(end, ' ');
        }
        Ok(text)
    }
}

/// The geometry for a side read from text: the asked one (same side) or the default shape.
fn geometry_for(form: Form, size: usize, asked: Option<Geometry>) -> Result<Geometry, TextError> {
    match asked {
        Some(g) if g.size() == size => Ok(g),
        Some(g) => Err(TextError::SizeMismatch {
            form,
            found: size,
            expected: g,
        }),
        None => Geometry::for_size(size).map_err(|error| TextError::Shape { form, size, error }),
    }
}

/// The symbols for a geometry: the asked ones (right count) or the standard ones.
fn symbols_for(g: Geometry, asked: &Option<Symbols>) -> Result<Symbols, TextError> {
    match asked {
        Some(s) if s.len() == g.size() => Ok(s.clone()),
        Some(s) => Err(TextError::SymbolCount {
            found: s.len(),
            expected: Some(g),
        }),
        None => Ok(Symbols::standard(g.size())),
    }
}

/// Reads a board in any of the three forms (told apart as the module doc says).
pub fn read(text: &str, options: &ReadOptions) -> Result<Parsed, TextError> {
    // A UTF-8 byte-order mark (editors on Windows write one) is no symbol.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(TextError::Empty);
    }
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let second = lines.next();
    if text.contains(',') {
        if first.contains(',') {
            return Err(TextError::Mixed {
                detail: "a comma in the first line, where the header form lists its symbols separated by spaces".to_owned(),
            });
        }
        if second.is_some_and(|l| l.contains(',')) {
            return read_header(text, options);
        }
        return Err(TextError::Mixed {
            detail: "commas below a line without any, where the header form has a comma-separated row right below its header".to_owned(),
        });
    }
    if text.trim().lines().count() == 1 {
        read_line(text.trim(), options)
    } else {
        read_grid(text, options)
    }
}

/// The cell value of one character of a line or grid, or `None` when it is no symbol.
fn char_value(c: char, chars: &[char]) -> Option<u8> {
    match chars.iter().position(|&s| s == c) {
        Some(i) => Some(i as u8 + 1),
        None if c == '.' || c == '0' => Some(0),
        None => None,
    }
}

/// Builds a board from its cells read as characters.
fn board_from_chars(
    form: Form,
    g: Geometry,
    symbols: &Symbols,
    cells: &[char],
) -> Result<Grid, TextError> {
    let chars = symbols.chars()?;
    let mut values = Vec::with_capacity(cells.len());
    for (i, &c) in cells.iter().enumerate() {
        let Some(v) = char_value(c, &chars) else {
            let (row, col) = g.position(i);
            return Err(TextError::UnknownSymbol {
                form,
                row,
                col,
                found: c.to_string(),
                symbols: symbols.listed(),
            });
        };
        values.push(v);
    }
    Ok(Grid::from_cells(g, &values).expect("values are 0..=N and N² of them"))
}

/// Reads the line form (`line` already trimmed).
fn read_line(line: &str, options: &ReadOptions) -> Result<Parsed, TextError> {
    if let Some((k, c)) = line
        .chars()
        .enumerate()
        .find(|&(_, c)| c.is_whitespace() || matches!(c, '|' | '+'))
    {
        return Err(TextError::Mixed {
            detail: format!(
                "`{}` at character {} of a one-line board, where the line form has only symbols (a grid has one row per line)",
                c.escape_debug(),
                k + 1
            ),
        });
    }
    let cells: Vec<char> = line.chars().collect();
    let found = cells.len();
    let side = found.isqrt();
    let g = match options.geometry {
        Some(g) if g.cell_count() == found => g,
        Some(g) => {
            return Err(TextError::LineLength {
                found,
                expected: Some(g),
            });
        }
        None if side * side == found
            && (Geometry::MIN_SIZE..=Geometry::MAX_SIZE).contains(&side) =>
        {
            geometry_for(Form::Line, side, None)?
        }
        None => {
            return Err(TextError::LineLength {
                found,
                expected: None,
            });
        }
    };
    let symbols = symbols_for(g, &options.symbols)?;
    let board = board_from_chars(Form::Line, g, &symbols, &cells)?;
    Ok(Parsed {
        board,
        symbols,
        form: Form::Line,
        header_space: false,
    })
}

/// Whether a grid character is layout: whitespace or a box rule.
fn is_layout(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '-' | '+')
}

/// Reads the grid form.
fn read_grid(text: &str, options: &ReadOptions) -> Result<Parsed, TextError> {
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.chars().filter(|&c| !is_layout(c)).collect::<Vec<char>>())
        .filter(|cells| !cells.is_empty())
        .collect();
    let g = match options.geometry {
        Some(g) if g.size() == rows.len() => g,
        Some(g) => {
            return Err(TextError::RowCount {
                form: Form::Grid,
                found: rows.len(),
                expected: g.size(),
            });
        }
        None => geometry_for(Form::Grid, rows.len(), None)?,
    };
    let n = g.size();
    if let Some((row, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != n) {
        return Err(TextError::RowLength {
            form: Form::Grid,
            row,
            found: r.len(),
            expected: n,
        });
    }
    let symbols = symbols_for(g, &options.symbols)?;
    let cells: Vec<char> = rows.concat();
    let board = board_from_chars(Form::Grid, g, &symbols, &cells)?;
    Ok(Parsed {
        board,
        symbols,
        form: Form::Grid,
        header_space: false,
    })
}

/// Reads the header form.
fn read_header(text: &str, options: &ReadOptions) -> Result<Parsed, TextError> {
    let body = text.trim_end_matches(['\n', '\r']);
    let mut lines = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let header = lines.next().unwrap_or("");
    let (header, header_space) = match header.strip_suffix(' ') {
        Some(h) => (h, true),
        None => (header, false),
    };
    let parts: Vec<&str> = header.split(' ').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(TextError::BadSymbol {
            symbol: String::new(),
            why: "the header lists its symbols separated by single spaces (found two spaces in a row, or one at the start)",
        });
    }
    let symbols = Symbols::new(&parts)?;
    let g = geometry_for(Form::Header, symbols.len(), options.geometry)?;
    if let Some(asked) = &options.symbols
        && asked != &symbols
    {
        return Err(TextError::HeaderMismatch {
            header: symbols.listed(),
            asked: asked.listed(),
        });
    }
    let rows: Vec<&str> = lines.collect();
    let n = g.size();
    if rows.len() != n {
        return Err(TextError::RowCount {
            form: Form::Header,
            found: rows.len(),
            expected: n,
        });
    }
    let mut values = Vec::with_capacity(n * n);
    for (row, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != n {
            return Err(TextError::RowLength {
                form: Form::Header,
                row,
                found: cells.len(),
                expected: n,
            });
        }
        for (col, cell) in cells.iter().enumerate() {
            let v = match *cell {
                " " => 0,
                s => symbols.value(s).ok_or_else(|| TextError::UnknownSymbol {
                    form: Form::Header,
                    row,
                    col,
                    found: s.to_owned(),
                    symbols: symbols.listed(),
                })?,
            };
            values.push(v);
        }
    }
    let board = Grid::from_cells(g, &values).expect("values are 0..=N and N² of them");
    Ok(Parsed {
        board,
        symbols,
        form: Form::Header,
        header_space,
    })
}

/// A board in one string for JSON: the line form in its symbols, or the
/// header text when a symbol is longer than one character.
pub fn compact(board: &Grid, symbols: &Symbols) -> Result<String, TextError> {
    write(board, symbols, Form::Line).or_else(|_| write(board, symbols, Form::Header))
}

/// Writes a board in a form with its symbols (as many as the board's side).
///
/// - line: N² characters, `.` for an empty cell, no newline;
/// - grid: rows of characters separated by spaces, ` | ` between boxes, a
///   rule line (`-` and `+`) between bands of boxes, no final newline;
/// - header: the header, then the rows; no final newline.
pub fn write(board: &Grid, symbols: &Symbols, form: Form) -> Result<String, TextError> {
    let g = board.geometry();
    let n = g.size();
    if symbols.len() != n {
        return Err(TextError::SymbolCount {
            found: symbols.len(),
            expected: Some(g),
        });
    }
    let rows = board.cells().chunks(n);
    match form {
        Form::Line => {
            let chars = symbols.chars()?;
            Ok(board
                .cells()
                .iter()
                .map(|&v| {
                    if v == 0 {
                        '.'
                    } else {
                        chars[usize::from(v) - 1]
                    }
                })
                .collect())
        }
        Form::Grid => {
            let chars = symbols.chars()?;
            let mut lines = Vec::with_capacity(n + g.box_cols());
            for (r, row) in rows.enumerate() {
                let mut line = String::new();
                for (c, &v) in row.iter().enumerate() {
                    if c > 0 {
                        line.push_str(if c % g.box_cols() == 0 { " | " } else { " " });
                    }
                    line.push(if v == 0 {
                        '.'
                    } else {
                        chars[usize::from(v) - 1]
                    });
                }
                if r > 0 && r % g.box_rows() == 0 {
                    let rule: String = line
                        .chars()
                        .map(|ch| if ch == '|' { '+' } else { '-' })
                        .collect();
                    lines.push(rule);
                }
                lines.push(line);
            }
            Ok(lines.join("\n"))
        }
        Form::Header => {
            let mut lines = vec![symbols.listed()];
            for row in rows {
                let cells: Vec<&str> = row
                    .iter()
                    .map(|&v| if v == 0 { " " } else { symbols.name(v) })
                    .collect();
                lines.push(cells.join(","));
            }
            Ok(lines.join("\n"))
        }
    }
}

//! A board as a printable picture: SVG, one square per cell, thin lines
//! between cells, thick ones between boxes and around the board, givens in
//! bold and filled-in symbols in grey, regular weight. Any size from 4×4 to
//! 16×16; the same board always gives the same bytes (integer coordinates,
//! a fixed order), so a picture can be compared with a checked-in one.
//!
//! ```
//! use octoku_core::grid::{Grid, svg, text::Symbols};
//! use octoku_core::Geometry;
//! let mut start = Grid::empty(Geometry::for_size(4).unwrap());
//! start.set(0, 0, 1);
//! let picture = svg::render(&start, None, &Symbols::standard(4));
//! assert!(picture.contains(r#"font-weight="bold">1</text>"#));
//! ```

use std::fmt::Write;

use crate::grid::{Grid, text::Symbols};

/// Side of a cell, in user units (1/96 inch when printed: about 12.7 mm).
pub const CELL: usize = 48;
/// White space around the board.
pub const MARGIN: usize = 12;
/// Line widths: between cells, between boxes, around the board.
const THIN: usize = 1;
const BOX: usize = 3;
const OUTER: usize = 4;
/// Font size of a one-character symbol; longer ones are set smaller.
const FONT: usize = 28;

/// `start`'s board as SVG: its symbols (givens) in bold; with `filled`
/// (a solution, or a board in play of the same geometry), the cells empty in
/// `start` show `filled`'s symbols in regular weight. Symbols are named by
/// `symbols` (which must name `start`'s size; a value it cannot name is
/// left out).
pub fn render(start: &Grid, filled: Option<&Grid>, symbols: &Symbols) -> String {
    let g = start.geometry();
    let n = g.size();
    let side = n * CELL;
    let total = side + 2 * MARGIN;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" viewBox="0 0 {total} {total}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"##
    );
    let _ = writeln!(
        out,
        r##"<rect width="{total}" height="{total}" fill="#fff"/>"##
    );
    let (thin, thick): (Vec<usize>, Vec<usize>) = (1..n).partition(|&k| {
        // A line between rows k-1 and k is thick when it ends a band of boxes.
        k % g.box_rows() != 0
    });
    let (thin_cols, thick_cols): (Vec<usize>, Vec<usize>) =
        (1..n).partition(|&k| k % g.box_cols() != 0);
    let lines = |rows: &[usize], cols: &[usize]| {
        let mut d = String::new();
        for &r in rows {
            let y = MARGIN + r * CELL;
            let _ = write!(d, "M{MARGIN} {y}H{}", MARGIN + side);
        }
        for &c in cols {
            let x = MARGIN + c * CELL;
            let _ = write!(d, "M{x} {MARGIN}V{}", MARGIN + side);
        }
        d
    };
    let _ = writeln!(
        out,
        r##"<path d="{}" stroke="#888" stroke-width="{THIN}" fill="none"/>"##,
        lines(&thin, &thin_cols)
    );
    let _ = writeln!(
        out,
        r##"<path d="{}" stroke="#000" stroke-width="{BOX}" stroke-linecap="square" fill="none"/>"##,
        lines(&thick, &thick_cols)
    );
    let _ = writeln!(
        out,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" stroke="#000" stroke-width="{OUTER}" fill="none"/>"##
    );
    let _ = writeln!(out, r##"<g text-anchor="middle" fill="#000">"##);
    for row in 0..n {
        for col in 0..n {
            let given = start.get(row, col);
            let (value, bold) = match (given, filled) {
                (0, Some(f)) if f.geometry() == g => (f.get(row, col), false),
                (v, _) => (v, true),
            };
            if value == 0 || usize::from(value) > symbols.len() {
                continue;
            }
            let name = symbols.name(value);
            let size = font_size(name);
            let x = MARGIN + col * CELL + CELL / 2;
            // The alphabetic baseline, so the glyph's middle sits mid-cell.
            let y = MARGIN + row * CELL + CELL / 2 + size * 7 / 20;
            // Givens black and bold; filled-in symbols grey and regular.
            let weight = if bold {
                r#" font-weight="bold""#
            } else {
                r##" fill="#555""##
            };
            let _ = writeln!(
                out,
                r#"<text x="{x}" y="{y}" font-size="{size}"{weight}>{}</text>"#,
                escape(name)
            );
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A symbol's font size: [`FONT`] for one or two characters, smaller for
/// longer names so they stay inside the cell.
fn font_size(name: &str) -> usize {
    let chars = name.chars().count().max(1);
    if chars <= 2 {
        FONT
    } else {
        (FONT * 2 / chars).max(10)
    }
}

/// `text` as XML character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Geometry;

    #[test]
    fn every_size_draws_its_lines_and_only_its_symbols() {
        for n in [4, 6, 8, 9, 10, 12, 14, 15, 16] {
            let g = Geometry::for_size(n).unwrap();
            let mut start = Grid::empty(g);
            start.set(0, 0, 1);
            start.set(n - 1, n - 1, n as u8);
            let svg = render(&start, None, &Symbols::standard(n));
            assert_eq!(svg.matches("<text ").count(), 2, "{n}");
            let total = n * CELL + 2 * MARGIN;
            assert!(svg.starts_with(&format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total}\""
            )));
            // Lines between boxes: n / box_rows - 1 across, n / box_cols - 1 down.
            let thick = svg
                .lines()
                .find(|l| l.contains("stroke-width=\"3\""))
                .unwrap();
            let across = thick.matches('H').count();
            let down = thick.matches('V').count();
            assert_eq!(
                (across, down),
                (n / g.box_rows() - 1, n / g.box_cols() - 1),
                "{n}"
            );
        }
    }

    #[test]
    fn symbols_are_escaped_and_long_names_set_smaller() {
        let g = Geometry::for_size(4).unwrap();
        let start = Grid::from_cells(g, &[1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let symbols = Symbols::new(&["<", "&", "ab", "long"]).unwrap();
        let svg = render(&start, None, &symbols);
        assert!(
            svg.contains(">&lt;</text>") && svg.contains(">&amp;</text>"),
            "{svg}"
        );
        assert!(
            svg.contains(r#"font-size="14" font-weight="bold">long</text>"#),
            "{svg}"
        );
    }
}

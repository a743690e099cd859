//! Source lines of executed instructions: solc's compressed source map of a
//! runtime code, read once, answers "which line is this pc on?" (for `gas
//! --profile`).

use std::collections::HashMap;

use crate::meter::Step;

/// Maps program counters of one contract's runtime code to source lines.
pub struct SourceLines {
    /// Instruction index of each byte offset (`None` inside push data).
    instruction_at: Vec<Option<usize>>,
    /// Decompressed source map: `(offset, length, file)` per instruction.
    entries: Vec<(i64, i64, i64)>,
    /// The source files by solc's file index: path and text.
    files: HashMap<usize, (String, String)>,
}

impl SourceLines {
    /// The lines of runtime `code` through solc's compressed source `map`,
    /// whose file indexes name `files` (path and text by index; a file not
    /// among them reads as compiler-generated code).
    pub fn new(code: &[u8], map: &str, files: HashMap<usize, (String, String)>) -> SourceLines {
        let mut instruction_at = vec![None; code.len() + 1];
        let (mut pc, mut index) = (0usize, 0usize);
        while pc < code.len() {
            instruction_at[pc] = Some(index);
            let op = code[pc];
            // PUSH1..PUSH32 carry 1..32 bytes of immediate data.
            pc += 1 + if (0x60..=0x7f).contains(&op) {
                usize::from(op - 0x5f)
            } else {
                0
            };
            index += 1;
        }
        SourceLines {
            instruction_at,
            entries: decompress(map),
            files,
        }
    }

    /// `("file:line", "trimmed source text")` for one executed instruction.
    pub(crate) fn locate(&self, step: &Step) -> (String, String) {
        let entry = self
            .instruction_at
            .get(step.pc)
            .copied()
            .flatten()
            .and_then(|i| self.entries.get(i));
        let Some(&(offset, _length, file)) = entry else {
            return ("(no source map)".into(), String::new());
        };
        let Some((path, text)) = usize::try_from(file).ok().and_then(|f| self.files.get(&f)) else {
            return ("(compiler-generated)".into(), String::new());
        };
        let offset = usize::try_from(offset).unwrap_or(0).min(text.len());
        let line = text[..offset].matches('\n').count() + 1;
        let content = text.lines().nth(line - 1).unwrap_or("").trim().to_string();
        (format!("{path}:{line}"), content)
    }
}

/// Decompresses solc's source map (`s:l:f:j:m;...`, empty fields repeat the
/// previous entry's) into `(offset, length, file)` per instruction.
fn decompress(map: &str) -> Vec<(i64, i64, i64)> {
    let mut out = Vec::new();
    let mut last = (0i64, 0i64, -1i64);
    for entry in map.split(';') {
        let mut fields = entry.split(':');
        let mut take = |previous: i64| match fields.next() {
            Some(f) if !f.is_empty() => f.parse().unwrap_or(previous),
            _ => previous,
        };
        last = (take(last.0), take(last.1), take(last.2));
        out.push(last);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_map_fields_inherit_from_the_previous_entry() {
        assert_eq!(
            decompress("1:2:0:-;:3;;5::-1"),
            vec![(1, 2, 0), (1, 3, 0), (1, 3, 0), (5, 3, -1)]
        );
    }
}

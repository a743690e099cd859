//! Every bound octoku puts on what it reads, and the one reader that
//! enforces them: at most `limit + 1` bytes are ever read (`Read::take`), so
//! `/dev/zero`, an endless pipe or a huge sparse file is refused at once
//! instead of filling memory. `docs/limits.md` lists the bounds and their
//! messages.

use std::{
    fs::File,
    io::{self, Read},
    path::Path,
};

/// A board argument, `@FILE` or standard input (`-`): 64 KiB (a 16×16
/// board in the header form with long symbols is a few KiB).
pub const BOARD_TEXT: u64 = 64 * 1024;

/// A `solve --batch` file or standard input: 64 MiB (about 790,000 9×9
/// puzzles of 82 bytes a line, or 250,000 16×16 ones), all held in memory
/// to be solved again under `--bench`.
pub const BATCH_FILE: u64 = 64 * 1024 * 1024;

/// A keystore file: 64 KiB (cast's and geth's are under 1 KiB).
pub const KEYSTORE: u64 = 64 * 1024;

/// A `--password-file`: 64 KiB.
pub const PASSWORD_FILE: u64 = 64 * 1024;

/// The embedded chain's state file: 64 MiB (about 100,000 transactions).
pub const STATE_FILE: u64 = 64 * 1024 * 1024;

/// `deployments/<chain-id>.json`: 16 MiB (about 25,000 deployments).
pub const DEPLOYMENTS_FILE: u64 = 16 * 1024 * 1024;

/// A pending Curta Golf submit (`.octoku/golf/*.json`): 64 KiB (octoku
/// writes under 1 KiB: the key, the salt, the hashes and the block).
pub const PENDING_SUBMIT: u64 = 64 * 1024;

/// One JSON-RPC response body: 32 MiB (a log query of 10,000 blocks of
/// `Solved` events is far below it).
pub const RPC_RESPONSE: u64 = 32 * 1024 * 1024;

/// Text a node sends back (an error message, an HTTP error page) is shown
/// as one line of at most this many characters.
pub const NODE_TEXT: usize = 200;

/// Text from outside (a node's error message, an HTML error page) as one
/// printable line: control characters (terminal escapes included) and
/// invisible direction marks removed, whitespace runs as one space, cut
/// after `max` characters with the full length in bytes said.
pub fn one_line(text: &str, max: usize) -> String {
    let invisible = |c: char| {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    let mut line = String::new();
    let mut shown = 0;
    let mut space = false;
    for c in text.chars() {
        let c = if c.is_whitespace() || invisible(c) {
            ' '
        } else {
            c
        };
        if c == ' ' {
            space = !line.is_empty();
            continue;
        }
        if shown == max {
            line.push_str(&format!("… ({} bytes in all)", text.len()));
            return line;
        }
        if space {
            line.push(' ');
            space = false;
        }
        line.push(c);
        shown += 1;
    }
    line
}

/// Why a bounded read failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The source holds more than the limit.
    #[error("larger than {}", size(*limit))]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The path exists but is not a regular file (a directory, a device, a pipe).
    #[error("not a regular file")]
    NotRegular,
    /// The text is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// The operating system refused (missing file, no permission ...).
    #[error("{0}")]
    Io(#[source] io::Error),
}

impl ReadError {
    /// Whether the source is missing (so a caller may treat it as absent).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// `64 KiB`, `16 MiB`, or bytes for a limit that is no whole KiB.
pub fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads at most `limit` bytes of UTF-8 text from `reader`; one byte more is
/// [`ReadError::TooLarge`], and nothing past it is read.
pub fn read_text(reader: impl Read, limit: u64) -> Result<String, ReadError> {
    let bytes = read_bytes(reader, limit)?;
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
}

/// Reads at most `limit` bytes from `reader`; one byte more is [`ReadError::TooLarge`].
pub fn read_bytes(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads the file at `path` as text, at most `limit` bytes. A pipe or a
/// device is read too (process substitution, `/dev/stdin`), through the same
/// bound.
pub fn read_file(path: &Path, limit: u64) -> Result<String, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        )));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    read_text(file, limit)
}

/// Checks that `path`, if it exists, is a regular file: octoku's own files
/// (the state file, the deployment records) are replaced by renames and
/// locked through a sibling, which a device or a pipe cannot be.
pub fn require_regular(path: &Path) -> Result<(), ReadError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(_) => Err(ReadError::NotRegular),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ReadError::Io(e)),
    }
}

/// Reads one of octoku's own files: a regular file of at most `limit` bytes.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<String, ReadError> {
    require_regular(path)?;
    read_file(path, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_one_byte_over_the_limit_is_refused_and_read_no_further() {
        assert_eq!(read_text(&b"abcd"[..], 4).unwrap(), "abcd");
        let e = read_text(&b"abcde"[..], 4).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { limit: 4 }), "{e}");
        // An endless source ends at limit + 1 bytes.
        let e = read_text(io::repeat(b'x'), BOARD_TEXT).unwrap_err();
        assert_eq!(e.to_string(), "larger than 64 KiB");
        assert!(matches!(
            read_text(&[0xff, 0xfe][..], 4),
            Err(ReadError::NotUtf8)
        ));
    }

    #[test]
    fn devices_are_not_regular_files_and_missing_files_are() {
        assert!(matches!(
            require_regular(Path::new("/dev/null")),
            Err(ReadError::NotRegular)
        ));
        assert!(require_regular(Path::new("/nonexistent/octoku")).is_ok());
        assert!(
            read_regular_file(Path::new("/nonexistent/octoku"), 1)
                .unwrap_err()
                .is_not_found()
        );
    }

    #[test]
    fn outside_text_becomes_one_short_printable_line() {
        assert_eq!(one_line("  a\n\tb  ", 10), "a b");
        assert_eq!(one_line("\x1b[31mred\x1b[0m\u{202e}x", 20), "[31mred [0m x");
        let long = "é".repeat(300);
        let line = one_line(&long, NODE_TEXT);
        assert!(line.ends_with("… (600 bytes in all)"), "{line}");
        assert_eq!(line.chars().filter(|&c| c == 'é').count(), NODE_TEXT);
        assert!(!line.contains('\n'));
    }

    #[test]
    fn sizes_read_as_units() {
        assert_eq!(size(STATE_FILE), "64 MiB");
        assert_eq!(size(BOARD_TEXT), "64 KiB");
        assert_eq!(size(100), "100 bytes");
    }
}

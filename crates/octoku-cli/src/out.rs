//! Writing to standard output without panicking: `println!` panics when
//! stdout is a closed pipe or a full disk; these macros return the error,
//! which becomes exit status 6. Both streams go through `anstream`, which
//! drops color codes where color is off ([`crate::style`]).

/// Like `println!`, but returns `std::io::Result<()>`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::out::write_line(format_args!($($arg)*))
    };
}

/// Writes one line and flushes, so a failure shows at the line that failed.
pub fn write_line(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    use std::io::Write;
    crate::progress::suspend(|| {
        let mut out = anstream::stdout().lock();
        out.write_fmt(args)?;
        out.write_all(b"\n")?;
        out.flush()
    })
}

/// Writes `text` as it is (no newline added) and flushes.
pub fn write_text(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = anstream::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Like `eprintln!`, but a closed or full stderr is ignored instead of a
/// panic (there is nowhere left to say it).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(anstream::stderr(), $($arg)*);
    }};
}

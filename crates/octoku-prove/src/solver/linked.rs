//! bitwuzla linked into the binary (cargo feature `bitwuzla`): the same
//! solver as the pinned PyPI package (bitwuzla 0.9.1), called through its C
//! API in this process, so proving needs no Python and no solver process.
//!
//! The declarations below are written against bitwuzla 0.9.1's
//! `include/bitwuzla/c/{bitwuzla,parser}.h`, for the few functions used.
//! The `bitwuzla-sys` crate (0.8.0) binds bitwuzla 0.8.0: it has no
//! declarations for the parser (`parser.h`), and 0.9 renumbered the option
//! enum (`PRODUCE_INTERPOLANTS` came in after `PRODUCE_MODELS`), so its
//! constants would set the wrong options on 0.9.1. [`check_version`] refuses
//! any other library version, so a mismatch is an error, never a wrong
//! option. The build script (`build.rs`) says where the library comes from.

use std::ffi::{CStr, CString, c_char};
use std::path::Path;
use std::time::{Duration, Instant};

use octoku_core::U256;

use super::{Answer, Solved, SolverError};

/// The bitwuzla version these declarations are written for (the version
/// `requirements.txt` pins for the Python path).
pub const VERSION: &str = "0.9.1";

#[allow(non_camel_case_types)]
mod ffi {
    use std::ffi::c_char;

    /// `BitwuzlaTermManager`, `BitwuzlaOptions`, `Bitwuzla`,
    /// `BitwuzlaParser`: opaque.
    #[repr(C)]
    pub struct Opaque {
        _private: [u8; 0],
    }
    pub type Term = *const Opaque;

    /// `BITWUZLA_OPT_PRODUCE_MODELS` in 0.9.1's `option.h`.
    pub const OPT_PRODUCE_MODELS: u32 = 1;
    /// `BITWUZLA_OPT_TIME_LIMIT_PER` in 0.9.1's `option.h` (milliseconds).
    pub const OPT_TIME_LIMIT_PER: u32 = 7;
    /// `BITWUZLA_SAT`, `BITWUZLA_UNSAT` in 0.9.1's `result.h`.
    pub const SAT: u32 = 10;
    pub const UNSAT: u32 = 20;

    unsafe extern "C" {
        pub fn bitwuzla_version() -> *const c_char;
        pub fn bitwuzla_term_manager_new() -> *mut Opaque;
        pub fn bitwuzla_term_manager_delete(tm: *mut Opaque);
        pub fn bitwuzla_options_new() -> *mut Opaque;
        pub fn bitwuzla_options_delete(options: *mut Opaque);
        pub fn bitwuzla_set_option(options: *mut Opaque, option: u32, value: u64);
        pub fn bitwuzla_get_option(options: *mut Opaque, option: u32) -> u64;
        pub fn bitwuzla_parser_new(
            tm: *mut Opaque,
            options: *mut Opaque,
            language: *const c_char,
            base: u8,
            outfile_name: *const c_char,
        ) -> *mut Opaque;
        pub fn bitwuzla_parser_delete(parser: *mut Opaque);
        pub fn bitwuzla_parser_parse(
            parser: *mut Opaque,
            input: *const c_char,
            parse_only: bool,
            parse_file: bool,
            error_msg: *mut *const c_char,
        );
        pub fn bitwuzla_parser_get_declared_funs(
            parser: *mut Opaque,
            size: *mut usize,
        ) -> *const Term;
        pub fn bitwuzla_parser_get_bitwuzla(parser: *mut Opaque) -> *mut Opaque;
        pub fn bitwuzla_check_sat(bitwuzla: *mut Opaque) -> u32;
        pub fn bitwuzla_get_value(bitwuzla: *mut Opaque, term: Term) -> Term;
        pub fn bitwuzla_term_is_bv(term: Term) -> bool;
        pub fn bitwuzla_term_get_symbol(term: Term) -> *const c_char;
        pub fn bitwuzla_term_value_get_str_fmt(term: Term, base: u8) -> *const c_char;
    }
}

/// The linked library's version, as it reports it.
pub fn version() -> String {
    // SAFETY: returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(ffi::bitwuzla_version()) }
        .to_string_lossy()
        .into_owned()
}

/// Refuses a library other than [`VERSION`] (its option numbers may differ).
fn check_version() -> Result<(), SolverError> {
    let linked = version();
    if linked == VERSION {
        Ok(())
    } else {
        Err(SolverError::Linked(format!(
            "the linked bitwuzla is {linked}, but octoku's declarations are for {VERSION}"
        )))
    }
}

/// A term manager, options and parser, deleted in the reverse order on
/// every path (the solver instance belongs to the parser).
struct Session {
    tm: *mut ffi::Opaque,
    options: *mut ffi::Opaque,
    parser: *mut ffi::Opaque,
}

impl Drop for Session {
    fn drop(&mut self) {
        // SAFETY: each pointer came from its `_new` and is deleted once,
        // the parser (which owns the solver) before what it uses.
        unsafe {
            if !self.parser.is_null() {
                ffi::bitwuzla_parser_delete(self.parser);
            }
            ffi::bitwuzla_options_delete(self.options);
            ffi::bitwuzla_term_manager_delete(self.tm);
        }
    }
}

/// Decides the SMT-LIB2 file at `path` with the linked bitwuzla, the check
/// bounded by `limit` (past it the answer is unknown). The file's own
/// `(check-sat)` is not run: it is parsed only, then checked once, the way
/// the pinned Python helper does it.
pub fn decide(path: &Path, limit: Duration) -> Result<Solved, SolverError> {
    check_version()?;
    let file = |error| SolverError::File {
        what: "cannot read",
        path: path.to_path_buf(),
        error,
    };
    // The parser opens the file itself; a missing or unreadable file is
    // reported here, with the reason, rather than as a parse error.
    std::fs::File::open(path).map_err(file)?;
    let name = CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| file(std::io::Error::other("the path holds a NUL byte")))?;
    let millis = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX).max(1);
    // SAFETY: the session owns every object it creates and deletes them in
    // Drop; strings passed in outlive the calls; strings returned are
    // copied before the next call that may overwrite them (bitwuzla keeps
    // them in thread-local buffers).
    unsafe {
        let tm = ffi::bitwuzla_term_manager_new();
        let options = ffi::bitwuzla_options_new();
        let mut session = Session {
            tm,
            options,
            parser: std::ptr::null_mut(),
        };
        ffi::bitwuzla_set_option(options, ffi::OPT_PRODUCE_MODELS, 1);
        ffi::bitwuzla_set_option(options, ffi::OPT_TIME_LIMIT_PER, millis);
        if ffi::bitwuzla_get_option(options, ffi::OPT_TIME_LIMIT_PER) != millis {
            return Err(SolverError::Linked(
                "bitwuzla did not take the time limit".into(),
            ));
        }
        session.parser =
            ffi::bitwuzla_parser_new(tm, options, c"smt2".as_ptr(), 16, c"<stdout>".as_ptr());
        let mut error: *const c_char = std::ptr::null();
        ffi::bitwuzla_parser_parse(session.parser, name.as_ptr(), true, true, &mut error);
        if !error.is_null() {
            let message = CStr::from_ptr(error).to_string_lossy().into_owned();
            return Err(SolverError::Linked(format!(
                "cannot parse {}: {message}",
                path.display()
            )));
        }
        let bitwuzla = ffi::bitwuzla_parser_get_bitwuzla(session.parser);
        let began = Instant::now();
        let result = ffi::bitwuzla_check_sat(bitwuzla);
        let check = began.elapsed();
        let answer = match result {
            ffi::UNSAT => Answer::Unsat,
            ffi::SAT => Answer::Sat(model(session.parser, bitwuzla)?),
            _ => Answer::Unknown,
        };
        drop(session);
        Ok(Solved {
            answer,
            solver: format!("bitwuzla {} (linked)", version()),
            check,
            wall: check,
        })
    }
}

/// The value of every declared bit-vector constant after `sat`.
///
/// # Safety
/// `parser` is live and `bitwuzla` is its solver, whose last check was sat
/// with models on.
unsafe fn model(
    parser: *mut ffi::Opaque,
    bitwuzla: *mut ffi::Opaque,
) -> Result<Vec<(String, U256)>, SolverError> {
    let mut size = 0usize;
    // SAFETY: per this function's contract; the returned array lives until
    // the next call on this thread, and is copied to a Vec first.
    let funs = unsafe {
        let ptr = ffi::bitwuzla_parser_get_declared_funs(parser, &mut size);
        if ptr.is_null() || size == 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(ptr, size).to_vec()
        }
    };
    let mut values = Vec::with_capacity(funs.len());
    for term in funs {
        // SAFETY: terms from the parser of this solver; strings copied at once.
        unsafe {
            if !ffi::bitwuzla_term_is_bv(term) {
                continue;
            }
            let symbol = ffi::bitwuzla_term_get_symbol(term);
            if symbol.is_null() {
                continue;
            }
            let name = CStr::from_ptr(symbol).to_string_lossy().into_owned();
            let value = ffi::bitwuzla_get_value(bitwuzla, term);
            let hex = CStr::from_ptr(ffi::bitwuzla_term_value_get_str_fmt(value, 16))
                .to_string_lossy()
                .into_owned();
            let value = match U256::from_str_radix(&hex, 16) {
                Ok(value) => value,
                Err(source) => return Err(SolverError::LinkedValue { name, hex, source }),
            };
            values.push((name, value));
        }
    }
    Ok(values)
}

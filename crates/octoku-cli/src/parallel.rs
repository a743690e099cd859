//! What the long-running commands (`audit`, `fuzz`, `sample`) share: the
//! `--threads` default, a rayon pool of that many workers, and an indicatif
//! progress bar (on a terminal only, never with `--json`).

use std::{
    fmt,
    sync::{
        Arc, LazyLock,
        atomic::{AtomicBool, Ordering},
    },
};

use crate::error::CliError;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// `--threads`: the given count, or the machine's cores; 0 is bad input.
pub fn threads(arg: Option<usize>) -> Result<usize, CliError> {
    let threads =
        arg.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if threads == 0 {
        return Err(CliError::Input(
            "--threads 0: expected at least 1 thread".into(),
        ));
    }
    Ok(threads)
}

/// Set by the first Ctrl-C once [`catch_interrupts`] ran.
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Exit status of an interrupted run (128 + SIGINT, as a shell reports it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// From now on the first Ctrl-C only sets a flag the long runs poll (so
/// they can say what was done and how to resume); a second one ends the
/// process at once with status 130.
pub fn catch_interrupts() {
    use signal_hook::{consts::SIGINT, flag};
    let flag = Arc::clone(&INTERRUPTED);
    // Registration fails only for forbidden signals; SIGINT is not one.
    let _ =
        flag::register_conditional_shutdown(SIGINT, i32::from(INTERRUPTED_EXIT), Arc::clone(&flag));
    let _ = flag::register(SIGINT, flag);
}

/// Whether Ctrl-C was pressed (after [`catch_interrupts`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// A rayon pool of `threads` workers.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::evm_in(format!("cannot start {threads} worker threads"), e))
}

/// A progress bar over `total` items named `unit`, with rate and ETA, drawn
/// on stderr when it is a terminal and hidden with `--json`.
pub fn progress(total: u64, unit: &str, json: bool) -> ProgressBar {
    let target = if json {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let template =
        format!("[{{bar:25}}] {{percent:>3}}% {{human_pos}} {unit}, {{rate}}, ETA {{eta}}");
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
            let _ = write!(w, "{:.0}/s", state.per_sec());
        })
        .progress_chars("#>.");
    ProgressBar::with_draw_target(Some(total), target).with_style(style)
}

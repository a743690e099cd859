//! A spinner naming the phase of a long step (proving, installing the
//! solver, checking a contract, fuzzing), drawn on stderr by indicatif: never
//! with `--json`, and not at all when stderr is not a terminal (indicatif
//! draws only to a terminal), so pipes and logs see the answer alone.
//! Lines written to stdout meanwhile ([`crate::out`]) hide it while they are
//! written, so it never lands between them. A library names its phases
//! through a reporter ([`octoku_prove::progress`]), never by printing.

use std::{borrow::Cow, sync::Mutex, time::Duration};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the spinner turns.
const TICK: Duration = Duration::from_millis(120);

/// The spinner on screen, if any, for [`suspend`].
static ACTIVE: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `write` with the spinner, if one is on screen, hidden.
pub fn suspend<T>(write: impl FnOnce() -> T) -> T {
    let active = ACTIVE.lock().ok().and_then(|a| a.clone());
    match active {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// A spinner with the phase's name and the time spent in it; cleared when
/// dropped.
pub struct Phase {
    bar: ProgressBar,
    /// Whether the proof library reports its phases to this spinner.
    reported: bool,
}

impl Phase {
    /// Starts a spinner saying `name`; hidden when `quiet` (`--json`).
    pub fn start(name: impl Into<Cow<'static, str>>, quiet: bool) -> Phase {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        let bar = ProgressBar::with_draw_target(None, target)
            .with_style(style)
            .with_message(name);
        bar.enable_steady_tick(TICK);
        if let Ok(mut active) = ACTIVE.lock() {
            *active = Some(bar.clone());
        }
        Phase {
            bar,
            reported: false,
        }
    }

    /// [`Phase::start`], and the prover's phases (executing, solving,
    /// validating) shown after `name` as the library reports them.
    pub fn reported(name: impl Into<Cow<'static, str>>, quiet: bool) -> Phase {
        let name: String = name.into().into_owned();
        let mut phase = Phase::start(name.clone(), quiet);
        let bar = phase.bar.clone();
        octoku_prove::progress::report_to(Some(Box::new(move |what: &str| {
            bar.set_message(format!("{name}: {what}"))
        })));
        phase.reported = true;
        phase
    }

    /// Names the next phase (the clock keeps running).
    pub fn set(&self, name: impl Into<Cow<'static, str>>) {
        self.bar.set_message(name);
    }

    /// Clears the spinner before an answer is printed.
    pub fn done(self) {}
}

impl Drop for Phase {
    fn drop(&mut self) {
        if self.reported {
            octoku_prove::progress::report_to(None);
        }
        if let Ok(mut active) = ACTIVE.lock() {
            *active = None;
        }
        self.bar.finish_and_clear();
    }
}

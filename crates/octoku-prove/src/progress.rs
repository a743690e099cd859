//! Progress of a long proof: the library names each phase (executing the
//! codes symbolically, solving, validating) to a reporter the caller
//! installs, such as a command line's spinner; nothing is printed here.

use std::sync::RwLock;

/// Receives the name of each phase as it starts.
pub type Reporter = Box<dyn Fn(&str) + Send + Sync>;

static REPORTER: RwLock<Option<Reporter>> = RwLock::new(None);

/// Installs `reporter` for every proof that follows (`None` removes it).
pub fn report_to(reporter: Option<Reporter>) {
    if let Ok(mut slot) = REPORTER.write() {
        *slot = reporter;
    }
}

/// Tells the reporter, if any, that the phase `name` starts.
pub fn phase(name: &str) {
    if let Ok(slot) = REPORTER.read()
        && let Some(report) = slot.as_ref()
    {
        report(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// The installed reporter hears every phase, in order, until removed.
    #[test]
    fn the_reporter_hears_each_phase_until_removed() {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&heard);
        report_to(Some(Box::new(move |name: &str| {
            sink.lock().unwrap().push(name.to_owned())
        })));
        phase("one");
        phase("two");
        report_to(None);
        phase("three");
        assert_eq!(*heard.lock().unwrap(), ["one", "two"]);
    }
}

//! chromedriver and headless Chromium (Debian's, from `make setup-browser`).

use std::{path::Path, process::Command, time::Duration};

use serde_json::{Map, Value, json};
use tempfile::TempDir;

use crate::{
    Result,
    process::{Process, quiet},
};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long chromedriver may take to start on a loaded machine.
const START_LIMIT: Duration = Duration::from_secs(60);

/// chromedriver on a free loopback port, with a fresh Chromium profile.
/// Dropping it kills chromedriver's process group and every Chromium
/// process of that profile, then removes the profile: a browser outlives
/// no test, even one that panicked with its WebDriver session open.
pub struct Browser {
    driver: Process,
    url: String,
    profile: TempDir,
}

impl Browser {
    /// Whether a browser test should skip: true only when Chromium or
    /// chromedriver is missing and `OCTOKU_SKIP_BROWSER` is set. Without
    /// that variable a missing browser panics with the way to install it.
    pub fn skipped() -> bool {
        if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
            return false;
        }
        if std::env::var_os("OCTOKU_SKIP_BROWSER").is_some() {
            eprintln!("skipped: no {CHROMIUM} or {CHROMEDRIVER} (OCTOKU_SKIP_BROWSER is set)");
            return true;
        }
        panic!(
            "no {CHROMIUM} or {CHROMEDRIVER}: run `make setup-browser` (apt-get install chromium chromium-driver), or set OCTOKU_SKIP_BROWSER=1"
        );
    }

    /// Starts chromedriver on a port the system picks, accepting loopback
    /// clients only, and returns once it listens.
    pub fn start() -> Result<Browser> {
        let profile = tempfile::Builder::new()
            .prefix("octoku-chromium-")
            .tempdir()?;
        let mut command = Command::new(CHROMEDRIVER);
        command.args(["--port=0", "--allowed-ips=127.0.0.1"]);
        let mut driver = Process::spawn("chromedriver", quiet(&mut command))?;
        // "ChromeDriver was started successfully on port PORT."
        let port = driver.wait_for_line(START_LIMIT, |line| {
            line.split_once("started successfully on port ")
                .and_then(|(_, rest)| rest.trim_end_matches('.').parse::<u16>().ok())
        })?;
        Ok(Browser {
            driver,
            url: format!("http://127.0.0.1:{port}"),
            profile,
        })
    }

    /// The WebDriver endpoint, `http://127.0.0.1:PORT`.
    pub fn webdriver_url(&self) -> &str {
        &self.url
    }

    /// The capabilities for a new session: headless Chromium with this
    /// browser's profile, no network of its own (updates, sync, QUIC).
    pub fn capabilities(&self) -> Map<String, Value> {
        let mut caps = Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--hide-scrollbars", "--force-device-scale-factor=1",
                    format!("--user-data-dir={}", self.profile.path().display()),
                ],
            }),
        );
        caps
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.driver.kill();
        for pid in self.processes() {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: kill(2) takes plain integers; `pid` runs Chromium
                // with this browser's own profile.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }
}

impl Browser {
    /// The ids of the processes whose command line names this browser's
    /// profile: Chromium and its helpers, once a session is open.
    pub fn processes(&self) -> Vec<u32> {
        let needle = format!("--user-data-dir={}", self.profile.path().display());
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
                let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
                cmdline
                    .split(|&b| b == 0)
                    .any(|arg| arg == needle.as_bytes())
                    .then_some(pid)
            })
            .collect()
    }
}

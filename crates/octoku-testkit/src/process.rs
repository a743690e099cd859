//! A child process in a process group of its own, killed with that whole
//! group when its guard drops.

use std::{
    io::{BufRead, BufReader, Read},
    os::unix::process::CommandExt,
    process::{Child, Command, Output, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use crate::{Result, Run};

/// A running process and everything it started (its process group). Dropping
/// the guard kills the group and reaps the child, on every path a test can
/// take, a panic included.
pub struct Process {
    child: Child,
    name: String,
    /// Whether the child has been waited for. Until then its id cannot be
    /// reused, so signalling its group reaches only what it started.
    reaped: bool,
}

impl Process {
    /// Spawns `command` as the leader of a new process group. `name` is
    /// what error messages call it.
    pub fn spawn(name: &str, command: &mut Command) -> Result<Process> {
        let child = command
            .process_group(0)
            .spawn()
            .map_err(|e| std::io::Error::new(e.kind(), format!("{name} did not start: {e}")))?;
        Ok(Process {
            child,
            name: name.to_string(),
            reaped: false,
        })
    }

    /// The child, e.g. to take its piped stdout or to wait for it.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// The process id (also the id of its process group).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Kills the whole process group now and reaps the child; a second
    /// call (or the drop after it) does nothing.
    pub fn kill(&mut self) {
        if !self.reaped {
            kill_group(self.child.id());
            let _ = self.child.kill();
            self.reap();
        }
    }

    /// Waits for the child; from then on its group is never signalled.
    fn reap(&mut self) -> Option<std::process::ExitStatus> {
        let status = self.child.wait().ok();
        self.reaped = true;
        status
    }

    /// The CPU time the child has used so far (user and system, from
    /// `/proc`): a measure of work done that a loaded machine does not skew.
    pub fn cpu_time(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the command name, which is in parentheses: state is
        // the 1st, utime the 12th and stime the 13th (proc(5)).
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
            .sum();
        // SAFETY: sysconf only reads a system constant.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
        Duration::from_millis(ticks * 1000 / per_second)
    }

    /// Sends Ctrl-C (SIGINT) to the child alone, as a terminal would.
    pub fn interrupt(&self) {
        if self.reaped {
            return;
        }
        let Ok(pid) = libc::pid_t::try_from(self.child.id()) else {
            return;
        };
        // SAFETY: kill(2) takes plain integers; `pid` is our unreaped child.
        unsafe {
            libc::kill(pid, libc::SIGINT);
        }
    }

    /// Waits for the child to exit and returns what it printed on its piped
    /// stdout and stderr (empty for a stream not piped or already taken).
    pub fn finish(mut self) -> Run {
        let stderr = self.child.stderr.take();
        let reading = thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut stderr) = stderr {
                let _ = stderr.read_to_end(&mut text);
            }
            text
        });
        let mut stdout = Vec::new();
        if let Some(mut out) = self.child.stdout.take() {
            let _ = out.read_to_end(&mut stdout);
        }
        // Wait for it to exit without reaping it (its id stays reserved),
        // end whatever it started and left behind, then reap it.
        let pid: libc::id_t = self.child.id();
        // SAFETY: waitid(2) writes only into `info`, a zeroed siginfo_t we
        // own; WNOWAIT leaves the child to be reaped by wait() below.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT);
        }
        kill_group(self.child.id());
        let status = self.reap().expect("the child is ours to wait for");
        Run::from(Output {
            status,
            stdout,
            stderr: reading.join().unwrap_or_default(),
        })
    }

    /// Reads the child's stdout (which must be piped) line by line until
    /// `find` returns a value, for at most `limit`; the rest of its output
    /// is drained in the background so the child never blocks on a full
    /// pipe. Fails if the child exits or stays silent.
    pub fn wait_for_line<T: Send + 'static>(
        &mut self,
        limit: Duration,
        mut find: impl FnMut(&str) -> Option<T> + Send + 'static,
    ) -> Result<T> {
        let stdout =
            self.child.stdout.take().ok_or_else(|| {
                std::io::Error::other(format!("{}: stdout is not piped", self.name))
            })?;
        let (found, answer) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let mut sent = false;
            while reader.read_line(&mut line).unwrap_or(0) > 0 {
                if !sent && let Some(value) = find(line.trim_end()) {
                    sent = found.send(value).is_ok();
                }
                line.clear();
            }
            // EOF: the child closed its stdout (it exited); `found` drops.
            let _ = reader.read_to_end(&mut Vec::new());
        });
        let deadline = Instant::now() + limit;
        match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(value) => Ok(value),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                kill_group(self.child.id());
                let status = self.reap().map(|s| s.to_string()).unwrap_or_default();
                Err(std::io::Error::other(format!(
                    "{} exited ({status}) before it was ready",
                    self.name
                )))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(std::io::Error::other(format!(
                "{} was not ready within {} s",
                self.name,
                limit.as_secs()
            ))),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// SIGKILL to every process in group `pgid`.
fn kill_group(pgid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    // SAFETY: kill(2) takes plain integers; a negative pid names a process
    // group, here one this guard created with process_group(0).
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// A piped stdout and no stdin: what a started server needs.
pub(crate) fn quiet(command: &mut Command) -> &mut Command {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
}

//! Child processes (a compiler for `--contract`, an SMT solver for the
//! prover) that never outlive octoku.

use std::process::Command;

/// Makes the child `command` starts receive SIGKILL when the thread that
/// spawned it ends, which includes octoku ending by any signal, so no
/// compiler or solver outlives it.
#[cfg(target_os = "linux")]
pub fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: prctl, getppid and _exit are async-signal-safe, as the code
    // between fork and exec must be; nothing here allocates or locks.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died before prctl took effect: end now.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Other systems: the child stays in octoku's process group (a terminal's
/// Ctrl-C reaches it too).
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_command: &mut Command) {}

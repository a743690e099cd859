//! `octoku completions SHELL`: a completion script for the shell, on stdout.

use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::error::CliError;

/// Arguments of `octoku completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script for `C` (the whole command line) to stdout.
pub fn run<C: CommandFactory>(args: Args) -> Result<ExitCode, CliError> {
    let mut command = C::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "octoku", &mut script);
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

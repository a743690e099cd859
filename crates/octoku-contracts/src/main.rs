//! `octoku-contracts`: compiles `contracts/` and writes octoku-evm's
//! generated files (`make contracts`); `--check` writes nothing and exits 1
//! if any differs from what is on disk.

use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("octoku-contracts: unexpected argument {other:?}; expected none or --check");
            return ExitCode::from(2);
        }
    };
    match run(check) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("octoku-contracts: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(check: bool) -> Result<ExitCode, octoku_contracts::BuildError> {
    let root = octoku_contracts::repo_root()?;
    let files = octoku_contracts::generate(&root)?;
    let stale = octoku_contracts::stale(&root, &files);
    let dir = octoku_contracts::GENERATED_DIR;
    if check {
        if stale.is_empty() {
            println!("{dir}: up to date ({} files)", files.len());
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "{dir}: {} differ from contracts/ compiled: run `make contracts`",
            stale.join(", ")
        );
        return Ok(ExitCode::FAILURE);
    }
    octoku_contracts::write(&root, &files)?;
    if stale.is_empty() {
        println!("{dir}: up to date ({} files)", files.len());
    } else {
        println!("{dir}: wrote {}", stale.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

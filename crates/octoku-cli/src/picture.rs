//! Pictures the commands write: a board as SVG (`octoku puzzle|board
//! --svg FILE`, drawn by `octoku_core::grid::svg`) and a gas profile as a
//! flame graph (`octoku gas --profile … --flamegraph FILE`, the convention
//! of `forge test --flamegraph`, drawn by the `inferno` crate from the
//! profile's folded stacks).

use std::io::Write;
use std::path::Path;

use octoku_evm::gas::Profile;

use crate::error::CliError;

/// Writes `svg` to `path` whole or not at all: into a temporary file beside
/// it, then renamed into place. `flag` names the option in the error.
pub fn write(flag: &str, path: &Path, svg: &str) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(CliError::Input(format!(
            "{flag} {}: there is no directory {}; expected a file in an existing directory",
            path.display(),
            dir.display()
        )));
    }
    let io = |e: std::io::Error| {
        CliError::Input(format!(
            "{flag} {}: cannot write it ({}); expected a writable file path",
            path.display(),
            std::io::Error::from(e.kind())
        ))
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    file.write_all(svg.as_bytes()).map_err(io)?;
    // A picture to share: readable by all, as a file written plainly would be
    // (the temporary file starts private).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(io)?;
    }
    file.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// The flame graph of `profile` titled `title`: the call at the root
/// ("all"), its source lines above it, each line's opcodes on top, widths
/// in gas.
pub fn flamegraph(profile: &Profile, title: &str) -> Result<String, CliError> {
    let stacks = profile.folded();
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_string();
    options.subtitle = Some(format!(
        "{} gas of execution; frames: source line, then opcode",
        profile.gas
    ));
    options.count_name = "gas".into();
    options.name_type = "Frame:".into();
    // Colors from the frames' names, so the same profile gives the same file.
    options.deterministic = true;
    // A frame's start is its source text: cut what does not fit at the end.
    options.text_truncate_direction = inferno::flamegraph::TextTruncateDirection::Right;
    let mut out = Vec::new();
    inferno::flamegraph::from_lines(&mut options, stacks.iter().map(String::as_str), &mut out)
        .map_err(|e| CliError::input_in("--flamegraph", e))?;
    String::from_utf8(out)
        .map_err(|_| CliError::Input("--flamegraph: the drawing is not UTF-8".into()))
}

/// Writes the 8×8 board `start` as SVG to `path` (`--svg`): its givens
/// in bold, standard symbols 1-8.
pub fn board(path: &Path, start: octoku_core::Board) -> Result<(), CliError> {
    let grid = octoku_core::Grid::try_from(start)
        .map_err(|e| CliError::input_in(format!("--svg: the board {start} cannot be drawn"), e))?;
    let symbols = octoku_core::grid::text::Symbols::standard(8);
    write(
        "--svg",
        path,
        &octoku_core::grid::svg::render(&grid, None, &symbols),
    )
}

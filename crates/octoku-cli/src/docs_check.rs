//! The documentation stays true to the binary: every `octoku ...` command
//! line in README.md and every .md under docs/ (subfolders included) parses
//! with the real clap definition ([`crate::Cli`]), and every relative link
//! (with its `#anchor`) resolves. The docs read as one book: every chapter
//! is reached from the index (docs/README.md) by following links, and every
//! chapter links back to it.
//!
//! A command line is a line of a shell code block (fence `sh`, `bash`,
//! `shell`, `console`, or none) or an inline code span whose command is
//! `octoku` (or a path ending in `/octoku`). Lines are split as a shell
//! would: quotes, `#` comments, `|`, `&&`, `||` and `;` between commands,
//! `VAR=value` prefixes, redirections, and `$(...)`, whose inner command is
//! checked too and which stands for one word outside. An inline span of just
//! `octoku NAME` names a command (only NAME is checked), and `octoku` alone
//! the program.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap::error::ErrorKind;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser as Markdown, Tag, TagEnd};

/// One markdown file of the documentation.
struct Doc {
    path: PathBuf,
    text: String,
}

impl Doc {
    /// `path:line` of a byte offset, for messages.
    fn at(&self, offset: usize) -> String {
        let line = self.text[..offset].matches('\n').count() + 1;
        let root = root();
        let name = self.path.strip_prefix(&root).unwrap_or(&self.path);
        format!("{}:{line}", name.display())
    }
}

/// The repository's root (this crate is `crates/octoku-cli`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every .md file under `dir`, subfolders included.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            found.extend(markdown_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "md") {
            found.push(path);
        }
    }
    found
}

/// A canonical path as a message shows it: relative to the repository.
fn shown(path: &Path) -> String {
    let root = root().canonicalize().expect("the repository exists");
    path.strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The book's index, the page every chapter is reached from.
fn index() -> PathBuf {
    root().join("docs/README.md")
}

/// README.md and every .md under docs/ (subfolders included), in a stable
/// order.
fn docs() -> Vec<Doc> {
    let root = root();
    let mut paths = vec![root.join("README.md")];
    let mut chapters = markdown_files(&root.join("docs"));
    chapters.sort();
    paths.extend(chapters);
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Doc { path, text }
        })
        .collect()
}

fn markdown(text: &str) -> Markdown<'_> {
    Markdown::new_ext(text, Options::ENABLE_TABLES)
}

/// The shell text a doc shows, with the byte offset it starts at: each
/// line of a shell code block (a line ending in `\` joined to the next) and
/// each inline code span.
fn shell_snippets(doc: &Doc) -> Vec<(usize, String, bool)> {
    let mut snippets = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (event, range) in markdown(&doc.text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let shell = match kind {
                    CodeBlockKind::Indented => true,
                    CodeBlockKind::Fenced(info) => {
                        let lang = info.split_whitespace().next().unwrap_or("");
                        matches!(lang, "" | "sh" | "bash" | "shell" | "console")
                    }
                };
                if shell {
                    block = Some((range.start, String::new()));
                }
            }
            Event::Text(text) => {
                if let Some((_, code)) = block.as_mut() {
                    code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((start, code)) = block.take() {
                    // The first line of a fenced block is the fence itself.
                    let first = start + doc.text[start..].find('\n').map_or(0, |i| i + 1);
                    let mut line_start = first;
                    let mut pending = String::new();
                    for line in code.split_inclusive('\n') {
                        let body = line.trim_end_matches('\n');
                        if pending.is_empty() {
                            line_start = first + code_offset(&code, line);
                        }
                        if let Some(head) = body.strip_suffix('\\') {
                            pending.push_str(head);
                            pending.push(' ');
                            continue;
                        }
                        pending.push_str(body);
                        let text = pending.trim().strip_prefix("$ ").unwrap_or(pending.trim());
                        snippets.push((line_start, text.to_string(), false));
                        pending.clear();
                    }
                }
            }
            // An inline span is a command line only when it starts with the
            // program (other spans are messages, names and values).
            Event::Code(code)
                if block.is_none()
                    && code
                        .split_whitespace()
                        .next()
                        .is_some_and(|w| w == "octoku" || w.ends_with("/octoku")) =>
            {
                snippets.push((range.start, code.to_string(), true));
            }
            _ => {}
        }
    }
    snippets
}

/// Where `line`, a slice of `code`, starts in it.
fn code_offset(code: &str, line: &str) -> usize {
    line.as_ptr() as usize - code.as_ptr() as usize
}

/// `text` without a trailing `#` comment (a `#` that starts a word outside
/// quotes).
fn strip_comment(text: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => return &text[..i],
            _ => {}
        }
        previous = c;
    }
    text
}

/// What is wrong with a command line or a link of the docs.
#[derive(Debug, thiserror::Error)]
enum Problem {
    /// A shell line that does not split into words.
    #[error("{what} in {line:?}")]
    Shell { what: &'static str, line: String },
    /// A word written with an ellipsis.
    #[error("{0:?} is elided; write the value in full")]
    Elided(String),
    /// `octoku NAME` where NAME is no command.
    #[error("no command {0:?}")]
    NoCommand(String),
    /// The first line of clap's refusal.
    #[error("{0}")]
    Refused(String),
    /// A link to a file that is not there.
    #[error("{dest}: no file {}", path.display())]
    NoFile { dest: String, path: PathBuf },
    /// A link's file could not be read.
    #[error("{dest}: {error}")]
    Unreadable { dest: String, error: std::io::Error },
    /// A link to an anchor no heading has.
    #[error("{dest}: no heading with the anchor #{anchor}")]
    NoAnchor { dest: String, anchor: String },
}

/// Replaces each `$(...)` outside single quotes by one word, `1`, and
/// returns the commands inside, to be checked on their own.
fn substitute(text: &str) -> Result<(String, Vec<String>), Problem> {
    let mut outer = String::new();
    let mut inner = Vec::new();
    let mut single = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\'' {
            single = !single;
        }
        if !single && rest.starts_with("$(") {
            let mut depth = 0usize;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    c == ')' && depth == 0
                })
                .map(|(i, _)| i)
                .ok_or_else(|| Problem::Shell {
                    what: "unclosed $(",
                    line: text.to_string(),
                })?;
            inner.push(rest[2..end].to_string());
            outer.push('1');
            rest = &rest[end + 1..];
            continue;
        }
        outer.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Ok((outer, inner))
}

/// A redirection word: `>`, `>>`, `<`, `2>`, `2>&1`, `&>`, with or
/// without its target attached. Returns whether the target is the next word.
fn redirection(word: &str) -> Option<bool> {
    let op = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
    let target = op.trim_start_matches(['<', '>']);
    if target.len() == op.len() {
        return None;
    }
    Some(target.is_empty())
}

/// The argument lists of the `octoku` commands in one shell line: each
/// element is `["octoku", args...]`.
fn octoku_commands(line: &str) -> Result<Vec<Vec<String>>, Problem> {
    let (outer, inner) = substitute(strip_comment(line))?;
    let mut commands = Vec::new();
    for text in inner {
        commands.extend(octoku_commands(&text)?);
    }
    let words = shlex::split(&outer).ok_or_else(|| Problem::Shell {
        what: "unbalanced quotes",
        line: line.to_string(),
    })?;
    for simple in words.split(|w| matches!(w.as_str(), "|" | "||" | "&&" | ";" | "&")) {
        let mut args = Vec::new();
        let mut skip_target = false;
        for word in simple {
            if skip_target {
                skip_target = false;
            } else if let Some(target_follows) = redirection(word) {
                skip_target = target_follows;
            } else if args.is_empty() && is_assignment(word) {
                // VAR=value before the command: the environment, not an argument.
            } else {
                args.push(word.clone());
            }
        }
        if args
            .first()
            .is_some_and(|program| program == "octoku" || program.ends_with("/octoku"))
        {
            args[0] = "octoku".into();
            commands.push(args);
        }
    }
    Ok(commands)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Why `args` (`["octoku", ...]`) is not a command a user can paste, if it
/// is not. `named` marks an inline mention: `octoku NAME` alone names a
/// command and only NAME is checked.
fn check_command(args: &[String], named: bool) -> Result<(), Problem> {
    if let Some(word) = args.iter().find(|w| w.contains('…')) {
        return Err(Problem::Elided(word.clone()));
    }
    if named && args.len() == 1 {
        return Ok(()); // the program's name
    }
    if named && args.len() == 2 && !args[1].starts_with('-') {
        return match crate::Shaped::command().find_subcommand(&args[1]) {
            Some(_) => Ok(()),
            None => Err(Problem::NoCommand(args[1].clone())),
        };
    }
    // As main parses: the help's shape (-j, -r), --json before the command.
    let argv = args.iter().map(Into::into).collect();
    match crate::parse(argv, crate::style::ColorWhen::Never) {
        Ok(_) => Ok(()),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => Ok(()),
        Err(e) => Err(Problem::Refused(
            e.render()
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        )),
    }
}

/// Every problem with the command lines of one shell line.
fn check_line(line: &str, named: bool) -> Vec<String> {
    match octoku_commands(line) {
        Err(e) => vec![e.to_string()],
        Ok(commands) => commands
            .iter()
            .filter_map(|args| {
                check_command(args, named)
                    .err()
                    .map(|e| format!("`{}`: {e}", args.join(" ")))
            })
            .collect(),
    }
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-`, `_` and
/// spaces kept, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a doc's headings, a repeated one numbered as GitHub
/// does (`name`, `name-1`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<String> = None;
    for event in markdown(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.push(if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                });
                *n += 1;
            }
            _ => {}
        }
    }
    anchors
}

/// The destinations of a doc's links and images, with their offsets.
fn links(doc: &Doc) -> Vec<(Range<usize>, String)> {
    markdown(&doc.text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((range, dest_url.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// The file a relative link of `doc` points to (without its anchor), made
/// canonical; `None` for a link out of the repository or to a missing file.
fn link_target(doc: &Doc, dest: &str) -> Option<PathBuf> {
    if dest.contains("://") || dest.starts_with("mailto:") {
        return None;
    }
    let file = dest.split_once('#').map_or(dest, |(f, _)| f);
    let target = if file.is_empty() {
        doc.path.clone()
    } else {
        doc.path.parent()?.join(file)
    };
    target.canonicalize().ok()
}

/// Why a relative link of `doc` does not resolve, if it does not.
fn check_link(doc: &Doc, dest: &str) -> Result<(), Problem> {
    if dest.contains("://") || dest.starts_with("mailto:") {
        return Ok(());
    }
    let (file, anchor) = dest
        .split_once('#')
        .map_or((dest, None), |(f, a)| (f, Some(a)));
    let target = if file.is_empty() {
        doc.path.clone()
    } else {
        doc.path.parent().expect("a doc is in a folder").join(file)
    };
    if !target.exists() {
        return Err(Problem::NoFile {
            dest: dest.to_string(),
            path: target,
        });
    }
    if let Some(anchor) = anchor {
        let text = std::fs::read_to_string(&target).map_err(|error| Problem::Unreadable {
            dest: dest.to_string(),
            error,
        })?;
        if !anchors(&text).iter().any(|a| a == anchor) {
            return Err(Problem::NoAnchor {
                dest: dest.to_string(),
                anchor: anchor.to_string(),
            });
        }
    }
    Ok(())
}

#[test]
fn every_octoku_command_line_in_the_docs_parses() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in docs() {
        for (offset, text, inline) in shell_snippets(&doc) {
            checked += octoku_commands(&text).map_or(0, |c| c.len());
            for problem in check_line(&text, inline) {
                problems.push(format!("{}: {problem}", doc.at(offset)));
            }
        }
    }
    println!("{checked} octoku command lines checked");
    assert!(
        checked >= 50,
        "only {checked} octoku command lines found in the docs"
    );
    assert!(
        problems.is_empty(),
        "command lines in the docs that octoku refuses:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_relative_link_and_anchor_in_the_docs_resolves() {
    let mut problems = Vec::new();
    for doc in docs() {
        for (range, dest) in links(&doc) {
            if let Err(e) = check_link(&doc, &dest) {
                problems.push(format!("{}: {e}", doc.at(range.start)));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "links in the docs that do not resolve:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_doc_is_reached_from_the_index() {
    let docs = docs();
    let canonical = |path: &Path| path.canonicalize().expect("a doc exists");
    let index = canonical(&index());
    let mut reached = vec![index.clone()];
    let mut next = vec![index];
    while let Some(page) = next.pop() {
        let Some(doc) = docs.iter().find(|d| canonical(&d.path) == page) else {
            continue;
        };
        for (_, dest) in links(doc) {
            if let Some(target) = link_target(doc, &dest)
                && target.extension().is_some_and(|ext| ext == "md")
                && !reached.contains(&target)
            {
                reached.push(target.clone());
                next.push(target);
            }
        }
    }
    let docs_dir = canonical(&root().join("docs"));
    let unreached: Vec<String> = docs
        .iter()
        .map(|d| canonical(&d.path))
        .filter(|path| path.starts_with(&docs_dir) && !reached.contains(path))
        .map(|path| shown(&path))
        .collect();
    assert!(
        unreached.is_empty(),
        "docs no link path from docs/README.md reaches:\n{}",
        unreached.join("\n")
    );
}

#[test]
fn every_chapter_links_to_the_index() {
    let index = index().canonicalize().expect("docs/README.md exists");
    let docs_dir = root().join("docs").canonicalize().expect("docs/ exists");
    let mut missing = Vec::new();
    for doc in docs() {
        let path = doc.path.canonicalize().expect("a doc exists");
        if !path.starts_with(&docs_dir) || path == index {
            continue;
        }
        if !links(&doc)
            .iter()
            .any(|(_, dest)| link_target(&doc, dest).as_ref() == Some(&index))
        {
            missing.push(shown(&path));
        }
    }
    assert!(
        missing.is_empty(),
        "chapters with no link to the book's index (docs/README.md):\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_flag_that_does_not_exist_is_caught() {
    let problems = check_line(
        "octoku verify --strict 0x1 0x2   # a planted bad line",
        false,
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("--strict"), "{problems:?}");
}

#[test]
fn synopsis_brackets_and_elided_values_are_caught() {
    assert!(!check_line("octoku solve 0x1 [--count N]", false).is_empty());
    assert!(!check_line("octoku solve --address 0xe0522c…73be", false).is_empty());
    assert!(!check_line("octoku nonsense", true).is_empty());
    assert!(
        check_line("octoku generate", true).is_empty(),
        "an inline mention of a command by name"
    );
    assert!(
        check_line("octoku", true).is_empty(),
        "an inline mention of the program"
    );
    assert!(!check_line("octoku --nonsense", true).is_empty());
    assert!(
        !check_line("octoku generate", false).is_empty(),
        "a code block line must be complete"
    );
}

#[test]
fn shell_lines_split_into_their_octoku_commands() {
    let commands = octoku_commands(
        "FOO=1 octoku puzzle --size 9 2>/dev/null | octoku solve --size 9 - --count 2 > out.txt && echo done # octoku nope",
    )
    .unwrap();
    assert_eq!(
        commands,
        [
            vec!["octoku", "puzzle", "--size", "9"],
            vec!["octoku", "solve", "--size", "9", "-", "--count", "2"],
        ]
    );
    let commands = octoku_commands(r#"target/release/octoku verify --size 9 "" "$(octoku puzzle --size 9 --json | jq -r .solution)""#).unwrap();
    assert_eq!(
        commands,
        [
            vec!["octoku", "puzzle", "--size", "9", "--json"],
            vec!["octoku", "verify", "--size", "9", "", "1"]
        ]
    );
    assert_eq!(
        octoku_commands("curl -s 'localhost:8580/api/verify' -d '{\"a\": \"# no comment\"}'")
            .unwrap(),
        Vec::<Vec<String>>::new()
    );
    assert!(
        check_line(
            "octoku generate 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045 --help",
            false
        )
        .is_empty()
    );
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchors(
            "# Gas\n## Any size: `--size`\n## Classic 9×9 on chain\n## Tests\n### Tests\n```sh\n# not a heading\n```\n"
        ),
        [
            "gas",
            "any-size---size",
            "classic-99-on-chain",
            "tests",
            "tests-1"
        ]
    );
}

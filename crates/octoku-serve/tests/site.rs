//! The static site and the page's own rules, without a browser: the page's
//! explanations (rules.js, run by node) equal the CLI's on random and
//! broken boards; the site's files are the served page's with only its
//! `<head>` changed, and may reach nothing but the RPC URL; the site is
//! written whole or not at all; and a server without a signer signs nothing.

use std::{path::PathBuf, process::Command};

use octoku_chain::{DEV_ACCOUNTS, PrivateKey};
use octoku_core::octoku::{explain::explain, fair::fair_generate};
use octoku_core::{
    Address, Board, generate, hex, keccak256, rng::SplitMix64, solve::octoku as solve,
};
use octoku_serve::{
    Config, Game, ServeError,
    api::problem_info,
    backend::Backend,
    page,
    site::{self, Site},
};
use octoku_testkit::temp_dir;
use serde_json::{Value, json};

/// Boards to explain: published and fair boards of random addresses with
/// their solutions, each broken in one of several ways (a changed given,
/// empty cells, two cells swapped, a value above 8, random cells), and the
/// solution itself.
fn cases() -> Vec<(Board, [u8; 64])> {
    let mut rng = SplitMix64::new(24);
    let mut out = Vec::new();
    while out.len() < 300 {
        let address = Address::new(rng.bytes20());
        let start = if out.len() % 2 == 0 {
            generate(&address)
        } else {
            fair_generate(&address)
        };
        let mut cells = match solve::solve(start) {
            Ok(Some(solution)) => solution.cells(),
            _ => start.cells(),
        };
        let i = rng.below(64) as usize;
        let j = rng.below(64) as usize;
        match out.len() % 6 {
            0 => {}
            1 => {
                let given = start.cells().iter().position(|&v| v != 0).unwrap_or(0);
                cells[given] = cells[given] % 8 + 1;
            }
            2 => (0..1 + rng.below(20)).for_each(|_| cells[rng.below(64) as usize] = 0),
            3 => cells.swap(i, j),
            4 => cells[i] = 9 + rng.below(7) as u8,
            _ => cells.iter_mut().for_each(|c| *c = rng.below(9) as u8),
        }
        out.push((start, cells));
    }
    out
}

/// Runs `script` with node, the page's asset `asset` as its first argument
/// and `args` after it; its output read as JSON.
fn node(asset: &str, script: &str, args: &[&std::ffi::OsStr]) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(asset);
    let out = Command::new("node")
        .args(["-e", script])
        .arg(&path)
        .args(args)
        .output()
        .expect("node runs (Node.js is needed for make setup)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The page's rules (rules.js) and the CLI's (octoku_core::octoku::explain) list the
/// same problems, with the same words, in the same order, on every case;
/// and they agree on which boards can be completed.
#[test]
fn the_page_explains_a_solution_as_the_cli_does() {
    let cases = cases();
    let input: Vec<Value> = cases
        .iter()
        .map(|(start, cells)| json!({"start": start.cells().to_vec(), "solution": cells.to_vec()}))
        .collect();
    let dir = temp_dir("site-rules");
    let file = dir.path().join("cases.json");
    std::fs::write(&file, Value::from(input).to_string()).unwrap();
    let script = "const R = require(process.argv[1]); const cases = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')); \
                  console.log(JSON.stringify(cases.map((c) => ({ problems: R.explain(c.start, c.solution), solvable: R.solvable(c.start) }))));";
    let answers: Vec<Value> =
        serde_json::from_value(node("rules.js", script, &[file.as_os_str()])).unwrap();
    assert_eq!(answers.len(), cases.len());
    let mut kinds = std::collections::BTreeSet::new();
    for ((start, cells), answer) in cases.iter().zip(&answers) {
        let solution = Board::from_cells(cells);
        let expected: Vec<Value> = explain(*start, solution)
            .iter()
            .map(|p| serde_json::to_value(problem_info(p)).unwrap())
            .collect();
        assert_eq!(
            answer["problems"],
            json!(expected),
            "start {start} solution {solution}"
        );
        for p in &expected {
            kinds.insert(p["kind"].as_str().unwrap().to_string());
        }
        let solvable = matches!(solve::solve(*start), Ok(Some(_)));
        assert_eq!(answer["solvable"], json!(solvable), "start {start}");
    }
    assert_eq!(
        kinds.len(),
        4,
        "every kind of problem was compared: {kinds:?}"
    );
    assert!(
        answers.iter().any(|a| a["solvable"] == json!(false)),
        "an unsolvable published board was compared"
    );
}

fn a_site(rpc_url: &str) -> Site {
    Site {
        rpc_url: rpc_url.into(),
        chain: format!("{rpc_url} (chain id 31337)"),
        chain_id: 31337,
        game: Game::Arena(
            "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
                .parse()
                .unwrap(),
        ),
        name: None,
        puzzle: "0x5FbDB2315678afecb367f032d93F642f64180aa3"
            .parse()
            .unwrap(),
        kind: "fair".into(),
        from_block: 2,
        explorer_url: None,
    }
}

/// The site's files are the served page's own (one source); only the head
/// of index.html differs, and its policy lets the page reach the RPC URL
/// and nothing else; no file names another address.
#[test]
fn the_static_site_is_the_served_page_and_reaches_only_its_rpc_url() {
    let url = "https://rpc.example.org/v3/abc?key=1";
    let files = a_site(url).files();
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "index.html",
            "app.css",
            "rules.js",
            "keccak.js",
            "practice.js",
            "chain.js",
            "source.js",
            "app.js"
        ]
    );
    for ((name, body), (asset, served, _)) in files[1..].iter().zip(page::ASSETS) {
        assert_eq!(
            (*name, body.as_str()),
            (asset, served),
            "{name} is the served file"
        );
    }
    let html = &files[0].1;
    let csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src https://rpc.example.org/v3/abc; base-uri 'none'; form-action 'none'";
    assert!(
        html.contains(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">"
        )),
        "{html}"
    );
    assert!(html.contains("name=\"octoku-site\""), "{html}");
    assert!(html.contains("&quot;chain_id&quot;:31337"), "{html}");
    assert!(!html.contains("octoku-token"), "no server, no token");
    // The served page: the token, the same ABI, no site settings.
    let served = page::index_html("t0k3n");
    assert!(served.contains("<meta name=\"octoku-token\" content=\"t0k3n\">"));
    assert!(!served.contains("octoku-site") && !served.contains("http-equiv"));
    let abi = format!(
        "<meta name=\"octoku-abi\" content=\"{}\">",
        page::abi_json().replace('"', "&quot;")
    );
    assert!(html.contains(&abi) && served.contains(&abi));
    // Nothing reaches out but the RPC URL.
    for (name, body) in &files {
        let outside = body
            .replace(url, "")
            .replace("https://rpc.example.org/v3/abc", "");
        for word in ["http://", "https://", "//cdn", "@import", "fonts.g"] {
            assert!(!outside.contains(word), "{name} references {word}");
        }
    }
    // The served page's policy is unchanged: its own origin only.
    assert_eq!(
        page::CSP,
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
}

/// The selectors and the topics the page encodes with are keccak256 of the
/// signatures written in contracts/IArena.sol and IPuzzle.sol, and of
/// Curta's (its README lists the error selectors).
#[test]
fn the_page_abi_is_the_contracts_abi() {
    let abi: Value = serde_json::from_str(&page::abi_json()).unwrap();
    let selector = |sig: &str| hex::encode_prefixed(&keccak256(sig.as_bytes())[..4]);
    for (name, sig) in [
        ("solve", "solve(uint256)"),
        ("boardOf", "boardOf(address)"),
        ("solvedAt", "solvedAt(address)"),
        ("generate", "generate(address)"),
        ("verify", "verify(uint256,uint256)"),
        ("curtaSolve", "solve(uint32,uint256)"),
        ("getPuzzle", "getPuzzle(uint32)"),
        ("hasSolvedPuzzle", "hasSolvedPuzzle(address,uint32)"),
    ] {
        assert_eq!(abi[name], json!(selector(sig)), "{sig}");
    }
    assert_eq!(
        abi["Solved"],
        json!(hex::encode_prefixed(keccak256(
            b"Solved(address,uint256,uint256)"
        )))
    );
    assert_eq!(
        abi["SolvePuzzle"],
        json!(hex::encode_prefixed(keccak256(
            b"SolvePuzzle(uint32,address,uint256,uint8)"
        )))
    );
    for (sig, name) in [
        ("AlreadySolved(address)", "AlreadySolved"),
        ("WrongSolution()", "WrongSolution"),
        ("PuzzleNotAContract(address)", "PuzzleNotAContract"),
        ("IncorrectSolution()", "IncorrectSolution"),
        ("InsufficientFunds()", "InsufficientFunds"),
        ("PuzzleAlreadySolved(uint32)", "PuzzleAlreadySolved"),
        ("PuzzleDoesNotExist(uint32)", "PuzzleDoesNotExist"),
        ("SubmissionClosed(uint32)", "SubmissionClosed"),
    ] {
        assert_eq!(abi["errors"][selector(sig)], json!(name), "{sig}");
    }
}

#[test]
fn an_rpc_url_the_policy_cannot_hold_is_refused() {
    for bad in [
        "ftp://x",
        "127.0.0.1:8545",
        "http://a b",
        "http://a;script-src *",
        "http://a,b",
        "http://a'",
        "http://a#f",
    ] {
        let e = site::check_rpc_url(bad).unwrap_err();
        assert!(matches!(e, ServeError::Input(_)), "{bad}: {e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
    // Credentials would be published by the page: refused, and not repeated.
    for bad in [
        "http://alice:s3cret@127.0.0.1:8545",
        "https://t0k3n@eth.example/v2/AKEYAKEYAKEYAKEY",
    ] {
        let e = site::check_rpc_url(bad).unwrap_err().to_string();
        assert!(e.contains("credentials"), "{bad}: {e}");
        for secret in ["alice", "s3cret", "t0k3n", "AKEYAKEYAKEYAKEY"] {
            assert!(!e.contains(secret), "{secret} in {e}");
        }
    }
    site::check_rpc_url("http://127.0.0.1:8545").unwrap();
    site::check_rpc_url("https://eth.example/v2/KEY").unwrap();
}

/// An explorer URL stands in the page's links only when it is http(s) and
/// holds nothing that could leave an attribute; the site carries it to the
/// page (none by default).
#[test]
fn an_explorer_url_is_checked_and_reaches_the_page() {
    for bad in [
        "etherscan.io",
        "javascript:alert(1)",
        "https://a\"b",
        "https://a b",
        "https://a#x",
    ] {
        let e = site::check_explorer_url(bad).unwrap_err();
        assert!(e.to_string().starts_with("--explorer-url "), "{bad}: {e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
    site::check_explorer_url("https://etherscan.io").unwrap();
    let none: Value = serde_json::from_str(&a_site("http://127.0.0.1:8545").settings()).unwrap();
    assert_eq!(none["explorer_url"], Value::Null);
    let with = Site {
        explorer_url: Some("https://sepolia.etherscan.io".into()),
        ..a_site("http://127.0.0.1:8545")
    };
    let settings: Value = serde_json::from_str(&with.settings()).unwrap();
    assert_eq!(settings["explorer_url"], "https://sepolia.etherscan.io");
}

fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A new or empty directory gets the whole site; a full one is refused,
/// untouched, unless forced, and then replaced whole; no temporary
/// directory is left beside it.
#[test]
fn the_site_is_written_whole_and_a_full_directory_only_with_force() {
    let dir = temp_dir("site-write");
    let dir = dir.path();
    let out = dir.join("game");
    let files = a_site("http://127.0.0.1:8545").files();
    site::write(&out, &files, false).unwrap();
    let expected = [
        "app.css",
        "app.js",
        "chain.js",
        "index.html",
        "keccak.js",
        "practice.js",
        "rules.js",
        "source.js",
    ];
    assert_eq!(listing(&out), expected);
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        files[0].1
    );

    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let e = site::write(&out, &a_site("http://127.0.0.1:9999").files(), false).unwrap_err();
    assert!(
        matches!(&e, ServeError::Input(m) if m.contains("not empty") && m.contains("--force")),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine",
        "untouched"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        files[0].1
    );

    let other = a_site("http://127.0.0.1:9999").files();
    site::write(&out, &other, true).unwrap();
    assert_eq!(listing(&out), expected, "replaced whole");
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("127.0.0.1:9999")
    );
    assert_eq!(listing(dir), ["game"], "no temporary directory left");

    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    site::write(&empty, &files, false).unwrap();
    assert_eq!(listing(&empty), expected);

    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let e = site::write(&file, &files, true).unwrap_err();
    assert!(matches!(e, ServeError::Input(_)), "{e}");
}

/// With no signer the server holds no key: no players, nobody it can
/// submit for (not even anvil's dev accounts on the embedded chain), and
/// `submit` sends nothing.
#[test]
fn without_a_signer_the_server_signs_nothing() {
    let dir = temp_dir("site-nosigner");
    let dir = dir.path();
    let backend = Backend::open(&Config {
        state: dir.join("chain.json"),
        ..Config::default()
    })
    .unwrap();
    assert_eq!(backend.signer(), None);
    assert!(backend.players().is_empty());
    let dev0: Address = DEV_ACCOUNTS[0].parse().unwrap();
    assert!(!backend.can_submit(dev0));
    let start = backend.seat(dev0).unwrap().start;
    let solution = solve::solve(start).unwrap().unwrap();
    assert_eq!(
        backend.submit(dev0, solution, 0).unwrap(),
        None,
        "nothing sent"
    );
    assert!(backend.leaderboard().unwrap().is_empty());
    // Given a key, it signs for it and for the dev accounts, as before.
    let signed = Backend::open(&Config {
        state: dir.join("chain.json"),
        key: Some(PrivateKey::anvil_default()),
        ..Config::default()
    })
    .unwrap();
    assert_eq!(signed.signer(), Some(dev0));
    assert_eq!(signed.players().len(), DEV_ACCOUNTS.len());
}

/// The page's keccak.js (run by node) hashes as octoku_core's keccak256 on
/// inputs across the 136-byte block boundary, and checksums addresses as
/// alloy does (EIP-55), so the static site shows addresses as the CLI does.
#[test]
fn the_page_checksums_addresses_as_the_cli_does() {
    let mut rng = SplitMix64::new(55);
    let addresses: Vec<Address> = (0..64).map(|_| Address::new(rng.bytes20())).collect();
    let inputs: Vec<Vec<u8>> = [0usize, 1, 135, 136, 137, 272, 300]
        .iter()
        .map(|&n| (0..n).map(|_| rng.below(256) as u8).collect())
        .collect();
    let script = "const K = require(process.argv[1]); const q = JSON.parse(process.argv[2]); \
                  console.log(JSON.stringify({ sums: q.addresses.map(K.checksum), hashes: q.inputs.map(K.keccak256) }));";
    let query = json!({
        "addresses": addresses.iter().map(|a| format!("{a:#x}")).collect::<Vec<_>>(),
        "inputs": inputs,
    });
    let answer = node("keccak.js", script, &[query.to_string().as_ref()]);
    let sums: Vec<String> = addresses.iter().map(|a| a.to_checksum(None)).collect();
    assert_eq!(answer["sums"], json!(sums));
    assert!(
        sums.iter()
            .any(|s| s.chars().any(|c| c.is_ascii_uppercase())),
        "mixed case was compared"
    );
    let hashes: Vec<String> = inputs.iter().map(|i| hex::encode(keccak256(i))).collect();
    assert_eq!(answer["hashes"], json!(hashes));
}

/// The static site's practice puzzles (practice.js, run by node): for every
/// side the page offers, a drawn puzzle has exactly one solution by the
/// core's own solver, the page's solution is it, and the page writes the
/// header text form exactly as the core does (and reads it back).
#[test]
fn the_page_draws_unique_practice_puzzles_and_writes_the_cores_text() {
    use octoku_core::{
        grid::{
            Grid,
            text::{self, Form, ReadOptions, Symbols},
        },
        solve as generic,
    };
    let script = "const P = require(process.argv[1]); \
                  const out = [4, 6, 8, 9, 10, 12, 14, 15, 16].map((size) => { \
                    const p = P.puzzle({ size, seed: size * 7 }); \
                    const t = P.text({ size, cells: p.cells, symbols: p.symbols }).text; \
                    const back = P.puzzle({ text: t }); \
                    return { p, text: t, back: back.cells }; }); \
                  console.log(JSON.stringify(out));";
    let answers: Vec<Value> = serde_json::from_value(node("practice.js", script, &[])).unwrap();
    assert_eq!(answers.len(), 9);
    for answer in answers {
        let p = &answer["p"];
        let cells: Vec<u8> = serde_json::from_value(p["cells"].clone()).unwrap();
        let size = p["size"].as_u64().unwrap() as usize;
        let parsed = text::read(answer["text"].as_str().unwrap(), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{size}×{size}: the core reads the page's text: {e}"));
        let board: &Grid = &parsed.board;
        assert_eq!(board.geometry().size(), size);
        assert_eq!(
            (board.geometry().box_rows(), board.geometry().box_cols()),
            (
                p["box_rows"].as_u64().unwrap() as usize,
                p["box_cols"].as_u64().unwrap() as usize
            ),
            "{size}×{size}: the CLI's box shape"
        );
        assert_eq!(board.cells().to_vec(), cells, "{size}×{size}");
        assert_eq!(answer["back"], p["cells"], "{size}×{size}: read back");
        assert_eq!(generic::count(board, 2), 1, "{size}×{size}: one solution");
        let solution = generic::solve(board).unwrap();
        assert_eq!(p["solutions"], 1);
        assert_eq!(p["solution"], json!(solution.cells().to_vec()));
        let written = text::write(board, &Symbols::standard(size), Form::Header).unwrap();
        assert_eq!(
            answer["text"],
            json!(written),
            "{size}×{size}: the core's text"
        );
    }
}

//! `octoku site` as a user runs it: bad input is refused in one line (exit
//! 2) before the node is asked anything, an unreachable node is exit 4 with
//! nothing written; on anvil, after `octoku deploy`, it writes the page for
//! the recorded arena, refuses to write over it, and replaces it with
//! `--force`. `octoku serve` on that node without a signer says it signs
//! nothing. With Curta (the real protocol, deployed by the test kit) and a
//! puzzle added by `octoku deploy --curta`, `octoku site --curta` and
//! `octoku serve --curta` play it, with the leaderboard from the recorded
//! `addPuzzle` block or `--from-block`.

use std::{path::Path, time::Duration};

use octoku_testkit::{Anvil, DEV_ACCOUNTS, DEV_KEYS, curta, octoku, temp_dir};

/// How many entries `dir` holds.
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

/// Starts `octoku serve --port 0 FLAGS` in `dir` and returns the first line
/// it prints that starts with `prefix`; the server stops on return.
fn serve_says(dir: &Path, flags: &[&str], prefix: &str) -> String {
    let mut server = octoku!()
        .args(["serve", "--port", "0"])
        .args(flags)
        .dir(dir)
        .spawn()
        .expect("octoku serve starts");
    let wanted = prefix.to_string();
    server
        .wait_for_line(Duration::from_secs(120), move |line| {
            line.starts_with(&wanted).then(|| line.to_string())
        })
        .unwrap_or_else(|e| panic!("octoku serve prints a line starting with {prefix:?}: {e}"))
}

#[test]
fn site_refuses_bad_input_in_one_line_before_asking_the_node() {
    let dir = temp_dir("site-bad");
    let dir = dir.path();
    std::fs::create_dir(dir.join("full")).unwrap();
    std::fs::write(dir.join("full/keep.txt"), "mine").unwrap();
    // Port 9 (discard) on loopback: nothing answers there.
    let nobody = "http://127.0.0.1:9";
    for (args, expected) in [
        (vec!["site", "full", "--rpc-url", nobody], "not empty"),
        (
            vec!["site", "new", "--rpc-url", "ftp://x"],
            "expected an http:// or https:// URL",
        ),
        (
            vec!["site", "new", "--rpc-url", "http://a;b"],
            "Content-Security-Policy",
        ),
        (
            vec!["site", "new", "--rpc-url", nobody, "--arena", "0x12"],
            "--arena",
        ),
        (
            vec![
                "site",
                "new",
                "--rpc-url",
                nobody,
                "--explorer-url",
                "javascript:alert(1)",
            ],
            "--explorer-url \"javascript:alert(1)\": expected an http:// or https:// URL",
        ),
        (
            vec![
                "serve",
                "--port",
                "0",
                "--explorer-url",
                "https://x.example/\"a",
            ],
            "--explorer-url",
        ),
    ] {
        let run = octoku!().args(&args).dir(dir).run();
        run.fails(2, expected);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("full/keep.txt")).unwrap(),
        "mine"
    );
    // A node that does not answer: exit 4, nothing written.
    octoku!()
        .args(["site", "new", "--rpc-url", nobody])
        .dir(dir)
        .run()
        .fails(4, nobody);
    assert!(!dir.join("new").exists(), "nothing written");
    assert_eq!(entries(dir), 1, "no temporary directory left");
}

#[test]
fn site_writes_the_page_for_the_recorded_arena_on_anvil() {
    let dir = temp_dir("site-anvil");
    let dir = dir.path();
    let anvil = Anvil::start().expect("anvil");
    let url = anvil.url();
    let record = octoku!()
        .args(["deploy", "--puzzle", "fair", "--rpc-url", &url, "--json"])
        .args(["--private-key", DEV_KEYS[0]])
        .dir(dir)
        .run()
        .json();
    let arena = record["arena"].as_str().unwrap().to_string();

    let run = octoku!()
        .args(["site", "game", "--rpc-url", &url])
        .dir(dir)
        .run();
    let lines: Vec<&str> = run.ok().lines().collect();
    assert_eq!(lines[0], format!("chain     {url} (chain id 31337)"));
    assert_eq!(lines[1], format!("arena     {arena} (fair puzzle)"));
    assert_eq!(
        lines[2],
        "wrote     game: index.html app.css rules.js keccak.js practice.js chain.js source.js app.js"
    );
    let html = std::fs::read_to_string(dir.join("game/index.html")).unwrap();
    assert!(html.contains(&format!("connect-src {url};")), "{html}");
    assert!(
        html.contains(&format!("&quot;arena&quot;:&quot;{arena}&quot;")),
        "{html}"
    );
    for file in [
        "app.css",
        "app.js",
        "chain.js",
        "keccak.js",
        "practice.js",
        "rules.js",
        "source.js",
    ] {
        assert!(dir.join("game").join(file).is_file(), "{file}");
    }
    assert_eq!(entries(&dir.join("game")), 8, "the page's eight files");

    // Written once: a second run is refused, --force replaces it.
    let site = ["site", "game", "--rpc-url", &url, "--arena", &arena];
    octoku!().args(site).dir(dir).run().fails(2, "--force");
    octoku!().args(site).arg("--force").dir(dir).run().ok();

    // The same node through octoku serve without a signer: it says so.
    let flags = ["--rpc-url", &url, "--arena", &arena];
    let signer = serve_says(dir, &flags, "signer ");
    assert_eq!(
        signer,
        "signer    none: players submit through their own wallet"
    );
}

/// The settings the static page carries (its `octoku-site` tag).
fn settings(html: &str) -> serde_json::Value {
    let tag = "name=\"octoku-site\" content=\"";
    let start = html.find(tag).unwrap() + tag.len();
    let end = start + html[start..].find('"').unwrap();
    serde_json::from_str(
        &html[start..end]
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
    .unwrap()
}

#[test]
fn site_and_serve_play_a_curta_puzzle_on_anvil() {
    let dir = temp_dir("site-curta");
    let dir = dir.path();
    // Without a node: Curta is not on the embedded chain (one line, exit 2).
    octoku!()
        .args([
            "serve",
            "--port",
            "0",
            "--curta",
            DEV_ACCOUNTS[0],
            "--puzzle-id",
            "1",
        ])
        .dir(dir)
        .run()
        .fails(2, "need --rpc-url");
    let Some(artifacts) = curta::artifacts() else {
        return;
    };
    let anvil = Anvil::start().expect("anvil");
    let url = anvil.url();
    let author = DEV_ACCOUNTS[1].parse().unwrap();
    let c = curta::deploy(&anvil, &artifacts, &[author])
        .curta
        .to_string();
    let added = octoku!()
        .args(["deploy", "--puzzle", "fair", "--json"])
        .args(["--curta", &c, "--token-id", "1"])
        .args(["--rpc-url", &url, "--private-key", DEV_KEYS[1]])
        .dir(dir)
        .run()
        .json();
    let block = added["add_tx"]["block"].as_u64().unwrap();

    // The recorded puzzle by default; its addPuzzle block starts the leaderboard.
    let run = octoku!()
        .args(["site", "game", "--rpc-url", &url, "--puzzle-id", "1"])
        .dir(dir)
        .run();
    let lines: Vec<&str> = run.ok().lines().collect();
    assert_eq!(
        lines[1],
        format!(
            "curta     {c} puzzle #1 {:?} (fair puzzle)",
            added["name"].as_str().unwrap()
        )
    );
    let page = settings(&std::fs::read_to_string(dir.join("game/index.html")).unwrap());
    assert_eq!(page["game"], "curta");
    assert_eq!(page["curta"], c);
    assert_eq!(page["puzzle_id"], 1);
    assert_eq!(page["puzzle_address"], added["puzzle_address"]);
    assert_eq!(page["from_block"], block);
    assert_eq!(page["phase_two_fee"], "20000000000000000");

    // Given flags, and --from-block as cast takes it.
    let flags = ["--curta", &c, "--puzzle-id", "1", "--from-block", "1"];
    octoku!()
        .args(["site", "other", "--rpc-url", &url])
        .args(flags)
        .dir(dir)
        .run()
        .ok();
    let page = settings(&std::fs::read_to_string(dir.join("other/index.html")).unwrap());
    assert_eq!(
        (&page["curta"], &page["from_block"]),
        (&c.clone().into(), &1.into())
    );
    // A puzzle Curta does not have: one line, exit 2, nothing written.
    octoku!()
        .args([
            "site",
            "none",
            "--rpc-url",
            &url,
            "--curta",
            &c,
            "--puzzle-id",
            "7",
        ])
        .dir(dir)
        .run()
        .fails(2, "has no such puzzle");
    assert!(!dir.join("none").exists());

    // octoku serve --curta names the puzzle it plays.
    let flags = ["--rpc-url", &url, "--curta", &c, "--puzzle-id", "1"];
    let game = serve_says(dir, &flags, "curta ");
    assert_eq!(game, lines[1]);
}

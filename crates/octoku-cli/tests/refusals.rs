//! Every refusal of bad input that needs no node, as one table: the command
//! line and the words its one line on stderr must hold. Each must exit 2
//! (README, "Exit status"), print `octoku: ...` as its only line on stderr
//! and nothing on stdout, and never panic. Refusals against a live node are
//! tabled in anvil.rs.

use octoku_core::classic9::VALID_GRIDS;
use octoku_testkit::{DEV_ACCOUNTS, octoku, temp_dir};

const START: &str = "0x0000000000003000007001000000000000000040500000060000000000020008";
const SOLUTION: &str = "0x7235861418463257457361828621457323681745541728366784532131527468";
const ME: &str = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
/// A solution as a grid of 64 cells.
const GRID: &str = "7235861418463257457361828621457323681745541728366784532131527468";

#[test]
// One table of refusals, one row per case.
#[allow(clippy::too_many_lines)]
fn bad_input_is_one_line_on_stderr_with_exit_2_and_nothing_on_stdout() {
    let dir = temp_dir("refusals");
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let header_twice = format!(
        "@{}",
        file("twice.txt", "a b a d\n , , , \n , , , \n , , , \n , , , ")
    );
    let missing = format!("@{}", dir.path().join("no-such-file").display());
    let not_a_keystore = file("k.json", "{}");
    let serve = ["serve", "--port", "0", "--state", "chain.json"];
    let serving = |args: &[&'static str]| [&serve[..], args].concat();
    let cells_65 = "1".repeat(65);
    let nine_last = format!("{}9", "1".repeat(63));
    let nine_in_a_grid = format!("{}9", "0".repeat(63));
    let golf9 = ["verify", "--size", "9", "--puzzle", "golf"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // Addresses.
        (
            vec!["generate", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA960"],
            "found 38 hex digits but exactly 40 are needed",
        ),
        (
            vec!["generate", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA9604g"],
            "`g` at position 42 is not a hex digit",
        ),
        (
            vec!["generate", ""],
            "address is empty; expected 40 hex digits",
        ),
        (
            vec!["generate", "0xd8DA6BF26964aF9D7eEd9e03E53415D37aA96045"],
            "mixed-case letters do not match the EIP-55 checksum",
        ),
        // 8×8 boards in their three forms.
        (
            vec![
                "verify",
                "0x1",
                "0x1234567812345678123456781234567812345678123456781234567812345678f",
            ],
            "SOLUTION (read as 0x hex): board: 65 hex digits is too many (at most 64)",
        ),
        (
            vec![
                "verify",
                "0x1",
                "115792089237316195423570985008687907853269984665640564039457584007913129639936",
            ],
            "decimal number is 2^256 or more",
        ),
        (
            vec!["verify", "12.4", "0x1"],
            "START (read as a grid): board: found 4 grid cells but exactly 64 are needed",
        ),
        (vec!["verify", "....", GRID], "found 4 grid cells"),
        (
            vec!["verify", "0", &nine_in_a_grid],
            "grid cell 64 (row 8, column 8) is `9`; grid cells must be 0-8",
        ),
        (
            vec!["verify", "", "0x1"],
            "START (read as a grid): board is empty",
        ),
        (
            vec!["verify", START, &cells_65],
            "SOLUTION: 65 digits 0-8: a grid must have exactly 64 cells",
        ),
        (vec!["verify", START, "0x12g"], "SOLUTION (read as 0x hex):"),
        (
            vec!["verify", &nine_last, SOLUTION],
            "START (read as a grid):",
        ),
        (
            vec!["solve", "0x9"],
            "row 8 column 8 holds 9; givens must be 0 (empty) or 1-8",
        ),
        // Boards of the family: sizes, box shapes, forms, files, symbols.
        (
            vec!["solve", "--size", "7", "...."],
            "--size 7: no board of size 7",
        ),
        (
            vec!["solve", "--box", "4x5", "...."],
            "--box 4x5: boxes of 4x5 make a 20x20 board",
        ),
        (
            vec!["solve", "--box", "3by3", "...."],
            "--box 3by3: expected rows x columns",
        ),
        (
            vec!["solve", "--size", "9", "--box", "2x4", "...."],
            "--box 2x4 makes a 8x8 board but --size is 9",
        ),
        (
            vec!["solve", "--size", "9", "...."],
            "START: line form: 4 symbols; expected 81",
        ),
        (
            vec!["solve", "--size", "4", "12X4............"],
            "START: line form: row 1 column 3 is `X`",
        ),
        (
            vec!["solve", "--size", "4", &header_twice],
            "START: symbols: `a` is listed twice",
        ),
        (
            vec!["solve", "--size", "4", "1,2,3,4\n1,2,3,4"],
            "START: mixed forms",
        ),
        (vec!["solve", "--size", "9", &missing], "START: cannot read"),
        (
            vec!["solve", "--size", "4", "--symbols", "abca", "...."],
            "--symbols: symbols: `a` is listed twice",
        ),
        (
            vec!["solve", "--size", "4", "--symbols", "abcde", "...."],
            "--symbols: 5 given",
        ),
        (
            vec!["solve", "--symbols", "abcd", "0x1"],
            "--symbols applies to boards of any size",
        ),
        (
            vec!["verify", "--size", "9", "-", "-"],
            "standard input (-) can hold one board",
        ),
        (
            vec!["puzzle", "--size", "9", "--givens", "10", "--seed", "1"],
            "--givens 10 is out of reach",
        ),
        (
            vec!["puzzle", "--size", "4", "--givens", "17"],
            "--givens 17 is more than the 16 cells",
        ),
        (vec!["puzzle"], "no board size; expected --size N"),
        // The classic 9×9 validators.
        (
            [&golf9[..], &["123", VALID_GRIDS[0]]].concat(),
            "START: 3 cells; expected 81 cells",
        ),
        (
            [&golf9[..], &["0x0102", VALID_GRIDS[0]]].concat(),
            "a grid of 2 bytes: expected 81 bytes",
        ),
        (
            vec![
                "verify",
                "--size",
                "9",
                "--puzzle",
                "fair",
                VALID_GRIDS[0],
                VALID_GRIDS[0],
            ],
            "no 9x9 validator",
        ),
        (
            vec![
                "gas",
                "--profile",
                "isValidSolution",
                "12x",
                "--puzzle",
                "golf",
            ],
            "GRID: 'x' at character 3",
        ),
        (
            vec![
                "deploy",
                "--puzzle",
                "classic9",
                "--size",
                "8",
                "--state",
                "chain.json",
            ],
            "classic9 is the 9x9 validator",
        ),
        // Proofs.
        (
            vec!["prove", "verify", "--puzzle", "reference"],
            "expected golf, fair or classic9",
        ),
        // Signers: checked before any password prompt or chain.
        (
            vec!["play", "--keystore", &not_a_keystore],
            "no \"crypto\" section; expected a Web3 Secret Storage (v3) keystore",
        ),
        (vec!["play", "--account", "../k.json"], "no path separators"),
        // octoku serve, before it binds or deploys anything.
        (
            serving(&["--host", "example.com"]),
            "--host \"example.com\": expected an IP address",
        ),
        (
            serving(&["--private-key", "0x12"]),
            "private key: expected 32 bytes of hex",
        ),
        (serving(&["--arena", "0x12"]), "address: found 2 hex digits"),
        (
            serving(&["--from", DEV_ACCOUNTS[1]]),
            "--from alone holds no key",
        ),
        (
            serving(&["--password", "hunter2"]),
            "expected --keystore or --account with them",
        ),
        (
            serving(&[
                "--keystore",
                "/nonexistent/keystore.json",
                "--password",
                "x",
            ]),
            "keystore /nonexistent/keystore.json: cannot read it",
        ),
        (
            serving(&["--nonce", "3"]),
            "--nonce 3: octoku serve sends one transaction per submission",
        ),
        (
            serving(&["--confirmations", "2"]),
            "the embedded chain mines one block per transaction",
        ),
        (
            serving(&["--gas-price", "1gwei", "--priority-gas-price", "2gwei"]),
            "--priority-gas-price 2000000000 is above --gas-price",
        ),
    ];
    for (args, needle) in &cases {
        let run = octoku!().dir(dir.path()).args(args).run();
        run.fails(2, needle);
        assert!(run.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

/// Numbers that would allocate or spawn without bound are clap's range
/// errors: exit 2 before anything runs.
#[test]
fn huge_counts_are_refused_with_exit_two_not_an_abort() {
    for (args, flag) in [
        (&["audit", "--threads", "100000"][..], "--threads"),
        (&["gas", "--runs", "4000000000"], "--runs"),
        (&["fuzz", "--threads", "0"], "--threads"),
        (&["sample", "--addresses", "0"], "--addresses"),
        (
            &["sample", "--addresses", "99999999999999999"],
            "--addresses",
        ),
        (
            &["solve", "--address", ME, "--count", "18446744073709551615"],
            "--count",
        ),
    ] {
        let run = octoku!().args(args).run();
        run.code(2);
        assert!(
            run.stderr.starts_with("error: invalid value"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(flag) && run.stderr.contains("is not in"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}

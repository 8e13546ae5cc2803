//! Whole scripts piped into ludus at once, as a test harness sends them: every answer
//! comes, in order, in every dialect, and the same script always gives the same output
//! (each is run 20 times). See protocol-spec/protocol.md, "Order of answers".

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

const RUNS: usize = 20;

/// What a script's output is compared by: search progress (`info` lines, which carry
/// timings) left out, and with `any_move` the move of a search that a stop or the end
/// of input cut short (its depth depends on timing) written `bestmove *`; the move a
/// UCI `bestmove` expects in reply (`ponder <move>`) left out.
fn answers(output: &[u8], any_move: bool) -> String {
    String::from_utf8_lossy(output)
        .lines()
        .filter(|l| !l.starts_with("info depth"))
        .map(|l| {
            if any_move && l.starts_with("bestmove ") {
                "bestmove *"
            } else {
                // The move UCI expects in reply is not what these tests are about.
                l.split(" ponder ").next().unwrap_or(l)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run_once(script: &str, any_move: bool) -> (String, Duration) {
    let started = Instant::now();
    let output = Command::cargo_bin("ludus")
        .unwrap()
        .env("RUST_LOG", "off")
        .write_stdin_and_wait(script);
    (answers(&output, any_move), started.elapsed())
}

trait WriteStdin {
    fn write_stdin_and_wait(&mut self, script: &str) -> Vec<u8>;
}

impl WriteStdin for Command {
    /// Runs with `script` as the whole input (closed after it) and returns the output;
    /// the process must exit by itself, successfully.
    fn write_stdin_and_wait(&mut self, script: &str) -> Vec<u8> {
        use std::io::Write;
        let mut child = self
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{script}");
        output.stdout
    }
}

/// Runs `script` [`RUNS`] times: every output must be `expected`.
fn always(script: &str, any_move: bool, expected: &str) {
    for run in 0..RUNS {
        let (got, took) = run_once(script, any_move);
        assert_eq!(got, expected, "run {run} of {script:?}");
        assert!(took < Duration::from_secs(20), "{took:?}");
    }
}

#[test]
fn an_id_without_a_command_is_answered_in_its_turn_after_the_search() {
    // Found by the protocol soak: it was answered beside the search, out of turn.
    always(
        "1 go depth 3\n7\n2 to_move\n",
        false,
        "=1\n\nbestmove e4e5\n?7 the request has an id but no command\n\n=2 white\n",
    );
}

#[test]
fn a_count_then_the_end_of_input_prints_the_count() {
    always("perft 3\n", false, "= 113700\n");
    always("perft 3\nquit\n", false, "= 113700\n\n=\n");
}

#[test]
fn uci_go_perft_then_quit_prints_the_count() {
    let (got, _) = run_once("uci\nposition startpos\ngo perft 3\nquit\n", false);
    let expected = got
        .lines()
        .skip_while(|l| *l != "uciok")
        .collect::<Vec<_>>();
    assert_eq!(expected.last(), Some(&"Nodes searched: 113700"));
    always("uci\nposition startpos\ngo perft 3\nquit\n", false, &got);
}

#[test]
fn genmove_then_five_requests_are_all_answered() {
    always(
        "position startpos moves Na3–b5 Ne9-d7\ngenmove depth 4\nfen\nstatus\ngame mangala\nplay C\nlegal_moves\n",
        false,
        "=\n\n= c4c5\n\n\
         = 3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/3n7/11/1NP8/PP1PP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 0 2\n\n\
         = ongoing (black to move)\n\n=\n\n= C\n\n= a b c d e f\n",
    );
}

#[test]
fn a_whole_uci_session_at_once_gets_both_searches_and_the_diagram() {
    let script =
        "uci\nposition startpos\ngo depth 5\nposition startpos moves i3h5\ngo depth 5\nd\n";
    let (got, _) = run_once(script, false);
    let bestmoves = got.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, 2, "{got}");
    assert!(
        got.trim_end().ends_with(
            "Fen: 3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/7N3/PPPPP1PPPPP/NRNENKNE1RN/3PPPPP3/3NRNEN3 b - - 1 1"
        ),
        "{got}"
    );
    always(script, false, &got);
}

#[test]
fn ugi_answers_queries_after_the_search_they_follow() {
    let script = "ugi\nposition startpos\ngo depth 3\nquery p1turn\nquery gameover\n";
    let (got, _) = run_once(script, false);
    assert!(
        got.ends_with("ugiok\nbestmove e4e5\nresponse true\nresponse false"),
        "{got}"
    );
    always(script, false, &got);
}

#[test]
fn cecp_plays_its_move_before_the_end_of_input_ends_it() {
    let script = "xboard\nprotover 2\nnew\nvariant senamukha\nsd 3\nusermove i3h5\n";
    let (got, _) = run_once(script, false);
    assert!(got.ends_with("\nmove e9d7"), "{got}");
    always(script, false, &got);
}

#[test]
fn stop_ends_a_long_count_with_a_reply_that_says_so() {
    always(
        "perft 9\nstop\nping\n",
        false,
        "? stopped before the count was complete\n\n=\n\n= pong\n",
    );
    let uci = "uci\nposition startpos\ngo perft 9\nstop\nisready\n";
    let (got, _) = run_once(uci, false);
    assert!(
        got.ends_with("uciok\ninfo string perft stopped before the count was complete\nreadyok"),
        "{got}"
    );
}

#[test]
fn the_end_of_input_stops_an_infinite_search_which_gives_its_move() {
    always("go infinite\n", true, "=\n\nbestmove *");
    always(
        "1 go\nfen\n",
        true,
        &format!("=1\n\nbestmove *\n= {}\n", START),
    );
    always(
        "uci\ngo infinite\n",
        true,
        &uci_handshake_then("bestmove *"),
    );
}

#[test]
fn quit_during_a_search_stops_it_and_it_still_gives_its_move() {
    always("go depth 40\nquit\nfen\n", true, "=\n\nbestmove *\n=\n");
    always(
        "uci\nposition startpos\ngo depth 40\nquit\nd\n",
        true,
        &uci_handshake_then("bestmove *"),
    );
}

#[test]
fn a_large_hash_is_taken_at_once_and_a_refused_one_keeps_the_old_table() {
    let started = Instant::now();
    let (got, _) = run_once("setoption name Hash value 4096\nisready\n", false);
    assert_eq!(got, "=\n\nreadyok");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // With the address space limited to 2 GiB, 4096 MiB cannot be had.
    let limited = || {
        let mut command = Command::cargo_bin("ludus").unwrap();
        command.env("RUST_LOG", "off");
        // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 2 << 30,
                    rlim_max: 2 << 30,
                };
                libc::setrlimit(libc::RLIMIT_AS, &limit);
                Ok(())
            });
        }
        command
    };
    let native = limited()
        .write_stdin_and_wait("setoption name Hash value 4096\nlist_options\ngo depth 2\n");
    let native = answers(&native, false);
    assert!(
        native.starts_with(
            "? 4096 MiB for the hash table cannot be allocated; the hash table stays at 64 MiB\n"
        ),
        "{native}"
    );
    assert!(native.ends_with("=\n\nbestmove e4e5"), "{native}");
    let uci = limited().write_stdin_and_wait(
        "uci\nsetoption name Hash value 4096\nposition startpos\ngo depth 2\n",
    );
    let uci = answers(&uci, false);
    assert!(
        uci.ends_with(
            "uciok\ninfo string error: 4096 MiB for the hash table cannot be allocated; the hash table stays at 64 MiB\nbestmove e4e5"
        ),
        "{uci}"
    );
}

const START: &str = "3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 0 1";

/// The UCI handshake's last line followed by `rest`, as [`answers`] gives it, for
/// comparing the tail of a session.
fn uci_handshake_then(rest: &str) -> String {
    let (handshake, _) = run_once("uci\n", false);
    format!("{handshake}\n{rest}")
}

#[test]
fn the_readme_session_piped_gets_every_answer_in_order() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let session = readme.split("## A session").nth(1).unwrap();
    let script = session.split("```\n").nth(1).unwrap();
    let requests: Vec<&str> = script.lines().collect();
    assert_eq!(requests.last(), Some(&"quit"));
    let (got, _) = run_once(script, false);
    // One reply per request, each `=`: the first line of every block after an empty line.
    let firsts: Vec<&str> = std::iter::once(got.lines().next().unwrap())
        .chain(got.split("\n\n").skip(1).filter_map(|b| b.lines().next()))
        .collect();
    assert_eq!(firsts.len(), requests.len(), "{got}");
    assert!(firsts.iter().all(|f| f.starts_with('=')), "{got}");
    assert_eq!(firsts[0], "= ludus");
    assert!(
        got.contains("= ongoing (white to move)"),
        "status after genmove: {got}"
    );
    assert!(got.contains("= a b c d e f"), "{got}");
    always(script, false, &got);
}

#[test]
fn clear_errors_for_what_a_review_found_unclear() {
    let script = "\u{feff}name\n7\n007 name\n12345678901234567890123 name\n\
        go depth 99999999999\ngo depth -3\ngo nodes -5\n\
        position fen 3nenrn03/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 0 1\n\
        setoption name Foo value 1\nplay d3\nplay \u{1}\u{2}abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n\
        load_record\nknown_command\n\
        game mangala\nposition fen 06,6,6,6,6,6/6,6,6,6,6,6 S 0 0\n\
        game mentula\nposition fen Green (to play): a1\n";
    let expected = [
        "= ludus",
        "?7 the request has an id but no command",
        "=007 ludus",
        "=12345678901234567890123 ludus",
        "? depth is out of range: 99999999999 (1 to 64)",
        "? depth is out of range: -3 (1 to 64)",
        "? nodes is out of range (negative): -5 (0 to 18446744073709551615)",
        "? invalid senamukha position: rank 11 has an empty run written with a leading zero (for 3)",
        "? unknown option \"Foo\" (senamukha has Hash, Threads, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, EvalFile, Use NNUE, n-move-rule)",
        "? illegal move: d3 (d3 holds a white man)",
        "? unreadable move: \\u{1}\\u{2}abcdefghijklmnopqrstuvwxyzabcdefghijkl… (not a move in coordinate, long or SAN form)",
        "? load_record needs a record",
        "? known_command needs a command name",
        "=",
        "? invalid mangala position: pit A is written with a leading zero: 06",
        "=",
        "? invalid mentula position: unknown player \"Green\" (White, Yellow, Red or Magenta)",
    ];
    always(script, false, &(expected.join("\n\n") + "\n"));
    let cecp = "xboard\nsd 99999999999\nsd x\n";
    let (got, _) = run_once(cecp, false);
    assert!(
        got.ends_with(
            "Error (sd is out of range: it takes a depth from 1 to 64): sd 99999999999\n\
             Error (sd takes a depth from 1 to 64): sd x"
        ),
        "{got}"
    );
}

#[test]
fn one_fault_is_worded_one_way_in_every_game_and_dialect() {
    // The native protocol: an id is answered past invalid bytes, a command is named
    // as written, numbers have no leading zeros anywhere, every game says "the player
    // to move must be", a position of another game is named as such.
    let script = "1 FooBar\n2 perft 0\n3 divide 0\n\
        4 position fen 12345678901234567890123/11/11/11/11/11/11/11/11/11/11 w - - 0 1\n\
        5 position fen 3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 w - - 00 1\n\
        6 position fen 3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/NRNENKNENRN/3PPPPP3/3NRNEN3 W - - 0 1\n\
        7 position fen 6,6,6,6,6,6/6,6,6,6,6,6 S 0 0\n\
        8 game mentula\n9 position fen 8/8/8/8/8/8/8/8 w 0 1\n\
        10 position fen YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 01\n\
        11 position fen YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM g 0 1\n\
        12 game mangala\n13 position fen 6,6,6,6,6,6/6,6,6,6,6,6 s 0 0\n";
    let expected = [
        "?1 unknown command: FooBar",
        "=2 1",
        "?3 the depth must be a number from 1 to 64, not \"0\"",
        "?4 invalid senamukha position: rank 11 has a run of 12345678901234567890123 empty squares, expected 11 files",
        "?5 invalid senamukha position: halfmove clock is written with a leading zero: 00",
        "?6 invalid senamukha position: the player to move must be w or b, not \"W\"",
        "?7 invalid senamukha position: unexpected character ',' in the board field (it reads as a mangala position)",
        "=8",
        "?9 invalid mentula position: the board has no men",
        "?10 invalid mentula position: round number is written with a leading zero: 01",
        "?11 invalid mentula position: the player to move must be w, y, r or m, not \"g\"",
        "=12",
        "?13 invalid mangala position: the player to move must be S or N, not \"s\"",
    ];
    always(script, false, &(expected.join("\n\n") + "\n"));
    let bytes = assert_cmd::Command::cargo_bin("ludus")
        .unwrap()
        .write_stdin(b"7 name\xff\n".to_vec())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&bytes.stdout),
        "?7 invalid UTF-8 in the request\n\n"
    );
    // UCI's `go perft` is the native `divide`, refused in the same words.
    let (uci, _) = run_once("uci\ngo perft 0\n", false);
    assert!(
        uci.contains("info string error: the depth must be a number from 1 to 64, not \"0\""),
        "{uci}"
    );
    // A bare CECP move that is not legal is answered as `usermove` answers it.
    let (cecp, _) = run_once("xboard\nprotover 2\ne2e4\nusermove e2e4\nfoo\n", false);
    let illegal = "Illegal move (illegal move: e2e4 (e4 holds a white man)): e2e4";
    assert!(
        cecp.ends_with(&format!(
            "{illegal}\n{illegal}\nError (unknown command): foo"
        )),
        "{cecp}"
    );
}

#[test]
fn subcommands_stop_quietly_when_their_output_closes() {
    // `ludus search ... | head -1`: the output is closed after the first line.
    let mut child = Command::cargo_bin("ludus")
        .unwrap()
        .args(["search", "--game", "mangala", "--depth", "30"])
        .env("RUST_LOG", "off")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    use std::io::Read;
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        output.status.signal(),
        Some(libc::SIGPIPE),
        "{:?}",
        output.status
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn command_line_values_out_of_range_and_engines_that_cannot_start_are_named() {
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args(["search", "--hash", "0", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "invalid value '0' for '--hash <HASH>': Hash takes 1 to 16384 (MiB), not \"0\""
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args([
            "match",
            "--engine",
            "cmd=/nonexistent/engine name=ghost",
            "--engine",
            "ludus",
        ])
        .args(["--games", "2", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "ludus: engine ghost: cannot start /nonexistent/engine: No such file or directory (os error 2)"
    );
}

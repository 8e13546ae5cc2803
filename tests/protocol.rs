//! The native protocol through pipes: every command, errors, and the robustness cases.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use ludus::game::Game;
use ludus::games::senamukha;

mod common;

/// A running daemon: send lines, read replies and unsolicited lines.
struct Daemon(common::Process);

impl std::ops::Deref for Daemon {
    type Target = common::Process;
    fn deref(&self) -> &common::Process {
        &self.0
    }
}

impl std::ops::DerefMut for Daemon {
    fn deref_mut(&mut self) -> &mut common::Process {
        &mut self.0
    }
}

impl Daemon {
    fn start() -> Daemon {
        Daemon(common::Process::start())
    }

    /// The next reply: its first line and the lines up to the empty line.
    fn reply(&mut self) -> Vec<String> {
        let mut lines = vec![self.line()];
        loop {
            let line = self.line();
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.reply()
    }

    fn ask_one(&mut self, line: &str) -> String {
        self.ask(line).join("\n")
    }

    fn close(self) -> Duration {
        self.0.close()
    }
}

#[test]
fn identification_and_capabilities() {
    let mut d = Daemon::start();
    assert_eq!(d.ask_one("name"), "= ludus");
    assert_eq!(d.ask_one("7 protocol_version"), "=7 1");
    assert_eq!(d.ask_one("games"), "= senamukha mentula mangala");
    assert_eq!(d.ask_one("known_command go"), "= true");
    assert_eq!(d.ask_one("known_command fly"), "= false");
    let commands = d.ask("list_commands");
    assert_eq!(commands[0], "=");
    assert!(commands.contains(&"setoption".to_string()));
    assert!(d.ask_one("version").starts_with("= 0."));
    assert_eq!(d.ask_one("12 fly away"), "?12 unknown command: fly");
    assert_eq!(d.ask_one("quit"), "=");
    d.close();
}

#[test]
fn positions_moves_and_errors_that_change_nothing() {
    let mut d = Daemon::start();
    assert_eq!(d.ask_one("position startpos moves Na3–b5 e9d7"), "=");
    assert_eq!(d.ask_one("play Nbc7"), "= b5c7");
    let fen = d.ask_one("fen");
    assert_eq!(
        fen,
        "= 3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2"
    );
    assert_eq!(d.ask_one("to_move"), "= black");
    assert_eq!(
        d.ask_one("play e10e12"),
        "? unreadable move: e10e12 (not a move in coordinate, long or SAN form)"
    );
    assert_eq!(
        d.ask_one("position fen k10/11/11/12/11/11/11/11/11/11/10K w"),
        "? invalid senamukha position: rank 8 has 12 files, expected 11"
    );
    assert_eq!(
        d.ask_one("position startpos moves a3b5 a3b5"),
        "? move 2 of the list: illegal move: a3b5 (there is no man on a3)"
    );
    assert_eq!(d.ask_one("fen"), fen, "errors leave the position as it was");
    assert_eq!(d.ask_one("undo 2"), "=");
    assert_eq!(
        d.ask_one("undo 5"),
        "? cannot undo 5 moves: 1 move played since the position was set"
    );
    assert_eq!(d.ask_one("undo"), "=");
    assert!(d.ask_one("fen").ends_with(" w - - 0 1"));
    let moves = d.ask_one("legal_moves");
    assert_eq!(moves.split_whitespace().count(), 1 + 48);
    assert!(d.ask_one("legal_moves san").contains("Nab5"));
    assert_eq!(
        d.ask_one("legal_moves fancy"),
        "? unknown notation \"fancy\" (senamukha has coordinate, long, san)"
    );
    let board = d.ask("show");
    assert_eq!(board[0], "=");
    assert!(board[1].starts_with("11 "));
    assert!(board.last().unwrap().ends_with("white to move"));
    assert_eq!(d.ask_one("status"), "= ongoing (white to move)");
    assert_eq!(d.ask_one("perft 3"), "= 113700");
    let divide = d.ask("divide 1");
    assert_eq!(divide.len(), 1 + 48 + 1);
    assert_eq!(divide.last().unwrap(), "Nodes searched: 48");
    d.close();
}

#[test]
fn records_are_written_and_loaded() {
    let mut d = Daemon::start();
    d.ask_one("position startpos moves a3b5 e9d7 e3d5");
    assert_eq!(d.ask_one("record long"), "= 1. Na3–b5 Ne9–d7 2. Ne3–d5");
    assert_eq!(d.ask_one("record"), "= 1. a3b5 e9d7 2. e3d5");
    assert_eq!(
        d.ask_one("load_record 1. Na3–b5 Ne9–d7 2. Ne3–d5 Ng9–f7"),
        "="
    );
    assert_eq!(d.ask_one("record san"), "= 1. Nab5 Ned7 2. Ned5 Nf7");
    assert!(
        d.ask_one("load_record 1. Na3–b5 Ne9–d9")
            .starts_with("? move 1… (black) Ne9–d9")
    );
    assert_eq!(d.ask_one("record san"), "= 1. Nab5 Ned7 2. Ned5 Nf7");
    d.close();
}

#[test]
fn the_other_games() {
    let mut d = Daemon::start();
    assert_eq!(d.ask_one("game mentula"), "=");
    assert_eq!(d.ask_one("fen"), "= YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1");
    assert_eq!(
        d.ask_one("position startpos moves c3 b6 f6 g3 e4 b5 e4"),
        "="
    );
    assert_eq!(d.ask_one("to_move"), "= magenta");
    assert_eq!(
        d.ask_one("record"),
        "= 1. a1-b2-c3 b8-b7-b6 h8-g7-f6 g1-g2-g3 2. a2-c3-e4 b7-b6-b5\ng8-f6xe4"
            .replace('\n', " ")
    );
    assert!(d.ask("show").last().unwrap().ends_with("magenta to move"));
    assert_eq!(
        d.ask_one("game chess"),
        "? unknown game \"chess\" (senamukha, mentula, mangala)"
    );
    assert_eq!(
        d.ask_one("to_move"),
        "= magenta",
        "a refused game keeps the old one"
    );
    assert_eq!(
        d.ask_one("position fen White (to play): e5, Red: d4, e4, d5."),
        "="
    );
    assert!(
        d.ask_one("status")
            .starts_with("= red wins (no capture possible; "),
    );
    assert_eq!(d.ask_one("game mangala"), "=");
    assert_eq!(d.ask_one("play C"), "= C");
    assert_eq!(d.ask_one("play 4"), "= d");
    assert_eq!(d.ask_one("fen"), "= 7,7,1,8,7,7/7,7,7,0,7,7 S 0 0");
    assert_eq!(
        d.ask_one("play d"),
        "? illegal move: d (pit d is north's; south sows A to F)"
    );
    assert_eq!(d.ask_one("legal_moves number"), "= 1 2 3 4 5 6");
    d.close();
}

#[test]
fn options_and_rules() {
    let mut d = Daemon::start();
    let options = d.ask("list_options");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 64"))
    );
    assert!(
        options
            .iter()
            .any(|l| l == "option name n-move-rule type string default off")
    );
    assert!(
        options
            .iter()
            .any(|l| l == "option name Threads type spin default 1 min 1 max 64")
    );
    assert_eq!(d.ask_one("setoption name threads value 2"), "=");
    assert_eq!(
        d.ask_one("setoption name Threads value 0"),
        "? Threads takes 1 to 64, not \"0\""
    );
    // Two threads search and answer as one does: every iteration reported, one move.
    assert_eq!(d.ask_one("go depth 5"), "=");
    let mut depths = Vec::new();
    loop {
        let line = d.line();
        if line.starts_with("bestmove ") {
            break;
        }
        depths.push(line.split(' ').nth(2).unwrap_or_default().to_string());
    }
    assert_eq!(depths, ["1", "2", "3", "4", "5"]);
    assert_eq!(d.ask_one("setoption name threads value 1"), "=");
    assert_eq!(d.ask_one("setoption name hash value 8"), "=");
    assert_eq!(d.ask_one("setoption name Move Overhead value 30"), "=");
    assert_eq!(d.ask_one("setoption name N-Move-Rule value 50"), "=");
    assert_eq!(
        d.ask_one("setoption name n-move-rule value soon please"),
        "? n-move-rule takes off or a positive number, not \"soon please\""
    );
    assert_eq!(
        d.ask_one("setoption name Hash value 0"),
        "? Hash takes 1 to 16384 (MiB), not \"0\""
    );
    assert_eq!(
        d.ask_one("setoption name castling value on"),
        "? unknown option \"castling\" (senamukha has Hash, Threads, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, EvalFile, Use NNUE, n-move-rule)"
    );
    assert_eq!(
        d.ask_one("setoption hash 8"),
        "? setoption name <name> value <value>"
    );
    d.ask_one("game mangala");
    assert_eq!(d.ask_one("setoption name skip-origin value on"), "=");
    d.ask_one("game mentula");
    assert!(d.ask("list_options").iter().any(
        |l| l == "option name Algorithm type combo default mcts var brs var paranoid var mcts"
    ));
    assert_eq!(d.ask_one("setoption name algorithm value BRS"), "=");
    assert_eq!(
        d.ask_one("setoption name Algorithm value alphabeta"),
        "? Algorithm takes brs, paranoid, mcts, not \"alphabeta\""
    );
    d.ask_one("game mangala");
    assert!(
        d.ask("list_options")
            .iter()
            .any(|l| l == "option name Endgame Counters type spin default 14 min 0 max 24")
    );
    assert_eq!(d.ask_one("setoption name endgame counters value 0"), "=");
    assert_eq!(
        d.ask_one("setoption name Endgame Counters value 30"),
        "? Endgame Counters takes 0 to 24, not \"30\""
    );
    // Kept through a new game, which makes the engine anew.
    assert_eq!(d.ask_one("newgame"), "=");
    d.ask_one("game senamukha");
    assert_eq!(
        d.ask_one("setoption name Endgame Counters value 4"),
        "? unknown option \"Endgame Counters\" (senamukha has Hash, Threads, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, EvalFile, Use NNUE, n-move-rule)"
    );
    d.close();
}

#[test]
fn go_reports_and_ends_with_one_bestmove() {
    let mut d = Daemon::start();
    d.ask_one(
        "position fen 11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
    );
    assert_eq!(d.ask_one("5 go depth 3"), "=5");
    let mut infos = 0;
    let best = loop {
        let line = d.line();
        if let Some(best) = line.strip_prefix("bestmove ") {
            break best.to_string();
        }
        assert!(line.starts_with("info depth "), "{line}");
        assert!(line.contains(" score mate 1 "), "{line}");
        infos += 1;
    };
    assert_eq!(best, "i10k10");
    assert!(infos >= 1);
    assert_eq!(
        d.ask_one("fen"),
        "= 11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
        "go does not play"
    );
    // genmove searches and plays.
    let reply = d.ask("genmove depth 2");
    assert_eq!(reply.last().unwrap(), "= i10k10");
    assert_eq!(d.ask_one("status"), "= white wins (checkmate)");
    assert_eq!(d.ask_one("genmove depth 2"), "? the game is over");
    assert_eq!(
        d.ask_one("go depth 0"),
        "? depth is out of range: 0 (1 to 64)"
    );
    assert_eq!(
        d.ask_one("go time purple 100"),
        "? time names a player of this game (white, black), not \"purple\""
    );
    d.close();
}

#[test]
fn during_a_search_requests_wait_their_turn_and_stop_isready_ping_act_at_once() {
    let mut d = Daemon::start();
    assert_eq!(d.ask_one("go infinite"), "=");
    // Needs the game: waits for the search, in order.
    d.send("3 fen");
    d.send("isready");
    loop {
        let line = d.line();
        if line == "readyok" {
            break;
        }
        assert!(line.starts_with("info "), "{line}");
    }
    d.send("ping 9");
    let pong = loop {
        let line = d.line();
        if !line.starts_with("info ") {
            break line;
        }
    };
    assert_eq!(pong, "= pong 9");
    d.send("stop");
    let mut bestmoves = 0;
    loop {
        let line = d.line();
        if line.starts_with("bestmove ") {
            bestmoves += 1;
        } else if line.starts_with("=3 ") {
            // The request that waited is served after the search.
            break;
        } else {
            assert!(line.starts_with("info ") || line.is_empty(), "{line}");
        }
    }
    assert_eq!(d.line(), "");
    assert_eq!(bestmoves, 1);
    // The stop acted at once, and is answered in its turn, after the fen.
    assert_eq!(d.reply(), ["="]);
    assert_eq!(
        d.ask_one("stop"),
        "=",
        "a stop without a search is harmless"
    );
    assert!(d.ask_one("fen").ends_with(" w - - 0 1"));
    // The end of input during a search: the process stops it and exits promptly.
    d.send("go infinite");
    assert_eq!(d.reply(), ["="]);
    let took = d.close();
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn line_robustness() {
    let mut d = Daemon::start();
    d.send_bytes(b"name\r\n\n   \n\t\tname\t\r\n");
    assert_eq!(d.reply(), ["= ludus"]);
    assert_eq!(d.reply(), ["= ludus"]);
    let long = format!("position fen {}\n", "1".repeat(1 << 20));
    d.send_bytes(long.as_bytes());
    assert_eq!(
        d.reply(),
        [format!(
            "? line too long: {} bytes (at most 1048576)",
            long.len() - 1
        )]
    );
    d.send_bytes(b"play \xff\xfe\n");
    assert_eq!(d.reply(), ["? invalid UTF-8 in the request"]);
    assert_eq!(d.ask_one("name"), "= ludus", "the daemon keeps serving");
    d.close();
}

#[test]
fn a_position_line_with_five_thousand_moves() {
    // Two kings wander over an otherwise blocked board, never a third time in one place.
    let fen = "10k/11/11/11/11/p10/P10/11/11/11/K10 w - - 0 1";
    let mut position = senamukha::Position::from_fen(fen).unwrap();
    let mut moves = Vec::new();
    let mut state = 0x9E37_79B9u64;
    while moves.len() < 5_000 {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let start = state as usize % legal.len();
        let choice = (0..legal.len())
            .map(|k| legal[(start + k) % legal.len()])
            .find(|&m| {
                let mut next = position.clone();
                next.play(m);
                next.outcome().is_none()
            });
        let mv = choice.expect("a move that keeps the game going");
        moves.push(position.format_move(mv, senamukha::Notation::Coordinate));
        position.play(mv);
    }
    let mut d = Daemon::start();
    let started = Instant::now();
    assert_eq!(
        d.ask_one(&format!("position fen {fen} moves {}", moves.join(" "))),
        "="
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(d.ask_one("fen"), format!("= {}", position.fen()));
    d.close();
}

/// Every transcript in protocol-spec/protocol.md and dialects.md is what a fresh
/// process answers when the whole transcript is piped into it at once. `info` lines of
/// searches (which carry timings) are left out; a line `...` in a transcript stands for
/// any lines up to the next one it shows (a dialect's handshake).
#[test]
fn the_transcripts_in_the_spec_are_true() {
    let mut blocks = 0;
    for file in ["protocol.md", "dialects.md"] {
        let path = format!("{}/protocol-spec/{file}", env!("CARGO_MANIFEST_DIR"));
        let spec = std::fs::read_to_string(path).unwrap();
        for block in spec.split("```transcript\n").skip(1) {
            let block = block.split("```").next().unwrap();
            let requests: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("> "))
                .map(|l| format!("{l}\n"))
                .collect();
            let expected: Vec<&str> = block.lines().filter(|l| !l.starts_with("> ")).collect();
            let out = Command::cargo_bin("ludus")
                .unwrap()
                .env("RUST_LOG", "warn")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    child.stdin.take().unwrap().write_all(requests.as_bytes())?;
                    child.wait_with_output()
                })
                .unwrap();
            let got = String::from_utf8(out.stdout).unwrap();
            // Info lines are compared where the transcript shows them, their timings
            // (`nps`, `time`) aside.
            let shows_info = expected.iter().any(|l| l.starts_with("info "));
            let untimed = |line: &str| -> String {
                let words: Vec<&str> = line.split(' ').collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if line.starts_with("info ") && matches!(words[i], "nps" | "time") {
                        i += 2;
                        continue;
                    }
                    kept.push(words[i]);
                    i += 1;
                }
                kept.join(" ")
            };
            let got: Vec<String> = got
                .lines()
                .filter(|l| shows_info || !l.starts_with("info "))
                .map(untimed)
                .collect();
            let expected: Vec<String> = expected.into_iter().map(untimed).collect();
            let mut got: Vec<&str> = got.iter().map(String::as_str).collect();
            let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
            // Empty lines at the ends (a reply's last, the block's) are not compared.
            let mut expected = expected;
            while got.last() == Some(&"") {
                got.pop();
            }
            while expected.last() == Some(&"") {
                expected.pop();
            }
            let mut got = got.into_iter();
            let mut wanted = expected.iter().peekable();
            while let Some(&line) = wanted.next() {
                if line == "..." {
                    let next = **wanted.peek().expect("a line after ...");
                    while got.clone().next().is_some_and(|g| g != next) {
                        got.next();
                    }
                    continue;
                }
                assert_eq!(got.next(), Some(line), "{file}: {block}");
            }
            assert_eq!(got.next(), None, "{file}: {block}");
            blocks += 1;
        }
    }
    assert!(blocks >= 5, "{blocks} transcripts");
}

#[test]
fn every_command_in_every_game() {
    for (game, a_move) in [("senamukha", "a3b5"), ("mentula", "c3"), ("mangala", "C")] {
        let mut d = Daemon::start();
        assert_eq!(d.ask_one(&format!("game {game}")), "=", "{game}");
        assert_eq!(d.ask_one("newgame"), "=");
        assert_eq!(d.ask_one("position startpos"), "=");
        let canonical = d.ask_one(&format!("play {a_move}"));
        assert!(canonical.starts_with("= "), "{game}: {canonical}");
        assert_eq!(d.ask_one("undo"), "=");
        let fen = d.ask_one("fen");
        assert_eq!(
            d.ask_one(&format!("position fen {}", &fen[2..])),
            "=",
            "{game}"
        );
        assert_eq!(d.ask_one("fen"), fen);
        assert!(d.ask_one("legal_moves").split_whitespace().count() > 1);
        assert_eq!(d.ask("show")[0], "=");
        assert!(d.ask_one("to_move").starts_with("= "));
        assert!(d.ask_one("status").starts_with("= ongoing ("));
        assert!(
            d.ask_one("perft 2")
                .parse::<String>()
                .unwrap()
                .starts_with("= ")
        );
        assert!(
            d.ask("divide 1")
                .last()
                .unwrap()
                .starts_with("Nodes searched: ")
        );
        d.ask_one(&format!("play {a_move}"));
        let record = d.ask_one("record");
        assert!(record.starts_with("= 1. "), "{game}: {record}");
        assert_eq!(
            d.ask_one(&format!("load_record {}", &record[2..])),
            "=",
            "{game}"
        );
        assert_eq!(d.ask_one("record"), record);
        assert!(d.ask("list_options").len() >= 3);
        assert_eq!(
            d.ask("genmove depth 2").last().unwrap().chars().next(),
            Some('=')
        );
        assert_eq!(d.ask_one("go depth 2"), "=");
        loop {
            if d.line().starts_with("bestmove ") {
                break;
            }
        }
        d.send("isready");
        assert_eq!(d.line(), "readyok");
        d.close();
    }
}

#[test]
fn genmove_and_counts_are_answered_before_what_follows_them() {
    let mut d = Daemon::start();
    // genmove's answer is its reply: isready waits for it; stop ends it with its move
    // and is answered in its turn, after the isready.
    d.send("4 genmove infinite");
    d.send("isready");
    std::thread::sleep(Duration::from_millis(200));
    d.send("stop");
    let mut answers = Vec::new();
    while answers.len() < 3 {
        let line = d.line();
        if line.starts_with("info ") || line.is_empty() {
            continue;
        }
        answers.push(line);
    }
    assert!(answers[0].starts_with("=4 "), "{answers:?}");
    assert_eq!(answers[1..], ["readyok", "="], "{answers:?}");
    assert!(
        // Black to move, whichever move the stopped search chose (a pawn's or not).
        d.ask_one("fen").contains(" b - - "),
        "genmove played its move"
    );
    // A count answers before the requests after it, ping included.
    assert_eq!(d.ask_one("newgame"), "=");
    d.send("7 perft 4");
    d.send("8 ping");
    assert_eq!(d.reply(), ["=7 5568223"]);
    assert_eq!(d.reply(), ["=8 pong"]);
    assert_eq!(d.ask_one("5 "), "?5 the request has an id but no command");
    // stop ends a long count early, and says so.
    d.send("9 perft 9");
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    d.send("stop");
    assert_eq!(d.reply(), ["?9 stopped before the count was complete"]);
    assert_eq!(d.reply(), ["="]);
    assert!(started.elapsed() < Duration::from_secs(1));
    // At the end of input a count still finishes and answers.
    d.send("10 divide 2");
    d.send_eof();
    let lines: Vec<String> = std::iter::from_fn(|| d.next_line()).collect();
    assert_eq!(lines.first().map(String::as_str), Some("=10"));
    assert!(
        lines.contains(&"Nodes searched: 2304".to_string()),
        "{lines:?}"
    );
}

/// `EndgamePath` names a folder of table files: a folder without them is refused with
/// what is missing and changes nothing; a folder with them is used, and the search says
/// so (`info string`).
#[test]
fn endgame_path_takes_a_folder_of_table_files() {
    let dir = common::table_files("protocol-tables", 6);
    let mut d = Daemon::start();
    d.ask_one("game mangala");
    assert!(
        d.ask("list_options")
            .iter()
            .any(|l| l == "option name EndgamePath type string default <empty>")
    );
    let empty = std::env::temp_dir();
    assert_eq!(
        d.ask_one(&format!(
            "setoption name EndgamePath value {}",
            empty.display()
        )),
        format!(
            "? EndgamePath {:?} cannot be used: there are no endgame table files there: {} is missing (ludus endgame --write makes them)",
            empty.display().to_string(),
            empty.join("mangala-02.ltb").display()
        )
    );
    assert_eq!(
        d.ask_one(&format!(
            "setoption name EndgamePath value {}",
            dir.display()
        )),
        "="
    );
    // Six counters on the board: the root is covered, played from the files.
    d.ask_one("position fen 0,0,2,0,1,0/1,0,0,2,0,0 S 30 36");
    assert_eq!(d.ask_one("go depth 4"), "=");
    let canonical = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(
        d.line(),
        format!(
            "info string endgame tables: 2 to 6 counters from {}",
            canonical.display()
        )
    );
    let info = d.line();
    assert!(info.contains(" nodes 1 "), "{info}");
    assert!(d.line().starts_with("bestmove "));
    // Emptied, the engine goes back to the tables it builds.
    assert_eq!(d.ask_one("setoption name EndgamePath value <empty>"), "=");
    let _ = std::fs::remove_dir_all(&dir);
    d.close();
}

/// `EvalFile` and `Use NNUE` through the protocol: listed, a damaged file refused with
/// its reason, a good one used and said so when the search starts.
#[test]
fn eval_file_and_use_nnue_choose_sena_mukhas_evaluation() {
    let dir = std::env::temp_dir().join(format!("ludus-nn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    let damaged = dir.join("bad.nnue");
    let mut bytes = common::network_file(16);
    std::fs::write(&good, &bytes).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();

    let mut d = Daemon::start();
    let listed = d.ask("list_options");
    assert!(
        listed
            .iter()
            .any(|l| l == "option name EvalFile type string default <empty>")
    );
    assert!(
        listed
            .iter()
            .any(|l| l == "option name Use NNUE type check default true")
    );
    assert_eq!(
        d.ask_one("setoption name Use NNUE value maybe"),
        "? Use NNUE takes true or false, not \"maybe\""
    );
    assert_eq!(d.ask_one("setoption name use nnue value FALSE"), "=");
    assert_eq!(
        d.ask_one(&format!(
            "setoption name EvalFile value {}",
            damaged.display()
        )),
        format!(
            "? EvalFile {:?} cannot be used: the network's weights do not match its checksum: the file is damaged",
            damaged.display().to_string()
        )
    );
    // Off, the search says it evaluates by hand; on again without a file, with the
    // built-in network.
    assert_eq!(d.ask_one("go depth 1"), "=");
    assert_eq!(d.line(), "info string evaluation: hand-written");
    while !d.line().starts_with("bestmove ") {}
    assert_eq!(d.ask_one("setoption name Use NNUE value true"), "=");
    assert_eq!(d.ask_one("go depth 1"), "=");
    let told = d.line();
    assert!(
        told.starts_with("info string evaluation: built-in network of ")
            && told.ends_with(" hidden"),
        "{told}"
    );
    while !d.line().starts_with("bestmove ") {}
    assert_eq!(
        d.ask_one(&format!("setoption name EvalFile value {}", good.display())),
        "="
    );
    assert_eq!(d.ask_one("go depth 2"), "=");
    assert_eq!(
        d.line(),
        format!(
            "info string evaluation: network of 16 hidden from {}",
            good.display()
        )
    );
    while !d.line().starts_with("bestmove ") {}
    let _ = std::fs::remove_dir_all(&dir);
    d.close();
}

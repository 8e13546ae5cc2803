//! Conformance of the dialects through pipes, each scripted the way its real client
//! drives an engine (after fastchess's `--compliance` checks): the handshake, options,
//! positions, clocks, `isready` and `stop` during a search, a whole game to its end,
//! errors that change nothing, and `quit`.

mod common;

use std::time::{Duration, Instant};

use common::Process;
use ludus::game::Game;
use ludus::games::{mangala, senamukha};

const MATE_IN_ONE: &str = "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89";

/// Checks an `info` line of a search: `info depth D seldepth S score cp|mate N nodes N
/// nps N time T [pv ...]`, with every number a number.
fn check_info(line: &str) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "info", "{line}");
    if words.get(1) == Some(&"string") {
        return;
    }
    let mut i = 1;
    let mut seen = Vec::new();
    while i < words.len() {
        match words[i] {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time"
            | "currmovenumber" => {
                assert!(words[i + 1].parse::<u64>().is_ok(), "{line}");
                seen.push(words[i]);
                i += 2;
            }
            "score" => {
                assert!(matches!(words[i + 1], "cp" | "mate"), "{line}");
                assert!(words[i + 2].parse::<i64>().is_ok(), "{line}");
                seen.push("score");
                i += 3;
            }
            "currmove" => {
                seen.push("currmove");
                i += 2;
            }
            "pv" => {
                assert!(i + 1 < words.len(), "an empty pv: {line}");
                break;
            }
            other => panic!("unexpected {other:?} in {line}"),
        }
    }
    // A report of the root move being searched has its depth and the move only.
    let wanted: &[&str] = if seen.contains(&"currmove") {
        &["depth", "currmovenumber"]
    } else {
        &["depth", "score", "nodes", "time"]
    };
    for key in wanted {
        assert!(seen.contains(key), "no {key} in {line}");
    }
}

/// Reads a search's output up to `bestmove`; checks the info lines; returns the move.
fn bestmove(engine: &mut Process) -> String {
    let lines = engine.until(|l| l.starts_with("bestmove"));
    for line in &lines[..lines.len() - 1] {
        check_info(line);
    }
    let last = lines.last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    // `bestmove <move>`, or with the reply it expects: `bestmove <move> ponder <move>`.
    assert!(
        words.len() == 2 || (words.len() == 4 && words[2] == "ponder"),
        "{last}"
    );
    words[1].to_string()
}

fn handshake(engine: &mut Process, first: &str, ok: &str) -> Vec<String> {
    engine.send(first);
    let lines = engine.until(|l| l == ok);
    assert!(lines[0].starts_with("id name ludus"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    lines
}

#[test]
fn uci_plays_a_senamukha_game_under_a_clock_like_a_gui() {
    let mut engine = Process::start();
    let options = handshake(&mut engine, "uci", "uciok");
    assert!(
        options.contains(
            &"option name UCI_Variant type combo default senamukha var senamukha var mangala"
                .to_string()
        )
    );
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name MoveOverhead type spin"))
    );
    engine.send("setoption name Hash value 16");
    engine.send("setoption name UCI_Variant value senamukha");
    let start = senamukha::Position::start().fen();
    assert_eq!(
        engine.line(),
        format!(
            "info string variant senamukha files 11 ranks 11 pocket 0 template fairy startpos {start}"
        )
    );
    // The n-move rule bounds the game: the clocked plies make it differ from run to
    // run, and without the rule a game may wander on without a repetition.
    engine.send("setoption name n-move-rule value 50");
    engine.send("ucinewgame");
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");

    // A game against itself to its end: the whole move list every time; clocks of
    // 3 s + 30 ms for 30 plies, then 2,000 nodes a move to keep the test short.
    let mut position = senamukha::Position::start();
    position.set_rule_option("n-move-rule", "50").unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [3_000i64, 3_000];
    while position.outcome().is_none() && moves.len() < 2_000 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let mover = position.to_move();
        let started = Instant::now();
        if moves.len() < 30 {
            engine.send(&format!(
                "go wtime {} btime {} winc 30 binc 30",
                clocks[0], clocks[1]
            ));
        } else {
            engine.send("go nodes 2000");
        }
        let mv = bestmove(&mut engine);
        let used = started.elapsed().as_millis() as i64;
        if moves.len() < 30 {
            assert!(used < clocks[mover], "{used} ms of {} ms", clocks[mover]);
            clocks[mover] += 30 - used;
        }
        let parsed = position
            .parse_move(&mv)
            .unwrap_or_else(|e| panic!("bestmove {mv}: {e}"));
        position.play(parsed);
        moves.push(mv);
    }
    assert!(
        position.outcome().is_some(),
        "no end after {} plies",
        moves.len()
    );
    // The end as the engine sees it: no move.
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go depth 3");
    assert_eq!(engine.line(), "bestmove (none)");

    // isready and stop during an infinite search.
    engine.send(&format!(
        "position startpos moves {}",
        moves[..10].join(" ")
    ));
    let mut position = senamukha::Position::start();
    for mv in &moves[..10] {
        let parsed = position.parse_move(mv).unwrap();
        position.play(parsed);
    }
    engine.send("go infinite");
    engine.send("isready");
    assert_eq!(
        engine.until(|l| !l.starts_with("info ")).last().unwrap(),
        "readyok"
    );
    let started = Instant::now();
    engine.send("stop");
    let mv = bestmove(&mut engine);
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(position.parse_move(&mv).is_ok(), "{mv}");

    // A bad position changes nothing: the next search is from the last good one.
    engine.send("position startpos moves z9z9");
    assert!(engine.line().starts_with("info string error: "));
    engine.send("go depth 1");
    let mv = bestmove(&mut engine);
    assert!(position.parse_move(&mv).is_ok(), "{mv}");

    // The seed's mate in one, then no move in the mated position.
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove i10k10");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    engine.send(&format!("position fen {MATE_IN_ONE} moves i10k10"));
    engine.send("go movetime 100");
    assert_eq!(engine.line(), "bestmove (none)");

    // go perft: a line per move, then the total.
    engine.send("position startpos");
    engine.send("go perft 2");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    let expected = ludus::perft::perft(&mut senamukha::Position::start(), 2);
    assert_eq!(
        lines.last().unwrap(),
        &format!("Nodes searched: {expected}")
    );
    let counted: u64 = lines
        .iter()
        .filter_map(|l| l.split_once(": ")?.1.parse::<u64>().ok())
        .sum();
    assert_eq!(counted, 2 * expected, "{lines:?}");

    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

#[test]
fn uci_serves_mangala_and_a_quit_during_a_search() {
    let mut engine = Process::start();
    handshake(&mut engine, "uci", "uciok");
    engine.send("setoption name UCI_Variant value mangala");
    assert!(
        engine
            .line()
            .starts_with("info string variant mangala files 6 ranks 2")
    );
    // A big hash table is taken at isready, not in the time of the first move.
    engine.send("setoption name Hash value 1024");
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    let started = Instant::now();
    engine.send("go movetime 100");
    bestmove(&mut engine);
    let took = started.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    engine.send("setoption name Hash value 16");
    engine.send("setoption name Endgame Counters value 0");
    engine.send("setoption name ply-limit value 300");
    engine.send("setoption name castling value on");
    assert_eq!(
        engine.line(),
        "info string error: unknown option \"castling\" (the options are Hash, Threads, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, EvalFile, Use NNUE, n-move-rule, Endgame Counters, EndgamePath, skip-origin, ply-limit)"
    );
    engine.send("position startpos moves A b");
    engine.send("go movetime 100");
    let mv = bestmove(&mut engine);
    let mut position = mangala::Position::start();
    for m in ["A", "b"] {
        let parsed = position.parse_move(m).unwrap();
        position.play(parsed);
    }
    assert!(position.parse_move(&mv).is_ok(), "{mv}");
    engine.send("go perft 3");
    let expected = ludus::perft::perft(&mut position, 3);
    assert_eq!(
        engine
            .until(|l| l.starts_with("Nodes searched"))
            .last()
            .unwrap(),
        &format!("Nodes searched: {expected}")
    );
    // Commands during a search wait for it, while isready is answered at once.
    engine.send("go movetime 1500");
    engine.send("position startpos");
    let started = Instant::now();
    engine.send("isready");
    assert_eq!(
        engine.until(|l| !l.starts_with("info ")).last().unwrap(),
        "readyok"
    );
    assert!(started.elapsed() < Duration::from_millis(500));
    engine.send("stop");
    bestmove(&mut engine);
    // A perft after a stopped infinite search, then the game again.
    engine.send("go infinite");
    engine.send("stop");
    bestmove(&mut engine);
    engine.send("go perft 4");
    engine.send("d");
    let lines = engine.until(|l| l.starts_with("Fen: "));
    assert!(
        lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    // A negative clock (an overstepped one) counts as empty; searchmoves runs to the
    // next keyword and restricts the root: the best move and every line start with
    // one of its moves. What go cannot use is reported, and it still searches.
    engine.send("go wtime -170 btime 1000 searchmoves A B mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert!(best == "A" || best == "B", "{lines:?}");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" pv A") || l.contains(" pv B")),
        "{lines:?}"
    );
    engine.send("go depth 2 sideways");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(
        lines[0], "info string warning: go ignores sideways",
        "{lines:?}"
    );
    // Mangala II has no mates: `mate 3` searches 5 plies and says so.
    engine.send("go mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l == "info string no mate in 3 moves: every line to 5 plies searched"),
        "{lines:?}"
    );
    engine.send("go infinite");
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

#[test]
fn ugi_plays_a_mangala_game_to_its_end_with_queries_like_cutegames() {
    let mut engine = Process::start();
    let options = handshake(&mut engine, "ugi", "ugiok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name UGI_Variant"))
    );
    engine.send("uginewgame");
    // The position string says which game it is.
    let start = mangala::Position::start().fen();
    let mut position = mangala::Position::start();
    let mut moves: Vec<String> = Vec::new();
    let ask = |engine: &mut Process, what: &str| -> String {
        engine.send(&format!("query {what}"));
        let line = engine.line();
        line.strip_prefix("response ")
            .unwrap_or_else(|| panic!("{line}"))
            .to_string()
    };
    loop {
        engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
        let over = position.outcome().is_some();
        assert_eq!(ask(&mut engine, "gameover"), over.to_string());
        // Passes are real: the player to move is asked, not guessed.
        assert_eq!(
            ask(&mut engine, "p1turn"),
            (position.to_move() == 0).to_string()
        );
        if over || moves.len() >= 300 {
            break;
        }
        assert_eq!(ask(&mut engine, "result"), "none");
        if moves.len() < 6 {
            engine.send("go p1time 2000 p2time 2000 p1inc 20 p2inc 20");
        } else {
            engine.send("go nodes 3000");
        }
        let mv = bestmove(&mut engine);
        let parsed = position
            .parse_move(&mv)
            .unwrap_or_else(|e| panic!("bestmove {mv}: {e}"));
        position.play(parsed);
        moves.push(mv);
    }
    // isready and stop during a search, from a position of the game played.
    engine.send(&format!(
        "position fen {start} moves {}",
        moves[..4].join(" ")
    ));
    engine.send("go infinite");
    engine.send("isready");
    assert_eq!(
        engine.until(|l| !l.starts_with("info ")).last().unwrap(),
        "readyok"
    );
    engine.send("stop");
    let mv = bestmove(&mut engine);
    let mut early = mangala::Position::start();
    for m in &moves[..4] {
        let parsed = early.parse_move(m).unwrap();
        early.play(parsed);
    }
    assert!(early.parse_move(&mv).is_ok(), "{mv}");
    engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
    if let Some(outcome) = position.outcome() {
        let expected = match outcome.winner() {
            Some(0) => "p1win",
            Some(_) => "p2win",
            None => "draw",
        };
        assert_eq!(ask(&mut engine, "result"), expected);
    }
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

/// The next line that is not thinking output (`ply score time nodes pv`).
fn after_thinking(engine: &mut Process) -> String {
    loop {
        let line = engine.line();
        let first = line.split(' ').next().unwrap_or("");
        if first.parse::<u32>().is_ok() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert!(fields.len() >= 4, "{line}");
            for f in &fields[1..4] {
                assert!(f.parse::<i64>().is_ok(), "{line}");
            }
            continue;
        }
        return line;
    }
}

#[test]
fn cecp_plays_like_xboard_expects() {
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    // The options first, one feature each, then the features ending in done=1.
    let features = engine.until(|l| l.contains("done=1")).pop().unwrap();
    for wanted in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "time=1",
        "memory=1",
        "variants=\"senamukha\"",
        "done=1",
    ] {
        assert!(features.contains(wanted), "{wanted} missing: {features}");
    }
    engine.send("accepted setboard");
    engine.send("new");
    engine.send("variant senamukha");
    assert_eq!(
        engine.line(),
        format!(
            "setup (PN.R..EKpn.r..ek) 11x11+0_fairy {}",
            senamukha::Position::start().fen()
        )
    );
    assert_eq!(engine.line(), "piece E& WFAD");
    assert_eq!(engine.line(), "piece P& fmWfcF");
    engine.send("level 0 0:05 0.05");
    engine.send("sd 3");
    engine.send("post");
    engine.send("hard");
    engine.send("ping 1");
    assert_eq!(engine.line(), "pong 1");
    engine.send("force");

    // The engine plays White to the end of the game; the test answers with the first
    // legal move.
    let mut position = senamukha::Position::start();
    engine.send("time 500");
    engine.send("otim 500");
    engine.send("go");
    let mut replies = Vec::new();
    loop {
        let line = after_thinking(&mut engine);
        let mv = line
            .strip_prefix("move ")
            .unwrap_or_else(|| panic!("{line}"));
        let parsed = position.parse_move(mv).unwrap();
        position.play(parsed);
        if let Some(outcome) = position.outcome() {
            // The engine claims the end its own move made.
            let claim = engine.line();
            let expected = if outcome.winner() == Some(0) {
                "1-0 {White mates}"
            } else {
                "1/2-1/2"
            };
            assert!(claim.starts_with(expected), "{claim}");
            break;
        }
        position.legal_moves(&mut replies);
        let reply = position.format_move(replies[0], senamukha::Notation::Coordinate);
        position.play(replies[0]);
        engine.send("time 500");
        engine.send("otim 500");
        engine.send(&format!("usermove {reply}"));
        if let Some(outcome) = position.outcome() {
            // The test's move ended the game: the engine claims it.
            assert!(engine.line().starts_with(if outcome.winner().is_some() {
                "0-1"
            } else {
                "1/2-1/2"
            }));
            break;
        }
    }
    // Move now, and a ping while thinking, in a game set up by moves in force mode.
    engine.send("new");
    engine.send("force");
    for mv in ["i3h5", "i9h7", "a3b5"] {
        engine.send(&format!("usermove {mv}"));
    }
    engine.send("undo");
    engine.send("remove");
    engine.send("sd 30");
    engine.send("st 30");
    engine.send("go");
    // A ping while the engine thinks on its own move is answered after the move, as
    // the CECP specification has it; `?` makes it move at once.
    engine.send("ping 2");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    engine.send("?");
    assert!(after_thinking(&mut engine).starts_with("move "));
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!(after_thinking(&mut engine), "pong 2");

    // An illegal move is refused and changes nothing; a mate is claimed.
    engine.send("force");
    engine.send(&format!("setboard {MATE_IN_ONE}"));
    engine.send("usermove i10i12");
    assert!(engine.line().starts_with("Illegal move"), "refused");
    engine.send("sd 3");
    engine.send("go");
    assert_eq!(after_thinking(&mut engine), "move i10k10");
    assert_eq!(engine.line(), "1-0 {White mates}");

    // Commands XBoard may send while the engine thinks: refused or kept for later,
    // and the move still comes.
    engine.send("new");
    engine.send("st 1");
    engine.send("usermove i3h5");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("pause");
    engine.send("memory 32");
    assert_eq!(
        after_thinking(&mut engine),
        "Error (unknown command): pause"
    );
    assert!(after_thinking(&mut engine).starts_with("move "));

    // Analysis: thinking output until exit, no move.
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    let thinking = engine.line();
    assert!(
        thinking.split(' ').next().unwrap().parse::<u32>().is_ok(),
        "{thinking}"
    );
    engine.send("exit");
    engine.send("ping 3");
    assert_eq!(after_thinking(&mut engine), "pong 3");
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

/// UCI clamps no number silently: one out of its range is refused in the native
/// protocol's words and left out, so `go depth 1000` piped ends with the input (as an
/// unbounded `go` does) instead of searching to depth 64.
#[test]
fn uci_refuses_numbers_out_of_range_and_leaves_them_out() {
    use assert_cmd::Command;
    let cases = [
        ("go depth 1000", "depth is out of range: 1000 (1 to 64)"),
        ("go mate 0", "mate is out of range: 0 (1 to 32 moves)"),
        (
            "go wtime 99999999999999999999999 btime 1000",
            "wtime is out of range (too large): 99999999999999999999999 (0 to 18446744073709551615)",
        ),
    ];
    for (go, why) in cases {
        let started = Instant::now();
        let out = Command::cargo_bin("ludus")
            .unwrap()
            .env("RUST_LOG", "off")
            .write_stdin(format!("uci\nposition startpos\n{go}\n"))
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(&format!("info string error: {why}; left out of this go\n")),
            "{go}: {text}"
        );
        assert_eq!(
            text.lines().filter(|l| l.starts_with("bestmove ")).count(),
            1,
            "{text}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{go}: {:?}",
            started.elapsed()
        );
    }
}

/// XBoard declares a check option `-check 0` and sets it with 1 or 0: the engine takes
/// those as true and false, and refuses anything else with the option's values.
#[test]
fn cecp_sets_check_options_with_one_and_zero() {
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"Use NNUE -check 1\""),
        "{features:?}"
    );
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"EvalFile -string \""),
        "{features:?}"
    );
    engine.send("option Use NNUE=1");
    engine.send("option Use NNUE=0");
    engine.send("option Use NNUE=2");
    engine.send("ping 1");
    let lines = engine.until(|l| l == "pong 1");
    assert_eq!(
        lines,
        [
            "Error (Use NNUE takes true or false, not \"2\"): option Use NNUE=2",
            "pong 1"
        ]
    );
}

//! Analysis as GUIs use it, through pipes in every dialect: MultiPV, searchmoves,
//! pondering, CECP's exclude, hashfull (protocol-spec/protocol.md, "Analysis").

mod common;

use std::time::{Duration, Instant};

use common::Process;

/// Issue 19's position: the only mate in 3 is j11d11; j9i9 mates in 4.
const PUZZLE: &str =
    "9r1/4pppp3/1N2k4r1/5n3pp/1p2K6/3p2p4/P3n1P4/1PPe4PRP/1R2NP1P3/3PP1P4/9R1 b - - 0 59";

/// A score as an order: mates for the mover above every centi-unit score, mates
/// against it below.
fn rank(kind: &str, n: i64) -> i64 {
    match kind {
        "mate" if n > 0 => 1_000_000 - n,
        "mate" => -1_000_000 - n,
        _ => n,
    }
}

/// An `info` line's depth, line number (1 without MultiPV), score rank and first move.
fn read_info(line: &str) -> Option<(u32, usize, i64, String)> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.first() != Some(&"info") || !words.contains(&"pv") {
        return None;
    }
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| words[i + 1]);
    let depth = after("depth")?.parse().ok()?;
    let multipv = after("multipv").map_or(1, |k| k.parse().unwrap());
    let at = words.iter().position(|w| *w == "score")?;
    let score = rank(words[at + 1], words[at + 2].parse().ok()?);
    Some((depth, multipv, score, after("pv")?.to_string()))
}

/// One `info` line of a depth: its line number, score rank and first move.
type Line = (usize, i64, String);

/// The lines of each depth of a search's output, in the order given.
fn by_depth(lines: &[String]) -> Vec<(u32, Vec<Line>)> {
    let mut depths: Vec<(u32, Vec<Line>)> = Vec::new();
    for (depth, k, score, first) in lines.iter().filter_map(|l| read_info(l)) {
        match depths.last_mut() {
            Some((d, group)) if *d == depth => group.push((k, score, first)),
            _ => depths.push((depth, vec![(k, score, first)])),
        }
    }
    depths
}

/// Every depth reports `n` lines numbered 1 to n, with distinct first moves and scores
/// best first.
fn assert_lines(lines: &[String], n: usize) {
    let depths = by_depth(lines);
    assert!(!depths.is_empty(), "{lines:?}");
    for (depth, group) in &depths {
        assert_eq!(group.len(), n, "depth {depth}: {lines:?}");
        let numbers: Vec<usize> = group.iter().map(|l| l.0).collect();
        assert_eq!(numbers, (1..=n).collect::<Vec<_>>(), "depth {depth}");
        let mut firsts: Vec<&String> = group.iter().map(|l| &l.2).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), n, "depth {depth}: {group:?}");
        assert!(
            group.windows(2).all(|w| w[0].1 >= w[1].1),
            "depth {depth}: {group:?}"
        );
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    last.split(' ').nth(1).unwrap().to_string()
}

fn native() -> Process {
    Process::start()
}

fn uci(dialect: &str) -> Process {
    let mut engine = Process::start();
    engine.send(dialect);
    engine.until(|l| l == format!("{dialect}ok"));
    engine
}

#[test]
fn multipv_gives_distinct_lines_best_first_and_keeps_the_best_move() {
    // Native: MultiPV 1 and 3 agree on the best move: the mate in 3 that the
    // exhaustive search of `mate 3` proves (5 plies), the only one.
    let mut engine = native();
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send("go mate 3");
    let single = engine.until(|l| l.starts_with("bestmove"));
    engine.send("setoption name MultiPV value 3");
    engine.send("go mate 3");
    let multi = engine.until(|l| l.starts_with("bestmove"));
    assert_lines(&multi, 3);
    assert_eq!(bestmove(&single), "j11d11");
    assert_eq!(bestmove(&multi), bestmove(&single));
    let last_depth = by_depth(&multi).pop().unwrap();
    assert_eq!(last_depth.1[0].2, "j11d11", "{multi:?}");
    assert_eq!(last_depth.1[0].1, rank("mate", 5), "{multi:?}");
    // The other lines are no mates in 3: j11d11 is the only one.
    assert!(last_depth.1[1].1 < rank("mate", 5), "{multi:?}");
    // At a depth, too: the lines are the best three, distinct, best first.
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_lines(&lines, 3);
    // MultiPV out of range is refused and kept.
    engine.send("setoption name MultiPV value 65");
    assert_eq!(engine.line(), "? MultiPV takes 1 to 64, not \"65\"");

    // UCI, Sena-Mukha, and UGI, Mangala II.
    let mut engine = uci("uci");
    engine.send("setoption name MultiPV value 3");
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send("go mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_lines(&lines, 3);
    assert_eq!(bestmove(&lines), "j11d11");
    let mut engine = uci("ugi");
    engine.send("setoption name UGI_Variant value mangala");
    engine.send("setoption name MultiPV value 4");
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_lines(&lines, 4);

    // Mentula: the four scores, and the root's best moves by the search's measure.
    let mut engine = native();
    engine.send("game mentula");
    engine.send("setoption name MultiPV value 3");
    engine.send("setoption name Algorithm value brs");
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap())
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(last.iter().all(|l| l.contains(" scores ")), "{last:?}");
    assert_eq!(bestmove(&lines), firsts[0].split(' ').next().unwrap());
}

#[test]
fn cecp_analysis_shows_multipv_lines_and_never_an_excluded_move_first() {
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"MultiPV -spin 1 1 64\""),
        "{features:?}"
    );
    assert!(features.last().unwrap().contains(" exclude=1 "));
    engine.send("new");
    engine.send("post");
    engine.send("option MultiPV=3");
    engine.send("analyze");
    // Thinking output: `ply score time nodes pv`; three lines a depth, distinct moves.
    let mut lines = Vec::new();
    while lines
        .iter()
        .filter(|l: &&String| l.starts_with("6 "))
        .count()
        < 3
    {
        lines.push(engine.line());
    }
    let six: Vec<&String> = lines.iter().filter(|l| l.starts_with("6 ")).collect();
    let firsts: Vec<&str> = six.iter().map(|l| l.split(' ').nth(4).unwrap()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2], "{six:?}");
    // The best moves excluded: no line shows them first, to a depth well past them.
    let best = firsts[0].to_string();
    engine.send("option MultiPV=1");
    engine.send(&format!("exclude {best}"));
    engine.send("exclude i3h5");
    engine.send("ping 1");
    engine.until(|l| l == "pong 1");
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.starts_with("7 ")) {
        lines.push(engine.line());
    }
    for line in &lines {
        let first = line.split(' ').nth(4).unwrap();
        assert!(first != best && first != "i3h5", "{line}");
    }
    // `.` (XBoard's periodic update): `stat01: time nodes ply left total move`, of the
    // 48 moves of the start less the excluded; past the first second the move
    // being searched is named, and it is not an excluded one.
    let started = Instant::now();
    let stat = loop {
        std::thread::sleep(Duration::from_millis(300));
        engine.send(".");
        let stat = engine.until(|l| l.starts_with("stat01: "));
        let stat: Vec<String> = stat.last().unwrap().split(' ').map(String::from).collect();
        if stat.len() == 7 || started.elapsed() > Duration::from_secs(20) {
            break stat;
        }
    };
    assert_eq!(stat.len(), 7, "{stat:?}");
    let number = |i: usize| stat[i].parse::<u64>().unwrap();
    assert!(
        number(1) >= 100 && number(2) > 0 && number(3) >= 7,
        "{stat:?}"
    );
    let total = if best == "i3h5" { 47 } else { 46 };
    assert_eq!(number(5), total, "{stat:?}");
    assert!(number(4) < total, "{stat:?}");
    assert!(stat[6] != best && stat[6] != "i3h5", "{stat:?}");
    // `include all` lets them in again; `exclude` of an illegal move is refused.
    engine.send("exclude a3a4");
    let refused = engine.until(|l| l.starts_with("Error"));
    assert_eq!(
        refused.last().unwrap(),
        "Error (illegal move: a3a4 (a4 holds a white man)): exclude a3a4"
    );
    engine.send("include all");
    engine.send("exit");
    engine.send("ping 2");
    engine.until(|l| l == "pong 2");
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

#[test]
fn searchmoves_restricts_the_root_and_hides_a_mate_outside_it() {
    let mut engine = native();
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send("legal_moves");
    let legal = engine.until(|l| l.starts_with("= ")).pop().unwrap();
    let legal: Vec<&str> = legal.trim_start_matches("= ").split(' ').collect();
    let chosen: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| *m != "j11d11" && *m != "j9i9")
        .take(3)
        .collect();
    assert_eq!(chosen.len(), 3);
    let _ = engine.line();
    // The exhaustive mate search over those moves finds none: the mate is outside.
    engine.send(&format!("go mate 3 searchmoves {}", chosen.join(" ")));
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(chosen.contains(&bestmove(&lines).as_str()), "{lines:?}");
    for (_, _, score, first) in lines.iter().filter_map(|l| read_info(l)) {
        assert!(chosen.contains(&first.as_str()));
        assert!(
            score < 900_000,
            "a mate outside the moves asked for: {lines:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l == "info string no mate in 3 moves: every line to 5 plies searched"),
        "{lines:?}"
    );
    // The same search without the restriction finds the mate.
    engine.send("go mate 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "j11d11");
    // An illegal search move is refused by name, and nothing starts.
    engine.send("7 go depth 3 searchmoves j11d11 zz");
    assert_eq!(
        engine.line(),
        "?7 searchmoves zz: unreadable move: zz (not a move in coordinate, long or SAN form)"
    );

    // UCI: the same restriction; an illegal move is reported and every move searched.
    let mut engine = uci("uci");
    engine.send(&format!("position fen {PUZZLE}"));
    engine.send(&format!("go mate 3 searchmoves {}", chosen.join(" ")));
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(chosen.contains(&bestmove(&lines).as_str()), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("score mate 3")),
        "{lines:?}"
    );
    engine.send("go depth 3 searchmoves zz");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines[0].starts_with("info string error: searchmoves zz: unreadable move"),
        "{lines:?}"
    );
    // UGI, Mangala II: only the pits asked for.
    let mut engine = uci("ugi");
    engine.send("setoption name UGI_Variant value mangala");
    engine.send("position startpos");
    engine.send("go depth 5 searchmoves C D");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let best = bestmove(&lines);
    assert!(best == "C" || best == "D", "{lines:?}");
}

/// Checks that a pondering search gives no `bestmove` for 600 ms, sends `hit` and
/// reads its answer, which must come within `within`.
fn ponder_then_hit(engine: &mut Process, hit: &str, within: Duration) -> Vec<String> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(600) {
        if let Some(line) = engine.line_within(Duration::from_millis(50)) {
            assert!(!line.starts_with("bestmove"), "{line} while pondering");
        }
    }
    answered_within(engine, hit, "bestmove", within)
}

/// Sends `request` and reads up to the line starting with `answer`, which must come
/// within `within`.
fn answered_within(
    engine: &mut Process,
    request: &str,
    answer: &str,
    within: Duration,
) -> Vec<String> {
    engine.send(request);
    let sent = Instant::now();
    let lines = engine.until(|l| l.starts_with(answer));
    assert!(sent.elapsed() < within, "{request}: {:?}", sent.elapsed());
    lines
}

#[test]
fn pondering_waits_for_ponderhit_or_stop() {
    // Native: the Ponder option names the expected reply; `go ponder` answers only
    // after `ponderhit`, and then within its limits, counted from the hit.
    let mut engine = native();
    engine.send("setoption name Ponder value true");
    assert_eq!(engine.line(), "=");
    assert_eq!(engine.line(), "");
    engine.send("1 ponderhit");
    assert_eq!(engine.line(), "?1 ponderhit: no search is pondering");
    assert_eq!(engine.line(), "");
    engine.send("2 go ponder movetime 100");
    assert_eq!(engine.line(), "=2");
    let lines = ponder_then_hit(&mut engine, "3 ponderhit", Duration::from_secs(2));
    let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert_eq!(words.len(), 4, "{lines:?}");
    assert_eq!(words[2], "ponder");
    assert!(lines.iter().any(|l| l == "=3"), "{lines:?}");

    // UCI: ponder, then ponderhit; ponder, then stop, answered at once.
    let mut engine = uci("uci");
    engine.send("position startpos");
    engine.send("go ponder wtime 2000 btime 2000");
    let lines = ponder_then_hit(&mut engine, "ponderhit", Duration::from_millis(1500));
    assert!(lines.last().unwrap().contains(" ponder "), "{lines:?}");
    engine.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(300));
    answered_within(&mut engine, "stop", "bestmove", Duration::from_millis(500));
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

#[test]
fn hashfull_rises_during_a_long_search() {
    let mut engine = uci("uci");
    engine.send("setoption name Hash value 1");
    engine.send("position startpos");
    engine.send("go depth 9");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let fill: Vec<u32> = lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let at = words.iter().position(|w| *w == "hashfull")?;
            words[at + 1].parse().ok()
        })
        .collect();
    assert_eq!(fill.len(), 9, "{lines:?}");
    assert!(fill[0] < fill[8] && fill[8] > 100, "{fill:?}");
}

#[test]
fn cecp_ponders_with_hard_and_moves_at_once_on_the_expected_reply() {
    let mut engine = Process::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.until(|l| l.contains("done=1"));
    for command in ["new", "hard", "post", "sd 4", "usermove c3d5"] {
        engine.send(command);
    }
    // The reply the engine expects is the second move of its last line.
    let expected = |lines: &[String]| -> String {
        let last = lines.iter().rev().find(|l| l.starts_with("4 ")).unwrap();
        last.split(' ')
            .nth(5)
            .expect("a line of two moves")
            .to_string()
    };
    let lines = engine.until(|l| l.starts_with("move "));
    let reply = expected(&lines);
    // Pondering runs on the engine's own lines (depth 4 again, after the reply).
    let pondered = engine.until(|l| l.starts_with("4 "));
    assert!(
        !pondered.iter().any(|l| l.starts_with("move ")),
        "{pondered:?}"
    );
    let hit = format!("usermove {reply}");
    answered_within(&mut engine, &hit, "move ", Duration::from_secs(1));
    // Another reply than the one pondered on: pondering ends, the reply is taken back
    // and the real one played; the engine answers it with a legal move. (The move
    // just played came from the pondering search, whose line names the next reply.)
    let pondered_on = expected(&pondered);
    let other = if pondered_on == "k4k5" {
        "a4a5"
    } else {
        "k4k5"
    };
    engine.until(|l| l.starts_with("4 "));
    engine.send(&format!("usermove {other}"));
    engine.send("ping 1");
    let lines = engine.until(|l| l == "pong 1");
    assert!(lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
        "{lines:?}"
    );
    // `easy` ends pondering; `force` and `quit` are served at once.
    engine.send("easy");
    engine.send("force");
    engine.send("ping 2");
    engine.until(|l| l == "pong 2");
    engine.send("quit");
    engine.exits_within(Duration::from_secs(2));
}

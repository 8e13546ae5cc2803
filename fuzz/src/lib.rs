//! The properties the fuzz targets check, for every registered game: what a parser
//! accepts prints back to text that reads as the same thing, and accepted positions
//! play and take back every legal move to the same hash. A broken property panics,
//! which libFuzzer reports as a crash with its input.

use std::io::Write;
use std::sync::{Arc, Mutex};

use ludus::game::{Game, NamedNotation};
use ludus::games::{self, Play, Visitor};

/// The game an input's first byte chooses, and the rest of the input as text.
pub fn split(data: &[u8]) -> Option<(&'static str, &str)> {
    let (&first, rest) = data.split_first()?;
    let text = std::str::from_utf8(rest).ok()?;
    Some((games::NAMES[first as usize % games::NAMES.len()], text))
}

/// Runs `visitor` with the game called `name`.
fn with_game<V: Visitor<Output = ()>>(name: &str, visitor: V) {
    games::visit(name, visitor).expect("a registered game");
}

/// Every legal move plays and takes back to the same hash, and reads back from its
/// text in every notation.
fn check_moves_of<G: Game>(position: &G) {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, position.count_legal_moves());
    let mut p = position.clone();
    let hash = p.hash();
    for &mv in &moves {
        for &NamedNotation { notation, .. } in G::NOTATIONS {
            let text = p.format_move(mv, notation);
            assert_eq!(p.read_move(&text), Ok(mv), "{text} in {}", p.fen());
        }
        p.play(mv);
        p.undo();
        assert_eq!(p.hash(), hash, "after {mv:?} in {}", p.fen());
    }
}

/// A position text: if accepted, its printed form reads back to the same position.
pub fn check_position(game: &str, text: &str) {
    struct Check<'a>(&'a str);
    impl Visitor for Check<'_> {
        type Output = ();
        fn visit<G: Play>(self) {
            let Ok(position) = G::from_fen(self.0) else {
                return;
            };
            let printed = position.fen();
            let again = G::from_fen(&printed)
                .unwrap_or_else(|e| panic!("{printed:?}, printed from {:?}: {e}", self.0));
            assert_eq!(again.fen(), printed);
            assert_eq!(again.hash(), position.hash());
            assert_eq!(again.to_move(), position.to_move());
            check_moves_of(&position);
        }
    }
    with_game(game, Check(text));
}

/// A move text in one of a few positions (the start, and positions after the first
/// legal moves, as `seed` chooses): if it reads, the move is legal and prints in every
/// notation as text that reads back to it.
pub fn check_move(game: &str, seed: u8, text: &str) {
    struct Check<'a>(u8, &'a str);
    impl Visitor for Check<'_> {
        type Output = ();
        fn visit<G: Play>(self) {
            let mut position = G::start();
            let mut moves = Vec::new();
            for k in 0..(self.0 % 8) {
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play(moves[(k as usize * 7 + self.0 as usize) % moves.len()]);
            }
            let Ok(mv) = position.read_move(self.1) else {
                return;
            };
            position.legal_moves(&mut moves);
            assert!(moves.contains(&mv), "{:?} read as an illegal move", self.1);
            for &NamedNotation { notation, .. } in G::NOTATIONS {
                let printed = position.format_move(mv, notation);
                assert_eq!(position.read_move(&printed), Ok(mv), "{printed}");
            }
        }
    }
    with_game(game, Check(seed, text));
}

/// A game record: if it replays, writing its moves in every notation gives records
/// that replay to the same moves and position.
pub fn check_record(game: &str, text: &str) {
    struct Check<'a>(&'a str);
    impl Visitor for Check<'_> {
        type Output = ();
        fn visit<G: Play>(self) {
            let Ok(replay) = ludus::record::replay(G::start(), self.0) else {
                return;
            };
            for &NamedNotation { name, notation, .. } in G::NOTATIONS {
                let written = ludus::record::write(&G::start(), &replay.moves, None, notation);
                let again = ludus::record::replay(G::start(), &written)
                    .unwrap_or_else(|e| panic!("{written:?} ({name}), from {:?}: {e}", self.0));
                assert_eq!(again.moves, replay.moves, "{written}");
                assert_eq!(again.position.fen(), replay.position.fen());
            }
        }
    }
    with_game(game, Check(text));
}

/// An engine specification and an openings file of `game`: read without panicking.
pub fn check_match_setup(game: &str, text: &str) {
    let _ = ludus::tournament::EngineSpec::parse(text, 0);
    struct Check<'a>(&'a str);
    impl Visitor for Check<'_> {
        type Output = ();
        fn visit<G: Play>(self) {
            let _ = ludus::tournament::read_openings::<G>(self.0);
        }
    }
    with_game(game, Check(text));
}

/// What a session wrote, shared with the test that reads it.
#[derive(Clone, Default)]
pub struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Output {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// The quoting rule of every dialect's refusals and notes (`protocol-spec/protocol.md`):
/// a line the engine wrote in answer to `input` has no control character, and quotes no
/// more than [`ludus::game::QUOTED_CHARS`] characters of the input in a row. The run
/// looked for is a few characters longer than that bound, because the separators that
/// the line writes around a quote (`: `, ` "`) can match the input's by chance.
fn check_quotes(input: &str, written: &str) {
    let input_text = input;
    let input: Vec<char> = input.chars().collect();
    let window = ludus::game::QUOTED_CHARS + 4;
    for line in written.lines() {
        assert!(
            !line.chars().any(char::is_control),
            "a control character in {line:?}, answering {input:?}"
        );
        // An input that repeats the engine's own words (the fuzzer learns them from
        // comparisons) makes a quote indistinguishable from them: such a line is left.
        let opening: String = line.chars().take(20).collect();
        if input_text.contains(&opening) {
            continue;
        }
        for run in input.windows(window) {
            // A quote in double quotes (`{:?}`) escapes `\` and `"` with a backslash, so
            // that 40 backslashes show as 80: runs holding either are not counted.
            if run.iter().any(|&c| c == '\\' || c == '"') {
                continue;
            }
            let run: String = run.iter().collect();
            assert!(
                !line.contains(&run),
                "{line:?} quotes more than {} characters of {input:?}",
                ludus::game::QUOTED_CHARS
            );
        }
    }
}

/// Runs a whole session on `script` and gives what it wrote.
pub fn session(script: String) -> String {
    let output = Output::default();
    ludus::protocol::serve(std::io::Cursor::new(script.into_bytes()), output.clone());
    output.text()
}

/// One request line in the native protocol, between two `fen` requests: it gets
/// exactly one reply, and a refused request leaves the position as it was. A `stop`
/// follows it, so that work it starts (`go depth 22`) ends at once.
pub fn check_native_request(game: &str, line: &str) {
    // One line only; `quit` would end the session before the second `fen`.
    let line = line.lines().next().unwrap_or("");
    if line.trim_start().to_ascii_lowercase().starts_with("quit") {
        return;
    }
    let script = format!("1 game {game}\n2 fen\n7 {line}\n9 stop\n8 fen\n");
    let output = session(script);
    let replies: Vec<&str> = output
        .split("\n\n")
        .filter_map(|block| {
            block
                .lines()
                .find(|l| l.starts_with('=') || l.starts_with('?'))
        })
        .collect();
    let reply = |id: &str| -> Vec<&str> {
        replies
            .iter()
            .copied()
            .filter(|r| r[1..].starts_with(id) && !r[1..].starts_with(&format!("{id}0")))
            .collect()
    };
    let [before] = reply("2")[..] else {
        panic!("one reply to the first fen: {output:?}")
    };
    let [after] = reply("8")[..] else {
        panic!("one reply to the second fen: {output:?}")
    };
    assert_eq!(reply("7").len(), 1, "one reply to {line:?}: {output:?}");
    // What quotes the request: its refusal and the notes (`info string`) beside it.
    let quoting: String = output
        .lines()
        .filter(|l| l.starts_with("?7") || l.starts_with("info string"))
        .map(|l| format!("{l}\n"))
        .collect();
    check_quotes(line, &quoting);
    // No control character anywhere in what the engine wrote.
    check_quotes("", &output);
    if reply("7")[0].starts_with('?') {
        assert_eq!(
            before[2..],
            after[2..],
            "{line:?} was refused but changed the position"
        );
    }
}

/// Lines in the UCI dialect (`uci`) or UGI (`ugi`) after the handshake, each followed
/// by `stop` (so that any search ends at once): every `go` that searches gets exactly
/// one `bestmove`.
pub fn check_uci_lines(dialect: &str, text: &str) {
    let lines: Vec<&str> = text
        .lines()
        .take(8)
        .filter(|l| !l.trim_start().to_ascii_lowercase().starts_with("quit"))
        .collect();
    let script: String = lines.iter().map(|l| format!("{l}\nstop\n")).collect();
    let output = session(format!("{dialect}\n{script}"));
    assert!(output.contains(&format!("{dialect}ok")), "{output:?}");
    let searches = lines
        .iter()
        .filter(|l| {
            let words = dialect_words(l);
            words.first().is_some_and(|w| w == "go") && words.get(1).is_none_or(|w| w != "perft")
        })
        .count();
    let bestmoves = output.lines().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, searches, "{lines:?}: {output:?}");
    // Refusals and notes are `info string` lines; `id`, `option` and search lines
    // print the engine's own text.
    let notes: String = output
        .lines()
        .filter(|l| l.starts_with("info string"))
        .map(|l| format!("{l}\n"))
        .collect();
    for line in &lines {
        check_quotes(line, &notes);
    }
    // No control character anywhere in what the engine wrote.
    check_quotes("", &output);
}

/// A line's words as the dialects read them: one carriage return before the line's end
/// dropped (a CRLF line), separated by spaces and tabs only, in lower case.
fn dialect_words(line: &str) -> Vec<String> {
    line.strip_suffix('\r')
        .unwrap_or(line)
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// Lines in CECP after `xboard` and `protover 2`, each followed by `?` (a search on
/// the engine's move plays at once) and `ping N`: every `ping` gets exactly one `pong`,
/// in order, as XBoard relies on; and as `?` made every search on the engine's move
/// play before the `ping` after it, no `move` comes after the last `pong`.
pub fn check_cecp_lines(text: &str) {
    let lines: Vec<&str> = text
        .lines()
        .take(8)
        .filter(|l| {
            let words = dialect_words(l);
            words.first().is_none_or(|w| w != "quit" && w != "ping")
        })
        .collect();
    let script: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{l}\n?\nping {}\n", i + 1))
        .collect();
    let output = session(format!("xboard\nprotover 2\n{script}"));
    assert!(output.contains("feature "), "{output:?}");
    let pongs: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("pong "))
        .collect();
    let expected: Vec<String> = (1..=lines.len()).map(|i| i.to_string()).collect();
    assert_eq!(pongs, expected, "{lines:?}: {output:?}");
    // Refusals (`Error (...): ...`, `Illegal move ...`) quote what was sent.
    let refusals: String = output
        .lines()
        .filter(|l| l.starts_with("Error") || l.starts_with("Illegal move"))
        .map(|l| format!("{l}\n"))
        .collect();
    for line in &lines {
        check_quotes(line, &refusals);
    }
    // No control character anywhere in what the engine wrote.
    check_quotes("", &output);
    if let Some(last) = output.rfind("\npong ") {
        assert!(
            !output[last..].contains("\nmove "),
            "a move after the last pong: {lines:?}: {output:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::check_quotes;

    const LONG: &str = "frobnicate-the-board-with-a-very-long-command-name";

    #[test]
    fn a_quote_cut_at_the_bound_passes() {
        check_quotes(LONG, &format!("? unknown command: {}…\n", &LONG[..40]));
    }

    #[test]
    fn the_separator_before_a_cut_quote_is_not_counted() {
        let input = format!("play {LONG}");
        check_quotes(&input, &format!("?7 unreadable move: {}…\n", &LONG[..40]));
    }

    #[test]
    fn an_input_that_repeats_the_reply_is_not_blamed_for_it() {
        let reply = format!("? unknown command: {LONG}");
        check_quotes(&format!("{reply} and more"), &format!("{reply}\n"));
    }

    #[test]
    #[should_panic(expected = "quotes more than 40")]
    fn a_quote_past_the_bound_is_caught() {
        check_quotes(LONG, &format!("? unknown command: {}…\n", &LONG[..44]));
    }

    #[test]
    #[should_panic(expected = "a control character")]
    fn a_raw_control_character_is_caught() {
        check_quotes("", "? unknown command: \u{1b}[31m\n");
    }
}

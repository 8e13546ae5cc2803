//! A model-based test of the protocol in every phase: a session is driven through
//! idle, searching, pondering, analysing, counting and `genmove`, with the commands of
//! its dialect sent in each phase at random moments, and what it wrote is checked
//! against the model of protocol-spec/protocol.md ("Order of answers"):
//!
//! - nothing panics, and the session ends after its input does;
//! - native: every request with an id gets exactly one reply with that id; replies come
//!   in the order of the requests, but for `ping` and `isready`, which may overtake
//!   requests that wait; one `readyok` per `isready`; one `bestmove` per `go` accepted;
//! - UCI, UGI: one `bestmove` per `go` (not `go perft`), one `readyok` per `isready`,
//!   one `uciok`/`ugiok` per `uci`/`ugi`;
//! - CECP: one `pong N` per `ping N`, in order;
//! - a `stop` is honoured within [`STOP_BOUND`]: the work it ends gives its answer
//!   (native: the stop's own reply, which comes after it) that soon.
//!
//! A script is made from bytes (one choice each), so that libFuzzer can drive it
//! (`fuzz/fuzz_targets/protocol_model.rs`) and `cargo test` can run a bounded number of
//! random ones (`tests/model.rs`). Sessions run in the process, on the library's
//! `ludus::protocol::serve`, fed through a channel so that the moments are real.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// How long a `stop` may take to be honoured (generous: the test runs beside a build).
pub const STOP_BOUND: Duration = Duration::from_millis(1500);

/// The phases a session is driven through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Idle,
    Searching,
    Pondering,
    Analysing,
    Counting,
    Genmove,
}

/// The dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Native,
    Uci,
    Ugi,
    Cecp,
}

/// What one run found, for the figures of a long run.
#[derive(Debug, Default)]
pub struct Figures {
    pub requests: usize,
    /// (phase, command word) pairs sent.
    pub pairs: std::collections::HashSet<(Phase, String)>,
    pub phases: std::collections::HashSet<Phase>,
    pub longest_stop: Duration,
    pub stops: usize,
}

/// Panics anywhere in the process (the work threads catch theirs: this hook counts
/// them all).
static PANICS: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

fn count_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

/// Input fed from the test, a message at a time; its end when the sender is dropped.
struct Feed {
    messages: Receiver<Vec<u8>>,
    bytes: Vec<u8>,
    at: usize,
}

impl Read for Feed {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.bytes.len() {
            match self.messages.recv() {
                Ok(bytes) => {
                    self.bytes = bytes;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.bytes.len() - self.at);
        out[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A write and its moment.
type Written = (Instant, Vec<u8>);

/// Output with the moment each write came.
#[derive(Clone, Default)]
struct Timed(Arc<Mutex<Vec<Written>>>);

impl Write for Timed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap()
            .push((Instant::now(), bytes.to_vec()));
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Timed {
    /// The lines written, each with its moment.
    fn lines(&self) -> Vec<(Instant, String)> {
        let mut lines = Vec::new();
        let mut partial = String::new();
        for (at, bytes) in self.0.lock().unwrap().iter() {
            partial.push_str(&String::from_utf8_lossy(bytes));
            while let Some(end) = partial.find('\n') {
                lines.push((*at, partial[..end].to_string()));
                partial.drain(..=end);
            }
        }
        lines
    }
}

/// Choices read from bytes; zeros once they run out.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn next(&mut self, below: usize) -> usize {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte as usize % below.max(1)
    }
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

/// The work that takes a session into a phase, per dialect. Work that runs long but
/// ends by itself (`perft 9`) is marked: a `stop` after other work is meant for that
/// other work and waits for it, so no work is sent after it in its round.
fn phase_entries(dialect: Dialect) -> &'static [(Phase, &'static str, bool)] {
    match dialect {
        Dialect::Native => &[
            (Phase::Searching, "go infinite", false),
            (Phase::Searching, "go movetime 150", false),
            (Phase::Searching, "go depth 40", true),
            (Phase::Pondering, "go ponder", false),
            (Phase::Analysing, "go infinite searchmoves c4c5 e4e5", false),
            // Each info line's pv named in a notation of the game (refused where the
            // game has no such notation).
            (Phase::Searching, "go infinite notation san", false),
            (Phase::Pondering, "go ponder notation long", false),
            (Phase::Counting, "perft 9", true),
            (Phase::Counting, "divide 8", true),
            (Phase::Genmove, "genmove infinite", false),
            (Phase::Genmove, "genmove ponder depth 2", false),
            (Phase::Genmove, "genmove movetime 100", false),
        ],
        Dialect::Uci | Dialect::Ugi => &[
            (Phase::Searching, "go infinite", false),
            (Phase::Searching, "go movetime 150", false),
            (Phase::Searching, "go depth 40", true),
            (Phase::Pondering, "go ponder", false),
            (Phase::Analysing, "go infinite searchmoves c4c5 e4e5", false),
            (Phase::Counting, "go perft 8", true),
        ],
        Dialect::Cecp => &[
            (Phase::Searching, "go", false),
            (Phase::Analysing, "analyze", false),
            (Phase::Pondering, "hard", false),
        ],
    }
}

/// Whether a command starts work.
fn is_work(command: &str) -> bool {
    ["go", "genmove", "perft", "divide"].contains(&word(command).as_str())
}

/// The commands sent in every phase, per dialect.
fn commands(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Native => &[
            "protocol_version",
            "name",
            "version",
            "games",
            "describe",
            "describe mentula",
            "list_commands",
            "known_command go",
            "game senamukha",
            "game mangala",
            "game mentula",
            "newgame",
            "position startpos",
            "position startpos moves c4c5",
            "position fen nonsense",
            "play c4c5",
            "play zz",
            "undo",
            "undo 9",
            "legal_moves",
            "legal_places",
            "fen",
            "show",
            "diagram svg",
            "to_move",
            "status",
            "record",
            "load_record 1. c4c5",
            "list_options",
            "setoption name MultiPV value 2",
            "setoption name Hash value 8",
            "setoption name Threads value 2",
            "setoption name Nonsense value 1",
            "go depth 2",
            "go movetime 50",
            "go infinite",
            "go depth x",
            "go depth 2 notation san",
            "go depth 2 notation nonsense",
            "play R",
            "genmove depth 2",
            "perft 3",
            "divide 2",
            "stop",
            "ponderhit",
            "isready",
            "ping",
            "ping 5",
            "bogus",
            "",
            "\u{ff}",
        ],
        Dialect::Uci | Dialect::Ugi => &[
            "uci",
            "ugi",
            "isready",
            "ucinewgame",
            "uginewgame",
            "setoption name MultiPV value 2",
            "setoption name Hash value 8",
            "setoption name UCI_Variant value mangala",
            "setoption name UCI_Variant value senamukha",
            "setoption name Nonsense value 1",
            "position startpos",
            "position startpos moves c4c5",
            "position fen nonsense",
            "go depth 2",
            "go movetime 50",
            "go infinite",
            "go perft 2",
            "stop",
            "ponderhit",
            "query gameover",
            "query p1turn",
            "query result",
            "d",
            "bogus",
            "",
        ],
        Dialect::Cecp => &[
            "protover 2",
            "new",
            "force",
            "go",
            "playother",
            "?",
            "usermove c4c5",
            "usermove zz",
            "c4c5",
            "setboard nonsense",
            "undo",
            "remove",
            "result 1-0 {x}",
            "level 40 1 0",
            "st 1",
            "sd 3",
            "time 1000",
            "otim 1000",
            "memory 8",
            "cores 2",
            "option MultiPV=2",
            "option Nonsense=1",
            "post",
            "nopost",
            "hard",
            "easy",
            "analyze",
            "exit",
            ".",
            "exclude c4c5",
            "include all",
            "variant senamukha",
            "bogus",
        ],
    }
}

/// The first word of a command, for the figures.
fn word(command: &str) -> String {
    command
        .split_whitespace()
        .next()
        .unwrap_or("(blank)")
        .to_string()
}

/// Runs one session in `dialect` from `bytes` and checks it; gives its figures.
/// Panics (the test's failure) on any violation, with the transcript.
pub fn run(dialect: Dialect, bytes: &[u8]) -> Figures {
    count_panics();
    let panics_before = PANICS.load(Ordering::SeqCst);
    let mut choices = Choices { bytes, at: 0 };
    let (send, messages) = channel::<Vec<u8>>();
    let output = Timed::default();
    let writer = output.clone();
    let session = std::thread::spawn(move || {
        ludus::protocol::serve(
            Feed {
                messages,
                bytes: Vec::new(),
                at: 0,
            },
            writer,
        )
    });
    let mut script = Script {
        dialect,
        send,
        sent: Vec::new(),
        figures: Figures::default(),
    };
    // The dialect's first line.
    match dialect {
        Dialect::Native => {}
        Dialect::Uci => script.say("uci", Phase::Idle),
        Dialect::Ugi => script.say("ugi", Phase::Idle),
        Dialect::Cecp => {
            script.say("xboard", Phase::Idle);
            script.say("protover 2", Phase::Idle);
            script.say("new", Phase::Idle);
            script.say("level 0 0:02 0", Phase::Idle);
        }
    }
    let entries = phase_entries(dialect);
    let commands = commands(dialect);
    while !choices.done() && script.sent.len() < 60 {
        // Into a phase (or stay idle), then a few commands at random moments.
        let (phase, long) = match choices.next(entries.len() + 1) {
            0 => (Phase::Idle, false),
            k => {
                let (phase, line, long) = entries[k - 1];
                script.say(line, phase);
                (phase, long)
            }
        };
        std::thread::sleep(Duration::from_millis(choices.next(40) as u64));
        for _ in 0..1 + choices.next(3) {
            let line = commands[choices.next(commands.len())];
            if long && dialect != Dialect::Cecp && is_work(line) {
                continue;
            }
            script.say(line, phase);
            std::thread::sleep(Duration::from_millis(choices.next(20) as u64));
        }
        // Back to idle: a stop, its answer awaited (native: the stop's reply; CECP:
        // the pong of a ping after `force` and `exit`, which end all thinking).
        if dialect == Dialect::Cecp {
            script.say("force", phase);
            script.say("exit", phase);
            script.say("ping", phase);
        } else {
            script.say("stop", phase);
        }
        script.figures.stops += 1;
        let stop_at = Instant::now();
        let waited = wait_for_quiet(&output, dialect, &script.sent, STOP_BOUND);
        assert!(
            waited,
            "{dialect:?}: a stop was not honoured within {STOP_BOUND:?}\n{}",
            transcript(&script.sent, &output)
        );
        script.figures.longest_stop = script.figures.longest_stop.max(stop_at.elapsed());
    }
    let Script {
        sent,
        figures,
        send,
        ..
    } = script;
    drop(send);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !session.is_finished() {
        assert!(
            Instant::now() < deadline,
            "{dialect:?}: the session did not end after its input\n{}",
            transcript(&sent, &output)
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(session.join().is_ok(), "the session thread panicked");
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        panics_before,
        "{dialect:?}: a panic\n{}",
        transcript(&sent, &output)
    );
    check(dialect, &sent, &output);
    figures
}

struct Sent {
    id: usize,
    line: String,
}

/// A script under way: what was sent, and the channel to the session.
struct Script {
    dialect: Dialect,
    send: Sender<Vec<u8>>,
    sent: Vec<Sent>,
    figures: Figures,
}

impl Script {
    /// Sends `line` (native: with the next id) in `phase`.
    fn say(&mut self, line: &str, phase: Phase) {
        let id = self.sent.len() + 1;
        let text = match self.dialect {
            Dialect::Native if !line.is_empty() && line != "\u{ff}" => format!("{id} {line}"),
            // CECP's pings carry the request's number, so that each pong is known.
            Dialect::Cecp if line == "ping" => format!("ping {id}"),
            _ => line.to_string(),
        };
        let mut bytes = text.into_bytes();
        if line == "\u{ff}" {
            // Invalid UTF-8 after an id, as a careless client sends it.
            bytes = format!("{id} name").into_bytes();
            bytes.push(0xff);
        }
        bytes.push(b'\n');
        let _ = self.send.send(bytes);
        self.figures.requests += 1;
        self.figures.pairs.insert((phase, word(line)));
        self.figures.phases.insert(phase);
        self.sent.push(Sent {
            id,
            line: line.to_string(),
        });
    }
}

fn transcript(sent: &[Sent], output: &Timed) -> String {
    let mut text = String::from("sent:\n");
    for s in sent {
        text.push_str(&format!("  {} {:?}\n", s.id, s.line));
    }
    text.push_str("written:\n");
    for (_, line) in output.lines() {
        if !line.starts_with("info") && !line.is_empty() && !line.starts_with("feature") {
            text.push_str(&format!("  {line:?}\n"));
        }
    }
    text
}

/// Waits until everything sent has its answer (the last stop's work ended, the
/// requests before it served); whether that came within `bound`.
fn wait_for_quiet(output: &Timed, dialect: Dialect, sent: &[Sent], bound: Duration) -> bool {
    let deadline = Instant::now() + bound;
    loop {
        if answered(dialect, sent, &output.lines()) {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether the last request sent has been answered (native: its reply; the others:
/// every search has its bestmove and the work has gone quiet).
fn answered(dialect: Dialect, sent: &[Sent], lines: &[(Instant, String)]) -> bool {
    match dialect {
        Dialect::Native => {
            let last = sent.last().map_or(0, |s| s.id);
            lines.iter().any(|(_, l)| reply_id(l) == Some(last))
        }
        Dialect::Uci | Dialect::Ugi => {
            let goes = sent
                .iter()
                .filter(|s| s.line.starts_with("go") && !s.line.starts_with("go perft"))
                .count();
            let perfts = sent
                .iter()
                .filter(|s| s.line.starts_with("go perft"))
                .count();
            let bestmoves = lines
                .iter()
                .filter(|(_, l)| l.starts_with("bestmove"))
                .count();
            let counted = lines
                .iter()
                .filter(|(_, l)| {
                    l.starts_with("Nodes searched") || l.contains("perft stopped before")
                })
                .count();
            bestmoves >= goes && counted >= perfts
        }
        Dialect::Cecp => {
            let last = sent.last().map_or(0, |s| s.id);
            let pong = format!("pong {last}");
            lines.iter().any(|(_, l)| *l == pong)
        }
    }
}

/// The id of a native reply line (`=7 ...`, `?7`), if it is one.
fn reply_id(line: &str) -> Option<usize> {
    let rest = line.strip_prefix('=').or_else(|| line.strip_prefix('?'))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !matches!(rest[digits.len()..].chars().next(), None | Some(' ')) {
        return None;
    }
    digits.parse().ok()
}

fn check(dialect: Dialect, sent: &[Sent], output: &Timed) {
    let lines = output.lines();
    let fail = |why: String| -> ! { panic!("{dialect:?}: {why}\n{}", transcript(sent, output)) };
    for (_, line) in &lines {
        if line.chars().any(|c| c.is_control() && c != '\t') {
            fail(format!("a raw control character in {line:?}"));
        }
    }
    let count = |pred: &dyn Fn(&str) -> bool| lines.iter().filter(|(_, l)| pred(l)).count();
    let sent_count = |pred: &dyn Fn(&str) -> bool| sent.iter().filter(|s| pred(&s.line)).count();
    match dialect {
        Dialect::Native => {
            let mut seen = vec![0usize; sent.len() + 1];
            let mut last_ordered = 0;
            for (_, line) in &lines {
                let Some(id) = reply_id(line) else {
                    continue;
                };
                if id == 0 || id > sent.len() {
                    fail(format!("a reply to no request: {line:?}"));
                }
                seen[id] += 1;
                let beside = sent[id - 1].line.starts_with("ping");
                if !beside {
                    if id < last_ordered {
                        fail(format!("reply {id} after reply {last_ordered}"));
                    }
                    last_ordered = id;
                }
            }
            for s in sent {
                let expected = usize::from(!s.line.is_empty() && s.line != "isready");
                if seen[s.id] != expected {
                    fail(format!(
                        "request {} {:?} got {} replies",
                        s.id, s.line, seen[s.id]
                    ));
                }
            }
            let readies = sent_count(&|l| l == "isready");
            if count(&|l| l == "readyok") != readies {
                fail("not one readyok per isready".into());
            }
            let accepted_goes = lines
                .iter()
                .filter(|(_, l)| {
                    reply_id(l).is_some_and(|id| {
                        l.starts_with('=') && sent[id - 1].line.starts_with("go ")
                    })
                })
                .count();
            if count(&|l| l.starts_with("bestmove")) != accepted_goes {
                fail("not one bestmove per go accepted".into());
            }
        }
        Dialect::Uci | Dialect::Ugi => {
            let goes = sent_count(&|l| l.starts_with("go") && !l.starts_with("go perft"));
            if count(&|l| l.starts_with("bestmove")) != goes {
                fail("not one bestmove per go".into());
            }
            if count(&|l| l == "readyok") != sent_count(&|l| l == "isready") {
                fail("not one readyok per isready".into());
            }
            let hellos = sent_count(&|l| l == "uci" || l == "ugi");
            if count(&|l| l == "uciok" || l == "ugiok") != hellos {
                fail("not one uciok per uci".into());
            }
        }
        Dialect::Cecp => {
            // One pong per ping, in order.
            let pings: Vec<String> = sent
                .iter()
                .filter(|s| s.line == "ping")
                .map(|s| format!("pong {}", s.id))
                .collect();
            let pongs: Vec<String> = lines
                .iter()
                .filter(|(_, l)| l.starts_with("pong"))
                .map(|(_, l)| l.clone())
                .collect();
            if pings != pongs {
                fail(format!("pongs {pongs:?} for pings {pings:?}"));
            }
        }
    }
}

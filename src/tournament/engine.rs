//! The engines of a match: their specifications, their processes, and the dialects the
//! runner speaks to them (native, UCI, UGI).

use std::io::Write;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use nom::{
    IResult, Parser,
    bytes::complete::{tag, take_till1, take_while1},
    character::complete::space0,
    multi::many0,
    sequence::{preceded, terminated},
};
use serde::{Deserialize, Serialize};

use super::error::{SpecError, SpecProblem, StartError};
use super::process::{Group, LINE_LIMIT, Lines, Output};
use crate::protocol::Dialect;

/// One `--engine` argument: `CMD ...`, or `key=value` settings: `cmd=...`,
/// `name=...`, `proto=native|uci|ugi`, `option.<Name>=<value>`, `ponder=on|off`
/// (think on the opponent's time, in two-player games), `tc=[moves/]s[+inc]` (the
/// engine's own clock: time odds), and `depth=N` or `nodes=N` (the engine's own
/// limit instead of the match's time control). Keys and values with
/// spaces are quoted: `cmd="./ludus --flag" "option.Endgame Counters"=0`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    /// The command line, split into words.
    pub command: Vec<String>,
    pub dialect: Dialect,
    pub options: Vec<(String, String)>,
    /// Its own limit, replacing the match's time control for this engine.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Ponders: thinks on the opponent's time about the reply it expects.
    #[serde(default)]
    pub ponder: bool,
    /// Its own clock (`tc=3+0.03`), replacing the match's: time odds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<super::TimeControl>,
}

fn quoted(input: &str) -> IResult<&str, &str> {
    preceded(tag("\""), terminated(take_till1(|c| c == '"'), tag("\""))).parse(input)
}

fn bare(input: &str) -> IResult<&str, &str> {
    nom::bytes::complete::take_till(|c: char| c.is_whitespace()).parse(input)
}

/// `key=value`; a key or value with spaces is quoted: `"option.Move Overhead"=20`.
fn setting(input: &str) -> IResult<&str, (&str, &str)> {
    (
        terminated(
            nom::branch::alt((
                quoted,
                take_while1(|c: char| c.is_alphanumeric() || "._-".contains(c)),
            )),
            tag("="),
        ),
        nom::branch::alt((quoted, bare)),
    )
        .parse(input)
}

impl EngineSpec {
    /// Reads an `--engine` argument; `index` names engines that are given no name.
    pub fn parse(text: &str, index: usize) -> Result<EngineSpec, SpecError> {
        let refused = |problem| SpecError {
            engine: index + 1,
            problem,
        };
        let parsed: IResult<&str, Vec<(&str, &str)>> =
            many0(preceded(space0, setting)).parse(text.trim());
        let settings = match parsed {
            Ok((rest, settings)) if rest.trim().is_empty() && !settings.is_empty() => settings,
            // No settings: the whole text is the command.
            _ => vec![("cmd", text.trim())],
        };
        let mut spec = EngineSpec {
            name: String::new(),
            command: Vec::new(),
            dialect: Dialect::Native,
            options: Vec::new(),
            depth: None,
            nodes: None,
            ponder: false,
            tc: None,
        };
        for (key, value) in settings {
            match key {
                "cmd" => {
                    spec.command = shell_words::split(value).map_err(|e| {
                        refused(SpecProblem::Split {
                            value: value.to_string(),
                            why: e.to_string(),
                        })
                    })?
                }
                "name" if value.trim().is_empty() => {
                    return Err(refused(SpecProblem::EmptyName));
                }
                "name" => spec.name = value.to_string(),
                "depth" => {
                    spec.depth = Some(
                        value
                            .parse::<u32>()
                            .ok()
                            .filter(|d| (1..=64).contains(d))
                            .ok_or_else(|| {
                                refused(SpecProblem::Value {
                                    key: "depth",
                                    takes: "1 to 64",
                                    value: value.to_string(),
                                })
                            })?,
                    )
                }
                "nodes" => {
                    spec.nodes = Some(value.parse::<u64>().map_err(|_| {
                        refused(SpecProblem::Value {
                            key: "nodes",
                            takes: "a number",
                            value: value.to_string(),
                        })
                    })?)
                }
                "tc" => {
                    spec.tc = Some(super::TimeControl::parse_clock(value).map_err(|_| {
                        refused(SpecProblem::Value {
                            key: "tc",
                            takes: "a clock as --tc takes it ([moves/]seconds[+increment])",
                            value: value.to_string(),
                        })
                    })?)
                }
                "ponder" => {
                    spec.ponder = crate::options::read_check(value).ok_or_else(|| {
                        refused(SpecProblem::Value {
                            key: "ponder",
                            takes: "on or off",
                            value: value.to_string(),
                        })
                    })?
                }
                "proto" | "protocol" => {
                    spec.dialect = match value.to_ascii_lowercase().as_str() {
                        "native" => Dialect::Native,
                        "uci" => Dialect::Uci,
                        "ugi" => Dialect::Ugi,
                        _ => {
                            return Err(refused(SpecProblem::Value {
                                key: "proto",
                                takes: "native, uci or ugi",
                                value: value.to_string(),
                            }));
                        }
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => return Err(refused(SpecProblem::UnknownSetting(key.to_string()))),
                },
            }
        }
        if spec.command.is_empty() {
            return Err(refused(SpecProblem::NoCommand));
        }
        if spec.depth.is_some() && spec.nodes.is_some() {
            return Err(refused(SpecProblem::DepthAndNodes));
        }
        if spec.name.is_empty() {
            let program = std::path::Path::new(&spec.command[0])
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_else(|| spec.command[0].clone());
            spec.name = format!("{program}-{}", index + 1);
        }
        Ok(spec)
    }
}

/// Why an engine lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It did not answer within the time it had.
    Stalled(String),
    /// It exited or closed its output.
    Crashed(String),
    /// It answered something the protocol does not allow.
    Malformed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Stalled(what) => write!(f, "stalled: {what}"),
            Failure::Crashed(what) => write!(f, "crashed: {what}"),
            Failure::Malformed(what) => write!(f, "malformed reply: {what}"),
        }
    }
}

/// A search request: the position and the limits.
pub struct Go<'a> {
    /// The players' names in the game, in turn order.
    pub players: &'static [&'static str],
    pub start: &'a str,
    pub moves: &'a [String],
    /// Per player, in turn order: remaining time and increment, when a clock runs.
    pub clocks: Option<(Vec<Duration>, Vec<Duration>)>,
    pub moves_to_go: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// How long a process that has exited is still read, for what it wrote before.
const EXIT_GRACE: Duration = Duration::from_millis(50);

/// How often a wait for a line looks whether the engine's process has exited.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// How long an engine has to exit after `quit` before its group is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);

/// A running engine process.
pub struct EngineProcess {
    pub spec: EngineSpec,
    process: Group,
    /// When its process was first seen to have exited.
    exited_at: Option<Instant>,
    stdin: Option<ChildStdin>,
    lines: Lines,
    /// The game its tables are set up for.
    game: Option<&'static str>,
    /// The reply it ponders on, while it does.
    pondering: Option<String>,
}

/// A move an engine gave, and the reply it expects (to ponder on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub mv: String,
    pub ponder: Option<String>,
    /// The score of the search's last report of its best line, for the side that
    /// moved: centipawns, or a mate as [`MATE_SCORE`] less its plies (negative when
    /// mated). Two-player games only.
    pub score: Option<i32>,
}

/// What a mate counts as in [`Answer::score`]: `MATE_SCORE - plies` for the side that
/// mates, its negation for the side mated.
pub const MATE_SCORE: i32 = 100_000;

/// The score of an `info` line of the best line (`score cp 35`, `score mate -3`), in
/// [`Answer::score`]'s terms; `None` for other lines (another MultiPV line, Mentula's
/// `scores`, `currmove` reports).
fn info_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return None;
    }
    if let Some(at) = words.iter().position(|w| *w == "multipv")
        && words.get(at + 1) != Some(&"1")
    {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    let number: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(number),
        "mate" if number > 0 => Some(MATE_SCORE - number),
        "mate" => Some(-MATE_SCORE - number),
        _ => None,
    }
}

impl EngineProcess {
    /// Starts the engine's process, in a process group of its own (so that its end
    /// reaches what a wrapper script started too); its standard error is discarded.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, StartError> {
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut process = Group::spawn(&mut command).map_err(|error| StartError {
            command: spec.command.join(" "),
            error,
        })?;
        let lines = Lines::read(process.child().stdout.take().expect("piped"));
        Ok(EngineProcess {
            spec: spec.clone(),
            stdin: process.child().stdin.take(),
            process,
            exited_at: None,
            lines,
            game: None,
            pondering: None,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::debug!("{} < {line}", self.spec.name);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crashed(format!("writing {line:?}: {e}")))
    }

    /// A line read, or the fault of one too long (while `waiting_for` was awaited,
    /// if anything was).
    fn read(&self, output: Output, waiting_for: Option<&str>) -> Result<String, Failure> {
        match output {
            Output::Line(line) => {
                log::debug!("{} > {line}", self.spec.name);
                Ok(line)
            }
            Output::TooLong => Err(Failure::Malformed(format!(
                "a line longer than {} MiB {}",
                LINE_LIMIT >> 20,
                match waiting_for {
                    Some(what) => format!("while {what} was awaited"),
                    None => "when no answer was awaited".to_string(),
                }
            ))),
        }
    }

    /// The next line before `deadline`. An engine whose process has exited has
    /// crashed, even while a process it started holds its output open: what it wrote
    /// before it exited is still read, for [`EXIT_GRACE`] after the exit is seen.
    fn line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Failure> {
        let stalled =
            || Failure::Stalled(format!("{waiting_for} did not come in the time allowed"));
        loop {
            let now = Instant::now();
            // Checked before a line is taken: an engine that writes without pause would
            // never be waited for, and so never stall.
            if now >= deadline {
                return Err(stalled());
            }
            if self.exited_at.is_none() && self.process.leader_exited() {
                self.exited_at = Some(now);
            }
            let wait = match self.exited_at {
                // Past the grace, even a process it started that writes on does not
                // keep it alive.
                Some(at) if now >= at + EXIT_GRACE => return Err(self.crashed(waiting_for)),
                Some(at) => at + EXIT_GRACE - now,
                None => EXIT_POLL,
            };
            match self.lines.recv_timeout(wait.min(deadline - now)) {
                Ok(output) => return self.read(output, Some(waiting_for)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // The output closes an instant before the exit can be seen.
                    for _ in 0..40 {
                        if self.process.leader_exited() {
                            return Err(self.crashed(waiting_for));
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    return Err(Failure::Crashed(format!(
                        "closed its output while {waiting_for} was awaited"
                    )));
                }
            }
        }
    }

    /// The engine's process has exited: its group is ended (what it started is of no
    /// use any more), and the fault gives its exit status.
    fn crashed(&mut self, waiting_for: &str) -> Failure {
        let status = match self.process.end() {
            Some(status) => format!(" ({status})"),
            None => String::new(),
        };
        Failure::Crashed(format!("exited{status} while {waiting_for} was awaited"))
    }

    /// Reads lines until one that `done` accepts; a native error reply (`?`) fails.
    fn until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, Failure> {
        self.until_seeing(deadline, waiting_for, done, |_| {})
    }

    /// [`EngineProcess::until`], showing `seen` every line before the one awaited.
    fn until_seeing(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        done: impl Fn(&str) -> bool,
        mut seen: impl FnMut(&str),
    ) -> Result<String, Failure> {
        loop {
            let line = self.line(deadline, waiting_for)?;
            if self.spec.dialect == Dialect::Native && line.starts_with('?') {
                return Err(Failure::Malformed(format!(
                    "{line:?} while {waiting_for} was awaited"
                )));
            }
            if done(&line) {
                return Ok(line);
            }
            seen(&line);
        }
    }

    /// A native request answered by `=`; the reply's lines up to the empty line are
    /// read.
    fn ask_native(&mut self, request: &str, timeout: Duration) -> Result<(), Failure> {
        self.send(request)?;
        let deadline = Instant::now() + timeout;
        let what = format!("the reply to {request:?}");
        self.until(deadline, &what, |l| l.starts_with('='))?;
        self.until(deadline, &what, |l| l.is_empty())?;
        Ok(())
    }

    /// Sets the engine up for `game` (once) and starts a new game.
    pub fn new_game(&mut self, game: &'static str, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        if self.game != Some(game) {
            let options = self.spec.options.clone();
            match self.spec.dialect {
                Dialect::Native => {
                    self.ask_native(&format!("game {game}"), timeout)?;
                    for (name, value) in &options {
                        self.ask_native(&format!("setoption name {name} value {value}"), timeout)?;
                    }
                    if self.spec.ponder {
                        self.ask_native("setoption name Ponder value true", timeout)?;
                    }
                }
                dialect @ (Dialect::Uci | Dialect::Ugi) => {
                    let hello = dialect.name();
                    self.send(hello)?;
                    let ok = format!("{hello}ok");
                    self.until(deadline, &ok, |l| l == ok)?;
                    let variant = dialect.variant_option().expect("a UCI dialect");
                    self.send(&format!("setoption name {variant} value {game}"))?;
                    for (name, value) in &options {
                        self.send(&format!("setoption name {name} value {value}"))?;
                    }
                    if self.spec.ponder {
                        self.send("setoption name Ponder value true")?;
                    }
                }
            }
            self.game = Some(game);
        }
        self.end_pondering(deadline)?;
        match self.spec.dialect {
            Dialect::Native => self.ask_native(Dialect::Native.new_game(), timeout),
            dialect @ (Dialect::Uci | Dialect::Ugi) => {
                self.send(dialect.new_game())?;
                self.send("isready")?;
                self.until(deadline, "readyok", |l| l == "readyok")?;
                Ok(())
            }
        }
    }

    /// The position and `go` line of a search request.
    fn request_lines(&self, go: &Go, ponder: bool) -> (String, String) {
        let moves = if go.moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", go.moves.join(" "))
        };
        let position = format!("position fen {}{moves}", go.start);
        let mut limits = Vec::new();
        if ponder {
            limits.push("ponder".to_string());
        }
        if let Some((times, incs)) = &go.clocks {
            for (p, (time, inc)) in times.iter().zip(incs).enumerate() {
                let (t, i) = (time.as_millis(), inc.as_millis());
                match self.spec.dialect {
                    Dialect::Native => limits.push(format!(
                        "time {} {t} inc {} {i}",
                        go.players[p], go.players[p]
                    )),
                    Dialect::Uci => {
                        let c = if p == 0 { 'w' } else { 'b' };
                        limits.push(format!("{c}time {t} {c}inc {i}"));
                    }
                    Dialect::Ugi => limits.push(format!("p{n}time {t} p{n}inc {i}", n = p + 1)),
                }
            }
        }
        if let Some(n) = go.moves_to_go {
            limits.push(format!("movestogo {n}"));
        }
        if let Some(t) = go.movetime {
            limits.push(format!("movetime {}", t.as_millis()));
        }
        if let Some(d) = go.depth {
            limits.push(format!("depth {d}"));
        }
        if let Some(n) = go.nodes {
            limits.push(format!("nodes {n}"));
        }
        (
            position,
            format!("go {}", limits.join(" ")).trim_end().to_string(),
        )
    }

    /// Drops what the engine wrote while no answer was awaited (a pondering search's
    /// `info` lines, a late reply); a move among it is a fault.
    fn drain(&mut self) -> Result<(), Failure> {
        // At most what a full queue holds: an engine that writes faster than this
        // reads is not waited for here.
        for _ in 0..1 << 18 {
            let Ok(output) = self.lines.try_recv() else {
                break;
            };
            let line = self.read(output, None)?;
            if line.starts_with("bestmove") {
                return Err(Failure::Malformed(format!(
                    "{line:?} when no move was asked for"
                )));
            }
        }
        Ok(())
    }

    /// Asks for a move; returns it as the engine wrote it, with the reply it expects.
    /// `deadline` is when the engine has run out of time (clock plus margin) or
    /// stalled. An engine that pondered on the move just played goes on with
    /// `ponderhit`; one that pondered on another is stopped first.
    pub fn go(&mut self, go: &Go, deadline: Instant) -> Result<Answer, Failure> {
        if let Some(expected) = self.pondering.take() {
            if go.moves.last() == Some(&expected) {
                self.send("ponderhit")?;
                return self.bestmove(deadline);
            }
            self.pondering = Some(expected);
            self.end_pondering(deadline)?;
        }
        let (position, go_line) = self.request_lines(go, false);
        // A move sent when none was asked for is a fault, not the next answer.
        self.drain()?;
        match self.spec.dialect {
            Dialect::Native => self.ask_native(&position, Duration::from_secs(10))?,
            _ => self.send(&position)?,
        }
        self.send(&go_line)?;
        self.bestmove(deadline)
    }

    /// Reads the search's `bestmove <move> [ponder <reply>]`.
    fn bestmove(&mut self, deadline: Instant) -> Result<Answer, Failure> {
        let mut score = None;
        let line = self.until_seeing(
            deadline,
            "bestmove",
            |l| l.starts_with("bestmove"),
            |l| score = info_score(l).or(score),
        )?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["bestmove", mv, rest @ ..] if *mv != "none" && *mv != "(none)" => Ok(Answer {
                mv: mv.to_string(),
                ponder: match rest {
                    ["ponder", reply, ..] => Some(reply.to_string()),
                    _ => None,
                },
                score,
            }),
            _ => Err(Failure::Malformed(format!("{line:?} (a move was due)"))),
        }
    }

    /// Starts pondering: `go` is the position after the engine's move and the reply it
    /// expects (`expected`), with the clocks as they stand.
    pub fn ponder(&mut self, go: &Go, expected: &str) -> Result<(), Failure> {
        let (position, go_line) = self.request_lines(go, true);
        self.drain()?;
        match self.spec.dialect {
            Dialect::Native => self.ask_native(&position, Duration::from_secs(10))?,
            _ => self.send(&position)?,
        }
        self.send(&go_line)?;
        self.pondering = Some(expected.to_string());
        Ok(())
    }

    /// Stops a pondering search (the reply it expected did not come, or the game
    /// ended) and drops its move.
    fn end_pondering(&mut self, deadline: Instant) -> Result<(), Failure> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        self.send("stop")?;
        let deadline = deadline.min(Instant::now() + Duration::from_secs(10));
        self.until(deadline, "bestmove after stop", |l| {
            l.starts_with("bestmove")
        })?;
        if self.spec.dialect == Dialect::Native {
            // The native `stop` is answered after the move.
            self.until(deadline, "the reply to stop", |l| l.starts_with('='))?;
            self.until(deadline, "the reply to stop", |l| l.is_empty())?;
        }
        Ok(())
    }

    /// Ends the engine: `quit`, at most [`QUIT_WAIT`] for its process to exit, then
    /// the whole group killed (a wrapper script's helpers with it).
    pub fn quit(mut self) {
        let _ = self.send("quit");
        drop(self.stdin.take());
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline && !self.process.leader_exited() {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.process.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_the_best_lines_reports() {
        assert_eq!(
            info_score("info depth 9 seldepth 12 score cp -35 nodes 9 pv a1a2"),
            Some(-35)
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 nodes 9"),
            Some(MATE_SCORE - 3)
        );
        assert_eq!(
            info_score("info depth 9 score mate -2 nodes 9"),
            Some(-MATE_SCORE + 2)
        );
        assert_eq!(info_score("info depth 9 multipv 1 score cp 7"), Some(7));
        assert_eq!(info_score("info depth 9 multipv 2 score cp 7"), None);
        assert_eq!(info_score("info depth 3 scores 504 503 508 485"), None);
        assert_eq!(
            info_score("info depth 3 currmove a1a2 currmovenumber 1"),
            None
        );
        assert_eq!(info_score("info string score cp 5"), None);
    }

    #[test]
    fn engine_specifications() {
        let spec = EngineSpec::parse("./ludus", 0).unwrap();
        assert_eq!(spec.command, vec!["./ludus"]);
        assert_eq!(spec.name, "ludus-1");
        assert_eq!(spec.dialect, Dialect::Native);
        let spec = EngineSpec::parse(
            r#"cmd="./ludus --x" name=deep depth=6 proto=uci option.Hash=64 "option.Endgame Counters"=0"#,
            1,
        )
        .unwrap();
        assert_eq!(spec.command, vec!["./ludus", "--x"]);
        assert_eq!(spec.name, "deep");
        assert_eq!(spec.depth, Some(6));
        assert_eq!(spec.dialect, Dialect::Uci);
        assert_eq!(spec.options[0], ("Hash".to_string(), "64".to_string()));
        assert_eq!(spec.options[1].0, "Endgame Counters");
        // A plain command with arguments.
        let spec = EngineSpec::parse("python3 engine.py --fast", 2).unwrap();
        assert_eq!(spec.command, vec!["python3", "engine.py", "--fast"]);
        assert!(EngineSpec::parse("cmd=x proto=gtp", 0).is_err());
        assert!(EngineSpec::parse("cmd=x colour=red", 0).is_err());
        assert!(EngineSpec::parse("name=x", 0).is_err());
        assert!(EngineSpec::parse("cmd=x name=", 0).is_err());
        assert!(EngineSpec::parse("cmd=x depth=3 nodes=5", 0).is_err());
    }
}

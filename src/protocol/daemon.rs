//! The daemon: reads requests from an input, answers on an output.
//!
//! A reader thread owns the input and hands complete lines (at most
//! [`super::worker::MAX_LINE`] bytes) to the command loop, which serves them in the
//! order of [`super::session`]; the command loop owns the game; a search or a count
//! runs on a thread of its own that owns the game until it has written its answer. All
//! output goes through one writer that flushes every message.

use std::io::{Read, Write};
use std::time::Duration;

use super::Dialect;
use super::cecp;
use super::request::{self, Request};
use super::session::{self, Flow, Kind};
use super::table::Table;
use super::uci;
use super::worker::{
    DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, Input, MAX_HASH_MIB, MAX_MOVE_OVERHEAD_MS,
    WorkKind, Worker, Writer, new_table, parse_hash, parse_move_overhead, parse_threads,
    spawn_reader,
};
use crate::game::quoted;
use crate::games;
use crate::search::{Clock, Limits};

/// The commands, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "games",
    "list_commands",
    "known_command",
    "game",
    "newgame",
    "position",
    "play",
    "undo",
    "legal_moves",
    "fen",
    "show",
    "diagram",
    "to_move",
    "status",
    "perft",
    "divide",
    "record",
    "load_record",
    "list_options",
    "setoption",
    "go",
    "genmove",
    "stop",
    "isready",
    "ping",
    "quit",
];

/// What the work thread does.
enum Task {
    Go(Limits),
    Genmove(Option<String>, Limits),
    Perft(Option<String>, u32),
    Divide(Option<String>, u32),
}

/// The command loop's state.
struct Daemon {
    out: Writer,
    worker: Worker,
    hash_mib: usize,
    threads: usize,
    move_overhead: Duration,
    bounds: Bounds,
}

/// What one session may take of the machine: for sessions that a program serves to
/// others (`ludus serve`), so that none can hold a core or the memory for ever. A
/// session on standard input is unbounded.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Work (a search, a count) is stopped after this long, as by `stop`.
    pub work: Option<Duration>,
    /// The largest `Hash`, in MiB.
    pub hash_mib: usize,
    /// The most `Threads`.
    pub threads: usize,
    /// The largest value of an engine option that builds tables
    /// ([`crate::search::EngineOption::builds_tables`]); `None`: the option's own.
    pub table_limit: Option<u32>,
    /// Set when the client has gone (a closed WebSocket): the running work is stopped,
    /// the requests still waiting are dropped unanswered and the session ends.
    pub hang_up: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            work: None,
            hash_mib: MAX_HASH_MIB,
            threads: crate::search::MAX_THREADS,
            table_limit: None,
            hang_up: None,
        }
    }
}

/// Lowers the engine options of `table` that build tables to `limit` where their
/// value (the default, for a new game) is above it.
fn within_table_limit(table: &mut dyn Table, limit: Option<u32>) {
    let Some(limit) = limit else {
        return;
    };
    for option in table.engine_options() {
        if option.builds_tables && option.default > limit {
            let lowered = table.set_engine_option(option.name, &limit.to_string());
            debug_assert!(lowered.is_ok(), "{lowered:?}");
        }
    }
}

/// A reply: `=` or `?`, the id if the request had one, then the text: on the same
/// line when it is one line, on the lines after when it is several; then an empty line.
fn frame(id: Option<&str>, ok: bool, text: &str) -> String {
    let mark = if ok { '=' } else { '?' };
    let id = id.unwrap_or_default();
    if text.is_empty() {
        format!("{mark}{id}\n\n")
    } else if text.contains('\n') {
        format!("{mark}{id}\n{text}\n\n")
    } else {
        format!("{mark}{id} {text}\n\n")
    }
}

impl Daemon {
    fn reply(&self, id: Option<&str>, result: Result<String, String>) {
        match result {
            Ok(text) => self.out.send(&frame(id, true, &text)),
            Err(text) => self.out.send(&frame(id, false, &text)),
        }
    }

    fn handle(&mut self, request: Request) -> Flow {
        let id = request.id.as_deref();
        let args = &request.args;
        let depth =
            |text: Option<&String>, least| request::count_depth(text.map(String::as_str), least);
        match request.command.as_str() {
            "isready" => {
                // The next search's memory is taken now, not in its clock.
                if !self.worker.busy()
                    && let Err(e) = self.worker.prepare_search()
                {
                    log::warn!("{e}");
                }
                self.out.send("readyok\n")
            }
            "ping" => self.reply(id, Ok(pong(args))),
            "stop" => {
                // Whatever runs ends and gives its answer first.
                self.worker.stop();
                self.reply(id, Ok(String::new()));
            }
            "quit" => {
                // Only a search can run here (see session): it gives its move.
                self.worker.stop();
                self.reply(id, Ok(String::new()));
                return Flow::Quit;
            }
            "go" => match self.limits(args) {
                Ok(limits) => self.start(id, Task::Go(limits)),
                Err(e) => self.reply(id, Err(e)),
            },
            "genmove" => match self.limits(args) {
                Ok(_) if self.table().is_over() => {
                    self.reply(id, Err("the game is over".to_string()))
                }
                Ok(limits) => self.start(id, Task::Genmove(id.map(String::from), limits)),
                Err(e) => self.reply(id, Err(e)),
            },
            "perft" => match depth(args.first(), 0) {
                Ok(d) => self.start(id, Task::Perft(id.map(String::from), d)),
                Err(e) => self.reply(id, Err(e)),
            },
            "divide" => match depth(args.first(), 1) {
                Ok(d) => self.start(id, Task::Divide(id.map(String::from), d)),
                Err(e) => self.reply(id, Err(e)),
            },
            _ => {
                let result = self.command(&request);
                self.reply(id, result);
            }
        }
        Flow::Continue
    }

    fn table(&mut self) -> &mut dyn Table {
        self.worker.table()
    }

    fn command(&mut self, request: &Request) -> Result<String, String> {
        let args = &request.args;
        let arg = |i: usize| args.get(i).map(String::as_str);
        let count = |what: &str, text: Option<&str>, max: u32| -> Result<u32, String> {
            let text = text.ok_or_else(|| format!("{what} is missing"))?;
            match text.parse::<u32>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(format!(
                    "{what} must be a number from 0 to {max}, not {:?}",
                    quoted(text)
                )),
            }
        };
        match request.command.as_str() {
            "protocol_version" => Ok("1".into()),
            "name" => Ok("ludus".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "games" => Ok(games::NAMES.join(" ")),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "known_command" => {
                let name = arg(0).ok_or("known_command needs a command name")?;
                Ok(COMMANDS
                    .contains(&name.to_ascii_lowercase().as_str())
                    .to_string())
            }
            "game" => {
                let listed = || games::NAMES.join(", ");
                let name = arg(0).ok_or_else(|| format!("game needs a name: {}", listed()))?;
                let mut table = new_table(&name.to_ascii_lowercase(), self.hash_mib)
                    .ok_or_else(|| format!("unknown game {:?} ({})", quoted(name), listed()))?;
                // The new game's memory is taken now, not in its first search's clock.
                let taken = table.set_hash(self.hash_mib);
                table.set_threads(self.threads);
                within_table_limit(&mut *table, self.bounds.table_limit);
                self.worker.set_table(table);
                taken.map(|()| String::new()).map_err(String::from)
            }
            "newgame" => {
                self.table().new_game();
                Ok(String::new())
            }
            "position" => self.position(args),
            "play" => {
                if args.is_empty() {
                    return Err("play needs a move".into());
                }
                self.table().play(&args.join(" ")).map_err(String::from)
            }
            "undo" => {
                let n = match arg(0) {
                    None => 1,
                    Some(text) => count("the number of moves", Some(text), u32::MAX)?,
                };
                self.table()
                    .undo(n as usize)
                    .map(|()| String::new())
                    .map_err(String::from)
            }
            "legal_moves" => Ok(self.table().legal_moves(arg(0))?.join(" ")),
            "fen" => match arg(0) {
                None => Ok(self.table().fen()),
                Some(form) => self.table().fen_in(form).map_err(String::from),
            },
            "show" => Ok(self.table().diagram()),
            "diagram" => match arg(0).map(|a| a.to_ascii_lowercase()).as_deref() {
                None | Some("text") => Ok(self.table().diagram()),
                Some("svg") => {
                    let layers: Vec<&str> = args[1..].iter().map(String::as_str).collect();
                    self.table().diagram_svg(&layers).map_err(String::from)
                }
                Some(other) => Err(format!(
                    "diagram takes text or svg, not {:?}",
                    quoted(other)
                )),
            },
            "to_move" => Ok(self.table().to_move()),
            "status" => Ok(self.table().status()),
            "record" => Ok(self.table().record(arg(0))?.trim_end().to_string()),
            "load_record" if args.is_empty() => Err("load_record needs a record".into()),
            "load_record" => self
                .table()
                .load_record(&args.join(" "))
                .map(|()| String::new())
                .map_err(String::from),
            "list_options" => Ok(self.options()),
            "setoption" => self.set_option(args),
            // A long word is cut: the reply names it, it does not echo megabytes.
            _ => Err(format!("unknown command: {}", quoted(&request.written))),
        }
    }

    fn position(&mut self, args: &[String]) -> Result<String, String> {
        let (fen, moves) = request::position_setup(args)?;
        self.table()
            .set_position(fen.as_deref(), moves)
            .map(|()| String::new())
            .map_err(String::from)
    }

    fn options(&mut self) -> String {
        let mut lines = vec![
            format!(
                "option name Hash type spin default {} min 1 max {}",
                DEFAULT_HASH_MIB.min(self.bounds.hash_mib),
                MAX_HASH_MIB.min(self.bounds.hash_mib)
            ),
            format!(
                "option name Threads type spin default 1 min 1 max {}",
                self.bounds.threads
            ),
            format!(
                "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
        ];
        let table_limit = self.bounds.table_limit;
        for option in self.table().engine_options() {
            lines.push(match table_limit {
                Some(limit) if option.builds_tables => option.listing_up_to(limit),
                _ => option.listing(),
            });
        }
        for option in self.table().rule_options() {
            lines.push(format!(
                "option name {} type string default {}",
                option.name, option.default
            ));
        }
        lines.join("\n")
    }

    fn set_option(&mut self, args: &[String]) -> Result<String, String> {
        let usage = "setoption name <name> value <value>";
        let (name, value) = request::option_setting(args).ok_or(usage)?;
        if value.is_empty() {
            return Err(usage.into());
        }
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mib = parse_hash(&value)?;
                if mib > self.bounds.hash_mib {
                    return Err(format!(
                        "Hash is at most {} MiB in this session, not {mib}",
                        self.bounds.hash_mib
                    ));
                }
                let taken = self.table().set_hash(mib);
                self.hash_mib = self.table().hash_mib();
                taken?;
            }
            "threads" => {
                let threads = parse_threads(&value, self.bounds.threads)?;
                self.threads = threads;
                self.table().set_threads(threads);
            }
            "move overhead" => self.move_overhead = parse_move_overhead(&value)?,
            _ if let Some(option) = self
                .table()
                .engine_options()
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(&name)) =>
            {
                if let Some(limit) = self.bounds.table_limit
                    && option.builds_tables
                    && option.parse(&value).is_ok_and(|v| v > limit)
                {
                    return Err(format!(
                        "{} is at most {limit} in this session, not {}",
                        option.name,
                        quoted(value.trim())
                    ));
                }
                self.table().set_engine_option(&name, &value)?
            }
            _ if self
                .table()
                .rule_options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(&name)) =>
            {
                self.table().set_rule(&name, &value)?
            }
            _ => {
                let table = self.table();
                let names: Vec<&str> = ["Hash", "Threads", "Move Overhead"]
                    .into_iter()
                    .chain(table.engine_options().iter().map(|o| o.name))
                    .chain(table.rule_options().iter().map(|o| o.name))
                    .collect();
                return Err(format!(
                    "unknown option {:?} ({} has {})",
                    quoted(&name),
                    table.game(),
                    names.join(", ")
                ));
            }
        }
        Ok(String::new())
    }

    /// Reads `go` limits: depth, nodes, movetime, infinite, movestogo, and per-player
    /// clocks as `time <player> <ms>` and `inc <player> <ms>`.
    fn limits(&mut self, args: &[String]) -> Result<Limits, String> {
        let players = self.table().players();
        let mover = self.table().to_move();
        let mut limits = Limits {
            move_overhead: self.move_overhead,
            received: Some(std::time::Instant::now()),
            ..Limits::default()
        };
        let mut clock = Clock::default();
        let mut has_clock = false;
        let mut i = 0;
        let number = |i: usize, what: &str| -> Result<u64, String> {
            let text = args
                .get(i)
                .ok_or_else(|| format!("{what} needs a number"))?;
            if let Ok(n) = text.parse::<u64>() {
                return Ok(n);
            }
            // A number, but not one that fits: named as such.
            let digits = text.strip_prefix('-').unwrap_or(text);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                let why = if text.starts_with('-') {
                    "negative"
                } else {
                    "too large"
                };
                return Err(format!(
                    "{what} is out of range ({why}): {} (0 to {})",
                    quoted(text),
                    u64::MAX
                ));
            }
            Err(format!("{what} needs a number, not {:?}", quoted(text)))
        };
        // A small count in `1..=max` of `unit`s (named in the errors when not empty).
        let small = |i: usize, what: &str, max: i128, unit: &str| -> Result<u32, String> {
            let (of, per) = if unit.is_empty() {
                (String::new(), String::new())
            } else {
                (format!(" of {unit}"), format!(" {unit}"))
            };
            let text = args
                .get(i)
                .ok_or_else(|| format!("{what} needs a number{of}"))?;
            match text.parse::<i128>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n as u32),
                Ok(_) => Err(format!(
                    "{what} is out of range: {} (1 to {max}{per})",
                    quoted(text)
                )),
                Err(_) => Err(format!("{what} needs a number{of}, not {:?}", quoted(text))),
            }
        };
        while i < args.len() {
            match args[i].to_ascii_lowercase().as_str() {
                "depth" => {
                    limits.depth = Some(small(i + 1, "depth", 64, "")?);
                    i += 2;
                }
                "nodes" => {
                    limits.nodes = Some(number(i + 1, "nodes")?);
                    i += 2;
                }
                "movetime" => {
                    limits.movetime = Some(Duration::from_millis(number(i + 1, "movetime")?));
                    i += 2;
                }
                "movestogo" => {
                    clock.moves_to_go =
                        Some(number(i + 1, "movestogo")?.min(u32::MAX as u64) as u32);
                    i += 2;
                }
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                }
                "mate" => {
                    limits.mate = Some(small(i + 1, "mate", 32, "moves")?);
                    i += 2;
                }
                which @ ("time" | "inc") => {
                    let player = args
                        .get(i + 1)
                        .ok_or_else(|| format!("{which} needs a player"))?;
                    if !players.iter().any(|p| p.eq_ignore_ascii_case(player)) {
                        return Err(format!(
                            "{which} names a player of this game ({}), not {:?}",
                            players.join(", "),
                            quoted(player)
                        ));
                    }
                    let ms = Duration::from_millis(number(i + 2, which)?);
                    if player.eq_ignore_ascii_case(&mover) {
                        has_clock = true;
                        if which == "time" {
                            clock.remaining = ms;
                        } else {
                            clock.increment = ms;
                        }
                    }
                    i += 3;
                }
                other => return Err(format!("unknown go limit {:?}", quoted(other))),
            }
        }
        if has_clock {
            limits.clock = Some(clock);
        }
        Ok(limits)
    }

    /// Hands the game to a work thread. A search first takes its memory here, so that it
    /// can be stopped at once; `go` is acknowledged before the search starts.
    fn start(&mut self, id: Option<&str>, task: Task) {
        let kind = match task {
            Task::Go(_) => WorkKind::Search,
            _ => WorkKind::Reply,
        };
        let endless = match &task {
            Task::Go(limits) | Task::Genmove(_, limits) => limits.endless(),
            Task::Perft(..) | Task::Divide(..) => false,
        };
        if matches!(task, Task::Go(_) | Task::Genmove(..))
            && let Err(e) = self.worker.prepare_search()
        {
            self.reply(id, Err(e.to_string()));
            return;
        }
        if matches!(task, Task::Go(_)) {
            self.reply(id, Ok(String::new()));
        }
        let out = self.out.clone();
        self.worker.spawn(kind, endless, move |job| {
            let info_out = out.clone();
            let mut info = |info: &crate::search::Info| info_out.line(&info.to_string());
            let stopped = |job: &super::worker::Job| {
                Err(match job.limit_notice() {
                    Some(notice) => format!("{notice}, before the count was complete"),
                    None => "stopped before the count was complete".to_string(),
                })
            };
            let reply = match task {
                Task::Go(limits) => {
                    let searched = job.search(limits, &mut info);
                    job.finish();
                    if let Some(notice) = job.limit_notice() {
                        out.line(&format!("info string {notice}"));
                    }
                    if let Some(verdict) = searched.mate_verdict {
                        out.line(&format!("info string {verdict}"));
                    }
                    let best = searched.best;
                    out.line(&format!("bestmove {}", best.as_deref().unwrap_or("none")));
                    return;
                }
                Task::Genmove(id, limits) => {
                    let searched = job.search(limits, &mut info);
                    if let Some(notice) = job.limit_notice() {
                        out.line(&format!("info string {notice}"));
                    }
                    let result = searched
                        .best
                        .ok_or_else(|| "the game is over".to_string())
                        .and_then(|best| job.table.play(&best).map_err(String::from));
                    (id, result)
                }
                Task::Perft(id, depth) => match job.table.perft(depth, job.stop) {
                    Some(nodes) => (id, Ok(nodes.to_string())),
                    None => (id, stopped(job)),
                },
                Task::Divide(id, depth) => match job.table.divide(depth, job.stop) {
                    Some(lines) => {
                        let total: u64 = lines.iter().map(|(_, n)| n).sum();
                        let mut text: Vec<String> =
                            lines.iter().map(|(m, n)| format!("{m}: {n}")).collect();
                        text.push(format!("Nodes searched: {total}"));
                        (id, Ok(text.join("\n")))
                    }
                    None => (id, stopped(job)),
                },
            };
            job.finish();
            let (id, result) = reply;
            out.send(&frame(
                id.as_deref(),
                result.is_ok(),
                &result.unwrap_or_else(|e| e),
            ));
        });
    }
}

fn pong(args: &[String]) -> String {
    match args.first() {
        Some(n) => format!("pong {n}"),
        None => "pong".to_string(),
    }
}

/// Serves requests from `input` until `quit` or its end; returns when done.
///
/// The first line that is not blank chooses the dialect: `uci`, `ugi` or `xboard`;
/// anything else is the native protocol, the line its first request.
pub fn serve(input: impl Read + Send + 'static, output: impl Write + Send + 'static) {
    let out = Writer::new(output);
    let lines = spawn_reader(input);
    let mut first = None;
    for message in lines.iter() {
        if let Input::Line(bytes) = &message
            && bytes.iter().all(u8::is_ascii_whitespace)
        {
            continue;
        }
        first = Some(message);
        break;
    }
    let chosen = match &first {
        Some(Input::Line(bytes)) => String::from_utf8_lossy(bytes).trim().to_ascii_lowercase(),
        _ => String::new(),
    };
    match chosen.as_str() {
        "uci" => return uci::serve(Dialect::Uci, lines, out),
        "ugi" => return uci::serve(Dialect::Ugi, lines, out),
        "xboard" => return cecp::serve(lines, out),
        _ => {}
    }
    serve_lines(out, first, &lines, Bounds::default());
}

/// Serves the native protocol only (no dialect is chosen by the first line) within
/// `bounds`: the sessions that `ludus serve` gives its clients.
pub fn serve_native(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    bounds: Bounds,
) {
    serve_lines(Writer::new(output), None, &spawn_reader(input), bounds);
}

fn serve_lines(
    out: Writer,
    first: Option<Input>,
    lines: &std::sync::mpsc::Receiver<Input>,
    bounds: Bounds,
) {
    let hash_mib = DEFAULT_HASH_MIB.min(bounds.hash_mib);
    let mut table = new_table(games::DEFAULT, hash_mib).expect("a game");
    within_table_limit(&mut *table, bounds.table_limit);
    let mut worker = Worker::new(table);
    worker.limit_work(bounds.work);
    let mut daemon = Daemon {
        out,
        worker,
        hash_mib,
        threads: 1,
        move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        bounds,
    };
    session::run(&mut daemon, first, lines);
}

impl session::Dialect for Daemon {
    fn worker(&mut self) -> &mut Worker {
        &mut self.worker
    }

    fn kind(&self, line: &str) -> Kind {
        match request::parse(line.trim_end_matches('\r')) {
            Some(request) => match request.command.as_str() {
                "stop" => Kind::Stop,
                "isready" | "ping" => Kind::Beside,
                "quit" => Kind::Quit,
                "go" | "genmove" | "perft" | "divide" => Kind::Work,
                _ => Kind::Ordered,
            },
            // An id alone is refused in its turn, as every request is answered; a blank
            // line has no answer and waits for nothing.
            None if request::lone_id(line).is_some() => Kind::Ordered,
            None => Kind::Beside,
        }
    }

    fn serve(&mut self, line: &str) -> Flow {
        let line = line.trim_end_matches('\r');
        match request::parse(line) {
            Some(request) => self.handle(request),
            None => {
                if let Some(id) = request::lone_id(line) {
                    self.reply(Some(id), Err("the request has an id but no command".into()));
                }
                Flow::Continue
            }
        }
    }

    fn unreadable(&mut self, problem: &str, text: Option<&str>) {
        // The id, when the line has one, is read past the invalid bytes after it.
        let request = text.and_then(request::parse);
        let id = request.as_ref().and_then(|r| r.id.as_deref());
        self.reply(id, Err(problem.to_string()));
    }

    fn hung_up(&self) -> bool {
        self.bounds
            .hang_up
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Acquire))
    }
}

//! The native protocol: reads requests from an input, answers on an output.
//!
//! A reader thread owns the input and hands complete lines (at most
//! [`super::io::MAX_LINE`] bytes) to the command loop, which serves them in the
//! order of [`super::session`]; the command loop owns the engine; a search or a count
//! runs on a thread of its own that owns the game until it has written its answer. All
//! output goes through one writer that flushes every message.

use std::io::{Read, Write};

use super::Dialect;
use super::cecp;
use super::io::{Input, Writer, spawn_reader};
use super::request::{self, Request, RequestError};
use super::session::{self, Flow, Kind};
use super::uci;
use crate::engine::{
    self, AnyGame, Bounds, Count, Engine, EngineError, Event, OptionScope, SearchRequest, WorkKind,
};
use crate::games;

/// The commands, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "games",
    "describe",
    "list_commands",
    "known_command",
    "game",
    "newgame",
    "position",
    "play",
    "undo",
    "legal_moves",
    "legal_places",
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
    "ponderhit",
    "isready",
    "ping",
    "quit",
];

/// `describe`: what a front end needs to present a game, a fact a line (`name`,
/// `title`, `board`, a `player` line each with its colour, a `notation` line each with
/// its name for people, `reading` (the notation people read the game in), a `layer`
/// line for each extra a diagram can draw, with what it shows, a `level` line for each
/// strength level with its Elo on ludus's scale, a `howto` line for each sentence of
/// the rules' essentials, and in a game that goes on when a player leaves, the moves
/// that leave: `leave resign <move>`, `leave time <move>`).
struct Describe;

impl games::Visitor for Describe {
    type Output = String;
    fn visit<G: games::Play>(self) -> String {
        let d = G::DESCRIPTOR;
        let mut lines = vec![
            format!("name {}", G::NAME),
            format!("title {}", d.title),
            format!("board {} {}", d.board.0, d.board.1),
        ];
        for seat in d.seats {
            lines.push(format!("player {} {}", seat.name, seat.colour));
        }
        for notation in G::NOTATIONS {
            lines.push(format!("notation {} {}", notation.name, notation.title));
        }
        lines.push(format!("reading {}", G::NOTATIONS[d.reading_notation].name));
        for layer in G::DIAGRAM_LAYERS {
            lines.push(format!("layer {} {}", layer.name, layer.help));
        }
        for (level, elo) in G::LEVELS.elo.iter().enumerate() {
            lines.push(format!("level {level} {elo}"));
        }
        for sentence in G::HOW_TO_PLAY {
            lines.push(format!("howto {sentence}"));
        }
        if let Some(leaving) = G::LEAVING {
            lines.push(format!("leave resign {}", leaving.resign));
            lines.push(format!("leave time {}", leaving.time));
        }
        lines.join("\n")
    }
}

/// The command loop's state.
struct Session {
    out: Writer,
    engine: Engine,
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

impl Session {
    fn reply(&self, id: Option<&str>, result: Result<String, RequestError>) {
        match result {
            Ok(text) => self.out.send(&frame(id, true, &text)),
            Err(e) => self.out.send(&frame(id, false, &e.to_string())),
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
                if !self.engine.busy()
                    && let Err(e) = self.engine.prepare_search()
                {
                    log::warn!("{e}");
                }
                self.out.send("readyok\n")
            }
            "ping" => self.reply(id, Ok(pong(args))),
            "stop" => {
                // Whatever runs ends and gives its answer first.
                self.engine.stop();
                self.reply(id, Ok(String::new()));
            }
            "ponderhit" => {
                // Answered before the search goes on, so that `=` comes before its move.
                if self.engine.pondering() {
                    self.reply(id, Ok(String::new()));
                    let _ = self.engine.ponderhit();
                } else {
                    self.reply(id, Err(EngineError::NotPondering.into()));
                }
            }
            "quit" => {
                // Only a search can run here (see session): it gives its move.
                self.engine.stop();
                self.reply(id, Ok(String::new()));
                return Flow::Quit;
            }
            "go" | "genmove" => {
                let genmove = request.command == "genmove";
                match self.search_request(args) {
                    Ok(search) => self.search(id, search, genmove),
                    Err(e) => self.reply(id, Err(e)),
                }
            }
            "perft" | "divide" => {
                let divide = request.command == "divide";
                match depth(args.first(), u32::from(divide)) {
                    Ok(d) => self.count(id, d, divide),
                    Err(e) => self.reply(id, Err(e)),
                }
            }
            _ => {
                let result = self.command(&request);
                self.reply(id, result);
            }
        }
        Flow::Continue
    }

    fn game(&mut self) -> &mut dyn AnyGame {
        self.engine.game()
    }

    fn command(&mut self, request: &Request) -> Result<String, RequestError> {
        let args = &request.args;
        let arg = |i: usize| args.get(i).map(String::as_str);
        let usage = |text: &str| RequestError::Usage(text.to_string());
        match request.command.as_str() {
            "protocol_version" => Ok("1".into()),
            "name" => Ok("ludus".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "games" => Ok(games::NAMES.join(" ")),
            "describe" => {
                let name = arg(0).unwrap_or(self.engine.game_name());
                let unknown = || EngineError::UnknownGame {
                    name: name.to_string(),
                    served: games::NAMES.to_vec(),
                };
                games::visit(name, Describe).ok_or_else(|| unknown().into())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "known_command" => {
                let name = arg(0).ok_or_else(|| usage("known_command needs a command name"))?;
                Ok(COMMANDS
                    .contains(&name.to_ascii_lowercase().as_str())
                    .to_string())
            }
            "game" => {
                let name = arg(0).ok_or_else(|| {
                    usage(&format!("game needs a name: {}", games::NAMES.join(", ")))
                })?;
                self.engine.set_game(name)?;
                Ok(String::new())
            }
            "newgame" => {
                self.game().new_game();
                Ok(String::new())
            }
            "position" => {
                let (fen, moves) = request::position_setup(args)?;
                self.engine.set_position(fen.as_deref(), moves)?;
                Ok(String::new())
            }
            "play" => {
                if args.is_empty() {
                    return Err(usage("play needs a move"));
                }
                Ok(self.game().play(&args.join(" "))?)
            }
            "undo" => {
                let n = match arg(0) {
                    None => 1,
                    Some(text) => {
                        request::number("the number of moves", Some(text), 0, u64::from(u32::MAX))?
                    }
                };
                self.game().undo(n as usize)?;
                Ok(String::new())
            }
            "legal_moves" => Ok(self.game().legal_moves(arg(0))?.join(" ")),
            "legal_places" => Ok(self
                .game()
                .legal_places()
                .into_iter()
                .map(|(mv, places)| format!("{mv} {}", places.join(" ")))
                .collect::<Vec<_>>()
                .join("\n")),
            "fen" => match arg(0) {
                None => Ok(self.game().fen()),
                Some(form) => Ok(self.game().fen_in(form)?),
            },
            "show" => Ok(self.game().diagram()),
            "diagram" => match arg(0).map(|a| a.to_ascii_lowercase()).as_deref() {
                None | Some("text") => Ok(self.game().diagram()),
                Some("svg") => {
                    let layers: Vec<&str> = args[1..].iter().map(String::as_str).collect();
                    Ok(self.game().diagram_svg(&layers)?)
                }
                Some(other) => Err(RequestError::NotOneOf {
                    what: "diagram",
                    takes: "text or svg",
                    text: other.to_string(),
                }),
            },
            "to_move" => Ok(self.game().to_move()),
            "status" => Ok(self.game().status()),
            "record" => Ok(self.game().record(arg(0))?.trim_end().to_string()),
            "load_record" if args.is_empty() => Err(usage("load_record needs a record")),
            "load_record" => {
                self.game().load_record(&args.join(" "))?;
                Ok(String::new())
            }
            "list_options" => Ok(self
                .engine
                .options()
                .iter()
                .map(|spec| spec.uci_line(spec.name))
                .collect::<Vec<_>>()
                .join("\n")),
            "setoption" => {
                let form = "setoption name <name> value <value>";
                let (name, value) = request::option_setting(args).ok_or_else(|| usage(form))?;
                if value.is_empty() {
                    return Err(usage(form));
                }
                self.engine.set_option(&name, &value)?;
                Ok(String::new())
            }
            // A long word is cut: the reply names it, it does not echo megabytes.
            _ => Err(RequestError::UnknownCommand(request.written.clone())),
        }
    }

    /// Reads `go` limits: depth, nodes, movetime, infinite, ponder, movestogo, mate,
    /// searchmoves (to the next limit or the end), and per-player clocks as
    /// `time <player> <ms>` and `inc <player> <ms>`.
    fn search_request(&mut self, args: &[String]) -> Result<SearchRequest, RequestError> {
        let players = self.game().players();
        let mut search = SearchRequest {
            received: Some(std::time::Instant::now()),
            ..SearchRequest::default()
        };
        let arg = |i: usize| args.get(i).map(String::as_str);
        let limit = |e: engine::LimitError| RequestError::Engine(EngineError::Limit(e));
        let mut i = 0;
        while i < args.len() {
            let word = args[i].to_ascii_lowercase();
            i += 1;
            match word.as_str() {
                "depth" => search.depth = Some(engine::depth(arg(i)).map_err(limit)?),
                "nodes" => search.nodes = Some(engine::count("nodes", arg(i)).map_err(limit)?),
                "movetime" => {
                    let ms = engine::count("movetime", arg(i)).map_err(limit)?;
                    search.movetime = Some(std::time::Duration::from_millis(ms));
                }
                "movestogo" => {
                    let n = engine::count("movestogo", arg(i)).map_err(limit)?;
                    search.moves_to_go = Some(n.min(u64::from(u32::MAX)) as u32);
                }
                "mate" => search.mate = Some(engine::mate(arg(i)).map_err(limit)?),
                "infinite" => {
                    search.infinite = true;
                    continue;
                }
                "ponder" => {
                    search.ponder = true;
                    continue;
                }
                "notation" => {
                    let name = arg(i).ok_or(limit(engine::LimitError::MissingNotation))?;
                    search.notation = Some(name.to_string());
                }
                "searchmoves" => {
                    while i < args.len()
                        && !GO_WORDS.contains(&args[i].to_ascii_lowercase().as_str())
                    {
                        search.searchmoves.push(args[i].clone());
                        i += 1;
                    }
                    continue;
                }
                "time" | "inc" => {
                    let what = if word == "time" { "time" } else { "inc" };
                    let player = arg(i).ok_or_else(|| {
                        limit(engine::LimitError::MissingPlayer {
                            what: what.to_string(),
                        })
                    })?;
                    let index = players
                        .iter()
                        .position(|p| p.eq_ignore_ascii_case(player))
                        .ok_or_else(|| {
                            limit(engine::LimitError::UnknownPlayer {
                                what: what.to_string(),
                                text: player.to_string(),
                                players,
                            })
                        })?;
                    i += 1;
                    let ms = std::time::Duration::from_millis(
                        engine::count(what, arg(i)).map_err(limit)?,
                    );
                    if what == "time" {
                        search.time[index] = Some(ms);
                    } else {
                        search.increment[index] = Some(ms);
                    }
                }
                _ => return Err(limit(engine::LimitError::Unknown(args[i - 1].clone()))),
            }
            i += 1;
        }
        Ok(search)
    }

    /// Starts a search on the work thread: `go` is acknowledged before it starts and
    /// answers with `info` lines and one `bestmove`; `genmove` plays the move and
    /// replies with it. The search's memory is taken first, so that it can be stopped
    /// at once.
    fn search(&mut self, id: Option<&str>, search: SearchRequest, genmove: bool) {
        if genmove && self.game().is_over() {
            self.reply(id, Err(EngineError::GameOver.into()));
            return;
        }
        if let Err(e) = self.engine.prepare_search() {
            self.reply(id, Err(e.into()));
            return;
        }
        let out = self.out.clone();
        let reply_id = id.map(String::from);
        // The move to ponder on is named when the client may ponder (`Ponder` on).
        let name_ponder = self.engine.ponder();
        let events = move |event: Event| match event {
            Event::Info(info) => out.line(&info.to_string()),
            Event::Note(note) => out.line(&format!("info string {note}")),
            Event::CurrentMove { depth, mv, number } => {
                out.line(&super::current_move_line(depth, &mv, number))
            }
            Event::Done(done) => {
                if let Some(notice) = done.stopped_at_limit {
                    out.line(&format!("info string {notice}"));
                }
                if genmove {
                    let result = match done.played {
                        Some(played) => played.map_err(RequestError::from),
                        None if done.abandoned => Err(EngineError::PonderStopped.into()),
                        None => Err(EngineError::GameOver.into()),
                    };
                    let (ok, text) = match result {
                        Ok(text) => (true, text),
                        Err(e) => (false, e.to_string()),
                    };
                    out.send(&frame(reply_id.as_deref(), ok, &text));
                    return;
                }
                if let Some(verdict) = done.mate_verdict {
                    out.line(&format!("info string {verdict}"));
                }
                let best = done.best.as_deref().unwrap_or("none");
                match done.ponder.filter(|_| name_ponder) {
                    Some(ponder) => out.line(&format!("bestmove {best} ponder {ponder}")),
                    None => out.line(&format!("bestmove {best}")),
                }
            }
        };
        // Refused limits (a search move that is not legal) are answered, nothing starts.
        let check = self.engine.check_request(&search);
        if let Err(e) = check {
            self.reply(id, Err(e.into()));
            return;
        }
        if !genmove {
            self.reply(id, Ok(String::new()));
        }
        // `genmove`'s answer is its reply: what follows it waits for it.
        let kind = if genmove {
            WorkKind::Reply
        } else {
            WorkKind::Search
        };
        if let Err(e) = self.engine.go(search, genmove, kind, events) {
            log::error!("a checked search was refused: {e}");
        }
    }

    /// Starts a count (`perft`, `divide`) on the work thread; its reply comes when done.
    fn count(&mut self, id: Option<&str>, depth: u32, divide: bool) {
        let out = self.out.clone();
        let id = id.map(String::from);
        self.engine.count(depth, divide, move |counted| {
            let (ok, text) = match counted {
                Ok(Count::Total(nodes)) => (true, nodes.to_string()),
                Ok(Count::PerMove(lines)) => {
                    let total: u64 = lines.iter().map(|(_, n)| n).sum();
                    let mut text: Vec<String> =
                        lines.iter().map(|(m, n)| format!("{m}: {n}")).collect();
                    text.push(format!("Nodes searched: {total}"));
                    (true, text.join("\n"))
                }
                Err(stopped) => (false, stopped.to_string()),
            };
            out.send(&frame(id.as_deref(), ok, &text));
        });
    }
}

/// The words that end a `searchmoves` list.
const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "time",
    "inc",
    "searchmoves",
    "notation",
];

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
    let engine = Engine::new(games::NAMES.to_vec(), OptionScope::CurrentGame, bounds);
    let mut session = Session { out, engine };
    session::run(&mut session, first, lines);
}

impl session::FrontEnd for Session {
    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    fn kind(&self, line: &str) -> Kind {
        match request::parse(line.trim_end_matches('\r')) {
            Some(request) => match request.command.as_str() {
                "stop" => Kind::Stop,
                "isready" | "ping" => Kind::Beside,
                "ponderhit" => Kind::Hit,
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
                    self.reply(Some(id), Err(RequestError::IdWithoutCommand));
                }
                Flow::Continue
            }
        }
    }

    fn unreadable(&mut self, problem: &str, text: Option<&str>) {
        // The id, when the line has one, is read past the invalid bytes after it.
        let request = text.and_then(request::parse);
        let id = request.as_ref().and_then(|r| r.id.as_deref());
        self.reply(id, Err(RequestError::Unreadable(problem.to_string())));
    }

    fn act(&mut self, line: &str) -> Option<String> {
        let request = request::parse(line.trim_end_matches('\r'))?;
        let id = request.id.as_deref();
        match request.command.as_str() {
            "stop" => {
                self.engine.stop();
                Some(frame(id, true, ""))
            }
            "ponderhit" => Some(match self.engine.ponderhit() {
                Ok(()) => frame(id, true, ""),
                Err(e) => frame(id, false, &RequestError::from(e).to_string()),
            }),
            _ => None,
        }
    }

    fn answer(&mut self, text: &str) {
        self.out.send(text);
    }

    fn hung_up(&self) -> bool {
        self.engine
            .bounds()
            .hang_up
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Acquire))
    }
}

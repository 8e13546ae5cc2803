//! The CECP dialect (the XBoard/WinBoard protocol, version 2), for the games whose
//! descriptor says how XBoard draws them (Sena-Mukha).
//! See protocol-spec/dialects.md.
//!
//! On `variant <game>` the engine describes the game to XBoard from the game's
//! descriptor: `setup` gives the board, the piece letters and the start, and `piece`
//! lines give the moves XBoard cannot know in Betza notation (Sena-Mukha's Elephant and
//! pawn), so that XBoard draws the board and checks moves itself. Moves are coordinates with multi-digit ranks (`a10a11e`).
//!
//! The engine plays the side to move when it gets `go` and then keeps that side;
//! `force` makes it only follow the moves. A search that `force`, `new`, `undo`,
//! `remove`, `setboard`, `result` or `quit` interrupts is abandoned without a move;
//! `?` makes it move at once.

use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::io::{Input, Writer};
use super::request::words;
use super::session::{self, Flow, Kind};
use crate::engine::{
    Bounds, Engine, Event, OptionKind, OptionScope, OptionSpec, SearchRequest, WorkKind,
    games_served,
};
use crate::game::{Outcome, quoted};
use crate::search::{Info, Score};

/// The time control set by `level` (or `st`).
#[derive(Clone, Copy, Debug, Default)]
struct TimeControl {
    /// Moves per session (0: the whole game).
    moves: u32,
    increment: Duration,
    /// Fixed time per move (`st`).
    per_move: Option<Duration>,
}

/// What the work thread is doing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Thinking {
    Idle,
    /// On its own move: it plays the result.
    Move,
    /// In analysis mode: it only reports.
    Analysis,
    /// On the opponent's time (`hard`), on the position after the reply it expects,
    /// which is played on the board until the real reply comes.
    Ponder,
}

struct Session {
    out: Writer,
    /// The games CECP serves (the first is the default).
    games: Vec<&'static str>,
    engine: Engine,
    force: bool,
    /// The side the engine plays (0 White).
    engine_side: usize,
    analyzing: bool,
    post: bool,
    depth: Option<u32>,
    control: TimeControl,
    /// The engine's clock and the opponent's, from `time` and `otim`.
    time_left: Duration,
    thinking: Thinking,
    /// The moves `exclude` left out of the analysis of this position (canonical).
    excluded: Vec<String>,
    /// `hard`: ponder on the opponent's time.
    ponder: bool,
    /// The reply the last move's search expects, written by its work thread.
    expected: Arc<Mutex<Option<String>>>,
    /// While pondering: the reply pondered on (played on the board), canonical.
    pondering_on: Option<String>,
    /// When the search of the engine's move started (its clock).
    move_started: Option<std::time::Instant>,
    /// Moves the engine has made since `new` (for moves to the time control).
    engine_moves: u32,
    /// Options (`memory`, `cores`, `option`) that arrived during a search: the option,
    /// its value and the command, applied before the next search.
    pending: Vec<(String, String, String)>,
    /// How far the running analysis is, for XBoard's `.`; written by its work thread.
    progress: Arc<Mutex<Option<Progress>>>,
}

/// The state of an analysis as `stat01` tells it.
struct Progress {
    started: std::time::Instant,
    /// Root moves the analysis considers.
    moves: usize,
    depth: u32,
    nodes: u64,
    /// The root move being searched and its number (from 1), once the search has said.
    current: Option<(String, usize)>,
}

impl Progress {
    /// `stat01: time nodes ply mvleft mvtot mvname`, time in centiseconds, as XBoard's
    /// engine-output window shows it under the lines.
    fn stat01(&self) -> String {
        let (mv, number) = self.current.clone().unwrap_or_default();
        format!(
            "stat01: {} {} {} {} {} {mv}",
            self.started.elapsed().as_millis() / 10,
            self.nodes,
            self.depth,
            self.moves.saturating_sub(number),
            self.moves,
        )
        .trim_end()
        .to_string()
    }
}

/// A score for thinking output: centipawns, mates as 100000 + moves.
fn cecp_score(score: Score) -> i64 {
    match score {
        Score::Centi(v) => v as i64,
        Score::Mate(plies) if plies > 0 => 100_000 + ((plies as i64 + 1) / 2),
        Score::Mate(plies) => -100_000 - ((-plies as i64 + 1) / 2),
    }
}

/// An option as XBoard's `feature option="..."` declares it.
fn cecp_option(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Spin {
            default, min, max, ..
        } => {
            format!("{} -spin {default} {min} {max}", spec.name)
        }
        OptionKind::Combo { default, values } => {
            let values: Vec<String> = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if i == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("{} -combo {}", spec.name, values.join(" /// "))
        }
        OptionKind::Check { default } => format!("{} -check {}", spec.name, u8::from(default)),
        OptionKind::Path => format!("{} -string ", spec.name),
        OptionKind::Word { default } => format!("{} -string {default}", spec.name),
    }
}

/// `ply score time nodes pv`, the time in centiseconds; with `UCI_ShowWDL`, the
/// chances follow the line as a comment, `{wdl W D L}` (CECP has no field for them;
/// XBoard shows a PV's text as it is).
fn thinking_line(info: &Info) -> String {
    let score = info.scores.first().copied().unwrap_or(Score::Centi(0));
    let mut line = format!(
        "{} {} {} {} {}",
        info.depth,
        cecp_score(score),
        info.time_ms / 10,
        info.nodes,
        info.pv.join(" ")
    );
    if let Some(wdl) = &info.wdl {
        line.push_str(&format!(" {{{wdl}}}"));
    }
    line
}

/// The result line for a finished game: `1-0 {White mates}` and the like.
fn result_line(outcome: &Outcome, players: &[&str]) -> String {
    let score = crate::record::two_player_result(outcome);
    format!(
        "{score} {{{}}}",
        outcome.reason.comment_for(outcome, players)
    )
}

/// Reads `level`'s base time: minutes, or minutes:seconds.
fn parse_base(text: &str) -> Option<Duration> {
    let seconds = match text.split_once(':') {
        Some((m, s)) => m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?,
        None => text.parse::<u64>().ok()? * 60,
    };
    Some(Duration::from_secs(seconds))
}

impl Session {
    fn error(&self, command: &str, reason: &str) {
        self.out
            .line(&format!("Error ({reason}): {}", quoted(command)));
    }

    /// Ends any search: one on the engine's move is abandoned (no move played) unless
    /// `play_it`; analysis just ends; pondering ends and its expected reply is taken
    /// back.
    fn halt(&mut self, play_it: bool) {
        if play_it {
            self.engine.stop();
        } else {
            self.engine.abandon();
        }
        if self.thinking == Thinking::Ponder {
            let undone = self.engine.game().undo(1);
            debug_assert!(undone.is_ok(), "{undone:?}");
        }
        self.pondering_on = None;
        self.thinking = Thinking::Idle;
    }

    fn features(&mut self) {
        // The options XBoard has no command of its own for (Hash is `memory`, Threads
        // `cores`); MultiPV gives XBoard's engine output its +/- buttons.
        for spec in self.engine.options() {
            if !matches!(spec.name, "Hash" | "Threads" | "Ponder") {
                self.out
                    .line(&format!("feature option=\"{}\"", cecp_option(&spec)));
            }
        }
        self.out.line(&format!(
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 memory=1 smp=1 \
             reuse=1 analyze=1 exclude=1 draw=0 myname=\"ludus {}\" variants=\"{}\" done=1",
            env!("CARGO_PKG_VERSION"),
            self.games.join(",")
        ));
    }

    /// Sets an option now, or, during a search, before the next one.
    fn set_option_between_searches(&mut self, line: &str, option: &str, value: &str) {
        if self.engine.busy() {
            self.pending.retain(|(o, _, _)| o != option);
            self.pending
                .push((option.to_string(), value.to_string(), line.to_string()));
        } else if let Err(e) = self.engine.set_option(option, value) {
            self.error(line, &e.to_string());
        }
    }

    /// `value` as the engine reads it: XBoard writes a check option's value as 1 or 0,
    /// the engine reads true or false.
    fn engine_value(&mut self, name: &str, value: &str) -> String {
        let check = self.engine.options().iter().any(|spec| {
            matches!(spec.kind, OptionKind::Check { .. }) && spec.name.eq_ignore_ascii_case(name)
        });
        match value {
            "1" if check => "true".to_string(),
            "0" if check => "false".to_string(),
            _ => value.to_string(),
        }
    }

    /// `exclude` and `include` in analysis: `all`, or one move.
    fn exclude(&mut self, line: &str, exclude: bool, what: &str) {
        self.halt(false);
        if what.eq_ignore_ascii_case("all") {
            self.excluded = if exclude {
                self.engine.game().legal_moves(None).unwrap_or_default()
            } else {
                Vec::new()
            };
        } else {
            match self.engine.game().canonical_move(what) {
                Ok(mv) => {
                    self.excluded.retain(|m| *m != mv);
                    if exclude {
                        self.excluded.push(mv);
                    }
                }
                Err(e) => self.error(line, &e.to_string()),
            }
        }
        self.restart_analysis();
    }

    /// Describes the current game to XBoard from its descriptor: the board, the piece
    /// letters and the start (`setup`), and the moves XBoard cannot know (`piece`).
    fn describe_variant(&mut self) {
        let table = self.engine.game();
        let descriptor = table.descriptor();
        let Some(pieces) = descriptor.xboard else {
            return;
        };
        let (files, ranks) = descriptor.board;
        let start = table.start_fen();
        self.out.line(&format!(
            "setup ({}) {files}x{ranks}+0_fairy {start}",
            pieces.piece_table
        ));
        for piece in pieces.piece_moves {
            self.out.line(&format!("piece {piece}"));
        }
    }

    /// Claims the result if the game is over.
    fn claim_result(&mut self) -> bool {
        let players = self.engine.game().players();
        match self.engine.game().outcome() {
            Some(outcome) => {
                self.out.line(&result_line(&outcome, players));
                true
            }
            None => false,
        }
    }

    /// The request of a search on the engine's move.
    fn search_request(&mut self) -> SearchRequest {
        let mut search = SearchRequest {
            depth: self.depth,
            ..SearchRequest::default()
        };
        if let Some(per_move) = self.control.per_move {
            search.movetime = Some(per_move);
        } else {
            let mover = self.engine.game().mover();
            search.moves_to_go = (self.control.moves > 0)
                .then(|| self.control.moves - self.engine_moves % self.control.moves);
            search.time[mover] = Some(self.time_left);
            search.increment[mover] = Some(self.control.increment);
        }
        search
    }

    /// Starts thinking on the engine's move, or analysing, as the mode asks.
    fn think_if_due(&mut self) {
        if self.engine.busy() || self.engine.game().is_over() {
            return;
        }
        let analysis = self.analyzing;
        if !analysis && (self.force || self.engine.game().mover() != self.engine_side) {
            return;
        }
        let received = std::time::Instant::now();
        for (option, value, line) in std::mem::take(&mut self.pending) {
            if let Err(e) = self.engine.set_option(&option, &value) {
                self.error(&line, &e.to_string());
            }
        }
        let mut search = if analysis {
            // The moves not excluded (`exclude`), when some are; none: nothing to think.
            let searchmoves: Vec<String> = if self.excluded.is_empty() {
                Vec::new()
            } else {
                let legal = self.engine.game().legal_moves(None).unwrap_or_default();
                legal
                    .into_iter()
                    .filter(|m| !self.excluded.contains(m))
                    .collect()
            };
            if !self.excluded.is_empty() && searchmoves.is_empty() {
                return;
            }
            SearchRequest {
                infinite: true,
                searchmoves,
                ..SearchRequest::default()
            }
        } else {
            self.search_request()
        };
        search.received = Some(received);
        let thinking = if analysis {
            Thinking::Analysis
        } else {
            Thinking::Move
        };
        self.start_search(search, thinking);
    }

    /// Starts a search: of analysis, on the engine's move (it plays the move), or
    /// pondering (it plays the move once the expected reply is in).
    fn start_search(&mut self, search: SearchRequest, thinking: Thinking) {
        if let Err(e) = self.engine.prepare_search() {
            self.error("go", &e.to_string());
            return;
        }
        let analysis = thinking == Thinking::Analysis;
        let post = self.post || analysis;
        let out = self.out.clone();
        let progress = self.progress.clone();
        if let Ok(mut p) = progress.lock() {
            *p = analysis.then(|| Progress {
                started: std::time::Instant::now(),
                moves: if search.searchmoves.is_empty() {
                    self.engine.game().legal_moves(None).map_or(0, |m| m.len())
                } else {
                    search.searchmoves.len()
                },
                depth: 0,
                nodes: 0,
                current: None,
            });
        }
        let players = self.engine.game().players();
        let expected = self.expected.clone();
        self.thinking = thinking;
        if thinking == Thinking::Move {
            self.move_started = search.received;
        }
        let events = move |event: Event| match event {
            Event::Info(info) => {
                if let Ok(mut p) = progress.lock()
                    && let Some(p) = p.as_mut()
                {
                    p.depth = p.depth.max(info.depth);
                    p.nodes = info.nodes;
                }
                if post {
                    out.line(&thinking_line(&info));
                }
            }
            // XBoard shows a line that starts with `#` as a comment in its debug log.
            Event::Note(note) => {
                if post {
                    out.line(&format!("# {note}"));
                }
            }
            // XBoard asks for the current move with `.`.
            Event::CurrentMove { depth, mv, number } => {
                if let Ok(mut p) = progress.lock()
                    && let Some(p) = p.as_mut()
                {
                    p.depth = p.depth.max(depth);
                    p.current = Some((mv, number));
                }
            }
            Event::Done(done) => match done.played {
                Some(Ok(_)) => {
                    out.line(&format!("move {}", done.best.unwrap_or_default()));
                    if let Some(outcome) = done.outcome {
                        out.line(&result_line(&outcome, players));
                    }
                    if let Ok(mut e) = expected.lock() {
                        *e = done.ponder;
                    }
                }
                Some(Err(e)) => log::error!("the search's move was refused: {e}"),
                None => {}
            },
        };
        if let Err(e) = self.engine.go(search, !analysis, WorkKind::Search, events) {
            self.error("go", &e.to_string());
            self.thinking = Thinking::Idle;
        }
    }

    /// Collects a finished move search: counts the engine's move, keeps its clock, and
    /// with `hard` starts pondering on the reply it expects.
    fn collect(&mut self) {
        if self.thinking == Thinking::Move && !self.engine.busy() {
            self.thinking = Thinking::Idle;
            self.engine_moves += 1;
            // XBoard's clock for the engine: what it had, less the move, plus the
            // increment (until the next `time` says it exactly).
            if let Some(started) = self.move_started.take() {
                self.time_left =
                    self.time_left.saturating_sub(started.elapsed()) + self.control.increment;
            }
            let expected = self
                .expected
                .lock()
                .map(|mut e| e.take())
                .unwrap_or_default();
            if self.ponder
                && !self.force
                && !self.analyzing
                && let Some(reply) = expected
            {
                self.start_pondering(&reply);
            }
        }
    }

    /// Plays the expected reply on the board and thinks on the engine's move after it,
    /// as if the move were in: `usermove` of that reply turns it into the search of
    /// the engine's move (`ponderhit`), any other command ends it.
    fn start_pondering(&mut self, reply: &str) {
        let Ok(reply) = self.engine.game().play(reply) else {
            return;
        };
        if self.engine.game().is_over() {
            let _ = self.engine.game().undo(1);
            return;
        }
        self.pondering_on = Some(reply);
        let mut search = self.search_request();
        search.ponder = true;
        search.received = Some(std::time::Instant::now());
        self.start_search(search, Thinking::Ponder);
    }

    fn user_move(&mut self, text: &str) {
        if self.thinking == Thinking::Ponder {
            // The reply pondered on: the search goes on as the engine's move, its clock
            // from now. Another: pondering ends and the reply is taken back.
            // (Compared as written: the board is the search's while it ponders, and
            // XBoard writes moves in the coordinates ludus gives.)
            let expected = self.pondering_on.as_deref();
            if expected.is_some_and(|e| e.eq_ignore_ascii_case(text.trim()))
                && self.engine.pondering()
            {
                let _ = self.engine.ponderhit();
                self.thinking = Thinking::Move;
                self.move_started = Some(std::time::Instant::now());
                return;
            }
        }
        self.halt(false);
        match self.engine.game().play(text) {
            Ok(_) => {
                self.excluded.clear();
                if !self.claim_result() {
                    self.think_if_due();
                }
            }
            Err(e) => self
                .out
                .line(&format!("Illegal move ({e}): {}", quoted(text))),
        }
    }

    fn handle(&mut self, line: &str) -> Flow {
        self.collect();
        let words = words(line);
        let Some((command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
        match command.as_str() {
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                if self.thinking == Thinking::Ponder {
                    self.halt(false);
                }
                self.ponder = false;
            }
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "nps" | "otim" => {}
            "." => {
                if self.thinking == Thinking::Analysis && self.engine.busy() {
                    let line = self
                        .progress
                        .lock()
                        .ok()
                        .and_then(|p| p.as_ref().map(Progress::stat01));
                    if let Some(line) = line {
                        self.out.line(&line);
                    }
                }
            }
            "protover" => self.features(),
            "ping" => self.out.line(&format!("pong {}", arg(0))),
            "quit" => {
                self.halt(false);
                return Flow::Quit;
            }
            "new" => {
                self.halt(false);
                self.engine.game().new_game();
                self.excluded.clear();
                self.force = false;
                self.analyzing = false;
                self.engine_side = 1;
                self.depth = None;
                self.control.per_move = None;
                self.engine_moves = 0;
            }
            "variant" => {
                self.halt(false);
                match self.games.iter().find(|g| g.eq_ignore_ascii_case(arg(0))) {
                    Some(&game) => {
                        if game != self.engine.game_name()
                            && let Err(e) = self.engine.set_game(game)
                        {
                            self.error(line, &e.to_string());
                        }
                        self.describe_variant();
                    }
                    None => self.error(
                        line,
                        &format!("the variants played are {}", self.games.join(", ")),
                    ),
                }
            }
            "force" => {
                self.halt(false);
                self.force = true;
            }
            "go" => {
                self.halt(false);
                self.force = false;
                self.engine_side = self.engine.game().mover();
                self.think_if_due();
            }
            "playother" => {
                self.halt(false);
                self.force = false;
                self.engine_side = 1 - self.engine.game().mover();
            }
            "white" | "black" => {
                // Protocol 1: the side to move and the engine's side.
                self.halt(false);
                self.engine_side = usize::from(command == "white");
            }
            "?" => {
                if self.thinking == Thinking::Move {
                    self.halt(true);
                    self.collect_now();
                }
            }
            "usermove" => self.user_move(&args.join(" ")),
            "setboard" => {
                self.halt(false);
                let fen = args.join(" ");
                match self.engine.game().set_position(Some(&fen), &[]) {
                    Ok(()) => self.position_changed(),
                    Err(e) => {
                        self.error(line, &e.to_string());
                        self.think_if_due();
                    }
                }
            }
            "undo" | "remove" => {
                self.halt(false);
                let n = if command == "undo" { 1 } else { 2 };
                match self.engine.game().undo(n) {
                    Ok(()) => self.position_changed(),
                    Err(e) => {
                        // Refused: whatever was being thought goes on.
                        self.error(line, &e.to_string());
                        self.think_if_due();
                    }
                }
            }
            "result" => {
                self.halt(false);
                self.force = true;
            }
            "level" => match (
                arg(0).parse::<u32>().ok(),
                parse_base(arg(1)),
                arg(2)
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0),
            ) {
                (Some(moves), Some(_), Some(inc)) => {
                    self.control = TimeControl {
                        moves,
                        increment: Duration::from_secs_f64(inc.min(1e6)),
                        per_move: None,
                    };
                }
                _ => self.error(line, "level takes moves, base minutes[:seconds], increment"),
            },
            "st" => match arg(0)
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
            {
                Some(seconds) => {
                    self.control.per_move = Some(Duration::from_secs_f64(seconds.min(1e6)))
                }
                None => self.error(line, "st takes a number of seconds"),
            },
            "sd" => match arg(0).parse::<i128>() {
                Ok(d @ 1..=64) => self.depth = Some(d as u32),
                Ok(_) => self.error(line, "sd is out of range: it takes a depth from 1 to 64"),
                Err(_) => self.error(line, "sd takes a depth from 1 to 64"),
            },
            // Negative: an overstepped clock, which counts as empty.
            "time" => match arg(0).parse::<i64>() {
                Ok(cs) => {
                    self.time_left = Duration::from_millis((cs.max(0) as u64).saturating_mul(10))
                }
                Err(_) => self.error(line, "time takes centiseconds"),
            },
            // Threads and memory change between searches: during one, from the next.
            "cores" => self.set_option_between_searches(line, "Threads", arg(0)),
            "memory" => self.set_option_between_searches(line, "Hash", arg(0)),
            "analyze" => {
                self.halt(false);
                self.analyzing = true;
                self.think_if_due();
            }
            "exclude" | "include" => self.exclude(line, command == "exclude", arg(0)),
            // `option NAME=VALUE` (a button, `option NAME`, ludus has none).
            "option" => {
                let setting = args.join(" ");
                match setting.split_once('=') {
                    // In analysis (XBoard's MultiPV buttons) the analysis starts again
                    // with it; on the engine's move it waits for the move.
                    Some((name, value)) => {
                        let analysing = self.thinking == Thinking::Analysis;
                        if analysing {
                            self.halt(false);
                        }
                        let value = self.engine_value(name.trim(), value.trim());
                        self.set_option_between_searches(line, name.trim(), &value);
                        if analysing {
                            self.restart_analysis();
                        }
                    }
                    None => self.error(line, "option takes NAME=VALUE"),
                }
            }
            "exit" => {
                self.halt(false);
                self.analyzing = false;
            }
            _ => {
                // A bare move (protocol 1, or usermove=1 not accepted), legal or not,
                // is answered as `usermove` would be. (Only when no search holds the
                // game: during one, it is unknown.)
                if args.is_empty()
                    && !self.engine.busy()
                    && self.engine.game().reads_as_move(command)
                {
                    self.user_move(command);
                } else {
                    self.error(&quoted(line), "unknown command");
                }
            }
        }
        Flow::Continue
    }

    /// Waits for a search told to move now, and counts its move.
    fn collect_now(&mut self) {
        self.engine.wait();
        self.engine_moves += 1;
    }

    /// After the position changed: analysis goes on from the new one, every move
    /// included again.
    fn position_changed(&mut self) {
        self.excluded.clear();
        self.restart_analysis();
    }

    fn restart_analysis(&mut self) {
        if self.analyzing {
            self.think_if_due();
        }
    }
}

/// Serves CECP on the lines after the first (`xboard`, already read).
pub fn serve(lines: Receiver<Input>, out: Writer) {
    let games = games_served(|d| d.xboard.is_some());
    let mut session = Session {
        out,
        engine: Engine::new(games.clone(), OptionScope::CurrentGame, Bounds::default()),
        games,
        force: false,
        engine_side: 1,
        analyzing: false,
        post: false,
        depth: None,
        control: TimeControl {
            moves: 40,
            increment: Duration::ZERO,
            per_move: None,
        },
        time_left: Duration::from_secs(300),
        thinking: Thinking::Idle,
        engine_moves: 0,
        pending: Vec::new(),
        progress: Arc::new(Mutex::new(None)),
        excluded: Vec::new(),
        ponder: false,
        expected: Arc::new(Mutex::new(None)),
        pondering_on: None,
        move_started: None,
    };
    session::run(&mut session, None, &lines);
}

/// CECP defines what each command does to a search in progress (most abandon it, `?`
/// makes it move, the rest leave it running): every command is served as it arrives,
/// as XBoard expects; the end of input lets a search on the engine's move finish and
/// play, and ends analysis.
impl session::FrontEnd for Session {
    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    fn kind(&self, line: &str) -> Kind {
        // A ping that comes while the engine thinks on its own move is answered after
        // the move (as the CECP specification has it: the pong says that everything
        // sent before it is done, the move included); beside analysis, which never ends
        // by itself, at once.
        let ping = words(line)
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("ping"));
        if ping && self.thinking == Thinking::Move {
            Kind::Ordered
        } else {
            Kind::Stop
        }
    }

    /// With `hard`, the move's end is watched, so that pondering starts when it is out.
    fn poll_every(&self) -> Option<Duration> {
        (self.ponder && self.thinking == Thinking::Move).then_some(Duration::from_millis(2))
    }

    fn poll(&mut self) {
        self.collect();
    }

    fn serve(&mut self, line: &str) -> Flow {
        self.handle(line)
    }

    fn unreadable(&mut self, problem: &str, _text: Option<&str>) {
        self.error("(a line)", problem);
    }
}

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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use super::request::words;
use super::session::{self, Flow, Kind};
use super::worker::{
    DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, Input, MAX_HASH_MIB, WorkKind, Worker, Writer,
    games_served, new_table,
};
use crate::game::{Outcome, quoted};
use crate::search::{Clock, Info, Limits, Score};

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
}

struct Session {
    out: Writer,
    /// The games CECP serves (the first is the default).
    games: Vec<&'static str>,
    worker: Worker,
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
    /// Set before stopping a search whose move must not be played.
    abandon: Arc<AtomicBool>,
    /// Moves the engine has made since `new` (for moves to the time control).
    engine_moves: u32,
    /// A `memory` that arrived during a search, applied before the next one.
    pending_hash: Option<usize>,
    /// The threads from `cores`, applied before every search.
    threads: usize,
}

/// A score for thinking output: centipawns, mates as 100000 + moves.
fn cecp_score(score: Score) -> i64 {
    match score {
        Score::Centi(v) => v as i64,
        Score::Mate(plies) if plies > 0 => 100_000 + ((plies as i64 + 1) / 2),
        Score::Mate(plies) => -100_000 - ((-plies as i64 + 1) / 2),
    }
}

/// `ply score time nodes pv`, the time in centiseconds.
fn thinking_line(info: &Info) -> String {
    let score = info.scores.first().copied().unwrap_or(Score::Centi(0));
    format!(
        "{} {} {} {} {}",
        info.depth,
        cecp_score(score),
        info.time_ms / 10,
        info.nodes,
        info.pv.join(" ")
    )
}

/// The result line for a finished game: `1-0 {White mates}` and the like.
fn result_line(outcome: &Outcome, players: &[&str]) -> String {
    let score = match outcome.winner() {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
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
    /// `play_it`; analysis just ends.
    fn halt(&mut self, play_it: bool) {
        if self.worker.busy() {
            if !play_it {
                self.abandon.store(true, Ordering::Release);
            }
            self.worker.stop();
        }
        self.thinking = Thinking::Idle;
    }

    fn features(&self) {
        self.out.line(&format!(
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 memory=1 smp=1 \
             reuse=1 analyze=1 draw=0 myname=\"ludus {}\" variants=\"{}\" done=1",
            env!("CARGO_PKG_VERSION"),
            self.games.join(",")
        ));
    }

    /// Describes the current game to XBoard from its descriptor: the board, the piece
    /// letters and the start (`setup`), and the moves XBoard cannot know (`piece`).
    fn describe_variant(&mut self) {
        let table = self.worker.table();
        let descriptor = table.descriptor();
        let Some(cecp) = descriptor.cecp else {
            return;
        };
        let (files, ranks) = descriptor.board;
        let start = table.start_fen();
        self.out.line(&format!(
            "setup ({}) {files}x{ranks}+0_fairy {start}",
            cecp.piece_table
        ));
        for piece in cecp.piece_moves {
            self.out.line(&format!("piece {piece}"));
        }
    }

    /// Claims the result if the game is over.
    fn claim_result(&mut self) -> bool {
        let players = self.worker.table().players();
        match self.worker.table().outcome() {
            Some(outcome) => {
                self.out.line(&result_line(&outcome, players));
                true
            }
            None => false,
        }
    }

    /// The limits of a search on the engine's move.
    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            ..Limits::default()
        };
        if let Some(per_move) = self.control.per_move {
            limits.movetime = Some(per_move);
        } else {
            let moves_to_go = (self.control.moves > 0)
                .then(|| self.control.moves - self.engine_moves % self.control.moves);
            limits.clock = Some(Clock {
                remaining: self.time_left,
                increment: self.control.increment,
                moves_to_go,
            });
        }
        limits
    }

    /// Starts thinking on the engine's move, or analysing, as the mode asks.
    fn think_if_due(&mut self) {
        if self.worker.busy() || self.worker.table().is_over() {
            return;
        }
        let analysis = self.analyzing;
        if !analysis && (self.force || self.worker.table().mover() != self.engine_side) {
            return;
        }
        let received = std::time::Instant::now();
        if let Some(mib) = self.pending_hash.take()
            && let Err(e) = self.worker.table().set_hash(mib)
        {
            self.error("memory", &e.to_string());
        }
        let threads = self.threads;
        self.worker.table().set_threads(threads);
        let mut limits = if analysis {
            Limits {
                infinite: true,
                ..Limits::default()
            }
        } else {
            self.limits()
        };
        limits.received = Some(received);
        if let Err(e) = self.worker.prepare_search() {
            self.error("go", &e.to_string());
            return;
        }
        self.abandon.store(false, Ordering::Release);
        let abandon = self.abandon.clone();
        let post = self.post || analysis;
        let out = self.out.clone();
        self.thinking = if analysis {
            Thinking::Analysis
        } else {
            Thinking::Move
        };
        self.worker.spawn(WorkKind::Search, analysis, move |job| {
            let info_out = out.clone();
            let mut info = move |info: &Info| {
                if post {
                    info_out.line(&thinking_line(info));
                }
            };
            let best = job.search(limits, &mut info).best;
            if analysis || abandon.load(Ordering::Acquire) {
                job.finish();
                return;
            }
            let Some(best) = best else {
                job.finish();
                return;
            };
            let played = job.table.play(&best);
            job.finish();
            match played {
                Ok(_) => {
                    out.line(&format!("move {best}"));
                    if let Some(outcome) = job.table.outcome() {
                        out.line(&result_line(&outcome, job.table.players()));
                    }
                }
                Err(e) => log::error!("the search's move {best} was refused: {e}"),
            }
        });
    }

    /// Collects a finished move search: counts the engine's move.
    fn collect(&mut self) {
        if self.thinking == Thinking::Move && !self.worker.busy() {
            self.thinking = Thinking::Idle;
            self.engine_moves += 1;
        }
    }

    fn user_move(&mut self, text: &str) {
        self.halt(false);
        match self.worker.table().play(text) {
            Ok(_) => {
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
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "." | "nps" | "otim" => {}
            "protover" => self.features(),
            "ping" => self.out.line(&format!("pong {}", arg(0))),
            "quit" => {
                self.halt(false);
                return Flow::Quit;
            }
            "new" => {
                self.halt(false);
                self.worker.table().new_game();
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
                        if game != self.worker.table().game() {
                            let hash = self.worker.table().hash_mib();
                            let table = new_table(game, hash).expect("a game served");
                            self.worker.set_table(table);
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
                self.engine_side = self.worker.table().mover();
                self.think_if_due();
            }
            "playother" => {
                self.halt(false);
                self.force = false;
                self.engine_side = 1 - self.worker.table().mover();
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
                match self.worker.table().set_position(Some(&fen), &[]) {
                    Ok(()) => self.restart_analysis(),
                    Err(e) => {
                        self.error(line, &e.to_string());
                        self.think_if_due();
                    }
                }
            }
            "undo" | "remove" => {
                self.halt(false);
                let n = if command == "undo" { 1 } else { 2 };
                match self.worker.table().undo(n) {
                    Ok(()) => self.restart_analysis(),
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
            "cores" => match arg(0).parse::<usize>() {
                Ok(n) if n >= 1 => self.threads = n.min(crate::search::MAX_THREADS),
                _ => self.error(line, "cores takes a number of threads, at least 1"),
            },
            "memory" => match arg(0).parse::<usize>() {
                Ok(mib) if self.worker.busy() => {
                    self.pending_hash = Some(mib.clamp(1, MAX_HASH_MIB))
                }
                Ok(mib) => {
                    if let Err(e) = self.worker.table().set_hash(mib.clamp(1, MAX_HASH_MIB)) {
                        self.error(line, &e.to_string());
                    }
                }
                Err(_) => self.error(line, "memory takes MiB"),
            },
            "analyze" => {
                self.halt(false);
                self.analyzing = true;
                self.think_if_due();
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
                    && !self.worker.busy()
                    && self.worker.table().reads_as_move(command)
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
        self.worker.wait();
        self.engine_moves += 1;
    }

    fn restart_analysis(&mut self) {
        if self.analyzing {
            self.think_if_due();
        }
    }
}

/// Serves CECP on the lines after the first (`xboard`, already read).
pub fn serve(lines: Receiver<Input>, out: Writer) {
    let games = games_served(|d| d.cecp.is_some());
    let mut session = Session {
        out,
        worker: Worker::new(new_table(games[0], DEFAULT_HASH_MIB).expect("a game")),
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
        abandon: Arc::new(AtomicBool::new(false)),
        engine_moves: 0,
        pending_hash: None,
        threads: 1,
    };
    session::run(&mut session, None, &lines);
}

/// CECP defines what each command does to a search in progress (most abandon it, `?`
/// makes it move, the rest leave it running): every command is served as it arrives,
/// as XBoard expects; the end of input lets a search on the engine's move finish and
/// play, and ends analysis.
impl session::Dialect for Session {
    fn worker(&mut self) -> &mut Worker {
        &mut self.worker
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

    fn serve(&mut self, line: &str) -> Flow {
        self.handle(line)
    }

    fn unreadable(&mut self, problem: &str, _text: Option<&str>) {
        self.error("(a line)", problem);
    }
}

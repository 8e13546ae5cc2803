//! The UCI dialect (Fairy-Stockfish conventions) and its cousin UGI (cutegames), for
//! the two-player games: Sena-Mukha and Mangala II. See protocol-spec/dialects.md.
//!
//! UGI is UCI with `ugi`/`ugiok`/`uginewgame`, clocks named `p1time`/`p2time`/
//! `p1inc`/`p2inc`, and `query gameover|p1turn|result`. The session accepts both
//! spellings in both dialects; what it prints follows the dialect chosen.
//!
//! UCI has no error replies: a command that cannot be obeyed is answered by
//! `info string error: <reason>` and changes nothing.

use std::sync::mpsc::Receiver;

use super::Dialect;
use super::io::{Input, Writer};
use super::request::{self, RequestError, option_setting, position_setup, words};
use super::session::{self, Flow, Kind};
use crate::engine::{
    self, AnyGame, Bounds, Count, Engine, EngineError, Event, LimitError, OptionScope,
    SearchRequest, WorkKind, games_served,
};
use crate::game::quoted;
use crate::search::{Info, Score};

/// The `go` words followed by a number.
const GO_NUMBERS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "mate",
];
/// The other `go` words.
const GO_WORDS: &[&str] = &["infinite", "ponder", "searchmoves", "perft"];

/// A report as UCI gives it: mates in moves (`mate 3`: the side to move mates with its
/// third move; `mate -2`: it is mated after its second), where ludus counts plies.
fn in_moves(info: &Info) -> Info {
    let mut info = info.clone();
    for score in &mut info.scores {
        if let Score::Mate(plies) = *score {
            *score = Score::Mate(plies.signum() * (plies.abs() + 1) / 2);
        }
    }
    info
}

/// Whether a `go` argument is one of its keywords.
fn is_go_keyword(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    GO_NUMBERS.contains(&word.as_str()) || GO_WORDS.contains(&word.as_str())
}

/// What a variant change reports, as Fairy-Stockfish does: board size and start.
fn variant_line(table: &dyn AnyGame) -> String {
    let descriptor = table.descriptor();
    let (files, ranks) = descriptor.board;
    format!(
        "info string variant {} files {files} ranks {ranks} pocket 0 template {} startpos {}",
        table.name(),
        descriptor.uci_template.unwrap_or("fairy"),
        table.start_fen()
    )
}

/// The name UCI lists an option by: `MoveOverhead`, as UCI engines have long spelt it.
fn uci_name(name: &str) -> &str {
    if name == "Move Overhead" {
        "MoveOverhead"
    } else {
        name
    }
}

/// How UCI refuses: it has no error replies.
fn error_line(text: &str) -> String {
    format!("info string error: {text}")
}

struct Session {
    dialect: Dialect,
    out: Writer,
    engine: Engine,
}

impl Session {
    fn error(&self, text: &str) {
        self.out.line(&error_line(text));
    }

    fn identify(&mut self) {
        let out = &self.out;
        out.line(&format!("id name ludus {}", env!("CARGO_PKG_VERSION")));
        out.line("id author the ludus developers");
        let games = self.engine.games().to_vec();
        out.line(&format!(
            "option name {} type combo default {} var {}",
            self.dialect.variant_option().expect("a UCI dialect"),
            self.engine.game_name(),
            games.join(" var ")
        ));
        // The options of every game served: a client lists them once, before choosing.
        for spec in self.engine.options() {
            out.line(&spec.uci_line(uci_name(spec.name)));
        }
        out.line("option name UCI_AnalyseMode type check default false");
        out.line(&format!("{}ok", self.dialect.name()));
    }

    fn set_option(&mut self, args: &[String]) -> Result<(), RequestError> {
        let (name, value) = option_setting(args).ok_or_else(|| {
            RequestError::Usage("setoption name <name> [value <value>]".to_string())
        })?;
        let lower = name.to_ascii_lowercase().replace(' ', "");
        match lower.as_str() {
            "uci_variant" | "ugi_variant" | "variant" => {
                let taken = self.engine.set_game(&value);
                if matches!(taken, Err(EngineError::UnknownGame { .. })) {
                    return Ok(taken?);
                }
                self.out.line(&variant_line(self.engine.game()));
                taken?;
            }
            // Analysis changes nothing in how ludus searches.
            "uci_analysemode" => {
                crate::options::parse_check("UCI_AnalyseMode", &value)
                    .map_err(EngineError::from)?;
            }
            _ => self.engine.set_option(&name, &value)?,
        }
        Ok(())
    }

    /// `position startpos|fen <position> [moves ...]`. A position of the other game
    /// switches the game (UGI has no variant command; the position says which).
    fn position(&mut self, args: &[String]) -> Result<(), RequestError> {
        let (fen, moves) = position_setup(args)?;
        Ok(self
            .engine
            .set_position_of_any_game(fen.as_deref(), moves)?)
    }

    /// The search request of `go`: both dialects' clock names, and the rest as in UCI.
    /// A `go` always searches: what cannot be used is reported by `info string
    /// warning` or `error` and left out (negative times count as 0, as GUIs send for an
    /// overstepped clock).
    fn search_request(&mut self, args: &[String]) -> SearchRequest {
        let mut search = SearchRequest {
            received: Some(std::time::Instant::now()),
            ..SearchRequest::default()
        };
        let mut ignored: Vec<&str> = Vec::new();
        let mut refused: Vec<LimitError> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let key = args[i].to_ascii_lowercase();
            i += 1;
            let numeric = GO_NUMBERS.contains(&key.as_str());
            if !numeric {
                match key.as_str() {
                    "infinite" => search.infinite = true,
                    "ponder" => search.ponder = true,
                    // Its moves run to the next keyword.
                    "searchmoves" => {
                        while i < args.len() && !is_go_keyword(&args[i]) {
                            search.searchmoves.push(args[i].clone());
                            i += 1;
                        }
                    }
                    _ => ignored.push(&args[i - 1]),
                }
                continue;
            }
            // A number; negative times count as 0 (GUIs send them for an overstepped
            // clock). A number out of range is refused in the native protocol's words
            // and left out, never clamped silently.
            let Some(text) = args.get(i) else {
                ignored.push(&args[i - 1]);
                continue;
            };
            let digits = text.strip_prefix('-').unwrap_or(text);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                ignored.push(&args[i - 1]);
                continue;
            }
            i += 1;
            let number = if text.starts_with('-') {
                Ok(0)
            } else {
                engine::count(&key, Some(text))
            };
            let number = match number {
                Ok(n) => n,
                Err(why) => {
                    refused.push(why);
                    continue;
                }
            };
            let ms = engine::millis(number);
            let parsed = match key.as_str() {
                "depth" => engine::depth(Some(text)).map(|d| search.depth = Some(d)),
                "mate" => engine::mate(Some(text)).map(|m| search.mate = Some(m)),
                "nodes" => {
                    search.nodes = Some(number);
                    Ok(())
                }
                "movetime" => {
                    search.movetime = Some(ms);
                    Ok(())
                }
                "movestogo" => {
                    search.moves_to_go = Some(number.min(u64::from(u32::MAX)) as u32);
                    Ok(())
                }
                _ => {
                    let player = usize::from(key.starts_with('b') || key.starts_with("p2"));
                    if key.contains("time") {
                        search.time[player] = Some(ms);
                    } else {
                        search.increment[player] = Some(ms);
                    }
                    Ok(())
                }
            };
            if let Err(why) = parsed {
                refused.push(why);
            }
        }
        if !ignored.is_empty() {
            self.out.line(&format!(
                "info string warning: go ignores {}",
                quoted(&ignored.join(" "))
            ));
        }
        for why in refused {
            self.error(&format!("{why}; left out of this go"));
        }
        search
    }

    fn go(&mut self, args: &[String]) -> Result<(), RequestError> {
        // Like every go keyword, without regard to case.
        if args
            .first()
            .is_some_and(|a| a.eq_ignore_ascii_case("perft"))
        {
            // `go perft` lists the moves with their counts, as the native `divide`.
            let depth = request::count_depth(args.get(1).map(String::as_str), 1)?;
            let out = self.out.clone();
            self.engine.count(depth, true, move |counted| {
                let text = match counted {
                    Ok(Count::PerMove(lines)) => {
                        let total: u64 = lines.iter().map(|(_, n)| n).sum();
                        let mut text: String =
                            lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
                        text.push_str(&format!("\nNodes searched: {total}\n"));
                        text
                    }
                    Ok(Count::Total(nodes)) => format!("\nNodes searched: {nodes}\n"),
                    Err(_) => "info string perft stopped before the count was complete\n".into(),
                };
                out.send(&text);
            });
            return Ok(());
        }
        let mut search = self.search_request(args);
        if let Err(e) = self.engine.check_request(&search) {
            // A GUI waits for the bestmove: the search goes on over every move.
            self.error(&format!("{e}; searching every move"));
            search.searchmoves.clear();
        }
        if let Err(e) = self.engine.prepare_search() {
            // A GUI waits for the bestmove: it comes, from a search without a table.
            self.error(&e.to_string());
        }
        let out = self.out.clone();
        let events = move |event: Event| match event {
            Event::Info(info) => out.line(&in_moves(&info).to_string()),
            Event::Note(note) => out.line(&format!("info string {note}")),
            Event::CurrentMove { depth, mv, number } => {
                out.line(&super::current_move_line(depth, &mv, number))
            }
            Event::Done(done) => {
                if let Some(verdict) = done.mate_verdict {
                    out.line(&format!("info string {verdict}"));
                }
                let best = done.best.as_deref().unwrap_or("(none)");
                match done.ponder {
                    Some(ponder) => out.line(&format!("bestmove {best} ponder {ponder}")),
                    None => out.line(&format!("bestmove {best}")),
                }
            }
        };
        Ok(self.engine.go(search, false, WorkKind::Search, events)?)
    }

    fn query(&mut self, args: &[String]) -> Result<String, RequestError> {
        let table = self.engine.game();
        let answer = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("gameover") => table.is_over().to_string(),
            Some("p1turn") => (table.mover() == 0).to_string(),
            Some("result") => match table.outcome() {
                None => "none".into(),
                Some(outcome) => match outcome.winner() {
                    Some(0) => "p1win".into(),
                    Some(_) => "p2win".into(),
                    None => "draw".into(),
                },
            },
            _ => {
                return Err(RequestError::Usage(
                    "query takes gameover, p1turn or result".into(),
                ));
            }
        };
        Ok(format!("response {answer}"))
    }

    fn handle(&mut self, line: &str) -> Flow {
        let words = words(line);
        let Some((command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let command = command.to_ascii_lowercase();
        let result = match command.as_str() {
            "uci" | "ugi" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                // The next search's memory is taken now, as a client expects of
                // isready, not in the time of its first move.
                if !self.engine.busy()
                    && let Err(e) = self.engine.prepare_search()
                {
                    self.error(&e.to_string());
                }
                self.out.line("readyok");
                Ok(())
            }
            "stop" => {
                self.engine.stop();
                Ok(())
            }
            "ponderhit" => self.engine.ponderhit().map_err(RequestError::from),
            "quit" => {
                // Only a search can run here (see session): it gives its move.
                self.engine.stop();
                return Flow::Quit;
            }
            "ucinewgame" | "uginewgame" => {
                self.engine.game().new_game();
                Ok(())
            }
            "setoption" => self.set_option(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "query" => self.query(args).map(|r| self.out.line(&r)),
            "d" => {
                let table = self.engine.game();
                let text = format!("{}\nFen: {}", table.diagram(), table.fen());
                self.out.line(&text);
                Ok(())
            }
            _ => Err(RequestError::UnknownCommand(line.to_string())),
        };
        if let Err(e) = result {
            self.error(&e.to_string());
        }
        Flow::Continue
    }
}

/// Serves the dialect on the lines after its first (`uci` or `ugi`, already read).
pub fn serve(dialect: Dialect, lines: Receiver<Input>, out: Writer) {
    let games = games_served(|d| d.uci_template.is_some());
    let mut session = Session {
        dialect,
        out,
        engine: Engine::new(games, OptionScope::ServedGames, Bounds::default()),
    };
    session.identify();
    session::run(&mut session, None, &lines);
}

impl session::FrontEnd for Session {
    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    fn kind(&self, line: &str) -> Kind {
        match words(line)
            .first()
            .map(|w| w.to_ascii_lowercase())
            .as_deref()
        {
            Some("stop") => Kind::Stop,
            Some("ponderhit") => Kind::Hit,
            None | Some("uci" | "ugi" | "isready") => Kind::Beside,
            Some("quit") => Kind::Quit,
            Some("go") => Kind::Work,
            Some(_) => Kind::Ordered,
        }
    }

    fn serve(&mut self, line: &str) -> Flow {
        self.handle(line)
    }

    fn unreadable(&mut self, problem: &str, _text: Option<&str>) {
        self.error(problem);
    }

    fn act(&mut self, line: &str) -> Option<String> {
        let words = words(line);
        match words.first().map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("stop") => {
                self.engine.stop();
                Some(String::new())
            }
            Some("ponderhit") => Some(match self.engine.ponderhit() {
                Ok(()) => String::new(),
                Err(e) => format!("{}\n", error_line(&e.to_string())),
            }),
            _ => None,
        }
    }

    fn answer(&mut self, text: &str) {
        if !text.is_empty() {
            self.out.send(text);
        }
    }
}

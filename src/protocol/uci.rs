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
use std::time::Duration;

use super::Dialect;
use super::request::{self, option_setting, position_setup, words};
use super::session::{self, Flow, Kind};
use super::worker::{
    DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, Input, MAX_HASH_MIB, MAX_MOVE_OVERHEAD_MS,
    WorkKind, Worker, Writer, games_served, new_table, parse_hash, parse_move_overhead,
    parse_threads,
};
use crate::game::quoted;
use crate::search::{Clock, Info, Limits, Score};

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

/// The longest mate `go mate` looks for, in moves: its plies fit the deepest search.
const MAX_MATE_MOVES: u32 = 32;

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
fn variant_line(table: &dyn super::table::Table) -> String {
    let descriptor = table.descriptor();
    let (files, ranks) = descriptor.board;
    format!(
        "info string variant {} files {files} ranks {ranks} pocket 0 template {} startpos {}",
        table.game(),
        descriptor.uci_template.unwrap_or("fairy"),
        table.start_fen()
    )
}

struct Session {
    dialect: Dialect,
    /// The games these dialects serve, in registry order (the first is the default).
    games: Vec<&'static str>,
    out: Writer,
    worker: Worker,
    game: &'static str,
    hash_mib: usize,
    threads: usize,
    move_overhead: Duration,
    /// Rule and engine options set, by name: applied again to a new game that has them.
    settings: Vec<(String, String)>,
}

impl Session {
    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {text}"));
    }

    fn identify(&mut self) {
        let out = &self.out;
        out.line(&format!("id name ludus {}", env!("CARGO_PKG_VERSION")));
        out.line("id author the ludus developers");
        out.line(&format!(
            "option name {} type combo default {} var {}",
            self.dialect.variant_option().expect("a UCI dialect"),
            self.game,
            self.games.join(" var ")
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            crate::search::MAX_THREADS
        ));
        out.line(&format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        // The options of every game served: a client lists them once, before choosing.
        let mut seen = Vec::new();
        for game in &self.games {
            let table = new_table(game, 1).expect("a game served");
            for o in table.engine_options() {
                if !seen.contains(&o.name) {
                    seen.push(o.name);
                    out.line(&o.listing());
                }
            }
            for o in table.rule_options() {
                if !seen.contains(&o.name) {
                    seen.push(o.name);
                    out.line(&format!(
                        "option name {} type string default {}",
                        o.name, o.default
                    ));
                }
            }
        }
        out.line(&format!("{}ok", self.dialect.name()));
    }

    /// Switches to `game` with the options set so far; its memory is taken now.
    fn switch_game(&mut self, game: &'static str) -> Result<(), String> {
        let mut table = self.new_game_table(game);
        let taken = table.set_hash(self.hash_mib);
        self.worker.set_table(table);
        self.game = game;
        taken.map_err(String::from)
    }

    /// A new table of `game` with the options set so far.
    fn new_game_table(&self, game: &'static str) -> Box<dyn super::table::Table> {
        let mut table = new_table(game, self.hash_mib).expect("a game served");
        table.set_threads(self.threads);
        for (name, value) in &self.settings {
            let known = |n: &str| n.eq_ignore_ascii_case(name);
            if table.engine_options().iter().any(|o| known(o.name)) {
                let _ = table.set_engine_option(name, value);
            } else if table.rule_options().iter().any(|o| known(o.name)) {
                let _ = table.set_rule(name, value);
            }
        }
        table
    }

    fn set_option(&mut self, args: &[String]) -> Result<(), String> {
        let (name, value) = option_setting(args).ok_or("setoption name <name> [value <value>]")?;
        let lower = name.to_ascii_lowercase().replace(' ', "");
        match lower.as_str() {
            "uci_variant" | "ugi_variant" | "variant" => {
                let game = *self
                    .games
                    .iter()
                    .find(|g| g.eq_ignore_ascii_case(&value))
                    .ok_or_else(|| {
                        format!(
                            "unknown variant {:?} ({})",
                            quoted(&value),
                            self.games.join(", ")
                        )
                    })?;
                let taken = self.switch_game(game);
                self.out.line(&variant_line(self.worker.table()));
                taken?;
            }
            "hash" => {
                let taken = self.worker.table().set_hash(parse_hash(&value)?);
                self.hash_mib = self.worker.table().hash_mib();
                taken?;
            }
            "threads" => {
                self.threads = parse_threads(&value, crate::search::MAX_THREADS)?;
                self.worker.table().set_threads(self.threads);
            }
            "moveoverhead" => self.move_overhead = parse_move_overhead(&value)?,
            _ => {
                // A rule or engine option: of the current game, or kept for the other.
                let table = self.worker.table();
                let known = |n: &str| n.eq_ignore_ascii_case(&name);
                if table.engine_options().iter().any(|o| known(o.name)) {
                    table.set_engine_option(&name, &value)?;
                } else if table.rule_options().iter().any(|o| known(o.name)) {
                    table.set_rule(&name, &value)?;
                } else {
                    // The other game's option: checked on a table of that game.
                    let mut checked = false;
                    for g in &self.games {
                        let mut other = new_table(g, 1).expect("a game served");
                        if other.engine_options().iter().any(|o| known(o.name)) {
                            other.set_engine_option(&name, &value)?;
                            checked = true;
                        } else if other.rule_options().iter().any(|o| known(o.name)) {
                            other.set_rule(&name, &value)?;
                            checked = true;
                        }
                    }
                    if !checked {
                        return Err(format!("unknown option {:?}", quoted(&name)));
                    }
                }
                self.settings
                    .retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                self.settings.push((name, value));
            }
        }
        Ok(())
    }

    /// `position startpos|fen <position> [moves ...]`. A position of the other game
    /// switches the game (UGI has no variant command; the position says which it is).
    fn position(&mut self, args: &[String]) -> Result<(), String> {
        let (fen, moves) = position_setup(args)?;
        if let Some(text) = &fen
            && !self.worker.table().reads_position(text)
            && let Some(&game) = self.games.iter().find(|g| {
                **g != self.game && new_table(g, 1).is_some_and(|t| t.reads_position(text))
            })
        {
            // The other game's position: switched to only if the whole command holds.
            let mut table = self.new_game_table(game);
            table.set_position(fen.as_deref(), moves)?;
            // The new game's memory is taken now, not in its first search's clock.
            if let Err(e) = table.set_hash(self.hash_mib) {
                self.error(&e.to_string());
            }
            self.worker.set_table(table);
            self.game = game;
            return Ok(());
        }
        self.worker
            .table()
            .set_position(fen.as_deref(), moves)
            .map_err(String::from)
    }

    /// The limits of `go`: both dialects' clock names, and the rest as in UCI. A `go`
    /// always searches: what cannot be used is reported by `info string warning` and
    /// left out (negative times count as 0, as GUIs send for an overstepped clock;
    /// `searchmoves`, `ponder` and `mate` are not supported).
    fn limits(&mut self, args: &[String]) -> Limits {
        let mover = self.worker.table().mover();
        let mut limits = Limits {
            move_overhead: self.move_overhead,
            ..Limits::default()
        };
        let mut clock = Clock::default();
        let mut has_clock = false;
        let mut ignored: Vec<&str> = Vec::new();
        let mut refused: Vec<String> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let key = args[i].to_ascii_lowercase();
            i += 1;
            let numeric = GO_NUMBERS.contains(&key.as_str());
            if !numeric {
                match key.as_str() {
                    "infinite" => limits.infinite = true,
                    // Its moves run to the next keyword.
                    "searchmoves" => {
                        ignored.push("searchmoves");
                        while i < args.len() && !is_go_keyword(&args[i]) {
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
            let value = text.parse::<i128>().ok().filter(|&n| n <= u64::MAX as i128);
            let Some(value) = value else {
                refused.push(format!(
                    "{key} is out of range (too large): {} (0 to {})",
                    quoted(text),
                    u64::MAX
                ));
                continue;
            };
            let small = |max: i128, unit: &str| {
                if (1..=max).contains(&value) {
                    Ok(value as u32)
                } else {
                    Err(format!(
                        "{key} is out of range: {} (1 to {max}{unit})",
                        quoted(text)
                    ))
                }
            };
            let number = value.max(0) as u64;
            // Clocks beyond a year mean "no hurry"; Duration arithmetic stays finite.
            let ms = Duration::from_millis(number.min(365 * 24 * 3_600_000));
            match key.as_str() {
                "depth" => match small(64, "") {
                    Ok(depth) => limits.depth = Some(depth),
                    Err(why) => refused.push(why),
                },
                "nodes" => limits.nodes = Some(number),
                "movetime" => limits.movetime = Some(ms),
                "movestogo" => clock.moves_to_go = Some(number.min(u32::MAX as u64) as u32),
                "mate" => match small(i128::from(MAX_MATE_MOVES), " moves") {
                    Ok(moves) => limits.mate = Some(moves),
                    Err(why) => refused.push(why),
                },
                _ => {
                    let player = usize::from(key.starts_with('b') || key.starts_with("p2"));
                    if player == mover {
                        has_clock = true;
                        if key.contains("time") {
                            clock.remaining = ms;
                        } else {
                            clock.increment = ms;
                        }
                    }
                }
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
        if has_clock {
            limits.clock = Some(clock);
        }
        limits
    }

    fn go(&mut self, args: &[String]) -> Result<(), String> {
        // Like every go keyword, without regard to case.
        if args
            .first()
            .is_some_and(|a| a.eq_ignore_ascii_case("perft"))
        {
            // `go perft` lists the moves with their counts, as the native `divide`.
            let depth = request::count_depth(args.get(1).map(String::as_str), 1)?;
            let out = self.out.clone();
            self.worker.spawn(WorkKind::Reply, false, move |job| {
                let text = match job.table.divide(depth, job.stop) {
                    Some(lines) => {
                        let total: u64 = lines.iter().map(|(_, n)| n).sum();
                        let mut text: String =
                            lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
                        text.push_str(&format!("\nNodes searched: {total}\n"));
                        text
                    }
                    None => "info string perft stopped before the count was complete\n".into(),
                };
                job.finish();
                out.send(&text);
            });
            return Ok(());
        }
        let mut limits = self.limits(args);
        limits.received = Some(std::time::Instant::now());
        let endless = limits.endless();
        let out = self.out.clone();
        if let Err(e) = self.worker.prepare_search() {
            // A GUI waits for the bestmove: it comes, from a search without a table.
            self.error(&e.to_string());
        }
        self.worker.spawn(WorkKind::Search, endless, move |job| {
            let info_out = out.clone();
            let mut info = |info: &Info| info_out.line(&in_moves(info).to_string());
            let searched = job.search(limits, &mut info);
            job.finish();
            if let Some(verdict) = searched.mate_verdict {
                out.line(&format!("info string {verdict}"));
            }
            let best = searched.best;
            out.line(&format!("bestmove {}", best.as_deref().unwrap_or("(none)")));
        });
        Ok(())
    }

    fn query(&mut self, args: &[String]) -> Result<String, String> {
        let table = self.worker.table();
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
            _ => return Err("query takes gameover, p1turn or result".into()),
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
                if !self.worker.busy()
                    && let Err(e) = self.worker.prepare_search()
                {
                    self.error(&e.to_string());
                }
                self.out.line("readyok");
                Ok(())
            }
            "stop" => {
                self.worker.stop();
                Ok(())
            }
            "quit" => {
                // Only a search can run here (see session): it gives its move.
                self.worker.stop();
                return Flow::Quit;
            }
            "ucinewgame" | "uginewgame" => {
                self.worker.table().new_game();
                Ok(())
            }
            "setoption" => self.set_option(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "query" => self.query(args).map(|r| self.out.line(&r)),
            "d" => {
                let table = self.worker.table();
                let text = format!("{}\nFen: {}", table.diagram(), table.fen());
                self.out.line(&text);
                Ok(())
            }
            _ => Err(format!("unknown command \"{}\"", quoted(line))),
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
        worker: Worker::new(new_table(games[0], DEFAULT_HASH_MIB).expect("a game")),
        game: games[0],
        games,
        hash_mib: DEFAULT_HASH_MIB,
        threads: 1,
        move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        settings: Vec::new(),
    };
    session.identify();
    session::run(&mut session, None, &lines);
}

impl session::Dialect for Session {
    fn worker(&mut self) -> &mut Worker {
        &mut self.worker
    }

    fn kind(&self, line: &str) -> Kind {
        match words(line)
            .first()
            .map(|w| w.to_ascii_lowercase())
            .as_deref()
        {
            Some("stop") => Kind::Stop,
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
}

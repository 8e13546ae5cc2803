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

use super::request::{option_setting, position_setup, words};
use super::worker::{
    DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, Input, MAX_HASH_MIB, MAX_MOVE_OVERHEAD_MS, Worker,
    Writer, new_table, parse_hash, parse_move_overhead,
};
use crate::search::{Clock, Info, Limits};

/// The games these dialects serve (Mentula has four players).
const GAMES: &[&str] = &["senamukha", "mangala"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Uci,
    Ugi,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ugi => "ugi",
        }
    }
    /// The name of the option that chooses the game.
    fn variant_option(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI_Variant",
            Dialect::Ugi => "UGI_Variant",
        }
    }
}

/// What a variant change reports, as Fairy-Stockfish does: board size and start.
fn variant_line(game: &str, start: &str) -> String {
    let (files, ranks, template) = match game {
        "mangala" => (6, 2, "mancala"),
        _ => (11, 11, "fairy"),
    };
    format!(
        "info string variant {game} files {files} ranks {ranks} pocket 0 template {template} startpos {start}"
    )
}

struct Session {
    dialect: Dialect,
    out: Writer,
    worker: Worker,
    game: &'static str,
    hash_mib: usize,
    move_overhead: Duration,
    /// Rule and engine options set, by name: applied again to a new game that has them.
    settings: Vec<(String, String)>,
    /// The running search is infinite (only `stop` ends it).
    infinite: bool,
}

enum Flow {
    Continue,
    Quit,
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
            self.dialect.variant_option(),
            self.game,
            GAMES.join(" var ")
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        out.line(&format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        // The options of every game served: a client lists them once, before choosing.
        let mut seen = Vec::new();
        for game in GAMES {
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

    /// Switches to `game` with the options set so far.
    fn switch_game(&mut self, game: &'static str) {
        let mut table = new_table(game, self.hash_mib).expect("a game served");
        for (name, value) in &self.settings {
            let known = |n: &str| n.eq_ignore_ascii_case(name);
            if table.engine_options().iter().any(|o| known(o.name)) {
                let _ = table.set_engine_option(name, value);
            } else if table.rule_options().iter().any(|o| known(o.name)) {
                let _ = table.set_rule(name, value);
            }
        }
        self.worker.set_table(table);
        self.game = game;
    }

    fn set_option(&mut self, args: &[String]) -> Result<(), String> {
        let (name, value) = option_setting(args).ok_or("setoption name <name> [value <value>]")?;
        let lower = name.to_ascii_lowercase().replace(' ', "");
        match lower.as_str() {
            "uci_variant" | "ugi_variant" | "variant" => {
                let game = GAMES
                    .iter()
                    .find(|g| g.eq_ignore_ascii_case(&value))
                    .ok_or_else(|| format!("unknown variant {value:?} ({})", GAMES.join(", ")))?;
                self.switch_game(game);
                let start = self.worker.table().start_fen();
                self.out.line(&variant_line(game, &start));
            }
            "hash" => {
                self.hash_mib = parse_hash(&value)?;
                self.worker.table().set_hash(self.hash_mib);
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
                } else if !GAMES.iter().any(|g| {
                    let other = new_table(g, 1).expect("a game served");
                    other.engine_options().iter().any(|o| known(o.name))
                        || other.rule_options().iter().any(|o| known(o.name))
                }) {
                    return Err(format!("unknown option {name:?}"));
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
            && let Some(game) = GAMES.iter().find(|g| {
                **g != self.game && new_table(g, 1).is_some_and(|t| t.reads_position(text))
            })
        {
            self.switch_game(game);
        }
        self.worker.table().set_position(fen.as_deref(), moves)
    }

    /// The limits of `go`: both dialects' clock names, and the rest as in UCI.
    fn limits(&mut self, args: &[String]) -> Result<Limits, String> {
        let mover = self.worker.table().mover();
        let mut limits = Limits {
            move_overhead: self.move_overhead,
            ..Limits::default()
        };
        let mut clock = Clock::default();
        let mut has_clock = false;
        let mut i = 0;
        while i < args.len() {
            let key = args[i].to_ascii_lowercase();
            if key == "infinite" {
                limits.infinite = true;
                i += 1;
                continue;
            }
            let text = args
                .get(i + 1)
                .ok_or_else(|| format!("{key} needs a number"))?;
            let number = text
                .parse::<u64>()
                .map_err(|_| format!("{key} needs a number, not {text:?}"))?;
            let ms = Duration::from_millis(number);
            match key.as_str() {
                "depth" => limits.depth = Some(number.clamp(1, 64) as u32),
                "nodes" => limits.nodes = Some(number),
                "movetime" => limits.movetime = Some(ms),
                "movestogo" => clock.moves_to_go = Some(number.min(u32::MAX as u64) as u32),
                "wtime" | "btime" | "p1time" | "p2time" | "winc" | "binc" | "p1inc" | "p2inc" => {
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
                other => return Err(format!("unknown go limit {other:?}")),
            }
            i += 2;
        }
        if has_clock {
            limits.clock = Some(clock);
        }
        Ok(limits)
    }

    fn go(&mut self, args: &[String]) -> Result<(), String> {
        if args.first().is_some_and(|a| a == "perft") {
            let text = args.get(1).ok_or("go perft needs a depth")?;
            let depth = text
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=64).contains(d))
                .ok_or_else(|| format!("the perft depth must be 1 to 64, not {text:?}"))?;
            let out = self.out.clone();
            self.worker.spawn(false, move |job| {
                let lines = job.table.divide(depth);
                let total: u64 = lines.iter().map(|(_, n)| n).sum();
                let mut text: String = lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
                text.push_str(&format!("\nNodes searched: {total}\n"));
                job.finish();
                out.send(&text);
            });
            return Ok(());
        }
        let mut limits = self.limits(args)?;
        limits.received = Some(std::time::Instant::now());
        self.worker.prepare_search()?;
        self.infinite = limits.infinite;
        let out = self.out.clone();
        self.worker.spawn(true, move |job| {
            let info_out = out.clone();
            let mut info = move |info: &Info| info_out.line(&info.to_string());
            let best = job.search(limits, &mut info);
            job.finish();
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
        if !matches!(
            command.as_str(),
            "uci" | "ugi" | "isready" | "stop" | "quit"
        ) && self.worker.busy()
        {
            // As in Stockfish, a command that needs the game waits for the search to
            // end; an infinite search would never end, so it is stopped (and still
            // gives its bestmove).
            if self.infinite {
                self.worker.stop();
            } else {
                self.worker.wait();
            }
        }
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
                    self.error(&e);
                }
                self.out.line("readyok");
                Ok(())
            }
            "stop" => {
                if self.worker.searching() {
                    self.worker.stop();
                }
                Ok(())
            }
            "quit" => {
                if self.worker.stop() {
                    // A perft count cannot be stopped: not waited for.
                    std::process::exit(0);
                }
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
            _ => Err(format!(
                "unknown command {:?}",
                line.chars().take(40).collect::<String>()
            )),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        Flow::Continue
    }
}

/// Serves the dialect on the lines after its first (`uci` or `ugi`, already read).
pub fn serve(dialect: Dialect, lines: Receiver<Input>, out: Writer) {
    let mut session = Session {
        dialect,
        out,
        worker: Worker::new(new_table("senamukha", DEFAULT_HASH_MIB).expect("a game")),
        game: "senamukha",
        hash_mib: DEFAULT_HASH_MIB,
        move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        settings: Vec::new(),
        infinite: false,
    };
    session.identify();
    for message in lines {
        match message {
            Input::End => break,
            Input::TooLong(length) => session.error(&format!("line too long: {length} bytes")),
            Input::Line(bytes) => {
                let Ok(text) = String::from_utf8(bytes) else {
                    session.error("invalid UTF-8 in the command");
                    continue;
                };
                if let Flow::Quit = session.handle(&text) {
                    return;
                }
            }
        }
    }
    // End of input: a running search is stopped and gives its move.
    if session.worker.stop() {
        std::process::exit(0);
    }
}

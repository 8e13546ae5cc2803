//! The one engine every front end talks to: it owns the game, the options and the
//! running search. The native protocol, UCI, UGI, CECP and `ludus search` keep only
//! their grammar and their wording; what a request means is decided here once.
//!
//! ```
//! use ludus::engine::{Bounds, Engine, Event, OptionScope, SearchRequest, WorkKind};
//!
//! let mut engine = Engine::new(vec!["mangala"], OptionScope::CurrentGame, Bounds::default());
//! engine.set_option("MultiPV", "2").unwrap();
//! engine.set_position(None, &["F".to_string()]).unwrap();
//! let (sender, events) = std::sync::mpsc::channel();
//! let request = SearchRequest { depth: Some(4), ..SearchRequest::default() };
//! engine.go(request, false, WorkKind::Search, move |event| { let _ = sender.send(event); }).unwrap();
//! let mut lines = Vec::new();
//! for event in events {
//!     match event {
//!         Event::Info(info) if info.depth == 4 => lines.push(info.pv[0].clone()),
//!         Event::Done(done) => { assert_eq!(done.best.as_ref(), lines.first()); break; }
//!         _ => {}
//!     }
//! }
//! assert_eq!(lines.len(), 2);
//! assert_ne!(lines[0], lines[1]);
//! ```
//!
//! - `any_game`: one game (position, rules, search) behind an object-safe interface,
//!   [`AnyGame`], for all three games;
//! - `work`: the thread a search or a count runs on, holding the game;
//! - `options`: the options as one list, and the readers of their values;
//! - `go`: a search request in types, and the readers of its numbers;
//! - `error`: the refusals.

mod any_game;
mod error;
mod go;
mod options;
mod work;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use crate::options::{OptionKind, OptionSpec};
pub use any_game::{AnyGame, GameError, new_game};
pub use error::{CountStopped, EngineError, LimitError, LimitReached};
pub use go::{MAX_MATE_MOVES, MAX_PLAYERS, SearchRequest, count, depth, mate, millis};
pub use options::{
    DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, ELO, HASH, LIMIT_STRENGTH, MAX_HASH_MIB,
    MAX_MOVE_OVERHEAD_MS, MAX_MULTI_PV, MOVE_OVERHEAD, MULTI_PV, PONDER, SHOW_WDL, SKILL_LEVEL,
    SKILL_SEED, THREADS, parse_hash,
};
pub use work::{WorkKind, mate_verdict};

use crate::game::{Descriptor, Outcome};
use crate::games;
use crate::options::OptionValue;
use crate::search::{Clock, Info, Limits, Notes, Pondering, RootMoves, skill};
use work::Worker;

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
    /// ([`crate::options::OptionSpec::sizes_tables`]); `None`: the option's own.
    pub build_limit: Option<u32>,
    /// Set when the client has gone (a closed WebSocket): the running work is stopped,
    /// the requests still waiting are dropped unanswered and the session ends.
    pub hang_up: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// The options that name files on this machine (`EndgamePath`): `None`, the
    /// session sets them; `Some`, a session served to others, which may not: they
    /// take the values given here (by name), the server's.
    pub fixed_paths: Option<Vec<(String, String)>>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            work: None,
            hash_mib: MAX_HASH_MIB,
            threads: crate::search::MAX_THREADS,
            build_limit: None,
            hang_up: None,
            fixed_paths: None,
        }
    }
}

/// Which games' options a session has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    /// The current game's (the native protocol, which chooses the game first).
    CurrentGame,
    /// Those of every game served, kept for the game that has them (UCI, where the
    /// options come before the variant).
    ServedGames,
}

/// What a search reports, in order; [`Event::Done`] comes last, exactly once.
#[derive(Clone, Debug)]
pub enum Event {
    /// One line of an iteration (with MultiPV, one per line, best first).
    Info(Info),
    /// The root move the search is on, after the first second at most every 200 ms:
    /// the iteration's depth, the move and its number (from 1).
    CurrentMove {
        depth: u32,
        mv: String,
        number: usize,
    },
    /// What the search uses beside its own tree (the endgame tables), when that
    /// changed: the front ends print it as `info string` or their equivalent.
    Note(String),
    Done(Done),
}

/// How a search ended.
#[derive(Clone, Debug, Default)]
pub struct Done {
    /// The best move, canonical; `None` when the game is over (or the search failed).
    pub best: Option<String>,
    /// The reply the search expects, to ponder on.
    pub ponder: Option<String>,
    /// For a search asked to play its move: whether the game took it.
    pub played: Option<Result<String, GameError>>,
    /// How the game ended, when the move played ended it.
    pub outcome: Option<Outcome>,
    /// Set when the session's limit on work stopped the search.
    pub stopped_at_limit: Option<LimitReached>,
    /// For a mate search: what it established.
    pub mate_verdict: Option<String>,
    /// Stopped by [`Engine::abandon`]: its move is not to be played.
    pub abandoned: bool,
}

/// What a count gives: the total, or the count below every move (`divide`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    Total(u64),
    PerMove(Vec<(String, u64)>),
}

/// The settings kept from one game to the next.
#[derive(Clone, Debug)]
struct Settings {
    hash_mib: usize,
    threads: usize,
    move_overhead: Duration,
    multi_pv: usize,
    ponder: bool,
    show_wdl: bool,
    /// The strength: by `UCI_Elo` when limited, else by `Skill Level`.
    limit_strength: bool,
    elo: u32,
    skill_level: u32,
    /// 0: a new seed for every search.
    skill_seed: u32,
    /// The games' own options set, by name: applied to every new game that has them.
    game: Vec<(String, String)>,
}

/// A session's engine: the game, the options and the work.
pub struct Engine {
    worker: Worker,
    served: Vec<&'static str>,
    /// The game played: known while a search holds the table, so that the requests
    /// served beside it (`uci`, CECP's `protover` and `option`) need no table.
    game: &'static str,
    scope: OptionScope,
    bounds: Bounds,
    settings: Settings,
    /// The running search's pondering, for `ponderhit`.
    pondering: Option<Arc<Pondering>>,
    /// Set to stop the running search without playing its move.
    abandoned: Arc<AtomicBool>,
}

/// The games whose descriptor `serves` accepts, in registry order.
pub fn games_served(serves: impl Fn(&Descriptor) -> bool) -> Vec<&'static str> {
    games::NAMES
        .iter()
        .copied()
        .filter(|name| games::descriptor(name).is_some_and(|d| serves(&d)))
        .collect()
}

impl Engine {
    /// An engine for the `served` games (the first is the one played at start).
    pub fn new(served: Vec<&'static str>, scope: OptionScope, bounds: Bounds) -> Engine {
        let settings = Settings {
            hash_mib: DEFAULT_HASH_MIB.min(bounds.hash_mib),
            threads: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            multi_pv: 1,
            ponder: false,
            show_wdl: false,
            limit_strength: false,
            elo: options::ELO.default_number(),
            skill_level: options::SKILL_LEVEL.default_number(),
            skill_seed: 0,
            game: Vec::new(),
        };
        let table = any_game::new_game(served[0], settings.hash_mib).expect("a game served");
        let mut worker = Worker::new(table);
        worker.limit_work(bounds.work);
        let mut engine = Engine {
            worker,
            game: served[0],
            served,
            scope,
            bounds,
            settings,
            pondering: None,
            abandoned: Arc::new(AtomicBool::new(false)),
        };
        engine.within_table_limit();
        for (name, value) in engine.bounds.fixed_paths.clone().unwrap_or_default() {
            if let Err(e) = engine.set_game_option(&name, &value) {
                log::warn!("{name}: {e}");
            }
            engine.settings.game.push((name, value));
        }
        engine
    }

    /// The games served, the first the one played at start.
    pub fn games(&self) -> &[&'static str] {
        &self.served
    }

    /// The game played now (known while work runs).
    pub fn game_name(&self) -> &'static str {
        self.game
    }

    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// The game; only when no work runs (the front ends' order of serving sees to it).
    pub fn game(&mut self) -> &mut dyn AnyGame {
        self.worker.game()
    }

    /// What runs, if anything.
    pub fn running(&mut self) -> Option<WorkKind> {
        self.worker.running()
    }

    pub fn busy(&mut self) -> bool {
        self.worker.busy()
    }

    /// Whether the running work ends only on `stop` (or `ponderhit`).
    pub fn endless(&mut self) -> bool {
        self.worker.endless()
    }

    /// Ends running work and waits for it: a search gives its move, a count its
    /// (stopped) reply.
    pub fn stop(&mut self) {
        self.worker.stop();
        self.pondering = None;
    }

    /// Stops a search that was to play its move without playing it (its `Done` says
    /// so); other work ends as by [`Engine::stop`].
    pub fn abandon(&mut self) {
        if self.worker.busy() {
            self.abandoned.store(true, Ordering::Release);
        }
        self.stop();
    }

    /// Waits for running work to end by itself.
    pub fn wait(&mut self) {
        self.worker.wait();
    }

    /// Waits at most `timeout` for running work to end by itself; whether it has.
    pub fn wait_for(&mut self, timeout: Duration) -> bool {
        self.worker.wait_for(timeout)
    }

    pub fn move_overhead(&self) -> Duration {
        self.settings.move_overhead
    }

    /// Whether the `Ponder` option is on: the client may ask for pondering.
    pub fn ponder(&self) -> bool {
        self.settings.ponder
    }

    /// Plays `game` from its start, with the options set so far; its memory is taken
    /// now, not in its first search's clock. A hash table that cannot be had is
    /// reported, the game set all the same.
    pub fn set_game(&mut self, name: &str) -> Result<(), EngineError> {
        let game = *self
            .served
            .iter()
            .find(|g| g.eq_ignore_ascii_case(name))
            .ok_or_else(|| EngineError::UnknownGame {
                name: name.to_string(),
                served: self.served.clone(),
            })?;
        let mut table = self.new_game(game);
        let taken = table.set_hash(self.settings.hash_mib);
        self.worker.set_table(table);
        self.game = game;
        self.pondering = None;
        taken.map_err(EngineError::from)
    }

    /// A new table of `game` with the options set so far.
    fn new_game(&self, game: &'static str) -> Box<dyn AnyGame> {
        let mut table = any_game::new_game(game, self.settings.hash_mib).expect("a game served");
        table.set_threads(self.settings.threads);
        for (name, value) in &self.settings.game {
            if table.engine_options().iter().any(|o| o.is_named(name)) {
                // Accepted once, so accepted again.
                let _ = table.set_engine_option(name, value);
            } else if table.rule_options().iter().any(|o| o.is_named(name)) {
                let _ = table.set_rule(name, value);
            }
        }
        let mut engine_table = table;
        lower_to(&mut *engine_table, self.bounds.build_limit);
        engine_table
    }

    fn within_table_limit(&mut self) {
        let limit = self.bounds.build_limit;
        lower_to(self.worker.game(), limit);
    }

    /// The options, as the front ends list them: the current game's, or every served
    /// game's (see [`OptionScope`]).
    pub fn options(&mut self) -> Vec<OptionSpec> {
        let mut specs: Vec<OptionSpec> = options::COMMON
            .iter()
            .map(|c| c.listed(&self.bounds))
            .collect();
        let limit = self.bounds.build_limit;
        let games: Vec<&'static str> = match self.scope {
            OptionScope::CurrentGame => vec![self.game],
            OptionScope::ServedGames => self.served.clone(),
        };
        for game in games {
            let table = any_game::new_game(game, 1).expect("a game served");
            let own = table
                .engine_options()
                .iter()
                .map(|o| match limit {
                    Some(limit) if o.sizes_tables => o.at_most(limit),
                    _ => *o,
                })
                .chain(table.rule_options().iter().copied());
            for spec in own {
                if !specs.iter().any(|s| s.name == spec.name) {
                    specs.push(spec);
                }
            }
        }
        specs
    }

    /// Sets `Hash`: within the session's limit, the table's memory taken.
    fn set_hash(&mut self, mib: usize) -> Result<(), EngineError> {
        if mib > self.bounds.hash_mib {
            return Err(EngineError::AboveSessionLimit {
                name: options::HASH.name,
                limit: format!("{} MiB", self.bounds.hash_mib),
                value: mib.to_string(),
            });
        }
        let taken = self.game().set_hash(mib);
        self.settings.hash_mib = self.game().hash_mib();
        taken.map_err(EngineError::from)
    }

    /// Whether `game`'s option `name` takes `value`, read as [`Engine::set_option`]
    /// reads it, without making an engine or setting anything (a check made for every
    /// JSON analysis query, on the thread that reads them). What only setting can show
    /// (a file that does not load) is left to the setting.
    pub fn check_option(game: &'static str, name: &str, value: &str) -> Result<(), EngineError> {
        if let Some(common) = options::common(name) {
            return common.parse(value, &Bounds::default()).map(|_| ());
        }
        match game_option(game, name) {
            Some(spec) => spec.parse(value).map(|_| ()).map_err(EngineError::from),
            None => {
                let (engine, rules) = games::options(game).unwrap_or_default();
                Err(EngineError::UnknownOption {
                    name: name.to_string(),
                    game: Some(game),
                    known: options::COMMON
                        .iter()
                        .map(|c| c.spec.name)
                        .chain(engine.iter().chain(rules).map(|s| s.name))
                        .collect(),
                })
            }
        }
    }

    /// Sets an option by name (case and spaces do not matter); the error names what
    /// was wrong, and nothing changes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        if let Some(common) = options::common(name) {
            let value = common.parse(value, &self.bounds)?;
            return (common.apply)(self, value);
        }
        if self.bounds.fixed_paths.is_some() && self.names_files(name) {
            return Err(EngineError::ServerFiles {
                name: name.to_string(),
            });
        }
        let known = |game: &str| game_option(game, name).is_some();
        if known(self.game) {
            self.set_game_option(name, value)?;
        } else if self.scope == OptionScope::ServedGames
            && let Some(game) = self.served.iter().copied().find(|g| known(g))
        {
            // Another game's option: checked on a table of that game, kept for it.
            let mut other = any_game::new_game(game, 1).expect("a game served");
            set_on(&mut *other, name, value, self.bounds.build_limit)?;
        } else {
            let names = self.options().iter().map(|s| s.name).collect();
            return Err(EngineError::UnknownOption {
                name: name.to_string(),
                game: (self.scope == OptionScope::CurrentGame).then_some(self.game),
                known: names,
            });
        }
        self.settings
            .game
            .retain(|(n, _)| !crate::options::same_name(n, name));
        self.settings
            .game
            .push((name.to_string(), value.to_string()));
        Ok(())
    }

    /// Whether `name` is a served game's option that names files.
    fn names_files(&self, name: &str) -> bool {
        self.served.iter().any(|game| {
            games::options(game).is_some_and(|(engine, _)| {
                engine
                    .iter()
                    .any(|o| o.kind == OptionKind::Path && o.is_named(name))
            })
        })
    }

    fn set_game_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let limit = self.bounds.build_limit;
        set_on(self.worker.game(), name, value, limit)
    }

    /// Sets up a position (`None`: the start) and plays `moves`; all or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), EngineError> {
        self.game()
            .set_position(fen, moves)
            .map_err(EngineError::from)
    }

    /// [`Engine::set_position`], switching to the served game that reads the position
    /// when the current one does not (UGI names no variant: the position says which).
    /// A hash table that cannot be had for the new game is reported, the position set.
    pub fn set_position_of_any_game(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(), EngineError> {
        if let Some(text) = fen
            && !self.game().reads_position(text)
            && let Some(&game) = self
                .served
                .iter()
                .find(|g| any_game::new_game(g, 1).is_some_and(|t| t.reads_position(text)))
        {
            let mut table = self.new_game(game);
            table.set_position(fen, moves)?;
            let taken = table.set_hash(self.settings.hash_mib);
            self.worker.set_table(table);
            self.game = game;
            return taken.map_err(EngineError::from);
        }
        self.set_position(fen, moves)
    }

    /// Takes the memory a search needs, so that it can be stopped at once after it
    /// starts; the error says when it cannot be had.
    pub fn prepare_search(&mut self) -> Result<(), EngineError> {
        self.worker.prepare_search().map_err(EngineError::from)
    }

    /// The limits of `request` for the current position.
    fn limits(&mut self, request: &SearchRequest) -> Result<Limits, EngineError> {
        let mover = self.game().mover();
        let mut searchmoves = Vec::with_capacity(request.searchmoves.len());
        for text in &request.searchmoves {
            let canonical = self.game().canonical_move(text).map_err(|e| match e {
                GameError::Move(error) => EngineError::Limit(LimitError::SearchMove {
                    text: text.clone(),
                    error,
                }),
                other => EngineError::Game(other),
            })?;
            if !searchmoves.contains(&canonical) {
                searchmoves.push(canonical);
            }
        }
        let (time, increment) = (request.time[mover], request.increment[mover]);
        let clock = (time.is_some() || increment.is_some()).then(|| Clock {
            remaining: time.unwrap_or_default(),
            increment: increment.unwrap_or_default(),
            moves_to_go: request.moves_to_go,
        });
        Ok(Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: request.movetime,
            clock,
            mate: request.mate,
            infinite: request.infinite,
            move_overhead: self.settings.move_overhead,
            received: request.received,
            multi_pv: self.settings.multi_pv,
            searchmoves,
            ponder: request.ponder.then(|| Arc::new(Pondering::new())),
            root_moves: None,
            notes: None,
            stop: None,
            show_wdl: self.settings.show_wdl,
        })
    }

    /// Whether [`Engine::go`] would take `request` (its search moves legal, its
    /// notation the game's).
    pub fn check_request(&mut self, request: &SearchRequest) -> Result<(), EngineError> {
        if let Some(notation) = &request.notation {
            let _checked = self.game().line_namer(notation)?;
        }
        self.limits(request).map(|_| ())
    }

    /// Starts a search of the current position (call [`Engine::prepare_search`]
    /// first); `play`: the game then plays its move; `kind`: how the requests after it
    /// are served while it runs. `events` get every report and, last,
    /// [`Event::Done`]. The search runs on the work thread; the game is back when it is
    /// done.
    pub fn go(
        &mut self,
        request: SearchRequest,
        play: bool,
        kind: WorkKind,
        events: impl FnMut(Event) + Send + 'static,
    ) -> Result<(), EngineError> {
        if play && self.game().is_over() {
            return Err(EngineError::GameOver);
        }
        let mut limits = self.limits(&request)?;
        let mut namer = match &request.notation {
            Some(notation) => Some(self.game().line_namer(notation)?),
            None => None,
        };
        let (weakened, above_full_strength) = self.weakened();
        if let Some(w) = &weakened {
            w.skill.weaken(&w.scale, &mut limits);
        }
        let endless = limits.endless() || limits.ponder.is_some();
        // The root moves and the iterations reach the front end through one lock, in
        // the order they happen.
        let events = Arc::new(Mutex::new(events));
        let root_events = events.clone();
        limits.root_moves = Some(RootMoves(Arc::new(move |depth, mv: &str, number| {
            let mut events = root_events.lock().unwrap_or_else(|e| e.into_inner());
            (*events)(Event::CurrentMove {
                depth,
                mv: mv.to_string(),
                number,
            });
        })));
        let note_events = events.clone();
        limits.notes = Some(Notes(Arc::new(move |text: &str| {
            let mut events = note_events.lock().unwrap_or_else(|e| e.into_inner());
            (*events)(Event::Note(text.to_string()));
        })));
        if let Some(note) = above_full_strength {
            limits.note(&note);
        }
        self.pondering = limits.ponder.clone();
        let abandoned = Arc::new(AtomicBool::new(false));
        self.abandoned = abandoned.clone();
        let pondering = limits.ponder.clone();
        self.worker.spawn(kind, endless, move |job| {
            let send = |event: Event| {
                let mut events = events.lock().unwrap_or_else(|e| e.into_inner());
                (*events)(event);
            };
            let searched = job.search(limits, weakened, &mut |info| {
                let mut info = info.clone();
                if let Some(name) = &mut namer {
                    info.pv = name(&info.pv);
                }
                send(Event::Info(info))
            });
            let mut done = Done {
                ponder: searched.ponder,
                stopped_at_limit: job.stopped_at_limit(),
                mate_verdict: searched.mate_verdict,
                ..Done::default()
            };
            // A search stopped while it still pondered plays nothing: the reply it
            // pondered on did not come.
            let unhit = pondering.as_ref().is_some_and(|p| p.is_on());
            done.abandoned = abandoned.load(Ordering::Acquire) || unhit;
            if play && !done.abandoned {
                let played = match &searched.best {
                    Some(best) => job.table.play(best),
                    None => Err(GameError::GameOver),
                };
                done.outcome = job.table.outcome().filter(|_| played.is_ok());
                done.played = Some(played);
            }
            done.best = searched.best;
            job.finish();
            send(Event::Done(done));
        });
        Ok(())
    }

    /// How a search with `limits` is weakened, if the strength is limited: by
    /// `UCI_Elo` on the game's ladder (above its full strength, none: the client is
    /// told so), or by `Skill Level`.
    fn weakened(&mut self) -> (Option<work::Weakened>, Option<String>) {
        let scale = self.game().level_scale();
        let mut note = None;
        let level = if self.settings.limit_strength {
            let level = scale.level_of_elo(self.settings.elo);
            if level >= f64::from(skill::MAX_LEVEL) {
                note = Some(format!(
                    "UCI_Elo {} is at or above the full strength of {} on ludus's scale ({}): \
                     playing at full strength",
                    self.settings.elo,
                    self.game,
                    scale.full_strength_elo()
                ));
            }
            level
        } else {
            f64::from(self.settings.skill_level)
        };
        let seed = match self.settings.skill_seed {
            0 => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
            seed => u64::from(seed),
        };
        let skill = skill::Skill { level, seed };
        let key = skill::position_key(&self.game().fen());
        let weakened = skill.weakens_at(&scale, key).then(|| work::Weakened {
            skill,
            scale,
            mover: self.game().mover(),
            key,
            shown_lines: self.settings.multi_pv.max(1),
        });
        (weakened, note)
    }

    /// The opponent played the move the engine pondered on: the search goes on under
    /// its limits, its clock counted from now.
    pub fn ponderhit(&mut self) -> Result<(), EngineError> {
        let pondering = self.pondering.take().filter(|_| self.worker.busy());
        let pondering = pondering.ok_or(EngineError::NotPondering)?;
        pondering.hit();
        Ok(())
    }

    /// Whether a search ponders now (it has had no `ponderhit`).
    pub fn pondering(&mut self) -> bool {
        self.worker.busy() && self.pondering.as_ref().is_some_and(|p| p.is_on())
    }

    /// Counts the move tree `depth` plies deep on the work thread (`divide`: below every
    /// move); `reply` gets the count, or why it stopped, after the work is marked done.
    pub fn count(
        &mut self,
        depth: u32,
        divide: bool,
        reply: impl FnOnce(Result<Count, CountStopped>) + Send + 'static,
    ) {
        self.worker.spawn(WorkKind::Reply, false, move |job| {
            let counted = if divide {
                job.table.divide(depth, job.stop).map(Count::PerMove)
            } else {
                job.table.perft(depth, job.stop).map(Count::Total)
            };
            let at_limit = job.stopped_at_limit();
            job.finish();
            reply(counted.ok_or(CountStopped { at_limit }));
        });
    }
}

/// Lowers the engine options of `game` that build tables to `limit` where their
/// value (the default, for a new game) is above it.
fn lower_to(game: &mut dyn AnyGame, limit: Option<u32>) {
    let Some(limit) = limit else {
        return;
    };
    for option in game.engine_options() {
        if option.sizes_tables && option.default_number() > limit {
            let lowered = game.set_engine_option(option.name, &limit.to_string());
            debug_assert!(lowered.is_ok(), "{lowered:?}");
        }
    }
}

/// The spec of `game`'s own option `name` (its engine's or its rules'), read from
/// the registry: the one lookup that checking and setting an option share.
fn game_option(game: &str, name: &str) -> Option<&'static OptionSpec> {
    let (engine, rules) = games::options(game)?;
    engine.iter().chain(rules).find(|o| o.is_named(name))
}

/// Sets a game's own option on `game`, an option that builds tables only up to
/// `limit`.
fn set_on(
    game: &mut dyn AnyGame,
    name: &str,
    value: &str,
    limit: Option<u32>,
) -> Result<(), EngineError> {
    if let Some(option) = game.engine_options().iter().find(|o| o.is_named(name)) {
        if let Some(limit) = limit
            && option.sizes_tables
            && option
                .parse(value)
                .is_ok_and(|v| matches!(v, OptionValue::Number(n) if n > limit))
        {
            return Err(EngineError::AboveSessionLimit {
                name: option.name,
                limit: limit.to_string(),
                value: value.trim().to_string(),
            });
        }
        return game
            .set_engine_option(option.name, value)
            .map_err(EngineError::from);
    }
    game.set_rule(name, value).map_err(EngineError::from)
}

//! One game's state for the engine, behind an object-safe interface so the command
//! loop can hold any of the three games and hand it to a search thread.

use std::sync::atomic::AtomicBool;

use std::fmt;

use crate::game::{
    Descriptor, MoveError, OptionError, Outcome, PositionError, Presentation, UnknownChoice,
};
use crate::games::{self, Play};
use crate::record::{self, RecordError};
use crate::search::{Info, Limits, MemoryError, OptionValue, Searchable};

/// Why the table refused a command; the game stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The position text could not be read.
    /// The position could not be read as one of `game`; `other_game` names a game
    /// that reads it.
    Position {
        game: &'static str,
        error: PositionError,
        other_game: Option<&'static str>,
    },
    /// A move of a `position ... moves` list, counted from 1.
    ListedMove { index: usize, error: MoveError },
    /// The move to play.
    Move(MoveError),
    /// The game has no notation of that name; `known` are its notations.
    Notation {
        game: &'static str,
        name: String,
        known: Vec<&'static str>,
    },
    /// A diagram layer or position form the game does not have.
    Choice(UnknownChoice),
    /// More moves to take back than were played since the position was set.
    Undo { asked: usize, played: usize },
    /// The record could not be replayed.
    Record(RecordError),
    /// A rule or engine option could not be set.
    Option(OptionError),
    /// The memory for the next search could not be had.
    Memory(MemoryError),
    /// The hash table could not be made the size asked; it kept `kept_mib` MiB, or
    /// none could be had at all (`None`).
    HashRefused {
        error: MemoryError,
        kept_mib: Option<usize>,
    },
    /// The game is over: no move to play.
    GameOver,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |k: usize| if k == 1 { "move" } else { "moves" };
        match self {
            GameError::Position {
                game,
                error,
                other_game,
            } => {
                write!(f, "invalid {game} position: {error}")?;
                if let Some(other) = other_game {
                    write!(f, " (it reads as a {other} position)")?;
                }
                Ok(())
            }
            GameError::ListedMove { index, error } => {
                write!(f, "move {index} of the list: {error}")
            }
            GameError::Move(e) => e.fmt(f),
            GameError::Notation { game, name, known } => write!(
                f,
                "unknown notation {:?} ({game} has {})",
                crate::game::quoted(name),
                known.join(", ")
            ),
            GameError::Choice(e) => e.fmt(f),
            GameError::Undo { asked, played } => write!(
                f,
                "cannot undo {asked} {}: {played} {} played since the position was set",
                plural(*asked),
                plural(*played)
            ),
            GameError::Record(e) => e.fmt(f),
            GameError::Option(e) => e.fmt(f),
            GameError::Memory(e) => e.fmt(f),
            GameError::HashRefused { error, kept_mib } => match kept_mib {
                Some(mib) => write!(f, "{error}; the hash table stays at {mib} MiB"),
                None => write!(f, "{error}; searching without a hash table"),
            },
            GameError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<OptionError> for GameError {
    fn from(e: OptionError) -> Self {
        GameError::Option(e)
    }
}

/// Names a line of canonical moves in another notation (see [`AnyGame::line_namer`]).
pub type LineNamer = Box<dyn FnMut(&[String]) -> Vec<String> + Send>;

/// What the command loop does with the current game.
pub trait AnyGame: Send {
    fn name(&self) -> &'static str;
    /// How front ends present the game.
    fn descriptor(&self) -> Descriptor;
    fn players(&self) -> &'static [&'static str];
    fn rule_options(&self) -> &'static [crate::options::OptionSpec];
    /// Back to the start position, with the search's tables cleared.
    fn new_game(&mut self);
    /// Sets up a position (`None`: the start) and plays moves; all or nothing.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), GameError>;
    /// Plays one move; returns it in the canonical notation.
    fn play(&mut self, text: &str) -> Result<String, GameError>;
    /// A legal move in the canonical notation, not played.
    fn canonical_move(&self, text: &str) -> Result<String, GameError>;
    /// Takes back `n` moves; all or nothing.
    fn undo(&mut self, n: usize) -> Result<(), GameError>;
    fn legal_moves(&self, notation: Option<&str>) -> Result<Vec<String>, GameError>;
    /// Hands each legal move, written in `notation` (canonical: `None`), to `each`,
    /// from one buffer (no string a move); none once the game is over.
    fn for_each_legal_move(
        &self,
        notation: Option<&str>,
        each: &mut dyn FnMut(&str),
    ) -> Result<(), GameError>;
    /// Every legal move in the canonical notation with the places a person points at
    /// to make it ([`crate::game::Presentation::move_places`]); none once the game is over.
    fn legal_places(&self) -> Vec<(String, Vec<String>)>;
    fn fen(&self) -> String;
    /// The position in a form the game names (`fen`, Mentula's `list`).
    fn fen_in(&self, form: &str) -> Result<String, GameError>;
    fn diagram(&self) -> String;
    /// The position as an SVG document, the last move played marked.
    /// The SVG diagram with the game's extra `layers` (an unknown one is an error).
    fn diagram_svg(&self, layers: &[&str]) -> Result<String, GameError>;
    /// The player to move, or `none` when the game is over.
    fn to_move(&self) -> String;
    fn status(&self) -> String;
    /// Counts the legal move tree; `None` when `stop` was set before the end.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> Option<u64>;
    /// Counts the tree below every legal move; `None` when stopped.
    fn divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>>;
    fn record(&self, notation: Option<&str>) -> Result<String, GameError>;
    /// Writes lines of canonical moves from the current position in `notation`: a
    /// copy of the position made now, so that a search's lines can be named while the
    /// search has the game. A line is written up to its first move that does not read.
    fn line_namer(&self, notation: &str) -> Result<LineNamer, GameError>;
    /// Replays a record from its position tag's position, or else from the start
    /// position, replacing the game.
    fn load_record(&mut self, text: &str) -> Result<(), GameError>;
    fn set_rule(&mut self, name: &str, value: &str) -> Result<(), GameError>;
    /// Makes the hash table `mib` MiB and takes its memory now; if it cannot be had,
    /// the table keeps its previous size and the error says so.
    fn set_hash(&mut self, mib: usize) -> Result<(), GameError>;
    /// The hash table's size in MiB.
    fn hash_mib(&self) -> usize;
    /// Searches on `threads` threads (1 to [`crate::search::MAX_THREADS`]) where the
    /// game's search can; kept when the engine is made anew.
    fn set_threads(&mut self, threads: usize);
    /// The game's own engine options.
    fn engine_options(&self) -> &'static [crate::options::OptionSpec];
    /// Sets an engine option; the error names what was wrong.
    fn set_engine_option(&mut self, name: &str, value: &str) -> Result<(), GameError>;
    /// Takes the memory the next search needs (the hash table), before it starts.
    fn prepare_search(&mut self) -> Result<(), GameError>;
    /// Waits until what the engine builds in the background for this position (an
    /// endgame table) is ready, so that the next search is reproducible.
    fn wait_until_ready(&mut self);
    /// Searches the current position, reporting each iteration; returns the best move in
    /// the canonical notation (`None` when the game is over).
    fn search(&mut self, limits: &Limits, report: &mut dyn FnMut(&Info)) -> Option<String>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The index of the player to move (0 first).
    fn mover(&self) -> usize;
    /// The game's strength levels.
    fn level_scale(&self) -> crate::search::skill::LevelScale;
    /// The start position's text (the game's usual start, rule options aside).
    fn start_fen(&self) -> String;
    /// Whether `text` is a position of this game.
    fn reads_position(&self, text: &str) -> bool;
    /// Whether `text` is written as a move of this game, legal here or not.
    fn reads_as_move(&self, text: &str) -> bool;
}

/// A game with its start, its moves, the rule options set and a search engine.
pub struct GameOf<G: Searchable> {
    start: G,
    position: G,
    moves: Vec<G::Move>,
    rules: Vec<(String, String)>,
    engine: G::Search,
    hash_mib: usize,
    threads: usize,
    /// Engine options set, applied again whenever the engine is made anew.
    engine_settings: Vec<(&'static str, OptionValue)>,
}

impl<G: Searchable> GameOf<G> {
    pub fn new(hash_mib: usize) -> Self {
        GameOf {
            start: G::start(),
            position: G::start(),
            moves: Vec::new(),
            rules: Vec::new(),
            engine: G::new_search(hash_mib),
            hash_mib,
            threads: 1,
            engine_settings: Vec::new(),
        }
    }

    /// A new engine with the hash size and engine options set.
    fn new_engine(&mut self) {
        self.engine = G::new_search(self.hash_mib);
        G::set_threads(&mut self.engine, self.threads);
        for (name, value) in &self.engine_settings {
            // Accepted once, so accepted again.
            let _ = G::set_engine_option(&mut self.engine, name, value);
        }
    }

    fn with_rules(&self, mut position: G) -> Result<G, GameError> {
        for (name, value) in &self.rules {
            position.set_rule_option(name, value)?;
        }
        Ok(position)
    }

    fn notation(name: Option<&str>) -> Result<G::Notation, GameError> {
        match name {
            None => Ok(G::NOTATIONS[0].notation),
            Some(n) => G::notation_named(n).ok_or_else(|| GameError::Notation {
                game: G::NAME,
                name: n.to_string(),
                known: G::NOTATIONS.iter().map(|n| n.name).collect(),
            }),
        }
    }
}

impl<G: Searchable + Presentation + Send + 'static> AnyGame for GameOf<G>
where
    G::Search: Send,
    G::Move: Send,
{
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn descriptor(&self) -> Descriptor {
        G::DESCRIPTOR
    }
    fn players(&self) -> &'static [&'static str] {
        G::PLAYERS
    }
    fn rule_options(&self) -> &'static [crate::options::OptionSpec] {
        G::RULE_OPTIONS
    }

    fn new_game(&mut self) {
        let start = self.with_rules(G::start()).unwrap_or_else(|_| G::start());
        self.start = start.clone();
        self.position = start;
        self.moves.clear();
        // The tables are cleared, not made anew: their memory stays taken.
        G::clear(&mut self.engine);
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), GameError> {
        let start = match fen {
            Some(text) => G::from_fen(text).map_err(|error| GameError::Position {
                game: G::NAME,
                error,
                other_game: crate::games::games_reading(text).first().copied(),
            })?,
            None => G::start(),
        };
        let start = self.with_rules(start)?;
        let mut position = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = position
                .parse_move(text)
                .map_err(|error| GameError::ListedMove {
                    index: i + 1,
                    error,
                })?;
            position.play(mv);
            played.push(mv);
        }
        self.start = start;
        self.position = position;
        self.moves = played;
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<String, GameError> {
        let mv = self.position.parse_move(text).map_err(GameError::Move)?;
        let canonical = self.position.format_move(mv, G::NOTATIONS[0].notation);
        self.position.play(mv);
        self.moves.push(mv);
        Ok(canonical)
    }

    fn canonical_move(&self, text: &str) -> Result<String, GameError> {
        let mv = self.position.parse_move(text).map_err(GameError::Move)?;
        Ok(self.position.format_move(mv, G::NOTATIONS[0].notation))
    }

    fn undo(&mut self, n: usize) -> Result<(), GameError> {
        if n > self.moves.len() {
            return Err(GameError::Undo {
                asked: n,
                played: self.moves.len(),
            });
        }
        for _ in 0..n {
            self.position.undo();
            self.moves.pop();
        }
        Ok(())
    }

    fn legal_moves(&self, notation: Option<&str>) -> Result<Vec<String>, GameError> {
        let notation = Self::notation(notation)?;
        if self.position.outcome().is_some() {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        Ok(moves
            .iter()
            .map(|&m| self.position.format_move(m, notation))
            .collect())
    }

    fn for_each_legal_move(
        &self,
        notation: Option<&str>,
        each: &mut dyn FnMut(&str),
    ) -> Result<(), GameError> {
        let notation = Self::notation(notation)?;
        if self.position.outcome().is_some() {
            return Ok(());
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mut text = String::with_capacity(16);
        for &mv in &moves {
            text.clear();
            self.position.write_move(mv, notation, &mut text);
            each(&text);
        }
        Ok(())
    }

    fn legal_places(&self) -> Vec<(String, Vec<String>)> {
        if self.position.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let canonical = self.position.format_move(m, G::NOTATIONS[0].notation);
                (canonical, self.position.move_places(m))
            })
            .collect()
    }

    fn fen_in(&self, form: &str) -> Result<String, GameError> {
        let form = crate::game::choose("position form", G::NAME, G::POSITION_FORMS, form)
            .map_err(GameError::Choice)?;
        Ok(self.position.fen_in(form))
    }

    fn fen(&self) -> String {
        self.position.fen()
    }

    fn diagram(&self) -> String {
        self.position.diagram()
    }

    fn diagram_svg(&self, layers: &[&str]) -> Result<String, GameError> {
        let asked = crate::game::diagram_layers::<G>(layers).map_err(GameError::Choice)?;
        Ok(self
            .position
            .diagram_svg_with(self.moves.last().copied(), &asked))
    }

    fn to_move(&self) -> String {
        if self.position.outcome().is_some() {
            "none".to_string()
        } else {
            G::PLAYERS[self.position.to_move()].to_string()
        }
    }

    fn status(&self) -> String {
        match self.position.outcome() {
            Some(outcome) => G::describe_outcome(&outcome),
            None => format!("ongoing ({} to move)", G::PLAYERS[self.position.to_move()]),
        }
    }

    // Counts walk a copy, so that the game stays as it was whatever happens.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        crate::perft::perft_until(&mut self.position.clone(), depth, stop)
    }

    fn divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        let counted = crate::perft::divide_until(&mut self.position.clone(), depth, stop)?;
        Some(
            counted
                .into_iter()
                .map(|(m, n)| (self.position.format_move(m, G::NOTATIONS[0].notation), n))
                .collect(),
        )
    }

    fn record(&self, notation: Option<&str>) -> Result<String, GameError> {
        let notation = Self::notation(notation)?;
        Ok(record::write(&self.start, &self.moves, None, notation))
    }

    fn line_namer(&self, notation: &str) -> Result<LineNamer, GameError> {
        // Checked now; looked up again by its name in the closure, which must be Send.
        Self::notation(Some(notation))?;
        let name = notation.to_string();
        let root = self.position.clone();
        Ok(Box::new(move |line: &[String]| {
            let notation = Self::notation(Some(&name)).expect("checked when made");
            let mut position = root.clone();
            let mut named = Vec::with_capacity(line.len());
            for text in line {
                let Ok(mv) = position.read_move(text) else {
                    break;
                };
                named.push(position.format_move(mv, notation));
                position.play(mv);
            }
            named
        }))
    }

    fn load_record(&mut self, text: &str) -> Result<(), GameError> {
        // The record's own start position (its position tag), with the table's rules.
        let (tagged, text) = record::tagged_start::<G>(text).map_err(GameError::Record)?;
        let start = self.with_rules(tagged.unwrap_or_else(G::start))?;
        let replay = record::replay(start.clone(), text).map_err(GameError::Record)?;
        self.start = start;
        self.position = replay.position;
        self.moves = replay.moves;
        Ok(())
    }

    fn set_rule(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        // Checked on a copy first, so a refused value changes nothing.
        let mut position = self.position.clone();
        position.set_rule_option(name, value)?;
        let mut start = self.start.clone();
        start.set_rule_option(name, value)?;
        self.position = position;
        self.start = start;
        self.rules.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.rules.push((name.to_string(), value.to_string()));
        Ok(())
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), GameError> {
        let previous = self.hash_mib;
        // The old table is given back first, so that its memory can serve the new one.
        self.hash_mib = mib;
        self.new_engine();
        if let Err(error) = G::prepare(&mut self.engine) {
            self.hash_mib = previous;
            self.new_engine();
            let kept_mib = G::prepare(&mut self.engine).ok().map(|()| previous);
            return Err(GameError::HashRefused { error, kept_mib });
        }
        Ok(())
    }

    fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, crate::search::MAX_THREADS);
        G::set_threads(&mut self.engine, self.threads);
    }

    fn engine_options(&self) -> &'static [crate::options::OptionSpec] {
        G::ENGINE_OPTIONS
    }

    fn set_engine_option(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        let option = G::ENGINE_OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::UnknownEngine {
                game: G::NAME,
                name: name.to_string(),
            })?;
        let value = option.parse(value)?;
        G::set_engine_option(&mut self.engine, option.name, &value)?;
        self.engine_settings.retain(|(n, _)| *n != option.name);
        self.engine_settings.push((option.name, value));
        Ok(())
    }

    fn prepare_search(&mut self) -> Result<(), GameError> {
        G::prepare(&mut self.engine).map_err(GameError::Memory)
    }

    fn wait_until_ready(&mut self) {
        G::wait_until_ready(&mut self.engine, &self.position);
    }

    fn search(&mut self, limits: &Limits, report: &mut dyn FnMut(&Info)) -> Option<String> {
        if self.position.outcome().is_some() {
            return None;
        }
        let mut position = self.position.clone();
        let chances = limits
            .show_wdl
            .then(|| G::chances_at(&self.engine, &position, limits));
        let mut with_chances = |info: &Info| match &chances {
            Some(chances) => {
                let mut info = info.clone();
                info.wdl = Some(chances.of(&info.scores));
                report(&info)
            }
            None => report(info),
        };
        let result = G::think(&mut self.engine, &mut position, limits, &mut with_chances);
        result
            .best_move
            .map(|m| self.position.format_move(m, G::NOTATIONS[0].notation))
    }

    fn is_over(&self) -> bool {
        self.position.outcome().is_some()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn level_scale(&self) -> crate::search::skill::LevelScale {
        G::LEVELS
    }

    fn mover(&self) -> usize {
        self.position.to_move()
    }

    fn start_fen(&self) -> String {
        G::start().fen()
    }

    fn reads_position(&self, text: &str) -> bool {
        G::from_fen(text).is_ok()
    }

    fn reads_as_move(&self, text: &str) -> bool {
        !matches!(
            self.position.parse_move(text),
            Err(crate::game::MoveError::Syntax { .. })
        )
    }
}

/// A new game by name (one of [`games::NAMES`], case-insensitive). Its hash table's
/// memory is taken when the first search prepares (or at once by [`AnyGame::set_hash`]).
pub fn new_game(game: &str, hash_mib: usize) -> Option<Box<dyn AnyGame>> {
    struct NewTable(usize);
    impl games::Visitor for NewTable {
        type Output = Box<dyn AnyGame>;
        fn visit<G: Play>(self) -> Box<dyn AnyGame> {
            Box::new(GameOf::<G>::new(self.0))
        }
    }
    games::visit(game, NewTable(hash_mib))
}

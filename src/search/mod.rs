//! Searches: alpha-beta for the two-player games, Best-Reply and paranoid search for
//! Mentula, and what they share (limits, the stop flag, reports). The searches know no
//! game: each game implements [`Searchable`] (its evaluation and move ordering) in its
//! own folder.
//!
//! ```
//! use ludus::game::Game;
//! use ludus::games::senamukha::Position;
//! use ludus::search::{Limits, Searchable};
//!
//! let mut engine = Position::new_search(16); // a 16 MiB hash table
//! let mut position = Position::start();
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = Position::think(&mut engine, &mut position, &limits, &mut |_| {});
//! assert_eq!(result.info.depth, 3);
//! assert!(position.parse_move(&position.format_move(result.best_move.unwrap(),
//!     Position::NOTATIONS[0].notation)).is_ok());
//! ```

mod limits;
pub(crate) mod mcts;
pub mod multi_player;
pub mod skill;
mod tt;
pub(crate) mod two_player;
pub mod wdl;

pub use two_player::MAX_THREADS;

#[cfg(test)]
pub(crate) use limits::depth_noting;
pub use limits::{Budget, Clock, Limits, MAX_DEPTH, Notes, Pondering, RootMoves};
pub use tt::MemoryError;
pub use wdl::{Chances, Wdl};

use crate::game::OptionError;

use std::fmt;

/// A score in centi-units from one player's point of view. Scores beyond
/// [`MATE_BOUND`] mean the game ends by force: `MATE - n` wins in `n` plies.
pub type Value = i32;

/// The score of winning at once.
pub const MATE: Value = 30_000;
/// Scores at least this far from 0 are forced wins or losses.
pub const MATE_BOUND: Value = MATE - 1_000;
/// Wins proven by an endgame table score `PROVEN_WIN + margin` (losses the negative):
/// above every evaluation, below every forced win found by the search itself, whose
/// distance is known.
pub const PROVEN_WIN: Value = 20_000;
/// Beyond every score.
pub const INFINITY: Value = 32_000;

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-units (centipawns in Sena-Mukha, centi-counters in Mangala II).
    Centi(i32),
    /// The game ends by force in this many plies: positive for the side to move
    /// winning, negative for it losing.
    Mate(i32),
}

impl Score {
    pub fn from_value(value: Value) -> Score {
        if value >= MATE_BOUND {
            Score::Mate(MATE - value)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value))
        } else {
            Score::Centi(value)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centi(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One progress report of a search: what the `info` lines carry.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// One score for two-player games; one per player (centi-units) for Mentula.
    pub scores: Vec<Score>,
    pub nodes: u64,
    pub time_ms: u64,
    /// The principal variation in the game's canonical notation.
    pub pv: Vec<String>,
    /// With MultiPV: which line this is (1 the best).
    pub multi_pv: Option<usize>,
    /// How full the transposition table is with this search's entries, per mille
    /// (searches that have one).
    pub hashfull: Option<u32>,
    /// The chances the score means (`UCI_ShowWDL`), added by the engine to the
    /// reports of a search asked for them ([`Limits::show_wdl`]).
    pub wdl: Option<Wdl>,
}

impl Info {
    /// The report a search stands on before its first iteration completes: the static
    /// evaluation's `scores` and the first move searched as the line.
    pub(crate) fn before_search(scores: Vec<Score>, pv: Vec<String>) -> Info {
        Info {
            depth: 0,
            seldepth: 0,
            scores,
            nodes: 0,
            time_ms: 0,
            pv,
            multi_pv: None,
            hashfull: None,
            wdl: None,
        }
    }

    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// A search's lines as they are reported (MultiPV): the last iteration's, complete,
/// and the next one's, still coming (line 1 starts an iteration).
#[derive(Default)]
pub struct Lines {
    complete: Vec<Info>,
    coming: Vec<Info>,
}

impl Lines {
    pub fn add(&mut self, info: Info) {
        if info.multi_pv.unwrap_or(1) == 1 && !self.coming.is_empty() {
            self.complete = std::mem::take(&mut self.coming);
        }
        self.coming.push(info);
    }

    /// The best lines known, best first: the newest iteration's once it has as many
    /// lines as the last complete one, else the last complete one's.
    pub fn best(&self) -> &[Info] {
        if self.coming.len() >= self.complete.len() {
            &self.coming
        } else {
            &self.complete
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} seldepth {}", self.depth, self.seldepth)?;
        if let Some(k) = self.multi_pv {
            write!(f, " multipv {k}")?;
        }
        match self.scores.as_slice() {
            [one] => write!(f, " score {one}")?,
            many => {
                f.write_str(" scores")?;
                for s in many {
                    match s {
                        Score::Centi(v) => write!(f, " {v}")?,
                        Score::Mate(n) => write!(f, " mate{n}")?,
                    }
                }
            }
        }
        if let Some(wdl) = &self.wdl {
            write!(f, " {wdl}")?;
        }
        write!(f, " nodes {} nps {}", self.nodes, self.nps())?;
        if let Some(permille) = self.hashfull {
            write!(f, " hashfull {permille}")?;
        }
        write!(f, " time {}", self.time_ms)?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

/// How the main thread's tree looked, for `ludus tree`: how well the moves were
/// ordered and how often the transposition table knew the position. Counted over one
/// search (every iteration), by the main thread only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Nodes of the full-width search that searched at least one move (not quiescence).
    pub interior: u64,
    /// Of those, the ones a move failed high at (a beta cutoff).
    pub cutoffs: u64,
    /// Cutoffs by the first move searched.
    pub first_move_cutoffs: u64,
    /// The sum over cutoffs of the cutting move's index (0 for the first).
    pub cutoff_index_sum: u64,
    /// Probes of the transposition table by the full-width search, and how many found
    /// the position.
    pub table_probes: u64,
    pub table_hits: u64,
    /// How full the table was with this search's entries at its end, in permille.
    pub hashfull: u32,
}

impl TreeStats {
    /// The share of cutoffs made by the first move, in percent.
    pub fn first_move_rate(&self) -> f64 {
        100.0 * self.first_move_cutoffs as f64 / self.cutoffs.max(1) as f64
    }
    /// The mean index of the cutting move (0: always the first).
    pub fn mean_cutoff_index(&self) -> f64 {
        self.cutoff_index_sum as f64 / self.cutoffs.max(1) as f64
    }
    /// The share of table probes that found the position, in percent.
    pub fn table_hit_rate(&self) -> f64 {
        100.0 * self.table_hits as f64 / self.table_probes.max(1) as f64
    }
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best_move: Option<M>,
    /// The last complete report.
    pub info: Info,
}

pub use crate::options::OptionValue;

/// A game the engine can search, whatever search serves it: alpha-beta for the
/// two-player games, a multi-player search for Mentula.
pub trait Searchable: crate::game::Game {
    /// The search with its tables, kept from one search to the next.
    type Search;
    /// The game's own engine options.
    const ENGINE_OPTIONS: &'static [crate::options::OptionSpec] = &[];
    /// The strength levels: their node budgets and their Elo on ludus's scale (the
    /// ladder measured in benches/README.md).
    const LEVELS: skill::LevelScale;
    /// The positions `ludus bench` searches, and to what depth (its signature).
    const BENCH_POSITIONS: &'static [&'static str];
    const BENCH_DEPTH: u32;
    /// A new engine with a transposition table of `hash_mib` MiB where it uses one.
    fn new_search(hash_mib: usize) -> Self::Search;
    /// Sets one of [`Searchable::ENGINE_OPTIONS`] (the name matched without case,
    /// the value within its range).
    fn set_engine_option(
        _engine: &mut Self::Search,
        name: &str,
        _value: &OptionValue,
    ) -> Result<(), OptionError> {
        Err(OptionError::UnknownEngine {
            game: Self::NAME,
            name: name.to_string(),
        })
    }
    /// Waits until what the engine builds in the background for `position` (an
    /// endgame table) is ready, so that the next search is reproducible.
    fn wait_until_ready(_engine: &mut Self::Search, _position: &Self) {}
    /// Forgets what earlier searches learnt (a new game), keeping the memory taken.
    fn clear(_engine: &mut Self::Search) {}
    /// Searches on this many threads from the next search on, where the game's search
    /// runs on several (the alpha-beta games); otherwise it stays on one.
    fn set_threads(_engine: &mut Self::Search, _threads: usize) {}
    /// Takes the memory the next search needs, before it starts.
    fn prepare(_engine: &mut Self::Search) -> Result<(), MemoryError> {
        Ok(())
    }
    /// The evaluation's terms and weights, when they can be fitted to game results
    /// (`ludus tune`); `None` when the evaluation is not linear in its weights.
    fn tuning() -> Option<crate::learning::tuning::Terms<Self>> {
        None
    }
    /// Searches the position for the player to move.
    /// The shape of the last search's tree, where the search counts it (alpha-beta).
    fn tree_stats(_engine: &Self::Search) -> Option<TreeStats> {
        None
    }
    /// How the scores of a search of `position` with `limits` become chances
    /// (`UCI_ShowWDL`): the game's model with what it needs of the root.
    fn chances_at(engine: &Self::Search, position: &Self, limits: &Limits) -> Chances;
    fn think(
        engine: &mut Self::Search,
        position: &mut Self,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Self::Move>;
}

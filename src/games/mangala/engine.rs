//! The Mangala II engine: alpha-beta with the endgame tables.
//!
//! The tables are shared by the process and built in the background when a search
//! first nears the endgame (option `Endgame Counters`, the most counters on the board
//! they cover; the build starts at twice that many). Until they are ready the search
//! runs without them. With the tables, a root
//! position they cover is played from them at once (perfect play, see `endgame`), and
//! inside the search every covered position is a leaf with its proven value.

use std::sync::Arc;

use super::endgame::{self, Table};
use super::eval::{margin_bounds, proven_value};
use super::position::{Move, PITS, Position};
use crate::game::{Game, OptionError};
use crate::search::Budget;
use crate::search::two_player::Searcher;
use crate::search::{
    EngineOption, Info, Limits, MemoryError, Score, SearchResult, Searchable, Value,
};

/// Covered positions are not trusted this close to the ply limit, which the tables
/// do not know.
const PLY_LIMIT_MARGIN: u32 = 200;
/// The most plies of a principal variation read from the tables.
const TABLE_LINE_PLIES: usize = 64;

pub const ENDGAME_COUNTERS: EngineOption = EngineOption {
    name: "Endgame Counters",
    default: 14,
    min: 0,
    max: 24,
    values: &[],
    builds_tables: true,
};

pub struct Engine {
    searcher: Searcher<Move>,
    endgame_counters: usize,
}

/// The table usable for `position`, if it is built. Its build is asked for only once
/// the game nears the endgame (at most twice the covered counters on the board), so
/// that an engine in a match does not spend a core on it in games that never get there;
/// `wait` asks for it at once and waits.
fn usable_table(engine: &Engine, position: &Position, wait: bool) -> Option<Arc<Table>> {
    let (counters, skip) = (engine.endgame_counters, position.rules().skip_origin);
    let on_board: usize = position.pits().iter().map(|&c| c as usize).sum();
    if wait || on_board <= 2 * counters {
        endgame::shared(counters, skip, wait)
    } else {
        endgame::built(counters, skip)
    }
}

/// Bounds on the value of `position`: the table's where `table` covers it, else those
/// that the counters left on the board allow. The search's oracle.
fn proven_bounds(table: Option<&Table>, position: &Position) -> (Value, Value) {
    let near_the_ply_limit = position
        .rules()
        .ply_limit
        .is_some_and(|limit| position.state().plies + PLY_LIMIT_MARGIN >= limit);
    let from_table = table
        .filter(|_| !near_the_ply_limit)
        .and_then(|t| t.probe(position.pits(), position.to_move()))
        .map(|bounds| {
            let us = position.to_move();
            let so_far = position.captured(us) as i32 - position.captured(1 - us) as i32;
            (so_far + bounds.lower, so_far + bounds.upper)
        });
    let (lower, upper) = from_table.unwrap_or_else(|| margin_bounds(position));
    (proven_value(lower), proven_value(upper))
}

/// The table's move for the root with its line and value, if the table settles the
/// position exactly and playing the move cannot repeat a position a third time.
fn table_move(table: &Table, position: &Position) -> Option<(Move, Vec<Move>, Value)> {
    if table.skip_origin() != position.rules().skip_origin {
        return None;
    }
    let (mv, bounds) = table.best_move(position.pits(), position.to_move())?;
    bounds.exact()?;
    let value = proven_bounds(Some(table), position).0;
    let mut line = position.clone();
    line.play(mv);
    if line.occurrences() >= 3 {
        return None;
    }
    let mut moves = vec![mv];
    while moves.len() < TABLE_LINE_PLIES && line.outcome().is_none() {
        let pits: &[u8; PITS] = line.pits();
        let Some((next, _)) = table.best_move(pits, line.to_move()) else {
            break;
        };
        line.play(next);
        moves.push(next);
    }
    Some((mv, moves, value))
}

impl Searchable for Position {
    type Engine = Engine;
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0",
        "9,8,0,8,7,0/0,9,9,2,9,9 S 0 2",
        "3,0,5,1,0,2/4,1,0,7,2,1 N 24 22",
    ];
    const BENCH_DEPTH: u32 = 12;
    const ENGINE_OPTIONS: &'static [EngineOption] = &[ENDGAME_COUNTERS];

    fn engine(hash_mib: usize) -> Engine {
        Engine {
            searcher: Searcher::new(hash_mib),
            endgame_counters: ENDGAME_COUNTERS.default as usize,
        }
    }

    fn prepare(engine: &mut Engine) -> Result<(), MemoryError> {
        engine.searcher.prepare()
    }

    fn clear(engine: &mut Engine) {
        engine.searcher.clear()
    }

    fn set_threads(engine: &mut Engine, threads: usize) {
        engine.searcher.set_threads(threads)
    }

    fn set_engine_option(engine: &mut Engine, name: &str, value: u32) -> Result<(), OptionError> {
        if !name.eq_ignore_ascii_case(ENDGAME_COUNTERS.name) {
            return Err(OptionError::UnknownEngine {
                game: Self::NAME,
                name: name.to_string(),
            });
        }
        engine.endgame_counters = value.min(ENDGAME_COUNTERS.max) as usize;
        Ok(())
    }

    fn wait_until_ready(engine: &mut Engine, position: &Position) {
        usable_table(engine, position, true);
    }

    fn tree_stats(engine: &Self::Engine) -> Option<crate::search::TreeStats> {
        Some(engine.searcher.tree_stats())
    }

    fn think(
        engine: &mut Engine,
        position: &mut Position,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Move> {
        let table = usable_table(engine, position, false);
        // The table gives one best line over every move; more lines, or some moves
        // only, are searched (the table still settling every position it covers).
        let whole_root = limits.multi_pv <= 1 && limits.searchmoves.is_empty();
        let from_table = table
            .as_deref()
            .filter(|_| whole_root)
            .and_then(|t| table_move(t, position));
        match from_table {
            Some((mv, line, value)) => {
                let budget = Budget::new(limits);
                let canonical = Position::NOTATIONS[0].1;
                let mut p = position.clone();
                let pv = line
                    .iter()
                    .map(|&m| {
                        let text = p.format_move(m, canonical);
                        p.play(m);
                        text
                    })
                    .collect();
                let info = Info {
                    depth: 1,
                    seldepth: line.len() as u32,
                    scores: vec![Score::from_value(value)],
                    nodes: 1,
                    time_ms: budget.elapsed_ms(),
                    pv,
                    multi_pv: None,
                    hashfull: None,
                };
                report(&info);
                budget.wait_if_infinite();
                SearchResult {
                    best_move: Some(mv),
                    info,
                }
            }
            None => {
                let oracle = |p: &Position| Some(proven_bounds(table.as_deref(), p));
                engine
                    .searcher
                    .search_with(position, limits, report, Some(&oracle))
            }
        }
    }
}

//! The Mangala II engine: alpha-beta with the endgame tables.
//!
//! The tables come from files (option `EndgamePath`, a folder `ludus endgame --write`
//! filled: mapped into memory, shared by every engine of the process) or, without it,
//! are built in memory once per process on a thread of their own when a search first
//! nears the endgame (option `Endgame Counters`, the most counters on the board they
//! cover; the build starts at twice that many). A search bounded by the clock runs
//! without the built tables until they are ready; one bounded only by depth or nodes
//! uses them only once they were waited for (`ludus search`, `ludus bench`), so that its
//! answer never depends on timing. With the tables, a root position they cover is
//! played from them at once (perfect play, see `endgame`), and inside the search every
//! covered position is a leaf with its proven value. A search tells which tables it
//! uses, when that changed (`info string endgame tables: ...`).

use std::sync::Arc;

use super::endgame::{self, Building, Table, TableFiles};
use super::eval::{margin_bounds, proven_value};
use super::position::{Move, PITS, Position};
use crate::game::{Game, OptionError};
use crate::options::OptionSpec;
use crate::search::Budget;
use crate::search::skill::LevelScale;
use crate::search::two_player::Searcher;
use crate::search::{
    Chances, Info, Limits, MemoryError, OptionValue, Score, SearchResult, Searchable, Value,
};

/// Covered positions are not trusted this close to the ply limit, which the tables
/// do not know.
const PLY_LIMIT_MARGIN: u32 = 200;
/// The most plies of a principal variation read from the tables.
const TABLE_LINE_PLIES: usize = 64;

pub const ENDGAME_COUNTERS: OptionSpec =
    OptionSpec::spin("Endgame Counters", 14, 0, endgame::MAX_IN_MEMORY as u32).sizing_tables();

pub const ENDGAME_PATH: OptionSpec = OptionSpec::path("EndgamePath");

pub struct MangalaSearch {
    searcher: Searcher<Move>,
    endgame_counters: usize,
    /// The tables built in memory, once asked for.
    built: Option<Arc<Building>>,
    /// Whether they were waited for: a repeatable search then uses them.
    waited: bool,
    /// The tables from files, when `EndgamePath` names a folder.
    files: Option<Arc<TableFiles>>,
    /// What the last search was told of its tables, told again only when it changes.
    told: Option<String>,
}

/// The tables a search of `position` uses, and what to tell of them. Without files, the
/// build is asked for only once the game nears the endgame (at most twice the covered
/// counters on the board), so that an engine in a match does not spend a core on it in
/// games that never get there; `repeatable`: the search must not depend on whether the
/// build has ended (see the module's comment).
fn usable_table(
    engine: &mut MangalaSearch,
    position: &Position,
    repeatable: bool,
) -> (Option<Arc<Table>>, String) {
    let skip = position.rules().skip_origin;
    if let Some(files) = &engine.files {
        if repeatable {
            // Its answer must not depend on how far the check of the large files got.
            files.wait_checked();
        }
        let dir = files.dir().display();
        let table = files.table(skip);
        let mut told = match &table {
            Some(table) => format!(
                "endgame tables: 2 to {} counters from {dir}",
                table.max_counters()
            ),
            None => format!("endgame tables: none, {dir} has none for this sowing rule"),
        };
        if let Some(up_to) = files.checking_up_to(skip) {
            told.push_str(&format!(
                ", up to {up_to} once their files' checksums are checked"
            ));
        }
        for refused in files.refused() {
            told.push_str(&format!(" (refused: {refused})"));
        }
        return (table, told);
    }
    let counters = engine.endgame_counters.min(endgame::MAX_IN_MEMORY);
    if counters < 2 {
        return (
            None,
            "endgame tables: none (Endgame Counters 0)".to_string(),
        );
    }
    let wanted = |b: &Arc<Building>| b.is_for(counters, skip);
    let on_board: usize = position.pits().iter().map(|&c| c as usize).sum();
    if !engine.built.as_ref().is_some_and(wanted) && on_board <= 2 * counters {
        engine.built = Some(endgame::build_in_background(counters, skip, 1));
        engine.waited = false;
    }
    let Some(building) = engine.built.as_ref().filter(|b| wanted(b)) else {
        let told = format!(
            "endgame tables: none yet, {counters} counters to be built in memory near the endgame"
        );
        return (None, told);
    };
    match building.ready() {
        Some(_) if repeatable && !engine.waited => (
            None,
            format!(
                "endgame tables: not used by a search bounded by depth or nodes alone, as \
                 they were built in the background ({counters} counters); EndgamePath gives them from files"
            ),
        ),
        Some(table) => (
            Some(table),
            format!("endgame tables: 2 to {counters} counters, built in memory"),
        ),
        None => (
            None,
            format!("endgame tables: {counters} counters being built in memory"),
        ),
    }
}

/// Whether the tables a search of `position` uses settle it, so that every line's
/// value is exact (a draw's 0 among them): as [`usable_table`] chooses them, from files
/// or built in memory (for a `repeatable` search only once waited for).
fn covers_exactly(engine: &MangalaSearch, position: &Position, repeatable: bool) -> bool {
    let skip = position.rules().skip_origin;
    let table = match &engine.files {
        Some(files) => files.table(skip),
        None => engine
            .built
            .as_ref()
            .filter(|b| {
                engine.endgame_counters >= 2
                    && (engine.waited || !repeatable)
                    && b.is_for(engine.endgame_counters, skip)
            })
            .and_then(|b| b.ready()),
    };
    let near_the_ply_limit = position
        .rules()
        .ply_limit
        .is_some_and(|limit| position.state().plies + PLY_LIMIT_MARGIN >= limit);
    !near_the_ply_limit
        && table.is_some_and(|t| t.probe(position.pits(), position.to_move()).is_some())
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
    type Search = MangalaSearch;
    /// The ladder of benches/README.md ("Strength levels"): 100 games a pair at
    /// 10+0.1, level 0 at 500, the differences made monotone.
    /// The settings space the levels equally between level 0 and full strength
    /// on that measured curve, refined above setting 17.6 by a second ladder of the
    /// top levels (`scripts/ladder space`).
    const LEVELS: LevelScale = LevelScale {
        nodes: (20, 100_000),
        settings: [
            0.00, 1.84, 4.35, 5.35, 7.08, 7.87, 8.47, 9.12, 10.17, 10.71, 11.50, 12.89, 14.16,
            15.16, 16.58, 17.52, 18.21, 18.92, 19.20, 19.61, 20.00,
        ],
        elo: [
            500, 578, 655, 733, 810, 888, 965, 1043, 1120, 1198, 1276, 1353, 1431, 1508, 1586,
            1663, 1741, 1818, 1896, 1973, 2051,
        ],
        unit: 100,
    };
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "6,6,6,6,6,6/6,6,6,6,6,6 S 0 0",
        "9,8,0,8,7,0/0,9,9,2,9,9 S 0 2",
        "3,0,5,1,0,2/4,1,0,7,2,1 N 24 22",
    ];
    const BENCH_DEPTH: u32 = 12;
    const ENGINE_OPTIONS: &'static [OptionSpec] = &[ENDGAME_COUNTERS, ENDGAME_PATH];

    fn new_search(hash_mib: usize) -> MangalaSearch {
        MangalaSearch {
            searcher: Searcher::new(hash_mib),
            endgame_counters: ENDGAME_COUNTERS.default_number() as usize,
            built: None,
            waited: false,
            files: None,
            told: None,
        }
    }

    fn prepare(engine: &mut MangalaSearch) -> Result<(), MemoryError> {
        engine.searcher.prepare()
    }

    fn clear(engine: &mut MangalaSearch) {
        engine.searcher.clear()
    }

    fn set_threads(engine: &mut MangalaSearch, threads: usize) {
        engine.searcher.set_threads(threads)
    }

    fn set_engine_option(
        engine: &mut MangalaSearch,
        name: &str,
        value: &OptionValue,
    ) -> Result<(), OptionError> {
        match value {
            OptionValue::Number(counters) if ENDGAME_COUNTERS.is_named(name) => {
                engine.endgame_counters = (*counters as usize).min(endgame::MAX_IN_MEMORY);
                Ok(())
            }
            OptionValue::Path(path) if ENDGAME_PATH.is_named(name) => {
                engine.files = match path {
                    Some(dir) => Some(TableFiles::open(dir).map_err(|e| {
                        OptionError::unusable(ENDGAME_PATH.name, &dir.display().to_string(), e)
                    })?),
                    None => None,
                };
                Ok(())
            }
            _ => Err(OptionError::UnknownEngine {
                game: Self::NAME,
                name: name.to_string(),
            }),
        }
    }

    fn wait_until_ready(engine: &mut MangalaSearch, position: &Position) {
        let (counters, skip) = (engine.endgame_counters, position.rules().skip_origin);
        if let Some(files) = &engine.files {
            files.wait_checked();
            return;
        }
        if counters < 2 {
            return;
        }
        let building = endgame::build_in_background(counters, skip, 2);
        building.wait();
        engine.built = Some(building);
        engine.waited = true;
    }

    fn tree_stats(engine: &Self::Search) -> Option<crate::search::TreeStats> {
        Some(engine.searcher.tree_stats())
    }

    fn chances_at(engine: &MangalaSearch, position: &Position, limits: &Limits) -> Chances {
        let on_board: u32 = position.pits().iter().map(|&c| u32::from(c)).sum();
        Chances::Logistic {
            model: super::eval::WDL_MODEL,
            material: f64::from(on_board) / f64::from(super::position::COUNTERS),
            exact: covers_exactly(engine, position, limits.repeatable()),
        }
    }

    fn think(
        engine: &mut MangalaSearch,
        position: &mut Position,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Move> {
        let (table, told) = usable_table(engine, position, limits.repeatable());
        if engine.told.as_ref() != Some(&told) {
            limits.note(&told);
            engine.told = Some(told);
        }
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
                let canonical = Position::NOTATIONS[0].notation;
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
                    wdl: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::depth_noting;

    fn engine_with(counters: u32) -> MangalaSearch {
        let mut engine = Position::new_search(1);
        let value = OptionValue::Number(counters);
        Position::set_engine_option(&mut engine, ENDGAME_COUNTERS.name, &value).unwrap();
        engine
    }

    /// Two engines of one process asking for different tables both keep theirs: each
    /// plays its covered root from its table (one node), with the other's built too.
    #[test]
    fn engines_with_different_counters_keep_their_own_tables() {
        let six = Position::from_fen("0,0,2,0,1,0/1,0,0,2,0,0 S 30 36").unwrap();
        let eight = Position::from_fen("0,0,2,0,1,0/1,2,0,2,0,0 S 30 34").unwrap();
        let (mut a, mut b) = (engine_with(6), engine_with(8));
        Position::wait_until_ready(&mut a, &six);
        Position::wait_until_ready(&mut b, &eight);
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        for _ in 0..2 {
            for (engine, position) in [(&mut a, &six), (&mut b, &eight)] {
                let result = Position::think(
                    engine,
                    &mut position.clone(),
                    &depth_noting(6, &told),
                    &mut |_| {},
                );
                assert_eq!(result.info.nodes, 1, "{}", position.fen());
            }
        }
        // Each engine told once which tables it uses.
        assert_eq!(
            *told.lock().unwrap(),
            [
                "endgame tables: 2 to 6 counters, built in memory",
                "endgame tables: 2 to 8 counters, built in memory"
            ]
        );
        // The process holds both builds: asked again, each is there at once.
        assert!(endgame::build_in_background(6, false, 1).ready().is_some());
        assert!(endgame::build_in_background(8, false, 1).ready().is_some());
    }

    /// A search bounded by depth alone gives the same answer whether the background
    /// build has ended or not: it does not use what it did not wait for.
    #[test]
    fn a_depth_search_does_not_depend_on_when_the_build_ends() {
        let position = Position::from_fen("0,3,2,0,1,0/1,2,0,2,0,1 S 26 34").unwrap();
        let mut engine = engine_with(12);
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut answers = Vec::new();
        // 20 runs while the build goes on (the first asks for it), then 5 after it.
        let mut after = 0;
        while after < 5 && answers.len() < 2_000 {
            let result = Position::think(
                &mut engine,
                &mut position.clone(),
                &depth_noting(7, &told),
                &mut |_| {},
            );
            answers.push((result.best_move, result.info.scores.clone()));
            let built = engine.built.as_ref().is_some_and(|b| b.ready().is_some());
            after += usize::from(built && answers.len() >= 20);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
        assert_eq!(after, 5, "the build did not end");
        let told = told.lock().unwrap();
        assert_eq!(told[0], "endgame tables: 12 counters being built in memory");
        assert!(
            told[1].contains("not used by a search bounded by depth"),
            "{told:?}"
        );
    }
}

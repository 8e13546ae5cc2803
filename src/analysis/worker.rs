//! One worker: takes turns from the queue and searches each on an engine of its own,
//! kept between turns of the same game and settings (its hash table carries over, as
//! in a game's analysis one turn helps the next).

use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::turns::{Queue, Turn};
use super::{DEFAULT_TIME_MS, Query, RootMoves, Settings};
use crate::engine::{Bounds, Engine, EngineError, Event, OptionScope, SearchRequest, WorkKind};
use crate::protocol::Writer;
use crate::search::{Info, Lines, Score, Wdl};

/// The engine a worker keeps, and what it was made for.
struct Kept {
    game: &'static str,
    overrides: Vec<(String, String)>,
    generation: u64,
    engine: Engine,
}

pub fn run(queue: &Queue, out: &Writer, settings: &Settings) {
    let mut kept: Option<Kept> = None;
    while let Some(turn) = queue.next() {
        let response = if turn.terminated.load(Ordering::SeqCst) {
            no_results(&turn)
        } else {
            let generation = queue.cache_generation.load(Ordering::SeqCst);
            let query = &turn.query;
            let fits = kept.as_ref().is_some_and(|k| {
                k.game == query.game && k.overrides == query.overrides && k.generation == generation
            });
            if !fits {
                kept = None;
                match engine_for(query, settings) {
                    Ok(engine) => {
                        kept = Some(Kept {
                            game: query.game,
                            overrides: query.overrides.clone(),
                            generation,
                            engine,
                        });
                    }
                    Err(e) => {
                        out.line(&turn_error(&turn, &e.to_string()).to_string());
                        continue;
                    }
                }
            }
            let engine = &mut kept.as_mut().expect("made above").engine;
            match analyse(engine, &turn, settings, out) {
                Ok(response) => response,
                Err(e) => turn_error(&turn, &e.to_string()),
            }
        };
        out.line(&response.to_string());
    }
}

fn engine_for(query: &Query, settings: &Settings) -> Result<Engine, EngineError> {
    let mut engine = Engine::new(
        vec![query.game],
        OptionScope::CurrentGame,
        Bounds::default(),
    );
    engine.set_option(crate::engine::HASH.name, &settings.hash_mib.to_string())?;
    for (name, value) in &query.overrides {
        engine.set_option(name, value)?;
    }
    Ok(engine)
}

fn no_results(turn: &Turn) -> Value {
    json!({"id": turn.query.id, "turnNumber": turn.ply, "isDuringSearch": false,
        "noResults": true})
}

fn turn_error(turn: &Turn, error: &str) -> Value {
    json!({"id": turn.query.id, "turnNumber": turn.ply, "error": error})
}

/// The root moves the turn's search may play, in the canonical notation; `None`: all.
fn root_moves(engine: &mut Engine, roots: &RootMoves) -> Result<Option<Vec<String>>, String> {
    let legal = engine.game().legal_moves(None).map_err(|e| e.to_string())?;
    let canonical = |engine: &mut Engine, list: &[String]| -> Vec<String> {
        list.iter()
            .filter_map(|m| engine.game().canonical_move(m).ok())
            .collect()
    };
    match roots {
        RootMoves::All => Ok(None),
        RootMoves::Allow(list) => {
            let allowed = canonical(engine, list);
            let kept: Vec<String> = legal.into_iter().filter(|m| allowed.contains(m)).collect();
            if kept.is_empty() {
                return Err("none of allowMoves is legal at this turn".into());
            }
            Ok(Some(kept))
        }
        RootMoves::Avoid(list) => {
            let avoided = canonical(engine, list);
            let kept: Vec<String> = legal.into_iter().filter(|m| !avoided.contains(m)).collect();
            if kept.is_empty() {
                return Err("avoidMoves leaves no legal move at this turn".into());
            }
            Ok(Some(kept))
        }
    }
}

fn analyse(
    engine: &mut Engine,
    turn: &Turn,
    settings: &Settings,
    out: &Writer,
) -> Result<Value, EngineError> {
    let query = &turn.query;
    engine.set_position(query.initial_position.as_deref(), &query.moves[..turn.ply])?;
    if engine.game().is_over() {
        return Ok(no_results(turn));
    }
    engine.set_option(crate::engine::MULTI_PV.name, &query.lines.to_string())?;
    let wdl = if query.include_wdl { "true" } else { "false" };
    engine.set_option("UCI_ShowWDL", wdl)?;
    let searchmoves = match root_moves(engine, &query.root_moves) {
        Ok(moves) => moves.unwrap_or_default(),
        Err(e) => return Ok(turn_error(turn, &e)),
    };
    let mut limits = query.limits;
    if limits == Default::default() {
        limits = settings.limits;
    }
    if limits == Default::default() {
        limits.time_ms = Some(DEFAULT_TIME_MS);
    }
    let request = SearchRequest {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits.time_ms.map(Duration::from_millis),
        searchmoves,
        ..SearchRequest::default()
    };
    let to_move = engine.game().to_move();
    engine.prepare_search()?;
    let (sender, events) = std::sync::mpsc::channel();
    engine.go(request, false, WorkKind::Search, move |event| {
        let _ = sender.send(event);
    })?;
    let mut lines = Lines::default();
    let every = query.report_every.map(Duration::from_secs_f64);
    let mut last_report = Instant::now();
    let mut stopped = false;
    loop {
        match events.recv_timeout(Duration::from_millis(20)) {
            Ok(Event::Info(info)) => lines.add(info),
            Ok(Event::Done(_)) | Err(RecvTimeoutError::Disconnected) => break,
            Ok(_) | Err(RecvTimeoutError::Timeout) => {}
        }
        if !stopped && turn.terminated.load(Ordering::SeqCst) {
            engine.stop();
            stopped = true;
        }
        if let Some(every) = every
            && last_report.elapsed() >= every
            && !lines.best().is_empty()
        {
            last_report = Instant::now();
            out.line(&response(turn, &to_move, lines.best(), true).to_string());
        }
    }
    engine.wait();
    Ok(response(turn, &to_move, lines.best(), false))
}

/// A score as KataGo-shaped fields: `scoreCp` or `mate` for two players; `scores`
/// (each player's, centi-units) for more.
fn score_fields(scores: &[Score], into: &mut serde_json::Map<String, Value>) {
    let value = |s: &Score| match s {
        Score::Centi(v) => json!(v),
        Score::Mate(n) => json!({"mate": n}),
    };
    match scores {
        [Score::Centi(v)] => {
            into.insert("scoreCp".into(), json!(v));
        }
        [Score::Mate(n)] => {
            into.insert("mate".into(), json!(n));
        }
        many => {
            into.insert(
                "scores".into(),
                Value::Array(many.iter().map(value).collect()),
            );
        }
    }
}

fn wdl_value(wdl: &Wdl) -> Value {
    match wdl {
        Wdl::TwoPlayer(w) => json!(w),
        Wdl::Players(p) => json!(p),
    }
}

fn response(turn: &Turn, to_move: &str, lines: &[Info], during: bool) -> Value {
    let move_infos: Vec<Value> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.pv.is_empty())
        .map(|(order, line)| {
            let mut info = serde_json::Map::new();
            info.insert("move".into(), json!(line.pv[0]));
            info.insert("order".into(), json!(order));
            score_fields(&line.scores, &mut info);
            if let Some(wdl) = &line.wdl {
                info.insert("wdl".into(), wdl_value(wdl));
            }
            info.insert("pv".into(), json!(line.pv));
            info.insert("depth".into(), json!(line.depth));
            info.insert("nodes".into(), json!(line.nodes));
            Value::Object(info)
        })
        .collect();
    let mut root = serde_json::Map::new();
    root.insert("toMove".into(), json!(to_move));
    if let Some(best) = lines.first() {
        root.insert("depth".into(), json!(best.depth));
        root.insert("seldepth".into(), json!(best.seldepth));
        let nodes = lines.iter().map(|l| l.nodes).max().unwrap_or(0);
        root.insert("nodes".into(), json!(nodes));
        root.insert("timeMs".into(), json!(best.time_ms));
        score_fields(&best.scores, &mut root);
        if let Some(wdl) = &best.wdl {
            root.insert("wdl".into(), wdl_value(wdl));
        }
    }
    json!({"id": turn.query.id, "turnNumber": turn.ply, "isDuringSearch": during,
        "moveInfos": move_infos, "rootInfo": root})
}

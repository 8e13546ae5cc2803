//! One worker: takes turns from the queue and searches each on an engine of its own,
//! kept between turns of the same game and settings (its hash table carries over, as
//! in a game's analysis one turn helps the next).

use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::response::{Response, turn_result};
use super::turns::{Queue, Turn};
use super::{DEFAULT_TIME_MS, Query, RootMoves, Settings, Sink};
use crate::engine::{Bounds, Engine, EngineError, Event, OptionScope, SearchRequest, WorkKind};
use crate::search::Lines;

/// The engine a worker keeps, and what it was made for.
struct Kept {
    game: &'static str,
    overrides: Vec<(String, String)>,
    generation: u64,
    engine: Engine,
}

pub fn run(queue: &Queue, out: &Sink, settings: &Settings) {
    let mut kept: Option<Kept> = None;
    while let Some(turn) = queue.next() {
        let response = if turn.terminated.load(Ordering::SeqCst) {
            Response::no_results(&turn.query.id, turn.ply)
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
                        out(turn_error(&turn, &e.to_string()));
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
        out(response);
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

fn turn_error(turn: &Turn, error: &str) -> Response {
    Response::Error {
        id: turn.query.id.clone(),
        turn: turn.ply,
        error: error.to_string(),
    }
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
    out: &Sink,
) -> Result<Response, EngineError> {
    let query = &turn.query;
    engine.set_position(query.initial_position.as_deref(), &query.moves[..turn.ply])?;
    if engine.game().is_over() {
        return Ok(Response::no_results(&query.id, turn.ply));
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
            let report = turn_result(&query.id, turn.ply, &to_move, lines.best(), true);
            out(Response::Turn(report));
        }
    }
    engine.wait();
    let result = turn_result(&query.id, turn.ply, &to_move, lines.best(), false);
    Ok(Response::Turn(result))
}

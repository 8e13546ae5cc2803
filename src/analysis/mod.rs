//! `ludus analysis`: analysis for scripts, in the shape of KataGo's analysis engine
//! (protocol-spec/analysis.md). One JSON query a line on the input (a game, the turns
//! to analyse, limits, root moves, per-query settings, a priority); one JSON response
//! a line on the output per analysed turn, as the turns finish.
//!
//! - `query`: reading and checking a line; nothing of a refused query runs;
//! - `turns`: the queue of turns waiting (highest priority first, then first come)
//!   and what terminates them;
//! - `worker`: one search at a time on an engine of its own;
//! - `response`: what a turn's analysis answers, typed (the output is these
//!   serialised);
//! - `review`: `ludus review`, a game judged move by move on the analysis of its
//!   positions.
//!
//! The input is read on its own thread; `threads` workers take turns from the queue,
//! so that a whole game is spread over them. The end of the input lets every turn
//! already asked for finish, as the line protocol does.

mod query;
mod response;
pub mod review;
mod turns;
mod worker;

pub use query::{
    LineError, MAX_DEPTH, MAX_ID, MAX_LINES, MAX_MOVES, MAX_NODES, MAX_OVERRIDES, MAX_TIME_MS,
    MAX_TURNS, Query, Request, RootMoves, TurnLimits, Warning, read,
};

pub use response::{MoveInfo, PlayerScore, Response, RootInfo, RootSearch, ScoreField, TurnResult};

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::json;

use crate::protocol::{Input, Writer, spawn_reader};
use turns::Queue;

/// How the command serves: its workers and the limits of a query that names none.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Searches run side by side.
    pub threads: usize,
    /// Limits of a turn whose query gives none of its own.
    pub limits: TurnLimits,
    /// Each worker's hash table, MiB.
    pub hash_mib: usize,
}

/// The limits when neither the query nor the command line gives one: a second a turn.
pub const DEFAULT_TIME_MS: u64 = 1_000;

/// Where the workers put their responses, as they come.
pub type Sink = dyn Fn(Response) + Send + Sync;

/// Analysis running: workers taking turns from a queue, answering into a sink.
pub struct Analysis {
    queue: Arc<Queue>,
    workers: Vec<JoinHandle<()>>,
}

impl Analysis {
    /// Starts `settings.threads` workers, which answer into `sink`.
    pub fn start(settings: &Settings, sink: Arc<Sink>) -> Analysis {
        let queue = Arc::new(Queue::default());
        let workers = (0..settings.threads.max(1))
            .map(|_| {
                let (queue, sink, settings) = (queue.clone(), sink.clone(), settings.clone());
                std::thread::spawn(move || worker::run(&queue, &*sink, &settings))
            })
            .collect();
        Analysis { queue, workers }
    }

    /// Queues every turn of `query`.
    pub fn push(&self, query: Query) {
        self.queue.push(query);
    }

    /// Stops the queries with the id `target` (their turns at `turns` only, if
    /// given): each stopped turn still answers.
    pub fn terminate(&self, target: &str, turns: Option<&[usize]>) {
        self.queue.terminate(target, turns);
    }

    /// Drops the workers' engines (and their hash tables) before the next turn.
    pub fn clear_cache(&self) {
        self.queue.clear_cache();
    }

    /// Lets every turn queued finish, then ends the workers.
    pub fn finish(self) {
        self.queue.close();
        for worker in self.workers {
            let _ = worker.join();
        }
    }
}

/// Analyses every turn of `queries` and returns the final answers (no reports during
/// the search), in the order they finished. `stop`, when raised by another thread,
/// terminates them all.
pub fn analyse(
    queries: Vec<Query>,
    settings: &Settings,
    stop: Option<&AtomicBool>,
) -> Vec<Response> {
    let answers = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let answers = answers.clone();
        Arc::new(move |r: Response| {
            if !r.is_during_search() {
                answers.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            }
        })
    };
    let ids: Vec<String> = queries.iter().map(|q| q.id.clone()).collect();
    let analysis = Analysis::start(settings, sink);
    for query in queries {
        analysis.push(query);
    }
    let queue = analysis.queue.clone();
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(stop) = stop {
            scope.spawn(|| {
                while !finished.load(Ordering::SeqCst) {
                    if stop.load(Ordering::SeqCst) {
                        for id in &ids {
                            queue.terminate(id, None);
                        }
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            });
        }
        analysis.finish();
        finished.store(true, Ordering::SeqCst);
    });
    std::mem::take(&mut *answers.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Serves queries from `input` until its end and every turn asked for has answered.
pub fn serve(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
) {
    let out = Writer::new(output);
    let sink = {
        let out = out.clone();
        Arc::new(move |r: Response| out.line(&json!(r).to_string()))
    };
    let analysis = Analysis::start(&settings, sink);
    let lines = spawn_reader(input);
    let mut number = 0usize;
    for item in lines {
        number += 1;
        let text = match item {
            Input::End => break,
            Input::TooLong { length, .. } => {
                let error = format!(
                    "the line is {length} bytes long; at most {} are read",
                    crate::protocol::MAX_LINE
                );
                out.line(&json!({"error": error, "line": number}).to_string());
                continue;
            }
            Input::Line(bytes) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    let error = "the line is not UTF-8";
                    out.line(&json!({"error": error, "line": number}).to_string());
                    continue;
                }
            },
        };
        if text.trim().is_empty() {
            continue;
        }
        match read(&text) {
            Err(LineError::NotJson(why)) => {
                let error = format!("not a JSON object: {why}");
                out.line(&json!({"error": error, "line": number}).to_string());
            }
            Err(LineError::Field { id, field, error }) => {
                out.line(&json!({"id": id, "error": error, "field": field}).to_string());
            }
            Ok((request, warnings)) => {
                let id = match &request {
                    Request::Analyse(q) => q.id.clone(),
                    Request::Terminate { id, .. }
                    | Request::QueryVersion { id }
                    | Request::ClearCache { id } => id.clone(),
                };
                for w in warnings {
                    let warning = "unknown field, ignored";
                    out.line(&json!({"id": id, "warning": warning, "field": w.field}).to_string());
                }
                answer(request, &analysis, &out);
            }
        }
    }
    analysis.finish();
}

fn answer(request: Request, analysis: &Analysis, out: &Writer) {
    match request {
        Request::Analyse(query) => analysis.push(query),
        Request::Terminate { id, target, turns } => {
            analysis.terminate(&target, turns.as_deref());
            let mut reply = json!({"id": id, "action": "terminate", "terminateId": target});
            if let Some(turns) = turns {
                reply["turnNumbers"] = json!(turns);
            }
            out.line(&reply.to_string());
        }
        Request::QueryVersion { id } => {
            let reply = json!({"id": id, "action": "query_version",
                "version": env!("CARGO_PKG_VERSION")});
            out.line(&reply.to_string());
        }
        Request::ClearCache { id } => {
            analysis.clear_cache();
            out.line(&json!({"id": id, "action": "clear_cache"}).to_string());
        }
    }
}

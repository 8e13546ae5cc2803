//! `ludus analysis`: analysis for scripts, in the shape of KataGo's analysis engine
//! (protocol-spec/analysis.md). One JSON query a line on the input (a game, the turns
//! to analyse, limits, root moves, per-query settings, a priority); one JSON response
//! a line on the output per analysed turn, as the turns finish.
//!
//! - `query`: reading and checking a line; nothing of a refused query runs;
//! - `turns`: the queue of turns waiting (highest priority first, then first come)
//!   and what terminates them;
//! - `worker`: one search at a time on an engine of its own, and the responses;
//! - `review`: how `ludus review` judges a move from the analysis around it.
//!
//! The input is read on its own thread; `threads` workers take turns from the queue,
//! so that a whole game is spread over them. The end of the input lets every turn
//! already asked for finish, as the line protocol does.

mod query;
pub mod review;
mod turns;
mod worker;

pub use query::{
    LineError, MAX_DEPTH, MAX_ID, MAX_LINES, MAX_MOVES, MAX_NODES, MAX_OVERRIDES, MAX_TIME_MS,
    MAX_TURNS, Query, Request, RootMoves, TurnLimits, Warning, read,
};

use std::io::{Read, Write};
use std::sync::Arc;

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

/// Serves queries from `input` until its end and every turn asked for has answered.
pub fn serve(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
) {
    let out = Writer::new(output);
    let queue = Arc::new(Queue::default());
    let workers: Vec<_> = (0..settings.threads.max(1))
        .map(|_| {
            let (queue, out, settings) = (queue.clone(), out.clone(), settings.clone());
            std::thread::spawn(move || worker::run(&queue, &out, &settings))
        })
        .collect();
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
                answer(request, &queue, &out);
            }
        }
    }
    queue.close();
    for worker in workers {
        let _ = worker.join();
    }
}

fn answer(request: Request, queue: &Queue, out: &Writer) {
    match request {
        Request::Analyse(query) => queue.push(query),
        Request::Terminate { id, target } => {
            queue.terminate(&target);
            let reply = json!({"id": id, "action": "terminate", "terminateId": target});
            out.line(&reply.to_string());
        }
        Request::QueryVersion { id } => {
            let reply = json!({"id": id, "action": "query_version",
                "version": env!("CARGO_PKG_VERSION")});
            out.line(&reply.to_string());
        }
        Request::ClearCache { id } => {
            queue.clear_cache();
            out.line(&json!({"id": id, "action": "clear_cache"}).to_string());
        }
    }
}

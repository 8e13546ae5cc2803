//! The order in which requests are served: one rule for the native protocol and every
//! dialect (protocol-spec/protocol.md, "Order of answers").
//!
//! - Requests are served in the order they arrive. A request that needs the game while
//!   work runs (a search, a count, `genmove`) waits for the work to end, and every
//!   request after it waits behind it.
//! - `isready` and `ping` need no game: beside a search started by `go` they are served
//!   as soon as they arrive, even if requests wait (a GUI checks that the engine is
//!   alive while it thinks; a search answers on its own, so nothing comes out of order).
//!   `quit` too, when nothing waits before it. Beside work whose answer is its reply
//!   (`genmove`, a count) they wait like any request, `quit` included.
//! - A line that is not a request (too long, not UTF-8) needs no game either, but its
//!   refusal is an answer like any other: it is given in its turn.
//! - `stop` acts on the running work at once: a search gives its move, a count ends
//!   early with a reply that says so. If a request that starts work waits before it,
//!   the stop is meant for that work (a script piped at once gets the same answers
//!   whatever the timing): it acts as soon as that work has started. Running work that
//!   only a stop would end (an infinite search, pondering) is stopped at once all the
//!   same, since no stop could reach it otherwise.
//! - `ponderhit` acts on the running search at once.
//! - A `stop` or `ponderhit` that acts at once while answers are still owed before it
//!   (requests that wait, or work whose answer is its reply) gives its own answer in
//!   its turn, after those: answers come in the order of the requests.
//! - A client that hangs up (a closed WebSocket of `ludus serve`) is owed nothing: its
//!   work is stopped, the requests still waiting are dropped and the session ends.
//! - End of input means the script is complete: everything read is served in order, as
//!   if the input were still open; a search with a limit runs to it, one that only a
//!   `stop` would end is stopped and gives its move; then the session ends.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use super::io::{Input, MAX_LINE};
use crate::engine::{Engine, WorkKind};

/// How a request relates to running work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Needs the game: served when no work runs, in order.
    Ordered,
    /// Needs the game and starts work (`go`, `genmove`, a count).
    Work,
    /// Needs no game (`isready`, `ping`): served at once beside a `go` search.
    Beside,
    /// `quit`: served beside a `go` search when nothing waits before it.
    Quit,
    /// Needs no game but is answered in its turn: served beside a `go` search when
    /// nothing waits before it (a line that is not a request; an answer held back).
    InTurn,
    /// Acts on the running work at once (`stop`; every CECP command); when work waits
    /// to start before it, once that work has started.
    Stop,
    /// `ponderhit`: acts on the running search at once, as [`Kind::Stop`] does, but
    /// ends nothing.
    Hit,
}

/// Whether the session goes on after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A line as the session hands it to the dialect.
pub enum Line {
    Text(String),
    /// A line that is not a request: too long or not UTF-8. `problem` says which;
    /// `text` is the line with its invalid bytes replaced (for a line too long, its
    /// first bytes), so that a dialect can still answer with the request's id.
    Unreadable {
        problem: String,
        text: Option<String>,
    },
    /// The answer of a request that already acted ([`FrontEnd::act`]), to be given in
    /// its turn.
    Answer(String),
}

/// One protocol's requests, served by [`run`].
pub trait FrontEnd {
    fn engine(&mut self) -> &mut Engine;
    /// How the request on this line relates to running work.
    fn kind(&self, line: &str) -> Kind;
    /// Serves one request. An [`Kind::Ordered`] one is only given when no work runs.
    fn serve(&mut self, line: &str) -> Flow;
    /// Answers a line that is not a request (`text`: see [`Line::Unreadable`]).
    fn unreadable(&mut self, problem: &str, text: Option<&str>);
    /// Does at once what a [`Kind::Stop`] request does to the running work, and gives
    /// the answer it owes, to be sent in its turn by [`FrontEnd::answer`]; `None`: the
    /// dialect serves the request whole as it arrives (CECP, whose commands have no
    /// answers to keep in order).
    fn act(&mut self, _line: &str) -> Option<String> {
        None
    }
    /// Sends an answer that [`FrontEnd::act`] gave.
    fn answer(&mut self, _text: &str) {}
    /// Whether the client has gone, so that nothing more is to be served.
    fn hung_up(&self) -> bool {
        false
    }
    /// How soon the dialect wants [`FrontEnd::poll`] called when no request comes
    /// (CECP, to start pondering once its move is out); `None`: not at all.
    fn poll_every(&self) -> Option<Duration> {
        None
    }
    /// Called while no request comes, every [`FrontEnd::poll_every`].
    fn poll(&mut self) {}
}

/// How long the loop waits for input before it looks again whether the work that
/// requests wait for has ended.
const POLL: Duration = Duration::from_millis(1);

/// Serves `first` (if given) and then every line from `lines`, by the rule above, until
/// `quit` or the end of input and of the work it leaves.
pub fn run(dialect: &mut impl FrontEnd, first: Option<Input>, lines: &Receiver<Input>) {
    let mut waiting: VecDeque<(Kind, Line)> = VecDeque::new();
    let mut ended = false;
    let mut first = first;
    loop {
        if dialect.hung_up() {
            dialect.engine().stop();
            return;
        }
        // Serve, in order, whatever the running work lets through.
        while let Some((kind, _)) = waiting.front() {
            if dialect.hung_up() {
                break;
            }
            if !admits(dialect.engine().running(), *kind) {
                break;
            }
            let (_, line) = waiting.pop_front().expect("a request waits");
            if serve(dialect, line) == Flow::Quit {
                return;
            }
        }
        // A stop that waited for work to start acts once it has, even while requests
        // before it wait for that work (which the stop ends); its answer keeps its turn.
        if act_when_due(dialect, &mut waiting) {
            continue;
        }
        if ended {
            let engine = dialect.engine();
            if engine.endless() {
                // Only a stop would end it, and no stop can come any more.
                engine.stop();
            } else if engine.busy() {
                // Waits in steps, so that a client hanging up is noticed.
                engine.wait_for(POLL * 20);
            } else if waiting.is_empty() {
                return;
            }
            continue;
        }
        let message = match first.take() {
            Some(message) => message,
            None if waiting.is_empty() => match dialect.poll_every() {
                None => lines.recv().unwrap_or(Input::End),
                Some(every) => match lines.recv_timeout(every) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => {
                        dialect.poll();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => Input::End,
                },
            },
            None => match lines.recv_timeout(POLL) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => Input::End,
            },
        };
        let (kind, line) = match message {
            Input::End => {
                ended = true;
                continue;
            }
            Input::TooLong { length, head } => (
                Kind::InTurn,
                Line::Unreadable {
                    problem: format!("line too long: {length} bytes (at most {MAX_LINE})"),
                    text: Some(String::from_utf8_lossy(&head).into_owned()),
                },
            ),
            Input::Line(bytes) => match String::from_utf8(bytes) {
                Ok(text) => (dialect.kind(&text), Line::Text(text)),
                Err(e) => (
                    Kind::InTurn,
                    Line::Unreadable {
                        problem: "invalid UTF-8 in the request".into(),
                        text: Some(String::from_utf8_lossy(e.as_bytes()).into_owned()),
                    },
                ),
            },
        };
        if matches!(kind, Kind::Stop | Kind::Hit) {
            if waiting.iter().any(|(k, _)| *k == Kind::Work) {
                // Meant for the work that waits (see `act_when_due`).
                waiting.push_back((kind, line));
                continue;
            }
            let owed = !waiting.is_empty() || dialect.engine().running() == Some(WorkKind::Reply);
            if owed
                && let Line::Text(text) = &line
                && let Some(answer) = dialect.act(text)
            {
                waiting.push_back((Kind::InTurn, Line::Answer(answer)));
                continue;
            }
        }
        let now = match kind {
            Kind::Stop | Kind::Hit => true,
            Kind::Beside => admits(dialect.engine().running(), kind),
            Kind::Ordered | Kind::Work | Kind::Quit | Kind::InTurn => {
                waiting.is_empty() && admits(dialect.engine().running(), kind)
            }
        };
        if !now {
            waiting.push_back((kind, line));
        } else if serve(dialect, line) == Flow::Quit {
            return;
        }
    }
}

/// Lets the first `stop` or `ponderhit` that waits act, once no work waits to start
/// before it (see [`FrontEnd::act`]); while work waits before a `stop`, running work
/// that only a stop would end is stopped, or it would hold that work, and the stop,
/// for ever. Whether anything was done.
fn act_when_due(dialect: &mut impl FrontEnd, waiting: &mut VecDeque<(Kind, Line)>) -> bool {
    if waiting.iter().any(|(k, _)| *k == Kind::Stop) && dialect.engine().endless() {
        dialect.engine().stop();
        return true;
    }
    let Some(at) = waiting
        .iter()
        .position(|(k, _)| matches!(k, Kind::Stop | Kind::Hit))
    else {
        return false;
    };
    if waiting.iter().take(at).any(|(k, _)| *k == Kind::Work) {
        return false;
    }
    let answer = match &waiting[at].1 {
        Line::Text(text) => dialect.act(text),
        _ => None,
    };
    match answer {
        Some(answer) => {
            waiting[at] = (Kind::InTurn, Line::Answer(answer));
            true
        }
        None => false,
    }
}

fn serve(dialect: &mut impl FrontEnd, line: Line) -> Flow {
    match line {
        Line::Text(text) => dialect.serve(&text),
        Line::Unreadable { problem, text } => {
            dialect.unreadable(&problem, text.as_deref());
            Flow::Continue
        }
        Line::Answer(text) => {
            dialect.answer(&text);
            Flow::Continue
        }
    }
}

/// Whether a request of `kind` may be served while `running` runs.
fn admits(running: Option<WorkKind>, kind: Kind) -> bool {
    matches!(
        (running, kind),
        (None, _)
            | (_, Kind::Stop | Kind::Hit)
            | (
                Some(WorkKind::Search),
                Kind::Beside | Kind::Quit | Kind::InTurn
            )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_may_be_served_beside_running_work() {
        let search = Some(WorkKind::Search);
        let reply = Some(WorkKind::Reply);
        assert!(admits(None, Kind::Ordered));
        assert!(admits(None, Kind::Work));
        assert!(!admits(search, Kind::Ordered));
        assert!(!admits(search, Kind::Work));
        assert!(admits(search, Kind::Beside));
        assert!(admits(search, Kind::Quit));
        assert!(!admits(reply, Kind::Beside));
        assert!(!admits(reply, Kind::Quit));
        assert!(admits(search, Kind::InTurn));
        assert!(!admits(reply, Kind::InTurn));
        assert!(admits(reply, Kind::Stop));
        assert!(admits(search, Kind::Stop));
    }
}

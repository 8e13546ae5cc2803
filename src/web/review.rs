//! `POST /review`: the board's review of a game (protocol-spec/serve.md, "Review"), on
//! the analysis's review (protocol-spec/analysis.md, "Review").
//!
//! A review is heavy work: it takes a session's place (of all and of the asker's
//! address) while it runs, searches on one thread, and is cut short at the server's
//! limit on work, as a search is. The request names the game, its start and its moves
//! as the page plays them; the answer is the review's JSON.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::{Server, refuse};
use crate::analysis::review::{Source, review_game};
use crate::analysis::{Settings, TurnLimits};

/// The largest request, bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The most moves a reviewed game may have.
pub const MAX_MOVES: usize = 2_000;
/// Nodes of each position's search when the request names none, and their bounds.
pub const DEFAULT_NODES: u64 = 30_000;
pub const NODES: std::ops::RangeInclusive<u64> = 1_000..=1_000_000;

/// What the page asks.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    game: String,
    /// The position text the moves start from; absent or null: the game's start.
    #[serde(default)]
    start: Option<String>,
    moves: Vec<String>,
    #[serde(default)]
    nodes: Option<u64>,
}

fn bad_request(why: &str) -> Response {
    refuse(StatusCode::BAD_REQUEST, why)
}

pub async fn review(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(refused) = server.check_page(&headers) {
        return refused.into_response();
    }
    let request: Request = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(e) => return bad_request(&format!("not a review request: {e}")),
    };
    if request.moves.len() > MAX_MOVES {
        return bad_request(&format!(
            "the game has {} moves; at most {MAX_MOVES} are reviewed",
            request.moves.len()
        ));
    }
    let nodes = request.nodes.unwrap_or(DEFAULT_NODES);
    if !NODES.contains(&nodes) {
        return bad_request(&format!(
            "nodes {nodes}: from {} to {}",
            NODES.start(),
            NODES.end()
        ));
    }
    let place = match server.take_session_place(peer) {
        Ok(place) => place,
        Err(busy) => return busy.into_response(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let settings = Settings {
        threads: 1,
        limits: TurnLimits {
            nodes: Some(nodes),
            ..TurnLimits::default()
        },
        hash_mib: 16,
    };
    let work = {
        let stop = stop.clone();
        tokio::task::spawn_blocking(move || {
            let source = Source::Moves(&request.moves);
            let start = request.start.as_deref();
            let reviewed = review_game(&request.game, start, source, &settings, Some(&stop));
            drop(place);
            reviewed
        })
    };
    tokio::pin!(work);
    let limit = server.options.work_limit;
    let (reviewed, cut_short) = match tokio::time::timeout(limit, &mut work).await {
        Ok(done) => (done, false),
        Err(_) => {
            stop.store(true, Ordering::SeqCst);
            (work.await, true)
        }
    };
    let reviewed = match reviewed {
        Ok(Ok(reviewed)) => reviewed,
        Ok(Err(e)) => return bad_request(&e.to_string()),
        Err(e) => {
            log::error!("a review failed: {e}");
            return refuse(StatusCode::INTERNAL_SERVER_ERROR, "the review failed");
        }
    };
    let mut answer = serde_json::json!(reviewed);
    answer["cutShort"] = serde_json::json!(cut_short);
    ([(header::CACHE_CONTROL, "no-store")], axum::Json(answer)).into_response()
}

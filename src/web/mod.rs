//! `ludus serve`: a board for the three games in the browser.
//!
//! An HTTP server (axum, on tokio) gives one page, embedded in the binary, and a
//! WebSocket at `/ws`. Every WebSocket is one engine session of the native protocol
//! (protocol-spec/protocol.md), served by [`crate::protocol::serve_native`] on threads of its
//! own: the page is one more client of the documented protocol. A text message from the
//! page is one or more request lines; every message the session writes (a reply, an
//! `info` line, a `bestmove`) goes back as one text message.
//!
//! What keeps it safe to run (protocol-spec/serve.md):
//! - it listens on loopback unless told otherwise, and on loopback it answers only
//!   requests whose `Host` names loopback, so that a web page cannot reach it by a
//!   name of its own that resolves to 127.0.0.1 (DNS rebinding);
//! - a WebSocket whose `Origin` is not this server's own is refused: any web page could
//!   otherwise drive a local engine;
//! - messages, sessions, a session's search time and its hash table are bounded, and so
//!   are the requests a session holds for its page and the replies the page has not
//!   read: past a bound the socket is closed with its reason, never the server;
//! - a closed socket ends its session: its search is stopped and its threads end.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::Semaphore;

use crate::engine::{Bounds, Engine, EngineError, OptionScope};
use std::sync::Mutex;

mod peers;
mod review;
mod session;

use peers::PerPeer;

pub use session::{MAX_MESSAGE, MAX_UNREAD, MAX_WAITING, MAX_WAITING_BYTES};

/// The page and what it loads, all in the binary (the page needs no network).
const INDEX_HTML: &str = include_str!("page/index.html");
/// The page's script: ES modules, one a concern, `main.js` the one the page loads
/// (its header lists the others); served at `/js/<name>`.
const PAGE_MODULES: &[(&str, &str)] = &[
    ("analysis.js", include_str!("page/js/analysis.js")),
    ("board.js", include_str!("page/js/board.js")),
    ("clicking.js", include_str!("page/js/clicking.js")),
    ("clocks.js", include_str!("page/js/clocks.js")),
    ("dragging.js", include_str!("page/js/dragging.js")),
    ("ending.js", include_str!("page/js/ending.js")),
    ("engine.js", include_str!("page/js/engine.js")),
    ("games.js", include_str!("page/js/games.js")),
    ("history.js", include_str!("page/js/history.js")),
    ("keyboard.js", include_str!("page/js/keyboard.js")),
    ("main.js", include_str!("page/js/main.js")),
    ("panels.js", include_str!("page/js/panels.js")),
    ("persistence.js", include_str!("page/js/persistence.js")),
    ("premoves.js", include_str!("page/js/premoves.js")),
    ("record.js", include_str!("page/js/record.js")),
    ("review.js", include_str!("page/js/review.js")),
    ("sound.js", include_str!("page/js/sound.js")),
    ("state.js", include_str!("page/js/state.js")),
    ("thinking.js", include_str!("page/js/thinking.js")),
];
const LUDUS_CSS: &str = include_str!("page/ludus.css");
const FAVICON_SVG: &str = include_str!("page/favicon.svg");

/// How `ludus serve` runs.
#[derive(Clone, Debug)]
pub struct Options {
    pub listen: SocketAddr,
    /// Sessions (open WebSockets) at once; one more is refused.
    pub sessions: usize,
    /// A search or count of a session is stopped after this long.
    pub work_limit: Duration,
    /// The largest `Hash` a session may set, in MiB.
    pub hash_mib: usize,
    /// The largest value of an engine option that builds tables (Mangala II's
    /// `Endgame Counters`).
    pub build_limit: u32,
    /// The options naming files on this machine, by name, that every session gets and
    /// none may change (`--endgame-path`: `EndgamePath`).
    pub fixed_paths: Vec<(String, String)>,
    /// Connections one address may have open at once (of [`MAX_CONNECTIONS`]).
    pub peer_connections: usize,
    /// Sessions one address may have open at once; `None`: all of them when the
    /// server listens on loopback (where every tab comes from one address), else half.
    pub peer_sessions: Option<usize>,
    /// A session with no request and no work for this long is closed (never before
    /// its work's limit, `work_limit`).
    pub idle_limit: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            sessions: 8,
            work_limit: Duration::from_secs(60),
            hash_mib: 256,
            build_limit: 14,
            fixed_paths: Vec::new(),
            peer_connections: 16,
            peer_sessions: None,
            idle_limit: Duration::from_secs(600),
        }
    }
}

struct Server {
    options: Options,
    /// Where the server listens (the port chosen when 0 was asked for).
    address: SocketAddr,
    sessions: Arc<Semaphore>,
    /// The sessions of each address.
    peer_sessions: Arc<PerPeer>,
    /// An engine with the fixed paths set, which keeps their files open between
    /// sessions (the engines of a process share them while one holds them).
    _keeps_files_open: Option<Mutex<Engine>>,
}

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    Runtime(std::io::Error),
    Listen {
        address: SocketAddr,
        error: std::io::Error,
    },
    Address(std::io::Error),
    /// A fixed path's option refused its value.
    Path(EngineError),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Runtime(e) => write!(f, "cannot start the server's runtime: {e}"),
            ServeError::Listen { address, error } => {
                write!(f, "cannot listen on {address}: {error}")
            }
            ServeError::Address(e) => write!(f, "cannot read the address listened on: {e}"),
            ServeError::Path(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ServeError {}

/// Serves until the process is ended; `ready` is told the address once it listens.
pub fn run(options: Options, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let keeps_files_open = if options.fixed_paths.is_empty() {
        None
    } else {
        let served = crate::engine::games_served(|_| true);
        let mut engine = Engine::new(served, OptionScope::ServedGames, Bounds::default());
        for (name, value) in &options.fixed_paths {
            engine.set_option(name, value).map_err(ServeError::Path)?;
        }
        Some(Mutex::new(engine))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .map_err(|error| ServeError::Listen {
                address: options.listen,
                error,
            })?;
        let address = listener.local_addr().map_err(ServeError::Address)?;
        if !address.ip().is_loopback() {
            log::warn!(
                "listening on {address}, beyond loopback: anyone who can reach it can play, \
                 and the Host check against DNS rebinding is off"
            );
        }
        let peer_connections = PerPeer::new(options.peer_connections);
        let peer_sessions = options
            .peer_sessions
            .unwrap_or(if address.ip().is_loopback() {
                options.sessions
            } else {
                options.sessions.div_ceil(2)
            });
        let server = Arc::new(Server {
            sessions: Arc::new(Semaphore::new(options.sessions)),
            peer_sessions: PerPeer::new(peer_sessions),
            options,
            address,
            _keeps_files_open: keeps_files_open,
        });
        ready(address);
        let app = Router::new()
            .route("/", get(index))
            .route("/js/{module}", get(script))
            .route("/ludus.css", get(style))
            .route("/favicon.svg", get(favicon))
            .route("/favicon.ico", get(favicon))
            .route("/sessions", get(sessions))
            .route("/rules/{game}", get(rules))
            .route("/ws", get(socket))
            .route(
                "/review",
                axum::routing::post(review::review)
                    .layer(axum::extract::DefaultBodyLimit::max(review::MAX_BODY)),
            )
            .layer(axum::middleware::map_response(with_safety_headers))
            .with_state(server);
        accept(listener, app, peer_connections).await;
        Ok(())
    })
}

/// Connections open at once; one more is closed as soon as it is accepted. Tabs hold
/// one or two each, and every session one more for its WebSocket.
pub const MAX_CONNECTIONS: usize = 128;
/// A connection whose client takes nothing of what it is sent for this long (a
/// response, a WebSocket message) is closed, so that a client that does not read
/// cannot hold a place.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection that has not sent a whole request header this long after it opened
/// (or after its last response) is closed, so that half-open connections cannot hold
/// the server's places.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves every connection with the app, at most [`MAX_CONNECTIONS`] at once and
/// `peer_connections` of one address, each with the [`HEADER_TIMEOUT`] and the
/// [`WRITE_TIMEOUT`]. (axum's own `serve` has none of these bounds.)
async fn accept(listener: tokio::net::TcpListener, app: Router, peer_connections: Arc<PerPeer>) {
    let places = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(connection) => connection,
            Err(e) => {
                // Out of file descriptors, say: wait a little rather than spin.
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(peer_place) = peer_connections.take(peer.ip()) else {
            log::info!(
                "closed a connection from {peer}: its address has all {} it may open",
                peer_connections.limit()
            );
            continue;
        };
        let Ok(place) = places.clone().try_acquire_owned() else {
            log::info!("closed a connection from {peer}: all {MAX_CONNECTIONS} are open");
            continue;
        };
        // A client that does not read fails the writes after the timeout, which ends
        // the connection; a WebSocket keeps it after its upgrade.
        let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
        stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let service = hyper_util::service::TowerToHyperService::new(
            app.clone().layer(axum::Extension(ConnectInfo(peer))),
        );
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(Box::pin(stream)), service)
                .with_upgrades();
            if let Err(e) = connection.await {
                log::debug!("connection from {peer}: {e}");
            }
            // An upgraded connection (a WebSocket) leaves here at its upgrade: the
            // sessions' own bounds hold it from then on.
            drop((place, peer_place));
        });
    }
}

/// What every response carries: the page may not be framed by another site (whose
/// framed page would pass the Host and Origin checks), nor load or connect anywhere
/// but here.
async fn with_safety_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; \
             frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
    response
}

/// Whether `host` (a `Host` header: name or address, then maybe a port) names the
/// loopback interface.
fn names_loopback(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A session's place: one of the server's and one of its address's, given back when
/// dropped (the session ends, or a review is done).
pub(crate) struct SessionPlace {
    _of_all: tokio::sync::OwnedSemaphorePermit,
    _of_peer: peers::Place,
}

impl Server {
    /// Refuses a request that a page may not make: its `Host` (check_host) or its
    /// `Origin` (check_origin).
    fn check_page(&self, headers: &HeaderMap) -> Result<(), Forbidden> {
        self.check_host(headers)
            .and_then(|()| self.check_origin(headers))
    }

    /// Takes a session's place for `peer`, or says why not: the address holds all it
    /// may, or the server does.
    fn take_session_place(&self, peer: SocketAddr) -> Result<SessionPlace, Busy> {
        let Some(of_peer) = self.peer_sessions.take(peer.ip()) else {
            return Err(Busy(format!(
                "all {} sessions one address may have are in use; close a tab and try again",
                self.peer_sessions.limit()
            )));
        };
        let Ok(of_all) = self.sessions.clone().try_acquire_owned() else {
            return Err(Busy(format!(
                "all {} sessions are in use; close a tab and try again",
                self.options.sessions
            )));
        };
        Ok(SessionPlace {
            _of_all: of_all,
            _of_peer: of_peer,
        })
    }

    /// Refuses a request whose `Host` is not loopback when the server listens there.
    fn check_host(&self, headers: &HeaderMap) -> Result<(), Forbidden> {
        if !self.address.ip().is_loopback() {
            return Ok(());
        }
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        match host {
            Some(host) if names_loopback(host) => Ok(()),
            _ => Err(Forbidden(
                "this server answers only requests addressed to loopback",
            )),
        }
    }

    /// Refuses a WebSocket opened by a page of another origin. A request without an
    /// `Origin` comes from a program, not a browser page, and may connect.
    fn check_origin(&self, headers: &HeaderMap) -> Result<(), Forbidden> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let own = host.map(|h| format!("http://{h}"));
        match (origin.to_str(), own) {
            (Ok(origin), Some(own)) if origin.eq_ignore_ascii_case(&own) => Ok(()),
            _ => Err(Forbidden(
                "a WebSocket from a page of another origin is refused",
            )),
        }
    }
}

/// A request refused with 503 Service Unavailable for want of a session's place, and why.
struct Busy(String);

impl IntoResponse for Busy {
    fn into_response(self) -> Response {
        refuse(StatusCode::SERVICE_UNAVAILABLE, &self.0)
    }
}

/// A request refused with 403 Forbidden, and why.
struct Forbidden(&'static str);

impl IntoResponse for Forbidden {
    fn into_response(self) -> Response {
        refuse(StatusCode::FORBIDDEN, self.0)
    }
}

fn refuse(status: StatusCode, why: &str) -> Response {
    log::info!("refused: {why}");
    (status, format!("{why}\n")).into_response()
}

fn asset(headers: &HeaderMap, server: &Server, kind: &'static str, body: &'static str) -> Response {
    if let Err(refused) = server.check_host(headers) {
        return refused.into_response();
    }
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    asset(&headers, &server, "text/html; charset=utf-8", INDEX_HTML)
}

async fn script(
    State(server): State<Arc<Server>>,
    axum::extract::Path(module): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Response {
    match PAGE_MODULES.iter().find(|(name, _)| *name == module) {
        Some((_, body)) => asset(&headers, &server, "text/javascript; charset=utf-8", body),
        None => refuse(StatusCode::NOT_FOUND, "no such script"),
    }
}

async fn style(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    asset(&headers, &server, "text/css; charset=utf-8", LUDUS_CSS)
}

async fn favicon(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    asset(&headers, &server, "image/svg+xml", FAVICON_SVG)
}

/// A game's whole rules as ludus plays them (markdown, read as plain text), for the
/// page's "how to play"; the game is named by the path, as `describe` names it.
async fn rules(
    State(server): State<Arc<Server>>,
    axum::extract::Path(game): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = server.check_host(&headers) {
        return refused.into_response();
    }
    match crate::games::rules_text(&game) {
        Some(text) => asset(&headers, &server, "text/plain; charset=utf-8", text),
        None => refuse(StatusCode::NOT_FOUND, "no game is called so"),
    }
}

/// How many sessions are open and how many may be, of all and of the asker's address: a
/// page whose WebSocket was refused asks, since a browser does not tell a page why its
/// WebSocket failed.
async fn sessions(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = server.check_host(&headers) {
        return refused.into_response();
    }
    let limit = server.options.sessions;
    let open = limit - server.sessions.available_permits();
    let peer_limit = server.peer_sessions.limit();
    let peer_open = server.peer_sessions.held_by(peer.ip());
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(serde_json::json!({
            "open": open,
            "limit": limit,
            "peer_open": peer_open,
            "peer_limit": peer_limit,
        })),
    )
        .into_response()
}

async fn socket(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if let Err(refused) = server.check_page(&headers) {
        return refused.into_response();
    }
    let place = match server.take_session_place(peer) {
        Ok(place) => place,
        Err(busy) => return busy.into_response(),
    };
    let bounds = Bounds {
        work: Some(server.options.work_limit),
        hash_mib: server.options.hash_mib,
        // Sessions share the machine: each searches on one thread.
        threads: 1,
        build_limit: Some(server.options.build_limit),
        hang_up: None,
        fixed_paths: Some(server.options.fixed_paths.clone()),
    };
    // Work runs at most its limit and ends with a message: no shorter idle limit cuts
    // it short.
    let idle = server.options.idle_limit.max(server.options.work_limit);
    // The socket reads a little more than a message may hold, so that the session can
    // tell a too-big message from a broken socket and close with the code that says so.
    upgrade
        .max_message_size(2 * MAX_MESSAGE)
        .max_frame_size(2 * MAX_MESSAGE)
        .on_upgrade(move |socket| session::run(socket, peer, bounds, idle, place))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_told_from_others() {
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST:1",
            "127.0.0.1:8080",
            "127.1.2.3",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(names_loopback(host), "{host}");
        }
        for host in [
            "example.com",
            "example.com:8080",
            "localhost.example.com:8080",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
        ] {
            assert!(!names_loopback(host), "{host}");
        }
    }
}

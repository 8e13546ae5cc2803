//! `ludus serve` from outside: the page and its assets, the WebSocket sessions of the
//! native protocol, and what keeps the server safe (protocol-spec/serve.md).

mod common;

use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::Server;

use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// How a test opens a session.
trait Connect {
    fn connect(&self, origin: Option<&str>) -> Result<Session, tungstenite::Error>;
}

impl Connect for Server {
    /// Opens a session with the given Origin (none: as a program would).
    fn connect(&self, origin: Option<&str>) -> Result<Session, tungstenite::Error> {
        self.open_session(TcpStream::connect(&self.address).unwrap(), origin)
    }
}

impl Server {
    /// A session over `stream`, a connection to this server.
    fn open_session(
        &self,
        stream: TcpStream,
        origin: Option<&str>,
    ) -> Result<Session, tungstenite::Error> {
        let mut request = format!("ws://{}/ws", self.address)
            .into_client_request()
            .unwrap();
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("Origin", origin.parse().unwrap());
        }
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        match tungstenite::client(request, MaybeTlsStream::Plain(stream)) {
            Ok((socket, _)) => Ok(Session(socket)),
            Err(tungstenite::HandshakeError::Failure(e)) => Err(e),
            Err(tungstenite::HandshakeError::Interrupted(_)) => unreachable!("a blocking stream"),
        }
    }

    /// A connection to this server from the loopback address `local` (127.0.0.2, say:
    /// Linux takes every 127.x.y.z as its own), as another machine would come.
    fn stream_from(&self, local: &str) -> TcpStream {
        use socket2::{Domain, Socket, Type};
        let server: SocketAddr = self.address.parse().unwrap();
        let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
        socket
            .bind(&SocketAddr::new(local.parse().unwrap(), 0).into())
            .unwrap();
        socket.connect(&server.into()).unwrap();
        socket.into()
    }

    /// A raw HTTP/1.1 GET of `/` from `local`: the status code, or `None` if the
    /// server closed the connection without one.
    fn get_from(&self, local: &str) -> Option<u16> {
        use std::io::{Read, Write};
        let mut stream = self.stream_from(local);
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .ok()?;
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        std::str::from_utf8(response.get(9..12)?).ok()?.parse().ok()
    }

    /// A line of the server's /proc/<pid>/status, in bytes (`VmHWM`: its peak resident
    /// memory so far).
    fn memory(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status
            .lines()
            .find(|line| line.starts_with(field))
            .unwrap_or_else(|| panic!("{field} in {status}"));
        let kib: u64 = line[field.len() + 1..]
            .trim()
            .trim_end_matches(" kB")
            .parse()
            .unwrap();
        kib * 1024
    }

    /// Watches the server's peak memory for `wait` and gives it; a server past 1 GiB is
    /// ended at once (the attack got through: the test fails, the machine is spared).
    fn peak_memory_within(&mut self, wait: Duration) -> u64 {
        let started = Instant::now();
        loop {
            let peak = self.memory("VmHWM:");
            if peak > 1 << 30 {
                let _ = self.child.kill();
                panic!("the server took {} MiB", peak >> 20);
            }
            if started.elapsed() >= wait {
                return peak;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    /// The sockets the server has open (its listener among them).
    fn sockets(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .unwrap()
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .filter(|target| target.to_string_lossy().starts_with("socket:"))
            .count()
    }
}

struct Session(WebSocket<MaybeTlsStream<TcpStream>>);

impl Session {
    fn send(&mut self, text: &str) {
        self.0.send(Message::text(text)).unwrap();
    }

    /// The next message the session writes.
    fn receive(&mut self) -> String {
        loop {
            match self.0.read().expect("a message") {
                Message::Text(text) => return text.to_string(),
                Message::Close(_) => panic!("the session closed"),
                _ => {}
            }
        }
    }

    /// Reads until the server closes the socket: the close frame's code and reason.
    fn closed(&mut self) -> (u16, String) {
        loop {
            match self.0.read() {
                Ok(Message::Close(Some(frame))) => {
                    return (u16::from(frame.code), frame.reason.to_string());
                }
                Ok(Message::Close(None)) => panic!("closed without a code"),
                Ok(_) => {}
                Err(e) => panic!("closed without a close frame: {e}"),
            }
        }
    }

    /// Reads until the server closes the socket at a bound: code 1008 ("policy
    /// violation"), with a reason that names the bound.
    fn closed_at_bound(&mut self, bound: &str) {
        let (code, reason) = self.closed();
        assert_eq!(code, 1008, "{reason}");
        assert!(reason.contains(bound), "{reason}");
    }

    /// Sends a request with an id and gives its reply, skipping `info` lines.
    fn request(&mut self, id: u32, command: &str) -> String {
        self.send(&format!("{id} {command}"));
        loop {
            let message = self.receive();
            if message.starts_with(&format!("={id}")) || message.starts_with(&format!("?{id}")) {
                return message;
            }
        }
    }
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/", &server.address);
    assert_eq!(status, 200);
    assert!(
        page.contains("<script type=\"module\" src=\"/js/main.js\">"),
        "{page}"
    );
    // Every module the page's script imports is served, the session's among them.
    let scripts = page_scripts(&server);
    assert!(scripts.len() > 10, "{:?}", scripts.keys());
    assert!(scripts["/js/engine.js"].contains("new WebSocket"));
    assert_eq!(server.get("/js/nothing.js", &server.address).0, 404);
    let (status, style) = server.get("/ludus.css", &server.address);
    assert_eq!(status, 200);
    assert!(style.contains("#board"));
    // The icon, at the name the page links and at the name browsers ask for unasked.
    assert!(page.contains("href=\"/favicon.svg\""), "{page}");
    for icon in ["/favicon.svg", "/favicon.ico"] {
        let (status, svg) = server.get(icon, &server.address);
        assert_eq!(status, 200, "{icon}");
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{icon}: {e}"));
    }
    assert_eq!(server.get("/nothing", &server.address).0, 404);
}

/// The page learns the games from the server (`games`, `describe`): nothing in it names
/// a game, by its name or its title, so that a new game needs no page edit.
#[test]
fn the_page_names_no_game() {
    let server = Server::start(&[]);
    let mut names = Vec::new();
    let mut texts: Vec<(String, String)> = page_scripts(&server).into_iter().collect();
    for path in ["/", "/ludus.css"] {
        let (status, text) = server.get(path, &server.address);
        assert_eq!(status, 200, "{path}");
        texts.push((path.to_string(), text));
    }
    let pages = texts.len();
    for (path, text) in texts {
        let text = text.to_lowercase();
        for &game in ludus::games::NAMES {
            let title = ludus::games::descriptor(game).unwrap().title;
            for name in [game.to_string(), title.to_lowercase()] {
                assert!(!text.contains(&name), "{path} names {name}");
                names.push(name);
            }
        }
    }
    assert_eq!(names.len(), pages * 2 * ludus::games::NAMES.len());
}

/// The page's script as served: `/js/main.js` and every module it imports, by path.
fn page_scripts(server: &Server) -> std::collections::BTreeMap<String, String> {
    let mut scripts = std::collections::BTreeMap::new();
    let mut waiting = vec!["/js/main.js".to_string()];
    while let Some(path) = waiting.pop() {
        if scripts.contains_key(&path) {
            continue;
        }
        let (status, text) = server.get(&path, &server.address);
        assert_eq!(status, 200, "{path}");
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let module = line
                .rsplit("from './")
                .next()
                .unwrap()
                .trim_end_matches("';");
            waiting.push(format!("/js/{module}"));
        }
        scripts.insert(path, text);
    }
    scripts
}

#[test]
fn the_address_to_listen_on_may_name_its_host() {
    let server = Server::start(&["--listen", "localhost:0"]);
    let (status, _) = server.get("/", "localhost");
    assert_eq!(status, 200, "served at {}", server.address);
}

#[test]
fn a_request_for_a_name_that_is_not_loopback_is_refused() {
    // A page of evil.example whose name was made to resolve to 127.0.0.1.
    let server = Server::start(&[]);
    let port = server.address.rsplit(':').next().unwrap().to_string();
    assert_eq!(server.get("/", &format!("evil.example:{port}")).0, 403);
    assert_eq!(server.get("/", &format!("localhost:{port}")).0, 200);
}

#[test]
fn a_websocket_from_a_page_of_another_origin_is_refused() {
    let server = Server::start(&[]);
    match server.connect(Some("http://evil.example")) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        Err(e) => panic!("refused with 403, not {e}"),
        Ok(_) => panic!("a foreign origin was let in"),
    }
    let mut own = server.connect(Some(&server.own_origin())).unwrap();
    assert_eq!(own.request(1, "name"), "=1 ludus\n\n");
}

#[test]
fn each_session_keeps_its_own_game() {
    let server = Server::start(&[]);
    let mut first = server.connect(None).unwrap();
    let mut second = server.connect(None).unwrap();
    assert_eq!(first.request(1, "game mangala"), "=1\n\n");
    assert_eq!(first.request(2, "play F"), "=2 F\n\n");
    assert_eq!(second.request(1, "play i3h5"), "=1 i3h5\n\n");
    assert_eq!(
        first.request(3, "fen"),
        "=3 6,6,6,6,6,0/7,7,7,7,7,7 N 0 0\n\n"
    );
    assert_eq!(second.request(2, "to_move"), "=2 black\n\n");
}

#[test]
fn bad_messages_get_errors_and_the_session_goes_on() {
    let server = Server::start(&[]);
    let mut session = server.connect(None).unwrap();
    // Longer than the protocol's line limit, shorter than the socket's message limit.
    session.send(&"x".repeat(ludus::protocol::MAX_LINE + 10));
    let refusal = session.receive();
    assert!(refusal.starts_with("? line too long"), "{refusal}");
    session
        .0
        .send(Message::binary(vec![0xff, 0x00, 0x01]))
        .unwrap();
    let refusal = session.receive();
    assert!(refusal.starts_with("? a binary message"), "{refusal}");
    assert!(
        session
            .request(1, "play z99z99")
            .starts_with("?1 unreadable move")
    );
    assert!(
        session
            .request(2, "frobnicate")
            .starts_with("?2 unknown command")
    );
    // Two requests in one message: two replies, in order.
    session.send("3 name\n4 to_move");
    assert_eq!(session.receive(), "=3 ludus\n\n");
    assert_eq!(session.receive(), "=4 white\n\n");
    assert!(session.request(5, "fen").starts_with("=5 3nenrn3/"));
}

#[test]
fn a_closed_socket_ends_its_session_and_its_threads() {
    let server = Server::start(&[]);
    // The server is idle: its threads are the runtime's.
    let mut idle = server.connect(None).unwrap();
    assert_eq!(idle.request(1, "name"), "=1 ludus\n\n");
    idle.0.close(None).unwrap();
    drop(idle);
    std::thread::sleep(Duration::from_millis(500));
    let before = server.threads();
    let mut session = server.connect(None).unwrap();
    session.send("1 go infinite");
    assert_eq!(session.receive(), "=1\n\n");
    assert!(session.receive().starts_with("info "), "the search runs");
    assert!(
        server.threads() > before,
        "the session has threads of its own"
    );
    session.0.close(None).unwrap();
    drop(session);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.threads() > before {
        assert!(
            Instant::now() < deadline,
            "{} threads left, {before} before the session",
            server.threads()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sessions_are_bounded_in_number_and_in_search_time() {
    let server = Server::start(&[
        "--sessions",
        "2",
        "--think-limit",
        "1",
        "--hash-limit",
        "32",
    ]);
    let mut first = server.connect(None).unwrap();
    let _second = server.connect(None).unwrap();
    match server.connect(None) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        Err(e) => panic!("refused with 503, not {e}"),
        Ok(_) => panic!("a third session was let in"),
    }
    // The page asks why, as a browser does not tell it.
    let host = server.address.clone();
    assert_eq!(
        server.get("/sessions", &host),
        (
            200,
            r#"{"limit":2,"open":2,"peer_limit":2,"peer_open":2}"#.to_string()
        )
    );
    let started = Instant::now();
    first.send("1 go infinite");
    let mut notices = Vec::new();
    loop {
        let message = first.receive();
        if message.starts_with("info string") {
            notices.push(message.clone());
        }
        if message.starts_with("bestmove ") {
            break;
        }
    }
    let took = started.elapsed();
    // The client is told why its search ended, and a count says so in its refusal.
    assert_eq!(
        notices,
        ["info string stopped at this session's limit of 1 s on a search or count\n"]
    );
    assert_eq!(
        first.request(4, "perft 12"),
        "?4 stopped at this session's limit of 1 s on a search or count, before the count was complete\n\n"
    );
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "{took:?}"
    );
    assert!(
        first
            .request(2, "setoption name Hash value 64")
            .starts_with("?2 Hash is at most 32 MiB")
    );
    assert_eq!(first.request(3, "setoption name Hash value 32"), "=3\n\n");
}

/// The CPU time the server process has used so far (user and system).
fn cpu_time(server: &Server) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", server.child.id())).unwrap();
    // The fields after the command's closing parenthesis; utime and stime are the 12th
    // and 13th of them, in clock ticks (100 a second on Linux).
    let fields: Vec<u64> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Duration::from_millis((fields[11] + fields[12]) * 10)
}

/// A hostile client: one message of many long counts and searches, then a close. The
/// work it queued is dropped with it: the only session is free again within a second
/// and the server goes idle.
#[test]
fn a_closed_socket_drops_its_queued_work_and_frees_its_session() {
    let server = Server::start(&["--sessions", "1", "--think-limit", "30"]);
    let mut hostile = server.connect(None).unwrap();
    let burst: String = (0..10)
        .map(|i| format!("{i} perft 12\n"))
        .chain(["20 go infinite\n".into(), "21 genmove depth 40\n".into()])
        .collect();
    hostile.send(&burst);
    std::thread::sleep(Duration::from_millis(300));
    hostile.0.close(None).unwrap();
    drop(hostile);
    let closed = Instant::now();
    let mut fresh = loop {
        match server.connect(None) {
            Ok(session) => break session,
            Err(_) if closed.elapsed() < Duration::from_secs(1) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!("no session within 1 s of the close: {e}"),
        }
    };
    assert_eq!(fresh.request(1, "name"), "=1 ludus\n\n");
    let before = cpu_time(&server);
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_time(&server) - before;
    assert!(
        used < Duration::from_millis(200),
        "the server still works: {used:?} CPU in 1 s"
    );
}

/// Reads a raw HTTP response's head (status line and headers).
fn head(server: &Server, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(&server.address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.address
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .to_ascii_lowercase()
}

/// A page of another site that frames the board would pass the Host and Origin checks
/// (its frame is this server's own page): every response forbids framing.
#[test]
fn no_page_may_frame_the_board() {
    let server = Server::start(&[]);
    for path in ["/", "/js/main.js", "/nothing"] {
        let head = head(&server, path);
        assert!(head.contains("\r\nx-frame-options: deny"), "{path}: {head}");
        assert!(head.contains("frame-ancestors 'none'"), "{path}: {head}");
        assert!(
            head.contains("\r\nx-content-type-options: nosniff"),
            "{path}: {head}"
        );
    }
}

/// A message beyond the bound closes the socket with 1009 ("message too big"), as
/// serve.md says; the server serves the next tab.
#[test]
fn a_message_too_big_is_closed_with_code_1009() {
    let server = Server::start(&[]);
    let mut session = server.connect(None).unwrap();
    session.send(&"x".repeat(ludus::web::MAX_MESSAGE + 1));
    assert_eq!(session.closed().0, 1009);
    let mut fresh = server.connect(None).unwrap();
    assert_eq!(fresh.request(1, "name"), "=1 ludus\n\n");
}

/// A flood of half-open connections (half a request header each): those beyond the
/// cap are closed at once, the rest after the header timeout, and then a fresh tab is
/// served within a second.
#[test]
fn half_open_connections_are_capped_and_timed_out() {
    use std::io::{Read, Write};
    let server = Server::start(&[]);
    let started = Instant::now();
    let mut flood: Vec<TcpStream> = (0..200)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0").unwrap();
            stream
        })
        .collect();
    // Whether the server has closed a connection (EOF or reset), waiting at most `wait`.
    let closed = |stream: &mut TcpStream, wait: Duration| {
        stream.set_read_timeout(Some(wait)).unwrap();
        let mut byte = [0u8; 1];
        match stream.read(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        }
    };
    let mut at_once = 0;
    for stream in flood.iter_mut() {
        at_once += usize::from(closed(stream, Duration::from_millis(20)));
    }
    assert!(
        at_once >= 200 - ludus::web::MAX_CONNECTIONS,
        "{at_once} of 200 closed at once"
    );
    let timeout = ludus::web::HEADER_TIMEOUT;
    for stream in flood.iter_mut() {
        let left = (timeout + Duration::from_secs(3)).saturating_sub(started.elapsed());
        assert!(
            closed(stream, left.max(Duration::from_millis(1))),
            "a half-open connection is still open after {:?}",
            started.elapsed()
        );
    }
    let after = Instant::now();
    let mut fresh = server.connect(Some(&server.own_origin())).unwrap();
    assert_eq!(fresh.request(1, "name"), "=1 ludus\n\n");
    assert!(
        after.elapsed() < Duration::from_secs(1),
        "{:?}",
        after.elapsed()
    );
}

/// The tables a session may have built are bounded (they are the process's, shared by
/// all sessions), and the options a session lists say the bounds it has.
#[test]
fn a_session_may_not_ask_for_tables_beyond_the_limit() {
    let server = Server::start(&["--table-limit", "12", "--hash-limit", "32"]);
    let mut session = server.connect(None).unwrap();
    assert_eq!(session.request(1, "game mangala"), "=1\n\n");
    let refusal = session.request(2, "setoption name Endgame Counters value 18");
    assert_eq!(
        refusal,
        "?2 Endgame Counters is at most 12 in this session, not 18\n\n"
    );
    assert_eq!(
        session.request(3, "setoption name Endgame Counters value 12"),
        "=3\n\n"
    );
    let options = session.request(4, "list_options");
    assert!(
        options.contains("option name Endgame Counters type spin default 12 min 0 max 12"),
        "{options}"
    );
    assert!(
        options.contains("option name Hash type spin default 32 min 1 max 32"),
        "{options}"
    );
}

/// A session may not name files on the server: `EndgamePath` is the server's
/// (`--endgame-path`), and a session that tries to set it is refused.
#[test]
fn the_endgame_path_is_the_servers() {
    let dir = common::table_files("serve-tables", 4);
    let server = Server::start(&["--endgame-path", dir.to_str().unwrap()]);
    let mut session = server.connect(None).unwrap();
    assert_eq!(session.request(1, "game mangala"), "=1\n\n");
    assert_eq!(
        session.request(2, "setoption name EndgamePath value /etc"),
        "?2 \"EndgamePath\" names files on the server, which only the server sets in this session\n\n"
    );
    assert_eq!(
        session.request(3, "position fen 0,0,2,0,0,0/1,0,0,1,0,0 S 30 38"),
        "=3\n\n"
    );
    session.send("4 go depth 3");
    let told = session.receive();
    assert!(told.starts_with("=4"), "{told}");
    let canonical = std::fs::canonicalize(&dir).unwrap();
    let note = session.receive();
    assert_eq!(
        note,
        format!(
            "info string endgame tables: 2 to 4 counters from {}\n",
            canonical.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The server's peak memory under an attack (said, so that a run shows it) stays
/// within 64 MiB of what it held before.
fn assert_small(attack: &str, before: u64, peak: u64) {
    eprintln!(
        "{attack}: {} MiB before, a peak of {} MiB",
        before >> 20,
        peak >> 20
    );
    assert!(peak < before + (64 << 20), "{attack}: {} MiB", peak >> 20);
}

/// The requests a session holds for its client are bounded. Behind a long count,
/// requests wait for their turn: a message that would take those waiting for their
/// replies beyond the bound in number (2 MiB of `ping` lines, an attack that once took
/// 406 MiB) or in bytes (lines of a megabyte) closes the socket with 1008 and a reason
/// that names the bound. The server stays small, and another session goes on.
#[test]
fn requests_waiting_beyond_the_bound_close_the_socket() {
    let mut server = Server::start(&["--think-limit", "30"]);
    let mut other = server.connect(None).unwrap();
    assert_eq!(other.request(1, "name"), "=1 ludus\n\n");
    let before = server.memory("VmRSS:");
    let mut pings = server.connect(None).unwrap();
    pings.send("1 perft 12");
    let message = "ping\n".repeat(ludus::web::MAX_MESSAGE / 5);
    for _ in 0..10 {
        if pings.0.send(Message::text(message.clone())).is_err() {
            break;
        }
    }
    let peak = server.peak_memory_within(Duration::from_secs(2));
    pings.closed_at_bound(&format!("{} requests", ludus::web::MAX_WAITING));
    let mut long = server.connect(None).unwrap();
    long.send("1 perft 12");
    let line = format!("play {}", "a".repeat(ludus::protocol::MAX_LINE - 10));
    for _ in 0..8 {
        if long.0.send(Message::text(line.clone())).is_err() {
            break;
        }
    }
    let peak = peak.max(server.peak_memory_within(Duration::from_secs(2)));
    long.closed_at_bound(&format!("{} bytes", ludus::web::MAX_WAITING_BYTES));
    assert_small("requests waiting", before, peak);
    assert_eq!(other.request(2, "name"), "=2 ludus\n\n");
}

/// The output a session holds for a client that does not read is bounded: past the
/// bound the socket is closed with 1008 and a reason that names it (an attack of
/// `diagram svg` lines once grew the server until the allocator ended it). The server
/// stays small, and another session goes on.
#[test]
fn a_client_that_does_not_read_is_closed_at_the_output_bound() {
    let mut server = Server::start(&[]);
    let mut other = server.connect(None).unwrap();
    assert_eq!(other.request(1, "name"), "=1 ludus\n\n");
    let before = server.memory("VmRSS:");
    // A client that takes little at a time and then reads nothing.
    let stream = {
        use socket2::{Domain, Socket, Type};
        let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let address: SocketAddr = server.address.parse().unwrap();
        socket.connect(&address.into()).unwrap();
        TcpStream::from(socket)
    };
    let mut hostile = server.open_session(stream, None).unwrap();
    hostile.send(&"diagram svg\n".repeat(ludus::web::MAX_WAITING));
    let peak = server.peak_memory_within(Duration::from_secs(2));
    hostile.closed_at_bound(&format!("{} bytes", ludus::web::MAX_UNREAD));
    assert_small("output not read", before, peak);
    assert_eq!(other.request(2, "name"), "=2 ludus\n\n");
}

/// Once an attack from 127.0.0.1 is under way, a GET from 127.0.0.2 is answered within a
/// second; when it was asked.
fn another_address_is_served_at_once(server: &Server) -> Instant {
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    assert_eq!(server.get_from("127.0.0.2"), Some(200));
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    asked
}

/// Clients of one address that ask for the script again and again and read nothing
/// (each pipelining requests on every connection it may open) hold no place that
/// another address needs, and are dropped after the write timeout.
#[test]
fn clients_that_do_not_read_are_dropped_and_leave_places_for_others() {
    use std::io::Write;
    let server = Server::start(&[]);
    let listening = server.sockets();
    let requests = format!(
        "GET /js/main.js HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    )
    .repeat(200);
    let flood: Vec<TcpStream> = (0..ludus::web::MAX_CONNECTIONS)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            let _ = stream.write_all(requests.as_bytes());
            stream
        })
        .collect();
    let asked = another_address_is_served_at_once(&server);
    let deadline = asked + ludus::web::WRITE_TIMEOUT + Duration::from_secs(5);
    while server.sockets() > listening {
        assert!(
            Instant::now() < deadline,
            "{} connections still open",
            server.sockets() - listening
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(flood);
}

/// Idle connections of one address (as many as the server takes) leave places for
/// another address.
#[test]
fn idle_connections_of_one_address_leave_places_for_others() {
    let server = Server::start(&[]);
    let _flood: Vec<TcpStream> = (0..ludus::web::MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    another_address_is_served_at_once(&server);
}

/// One address may not hold every session: another address still gets one.
#[test]
fn one_address_cannot_hold_every_session() {
    let server = Server::start(&["--sessions", "3", "--peer-sessions", "2"]);
    let _first = server.connect(None).unwrap();
    let _second = server.connect(None).unwrap();
    match server.connect(None) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        Err(e) => panic!("refused with 503, not {e}"),
        Ok(_) => panic!("a third session of one address was let in"),
    }
    let mut newcomer = server
        .open_session(server.stream_from("127.0.0.2"), None)
        .unwrap();
    assert_eq!(newcomer.request(1, "name"), "=1 ludus\n\n");
    // The page asks why its socket was refused.
    assert_eq!(
        server.get("/sessions", &server.address),
        (
            200,
            r#"{"limit":3,"open":3,"peer_limit":2,"peer_open":2}"#.to_string()
        )
    );
}

/// A session with no request and no work for the idle limit is closed with its reason,
/// and its place is free again; one whose work runs is not idle.
#[test]
fn an_idle_session_is_closed_and_frees_its_place() {
    let server = Server::start(&["--sessions", "1", "--idle-limit", "2", "--think-limit", "2"]);
    let mut session = server.connect(None).unwrap();
    let started = Instant::now();
    session.send("1 perft 12");
    let reply = session.receive();
    assert!(
        reply.starts_with("?1 stopped at this session's limit"),
        "{reply}"
    );
    let replied = Instant::now();
    let (code, reason) = session.closed();
    let idle = replied.elapsed();
    assert_eq!(code, 1000, "{reason}");
    assert!(reason.contains("2 s"), "{reason}");
    assert!(
        idle > Duration::from_millis(1500) && idle < Duration::from_secs(5),
        "closed {idle:?} after its last reply, {:?} after it opened",
        started.elapsed()
    );
    let mut fresh = server.connect(None).unwrap();
    assert_eq!(fresh.request(1, "name"), "=1 ludus\n\n");
}

/// `POST /review` (serve.md): the review's JSON for a game the page sends; every bad
/// request refused with its reason; a page of another origin refused.
#[test]
fn a_review_is_answered_and_bad_requests_are_refused() {
    let server = Server::start(&[]);
    let origin = server.own_origin();
    let (status, body) = server.post(
        "/review",
        r#"{"game": "mangala", "moves": ["C", "d", "F", "a"], "nodes": 20000}"#,
        Some(&origin),
    );
    assert_eq!(status, 200, "{body}");
    let review: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(review["cutShort"], false);
    assert_eq!(review["moves"][2]["mark"], "blunder", "{review}");
    assert_eq!(review["chances"].as_array().unwrap().len(), 5, "{review}");
    for (request, why) in [
        (r#"{"game": "chess", "moves": []}"#, "no game is called"),
        (
            r#"{"game": "mangala", "moves": ["C", "d", "Q"]}"#,
            "moves[2]",
        ),
        (
            r#"{"game": "mangala", "moves": [], "nodes": 5}"#,
            "from 1000 to 1000000",
        ),
        (
            r#"{"game": "mangala", "moves": [], "depth": 5}"#,
            "unknown field",
        ),
        (
            r#"{"game": "mangala", "start": "9,9/9 S", "moves": []}"#,
            "starting position",
        ),
        ("C d F a", "not a review request"),
    ] {
        let (status, body) = server.post("/review", request, Some(&origin));
        assert_eq!(status, 400, "{request}: {body}");
        assert!(body.contains(why), "{request}: {body}");
    }
    let (status, _) = server.post(
        "/review",
        r#"{"game": "mangala", "moves": []}"#,
        Some("http://evil.example"),
    );
    assert_eq!(status, 403);
}

/// A review longer than the server's limit on work is cut short and says so.
#[test]
fn a_review_past_the_think_limit_is_cut_short() {
    let server = Server::start(&["--think-limit", "1"]);
    use ludus::game::Game;
    use ludus::games::senamukha::Position;
    let path = format!(
        "{}/tests/data/senamukha/game1.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let replay =
        ludus::record::replay(Position::start(), &std::fs::read_to_string(path).unwrap()).unwrap();
    let mut position = Position::start();
    let moves: Vec<String> = replay.moves[..40]
        .iter()
        .map(|&mv| {
            let text = position.format_move(mv, Position::NOTATIONS[0].notation);
            position.play(mv);
            text
        })
        .collect();
    let body = serde_json::json!({"game": "senamukha", "moves": moves, "nodes": 1_000_000});
    let started = Instant::now();
    let (status, body) = server.post("/review", &body.to_string(), None);
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let review: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(review["cutShort"], true, "{review}");
    assert_eq!(review["moves"].as_array().unwrap().len(), 40);
}

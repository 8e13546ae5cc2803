//! One page's engine session: the native protocol over a WebSocket, on threads of its
//! own, within the bounds that keep one client from taking the server's memory:
//! the requests that wait for their replies, and the replies the page has not read.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;

use crate::engine::Bounds;
use crate::protocol;

/// A message from the page longer than this closes its socket (WebSocket close code
/// 1009, "message too big"); lines longer than the protocol's own limit are refused by
/// the protocol.
pub const MAX_MESSAGE: usize = 2 * protocol::MAX_LINE;
/// Requests of a session that wait for their replies (behind a count, say) at most: a
/// message that would make more closes the socket (1008). A page has a few at a time.
pub const MAX_WAITING: usize = 1024;
/// The bytes of the requests that wait for their replies, at most (two whole messages).
pub const MAX_WAITING_BYTES: usize = 2 * MAX_MESSAGE;
/// The bytes of the messages a session wrote that its page has not read yet, at most
/// (a page that reads holds none): one more closes the socket (1008).
pub const MAX_UNREAD: usize = 2 * MAX_MESSAGE;
/// After its close frame, how long a session waits for the client's, reading (and
/// dropping) what it still sends, so that the client reads the reason.
const CLOSING: Duration = Duration::from_secs(1);

/// The WebSocket close codes (RFC 6455, 7.4.1).
const NORMAL: u16 = 1000;
const POLICY_VIOLATION: u16 = 1008;
const MESSAGE_TOO_BIG: u16 = 1009;

/// Why a session was closed by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closed {
    /// A message beyond [`MAX_MESSAGE`].
    TooBig,
    /// More than [`MAX_WAITING`] requests would wait for their replies.
    Requests,
    /// More than [`MAX_WAITING_BYTES`] of requests would wait for their replies.
    RequestBytes,
    /// More than [`MAX_UNREAD`] bytes of output would wait for the page to read them.
    Unread,
    /// No request and no work for this long.
    Idle(Duration),
}

impl Closed {
    fn frame(self) -> CloseFrame {
        let (code, reason) = match self {
            Closed::TooBig => (
                MESSAGE_TOO_BIG,
                format!("a message is at most {MAX_MESSAGE} bytes"),
            ),
            Closed::Requests => (
                POLICY_VIOLATION,
                format!("more than {MAX_WAITING} requests waiting for their replies"),
            ),
            Closed::RequestBytes => (
                POLICY_VIOLATION,
                format!(
                    "more than {MAX_WAITING_BYTES} bytes of requests waiting for their replies"
                ),
            ),
            Closed::Unread => (
                POLICY_VIOLATION,
                format!("more than {MAX_UNREAD} bytes of replies not read"),
            ),
            Closed::Idle(idle) => (
                NORMAL,
                format!("no request and no work for {} s", idle.as_secs()),
            ),
        };
        CloseFrame {
            code,
            reason: reason.into(),
        }
    }
}

/// The requests a session was sent that wait for their replies: how many, and a bound
/// on their bytes. A reply does not say which request it answers (`ping` is answered
/// beside a search, before requests sent earlier), so each is taken to answer the
/// shortest request waiting: the bytes counted are never fewer than the bytes waiting.
#[derive(Debug, Default)]
struct Waiting {
    lengths: BinaryHeap<Reverse<usize>>,
    bytes: usize,
}

impl Waiting {
    /// Counts a request of `length` bytes, unless it would take the waiting beyond a
    /// bound.
    fn ask(&mut self, length: usize) -> Result<(), Closed> {
        if self.lengths.len() >= MAX_WAITING {
            return Err(Closed::Requests);
        }
        if self.bytes + length > MAX_WAITING_BYTES {
            return Err(Closed::RequestBytes);
        }
        self.lengths.push(Reverse(length));
        self.bytes += length;
        Ok(())
    }

    /// A reply came.
    fn answered(&mut self) {
        if let Some(Reverse(length)) = self.lengths.pop() {
            self.bytes -= length;
        }
    }

    fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }
}

/// The request lines of a message from the page, for the session, each counted as
/// waiting for its reply: every line the session gets has one (see
/// protocol-spec/protocol.md), so blank lines, which have none, are left out. Each line
/// ends with a line end. The byte-order mark some editors put before the first line is
/// taken off the session's first request (`first`), as the protocol would.
fn requests(text: &str, first: &mut bool, waiting: &mut Waiting) -> Result<Vec<u8>, Closed> {
    let mut bytes = Vec::new();
    for line in text.split('\n') {
        let line = match *first {
            true => line.strip_prefix('\u{feff}').unwrap_or(line),
            false => line,
        };
        // What the protocol reads as blank: spaces and tabs, before any CRs.
        if line
            .trim_end_matches('\r')
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
        {
            continue;
        }
        waiting.ask(line.len() + 1)?;
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        *first = false;
    }
    Ok(bytes)
}

/// Whether a message of the session answers a request: a reply (`=` or `?`) or
/// `readyok`; the others (`info`, `bestmove`) come from work.
fn answers(message: &str) -> bool {
    message.starts_with(['=', '?']) || message == "readyok\n"
}

/// The session's messages that the page has not read yet, in bytes, shared by the
/// session's writer and its socket.
#[derive(Default)]
struct Unread {
    bytes: AtomicUsize,
    /// Set once a message was refused: the session is over.
    over: AtomicBool,
    /// Told when it is.
    closing: Notify,
}

impl Unread {
    /// Counts a message of `length` bytes, unless it would take the unread output
    /// beyond [`MAX_UNREAD`]: then it is refused, and so is every message after it.
    fn write(&self, length: usize) -> bool {
        if self.over.load(Ordering::Acquire) {
            return false;
        }
        let unread = self.bytes.fetch_add(length, Ordering::AcqRel) + length;
        if unread <= MAX_UNREAD {
            return true;
        }
        self.bytes.fetch_sub(length, Ordering::AcqRel);
        self.over.store(true, Ordering::Release);
        self.closing.notify_one();
        false
    }

    /// The page has taken a message of `length` bytes.
    fn read(&self, length: usize) {
        self.bytes.fetch_sub(length, Ordering::AcqRel);
    }

    fn over(&self) -> bool {
        self.over.load(Ordering::Acquire)
    }
}

/// The session's input: the page's messages, as lines.
struct FromPage {
    messages: std_mpsc::Receiver<Vec<u8>>,
    pending: std::io::Cursor<Vec<u8>>,
    /// Set when the page has gone: what it sent and was not read yet is dropped.
    hang_up: Arc<AtomicBool>,
}

impl Read for FromPage {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.hang_up.load(Ordering::Acquire) {
                return Ok(0);
            }
            let n = self.pending.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            match self.messages.recv() {
                Ok(bytes) => self.pending = std::io::Cursor::new(bytes),
                // The socket closed: the end of the session's input.
                Err(_) => return Ok(0),
            }
        }
    }
}

/// The session's output: each flushed message goes to the page as one text message,
/// while the page has not more than [`MAX_UNREAD`] bytes to read. Beyond that the
/// session hangs up: its work is stopped, its waiting requests dropped.
struct ToPage {
    message: Vec<u8>,
    page: mpsc::UnboundedSender<String>,
    unread: Arc<Unread>,
    hang_up: Arc<AtomicBool>,
}

impl Write for ToPage {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.message.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.message.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&std::mem::take(&mut self.message)).into_owned();
        if !self.unread.write(text.len()) {
            self.hang_up.store(true, Ordering::Release);
            return Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        }
        self.page
            .send(text)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
    }
}

/// One page's engine session, until either side ends it: the client, `quit`, a bound,
/// or `idle` with no request waiting for its reply and no message either way (no
/// request, no work). `place` is what the session holds of the server's places, given
/// back once its threads are gone.
pub async fn run<P: Send>(
    mut socket: WebSocket,
    peer: SocketAddr,
    bounds: Bounds,
    idle: Duration,
    place: P,
) {
    log::info!("session opened by {peer}");
    let (to_engine, messages) = std_mpsc::channel::<Vec<u8>>();
    let (page, mut from_engine) = mpsc::unbounded_channel::<String>();
    let hang_up = Arc::new(AtomicBool::new(false));
    let unread = Arc::new(Unread::default());
    let bounds = Bounds {
        hang_up: Some(hang_up.clone()),
        ..bounds
    };
    let input = FromPage {
        messages,
        pending: std::io::Cursor::new(Vec::new()),
        hang_up: hang_up.clone(),
    };
    let output = ToPage {
        message: Vec::new(),
        page,
        unread: unread.clone(),
        hang_up: hang_up.clone(),
    };
    let engine = std::thread::spawn(move || protocol::serve_native(input, output, bounds));
    let mut waiting = Waiting::default();
    let mut first = true;
    // The last message either way: a request, or output of the work it started.
    let mut last = Instant::now();
    let closed = loop {
        tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) if text.len() > MAX_MESSAGE => {
                    break Some(Closed::TooBig);
                }
                Some(Ok(Message::Text(text))) => {
                    last = Instant::now();
                    match requests(text.as_str(), &mut first, &mut waiting) {
                        Ok(bytes) if bytes.is_empty() => {}
                        Ok(bytes) => {
                            if to_engine.send(bytes).is_err() {
                                break None;
                            }
                        }
                        Err(bound) => break Some(bound),
                    }
                }
                Some(Ok(Message::Binary(bytes))) if bytes.len() > MAX_MESSAGE => {
                    break Some(Closed::TooBig);
                }
                Some(Ok(Message::Binary(_))) => {
                    last = Instant::now();
                    let refusal = "? a binary message is not a request: send requests as text\n\n";
                    if socket.send(Message::Text(refusal.into())).await.is_err() {
                        break None;
                    }
                }
                Some(Ok(Message::Close(_))) | None => break None,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Err(e)) => {
                    log::info!("session of {peer}: {e}");
                    // The socket's own bound (beyond the message limit): too big too.
                    if e.to_string().contains("Space limit exceeded") {
                        break Some(Closed::TooBig);
                    }
                    break None;
                }
            },
            output = from_engine.recv() => match output {
                Some(text) => {
                    last = Instant::now();
                    if answers(&text) {
                        waiting.answered();
                    }
                    let length = text.len();
                    // A page that does not read holds the send until the session's
                    // output goes beyond its bound, or the connection's write timeout.
                    tokio::select! {
                        sent = socket.send(Message::Text(text.into())) => {
                            if sent.is_err() {
                                break None;
                            }
                        }
                        () = unread.closing.notified() => break Some(Closed::Unread),
                    }
                    unread.read(length);
                }
                // The session ended (`quit`), or hung up at the output's bound.
                None => break unread.over().then_some(Closed::Unread),
            },
            () = unread.closing.notified() => break Some(Closed::Unread),
            // Work ends with a message within the think limit, which `idle` is at
            // least: a session that waits for none and has none is idle.
            () = tokio::time::sleep_until(last + idle), if waiting.is_empty() => {
                break Some(Closed::Idle(idle));
            }
        }
    };
    // The page is gone or the session ended: nothing it asked for is owed any more.
    // Its work is stopped, its waiting requests dropped, and its threads are waited
    // for before its place is given back.
    hang_up.store(true, Ordering::Release);
    drop(to_engine);
    drop(from_engine);
    let _ = tokio::task::spawn_blocking(move || engine.join()).await;
    drop(place);
    let frame = closed.map(|why| {
        let frame = why.frame();
        log::info!("closed the session of {peer}: {}", frame.reason);
        frame
    });
    // The close frame, then what the client still sends until its own close frame
    // (RFC 6455, 7.1.1), so that a client still sending reads the reason.
    if socket.send(Message::Close(frame)).await.is_ok() {
        let _ = tokio::time::timeout(CLOSING, async {
            while let Some(Ok(message)) = socket.recv().await {
                if matches!(message, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    log::info!("session of {peer} closed");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replies do not name the request they answer: the bytes counted as waiting are
    /// never fewer than the bytes of the requests that do wait.
    #[test]
    fn the_bytes_counted_as_waiting_are_never_too_few() {
        let mut waiting = Waiting::default();
        // A long request waits behind a search; short `ping`s are answered beside it.
        waiting.ask(1000).unwrap();
        for _ in 0..10 {
            waiting.ask(5).unwrap();
            waiting.answered();
            assert_eq!(waiting.bytes, 1000);
        }
        waiting.answered();
        assert!(waiting.is_empty());
        assert_eq!(waiting.bytes, 0);
    }

    #[test]
    fn the_waiting_requests_are_bounded_in_number_and_bytes() {
        let mut waiting = Waiting::default();
        for _ in 0..MAX_WAITING {
            waiting.ask(1).unwrap();
        }
        assert_eq!(waiting.ask(1), Err(Closed::Requests));
        let mut waiting = Waiting::default();
        waiting.ask(MAX_WAITING_BYTES).unwrap();
        assert_eq!(waiting.ask(1), Err(Closed::RequestBytes));
    }

    /// Every line the session gets has an answer: blank lines (and a first line of
    /// only a byte-order mark) are not passed on, nor counted.
    #[test]
    fn blank_lines_are_not_requests() {
        let mut waiting = Waiting::default();
        let mut first = true;
        let text = "\u{feff} \r\n\n1 name\r\n \t\n\u{feff}2 fen\n\r \r\nping";
        let bytes = requests(text, &mut first, &mut waiting).unwrap();
        assert_eq!(bytes, b"1 name\r\n\xef\xbb\xbf2 fen\n\r \r\nping\n");
        assert_eq!(waiting.lengths.len(), 4);
        assert!(!first);
    }

    #[test]
    fn replies_are_told_from_work_output() {
        for reply in [
            "=1\n\n",
            "?2 unknown command\n\n",
            "= pong\n\n",
            "readyok\n",
        ] {
            assert!(answers(reply), "{reply}");
        }
        for output in ["info depth 3 score cp 10\n", "bestmove F\n"] {
            assert!(!answers(output), "{output}");
        }
    }

    #[test]
    fn output_beyond_the_bound_is_refused_and_so_is_all_after_it() {
        let unread = Unread::default();
        assert!(unread.write(MAX_UNREAD - 10));
        assert!(!unread.write(11));
        assert!(unread.over());
        unread.read(MAX_UNREAD - 10);
        assert!(!unread.write(1));
    }
}

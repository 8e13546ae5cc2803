//! One page's engine session: the native protocol over a WebSocket, on threads of its
//! own.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

use crate::engine::Bounds;
use crate::protocol;

/// A message from the page longer than this closes its socket (WebSocket close code
/// 1009, "message too big"); lines longer than the protocol's own limit are refused by
/// the protocol.
pub const MAX_MESSAGE: usize = 2 * protocol::MAX_LINE;
/// The WebSocket close code for a message too big to process (RFC 6455, 7.4.1).
const MESSAGE_TOO_BIG: u16 = 1009;

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

/// The session's output: each flushed message goes to the page as one text message.
struct ToPage {
    message: Vec<u8>,
    page: mpsc::UnboundedSender<String>,
}

impl Write for ToPage {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.message.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.message.is_empty() {
            let text = String::from_utf8_lossy(&std::mem::take(&mut self.message)).into_owned();
            self.page
                .send(text)
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        }
        Ok(())
    }
}

/// One page's engine session, until either side ends it.
pub async fn run(
    mut socket: WebSocket,
    peer: SocketAddr,
    bounds: Bounds,
    permit: OwnedSemaphorePermit,
) {
    log::info!("session opened by {peer}");
    let (to_engine, messages) = std_mpsc::channel::<Vec<u8>>();
    let (page, mut from_engine) = mpsc::unbounded_channel::<String>();
    let hang_up = Arc::new(AtomicBool::new(false));
    let bounds = Bounds {
        hang_up: Some(hang_up.clone()),
        ..bounds
    };
    let input = FromPage {
        messages,
        pending: std::io::Cursor::new(Vec::new()),
        hang_up: hang_up.clone(),
    };
    let engine = std::thread::spawn(move || {
        let output = ToPage {
            message: Vec::new(),
            page,
        };
        protocol::serve_native(input, output, bounds);
    });
    let mut close = None;
    let too_big = || {
        Some(CloseFrame {
            code: MESSAGE_TOO_BIG,
            reason: format!("a message is at most {MAX_MESSAGE} bytes").into(),
        })
    };
    loop {
        tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) if text.len() > MAX_MESSAGE => {
                    close = too_big();
                    break;
                }
                Some(Ok(Message::Text(text))) => {
                    let mut bytes = text.as_str().as_bytes().to_vec();
                    if !bytes.ends_with(b"\n") {
                        bytes.push(b'\n');
                    }
                    if to_engine.send(bytes).is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Binary(bytes))) if bytes.len() > MAX_MESSAGE => {
                    close = too_big();
                    break;
                }
                Some(Ok(Message::Binary(_))) => {
                    let refusal = "? a binary message is not a request: send requests as text\n\n";
                    if socket.send(Message::Text(refusal.into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | None => break,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Err(e)) => {
                    log::info!("session of {peer}: {e}");
                    // The socket's own bound (beyond the message limit): too big too.
                    if e.to_string().contains("Space limit exceeded") {
                        close = too_big();
                    }
                    break;
                }
            },
            output = from_engine.recv() => match output {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                // The session ended (`quit`).
                None => break,
            },
        }
    }
    // The page is gone or the session ended: nothing it asked for is owed any more.
    // Its work is stopped, its waiting requests dropped, and its threads are waited
    // for before the session counts as closed.
    hang_up.store(true, Ordering::Release);
    drop(to_engine);
    drop(from_engine);
    let _ = tokio::task::spawn_blocking(move || engine.join()).await;
    let _ = socket.send(Message::Close(close)).await;
    drop(permit);
    log::info!("session of {peer} closed");
}

//! ludus's native line protocol: requests `[id] command args`, replies framed like GTP
//! (`=` or `?`, the id, the text, an empty line), searches reported like UCI (`info`,
//! exactly one `bestmove` per `go`). See protocol-spec/protocol.md.
//!
//! ```
//! # use std::io::{Read, Write};
//! # struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
//! # impl Write for Shared {
//! #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//! #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! # }
//! let output = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
//! let script = "1 game mangala\n2 play F\n3 to_move\n";
//! ludus::protocol::serve(std::io::Cursor::new(script), Shared(output.clone()));
//! let replies = String::from_utf8(output.lock().unwrap().clone()).unwrap();
//! assert_eq!(replies, "=1\n\n=2 F\n\n=3 north\n\n");
//! ```
//!
//! - `request`: reading a request line (nom);
//! - `session`: the order in which every dialect serves requests, and the end of input;
//! - `io`: the reader thread and the one writer;
//! - `native`: the native protocol's command loop; the first line may choose a dialect:
//! - `uci`: UCI (Fairy-Stockfish conventions) and UGI (cutegames);
//! - `cecp`: CECP, the XBoard/WinBoard protocol.
//!
//! Every dialect talks to one [`crate::engine::Engine`]: the game, the options and the
//! search are there; the dialects keep their grammar and their wording.

use serde::{Deserialize, Serialize};

/// The dialects of the UCI family and the native protocol, as a session's first line
/// chooses them and as `ludus match` speaks them to engines. (CECP is chosen by its
/// own first line, `xboard`, and is not spoken to engines.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    Native,
    Uci,
    Ugi,
}

impl Dialect {
    /// The name: `native`, and the first line that chooses the others (`uci`, `ugi`),
    /// which their engines answer with the name and `ok`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Uci => "uci",
            Dialect::Ugi => "ugi",
        }
    }

    /// The option that chooses the game (`UCI_Variant`); the native protocol has the
    /// command `game` instead.
    pub fn variant_option(self) -> Option<&'static str> {
        match self {
            Dialect::Native => None,
            Dialect::Uci => Some("UCI_Variant"),
            Dialect::Ugi => Some("UGI_Variant"),
        }
    }

    /// The command that starts a new game.
    pub fn new_game(self) -> &'static str {
        match self {
            Dialect::Native => "newgame",
            Dialect::Uci => "ucinewgame",
            Dialect::Ugi => "uginewgame",
        }
    }
}

/// The `info` line of the root move a search is on, as the native protocol and UCI
/// write it.
fn current_move_line(depth: u32, mv: &str, number: usize) -> String {
    format!("info depth {depth} currmove {mv} currmovenumber {number}")
}

mod cecp;
mod io;
mod native;
mod request;
mod session;
mod uci;

pub use io::{Input, MAX_LINE, Writer, spawn_reader};
pub use native::{serve, serve_native};
pub use request::RequestError;

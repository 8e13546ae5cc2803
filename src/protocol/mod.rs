//! ludus's native line protocol: requests `[id] command args`, replies framed like GTP
//! (`=` or `?`, the id, the text, an empty line), searches reported like UCI (`info`,
//! exactly one `bestmove` per `go`). See protocol-spec/protocol.md.
//!
//! - `request`: reading a request line (nom);
//! - `session`: the order in which every dialect serves requests, and the end of input;
//! - `table`: one game's state behind an object-safe interface, for all three games;
//! - `worker`: what every dialect shares: the reader thread, the writer, the game and
//!   the work thread;
//! - `daemon`: the native protocol's command loop; the first line may choose a dialect:
//! - `uci`: UCI (Fairy-Stockfish conventions) and UGI (cutegames);
//! - `cecp`: CECP, the XBoard/WinBoard protocol.

pub mod cecp;
pub mod daemon;
pub mod request;
pub mod session;
pub mod table;
pub mod uci;
pub mod worker;

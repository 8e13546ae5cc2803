//! ludus's native line protocol: requests `[id] command args`, replies framed like GTP
//! (`=` or `?`, the id, the text, an empty line), searches reported like UCI (`info`,
//! exactly one `bestmove` per `go`). See protocol-spec/protocol.md.
//!
//! - `request`: reading a request line (nom);
//! - `table`: one game's state behind an object-safe interface, for all three games;
//! - `daemon`: the threads: stdin reader, the command loop, the search, the writer.

pub mod daemon;
pub mod request;
pub mod table;

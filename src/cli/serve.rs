//! `ludus serve`: the board in the browser (protocol-spec/serve.md).

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use super::CliError;

#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on; beyond loopback anyone who reaches it can play.
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = listen_address)]
    listen: SocketAddr,
    /// Sessions (open tabs) at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    sessions: u64,
    /// Seconds after which a session's search (or count) is stopped.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    think_limit: u64,
    /// The largest Hash a session may set, in MiB.
    #[arg(long, default_value_t = 256, value_parser = crate::engine::parse_hash)]
    hash_limit: usize,
    /// The largest endgame table a session may have built (Mangala II's Endgame
    /// Counters; the tables are shared by all sessions).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=24))]
    table_limit: u32,
    /// Mangala II endgame tables from this folder (made by `ludus endgame --write`),
    /// for every session: the EndgamePath option, which sessions may not change.
    #[arg(long, value_name = "DIR")]
    endgame_path: Option<std::path::PathBuf>,
    /// Connections one address may have open at once (of the server's 128), so
    /// that one address cannot take every place.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=crate::web::MAX_CONNECTIONS as u64))]
    peer_connections: u64,
    /// Sessions one address may have open at once [default: all of them when
    /// listening on loopback, where every tab comes from one address; else half].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    peer_sessions: Option<u64>,
    /// Seconds after which a session with no request and no work is closed, to
    /// free its place (at least the think limit).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86400))]
    idle_limit: u64,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let options = crate::web::Options {
        listen: args.listen,
        sessions: args.sessions as usize,
        work_limit: Duration::from_secs(args.think_limit),
        hash_mib: args.hash_limit,
        build_limit: args.table_limit,
        fixed_paths: args
            .endgame_path
            .map(|dir| {
                let name = crate::games::mangala::ENDGAME_PATH.name;
                vec![(name.to_string(), dir.display().to_string())]
            })
            .unwrap_or_default(),
        peer_connections: args.peer_connections as usize,
        peer_sessions: args.peer_sessions.map(|n| n as usize),
        idle_limit: Duration::from_secs(args.idle_limit),
    };
    let ready = |address: SocketAddr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "ludus serves the board at http://{address}/");
        let _ = out.flush();
    };
    crate::web::run(options, ready)?;
    Ok(())
}

/// A `--listen` that is no address to listen on.
#[derive(Debug)]
pub struct ListenError {
    text: String,
    lookup: Option<std::io::Error>,
}

impl std::fmt::Display for ListenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not HOST:PORT (such as 127.0.0.1:8080 or localhost:8080)",
            self.text
        )?;
        match &self.lookup {
            Some(error) => write!(f, ": {error}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for ListenError {}

/// Reads `--listen`: `HOST:PORT`, the host a name (`localhost`) or an address; a name
/// is resolved here, and its first address is the one listened on.
fn listen_address(text: &str) -> Result<SocketAddr, ListenError> {
    use std::net::ToSocketAddrs;
    let wrong = |lookup| ListenError {
        text: text.to_string(),
        lookup,
    };
    if let Ok(address) = text.parse() {
        return Ok(address);
    }
    if !text.contains(':') {
        return Err(wrong(None));
    }
    text.to_socket_addrs()
        .map_err(|e| wrong(Some(e)))?
        .next()
        .ok_or_else(|| wrong(None))
}

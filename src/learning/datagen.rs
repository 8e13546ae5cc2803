//! `ludus datagen`: positions from self-play, each with the search's score and its
//! game's result, for training an evaluation (protocol-spec/datagen.md has the file).
//!
//! Games start from random openings (a few random moves from the start, from the seed
//! and the game's number, so game `k` is the same game in every run) and are played at
//! a node or depth limit by one engine per thread, cleared before every game. A
//! position is kept when it is quiet (the game's own test, as for the Texel tuning:
//! not in check, the move played takes nothing, no capture wins material) and not yet
//! decided (no mate score, no score past the adjudication margin). A game the search
//! scores as won by far for several plies in a row is adjudicated.
//!
//! The file is resumable: every game's positions are appended in one write, each
//! record says which game it is of and how many its game has, so a run that was cut
//! off leaves at most one incomplete game at the end, which the next run removes; the
//! games already in the file are not played again.

use std::collections::HashSet;
use std::fmt;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::selfplay;
use crate::game::PositionError;
use crate::search::Searchable;

/// A game whose positions can be written in a fixed number of bytes.
pub trait Packed: Searchable {
    /// The bytes of a packed position.
    const PACKED: usize;
    fn pack(&self) -> Vec<u8>;
    fn unpack(bytes: &[u8]) -> Result<Self, PositionError>;
}

/// How `ludus datagen` plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub games: usize,
    /// Nodes per move; with `depth`, whichever ends first.
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Random moves from the start before the engine plays.
    pub opening_plies: usize,
    pub seed: u64,
    /// Games played at once, one thread each.
    pub concurrency: usize,
    /// A game is a draw after this many plies of the engine (the opening's aside).
    pub max_plies: usize,
    /// Engine options, name and value as given (Sena-Mukha's `EvalFile`: data from
    /// that network's search; `Use NNUE=false`: from the hand-written evaluation's).
    pub options: Vec<(String, String)>,
}

impl Settings {
    /// The engine options as one text, `name=value` lines in the order given: its
    /// CRC-32 is in the header (0 without options), so that a file is resumed only
    /// with the same options.
    fn options_text(&self) -> String {
        self.options
            .iter()
            .map(|(name, value)| format!("{}={}\n", name.trim(), value.trim()))
            .collect()
    }
}

const MAGIC: &[u8; 8] = b"LUDUSDAT";
const VERSION: u16 = 1;
/// The header's bytes.
pub const HEADER: usize = 64;
/// What a record holds besides its position: score, result, ply, game, index, count.
const META: usize = 2 + 1 + 2 + 4 + 2 + 2;

/// The bytes of one record of game `G`: its packed position and the rest, rounded up
/// to a multiple of 8.
pub fn record_size<G: Packed>() -> usize {
    (G::PACKED + META).div_ceil(8) * 8
}

/// One record read back.
#[derive(Clone, Debug)]
pub struct Record<G> {
    pub position: G,
    /// The search's score, from the side to move's view.
    pub score: i16,
    /// The game's result from the side to move's view: 1 won, 0 drawn, -1 lost.
    pub result: i8,
    /// Plies from the start of the game to this position.
    pub ply: u16,
    /// The game's number (from 0), its position among the game's records, and how many
    /// the game has.
    pub game: u32,
    pub index: u16,
    pub count: u16,
}

/// Why a data file cannot be written or read.
#[derive(Debug)]
pub enum DatagenError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Not a data file of this game and format.
    Foreign { path: PathBuf, why: String },
    /// A data file made with other settings: resuming would mix two kinds of data.
    OtherSettings { path: PathBuf },
    /// A record whose position cannot be read.
    Record {
        path: PathBuf,
        record: usize,
        error: PositionError,
    },
    /// The game's evaluation has no quiet test (no tuning terms).
    NoQuietTest(&'static str),
    /// An engine option the game's engine does not have or refuses.
    Option(crate::game::OptionError),
    /// Not a regular file (a device, a FIFO, a folder).
    File(crate::files::FileError),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            DatagenError::File(e) => e.fmt(f),
            DatagenError::Foreign { path, why } => {
                write!(
                    f,
                    "{} is not a ludus datagen file here: {why}",
                    path.display()
                )
            }
            DatagenError::OtherSettings { path } => write!(
                f,
                "{} was made with other settings (seed, nodes, depth, opening or game \
                 plies, engine options); name another file to start anew",
                path.display()
            ),
            DatagenError::Record {
                path,
                record,
                error,
            } => write!(f, "{}: record {record}: {error}", path.display()),
            DatagenError::NoQuietTest(game) => {
                write!(f, "{game} has no quiet-position test for its data")
            }
            DatagenError::Option(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DatagenError {}

/// The header of a file for `G` made with `settings`.
fn header<G: Packed>(settings: &Settings) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(record_size::<G>() as u16).to_le_bytes());
    let name = G::NAME.as_bytes();
    h[12..12 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    h[28..36].copy_from_slice(&settings.seed.to_le_bytes());
    h[36..44].copy_from_slice(&settings.nodes.unwrap_or(0).to_le_bytes());
    h[44..46].copy_from_slice(&(settings.depth.unwrap_or(0) as u16).to_le_bytes());
    h[46..48].copy_from_slice(&(settings.opening_plies as u16).to_le_bytes());
    h[48..52].copy_from_slice(&(settings.max_plies as u32).to_le_bytes());
    h[52..56].copy_from_slice(&crc32fast::hash(settings.options_text().as_bytes()).to_le_bytes());
    h
}

/// Checks that `found` is a header of this game and format.
fn check_header<G: Packed>(path: &Path, found: &[u8]) -> Result<(), DatagenError> {
    let foreign = |why: String| DatagenError::Foreign {
        path: path.to_path_buf(),
        why,
    };
    if found.len() < HEADER || &found[..8] != MAGIC {
        return Err(foreign("it does not start with LUDUSDAT".into()));
    }
    let version = u16::from_le_bytes([found[8], found[9]]);
    if version != VERSION {
        return Err(foreign(format!("format version {version}, not {VERSION}")));
    }
    let expected = header::<G>(&Settings {
        games: 0,
        nodes: None,
        depth: None,
        opening_plies: 0,
        seed: 0,
        concurrency: 0,
        max_plies: 0,
        options: Vec::new(),
    });
    if found[10..28] != expected[10..28] {
        return Err(foreign(format!(
            "its records are not {}'s of {} bytes",
            G::NAME,
            record_size::<G>()
        )));
    }
    Ok(())
}

/// A record's bytes: the packed position, then the rest of [`Record`] in its order.
fn record_bytes<G: Packed>(packed: &[u8], record: &Record<()>) -> Vec<u8> {
    let mut out = packed.to_vec();
    out.extend_from_slice(&record.score.to_le_bytes());
    out.push(record.result as u8);
    out.extend_from_slice(&record.ply.to_le_bytes());
    out.extend_from_slice(&record.game.to_le_bytes());
    out.extend_from_slice(&record.index.to_le_bytes());
    out.extend_from_slice(&record.count.to_le_bytes());
    out.resize(record_size::<G>(), 0);
    out
}

/// Reads one record's bytes.
pub fn read_record<G: Packed>(bytes: &[u8]) -> Result<Record<G>, PositionError> {
    let p = G::PACKED;
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    Ok(Record {
        position: G::unpack(&bytes[..p])?,
        score: u16_at(p) as i16,
        result: bytes[p + 2] as i8,
        ply: u16_at(p + 3),
        game: u32::from_le_bytes(bytes[p + 5..p + 9].try_into().expect("4 bytes")),
        index: u16_at(p + 9),
        count: u16_at(p + 11),
    })
}

/// Reads a whole data file of `G`: every record, in file order.
pub fn read_file<G: Packed>(path: &Path) -> Result<Vec<Record<G>>, DatagenError> {
    let mut records = Vec::new();
    read_each::<G>(path, &mut |record| records.push(record))?;
    Ok(records)
}

/// Reads a data file of `G` record by record, in file order, without holding its
/// positions all at once (a trainer keeps only what it needs of each); returns the
/// records read.
pub fn read_each<G: Packed>(
    path: &Path,
    each: &mut dyn FnMut(Record<G>),
) -> Result<usize, DatagenError> {
    let io = |error| DatagenError::Io {
        path: path.to_path_buf(),
        error,
    };
    // A regular file only (a device would be read without end); its size is the
    // data's, which may be large.
    let mut bytes = Vec::new();
    crate::files::open_regular(path)
        .map_err(DatagenError::File)?
        .read_to_end(&mut bytes)
        .map_err(io)?;
    check_header::<G>(path, &bytes)?;
    let mut count = 0;
    for (record, chunk) in bytes[HEADER..].chunks_exact(record_size::<G>()).enumerate() {
        let read = read_record::<G>(chunk).map_err(|error| DatagenError::Record {
            path: path.to_path_buf(),
            record,
            error,
        })?;
        each(read);
        count += 1;
    }
    Ok(count)
}

/// Opens `path` for appending games: a new file gets its header; an existing one must
/// be of this game and these settings, is cut back to its last complete game, and
/// tells which games it holds.
fn open<G: Packed>(
    path: &Path,
    settings: &Settings,
) -> Result<(std::fs::File, HashSet<u32>, usize), DatagenError> {
    let io = |error| DatagenError::Io {
        path: path.to_path_buf(),
        error,
    };
    // A device, a FIFO or a folder is refused before it is opened.
    crate::files::check_writable(path).map_err(DatagenError::File)?;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let wanted = header::<G>(settings);
    if bytes.is_empty() {
        file.write_all(&wanted).map_err(io)?;
        return Ok((file, HashSet::new(), 0));
    }
    check_header::<G>(path, &bytes)?;
    if bytes[28..HEADER] != wanted[28..HEADER] {
        return Err(DatagenError::OtherSettings {
            path: path.to_path_buf(),
        });
    }
    let size = record_size::<G>();
    let records: Vec<&[u8]> = bytes[HEADER..].chunks_exact(size).collect();
    // The last game is whole when its last record is its game's last.
    let mut keep = records.len();
    if let Some(last) = records.last() {
        let p = G::PACKED;
        let index = u16::from_le_bytes([last[p + 9], last[p + 10]]) as usize;
        let count = u16::from_le_bytes([last[p + 11], last[p + 12]]) as usize;
        if index + 1 != count {
            keep = keep.saturating_sub(index + 1);
        }
    }
    let games: HashSet<u32> = records[..keep]
        .iter()
        .map(|r| {
            let p = G::PACKED;
            u32::from_le_bytes(r[p + 5..p + 9].try_into().expect("4 bytes"))
        })
        .collect();
    let length = (HEADER + keep * size) as u64;
    file.set_len(length).map_err(io)?;
    file.seek(SeekFrom::Start(length)).map_err(io)?;
    Ok((file, games, keep))
}

/// Plays the games of `settings` that `path` does not hold yet and appends their
/// positions; writes a progress line to `progress` now and then. Returns the
/// positions in the file at the end.
pub fn run<G: Packed>(
    settings: &Settings,
    path: &Path,
    progress: &mut (dyn Write + Send),
) -> Result<usize, DatagenError>
where
    G::Search: Send,
{
    let quiet = G::tuning().ok_or(DatagenError::NoQuietTest(G::NAME))?.quiet;
    let options =
        super::selfplay::engine_options::<G>(&settings.options).map_err(DatagenError::Option)?;
    let engine = || {
        let mut engine = G::new_search(16);
        for (name, value) in &options {
            // Accepted by the probe engine, so accepted again.
            let _ = G::set_engine_option(&mut engine, name, value);
        }
        engine
    };
    let (mut file, done, kept) = open::<G>(path, settings)?;
    let play = selfplay::Play::new(
        settings.seed,
        settings.opening_plies,
        settings.nodes,
        settings.depth,
        settings.max_plies,
    );
    let game = |engine: &mut G::Search, game: usize| play_game::<G>(engine, &play, game, quiet);
    let started = Instant::now();
    let mut shown = Instant::now();
    let mut positions = kept;
    let mut finished = done.len();
    let mut error = None;
    selfplay::on_threads::<G, Vec<Vec<u8>>>(
        settings.games,
        settings.concurrency,
        &|game| done.contains(&(game as u32)),
        &engine,
        &game,
        &mut |_, records| {
            if let Err(e) = file.write_all(&records.concat()) {
                error = Some(e);
                return false;
            }
            positions += records.len();
            finished += 1;
            if shown.elapsed().as_secs_f64() >= 2.0 || finished == settings.games {
                shown = Instant::now();
                let seconds = started.elapsed().as_secs_f64().max(1e-9);
                let _ = writeln!(
                    progress,
                    "datagen: {finished} of {} games, {positions} positions, {:.0} positions/s",
                    settings.games,
                    (positions - kept) as f64 / seconds
                );
            }
            true
        },
    );
    let io = |error| DatagenError::Io {
        path: path.to_path_buf(),
        error,
    };
    if let Some(e) = error {
        return Err(io(e));
    }
    file.flush().map_err(io)?;
    Ok(positions)
}

/// One self-play game: the records of its kept positions (quiet, undecided), with
/// their scores and the game's result.
fn play_game<G: Packed>(
    engine: &mut G::Search,
    play: &selfplay::Play,
    game: usize,
    quiet: fn(&G, G::Move) -> bool,
) -> Vec<Vec<u8>> {
    // Kept: the packed position, its score and ply, and the player to move.
    let mut kept: Vec<(Vec<u8>, i16, u16, usize)> = Vec::new();
    let points = selfplay::play_game::<G>(engine, play, game, &mut |position, mv, score, ply| {
        if let Some(score) = score
            && quiet(position, mv)
        {
            kept.push((
                position.pack(),
                score as i16,
                ply as u16,
                position.to_move(),
            ));
        }
    });
    let count = kept.len().min(u16::MAX as usize);
    let first = points as i8 - 1;
    kept.into_iter()
        .take(count)
        .enumerate()
        .map(|(index, (packed, score, ply, mover))| {
            let record = Record {
                position: (),
                score,
                result: if mover == 0 { first } else { -first },
                ply,
                game: game as u32,
                index: index as u16,
                count: count as u16,
            };
            record_bytes::<G>(&packed, &record)
        })
        .collect()
}

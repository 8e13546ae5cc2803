//! The tables as files, one per number of counters on the board (Syzygy's shape: made
//! once, read by every process that wants them): `ludus endgame --write DIR`.
//!
//! A file is a 64-byte header and the level's positions in rank order (index
//! `2 * rank + mover`, as in memory): first every position's two bounds (`i8` each),
//! then every position's two settling sweeps (`u16` each, little-endian). That is 6
//! bytes a position, both movers counted. protocol-spec/mangala.md has the format.
//!
//! Header: `LUDUSMTB`, the format version (`u16`), the counters (`u16`), the sowing rule
//! (`u8`: 1 for skip-origin), three zero bytes, the positions (`u64`), the level's
//! sweeps (`u32`), the CRC-32 of everything after the header (`u32`), zeros to 64.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{BuildError, Level, Table};

const MAGIC: &[u8; 8] = b"LUDUSMTB";
const VERSION: u16 = 1;
const HEADER: usize = 64;

/// Why a table file cannot be written or used.
#[derive(Debug)]
pub enum TableFileError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    Build(BuildError),
    /// Shorter or longer than its header says.
    Length {
        path: PathBuf,
        bytes: u64,
        expected: u64,
    },
    /// Not a table of this level, rule and format.
    Foreign {
        path: PathBuf,
        why: String,
    },
    /// The contents do not match their checksum.
    Corrupt {
        path: PathBuf,
    },
    /// A folder without the first level's file.
    Missing {
        path: PathBuf,
    },
    /// Not a regular file, or not openable as one.
    File(crate::files::FileError),
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFileError::Io { path, error } => {
                write!(f, "{}: {error}", crate::files::shown(path))
            }
            TableFileError::Build(e) => e.fmt(f),
            TableFileError::Length {
                path,
                bytes,
                expected,
            } => write!(
                f,
                "{} is {bytes} bytes, not {expected}: cut off or not a table",
                crate::files::shown(path)
            ),
            TableFileError::Foreign { path, why } => {
                write!(
                    f,
                    "{} is not the table wanted: {why}",
                    crate::files::shown(path)
                )
            }
            TableFileError::Corrupt { path } => write!(
                f,
                "{} does not match its checksum: the file is damaged",
                crate::files::shown(path)
            ),
            TableFileError::Missing { path } => write!(
                f,
                "there are no endgame table files there: {} is missing (ludus endgame \
                 --write makes them)",
                crate::files::shown(path)
            ),
            TableFileError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TableFileError {}

impl From<BuildError> for TableFileError {
    fn from(e: BuildError) -> Self {
        TableFileError::Build(e)
    }
}

/// The file of the positions with `counters` counters under the sowing rule.
pub fn level_file_name(counters: usize, skip_origin: bool) -> String {
    let rule = if skip_origin { "-skip-origin" } else { "" };
    format!("mangala{rule}-{counters:02}.ltb")
}

fn header(
    counters: usize,
    skip_origin: bool,
    states: usize,
    sweeps: u32,
    crc: u32,
) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(counters as u16).to_le_bytes());
    h[12] = u8::from(skip_origin);
    h[16..24].copy_from_slice(&(states as u64).to_le_bytes());
    h[24..28].copy_from_slice(&sweeps.to_le_bytes());
    h[28..32].copy_from_slice(&crc.to_le_bytes());
    h
}

/// Writes the level's bytes after the header, the bounds then the stamps, to `out`;
/// returns their CRC-32. Streamed: level 28's 20 GB never sit in memory.
fn write_payload(level: &Level, out: &mut impl Write) -> std::io::Result<u32> {
    let mut crc = crc32fast::Hasher::new();
    let mut buffer = Vec::with_capacity(1 << 20);
    let mut flush = |buffer: &mut Vec<u8>, out: &mut dyn Write| {
        crc.update(buffer);
        let written = out.write_all(buffer);
        buffer.clear();
        written
    };
    for i in 0..level.len() {
        buffer.extend(level.bounds(i).map(|v| v as u8));
        if buffer.len() >= 1 << 20 {
            flush(&mut buffer, out)?;
        }
    }
    for i in 0..level.len() {
        let [lower, upper] = level.settled(i);
        buffer.extend(lower.to_le_bytes());
        buffer.extend(upper.to_le_bytes());
        if buffer.len() >= 1 << 20 {
            flush(&mut buffer, out)?;
        }
    }
    flush(&mut buffer, out)?;
    Ok(crc.finalize())
}

/// A level's file mapped into memory: read in place, shared by the pages of every
/// process that maps it.
#[derive(Clone)]
pub(super) struct MappedLevel {
    map: Arc<crate::files::Mapped>,
    states: usize,
}

impl MappedLevel {
    pub(super) fn len(&self) -> usize {
        self.states
    }

    pub(super) fn bytes(&self) -> usize {
        self.map.len()
    }

    /// Whether the file was found cut short under the map: what was read of it since
    /// may be zeros, not the table.
    pub(super) fn damaged(&self) -> bool {
        self.map.damaged()
    }

    #[inline]
    pub(super) fn bounds(&self, index: usize) -> [i8; 2] {
        let at = HEADER + 2 * index;
        [self.map[at] as i8, self.map[at + 1] as i8]
    }

    #[inline]
    pub(super) fn settled(&self, index: usize) -> [u16; 2] {
        let at = HEADER + 2 * self.states + 4 * index;
        let m = &self.map;
        [
            u16::from_le_bytes([m[at], m[at + 1]]),
            u16::from_le_bytes([m[at + 2], m[at + 3]]),
        ]
    }
}

/// Writes level `counters` to `path`: whole or not at all (a partial file renamed).
fn write_level(
    path: &Path,
    counters: usize,
    skip_origin: bool,
    level: &Level,
    sweeps: u32,
) -> Result<(), TableFileError> {
    let io = |error| TableFileError::Io {
        path: path.to_path_buf(),
        error,
    };
    use std::io::{Seek, SeekFrom};
    let partial = path.with_extension("partial");
    let mut file = std::fs::File::create(&partial).map_err(io)?;
    // The header, with the checksum, once the body is written.
    file.write_all(&[0; HEADER]).map_err(io)?;
    let mut body = std::io::BufWriter::new(file);
    let crc = write_payload(level, &mut body).map_err(io)?;
    let mut file = body.into_inner().map_err(|e| io(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let head = header(counters, skip_origin, level.len(), sweeps, crc);
    file.write_all(&head).map_err(io)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&partial, path).map_err(io)
}

/// Maps level `counters` of `states` positions from `path` into memory, checking that
/// it is that level's table under that rule, whole and undamaged; returns it with the
/// sweeps its build took.
fn map_level(
    path: &Path,
    counters: usize,
    skip_origin: bool,
    states: usize,
) -> Result<(MappedLevel, u32), TableFileError> {
    let (level, sweeps) = map_unchecked(path, counters, skip_origin, states)?;
    check_sum(path, &level)?;
    Ok((level, sweeps))
}

/// [`map_level`] but for the checksum, which reads the whole file: that and its length
/// are checked.
fn map_unchecked(
    path: &Path,
    counters: usize,
    skip_origin: bool,
    states: usize,
) -> Result<(MappedLevel, u32), TableFileError> {
    // A FIFO or a device in its place is refused, never waited for; a file cut short
    // under the map reads as zeros and marks the level damaged (see `files::Mapped`).
    let map = crate::files::Mapped::open(path).map_err(TableFileError::File)?;
    let bytes: &[u8] = &map;
    let foreign = |why: String| TableFileError::Foreign {
        path: path.to_path_buf(),
        why,
    };
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(foreign("it does not start with LUDUSMTB".into()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(foreign(format!("format version {version}, not {VERSION}")));
    }
    let found = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    if found != counters {
        return Err(foreign(format!(
            "it holds {found} counters, not {counters}"
        )));
    }
    if bytes[12] != u8::from(skip_origin) {
        let rule = |on: bool| if on { "on" } else { "off" };
        return Err(foreign(format!(
            "it is for skip-origin {}, not {}",
            rule(bytes[12] == 1),
            rule(skip_origin)
        )));
    }
    let expected = (HEADER + states * 6) as u64;
    if bytes.len() as u64 != expected {
        return Err(TableFileError::Length {
            path: path.to_path_buf(),
            bytes: bytes.len() as u64,
            expected,
        });
    }
    let sweeps = u32::from_le_bytes(bytes[24..28].try_into().expect("4 bytes"));
    let map = Arc::new(map);
    Ok((MappedLevel { map, states }, sweeps))
}

/// Checks a mapped level's contents against the checksum in its header.
fn check_sum(path: &Path, level: &MappedLevel) -> Result<(), TableFileError> {
    let bytes: &[u8] = &level.map;
    let stored = u32::from_le_bytes(bytes[28..32].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[HEADER..]) != stored {
        return Err(TableFileError::Corrupt {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Files up to this size are checked whole when a folder is opened; larger ones (from
/// 22 counters: 2.3 GB) are left to [`check_pending`], as reading 39 GB of files to
/// 28 counters would hold the engine up for a minute or more.
pub(super) const CHECKED_AT_ONCE: usize = 1 << 30;

/// The levels of a folder mapped but whose checksums are still to be checked, smallest
/// first, for one sowing rule.
pub(super) struct Pending {
    dir: PathBuf,
    skip_origin: bool,
    levels: Vec<(usize, MappedLevel)>,
}

impl Pending {
    pub(super) fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// The most counters among them.
    pub(super) fn up_to(&self) -> usize {
        self.levels.last().map_or(0, |&(n, _)| n)
    }
}

/// The tables in `dir` for the sowing rule, mapped into memory: the levels from 2
/// counters up to the last of an unbroken run of sound files. A file that is there but
/// unsound ends the run and is returned beside the table, which goes on without it;
/// without a sound first level (2 counters) there is no table.
pub fn open_dir(
    dir: &Path,
    skip_origin: bool,
) -> Result<(Table, Option<TableFileError>), TableFileError> {
    let (mut levels, pending, refused) =
        open_dir_checking_small(dir, skip_origin, CHECKED_AT_ONCE)?;
    let refused = check_pending(&mut levels, pending, &mut |_| {}).or(refused);
    Ok((table_of(&levels, skip_origin), refused))
}

/// [`open_dir`], checking the checksums of the files up to `small` bytes only (from the
/// first level on): returns the levels checked (2 counters up), those left to check,
/// and the file that ended the run.
pub(super) fn open_dir_checking_small(
    dir: &Path,
    skip_origin: bool,
    small: usize,
) -> Result<(Vec<MappedLevel>, Pending, Option<TableFileError>), TableFileError> {
    let ranker = super::Ranker::new();
    let mut levels = Vec::new();
    let mut pending = Pending {
        dir: dir.to_path_buf(),
        skip_origin,
        levels: Vec::new(),
    };
    let mut refused = None;
    for n in (2..=super::MAX_COUNTERS).step_by(2) {
        let path = dir.join(level_file_name(n, skip_origin));
        if !path.exists() {
            break;
        }
        let states = ranker.count(n) as usize * 2;
        let mapped = map_unchecked(&path, n, skip_origin, states).and_then(|(level, _)| {
            if pending.is_empty() && level.bytes() <= small {
                check_sum(&path, &level)?;
                levels.push(level);
            } else {
                pending.levels.push((n, level));
            }
            Ok(())
        });
        if let Err(e) = mapped {
            refused = Some(e);
            break;
        }
    }
    if levels.is_empty() {
        return Err(refused.unwrap_or(TableFileError::Missing {
            path: dir.join(level_file_name(2, skip_origin)),
        }));
    }
    Ok((levels, pending, refused))
}

/// Checks the pending levels one by one, smallest first, adding each that passes to
/// `levels` and handing `checked` the levels sound so far; returns the first unsound
/// file, which ends the levels used.
pub(super) fn check_pending(
    levels: &mut Vec<MappedLevel>,
    pending: Pending,
    checked: &mut dyn FnMut(&[MappedLevel]),
) -> Option<TableFileError> {
    for (n, level) in pending.levels {
        let path = pending.dir.join(level_file_name(n, pending.skip_origin));
        if let Err(e) = check_sum(&path, &level) {
            return Some(e);
        }
        levels.push(level);
        checked(levels);
    }
    None
}

/// The table of mapped levels `2, 4, ...` (their maps shared, not copied).
pub(super) fn table_of(levels: &[MappedLevel], skip_origin: bool) -> Table {
    let levels = levels.iter().cloned().map(Level::Mapped).collect();
    Table::with_even_levels(levels, skip_origin)
}

/// Builds the tables up to `max_counters` in `dir`, a file a level: a level whose file
/// is there and sound is read, not built, so a build cut off goes on where it
/// stopped, and a larger one extends a smaller; a level built is written at once.
/// `progress` gets a line a level. A file that is there but unsound (cut off, damaged,
/// of another rule) is an error: remove it to have it built again.
pub fn build_into(
    dir: &Path,
    max_counters: usize,
    skip_origin: bool,
    threads: usize,
    progress: &mut dyn Write,
) -> Result<Table, TableFileError> {
    std::fs::create_dir_all(dir).map_err(|error| TableFileError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let started = std::time::Instant::now();
    let path = |n: usize| dir.join(level_file_name(n, skip_origin));
    // Both hooks write to it, one at a time.
    let progress = std::cell::RefCell::new(progress);
    Table::build_levels(
        max_counters,
        skip_origin,
        threads,
        &mut |n, states| {
            let file = path(n);
            if !file.exists() {
                return Ok(None);
            }
            let (level, sweeps) = map_level(&file, n, skip_origin, states)?;
            let _ = writeln!(
                progress.borrow_mut(),
                "{n:>2} counters: read {} ({states} positions)",
                file.display()
            );
            Ok(Some((Level::Mapped(level), sweeps)))
        },
        &mut |n, level, sweeps| {
            let file = path(n);
            write_level(&file, n, skip_origin, &level, sweeps)?;
            let states = level.len();
            // The level is held from its file from now on: its memory goes back. Its
            // checksum was just computed from these very bytes: no need to read them
            // all again.
            drop(level);
            let (mapped, _) = map_unchecked(&file, n, skip_origin, states)?;
            let _ = writeln!(
                progress.borrow_mut(),
                "{n:>2} counters: built in {sweeps} sweeps and written to {} ({} bytes) at {:.1} s",
                file.display(),
                mapped.bytes(),
                started.elapsed().as_secs_f64()
            );
            Ok(Level::Mapped(mapped))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-tables-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn tables_written_and_read_back_are_the_tables_built_in_memory() {
        let dir = scratch("roundtrip");
        let mut log = Vec::new();
        let written = build_into(&dir, 10, false, 2, &mut log).unwrap();
        let memory = Table::build(10, false, 2).unwrap();
        let read = build_into(&dir, 10, false, 2, &mut log).unwrap();
        for n in (2..=10).step_by(2) {
            assert!(
                written.levels[n] == memory.levels[n],
                "level {n} as written"
            );
            assert!(read.levels[n] == memory.levels[n], "level {n} as read");
        }
        let log = String::from_utf8(log).unwrap();
        // The first run built every level, the second read every one.
        assert_eq!(log.matches("built in").count(), 5, "{log}");
        assert_eq!(log.matches(": read ").count(), 5, "{log}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cut_off_build_goes_on_and_a_bigger_one_extends_a_smaller() {
        let dir = scratch("resume");
        build_into(&dir, 8, false, 2, &mut Vec::new()).unwrap();
        let eight = std::fs::read(dir.join(level_file_name(8, false))).unwrap();
        // Level 8 lost, as if the build had stopped during it.
        std::fs::remove_file(dir.join(level_file_name(8, false))).unwrap();
        let mut log = Vec::new();
        build_into(&dir, 10, false, 2, &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert_eq!(log.matches(": read ").count(), 3, "{log}");
        assert_eq!(log.matches("built in").count(), 2, "{log}");
        assert_eq!(
            std::fs::read(dir.join(level_file_name(8, false))).unwrap(),
            eight
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cut_off_damaged_and_foreign_files_are_refused() {
        let dir = scratch("refused");
        build_into(&dir, 6, false, 2, &mut Vec::new()).unwrap();
        let six = dir.join(level_file_name(6, false));
        let good = std::fs::read(&six).unwrap();
        let refusal = |bytes: &[u8]| {
            std::fs::write(&six, bytes).unwrap();
            build_into(&dir, 6, false, 2, &mut Vec::new())
                .err()
                .expect("refused")
                .to_string()
        };
        let cut = refusal(&good[..good.len() - 7]);
        assert!(cut.contains("cut off or not a table"), "{cut}");
        let mut damaged = good.clone();
        damaged[HEADER + 5] ^= 1;
        assert!(refusal(&damaged).contains("does not match its checksum"));
        let mut rule = good.clone();
        rule[12] = 1;
        assert!(refusal(&rule).contains("it is for skip-origin on, not off"));
        let mut level = good.clone();
        level[10] = 4;
        assert!(refusal(&level).contains("it holds 4 counters, not 6"));
        assert!(refusal(b"not a table").contains("does not start with LUDUSMTB"));
        // Put back, it is read again.
        std::fs::write(&six, &good).unwrap();
        assert!(build_into(&dir, 6, false, 2, &mut Vec::new()).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_folder_of_files_is_mapped_and_agrees_with_the_build_on_every_position() {
        let dir = scratch("mapped");
        build_into(&dir, 10, false, 2, &mut Vec::new()).unwrap();
        let (mapped, refused) = open_dir(&dir, false).unwrap();
        assert!(refused.is_none());
        assert_eq!(mapped.max_counters(), 10);
        let memory = Table::build(10, false, 2).unwrap();
        for n in (2..=10).step_by(2) {
            assert!(matches!(mapped.levels[n], Level::Mapped(_)));
            assert!(mapped.levels[n] == memory.levels[n], "level {n}");
        }
        // The moves chosen from the files are the build's.
        let mut pits = super::super::first_composition(10);
        for _ in 0..memory.ranker.count(10) {
            for mover in 0..2 {
                assert_eq!(
                    mapped.best_move(&pits, mover),
                    memory.best_move(&pits, mover)
                );
            }
            super::super::next_composition(&mut pits);
        }
        // No files of the other rule: that is no table, and says what is missing.
        let missing = open_dir(&dir, true).err().unwrap().to_string();
        assert!(
            missing.contains("mangala-skip-origin-02.ltb is missing"),
            "{missing}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Large files are checked after the folder is opened, level by level: each is
    /// used once it has passed, and a damaged one ends the levels used.
    #[test]
    fn large_files_are_checked_level_by_level_after_opening() {
        let dir = scratch("pending");
        build_into(&dir, 10, false, 2, &mut Vec::new()).unwrap();
        let ten = dir.join(level_file_name(10, false));
        let mut bytes = std::fs::read(&ten).unwrap();
        bytes[HEADER + 1000] ^= 0x01;
        std::fs::write(&ten, &bytes).unwrap();
        // 2 to 6 counters are under 200 kB: checked at once; 8 and 10 are not.
        let (mut levels, pending, refused) = open_dir_checking_small(&dir, false, 200_000).unwrap();
        assert_eq!(levels.len(), 3);
        assert_eq!(pending.up_to(), 10);
        assert!(refused.is_none());
        let mut published = Vec::new();
        let refused = check_pending(&mut levels, pending, &mut |sound| {
            published.push(2 * sound.len())
        });
        assert_eq!(published, [8]);
        let refused = refused.unwrap().to_string();
        assert!(
            refused.contains("mangala-10.ltb does not match its checksum"),
            "{refused}"
        );
        // The whole check at once finds the same.
        let (table, refused) = open_dir(&dir, false).unwrap();
        assert_eq!(table.max_counters(), 8);
        assert!(refused.is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unsound_file_ends_the_levels_used_and_is_named() {
        let dir = scratch("unsound");
        build_into(&dir, 10, false, 2, &mut Vec::new()).unwrap();
        let eight = dir.join(level_file_name(8, false));
        let mut bytes = std::fs::read(&eight).unwrap();
        bytes[HEADER + 100] ^= 0x10;
        std::fs::write(&eight, &bytes).unwrap();
        let (table, refused) = open_dir(&dir, false).unwrap();
        // Levels 2 to 6 are used; 8 is refused, and 10 is not used without it.
        assert_eq!(table.max_counters(), 6);
        let refused = refused.unwrap().to_string();
        assert!(
            refused.contains("mangala-08.ltb does not match its checksum"),
            "{refused}"
        );
        let mut pits = [0u8; super::super::PITS];
        pits[0] = 4;
        pits[7] = 4;
        assert!(table.probe(&pits, 0).is_none());
        pits[0] = 2;
        assert!(table.probe(&pits, 0).is_some());
        // A cut-off first level: no table at all.
        let two = dir.join(level_file_name(2, false));
        let good = std::fs::read(&two).unwrap();
        std::fs::write(&two, &good[..good.len() - 1]).unwrap();
        let cut = open_dir(&dir, false).err().unwrap().to_string();
        assert!(cut.contains("cut off or not a table"), "{cut}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

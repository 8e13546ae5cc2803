//! The files ludus is pointed at (a network, endgame tables, openings, a match's state
//! and records): opened only when they are regular files, without blocking (a FIFO or a
//! device never holds the engine), and read only up to a stated bound, which a refusal
//! names. Files ludus writes are checked before any work is done for them, so that a
//! device, a directory or an unwritable place is refused at once, never replaced.

use std::fmt;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Why a file could not be used.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened or read.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// It is not a regular file (`kind`: a directory, a FIFO, a device, ...).
    NotRegular { path: PathBuf, kind: &'static str },
    /// It holds more than the bound for its use.
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// A text file that is not UTF-8; `offset`: the first byte that is not.
    NotText { path: PathBuf, offset: usize },
    /// A file to be written whose folder does not exist or is not a folder.
    NoFolder { path: PathBuf },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "{}: {error}", shown(path)),
            FileError::NotRegular { path, kind } => {
                write!(f, "{} is {kind}, not a regular file", shown(path))
            }
            FileError::TooLarge { path, size, limit } => write!(
                f,
                "{} holds more than {} ({}), the most read for this use",
                shown(path),
                bytes(*limit),
                if *size == u64::MAX {
                    "it grew while read".to_string()
                } else {
                    format!("it holds {}", bytes(*size))
                }
            ),
            FileError::NotText { path, offset } => write!(
                f,
                "{} is not UTF-8 text (byte {offset} is not)",
                shown(path)
            ),
            FileError::NoFolder { path } => write!(
                f,
                "{} cannot be written: its folder does not exist",
                shown(path)
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// A path as a reply shows it: control characters escaped, so that no file name can
/// forge a protocol line, and whole (a refusal names the file it refuses).
pub fn shown(path: &Path) -> String {
    crate::game::escaped(&path.to_string_lossy())
}

/// A size in the unit that reads best.
fn bytes(n: u64) -> String {
    const MIB: u64 = 1 << 20;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// What a file that is not regular is, for the refusal.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// Opens `path` for reading if it is a regular file. The open itself does not block
/// (a FIFO without a writer would hold it for ever); the file is then checked for what
/// it is, and reads block as usual.
pub fn open_regular(path: &Path) -> Result<std::fs::File, FileError> {
    let io = |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    let file_type = file.metadata().map_err(io)?.file_type();
    if !file_type.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(file_type),
        });
    }
    // Back to blocking reads: a regular file never waits, and the flag is not wanted
    // on a file handed on (a map of it, say).
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function owns, with flags it just read.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    Ok(file)
}

/// Reads the regular file `path` whole, if it holds at most `limit` bytes (checked
/// before reading and while reading, for a file that grows).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_regular(path)?;
    let io = |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size: u64::MAX,
            limit,
        });
    }
    Ok(bytes)
}

/// [`read_bounded`] for a text file: it must be UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bounded(path, limit)?).map_err(|e| FileError::NotText {
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Whether `path` can be a file ludus writes: a regular file, or nothing yet in a
/// folder that exists. A device, a FIFO or a folder is refused, never replaced.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.file_type().is_file() => Ok(()),
        Ok(meta) => Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            if std::fs::metadata(folder).is_ok_and(|m| m.is_dir()) {
                Ok(())
            } else {
                Err(FileError::NoFolder {
                    path: path.to_path_buf(),
                })
            }
        }
        Err(error) => Err(FileError::Io {
            path: path.to_path_buf(),
            error,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_device_is_refused_before_a_byte_is_read() {
        let e = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(
            e,
            FileError::NotRegular {
                kind: "a character device",
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "/dev/zero is a character device, not a regular file"
        );
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let path = scratch("fifo");
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_bounded(&path, 100).unwrap_err();
        assert!(
            matches!(e, FileError::NotRegular { kind: "a FIFO", .. }),
            "{e}"
        );
        assert!(check_writable(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_folder_is_refused_for_reading_and_writing() {
        let e = read_bounded(Path::new("/"), 100).unwrap_err();
        assert!(matches!(
            e,
            FileError::NotRegular {
                kind: "a folder",
                ..
            }
        ));
        assert!(matches!(
            check_writable(Path::new("/tmp")),
            Err(FileError::NotRegular {
                kind: "a folder",
                ..
            })
        ));
    }

    #[test]
    fn a_file_over_the_bound_is_refused_with_the_bound() {
        let path = scratch("big");
        std::fs::write(&path, vec![b'x'; 2048]).unwrap();
        assert_eq!(read_bounded(&path, 2048).unwrap().len(), 2048);
        let e = read_bounded(&path, 1024).unwrap_err();
        assert!(e.to_string().contains("more than 1 KiB"), "{e}");
        assert!(e.to_string().contains("it holds 2 KiB"), "{e}");
    }

    #[test]
    fn text_must_be_utf8_and_the_refusal_says_where_it_is_not() {
        let path = scratch("bad-text");
        std::fs::write(&path, b"abc\xffdef").unwrap();
        let e = read_text(&path, 100).unwrap_err();
        assert!(matches!(e, FileError::NotText { offset: 3, .. }), "{e}");
    }

    #[test]
    fn a_new_file_needs_an_existing_folder() {
        assert!(check_writable(&scratch("not-yet")).is_ok());
        assert!(matches!(
            check_writable(Path::new("/nonexistent/x.json")),
            Err(FileError::NoFolder { .. })
        ));
    }

    #[test]
    fn a_mapped_file_cut_short_under_the_map_reads_zeros_and_says_so() {
        let path = scratch("mapped");
        std::fs::write(&path, vec![7u8; 64 * 1024]).unwrap();
        let mapped = Mapped::open(&path).unwrap();
        assert_eq!(mapped[40_000], 7);
        assert!(!mapped.damaged());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        // Without the guard, this read kills the process with SIGBUS. (Volatile: the
        // compiler must not reuse the value read before.)
        assert_eq!(unsafe { std::ptr::read_volatile(&mapped[40_000]) }, 0);
        assert!(mapped.damaged());
        let other = scratch("mapped-other");
        std::fs::write(&other, vec![1u8; 8192]).unwrap();
        assert!(!Mapped::open(&other).unwrap().damaged());
    }

    #[test]
    fn a_name_with_control_characters_is_shown_escaped() {
        let e = read_bounded(Path::new("/x\rbestmove k4k5"), 10).unwrap_err();
        let text = e.to_string();
        assert!(!text.contains('\r'), "{text:?}");
        assert!(text.contains("\\r"), "{text:?}");
    }

    #[test]
    fn a_long_name_is_shown_whole() {
        let long = format!("/{}/file", "folder/".repeat(20));
        let e = read_bounded(Path::new(&long), 10).unwrap_err();
        assert!(e.to_string().starts_with(&long), "{e}");
    }
}

/// A regular file mapped into memory for reading, guarded against the file being cut
/// short under the map: a read of a page the file no longer has would kill the process
/// with SIGBUS; here that page reads as zeros instead, and the map says it is
/// [`Mapped::damaged`], so that its user stops trusting it and says so.
pub struct Mapped {
    map: memmap2::Mmap,
    /// Its place among the guarded maps (none when every place was taken: unguarded).
    slot: Option<usize>,
}

impl Mapped {
    /// Maps the regular file `path` (see [`open_regular`]).
    pub fn open(path: &Path) -> Result<Mapped, FileError> {
        let file = open_regular(path)?;
        // SAFETY: the map is read only; a file cut short under it is what the guard
        // catches (ludus itself writes files whole under another name and renames).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|error| FileError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let slot = guard::register(map.as_ptr() as usize, map.len());
        if slot.is_none() && !map.is_empty() {
            log::warn!("{}: mapped without a guard (too many maps)", shown(path));
        }
        Ok(Mapped { map, slot })
    }

    /// Whether a read found the file cut short under the map (what it read there was
    /// zeros, not the file).
    #[inline]
    pub fn damaged(&self) -> bool {
        guard::any_damaged() && self.slot.is_some_and(guard::damaged)
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            guard::unregister(slot);
        }
    }
}

/// Whether any [`Mapped`] of the process was found damaged: one load, for the paths
/// that read maps often.
#[inline]
pub fn any_map_damaged() -> bool {
    guard::any_damaged()
}

/// The SIGBUS guard of [`Mapped`]: a handler that, for a fault inside a registered
/// map, puts a page of zeros in place of the page lost (so the read that faulted goes
/// on) and marks the map damaged; any other fault goes to the handler that was there
/// before (Rust's own, which reports stack overflows, or the default action).
mod guard {
    use std::sync::Once;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    const SLOTS: usize = 256;

    struct Slot {
        start: AtomicUsize,
        len: AtomicUsize,
        damaged: AtomicBool,
    }

    static MAPS: [Slot; SLOTS] = [const {
        Slot {
            start: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            damaged: AtomicBool::new(false),
        }
    }; SLOTS];
    /// Faults caught so far: zero for a process that never saw one (the fast path).
    static CAUGHT: AtomicUsize = AtomicUsize::new(0);
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    static INSTALL: Once = Once::new();
    /// The handler before ours: a `libc::sigaction`, kept as its bytes' owner.
    static mut PREVIOUS: Option<libc::sigaction> = None;

    pub fn register(start: usize, len: usize) -> Option<usize> {
        if len == 0 {
            return None;
        }
        install();
        for (i, slot) in MAPS.iter().enumerate() {
            if slot
                .start
                .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                slot.len.store(len, Ordering::Release);
                slot.damaged.store(false, Ordering::Release);
                slot.start.store(start, Ordering::Release);
                return Some(i);
            }
        }
        None
    }

    pub fn unregister(slot: usize) {
        MAPS[slot].start.store(0, Ordering::Release);
    }

    #[inline]
    pub fn any_damaged() -> bool {
        CAUGHT.load(Ordering::Relaxed) > 0
    }

    pub fn damaged(slot: usize) -> bool {
        MAPS[slot].damaged.load(Ordering::Acquire)
    }

    fn install() {
        INSTALL.call_once(|| {
            // SAFETY: sysconf and sigaction with valid arguments; PREVIOUS is written
            // once, here, before the handler that reads it is installed.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page > 0 {
                    PAGE.store(page as usize, Ordering::Relaxed);
                }
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut old);
                PREVIOUS = Some(old);
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_bus as *const () as usize;
                new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut new.sa_mask);
                libc::sigaction(libc::SIGBUS, &new, std::ptr::null_mut());
            }
        });
    }

    /// Only async-signal-safe work: atomics and mmap.
    extern "C" fn on_bus(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel hands a valid siginfo to an SA_SIGINFO handler.
        let address = unsafe { (*info).si_addr() } as usize;
        for slot in &MAPS {
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            if start == 0 || start == usize::MAX || address < start || address >= start + len {
                continue;
            }
            let page = PAGE.load(Ordering::Relaxed);
            let base = address & !(page - 1);
            // SAFETY: the page lies inside a read-only map this process made; a fixed
            // anonymous map replaces it with zeros, and the map's own unmapping later
            // removes it with the rest.
            let zeros = unsafe {
                libc::mmap(
                    base as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.damaged.store(true, Ordering::Release);
                CAUGHT.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
        // Not ours: the handler before, or the default action (the fault repeats
        // when this returns, and kills the process as it would have).
        // SAFETY: PREVIOUS was set before this handler was installed.
        unsafe {
            let previous = (*std::ptr::addr_of!(PREVIOUS)).as_ref();
            match previous {
                Some(old)
                    if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN =>
                {
                    if old.sa_flags & libc::SA_SIGINFO != 0 {
                        let handler: extern "C" fn(
                            libc::c_int,
                            *mut libc::siginfo_t,
                            *mut libc::c_void,
                        ) = std::mem::transmute(old.sa_sigaction);
                        handler(signal, info, context);
                    } else {
                        let handler: extern "C" fn(libc::c_int) =
                            std::mem::transmute(old.sa_sigaction);
                        handler(signal);
                    }
                }
                _ => {
                    let mut default: libc::sigaction = std::mem::zeroed();
                    default.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(libc::SIGBUS, &default, std::ptr::null_mut());
                }
            }
        }
    }
}

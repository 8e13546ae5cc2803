//! An engine's process as the runner holds it: a process group of its own, killed
//! whole when the engine is done with (so that what a wrapper script started goes
//! too), and its output read in lines of bounded length, with a bounded amount of it
//! waiting to be read, so that no engine can make the runner hold more than a few MiB
//! of what it writes.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

/// The longest line an engine may write (its newline aside): 1 MiB. A longer one is a
/// fault, and nothing more of its output is read.
pub const LINE_LIMIT: usize = 1 << 20;

/// The most of an engine's output kept unread: 16 MiB. Beyond it the reader waits
/// until the runner reads on, and the engine waits with it (its pipe full).
const QUEUE_LIMIT: usize = 16 << 20;

/// What a line costs in the queue beyond its bytes.
const LINE_COST: usize = 64;

/// An engine's process, the leader of a process group of its own: what it starts (a
/// wrapper script's helpers) is in the group too, and is killed with it.
pub struct Group {
    child: Child,
    /// The group was killed and its leader reaped (with its status, if it could be had).
    ended: Option<Option<ExitStatus>>,
}

impl Group {
    /// Starts `command` as the leader of a new process group.
    pub fn spawn(command: &mut Command) -> std::io::Result<Group> {
        live::watch_signals();
        let child = command.process_group(0).spawn()?;
        live::add(child.id() as libc::pid_t);
        Ok(Group { child, ended: None })
    }

    /// The leader's process, for its pipes.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Whether the leader has exited, whatever the rest of the group does. It is not
    /// reaped here: until [`Group::end`], its id is the group's and no other's.
    pub fn leader_exited(&self) -> bool {
        if self.ended.is_some() {
            return true;
        }
        // SAFETY: an all-zero siginfo_t is a valid value; waitid is given a child of
        // this process and a pointer to a local, and WNOWAIT leaves the child a zombie.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let waited = libc::waitid(
                libc::P_PID,
                self.child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            waited == 0 && info.si_pid() != 0
        }
    }

    /// Kills the whole group (SIGKILL) and reaps the leader; its exit status.
    pub fn end(&mut self) -> Option<ExitStatus> {
        if self.ended.is_none() {
            // SAFETY: killpg(2) has no memory effects. The leader is not reaped yet, so
            // its id still names this group and no other process's.
            unsafe {
                libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
            }
            self.ended = Some(self.child.wait().ok());
            live::remove(self.child.id() as libc::pid_t);
        }
        self.ended.flatten()
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.end();
    }
}

/// The groups alive, so that a runner ended by a signal (Ctrl-C, `kill`, a closed
/// terminal) takes them with it: its engines have groups of their own, which the
/// terminal's signal does not reach, and a wrapper's helpers would outlive the match.
mod live {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    const SLOTS: usize = 1024;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    static WATCH: Once = Once::new();

    pub fn add(group: libc::pid_t) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, group, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
        log::warn!("more than {SLOTS} engine processes: a signal may leave some behind");
    }

    pub fn remove(group: libc::pid_t) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(group, 0, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }

    /// SIGINT, SIGTERM and SIGHUP kill every live group, then end the process as the
    /// signal would have.
    pub fn watch_signals() {
        WATCH.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: a handler that does only async-signal-safe work.
                unsafe {
                    libc::signal(signal, on_signal as *const () as libc::sighandler_t);
                }
            }
        });
    }

    /// Only async-signal-safe work: atomics, killpg, signal, raise.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &GROUPS {
            let group = slot.load(Ordering::Acquire);
            if group > 0 {
                // SAFETY: killpg has no memory effects.
                unsafe {
                    libc::killpg(group, libc::SIGKILL);
                }
            }
        }
        // SAFETY: back to the default action, and the signal again: the process ends
        // as it would have without this handler.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

/// What an engine wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line, without its line end; bytes that are not UTF-8 replaced.
    Line(String),
    /// A line longer than [`LINE_LIMIT`]: the last thing read from the engine.
    TooLong,
}

/// An engine's output, read line by line on a thread of its own.
pub struct Lines {
    receiver: Receiver<Output>,
    /// The bytes (and [`LINE_COST`] per line) sent and not yet taken.
    queued: Arc<AtomicUsize>,
}

/// Reads up to and with the next newline into `line`: `Ok(Some(true))` for a line,
/// `Ok(None)` at the end of the output, `Ok(Some(false))` when the line runs past
/// `limit` bytes (its newline aside), which are then all it holds.
fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<bool>> {
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then_some(true));
        }
        let (take, ends) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        if line.len() + take - usize::from(ends) > limit {
            return Ok(Some(false));
        }
        line.extend_from_slice(&buffer[..take]);
        reader.consume(take);
        if ends {
            return Ok(Some(true));
        }
    }
}

impl Lines {
    /// Reads `output` (an engine's standard output) on a thread of its own until it
    /// ends, fails, or holds a line longer than [`LINE_LIMIT`].
    pub fn read(output: impl Read + Send + 'static) -> Lines {
        let (sender, receiver) = mpsc::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&queued);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match read_line(&mut reader, &mut bytes, LINE_LIMIT) {
                    Ok(Some(true)) => {}
                    Ok(Some(false)) => {
                        let _ = sender.send(Output::TooLong);
                        return;
                    }
                    Ok(None) | Err(_) => return,
                }
                // Bytes that are not UTF-8 are replaced, not fatal: a name in Latin-1
                // must not look like a crash.
                let line = String::from_utf8_lossy(&bytes)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                let cost = line.len() + LINE_COST;
                while counter.load(Ordering::Acquire) + cost > QUEUE_LIMIT {
                    if Arc::strong_count(&counter) == 1 {
                        return; // Nobody reads any more.
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                counter.fetch_add(cost, Ordering::AcqRel);
                if sender.send(Output::Line(line)).is_err() {
                    return;
                }
            }
        });
        Lines { receiver, queued }
    }

    fn taken(&self, output: Output) -> Output {
        if let Output::Line(line) = &output {
            self.queued
                .fetch_sub(line.len() + LINE_COST, Ordering::AcqRel);
        }
        output
    }

    /// The next output, waiting at most `wait`.
    pub fn recv_timeout(&self, wait: Duration) -> Result<Output, RecvTimeoutError> {
        self.receiver.recv_timeout(wait).map(|o| self.taken(o))
    }

    /// The next output, if there is one already.
    pub fn try_recv(&self) -> Result<Output, TryRecvError> {
        self.receiver.try_recv().map(|o| self.taken(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(mut input: &[u8], limit: usize) -> Vec<Option<(bool, Vec<u8>)>> {
        let mut read = Vec::new();
        loop {
            let mut line = Vec::new();
            match read_line(&mut input, &mut line, limit).unwrap() {
                None => return read,
                Some(whole) => {
                    read.push(Some((whole, line)));
                    if !whole {
                        return read;
                    }
                }
            }
        }
    }

    /// Whether process `pid` is alive (a zombie is not).
    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.rsplit(") ").next().unwrap().starts_with('Z'))
    }

    #[test]
    fn a_group_is_killed_whole_and_its_leaders_exit_seen_before() {
        let mut command = Command::new("sh");
        command
            .args(["-c", "sleep 1000 & echo $!; exit 3"])
            .stdout(std::process::Stdio::piped());
        let mut group = Group::spawn(&mut command).unwrap();
        let lines = Lines::read(group.child().stdout.take().unwrap());
        let Ok(Output::Line(helper)) = lines.recv_timeout(Duration::from_secs(20)) else {
            panic!("no helper");
        };
        let start = std::time::Instant::now();
        while !group.leader_exited() {
            assert!(start.elapsed() < Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(5));
        }
        // The helper holds the output open, and lives, until the group is ended.
        assert_eq!(
            lines.recv_timeout(Duration::from_millis(50)),
            Err(RecvTimeoutError::Timeout)
        );
        assert!(alive(&helper));
        assert_eq!(group.end().and_then(|s| s.code()), Some(3));
        while alive(&helper) {
            assert!(start.elapsed() < Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            lines.recv_timeout(Duration::from_secs(20)),
            Err(RecvTimeoutError::Disconnected)
        );
        assert!(group.leader_exited());
    }

    #[test]
    fn lines_are_cut_at_newlines_and_bounded() {
        assert_eq!(
            lines_of(b"ab\n\nc", 2),
            vec![
                Some((true, b"ab\n".to_vec())),
                Some((true, b"\n".to_vec())),
                Some((true, b"c".to_vec()))
            ]
        );
        // The bound is on the line, not its newline.
        assert_eq!(lines_of(b"abc\n", 3), vec![Some((true, b"abc\n".to_vec()))]);
        assert_eq!(lines_of(b"abcd\n", 3), vec![Some((false, Vec::new()))]);
        assert!(lines_of(b"", 3).is_empty());
    }

    #[test]
    fn an_output_without_end_is_one_line_too_long() {
        let lines = Lines::read(std::io::repeat(0));
        assert_eq!(
            lines.recv_timeout(Duration::from_secs(20)),
            Ok(Output::TooLong)
        );
        assert_eq!(
            lines.recv_timeout(Duration::from_secs(20)),
            Err(RecvTimeoutError::Disconnected)
        );
    }

    #[test]
    fn lines_lose_their_line_ends_and_bytes_that_are_not_utf8() {
        let lines = Lines::read(&b"= \r\n\ninfo J\xfcrgen\nlast"[..]);
        let mut read = Vec::new();
        while let Ok(output) = lines.recv_timeout(Duration::from_secs(20)) {
            read.push(output);
        }
        let line = |s: &str| Output::Line(s.to_string());
        assert_eq!(
            read,
            vec![
                line("= "),
                line(""),
                line("info J\u{fffd}rgen"),
                line("last")
            ]
        );
        assert_eq!(lines.queued.load(Ordering::Acquire), 0);
    }

    #[test]
    fn output_unread_waits_beyond_the_queue_limit() {
        // Lines of 1 MiB without end: the reader stops at the limit until they are read.
        let line = [vec![b'x'; LINE_LIMIT], vec![b'\n']].concat();
        let lines = Lines::read(Endless(line));
        std::thread::sleep(Duration::from_millis(300));
        assert!(lines.queued.load(Ordering::Acquire) <= QUEUE_LIMIT);
        assert!(matches!(lines.try_recv(), Ok(Output::Line(l)) if l.len() == LINE_LIMIT));
    }

    /// The same bytes again and again.
    struct Endless(Vec<u8>);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.rotate_left(n);
            Ok(n)
        }
    }
}

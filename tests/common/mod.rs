//! A ludus process driven through its standard input and output, as a client would.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

/// The longest a test waits for one line.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(20);

/// A fresh folder of Mangala II endgame table files of up to `counters` counters, made
/// by `ludus endgame --write` (named for the test, `name`, and the process).
pub fn table_files(name: &str, counters: u32) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let made = Command::cargo_bin("ludus")
        .unwrap()
        .args(["endgame", "--counters", &counters.to_string(), "--write"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    dir
}

/// A network file of `hidden` numbers with weights in a fixed pattern (small, so that
/// the evaluations stay in range).
pub fn network_file(hidden: usize) -> Vec<u8> {
    use ludus::games::senamukha::nnue::{features::INPUTS, network::Network};
    let pattern = |n: usize, salt: usize| -> Vec<i16> {
        (0..n)
            .map(|i| ((i * 7919 + salt) % 61) as i16 - 30)
            .collect()
    };
    Network::new(
        hidden,
        pattern(INPUTS * hidden, 1),
        pattern(hidden, 2),
        pattern(2 * hidden, 3),
        vec![0],
    )
    .to_bytes()
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Process {
    /// Starts `ludus` with no arguments (it serves its protocols).
    pub fn start() -> Process {
        Process::start_with(&[])
    }

    /// A ludus process run with the command-line arguments `args`.
    pub fn start_with(args: &[&str]) -> Process {
        let mut child = Command::cargo_bin("ludus")
            .unwrap()
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Process {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line; fails the test after [`LINE_TIMEOUT`].
    pub fn line(&mut self) -> String {
        self.lines
            .recv_timeout(LINE_TIMEOUT)
            .expect("a line from ludus")
    }

    /// A line if one comes within `wait`.
    pub fn line_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// The lines up to and including the first that `last` accepts.
    pub fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Closes the input (the end of the script); the process goes on answering.
    pub fn send_eof(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line, or `None` once the output has ended; fails the test after
    /// [`LINE_TIMEOUT`].
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("no line from ludus within {LINE_TIMEOUT:?}")
            }
        }
    }

    /// Closes the input and waits for a clean exit; returns how long the exit took.
    pub fn close(mut self) -> Duration {
        let started = Instant::now();
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success());
        started.elapsed()
    }

    /// Waits for the process to exit by itself (after `quit`) within `wait`.
    pub fn exits_within(mut self, wait: Duration) {
        let started = Instant::now();
        while started.elapsed() < wait {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success());
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        panic!("ludus did not exit within {wait:?}");
    }
}

/// A `ludus serve` on a free loopback port, ended when dropped.
pub struct Server {
    pub child: Child,
    /// Where it listens: `127.0.0.1:<port>`.
    pub address: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        // A free loopback port, unless the test names where to listen.
        let listen: &[&str] = if args.contains(&"--listen") {
            &[]
        } else {
            &["--listen", "127.0.0.1:0"]
        };
        let mut child = Command::cargo_bin("ludus")
            .unwrap()
            .arg("serve")
            .args(listen)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ludus serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("ludus serves the board at http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the address is announced: {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// A raw HTTP/1.1 GET with the given Host; the status code and the body.
    pub fn get(&self, path: &str, host: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        read_response(stream)
    }

    /// A POST of `body` (JSON) to `path`, from a page of `origin` if given.
    pub fn post(&self, path: &str, body: &str, origin: Option<&str>) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        let origin = origin.map_or_else(String::new, |o| format!("Origin: {o}\r\n"));
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {}\r\n{origin}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        read_response(stream)
    }

    pub fn own_origin(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The server process's threads.
    pub fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .unwrap()
            .count()
    }
}

/// An HTTP response's status and body, read to the end.
fn read_response(mut stream: TcpStream) -> (u16, String) {
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

//! What a hostile or careless client does, each as it was first found to crash, hang
//! or confuse ludus (issue 61): commands in every phase of a search, stops that must
//! reach the work they are meant for, answers in the order of the requests, echoes
//! that must not forge a line, files that are no files.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

/// A ludus process whose input stays open until [`Engine::close`].
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    output: Arc<Mutex<Vec<u8>>>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::cargo_bin("ludus")
            .unwrap()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        let input = child.stdin.take();
        Engine {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().unwrap();
        input.write_all(bytes).unwrap();
        input.flush().unwrap();
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// Waits until the output holds `count` lines that start with `start`; the output
    /// so far, or a failure that shows it.
    fn wait_for(&self, start: &str, count: usize, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let text = self.text();
            if text.lines().filter(|l| l.starts_with(start)).count() >= count {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "no {count} lines starting {start:?} within {timeout:?}; output:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Closes the input and waits for the end; the whole output and whether the
    /// process exited cleanly.
    fn close(mut self) -> (String, bool) {
        self.input = None;
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("no end within 20 s of the input's end:\n{}", self.text());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        std::thread::sleep(Duration::from_millis(20));
        (self.text(), status.success())
    }
}

/// The reply lines (`=`/`?`, `bestmove`) in the order they came.
fn replies(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with('=') || l.starts_with('?') || l.starts_with("bestmove"))
        .collect()
}

#[test]
fn uci_and_ugi_sent_again_during_a_search_are_answered_and_the_search_goes_on() {
    for dialect in ["uci", "ugi"] {
        let mut engine = Engine::start();
        engine.send(format!("{dialect}\ngo infinite\n").as_bytes());
        std::thread::sleep(Duration::from_millis(200));
        engine.send(format!("{dialect}\n").as_bytes());
        let ok = format!("{dialect}ok");
        engine.wait_for(&ok, 2, Duration::from_secs(5));
        assert!(!engine.text().contains("bestmove"), "the search went on");
        engine.send(b"stop\n");
        engine.wait_for("bestmove", 1, Duration::from_secs(5));
        let (text, clean) = engine.close();
        assert!(clean, "{dialect}: exit status not 0:\n{text}");
    }
}

#[test]
fn cecp_option_and_protover_while_thinking_are_served_without_a_crash() {
    let mut engine = Engine::start();
    engine.send(b"xboard\nprotover 2\nnew\nlevel 0 1 0\ngo\n");
    std::thread::sleep(Duration::from_millis(300));
    engine.send(b"option MultiPV=2\nprotover 2\n");
    engine.wait_for("feature setboard", 2, Duration::from_secs(5));
    engine.send(b"ping 7\n");
    let text = engine.wait_for("pong 7", 1, Duration::from_secs(20));
    assert!(
        text.contains("\nmove "),
        "the move came before the pong:\n{text}"
    );
    // Analysing and pondering too.
    engine.send(b"hard\nanalyze\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send(b"option MultiPV=3\nprotover 2\nexit\nping 8\n");
    engine.wait_for("pong 8", 1, Duration::from_secs(5));
    engine.send(b"quit\n");
    let (text, clean) = engine.close();
    assert!(clean, "exit status not 0:\n{text}");
    assert_eq!(text.matches("feature setboard").count(), 3, "{text}");
}

#[test]
fn a_stop_reaches_an_infinite_search_that_a_second_go_waits_behind() {
    // Native, UCI, and a count waiting behind the search.
    let cases: [(&str, &str, usize); 3] = [
        ("1 go infinite\n2 go infinite\n", "3 stop\n", 2),
        ("uci\ngo infinite\ngo infinite\n", "stop\n", 2),
        ("1 go infinite\n2 perft 9\n", "3 stop\n", 1),
    ];
    for (start, stop, bestmoves) in cases {
        let mut engine = Engine::start();
        engine.send(start.as_bytes());
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        engine.send(stop.as_bytes());
        let text = engine.wait_for("bestmove", bestmoves, Duration::from_secs(5));
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{start:?}: the stop took {:?}",
            sent.elapsed()
        );
        if start.contains("perft") {
            // The count started after the search, and the stop was meant for it.
            engine.wait_for("?2", 1, Duration::from_secs(5));
        }
        assert!(!text.contains("panicked"));
        let (text, clean) = engine.close();
        assert!(clean, "{start:?}: {text}");
    }
}

#[test]
fn a_line_that_is_no_request_is_refused_in_its_turn() {
    let mut engine = Engine::start();
    engine.send(b"1 go movetime 300\n2 fen\n3 name\xff\n");
    let mut long = b"4 play ".to_vec();
    long.extend(vec![b'x'; (1 << 20) + 10]);
    long.extend_from_slice(b"\r\n5 name\n");
    engine.send(&long);
    engine.wait_for("=5", 1, Duration::from_secs(10));
    let (text, _) = engine.close();
    let order: Vec<&str> = replies(&text)
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(order, ["=1", "bestmove", "=2", "?3", "?4", "=5"], "{text}");
    assert!(text.contains("?4 line too long"), "{text}");
}

#[test]
fn a_stop_while_requests_wait_is_answered_after_them() {
    let mut engine = Engine::start();
    engine.send(b"1 go movetime 2000\n2 fen\n3 stop\n");
    let sent = Instant::now();
    engine.wait_for("=3", 1, Duration::from_secs(5));
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "the stop waited"
    );
    let (text, _) = engine.close();
    let order: Vec<&str> = replies(&text)
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(order, ["=1", "bestmove", "=2", "=3"], "{text}");
}

#[test]
fn ponderhit_on_a_pondering_genmove_is_answered_after_the_move() {
    let mut engine = Engine::start();
    engine.send(b"1 genmove ponder depth 2\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send(b"2 ponderhit\n");
    engine.wait_for("=2", 1, Duration::from_secs(10));
    let (text, _) = engine.close();
    let order = replies(&text);
    assert_eq!(order.len(), 2, "{text}");
    assert!(order[0].starts_with("=1 "), "{text}");
    assert_eq!(order[1], "=2", "{text}");
}

#[test]
fn a_pondering_genmove_stopped_says_it_played_nothing() {
    let mut engine = Engine::start();
    engine.send(b"1 genmove ponder depth 2\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send(b"2 stop\n3 to_move\n");
    engine.wait_for("=3", 1, Duration::from_secs(10));
    let (text, _) = engine.close();
    assert_eq!(
        replies(&text),
        [
            "?1 stopped while pondering, before ponderhit: no move played",
            "=2",
            "=3 white"
        ],
        "{text}"
    );
}

#[test]
fn an_echoed_value_cannot_forge_a_line() {
    let mut engine = Engine::start();
    engine.send(b"1 game mangala\n2 setoption name EndgamePath value /x\rbestmove k4k5\n");
    engine.send(b"3 setoption name \"\x1b[2J\x07\" value 1\n");
    engine.wait_for("?3", 1, Duration::from_secs(5));
    let (text, _) = engine.close();
    assert!(
        !text.bytes().any(|b| b.is_ascii_control() && b != b'\n'),
        "{text:?}"
    );
    assert!(!text.lines().any(|l| l.starts_with("bestmove")), "{text}");
    // Quoted once: the escape shows as \u{1b}, not \\u{1b}.
    assert!(
        text.contains(r"\u{1b}") && !text.contains(r"\\u{1b}"),
        "{text}"
    );
}

#[test]
fn a_device_or_a_fifo_as_a_network_file_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("ludus-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("net.fifo");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut engine = Engine::start();
    let started = Instant::now();
    engine.send(b"1 setoption name EvalFile value /dev/zero\n");
    engine.send(
        format!(
            "2 setoption name EvalFile value {}\n3 name\n",
            fifo.display()
        )
        .as_bytes(),
    );
    engine.wait_for("=3", 1, Duration::from_secs(5));
    assert!(started.elapsed() < Duration::from_secs(3));
    let (text, _) = engine.close();
    assert!(
        text.contains("?1 ") && text.contains("/dev/zero is a character device"),
        "{text}"
    );
    assert!(text.contains("?2 ") && text.contains("is a FIFO"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_refuse_devices_for_their_files_at_once() {
    let cases: [&[&str]; 4] = [
        &["tree", "--openings", "/dev/zero"],
        &["datagen", "--output", "/dev/null", "--games", "1"],
        &["datagen", "--output", "/tmp", "--games", "1"],
        &["tune", "fit", "/dev/zero"],
    ];
    for args in cases {
        let started = Instant::now();
        let out = Command::cargo_bin("ludus")
            .unwrap()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
    }
}

/// The threads of a process, from /proc.
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn threads_beyond_the_cores_allowed_are_not_started() {
    // On one core, `Threads 64` searches on one thread (64 threads sharing a core took
    // 276 ms to see a stop); the process keeps only its few own threads.
    let ludus = assert_cmd::cargo::cargo_bin("ludus");
    let mut child = Command::new("taskset")
        .args(["-c", "0"])
        .arg(ludus)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"uci\nsetoption name Threads value 64\ngo infinite\n")
        .unwrap();
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let threads = threads_of(child.id());
    input.write_all(b"stop\nquit\n").unwrap();
    drop(input);
    child.wait().unwrap();
    assert!(threads < 10, "{threads} threads on one core");
}

#[test]
fn a_fifo_in_place_of_an_endgame_table_is_refused_at_once() {
    // The first level's file a FIFO: the folder has no table, said at once (opening it
    // used to wait for a writer for ever, not even `name` answered).
    let dir = std::env::temp_dir().join(format!("ludus-fifo-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("mangala-02.ltb");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut engine = Engine::start();
    let started = Instant::now();
    engine.send(
        format!(
            "1 game mangala\n2 setoption name EndgamePath value {}\n3 name\n",
            dir.display()
        )
        .as_bytes(),
    );
    engine.wait_for("=3", 1, Duration::from_secs(5));
    assert!(started.elapsed() < Duration::from_secs(3));
    let (text, _) = engine.close();
    assert!(text.contains("?2 ") && text.contains("is a FIFO"), "{text}");
    // `serve --endgame-path` with it refuses to start, at once.
    let started = Instant::now();
    let out = Command::cargo_bin("ludus")
        .unwrap()
        .args(["serve", "--listen", "127.0.0.1:0", "--endgame-path"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a FIFO"),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

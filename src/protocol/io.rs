//! Reading requests and writing replies: whole lines from a reader thread, whole
//! messages through one writer that flushes each.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The longest request line accepted, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// Everything written goes through here, one whole message at a time, flushed.
#[derive(Clone)]
pub struct Writer(Arc<Mutex<Box<dyn Write + Send>>>);

impl Writer {
    pub fn new(output: impl Write + Send + 'static) -> Writer {
        Writer(Arc::new(Mutex::new(Box::new(output))))
    }

    pub fn send(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output cannot be answered; the input's end will stop us.
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }

    /// Sends `text` as one line.
    pub fn line(&self, text: &str) {
        self.send(&format!("{text}\n"));
    }
}

/// One item from the reader thread.
pub enum Input {
    /// A line without its line end (and without a CR before it).
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`], skipped; its length.
    TooLong(usize),
    End,
}

/// Reads lines of at most `MAX_LINE` bytes on a thread of its own; longer ones are
/// skipped, not stored.
pub fn spawn_reader(input: impl Read + Send + 'static) -> mpsc::Receiver<Input> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || read_lines(input, sender));
    lines
}

fn read_lines(input: impl Read, lines: mpsc::Sender<Input>) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    let mut length = 0usize;
    let mut first = true;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        length += part.len();
        if length <= MAX_LINE {
            line.extend_from_slice(part);
        }
        let used = ends.unwrap_or(chunk.len());
        reader.consume(used);
        if ends.is_some() {
            // A CR before the line feed is not part of the request.
            if line.last() == Some(&b'\r') && length <= MAX_LINE + 1 {
                line.pop();
                length -= 1;
            }
            let message = if length > MAX_LINE {
                Input::TooLong(length)
            } else {
                Input::Line(std::mem::take(&mut line))
            };
            line.clear();
            let message = without_byte_order_mark(message, &mut first);
            length = 0;
            if lines.send(message).is_err() {
                return;
            }
        }
    }
    if length > 0 {
        let message = if length > MAX_LINE {
            Input::TooLong(length)
        } else {
            Input::Line(line)
        };
        let _ = lines.send(without_byte_order_mark(message, &mut first));
    }
    let _ = lines.send(Input::End);
}

/// The first line without the UTF-8 byte-order mark that some editors put before it.
fn without_byte_order_mark(message: Input, first: &mut bool) -> Input {
    let was_first = std::mem::replace(first, false);
    match message {
        Input::Line(mut bytes) if was_first && bytes.starts_with(&[0xEF, 0xBB, 0xBF]) => {
            bytes.drain(..3);
            Input::Line(bytes)
        }
        other => other,
    }
}

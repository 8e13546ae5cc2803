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

    /// Sends `text` whole and flushes it. Control characters other than line feeds
    /// and tabs are escaped (`\r`, `\u{1b}`): whatever a reply echoes, a client that
    /// splits lines on a carriage return or a terminal that reads escapes sees no line
    /// or command that ludus did not write.
    pub fn send(&self, text: &str) {
        let text = without_controls(text);
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

/// `text` with every control character but the line feed and the tab escaped.
fn without_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let raw = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.contains(raw) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut clean = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if raw(c) {
            clean.extend(c.escape_default());
        } else {
            clean.push(c);
        }
    }
    std::borrow::Cow::Owned(clean)
}

/// One item from the reader thread.
pub enum Input {
    /// A line without its line end (and without a CR before it).
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`] (without its line end), skipped: its length,
    /// and its first [`HEAD`] bytes, so that the refusal can name the request's id.
    TooLong {
        length: usize,
        head: Vec<u8>,
    },
    End,
}

/// How much of a line too long is kept: enough for an id.
pub const HEAD: usize = 64;

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
    // The bytes of the line so far, stored or not, and whether the last was a CR.
    let mut length = 0usize;
    let mut last_cr = false;
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
        if let Some(&last) = part.last() {
            last_cr = last == b'\r';
        }
        // Stored while the line may still be taken (with room for a CR before the
        // line end, which does not count); beyond that, only the length is counted.
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = ends.unwrap_or(chunk.len());
        reader.consume(used);
        if ends.is_some() {
            let message = finish_line(&mut line, length, last_cr);
            let message = without_byte_order_mark(message, &mut first);
            (length, last_cr) = (0, false);
            if lines.send(message).is_err() {
                return;
            }
        }
    }
    if length > 0 {
        let message = finish_line(&mut line, length, last_cr);
        let _ = lines.send(without_byte_order_mark(message, &mut first));
    }
    let _ = lines.send(Input::End);
}

/// The line read (`length` bytes, `line` what was kept of them), without the CR before
/// its end; taken if it fits, refused with its head if not.
fn finish_line(line: &mut Vec<u8>, mut length: usize, last_cr: bool) -> Input {
    if last_cr {
        length -= 1;
        if line.len() > length {
            line.truncate(length);
        }
    }
    let mut kept = std::mem::take(line);
    if length > MAX_LINE {
        kept.truncate(HEAD);
        Input::TooLong { length, head: kept }
    } else {
        Input::Line(kept)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: Vec<u8>) -> Vec<Input> {
        spawn_reader(std::io::Cursor::new(bytes)).iter().collect()
    }

    #[test]
    fn a_line_of_the_longest_length_is_taken_with_a_crlf_end() {
        let mut bytes = vec![b'x'; MAX_LINE];
        bytes.extend_from_slice(b"\r\nping\r\n");
        let lines = read(bytes);
        assert!(matches!(&lines[0], Input::Line(l) if l.len() == MAX_LINE));
        assert!(matches!(&lines[1], Input::Line(l) if l == b"ping"));
        assert!(matches!(lines[2], Input::End));
    }

    #[test]
    fn a_line_too_long_keeps_its_head_for_the_id() {
        let mut bytes = b"17 play ".to_vec();
        bytes.extend(vec![b'x'; MAX_LINE]);
        bytes.extend_from_slice(b"\r\n");
        let lines = read(bytes);
        match &lines[0] {
            Input::TooLong { length, head } => {
                assert_eq!(*length, MAX_LINE + 8);
                assert!(head.starts_with(b"17 play xx") && head.len() == HEAD);
            }
            _ => panic!("not refused as too long"),
        }
    }

    #[test]
    fn replies_carry_no_raw_control_characters() {
        assert_eq!(without_controls("= ok\n\n"), "= ok\n\n");
        assert_eq!(
            without_controls("? /x\rbestmove k4k5\u{1b}[2J\u{7}\n"),
            "? /x\\rbestmove k4k5\\u{1b}[2J\\u{7}\n"
        );
    }
}

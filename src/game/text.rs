//! A user's text as messages show it, and words as messages list them. Every refusal
//! in the engine quotes what was sent through [`quoted`] or [`quote`], so a reply stays
//! one printable line of bounded length whatever a client sends.

use super::UnknownChoice;

/// The longest part of a user's text that an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// The part of `text` a message quotes (its first [`QUOTED_CHARS`] characters), and
/// whether the rest was cut off.
fn quoted_part(text: &str) -> (&str, bool) {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => (&text[..end], true),
        None => (text, false),
    }
}

/// A user's text as an error message quotes it: control characters escaped (`\u{1}`),
/// so that a reply stays one printable line, and cut after [`QUOTED_CHARS`] characters
/// (marked `…`).
pub fn quoted(text: &str) -> String {
    let (part, cut) = quoted_part(text);
    let mut shown = escaped(part);
    if cut {
        shown.push('…');
    }
    shown
}

/// A user's text in double quotes, as the engine's refusals quote it: cut as
/// [`quoted`] cuts it, but escaped once, by `{:?}` (control characters, quotes and
/// backslashes), inside the quotes.
pub fn quote(text: &str) -> String {
    let (part, cut) = quoted_part(text);
    let mut quote = format!("{part:?}");
    if cut {
        quote.insert(quote.len() - 1, '…');
    }
    quote
}

/// `text` with its control characters escaped (`\r`, `\u{1b}`), whole.
pub fn escaped(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// `a`, `a and b`, `a, b and c`.
pub fn in_words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `asked` (in any case) as one of `known`, or the error naming what there is.
pub fn choose(
    kind: &'static str,
    game: &'static str,
    known: &[&'static str],
    asked: &str,
) -> Result<&'static str, UnknownChoice> {
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(asked))
        .copied()
        .ok_or_else(|| UnknownChoice {
            kind,
            game,
            name: quoted(asked),
            known: known.to_vec(),
        })
}

//! What a front end asks of a search, in types: the limits every dialect has, whatever
//! its words for them, and the readers of their numbers, so that every dialect refuses
//! a bad number in the same words.

use std::time::{Duration, Instant};

use super::error::LimitError;

/// The most players a game has.
pub const MAX_PLAYERS: usize = 4;
/// The longest mate `go mate` looks for, in moves: its plies fit the deepest search.
pub const MAX_MATE_MOVES: u32 = 32;
/// The deepest search asked for.
pub const MAX_DEPTH: u32 = crate::search::MAX_DEPTH;

/// A search as asked: its limits (unset ones do not bind), whether it ponders, and the
/// root moves it may choose among.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Each player's clock and increment, by the player's index.
    pub time: [Option<Duration>; MAX_PLAYERS],
    pub increment: [Option<Duration>; MAX_PLAYERS],
    pub moves_to_go: Option<u32>,
    /// Mate in at most this many moves.
    pub mate: Option<u32>,
    /// Until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time: the position is the one after the move the engine
    /// expects; the limits bind only from `ponderhit`, the clock starting there.
    pub ponder: bool,
    /// Only these root moves (any notation the game reads); empty: all.
    pub searchmoves: Vec<String>,
    /// The notation of the moves of the reported lines (`pv`); `None`: the canonical
    /// one. The best move is canonical in any case.
    pub notation: Option<String>,
    /// When the request arrived: the clock counts from here.
    pub received: Option<Instant>,
}

/// Reads a count: any number that fits 64 bits, a number that does not named as such.
pub fn count(what: &str, text: Option<&str>) -> Result<u64, LimitError> {
    let missing = || LimitError::Missing {
        what: what.to_string(),
        unit: "",
    };
    let text = text.ok_or_else(missing)?;
    if let Ok(n) = text.parse::<u64>() {
        return Ok(n);
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LimitError::OutOfRange {
            what: what.to_string(),
            text: text.to_string(),
            why: Some(if text.starts_with('-') {
                "negative"
            } else {
                "too large"
            }),
            min: 0,
            max: u64::MAX,
            unit: "",
        });
    }
    Err(LimitError::NotANumber {
        what: what.to_string(),
        text: text.to_string(),
        unit: "",
    })
}

/// Reads a small count from 1 to `max` of `unit`s (a depth, a mate's moves).
pub fn small(
    what: &str,
    text: Option<&str>,
    max: u32,
    unit: &'static str,
) -> Result<u32, LimitError> {
    let text = text.ok_or_else(|| LimitError::Missing {
        what: what.to_string(),
        unit,
    })?;
    match text.parse::<i128>() {
        Ok(n) if (1..=i128::from(max)).contains(&n) => Ok(n as u32),
        Ok(_) => Err(LimitError::OutOfRange {
            what: what.to_string(),
            text: text.to_string(),
            why: None,
            min: 1,
            max: u64::from(max),
            unit,
        }),
        Err(_) => Err(LimitError::NotANumber {
            what: what.to_string(),
            text: text.to_string(),
            unit,
        }),
    }
}

/// Reads a depth: 1 to [`MAX_DEPTH`].
pub fn depth(text: Option<&str>) -> Result<u32, LimitError> {
    small("depth", text, MAX_DEPTH, "")
}

/// Reads the moves of `go mate`: 1 to [`MAX_MATE_MOVES`].
pub fn mate(text: Option<&str>) -> Result<u32, LimitError> {
    small("mate", text, MAX_MATE_MOVES, "moves")
}

/// Milliseconds as a time; beyond a year they mean "no hurry", and the clock's
/// arithmetic stays finite.
pub fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms.min(365 * 24 * 3_600_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_refused_in_words_that_say_what_is_wrong() {
        assert_eq!(count("nodes", Some("12")), Ok(12));
        assert_eq!(
            count("nodes", Some("-1")).unwrap_err().to_string(),
            format!("nodes is out of range (negative): -1 (0 to {})", u64::MAX)
        );
        assert_eq!(
            count("nodes", Some("x")).unwrap_err().to_string(),
            "nodes needs a number, not \"x\""
        );
        assert_eq!(
            count("nodes", None).unwrap_err().to_string(),
            "nodes needs a number"
        );
        assert_eq!(
            mate(Some("0")).unwrap_err().to_string(),
            "mate is out of range: 0 (1 to 32 moves)"
        );
        assert_eq!(
            mate(None).unwrap_err().to_string(),
            "mate needs a number of moves"
        );
        assert_eq!(depth(Some("64")), Ok(64));
        assert!(depth(Some("65")).is_err());
    }
}

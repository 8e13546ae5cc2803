//! One game between engines, refereed by the rules of the ludus library: every move is
//! checked, the clocks are kept here, and an engine that breaks the game (an illegal
//! move, a crash, a stall, a malformed reply, its time run out) loses it.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::engine::{EngineProcess, EngineSpec, Go};
use crate::game::{Game, Outcome};

/// How long the engines get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// `moves` moves in `base` (the whole game when `None`), plus `increment` a move.
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// As `--tc` and `tc=` read it (`10+0.1`, `40/60`), or the limit (`movetime 100 ms`,
/// `depth 6`, `nodes 5000`).
impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

impl TimeControl {
    /// Reads `[moves/]seconds[+increment]`, e.g. `10+0.1`, `40/60`, `0.5+0.05`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, super::ClockError> {
        let bad = || super::ClockError(text.to_string());
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                Some(m.parse::<u32>().ok().filter(|m| *m > 0).ok_or_else(bad)?),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let seconds = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(bad)
        };
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        if base.is_zero() && increment.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            moves,
            base,
            increment,
        })
    }
}

/// The referee's settings.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Settings {
    pub time_control: TimeControl,
    /// Beyond its clock (or movetime) an engine loses only after this much more.
    pub margin: Duration,
    /// With depth or node limits: no answer within this long is a stall.
    pub stall: Duration,
    /// A game still going after this many moves is adjudicated (a draw; in Mentula the
    /// players share the place).
    pub max_plies: usize,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules.
    Rules(Outcome),
    /// The engine in `seat` broke the game.
    Forfeit { seat: usize, reason: String },
    /// Adjudicated at the move limit of the match.
    MoveLimit,
}

/// A played game: the moves in the game's canonical notation and how it ended.
#[derive(Clone, Debug)]
pub struct Played {
    pub moves: Vec<String>,
    pub ending: Ending,
    /// Per seat, how it used its clock; empty when no clock was kept.
    pub clocks: Vec<ClockUse>,
    /// Per move, the score its engine gave it (see [`super::engine::Answer::score`]);
    /// `None` for the opening's moves and where the engine gave none.
    pub scores: Vec<Option<i32>>,
}

/// How one seat used its clock in a game, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockUse {
    /// Moves it made on the clock.
    pub moves: u32,
    /// Time it thought, all moves together.
    pub used_ms: u64,
    /// Time it had: the base time(s) and every increment it was given.
    pub had_ms: u64,
    /// The least it had left after a move; 0 when its clock ran out.
    pub lowest_left_ms: u64,
    /// Its longest move.
    pub longest_ms: u64,
}

/// The clock state of one seat, under its own control (an engine's `tc=`, or the
/// match's).
struct SeatClock {
    remaining: Duration,
    base: Duration,
    increment: Duration,
    /// Moves per session of the control, if it has sessions.
    per_session: Option<u32>,
    moves_made: u32,
    usage: ClockUse,
}

impl SeatClock {
    fn new(control: TimeControl) -> SeatClock {
        let (base, increment, per_session) = match control {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => (base, increment, moves),
            _ => (Duration::ZERO, Duration::ZERO, None),
        };
        SeatClock {
            remaining: base,
            base,
            increment,
            per_session,
            moves_made: 0,
            usage: ClockUse {
                had_ms: base.as_millis() as u64,
                lowest_left_ms: base.as_millis() as u64,
                ..ClockUse::default()
            },
        }
    }
}

/// The time control of the engine `spec`: its own depth or node limit, its own clock
/// (`tc=`), or the match's.
pub fn control_of(spec: &EngineSpec, settings: &Settings) -> TimeControl {
    match (spec.depth, spec.nodes, spec.tc) {
        (Some(d), _, _) => TimeControl::Depth(d),
        (_, Some(n), _) => TimeControl::Nodes(n),
        (_, _, Some(tc)) => tc,
        _ => settings.time_control,
    }
}

/// The request to the engine of `seat` (`spec`) to move after `moves`, its time
/// control ([`control_of`]), and when it must have answered (from `now`).
fn request<'a, G: Game>(
    spec: &EngineSpec,
    start: &'a str,
    moves: &'a [String],
    clocks: &[SeatClock],
    seat: usize,
    settings: &Settings,
    now: Instant,
) -> (Go<'a>, TimeControl, Instant) {
    let mut go = Go {
        players: G::PLAYERS,
        start,
        moves,
        clocks: None,
        moves_to_go: None,
        movetime: None,
        depth: None,
        nodes: None,
    };
    let time_control = control_of(spec, settings);
    let deadline = match time_control {
        TimeControl::Clock { .. } => {
            // Every seat's clock as it stands (with time odds, each its own).
            go.clocks = Some((
                clocks.iter().map(|c| c.remaining).collect(),
                clocks.iter().map(|c| c.increment).collect(),
            ));
            let clock = &clocks[seat];
            go.moves_to_go = clock.per_session.map(|m| m - clock.moves_made % m);
            now + clock.remaining + settings.margin
        }
        TimeControl::MoveTime(t) => {
            go.movetime = Some(t);
            now + t + settings.margin
        }
        TimeControl::Depth(d) => {
            go.depth = Some(d);
            now + settings.stall
        }
        TimeControl::Nodes(n) => {
            go.nodes = Some(n);
            now + settings.stall
        }
    };
    (go, time_control, deadline)
}

/// Plays a game from `start` after `opening` (moves already checked), `engines[s]`
/// playing seat `s`. The caller restarts engines that failed.
pub fn play<G: Game>(
    start: &G,
    opening: &[G::Move],
    engines: &mut [&mut EngineProcess],
    settings: &Settings,
) -> Played {
    let canonical = G::NOTATIONS[0].notation;
    let start_text = start.fen();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for &mv in opening {
        moves.push(position.format_move(mv, canonical));
        position.play(mv);
    }
    let setup_timeout = settings.stall.max(Duration::from_secs(10));
    for (seat, engine) in engines.iter_mut().enumerate() {
        if let Err(failure) = engine.new_game(G::NAME, setup_timeout) {
            return Played {
                moves,
                ending: Ending::Forfeit {
                    seat,
                    reason: failure.to_string(),
                },
                clocks: Vec::new(),
                scores: Vec::new(),
            };
        }
    }
    let mut clocks: Vec<SeatClock> = engines
        .iter()
        .map(|engine| SeatClock::new(control_of(&engine.spec, settings)))
        .collect();
    let mut scores: Vec<Option<i32>> = Vec::new();
    let ending = loop {
        if let Some(outcome) = position.outcome() {
            break Ending::Rules(outcome);
        }
        if moves.len() >= settings.max_plies {
            break Ending::MoveLimit;
        }
        let seat = position.to_move();
        let now = Instant::now();
        let (go, time_control, deadline) = request::<G>(
            &engines[seat].spec,
            &start_text,
            &moves,
            &clocks,
            seat,
            settings,
            now,
        );
        let answer = engines[seat].go(&go, deadline);
        let elapsed = now.elapsed();
        let (text, expected) = match answer {
            Ok(answer) => {
                scores.resize(moves.len(), None);
                scores.push(answer.score);
                (answer.mv, answer.ponder)
            }
            Err(failure) => {
                let reason = match (&failure, time_control) {
                    (super::engine::Failure::Stalled(_), TimeControl::Clock { .. }) => {
                        clocks[seat].usage.lowest_left_ms = 0;
                        format!("lost on time ({failure})")
                    }
                    _ => failure.to_string(),
                };
                break Ending::Forfeit { seat, reason };
            }
        };
        let mv = match position.parse_move(&text) {
            Ok(mv) => mv,
            Err(e) => {
                break Ending::Forfeit {
                    seat,
                    reason: format!("illegal move {text:?}: {e}"),
                };
            }
        };
        if let TimeControl::Clock { .. } = time_control {
            let clock = &mut clocks[seat];
            if elapsed > clock.remaining + settings.margin {
                clock.usage.lowest_left_ms = 0;
                break Ending::Forfeit {
                    seat,
                    reason: format!(
                        "lost on time ({} ms used, {} ms left)",
                        elapsed.as_millis(),
                        clock.remaining.as_millis()
                    ),
                };
            }
            let left = clock.remaining.saturating_sub(elapsed);
            let usage = &mut clock.usage;
            usage.moves += 1;
            usage.used_ms += elapsed.as_millis() as u64;
            usage.longest_ms = usage.longest_ms.max(elapsed.as_millis() as u64);
            usage.lowest_left_ms = usage.lowest_left_ms.min(left.as_millis() as u64);
            usage.had_ms += clock.increment.as_millis() as u64;
            clock.remaining = left + clock.increment;
            clock.moves_made += 1;
            if clock
                .per_session
                .is_some_and(|m| clock.moves_made.is_multiple_of(m))
            {
                clock.remaining += clock.base;
                clock.usage.had_ms += clock.base.as_millis() as u64;
            }
        }
        moves.push(position.format_move(mv, canonical));
        position.play(mv);
        // An engine that ponders thinks on the reply it expects, on the opponent's time.
        if let Some(reply) = expected.filter(|_| engines[seat].spec.ponder && G::PLAYERS.len() == 2)
            && position.outcome().is_none()
            && let Ok(reply_move) = position.parse_move(&reply)
        {
            let mut pondered = moves.clone();
            let mut after = position.clone();
            pondered.push(after.format_move(reply_move, canonical));
            after.play(reply_move);
            if after.outcome().is_none() {
                let (go, _, _) = request::<G>(
                    &engines[seat].spec,
                    &start_text,
                    &pondered,
                    &clocks,
                    seat,
                    settings,
                    Instant::now(),
                );
                if let Err(failure) = engines[seat].ponder(&go, &pondered[pondered.len() - 1]) {
                    break Ending::Forfeit {
                        seat,
                        reason: failure.to_string(),
                    };
                }
            }
        }
    };
    // Kept when any seat played on a clock (a seat without one shows zeros).
    let on_clock = engines.iter().any(|engine| {
        matches!(
            control_of(&engine.spec, settings),
            TimeControl::Clock { .. }
        )
    });
    let clocks = if on_clock {
        clocks.iter().map(|c| c.usage).collect()
    } else {
        Vec::new()
    };
    // One a move played (a move given and refused has none).
    scores.resize(moves.len(), None);
    Played {
        moves,
        ending,
        clocks,
        scores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_back_as_written() {
        for text in ["10+0.1", "3+0.03", "40/60", "0.5+0.05", "300"] {
            assert_eq!(TimeControl::parse_clock(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock {
                moves: None,
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(
            TimeControl::parse_clock("40/60").unwrap(),
            TimeControl::Clock {
                moves: Some(40),
                base: Duration::from_secs(60),
                increment: Duration::ZERO
            }
        );
        for bad in ["", "x", "0/10", "10+", "-1", "0+0", "1e99"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
    }
}

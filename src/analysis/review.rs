//! `ludus review`: every move of a game judged by how much of its player's chance it
//! gave away (protocol-spec/analysis.md, "Review").
//!
//! A player's chance at a position is what the win/draw/loss model makes of the
//! analysis there (wdl.md): for two players the expected score, win plus half the
//! draw; for Mentula the chance of first place. A move's loss is its player's chance
//! before it (the analysis of the position it was played in) less the chance after it
//! (of the position it made; the game's result when it ended the game), in percentage
//! points. Marks follow lichess's thresholds on that drop; the accuracy of a move is
//! lichess's curve of it.

use std::fmt;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::{Query, Response, RootMoves, ScoreField, Settings, TurnLimits};
use crate::game::Game;
use crate::games::{self, Play};

/// A drop of at least this many points is an inaccuracy.
pub const INACCURACY: f64 = 5.0;
/// ... a mistake.
pub const MISTAKE: f64 = 10.0;
/// ... a blunder.
pub const BLUNDER: f64 = 15.0;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        })
    }
}

/// The mark of a drop of `loss` points; none for a move that was the only one.
pub fn mark(loss: f64, only_move: bool) -> Option<Mark> {
    if only_move {
        None
    } else if loss >= BLUNDER {
        Some(Mark::Blunder)
    } else if loss >= MISTAKE {
        Some(Mark::Mistake)
    } else if loss >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// A move's accuracy, 0 to 100, from its loss in points (lichess's curve: 100 for no
/// loss, about 64 at 10 points, about 16 at 40).
pub fn move_accuracy(loss: f64) -> f64 {
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss.max(0.0)).exp()
        - 3.166_924_740_191_411
        + 1.0)
        .clamp(0.0, 100.0)
}

/// A player's accuracy over their moves: the mean of the arithmetic and the harmonic
/// mean of the moves' accuracies (the harmonic mean weighs the bad moves, as lichess's
/// blend does; its volatility weights left out). 100 without moves.
pub fn player_accuracy(accuracies: &[f64]) -> f64 {
    if accuracies.is_empty() {
        return 100.0;
    }
    let n = accuracies.len() as f64;
    let mean = accuracies.iter().sum::<f64>() / n;
    let harmonic = n / accuracies.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    (mean + harmonic) / 2.0
}

/// The two-player chances of a `wdl` (per mille, the side to move's), as each
/// player's expected score, in turn order.
pub fn two_player_chances(wdl: &[u32], mover: usize) -> Vec<f64> {
    let own = (f64::from(wdl[0]) + f64::from(wdl.get(1).copied().unwrap_or(0)) / 2.0) / 1000.0;
    let mut chances = vec![1.0 - own; 2];
    chances[mover] = own;
    chances
}

/// A game reviewed: every move judged, each player's summary, and every position's
/// chances (what an evaluation graph draws).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    pub game: &'static str,
    pub moves: Vec<MoveReview>,
    pub players: Vec<PlayerReview>,
    /// Each position's chances, the start's first and the last position's last: every
    /// player's, per cent, in turn order; `None` where the analysis gave none.
    pub chances: Vec<Option<Vec<f64>>>,
}

/// One move judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveReview {
    /// From 1.
    pub ply: usize,
    pub player: &'static str,
    /// The move played, in the game's canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The analysis's best move there; `None` when the turn gave no analysis.
    pub best: Option<String>,
    pub best_line: Vec<String>,
    /// The analysis's score of the position the move was played in.
    pub score_before: Option<ScoreField>,
    /// The player's chance before and after the move, per cent; `None` without an
    /// analysis.
    pub chance_before: Option<f64>,
    pub chance_after: Option<f64>,
    /// The drop of the player's chance, percentage points (0 for the best move).
    pub loss: f64,
    pub mark: Option<Mark>,
    pub accuracy: f64,
}

/// One player's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerReview {
    pub player: &'static str,
    pub moves: usize,
    pub accuracy: f64,
    pub average_loss: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// Reviews the game of `moves` from `start`: every position analysed (the one before
/// each move and the last) with `settings`, then every move judged. `stop`, raised by
/// another thread, cuts the analysis short; the moves not analysed then are judged
/// without a loss.
pub fn review<G: Play>(
    start: &G,
    moves: &[G::Move],
    settings: &Settings,
    stop: Option<&AtomicBool>,
) -> Review {
    let canonical = G::NOTATIONS[0].notation;
    let mut positions = vec![start.clone()];
    let mut texts = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mut next = positions.last().expect("one at least").clone();
        texts.push(next.format_move(mv, canonical));
        next.play(mv);
        positions.push(next);
    }
    let query = Query {
        id: "review".into(),
        game: G::NAME,
        initial_position: Some(start.fen()),
        moves: texts.clone(),
        turns: (0..positions.len()).collect(),
        limits: TurnLimits::default(),
        lines: 1,
        include_wdl: true,
        root_moves: RootMoves::All,
        priority: 0,
        overrides: Vec::new(),
        report_every: None,
    };
    let mut turns: Vec<Option<super::TurnResult>> = vec![None; positions.len()];
    for response in super::analyse(vec![query], settings, stop) {
        match response {
            Response::Turn(result) => {
                let turn = result.turn;
                turns[turn] = Some(result);
            }
            Response::Error { turn, error, .. } => log::warn!("turn {turn}: {error}"),
            Response::NoResults { .. } => {}
        }
    }
    judge(&positions, &texts, &turns)
}

/// The game to review, by the name of a game of the registry.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A record (records.md), which may name its own start.
    Record(&'a str),
    /// Moves, one a text, in any notation the game reads.
    Moves(&'a [String]),
}

/// Reviews the game `source` of the game called `game`, from `start`'s position (the
/// game's start when `None`; a record's own position tag comes first).
pub fn review_game(
    game: &str,
    start: Option<&str>,
    source: Source<'_>,
    settings: &Settings,
    stop: Option<&AtomicBool>,
) -> Result<Review, ReviewError> {
    struct Reviewing<'a> {
        start: Option<&'a str>,
        source: Source<'a>,
        settings: &'a Settings,
        stop: Option<&'a AtomicBool>,
    }
    impl games::Visitor for Reviewing<'_> {
        type Output = Result<Review, ReviewError>;
        fn visit<G: Play>(self) -> Self::Output {
            let start = match self.start {
                Some(text) => {
                    G::from_fen(text).map_err(|e| ReviewError::Position(e.to_string()))?
                }
                None => G::start(),
            };
            let (start, moves) = match self.source {
                Source::Record(text) => replay(start, text)?,
                Source::Moves(texts) => {
                    let mut position = start.clone();
                    let mut moves = Vec::with_capacity(texts.len());
                    for (k, text) in texts.iter().enumerate() {
                        let mv = position
                            .parse_move(text)
                            .map_err(|e| ReviewError::Move(k, e.to_string()))?;
                        position.play(mv);
                        moves.push(mv);
                    }
                    (start, moves)
                }
            };
            Ok(review(&start, &moves, self.settings, self.stop))
        }
    }
    let reviewing = Reviewing {
        start,
        source,
        settings,
        stop,
    };
    games::visit(game, reviewing).unwrap_or_else(|| Err(ReviewError::Game(game.to_string())))
}

/// A record's start (its position tag's, else `start`) and moves.
pub fn replay<G: Game>(
    start: G,
    record: &str,
) -> Result<(G, Vec<G::Move>), crate::record::RecordError> {
    let (tagged, rest) = crate::record::tagged_start::<G>(record)?;
    let start = tagged.unwrap_or(start);
    let replay = crate::record::replay(start.clone(), rest)?;
    Ok((start, replay.moves))
}

/// Why a review could not start.
#[derive(Debug)]
pub enum ReviewError {
    Game(String),
    Position(String),
    Record(crate::record::RecordError),
    /// The move at this index (from 0) cannot be played, and why.
    Move(usize, String),
}

impl From<crate::record::RecordError> for ReviewError {
    fn from(e: crate::record::RecordError) -> ReviewError {
        ReviewError::Record(e)
    }
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Game(name) => write!(f, "no game is called {name:?}"),
            ReviewError::Position(why) => write!(f, "the starting position: {why}"),
            ReviewError::Record(e) => write!(f, "the record: {e}"),
            ReviewError::Move(k, why) => write!(f, "moves[{k}]: {why}"),
        }
    }
}

impl std::error::Error for ReviewError {}

/// Each player's chance at each position, in turn order: from the analysis, or the
/// game's result at its end.
fn chances<G: Game>(position: &G, turn: Option<&super::TurnResult>) -> Option<Vec<f64>> {
    if let Some(outcome) = position.outcome() {
        let leaders = outcome.leaders();
        return Some(
            (0..G::PLAYERS.len())
                .map(|p| {
                    if leaders.contains(&p) {
                        1.0 / leaders.len() as f64
                    } else {
                        0.0
                    }
                })
                .collect(),
        );
    }
    let wdl = turn?.root_info.search.as_ref()?.wdl.as_ref()?.permille();
    if G::PLAYERS.len() == 2 {
        Some(two_player_chances(wdl, position.to_move()))
    } else {
        Some(wdl.iter().map(|&c| f64::from(c) / 1000.0).collect())
    }
}

fn judge<G: Game>(
    positions: &[G],
    moves: &[String],
    turns: &[Option<super::TurnResult>],
) -> Review {
    let chances: Vec<Option<Vec<f64>>> = positions
        .iter()
        .zip(turns)
        .map(|(p, t)| chances(p, t.as_ref()))
        .collect();
    let players = G::PLAYERS.len();
    let mut accuracies: Vec<Vec<f64>> = vec![Vec::new(); players];
    let mut losses: Vec<Vec<f64>> = vec![Vec::new(); players];
    let mut marks: Vec<[u32; 3]> = vec![[0; 3]; players];
    let mut judged = Vec::new();
    let mut legal = Vec::new();
    let round = |x: f64| (x * 10.0).round() / 10.0;
    for (ply, played) in moves.iter().enumerate() {
        let position = &positions[ply];
        let player = position.to_move();
        position.legal_moves(&mut legal);
        let turn = turns[ply].as_ref();
        let best_info = turn.and_then(|t| t.move_infos.first());
        let best = best_info.map(|info| info.mv.clone());
        let (before, after) = match (&chances[ply], &chances[ply + 1]) {
            (Some(b), Some(a)) => (Some(b[player]), Some(a[player])),
            _ => (None, None),
        };
        // The engine's own choice gives nothing away: a drop then is the next
        // search seeing further, not the move's fault.
        let loss = match (before, after) {
            (Some(b), Some(a)) if best.as_deref() != Some(played.as_str()) => {
                (100.0 * (b - a)).max(0.0)
            }
            _ => 0.0,
        };
        let mark = mark(loss, legal.len() == 1);
        let accuracy = move_accuracy(loss);
        accuracies[player].push(accuracy);
        losses[player].push(loss);
        if let Some(m) = mark {
            marks[player][m as usize] += 1;
        }
        judged.push(MoveReview {
            ply: ply + 1,
            player: G::PLAYERS[player],
            mv: played.clone(),
            best,
            best_line: best_info.map(|info| info.pv.clone()).unwrap_or_default(),
            score_before: turn
                .and_then(|t| t.root_info.search.as_ref())
                .map(|s| s.score.clone()),
            chance_before: before.map(|c| round(100.0 * c)),
            chance_after: after.map(|c| round(100.0 * c)),
            loss: round(loss),
            mark,
            accuracy: round(accuracy),
        });
    }
    let summary = (0..players)
        .map(|p| {
            let n = losses[p].len().max(1) as f64;
            PlayerReview {
                player: G::PLAYERS[p],
                moves: losses[p].len(),
                accuracy: round(player_accuracy(&accuracies[p])),
                average_loss: round(losses[p].iter().sum::<f64>() / n),
                inaccuracies: marks[p][Mark::Inaccuracy as usize],
                mistakes: marks[p][Mark::Mistake as usize],
                blunders: marks[p][Mark::Blunder as usize],
            }
        })
        .collect();
    Review {
        game: G::NAME,
        moves: judged,
        players: summary,
        chances: chances
            .into_iter()
            .map(|c| c.map(|each| each.into_iter().map(|x| round(100.0 * x)).collect()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds_and_spare_an_only_move() {
        assert_eq!(mark(4.9, false), None);
        assert_eq!(mark(5.0, false), Some(Mark::Inaccuracy));
        assert_eq!(mark(12.0, false), Some(Mark::Mistake));
        assert_eq!(mark(40.0, false), Some(Mark::Blunder));
        assert_eq!(mark(40.0, true), None);
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert_eq!(move_accuracy(0.0), 100.0);
        let (ten, forty) = (move_accuracy(10.0), move_accuracy(40.0));
        assert!((ten - 64.6).abs() < 0.1, "{ten}");
        assert!((forty - 15.9).abs() < 0.1, "{forty}");
        assert_eq!(player_accuracy(&[100.0, 100.0]), 100.0);
        // One bad move weighs more than in a plain mean.
        let with_blunder = player_accuracy(&[100.0, 100.0, 100.0, 10.0]);
        assert!(with_blunder < 77.5, "{with_blunder}");
    }

    #[test]
    fn chances_are_in_turn_order() {
        let chances = two_player_chances(&[600, 200, 200], 1);
        assert!((chances[0] - 0.3).abs() < 1e-9, "{chances:?}");
        assert!((chances[1] - 0.7).abs() < 1e-9, "{chances:?}");
    }
}

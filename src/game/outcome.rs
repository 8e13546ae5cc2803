//! How a game ends and what the players score, in terms every game shares: a reason
//! (each game lists its own), a score per player, and the ranking derived from the
//! scores. Also how the turn passes on, since skipping a player who cannot move is
//! what ends Mentula and Mangala II games.

use std::fmt;

use super::Player;

/// Why a game ended. Each game defines its own reasons, in its folder, and lists them
/// in its [`Descriptor`](super::Descriptor); front ends print them without knowing the
/// game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndReason {
    /// The reason in a few words, as status lines and records give it: `checkmate`.
    pub wording: &'static str,
    /// The comment of a result line, as CECP's `1-0 {White mates}` gives it;
    /// `{winner}` stands for the winner's name, capitalised.
    pub comment: &'static str,
    /// What an end for this reason means.
    pub verdict: Verdict,
}

/// What an end for a reason means for the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// One player wins (a checkmate).
    Win,
    /// Everybody draws.
    Draw,
    /// The players' scores decide, which may be a win, a draw or a shared place.
    ByScores,
}

impl EndReason {
    /// A reason with its wording, its result-line comment and its verdict.
    pub const fn new(wording: &'static str, comment: &'static str, verdict: Verdict) -> Self {
        EndReason {
            wording,
            comment,
            verdict,
        }
    }

    /// The result line's comment for `outcome`, naming the winner with `players`.
    pub fn comment_for(&self, outcome: &Outcome, players: &[&str]) -> String {
        let winner = outcome.winner().map(|p| capitalised(players[p]));
        self.comment
            .replace("{winner}", winner.as_deref().unwrap_or("Nobody"))
    }
}

/// `white` as `White`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wording)
    }
}

/// The end of a game: why it ended and what every player scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    /// One score per player, in turn order; higher ranks better. For two-player
    /// chess-like games the winner scores 1 and the loser 0; a draw is 0 to 0.
    pub scores: Vec<i32>,
}

impl Outcome {
    /// The players with the highest score; all players when the game is drawn.
    pub fn leaders(&self) -> Vec<Player> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        (0..self.scores.len())
            .filter(|&p| self.scores[p] == best)
            .collect()
    }

    /// The single winner, if one player scored more than every other.
    pub fn winner(&self) -> Option<Player> {
        match self.leaders().as_slice() {
            [p] => Some(*p),
            _ => None,
        }
    }

    /// The players grouped by rank: the best score first, ties sharing a group.
    pub fn ranking(&self) -> Vec<Vec<Player>> {
        let mut scores: Vec<i32> = self.scores.clone();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        scores
            .into_iter()
            .map(|s| {
                (0..self.scores.len())
                    .filter(|&p| self.scores[p] == s)
                    .collect()
            })
            .collect()
    }

    /// `"white wins"`, `"draw"` (everybody level) or `"white and red share first
    /// place"`, naming players with `names`.
    pub fn verdict(&self, names: &[&str]) -> String {
        let leaders = self.leaders();
        match leaders.as_slice() {
            [p] => format!("{} wins", names[*p]),
            _ if leaders.len() == self.scores.len() => "draw".to_string(),
            _ => {
                let named: Vec<&str> = leaders.iter().map(|&p| names[p]).collect();
                format!("{} share first place", named.join(" and "))
            }
        }
    }
}

/// Hands the turn on after `mover` has played: to the next player in turn order for
/// whom `can_move` holds (players who cannot move are skipped, as Mentula's statura and
/// Mangala's passes require), or to the next player in order if nobody can move.
/// Returns that player and whether the turn passed the first seat, which opens a new
/// round.
pub fn next_turn(
    mover: Player,
    players: usize,
    can_move: impl Fn(Player) -> bool,
) -> (Player, bool) {
    let steps = (1..=players)
        .find(|&k| can_move((mover + k) % players))
        .unwrap_or(1);
    let next = (mover + steps) % players;
    (next, next <= mover)
}

/// A score of `value` units of 1 / `units` as a number: `10.5` for 126 twelfths.
pub fn score_value(value: i32, units: i32) -> f64 {
    f64::from(value) / f64::from(units)
}

/// A score as people read it: `16`, `10.5`, `21.33` (at most two decimals; the score
/// itself stays exact, see [`Descriptor::score_units`](super::Descriptor::score_units)).
pub fn score_text(score: f64) -> String {
    if score.fract() == 0.0 {
        return format!("{score:.0}");
    }
    format!("{score:.2}").trim_end_matches('0').to_string()
}

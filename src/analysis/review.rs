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
pub fn two_player_chances(wdl: &[u64], mover: usize) -> Vec<f64> {
    let own = (wdl[0] as f64 + wdl.get(1).copied().unwrap_or(0) as f64 / 2.0) / 1000.0;
    let mut chances = vec![1.0 - own; 2];
    chances[mover] = own;
    chances
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

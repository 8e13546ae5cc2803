//! Scores people understand: a search's score turned into chances, per mille, as
//! `info ... wdl W D L` gives them (`UCI_ShowWDL`).
//!
//! - Two players: the chances of a win, a draw and a loss for the side to move, from a
//!   [`LogisticModel`] of the score and the material left (Stockfish's form: the
//!   chance of winning is a logistic curve of the score whose centre and width depend
//!   on the material). A proven result (a mate, a value the endgame tables prove) is
//!   certain: `1000 0 0`.
//! - More players: each player's chance of finishing first, a shared first place
//!   split, from a [`FirstPlaceModel`] of every player's score.
//!
//! The models' parameters are fitted on ludus's own games by `ludus wdl`
//! (`crate::learning::wdl`); each game keeps its parameters beside its evaluation.

use std::fmt;

use super::{PROVEN_WIN, Score};

/// Chances per mille, summing to 1000.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// Win, draw, loss for the side to move.
    TwoPlayer([u32; 3]),
    /// Each player's chance of finishing first, in turn order.
    Players(Vec<u32>),
}

impl Wdl {
    /// The chances as numbers, in the order they are written.
    pub fn permille(&self) -> &[u32] {
        match self {
            Wdl::TwoPlayer(wdl) => wdl,
            Wdl::Players(each) => each,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("wdl")?;
        for n in self.permille() {
            write!(f, " {n}")?;
        }
        Ok(())
    }
}

/// Probabilities (summing to 1) as per mille summing to exactly 1000: each rounded
/// down, the remainder given to the largest fractions (the largest-remainder method),
/// so that no chance that is not 0 or 1 is written as 0 or 1000 by rounding alone.
pub fn to_permille(probabilities: &[f64]) -> Vec<u32> {
    let total: f64 = probabilities.iter().map(|p| p.max(0.0)).sum();
    if total <= 0.0 || !total.is_finite() {
        let n = probabilities.len().max(1) as u32;
        let mut even = vec![1000 / n; probabilities.len()];
        if let Some(first) = even.first_mut() {
            *first += 1000 % n;
        }
        return even;
    }
    let scaled: Vec<f64> = probabilities
        .iter()
        .map(|p| 1000.0 * p.max(0.0) / total)
        .collect();
    let mut permille: Vec<u32> = scaled.iter().map(|s| s.floor() as u32).collect();
    let mut left = 1000 - permille.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..scaled.len()).collect();
    order.sort_by(|&a, &b| {
        let frac = |i: usize| scaled[i] - scaled[i].floor();
        frac(b).total_cmp(&frac(a))
    });
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        permille[i] += 1;
        left -= 1;
    }
    permille
}

/// [`to_permille`] for a model's estimate, which is never certain: an outcome rounded
/// to 0 gets 1 per mille, taken from the largest (only a proof says 0 or 1000).
pub fn to_uncertain_permille(probabilities: &[f64]) -> Vec<u32> {
    let mut permille = to_permille(probabilities);
    while let Some(zero) = permille.iter().position(|&p| p == 0) {
        let largest = (0..permille.len())
            .max_by_key(|&i| permille[i])
            .expect("not empty");
        if permille[largest] <= 1 {
            break;
        }
        permille[largest] -= 1;
        permille[zero] = 1;
    }
    permille
}

/// A cubic in `x`, coefficients from the highest power down: `((c0 x + c1) x + c2) x + c3`.
pub fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// The two-player model: with the score `v` (centi-units, the side to move's view)
/// and the material `x` (the game's measure, 0 to 1 of the start's), the chance of
/// winning is `1 / (1 + exp((a(x) - w) / b(x)))`, of losing the same of `-w`, of a
/// draw what is left; `a` and `b` are cubics in `x` (centi-units, `x` held to the
/// range the fit had data for), and `w` is the
/// score compressed, `c asinh(v / c)`: as `v` near 0, slower far from it, since a big
/// score wins less surely than the logistic's thin tails say (the searches of
/// ludus's fast games err, and scores far from 0 are rarer and noisier).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogisticModel {
    /// The centre: the score that wins half the games.
    pub a: [f64; 4],
    /// The width: how fast the chance rises with the score.
    pub b: [f64; 4],
    /// The compression's scale `c` (centi-units); infinite: none.
    pub compress: f64,
    /// The material is held to this range before the cubics are evaluated, the one
    /// the fit saw.
    pub x_range: (f64, f64),
}

impl LogisticModel {
    /// The centre and the width at material `x`; the width at least one centi-unit
    /// and the centre at least 0 (a draw's chance is never negative).
    pub fn centre_and_width(&self, x: f64) -> (f64, f64) {
        let x = x.clamp(self.x_range.0, self.x_range.1);
        (cubic(&self.a, x).max(0.0), cubic(&self.b, x).max(1.0))
    }

    /// The score as the curve takes it (see the type's comment).
    pub fn compressed(&self, v: f64) -> f64 {
        if self.compress.is_finite() {
            self.compress * (v / self.compress).asinh()
        } else {
            v
        }
    }

    /// Win, draw and loss probabilities.
    pub fn probabilities(&self, v: f64, x: f64) -> [f64; 3] {
        let (a, b) = self.centre_and_width(x);
        let v = self.compressed(v);
        let win = logistic((v - a) / b);
        let loss = logistic((-v - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }
}

/// The standard logistic function.
pub fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The multi-player model: player `i`'s chance of finishing first is
/// `exp(s_i / t) / sum_j exp(s_j / t)` over the players' scores `s`, where the
/// temperature `t` is linear in the material `x` (0 to 1 of the start's): `t = t0 + t1 x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FirstPlaceModel {
    pub t: [f64; 2],
}

impl FirstPlaceModel {
    pub fn temperature(&self, x: f64) -> f64 {
        (self.t[0] + self.t[1] * x.clamp(0.0, 1.0)).max(1.0)
    }

    pub fn probabilities(&self, scores: &[f64], x: f64) -> Vec<f64> {
        let t = self.temperature(x);
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| ((s - top) / t).exp()).collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}

/// How the scores of one search's root become chances: the model and what it needs
/// of the root position, made once per search ([`super::Searchable::chances_at`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Chances {
    /// Two players.
    Logistic {
        model: LogisticModel,
        /// The root's material, the model's `x`.
        material: f64,
        /// A score of exactly 0 is a proven draw (the endgame tables cover the root,
        /// so every line's value is exact).
        exact: bool,
    },
    /// More players.
    FirstPlace {
        model: FirstPlaceModel,
        material: f64,
        /// The scores are evaluations (the alpha-beta searches'), read as the rewards
        /// per mille Monte Carlo would give them, which the model was fitted on.
        from_evaluations: bool,
    },
}

impl Chances {
    /// The chances the `scores` of a line mean (one score for two players, one per
    /// player for more).
    pub fn of(&self, scores: &[Score]) -> Wdl {
        match self {
            Chances::Logistic {
                model,
                material,
                exact,
            } => Wdl::TwoPlayer(match scores.first() {
                Some(Score::Mate(n)) if *n > 0 => [1000, 0, 0],
                Some(Score::Mate(_)) => [0, 0, 1000],
                Some(&Score::Centi(v)) if v >= PROVEN_WIN => [1000, 0, 0],
                Some(&Score::Centi(v)) if v <= -PROVEN_WIN => [0, 0, 1000],
                Some(&Score::Centi(0)) if *exact => [0, 1000, 0],
                Some(&Score::Centi(v)) => {
                    let p = model.probabilities(f64::from(v), *material);
                    let permille = to_uncertain_permille(&p);
                    [permille[0], permille[1], permille[2]]
                }
                None => [0, 1000, 0],
            }),
            Chances::FirstPlace {
                model,
                material,
                from_evaluations,
            } => {
                // A player who wins by force is first; one who loses by force is not.
                if let Some(winner) = scores
                    .iter()
                    .position(|s| matches!(s, Score::Mate(n) if *n > 0))
                {
                    let mut each = vec![0; scores.len()];
                    each[winner] = 1000;
                    return Wdl::Players(each);
                }
                let mut values: Vec<f64> = scores
                    .iter()
                    .map(|s| match s {
                        Score::Centi(v) => f64::from(*v),
                        Score::Mate(_) => f64::from(-PROVEN_WIN),
                    })
                    .collect();
                if *from_evaluations {
                    values = super::mcts::rewards_of(&values)
                        .into_iter()
                        .map(|r| 1000.0 * r)
                        .collect();
                }
                Wdl::Players(to_uncertain_permille(
                    &model.probabilities(&values, *material),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: LogisticModel = LogisticModel {
        a: [0.0, 0.0, 0.0, 150.0],
        b: [0.0, 0.0, 0.0, 60.0],
        compress: f64::INFINITY,
        x_range: (0.0, 1.0),
    };

    fn two(material: f64, exact: bool) -> Chances {
        Chances::Logistic {
            model: MODEL,
            material,
            exact,
        }
    }

    #[test]
    fn permille_always_sums_to_1000_and_keeps_small_chances_visible() {
        for p in [
            vec![0.3333, 0.3333, 0.3334],
            vec![0.0004, 0.999, 0.0006],
            vec![0.25; 4],
            vec![0.0, 0.0],
        ] {
            assert_eq!(to_permille(&p).iter().sum::<u32>(), 1000, "{p:?}");
        }
        assert_eq!(to_permille(&[0.0004, 0.999, 0.0006]), vec![0, 999, 1]);
        // A model is never certain: every outcome keeps at least 1 per mille.
        assert_eq!(to_uncertain_permille(&[0.0, 1.0, 0.0]), vec![1, 998, 1]);
        assert_eq!(to_uncertain_permille(&[0.2, 0.5, 0.3]), vec![200, 500, 300]);
        assert_eq!(to_permille(&[0.5, 0.5]), vec![500, 500]);
    }

    #[test]
    fn the_logistic_model_is_symmetric_and_centred_on_a() {
        let even = two(0.5, false).of(&[Score::Centi(0)]);
        let Wdl::TwoPlayer([w, d, l]) = even else {
            panic!("{even:?}")
        };
        assert_eq!(w, l);
        assert!(d > 800 && d > w, "{even:?}");
        // At the centre, half the games are won.
        let p = MODEL.probabilities(150.0, 0.5);
        assert!((p[0] - 0.5).abs() < 1e-9);
        let up = two(0.5, false).of(&[Score::Centi(300)]);
        let down = two(0.5, false).of(&[Score::Centi(-300)]);
        let (Wdl::TwoPlayer(u), Wdl::TwoPlayer(d)) = (up, down) else {
            panic!()
        };
        assert_eq!((u[0], u[1], u[2]), (d[2], d[1], d[0]));
    }

    #[test]
    fn proven_results_are_certain() {
        let c = two(0.5, true);
        assert_eq!(c.of(&[Score::Mate(1)]), Wdl::TwoPlayer([1000, 0, 0]));
        assert_eq!(c.of(&[Score::Mate(-2)]), Wdl::TwoPlayer([0, 0, 1000]));
        assert_eq!(
            c.of(&[Score::Centi(PROVEN_WIN + 3)]),
            Wdl::TwoPlayer([1000, 0, 0])
        );
        assert_eq!(c.of(&[Score::Centi(0)]), Wdl::TwoPlayer([0, 1000, 0]));
        // Without proof, 0 is only likely a draw.
        assert_ne!(
            two(0.5, false).of(&[Score::Centi(0)]),
            Wdl::TwoPlayer([0, 1000, 0])
        );
        assert_eq!(
            c.to_owned()
                .of(&[Score::Centi(7)])
                .to_string()
                .split(' ')
                .count(),
            4
        );
    }

    #[test]
    fn evaluations_are_read_as_rewards() {
        let model = FirstPlaceModel { t: [100.0, 0.0] };
        let c = |from_evaluations| Chances::FirstPlace {
            model,
            material: 0.5,
            from_evaluations,
        };
        let evaluations = [100, 0, 0, -50].map(Score::Centi);
        let Wdl::Players(read) = c(true).of(&evaluations) else {
            panic!()
        };
        // The rewards Monte Carlo would give, per mille, through the model.
        let rewards: Vec<f64> = crate::search::mcts::rewards_of(&[100.0, 0.0, 0.0, -50.0])
            .iter()
            .map(|r| 1000.0 * r)
            .collect();
        assert_eq!(
            read,
            to_uncertain_permille(&model.probabilities(&rewards, 0.5))
        );
        assert!(read[0] > read[1] && read[1].abs_diff(read[2]) <= 1 && read[2] > read[3]);
        let Wdl::Players(raw) = c(false).of(&evaluations) else {
            panic!()
        };
        assert_ne!(read, raw);
    }

    #[test]
    fn first_place_chances_follow_the_scores() {
        let c = Chances::FirstPlace {
            model: FirstPlaceModel { t: [100.0, 0.0] },
            material: 0.5,
            from_evaluations: false,
        };
        let Wdl::Players(each) = c.of(&[
            Score::Centi(300),
            Score::Centi(0),
            Score::Centi(0),
            Score::Centi(-100),
        ]) else {
            panic!()
        };
        assert_eq!(each.iter().sum::<u32>(), 1000);
        // Equal scores, equal chances (but for the one per mille rounding gives).
        assert!(each[1].abs_diff(each[2]) <= 1, "{each:?}");
        assert!(
            each[0] > each[1].max(each[2]) && each[1].min(each[2]) > each[3],
            "{each:?}"
        );
        assert_eq!(
            c.of(&[Score::Centi(0), Score::Mate(3), Score::Centi(0)]),
            Wdl::Players(vec![0, 1000, 0])
        );
    }
}

//! Match statistics: Elo difference with its 95 % interval and the SPRT for two
//! players; ranks and scores for four.

use serde::{Deserialize, Serialize};

/// Wins, draws and losses of the first engine against the second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// The variance of one game's points.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)
    }

    /// The Elo difference and the half-width of its 95 % interval (logistic model,
    /// normal approximation of the mean score). Infinite when every game was won or
    /// lost.
    pub fn elo(&self) -> (f64, f64) {
        elo_interval(self.score(), self.variance(), self.games())
    }
}

/// The Elo of a mean score `s` over `n` samples of variance `variance` each, and the
/// half-width of its 95 % interval (normal approximation of the mean).
fn elo_interval(s: f64, variance: f64, n: u32) -> (f64, f64) {
    let margin = 1.959_964 * (variance / f64::from(n.max(1))).sqrt();
    let low = elo_of_score(s - margin);
    let high = elo_of_score(s + margin);
    // `+ 0.0` turns -0.0 into 0.0.
    (elo_of_score(s) + 0.0, (high - low) / 2.0)
}

/// The game pairs of one opening (the two games with the colours swapped) by the first
/// engine's points in them: 0, 0.5, 1, 1.5 or 2. The pair is the sample, as fishtest
/// and fastchess count paired openings: an opening that favours one side weighs less
/// than in the trinomial count, whose games it makes dependent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The mean points per game.
    pub fn score(&self) -> f64 {
        let points: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| k as f64 / 4.0 * f64::from(c))
            .sum();
        points / f64::from(self.pairs().max(1))
    }

    /// The variance of a pair's mean points per game.
    fn variance(&self) -> f64 {
        let n = f64::from(self.pairs().max(1));
        let s = self.score();
        self.0
            .iter()
            .enumerate()
            .map(|(k, &c)| f64::from(c) / n * (k as f64 / 4.0 - s).powi(2))
            .sum()
    }

    /// The Elo difference and the half-width of its 95 % interval, pairs as samples.
    pub fn elo(&self) -> (f64, f64) {
        elo_interval(self.score(), self.variance(), self.pairs())
    }
}

/// The Elo difference that gives the expected score `s`.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is not `elo1` stronger (at most `elo0`).
    H0,
    Continue,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, all four needed).
    pub fn parse(text: &str) -> Result<Sprt, super::SprtError> {
        use super::SprtError;
        let mut values = [None; 4];
        let names = ["elo0", "elo1", "alpha", "beta"];
        for word in text.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotNameValue(word.to_string()))?;
            let i = names
                .iter()
                .position(|n| *n == key)
                .ok_or_else(|| SprtError::UnknownSetting(key.to_string()))?;
            values[i] = Some(
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| SprtError::NotANumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })?,
            );
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = values else {
            return Err(SprtError::Missing);
        };
        if elo1 <= elo0 || !(0.0..0.5).contains(&alpha) || !(0.0..0.5).contains(&beta) {
            return Err(SprtError::OutOfRange);
        }
        if alpha <= 0.0 || beta <= 0.0 {
            return Err(SprtError::NotPositive);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: below the first H0, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results (the generalised SPRT's normal
    /// approximation on the trinomial model, as fishtest computes it).
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        // Every game won (or lost) gives no variance: one draw more as a prior keeps
        // the ratio finite, so that a one-sided match is decided too.
        let tally = if tally.variance() > 0.0 {
            *tally
        } else {
            Tally {
                draws: tally.draws + 1,
                ..*tally
            }
        };
        self.normal_llr(tally.games(), tally.score(), tally.variance())
    }

    /// The log-likelihood ratio on the pentanomial model: game pairs as the samples,
    /// as fishtest computes it for paired openings.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        // As for the trinomial: a one-sided match gets one even pair as a prior.
        let mut pairs = *pairs;
        if pairs.variance() <= 0.0 {
            pairs.0[2] += 1;
        }
        self.normal_llr(pairs.pairs(), pairs.score(), pairs.variance())
    }

    /// The generalised SPRT's normal approximation: `n` samples of mean score `s` and
    /// variance `variance` each.
    fn normal_llr(&self, n: u32, s: f64, variance: f64) -> f64 {
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        f64::from(n) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// One engine's results in four-player games.
///
/// Its rating reads every game as the pairwise results against the other seats (a
/// better place wins, an equal one draws): the game's pairwise points are the mean
/// over its opponents, and the Elo is that of the mean over the games against the
/// field, its 95 % interval from the spread of the games' points (the pairs of one game
/// are not independent, so the games are the samples).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub games: u32,
    /// Sum of places (1 best; players sharing places get their average).
    pub rank_sum: f64,
    /// Sum of the squared places, for the interval of the average place.
    pub rank_squares: f64,
    /// Sums of each game's pairwise points and of their squares.
    pub pair_points: f64,
    pub pair_squares: f64,
    /// Sum of the game's scores (games ended by the rules).
    pub score_sum: f64,
    pub scored_games: u32,
    pub first_places: u32,
    /// Per seat: games and sum of places.
    pub seats: Vec<(u32, f64)>,
}

/// The half-width of the 95 % interval of a mean of `n` samples, from their sum and
/// the sum of their squares (0 for fewer than two samples: no spread is known).
fn mean_margin(n: u32, sum: f64, squares: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    let mean = sum / n;
    let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
    1.959_964 * (variance / n).sqrt()
}

impl Standing {
    /// Counts one game: the engine's place and the places of every seat.
    pub fn add_game(&mut self, seat: usize, places: &[f64]) {
        let place = places[seat];
        self.games += 1;
        self.rank_sum += place;
        self.rank_squares += place * place;
        let opponents = places.len().saturating_sub(1).max(1) as f64;
        let points: f64 = places
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != seat)
            .map(|(_, &theirs)| match place.total_cmp(&theirs) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            })
            .sum::<f64>()
            / opponents;
        self.pair_points += points;
        self.pair_squares += points * points;
        if self.seats.len() < places.len() {
            self.seats.resize(places.len(), (0, 0.0));
        }
        self.seats[seat].0 += 1;
        self.seats[seat].1 += place;
        if place == 1.0 {
            self.first_places += 1;
        }
    }

    pub fn average_rank(&self) -> f64 {
        self.rank_sum / self.games.max(1) as f64
    }

    /// The half-width of the 95 % interval of the average place.
    pub fn rank_margin(&self) -> f64 {
        mean_margin(self.games, self.rank_sum, self.rank_squares)
    }

    /// The Elo against the field from the pairwise points, and the half-width of its
    /// 95 % interval (infinite when every pair was won or lost).
    pub fn rating(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let s = self.pair_points / n;
        let margin = mean_margin(self.games, self.pair_points, self.pair_squares);
        let (low, high) = (elo_of_score(s - margin), elo_of_score(s + margin));
        (elo_of_score(s) + 0.0, (high - low) / 2.0)
    }

    /// The average place in each seat, `-` for a seat never played.
    pub fn per_seat(&self, seats: usize) -> Vec<String> {
        (0..seats)
            .map(|seat| match self.seats.get(seat) {
                Some(&(games, sum)) if games > 0 => format!("{:.2}", sum / games as f64),
                _ => "-".to_string(),
            })
            .collect()
    }
    pub fn average_score(&self) -> f64 {
        self.score_sum / self.scored_games.max(1) as f64
    }
}

/// Places from scores (higher better): tied players share the average of their places.
pub fn places(scores: &[f64]) -> Vec<f64> {
    scores
        .iter()
        .map(|&s| {
            let better = scores.iter().filter(|&&o| o > s).count();
            let equal = scores.iter().filter(|&&o| o == s).count();
            better as f64 + (equal as f64 + 1.0) / 2.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_its_interval() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (elo, margin) = even.elo();
        assert!(elo.abs() < 1e-9);
        // 20 games at 50 %: +-1.96 * 0.5 / sqrt(20) in score, about 160 Elo.
        assert!((margin - 160.0).abs() < 10.0, "{margin}");
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        assert!((strong.elo().0 - 190.85).abs() < 0.1);
        assert_eq!(strong.draw_ratio(), 0.0);
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn pentanomial_counts_pairs_and_weighs_openings_less() {
        // 20 pairs, each a win and a loss (the opening decides): 50 %, no spread at
        // all between pairs, where the trinomial count sees 40 decisive games.
        let colour = Pentanomial([0, 0, 20, 0, 0]);
        assert_eq!((colour.pairs(), colour.score()), (20, 0.5));
        assert_eq!(colour.elo(), (0.0, 0.0));
        // Known counts: [LL, LD, DD+WL, WD, WW] = [2, 5, 10, 8, 5]: mean
        // (0*2 + .25*5 + .5*10 + .75*8 + 1*5) / 30 = 17.25 / 30.
        let counts = Pentanomial([2, 5, 10, 8, 5]);
        assert!((counts.score() - 0.575).abs() < 1e-12);
        let variance = [2.0, 5.0, 10.0, 8.0, 5.0]
            .iter()
            .enumerate()
            .map(|(k, c)| c / 30.0 * (k as f64 / 4.0 - 0.575).powi(2))
            .sum::<f64>();
        let (elo, margin) = counts.elo();
        assert!((elo - elo_of_score(0.575)).abs() < 1e-9);
        let half = 1.959_964 * (variance / 30.0).sqrt();
        let expected = (elo_of_score(0.575 + half) - elo_of_score(0.575 - half)) / 2.0;
        assert!((margin - expected).abs() < 1e-9, "{margin} {expected}");
        // The SPRT on pairs: decided for many good pairs, undecided for few.
        let sprt = Sprt::parse("elo0=0 elo1=50 alpha=0.05 beta=0.05").unwrap();
        assert!(sprt.llr_pairs(&Pentanomial([1, 2, 10, 20, 30])) > sprt.bounds().1);
        assert!(sprt.llr_pairs(&Pentanomial([30, 20, 10, 2, 1])) < sprt.bounds().0);
        let few = sprt.llr_pairs(&Pentanomial([0, 1, 1, 1, 0]));
        assert!(few > sprt.bounds().0 && few < sprt.bounds().1, "{few}");
        assert!(sprt.llr_pairs(&Pentanomial([0, 0, 0, 0, 9])) > sprt.bounds().1);
        assert_eq!(sprt.llr_pairs(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_decides_both_ways_and_waits_in_between() {
        let sprt = Sprt::parse("elo0=0 elo1=50 alpha=0.05 beta=0.05").unwrap();
        let (low, high) = sprt.bounds();
        assert!((high - 2.944).abs() < 0.01 && (low + 2.944).abs() < 0.01);
        assert_eq!(sprt.verdict(&tally(30, 2, 2)), Verdict::H1);
        assert_eq!(sprt.verdict(&tally(5, 10, 25)), Verdict::H0);
        // One engine winning (or losing) every game is decided too.
        assert_eq!(sprt.verdict(&tally(12, 0, 0)), Verdict::H1);
        assert_eq!(sprt.verdict(&tally(0, 0, 12)), Verdict::H0);
        assert_eq!(sprt.verdict(&tally(2, 1, 1)), Verdict::Continue);
        assert!(Sprt::parse("elo0=5 elo1=0 alpha=0.05 beta=0.05").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1").is_err());
    }

    #[test]
    fn four_player_standings_rate_by_pairwise_places_with_intervals() {
        let mut first = Standing::default();
        let mut last = Standing::default();
        // Seat 0 always first, seat 3 always last; seat 1 and 2 share second.
        for _ in 0..10 {
            let places = [1.0, 2.5, 2.5, 4.0];
            first.add_game(0, &places);
            last.add_game(3, &places);
        }
        assert_eq!(first.average_rank(), 1.0);
        assert_eq!(first.rank_margin(), 0.0, "no spread");
        assert_eq!(first.rating().0, f64::INFINITY, "every pair won");
        assert_eq!(last.rating().0, f64::NEG_INFINITY);
        assert_eq!(first.per_seat(4), ["1.00", "-", "-", "-"]);
        assert_eq!(last.per_seat(4), ["-", "-", "-", "4.00"]);
        // A middle engine: half its pairs won, as often first as last.
        let mut middle = Standing::default();
        for game in 0..20 {
            let places = if game % 2 == 0 {
                [1.0, 2.0, 3.0, 4.0]
            } else {
                [4.0, 2.0, 3.0, 1.0]
            };
            middle.add_game(0, &places);
        }
        assert_eq!(middle.average_rank(), 2.5);
        let (elo, margin) = middle.rating();
        assert_eq!(elo, 0.0);
        assert!(margin > 100.0 && margin.is_finite(), "{margin}");
        // 1 or 4, mean 2.5, sample deviation 1.54: 1.96 x 1.54 / sqrt(20).
        assert!(
            (middle.rank_margin() - 0.675).abs() < 0.01,
            "{}",
            middle.rank_margin()
        );
    }

    #[test]
    fn shared_places() {
        assert_eq!(places(&[3.0, 1.0, 3.0, 0.0]), vec![1.5, 3.0, 1.5, 4.0]);
        assert_eq!(places(&[0.0; 4]), vec![2.5; 4]);
    }
}

//! `ludus wdl`: the win/draw/loss models of [`crate::search::wdl`] fitted to ludus's
//! own games, and their calibration measured on games the fit did not see.
//!
//! The samples are the search's scores of positions of self-play games (or of a
//! `ludus datagen` file) with the material at the position and how the game ended.
//! Whole games are held out (every `1 / holdout`-th game), so that no held-out
//! position has a sibling of its own game in the fit.
//!
//! - Two players: the eight coefficients of the [`LogisticModel`]'s cubics, fitted by
//!   maximum likelihood (Adam on the mean log loss, full batch, scores in hundreds).
//! - More players: the [`FirstPlaceModel`]'s temperature (its inverse linear in the
//!   material), fitted by maximum likelihood of who finished first.

use std::fmt;

use super::selfplay::{Play, on_threads, play_out};
use crate::search::wdl::{FirstPlaceModel, LogisticModel, logistic};
use crate::search::{Chances, Limits, PROVEN_WIN, Score, Searchable};
use crate::tournament::{OpeningError, SummaryFile};

/// One position: its score(s), its material and how its game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Two players: the side to move's score. More: every player's, in turn order.
    pub scores: Vec<f64>,
    /// The model's measure of the material, 0 to 1 of the start's.
    pub material: f64,
    /// Two players: win, draw, loss for the side to move, one of them 1. More: each
    /// player's share of first place (1 / k for each of k sharing it).
    pub outcome: Vec<f64>,
    /// Which game it is of (for holding out whole games).
    pub game: usize,
}

/// The two-player sample of a score `score` (mover's view) at `material` in a game
/// whose `leaders` (players first at the end) are known, the mover being `mover`.
pub fn two_player_sample(
    score: f64,
    material: f64,
    mover: usize,
    leaders: &[usize],
    game: usize,
) -> Sample {
    let outcome = if leaders.len() > 1 {
        vec![0.0, 1.0, 0.0]
    } else if leaders.first() == Some(&mover) {
        vec![1.0, 0.0, 0.0]
    } else {
        vec![0.0, 0.0, 1.0]
    };
    Sample {
        scores: vec![score],
        material,
        outcome,
        game,
    }
}

/// The multi-player sample of `scores` at `material` in a game of `players` players
/// whose `leaders` are known.
pub fn first_place_sample(
    scores: Vec<f64>,
    material: f64,
    players: usize,
    leaders: &[usize],
    game: usize,
) -> Sample {
    let mut outcome = vec![0.0; players];
    for &p in leaders {
        outcome[p] = 1.0 / leaders.len() as f64;
    }
    Sample {
        scores,
        material,
        outcome,
        game,
    }
}

/// Splits samples into those fitted and those held out: every `every`-th game is
/// held out (game numbers `k * every + every - 1`).
pub fn split(samples: Vec<Sample>, every: usize) -> (Vec<Sample>, Vec<Sample>) {
    let every = every.max(2);
    samples
        .into_iter()
        .partition(|s| s.game % every != every - 1)
}

/// The scale the fit works in: scores and coefficients in hundreds of centi-units,
/// where a step of Adam is of the order of the answer.
const UNIT: f64 = 100.0;

/// The mean log loss of `model` on `samples` (two-player).
pub fn logistic_loss(model: &LogisticModel, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = model.probabilities(s.scores[0], s.material);
            -(0..3)
                .map(|k| s.outcome[k] * p[k].max(1e-12).ln())
                .sum::<f64>()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scales of the score's compression [`fit_logistic`] tries (centi-units), from
/// strong to none.
const COMPRESSIONS: [f64; 8] = [50.0, 75.0, 100.0, 150.0, 250.0, 400.0, 800.0, f64::INFINITY];

/// Fits the two-player model, starting from `start` (its material range kept): the
/// cubics for each compression of [`COMPRESSIONS`], the one of least loss kept.
pub fn fit_logistic(samples: &[Sample], start: &LogisticModel, steps: usize) -> LogisticModel {
    COMPRESSIONS
        .iter()
        .map(|&compress| {
            let model = fit_cubics(samples, &LogisticModel { compress, ..*start }, steps);
            (logistic_loss(&model, samples), model)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, model)| model)
        .unwrap_or(*start)
}

/// Fits the cubics of the two-player model, its compression and material range kept.
fn fit_cubics(samples: &[Sample], start: &LogisticModel, steps: usize) -> LogisticModel {
    // Parameters: a's and b's coefficients, in hundreds of centi-units.
    let mut theta: Vec<f64> = start.a.iter().chain(&start.b).map(|c| c / UNIT).collect();
    let (lo, hi) = start.x_range;
    let model_of = |theta: &[f64]| LogisticModel {
        a: std::array::from_fn(|i| theta[i] * UNIT),
        b: std::array::from_fn(|i| theta[4 + i] * UNIT),
        ..*start
    };
    let mut adam = Adam::new(theta.len(), 0.02);
    for _ in 0..steps {
        let mut grad = vec![0.0; 8];
        for s in samples {
            let x = s.material.clamp(lo, hi);
            let powers = [x * x * x, x * x, x, 1.0];
            let a = crate::search::wdl::cubic(&theta[..4].try_into().unwrap(), x);
            let b = crate::search::wdl::cubic(&theta[4..].try_into().unwrap(), x).max(0.01);
            let v = start.compressed(s.scores[0]) / UNIT;
            let (zw, zl) = ((v - a) / b, (-v - a) / b);
            let (pw, pl) = (logistic(zw), logistic(zl));
            let pd = (1.0 - pw - pl).max(1e-9);
            // d(-log p)/da and /db for the outcome that happened (weighted).
            let (dw_da, dw_db) = (-pw * (1.0 - pw) / b, -pw * (1.0 - pw) * zw / b);
            let (dl_da, dl_db) = (-pl * (1.0 - pl) / b, -pl * (1.0 - pl) * zl / b);
            let da = -s.outcome[0] * dw_da / pw.max(1e-9) - s.outcome[2] * dl_da / pl.max(1e-9)
                + s.outcome[1] * (dw_da + dl_da) / pd;
            let db = -s.outcome[0] * dw_db / pw.max(1e-9) - s.outcome[2] * dl_db / pl.max(1e-9)
                + s.outcome[1] * (dw_db + dl_db) / pd;
            for k in 0..4 {
                grad[k] += da * powers[k];
                grad[4 + k] += db * powers[k];
            }
        }
        let n = samples.len().max(1) as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        adam.step(&mut theta, &grad);
    }
    model_of(&theta)
}

/// The mean log loss of `model` on `samples` (more players).
pub fn first_place_loss(model: &FirstPlaceModel, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = model.probabilities(&s.scores, s.material);
            -s.outcome
                .iter()
                .zip(&p)
                .map(|(y, p)| y * p.max(1e-12).ln())
                .sum::<f64>()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the multi-player model: the inverse temperature `u = u0 + u1 x` by gradient
/// steps on the log loss, then `t` read back at the material's ends.
pub fn fit_first_place(samples: &[Sample], steps: usize) -> FirstPlaceModel {
    // In inverse hundreds of centi-units.
    let mut theta = vec![1.0, 0.0];
    let mut adam = Adam::new(2, 0.02);
    for _ in 0..steps {
        let mut grad = [0.0; 2];
        for s in samples {
            let x = s.material.clamp(0.0, 1.0);
            let u = (theta[0] + theta[1] * x).max(1e-3);
            let scaled: Vec<f64> = s.scores.iter().map(|v| v / UNIT).collect();
            let top = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = scaled.iter().map(|v| ((v - top) * u).exp()).collect();
            let total: f64 = w.iter().sum();
            let mean: f64 = w.iter().zip(&scaled).map(|(w, v)| w * v).sum::<f64>() / total;
            let seen: f64 = s.outcome.iter().zip(&scaled).map(|(y, v)| y * v).sum();
            // d(-sum y log p)/du = E_p[v] - E_y[v] (the outcome's shares sum to 1).
            let du = mean - seen;
            grad[0] += du;
            grad[1] += du * x;
        }
        let n = samples.len().max(1) as f64;
        let grad: Vec<f64> = grad.iter().map(|g| g / n).collect();
        adam.step(&mut theta, &grad);
    }
    // t = 1 / u is not linear in x; the model takes t linear, fitted at the ends.
    let t_at = |x: f64| UNIT / (theta[0] + theta[1] * x).max(1e-3);
    let (t0, t1) = (t_at(0.0), t_at(1.0));
    FirstPlaceModel { t: [t0, t1 - t0] }
}

/// Adam's steps (Kingma and Ba), with its usual constants.
struct Adam {
    rate: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(n: usize, rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, theta: &mut [f64], grad: &[f64]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        for i in 0..theta.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * grad[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * grad[i] * grad[i];
            let m = self.m[i] / (1.0 - B1.powi(self.t));
            let v = self.v[i] / (1.0 - B2.powi(self.t));
            theta[i] -= self.rate * m / (v.sqrt() + 1e-9);
        }
    }
}

/// One bin of the calibration table: the predictions that fell in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bin {
    /// The bin's range of predicted chance, `[low, high)` (the last closed).
    pub low: f64,
    pub high: f64,
    /// Predictions in the bin (one per outcome of a position: three for two players,
    /// one per player for more).
    pub count: usize,
    /// The mean predicted chance and the share that happened.
    pub predicted: f64,
    pub observed: f64,
}

/// How well predictions match what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub positions: usize,
    pub games: usize,
    /// Every outcome's predictions together.
    pub bins: Vec<Bin>,
    /// Each outcome's alone (win, draw, loss; or each player's first place).
    pub by_outcome: Vec<Vec<Bin>>,
    /// The Brier score (the mean over positions of the summed squared errors over the
    /// outcomes) of the model, and of the base rates (the fitted games' frequency of
    /// each outcome, the same for every position).
    pub brier: f64,
    pub brier_base: f64,
}

impl Calibration {
    /// The Brier skill score: the share of the base rates' error the model removes.
    pub fn skill(&self) -> f64 {
        1.0 - self.brier / self.brier_base
    }
}

/// The calibration of `predict` on `held_out`, against the base rates `base` (each
/// outcome's frequency in the fitted games), in `bins` equal bins of chance.
pub fn calibration(
    held_out: &[Sample],
    base: &[f64],
    bins: usize,
    predict: &dyn Fn(&Sample) -> Vec<f64>,
) -> Calibration {
    let empty: Vec<Bin> = (0..bins)
        .map(|k| Bin {
            low: k as f64 / bins as f64,
            high: (k + 1) as f64 / bins as f64,
            ..Bin::default()
        })
        .collect();
    let mut table = empty.clone();
    let width = held_out.first().map_or(0, |s| s.outcome.len());
    let mut by_outcome = vec![empty; width];
    let (mut brier, mut brier_base) = (0.0, 0.0);
    for s in held_out {
        let p = predict(s);
        for (k, (&p, &y)) in p.iter().zip(&s.outcome).enumerate() {
            brier += (p - y) * (p - y);
            let b = base.get(k).copied().unwrap_or(0.0);
            brier_base += (b - y) * (b - y);
            let at = ((p * bins as f64) as usize).min(bins - 1);
            for bin in [&mut table[at], &mut by_outcome[k][at]] {
                bin.count += 1;
                bin.predicted += p;
                bin.observed += y;
            }
        }
    }
    for bin in table.iter_mut().chain(by_outcome.iter_mut().flatten()) {
        if bin.count > 0 {
            bin.predicted /= bin.count as f64;
            bin.observed /= bin.count as f64;
        }
    }
    let n = held_out.len().max(1) as f64;
    let mut games: Vec<usize> = held_out.iter().map(|s| s.game).collect();
    games.sort_unstable();
    games.dedup();
    Calibration {
        positions: held_out.len(),
        games: games.len(),
        bins: table,
        by_outcome,
        brier: brier / n,
        brier_base: brier_base / n,
    }
}

/// Each outcome's frequency in `samples` (the base rates).
pub fn base_rates(samples: &[Sample]) -> Vec<f64> {
    let width = samples.first().map_or(0, |s| s.outcome.len());
    let mut rates = vec![0.0; width];
    for s in samples {
        for (r, y) in rates.iter_mut().zip(&s.outcome) {
            *r += y;
        }
    }
    let n = samples.len().max(1) as f64;
    rates.iter_mut().for_each(|r| *r /= n);
    rates
}

impl fmt::Display for Calibration {
    /// As a Markdown table, with the Brier scores after it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} held-out positions of {} games",
            self.positions, self.games
        )?;
        writeln!(f)?;
        let names: Vec<String> = match self.by_outcome.len() {
            3 => ["win", "draw", "loss"].map(String::from).to_vec(),
            n => (1..=n).map(|p| format!("player {p} first")).collect(),
        };
        write!(f, "| predicted | all: n, predicted, observed |")?;
        for name in &names {
            write!(f, " {name} |")?;
        }
        writeln!(f)?;
        writeln!(f, "|---|---|{}", "---|".repeat(names.len()))?;
        let cell = |bin: &Bin| {
            if bin.count == 0 {
                "-".to_string()
            } else {
                format!(
                    "{}: {:.1} / {:.1}",
                    bin.count,
                    100.0 * bin.predicted,
                    100.0 * bin.observed
                )
            }
        };
        for (k, bin) in self.bins.iter().enumerate().filter(|(_, b)| b.count > 0) {
            write!(
                f,
                "| {:.0}-{:.0} % | {} |",
                100.0 * bin.low,
                100.0 * bin.high,
                cell(bin)
            )?;
            for outcome in &self.by_outcome {
                write!(f, " {} |", cell(&outcome[k]))?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        write!(f, "(each cell: predictions, mean predicted %, observed %)")?;
        writeln!(f)?;
        writeln!(f)?;
        write!(
            f,
            "Brier score {:.4}, base rates {:.4}, skill {:.3}",
            self.brier,
            self.brier_base,
            self.skill()
        )
    }
}

/// Samples from self-play games `0..games` of `play` on `threads` threads, engines
/// made by `engine`: every position the engine moved in whose score decides nothing
/// yet (no mate, no proven value). `progress` is told each game's number as it ends.
pub fn self_play_samples<G>(
    play: &Play,
    games: usize,
    threads: usize,
    engine: &(dyn Fn() -> G::Search + Sync),
    progress: &mut (dyn FnMut(usize) + Send),
) -> Vec<Sample>
where
    G: Searchable<Search: Send>,
{
    let mut all = Vec::new();
    on_threads::<G, Vec<Sample>>(
        games,
        threads,
        &|_| false,
        engine,
        &|engine, game| {
            // The model's measure of the material needs no tables: a small engine
            // of the game's own answers for it.
            let probe = G::new_search(1);
            let mut seen: Vec<(Vec<Score>, f64, usize)> = Vec::new();
            let leaders = play_out::<G>(engine, play, game, &mut |position, info| {
                let material = material_of::<G>(&probe, position);
                seen.push((info.scores.clone(), material, position.to_move()));
            });
            let players = G::PLAYERS.len();
            seen.into_iter()
                .filter_map(|(scores, material, mover)| {
                    let undecided =
                        |s: &Score| matches!(s, Score::Centi(v) if v.abs() < PROVEN_WIN);
                    if !scores.iter().all(undecided) {
                        return None;
                    }
                    let values: Vec<f64> = scores
                        .iter()
                        .map(|s| match s {
                            Score::Centi(v) => f64::from(*v),
                            Score::Mate(_) => 0.0,
                        })
                        .collect();
                    Some(if players == 2 {
                        two_player_sample(values[0], material, mover, &leaders, game)
                    } else {
                        first_place_sample(values, material, players, &leaders, game)
                    })
                })
                .collect()
        },
        &mut |game, samples| {
            all.extend(samples);
            progress(game);
            true
        },
    );
    all.sort_by_key(|s| s.game);
    all
}

/// The model's measure of the material at `position`, as `probe` (a small engine of
/// the game, which needs no tables for it) answers.
fn material_of<G: Searchable>(probe: &G::Search, position: &G) -> f64 {
    match G::chances_at(probe, position, &Limits::default()) {
        Chances::Logistic { material, .. } | Chances::FirstPlace { material, .. } => material,
    }
}

/// Samples from the games of a `ludus match` summary of a two-player game: every
/// move's score as its engine gave it (the summary's `evals`, for the side that
/// moved) at the position it was searched in, with the material there and how the
/// game ended. Forfeited games are left out (their end says nothing of the
/// positions), as are proven scores; the games are numbered from `first_game`.
/// A game whose moves cannot be replayed is an error naming it (from 1).
pub fn match_samples<G: Searchable>(
    summary: &SummaryFile,
    first_game: usize,
) -> Result<Vec<Sample>, (usize, OpeningError)> {
    let probe = G::new_search(1);
    let mut samples = Vec::new();
    for (k, game) in summary.games.iter().enumerate() {
        if G::PLAYERS.len() != 2 || game.forfeit.is_some() || game.evals.is_empty() {
            continue;
        }
        let positions = game
            .positions::<G>(&summary.config)
            .map_err(|e| (game.index + 1, e))?;
        let best = game.places.iter().copied().fold(f64::INFINITY, f64::min);
        let leaders: Vec<usize> = (0..game.places.len())
            .filter(|&p| game.places[p] == best)
            .collect();
        for (position, eval) in positions.iter().zip(&game.evals) {
            let Some(score) = *eval else { continue };
            if score.abs() >= PROVEN_WIN {
                continue;
            }
            let material = material_of::<G>(&probe, position);
            samples.push(two_player_sample(
                f64::from(score),
                material,
                position.to_move(),
                &leaders,
                first_game + k,
            ));
        }
    }
    Ok(samples)
}

/// The fitted model of one game, with its calibration on the held-out games.
#[derive(Clone, Debug)]
pub enum Fitted {
    Logistic(LogisticModel),
    FirstPlace(FirstPlaceModel),
}

impl Fitted {
    /// The model's chances for `sample`.
    pub fn predict(&self, sample: &Sample) -> Vec<f64> {
        match self {
            Fitted::Logistic(model) => model
                .probabilities(sample.scores[0], sample.material)
                .to_vec(),
            Fitted::FirstPlace(model) => model.probabilities(&sample.scores, sample.material),
        }
    }

    /// The mean log loss on `samples`.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        match self {
            Fitted::Logistic(model) => logistic_loss(model, samples),
            Fitted::FirstPlace(model) => first_place_loss(model, samples),
        }
    }
}

impl fmt::Display for Fitted {
    /// As the Rust constant the game's source keeps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |c: &[f64]| {
            c.iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Fitted::Logistic(m) => write!(
                f,
                "LogisticModel {{\n    a: [{}],\n    b: [{}],\n    compress: {},\n    x_range: ({:.3}, {:.3}),\n}}",
                list(&m.a),
                list(&m.b),
                if m.compress.is_finite() {
                    format!("{:.1}", m.compress)
                } else {
                    "f64::INFINITY".to_string()
                },
                m.x_range.0,
                m.x_range.1
            ),
            Fitted::FirstPlace(m) => write!(f, "FirstPlaceModel {{ t: [{}] }}", list(&m.t)),
        }
    }
}

/// The model `chances` uses (the game's own, as built in).
pub fn in_use(chances: &Chances) -> Fitted {
    match chances {
        Chances::Logistic { model, .. } => Fitted::Logistic(*model),
        Chances::FirstPlace { model, .. } => Fitted::FirstPlace(*model),
    }
}

/// Fits the model `start` is of (its form and material range) to `fit`.
pub fn fit(start: &Chances, fit: &[Sample], steps: usize) -> Fitted {
    match start {
        Chances::Logistic { model, .. } => Fitted::Logistic(fit_logistic(fit, model, steps)),
        Chances::FirstPlace { .. } => Fitted::FirstPlace(fit_first_place(fit, steps)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Rng};

    /// A match summary of Mangala II whose games are given as JSON.
    fn summary(games: serde_json::Value) -> SummaryFile {
        let engine = |name: &str| {
            serde_json::json!({"command": ["ludus"], "depth": null, "dialect": "native",
                "name": name, "nodes": null, "options": [], "ponder": false})
        };
        serde_json::from_value(serde_json::json!({
            "game": "mangala",
            "config": {
                "engines": [engine("a"), engine("b")],
                "settings": {"margin": {"nanos": 0, "secs": 0}, "max_plies": 1000,
                    "stall": {"nanos": 0, "secs": 30}, "time_control": {"Nodes": 100}},
                "games": 2, "openings": ["startpos moves A"], "concurrency": 1,
                "sprt": null, "rules": []
            },
            "games": games,
        }))
        .unwrap()
    }

    /// A match's game gives one sample per scored move, at the position searched,
    /// with the mover's outcome; the opening's moves (no score), proven scores and
    /// forfeited games give none.
    #[test]
    fn match_games_give_the_movers_scores_and_outcomes() {
        use crate::games::mangala::Position;
        let game = |index: usize, forfeit: Option<usize>| {
            serde_json::json!({"index": index, "opening": 0, "seats": [0, 1],
                "moves": ["A", "b", "B"], "ending": "rules", "reason": "",
                "forfeit": forfeit, "scores": null, "places": [2.0, 1.0],
                "evals": [null, 35, 100_000 - 4]})
        };
        let read = summary(serde_json::json!([game(0, None), game(1, Some(0))]));
        let samples = match_samples::<Position>(&read, 7).unwrap();
        assert_eq!(samples.len(), 1, "{samples:?}");
        let mut position = Position::start();
        position.play(position.parse_move("A").unwrap());
        // The second player (seat 1) won; the score is the mover's.
        let won = position.to_move() == 1;
        let expected = if won {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        assert_eq!(samples[0].scores, vec![35.0]);
        assert_eq!(samples[0].outcome, expected.to_vec());
        assert_eq!(samples[0].game, 7);
        // A move the game does not allow is an error naming the game.
        let bad = summary(
            serde_json::json!([{"index": 4, "opening": 0, "seats": [1, 0],
            "moves": ["A", "zz"], "ending": "rules", "reason": "", "forfeit": null,
            "scores": null, "places": [1.5, 1.5], "evals": [null, 3]}]),
        );
        assert_eq!(match_samples::<Position>(&bad, 0).unwrap_err().0, 5);
    }

    /// Samples drawn from `truth`: scores spread over ±400, material over [0.1, 1].
    fn drawn_from(truth: &LogisticModel, n: usize) -> Vec<Sample> {
        let mut rng = Rng(12345);
        (0..n)
            .map(|i| {
                let v = rng.below(801) as f64 - 400.0;
                let x = 0.1 + 0.9 * rng.below(1000) as f64 / 1000.0;
                let p = truth.probabilities(v, x);
                let r = rng.below(1_000_000) as f64 / 1e6;
                let outcome = if r < p[0] {
                    0
                } else if r < p[0] + p[1] {
                    1
                } else {
                    2
                };
                let mut y = vec![0.0; 3];
                y[outcome] = 1.0;
                Sample {
                    scores: vec![v],
                    material: x,
                    outcome: y,
                    game: i,
                }
            })
            .collect()
    }

    #[test]
    fn the_logistic_fit_finds_the_model_the_games_were_drawn_from() {
        let truth = LogisticModel {
            a: [0.0, 0.0, -100.0, 200.0],
            b: [0.0, 0.0, 40.0, 50.0],
            compress: f64::INFINITY,
            x_range: (0.0, 1.0),
        };
        let samples = drawn_from(&truth, 20_000);
        let start = LogisticModel {
            a: [0.0, 0.0, 0.0, 100.0],
            b: [0.0, 0.0, 0.0, 100.0],
            compress: f64::INFINITY,
            x_range: (0.0, 1.0),
        };
        // The cubics alone (the compressions' search only repeats this fit).
        let fitted = fit_cubics(&samples, &start, 600);
        for x in [0.2, 0.5, 0.9] {
            let (a, b) = fitted.centre_and_width(x);
            let (ta, tb) = truth.centre_and_width(x);
            assert!((a - ta).abs() < 20.0, "a({x}) = {a}, truth {ta}");
            assert!((b - tb).abs() < 15.0, "b({x}) = {b}, truth {tb}");
        }
        assert!(logistic_loss(&fitted, &samples) < logistic_loss(&start, &samples));
        // Calibrated on its own kind of games.
        let (fit, held) = split(samples, 5);
        let c = calibration(&held, &base_rates(&fit), 10, &|s| {
            fitted.probabilities(s.scores[0], s.material).to_vec()
        });
        assert!(c.skill() > 0.1, "{c}");
        for bin in c.bins.iter().filter(|b| b.count > 300) {
            assert!((bin.predicted - bin.observed).abs() < 0.05, "{c}");
        }
    }

    #[test]
    fn the_first_place_fit_finds_the_temperature() {
        let truth = FirstPlaceModel { t: [80.0, 0.0] };
        let mut rng = Rng(777);
        let samples: Vec<Sample> = (0..8_000)
            .map(|i| {
                let scores: Vec<f64> = (0..4).map(|_| rng.below(401) as f64 - 200.0).collect();
                let p = truth.probabilities(&scores, 0.5);
                let r = rng.below(1_000_000) as f64 / 1e6;
                let mut acc = 0.0;
                let winner = p
                    .iter()
                    .position(|q| {
                        acc += q;
                        r < acc
                    })
                    .unwrap_or(3);
                first_place_sample(scores, 0.5, 4, &[winner], i)
            })
            .collect();
        let fitted = fit_first_place(&samples, 400);
        let t = fitted.temperature(0.5);
        assert!((t - 80.0).abs() < 12.0, "{fitted:?}");
    }

    #[test]
    fn held_out_games_are_whole() {
        let samples: Vec<Sample> = (0..100)
            .map(|i| two_player_sample(0.0, 0.5, 0, &[0], i / 10))
            .collect();
        let (fit, held) = split(samples, 5);
        assert_eq!(held.len(), 20);
        assert!(held.iter().all(|s| s.game == 4 || s.game == 9));
        assert!(fit.iter().all(|s| s.game != 4 && s.game != 9));
    }
}

//! Fitting an evaluation's weights to game results (Texel's method), and the self-play
//! that provides the positions. `ludus tune generate` plays the games, `ludus tune fit`
//! fits the weights; README, "Tuning the evaluation", gives the commands.
//!
//! An evaluation that is linear in its weights says, for a position, how often each of
//! its terms counts ([`Terms::features`], from the first player's view). The fit
//! minimises the mean squared difference between each position's game result (1, 1/2
//! or 0 for the first player) and its expected result σ(K · w · features), with
//! σ(x) = 1 / (1 + 10^(-x / 400)): K is fitted first to the current weights (so that a
//! centipawn stays a centipawn), then every weight but the frozen ones is moved by Adam
//! on the whole set's gradient, K fitted again now and then (the frozen weights, the
//! pawn among them, hold the scale).
//!
//! The positions are those of self-play games from random openings at a node limit,
//! kept when they are quiet (the game says: the side to move is not in check and the
//! move played from it takes nothing), each labelled with its game's result. A game a
//! search scores as won by far for several plies in a row is adjudicated, to save time.

use std::io::Write;

use super::selfplay;
use crate::game::{Game, PositionError};
use crate::search::{Searchable, Value};

/// What `ludus tune` needs from a game whose evaluation is linear in its weights.
pub struct Terms<G: Game> {
    /// One name per weight, in the order of `weights`.
    pub names: Vec<String>,
    /// The weights the evaluation uses now.
    pub weights: &'static [Value],
    /// Indices of the weights the fit leaves as they are (the unit of the scale, terms
    /// that never vary).
    pub frozen: &'static [usize],
    /// How often each weight counts in a position, from the first player's view: the
    /// evaluation from that view is their dot product with the weights.
    pub features: fn(&G) -> Vec<f64>,
    /// Whether a position, with the move played from it, is quiet enough to label.
    pub quiet: fn(&G, G::Move) -> bool,
    /// The weights as the source file the evaluation reads them from.
    pub source: fn(&[Value]) -> String,
}

/// How `ludus tune generate` plays.
#[derive(Clone, Debug)]
pub struct Generate {
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random moves from the start before the engine plays.
    pub opening_plies: usize,
    pub seed: u64,
    /// Games played at once, one thread each.
    pub concurrency: usize,
    /// A game this many plies long is a draw.
    pub max_plies: usize,
}

/// Plays `settings.games` self-play games and writes every quiet position to `out`,
/// one a line: the first player's result (`1`, `0.5` or `0`), a space, the position.
/// Returns the number of positions written.
pub fn generate<G>(settings: &Generate, out: &mut (dyn Write + Send)) -> std::io::Result<usize>
where
    G: Searchable<Search: Send> + Send,
{
    let terms = G::tuning().ok_or_else(|| {
        std::io::Error::other(format!("{}'s evaluation cannot be tuned", G::NAME))
    })?;
    let play = selfplay::Play::new(
        settings.seed,
        settings.opening_plies,
        Some(settings.nodes),
        None,
        settings.max_plies,
    );
    let quiet = terms.quiet;
    // One game: its quiet positions as lines, labelled with its result.
    let game = |engine: &mut G::Search, game: usize| -> Vec<String> {
        let mut kept = Vec::new();
        let points = selfplay::play_game::<G>(engine, &play, game, &mut |position, mv, _, _| {
            if quiet(position, mv) {
                kept.push(position.fen());
            }
        });
        let result = f64::from(points) / 2.0;
        kept.into_iter()
            .map(|fen| format!("{result} {fen}\n"))
            .collect()
    };
    let mut count = 0;
    let mut error = None;
    selfplay::on_threads::<G, Vec<String>>(
        settings.games,
        settings.concurrency,
        &|_| false,
        &|| G::new_search(16),
        &game,
        &mut |game, lines| {
            let text: String = lines.concat();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => count += lines.len(),
                Err(e) => error = Some(e),
            }
            log::info!(
                "game {} of {}: {} positions",
                game + 1,
                settings.games,
                lines.len()
            );
            error.is_none()
        },
    );
    match error {
        Some(e) => Err(e),
        None => Ok(count),
    }
}

/// One labelled position: its result and the terms that count in it (index, count).
#[derive(Clone, Debug)]
pub struct Sample {
    pub result: f64,
    pub features: Vec<(usize, f64)>,
}

/// Why a file of labelled positions cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// The game's evaluation has no tunable terms.
    NotTunable(&'static str),
    /// A line (from 1) that is not `result position`.
    NoPosition {
        line: usize,
    },
    /// A result that is not 1, 0.5 or 0.
    Result {
        line: usize,
        result: String,
    },
    Position {
        line: usize,
        error: PositionError,
    },
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::NotTunable(game) => write!(f, "{game}'s evaluation cannot be tuned"),
            SampleError::NoPosition { line } => {
                write!(f, "line {line}: not a result and a position")
            }
            SampleError::Result { line, result } => {
                write!(f, "line {line}: result {result:?} is not 1, 0.5 or 0")
            }
            SampleError::Position { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for SampleError {}

/// Reads `result position` lines (as [`generate`] writes them); blank lines and `#`
/// comments are skipped. An unreadable line is an error naming its number.
pub fn read_samples<G: Searchable>(text: &str) -> Result<Vec<Sample>, SampleError> {
    let terms = G::tuning().ok_or(SampleError::NotTunable(G::NAME))?;
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = i + 1;
        let (result, fen) = line
            .split_once(' ')
            .ok_or(SampleError::NoPosition { line: number })?;
        let result: f64 = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => {
                return Err(SampleError::Result {
                    line: number,
                    result: other.to_string(),
                });
            }
        };
        let position = G::from_fen(fen.trim()).map_err(|error| SampleError::Position {
            line: number,
            error,
        })?;
        let features = (terms.features)(&position)
            .into_iter()
            .enumerate()
            .filter(|&(_, c)| c != 0.0)
            .collect();
        samples.push(Sample { result, features });
    }
    Ok(samples)
}

/// σ(K · value), the expected result of a position the evaluation scores `value`.
fn expected(k: f64, value: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * value / 400.0))
}

fn value(weights: &[f64], sample: &Sample) -> f64 {
    sample.features.iter().map(|&(i, c)| weights[i] * c).sum()
}

/// The mean squared error of the expected results.
pub fn error(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - expected(k, value(weights, s))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The K that fits `weights` best (golden-section search on 0.05 to 5).
pub fn fit_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub k: f64,
    pub weights: Vec<f64>,
    pub error_before: f64,
    pub error_after: f64,
}

/// How [`fit`] fits.
#[derive(Clone, Copy, Debug)]
pub struct FitSettings {
    /// Steps over the whole set.
    pub epochs: usize,
    /// Adam's step size, in centi-units.
    pub rate: f64,
    /// The weight of the penalty on each weight's squared distance from its start,
    /// per 100 centi-units.
    pub l2: f64,
}

/// Epochs between two fits of K.
const REFIT_SCALE: usize = 100;

/// Fits the weights (all but `frozen`) to `samples` by Adam (see [`FitSettings`]),
/// K fitted first to the starting weights, then again
/// every [`REFIT_SCALE`] epochs.
/// `progress` hears each epoch's error now and then.
pub fn fit(
    samples: &[Sample],
    start: &[Value],
    frozen: &[usize],
    settings: &FitSettings,
    progress: &mut dyn FnMut(usize, f64),
) -> Fit {
    let FitSettings { epochs, rate, l2 } = *settings;
    let mut weights: Vec<f64> = start.iter().map(|&w| f64::from(w)).collect();
    let mut k = fit_scale(samples, &weights);
    let error_before = error(samples, &weights, k);
    let n = weights.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    for epoch in 1..=epochs {
        // K and the weights are fitted in turn; the frozen weights hold the scale.
        if epoch % REFIT_SCALE == 0 {
            k = fit_scale(samples, &weights);
        }
        let scale = k * std::f64::consts::LN_10 / 400.0;
        let mut gradient = vec![0.0; n];
        for s in samples {
            let p = expected(k, value(&weights, s));
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) K ln10 / 400 * count
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for &(i, c) in &s.features {
                gradient[i] += g * c;
            }
        }
        for i in 0..n {
            if frozen.contains(&i) {
                continue;
            }
            // The penalty l2 * ((w - w0) / 100)^2 keeps weights the games do not
            // decide near where they started.
            let pull = 2.0 * l2 * (weights[i] - f64::from(start[i])) / 10_000.0;
            let g = gradient[i] / samples.len().max(1) as f64 + pull;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            weights[i] -= rate * m_hat / (v_hat.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == epochs {
            progress(epoch, error(samples, &weights, k));
        }
    }
    Fit {
        k,
        error_after: error(samples, &weights, k),
        weights,
        error_before,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rng;

    /// Positions whose results are exactly what weights (100, 40, -25) predict: the fit,
    /// started from (100, 0, 0) with the first weight frozen, finds the other two.
    #[test]
    fn fit_recovers_the_weights_that_made_the_results() {
        let truth = [100.0, 40.0, -25.0];
        let mut rng = Rng(12345);
        let samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let features: Vec<(usize, f64)> = (0..3)
                    .map(|i| (i, rng.below(9) as f64 - 4.0))
                    .filter(|&(_, c)| c != 0.0)
                    .collect();
                let v: f64 = features.iter().map(|&(i, c)| truth[i] * c).sum();
                Sample {
                    result: expected(1.0, v),
                    features,
                }
            })
            .collect();
        let settings = FitSettings {
            epochs: 3000,
            rate: 1.0,
            l2: 0.0,
        };
        let fit = fit(&samples, &[100, 0, 0], &[0], &settings, &mut |_, _| {});
        assert!(fit.error_after < fit.error_before);
        assert!(
            (fit.weights[0] - 100.0).abs() < 1e-9,
            "frozen: {:?}",
            fit.weights
        );
        assert!((fit.weights[1] - 40.0).abs() < 2.0, "{:?}", fit.weights);
        assert!((fit.weights[2] + 25.0).abs() < 2.0, "{:?}", fit.weights);
    }

    #[test]
    fn the_scale_fitted_to_exact_results_is_theirs() {
        let samples: Vec<Sample> = (-20..=20)
            .map(|i| Sample {
                result: expected(0.7, f64::from(i) * 30.0),
                features: vec![(0, f64::from(i))],
            })
            .collect();
        let k = fit_scale(&samples, &[30.0]);
        assert!((k - 0.7).abs() < 1e-3, "{k}");
    }
}

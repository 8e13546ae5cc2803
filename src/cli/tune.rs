//! `ludus tune`: the evaluation's weights tuned to game results (Texel's method).

use std::io::Write;
use std::time::Instant;

use crate::games::Play;
use crate::learning::tuning;

use super::args::GameChoice;
use super::error::Refusal;
use super::{CliError, GameCommand};

/// The largest file of scored positions `ludus tune fit` reads (`-` reads standard
/// input instead, within the same bound).
const TUNING_FILE_LIMIT: u64 = 1 << 30;

#[derive(clap::Subcommand)]
pub enum Action {
    /// Plays self-play games from random openings and prints every quiet position, one
    /// a line: the first player's result (1, 0.5 or 0), a space, the position.
    Generate {
        #[command(flatten)]
        game: GameChoice,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Random moves (plies) from the start before the engine plays.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// The random seed of the openings: the same seed gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, one thread each.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// A game this many plies long is a draw.
        #[arg(long, default_value_t = 600)]
        max_plies: usize,
    },
    /// Fits the weights to positions from `generate` (a file, or - for standard input)
    /// and prints the source file of the fitted weights; the errors go to stderr.
    Fit {
        #[command(flatten)]
        game: GameChoice,
        file: String,
        /// Steps of the fit over the whole set.
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        /// The step size, in centi-units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// The penalty on each weight's squared distance from where it starts (per 100
        /// centi-units): larger keeps weights the games do not decide where they are.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
}

impl GameCommand for Action {
    fn game(&self) -> &str {
        let (Action::Generate { game, .. } | Action::Fit { game, .. }) = self;
        &game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let terms = G::tuning().ok_or(Refusal::NotTunable(G::NAME))?;
        match self {
            Action::Generate {
                games,
                nodes,
                plies,
                seed,
                concurrency,
                max_plies,
                ..
            } => {
                let settings = tuning::Generate {
                    games,
                    nodes,
                    opening_plies: plies,
                    seed,
                    concurrency,
                    max_plies,
                };
                let started = Instant::now();
                let count = tuning::generate::<G>(&settings, &mut std::io::stdout())?;
                log::info!(
                    "{count} positions from {games} games in {:.1} s",
                    started.elapsed().as_secs_f64()
                );
                Ok(())
            }
            Action::Fit {
                file,
                epochs,
                rate,
                l2,
                ..
            } => {
                let text = read_positions(&file)?;
                let samples =
                    tuning::read_samples::<G>(&text).map_err(|e| CliError::in_file(&file, e))?;
                if samples.len() < 10 {
                    return Err(Refusal::TooFewSamples {
                        file,
                        count: samples.len(),
                    }
                    .into());
                }
                fit(&terms, &samples, &tuning::FitSettings { epochs, rate, l2 })?;
                Ok(())
            }
        }
    }
}

/// The text of `file` (`-`: standard input), within [`TUNING_FILE_LIMIT`].
fn read_positions(file: &str) -> Result<String, CliError> {
    if file != "-" {
        return crate::files::read_text(file.as_ref(), TUNING_FILE_LIMIT)
            .map_err(CliError::unreadable);
    }
    let stdin = std::io::Read::take(std::io::stdin(), TUNING_FILE_LIMIT + 1);
    let text = std::io::read_to_string(stdin)?;
    if text.len() as u64 > TUNING_FILE_LIMIT {
        return Err(Refusal::InputTooLarge(TUNING_FILE_LIMIT).into());
    }
    Ok(text)
}

/// Fits the weights, logs the fit's errors and changes, and prints the weights'
/// source file.
fn fit<G: Play>(
    terms: &tuning::Terms<G>,
    samples: &[tuning::Sample],
    settings: &tuning::FitSettings,
) -> std::io::Result<()> {
    // The last tenth (whole games, as generate writes them) is held out: its
    // error tells whether the fit learnt the games or the positions.
    let (train, held) = samples.split_at(samples.len() - samples.len() / 10);
    let fit = tuning::fit(
        train,
        terms.weights,
        terms.frozen,
        settings,
        &mut |epoch, error| {
            log::info!("epoch {epoch}: error {error:.6}");
        },
    );
    let start: Vec<f64> = terms.weights.iter().map(|&w| f64::from(w)).collect();
    log::info!(
        "held-out positions ({}): error {:.6} before, {:.6} after",
        held.len(),
        tuning::error(held, &start, tuning::fit_scale(held, &start)),
        tuning::error(held, &fit.weights, fit.k)
    );
    let rounded: Vec<_> = fit
        .weights
        .iter()
        .map(|w| w.round() as crate::search::Value)
        .collect();
    log::info!(
        "{} positions fitted, K {:.3}, error {:.6} before, {:.6} after",
        train.len(),
        fit.k,
        fit.error_before,
        fit.error_after
    );
    for ((name, &old), &new) in terms.names.iter().zip(terms.weights).zip(&rounded) {
        if old != new {
            log::info!("{name}: {old} -> {new}");
        }
    }
    write!(std::io::stdout().lock(), "{}", (terms.source)(&rounded))
}

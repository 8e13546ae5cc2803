//! `ludus wdl`: fits a game's win/draw/loss model to self-play games (or to `ludus
//! datagen` files, for Sena-Mukha) and measures its calibration on held-out games
//! (protocol-spec/wdl.md).

use std::io::Write;
use std::time::Instant;

use crate::games::Play;
use crate::learning::selfplay;
use crate::learning::wdl;
use crate::search::Limits;
use crate::tournament::SummaryFile;

use super::args::{GameChoice, SelfPlay};
use super::error::Refusal;
use super::{CliError, GameCommand};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameChoice,
    /// `ludus datagen` files to fit instead of playing games (Sena-Mukha).
    #[arg(long)]
    data: Vec<std::path::PathBuf>,
    /// `ludus match` summaries (two-player games, with their engines' scores) to
    /// measure the built-in model's calibration on: no fit.
    #[arg(long, conflicts_with = "data")]
    matches: Vec<std::path::PathBuf>,
    /// Self-play games to play when no --data is given.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Every this-many-th game is held out of the fit, to measure the calibration.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..=1000))]
    hold_out_every: u64,
    /// Steps of the fit.
    #[arg(long, default_value_t = 600)]
    steps: usize,
    #[command(flatten)]
    play: SelfPlay,
}

impl GameCommand for Args {
    fn game(&self) -> &str {
        &self.game.game
    }

    fn run<G: Play>(self) -> Result<(), CliError> {
        let started = Instant::now();
        if !self.matches.is_empty() {
            return check_matches::<G>(&self.matches);
        }
        let samples = if self.data.is_empty() {
            let options = selfplay::engine_options::<G>(&self.play.named_options())?;
            let engine = || {
                let mut engine = G::new_search(16);
                for (name, value) in &options {
                    // Accepted by the probe engine, so accepted again.
                    let _ = G::set_engine_option(&mut engine, name, value);
                }
                engine
            };
            let play = selfplay::Play::new(
                self.play.seed,
                self.play.plies,
                Some(self.play.nodes),
                None,
                self.play.max_plies,
            );
            let mut ended = 0;
            let games = self.games;
            wdl::self_play_samples::<G>(&play, games, self.play.threads(), &engine, &mut |_| {
                ended += 1;
                if ended % 20 == 0 || ended == games {
                    log::info!("{ended} of {games} games played");
                }
            })
        } else {
            let mut samples = Vec::new();
            for path in &self.data {
                let read = crate::games::wdl_samples_from_data(G::NAME, path)
                    .ok_or(Refusal::NoDataFiles(G::NAME))?;
                samples.extend(read.map_err(|e| CliError::in_file(path.display(), e))?);
            }
            samples
        };
        let (fit, held) = wdl::split(samples, self.hold_out_every as usize);
        if fit.len() < 10 || held.is_empty() {
            return Err(Refusal::TooFewSamples {
                file: "the games".to_string(),
                count: fit.len() + held.len(),
            }
            .into());
        }
        let start = G::chances_at(&G::new_search(1), &G::start(), &Limits::default());
        let fitted = wdl::fit(&start, &fit, self.steps);
        let base = wdl::base_rates(&fit);
        let calibration = wdl::calibration(&held, &base, 10, &|s| fitted.predict(s));
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "{} fitted positions, log loss {:.4}; held out: log loss {:.4}",
            fit.len(),
            fitted.loss(&fit),
            fitted.loss(&held)
        )?;
        writeln!(out, "base rates: {}", rates(&base))?;
        writeln!(out)?;
        writeln!(out, "{fitted}")?;
        writeln!(out)?;
        writeln!(out, "{calibration}")?;
        log::info!("done in {:.1} s", started.elapsed().as_secs_f64());
        Ok(())
    }
}

/// `--matches`: the built-in model's calibration on the games of match summaries,
/// against those games' own base rates.
fn check_matches<G: Play>(paths: &[std::path::PathBuf]) -> Result<(), CliError> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in paths {
        let text = crate::files::read_text(path, crate::tournament::STATE_LIMIT)
            .map_err(|e| CliError::in_file(path.display(), e))?;
        let summary: SummaryFile =
            serde_json::from_str(&text).map_err(|e| CliError::in_file(path.display(), e))?;
        if !summary.game.eq_ignore_ascii_case(G::NAME) {
            let other = Refusal::SummaryOfOtherGame {
                found: summary.game,
                wanted: G::NAME,
            };
            return Err(CliError::in_file(path.display(), other));
        }
        let read = wdl::match_samples::<G>(&summary, games).map_err(|(game, e)| {
            CliError::in_file(format!("{} (game {game})", path.display()), e)
        })?;
        games += summary.games.len();
        samples.extend(read);
    }
    if samples.is_empty() {
        return Err(Refusal::NoScoredMoves.into());
    }
    let start = G::chances_at(&G::new_search(1), &G::start(), &Limits::default());
    let model = wdl::in_use(&start);
    let base = wdl::base_rates(&samples);
    let calibration = wdl::calibration(&samples, &base, 10, &|s| model.predict(s));
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "the built-in model on {} scored positions of {} games: log loss {:.4}",
        samples.len(),
        calibration.games,
        model.loss(&samples)
    )?;
    writeln!(out, "base rates (of these games): {}", rates(&base))?;
    writeln!(out)?;
    writeln!(out, "{calibration}")?;
    Ok(())
}

fn rates(base: &[f64]) -> String {
    base.iter()
        .map(|r| format!("{:.1} %", 100.0 * r))
        .collect::<Vec<_>>()
        .join(", ")
}

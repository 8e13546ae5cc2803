//! `ludus match`: engines play each other, two or four at a time, refereed by the
//! ludus library.
//!
//! - `engine`: engine specifications, processes and the dialects spoken to them;
//! - `process`: an engine's process group, and its output read in bounded lines;
//! - `referee`: one game, its clocks and its forfeits;
//! - `stats`: Elo, SPRT, four-player standings.
//!
//! Games come in sets that rotate the seats over the engines (colours swapped for two,
//! every engine in every seat for four), each set from one opening. Games run on
//! `concurrency` threads, each with its own engine processes, restarted after a
//! failure. Every finished game is appended to the state file (if any), so an
//! interrupted match resumes where it stopped.
//!
//! ```
//! use ludus::games::mangala::Position;
//! use ludus::tournament::{self, EngineSpec};
//!
//! let spec = EngineSpec::parse("cmd=./ludus name=first depth=4", 0).unwrap();
//! assert_eq!((spec.name.as_str(), spec.depth), ("first", Some(4)));
//! let openings = tournament::random_openings::<Position>(4, 3, 1);
//! assert_eq!(tournament::read_openings::<Position>(&openings.join("\n")).unwrap(), openings);
//! ```

mod engine;
mod error;
mod process;
mod referee;
mod shard;
mod stats;

pub use engine::EngineSpec;
pub use error::{ClockError, MatchError, OpeningError, SpecError, SprtError, StartError};
pub use referee::{Settings, TimeControl};
pub use shard::{MergeError, Merged, Shard, ShardError, merge};
pub use stats::Sprt;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use crate::files;
use crate::game::Game;
use crate::record;
use engine::EngineProcess;
use referee::Ending;
use stats::{Pentanomial, Standing, Tally, Verdict, places};

/// Everything a match is made of.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub settings: Settings,
    /// Games to play.
    pub games: usize,
    /// Opening lines: `startpos` or a position, optionally followed by `moves ...`.
    pub openings: Vec<String>,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    /// Rule options (name, value), for the referee and every engine.
    pub rules: Vec<(String, String)>,
    /// The part of the schedule this run plays (`--shard K/N`); `None`: all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    #[serde(skip)]
    pub records: Option<PathBuf>,
    #[serde(skip)]
    pub summary: Option<PathBuf>,
    #[serde(skip)]
    pub state: Option<PathBuf>,
}

/// A finished game as the state file and the summary keep it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's number in the schedule, from 0.
    pub index: usize,
    pub opening: usize,
    /// The engine (index into the engines) in every seat.
    pub seats: Vec<usize>,
    pub moves: Vec<String>,
    /// `rules`, `forfeit` or `move limit`.
    pub ending: String,
    /// Why: the rules' reason, or the forfeit's (with the offending line).
    pub reason: String,
    /// The seat that forfeited.
    pub forfeit: Option<usize>,
    /// Per seat: the game's scores when the rules ended it (Mentula's shared squares
    /// may be fractions: multiples of 1/12).
    pub scores: Option<Vec<f64>>,
    /// Per seat: the place, 1 best (shared places averaged).
    pub places: Vec<f64>,
    /// Per seat: how it used its clock (empty without a clock).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<referee::ClockUse>,
    /// Per move: the score its engine's search gave it, for the side that moved
    /// (centipawns; a mate as 100000 less its plies, negative when mated; `null` for
    /// the opening's moves and where none was given). Two-player games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evals: Vec<Option<i32>>,
}

/// What `ludus match` writes as its summary, as far as it is read back (by `ludus
/// match merge` and `ludus wdl --matches`).
#[derive(Deserialize)]
pub struct SummaryFile {
    pub game: String,
    pub config: MatchConfig,
    #[serde(default)]
    pub shard: Option<Shard>,
    pub games: Vec<GameSummary>,
}

impl GameSummary {
    /// The positions this game of `config` was played from, one before each of its
    /// moves (the opening's included): its opening's start with the moves replayed.
    pub fn positions<G: Game>(&self, config: &MatchConfig) -> Result<Vec<G>, OpeningError> {
        let line = config
            .openings
            .get(self.opening)
            .ok_or(OpeningError::NoSuchOpening(self.opening))?;
        let (mut position, _) = read_opening::<G>(line, &config.rules)?;
        let mut positions = Vec::with_capacity(self.moves.len());
        for text in &self.moves {
            let mv = position.parse_move(text).map_err(OpeningError::Move)?;
            positions.push(position.clone());
            position.play(mv);
        }
        Ok(positions)
    }

    /// Whether this can be a game of a match of `engines` engines and `openings`
    /// openings: what a state or a summary read back must hold before it is used.
    pub(crate) fn check(&self, engines: usize, openings: usize) -> Result<(), Misfit> {
        let mut seats = self.seats.clone();
        seats.sort_unstable();
        let per_seat = |n: usize| n == engines;
        let fits = seats.iter().copied().eq(0..engines)
            && per_seat(self.places.len())
            && self.places.iter().all(|p| p.is_finite())
            && self.opening < openings
            && self.forfeit.is_none_or(|seat| seat < engines)
            && self.scores.as_ref().is_none_or(|s| per_seat(s.len()))
            && (self.clocks.is_empty() || per_seat(self.clocks.len()));
        if fits {
            Ok(())
        } else {
            Err(Misfit(self.index))
        }
    }
}

/// A game read back that cannot be a game of the match it is read for (see
/// [`GameSummary::check`]); it holds the game's index.
#[derive(Debug, PartialEq)]
pub(crate) struct Misfit(usize);

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {} does not fit the match (its seats, places, opening, forfeit, scores \
             or clocks)",
            self.0.saturating_add(1)
        )
    }
}

/// What the state file holds: the configuration it belongs to and the games so far.
#[derive(Serialize, Deserialize)]
struct State {
    game: String,
    config: MatchConfig,
    results: Vec<GameSummary>,
}

/// The start and opening moves of one opening line.
fn read_opening<G: Game>(
    line: &str,
    rules: &[(String, String)],
) -> Result<(G, Vec<G::Move>), OpeningError> {
    let line = line.trim();
    let (setup, moves) = match line.split_once(" moves ") {
        Some((s, m)) => (s.trim(), m),
        None if line == "moves" || line.starts_with("moves ") => ("startpos", &line[5..]),
        None => match line.strip_suffix(" moves") {
            Some(s) => (s.trim(), ""),
            None => (line, ""),
        },
    };
    let mut start = if setup == "startpos" || setup.is_empty() {
        G::start()
    } else {
        G::from_fen(setup).map_err(OpeningError::Position)?
    };
    for (name, value) in rules {
        start
            .set_rule_option(name, value)
            .map_err(OpeningError::Rule)?;
    }
    let mut position = start.clone();
    let mut played = Vec::new();
    for text in moves.split_whitespace() {
        let mv = position.parse_move(text).map_err(OpeningError::Move)?;
        position.play(mv);
        played.push(mv);
    }
    if position.outcome().is_some() {
        return Err(OpeningError::GameOver);
    }
    Ok((start, played))
}

/// The random games [`random_openings`] plays for each opening asked: enough for any
/// game that has that many openings of that length.
pub const OPENING_TRIES: usize = 20;

/// `count` distinct random openings of `plies` random legal moves each, from the usual
/// start, as lines of an openings file (`startpos moves ...`), the same for the same
/// `seed`. Lines that end the game are not used; fewer come back when the game has
/// fewer such lines.
pub fn random_openings<G: Game>(plies: usize, count: usize, seed: u64) -> Vec<String> {
    let mut rng = crate::game::Rng(seed.max(1));
    let canonical = G::NOTATIONS[0].notation;
    let mut openings = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..count.saturating_mul(OPENING_TRIES) {
        if openings.len() == count {
            break;
        }
        let mut position = G::start();
        let mut line = Vec::new();
        for _ in 0..plies {
            position.legal_moves(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(position.format_move(mv, canonical));
            position.play(mv);
        }
        if line.len() < plies || position.outcome().is_some() {
            continue;
        }
        let text = format!("startpos moves {}", line.join(" "));
        if !openings.contains(&text) {
            openings.push(text);
        }
    }
    openings
}

/// The position an opening line reaches (its start with its moves played).
pub fn opening_position<G: Game>(line: &str) -> Result<G, OpeningError> {
    let (mut position, moves) = read_opening::<G>(line, &[])?;
    for mv in moves {
        position.play(mv);
    }
    Ok(position)
}

/// The most an openings file is read: 16 MiB (some 200,000 openings).
pub const OPENINGS_LIMIT: u64 = 16 << 20;

/// Reads an openings file: one opening a line; blank lines and `#` comments skipped.
pub fn read_openings<G: Game>(text: &str) -> Result<Vec<String>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        read_opening::<G>(line, &[]).map_err(|e| OpeningError::Line {
            line: i + 1,
            error: Box::new(e),
        })?;
        openings.push(line.to_string());
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// The seats of game `index`: sets of `n` games rotate the engines through the seats.
fn schedule(index: usize, engines: usize, openings: usize) -> (usize, Vec<usize>) {
    let rotation = index % engines;
    let opening = (index / engines) % openings;
    (
        opening,
        (0..engines).map(|s| (s + rotation) % engines).collect(),
    )
}

/// Summarises a played game.
fn summarise<G: Game>(
    index: usize,
    opening: usize,
    seats: Vec<usize>,
    played: referee::Played,
) -> GameSummary {
    let n = seats.len();
    let (ending, reason, forfeit, scores, seat_scores) = match played.ending {
        Ending::Rules(outcome) => {
            let units = G::DESCRIPTOR.score_units;
            let s: Vec<f64> = outcome
                .scores
                .iter()
                .map(|&v| crate::game::score_value(v, units))
                .collect();
            (
                "rules",
                outcome.reason.to_string(),
                None,
                Some(s.clone()),
                s,
            )
        }
        Ending::Forfeit { seat, reason } => {
            let mut s = vec![0.0; n];
            s[seat] = -1.0;
            ("forfeit", reason, Some(seat), None, s)
        }
        Ending::MoveLimit => (
            "move limit",
            "the match's move limit".to_string(),
            None,
            None,
            vec![0.0; n],
        ),
    };
    GameSummary {
        index,
        opening,
        seats,
        clocks: played.clocks,
        evals: played.scores,
        moves: played.moves,
        ending: ending.to_string(),
        reason,
        forfeit,
        scores,
        places: places(&seat_scores),
    }
}

/// The result token of a two-player game from the first seat's view.
fn two_player_result(summary: &GameSummary) -> &'static str {
    let winner = match summary.places.as_slice() {
        [a, b] if a < b => Some(0),
        [a, b] if a > b => Some(1),
        _ => None,
    };
    crate::record::ResultToken::of(winner).text()
}

/// One line for a finished game.
fn result_line<G: Game>(summary: &GameSummary, config: &MatchConfig) -> String {
    let players: Vec<String> = summary
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &e)| format!("{} ({})", config.engines[e].name, G::PLAYERS[seat]))
        .collect();
    let outcome = if summary.seats.len() == 2 {
        two_player_result(summary).to_string()
    } else {
        match &summary.scores {
            Some(s) => format!(
                "scores {}",
                s.iter()
                    .map(|&v| crate::game::score_text(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => {
                "places ".to_string()
                    + &summary
                        .places
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
            }
        }
    };
    let why = match summary.forfeit {
        Some(seat) => format!(
            "{} forfeits: {}",
            config.engines[summary.seats[seat]].name, summary.reason
        ),
        None => summary.reason.clone(),
    };
    format!(
        "game {} of {}: {}: {outcome} ({why}), {} moves",
        summary.index + 1,
        config.games,
        players.join(" vs "),
        summary.moves.len()
    )
}

/// The time control of each seat of a game (they differ with time odds).
fn seat_controls(summary: &GameSummary, config: &MatchConfig) -> Vec<TimeControl> {
    summary
        .seats
        .iter()
        .map(|&e| referee::control_of(&config.engines[e], &config.settings))
        .collect()
}

/// The record of a game in the game's own format (Sena-Mukha: PGN tags).
pub fn game_record<G: Game>(summary: &GameSummary, config: &MatchConfig) -> String {
    let names: Vec<&str> = summary
        .seats
        .iter()
        .map(|&e| config.engines[e].name.as_str())
        .collect();
    let (start, _) = read_opening::<G>(&config.openings[summary.opening], &config.rules)
        .expect("openings were checked");
    let mut position = start.clone();
    let mut moves = Vec::new();
    // The moves were legal when played, so only an edited or foreign state file can
    // hold one that does not read: the record then says where and why it stops.
    let mut unreadable = None;
    for (i, text) in summary.moves.iter().enumerate() {
        match position.parse_move(text) {
            Ok(mv) => {
                position.play(mv);
                moves.push(mv);
            }
            Err(e) => {
                let why = format!("the record stops at move {} ({e})", i + 1);
                log::error!("game {}: {why}", summary.index + 1);
                unreadable = Some(why);
                break;
            }
        }
    }
    let two = summary.seats.len() == 2;
    let result = if two { two_player_result(summary) } else { "*" };
    let mut header = String::new();
    if G::DESCRIPTOR.record_tags {
        let mut tags = vec![
            ("Event", "ludus match".to_string()),
            ("Round", (summary.index + 1).to_string()),
            ("White", names[0].to_string()),
            ("Black", names[1].to_string()),
            ("Result", result.to_string()),
            ("Variant", G::NAME.to_string()),
            ("Termination", summary.reason.clone()),
        ];
        if start.fen() != G::start().fen() {
            tags.push(("FEN", start.fen()));
            tags.push(("SetUp", "1".to_string()));
        }
        // Time odds: each side's own clock.
        if let [white, black] = seat_controls(summary, config)[..]
            && white != black
        {
            tags.push(("WhiteTimeControl", white.to_string()));
            tags.push(("BlackTimeControl", black.to_string()));
        }
        for (tag, value) in tags {
            header.push_str(&format!("[{tag} \"{}\"]\n", value.replace('"', "'")));
        }
    } else {
        header.push_str(&names.join("—"));
        header.push_str(&format!("\nludus match, game {}", summary.index + 1));
        let controls = seat_controls(summary, config);
        if controls.iter().any(|c| *c != controls[0]) {
            let shown: Vec<String> = controls.iter().map(ToString::to_string).collect();
            header.push_str(&format!(", clocks {}", shown.join("—")));
        }
        if start.fen() != G::start().fen() {
            header.push_str(&format!(", from {}", start.fen()));
        }
        header.push('\n');
    }
    let notation = G::NOTATIONS[G::DESCRIPTOR.record_notation].notation;
    let mut text = record::write(&start, &moves, None, notation);
    let text_end = text.trim_end().len();
    text.truncate(text_end);
    if let Some(why) = unreadable {
        text.push_str(&format!(" {{{}}}", why.replace('}', ")")));
    }
    let ended_by_rules = summary.ending == "rules";
    if !ended_by_rules {
        text.push_str(&format!(
            " {{{}: {}}}",
            summary.ending,
            summary.reason.replace('}', ")")
        ));
    }
    if two || !ended_by_rules {
        text.push(' ');
        text.push_str(result);
    }
    if let (false, Some(scores)) = (two, &summary.scores) {
        text.push_str(&format!(
            " {{scores {}}}",
            scores
                .iter()
                .map(|&v| crate::game::score_text(v))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    format!("{header}\n{text}\n\n")
}

/// Wins, draws and losses of the first engine in two-player games.
fn tally(results: &[GameSummary]) -> Tally {
    let mut tally = Tally::default();
    for r in results {
        let first = r.seats.iter().position(|&e| e == 0).unwrap_or(0);
        match r.places[first].total_cmp(&r.places[1 - first]) {
            std::cmp::Ordering::Less => tally.wins += 1,
            std::cmp::Ordering::Greater => tally.losses += 1,
            std::cmp::Ordering::Equal => tally.draws += 1,
        }
    }
    tally
}

/// The pairs of two-player games played from one opening with the seats swapped (a
/// set of the schedule), by the first engine's points in them; a set missing a game
/// is left out.
fn pentanomial(results: &[GameSummary]) -> Pentanomial {
    let mut sets: std::collections::BTreeMap<usize, Vec<&GameSummary>> = Default::default();
    for r in results {
        sets.entry(r.index / 2).or_default().push(r);
    }
    let mut counts = Pentanomial::default();
    for pair in sets.values().filter(|games| games.len() == 2) {
        let t = tally(&pair.iter().map(|&g| g.clone()).collect::<Vec<_>>());
        counts.0[(2 * t.wins + t.draws) as usize] += 1;
    }
    counts
}

/// An Elo difference with its interval in words; `samples` names what was counted.
fn elo_words(elo: f64, margin: f64, samples: &str) -> String {
    if elo.is_finite() && margin.is_finite() {
        format!("{elo:+.1} +/- {margin:.1} (95 %)")
    } else if elo.is_finite() {
        format!("{elo:+.1} (95 % interval unbounded: too few {samples})")
    } else {
        "not finite: one engine scored every point".to_string()
    }
}

/// The final report: per engine, and for two engines the Elo and SPRT.
pub struct Report {
    pub lines: Vec<String>,
    pub json: serde_json::Value,
}

/// Builds the report from the games.
pub fn report(config: &MatchConfig, results: &[GameSummary], game: &str) -> Report {
    let mut lines = Vec::new();
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let forfeits: Vec<u32> = (0..names.len())
        .map(|e| {
            results
                .iter()
                .filter(|r| r.forfeit.is_some_and(|s| r.seats[s] == e))
                .count() as u32
        })
        .collect();
    let mut json = serde_json::json!({
        "game": game,
        "engines": names,
        "games_played": results.len(),
        "games": results,
        "forfeits": forfeits,
    });
    if names.len() == 2 {
        let tally = tally(results);
        let (elo, margin) = tally.elo();
        lines.push(format!(
            "{} vs {}: {} - {} - {} (wins, draws, losses of {}), score {:.1}/{} = {:.1} %",
            names[0],
            names[1],
            tally.wins,
            tally.draws,
            tally.losses,
            names[0],
            tally.wins as f64 + tally.draws as f64 / 2.0,
            tally.games(),
            100.0 * tally.score()
        ));
        let elo_text = elo_words(elo, margin, "games");
        lines.push(format!(
            "Elo difference: {elo_text}, draw ratio {:.1} %",
            100.0 * tally.draw_ratio()
        ));
        let pairs = pentanomial(results);
        let (pair_elo, pair_margin) = pairs.elo();
        let pair_text = elo_words(pair_elo, pair_margin, "pairs");
        lines.push(format!(
            "Pentanomial (game pairs by {}'s points 0, 0.5, 1, 1.5, 2): {:?}, {} pairs, Elo {pair_text}",
            names[0],
            pairs.0,
            pairs.pairs()
        ));
        let finite = |v: f64| {
            if v.is_finite() {
                serde_json::json!(v)
            } else {
                serde_json::Value::Null
            }
        };
        json["pentanomial"] = serde_json::json!({
            "pairs": pairs.pairs(), "counts": pairs.0, "score": pairs.score(),
            "elo": finite(pair_elo), "elo_margin": finite(pair_margin),
        });
        json["tally"] = serde_json::json!({
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
            "score": tally.score(), "draw_ratio": tally.draw_ratio(),
            "elo": if elo.is_finite() { serde_json::json!(elo) } else { serde_json::Value::Null },
            "elo_margin": if margin.is_finite() { serde_json::json!(margin) } else { serde_json::Value::Null },
        });
        if let Some(sprt) = &config.sprt {
            let llr = sprt.llr(&tally);
            let pair_llr = sprt.llr_pairs(&pairs);
            let (low, high) = sprt.bounds();
            let verdict = sprt.verdict(&tally);
            lines.push(format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({low:.2}, {high:.2}), \
                 on pairs {pair_llr:.2}: {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                match verdict {
                    Verdict::H1 => "H1 accepted",
                    Verdict::H0 => "H0 accepted",
                    Verdict::Continue => "no decision",
                }
            ));
            json["sprt"] = serde_json::json!({
                "llr": llr, "llr_pairs": pair_llr, "lower": low, "upper": high, "verdict": verdict,
            });
        }
    } else {
        let mut standings = vec![Standing::default(); names.len()];
        for r in results {
            for (seat, &e) in r.seats.iter().enumerate() {
                let s = &mut standings[e];
                s.add_game(seat, &r.places);
                if let Some(scores) = &r.scores {
                    s.score_sum += scores[seat];
                    s.scored_games += 1;
                }
            }
        }
        lines.push(format!(
            "{:<20} {:>5} {:>15} {:>9} {:>15} {:>6} {:>8}  average place per seat",
            "engine", "games", "avg place", "avg score", "rating", "firsts", "forfeits"
        ));
        let seats = results.first().map_or(0, |r| r.seats.len());
        for (e, s) in standings.iter().enumerate() {
            let (rating, margin) = s.rating();
            // Rounded first, so that a rating just below zero prints as +0.
            let rating = rating.round() + 0.0;
            let rating = if rating.is_finite() && margin.is_finite() {
                format!("{rating:+.0} ± {margin:.0}")
            } else if rating.is_finite() {
                format!("{rating:+.0} ± inf")
            } else {
                format!("{rating:+}")
            };
            lines.push(format!(
                "{:<20} {:>5} {:>15} {:>9.2} {:>15} {:>6} {:>8}  {}",
                names[e],
                s.games,
                format!("{:.2} ± {:.2}", s.average_rank(), s.rank_margin()),
                s.average_score(),
                rating,
                s.first_places,
                forfeits[e],
                s.per_seat(seats).join(" ")
            ));
        }
        lines.push(
            "(± is the 95 % interval; the rating is Elo against the field, from each game's \
             pairwise results by place)"
                .to_string(),
        );
        for (e, s) in standings.iter().enumerate() {
            let (rating, margin) = s.rating();
            json["ratings"][names[e]] = serde_json::json!({
                "elo": if rating.is_finite() { Some(rating) } else { None },
                "margin": if margin.is_finite() { Some(margin) } else { None },
                "average_place_margin": s.rank_margin(),
            });
        }
        json["standings"] = serde_json::json!(standings);
    }
    let clock_lines: Vec<(String, serde_json::Value)> = (0..names.len())
        .filter_map(|e| clock_report(results, e).map(|c| (c.line(names[e]), c.json())))
        .collect();
    if !clock_lines.is_empty() {
        json["clocks"] = serde_json::json!(clock_lines.iter().map(|(_, j)| j).collect::<Vec<_>>());
        lines.extend(clock_lines.into_iter().map(|(line, _)| line));
    }
    Report { lines, json }
}

/// How one engine used its clock over a match.
struct ClockReport {
    games: usize,
    /// The share of the time it had that it used, per game.
    shares: Vec<f64>,
    lowest_left_ms: u64,
    longest_ms: u64,
    time_losses: usize,
    moves: u64,
    used_ms: u64,
}

impl ClockReport {
    fn line(&self, name: &str) -> String {
        let mut shares = self.shares.clone();
        shares.sort_by(f64::total_cmp);
        if shares.is_empty() {
            return format!(
                "{name}: made no move on the clock, {} lost on time",
                self.time_losses
            );
        }
        let mean = shares.iter().sum::<f64>() / shares.len() as f64;
        format!(
            "{name}: used {:.0} % of its clock on average ({:.0} to {:.0} % per game, {} game{}), \
             {} ms a move, least left {} ms, longest move {} ms, {} lost on time",
            100.0 * mean,
            100.0 * shares[0],
            100.0 * shares[shares.len() - 1],
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.used_ms / self.moves.max(1),
            self.lowest_left_ms,
            self.longest_ms,
            self.time_losses
        )
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "mean_share_used": self.shares.iter().sum::<f64>() / self.shares.len().max(1) as f64,
            "lowest_left_ms": self.lowest_left_ms,
            "longest_move_ms": self.longest_ms,
            "time_losses": self.time_losses,
            "ms_per_move": self.used_ms / self.moves.max(1),
        })
    }
}

/// Engine `e`'s clock over the games that kept one for it.
fn clock_report(results: &[GameSummary], e: usize) -> Option<ClockReport> {
    let mut report = ClockReport {
        games: 0,
        shares: Vec::new(),
        lowest_left_ms: u64::MAX,
        longest_ms: 0,
        time_losses: 0,
        moves: 0,
        used_ms: 0,
    };
    for r in results {
        for (seat, &engine) in r.seats.iter().enumerate() {
            if engine == e && r.forfeit == Some(seat) && r.reason.starts_with("lost on time") {
                // Its clock ran out: none left (a state written before the referee
                // said so may still hold what it had left after its last move).
                report.time_losses += 1;
                report.lowest_left_ms = 0;
            }
            let Some(c) = r.clocks.get(seat).filter(|c| engine == e && c.moves > 0) else {
                continue;
            };
            report.games += 1;
            report
                .shares
                .push(c.used_ms as f64 / c.had_ms.max(1) as f64);
            report.lowest_left_ms = report.lowest_left_ms.min(c.lowest_left_ms);
            report.longest_ms = report.longest_ms.max(c.longest_ms);
            report.moves += u64::from(c.moves);
            report.used_ms += c.used_ms;
        }
    }
    (report.games > 0 || report.time_losses > 0).then_some(report)
}

/// The most a state file, or a summary merged, is read: 256 MiB (some hundred
/// thousand games).
pub const STATE_LIMIT: u64 = 256 << 20;

/// Where a state is written whole before it replaces the last one: `<state>.partial`.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The games of this match that the state file at `path` holds (within the match's
/// number of games); `None` when there is no file yet, or an empty one. A file that
/// is not UTF-8 JSON of a state within [`STATE_LIMIT`], is another match's, or holds
/// a game that does not fit this match is refused, and so never overwritten.
fn read_state<G: Game>(
    path: &Path,
    config: &MatchConfig,
) -> Result<Option<Vec<GameSummary>>, MatchError> {
    // `check_writable` passed: a regular file, or nothing yet.
    if !path.exists() {
        return Ok(None);
    }
    let text = files::read_text(path, STATE_LIMIT).map_err(|error| MatchError::File {
        option: "--state",
        error,
    })?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let damaged = |why: String| MatchError::StateUnreadable {
        path: path.to_path_buf(),
        why,
    };
    let state: State = serde_json::from_str(&text).map_err(|e| damaged(e.to_string()))?;
    // The number of games and the concurrency may change between runs.
    let comparable = |c: &MatchConfig| {
        serde_json::to_value(MatchConfig {
            games: 0,
            concurrency: 0,
            ..c.clone()
        })
        .ok()
    };
    if state.game != G::NAME || comparable(&state.config) != comparable(config) {
        return Err(MatchError::StateOfAnotherMatch(path.to_path_buf()));
    }
    let mut seen = std::collections::HashSet::new();
    for game in &state.results {
        game.check(config.engines.len(), config.openings.len())
            .map_err(|misfit| damaged(misfit.to_string()))?;
        if !seen.insert(game.index) {
            return Err(damaged(format!(
                "game {} is in it twice",
                game.index.saturating_add(1)
            )));
        }
    }
    let mut results = state.results;
    results.retain(|r| r.index < config.games);
    Ok(Some(results))
}

/// Runs the match for game `G`, printing progress and results to `out`.
pub fn run<G: Game>(
    config: MatchConfig,
    out: &mut dyn Write,
) -> Result<Vec<GameSummary>, MatchError> {
    let engines = config.engines.len();
    if engines != G::PLAYERS.len() {
        return Err(MatchError::EngineCount {
            game: G::NAME,
            wanted: G::PLAYERS.len(),
            given: engines,
        });
    }
    if config.games == 0 {
        return Err(MatchError::NoGames);
    }
    if config.sprt.is_some() && engines != 2 {
        return Err(MatchError::SprtNeedsTwo);
    }
    for opening in &config.openings {
        read_opening::<G>(opening, &config.rules).map_err(|error| MatchError::Opening {
            opening: opening.clone(),
            error,
        })?;
    }
    // The files the match writes are checked, and its state read, before an engine
    // starts: what is not a regular file (or a name that can become one), and a state
    // that is too large, damaged or another match's, is refused; nothing on disk changes.
    let partial = config.state.as_deref().map(partial_path);
    for (option, path) in [
        ("--state", config.state.as_deref()),
        ("--state", partial.as_deref()),
        ("--summary", config.summary.as_deref()),
        ("--records", config.records.as_deref()),
    ] {
        if let Some(path) = path {
            files::check_writable(path).map_err(|error| MatchError::File { option, error })?;
        }
    }
    let resumed = match &config.state {
        Some(path) => read_state::<G>(path, &config)?,
        None => None,
    };
    // An engine that cannot start, or refuses its options, is a mistake in the
    // command, not a loss: the match stops before the first game.
    for spec in &config.engines {
        let refused = |why: String| MatchError::Engine {
            name: spec.name.clone(),
            why,
        };
        let mut engine = EngineProcess::start(spec).map_err(|e| refused(e.to_string()))?;
        engine.spec.options.extend(config.rules.iter().cloned());
        let setup = engine.new_game(
            G::NAME,
            config
                .settings
                .stall
                .max(std::time::Duration::from_secs(10)),
        );
        engine.quit();
        setup.map_err(|failure| refused(failure.to_string()))?;
    }
    if let Some(results) = &resumed {
        writeln!(out, "resuming: {} games already played", results.len()).ok();
    }
    let mut results = resumed.unwrap_or_default();
    // A shard plays its part of the schedule; the others' games count as done here.
    let done: Vec<bool> = (0..config.games)
        .map(|i| {
            results.iter().any(|r| r.index == i)
                || config.shard.is_some_and(|s| !s.holds(i, engines))
        })
        .collect();
    let to_play = (0..config.games)
        .filter(|&i| config.shard.is_none_or(|s| s.holds(i, engines)))
        .count();
    // A shard sees only its part: the SPRT decides on the merged shards.
    let sprt_decided = |results: &[GameSummary]| {
        config.shard.is_none()
            && config
                .sprt
                .is_some_and(|sprt| sprt.verdict(&tally(results)) != Verdict::Continue)
    };
    let stop = AtomicBool::new(sprt_decided(&results));
    let next = AtomicUsize::new(0);
    let progress = (std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(to_play as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(results.len() as u64);
        bar
    });
    let (sender, finished) = mpsc::channel::<GameSummary>();
    let config_ref = &config;
    let mut write_error: Option<MatchError> = None;
    let mut output_closed = false;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next, stop, done) = (&next, &stop, &done);
            scope.spawn(move || {
                let mut processes: Vec<Option<EngineProcess>> =
                    (0..engines).map(|_| None).collect();
                loop {
                    if stop.load(Ordering::Acquire) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::AcqRel);
                    if index >= config_ref.games {
                        break;
                    }
                    if done[index] {
                        continue;
                    }
                    let summary = play_one::<G>(config_ref, index, &mut processes);
                    if sender.send(summary).is_err() {
                        break;
                    }
                }
                for process in processes.into_iter().flatten() {
                    process.quit();
                }
            });
        }
        drop(sender);
        for summary in finished {
            let line = result_line::<G>(&summary, config_ref);
            match &progress {
                Some(bar) => {
                    bar.println(&line);
                    bar.inc(1);
                }
                None => {
                    // A reader that has gone (`ludus match ... | head -1`) ends the
                    // match: no game starts after it, and the state keeps what was
                    // played.
                    if writeln!(out, "{line}")
                        .and_then(|()| out.flush())
                        .is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
                    {
                        output_closed = true;
                        stop.store(true, Ordering::Release);
                    }
                }
            }
            if let Some(path) = &config_ref.records {
                let record = game_record::<G>(&summary, config_ref);
                let written = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(record.as_bytes()));
                if let Err(e) = written {
                    // No game is played that could not be kept.
                    stop.store(true, Ordering::Release);
                    write_error = Some(MatchError::Write {
                        path: path.clone(),
                        why: e.to_string(),
                    });
                }
            }
            results.push(summary);
            if let Some(path) = &config_ref.state {
                let state = State {
                    game: G::NAME.to_string(),
                    config: config_ref.clone(),
                    results: results.clone(),
                };
                let text = serde_json::to_string(&state).expect("a state serialises");
                // Written whole, then renamed: an interruption never leaves half a file.
                let partial = partial.as_deref().expect("a state has its partial");
                if let Err(e) =
                    std::fs::write(partial, text).and_then(|()| std::fs::rename(partial, path))
                {
                    stop.store(true, Ordering::Release);
                    write_error = Some(MatchError::Write {
                        path: path.clone(),
                        why: e.to_string(),
                    });
                }
            }
            if sprt_decided(&results) {
                stop.store(true, Ordering::Release);
            }
        }
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    if output_closed {
        return Err(MatchError::OutputClosed);
    }
    results.sort_by_key(|r| r.index);
    let report = report(&config, &results, G::NAME);
    writeln!(out, "{}", report.lines.join("\n")).ok();
    if stop.load(Ordering::Acquire) && results.len() < to_play {
        writeln!(out, "the SPRT decided after {} games", results.len()).ok();
    }
    if let Some(path) = &config.summary {
        // The configuration and the shard, so that `ludus match merge` can tell the
        // shards of one match from those of another.
        let mut json = report.json;
        json["config"] = serde_json::json!(config);
        json["shard"] = serde_json::json!(config.shard);
        let text = serde_json::to_string_pretty(&json).expect("a summary serialises");
        std::fs::write(path, text).map_err(|e| MatchError::Write {
            path: path.clone(),
            why: e.to_string(),
        })?;
    }
    Ok(results)
}

/// Plays game `index` with this thread's engine processes (started when missing).
fn play_one<G: Game>(
    config: &MatchConfig,
    index: usize,
    processes: &mut [Option<EngineProcess>],
) -> GameSummary {
    let engines = processes.len();
    let (opening, seats) = schedule(index, engines, config.openings.len());
    let (start, opening_moves) =
        read_opening::<G>(&config.openings[opening], &config.rules).expect("openings were checked");
    // Start the engines that are not running; one that cannot start forfeits.
    for (seat, &e) in seats.iter().enumerate() {
        if processes[e].is_none() {
            match EngineProcess::start(&config.engines[e]) {
                Ok(mut engine) => {
                    // The rules are the match's: every engine gets the rule options.
                    engine.spec.options.extend(config.rules.iter().cloned());
                    processes[e] = Some(engine);
                }
                Err(error) => {
                    let played = referee::Played {
                        moves: Vec::new(),
                        ending: Ending::Forfeit {
                            seat,
                            reason: error.to_string(),
                        },
                        clocks: Vec::new(),
                        scores: Vec::new(),
                    };
                    return summarise::<G>(index, opening, seats, played);
                }
            }
        }
    }
    let mut taken: Vec<EngineProcess> = seats
        .iter()
        .map(|&e| processes[e].take().expect("started"))
        .collect();
    let mut by_seat: Vec<&mut EngineProcess> = taken.iter_mut().collect();
    let played = referee::play(&start, &opening_moves, &mut by_seat, &config.settings);
    let failed = match &played.ending {
        Ending::Forfeit { seat, .. } => Some(*seat),
        _ => None,
    };
    for (seat, engine) in taken.into_iter().enumerate() {
        if Some(seat) == failed {
            // Restarted for the next game.
            engine.quit();
        } else {
            processes[seats[seat]] = Some(engine);
        }
    }
    summarise::<G>(index, opening, seats, played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_in_sets_over_the_openings() {
        assert_eq!(schedule(0, 2, 3), (0, vec![0, 1]));
        assert_eq!(schedule(1, 2, 3), (0, vec![1, 0]));
        assert_eq!(schedule(2, 2, 3), (1, vec![0, 1]));
        assert_eq!(schedule(7, 2, 3), (0, vec![1, 0]));
        // Four engines: every engine in every seat within a set.
        let set: Vec<Vec<usize>> = (0..4).map(|i| schedule(i, 4, 1).1).collect();
        for seat in 0..4 {
            let mut engines: Vec<usize> = set.iter().map(|s| s[seat]).collect();
            engines.sort();
            assert_eq!(engines, vec![0, 1, 2, 3]);
        }
    }

    #[test]
    fn a_record_says_where_it_stops_at_a_move_it_cannot_read() {
        use crate::games::mangala;
        let config = MatchConfig {
            engines: vec![
                EngineSpec::parse("a", 0).unwrap(),
                EngineSpec::parse("b", 1).unwrap(),
            ],
            settings: Settings {
                time_control: TimeControl::Depth(1),
                margin: std::time::Duration::ZERO,
                stall: std::time::Duration::ZERO,
                max_plies: 100,
            },
            games: 1,
            openings: vec!["startpos".to_string()],
            concurrency: 1,
            sprt: None,
            rules: Vec::new(),
            shard: None,
            records: None,
            summary: None,
            state: None,
        };
        let summary = GameSummary {
            index: 0,
            opening: 0,
            seats: vec![0, 1],
            moves: vec!["F".into(), "z".into(), "A".into()],
            ending: "move limit".into(),
            reason: "the match's move limit".into(),
            forfeit: None,
            scores: None,
            places: vec![1.5, 1.5],
            clocks: Vec::new(),
            evals: Vec::new(),
        };
        let record = game_record::<mangala::Position>(&summary, &config);
        assert!(
            record.contains("1. F {the record stops at move 2 (unreadable move: z"),
            "{record}"
        );
    }

    #[test]
    fn random_openings_are_distinct_playable_and_repeatable() {
        use crate::games::{mentula, senamukha};
        let openings = random_openings::<senamukha::Position>(6, 50, 7);
        assert_eq!(openings.len(), 50);
        let mut sorted = openings.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 50);
        let file = openings.join("\n");
        assert_eq!(
            read_openings::<senamukha::Position>(&file).unwrap(),
            openings
        );
        for line in &openings {
            let (_, played) = read_opening::<senamukha::Position>(line, &[]).unwrap();
            assert_eq!(played.len(), 6);
        }
        assert_eq!(random_openings::<senamukha::Position>(6, 50, 7), openings);
        assert_ne!(random_openings::<senamukha::Position>(6, 50, 8), openings);
        assert_eq!(random_openings::<mentula::Position>(8, 10, 1).len(), 10);
    }

    /// A game of engine 0 (seat 0) against engine 1 with the clocks used as given;
    /// engine 0 lost it on time when `flagged`.
    fn clocked_game(index: usize, lowest_left_ms: u64, flagged: bool) -> GameSummary {
        let usage = referee::ClockUse {
            moves: 10,
            used_ms: 1_000,
            had_ms: 3_000,
            lowest_left_ms,
            longest_ms: 200,
        };
        GameSummary {
            index,
            opening: 0,
            seats: vec![0, 1],
            moves: Vec::new(),
            ending: if flagged { "forfeit" } else { "rules" }.into(),
            reason: if flagged {
                "lost on time (2100 ms used, 2000 ms left)"
            } else {
                "all pits empty"
            }
            .into(),
            forfeit: flagged.then_some(0),
            scores: None,
            places: vec![1.5, 1.5],
            clocks: vec![usage, usage],
            evals: Vec::new(),
        }
    }

    #[test]
    fn the_clock_report_of_an_engine_that_lost_on_time_says_it_ran_out() {
        // States written before the referee recorded a run-out: the game lost on time
        // still says 1960 ms left.
        let results = [
            clocked_game(0, 2_500, false),
            clocked_game(1, 1_960, true),
            clocked_game(2, 1_960, true),
        ];
        let line = clock_report(&results, 0).unwrap().line("a");
        assert!(
            line.contains("least left 0 ms") && line.ends_with("2 lost on time"),
            "{line}"
        );
        let line = clock_report(&results, 1).unwrap().line("b");
        assert!(
            line.contains("least left 1960 ms") && line.ends_with("0 lost on time"),
            "{line}"
        );
        // One game: "1 game", not "1 games".
        let line = clock_report(&results[..1], 0).unwrap().line("a");
        assert!(line.contains("per game, 1 game)"), "{line}");
    }

    #[test]
    fn a_game_read_back_must_fit_the_match() {
        let game = GameSummary {
            index: 4,
            opening: 1,
            seats: vec![1, 0],
            moves: Vec::new(),
            ending: "forfeit".into(),
            reason: "crashed".into(),
            forfeit: Some(1),
            scores: None,
            places: vec![1.0, 2.0],
            clocks: Vec::new(),
            evals: Vec::new(),
        };
        assert_eq!(game.check(2, 2), Ok(()));
        assert!(game.check(2, 1).is_err(), "opening 1 of 1");
        assert!(game.check(4, 2).is_err(), "two seats of four");
        for broken in [
            GameSummary {
                seats: vec![0, 7],
                ..game.clone()
            },
            GameSummary {
                seats: vec![0, 0],
                ..game.clone()
            },
            GameSummary {
                places: vec![1.0],
                ..game.clone()
            },
            GameSummary {
                forfeit: Some(2),
                ..game.clone()
            },
            GameSummary {
                scores: Some(vec![1.0]),
                ..game.clone()
            },
        ] {
            let e = broken.check(2, 2).unwrap_err().to_string();
            assert!(e.starts_with("game 5 does not fit the match"), "{e}");
        }
    }

    #[test]
    fn openings_are_checked() {
        use crate::games::mangala;
        assert_eq!(
            read_openings::<mangala::Position>("# none\n\n").unwrap_err(),
            OpeningError::Empty
        );
        let ok = read_openings::<mangala::Position>("startpos\nstartpos moves A b\n").unwrap();
        assert_eq!(ok.len(), 2);
        let err = read_openings::<mangala::Position>("startpos\nmoves A A\n").unwrap_err();
        assert!(matches!(err, OpeningError::Line { line: 2, .. }), "{err:?}");
        assert!(err.to_string().starts_with("opening on line 2:"), "{err}");
    }
}

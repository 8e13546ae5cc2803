//! Self-play for data: the games `ludus tune generate` and `ludus datagen` play.
//!
//! Game `k` of a seed starts from random legal moves drawn from the seed and `k`, so it
//! is the same game in every run; then one engine plays both sides at fixed limits,
//! its tables cleared first. A game the search scores as won by far for several plies
//! in a row is adjudicated, to save time.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::game::Rng;
use crate::search::{Limits, Score, Searchable};

/// A win the search sees by this much (centi-units), this many plies in a row, ends a
/// game.
pub const ADJUDICATE_SCORE: i32 = 1_500;
const ADJUDICATE_PLIES: usize = 8;

/// How the games are played.
pub struct Play {
    seed: u64,
    /// Random moves from the start before the engine plays.
    opening_plies: usize,
    limits: Limits,
    /// A game is a draw after this many plies of the engine (the opening's aside).
    max_plies: usize,
}

impl Play {
    /// Games of `seed` from `opening_plies` random moves, at `nodes` and `depth` a
    /// move (whichever ends first), drawn after `max_plies` plies of the engine.
    pub fn new(
        seed: u64,
        opening_plies: usize,
        nodes: Option<u64>,
        depth: Option<u32>,
        max_plies: usize,
    ) -> Play {
        let limits = Limits {
            nodes,
            depth,
            ..Limits::default()
        };
        Play {
            seed,
            opening_plies,
            limits,
            max_plies,
        }
    }
}

/// What [`play_game`] shows of each move: the position, the move, its score from the
/// mover's view (`None` when decided) and the ply.
pub type Seen<'a, G> = dyn FnMut(&G, <G as crate::game::Game>::Move, Option<i32>, usize) + 'a;

/// Plays game number `game`, calling `seen(position, move, score, ply)` before each of
/// the engine's moves with the move it chose and its score from the mover's view
/// (`None` for a decided one: a mate, or past the adjudication margin). Returns the
/// first player's points: 2 won, 1 drawn, 0 lost.
pub fn play_game<G: Searchable>(
    engine: &mut G::Search,
    play: &Play,
    game: usize,
    seen: &mut Seen<G>,
) -> u8 {
    let (mut position, mut ply) = opening::<G>(play, game);
    G::clear(engine);
    // Plies in a row the search has seen a big win for the first player (+) or the
    // second (-).
    let mut streak: i32 = 0;
    for _ in 0..play.max_plies {
        if let Some(outcome) = position.outcome() {
            let leaders = outcome.leaders();
            return if leaders.len() > 1 {
                1
            } else if leaders.first() == Some(&0) {
                2
            } else {
                0
            };
        }
        let found = G::think(engine, &mut position, &play.limits, &mut |_| {});
        let Some(mv) = found.best_move else { break };
        let sign = if position.to_move() == 0 { 1 } else { -1 };
        let (score, winning) = match found.info.scores.first() {
            Some(Score::Mate(n)) => (None, n.signum() * sign),
            Some(&Score::Centi(v)) if v.abs() >= ADJUDICATE_SCORE => (None, v.signum() * sign),
            Some(&Score::Centi(v)) => (Some(v), 0),
            _ => (None, 0),
        };
        streak = if winning != 0 && winning == streak.signum() {
            streak + winning
        } else {
            winning
        };
        seen(&position, mv, score, ply);
        position.play(mv);
        ply += 1;
        if streak.unsigned_abs() as usize >= ADJUDICATE_PLIES {
            return if streak > 0 { 2 } else { 0 };
        }
    }
    1
}

/// The start of game number `game`: the random moves from the start, and how many.
fn opening<G: Searchable>(play: &Play, game: usize) -> (G, usize) {
    let mut rng = Rng(crate::game::splitmix64(play.seed ^ (game as u64 + 1)).0 | 1);
    let mut position = G::start();
    let mut moves = Vec::new();
    let mut ply = 0;
    for _ in 0..play.opening_plies {
        position.legal_moves(&mut moves);
        if moves.is_empty() || position.outcome().is_some() {
            break;
        }
        position.play(moves[rng.below(moves.len())]);
        ply += 1;
    }
    (position, ply)
}

/// Plays game number `game` to its end, with no adjudication (the game's own end, or
/// a draw after the ply limit), calling `seen(position, report)` before each of the
/// engine's moves with the search's last report. Returns the players first at the end:
/// the winner, those sharing first place, or every player after the ply limit.
pub fn play_out<G: Searchable>(
    engine: &mut G::Search,
    play: &Play,
    game: usize,
    seen: &mut dyn FnMut(&G, &crate::search::Info),
) -> Vec<usize> {
    let (mut position, _) = opening::<G>(play, game);
    G::clear(engine);
    for _ in 0..play.max_plies {
        if let Some(outcome) = position.outcome() {
            return outcome.leaders();
        }
        let found = G::think(engine, &mut position, &play.limits, &mut |_| {});
        let Some(mv) = found.best_move else { break };
        seen(&position, &found.info);
        position.play(mv);
    }
    match position.outcome() {
        Some(outcome) => outcome.leaders(),
        None => (0..G::PLAYERS.len()).collect(),
    }
}

/// Plays games `0..games` but those `skip` names on `threads` threads, one engine
/// (16 MiB of table) each: `play(engine, game)` for each, then `take(game, output)`
/// under one lock as the games end. When `take` returns false, no game starts after.
pub fn on_threads<G, T>(
    games: usize,
    threads: usize,
    skip: &(dyn Fn(usize) -> bool + Sync),
    engine: &(dyn Fn() -> G::Search + Sync),
    play: &(dyn Fn(&mut G::Search, usize) -> T + Sync),
    take: &mut (dyn FnMut(usize, T) -> bool + Send),
) where
    G: Searchable<Search: Send>,
{
    let next = AtomicUsize::new(0);
    let take = Mutex::new(take);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = engine();
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    if skip(game) {
                        continue;
                    }
                    let output = play(&mut engine, game);
                    let mut take = take.lock().unwrap_or_else(|e| e.into_inner());
                    if !take(game, output) {
                        next.store(games, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
}

/// The engine options `given` (name and value) read and tried on an engine of `G`, so
/// that a wrong one (an unknown name, a value out of range, a network file that cannot
/// be used) is refused before any game is played.
pub fn engine_options<G: Searchable>(
    given: &[(String, String)],
) -> Result<Vec<(&'static str, crate::options::OptionValue)>, crate::game::OptionError> {
    let mut probe = G::new_search(1);
    given
        .iter()
        .map(|(name, value)| {
            let option = G::ENGINE_OPTIONS
                .iter()
                .find(|o| o.is_named(name))
                .ok_or_else(|| crate::game::OptionError::UnknownEngine {
                    game: G::NAME,
                    name: name.trim().to_string(),
                })?;
            let parsed = option.parse(value)?;
            G::set_engine_option(&mut probe, option.name, &parsed)?;
            Ok((option.name, parsed))
        })
        .collect()
}

//! The games ludus plays, one folder each, and the registry: the one place that lists
//! them and binds each to its search. Everything else (the command line, the dialects,
//! the bench, the match runner) takes the games from here and never names one.
//!
//! ```
//! use ludus::games::{self, Play};
//! use ludus::game::Game;
//!
//! struct Players;
//! impl games::Visitor for Players {
//!     type Output = usize;
//!     fn visit<G: Play>(self) -> usize {
//!         G::PLAYERS.len()
//!     }
//! }
//! assert_eq!(games::visit("mentula", Players), Some(4));
//! assert_eq!(games::NAMES[0], games::DEFAULT);
//! ```
//!
//! Adding a game: a folder here with its position type `Position` (implementing
//! [`crate::game::Game`], its [`crate::game::Descriptor`] included, and
//! [`crate::game::Presentation`]) and its search
//! ([`crate::search::Searchable`]), then its folder's name in the `registry!` list.

use crate::game::{Game, Presentation};
use crate::search::Searchable;

pub mod mangala;
pub mod mentula;
pub mod senamukha;

/// What every registered game is: searchable, drawable, and movable to a work thread
/// with its engine.
pub trait Play:
    Searchable<Search: Send> + Game<Move: Send> + Presentation + Send + 'static
{
}

impl<G: Searchable<Search: Send> + Game<Move: Send> + Presentation + Send + 'static> Play for G {}

/// The games, in the order front ends list them: the one list from which both their
/// names ([`NAMES`]) and the dispatch to their types ([`visit`]) come, so that adding a
/// game is one word here.
macro_rules! registry {
    ($($game:ident),+ $(,)?) => {
        /// The games' names, in the order front ends list them.
        pub const NAMES: &[&str] = &[$(<$game::Position as Game>::NAME),+];

        /// Runs `visitor` with the game called `name` (case-insensitive); `None` for a
        /// name that is no game.
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Option<V::Output> {
            $(
                if name.eq_ignore_ascii_case(<$game::Position as Game>::NAME) {
                    return Some(visitor.visit::<$game::Position>());
                }
            )+
            None
        }
    };
}

registry!(senamukha, mentula, mangala);

/// The game a session or command starts with.
pub const DEFAULT: &str = NAMES[0];

/// The most counters `ludus endgame` builds tables for in memory; more need files.
pub const ENDGAME_IN_MEMORY: usize = mangala::endgame::MAX_IN_MEMORY;

/// `ludus endgame`: builds the endgame tables of the game that has them (Mangala II),
/// for positions of up to `counters` counters (into files in `write`, if given), and
/// reports on them.
pub fn endgame_report(
    counters: usize,
    skip_origin: bool,
    write: Option<&std::path::Path>,
) -> Result<String, mangala::endgame::TableFileError> {
    mangala::endgame::report(counters, skip_origin, write)
}

/// `ludus endgame --verify`: checks the endgame table files in `dir` position by
/// position, and reports on them.
pub fn endgame_verify(
    dir: &std::path::Path,
    skip_origin: bool,
) -> Result<String, mangala::endgame::VerifyError> {
    mangala::endgame::verify_report(dir, skip_origin)
}

/// `ludus datagen`: self-play training data of the game that has a packed position
/// form (Sena-Mukha), see [`crate::learning::datagen`].
pub fn datagen(
    settings: &crate::learning::datagen::Settings,
    path: &std::path::Path,
    progress: &mut (dyn std::io::Write + Send),
) -> Result<usize, crate::learning::datagen::DatagenError> {
    crate::learning::datagen::run::<senamukha::Position>(settings, path, progress)
}

/// `ludus wdl --data`: the win/draw/loss samples of `ludus datagen` files, which only
/// the game with a packed position form (Sena-Mukha) has; `None` for another game.
pub fn wdl_samples_from_data(
    game: &str,
    path: &std::path::Path,
) -> Option<Result<Vec<crate::learning::wdl::Sample>, crate::learning::datagen::DatagenError>> {
    if !game.eq_ignore_ascii_case(<senamukha::Position as Game>::NAME) {
        return None;
    }
    let mut samples = Vec::new();
    let read = crate::learning::datagen::read_each::<senamukha::Position>(path, &mut |record| {
        let mut outcome = vec![0.0; 3];
        outcome[(1 - i32::from(record.result)) as usize] = 1.0;
        samples.push(crate::learning::wdl::Sample {
            scores: vec![f64::from(record.score)],
            material: senamukha::eval::wdl_material(&record.position),
            outcome,
            game: record.game as usize,
        });
    });
    Some(read.map(|_| samples))
}

/// `ludus train`: a Sena-Mukha evaluation network from `ludus datagen` files, see
/// [`crate::learning::train`].
pub fn train(
    data: &[std::path::PathBuf],
    output: &std::path::Path,
    settings: &crate::learning::train::Settings,
    progress: &mut dyn std::io::Write,
) -> Result<(), crate::learning::train::TrainError> {
    crate::learning::train::run(data, output, settings, progress)
}

/// How front ends present the game called `name` (case-insensitive); `None` for a
/// name that is no game.
pub fn descriptor(name: &str) -> Option<crate::game::Descriptor> {
    struct Describe;
    impl Visitor for Describe {
        type Output = crate::game::Descriptor;
        fn visit<G: Play>(self) -> crate::game::Descriptor {
            G::DESCRIPTOR
        }
    }
    visit(name, Describe)
}

/// The whole rules of the game called `name` (case-insensitive) as ludus plays them;
/// `None` for a name that is no game.
pub fn rules_text(name: &str) -> Option<&'static str> {
    struct Rules;
    impl Visitor for Rules {
        type Output = &'static str;
        fn visit<G: Play>(self) -> &'static str {
            G::RULES
        }
    }
    visit(name, Rules)
}

/// The options of the game called `name` (case-insensitive): its engine's, then its
/// rules'; `None` for a name that is no game.
pub fn options(
    name: &str,
) -> Option<(
    &'static [crate::options::OptionSpec],
    &'static [crate::options::OptionSpec],
)> {
    struct Options;
    impl Visitor for Options {
        type Output = (
            &'static [crate::options::OptionSpec],
            &'static [crate::options::OptionSpec],
        );
        fn visit<G: Play>(self) -> Self::Output {
            (G::ENGINE_OPTIONS, G::RULE_OPTIONS)
        }
    }
    visit(name, Options)
}

/// The games whose position format reads `text`, for a refusal that can say "that is a
/// Mangala II position" when a script sends one game's position to another.
pub fn games_reading(text: &str) -> Vec<&'static str> {
    struct Reads<'a>(&'a str);
    impl Visitor for Reads<'_> {
        type Output = bool;
        fn visit<G: Play>(self) -> bool {
            G::from_fen(self.0).is_ok()
        }
    }
    NAMES
        .iter()
        .copied()
        .filter(|name| visit(name, Reads(text)) == Some(true))
        .collect()
}

/// Work to do with one game's types, whichever the game (see [`visit`]).
pub trait Visitor {
    type Output;
    fn visit<G: Play>(self) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rng, Verdict};

    /// Plays random games of `G` and checks every ending against the reasons the game
    /// lists: a reason that is not listed, a "win" without a single winner or a "draw"
    /// with unequal scores fails.
    struct EndingsAgreeWithTheirVerdicts;

    impl Visitor for EndingsAgreeWithTheirVerdicts {
        type Output = usize;
        fn visit<G: Play>(self) -> usize {
            let mut rng = Rng(0x5EED_0FE1_7D00);
            let mut ended = 0;
            let mut moves = Vec::new();
            for _ in 0..60 {
                let mut position = G::start();
                for _ in 0..600 {
                    if let Some(outcome) = position.outcome() {
                        ended += 1;
                        let reason = outcome.reason;
                        assert!(
                            G::DESCRIPTOR.end_reasons.contains(&reason),
                            "{}: {reason} is not listed",
                            G::NAME
                        );
                        match reason.verdict {
                            Verdict::Win => assert!(outcome.winner().is_some(), "{outcome:?}"),
                            Verdict::Draw => assert!(
                                outcome.scores.iter().all(|&s| s == outcome.scores[0]),
                                "{outcome:?}"
                            ),
                            Verdict::ByScores => {}
                        }
                        break;
                    }
                    position.legal_moves(&mut moves);
                    position.play(moves[rng.below(moves.len())]);
                }
            }
            ended
        }
    }

    #[test]
    fn every_ending_is_a_listed_reason_with_its_verdict() {
        for &name in NAMES {
            let ended = visit(name, EndingsAgreeWithTheirVerdicts).unwrap();
            assert!(ended > 0, "{name}: no random game ended");
        }
    }

    #[test]
    fn each_game_lists_distinct_reasons() {
        struct Reasons;
        impl Visitor for Reasons {
            type Output = Vec<&'static str>;
            fn visit<G: Play>(self) -> Vec<&'static str> {
                G::DESCRIPTOR
                    .end_reasons
                    .iter()
                    .map(|r| r.comment)
                    .collect()
            }
        }
        for &name in NAMES {
            let mut comments = visit(name, Reasons).unwrap();
            let listed = comments.len();
            comments.sort_unstable();
            comments.dedup();
            assert_eq!(comments.len(), listed, "{name}");
        }
    }
}

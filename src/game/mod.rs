//! What every game offers the rest of the engine: the rules trait [`Game`].
//!
//! ```
//! use ludus::game::{Game, MoveError, PositionFault};
//! use ludus::games::senamukha::Position;
//!
//! let mut position = Position::start();
//! let mv = position.parse_move("Na3-b5").unwrap();
//! position.play(mv);
//! assert_eq!(position.to_move(), 1); // black
//! assert!(matches!(position.parse_move("Na3-b5"), Err(MoveError::Illegal { .. })));
//! let refused = Position::from_fen("11/11/11/11/11/11/11/11/11/11/10K w").unwrap_err();
//! assert_eq!(refused.fault, PositionFault::Impossible); // black has no king
//! ```
//!
//! Each game (Sena-Mukha, Mentula, Mangala II) has one position type that implements
//! [`Game`]. The protocol, perft, record replay and the searches only talk to this
//! trait, so a rule never leaks out of its game's folder.
//!
//! The trait is shaped by all three games at once:
//! - players are indices `0..PLAYERS.len()` (two for Sena-Mukha and Mangala II, four
//!   for Mentula, whose players in *statura* are skipped inside `play`, so
//!   `to_move` is always a player who can move unless the game is over);
//! - a forced pass (Mangala II) or skipped turn (Mentula) is never a move: the position
//!   simply hands the turn on, and records mark such turns with `-`;
//! - an [`Outcome`] carries a score for every player (Mangala counters, Mentula squares,
//!   1/0 for a chess-like win), and the ranking is derived from the scores.
//!
//! The rest of what the games share, one file each:
//! - `presentation`: [`Presentation`], positions drawn for people (text, SVG, layers);
//! - `descriptor`: [`Descriptor`], what front ends need beyond the rules, and its
//!   records ([`Seat`], [`NamedNotation`], [`XboardPieces`]);
//! - `outcome`: [`EndReason`], [`Outcome`], scores, and [`next_turn`];
//! - `error`: the refusals of positions, moves, options and choices;
//! - `rule_option`: [`parse_limit`], the reading of the rules' limit options;
//! - `text`: a user's text quoted in messages ([`quoted`], [`quote`]), words listed;
//! - `rng`: [`splitmix64`] and [`Rng`], the deterministic random numbers.

mod descriptor;
mod error;
mod outcome;
mod presentation;
mod rng;
mod rule_option;
mod text;

use std::fmt;

pub use descriptor::{Descriptor, NamedNotation, Seat, XboardPieces, seat_names};
pub use error::{MoveError, OptionError, PositionError, PositionFault, UnknownChoice};
pub use outcome::{EndReason, Outcome, Verdict, next_turn, score_text, score_value};
pub use presentation::{DiagramLayer, Leaving, Presentation, diagram_layers};
pub use rng::{Rng, splitmix64};
pub use rule_option::parse_limit;
pub use text::{QUOTED_CHARS, choose, escaped, in_words, quote, quoted};

/// The [`Game`] methods every game's position has as inherent methods (the rules'
/// own names: `legal_moves`, `count_legal`, `play`, `undo`, `outcome`, `zobrist`,
/// `parse_move`, `format_move`), forwarded, for the `impl Game` of each game; with
/// `parse`, `start` and `format`, also `start`, `from_fen` and `fen` from the game's
/// position text functions. A
/// missing inherent method would make a forward call itself: rustc's
/// `unconditional_recursion` lint, an error under clippy's `-D warnings`, says so.
macro_rules! forward_rules {
    ($position:ty, parse: $parse:path, start: $start:path, format: $format:path) => {
        fn start() -> Self {
            $parse($start).expect("the start position is valid")
        }
        fn from_fen(text: &str) -> Result<Self, $crate::game::PositionError> {
            $parse(text)
        }
        fn fen(&self) -> String {
            $format(self)
        }
        $crate::game::forward_rules!($position);
    };
    ($position:ty) => {
        fn legal_moves(&self, out: &mut Vec<Self::Move>) {
            <$position>::legal_moves(self, out)
        }
        #[inline]
        fn count_legal_moves(&self) -> u64 {
            self.count_legal()
        }
        #[inline]
        fn play(&mut self, mv: Self::Move) {
            <$position>::play(self, mv)
        }
        #[inline]
        fn undo(&mut self) -> Option<Self::Move> {
            <$position>::undo(self)
        }
        fn outcome(&self) -> Option<$crate::game::Outcome> {
            <$position>::outcome(self)
        }
        fn hash(&self) -> u64 {
            self.zobrist()
        }
        fn read_move(&self, text: &str) -> Result<Self::Move, $crate::game::MoveError> {
            <$position>::parse_move(self, text)
        }
        fn format_move(&self, mv: Self::Move, notation: Self::Notation) -> String {
            <$position>::format_move(self, mv, notation)
        }
    };
}
pub(crate) use forward_rules;

/// A player, as an index into [`Game::PLAYERS`] in turn order.
pub type Player = usize;

/// The common interface of the three games' positions.
///
/// A position owns its history, so `undo` and repetition detection need nothing
/// from outside. `play` takes only legal moves (from `legal_moves` or `parse_move`);
/// anything a user typed goes through `parse_move` first.
pub trait Game: Clone + fmt::Debug + Sized {
    /// A move: small and `Copy`.
    type Move: Copy + Eq + fmt::Debug;
    /// The move notations the game can print.
    type Notation: Copy + Eq + fmt::Debug + 'static;

    /// The game's name on the command line and in the protocol.
    const NAME: &'static str;
    /// Player names in turn order (the names of the descriptor's
    /// [`Descriptor::seats`], see [`seat_names`]).
    const PLAYERS: &'static [&'static str];
    /// Each printable notation with its names; the first one is the canonical
    /// machine form (used by perft `--divide` and the protocol by default).
    const NOTATIONS: &'static [NamedNotation<Self::Notation>];

    /// The rule options the game offers.
    const RULE_OPTIONS: &'static [crate::options::OptionSpec];

    /// What front ends need to know beyond the rules.
    const DESCRIPTOR: Descriptor;

    /// The usual starting position.
    fn start() -> Self;
    /// Reads a position in the game's position format; refuses invalid ones.
    fn from_fen(text: &str) -> Result<Self, PositionError>;
    /// Prints the position in the game's position format.
    fn fen(&self) -> String;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;
    /// Whether `player` would have a legal move if it were their turn; a player who
    /// would not has their turn skipped (Mentula's statura, Mangala's pass).
    fn can_move(&self, player: Player) -> bool;
    /// The number of the current round, as records number moves (a round is one turn
    /// of every player).
    fn round_number(&self) -> u32;
    /// Appends every legal move to `out` (which is cleared first).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// The number of legal moves; games override this with a faster count.
    fn count_legal_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }
    /// Perft: the leaves of the legal move tree `depth` plies deep. Games may override
    /// the generic walk with a faster one of their own.
    fn perft(&mut self, depth: u32) -> u64 {
        walk_tree(self, depth)
    }
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);
    /// Takes back the last move played, returning it; `None` at the start of the history.
    fn undo(&mut self) -> Option<Self::Move>;
    /// The outcome, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash of what makes positions equal for repetition.
    fn hash(&self) -> u64;

    /// Reads a move in any notation the game accepts and checks that it is legal in the
    /// position, whether or not the rules have ended the game.
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Reads a move and checks that it may be played: legal, and the game not over.
    /// Text that is no move at all gives `MoveError::Syntax`, even after the end of the
    /// game; a readable move after the end gives `MoveError::GameOver`.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let parsed = self.read_move(text);
        if matches!(parsed, Err(MoveError::Syntax { .. })) || self.outcome().is_none() {
            return parsed;
        }
        Err(MoveError::GameOver {
            text: text.trim().to_string(),
        })
    }
    /// Prints a legal move in the given notation.
    fn format_move(&self, mv: Self::Move, notation: Self::Notation) -> String;

    /// Writes a legal move in the given notation at the end of `out`: what
    /// [`Game::format_move`] prints, for lists of moves written into one buffer (a game
    /// whose canonical moves are written often does it without a string a move).
    fn write_move(&self, mv: Self::Move, notation: Self::Notation, out: &mut String) {
        out.push_str(&self.format_move(mv, notation));
    }

    /// The forms a position is printed in: [`Game::fen`]'s first (`fen`), then others
    /// the game has (Mentula: the seed's `list`).
    const POSITION_FORMS: &'static [&'static str] = &["fen"];

    /// The position in `form`, one of [`Game::POSITION_FORMS`] (the first is
    /// [`Game::fen`]; the caller checks).
    fn fen_in(&self, form: &str) -> String {
        let _ = form;
        self.fen()
    }

    /// The outcome in words: `white wins (checkmate)`. Games whose scores mean more
    /// than win or loss add them.
    fn describe_outcome(outcome: &Outcome) -> String {
        format!("{} ({})", outcome.verdict(Self::PLAYERS), outcome.reason)
    }

    /// Sets a rule option (name case-insensitive); the error says what was wrong.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), OptionError>;

    /// The notation called `name` (case-insensitive), if the game has one.
    fn notation_named(name: &str) -> Option<Self::Notation> {
        Self::NOTATIONS
            .iter()
            .find(|n| n.name.eq_ignore_ascii_case(name))
            .map(|n| n.notation)
    }
}

/// The generic perft: play and undo every move, the last ply counted in bulk.
pub fn walk_tree<G: Game>(position: &mut G, depth: u32) -> u64 {
    // One move list per level, allocated once for the whole walk.
    let mut lists: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    walk(position, depth, &mut lists)
}

fn walk<G: Game>(position: &mut G, depth: u32, lists: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_moves();
    }
    let (list, deeper) = lists.split_first_mut().expect("one list per level");
    position.legal_moves(list);
    let mut nodes = 0;
    for &mv in list.iter() {
        position.play(mv);
        nodes += walk(position, depth - 1, deeper);
        position.undo();
    }
    nodes
}

/// What the games' tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Game, PositionFault};

    /// Checks that every text of `cases` is refused with its needle in the message, and
    /// with the right fault: `Impossible` for the needles that contain one of
    /// `impossible` (well-formed texts of positions the rules forbid), `Empty` for the
    /// empty text, `Syntax` for the rest.
    pub fn assert_refused<G: Game>(cases: &[(&str, &str)], impossible: &[&str]) {
        for &(text, needle) in cases {
            let err = G::from_fen(text).unwrap_err();
            let fault = if text.is_empty() {
                PositionFault::Empty
            } else if impossible.iter().any(|i| needle.contains(i)) {
                PositionFault::Impossible
            } else {
                PositionFault::Syntax
            };
            assert_eq!(err.fault, fault, "{text:?}: {err}");
            let err = err.to_string();
            assert!(err.contains(needle), "{text:?}: {err:?} lacks {needle:?}");
        }
    }
}

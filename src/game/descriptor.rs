//! What front ends need to know about a game beyond its rules, as records: each fact
//! is written next to the name it belongs to (a player's colour with the player, a
//! notation's title with the notation), so that no list has to be kept in step with
//! another by index.

use super::EndReason;

/// What front ends need to know about a game beyond its rules: how each dialect
/// announces it and how match records write it. One per game, in the game's folder
/// ([`Game::DESCRIPTOR`](super::Game::DESCRIPTOR)); generic code reads it and never
/// names a game.
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    /// The game's name as people write it: `Sena-Mukha`.
    pub title: &'static str,
    /// The players in turn order, each with its colour; [`Game::PLAYERS`](super::Game::PLAYERS)
    /// are their names ([`seat_names`]).
    pub seats: &'static [Seat],
    /// Files and ranks of the board (Mangala II: pits per row, rows).
    pub board: (usize, usize),
    /// The index in [`Game::NOTATIONS`](super::Game::NOTATIONS) of the notation people
    /// read the game in (its source documents'): the one a board shows first.
    pub reading_notation: usize,
    /// The index in [`Game::NOTATIONS`](super::Game::NOTATIONS) of the notation match
    /// records use.
    pub record_notation: usize,
    /// Match records start with PGN-style tags (`[Event ...]`, `[Variant <name>]`)
    /// rather than the plain header line of the seed documents.
    pub record_tags: bool,
    /// The template of Fairy-Stockfish's variant announcement (`fairy`, `mancala`)
    /// under which UCI and UGI serve the game; `None`: they do not (more than two
    /// players).
    pub uci_template: Option<&'static str>,
    /// How XBoard draws and moves the game's men; `None`: CECP does not serve the game.
    pub xboard: Option<XboardPieces>,
    /// Every reason the game can end for.
    pub end_reasons: &'static [EndReason],
    /// The scores of an [`Outcome`](super::Outcome) count in units of 1 /
    /// `score_units` (Mentula's shared squares: twelfths); see
    /// [`score_text`](super::score_text).
    pub score_units: i32,
}

/// A player as front ends present it: its name and the colour it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player's name, as the protocol and records write it: `white`.
    pub name: &'static str,
    /// A CSS colour: the colour the diagrams draw the player's men or side in.
    pub colour: &'static str,
}

/// The players' names of `seats`, in their order: how a game's
/// [`Game::PLAYERS`](super::Game::PLAYERS) come from its seats.
pub const fn seat_names<const N: usize>(seats: &[Seat; N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = seats[i].name;
        i += 1;
    }
    names
}

/// A notation a game prints, with its names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedNotation<N> {
    /// The name clients ask for it by: `san`.
    pub name: &'static str,
    /// Its name for people: `SAN`, `long form (the seed's)`.
    pub title: &'static str,
    pub notation: N,
}

/// How XBoard draws and moves a game's men, for the CECP front end
/// (`protocol/cecp.rs`), which turns it into `setup` and `piece` lines. A plain record
/// here, so that the games describe themselves without depending on a front end.
#[derive(Clone, Copy, Debug)]
pub struct XboardPieces {
    /// The game's men in XBoard's piece slots, `.` for unused slots.
    pub piece_table: &'static str,
    /// The moves XBoard cannot know, in Betza notation, one `piece` line each.
    pub piece_moves: &'static [&'static str],
}

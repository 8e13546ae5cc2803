//! What front ends need to know about a game beyond its rules: one record per game,
//! which generic code reads so that it never names a game.

use super::EndReason;

/// What front ends need to know about a game beyond its rules: how each dialect
/// announces it and how match records write it. One per game, in the game's folder
/// ([`Game::DESCRIPTOR`](super::Game::DESCRIPTOR)); generic code reads it and never
/// names a game.
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    /// The game's name as people write it: `Sena-Mukha`.
    pub title: &'static str,
    /// Each player's colour (a CSS colour), in turn order: the colour the diagrams
    /// draw its men or its side in.
    pub colours: &'static [&'static str],
    /// Each notation's name for people, in the order of
    /// [`Game::NOTATIONS`](super::Game::NOTATIONS).
    pub notation_titles: &'static [&'static str],
    /// What each of [`Presentation::DIAGRAM_LAYERS`](super::Presentation::DIAGRAM_LAYERS)
    /// shows, for people, in their order.
    pub layer_help: &'static [&'static str],
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
    /// How CECP describes the game to XBoard; `None`: CECP does not serve it.
    pub cecp: Option<CecpVariant>,
    /// Every reason the game can end for.
    pub end_reasons: &'static [EndReason],
    /// The scores of an [`Outcome`](super::Outcome) count in units of 1 /
    /// `score_units` (Mentula's shared squares: twelfths); see
    /// [`score_text`](super::score_text).
    pub score_units: i32,
}

/// A game as CECP describes it to XBoard: the `setup` piece table (XBoard's piece
/// slots, `.` for unused ones) and the `piece` lines for the moves XBoard cannot know.
#[derive(Clone, Copy, Debug)]
pub struct CecpVariant {
    pub piece_table: &'static str,
    pub piece_moves: &'static [&'static str],
}

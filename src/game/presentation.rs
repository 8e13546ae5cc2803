//! How a game's positions are shown to people: the text board, the SVG drawing with
//! its optional layers, and the places a person points at to make a move. Apart from
//! [`Game`] because none of it is a rule: the searches, perft and records never draw,
//! and a drawing can change without a rule changing.

use super::text::choose;
use super::{Game, UnknownChoice};

/// What a diagram can show besides the position, on request (Mentula's `reach`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiagramLayer {
    /// The name clients ask for it by: `reach`.
    pub name: &'static str,
    /// What it shows, for people.
    pub help: &'static str,
}

/// A game's positions drawn for people, implemented in each game's folder next to its
/// drawing code.
pub trait Presentation: Game {
    /// The layers a diagram can draw besides the position, on request.
    const DIAGRAM_LAYERS: &'static [DiagramLayer] = &[];

    /// The essentials of the rules for a newcomer, a sentence each, in the order one
    /// learns them (`describe`'s `howto` lines; the board's "How to play").
    const HOW_TO_PLAY: &'static [&'static str];

    /// The whole rules as ludus plays them (protocol-spec/rules/), which the board
    /// serves beside its short "how to play".
    const RULES: &'static str;

    /// How a player leaves a game that goes on without it, where one does (Mentula,
    /// rules M11); `None` where a player's leaving ends the game (two players: the
    /// other wins).
    const LEAVING: Option<Leaving> = None;

    /// The places a person points at to make a legal move, named as the SVG diagram's
    /// ids name them (`sq-<place>`, `pit-<place>`): where the move starts first, where
    /// it ends last (Mentula's pivot between them); a Mangala II move is its one pit.
    fn move_places(&self, mv: Self::Move) -> Vec<String>;

    /// A readable text board with coordinates, the players' men and the player to move.
    fn diagram(&self) -> String;

    /// The position drawn as an SVG document, `last` (the move that led to it, if
    /// known) marked. Elements carry ids and classes a client can use (squares
    /// `sq-<name>`, pits `pit-<letter>`, men of class `man`); no line is blank.
    fn diagram_svg(&self, last: Option<Self::Move>) -> String;

    /// [`Presentation::diagram_svg`] with `layers` drawn too, each the name of one of
    /// [`Presentation::DIAGRAM_LAYERS`] (the caller checks).
    fn diagram_svg_with(&self, last: Option<Self::Move>, layers: &[&str]) -> String {
        let _ = layers;
        self.diagram_svg(last)
    }
}

/// The moves a front end plays for a player who leaves a game that goes on without
/// it ([`Presentation::LEAVING`]), as the game's every notation writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaving {
    /// The player to move resigns.
    pub resign: &'static str,
    /// The player to move ran out of time.
    pub time: &'static str,
}

/// The layers asked for as the game names them, for [`Presentation::diagram_svg_with`];
/// the first unknown one is the error.
pub fn diagram_layers<G: Presentation>(
    asked: &[impl AsRef<str>],
) -> Result<Vec<&'static str>, UnknownChoice> {
    let known: Vec<&'static str> = G::DIAGRAM_LAYERS.iter().map(|l| l.name).collect();
    asked
        .iter()
        .map(|layer| choose("diagram layer", G::NAME, &known, layer.as_ref()))
        .collect()
}

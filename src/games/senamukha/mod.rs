//! Sena-Mukha, Ivan A. Derzhanski's 11x11 chess variant (protocol-spec/rules/senamukha.md).
//!
//! - `board`: squares, men and 121-square bitboards;
//! - `attacks`: compile-time attack tables and rook attacks;
//! - `position`: the position, make and undo, hashing, repetition, the end of the game;
//! - `movegen`: legal move generation and counting;
//! - `fen`: the position format;
//! - `notation`: coordinate, long (the seed's) and SAN move text;
//! - `packed`: a position in 49 bytes, for training data;
//! - `eval`: the hand-written evaluation; `nnue`: the learnt one;
//! - `search`: the search with its evaluation chosen by the engine options
//!   (`SenaMukhaSearch`);

mod attacks;
mod board;
pub(crate) mod eval;
mod exchange;
mod fen;
mod movegen;
pub mod nnue;
mod notation;
pub mod packed;
mod position;
#[cfg(test)]
mod reference;
mod search;
mod svg;
mod weights;

pub use board::{Color, Kind, Piece, Square};
pub use notation::Notation;
pub use position::{
    BARE_KINGS, CHECKMATE, Move, N_MOVE_RULE, Position, REPETITION, Rules, STALEMATE,
};

use crate::game::{
    Descriptor, Game, NamedNotation, OptionError, Player, PositionError, Presentation, Seat,
    XboardPieces, parse_limit, seat_names,
};
use crate::options::OptionSpec;

/// The players, each with the colour its men are drawn in.
const SEATS: [Seat; 2] = [
    Seat {
        name: "white",
        colour: "#ffffff",
    },
    Seat {
        name: "black",
        colour: "#1a1a1a",
    },
];

impl Game for Position {
    type Move = Move;
    type Notation = Notation;

    const NAME: &'static str = "senamukha";
    const PLAYERS: &'static [&'static str] = &seat_names(&SEATS);
    const NOTATIONS: &'static [NamedNotation<Notation>] = &[
        NamedNotation {
            name: "coordinate",
            title: "coordinates",
            notation: Notation::Coordinate,
        },
        NamedNotation {
            name: "long",
            title: "long form (the seed's)",
            notation: Notation::Long,
        },
        NamedNotation {
            name: "san",
            title: "SAN",
            notation: Notation::San,
        },
    ];

    const DESCRIPTOR: Descriptor = Descriptor {
        title: "Sena-Mukha",
        seats: &SEATS,
        board: (11, 11),
        // SAN, as chess tools read it.
        reading_notation: 1,
        record_notation: 2,
        record_tags: true,
        uci_template: Some("fairy"),
        xboard: Some(XboardPieces {
            // XBoard's piece slots filled with Sena-Mukha's men: Pawn, Knight, Rook, the
            // Elephant in the Alfil's slot (drawn as an elephant), King.
            piece_table: "PN.R..EKpn.r..ek",
            // The moves XBoard cannot know, in Betza notation: the Elephant steps or
            // leaps one or two squares in all eight directions; the pawn has no double
            // step.
            piece_moves: &["E& WFAD", "P& fmWfcF"],
        }),
        end_reasons: position::END_REASONS,
        score_units: 1,
    };

    const RULE_OPTIONS: &'static [OptionSpec] = &[OptionSpec::rule(
        "n-move-rule",
        "off",
        "off, or n: the game is drawn after 2n plies without a capture or a pawn move",
    )];

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if !name.eq_ignore_ascii_case("n-move-rule") {
            return Err(OptionError::unknown_rule::<Self>(name));
        }
        let n_move_rule = parse_limit("n-move-rule", value)?;
        self.set_rules(Rules { n_move_rule });
        Ok(())
    }

    fn to_move(&self) -> Player {
        self.side_to_move().index()
    }
    fn can_move(&self, _player: Player) -> bool {
        // Chess-like: no turn is ever skipped.
        true
    }
    fn round_number(&self) -> u32 {
        self.fullmove_number()
    }
    crate::game::forward_rules!(Position, parse: fen::parse, start: fen::START, format: fen::format);
    fn write_move(&self, mv: Move, notation: Notation, out: &mut String) {
        Position::write_move(self, mv, notation, out)
    }
}

impl Presentation for Position {
    const HOW_TO_PLAY: &'static [&'static str] = &[
        "Chess on an 11 by 11 board: White moves first, and checkmate wins.",
        "The king, the rook and the knight move as in chess; there is no castling.",
        "The elephant moves 1 or 2 squares in any of the 8 directions, leaping over whatever stands between.",
        "A pawn steps one square forward and takes one square diagonally forward; no double step, no en passant.",
        "A pawn on the last rank becomes a knight, a rook or an elephant.",
        "Stalemate, the same position a third time, and two bare kings are draws.",
    ];
    const RULES: &'static str = include_str!("../../../protocol-spec/rules/senamukha.md");
    fn diagram(&self) -> String {
        crate::square_board::diagram(
            board::SIZE,
            |file, rank| {
                self.piece_at(Square::new(file, rank))
                    .map(Piece::fen_letter)
            },
            &format!(
                "White: upper case, Black: lower case; {} to move",
                self.side_to_move().name()
            ),
        )
    }

    fn diagram_svg(&self, last: Option<Move>) -> String {
        svg::diagram(self, last)
    }

    fn move_places(&self, mv: Move) -> Vec<String> {
        vec![mv.from().to_string(), mv.to().to_string()]
    }
}
#[cfg(test)]
mod tests;

/// Positions in training data (`ludus datagen`) are [`packed`].
impl crate::learning::datagen::Packed for Position {
    const PACKED: usize = packed::PACKED;
    fn pack(&self) -> Vec<u8> {
        packed::pack(self).to_vec()
    }
    fn unpack(bytes: &[u8]) -> Result<Self, PositionError> {
        packed::unpack(bytes)
    }
}

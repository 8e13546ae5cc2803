//! Sena-Mukha drawn as SVG: the 11x11 board, the men (ludus's own shapes, the same on
//! every system), the last move and a king in check marked.

use super::board::{Color, Kind, Square};
use super::position::{Move, Position};
use crate::square_board::SvgBoard;

/// An elephant seen from the side, in a 40-unit cell: body, legs, head and ear; its
/// trunk ([`TRUNK`]) and tusk ([`TUSK`]) are lines drawn over them.
const ELEPHANT: &str = concat!(
    "<ellipse cx=\"23\" cy=\"21\" rx=\"11\" ry=\"8\"/>",
    "<rect x=\"15\" y=\"24\" width=\"5\" height=\"10\" rx=\"1\"/>",
    "<rect x=\"27\" y=\"24\" width=\"5\" height=\"10\" rx=\"1\"/>",
    "<circle cx=\"12\" cy=\"17\" r=\"6\"/>",
    "<ellipse cx=\"15\" cy=\"17\" rx=\"4\" ry=\"5.5\"/>",
);
const TRUNK: &str = "M7 19 Q4 27 8 33";
const TUSK: &str = "M9 21 L5 24";

/// The other men, drawn in a 40-unit cell as outlines to fill: ludus's own shapes, so
/// that a diagram looks the same wherever it is shown (no font's chess glyphs).
const PAWN: &str = concat!(
    "<circle cx=\"20\" cy=\"12.5\" r=\"5\"/>",
    "<path d=\"M16.5 17.5 H23.5 L26 31 H14 Z\"/>",
    "<rect x=\"11\" y=\"30.5\" width=\"18\" height=\"4.5\" rx=\"1.5\"/>",
);
const ROOK: &str = concat!(
    "<path d=\"M11 9 H15 V12 H18 V9 H22 V12 H25 V9 H29 V17 L26.5 19 L27.5 30 H12.5 L13.5 19 L11 17 Z\"/>",
    "<rect x=\"10\" y=\"30\" width=\"20\" height=\"5\" rx=\"1.5\"/>",
);
const KNIGHT: &str = "<path d=\"M13 35 H31 C31.5 24 29 15 23 10.5 L22 6 L19 9.5 C14.5 10.5 10.5 15 8.5 22.5 L11.5 25.5 L16.5 21.5 C18.5 23 18 26 15.5 28.5 C14 30 13 32 13 35 Z\"/>";
const KING: &str = concat!(
    "<path d=\"M18.5 3.5 H21.5 V6.5 H24.5 V9.5 H21.5 V13 H18.5 V9.5 H15.5 V6.5 H18.5 Z\"/>",
    "<path d=\"M12.5 31 L11.5 27 C6.5 22 9 13.5 15.5 14.5 C18 15 19.5 17 20 19.5 C20.5 17 22 15 24.5 14.5 C31 13.5 33.5 22 28.5 27 L27.5 31 Z\"/>",
    "<rect x=\"11\" y=\"30.5\" width=\"18\" height=\"4.5\" rx=\"1.5\"/>",
);

fn man(kind: Kind, color: Color) -> (String, String) {
    // White men outlined in black read on light and dark squares alike; black men get
    // light inner lines (the knight's eye) so that their shapes read on dark squares.
    let (fill, stroke, detail) = match color {
        Color::White => ("#ffffff", "#111111", "#111111"),
        Color::Black => ("#1a1a1a", "#000000", "#f4f4f4"),
    };
    let name = match kind {
        Kind::Pawn => "pawn",
        Kind::Knight => "knight",
        Kind::Elephant => "elephant",
        Kind::Rook => "rook",
        Kind::King => "king",
    };
    let shape = match kind {
        // The trunk is a line in the fill colour over a wider one in the outline's, so
        // that it is outlined like the rest (a white trunk reads on a light square).
        Kind::Elephant => format!(
            "{ELEPHANT}<g fill=\"none\" stroke-linecap=\"round\"><path d=\"{TRUNK}\" stroke=\"{stroke}\" stroke-width=\"6\"/><path d=\"{TRUNK}\" stroke=\"{fill}\" stroke-width=\"3\"/><path d=\"{TUSK}\" stroke=\"{detail}\" stroke-width=\"1.5\"/></g>"
        ),
        Kind::Pawn => PAWN.to_string(),
        Kind::Rook => ROOK.to_string(),
        Kind::Knight => {
            format!(
                "{KNIGHT}<circle cx=\"21\" cy=\"14\" r=\"1.6\" fill=\"{detail}\" stroke=\"none\"/>"
            )
        }
        Kind::King => KING.to_string(),
    };
    let drawing = format!(
        "<g fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\" stroke-linejoin=\"round\">{shape}</g>"
    );
    (format!("{} {name}", color.name()), drawing)
}

pub fn diagram(position: &Position, last: Option<Move>) -> String {
    let mut marks = Vec::new();
    if let Some(mv) = last {
        for sq in [mv.from(), mv.to()] {
            marks.push((sq.file(), sq.rank(), "last", "#f6e05e"));
        }
    }
    if position.in_check() {
        let king = position.king(position.side_to_move());
        marks.push((king.file(), king.rank(), "check", "#e53e3e"));
    }
    let square = |file: usize, rank: usize| {
        if (file + rank).is_multiple_of(2) {
            ("dark", "#b58863")
        } else {
            ("light", "#f0d9b5")
        }
    };
    let man_at = |file: usize, rank: usize| {
        position
            .piece_at(Square::new(file, rank))
            .map(|piece| man(piece.kind, piece.color))
    };
    SvgBoard {
        game: <Position as crate::game::Game>::NAME,
        size: super::board::SIZE,
        square: &square,
        man: &man_at,
        marks,
        underlay: String::new(),
        overlay: String::new(),
    }
    .render()
}

//! Sena-Mukha drawn as SVG: the 11x11 board, the men (chess glyphs, and an Elephant
//! drawn as one), the last move and a king in check marked.

use super::board::{Color, Kind, Square};
use super::position::{Move, Position};
use crate::square_board::{SVG_CELL, SvgBoard};

/// An elephant seen from the side, in a 40-unit cell: body, head, ear, trunk, legs
/// and a tusk.
const ELEPHANT: &str = concat!(
    "<ellipse cx=\"23\" cy=\"21\" rx=\"11\" ry=\"8\"/>",
    "<rect x=\"15\" y=\"24\" width=\"5\" height=\"10\" rx=\"1\"/>",
    "<rect x=\"27\" y=\"24\" width=\"5\" height=\"10\" rx=\"1\"/>",
    "<circle cx=\"12\" cy=\"17\" r=\"6\"/>",
    "<path d=\"M7 19 Q4 27 8 33\" fill=\"none\" stroke-width=\"3.5\" stroke-linecap=\"round\"/>",
    "<ellipse cx=\"15\" cy=\"17\" rx=\"4\" ry=\"5.5\"/>",
    "<path d=\"M9 21 L5 24\" fill=\"none\" stroke-width=\"1.5\"/>",
);

fn man(kind: Kind, color: Color) -> (String, String) {
    let (fill, stroke) = match color {
        Color::White => ("#ffffff", "#111111"),
        // A light outline would cover the glyphs' inner lines: black men keep a dark one.
        Color::Black => ("#111111", "#000000"),
    };
    let name = match kind {
        Kind::Pawn => "pawn",
        Kind::Knight => "knight",
        Kind::Elephant => "elephant",
        Kind::Rook => "rook",
        Kind::King => "king",
    };
    let drawing = match kind {
        Kind::Elephant => {
            // The trunk and tusk are lines: drawn in the stroke colour of the rest.
            let trunk = ELEPHANT.replace(
                "fill=\"none\" stroke-width",
                &format!("fill=\"none\" stroke=\"{fill}\" stroke-width"),
            );
            format!("<g fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.2\">{trunk}</g>")
        }
        _ => {
            let glyph = match kind {
                Kind::Pawn => '\u{265F}',
                Kind::Knight => '\u{265E}',
                Kind::Rook => '\u{265C}',
                _ => '\u{265A}',
            };
            format!(
                "<text x=\"{}\" y=\"31\" font-size=\"32\" text-anchor=\"middle\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\">{glyph}</text>",
                SVG_CELL / 2
            )
        }
    };
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
        overlay: String::new(),
    }
    .render()
}

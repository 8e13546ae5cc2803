//! Mentula drawn as SVG: the four-coloured board (a square's colour is its file and
//! rank parity, which no jump changes), the four players' men, and the last jump drawn
//! from its start over its pivot to its target.

use super::board::{NAMES, SIZE, Square};
use super::position::{Move, Position};
use crate::square_board::{SvgBoard, svg_centre};

/// The four square colours, by [`Square::colour`].
const SQUARE_FILLS: [&str; 4] = ["#e8d8b0", "#b8d4b0", "#b0c4de", "#e0b8c8"];
/// The players' colours, in turn order.
const MEN_FILLS: [&str; 4] = ["#ffffff", "#f2c919", "#d62828", "#b0198a"];

pub fn diagram(position: &Position, last: Option<Move>) -> String {
    let mut marks = Vec::new();
    let mut overlay = String::new();
    if let Some(mv) = last {
        for (sq, class) in [
            (mv.from, "last from"),
            (mv.pivot, "last pivot"),
            (mv.to, "last to"),
        ] {
            marks.push((sq.file(), sq.rank(), class, "#f6e05e"));
        }
        let point = |sq: Square| svg_centre(SIZE, sq.file(), sq.rank());
        let ((x0, y0), (x1, y1), (x2, y2)) = (point(mv.from), point(mv.pivot), point(mv.to));
        overlay = format!(
            "<polyline class=\"jump\" points=\"{x0},{y0} {x1},{y1} {x2},{y2}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>\n<circle class=\"jump pivot\" cx=\"{x1}\" cy=\"{y1}\" r=\"5\" fill=\"#333333\"/>\n"
        );
    }
    let square = |file: usize, rank: usize| {
        let colour = Square::new(file, rank).colour();
        (
            ["colour-0", "colour-1", "colour-2", "colour-3"][colour],
            SQUARE_FILLS[colour],
        )
    };
    let man_at = |file: usize, rank: usize| {
        position.owner(Square::new(file, rank)).map(|player| {
            (
                NAMES[player].to_string(),
                format!(
                    "<circle cx=\"20\" cy=\"20\" r=\"14\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"2\"/>",
                    MEN_FILLS[player]
                ),
            )
        })
    };
    SvgBoard {
        game: <Position as crate::game::Game>::NAME,
        size: SIZE,
        square: &square,
        man: &man_at,
        marks,
        overlay,
    }
    .render()
}

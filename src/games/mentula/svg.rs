//! Mentula drawn as SVG: the four-coloured board (a square's colour is its file and
//! rank parity, which no jump changes), the four players' men, and the last jump drawn
//! from its start over its pivot to its target; on request each player's reach (a dot
//! of the player's colour on every square the player can reach, the squares shared by
//! several outlined), which is what the players score (protocol-spec/rules/mentula.md, M8).

use super::board::{NAMES, PLAYERS, SEATS, SIZE, Square};
use super::position::{Move, Position};
use super::reach;
use crate::square_board::{SvgBoard, svg_centre};

/// The four square colours, by [`Square::colour`].
const SQUARE_FILLS: [&str; 4] = ["#e8d8b0", "#b8d4b0", "#b0c4de", "#e0b8c8"];
/// The initials on the men, dark on the light men and light on the dark.
const LETTER_FILLS: [&str; 4] = ["#222222", "#222222", "#ffffff", "#ffffff"];

pub fn diagram(position: &Position, last: Option<Move>, show_reach: bool) -> String {
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
                // The player's initial too, so that the players are told apart
                // without their colours (red and magenta, for one).
                format!(
                    "<circle cx=\"20\" cy=\"20\" r=\"14\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"2\"/><text x=\"20\" y=\"25\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                    SEATS[player].colour,
                    LETTER_FILLS[player],
                    NAMES[player][..1].to_uppercase()
                ),
            )
        })
    };
    if show_reach {
        // Over the men, so that a man's own square shows who reaches it too.
        overlay.push_str(&reach_layer(position));
    }
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

/// Every reachable square as a group of class `reach` (`reach shared` when more than
/// one player reaches it) with `data-square` and `data-players`, holding a dot of each
/// such player's colour along the square's foot, below the man.
fn reach_layer(position: &Position) -> String {
    let men: [_; PLAYERS] = std::array::from_fn(|p| position.men(p));
    let reaches = reach::reaches(&men);
    let mut out = String::new();
    for rank in (0..SIZE).rev() {
        for file in 0..SIZE {
            let sq = Square::new(file, rank);
            let players: Vec<usize> = (0..PLAYERS)
                .filter(|&p| reaches[p] & sq.bit() != 0)
                .collect();
            if players.is_empty() {
                continue;
            }
            let (cx, cy) = svg_centre(SIZE, file, rank);
            let (x, y) = (cx - 20, cy - 20);
            let shared = players.len() > 1;
            let names: Vec<&str> = players.iter().map(|&p| NAMES[p]).collect();
            out.push_str(&format!(
                "<g class=\"reach{}\" data-square=\"{sq}\" data-players=\"{}\">",
                if shared { " shared" } else { "" },
                names.join(" ")
            ));
            if shared {
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"36\" height=\"36\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
                    x + 2,
                    y + 2
                ));
            }
            for (i, &p) in players.iter().enumerate() {
                out.push_str(&format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"1\"/>",
                    x + 9 + 7 * i,
                    y + 36,
                    SEATS[p].colour
                ));
            }
            out.push_str("</g>\n");
        }
    }
    out
}

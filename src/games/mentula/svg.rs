//! Mentula drawn as SVG: the four-coloured board (a square's colour is its file and
//! rank parity, which no jump changes), the four players' men, and the last jump drawn
//! from its start over its pivot to its target; on request each player's reach (a dot
//! of the player's colour on every square the player can reach, the squares shared by
//! several outlined), which is what the players score (protocol-spec/rules/mentula.md, M8).

use super::board::{NAMES, PLAYERS, SEATS, SIZE, Square};
use super::position::{Jump, Move, Position};
use super::reach;
use crate::square_board::{SvgBoard, svg_centre};

/// The four square colours, by [`Square::colour`].
const SQUARE_FILLS: [&str; 4] = ["#e8d8b0", "#b8d4b0", "#b0c4de", "#e0b8c8"];
/// The initials on the men, dark on the light men and light on the dark.
const LETTER_FILLS: [&str; 4] = ["#222222", "#222222", "#ffffff", "#ffffff"];

pub fn diagram(position: &Position, last: Option<Move>, show_reach: bool) -> String {
    let mut marks = Vec::new();
    let mut underlay = String::new();
    let mut overlay = String::new();
    if let Some(mv) = last {
        if let Move::Jump(mv) = mv {
            for (sq, class) in [
                (mv.from, "last from"),
                (mv.pivot, "last pivot"),
                (mv.to, "last to"),
            ] {
                marks.push((sq.file(), sq.rank(), class, "#f6e05e"));
            }
        }
        // Each player's last jump in the player's colour (the latest drawn last, on
        // top): after a person's move the three replies all show. The path runs under
        // the men and the pivot is ringed, not covered, so that the jumped man's
        // initial stays readable.
        for (player, jump) in last_jumps(position, mv).into_iter().rev() {
            let point = |sq: Square| svg_centre(SIZE, sq.file(), sq.rank());
            let ((x0, y0), (x1, y1), (x2, y2)) =
                (point(jump.from), point(jump.pivot), point(jump.to));
            let colour = SEATS[player].colour;
            let name = NAMES[player];
            underlay.push_str(&format!(
                "<g class=\"jump\" data-player=\"{name}\" data-from=\"{}\" data-pivot=\"{}\" data-to=\"{}\"><polyline points=\"{x0},{y0} {x1},{y1} {x2},{y2}\" fill=\"none\" stroke=\"#222222\" stroke-width=\"5\" stroke-dasharray=\"6 4\"/><polyline points=\"{x0},{y0} {x1},{y1} {x2},{y2}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/></g>\n",
                jump.from, jump.pivot, jump.to
            ));
            overlay.push_str(&format!(
                "<g class=\"jump-pivot\" data-player=\"{name}\" data-square=\"{}\"><circle cx=\"{x1}\" cy=\"{y1}\" r=\"17\" fill=\"none\" stroke=\"#222222\" stroke-width=\"4\"/><circle cx=\"{x1}\" cy=\"{y1}\" r=\"17\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/></g>\n",
                jump.pivot
            ));
        }
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
        underlay,
        overlay,
    }
    .render()
}

/// Each player's last jump, the latest first (`last` first of all): the position's
/// own history, taken back on a copy, as far back as a round and a little more (a
/// player in statura has none in it; one who left has no jump drawn).
fn last_jumps(position: &Position, last: Move) -> Vec<(usize, Jump)> {
    let mut back = position.clone();
    let mut seen = [false; PLAYERS];
    let mut jumps = Vec::new();
    for _ in 0..2 * PLAYERS {
        let Some(mv) = back.undo() else { break };
        if seen == [false; PLAYERS] && mv != last {
            // The history is not the game's: only the move known to be last.
            return known_last(position, last);
        }
        let mover = back.to_move();
        if !seen[mover] {
            seen[mover] = true;
            if let Move::Jump(jump) = mv {
                jumps.push((mover, jump));
            }
        }
        if seen.iter().all(|&s| s) {
            break;
        }
    }
    if seen == [false; PLAYERS] {
        return known_last(position, last);
    }
    jumps
}

/// The move known to be last when the history does not hold it, with its mover (the
/// owner of the man it left on its target); nothing to draw for a leave.
fn known_last(position: &Position, last: Move) -> Vec<(usize, Jump)> {
    match last {
        Move::Jump(jump) => vec![(position.owner(jump.to).unwrap_or(0), jump)],
        Move::Leave(_) => Vec::new(),
    }
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
                    "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"1\"/>",
                    x + 7 + 9 * i,
                    y + 35,
                    SEATS[p].colour
                ));
            }
            out.push_str("</g>\n");
        }
    }
    out
}

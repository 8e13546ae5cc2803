//! Mangala II drawn as SVG: North's row on top, drawn right to left so that sowing
//! runs counter-clockwise, South's below, each pit with its count, each player's
//! captured counters at its end, the pit last sown from marked.

use super::position::{Move, PITS, Position, ROW};
use super::text::pit_letter;

const PIT: usize = 56;
const MARGIN: usize = 16;
const STORE: usize = 64;

pub fn diagram(position: &Position, last: Option<Move>) -> String {
    let width = 2 * MARGIN + 2 * STORE + ROW * PIT;
    let height = 2 * MARGIN + 2 * PIT + 40;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" class=\"board {}\">\n",
        <Position as crate::game::Game>::NAME
    );
    out.push_str(&format!(
        "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" rx=\"24\" fill=\"#8b5a2b\"/>\n"
    ));
    let pits = position.pits();
    for (pit, &count) in pits.iter().enumerate().take(PITS) {
        // South's A..F left to right on the lower row; North's a..f right to left above.
        let (column, row_y, owner) = if pit < ROW {
            (pit, MARGIN + 20 + PIT, "south")
        } else {
            (ROW - 1 - (pit - ROW), MARGIN + 20, "north")
        };
        let cx = MARGIN + STORE + column * PIT + PIT / 2;
        let cy = row_y + PIT / 2;
        let letter = pit_letter(pit);
        let class = if last.is_some_and(|m| m.0 as usize == pit) {
            " last"
        } else {
            ""
        };
        let ring = if class.is_empty() {
            "#5a3a1a"
        } else {
            "#f6e05e"
        };
        out.push_str(&format!(
            "<g id=\"pit-{letter}\" class=\"pit {owner}{class}\" data-count=\"{}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"#d9a066\" stroke=\"{ring}\" stroke-width=\"4\"/><text x=\"{cx}\" y=\"{}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#2b1a0a\">{}</text></g>\n",
            count,
            PIT / 2 - 5,
            cy + 7,
            count
        ));
        let label_y = if pit < ROW { height - 8 } else { MARGIN + 6 };
        out.push_str(&format!(
            "<text class=\"pit-name\" x=\"{cx}\" y=\"{label_y}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#f4ead8\">{letter}</text>\n"
        ));
    }
    // The captured counters: North's at the left end, South's at the right.
    for (player, x) in [(1, MARGIN), (0, MARGIN + STORE + ROW * PIT)] {
        let name = ["south", "north"][player];
        out.push_str(&format!(
            "<g id=\"store-{name}\" class=\"store {name}\" data-count=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"20\" fill=\"#c68642\" stroke=\"#5a3a1a\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"#2b1a0a\">{}</text></g>\n",
            position.captured(player),
            x + 4,
            MARGIN + 20,
            STORE - 8,
            2 * PIT,
            x + STORE / 2,
            MARGIN + 20 + PIT + 8,
            position.captured(player)
        ));
    }
    out.push_str("</svg>");
    out
}

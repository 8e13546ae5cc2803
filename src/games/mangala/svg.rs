//! Mangala II drawn as SVG: North's row on top, drawn right to left so that sowing
//! runs counter-clockwise, South's below, each pit with its count, each player's
//! captured counters at its end (named), and the last move drawn: the pit sown from,
//! the path of its counters with how many fell in each pit, and the pits it captured.

use super::position::{Move, PITS, Position, ROW, next_pit};
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
    let centre = |pit: usize| {
        // South's A..F left to right on the lower row; North's a..f right to left above.
        let (column, row_y) = if pit < ROW {
            (pit, MARGIN + 20 + PIT)
        } else {
            (ROW - 1 - (pit - ROW), MARGIN + 20)
        };
        (MARGIN + STORE + column * PIT + PIT / 2, row_y + PIT / 2)
    };
    let sown = last.and_then(|mv| sowing(position, mv));
    if let Some(sown) = &sown {
        // Under the pits: the path shows between them, not over their counts.
        out.push_str(&sowing_path(&sown.path, &centre));
    }
    for (pit, &count) in pits.iter().enumerate().take(PITS) {
        let owner = if pit < ROW { "south" } else { "north" };
        let (cx, cy) = centre(pit);
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
    // The captured counters: North's at the left end, South's at the right, each named
    // under it.
    for (player, x) in [(1, MARGIN), (0, MARGIN + STORE + ROW * PIT)] {
        let name = ["south", "north"][player];
        let count = position.captured(player);
        out.push_str(&format!(
            "<g id=\"store-{name}\" class=\"store {name}\" data-count=\"{count}\"><title>{name} has captured {count}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"20\" fill=\"#c68642\" stroke=\"#5a3a1a\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"#2b1a0a\">{count}</text></g>\n",
            x + 4,
            MARGIN + 20,
            STORE - 8,
            2 * PIT,
            x + STORE / 2,
            MARGIN + 20 + PIT + 8,
        ));
        out.push_str(&format!(
            "<text class=\"store-name\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#f4ead8\">{name}</text>\n",
            x + STORE / 2,
            height - 8
        ));
    }
    if let Some(sown) = &sown {
        out.push_str(&sowing_marks(sown, &centre));
    }
    out.push_str("</svg>");
    out
}

/// The last move's sowing, from the position before it.
struct Sowing {
    /// The pits its counters fell in, in order (a pit once a lap).
    path: Vec<usize>,
    /// The pits it captured.
    captured: Vec<usize>,
    /// Every pit's count once the counters were taken up (the pit sown from empty).
    before: [u8; PITS],
    /// Each player's captured counters before it.
    stores_before: [u32; 2],
}

/// The last move's sowing (`None` when the position does not hold the move).
fn sowing(position: &Position, last: Move) -> Option<Sowing> {
    let mut before = position.clone();
    if before.undo()? != last {
        return None;
    }
    let origin = last.0 as usize;
    let counters = before.pits()[origin] as usize;
    let skip = position.rules().skip_origin;
    let mut path = Vec::with_capacity(counters);
    let mut pit = origin;
    for _ in 0..counters {
        pit = next_pit(pit, origin, skip);
        path.push(pit);
    }
    let mut taken_up = *before.pits();
    taken_up[origin] = 0;
    let mut sown = taken_up;
    for &p in &path {
        sown[p] += 1;
    }
    let captured = (0..PITS)
        .filter(|&p| sown[p] > 0 && position.pits()[p] == 0)
        .collect();
    Some(Sowing {
        path,
        captured,
        before: taken_up,
        stores_before: [before.captured(0), before.captured(1)],
    })
}

/// The path of the sowing, from the pit sown from through the pits of its first lap:
/// dashed, drawn under the pits.
fn sowing_path(path: &[usize], centre: &dyn Fn(usize) -> (usize, usize)) -> String {
    let points: Vec<String> = path
        .iter()
        .take(PITS)
        .map(|&p| {
            let (x, y) = centre(p);
            format!("{x},{y}")
        })
        .collect();
    format!(
        "<polyline class=\"sowing-path\" points=\"{}\" fill=\"none\" stroke=\"#f4ead8\" stroke-width=\"3\" stroke-dasharray=\"5 4\" pointer-events=\"none\"/>\n",
        points.join(" ")
    )
}

/// The sowing drawn over the pits, taking no clicks: a badge `+n` on each pit sown (n
/// counters fell there), a red ring on each pit captured. The group states the whole
/// sowing for a client that animates it counter by counter: `data-path`, the pits in
/// the order the counters fell (every lap), `data-before`, every pit's count once the
/// counters were taken up (A to F, then a to f), `data-stores-before`, South's and
/// North's captured counters before the move.
fn sowing_marks(sown: &Sowing, centre: &dyn Fn(usize) -> (usize, usize)) -> String {
    let (path, captured) = (&sown.path, &sown.captured);
    let words = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(" ");
    let mut out = format!(
        "<g class=\"sowing\" pointer-events=\"none\" data-path=\"{}\" data-before=\"{}\" data-stores-before=\"{}\">",
        words(&mut path.iter().map(|&p| pit_letter(p).to_string())),
        words(&mut sown.before.iter().map(|c| c.to_string())),
        words(&mut sown.stores_before.iter().map(|c| c.to_string())),
    );
    for pit in 0..PITS {
        let fell = path.iter().filter(|&&p| p == pit).count();
        if fell == 0 {
            continue;
        }
        let (x, y) = centre(pit);
        let (bx, by) = (x + PIT / 2 - 10, y - PIT / 2 + 10);
        out.push_str(&format!(
            "<g class=\"sown\" data-pit=\"{}\" data-counters=\"{fell}\"><circle cx=\"{bx}\" cy=\"{by}\" r=\"10\" fill=\"#1f4f1f\" stroke=\"#ffffff\" stroke-width=\"1.5\"/><text x=\"{bx}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#ffffff\">+{fell}</text></g>",
            super::text::pit_letter(pit),
            by + 4
        ));
    }
    for &pit in captured.iter() {
        let (x, y) = centre(pit);
        out.push_str(&format!(
            "<circle class=\"captured\" data-pit=\"{}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"#b00020\" stroke-width=\"4\" stroke-dasharray=\"6 3\"/>",
            super::text::pit_letter(pit),
            PIT / 2 - 2
        ));
    }
    out.push_str("</g>\n");
    out
}

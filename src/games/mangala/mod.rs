//! Mangala II, an Ottoman 2x6 mancala (protocol-spec/rules/mangala.md).
//!
//! - `position`: pits, sowing, captures, passes and the end of the game;
//! - `endgame`: tables of proven bounds for positions with few counters;
//! - `search`: the search with the tables (`MangalaSearch`);
//! - `eval`: the evaluation and what alpha-beta needs;
//! - `text`: the position string and the move notations.

pub mod endgame;
mod eval;
mod position;
#[cfg(test)]
mod reference;
mod search;
mod svg;
#[cfg(test)]
mod tests;
mod text;

pub use position::{BOARD_EMPTY, Move, PLY_LIMIT, Position, REPETITION, Rules};
pub use search::ENDGAME_PATH;
pub use text::Notation;

use crate::game::{
    Descriptor, Game, NamedNotation, OptionError, Outcome, Player, Presentation, Seat, parse_limit,
    seat_names,
};
use crate::options::OptionSpec;

/// The players, each with the colour of its row's side of the board.
const SEATS: [Seat; 2] = [
    Seat {
        name: "south",
        colour: "#d9a066",
    },
    Seat {
        name: "north",
        colour: "#5a3a1a",
    },
];

impl Game for Position {
    type Move = Move;
    type Notation = Notation;

    const NAME: &'static str = "mangala";
    const PLAYERS: &'static [&'static str] = &seat_names(&SEATS);
    const NOTATIONS: &'static [NamedNotation<Notation>] = &[
        NamedNotation {
            name: "letter",
            title: "pit letters",
            notation: Notation::Letter,
        },
        NamedNotation {
            name: "number",
            title: "pit numbers",
            notation: Notation::Number,
        },
    ];

    const DESCRIPTOR: Descriptor = Descriptor {
        title: "Mangala II",
        seats: &SEATS,
        board: (6, 2),
        reading_notation: 0,
        record_notation: 0,
        record_tags: false,
        uci_template: Some("mancala"),
        xboard: None,
        end_reasons: position::END_REASONS,
        score_units: 1,
    };
    const RULE_OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::rule(
            "skip-origin",
            "off",
            "on: sowing 12 or more counters leaves out the pit sown from",
        ),
        OptionSpec::rule(
            "ply-limit",
            "1000",
            "off, or n: the game ends after n moves, counters on the board going to their row's owner",
        ),
    ];

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let mut rules = self.rules();
        let value = value.trim();
        if name.eq_ignore_ascii_case("skip-origin") {
            rules.skip_origin = crate::options::read_check(value)
                .ok_or_else(|| OptionError::bad_value("skip-origin", value, "on or off"))?;
        } else if name.eq_ignore_ascii_case("ply-limit") {
            rules.ply_limit = parse_limit("ply-limit", value)?;
        } else {
            return Err(OptionError::unknown_rule::<Self>(name));
        }
        self.set_rules(rules);
        Ok(())
    }

    fn to_move(&self) -> Player {
        Position::to_move(self)
    }
    fn can_move(&self, player: Player) -> bool {
        Position::can_move(self, player)
    }
    fn round_number(&self) -> u32 {
        self.round()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
    fn describe_outcome(outcome: &Outcome) -> String {
        format!(
            "{} ({}; south {}, north {})",
            outcome.verdict(Self::PLAYERS),
            outcome.reason,
            outcome.scores[0],
            outcome.scores[1]
        )
    }
    crate::game::forward_rules!(Position, parse: text::parse, start: text::START, format: text::format_position);
}

impl Presentation for Position {
    const HOW_TO_PLAY: &'static [&'static str] = &[
        "Two rows of six pits with six counters each; each player owns the row nearer to them, and South moves first.",
        "A move lifts every counter of one of your pits and sows them one by one counter-clockwise, from the next pit on.",
        "If the last counter makes its pit hold 2, 4 or 6, on either row, you capture them, and so each pit before it that holds 2, 4 or 6, back to the first that does not.",
        "A player whose row is empty passes until counters come back to it.",
        "The game ends when every pit is empty: more than 36 counters captured wins, 36 each is a draw.",
    ];
    const RULES: &'static str = include_str!("../../../protocol-spec/rules/mangala.md");
    fn diagram(&self) -> String {
        // North's row is drawn right to left, so sowing runs counter-clockwise.
        let pits = self.pits();
        let cell = |p: usize| format!("{:>3}", pits[p]);
        let north: String = (6..12).rev().map(cell).collect();
        let south: String = (0..6).map(cell).collect();
        format!(
            "      f  e  d  c  b  a\nNorth{north}   captured {}\nSouth{south}   captured {}\n      A  B  C  D  E  F\n{} to move",
            self.captured(1),
            self.captured(0),
            Self::PLAYERS[Position::to_move(self)]
        )
    }

    fn diagram_svg(&self, last: Option<Move>) -> String {
        svg::diagram(self, last)
    }

    fn move_places(&self, mv: Move) -> Vec<String> {
        vec![text::pit_letter(usize::from(mv.0)).to_string()]
    }
}

//! Mangala II, an Ottoman 2x6 mancala (protocol-spec/rules/mangala.md).
//!
//! - `position`: pits, sowing, captures, passes and the end of the game;
//! - `endgame`: tables of proven bounds for positions with few counters;
//! - `engine`: the search with the tables;
//! - `eval`: the evaluation and what alpha-beta needs;
//! - `text`: the position string and the move notations.

pub mod endgame;
mod engine;
mod eval;
mod position;
#[cfg(test)]
mod reference;
mod svg;
#[cfg(test)]
mod tests;
mod text;

pub use engine::ENDGAME_PATH;
pub use position::{BOARD_EMPTY, Move, PLY_LIMIT, Position, REPETITION, Rules};
pub use text::Notation;

use crate::game::{
    Descriptor, Game, MoveError, NamedNotation, OptionError, Outcome, Player, PositionError,
    Presentation, Seat, parse_limit, seat_names,
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
            return Err(OptionError::unknown_rule(
                Self::NAME,
                name,
                Self::RULE_OPTIONS,
            ));
        }
        self.set_rules(rules);
        Ok(())
    }

    fn start() -> Self {
        text::parse(text::START).expect("the start position is valid")
    }
    fn from_fen(text: &str) -> Result<Self, PositionError> {
        text::parse(text)
    }
    fn fen(&self) -> String {
        text::format_position(self)
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
    fn legal_moves(&self, out: &mut Vec<Move>) {
        Position::legal_moves(self, out)
    }
    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count_legal()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv)
    }
    #[inline]
    fn undo(&mut self) -> Option<Move> {
        Position::undo(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }
    fn hash(&self) -> u64 {
        Position::hash(self)
    }
    fn read_move(&self, text: &str) -> Result<Move, MoveError> {
        text::parse_move(self, text)
    }
    fn format_move(&self, mv: Move, notation: Notation) -> String {
        text::format_move(mv, notation)
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
}

impl Presentation for Position {
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

//! Mentula, a 4-player jumping game on 8x8 (protocol-spec/rules/mentula.md).
//!
//! - `board`: squares, the four colours, player names;
//! - `geometry`: the jump, `(start, pivot) -> target`, the one place that knows the
//!   board's shape;
//! - `reach`: the squares a player can ever occupy, scores, and whether a capture can
//!   still happen;
//! - `position`: the position, moves, statura, make and undo, the end of the game;
//! - `fen`: the FEN-like and list forms of positions;
//! - `notation`: full, short and compact move text.

mod board;
mod eval;
mod fen;
mod geometry;
mod notation;
mod position;
pub mod reach;
#[cfg(test)]
mod reference;
mod svg;
#[cfg(test)]
mod tests;

pub use notation::Notation;
pub use position::{
    CAPTURE_LIMIT, Jump, LAST_PLAYER, Leaving, Move, NO_CAPTURES, NO_MOVES, Position, REPETITION,
    Rules, Scoring,
};

use crate::game::{
    Descriptor, DiagramLayer, Game, NamedNotation, OptionError, Outcome, Player, Presentation,
    parse_limit,
};
use crate::options::OptionSpec;

impl Game for Position {
    type Move = Move;
    type Notation = Notation;

    const NAME: &'static str = "mentula";
    const PLAYERS: &'static [&'static str] = &board::NAMES;
    const NOTATIONS: &'static [NamedNotation<Notation>] = &[
        NamedNotation {
            name: "full",
            title: "full",
            notation: Notation::Full,
        },
        NamedNotation {
            name: "short",
            title: "short",
            notation: Notation::Short,
        },
        NamedNotation {
            name: "compact",
            title: "compact",
            notation: Notation::Compact,
        },
    ];

    const DESCRIPTOR: Descriptor = Descriptor {
        title: "Mentula",
        seats: &board::SEATS,
        board: (8, 8),
        reading_notation: 0,
        record_notation: 0,
        record_tags: false,
        // Four players: none of the dialects has more than two.
        uci_template: None,
        xboard: None,
        end_reasons: position::END_REASONS,
        score_units: reach::SCORE_UNITS,
    };
    const RULE_OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::rule(
            "scoring",
            "shared",
            "shared: every square a player can reach, shared equally with the others that can; exclusive: only squares no other player can reach; pieces: pieces left",
        ),
        OptionSpec::rule(
            "capture-limit",
            "200",
            "off, or n: the game ends after n moves in a row without a capture",
        ),
    ];

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let mut rules = self.rules();
        let value = value.trim();
        if name.eq_ignore_ascii_case("scoring") {
            rules.scoring = match value.to_ascii_lowercase().as_str() {
                "shared" => Scoring::Shared,
                "exclusive" => Scoring::Exclusive,
                "pieces" => Scoring::Pieces,
                _ => {
                    return Err(OptionError::bad_value(
                        "scoring",
                        value,
                        "shared, exclusive or pieces",
                    ));
                }
            };
        } else if name.eq_ignore_ascii_case("capture-limit") {
            rules.capture_limit = parse_limit("capture-limit", value)?;
        } else {
            return Err(OptionError::unknown_rule::<Self>(name));
        }
        self.set_rules(rules);
        Ok(())
    }

    /// `list`: the seed's form, `White (to play): a1, a2, b1, b2, Yellow: ...`.
    const POSITION_FORMS: &'static [&'static str] = &["fen", "list"];

    fn fen_in(&self, form: &str) -> String {
        match form {
            "list" => fen::format_list(self),
            _ => fen::format(self),
        }
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
    fn describe_outcome(outcome: &Outcome) -> String {
        let scores: Vec<String> = outcome
            .scores
            .iter()
            .enumerate()
            .map(|(p, &s)| {
                format!(
                    "{} {}",
                    board::NAMES[p],
                    crate::game::score_text(crate::game::score_value(s, reach::SCORE_UNITS))
                )
            })
            .collect();
        let ranking: Vec<String> = outcome
            .ranking()
            .iter()
            .map(|group| {
                let names: Vec<&str> = group.iter().map(|&p| board::NAMES[p]).collect();
                names.join(" = ")
            })
            .collect();
        format!(
            "{} ({}; {}; ranking {})",
            outcome.verdict(Self::PLAYERS),
            outcome.reason,
            scores.join(", "),
            ranking.join(" > ")
        )
    }
    crate::game::forward_rules!(Position, parse: fen::parse, start: fen::START, format: fen::format);
}

impl Presentation for Position {
    const HOW_TO_PLAY: &'static [&'static str] = &[
        "Four players, White, Yellow, Red and Magenta, each with four men in a corner, move in turn.",
        "A man jumps over another man of its own, at any distance and in any direction, to the square as far beyond it (the pivot's point reflection).",
        "Landing on another player's man captures it; nothing between the squares matters.",
        "A player with no move has its turn passed; a player who resigns or runs out of time leaves, its men taken off, and the others play on.",
        "A player scores the squares its men can ever reach, each shared with the others who reach it; the highest score wins.",
        "The game ends when at most one player has men, nobody can move, no capture can happen any more, a position comes a third time, or after 200 turns without a capture.",
    ];
    const RULES: &'static str = include_str!("../../../protocol-spec/rules/mentula.md");
    const LEAVING: Option<crate::game::Leaving> = Some(notation::LEAVES);
    /// `reach`: the squares each player can reach, shared ones outlined.
    const DIAGRAM_LAYERS: &'static [DiagramLayer] = &[DiagramLayer {
        name: "reach",
        help: "a dot in a player's colour on every square that player can reach; \
            a square reached by several players is outlined. What a player reaches is what it scores.",
    }];

    fn diagram(&self) -> String {
        crate::square_board::diagram(
            board::SIZE,
            |file, rank| {
                self.owner(board::Square::new(file, rank))
                    .map(|p| board::LETTERS[p])
            },
            &format!(
                "W white, Y yellow, R red, M magenta; {} to move",
                board::NAMES[Position::to_move(self)]
            ),
        )
    }

    fn diagram_svg(&self, last: Option<Move>) -> String {
        svg::diagram(self, last, false)
    }

    fn diagram_svg_with(&self, last: Option<Move>, layers: &[&str]) -> String {
        svg::diagram(self, last, layers.contains(&"reach"))
    }

    fn move_places(&self, mv: Move) -> Vec<String> {
        match mv {
            Move::Jump(jump) => vec![
                jump.from.to_string(),
                jump.pivot.to_string(),
                jump.to.to_string(),
            ],
            Move::Leave(_) => Vec::new(),
        }
    }
}

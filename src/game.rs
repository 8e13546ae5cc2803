//! What every game offers the rest of the engine.
//!
//! ```
//! use ludus::game::{Game, MoveError, PositionFault};
//! use ludus::games::senamukha::Position;
//!
//! let mut position = Position::start();
//! let mv = position.parse_move("Na3-b5").unwrap();
//! position.play(mv);
//! assert_eq!(position.to_move(), 1); // black
//! assert!(matches!(position.parse_move("Na3-b5"), Err(MoveError::Illegal { .. })));
//! let refused = Position::from_fen("11/11/11/11/11/11/11/11/11/11/10K w").unwrap_err();
//! assert_eq!(refused.fault, PositionFault::Impossible); // black has no king
//! ```
//!
//! Each game (Sena-Mukha, Mentula, Mangala II) has one position type that implements
//! [`Game`]. The protocol, perft, record replay and (later) the searches only talk to
//! this trait, so a rule never leaks out of its game's folder.
//!
//! The trait is shaped by all three games at once:
//! - players are indices `0..PLAYERS.len()` (two for Sena-Mukha and Mangala II, four
//!   for Mentula, whose players in *statura* are skipped inside `play`, so
//!   `to_move` is always a player who can move unless the game is over);
//! - a forced pass (Mangala II) or skipped turn (Mentula) is never a move: the position
//!   simply hands the turn on, and records mark such turns with `-`;
//! - an [`Outcome`] carries a score for every player (Mangala counters, Mentula squares,
//!   1/0 for a chess-like win), and the ranking is derived from the scores.

use std::fmt;

/// A player, as an index into [`Game::PLAYERS`] in turn order.
pub type Player = usize;

/// Why a game ended. Each game defines its own reasons, in its folder, and lists them
/// in its [`Descriptor`]; front ends print them without knowing the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndReason {
    /// The reason in a few words, as status lines and records give it: `checkmate`.
    pub wording: &'static str,
    /// The comment of a result line, as CECP's `1-0 {White mates}` gives it;
    /// `{winner}` stands for the winner's name, capitalised.
    pub comment: &'static str,
    /// What an end for this reason means.
    pub verdict: Verdict,
}

/// What an end for a reason means for the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// One player wins (a checkmate).
    Win,
    /// Everybody draws.
    Draw,
    /// The players' scores decide, which may be a win, a draw or a shared place.
    ByScores,
}

impl EndReason {
    /// A reason with its wording, its result-line comment and its verdict.
    pub const fn new(wording: &'static str, comment: &'static str, verdict: Verdict) -> Self {
        EndReason {
            wording,
            comment,
            verdict,
        }
    }

    /// The result line's comment for `outcome`, naming the winner with `players`.
    pub fn comment_for(&self, outcome: &Outcome, players: &[&str]) -> String {
        let winner = outcome.winner().map(|p| capitalised(players[p]));
        self.comment
            .replace("{winner}", winner.as_deref().unwrap_or("Nobody"))
    }
}

/// `white` as `White`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wording)
    }
}

/// The end of a game: why it ended and what every player scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    /// One score per player, in turn order; higher ranks better. For two-player
    /// chess-like games the winner scores 1 and the loser 0; a draw is 0 to 0.
    pub scores: Vec<i32>,
}

impl Outcome {
    /// The players with the highest score; all players when the game is drawn.
    pub fn leaders(&self) -> Vec<Player> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        (0..self.scores.len())
            .filter(|&p| self.scores[p] == best)
            .collect()
    }

    /// The single winner, if one player scored more than every other.
    pub fn winner(&self) -> Option<Player> {
        match self.leaders().as_slice() {
            [p] => Some(*p),
            _ => None,
        }
    }

    /// The players grouped by rank: the best score first, ties sharing a group.
    pub fn ranking(&self) -> Vec<Vec<Player>> {
        let mut scores: Vec<i32> = self.scores.clone();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        scores
            .into_iter()
            .map(|s| {
                (0..self.scores.len())
                    .filter(|&p| self.scores[p] == s)
                    .collect()
            })
            .collect()
    }

    /// `"white wins"`, `"draw"` (everybody level) or `"white and red share first
    /// place"`, naming players with `names`.
    pub fn verdict(&self, names: &[&str]) -> String {
        let leaders = self.leaders();
        match leaders.as_slice() {
            [p] => format!("{} wins", names[*p]),
            _ if leaders.len() == self.scores.len() => "draw".to_string(),
            _ => {
                let named: Vec<&str> = leaders.iter().map(|&p| names[p]).collect();
                format!("{} share first place", named.join(" and "))
            }
        }
    }
}

/// Hands the turn on after `mover` has played: to the next player in turn order for
/// whom `can_move` holds (players who cannot move are skipped, as Mentula's statura and
/// Mangala's passes require), or to the next player in order if nobody can move.
/// Returns that player and whether the turn passed the first seat, which opens a new
/// round.
pub fn next_turn(
    mover: Player,
    players: usize,
    can_move: impl Fn(Player) -> bool,
) -> (Player, bool) {
    let steps = (1..=players)
        .find(|&k| can_move((mover + k) % players))
        .unwrap_or(1);
    let next = (mover + steps) % players;
    (next, next <= mover)
}

/// Reads the value of a limit option: `off`, or a positive number.
pub fn parse_limit(name: &str, value: &str) -> Result<Option<u32>, OptionError> {
    let value = value.trim();
    if value.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    match value.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(OptionError::bad_value(
            name,
            value,
            "off or a positive number",
        )),
    }
}

/// One step of the splitmix64 generator, usable in constants: the games' Zobrist keys
/// come from fixed streams of it, so hashes are the same on every run.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A small deterministic random generator (xorshift64) for the tests' random
/// positions, moves and mutations: the same seed gives the same sequence everywhere.
/// The seed must not be 0.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What kind of fault made a position text unacceptable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionFault {
    /// There is no text at all.
    Empty,
    /// The text is not in the game's position format (fields, letters, numbers).
    Syntax,
    /// The text is well formed, but no game can be in that position: a missing king,
    /// a pawn on its last rank, the wrong number of counters.
    Impossible,
}

/// A position that could not be read: what kind of fault, and a text that names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub fault: PositionFault,
    pub detail: String,
}

impl PositionError {
    /// The text is not in the position format.
    pub fn syntax(detail: impl Into<String>) -> Self {
        PositionError {
            fault: PositionFault::Syntax,
            detail: detail.into(),
        }
    }

    /// The text is well formed but describes a position the rules forbid.
    pub fn impossible(detail: impl Into<String>) -> Self {
        PositionError {
            fault: PositionFault::Impossible,
            detail: detail.into(),
        }
    }

    /// The text is empty.
    pub fn empty() -> Self {
        PositionError {
            fault: PositionFault::Empty,
            detail: "empty position".to_string(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for PositionError {}

/// A rule or engine option that could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The game has no rule option of that name; `known` are the ones it has.
    UnknownRule {
        game: &'static str,
        name: String,
        known: Vec<&'static str>,
    },
    /// The game's engine has no option of that name.
    UnknownEngine { game: &'static str, name: String },
    /// The option does not take that value; `takes` says what it does take.
    BadValue {
        name: String,
        value: String,
        takes: String,
    },
    /// The value names something that cannot be used (a folder of files): `why`.
    Unusable {
        name: String,
        value: String,
        why: String,
    },
}

impl OptionError {
    /// The value is not one `name` takes.
    pub fn bad_value(name: &str, value: &str, takes: impl Into<String>) -> Self {
        OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            takes: takes.into(),
        }
    }

    /// `value` of `name` names something that cannot be used, for the reason `why`.
    pub fn unusable(name: &str, value: &str, why: impl fmt::Display) -> Self {
        OptionError::Unusable {
            name: name.to_string(),
            value: value.to_string(),
            why: why.to_string(),
        }
    }

    /// `game` has no rule option `name` among `options`.
    pub fn unknown_rule(
        game: &'static str,
        name: &str,
        options: &[crate::options::OptionSpec],
    ) -> Self {
        OptionError::UnknownRule {
            game,
            name: name.to_string(),
            known: options.iter().map(|o| o.name).collect(),
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn in_words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownRule { game, name, known } => write!(
                f,
                "unknown rule option {:?} ({game} has {})",
                quoted(name),
                in_words(known)
            ),
            OptionError::UnknownEngine { game, name } => {
                write!(f, "{game} has no engine option {:?}", quoted(name))
            }
            OptionError::BadValue { name, value, takes } => {
                write!(f, "{name} takes {takes}, not {:?}", quoted(value))
            }
            OptionError::Unusable { name, value, why } => {
                write!(f, "{name} {:?} cannot be used: {why}", quoted(value))
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A move that could not be read or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any notation the game accepts.
    Syntax { text: String, why: String },
    /// The text reads as a move, but no legal move matches it.
    Illegal { text: String, why: String },
    /// The text matches more than one legal move.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
    /// The game is already over.
    GameOver { text: String },
}

/// The longest part of a user's text that an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// A choice the game does not offer: a diagram layer, a position form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What was chosen: `diagram layer`, `position form`.
    pub kind: &'static str,
    pub game: &'static str,
    /// As asked, [`quoted`].
    pub name: String,
    /// What the game offers.
    pub known: &'static [&'static str],
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = if self.known.is_empty() {
            "none".to_string()
        } else {
            self.known.join(", ")
        };
        write!(
            f,
            "unknown {} {:?} ({} has {known})",
            self.kind,
            quoted(&self.name),
            self.game
        )
    }
}

impl std::error::Error for UnknownChoice {}

/// `asked` (in any case) as one of `known`, or the error naming what there is.
pub fn choose(
    kind: &'static str,
    game: &'static str,
    known: &'static [&'static str],
    asked: &str,
) -> Result<&'static str, UnknownChoice> {
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(asked))
        .copied()
        .ok_or_else(|| UnknownChoice {
            kind,
            game,
            name: quoted(asked),
            known,
        })
}

/// The layers asked for as the game names them, for [`Game::diagram_svg_with`]; the
/// first unknown one is the error.
pub fn diagram_layers<G: Game>(
    asked: &[impl AsRef<str>],
) -> Result<Vec<&'static str>, UnknownChoice> {
    asked
        .iter()
        .map(|layer| choose("diagram layer", G::NAME, G::DIAGRAM_LAYERS, layer.as_ref()))
        .collect()
}

/// A user's text as an error message quotes it: control characters escaped (`\u{1}`),
/// so that a reply stays one printable line, and cut after [`QUOTED_CHARS`] characters
/// (marked `…`).
pub fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(QUOTED_CHARS).collect();
    let mut shown = escaped(&cut);
    if text.chars().nth(QUOTED_CHARS).is_some() {
        shown.push('…');
    }
    shown
}

/// `text` with its control characters escaped (`\r`, `\u{1b}`), whole.
pub fn escaped(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, why } => {
                write!(f, "unreadable move: {} ({why})", quoted(text))
            }
            MoveError::Illegal { text, why } => {
                write!(f, "illegal move: {} ({why})", quoted(text))
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move: {} (could be {})",
                    quoted(text),
                    candidates.join(", ")
                )
            }
            MoveError::GameOver { text } => {
                write!(f, "illegal move: {} (the game is over)", quoted(text))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// What front ends need to know about a game beyond its rules: how each dialect
/// announces it and how match records write it. One per game, in the game's folder
/// ([`Game::DESCRIPTOR`]); generic code reads it and never names a game.
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    /// The game's name as people write it: `Sena-Mukha`.
    pub title: &'static str,
    /// Each player's colour (a CSS colour), in turn order: the colour the diagrams
    /// draw its men or its side in.
    pub colours: &'static [&'static str],
    /// Each notation's name for people, in the order of [`Game::NOTATIONS`].
    pub notation_titles: &'static [&'static str],
    /// What each of [`Game::DIAGRAM_LAYERS`] shows, for people, in their order.
    pub layer_help: &'static [&'static str],
    /// Files and ranks of the board (Mangala II: pits per row, rows).
    pub board: (usize, usize),
    /// The index in [`Game::NOTATIONS`] of the notation people read the game in (its
    /// source documents'): the one a board shows first.
    pub reading_notation: usize,
    /// The index in [`Game::NOTATIONS`] of the notation match records use.
    pub record_notation: usize,
    /// Match records start with PGN-style tags (`[Event ...]`, `[Variant <name>]`)
    /// rather than the plain header line of the seed documents.
    pub record_tags: bool,
    /// The template of Fairy-Stockfish's variant announcement (`fairy`, `mancala`)
    /// under which UCI and UGI serve the game; `None`: they do not (more than two
    /// players).
    pub uci_template: Option<&'static str>,
    /// How CECP describes the game to XBoard; `None`: CECP does not serve it.
    pub cecp: Option<CecpVariant>,
    /// Every reason the game can end for.
    pub end_reasons: &'static [EndReason],
    /// The scores of an [`Outcome`] count in units of 1 / `score_units` (Mentula's
    /// shared squares: twelfths); see [`score_text`].
    pub score_units: i32,
}

/// A score of `value` units of 1 / `units` as a number: `10.5` for 126 twelfths.
pub fn score_value(value: i32, units: i32) -> f64 {
    f64::from(value) / f64::from(units)
}

/// A score as people read it: `16`, `10.5`, `21.33` (at most two decimals; the score
/// itself stays exact, see [`Descriptor::score_units`]).
pub fn score_text(score: f64) -> String {
    if score.fract() == 0.0 {
        return format!("{score:.0}");
    }
    format!("{score:.2}").trim_end_matches('0').to_string()
}

/// A game as CECP describes it to XBoard: the `setup` piece table (XBoard's piece
/// slots, `.` for unused ones) and the `piece` lines for the moves XBoard cannot know.
#[derive(Clone, Copy, Debug)]
pub struct CecpVariant {
    pub piece_table: &'static str,
    pub piece_moves: &'static [&'static str],
}

/// The common interface of the three games' positions.
///
/// A position owns its history, so `undo` and repetition detection need nothing
/// from outside. `play` takes only legal moves (from `legal_moves` or `parse_move`);
/// anything a user typed goes through `parse_move` first.
pub trait Game: Clone + fmt::Debug + Sized {
    /// A move: small and `Copy`.
    type Move: Copy + Eq + fmt::Debug;
    /// The move notations the game can print.
    type Notation: Copy + Eq + fmt::Debug + 'static;

    /// The game's name on the command line and in the protocol.
    const NAME: &'static str;
    /// Player names in turn order.
    const PLAYERS: &'static [&'static str];
    /// Each printable notation with its name; the first one is the canonical
    /// machine form (used by perft `--divide` and the protocol by default).
    const NOTATIONS: &'static [(&'static str, Self::Notation)];

    /// The rule options the game offers.
    const RULE_OPTIONS: &'static [crate::options::OptionSpec];

    /// What front ends need to know beyond the rules.
    const DESCRIPTOR: Descriptor;

    /// The usual starting position.
    fn start() -> Self;
    /// Reads a position in the game's position format; refuses invalid ones.
    fn from_fen(text: &str) -> Result<Self, PositionError>;
    /// Prints the position in the game's position format.
    fn fen(&self) -> String;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;
    /// Whether `player` would have a legal move if it were their turn; a player who
    /// would not has their turn skipped (Mentula's statura, Mangala's pass).
    fn can_move(&self, player: Player) -> bool;
    /// The number of the current round, as records number moves (a round is one turn
    /// of every player).
    fn round_number(&self) -> u32;
    /// Appends every legal move to `out` (which is cleared first).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// The number of legal moves; games override this with a faster count.
    fn count_legal_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }
    /// Perft: the leaves of the legal move tree `depth` plies deep. Games may override
    /// the generic walk with a faster one of their own.
    fn perft(&mut self, depth: u32) -> u64 {
        walk_tree(self, depth)
    }
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);
    /// Takes back the last move played, returning it; `None` at the start of the history.
    fn undo(&mut self) -> Option<Self::Move>;
    /// The outcome, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash of what makes positions equal for repetition.
    fn hash(&self) -> u64;

    /// Reads a move in any notation the game accepts and checks that it is legal in the
    /// position, whether or not the rules have ended the game.
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Reads a move and checks that it may be played: legal, and the game not over.
    /// Text that is no move at all gives `MoveError::Syntax`, even after the end of the
    /// game; a readable move after the end gives `MoveError::GameOver`.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let parsed = self.read_move(text);
        if matches!(parsed, Err(MoveError::Syntax { .. })) || self.outcome().is_none() {
            return parsed;
        }
        Err(MoveError::GameOver {
            text: text.trim().to_string(),
        })
    }
    /// Prints a legal move in the given notation.
    fn format_move(&self, mv: Self::Move, notation: Self::Notation) -> String;

    /// The places a person points at to make a legal move, named as the SVG diagram's
    /// ids name them (`sq-<place>`, `pit-<place>`): where the move starts first, where
    /// it ends last (Mentula's pivot between them); a Mangala II move is its one pit.
    fn move_places(&self, mv: Self::Move) -> Vec<String>;

    /// A readable text board with coordinates, the players' men and the player to move.
    fn diagram(&self) -> String;

    /// The position drawn as an SVG document, `last` (the move that led to it, if
    /// known) marked. Elements carry ids and classes a client can use (squares
    /// `sq-<name>`, pits `pit-<letter>`, men of class `man`); no line is blank.
    fn diagram_svg(&self, last: Option<Self::Move>) -> String;

    /// The forms a position is printed in: [`Game::fen`]'s first (`fen`), then others
    /// the game has (Mentula: the seed's `list`).
    const POSITION_FORMS: &'static [&'static str] = &["fen"];

    /// The position in `form`, one of [`Game::POSITION_FORMS`] (the first is
    /// [`Game::fen`]; the caller checks).
    fn fen_in(&self, form: &str) -> String {
        let _ = form;
        self.fen()
    }

    /// What a diagram can show besides the position, on request (Mentula: `reach`).
    const DIAGRAM_LAYERS: &'static [&'static str] = &[];

    /// [`Game::diagram_svg`] with `layers` drawn too, each one of
    /// [`Game::DIAGRAM_LAYERS`] (the caller checks).
    fn diagram_svg_with(&self, last: Option<Self::Move>, layers: &[&str]) -> String {
        let _ = layers;
        self.diagram_svg(last)
    }

    /// The outcome in words: `white wins (checkmate)`. Games whose scores mean more
    /// than win or loss add them.
    fn describe_outcome(outcome: &Outcome) -> String {
        format!("{} ({})", outcome.verdict(Self::PLAYERS), outcome.reason)
    }

    /// Sets a rule option (name case-insensitive); the error says what was wrong.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), OptionError>;

    /// The notation called `name` (case-insensitive), if the game has one.
    fn notation_named(name: &str) -> Option<Self::Notation> {
        Self::NOTATIONS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, notation)| notation)
    }
}

/// The generic perft: play and undo every move, the last ply counted in bulk.
pub fn walk_tree<G: Game>(position: &mut G, depth: u32) -> u64 {
    // One move list per level, allocated once for the whole walk.
    let mut lists: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    walk(position, depth, &mut lists)
}

fn walk<G: Game>(position: &mut G, depth: u32, lists: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_moves();
    }
    let (list, deeper) = lists.split_first_mut().expect("one list per level");
    position.legal_moves(list);
    let mut nodes = 0;
    for &mv in list.iter() {
        position.play(mv);
        nodes += walk(position, depth - 1, deeper);
        position.undo();
    }
    nodes
}

/// What the games' tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Game, PositionFault};

    /// Checks that every text of `cases` is refused with its needle in the message, and
    /// with the right fault: `Impossible` for the needles that contain one of
    /// `impossible` (well-formed texts of positions the rules forbid), `Empty` for the
    /// empty text, `Syntax` for the rest.
    pub fn assert_refused<G: Game>(cases: &[(&str, &str)], impossible: &[&str]) {
        for &(text, needle) in cases {
            let err = G::from_fen(text).unwrap_err();
            let fault = if text.is_empty() {
                PositionFault::Empty
            } else if impossible.iter().any(|i| needle.contains(i)) {
                PositionFault::Impossible
            } else {
                PositionFault::Syntax
            };
            assert_eq!(err.fault, fault, "{text:?}: {err}");
            let err = err.to_string();
            assert!(err.contains(needle), "{text:?}: {err:?} lacks {needle:?}");
        }
    }
}

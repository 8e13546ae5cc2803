//! What the analysis answers, typed: the JSON of `ludus analysis`'s output
//! (protocol-spec/analysis.schema.json) is these values serialised, and in-process
//! callers (`ludus review`, the board's review) read them as they are.

use serde::Serialize;

use crate::search::{Info, Score, Wdl};

/// One answer about one turn of a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Response {
    Turn(TurnResult),
    /// The position at that turn has no move to analyse: the game is over, or the
    /// query was terminated before the turn ran.
    NoResults {
        id: String,
        #[serde(rename = "turnNumber")]
        turn: usize,
        #[serde(rename = "isDuringSearch")]
        during_search: bool,
        #[serde(rename = "noResults")]
        no_results: bool,
    },
    /// The turn could not be analysed (a move illegal there, an option refused).
    Error {
        id: String,
        #[serde(rename = "turnNumber")]
        turn: usize,
        error: String,
    },
}

impl Response {
    pub(super) fn no_results(id: &str, turn: usize) -> Response {
        Response::NoResults {
            id: id.to_string(),
            turn,
            during_search: false,
            no_results: true,
        }
    }

    /// The query this answers.
    pub fn id(&self) -> &str {
        match self {
            Response::Turn(t) => &t.id,
            Response::NoResults { id, .. } | Response::Error { id, .. } => id,
        }
    }

    /// The ply it answers about.
    pub fn turn(&self) -> usize {
        match self {
            Response::Turn(t) => t.turn,
            Response::NoResults { turn, .. } | Response::Error { turn, .. } => *turn,
        }
    }

    /// Whether more answers about this turn follow (a report during the search).
    pub fn is_during_search(&self) -> bool {
        matches!(self, Response::Turn(t) if t.during_search)
    }
}

/// The analysis of one turn: its lines, best first, and the root's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnResult {
    pub id: String,
    #[serde(rename = "turnNumber")]
    pub turn: usize,
    #[serde(rename = "isDuringSearch")]
    pub during_search: bool,
    #[serde(rename = "moveInfos")]
    pub move_infos: Vec<MoveInfo>,
    #[serde(rename = "rootInfo")]
    pub root_info: RootInfo,
}

/// One line of a turn's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    /// 0 for the best.
    pub order: usize,
    #[serde(flatten)]
    pub score: ScoreField,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl: Option<Wdl>,
    pub pv: Vec<String>,
    pub depth: u32,
    pub nodes: u64,
}

/// The position's summary: whose turn, how far the search went, the best line's score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RootInfo {
    #[serde(rename = "toMove")]
    pub to_move: String,
    /// `None` when the search reported no line.
    #[serde(flatten)]
    pub search: Option<RootSearch>,
}

/// How far a turn's search went, and its best line's score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RootSearch {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    #[serde(rename = "timeMs")]
    pub time_ms: u64,
    #[serde(flatten)]
    pub score: ScoreField,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl: Option<Wdl>,
}

/// A score in KataGo's field names: `scoreCp` or `mate` for two players, `scores`
/// (each player's) for more.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ScoreField {
    #[serde(rename = "scoreCp")]
    Centi(i32),
    #[serde(rename = "mate")]
    Mate(i32),
    #[serde(rename = "scores")]
    Players(Vec<PlayerScore>),
}

/// One player's score among several: centi-units, or `{"mate": n}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PlayerScore {
    Centi(i32),
    Mate { mate: i32 },
}

impl ScoreField {
    fn of(scores: &[Score]) -> ScoreField {
        match scores {
            [Score::Centi(v)] => ScoreField::Centi(*v),
            [Score::Mate(n)] => ScoreField::Mate(*n),
            many => ScoreField::Players(
                many.iter()
                    .map(|s| match *s {
                        Score::Centi(v) => PlayerScore::Centi(v),
                        Score::Mate(n) => PlayerScore::Mate { mate: n },
                    })
                    .collect(),
            ),
        }
    }
}

impl Serialize for Wdl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.permille().serialize(serializer)
    }
}

/// The answer about a turn from its search's lines (best first).
pub(super) fn turn_result(
    id: &str,
    turn: usize,
    to_move: &str,
    lines: &[Info],
    during_search: bool,
) -> TurnResult {
    let move_infos = lines
        .iter()
        .filter(|l| !l.pv.is_empty())
        .enumerate()
        .map(|(order, line)| MoveInfo {
            mv: line.pv[0].clone(),
            order,
            score: ScoreField::of(&line.scores),
            wdl: line.wdl.clone(),
            pv: line.pv.clone(),
            depth: line.depth,
            nodes: line.nodes,
        })
        .collect();
    let search = lines.first().map(|best| RootSearch {
        depth: best.depth,
        seldepth: best.seldepth,
        nodes: lines.iter().map(|l| l.nodes).max().unwrap_or(0),
        time_ms: best.time_ms,
        score: ScoreField::of(&best.scores),
        wdl: best.wdl.clone(),
    });
    TurnResult {
        id: id.to_string(),
        turn,
        during_search,
        move_infos,
        root_info: RootInfo {
            to_move: to_move.to_string(),
            search,
        },
    }
}

//! Evaluation of Mentula positions for every player, for the multi-player searches.
//!
//! A player's value: its score by the rules if the game ended now (squares of its
//! reach no other player can reach), its pieces, its pieces under attack (an opponent
//! can land on them next turn) and its mobility. A finished game is worth its exact
//! scores, with a bonus for the winner. All weights are in [`WEIGHTS`].

use super::board::{Bitboard, PLAYERS};
use super::position::{Move, Position};
use super::reach;
use crate::game::OptionError;
use crate::options::OptionSpec;
use crate::search::multi_player::{self, MultiPlayerGame};
use crate::search::skill::LevelScale;
use crate::search::wdl::FirstPlaceModel;
use crate::search::{Chances, Info, Limits, OptionValue, SearchResult, Searchable, Value};

pub struct Weights {
    /// Per square of the player's score by reach.
    pub reach_score: Value,
    /// Per piece.
    pub piece: Value,
    /// Per piece an opponent can capture next turn.
    pub attacked: Value,
    /// Per legal move.
    pub mobility: Value,
    /// Per point of the final score.
    pub final_score: Value,
    /// For the winner of a finished game.
    pub win: Value,
}

pub const WEIGHTS: Weights = Weights {
    reach_score: 10,
    piece: 60,
    attacked: -35,
    mobility: 3,
    final_score: 100,
    win: 10_000,
};

/// Every square each player can land on next turn.
fn targets(position: &Position) -> [Bitboard; PLAYERS] {
    let mut out = [0; PLAYERS];
    let mut moves = Vec::with_capacity(12);
    for (player, set) in out.iter_mut().enumerate() {
        position.moves_of(player, &mut moves);
        *set = moves
            .iter()
            .filter_map(|m| m.to())
            .fold(0, |acc, to| acc | to.bit());
    }
    out
}

/// The value of the position for every player.
pub fn evaluate_all(position: &Position) -> Vec<Value> {
    let w = &WEIGHTS;
    let men = position.all_men();
    let scores = reach::shared_scores(men);
    let targets = targets(position);
    let mut moves = Vec::with_capacity(12);
    (0..PLAYERS)
        .map(|p| {
            let threats = (0..PLAYERS)
                .filter(|&q| q != p)
                .fold(0, |acc, q| acc | targets[q]);
            position.moves_of(p, &mut moves);
            w.reach_score * scores[p] / reach::SCORE_UNITS
                + w.piece * men[p].count_ones() as Value
                + w.attacked * (men[p] & threats).count_ones() as Value
                + w.mobility * moves.len() as Value
        })
        .collect()
}

impl MultiPlayerGame for Position {
    fn evaluate_all(&self) -> Vec<Value> {
        evaluate_all(self)
    }

    fn final_values(&self) -> Option<Vec<Value>> {
        let outcome = self.outcome()?;
        let winner = outcome.winner();
        Some(
            outcome
                .scores
                .iter()
                .enumerate()
                .map(|(p, &s)| {
                    WEIGHTS.final_score * s / reach::SCORE_UNITS
                        + if winner == Some(p) { WEIGHTS.win } else { 0 }
                })
                .collect(),
        )
    }

    fn order_key(&self, mv: Move) -> i32 {
        // Captures first, then jumps toward the centre.
        let Some(to) = mv.to() else { return i32::MIN };
        let capture = i32::from(self.owner(to).is_some()) * 100;
        let (f, r) = (to.file() as i32, to.rank() as i32);
        capture - ((2 * f - 7).abs() + (2 * r - 7).abs())
    }
}

/// The first-place models of the searches' scores (`UCI_ShowWDL`), fitted by `ludus
/// wdl` (protocol-spec/wdl.md): Monte Carlo reports each player's mean reward (per
/// mille), the alpha-beta searches their evaluations. Monte Carlo's: `ludus wdl --game
/// mentula --games 1000 --nodes 5000 --concurrency 1`, 108,154 positions of 800 games
/// fitted; on the 200 held out, Brier skill 0.446 against the base rates. The
/// alpha-beta searches' evaluations are read through it as the rewards Monte Carlo
/// gives them (their own self-play games end too seldom to fit a model on: 300 games
/// of `brs` at 5,000 nodes were nearly all drawn by the ply limit).
pub const WDL_MCTS: FirstPlaceModel = FirstPlaceModel {
    t: [30.321, 86.535],
};

/// The men on the board as a share of the start's, the models' measure of the phase.
pub fn wdl_material(position: &Position) -> f64 {
    let men: u32 = position.all_men().iter().map(|m| m.count_ones()).sum();
    f64::from(men) / 16.0
}

/// Mentula's choice of search. The default is Monte Carlo tree search: it engages
/// (every game of four such engines from the openings file had a capture, against 28
/// of 100 for Best-Reply Search, which freezes) and holds its own against BRS at
/// equal nodes (protocol-spec/mentula.md, "Engine").
pub const ALGORITHM: OptionSpec = OptionSpec::combo("Algorithm", 2, &["brs", "paranoid", "mcts"]);

/// Mentula is searched by the multi-player searches, chosen by [`ALGORITHM`].
impl Searchable for Position {
    type Search = multi_player::Searcher;
    /// The ladder of benches/README.md ("Strength levels"): groups of four adjacent
    /// levels, 100 games each at 10+0.1, rated by the four-player ratings; level 0 at
    /// 500, the differences made monotone.
    /// The settings space the levels equally between level 0 and full strength
    /// on that measured curve (`scripts/ladder space`).
    const LEVELS: LevelScale = LevelScale {
        // Full strength at 10+0.1 runs about 250,000 simulations a move: the top
        // budget, so that the settings span the strength (at 8,000 most of it lay
        // between setting 19 and full strength).
        nodes: (20, 250_000),
        // From the wide ladder (benches/README.md, "Strength levels").
        settings: [
            0.00, 3.50, 5.14, 6.45, 7.77, 8.85, 9.89, 11.00, 12.33, 16.22, 16.56, 16.90, 17.25,
            17.59, 17.94, 18.28, 18.62, 18.98, 19.31, 19.66, 20.00,
        ],
        elo: [
            500, 528, 557, 585, 614, 642, 670, 699, 727, 756, 784, 812, 841, 869, 898, 926, 954,
            983, 1011, 1040, 1068,
        ],
        unit: 100,
    };
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "YY4RR/YY4RR/8/8/8/8/WW4MM/WW4MM w 0 1",
        "Y7/Y5RR/1Y3R2/1Y6/4R1M1/2W3M1/1W5M/1W5M w 1 3",
    ];
    const BENCH_DEPTH: u32 = 5;
    const ENGINE_OPTIONS: &'static [OptionSpec] = &[ALGORITHM];
    fn new_search(hash_mib: usize) -> Self::Search {
        // Monte Carlo's tree is held to `Hash`, as the other games' tables are.
        multi_player::Searcher::with_memory(multi_player::Algorithm::MonteCarlo, hash_mib)
    }
    fn set_engine_option(
        engine: &mut Self::Search,
        name: &str,
        value: &OptionValue,
    ) -> Result<(), OptionError> {
        let unknown = || OptionError::UnknownEngine {
            game: <Self as crate::game::Game>::NAME,
            name: name.to_string(),
        };
        if !ALGORITHM.is_named(name) {
            return Err(unknown());
        }
        let OptionValue::Number(index) = value else {
            return Err(unknown());
        };
        engine.algorithm = *multi_player::Algorithm::ALL
            .get(*index as usize)
            .ok_or_else(|| {
                OptionError::bad_value(ALGORITHM.name, &index.to_string(), "brs, paranoid, mcts")
            })?;
        Ok(())
    }
    fn chances_at(engine: &Self::Search, position: &Self, _limits: &Limits) -> Chances {
        Chances::FirstPlace {
            model: WDL_MCTS,
            material: wdl_material(position),
            from_evaluations: engine.algorithm != multi_player::Algorithm::MonteCarlo,
        }
    }
    fn think(
        engine: &mut Self::Search,
        position: &mut Self,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Move> {
        engine.search(position, limits, report)
    }
}

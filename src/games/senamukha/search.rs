//! The Sena-Mukha engine: the two-player alpha-beta search, evaluating with the
//! hand-written evaluation (`eval`) or with a network (`nnue`).
//!
//! `Use NNUE` evaluates with a network: the one built into the binary, or the one in
//! the file `EvalFile` names (`ludus train` writes them). A file is read and checked
//! when the option is set, so that a wrong one is refused then, with what is wrong, and
//! the engine keeps what it had. A search tells once which evaluation it uses (`info
//! string evaluation: ...`), and again whenever that changes. The built-in network is
//! the default: it won its matches against the hand-written evaluation
//! (protocol-spec/nnue.md, "Where it stands"); `Use NNUE` off brings that one back.

use std::sync::Arc;

use super::eval::{WEIGHTS, features, quiet, weight_names, weights_source};
use super::nnue::embedded;
use super::nnue::network::Network;
use super::position::{Move, Position};
use crate::game::{Game, OptionError};
use crate::options::OptionSpec;
use crate::search::skill::LevelScale;
use crate::search::two_player::Searcher;
use crate::search::{Chances, Info, Limits, MemoryError, OptionValue, SearchResult, Searchable};

pub const EVAL_FILE: OptionSpec = OptionSpec::path("EvalFile");

pub const USE_NNUE: OptionSpec = OptionSpec::check("Use NNUE", true);

pub struct SenaMukhaSearch {
    searcher: Searcher<Move>,
    /// The network read from `EvalFile`, with the file's name as given (none: the
    /// built-in network).
    network: Option<(Arc<Network>, String)>,
    use_nnue: bool,
    /// What the last search told of its evaluation: at first the default's, so that
    /// a search tells only when its evaluation is not the default, or changed.
    told: String,
}

impl SenaMukhaSearch {
    /// The network the next search evaluates with (none: the hand-written
    /// evaluation), and what to tell of it.
    fn evaluation(&self) -> (Option<Arc<Network>>, String) {
        match (&self.network, self.use_nnue) {
            (_, false) => (None, "evaluation: hand-written".to_string()),
            (Some((network, file)), true) => (
                Some(network.clone()),
                format!(
                    "evaluation: network of {} hidden from {file}",
                    network.hidden()
                ),
            ),
            (None, true) => {
                let network = embedded::network();
                let told = format!(
                    "evaluation: built-in network of {} hidden",
                    network.hidden()
                );
                (Some(network), told)
            }
        }
    }
}

/// Sena-Mukha is searched by the two-player alpha-beta.
impl Searchable for Position {
    type Search = SenaMukhaSearch;
    /// Provisional Elo (100 a level) until the game's ladder has run (benches/README.md,
    /// "Strength levels").
    const LEVELS: LevelScale = LevelScale {
        nodes: (40, 50_000),
        settings: crate::search::skill::UNSPACED,
        elo: [
            500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900,
            2000, 2100, 2200, 2300, 2400, 2500,
        ],
        unit: 100,
    };
    /// The start, an opening, and the positions before the mating moves of the seed's
    /// first two games and of the side line of its third.
    const BENCH_POSITIONS: &'static [&'static str] = &[
        super::fen::START,
        "3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2",
        "11/3ppp1p3/8r2/3pkp1p2p/p3n6/2e1Pe5/7K1P1/P2P3P2P/4P6/4PP1P3/6r4 b - - 0 73",
        "11/3pp3R2/3e6k/1p1p4E2/9pp/p10/3P4P2/PP1P5PP/11/3PP1PP3/1K9 w - - 1 89",
        "2e3r4/3ppppp3/nrn1n1n1nr1/ppp3ppppp/3p1n1k3/3Np6/7PE2/PPPPP1N1PPP/1RN1NKN2R1/3PPPPP3/4R6 w - - 1 33",
    ];
    const BENCH_DEPTH: u32 = 7;
    const ENGINE_OPTIONS: &'static [OptionSpec] = &[EVAL_FILE, USE_NNUE];

    fn new_search(hash_mib: usize) -> SenaMukhaSearch {
        let mut engine = SenaMukhaSearch {
            searcher: Searcher::new(hash_mib),
            network: None,
            use_nnue: USE_NNUE.default_number() == 1,
            told: String::new(),
        };
        engine.told = engine.evaluation().1;
        engine
    }
    fn prepare(engine: &mut SenaMukhaSearch) -> Result<(), MemoryError> {
        engine.searcher.prepare()
    }
    fn clear(engine: &mut SenaMukhaSearch) {
        engine.searcher.clear()
    }
    fn set_threads(engine: &mut SenaMukhaSearch, threads: usize) {
        engine.searcher.set_threads(threads)
    }
    fn set_engine_option(
        engine: &mut SenaMukhaSearch,
        name: &str,
        value: &OptionValue,
    ) -> Result<(), OptionError> {
        match value {
            OptionValue::Path(path) if EVAL_FILE.is_named(name) => {
                engine.network = match path {
                    Some(path) => {
                        let file = path.display().to_string();
                        let network = Network::read(path)
                            .map_err(|e| OptionError::unusable(EVAL_FILE.name, &file, e))?;
                        Some((Arc::new(network), file))
                    }
                    None => None,
                };
                Ok(())
            }
            OptionValue::Check(on) if USE_NNUE.is_named(name) => {
                engine.use_nnue = *on;
                Ok(())
            }
            _ => Err(OptionError::UnknownEngine {
                game: Self::NAME,
                name: name.to_string(),
            }),
        }
    }
    fn tuning() -> Option<crate::learning::tuning::Terms<Self>> {
        Some(crate::learning::tuning::Terms {
            names: weight_names(),
            weights: &WEIGHTS,
            frozen: super::eval::FROZEN,
            features: |position| features(position).to_vec(),
            quiet,
            source: weights_source,
        })
    }
    fn tree_stats(engine: &SenaMukhaSearch) -> Option<crate::search::TreeStats> {
        Some(engine.searcher.tree_stats())
    }
    fn chances_at(_engine: &SenaMukhaSearch, position: &Self, _limits: &Limits) -> Chances {
        Chances::Logistic {
            model: super::eval::WDL_MODEL,
            material: super::eval::wdl_material(position),
            exact: false,
        }
    }
    fn think(
        engine: &mut SenaMukhaSearch,
        position: &mut Self,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<Move> {
        let (network, told) = engine.evaluation();
        if engine.told != told {
            limits.note(&told);
            engine.told = told;
        }
        // The network's accumulators live in the position the search plays on; they
        // are made here and dropped after, so the caller's position is as it was.
        position.use_network(network);
        let result = engine.searcher.search(position, limits, report);
        position.use_network(None);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;
    use crate::search::depth_noting;

    fn set(
        engine: &mut SenaMukhaSearch,
        option: &OptionSpec,
        value: &str,
    ) -> Result<(), OptionError> {
        let value = option.parse(value)?;
        Position::set_engine_option(engine, option.name, &value)
    }

    /// The score of a search of `fen` from an empty table.
    fn score(engine: &mut SenaMukhaSearch, fen: &str, limits: &Limits) -> Score {
        Position::clear(engine);
        let mut position = Position::from_fen(fen).unwrap();
        let result = Position::think(engine, &mut position, limits, &mut |_| {});
        assert!(!position.uses_network(), "left attached");
        result.info.scores[0]
    }

    /// A fresh engine evaluates with the built-in network without saying so; `Use
    /// NNUE` off brings the hand-written evaluation back, and says so, as does on again.
    #[test]
    fn the_built_in_network_is_the_default() {
        let fen = super::super::fen::START;
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        let limits = depth_noting(3, &told);
        let mut engine = Position::new_search(1);
        let by_default = score(&mut engine, fen, &limits);
        score(&mut engine, fen, &limits);

        let mut searcher = Searcher::new(1);
        let mut position = Position::from_fen(fen).unwrap();
        position.use_network(Some(embedded::network()));
        let with_built_in = searcher.search(&mut position, &limits, |_| {});
        assert_eq!(by_default, with_built_in.info.scores[0]);

        set(&mut engine, &USE_NNUE, "false").unwrap();
        let hand_written = score(&mut engine, fen, &limits);
        let mut searcher = Searcher::new(1);
        let mut position = Position::from_fen(fen).unwrap();
        let by_hand = searcher.search(&mut position, &limits, |_| {});
        assert_eq!(hand_written, by_hand.info.scores[0]);
        assert_ne!(hand_written, by_default, "the default is not the network");
        set(&mut engine, &USE_NNUE, "true").unwrap();
        assert_eq!(score(&mut engine, fen, &limits), by_default);

        let told = told.lock().unwrap();
        let built_in = format!(
            "evaluation: built-in network of {} hidden",
            embedded::network().hidden()
        );
        assert_eq!(*told, ["evaluation: hand-written", built_in.as_str()]);
    }

    /// A network from `EvalFile` is what the search evaluates with while `Use NNUE` is
    /// on: a search of depth 1 scores the position as the network does after the best
    /// reply to each move, and off again, the hand-written evaluation is back.
    #[test]
    fn eval_file_and_use_nnue_choose_the_evaluation() {
        let dir = std::env::temp_dir().join(format!("ludus-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("small.nnue");
        let network = super::super::nnue::tests::grown_network(32, 8, 7).quantise();
        std::fs::write(&file, network.to_bytes()).unwrap();
        let fen = "3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/2Nn7/11/11/PPPPP1PPPPP/1RNENKNENRN/3PPPPP3/3NRNEN3 b - - 3 2";
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        let limits = depth_noting(3, &told);

        let mut engine = Position::new_search(1);
        set(&mut engine, &USE_NNUE, "false").unwrap();
        let hand_written = score(&mut engine, fen, &limits);
        set(&mut engine, &EVAL_FILE, file.to_str().unwrap()).unwrap();
        // The file alone changes nothing while Use NNUE is off.
        assert_eq!(score(&mut engine, fen, &limits), hand_written);
        set(&mut engine, &USE_NNUE, "true").unwrap();
        let with_network = score(&mut engine, fen, &limits);
        // The same search with the network attached by hand gives the same score.
        let mut searcher = Searcher::new(1);
        let mut position = Position::from_fen(fen).unwrap();
        position.use_network(Some(Arc::new(network)));
        let by_hand = searcher.search(&mut position, &limits, |_| {});
        assert_eq!(with_network, by_hand.info.scores[0]);
        assert_ne!(with_network, hand_written, "the network changed nothing");
        set(&mut engine, &USE_NNUE, "false").unwrap();
        assert_eq!(score(&mut engine, fen, &limits), hand_written);
        std::fs::remove_dir_all(&dir).unwrap();

        let told = told.lock().unwrap();
        assert_eq!(told.len(), 3, "{told:?}");
        assert_eq!(told[0], "evaluation: hand-written");
        assert!(
            told[1].starts_with("evaluation: network of 32 hidden from ")
                && told[1].ends_with("small.nnue"),
            "{told:?}"
        );
        assert_eq!(told[2], "evaluation: hand-written");
    }

    /// A file that is no network is refused with what is wrong with it, and the engine
    /// keeps the network it had; Use NNUE without a file evaluates with the built-in
    /// network.
    #[test]
    fn a_wrong_eval_file_is_refused_and_the_engine_keeps_its_network() {
        let dir = std::env::temp_dir().join(format!("ludus-badeval-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut engine = Position::new_search(1);
        set(&mut engine, &USE_NNUE, "false").unwrap();
        let told = Arc::new(std::sync::Mutex::new(Vec::new()));
        score(
            &mut engine,
            super::super::fen::START,
            &depth_noting(1, &told),
        );
        set(&mut engine, &USE_NNUE, "true").unwrap();
        score(
            &mut engine,
            super::super::fen::START,
            &depth_noting(1, &told),
        );
        assert_eq!(
            told.lock().unwrap()[1],
            format!(
                "evaluation: built-in network of {} hidden",
                embedded::network().hidden()
            )
        );

        let good = dir.join("good.nnue");
        std::fs::write(
            &good,
            super::super::nnue::tests::grown_network(32, 8, 3)
                .quantise()
                .to_bytes(),
        )
        .unwrap();
        set(&mut engine, &EVAL_FILE, good.to_str().unwrap()).unwrap();
        let damaged = dir.join("damaged.nnue");
        let mut bytes = std::fs::read(&good).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 0x40;
        std::fs::write(&damaged, bytes).unwrap();
        let error = set(&mut engine, &EVAL_FILE, damaged.to_str().unwrap()).unwrap_err();
        assert!(
            error.to_string().starts_with("EvalFile \"")
                && error.to_string().ends_with(
                    "cannot be used: the network's weights do not match its checksum: the file is damaged"
                ),
            "{error}"
        );
        let missing = dir.join("missing.nnue");
        let error = set(&mut engine, &EVAL_FILE, missing.to_str().unwrap()).unwrap_err();
        assert!(
            error.to_string().contains("the file cannot be read"),
            "{error}"
        );
        assert!(set(&mut engine, &USE_NNUE, "yes").is_err());
        // Still the good network, still on.
        let (network, _) = engine.evaluation();
        assert_eq!(network.unwrap().hidden(), 32);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

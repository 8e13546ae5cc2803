//! `ludus._native`: the rules of ludus's games in the Python process (wrapped by
//! `ludus.rules`), and the engine's command line (run by `ludus._engine`, the `ludus`
//! that `pip install` puts on the PATH). The same game code as the engine's: a
//! position here is the engine's own game table, so the two cannot disagree.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};

use ludus::engine::{AnyGame, GameError, new_game};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

/// A refusal, raised as the engine's are: `ludus.EngineError(message, request)`.
fn refusal(py: Python<'_>, message: String, request: String) -> PyErr {
    let made = py
        .import("ludus._types")
        .and_then(|types| types.getattr("EngineError"))
        .and_then(|class| class.call1((message.clone(), request)));
    match made {
        Ok(error) => PyErr::from_value(error),
        Err(e) => e,
    }
}

fn refused<T>(
    py: Python<'_>,
    result: Result<T, GameError>,
    request: impl FnOnce() -> String,
) -> PyResult<T> {
    result.map_err(|e| refusal(py, e.to_string(), request()))
}

/// One game's position and the moves played from it.
#[pyclass(module = "ludus._native")]
struct Position {
    // A lock for Python's threads (a count runs without the GIL).
    table: Mutex<Box<dyn AnyGame>>,
}

/// The table's memory for a search it never makes (the smallest `Hash`).
const NO_SEARCH_MIB: usize = 1;

impl Position {
    fn game(&self) -> MutexGuard<'_, Box<dyn AnyGame>> {
        // A panic in the rules would be a bug; the table stays usable all the same.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (game, fen=None))]
    fn new(py: Python<'_>, game: &str, fen: Option<&str>) -> PyResult<Position> {
        let Some(mut table) = new_game(game, NO_SEARCH_MIB) else {
            let known = ludus::games::NAMES.join(", ");
            return Err(refusal(
                py,
                format!("unknown game: {game} (the games are {known})"),
                format!("game {game}"),
            ));
        };
        if fen.is_some() {
            refused(py, table.set_position(fen, &[]), || {
                format!("position fen {}", fen.unwrap_or(""))
            })?;
        }
        Ok(Position {
            table: Mutex::new(table),
        })
    }

    /// The game's name.
    #[getter(game)]
    fn game_name(&self) -> &'static str {
        self.game().name()
    }

    /// The players in turn order.
    #[getter]
    fn players(&self) -> Vec<&'static str> {
        self.game().players().to_vec()
    }

    /// A tuple, made once here (Python's own copy from a list doubled the call's time).
    #[pyo3(signature = (notation=None))]
    fn legal_moves<'py>(
        &self,
        py: Python<'py>,
        notation: Option<&str>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // Each move's Python string made from one buffer: a Rust string a move was a
        // third of the call.
        let mut texts = Vec::with_capacity(64);
        let listed = self
            .game()
            .for_each_legal_move(notation, &mut |text| texts.push(PyString::new(py, text)));
        refused(py, listed, || {
            format!("legal_moves {}", notation.unwrap_or(""))
        })?;
        PyTuple::new(py, texts)
    }

    fn legal_places(&self) -> Vec<(String, Vec<String>)> {
        self.game().legal_places()
    }

    /// Plays a move in any notation the game reads; returns it in canonical notation.
    fn play(&mut self, py: Python<'_>, text: &str) -> PyResult<String> {
        refused(py, self.game().play(text), || format!("play {text}"))
    }

    /// The move in canonical notation (it must be legal here).
    fn canonical(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        refused(py, self.game().canonical_move(text), || {
            format!("canonical {text}")
        })
    }

    /// A legal move written in `notation`.
    fn move_text(&self, py: Python<'_>, text: &str, notation: &str) -> PyResult<String> {
        let request = || format!("move_text {text} {notation}");
        let canonical = refused(py, self.game().canonical_move(text), request)?;
        let all = refused(py, self.game().legal_moves(None), request)?;
        let written = refused(py, self.game().legal_moves(Some(notation)), request)?;
        // Both lists are the legal moves in one order.
        let at = all.iter().position(|m| *m == canonical);
        match at.and_then(|k| written.get(k)) {
            Some(found) => Ok(found.clone()),
            None => Err(refusal(py, format!("illegal move: {text}"), request())),
        }
    }

    #[pyo3(signature = (count=1))]
    fn undo(&mut self, py: Python<'_>, count: usize) -> PyResult<()> {
        refused(py, self.game().undo(count), || format!("undo {count}"))
    }

    #[pyo3(signature = (form=None))]
    fn fen(&self, py: Python<'_>, form: Option<&str>) -> PyResult<String> {
        match form {
            None => Ok(self.game().fen()),
            Some(form) => refused(py, self.game().fen_in(form), || format!("fen {form}")),
        }
    }

    /// The player to move, or None once the game is over.
    fn to_move(&self) -> Option<String> {
        let game = self.game();
        (!game.is_over()).then(|| game.to_move())
    }

    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    /// The status line, as the engine's `status` writes it.
    fn status(&self) -> String {
        self.game().status()
    }

    fn text(&self) -> String {
        self.game().diagram()
    }

    #[pyo3(signature = (*layers))]
    fn svg(&self, py: Python<'_>, layers: &Bound<'_, PyTuple>) -> PyResult<String> {
        let layers: Vec<String> = layers.extract()?;
        let names: Vec<&str> = layers.iter().map(String::as_str).collect();
        refused(py, self.game().diagram_svg(&names), || {
            format!("diagram svg {}", layers.join(" "))
        })
    }

    /// The leaves of the legal move tree `depth` plies deep, counted without the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let never = AtomicBool::new(false);
        let table = &self.table;
        let count = py.detach(|| {
            let game = table.lock().unwrap_or_else(|e| e.into_inner());
            game.perft(depth, &never)
        });
        count.ok_or_else(|| refusal(py, "the count failed".into(), format!("perft {depth}")))
    }

    #[pyo3(signature = (notation=None))]
    fn record(&self, py: Python<'_>, notation: Option<&str>) -> PyResult<String> {
        refused(py, self.game().record(notation), || {
            format!("record {}", notation.unwrap_or(""))
        })
    }

    fn load_record(&mut self, py: Python<'_>, text: &str) -> PyResult<()> {
        refused(py, self.game().load_record(text), || {
            "load_record".to_string()
        })
    }

    /// Sets a rule option (`n-move-rule`, `scoring`, ...); the position starts again.
    fn set_rule(&mut self, py: Python<'_>, name: &str, value: &str) -> PyResult<()> {
        refused(py, self.game().set_rule(name, value), || {
            format!("setoption name {name} value {value}")
        })
    }

    /// A position of its own with the same moves.
    fn copy(&self, py: Python<'_>) -> PyResult<Position> {
        let copy = Position::new(py, self.game().name(), None)?;
        let record = refused(py, self.game().record(None), || "copy".to_string())?;
        let loaded = copy.game().load_record(&record);
        refused(py, loaded, || "copy".to_string())?;
        Ok(copy)
    }
}

/// Runs ludus's command line (`args`, the program's name first) in this process, to
/// its end: the exit status. Without the GIL, so that Python's other threads run.
#[pyfunction]
fn engine_main(py: Python<'_>, args: Vec<String>) -> u8 {
    py.detach(|| ludus::cli::main(args.into_iter().map(Into::into)))
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Position>()?;
    module.add_function(wrap_pyfunction!(engine_main, module)?)?;
    Ok(())
}

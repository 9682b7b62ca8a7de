//! `perfectplay._core.connect4`: moves are columns 0..W-1; answers for the side to move.

use crate::engine::driver::{self, AsGiven, Game, Player};
use crate::engine::error::{Error, Result as CoreResult};
use crate::engine::random::play;
use crate::games::connect4::book::{Books, OwnedBooks};
use crate::games::connect4::search::{self, Solver, Tables};
use crate::games::connect4::{self as game, Position, Shape};
use crate::py::batch::{detached, random_rows, rows_arg, shaped, solve_batch};
use crate::py::convert::{
    Names, err, search_detached, to_analysis, to_item, to_solution, type_name,
};
use crate::py::options::Options;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple};

register_functions!(
    solve,
    analyze,
    best_move,
    best_moves,
    value,
    score,
    is_reachable,
    batch_solve,
    clear_tables,
    random_positions
);

const NAMES: Names<fn(u8) -> u8> = Names {
    players: ["x", "o"],
    to_move: |col| col,
};

/// A checked call: the position on its board, the node limit, the table size, the books and
/// the threads.
struct Call {
    shape: Shape,
    position: Position,
    node_limit: Option<u64>,
    table_bytes: usize,
    books: BookChoice,
    threads: usize,
}

/// The books a call reads: none, or a book's columns copied into the core.
enum BookChoice {
    None,
    Copied(Py<BookCopy>),
}

impl BookChoice {
    fn books(&self) -> Books<'_> {
        match self {
            BookChoice::None => Books::default(),
            BookChoice::Copied(copy) => copy.get().books.books(),
        }
    }
}

/// A `perfectplay.connect4.openings.Book`'s columns copied once into the core and kept on the
/// book (`_core_copy`), with the arrays they came from: a book whose arrays were replaced is
/// copied again.
#[pyclass(frozen)]
struct BookCopy {
    books: OwnedBooks,
    from: Vec<Py<PyAny>>,
}

const COPY: &str = "_core_copy";

/// The arrays of a book (its keys and scores, then its 12-ply book's codes and scores).
fn book_arrays<'py>(book: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut arrays = vec![book.getattr("keys")?, book.getattr("scores")?];
    let deep = book.getattr("deep")?;
    if !deep.is_none() {
        arrays.extend([deep.getattr("codes")?, deep.getattr("scores")?]);
    }
    Ok(arrays)
}

fn column<T: numpy::Element + Copy>(array: &Bound<'_, PyAny>) -> PyResult<Vec<T>> {
    Ok(array.extract::<PyReadonlyArray1<T>>()?.as_slice()?.to_vec())
}

/// The core's copy of a book's columns.
fn copy_of(book: &Bound<'_, PyAny>) -> PyResult<Py<BookCopy>> {
    let py = book.py();
    let arrays = book_arrays(book)?;
    if let Ok(kept) = book.getattr(COPY)
        && let Ok(kept) = kept.cast_into::<BookCopy>()
        && kept.get().from.len() == arrays.len()
        && kept
            .get()
            .from
            .iter()
            .zip(&arrays)
            .all(|(from, array)| from.is(array))
    {
        return Ok(kept.unbind());
    }
    let (keys, scores) = (column::<u64>(&arrays[0])?, column::<i8>(&arrays[1])?);
    let deep = match &arrays[2..] {
        [codes, deep_scores] => Some((column::<i32>(codes)?, column::<i8>(deep_scores)?)),
        _ => None,
    };
    if keys.len() != scores.len() || deep.as_ref().is_some_and(|(c, s)| c.len() != s.len()) {
        return Err(PyValueError::new_err(
            "the book's keys (or codes) and scores differ in length",
        ));
    }
    let books = OwnedBooks {
        keys,
        scores,
        depth: book.getattr("depth")?.extract()?,
        deep,
    };
    let from = arrays.into_iter().map(Bound::unbind).collect();
    let copy = Py::new(py, BookCopy { books, from })?;
    // Kept for the next call where the book takes attributes (a book that does not is copied
    // at every call, and still answers).
    if let Err(error) = book.setattr(COPY, &copy)
        && !error.is_instance_of::<pyo3::exceptions::PyException>(py)
    {
        return Err(error);
    }
    Ok(copy)
}

const BOOK_FORMS: &str = "book must be 'packaged', None or a perfectplay.openings.Book";
/// `book=`'s default: the packaged books.
const PACKAGED_NAME: &str = "packaged";

/// The packaged books on 7x6 (found, read and checked by
/// `perfectplay.connect4.openings.packaged()`, copied once a process), none on other sizes.
fn packaged_for(py: Python<'_>, shape: &Shape) -> PyResult<BookChoice> {
    static PACKAGED: PyOnceLock<Py<BookCopy>> = PyOnceLock::new();
    if (shape.width, shape.height) != (game::DEFAULT.0 as u32, game::DEFAULT.1 as u32) {
        return Ok(BookChoice::None);
    }
    let copy = PACKAGED.get_or_try_init(py, || {
        let book = py
            .import("perfectplay.connect4.openings")?
            .call_method0("packaged")?;
        if book.getattr("deep")?.is_none() {
            return Err(PyValueError::new_err(
                "the packaged book has no 12-ply book",
            ));
        }
        copy_of(&book)
    })?;
    Ok(BookChoice::Copied(copy.clone_ref(py)))
}

/// `book=`: not given or `'packaged'` (the packaged 7x6 book and the 12-ply book, on 7x6;
/// nothing on other sizes), None, or a book of the board's size.
fn book_arg(
    py: Python<'_>,
    book: Option<&Bound<'_, PyAny>>,
    shape: &Shape,
) -> PyResult<BookChoice> {
    let Some(book) = book else {
        return packaged_for(py, shape);
    };
    if book.is_none() {
        return Ok(BookChoice::None);
    }
    if let Ok(name) = book.cast::<PyString>() {
        if name.to_string_lossy() != PACKAGED_NAME {
            return Err(PyValueError::new_err(format!(
                "{BOOK_FORMS}, not {}",
                name.repr()?
            )));
        }
        return packaged_for(py, shape);
    }
    for field in ["width", "height", "depth", "keys", "scores", "deep"] {
        if !book.hasattr(field)? {
            return Err(PyTypeError::new_err(format!(
                "{BOOK_FORMS}, not {}",
                type_name(book)
            )));
        }
    }
    let size: (u32, u32) = (
        book.getattr("width")?.extract()?,
        book.getattr("height")?.extract()?,
    );
    if size != (shape.width, shape.height) {
        return Err(PyValueError::new_err(format!(
            "the book is for {}x{} boards, not {}x{}",
            size.0, size.1, shape.width, shape.height
        )));
    }
    Ok(BookChoice::Copied(copy_of(book)?))
}

/// The board size of the options, or 7x6.
fn shape_of(options: &Options<'_>) -> PyResult<Shape> {
    Shape::new(
        options.width.unwrap_or(game::DEFAULT.0),
        options.height.unwrap_or(game::DEFAULT.1),
    )
    .map_err(err)
}

impl Call {
    fn new(position: &Bound<'_, PyAny>, options: &Options<'_>) -> PyResult<Call> {
        let py = position.py();
        let size = (options.width, options.height);
        let (shape, position) = game::parse_position(&to_item(position)?, size).map_err(err)?;
        let table_bytes = options
            .table_bytes
            .unwrap_or_else(|| search::default_table_bytes(&shape));
        let books = book_arg(py, options.book.as_ref(), &shape)?;
        Ok(Call {
            shape,
            position,
            node_limit: options.node_limit,
            table_bytes,
            books,
            threads: options.threads(),
        })
    }

    /// Runs `work` on the rules and the solver, without the GIL.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Game<Shape, Solver>, &Position) -> CoreResult<T> + Send,
    ) -> PyResult<T> {
        let books = self.books.books();
        search_detached(py, self.node_limit, |budget| {
            search::with_kept_tables(&self.shape, self.table_bytes, |tables| {
                let mut solver = Solver::new(&self.shape, tables, budget, books, self.threads);
                let mut game = Game {
                    rules: &self.shape,
                    answers: &mut solver,
                };
                work(&mut game, &self.position)
            })
        })
    }

    fn to_move(&self) -> Player {
        if self.position.moves % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// The options of a function of one position.
const POSITION: &[&str] = &[
    "width",
    "height",
    "node_limit",
    "table_mb",
    "book",
    "threads",
];

binding! {
    /// Solves a Connect Four position: value, winner, plies, every best column and one optimal
    /// line, for the side to move.
    fn solve(py, position: &Bound<'py, PyAny>; options = POSITION) -> Bound<'py, PyAny> {
        let call = Call::new(position, &options)?;
        let to_move = call.to_move();
        let solution = call.run(py, |game, root| {
            Ok(driver::solve(game, root, to_move, &AsGiven)?)
        })?;
        to_solution(py, solution, &NAMES)
    }
}

binding! {
    /// {column: (value for the player making the move, plies from now with it)} for every legal
    /// column.
    fn analyze(py, position: &Bound<'py, PyAny>; options = POSITION) -> Bound<'py, PyDict> {
        let call = Call::new(position, &options)?;
        let answers = call.run(py, |game, root| Ok(driver::analyze(game, root, &AsGiven)?))?;
        to_analysis(py, answers, &NAMES)
    }
}

binding! {
    /// The first best column, or None once the game is over.
    fn best_move(py, position: &Bound<'py, PyAny>; options = POSITION) -> Option<u8> {
        let call = Call::new(position, &options)?;
        call.run(py, |game, root| Ok(driver::best_move(game, root, &AsGiven)?))
    }
}

binding! {
    /// Every best column, ascending (none once the game is over): `solve`'s best moves without
    /// its line, so cheaper early in a game.
    fn best_moves(py, position: &Bound<'py, PyAny>; options = POSITION) -> Bound<'py, PyTuple> {
        let call = Call::new(position, &options)?;
        let columns = call.run(py, |game, root| Ok(driver::best_moves(game, root, &AsGiven)?))?;
        PyTuple::new(py, columns)
    }
}

binding! {
    /// +1 the side to move wins, 0 draw, -1 it loses (a weak solve: faster than the score).
    fn value(py, position: &Bound<'py, PyAny>; options = POSITION) -> i8 {
        let call = Call::new(position, &options)?;
        Ok(pons_of(py, &call, true)?.signum() as i8)
    }
}

binding! {
    /// Pons' score of the position (see the module's documentation); ``weak=True`` only its
    /// sign, as his solver's ``-w`` gives it (a win at once keeps its exact score).
    fn score(py, position: &Bound<'py, PyAny>; options = &[POSITION, &["weak"]].concat()) -> i32 {
        let call = Call::new(position, &options)?;
        pons_of(py, &call, options.weak)
    }
}

/// Pons' score of a call's position; a game that is over scores as its loss or draw.
fn pons_of(py: Python<'_>, call: &Call, weak: bool) -> PyResult<i32> {
    if let Some(score) = game::finished_score(&call.shape, &call.position) {
        return Ok(score);
    }
    call.run(py, |game, root| Ok(game.answers.pons_score(root, weak)?))
}

binding! {
    /// Can the position arise in play? Raises only for malformed input.
    fn is_reachable(_py, position: &Bound<'py, PyAny>; options = &["width", "height"]) -> bool {
        match game::parse_position(&to_item(position)?, (options.width, options.height)) {
            Ok(_) => Ok(true),
            Err(Error::Illegal(_)) => Ok(false),
            Err(error) => Err(err(error)),
        }
    }
}

/// Forgets what this thread's searches learnt: the next search starts from empty tables (as
/// benchmarks that time each position "from a cleared table" want).
#[pyfunction]
fn clear_tables() {
    search::clear_kept_tables();
}

binding! {
    /// Solves many positions of one board size on every core; see `perfectplay.BatchSolution`.
    /// `best_move`, `best_mask` and the move columns are columns.
    fn batch_solve(py, positions: &Bound<'py, PyAny>; options = BATCH) -> Bound<'py, PyAny> {
        let positions = rows_arg(positions, &[3], "(N, height, width)", "positions")?;
        let size = (options.width, options.height);
        let rows = &positions.rows;
        let (parsed, shape) = detached(py, false, "", |monitor| game::parse_batch(rows, size, monitor))?;
        let shape = match shape {
            Some(shape) => shape,
            None => shape_of(&options)?,
        };
        let table_bytes = options
            .table_bytes
            .unwrap_or_else(|| search::default_table_bytes(&shape));
        let choice = book_arg(py, options.book.as_ref(), &shape)?;
        let books = choice.books();
        let what = format!("connect4 {}x{}", shape.width, shape.height);
        let (cells, moves) = (shape.cells, options.moves);
        solve_batch(
            py,
            parsed,
            shape.width as usize,
            &options,
            &what,
            || Ok(Tables::new(&shape, table_bytes)?),
            |tables, position, budget| {
                let mut solver = Solver::new(&shape, tables, budget, books, 1);
                let mut game = Game {
                    rules: &shape,
                    answers: &mut solver,
                };
                Ok(driver::label(&mut game, position, moves, &AsGiven)?)
            },
            |position| cells - position.moves,
        )
    }
}

/// `batch_solve`'s options.
const RANDOM: &[&str] = &["width", "height", "seed", "plies", "threads"];

/// `batch_solve`'s options.
const BATCH: &[&str] = &[
    "width",
    "height",
    "moves",
    "threads",
    "node_limit",
    "table_mb",
    "book",
    "errors",
    "progress",
];

binding! {
    /// ``n`` positions by uniformly random play from the empty board, ``(n, height, width)``
    /// uint8 codes, top row first.
    fn random_positions(py, n: &Bound<'py, PyAny>; options = RANDOM) -> Bound<'py, PyAny> {
        let shape = shape_of(&options)?;
        let out = random_rows(
            py,
            n,
            &options,
            shape.cells,
            shape.cells as usize,
            |random, plies, codes| {
                let position = play(&shape, &Position::EMPTY, plies, random);
                codes.copy_from_slice(&game::codes_of(&shape, &position));
            },
        )?;
        shaped(
            py,
            out.rows,
            &[out.count, shape.height as usize, shape.width as usize],
        )
    }
}

//! `perfectplay._core.connect4`: moves are columns 0..W-1; answers for the side to move.

use crate::engine::driver::{self, AsGiven, Game, Player};
use crate::engine::error::{Error, Result as CoreResult};
use crate::engine::random::play;
use crate::games::connect4::book::{Book, Books, DeepBook};
use crate::games::connect4::search::{self, Solver, Tables};
use crate::games::connect4::{self as game, Position, Shape};
use crate::py::arrays::Boards;
use crate::py::batch::{
    OnError, Parsed, RandomArgs, errors_arg, read_rows, sequence_items, shaped, solve_batch,
    threads_arg,
};
use crate::py::convert::{
    Names, err, int_arg, node_limit_arg, search_detached, table_mb_arg, to_analysis, to_item,
    to_solution, type_name,
};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArray};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use std::sync::OnceLock;

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

/// The books a call reads: none, the packaged ones (copied once a process), or a given
/// `perfectplay.connect4.openings.Book`.
enum BookChoice {
    None,
    Packaged(&'static OwnedBooks),
    Given(BookColumns),
}

/// The columns of a `perfectplay.connect4.openings.Book` (read-only numpy arrays), held for a call,
/// with those of its 12-ply book when it has one.
struct BookColumns {
    keys: Py<PyArray1<u64>>,
    scores: Py<PyArray1<i8>>,
    depth: u32,
    deep: Option<DeepColumns>,
}

/// The columns of a `perfectplay.connect4.openings.DeepBook`.
struct DeepColumns {
    codes: Py<PyArray1<i32>>,
    scores: Py<PyArray1<i8>>,
}

/// A book's arrays borrowed read-only, for as long as a search reads them.
struct BorrowedBook<'py> {
    keys: PyReadonlyArray1<'py, u64>,
    scores: PyReadonlyArray1<'py, i8>,
    depth: u32,
    deep: Option<BorrowedDeep<'py>>,
}

/// A 12-ply book's arrays borrowed read-only.
struct BorrowedDeep<'py> {
    codes: PyReadonlyArray1<'py, i32>,
    scores: PyReadonlyArray1<'py, i8>,
}

/// The packaged books, copied out of `perfectplay.connect4.openings.packaged()` (which finds, reads and
/// checks them) at the first call that reads them, then shared by every thread.
struct OwnedBooks {
    keys: Vec<u64>,
    scores: Vec<i8>,
    depth: u32,
    codes: Vec<i32>,
    deep_scores: Vec<i8>,
}

static PACKAGED: OnceLock<OwnedBooks> = OnceLock::new();

impl OwnedBooks {
    fn packaged(py: Python<'_>) -> PyResult<&'static OwnedBooks> {
        if let Some(books) = PACKAGED.get() {
            return Ok(books);
        }
        let book = py
            .import("perfectplay.connect4.openings")?
            .call_method0("packaged")?;
        let columns = BookColumns::of(&book)?;
        let borrowed = columns.borrow(py)?;
        let Some(deep) = &borrowed.deep else {
            return Err(PyValueError::new_err(
                "the packaged book has no 12-ply book",
            ));
        };
        let owned = OwnedBooks {
            keys: borrowed.keys.as_slice()?.to_vec(),
            scores: borrowed.scores.as_slice()?.to_vec(),
            depth: borrowed.depth,
            codes: deep.codes.as_slice()?.to_vec(),
            deep_scores: deep.scores.as_slice()?.to_vec(),
        };
        Ok(PACKAGED.get_or_init(|| owned))
    }

    fn books(&self) -> Books<'_> {
        Books {
            opening: Some(Book {
                keys: &self.keys,
                scores: &self.scores,
                depth: self.depth,
            }),
            deep: Some(DeepBook {
                codes: &self.codes,
                scores: &self.deep_scores,
            }),
        }
    }
}

impl BookChoice {
    /// A given book's arrays, borrowed for a search.
    fn borrow<'py>(&self, py: Python<'py>) -> PyResult<Option<BorrowedBook<'py>>> {
        match self {
            BookChoice::Given(columns) => Ok(Some(columns.borrow(py)?)),
            BookChoice::None | BookChoice::Packaged(_) => Ok(None),
        }
    }

    /// The books a search reads (`borrowed`: a given book's arrays).
    fn books<'a>(&self, borrowed: Option<&'a BorrowedBook<'_>>) -> PyResult<Books<'a>> {
        match (self, borrowed) {
            (BookChoice::Packaged(owned), _) => Ok(owned.books()),
            (_, Some(borrowed)) => borrowed.books(),
            _ => Ok(Books::default()),
        }
    }
}

impl BookColumns {
    /// The columns of a `perfectplay.connect4.openings.Book`.
    fn of(book: &Bound<'_, PyAny>) -> PyResult<BookColumns> {
        let keys = book.getattr("keys")?.cast_into::<PyArray1<u64>>()?;
        let scores = book.getattr("scores")?.cast_into::<PyArray1<i8>>()?;
        if keys.len()? != scores.len()? {
            return Err(PyValueError::new_err(
                "the book's keys and scores differ in length",
            ));
        }
        let deep = book.getattr("deep")?;
        let deep = if deep.is_none() {
            None
        } else {
            let codes = deep.getattr("codes")?.cast_into::<PyArray1<i32>>()?;
            let scores = deep.getattr("scores")?.cast_into::<PyArray1<i8>>()?;
            if codes.len()? != scores.len()? {
                return Err(PyValueError::new_err(
                    "the 12-ply book's codes and scores differ in length",
                ));
            }
            Some(DeepColumns {
                codes: codes.unbind(),
                scores: scores.unbind(),
            })
        };
        Ok(BookColumns {
            keys: keys.unbind(),
            scores: scores.unbind(),
            depth: book.getattr("depth")?.extract()?,
            deep,
        })
    }

    fn borrow<'py>(&self, py: Python<'py>) -> PyResult<BorrowedBook<'py>> {
        let deep = match &self.deep {
            Some(deep) => Some(BorrowedDeep {
                codes: deep.codes.bind(py).try_readonly()?,
                scores: deep.scores.bind(py).try_readonly()?,
            }),
            None => None,
        };
        Ok(BorrowedBook {
            keys: self.keys.bind(py).try_readonly()?,
            scores: self.scores.bind(py).try_readonly()?,
            depth: self.depth,
            deep,
        })
    }
}

impl BorrowedBook<'_> {
    fn books(&self) -> PyResult<Books<'_>> {
        let deep = match &self.deep {
            Some(deep) => Some(DeepBook {
                codes: deep.codes.as_slice()?,
                scores: deep.scores.as_slice()?,
            }),
            None => None,
        };
        Ok(Books {
            opening: Some(Book {
                keys: self.keys.as_slice()?,
                scores: self.scores.as_slice()?,
                depth: self.depth,
            }),
            deep,
        })
    }
}

const BOOK_FORMS: &str = "book must be 'packaged', None or a perfectplay.openings.Book";
/// `book=`'s default: the packaged books.
const PACKAGED_NAME: &str = "packaged";

/// `book=` as given: left out (the packaged books), or an object to read.
enum BookParam<'py> {
    Packaged,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for BookParam<'py> {
    type Error = PyErr;

    fn extract(book: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(BookParam::Given(book.to_owned()))
    }
}

/// The packaged books on 7x6, none on other sizes.
fn packaged_for(py: Python<'_>, shape: &Shape) -> PyResult<BookChoice> {
    if (shape.width, shape.height) != (game::DEFAULT.0 as u32, game::DEFAULT.1 as u32) {
        return Ok(BookChoice::None);
    }
    Ok(BookChoice::Packaged(OwnedBooks::packaged(py)?))
}

/// `book=`: `'packaged'` (the default: the packaged 7x6 book and the 12-ply book, on 7x6;
/// nothing on other sizes), None, or a book of the board's size.
fn book_arg(py: Python<'_>, book: &BookParam<'_>, shape: &Shape) -> PyResult<BookChoice> {
    let book = match book {
        BookParam::Packaged => return packaged_for(py, shape),
        BookParam::Given(book) => book,
    };
    if book.is_none() {
        return Ok(BookChoice::None);
    }
    if let Ok(name) = book.cast::<PyString>() {
        if name.to_cow()? != PACKAGED_NAME {
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
    Ok(BookChoice::Given(BookColumns::of(book)?))
}

/// `width=`/`height=`: None or an int.
fn side(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<i128>> {
    value
        .filter(|value| !value.is_none())
        .map(|value| int_arg(value, name))
        .transpose()
}

impl Call {
    fn new(
        position: &Bound<'_, PyAny>,
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        node_limit: Option<&Bound<'_, PyAny>>,
        table_mb: Option<&Bound<'_, PyAny>>,
        book: &BookParam<'_>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Call> {
        let py = position.py();
        let size = (side(width, "width")?, side(height, "height")?);
        let (shape, position) = game::parse_position(&to_item(position)?, size).map_err(err)?;
        let node_limit = node_limit_arg(node_limit)?;
        let table_bytes =
            table_mb_arg(table_mb)?.unwrap_or_else(|| search::default_table_bytes(&shape));
        let books = book_arg(py, book, &shape)?;
        let threads = threads_arg(threads)?;
        Ok(Call {
            shape,
            position,
            node_limit,
            table_bytes,
            books,
            threads,
        })
    }

    /// Runs `work` on the rules and the solver, without the GIL.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Game<Shape, Solver>, &Position) -> CoreResult<T> + Send,
    ) -> PyResult<T> {
        // A given book's arrays stay borrowed (read-only) for the whole search.
        let borrowed = self.books.borrow(py)?;
        let books = self.books.books(borrowed.as_ref())?;
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

/// A function of one position, `(position, *, width=None, height=None, node_limit=None,
/// table_mb=None, book='packaged', threads=None)`: the arguments are checked into `$call`,
/// then `$body` answers.
macro_rules! position_function {
    ($(#[$doc:meta])* fn $name:ident($py:ident, $call:ident) -> $answer:ty $body:block) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(
            signature = (
                position, *, width=None, height=None, node_limit=None, table_mb=None,
                book=BookParam::Packaged, threads=None
            ),
            text_signature = "(position, *, width=None, height=None, node_limit=None, \
                              table_mb=None, book='packaged', threads=None)"
        )]
        #[allow(clippy::too_many_arguments)]
        fn $name<'py>(
            $py: Python<'py>,
            position: &Bound<'py, PyAny>,
            width: Option<&Bound<'py, PyAny>>,
            height: Option<&Bound<'py, PyAny>>,
            node_limit: Option<&Bound<'py, PyAny>>,
            table_mb: Option<&Bound<'py, PyAny>>,
            book: BookParam<'py>,
            threads: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<$answer> {
            let $call = Call::new(position, width, height, node_limit, table_mb, &book, threads)?;
            $body
        }
    };
}

position_function! {
    /// Solves a Connect Four position: value, winner, plies, every best column and one optimal
    /// line, for the side to move.
    fn solve(py, call) -> Bound<'py, PyAny> {
        let to_move = call.to_move();
        let solution = call.run(py, |game, root| {
            Ok(driver::solve(game, root, to_move, &AsGiven)?)
        })?;
        to_solution(py, solution, &NAMES)
    }
}

position_function! {
    /// {column: (value for the player making the move, plies from now with it)} for every legal
    /// column.
    fn analyze(py, call) -> Bound<'py, PyDict> {
        let answers = call.run(py, |game, root| Ok(driver::analyze(game, root, &AsGiven)?))?;
        to_analysis(py, answers, &NAMES)
    }
}

position_function! {
    /// The first best column, or None once the game is over.
    fn best_move(py, call) -> Option<u8> {
        call.run(py, |game, root| Ok(driver::best_move(game, root, &AsGiven)?))
    }
}

position_function! {
    /// Every best column, ascending (none once the game is over): `solve`'s best moves without
    /// its line, so cheaper early in a game.
    fn best_moves(py, call) -> Bound<'py, PyTuple> {
        let columns = call.run(py, |game, root| Ok(driver::best_moves(game, root, &AsGiven)?))?;
        PyTuple::new(py, columns)
    }
}

position_function! {
    /// +1 the side to move wins, 0 draw, -1 it loses (a weak solve: faster than the score).
    fn value(py, call) -> i8 {
        Ok(pons_of(py, &call, true)?.signum() as i8)
    }
}

/// Pons' score of the position (see the module's documentation); ``weak=True`` only its sign,
/// as his solver's ``-w`` gives it (a win at once keeps its exact score).
#[pyfunction]
#[pyo3(
    signature = (
        position, *, weak=false, width=None, height=None, node_limit=None, table_mb=None,
        book=BookParam::Packaged, threads=None
    ),
    text_signature = "(position, *, weak=False, width=None, height=None, node_limit=None, \
                      table_mb=None, book='packaged', threads=None)"
)]
#[allow(clippy::too_many_arguments)]
fn score(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    weak: bool,
    width: Option<&Bound<'_, PyAny>>,
    height: Option<&Bound<'_, PyAny>>,
    node_limit: Option<&Bound<'_, PyAny>>,
    table_mb: Option<&Bound<'_, PyAny>>,
    book: BookParam<'_>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<i32> {
    let call = Call::new(
        position, width, height, node_limit, table_mb, &book, threads,
    )?;
    pons_of(py, &call, weak)
}

/// Pons' score of a call's position; a game that is over scores as its loss or draw.
fn pons_of(py: Python<'_>, call: &Call, weak: bool) -> PyResult<i32> {
    let (shape, position) = (&call.shape, &call.position);
    if position.is_won(shape) || position.moves == shape.cells {
        let over = if position.is_won(shape) {
            crate::engine::score::loss(shape.cells - position.moves)
        } else {
            0
        };
        return Ok(game::pons_score(over));
    }
    call.run(py, |game, root| Ok(game.answers.pons_score(root, weak)?))
}

/// Can the position arise in play? Raises only for malformed input.
#[pyfunction]
#[pyo3(signature = (position, *, width=None, height=None))]
fn is_reachable(
    position: &Bound<'_, PyAny>,
    width: Option<&Bound<'_, PyAny>>,
    height: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let size = (side(width, "width")?, side(height, "height")?);
    match game::parse_position(&to_item(position)?, size) {
        Ok(_) => Ok(true),
        Err(Error::Illegal(_)) => Ok(false),
        Err(error) => Err(err(error)),
    }
}

/// Forgets what this thread's searches learnt: the next search starts from empty tables (as
/// benchmarks that time each position "from a cleared table" want).
#[pyfunction]
fn clear_tables() {
    search::clear_kept_tables();
}

/// Solves many positions of one board size on every core; see `perfectplay.BatchSolution`.
/// `best_move`, `best_mask` and the move columns are columns.
#[pyfunction]
#[pyo3(
    signature = (
        positions, *, width=None, height=None, moves=false, threads=None, node_limit=None,
        table_mb=None, book=BookParam::Packaged, errors=None, progress=false
    ),
    text_signature = "(positions, *, width=None, height=None, moves=False, threads=None, \
                      node_limit=None, table_mb=None, book='packaged', errors=None, \
                      progress=False)"
)]
#[allow(clippy::too_many_arguments)]
fn batch_solve<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    width: Option<&Bound<'py, PyAny>>,
    height: Option<&Bound<'py, PyAny>>,
    moves: bool,
    threads: Option<&Bound<'py, PyAny>>,
    node_limit: Option<&Bound<'py, PyAny>>,
    table_mb: Option<&Bound<'py, PyAny>>,
    book: BookParam<'py>,
    errors: Option<&Bound<'py, PyAny>>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let size = (side(width, "width")?, side(height, "height")?);
    let node_limit = node_limit_arg(node_limit)?;
    let table_mb = table_mb_arg(table_mb)?;
    let threads = threads_arg(threads)?;
    let on_error = errors.map_or(Ok(OnError::Raise), errors_arg)?;
    let (parsed, shape) = read_positions(py, positions, size)?;
    let shape = match shape {
        Some(shape) => shape,
        None => Shape::new(
            size.0.unwrap_or(game::DEFAULT.0),
            size.1.unwrap_or(game::DEFAULT.1),
        )
        .map_err(err)?,
    };
    let table_bytes = table_mb.unwrap_or_else(|| search::default_table_bytes(&shape));
    let choice = book_arg(py, &book, &shape)?;
    let borrowed = choice.borrow(py)?;
    let books = choice.books(borrowed.as_ref())?;
    let what = format!("connect4 {}x{}", shape.width, shape.height);
    let cells = shape.cells;
    solve_batch(
        py,
        parsed,
        shape.width as usize,
        moves,
        threads,
        node_limit,
        on_error,
        progress,
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

/// The positions of a batch, each read once, and its board (the array's, or the first
/// readable position's). An array `(N, height, width)` of codes (top row first) is read in
/// place; a sequence holds positions in any form `solve` takes.
fn read_positions(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    size: (Option<i128>, Option<i128>),
) -> PyResult<(Parsed<Position>, Option<Shape>)> {
    if let Ok(array) = positions.cast::<PyUntypedArray>() {
        let array = Boards::new(array, false, &[3], "(N, height, width)", "positions")?;
        let (height, width) = (array.board[0] as i128, array.board[1] as i128);
        for (name, given, actual) in [("width", size.0, width), ("height", size.1, height)] {
            if let Some(given) = given
                && given != actual
            {
                return Err(PyValueError::new_err(format!(
                    "the boards are {width} wide and {height} high, but {name}={given} was given"
                )));
            }
        }
        let shape = Shape::new(width, height).map_err(err)?;
        let mut codes = vec![0u8; shape.cells as usize];
        let parsed = read_rows(py, &array.reader(), shape.cells as usize, |cells| {
            codes_from(cells, &mut codes).and_then(|()| game::from_cells(&shape, &codes))
        })?;
        return Ok((parsed, Some(shape)));
    }
    let items = sequence_items(positions, "positions")?;
    let mut parsed = Parsed::with_capacity(items.len())?;
    let mut shape: Option<Shape> = None;
    for item in &items {
        let row = to_item(item).and_then(|item| {
            let (this, position) = game::parse_position(&item, size).map_err(err)?;
            let shape = shape.get_or_insert_with(|| this.clone());
            if (this.width, this.height) != (shape.width, shape.height) {
                return Err(PyValueError::new_err(format!(
                    "the board is {}x{}, not {}x{} as the batch",
                    this.width, this.height, shape.width, shape.height
                )));
            }
            Ok(position)
        });
        parsed.push(row);
    }
    Ok((parsed, shape))
}

/// The codes of a row of cell values, or why they are none.
fn codes_from(cells: &[i64], codes: &mut [u8]) -> CoreResult<()> {
    for (slot, &value) in codes.iter_mut().zip(cells) {
        *slot = match value {
            0..=2 => value as u8,
            _ => {
                return Err(Error::Malformed(format!(
                    "cell value {value} is not 0, 1 or 2"
                )));
            }
        };
    }
    Ok(())
}

/// ``n`` positions by uniformly random play from the empty board, ``(n, height, width)``
/// uint8 codes, top row first.
#[pyfunction]
#[pyo3(signature = (n, *, width=None, height=None, seed=None, plies=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn random_positions<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    width: Option<&Bound<'py, PyAny>>,
    height: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    plies: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = Shape::new(
        side(width, "width")?.unwrap_or(game::DEFAULT.0),
        side(height, "height")?.unwrap_or(game::DEFAULT.1),
    )
    .map_err(err)?;
    let args = RandomArgs::new(n, seed, plies, shape.cells)?;
    let threads = threads_arg(threads)?;
    let out = args.fill(py, shape.cells as usize, threads, |random, plies, codes| {
        let position = play(&shape, &Position::EMPTY, plies, random);
        codes.copy_from_slice(&game::codes_of(&shape, &position));
    })?;
    shaped(
        py,
        out,
        &[args.count, shape.height as usize, shape.width as usize],
    )
}

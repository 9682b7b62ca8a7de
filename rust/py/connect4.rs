//! `perfectplay._core.connect4`: moves are columns 0..W-1; answers for the side to move.

use crate::engine::budget::Budget;
use crate::engine::error::{Error, Result as CoreResult};
use crate::engine::pool::Monitor;
use crate::games::connect4::book::{Books, OwnedBooks};
use crate::games::connect4::call::{self, BATCH, Call, POSITION};
use crate::games::connect4::{DEFAULT, Shape, parse_position, search};
use crate::py::batch::{labelled, released, rows_arg, shaped};
use crate::py::convert::{Names, err, search_detached, to_item};
use crate::py::options::{Options, to_scalar};
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple};

/// `work` on the call of a position, with its books, without the GIL.
fn answer<T: Send>(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    options: &Options<'_>,
    work: impl FnOnce(&Call, Books<'_>, &mut Budget) -> CoreResult<T> + Send,
) -> PyResult<T> {
    let call = Call::new(&to_item(position)?, options).map_err(err)?;
    let choice = book_arg(py, options.book.as_ref(), &call.shape)?;
    let books = books_of(&choice);
    search_detached(py, call.node_limit, |budget| work(&call, books, budget))
}

bindings! {
    /// Solves a Connect Four position: value, winner, plies, every best column and one optimal
    /// line, for the side to move.
    fn solve(py, position; options = POSITION) -> Bound<'py, PyAny> {
        Names::X_O.solution(py, answer(py, position, &options, Call::solve)?)
    }

    /// {column: (value for the player making the move, plies from now with it)} for every legal
    /// column.
    fn analyze(py, position; options = POSITION) -> Bound<'py, PyAny> {
        Names::X_O.analysis(py, answer(py, position, &options, Call::analyze)?)
    }

    /// The first best column, or None once the game is over.
    fn best_move(py, position; options = POSITION) -> Option<u8> {
        answer(py, position, &options, Call::best_move)
    }

    /// Every best column, ascending (none once the game is over): `solve`'s best moves without
    /// its line, so cheaper early in a game.
    fn best_moves(py, position; options = POSITION) -> Bound<'py, PyTuple> {
        PyTuple::new(py, answer(py, position, &options, Call::best_moves)?)
    }

    /// +1 the side to move wins, 0 draw, -1 it loses (a weak solve: faster than the score).
    fn value(py, position; options = POSITION) -> i8 {
        answer(py, position, &options, Call::value)
    }

    /// Pons' score of the position (see the module's documentation); ``weak=True`` only its
    /// sign, as his solver's ``-w`` gives it (a win at once keeps its exact score).
    fn score(py, position; options = call::SCORE) -> i32 {
        let weak = options.weak;
        answer(py, position, &options, |call, books, budget| call.score(books, weak, budget))
    }

    /// Can the position arise in play? Raises only for malformed input.
    fn is_reachable(_py, position; options = &["width", "height"]) -> bool {
        match parse_position(&to_item(position)?, (options.width, options.height)) {
            Ok(_) => Ok(true),
            Err(Error::Illegal(_)) => Ok(false),
            Err(error) => Err(err(error)),
        }
    }

    /// Forgets what this thread's searches learnt: the next search starts from empty tables (as
    /// benchmarks that time each position "from a cleared table" want).
    fn clear_tables(_py) -> () {
        search::clear_kept_tables();
        Ok(())
    }

    /// Solves many positions of one board size on every core; see `perfectplay.BatchSolution`.
    /// `best_move`, `best_mask` and the move columns are columns.
    fn batch_solve(py, positions; options = BATCH) -> Bound<'py, PyAny> {
        let positions = rows_arg(positions, &[3], "(N, height, width)", "positions")?;
        let (rows, checked) = (&positions.rows, &options.checked);
        let (parsed, shape) = released(py, |monitor| call::parse_rows(rows, checked, monitor))?;
        let choice = book_arg(py, options.book.as_ref(), &shape)?;
        let what = format!("connect4 {}x{}", shape.width, shape.height);
        let books = books_of(&choice);
        labelled(py, &options, &what, parsed, |parsed, monitor| {
            call::label_rows(parsed, &shape, books, checked, monitor)
        })
    }

    /// ``n`` positions by uniformly random play from the empty board, ``(n, height, width)``
    /// uint8 codes, top row first.
    fn random_positions(py, n; options = call::RANDOM) -> Bound<'py, PyAny> {
        let (n, checked) = (to_scalar(n)?, &options.checked);
        let random = |monitor: Monitor| call::random_positions(&n, checked, monitor);
        let (shape, count, rows) = released(py, random)?;
        shaped(py, rows, &[count, shape.height as usize, shape.width as usize])
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

/// The books a call reads: a book's copy, or none.
type BookChoice = Option<Py<BookCopy>>;

fn books_of(choice: &BookChoice) -> Books<'_> {
    choice
        .as_ref()
        .map_or_else(Books::default, |copy| copy.get().books.books())
}

fn column<T: numpy::Element + Copy>(array: &Bound<'_, PyAny>) -> PyResult<Vec<T>> {
    Ok(array.extract::<PyReadonlyArray1<T>>()?.as_slice()?.to_vec())
}

/// The core's copy of a book's columns (its keys and scores, then its 12-ply book's codes and
/// scores).
fn copy_of(book: &Bound<'_, PyAny>) -> PyResult<Py<BookCopy>> {
    const COPY: &str = "_core_copy";
    let mut arrays = vec![book.getattr("keys")?, book.getattr("scores")?];
    let deep = book.getattr("deep")?;
    if !deep.is_none() {
        arrays.extend([deep.getattr("codes")?, deep.getattr("scores")?]);
    }
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
    let deep = match &arrays[2..] {
        [codes, scores] => Some((column(codes)?, column(scores)?)),
        _ => None,
    };
    let depth = book.getattr("depth")?.extract()?;
    let books = OwnedBooks::new(column(&arrays[0])?, column(&arrays[1])?, depth, deep);
    let from = arrays.into_iter().map(Bound::unbind).collect();
    let copy = Py::new(
        book.py(),
        BookCopy {
            books: books.map_err(err)?,
            from,
        },
    )?;
    // Kept for the next call where the book takes attributes (a book that does not is copied
    // at every call, and still answers).
    match book.setattr(COPY, &copy) {
        Err(error) if !error.is_instance_of::<PyException>(book.py()) => Err(error),
        _ => Ok(copy),
    }
}

/// The books of a call given `book=` (`None`: not given) on `shape`'s board, as
/// `perfectplay.connect4.openings.book_for` resolves it for both backends. Not given or
/// `'packaged'`: the packaged books on 7x6 (copied once a process, so the call asks no Python),
/// none on other sizes.
fn book_arg(
    py: Python<'_>,
    book: Option<&Bound<'_, PyAny>>,
    shape: &Shape,
) -> PyResult<BookChoice> {
    static PACKAGED: PyOnceLock<Py<BookCopy>> = PyOnceLock::new();
    let book_for = |book: &Bound<'_, PyAny>| {
        let openings = py.import("perfectplay.connect4.openings")?;
        let found = openings.call_method1("book_for", (book, shape.width, shape.height))?;
        if found.is_none() {
            Ok(None)
        } else {
            copy_of(&found).map(Some)
        }
    };
    let packaged = book.is_none_or(|book| {
        let name = book.cast::<PyString>().ok();
        name.is_some_and(|name| name.to_str().is_ok_and(|name| name == "packaged"))
    });
    match book {
        // None (no book) is answered here: asking Python would double a short call's time.
        Some(book) if book.is_none() => Ok(None),
        Some(book) if !packaged => book_for(book),
        _ if (i128::from(shape.width), i128::from(shape.height)) != DEFAULT => Ok(None),
        _ => {
            let packaged = PACKAGED.get_or_try_init(py, || {
                let copy = book_for(&PyString::new(py, "packaged"))?;
                let deep = copy.filter(|copy| copy.get().books.deep.is_some());
                deep.ok_or_else(|| PyValueError::new_err("the packaged book has no 12-ply book"))
            })?;
            Ok(Some(packaged.clone_ref(py)))
        }
    }
}

//! `perfectplay._core.connect4`: moves are columns 0..W-1; answers for the side to move.

use crate::engine::budget::Budget;
use crate::engine::error::Result as CoreResult;
use crate::engine::perfect_hash::PerfectHash;
use crate::engine::pool::Monitor;
use crate::games::connect4::book::{Books, DeepBook, Fourteen};
use crate::games::connect4::call::{self, BATCH, Call, POSITION};
use crate::games::connect4::shipped::{
    DeepFiles, ShippedDeep, ShippedFile, ShippedOpening, read_deep, read_opening, shipped_books,
};
use crate::games::connect4::{self as game, DEFAULT, search};
use crate::py::batch::{labelled, rows_arg, shaped};
use crate::py::convert::{Names, to_item};
use crate::py::detach::{released, search_detached};
use crate::py::options::{Options, to_scalar};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple};

/// `work` on the call of a position, with its books, without the GIL; `line`: the work walks
/// a line of play to the game's end (`solve`), not only the position and its moves.
fn answer<T: Send>(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    options: &Options<'_>,
    line: bool,
    work: impl FnOnce(&Call, Books<'_>, &mut Budget) -> CoreResult<T> + Send,
) -> PyResult<T> {
    let call = Call::new(&to_item(position)?, options)?;
    let reach = (!line).then_some(call.moves());
    let choice = book_arg(py, options.book.as_ref(), call.size(), reach)?;
    let books = choice.books()?;
    search_detached(py, call.node_limit(), |budget| work(&call, books, budget))
}

bindings! {
    twin = "connect4";

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn solve(py, position; options = POSITION) -> Bound<'py, PyAny> {
        Names::X_O.solution(py, answer(py, position, &options, true, Call::solve)?)
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn analyze(py, position; options = POSITION) -> Bound<'py, PyAny> {
        Names::X_O.analysis(py, answer(py, position, &options, false, Call::analyze)?)
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn ranked_moves(py, position; options = POSITION) -> Bound<'py, PyAny> {
        Names::X_O.ranking(py, answer(py, position, &options, false, Call::ranked_moves)?)
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn best_move(py, position; options = POSITION) -> Option<u8> {
        answer(py, position, &options, false, Call::best_move)
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn best_moves(py, position; options = POSITION) -> Bound<'py, PyTuple> {
        PyTuple::new(py, answer(py, position, &options, false, Call::best_moves)?)
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn value(py, position; options = POSITION) -> i8 {
        answer(py, position, &options, false, Call::value)
    }

    #[pyo3(text_signature = "(position, *, weak=False, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None)")]
    fn score(py, position; options = call::SCORE) -> i32 {
        let weak = options.weak;
        answer(py, position, &options, false, |call, books, budget| call.score(books, weak, budget))
    }

    #[pyo3(text_signature = "(position, *, width=None, height=None)")]
    fn is_reachable(_py, position; options = &["width", "height"]) -> bool {
        let size = (options.width, options.height);
        game::is_reachable(&to_item(position)?, size).map_err(PyErr::from)
    }

    fn clear_tables(_py) -> () {
        search::clear_kept_tables();
        Ok(())
    }

    #[pyo3(text_signature = "(positions, *, width=None, height=None, node_limit=None, table_mb=None, book='packaged', threads=None, moves=False, errors='raise', progress=False)")]
    fn batch_solve(py, positions; options = BATCH) -> Bound<'py, PyAny> {
        let positions = rows_arg(positions, &[3], "(N, height, width)", "positions")?;
        let (rows, checked) = (&positions.rows, &options.checked);
        let batch = released(py, |monitor| call::parse_rows(rows, checked, monitor))?;
        let (width, height) = batch.size();
        let choice = book_arg(py, options.book.as_ref(), (width, height), None)?;
        let what = format!("connect4 {width}x{height}");
        let books = choice.books()?;
        labelled(py, &options, &what, batch, |batch, monitor| {
            call::label_rows(batch, books, checked, monitor)
        })
    }

    #[pyo3(text_signature = "(n, *, width=None, height=None, seed=None, plies=None, ongoing=False, threads=None)")]
    fn random_positions(py, n; options = call::RANDOM) -> Bound<'py, PyAny> {
        let (n, checked) = (to_scalar(n)?, &options.checked);
        let random = |monitor: Monitor| call::random_positions(&n, checked, monitor);
        let ((width, height), count, rows) = released(py, random)?;
        shaped(py, rows, &[count, height as usize, width as usize])
    }
}

/// The books a call reads.
enum BookChoice<'py> {
    None,
    /// The packaged books, read by the core once a process (so a call asks no Python): the
    /// depth-6 book, and the deep books unless the call needs none of them.
    Packaged(&'static ShippedOpening, Option<&'static ShippedDeep>),
    /// A given book's numpy arrays, read in place for the call.
    Given(BookArrays<'py>),
}

/// A `perfectplay.connect4.openings.Book`'s arrays, borrowed read-only (read from the
/// attributes of the same names).
#[derive(FromPyObject)]
struct BookArrays<'py> {
    keys: PyReadonlyArray1<'py, u64>,
    scores: PyReadonlyArray1<'py, i8>,
    depth: u32,
    /// Its 12-ply book's, when it has one.
    deep: Option<DeepArrays<'py>>,
}

#[derive(FromPyObject)]
struct DeepArrays<'py> {
    codes: PyReadonlyArray1<'py, i32>,
    scores: PyReadonlyArray1<'py, i8>,
    /// The 13-ply book's scores, when it has one (a look-alike may lack the attribute).
    #[pyo3(default)]
    next_scores: Option<PyReadonlyArray1<'py, i8>>,
    /// The 14-ply book (`openings.Book14`), when it has one.
    #[pyo3(default)]
    fourteen: Option<FourteenArrays<'py>>,
}

#[derive(FromPyObject)]
struct FourteenArrays<'py> {
    hash: HashArrays<'py>,
    scores: PyReadonlyArray1<'py, i8>,
}

/// A `perfectplay._kernel.perfect_hash.PerfectHash`'s columns.
#[derive(FromPyObject)]
struct HashArrays<'py> {
    pilots: PyReadonlyArray1<'py, u8>,
    overflow_buckets: PyReadonlyArray1<'py, u32>,
    overflow_pilots: PyReadonlyArray1<'py, u16>,
    slots: u32,
}

impl BookArrays<'_> {
    fn books(&self) -> PyResult<Books<'_>> {
        let deep = match &self.deep {
            Some(deep) => {
                let next = match &deep.next_scores {
                    Some(next) => Some(next.as_slice()?),
                    None => None,
                };
                let fourteen = match &deep.fourteen {
                    Some(book) => Some(Fourteen {
                        hash: PerfectHash {
                            pilots: book.hash.pilots.as_slice()?,
                            overflow_buckets: book.hash.overflow_buckets.as_slice()?,
                            overflow_pilots: book.hash.overflow_pilots.as_slice()?,
                            slots: book.hash.slots,
                        },
                        scores: book.scores.as_slice()?,
                    }),
                    None => None,
                };
                Some(DeepBook {
                    codes: deep.codes.as_slice()?,
                    scores: deep.scores.as_slice()?,
                    next,
                    fourteen,
                })
            }
            None => None,
        };
        let (keys, scores) = (self.keys.as_slice()?, self.scores.as_slice()?);
        Books::new(keys, scores, self.depth, deep).map_err(PyErr::from)
    }
}

impl BookChoice<'_> {
    fn books(&self) -> PyResult<Books<'_>> {
        match self {
            BookChoice::None => Ok(Books::default()),
            BookChoice::Packaged(opening, deep) => Ok(shipped_books(opening, *deep)),
            BookChoice::Given(arrays) => arrays.books(),
        }
    }
}

/// The books of a call given `book=` (`None`: not given) on `shape`'s board, as
/// `perfectplay.connect4.openings.book_for` resolves it for both backends. Not given or
/// `'packaged'`: the packaged books on 7x6, none on other sizes. `reach`: the stones of a
/// position whose answer reads the books at most one stone further (None: the call may read
/// any); the deep books are read only when the depth-6 book does not answer all of it, so a
/// fresh process's first answers near the start pay for the small book only.
fn book_arg<'py>(
    py: Python<'py>,
    book: Option<&Bound<'py, PyAny>>,
    (width, height): (u32, u32),
    reach: Option<u32>,
) -> PyResult<BookChoice<'py>> {
    static OPENING: PyOnceLock<ShippedOpening> = PyOnceLock::new();
    static DEEP: PyOnceLock<ShippedDeep> = PyOnceLock::new();
    let book_for = |book: &Bound<'py, PyAny>| -> PyResult<Option<BookArrays<'py>>> {
        let openings = py.import("perfectplay.connect4.openings")?;
        let found = openings.call_method1("book_for", (book, width, height))?;
        found.extract()
    };
    match book {
        // None (no book) is answered here: asking Python would double a short call's time.
        Some(book) if book.is_none() => Ok(BookChoice::None),
        Some(book) if !book.cast::<PyString>().is_ok_and(|name| name == "packaged") => {
            Ok(book_for(book)?.map_or(BookChoice::None, BookChoice::Given))
        }
        _ if (i128::from(width), i128::from(height)) != DEFAULT => Ok(BookChoice::None),
        _ => {
            let opening = OPENING.get_or_try_init(py, || {
                let file = shipped_file(py, "opening")?;
                Ok::<_, PyErr>(py.detach(|| read_opening(&file))?)
            })?;
            if reach.is_some_and(|stones| stones < opening.depth()) {
                return Ok(BookChoice::Packaged(opening, None));
            }
            let deep = DEEP.get_or_try_init(py, || {
                let files = DeepFiles {
                    deep: shipped_file(py, "deep")?,
                    next: shipped_file(py, "next")?,
                    fourteen: shipped_file(py, "fourteen")?,
                };
                Ok::<_, PyErr>(py.detach(|| read_deep(&files))?)
            })?;
            Ok(BookChoice::Packaged(opening, Some(deep)))
        }
    }
}

/// `perfectplay.connect4.shipped.shipped_files([role])[role]`: where a shipped book is and what
/// it must be (a dict of [`ShippedFile`]'s fields).
fn shipped_file(py: Python<'_>, role: &str) -> PyResult<ShippedFile> {
    // Not `openings`, which would import numpy and the book readers with it.
    let shipped = py.import("perfectplay.connect4.shipped")?;
    let entry = shipped
        .call_method1("shipped_files", ([role],))?
        .get_item(role)?;
    let text = |field: &str| entry.get_item(field)?.extract::<String>();
    Ok(ShippedFile {
        path: text("path")?,
        bytes: entry.get_item("bytes")?.extract()?,
        sha256: text("sha256")?,
        named: text("named")?,
        size_means: text("size_means")?,
        fix: text("fix")?,
        not_ours: text("not_ours")?,
    })
}

//! `perfectplay._core._testing`: the plain reference searches and a table build, for the
//! tests and benchmarks only (not part of the public API), built with the `testing` feature
//! alone.

use crate::engine::error::Error;
use crate::engine::perfect_hash::PerfectHash;
use crate::engine::score;
use crate::games::connect4::book::Books;
use crate::games::connect4::call::{Call, OnBoard};
use crate::games::connect4::{self, plain::plain_score};
use crate::games::footholds::call::NODE_LIMIT;
use crate::games::footholds::plain;
use crate::games::mnk::exhaustive::{PlainAnswer, exhaustive_solve};
use crate::games::mnk::{Query, parse_board, solved};
use crate::py::convert::to_item;
use crate::py::detach::search_detached;
use crate::py::footholds::game;
use crate::py::options::int_arg;
use pyo3::prelude::*;

bindings! {
    /// Plain judge-style backtracking (no memo, no pruning): ``(value, plies, best_moves)`` from
    /// A's side.
    fn backtrack_footholds(py, board, aloc, bloc; options = NODE_LIMIT) -> PlainAnswer {
        let game = game(board, aloc, bloc)?;
        search_detached(py, options.node_limit, |budget| {
            plain::backtrack(&game.board, game.a, game.b, budget).map_err(Error::from)
        })
    }

    /// The plain exhaustive m,n,k search (no pruning), as ``(value, plies, best_moves)``.
    fn exhaustive_mnk(_py, board, k) -> PlainAnswer {
        let query = Query::new(&parse_board(&to_item(board)?)?, int_arg(k, "k")?)?;
        let (value, plies, best) = exhaustive_solve(&query.engine.geometry, query.board);
        let cols = query.cols();
        let best = best
            .into_iter()
            .map(|cell| (cell as usize / cols, cell as usize % cols));
        Ok((value, plies, best.collect()))
    }

    /// Builds a fresh tic-tac-toe table (as the first query does) and returns its number of
    /// legal positions: the benchmark of the table build.
    fn build_tictactoe_table(_py) -> usize {
        let table = solved::build_table();
        Ok((0..solved::CODES).filter(|&code| table.is_reachable(code)).count())
    }

    /// The plain Connect Four search (every move, memoised, no pruning): ``score.rs``'s score of
    /// a position for the side to move, and its value and plies.
    fn plain_connect4(_py, position; options = &["width", "height"]) -> (i32, i8, u32) {
        let size = (options.width, options.height);
        let (shape, position) = connect4::parse_position::<u128>(&to_item(position)?, size)?;
        let score = plain_score(&shape, &position);
        let plies = score::plies(score, shape.cells - position.moves);
        Ok((score, score::value(score), plies))
    }

    /// Pons' score of a position searched on a 128-bit board whatever its size, without a book
    /// (``connect4.score`` takes 64 bits where they hold it): what 128 bits cost.
    fn connect4_score_on_128_bits(
        py, position; options = &["width", "height", "node_limit", "table_mb", "threads"]
    ) -> i32 {
        let call = Call::Wide(OnBoard::new(&to_item(position)?, &options)?);
        search_detached(py, call.node_limit(), |budget| {
            call.score(Books::default(), false, budget)
        })
    }

    /// The slots ``rust/engine/perfect_hash.rs`` gives ``keys`` under a perfect hash's columns
    /// (``perfectplay._kernel.perfect_hash.PerfectHash``'s), -1 where its overflow list lacks
    /// the key's bucket: the twin's slots must be these.
    fn perfect_hash_slots(
        _py,
        pilots: Vec<u8>,
        overflow_buckets: Vec<u32>,
        overflow_pilots: Vec<u16>,
        slots: u32,
        keys: Vec<u64>
    ) -> Vec<i64> {
        let hash = PerfectHash {
            pilots: &pilots,
            overflow_buckets: &overflow_buckets,
            overflow_pilots: &overflow_pilots,
            slots,
        };
        Ok(keys
            .iter()
            .map(|&key| hash.slot(key).map_or(-1, |slot| slot as i64))
            .collect())
    }
}

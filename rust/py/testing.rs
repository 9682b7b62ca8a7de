//! `perfectplay._core._testing`: the plain reference searches and a table build, for the
//! tests and benchmarks only (not part of the public API or its stub).

use crate::engine::error::Error;
use crate::engine::perfect_hash::PerfectHash;
use crate::games::connect4;
use crate::games::footholds::call::NODE_LIMIT;
use crate::games::footholds::plain;
use crate::games::mnk::exhaustive::{self, PlainAnswer};
use crate::games::mnk::solved;
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
        exhaustive::exhaustive_of(&to_item(board)?, int_arg(k, "k")?).map_err(PyErr::from)
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
        connect4::plain::plain_of(&to_item(position)?, size).map_err(PyErr::from)
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

//! perfectplay's compiled core, imported from Python as `perfectplay._core`.
//!
//! `engine` is what every search shares (scoring, budget, table, window, the generic solution
//! driver, errors); `input` reduces arguments to plain data; `games` has one folder a game. The
//! cores know nothing of Python: `py`, built only with the `python` feature, is the one layer
//! that converts arguments, releases the GIL and maps errors. Modules are private; the Rust API
//! is what is re-exported below, so the compiler flags code nothing reaches.

mod engine;
mod games;
mod input;
#[cfg(feature = "python")]
mod py;

pub use engine::batch::{RowResult, run as run_batch};
pub use engine::budget::{Budget, Stop, unlimited};
pub use engine::driver::{Label, MoveAnswer, Player, Solution};
pub use engine::error::{Error, Result};
pub use input::Item;

/// Tic-tac-toe by board code (see `code_of`): answers from the solved table.
pub mod tictactoe {
    pub use crate::games::mnk::solved::{CODES, illegal_reason, table};
    pub use crate::games::tictactoe::batch::{
        BAD_ROW, RowColumns, code_of_row, code_of_row_u8, label_rows, labels, lookup_rows,
        lookup_rows_u8, row_error,
    };
    pub use crate::games::tictactoe::{
        Outcome, analyze, best_move, code_of, code_of_text, is_reachable, is_valid_final, outcome,
        solve, to_move, value,
    };
}

/// m,n,k-games: parse a board, check it into a `Query`, and solve or analyze it.
pub mod mnk {
    pub use crate::games::mnk::exhaustive::exhaustive_solve;
    pub use crate::games::mnk::search::{default_batch_table_bytes, default_table_bytes};
    pub use crate::games::mnk::{Query, empty_board, is_reachable, parse_board};
}

/// Tablebases: whole m,n,k games of up to 20 cells solved tier by tier, one byte a position.
pub mod tablebase {
    pub use crate::engine::tiers::{UNREACHED, ZERO, entry, score_of, solve_tier_range};
    pub use crate::games::mnk::tablebase::{
        MAX_CELLS, Probe, RowLabels, Stats, Tiers, Wanted, build,
    };
}

/// Disappearing footholds: parse a board and locations, then solve, count or analyze.
pub mod footholds {
    pub use crate::games::footholds::plain::backtrack;
    pub use crate::games::footholds::search::{analyze, label, solve, total_moves};
    pub use crate::games::footholds::{parse_board, parse_location};
}

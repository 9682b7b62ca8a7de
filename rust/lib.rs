//! perfectplay's compiled core, imported from Python as `perfectplay._core`.
//!
//! This file only wires modules together. The game cores (`tictactoe`, `mnk`, ...) know nothing
//! of Python; `glue` is the one file that converts Python arguments and results.

pub mod board_input;
pub mod budget;
pub mod error;
pub mod footholds;
pub mod footholds_plain;
pub mod footholds_search;
mod glue;
pub mod mnk;
pub mod mnk_search;
pub mod score;
pub mod search;
pub mod solution;
pub mod table;
pub mod tictactoe;

use pyo3::prelude::*;

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(glue::tictactoe_value, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_outcome, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_solve, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_best_move, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_analyze, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_to_move, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_is_reachable, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_is_valid_final, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_batch_values, module)?)?;
    module.add_function(wrap_pyfunction!(glue::tictactoe_batch_best_move, module)?)?;
    module.add_function(wrap_pyfunction!(glue::build_tictactoe_table, module)?)?;
    module.add_function(wrap_pyfunction!(glue::footholds_solve, module)?)?;
    module.add_function(wrap_pyfunction!(glue::footholds_total_moves, module)?)?;
    module.add_function(wrap_pyfunction!(glue::backtrack_footholds, module)?)?;
    module.add_function(wrap_pyfunction!(glue::mnk_solve, module)?)?;
    module.add_function(wrap_pyfunction!(glue::mnk_solve_empty, module)?)?;
    module.add_function(wrap_pyfunction!(glue::mnk_analyze, module)?)?;
    module.add_function(wrap_pyfunction!(glue::mnk_best_move, module)?)?;
    module.add_function(wrap_pyfunction!(glue::mnk_is_reachable, module)?)?;
    module.add_function(wrap_pyfunction!(glue::exhaustive_mnk, module)?)?;
    Ok(())
}

//! perfectplay's compiled core, imported from Python as `perfectplay._core`.
//!
//! `engine` is what every search shares (scoring, budget, table, window, memory, symmetries,
//! the generic driver, the worker pool, the column writer, errors); `input` reduces arguments
//! to plain data, on top of the engine (the engine uses nothing of it); `games` has one folder
//! a game. The cores know nothing of Python: `py`, built
//! only with the `python` feature, is the one layer that converts arguments, releases the GIL
//! and maps errors, and the only user of the cores. Every module is private, so with the
//! `python` feature the compiler reports code that nothing reaches. Without it (`cargo test
//! --no-default-features`) the cores are built for their own tests alone, and unreached code is
//! expected there.

#![cfg_attr(not(feature = "python"), allow(dead_code, unused_imports))]

mod engine;
mod games;
mod input;
#[cfg(feature = "python")]
mod py;

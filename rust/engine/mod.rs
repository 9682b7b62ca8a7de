//! What every game's search shares: the scoring rule, the node budget, the transposition
//! table, the search window, memory asked for fallibly, files read whole, the symmetries of a grid, the errors,
//! the generic driver that turns a game's rules and answers into a [`driver::Solution`], the
//! one worker pool, the one writer of batch columns, the generic batch and the generic
//! tier-by-tier solver of tablebases.

pub mod batch;
pub mod budget;
pub mod columns;
pub mod driver;
pub mod error;
pub mod files;
pub mod memory;
pub mod perfect_hash;
pub mod pool;
pub mod random;
pub mod score;
pub mod symmetry;
pub mod table;
pub mod tiers;
pub mod window;

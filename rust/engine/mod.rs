//! What every game's search shares: the scoring rule, the node budget, the transposition
//! table, the search window, the errors, the generic driver that turns a game's search into
//! a [`driver::Solution`] and an analysis, and the generic tier-by-tier solver of tablebases.

pub mod batch;
pub mod budget;
pub mod driver;
pub mod error;
pub mod score;
pub mod table;
pub mod tiers;
pub mod window;

//! What a solve returns, whatever the game.

/// The answer for one position under perfect play (the scoring rule in `score.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution<M> {
    /// +1 the side to move wins, 0 draw, -1 it loses.
    pub value: i8,
    /// Who wins (`"x"`/`"o"`, or `"A"`/`"B"`), `None` for a draw.
    pub winner: Option<&'static str>,
    /// Moves still played.
    pub plies: u32,
    /// Every move that keeps both the value and the plies optimal, ascending.
    pub best_moves: Vec<M>,
    /// One optimal game from here: at each turn the first of that turn's best moves.
    pub line: Vec<M>,
    /// Search nodes visited (0 when answered from a table).
    pub nodes: u64,
}

//! The one solution driver every game uses: given a game's rules and one of its answer
//! sources (a search, a solved table, a tablebase), it finds every best move, one optimal line
//! and each move's own value and plies. A game supplies its rules through [`Rules`] and each
//! answer source through [`Answers`]; nothing here knows which game it is.

use crate::engine::budget::Stop;
use crate::engine::score::{self, Score};
use crate::engine::window::cells_of;

/// The two players, in the order they move at the start of a game (X / A first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// The answer for one position under perfect play (the scoring rule in `score.rs`). Moves are
/// cells (`row * cols + col`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// +1 the side to move wins, 0 draw, -1 it loses.
    pub value: i8,
    /// Who wins, `None` for a draw.
    pub winner: Option<Player>,
    /// Moves still played.
    pub plies: u32,
    /// Every move that keeps both the value and the plies optimal, ascending.
    pub best_moves: Vec<u8>,
    /// One optimal game from here: at each turn the best move the game prefers
    /// ([`Rules::preference`]).
    pub line: Vec<u8>,
    /// Search nodes visited (0 when answered from a table).
    pub nodes: u64,
}

/// One legal move's answer: its value for the player making it, and the plies still played
/// from now with that move (the move included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveAnswer {
    pub cell: u8,
    pub value: i8,
    pub plies: u32,
}

impl MoveAnswer {
    /// The answer of the move to `cell` from the exact score of the position it makes, which
    /// has `cells_left` cells to use up.
    pub fn of(cell: u8, child_score: Score, cells_left: u32) -> MoveAnswer {
        MoveAnswer {
            cell,
            value: -score::value(child_score),
            plies: 1 + score::plies(child_score, cells_left),
        }
    }
}

/// A game's rules, as the driver needs them: legal moves as a set of move numbers (cells, or
/// columns for Connect Four), the position after one, and the cells a position still has to
/// use up (what plies are counted from: every move of every game uses one cell).
pub trait Rules {
    type Position: Copy;

    /// The legal moves (empty once the game is over).
    fn moves(&self, position: &Self::Position) -> u64;
    /// The position after the side to move plays `mv`.
    fn play(&self, position: &Self::Position, mv: u8) -> Self::Position;
    /// The cells a position still has to use up.
    fn cells_left(&self, position: &Self::Position) -> u32;
    /// Which of several best moves `best_move` and the line take: the one whose preference
    /// (a move in the caller's numbering) is lowest. By default the lowest move.
    fn preference(&self, mv: u8) -> u32 {
        mv.into()
    }
}

/// Where scores come from, over a game's rules: a search, a solved table, a tablebase. Scores
/// follow `score.rs`, from the side to move's point of view.
pub trait Answers<R: Rules> {
    /// The exact score.
    fn exact(&mut self, rules: &R, position: &R::Position) -> Result<Score, Stop>;
    /// The exact score when it lies in (alpha, beta), otherwise a bound on the side the window
    /// was missed (fail-soft). A table knows the exact score: that is its answer to any window.
    fn window(
        &mut self,
        rules: &R,
        position: &R::Position,
        _alpha: Score,
        _beta: Score,
    ) -> Result<Score, Stop> {
        self.exact(rules, position)
    }
    /// Search nodes visited so far (0 for tables).
    fn nodes(&self) -> u64;
}

/// A game's rules with one of its answer sources: what the driver works on.
pub struct Game<'a, R, A> {
    pub rules: &'a R,
    pub answers: &'a mut A,
}

impl<R: Rules, A: Answers<R>> Game<'_, R, A> {
    fn moves(&self, position: &R::Position) -> u64 {
        self.rules.moves(position)
    }
    fn play(&self, position: &R::Position, mv: u8) -> R::Position {
        self.rules.play(position, mv)
    }
    fn cells_left(&self, position: &R::Position) -> u32 {
        self.rules.cells_left(position)
    }
    fn preference(&self, mv: u8) -> u32 {
        self.rules.preference(mv)
    }
    fn exact_score(&mut self, position: &R::Position) -> Result<Score, Stop> {
        self.answers.exact(self.rules, position)
    }
    fn window_score(
        &mut self,
        position: &R::Position,
        alpha: Score,
        beta: Score,
    ) -> Result<Score, Stop> {
        self.answers.window(self.rules, position, alpha, beta)
    }
    fn nodes(&self) -> u64 {
        self.answers.nodes()
    }
}

/// How the search's cells relate to the caller's: a search may run on a mirror image of the
/// caller's position. `to_caller` turns a search cell back; answers are sorted in the caller's
/// numbering, so the line's tie-break does not depend on the image searched.
pub trait Orientation {
    fn to_caller(&self, cell: u8) -> u8;
}

/// The caller's own orientation.
pub struct AsGiven;

impl Orientation for AsGiven {
    fn to_caller(&self, cell: u8) -> u8 {
        cell
    }
}

/// Is `cell` a best move of a position whose exact score is `score`? The child scores at
/// least `-score`; a null window around it tells whether exactly.
fn is_best<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    position: &R::Position,
    cell: u8,
    score: Score,
) -> Result<bool, Stop> {
    let child = search.play(position, cell);
    Ok(search.window_score(&child, -score, -score + 1)? <= -score)
}

/// The legal moves in the caller's order (search cells).
fn moves_in_caller_order<R: Rules, A: Answers<R>>(
    search: &Game<R, A>,
    position: &R::Position,
    orientation: &impl Orientation,
) -> Vec<u8> {
    let mut moves: Vec<u8> = cells_of(search.moves(position)).collect();
    moves.sort_unstable_by_key(|&cell| orientation.to_caller(cell));
    moves
}

/// The legal moves in the game's preferred order (search cells): the first best of them is
/// the one `best_move` and the line take.
fn moves_in_preferred_order<R: Rules, A: Answers<R>>(
    search: &Game<R, A>,
    position: &R::Position,
    orientation: &impl Orientation,
) -> Vec<u8> {
    // A stable sort of the caller's order: of equal preferences, the lower move first.
    let mut moves = moves_in_caller_order(search, position, orientation);
    moves.sort_by_key(|&cell| search.preference(orientation.to_caller(cell)));
    moves
}

/// The exact score of `root` and every best move, in the caller's numbering and order.
fn scored_best_moves<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    orientation: &impl Orientation,
) -> Result<(Score, Vec<u8>), Stop> {
    let score = search.exact_score(root)?;
    let mut best_moves = Vec::new();
    for cell in moves_in_caller_order(search, root, orientation) {
        if is_best(search, root, cell, score)? {
            best_moves.push(orientation.to_caller(cell));
        }
    }
    Ok((score, best_moves))
}

/// Every best move of `root` in the caller's order (none once the game is over): what a
/// player needs, without the line a solution also walks (which can cost far more).
pub fn best_moves<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    orientation: &impl Orientation,
) -> Result<Vec<u8>, Stop> {
    Ok(scored_best_moves(search, root, orientation)?.1)
}

/// Solves `root`, whose side to move is `to_move`.
pub fn solve<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    to_move: Player,
    orientation: &impl Orientation,
) -> Result<Solution, Stop> {
    let (score, best_moves) = scored_best_moves(search, root, orientation)?;
    // The line: at every turn the best move the game prefers.
    let mut line = Vec::new();
    let (mut position, mut here) = (*root, score);
    'turns: loop {
        for cell in moves_in_preferred_order(search, &position, orientation) {
            if is_best(search, &position, cell, here)? {
                line.push(orientation.to_caller(cell));
                position = search.play(&position, cell);
                here = -here;
                continue 'turns;
            }
        }
        break;
    }
    let winner = match score.signum() {
        0 => None,
        1 => Some(to_move),
        _ => Some(to_move.other()),
    };
    Ok(Solution {
        value: score::value(score),
        winner,
        plies: score::plies(score, search.cells_left(root)),
        best_moves,
        line,
        nodes: search.nodes(),
    })
}

/// The value of `root` for the side to move (1 win, 0 draw, -1 loss) from two null windows
/// around a draw, never the exact score: a weak solve, with no move ranked.
pub fn value<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
) -> Result<i8, Stop> {
    if search.window_score(root, 0, 1)? > 0 {
        return Ok(1);
    }
    Ok(if search.window_score(root, -1, 0)? >= 0 {
        0
    } else {
        -1
    })
}

/// The plies still played from `root` under perfect play (the judge's answer for footholds).
pub fn plies<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
) -> Result<u32, Stop> {
    let score = search.exact_score(root)?;
    Ok(score::plies(score, search.cells_left(root)))
}

/// Every legal move's answer, in the caller's order.
pub fn analyze<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    orientation: &impl Orientation,
) -> Result<Vec<MoveAnswer>, Stop> {
    let mut answers = Vec::new();
    for cell in moves_in_caller_order(search, root, orientation) {
        let child = search.play(root, cell);
        let score = search.exact_score(&child)?;
        let cells_left = search.cells_left(&child);
        answers.push(MoveAnswer::of(
            orientation.to_caller(cell),
            score,
            cells_left,
        ));
    }
    Ok(answers)
}

/// Every move's answer best first: the higher value first; among wins the quicker, among
/// draws and losses the longer; then the game's preference ([`Rules::preference`]), then the
/// lower move. The order the board shows and a ranked reply reads.
pub fn rank(answers: &mut [MoveAnswer], preference: impl Fn(u8) -> u32) {
    answers.sort_by_key(|answer| {
        let plies = i64::from(answer.plies);
        let quickest = if answer.value > 0 { plies } else { -plies };
        (
            std::cmp::Reverse(answer.value),
            quickest,
            preference(answer.cell),
            answer.cell,
        )
    });
}

/// The best move the game prefers ([`Rules::preference`]), `None` once the game is over.
pub fn best_move<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    orientation: &impl Orientation,
) -> Result<Option<u8>, Stop> {
    let score = search.exact_score(root)?;
    for cell in moves_in_preferred_order(search, root, orientation) {
        if is_best(search, root, cell, score)? {
            return Ok(Some(orientation.to_caller(cell)));
        }
    }
    Ok(None)
}

/// What a batch row needs of a position: its value, plies, every best move as a set of cells,
/// and, when asked, every legal move's answer. No line: a label is cheaper than a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub value: i8,
    pub plies: u32,
    /// Every best move, as a set of cells in the caller's numbering.
    pub best: u64,
    /// The best move the game prefers (`best_move`'s), `None` once the game is over.
    pub best_move: Option<u8>,
    /// Every legal move's answer (empty unless asked for).
    pub moves: Vec<MoveAnswer>,
    pub nodes: u64,
}

/// Labels `root`. With `moves`, each child's exact score is needed anyway, and the best moves
/// follow from them; without, null-window tests decide the best moves.
pub fn label<R: Rules, A: Answers<R>>(
    search: &mut Game<R, A>,
    root: &R::Position,
    moves: bool,
    orientation: &impl Orientation,
) -> Result<Label, Stop> {
    let score = search.exact_score(root)?;
    let mut best = 0u64;
    let mut answers = Vec::new();
    for cell in cells_of(search.moves(root)) {
        let caller_cell = orientation.to_caller(cell);
        let is_best_move = if moves {
            let child = search.play(root, cell);
            let child_score = search.exact_score(&child)?;
            let cells_left = search.cells_left(&child);
            answers.push(MoveAnswer::of(caller_cell, child_score, cells_left));
            -child_score == score
        } else {
            is_best(search, root, cell, score)?
        };
        if is_best_move {
            best |= 1 << caller_cell;
        }
    }
    answers.sort_unstable_by_key(|answer| answer.cell);
    Ok(Label {
        value: score::value(score),
        plies: score::plies(score, search.cells_left(root)),
        best,
        best_move: cells_of(best).min_by_key(|&mv| (search.preference(mv), mv)),
        moves: answers,
        nodes: search.nodes(),
    })
}

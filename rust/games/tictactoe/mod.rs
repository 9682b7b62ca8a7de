//! Tic-tac-toe, the (3,3,3) m,n,k-game: its board forms, the questions only it asks (who wins,
//! valid final boards) and batch lookups. Every answer comes from the solved (3,3,3) table of
//! the m,n,k game (`games/mnk/solved.rs`), by the board's base-3 code.

pub mod batch;

use crate::engine::budget::Stop;
use crate::engine::driver::{self, AsGiven, Game, MoveAnswer, Player, Solution};
use crate::engine::error::{Result, malformed};
use crate::engine::score;
use crate::games::mnk::solved::{self, CELLS, Lookup, POW3, code_of_board, table};
use crate::games::mnk::{Board, Geometry};
use crate::input::grid::CellReader;
use crate::input::marks::{EMPTY, MarkReader, O, X};
use crate::input::{Item, board_type_error};

/// Per-character class for the text fast path: 0..=2 a symbol mark, 3..=5 a digit mark plus 3,
/// `SEPARATOR`, or `OTHER` (any other byte, including every byte of a non-ASCII character).
static CHAR_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    class[b'x' as usize] = X;
    class[b'X' as usize] = X;
    class[b'o' as usize] = O;
    class[b'O' as usize] = O;
    class[b'.' as usize] = EMPTY;
    class[b'-' as usize] = EMPTY;
    class[b'_' as usize] = EMPTY;
    class[b'0' as usize] = 3 + EMPTY;
    class[b'1' as usize] = 3 + X;
    class[b'2' as usize] = 3 + O;
    let separators = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c, b'/', b'|', b','];
    let mut i = 0;
    while i < separators.len() {
        class[separators[i] as usize] = SEPARATOR;
        i += 1;
    }
    class
};
const SEPARATOR: u8 = 6;
const OTHER: u8 = 7;

/// The code of well-formed text, read in one pass over its bytes; None for anything else,
/// which the general reader reads and names the problem of.
fn text_code(text: &str) -> Option<usize> {
    let mut code = 0u32;
    let mut cells = 0usize;
    let mut alphabets = 0u8;
    for &byte in text.as_bytes() {
        let class = CHAR_CLASS[byte as usize];
        if class == SEPARATOR {
            continue;
        }
        if class == OTHER || cells == CELLS {
            return None;
        }
        alphabets |= 1 << (class / 3);
        code += u32::from(class % 3) * POW3[cells];
        cells += 1;
    }
    (cells == CELLS && alphabets != 3).then_some(code as usize)
}

/// The table code of a board argument (well-formed text is read in one pass).
#[inline]
pub fn code_of(board: &Item) -> Result<usize> {
    if let Item::Text(text) = board
        && let Some(code) = text_code(text)
    {
        return Ok(code);
    }
    read_code(board)
}

/// The general reader of [`code_of`]: any board argument, or the error that names its problem.
fn read_code(board: &Item) -> Result<usize> {
    let mut reader = MarkReader::default();
    let mut marks = Vec::with_capacity(CELLS);
    match board {
        Item::Text(text) => {
            let cells = reader.read_text(text, &mut marks)?;
            if cells != CELLS {
                return malformed!(
                    "board has {cells} cells, expected 9 (3 rows of 3, such as 'xx./oo./...')"
                );
            }
        }
        Item::Seq(items) if is_move_list(items) => return code_after_moves(items),
        Item::Seq(items) if items.len() == CELLS => {
            for cell in items {
                marks.push(reader.read_cell(cell)?);
            }
        }
        Item::Seq(rows) if rows.len() == 3 => {
            for (index, row) in rows.iter().enumerate() {
                let cells = reader.read_row(row, &mut marks)?;
                if cells != 3 {
                    return malformed!("row {index} has {cells} cells, expected 3");
                }
            }
        }
        Item::Seq(_) | Item::Long(_) => {
            return malformed!(
                "board must have 9 cells or 3 rows of 3, got a sequence of {} items",
                board.sequence_len().unwrap_or(0)
            );
        }
        other => return Err(board_type_error(other)),
    }
    Ok(code_of_board(Board::from_marks(&marks)))
}

/// Is a sequence a list of moves from the empty board (ints, cells 0..8), not a board? Any
/// list of ints but one of 9 is moves; of 9, only distinct ones are (a board's 9 cells repeat
/// the codes 0, 1 and 2; 9 moves are 9 cells).
fn is_move_list(items: &[Item]) -> bool {
    if items.len() != CELLS {
        return items
            .iter()
            .all(|item| matches!(item, Item::Int(_) | Item::BigInt));
    }
    let cells: Option<Vec<i64>> = items
        .iter()
        .map(|item| match item {
            Item::Int(cell) => Some(*cell),
            _ => None,
        })
        .collect();
    cells.is_some_and(|cells| {
        cells
            .iter()
            .enumerate()
            .all(|(at, cell)| !cells[..at].contains(cell))
    })
}

/// The code of the board the moves reach from the empty board: a `ValueError` naming the
/// first move off the board, on a taken cell, or after the game ended.
fn code_after_moves(moves: &[Item]) -> Result<usize> {
    let geometry = solved::geometry();
    let mut board = Board { x: 0, o: 0 };
    for (index, item) in moves.iter().enumerate() {
        let number = index + 1;
        let cell = match item {
            Item::Int(cell @ 0..=8) => *cell as u32,
            Item::Int(cell) => {
                return malformed!("move {number}: cell {cell} is off the board (cells are 0..8)");
            }
            _ => return malformed!("move {number}: the cell is off the board (cells are 0..8)"),
        };
        if geometry.has_line(board.x) || geometry.has_line(board.o) {
            return malformed!(
                "move {number}: the game is over (three in a row) before move {number}"
            );
        }
        if (board.x | board.o) >> cell & 1 == 1 {
            return malformed!("move {number}: cell {cell} is taken");
        }
        if board.x_to_move() {
            board.x |= 1 << cell;
        } else {
            board.o |= 1 << cell;
        }
    }
    Ok(code_of_board(board))
}

/// Who wins from a position under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    X,
    O,
    Draw,
}

fn to_move_of(code: usize) -> Player {
    if solved::board_of_code(code).x_to_move() {
        Player::First
    } else {
        Player::Second
    }
}

/// +1 the side to move wins, 0 draw, -1 it loses.
pub fn value(code: usize) -> Result<i8> {
    Ok(score::value(table().legal_score(code)?))
}

/// Who moves next: `None` once the game is over.
pub fn to_move(code: usize) -> Result<Option<Player>> {
    table().legal_score(code)?;
    Ok((!table().is_final(code)).then(|| to_move_of(code)))
}

pub fn outcome(code: usize) -> Result<Outcome> {
    let value = value(code)?;
    let x_to_move = to_move_of(code) == Player::First;
    Ok(match value {
        0 => Outcome::Draw,
        v if (v > 0) == x_to_move => Outcome::X,
        _ => Outcome::O,
    })
}

pub fn is_reachable(code: usize) -> bool {
    table().is_reachable(code)
}

/// Reachable and final (a line, or a full board).
pub fn is_valid_final(code: usize) -> bool {
    table().is_final(code)
}

pub fn best_move(code: usize) -> Result<Option<u8>> {
    table().legal_score(code)?;
    Ok(u8::try_from(table().best_move[code]).ok())
}

/// The rules of the (3,3,3) game with its solved table as the answer source.
fn from_table(lookup: &mut Lookup) -> Game<'_, Geometry, Lookup> {
    Game {
        rules: solved::geometry(),
        answers: lookup,
    }
}

/// `work` on the solved table's answers at the board of a legal `code`.
fn answered<T>(
    code: usize,
    work: impl FnOnce(&mut Game<'_, Geometry, Lookup>, &Board) -> std::result::Result<T, Stop>,
) -> Result<T> {
    table().legal_score(code)?;
    let board = solved::board_of_code(code);
    let mut lookup = table().lookup();
    Ok(work(&mut from_table(&mut lookup), &board)?)
}

pub fn solve(code: usize) -> Result<Solution> {
    answered(code, |game, board| {
        driver::solve(game, board, to_move_of(code), &AsGiven)
    })
}

/// Each legal move with its value for the player making it and the plies from now with it.
pub fn analyze(code: usize) -> Result<Vec<MoveAnswer>> {
    answered(code, |game, board| driver::analyze(game, board, &AsGiven))
}

/// Each legal move's answer, best first ([`driver::rank`]).
pub fn ranked_moves(code: usize) -> Result<Vec<MoveAnswer>> {
    let mut answers = analyze(code)?;
    driver::rank(&mut answers, |_| 0);
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::mnk::solved::CODES;

    #[test]
    fn table_facts() {
        let legal: Vec<usize> = (0..CODES).filter(|&c| is_reachable(c)).collect();
        assert_eq!(legal.len(), 5478);
        let finals: Vec<usize> = legal
            .iter()
            .copied()
            .filter(|&c| is_valid_final(c))
            .collect();
        assert_eq!(finals.len(), 958);
        let count = |wanted| finals.iter().filter(|&&c| outcome(c) == Ok(wanted)).count();
        assert_eq!(
            (count(Outcome::X), count(Outcome::O), count(Outcome::Draw)),
            (626, 316, 16)
        );
        let empty = solve(0).unwrap();
        assert_eq!(
            (empty.value, empty.plies, empty.best_moves.len()),
            (0, 9, 9)
        );
        assert_eq!(empty.line.len(), 9);
    }

    #[test]
    fn fast_text_path_agrees_with_the_reader() {
        for text in [
            "xxo/oo./x..",
            "120 000 000",
            "x........",
            "xxo oo. x..",
            "x1.......",
            "xq",
            "",
        ] {
            let board = Item::Text(text.into());
            assert_eq!(code_of(&board), read_code(&board), "{text}");
        }
    }
}

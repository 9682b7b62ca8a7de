//! Connect Four on boards of W columns and H rows: stones drop to the lowest empty cell of a
//! column, the first player moves first, four in a row (horizontal, vertical or diagonal) wins,
//! a full board without four is a draw. Moves are columns. This file holds the rules (the
//! bitboards, playing, legality, the board forms read), `bits` the integer a board is,
//! `search` the solver, `table` its transposition tables and `plain` the plain reference
//! search the tests hold it to.
//!
//! **Bit layout** (Pascal Pons' and John Tromp's): column `c` is bits `c * (H + 1)` to
//! `c * (H + 1) + H - 1`, bottom first, with one spare bit on top of each column, so that a
//! shift by `H + 1` moves a stone one column over and a shift by 1 one row up without ever
//! wrapping into the next column. W * (H + 1) <= 128: on a `u64` up to 64 bits (7x6, 8x7,
//! 9x6, ...), on a `u128` beyond (8x8, 7x9, 10x6, ...); `bits.rs` says how a call picks one.
//! A position is two such masks: the stones of the player to move (`current`) and every stone
//! (`mask`). `current + mask + bottom` is a unique key (a 1 over each column's top stone marks
//! its height).
//!
//! **Scores** inside the solver are Pons': from the side to move, a win with its stone after n
//! stones scores `(W * H + 1 - n) / 2`, a loss the negative, a draw 0. `score.rs`'s score (one
//! more than the cells left when the game ends) follows from it exactly, both ways, since the
//! winner's stones fall on a fixed parity: see [`engine_score`] and [`pons_score`].

pub mod bits;
pub mod book;
pub mod call;
#[cfg(any(test, feature = "testing"))]
pub mod plain;
pub mod search;
pub mod shipped;
pub mod table;

use crate::engine::batch::Parsed;
use crate::engine::driver::Rules;
use crate::engine::error::{Error, Result, malformed};
use crate::engine::score::Score;
pub use crate::games::connect4::bits::Bits;
use crate::input::Item;
use crate::input::marks::read_mark_grid_of;
use crate::input::rows::{Rows, parse_rows};
use crate::input::{MAX_ITEMS, quoted};

/// A board size with its masks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape<B = u64> {
    pub width: u32,
    pub height: u32,
    /// Bits a column takes: H + 1.
    pub stride: u32,
    pub cells: u32,
    /// The bottom cell of every column.
    pub bottom: B,
    /// Every cell of the board.
    pub board: B,
    /// The cells, spare row included, of the rows whose parity is the top spare row's: when
    /// every column's landing cell is one of them, every column has an even number of empty
    /// cells (see `search/mod.rs`, claimeven).
    pub top_parity: B,
}

/// Do `stones`, on a board `height` rows high, hold four in a row? (Inlined with a constant
/// height, its shifts are constants: the search's 7x6 path.)
#[inline(always)]
pub fn has_four_of_height<B: Bits>(stones: B, height: u32) -> bool {
    [1, height + 1, height, height + 2]
        .into_iter()
        .any(|shift| {
            let pairs = stones & (stones >> shift);
            pairs & (pairs >> (2 * shift)) != B::ZERO
        })
}

/// The most columns a board has (the search orders moves in arrays of this size).
pub const MAX_WIDTH: usize = 16;

/// The most bits a board takes: `width * (height + 1)`.
pub const MAX_BITS: i128 = 128;

/// Does a board of `width` by `height` need more than 64 bits (a `u128` board)?
pub fn is_wide(width: i128, height: i128) -> bool {
    width.saturating_mul(height.saturating_add(1)) > 64
}

impl<B: Bits> Shape<B> {
    /// A board of `width` columns and `height` rows, as the caller gave them.
    pub fn new(width: i128, height: i128) -> Result<Shape<B>> {
        for (name, side) in [("width", width), ("height", height)] {
            if side < 1 {
                return malformed!("{name} must be at least 1, got {side}");
            }
        }
        if width.saturating_mul(height.saturating_add(1)) > MAX_BITS || width > MAX_WIDTH as i128 {
            return malformed!(
                "a {width}x{height} board does not fit: at most {MAX_WIDTH} columns and width * \
                 (height + 1) at most {MAX_BITS} (7x6, 8x8, 7x9, 10x6, 11x5, 5x13 fit)"
            );
        }
        if width * (height + 1) > i128::from(B::BITS) {
            return malformed!("a {width}x{height} board takes more than {} bits", B::BITS);
        }
        let (width, height) = (width as u32, height as u32);
        let stride = height + 1;
        let bottom = (0..width).fold(B::ZERO, |mask, col| mask | B::ONE << (col * stride));
        let column = low_bits::<B>(height);
        let mut board = B::ZERO;
        for col in 0..width {
            board |= column << (col * stride);
        }
        Ok(Shape {
            width,
            height,
            stride,
            cells: width * height,
            bottom,
            board,
            top_parity: (0..=height)
                .filter(|row| (height - row) % 2 == 0)
                .fold(B::ZERO, |rows, row| rows | bottom << row),
        })
    }

    /// The cells of column `col`.
    #[inline]
    pub fn column(&self, col: u32) -> B {
        low_bits::<B>(self.height) << (col * self.stride)
    }

    /// The bit of the cell at `row` (0 the bottom) of column `col`.
    #[inline]
    pub fn cell(&self, col: u32, row: u32) -> B {
        B::ONE << (col * self.stride + row)
    }

    /// Empty cells that would complete four for `stones` (none outside the board).
    #[inline(always)]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let h = self.height;
        // Vertical: three stones right below.
        let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
        if self.width < 4 {
            return cells & (self.board ^ mask);
        }
        // Horizontal, and the two diagonals: three of the four cells around. Each step is one
        // shift by under 64 (four columns or more leave a column at most 33 bits), which `& 63`
        // tells the compiler: a 128-bit shift then needs no branch for amounts past 64.
        for shift in [h + 1, h, h + 2] {
            debug_assert!(shift < 64);
            let shift = shift & 63;
            let (left1, right1) = (stones << shift, stones >> shift);
            let (left2, right2) = (left1 << shift, right1 >> shift);
            let pair = left1 & left2;
            cells |= pair & (left2 << shift);
            cells |= pair & right1;
            let pair = right1 & right2;
            cells |= pair & left1;
            cells |= pair & (right2 >> shift);
        }
        cells & (self.board ^ mask)
    }

    /// Do `stones` hold four in a row? Under four columns only a column can hold one (and the
    /// other directions' shifts, by up to three columns, would pass the integer's last bit).
    #[inline(always)]
    pub fn has_four(&self, stones: B) -> bool {
        if self.width < 4 {
            let pairs = stones & (stones >> 1);
            return pairs & (pairs >> 2) != B::ZERO;
        }
        has_four_of_height(stones, self.height)
    }

    /// The key (see [`Position::key`]) of the mirror image of the position of `key`: its
    /// columns in reverse order.
    pub fn mirrored_key(&self, key: B) -> B {
        let column = low_bits::<B>(self.stride);
        (0..self.width).fold(B::ZERO, |mirror, col| {
            let bits = (key >> (col * self.stride)) & column;
            mirror | bits << ((self.width - 1 - col) * self.stride)
        })
    }

    /// The columns of a mask of cells, as a set of column numbers.
    #[inline]
    pub fn columns_of(&self, cells: B) -> u64 {
        (0..self.width)
            .filter(|&col| cells & self.column(col) != B::ZERO)
            .fold(0, |set, col| set | 1 << col)
    }
}

/// A position: the stones of the player to move, every stone, and how many were played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<B = u64> {
    pub current: B,
    pub mask: B,
    pub moves: u32,
}

/// The `n` lowest bits set (every bit when `n` is the integer's width).
#[inline(always)]
pub fn low_bits<B: Bits>(n: u32) -> B {
    if n >= B::BITS {
        !B::ZERO
    } else {
        (B::ONE << n) - B::ONE
    }
}

impl<B: Bits> Position<B> {
    pub const EMPTY: Position<B> = Position {
        current: B::ZERO,
        mask: B::ZERO,
        moves: 0,
    };

    /// A unique key of the position (see the module's notes).
    #[inline(always)]
    pub fn key(&self, shape: &Shape<B>) -> B {
        self.current + self.mask + shape.bottom
    }

    /// The cell each column's next stone lands on.
    #[inline(always)]
    pub fn landing(&self, shape: &Shape<B>) -> B {
        (self.mask + shape.bottom) & shape.board
    }

    /// The position after a stone at `cell` (a landing cell) of the player to move.
    #[inline(always)]
    pub fn play_cell(&self, cell: B) -> Position<B> {
        Position {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// The stones of the player who moved last.
    #[inline(always)]
    pub fn opponent(&self) -> B {
        self.current ^ self.mask
    }

    /// Has the player who moved last made four (the game is over)?
    pub fn is_won(&self, shape: &Shape<B>) -> bool {
        shape.has_four(self.opponent())
    }

    pub fn can_play(&self, shape: &Shape<B>, col: u32) -> bool {
        self.landing(shape) & shape.column(col) != B::ZERO
    }
}

/// The rules of play: moves are columns; play stops at the first four or a full board.
impl<B: Bits> Rules for Shape<B> {
    type Position = Position<B>;

    fn moves(&self, position: &Position<B>) -> u64 {
        if position.is_won(self) {
            return 0;
        }
        self.columns_of(position.landing(self))
    }

    fn play(&self, position: &Position<B>, col: u8) -> Position<B> {
        position.play_cell(position.landing(self) & self.column(col.into()))
    }

    fn cells_left(&self, position: &Position<B>) -> u32 {
        self.cells - position.moves
    }

    /// Centre-out, the left one of two at the same distance first (7 wide: 3 2 4 1 5 0 6): the
    /// order players read a board in, and the search's, so the line costs little beyond the
    /// score.
    fn preference(&self, col: u8) -> u32 {
        (2 * u32::from(col)).abs_diff(self.width - 1)
    }
}

/// `score.rs`'s score of a Pons score, for a position with `moves` stones on a board of `cells`
/// cells: the winner's winning stone falls after `n` stones, `n` of the winner's parity.
pub fn engine_score(pons: i32, moves: u32, cells: u32) -> Score {
    if pons == 0 {
        return 0;
    }
    let (cells, moves) = (cells as i32, moves as i32);
    // The stones before the winning one: cells + 1 - 2|score| or one fewer (the division
    // rounds down), of the winner's parity (the side to move's when it wins).
    let winner_parity = if pons > 0 { moves % 2 } else { (moves + 1) % 2 };
    let mut before = cells + 1 - 2 * pons.abs();
    if before.rem_euclid(2) != winner_parity {
        before -= 1;
    }
    let cells_left_at_end = cells - before - 1;
    pons.signum() * (1 + cells_left_at_end)
}

/// The Pons score of a `score.rs` score: a win scores `cells - n` there and
/// `(cells + 1 - n) / 2` here, `n` the stones before the winning one.
pub fn pons_score(score: Score) -> i32 {
    score.signum() * ((score.abs() + 1) / 2)
}

/// The Pons score of a finished game for the side to move: a loss when the last stone won,
/// else a draw; `None` while the game goes on.
pub fn finished_score<B: Bits>(shape: &Shape<B>, position: &Position<B>) -> Option<i32> {
    if position.is_won(shape) {
        Some(pons_score(crate::engine::score::loss(
            shape.cells - position.moves,
        )))
    } else {
        (position.moves == shape.cells).then_some(0)
    }
}

/// Why a move string or a list of moves cannot be played, and at which move (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMove {
    pub index: usize,
    pub why: String,
}

/// The column an int beyond 64 bits is read as (the twin reads it so too).
pub const HUGE_COLUMN: i64 = i64::MIN;

/// Plays `columns` (0-based) from the empty board. A column off the board, a full column or a
/// move after the game ended is a [`BadMove`]; so is a move completing four when `last_wins`
/// is false (Pons' solver refuses such a line). Messages number the columns from `first`, as
/// the caller wrote them (1 in a move string, 0 in a list of columns).
pub fn play_columns<B: Bits>(
    shape: &Shape<B>,
    columns: &[i64],
    last_wins: bool,
    first: i64,
) -> std::result::Result<Position<B>, BadMove> {
    play_unchecked(shape, columns.iter().copied(), last_wins)
        .map_or_else(|| play_checked(shape, columns, last_wins, first), Ok)
}

/// [`play_columns`] for moves that are all good, else None (and [`play_checked`] names the
/// bad one): the common case, read without a list of the columns or a look at every move.
fn play_unchecked<B: Bits>(
    shape: &Shape<B>,
    columns: impl Iterator<Item = i64>,
    last_wins: bool,
) -> Option<Position<B>> {
    // Stones never leave the board: with no four before the last move, none stood before any
    // move, so one look at the end does for a look at every move.
    let mut position = Position::EMPTY;
    let mut before_last = position;
    for col in columns {
        if !(0..i64::from(shape.width)).contains(&col) || !position.can_play(shape, col as u32) {
            return None;
        }
        before_last = position;
        position = shape.play(&position, col as u8);
    }
    let four_before = shape.has_four(before_last.current) || shape.has_four(before_last.opponent());
    (!four_before && (last_wins || !position.is_won(shape))).then_some(position)
}

/// [`play_columns`], looking at every move.
fn play_checked<B: Bits>(
    shape: &Shape<B>,
    columns: &[i64],
    last_wins: bool,
    first: i64,
) -> std::result::Result<Position<B>, BadMove> {
    let mut position = Position::EMPTY;
    let mut over = false;
    for (index, &col) in columns.iter().enumerate() {
        let bad = |why: String| Err(BadMove { index, why });
        if over {
            return bad(format!(
                "the game is over (four in a row) before move {}",
                index + 1
            ));
        }
        if !(0..i64::from(shape.width)).contains(&col) {
            let shown = if col == HUGE_COLUMN {
                "a column of 64 bits or more".to_owned()
            } else {
                format!("column {}", col + first)
            };
            return bad(format!(
                "{shown} is off the board (columns are {first}..{} here)",
                i64::from(shape.width) - 1 + first
            ));
        }
        let written = col + first;
        let col = col as u32;
        if !position.can_play(shape, col) {
            return bad(format!("column {written} is full"));
        }
        position = position.play_cell(position.landing(shape) & shape.column(col));
        // No four stood before this move, so a four now is this move's.
        if position.is_won(shape) {
            if !last_wins {
                return bad(format!("column {written} completes four"));
            }
            over = true;
        }
        if position.moves == shape.cells {
            over = true;
        }
    }
    Ok(position)
}

/// The columns of a move string in Pons' notation (columns from 1); `None` for a character
/// that is no column digit, with its index.
pub fn columns_of_text(text: &str) -> std::result::Result<Vec<i64>, BadMove> {
    // One allocation of the right size: a call's parsing is a part of a short search's time.
    let mut columns = Vec::with_capacity(text.len());
    for (index, c) in text.chars().enumerate() {
        let Some(digit) = c.to_digit(10) else {
            return Err(BadMove {
                index,
                why: format!(
                    "{} is not a column (moves are written as columns from 1)",
                    crate::input::describe_char(c)
                ),
            });
        };
        columns.push(i64::from(digit) - 1);
    }
    Ok(columns)
}

/// A position from its stones: `cells[row * width + col]` with row 0 the **top** row (as a
/// board is drawn), codes 0 empty, 1 the first player, 2 the second. Checks that it can arise in
/// play: stones rest on stones, the counts alternate, at most one player has four and only its
/// last stone made it, and some order of alternate moves builds it.
pub fn from_cells<B: Bits>(shape: &Shape<B>, cells: &[u8]) -> Result<Position<B>> {
    let (width, height) = (shape.width as usize, shape.height as usize);
    let (mut first, mut second) = (B::ZERO, B::ZERO);
    for (index, &code) in cells.iter().enumerate() {
        let (row, col) = (index / width, index % width);
        let bit = shape.cell(col as u32, (height - 1 - row) as u32);
        match code {
            1 => first |= bit,
            2 => second |= bit,
            _ => {}
        }
    }
    let mask = first | second;
    // Gravity: each column's stones fill it from the bottom.
    for col in 0..shape.width {
        let stones = (mask & shape.column(col)) >> (col * shape.stride);
        if stones & (stones + B::ONE) != B::ZERO {
            return Err(Error::Illegal(format!(
                "column {col} has a stone above an empty cell"
            )));
        }
    }
    let (ones, twos) = (first.count_ones(), second.count_ones());
    if ones != twos && ones != twos + 1 {
        return Err(Error::Illegal(format!(
            "the first player has {ones} stones and the second {twos}, but the first player \
             moves first, so it has as many as the second or one more"
        )));
    }
    let moves = ones + twos;
    let position = Position {
        current: if moves % 2 == 0 { first } else { second },
        mask,
        moves,
    };
    let (first_four, second_four) = (shape.has_four(first), shape.has_four(second));
    // The boards the game stood on before its last move: the board itself while no one has
    // four; once someone has, the board without one of the winner's top stones that every four
    // of the winner needs (there may be several: any one buildable will do).
    let before: Vec<(B, B)> = match (first_four, second_four) {
        (true, true) => return Err(Error::Illegal("both players have four in a row".into())),
        (false, false) => vec![(first, mask)],
        (true, false) | (false, true) => {
            let (winner, name, moved_last) = if first_four {
                (first, "the first player", moves % 2 == 1)
            } else {
                (second, "the second player", moves % 2 == 0)
            };
            if !moved_last {
                return Err(Error::Illegal(format!(
                    "{name} has four in a row but the other player moved after the game ended"
                )));
            }
            let before: Vec<(B, B)> = (0..shape.width)
                .map(|col| top_stone(shape, mask, col))
                .filter(|&top| top & winner != B::ZERO && !shape.has_four(winner & !top))
                .map(|top| (first & !top, mask & !top))
                .collect();
            if before.is_empty() {
                return Err(Error::Illegal(format!(
                    "{name}'s fours need more than one last stone (a move after the game \
                     ended)"
                )));
            }
            before
        }
    };
    if !before
        .iter()
        .map(|&(stones, taken)| buildable(shape, stones, taken))
        .find(|answer| !matches!(answer, Ok(false)))
        .transpose()?
        .unwrap_or(false)
    {
        return Err(Error::Illegal(
            "no order of alternate moves builds this board (a player's stone sits where only \
             the other could have played)"
                .into(),
        ));
    }
    Ok(position)
}

/// The top stone of a column (0 for an empty column).
pub fn top_stone<B: Bits>(shape: &Shape<B>, mask: B, col: u32) -> B {
    let stones = mask & shape.column(col);
    if stones == B::ZERO {
        B::ZERO
    } else {
        B::ONE << (B::BITS - 1 - stones.leading_zeros())
    }
}

/// The most states [`buildable`] visits before it gives up (a `ValueError`): wide boards with
/// many stones have more orders than any machine could try. 7x6 has at most 823,543 states.
pub const BUILD_STATES: usize = 1 << 20;

/// Can alternate moves, the first player first, build exactly these stones? A search over the
/// columns' heights (the player to move follows from their sum), each state visited once, and
/// at most [`BUILD_STATES`] of them (the twin visits them in the same order).
fn buildable<B: Bits>(shape: &Shape<B>, first: B, mask: B) -> Result<bool> {
    let width = shape.width as usize;
    // Heights on the stack, a column a byte (no allocation a state).
    let mut target = [0u8; MAX_WIDTH];
    for (col, height) in target[..width].iter_mut().enumerate() {
        *height = (mask & shape.column(col as u32)).count_ones() as u8;
    }
    // A vector of heights is numbered in mixed radix: a stone in `col` adds `place[col]`.
    let mut place = [0u128; MAX_WIDTH];
    let mut states: u128 = 1;
    for col in (0..width).rev() {
        place[col] = states;
        states *= u128::from(target[col]) + 1;
    }
    // A flag per state where that is small; a set of the visited ones otherwise.
    let mut flags = if states <= 1 << 24 {
        vec![false; states as usize]
    } else {
        Vec::new()
    };
    let mut visited = std::collections::HashSet::new();
    let mut count = 0usize;
    let mut stack = vec![([0u8; MAX_WIDTH], 0u128)];
    while let Some((heights, at)) = stack.pop() {
        if heights == target {
            return Ok(true);
        }
        let first_moves = heights.iter().map(|&h| u32::from(h)).sum::<u32>() % 2 == 0;
        for col in 0..width {
            if heights[col] == target[col] {
                continue;
            }
            let is_first = first & shape.cell(col as u32, heights[col].into()) != B::ZERO;
            if is_first != first_moves {
                continue;
            }
            let mut next = heights;
            next[col] += 1;
            let at = at + place[col];
            let new = if flags.is_empty() {
                visited.insert(at)
            } else {
                !std::mem::replace(&mut flags[at as usize], true)
            };
            if new {
                count += 1;
                if count > BUILD_STATES {
                    return Err(Error::Malformed(format!(
                        "cannot tell whether this {}x{} board arises in play: an order of moves \
                         that builds it was not found in {BUILD_STATES} states (a wide board \
                         with many stones)",
                        shape.width, shape.height
                    )));
                }
                stack.push((next, at));
            }
        }
    }
    Ok(false)
}

/// The default board: 7 columns, 6 rows.
pub const DEFAULT: (i128, i128) = (7, 6);

/// What a text that is no position was expected to be (both backends say it).
const NEITHER: &str = "neither a move string (columns from 1, digits only or split by spaces or \
                       commas, as in '4453' or '4 4 5 3') nor a \
                       board (rows of x o . or 1 2 0, top row first, split by /)";

/// Is `text` a move string rather than maybe a board drawn as rows? A move string is digits
/// once the ASCII whitespace around them is dropped (`"4453\n"` too), the digits maybe split
/// by spaces, tabs or commas (`"4 4 5 3"`, `"4,4,5,3"`, as language models write them).
fn is_move_string(text: &str) -> bool {
    let trimmed = trimmed_moves(text);
    let separator = |c: char| matches!(c, ' ' | '\t' | ',');
    let digit_ends = trimmed.starts_with(|c: char| c.is_ascii_digit())
        && trimmed.ends_with(|c: char| c.is_ascii_digit());
    let well_formed = trimmed.chars().all(|c| c.is_ascii_digit() || separator(c));
    well_formed && (trimmed.is_empty() || digit_ends)
}

/// A move string without the ASCII whitespace around it.
fn trimmed_moves(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b')
}

/// The (width, height) `item` is read on: a board's own, else the caller's `size` (7x6 where
/// not given). Only picks the board's integer (see [`is_wide`]): [`parse_position`] checks.
pub fn size_of(item: &Item, size: (Option<i128>, Option<i128>)) -> (i128, i128) {
    let given = (size.0.unwrap_or(DEFAULT.0), size.1.unwrap_or(DEFAULT.1));
    match item {
        Item::Text(text) if is_move_string(text) => given,
        Item::Seq(items)
            if items
                .iter()
                .all(|i| matches!(i, Item::Int(_) | Item::BigInt | Item::Bool(_))) =>
        {
            given
        }
        _ => read_mark_grid_of(item, MAX_ITEMS)
            .map_or(given, |grid| (grid.cols as i128, grid.rows as i128)),
    }
}

/// Can the position arise in play? An error only for malformed input (see [`parse_position`]).
pub fn is_reachable(item: &Item, size: (Option<i128>, Option<i128>)) -> Result<bool> {
    let (width, height) = size_of(item, size);
    let parsed = if is_wide(width, height) {
        parse_position::<u128>(item, size).map(|_| ())
    } else {
        parse_position::<u64>(item, size).map(|_| ())
    };
    match parsed {
        Ok(()) => Ok(true),
        Err(Error::Illegal(_)) => Ok(false),
        Err(error) => Err(error),
    }
}

/// Reads a position: a move string in Pons' notation (columns from 1, `"4453"`; `""` is the
/// empty board), a sequence of columns (0-based ints), or a board drawn as rows, top row first
/// (a text of rows split by `/` or newlines, or a sequence of rows; the alphabets of m,n,k:
/// `x o .` or `1 2 0`). `size` is (width, height) when the caller gave them: a board must
/// match them; moves are played on them (7x6 when not given).
pub fn parse_position<B: Bits>(
    item: &Item,
    size: (Option<i128>, Option<i128>),
) -> Result<(Shape<B>, Position<B>)> {
    let on_default = || Shape::new(size.0.unwrap_or(DEFAULT.0), size.1.unwrap_or(DEFAULT.1));
    let moves = |shape: Shape<B>, columns: Vec<i64>, text: Option<&str>| {
        let first = if text.is_some() { 1 } else { 0 };
        let position = play_columns(&shape, &columns, true, first).map_err(|bad| {
            let shown = match text {
                Some(text) => format!("move {} of {}", bad.index + 1, quoted(text)),
                None => format!("move {}", bad.index + 1),
            };
            Error::Malformed(format!("{shown}: {}", bad.why))
        })?;
        Ok((shape, position))
    };
    match item {
        Item::Text(text) if is_move_string(text) => {
            let shape = on_default()?;
            let trimmed = trimmed_moves(text);
            if shape.width > 9 {
                // Wide boards: column numbers from 1 split by spaces, tabs or commas, each read
                // whole, as far as the board goes.
                let columns = trimmed
                    .split([' ', '\t', ','])
                    .filter(|token| !token.is_empty())
                    .take(shape.cells as usize + 1)
                    .map(|token| token.parse::<i64>().map_or(HUGE_COLUMN, |col| col - 1))
                    .collect();
                return moves(shape, columns, Some(trimmed));
            }
            // A move past the full board is an error at its number: no digit after it is read,
            // so a text of any length costs memory of the board's size only.
            let digits: String = trimmed
                .chars()
                .filter(char::is_ascii_digit)
                .take(shape.cells as usize + 1)
                .collect();
            // Every character is a digit; '0' is column -1, off the board.
            let columns = digits
                .bytes()
                .map(|digit| i64::from(digit) - i64::from(b'1'));
            if let Some(position) = play_unchecked(&shape, columns, true) {
                return Ok((shape, position));
            }
            let columns = columns_of_text(&digits).map_err(|bad| {
                let (index, text) = (bad.index + 1, quoted(trimmed));
                Error::Malformed(format!("move {index} of {text}: {}", bad.why))
            })?;
            moves(shape, columns, Some(trimmed))
        }
        Item::Seq(items)
            if items
                .iter()
                .all(|i| matches!(i, Item::Int(_) | Item::BigInt)) =>
        {
            let shape = on_default()?;
            let columns = items
                .iter()
                .map(|item| match item {
                    Item::Int(col) => *col,
                    _ => HUGE_COLUMN,
                })
                .collect();
            moves(shape, columns, None)
        }
        Item::Seq(items) if items.iter().any(|i| matches!(i, Item::Bool(_))) => {
            Err(Error::WrongType("a column must be an int, not bool".into()))
        }
        _ => {
            let grid = read_mark_grid_of(item, MAX_ITEMS).map_err(|error| match (item, error) {
                (Item::Text(_), Error::Malformed(why)) => {
                    Error::Malformed(format!("{NEITHER}: {why}"))
                }
                (_, error) => error,
            })?;
            let shape = sized(grid.cols, grid.rows, size, "the board is")?;
            let position = from_cells(&shape, &grid.cells)?;
            Ok((shape, position))
        }
    }
}

/// The board `width` wide and `height` high, refused when the caller's `size` (width, height)
/// says otherwise; `what` names it in the message.
fn sized<B: Bits>(
    width: usize,
    height: usize,
    size: (Option<i128>, Option<i128>),
    what: &str,
) -> Result<Shape<B>> {
    let (width, height) = (width as i128, height as i128);
    for (name, given, actual) in [("width", size.0, width), ("height", size.1, height)] {
        if let Some(given) = given
            && given != actual
        {
            return malformed!(
                "{what} {width} wide and {height} high, but {name}={given} was given"
            );
        }
    }
    Shape::new(width, height)
}

/// A batch's positions and its board, when one was read.
pub type ParsedBatch<B> = (Parsed<Position<B>>, Option<Shape<B>>);

/// A batch's positions, each read once, and its board (the array's, or the first readable
/// position's): an array `(N, height, width)` of codes, top row first, or a sequence of
/// positions in any form [`parse_position`] takes.
pub fn parse_batch<B: Bits>(
    rows: &Rows,
    size: (Option<i128>, Option<i128>),
    monitor: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<ParsedBatch<B>> {
    parse_rows(
        rows,
        |board| sized(board[1], board[0], size, "the boards are"),
        from_cells,
        |item, shape| {
            let (this, position) = parse_position(item, size)?;
            let shape = shape.get_or_insert_with(|| this.clone());
            if (this.width, this.height) != (shape.width, shape.height) {
                return malformed!(
                    "the board is {}x{}, not {}x{} as the batch",
                    this.width,
                    this.height,
                    shape.width,
                    shape.height
                );
            }
            Ok(position)
        },
        monitor,
    )
}

/// The cell codes of a position, top row first (0 empty, 1 the first player, 2 the second).
pub fn codes_of<B: Bits>(shape: &Shape<B>, position: &Position<B>) -> Vec<u8> {
    let first = if position.moves % 2 == 0 {
        position.current
    } else {
        position.opponent()
    };
    let mut codes = Vec::with_capacity(shape.cells as usize);
    for row in (0..shape.height).rev() {
        for col in 0..shape.width {
            let bit = shape.cell(col, row);
            codes.push(if position.mask & bit == B::ZERO {
                0
            } else if first & bit != B::ZERO {
                1
            } else {
                2
            });
        }
    }
    codes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seven_by_six() -> Shape {
        Shape::<u64>::new(7, 6).unwrap()
    }

    #[test]
    fn plays_and_refuses_moves_as_pons_does() {
        let shape = seven_by_six();
        let columns = columns_of_text("4453").unwrap();
        assert_eq!(columns, vec![3, 3, 4, 2]);
        let position = play_columns(&shape, &columns, false, 1).unwrap();
        assert_eq!(position.moves, 4);
        let full = columns_of_text("1111111").unwrap();
        assert_eq!(play_columns(&shape, &full, false, 1).unwrap_err().index, 6);
        // 1212121: the first player's fourth stone in column 1 completes four.
        let four = columns_of_text("1212121").unwrap();
        assert_eq!(play_columns(&shape, &four, false, 1).unwrap_err().index, 6);
        assert!(play_columns(&shape, &four, true, 1).unwrap().is_won(&shape));
        assert!(columns_of_text("12a").is_err());
        assert!(Shape::<u64>::new(8, 8).is_err() && Shape::<u64>::new(8, 7).is_ok());
        assert!(Shape::<u128>::new(8, 8).is_ok() && Shape::<u128>::new(16, 8).is_err());
        assert!(Shape::<u64>::new(0, 3).is_err() && Shape::<u128>::new(7, 0).is_err());
    }

    #[test]
    fn one_look_at_the_end_plays_as_a_look_at_every_move() {
        // Random lines on small and large boards, many running past a four or a full column
        // or off the board: the fast path and the checked one agree, errors included.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for (width, height) in [(7, 6), (4, 4), (5, 3), (8, 7)] {
            let shape = Shape::<u64>::new(width, height).unwrap();
            for _ in 0..3000 {
                let mut columns = Vec::new();
                for _ in 0..(state >> 58) {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    columns.push((state % (u64::from(shape.width) + 1)) as i64);
                }
                for last_wins in [false, true] {
                    assert_eq!(
                        play_columns(&shape, &columns, last_wins, 1),
                        play_checked(&shape, &columns, last_wins, 1),
                        "{columns:?} on {width}x{height}"
                    );
                }
            }
        }
    }

    #[test]
    fn scores_convert_both_ways() {
        let shape = seven_by_six();
        // The empty board: the first player wins with the 41st stone: Pons score 1.
        let empty = engine_score(1, 0, shape.cells);
        assert_eq!(empty, 2); // one cell left after the 41st stone, plus one
        assert_eq!(pons_score(empty), 1);
        for moves in 0..42 {
            for pons in -21..=21 {
                let score = engine_score(pons, moves, shape.cells);
                assert_eq!(pons_score(score), pons, "{pons} at {moves}");
            }
        }
    }

    #[test]
    fn boards_are_checked_for_play() {
        let shape = Shape::<u64>::new(4, 4).unwrap();
        let board = |rows: &str| {
            let cells: Vec<u8> = rows
                .chars()
                .filter(|&c| c != '/')
                .map(|c| match c {
                    'x' => 1,
                    'o' => 2,
                    _ => 0,
                })
                .collect();
            from_cells(&shape, &cells)
        };
        assert!(board("..../..../..../x...").is_ok());
        assert!(board("..../..../x.../....").is_err()); // floating
        assert!(board("..../..../x.../o...").is_err()); // O under X, X first: no order
        assert!(board("..../..../o.../x...").is_ok());
        assert!(board("..../..../..../xxxx").is_err()); // counts
        assert!(board("..../ooo./xooo/xxxx").is_err()); // both four? counts 5/6 anyway
        assert!(board("..../..../ooo./xxxx").is_ok()); // X's fourth stone won
        assert!(board("..../o.../oo../xxxx").is_ok());
    }
}

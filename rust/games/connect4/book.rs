//! Opening books a search stops at. A book of perfectplay's own (`Book`): Pons' score of every
//! position with at most `depth` stones, built and checked by `perfectplay.connect4.openings` (Python),
//! read here as two sorted columns; a position and its mirror image share one entry, under the
//! smaller of their keys (recoded into 64 bits past 64: [`book_key`]). The community's 12-ply book of 7x6 (`DeepBook`, from
//! `bitbully-databases`): Pons' score of every position of exactly 12 stones where nobody has
//! won and the side to move cannot win at once, a mirror image once, under its own keys; and
//! a 13-ply book attached to it when given (`perfectplay openings build-13ply`): the scores of
//! each entry's children, seven an entry, read through the parent; and a 14-ply book attached
//! to both (`perfectplay openings build-14ply`): a score a slot of a perfect hash of its
//! positions' keys, which the rules and the 13-ply book tell apart.

use crate::engine::perfect_hash::PerfectHash;
use crate::games::connect4::{Bits, Position, Shape, low_bits, top_stone};

/// A book's columns, borrowed: keys in increasing order and their scores.
#[derive(Clone, Copy)]
pub struct Book<'a> {
    pub keys: &'a [u64],
    pub scores: &'a [i8],
    pub depth: u32,
}

impl Book<'_> {
    /// The book's score of `p`, if it holds it.
    #[inline]
    pub fn score<B: Bits>(&self, shape: &Shape<B>, p: &Position<B>) -> Option<i32> {
        if p.moves > self.depth {
            return None;
        }
        let at = self.keys.binary_search(&book_key(shape, p)?).ok()?;
        self.scores.get(at).map(|&score| i32::from(score))
    }
}

/// The key a book holds `p` and its mirror image under: the smaller of their keys
/// ([`Position::key`]) on a board of up to 64 bits. Past 64 bits, that key recoded column by
/// column, column 0 in the lowest bits, each as its height in unary (that many 1s, then a 0)
/// and then its stones (1: the side to move's), a code no other column's begins: `2 * stones +
/// width` bits in all; None when they pass 64 (a book holds at most `(64 - width) / 2` stones
/// there).
#[inline]
pub fn book_key<B: Bits>(shape: &Shape<B>, p: &Position<B>) -> Option<u64> {
    let key = p.key(shape);
    let key = key.min(shape.mirrored_key(key));
    if shape.width * shape.stride <= 64 {
        return Some(key.low_u64());
    }
    if 2 * p.moves + shape.width > 64 {
        return None;
    }
    // Each column holds at most 31 stones here, so its key fits in the low 64 bits.
    let column = low_bits::<B>(shape.stride);
    let (mut recoded, mut used) = (0u64, 0);
    for col in 0..shape.width {
        let bits = ((key >> (col * shape.stride)) & column).low_u64();
        let stones = 63 - bits.leading_zeros();
        let side_to_move = bits ^ (1 << stones);
        let height = (1 << stones) - 1;
        recoded |= (height | (side_to_move << (stones + 1))) << used;
        used += 2 * stones + 1;
    }
    Some(recoded)
}

/// The stones of every position of the 12-ply book.
pub const DEEP_STONES: u32 = 12;

/// The slot of a 13-ply score the 13-ply book does not hold: a child that ends the game or
/// whose side to move wins at once (the rules answer both).
pub const NOT_HELD: i8 = i8::MAX;

/// The 12-ply book's columns, borrowed: keys (`codes`) in increasing order, Pons' scores; and
/// the 13-ply book when there is one: for each entry, in the entry's own orientation, the
/// Pons' score of the child in each of its 7 columns (or [`NOT_HELD`]). Its positions need no
/// keys of their own: each is found through a parent the 12-ply book holds.
#[derive(Clone, Copy)]
pub struct DeepBook<'a> {
    pub codes: &'a [i32],
    pub scores: &'a [i8],
    pub next: Option<&'a [i8]>,
    pub fourteen: Option<Fourteen<'a>>,
}

/// The 14-ply book, borrowed: the perfect hash of its positions' keys (`current + mask`, the
/// smaller of a mirror pair's) and a score a slot ([`NOT_HELD`] in a slot no position has).
#[derive(Clone, Copy)]
pub struct Fourteen<'a> {
    pub hash: PerfectHash<'a>,
    pub scores: &'a [i8],
}

impl DeepBook<'_> {
    /// The book's score of a 7x6 position of 12 stones, if it holds it or its mirror image.
    #[inline]
    pub fn score(&self, p: &Position) -> Option<i32> {
        let (at, _) = self.find(p)?;
        self.scores.get(at).map(|&score| i32::from(score))
    }

    /// Where the book holds a 7x6 position of 12 stones, and whether as its mirror image.
    #[inline]
    fn find(&self, p: &Position) -> Option<(usize, bool)> {
        // 12 stones: the side to move is the first player.
        [false, true].into_iter().find_map(|mirrored| {
            let code = deep_code(p.current, p.mask, mirrored);
            Some((self.codes.binary_search(&code).ok()?, mirrored))
        })
    }

    /// The 13-ply book's score of a 7x6 position of 13 stones, read through the first of its
    /// parents (the first player's top stone taken off, column by column) the 12-ply book
    /// holds with this child held. Kept out of line: the search asks the books at every node,
    /// and this is read at a search's root at most.
    #[cold]
    #[inline(never)]
    pub fn next_score(&self, shape: &Shape, p: &Position) -> Option<i32> {
        let next = self.next?;
        parents(shape, p).find_map(|(col, parent)| {
            let (at, mirrored) = self.find(&parent)?;
            let column = if mirrored { shape.width - 1 - col } else { col };
            let score = *next.get(at * shape.width as usize + column as usize)?;
            (score != NOT_HELD).then_some(i32::from(score))
        })
    }

    /// The 14-ply book's score of a 7x6 position of 14 stones it holds: one whose side to
    /// move cannot win at once, with a parent the 13-ply book holds. No key is stored, so the
    /// rules decide which positions it holds. Out of line, as `next_score`.
    #[cold]
    #[inline(never)]
    pub fn fourteen_score(&self, shape: &Shape, p: &Position) -> Option<i32> {
        let fourteen = self.fourteen?;
        if p.wins_somewhere(shape) {
            return None;
        }
        parents(shape, p).find(|(_, parent)| self.next_score(shape, parent).is_some())?;
        let key = p.key(shape);
        let key = key.min(shape.mirrored_key(key)) - shape.bottom;
        let score = *fourteen.scores.get(fourteen.hash.slot(key)?)?;
        (score != NOT_HELD).then_some(i32::from(score))
    }
}

/// The positions `p` follows, with the column of the stone taken off: one for each column
/// whose top stone is the player's who moved last.
fn parents(shape: &Shape, p: &Position) -> impl Iterator<Item = (u32, Position)> {
    let (mover, mask, moves) = (p.current ^ p.mask, p.mask, p.moves);
    (0..shape.width).filter_map(move |col| {
        let top = top_stone(shape, mask, col);
        (top & mover != 0).then(|| {
            let parent = Position {
                current: mover ^ top,
                mask: mask ^ top,
                moves: moves - 1,
            };
            (col, parent)
        })
    })
}

/// The 12-ply book's key of a 7x6 position of 12 stones whose first player holds `first`
/// (of its mirror image with `mirrored`): column by column, each bottom up, a first player's
/// stone `10`, a second player's `11`, `0` closing the column, one more `0` at the end, read
/// as a signed 32-bit number (2 * 12 + 7 + 1 = 32 bits).
#[inline]
pub fn deep_code(first: u64, mask: u64, mirrored: bool) -> i32 {
    let mut code = 0u64;
    for index in 0..7 {
        let col = if mirrored { 6 - index } else { index };
        let (stones, firsts) = ((mask >> (7 * col)) & 0x3f, (first >> (7 * col)) & 0x3f);
        for row in 0..stones.count_ones() {
            code = code << 2 | if firsts >> row & 1 == 1 { 0b10 } else { 0b11 };
        }
        code <<= 1;
    }
    (code << 1) as u32 as i32
}

/// The books a search reads: its own, the 12-ply one (with the 13-ply one or not), both or
/// neither.
#[derive(Clone, Copy, Default)]
pub struct Books<'a> {
    pub opening: Option<Book<'a>>,
    pub deep: Option<DeepBook<'a>>,
}

impl<'a> Books<'a> {
    /// A book's columns: `keys` and `scores` of positions of up to `depth` stones, and the
    /// 12-ply book's codes and scores with the 13-ply book's scores, 7 an entry (columns of
    /// those lengths, or a `ValueError`).
    pub fn new(
        keys: &'a [u64],
        scores: &'a [i8],
        depth: u32,
        deep: Option<DeepBook<'a>>,
    ) -> crate::engine::error::Result<Books<'a>> {
        if keys.len() != scores.len() || deep.is_some_and(|d| d.codes.len() != d.scores.len()) {
            return crate::engine::error::malformed!(
                "the book's keys (or codes) and scores differ in length"
            );
        }
        if deep.is_some_and(|d| d.next.is_some_and(|next| next.len() != 7 * d.codes.len())) {
            return crate::engine::error::malformed!(
                "the 13-ply book's scores are not 7 for each entry of the 12-ply book"
            );
        }
        if deep.is_some_and(|d| {
            d.fourteen.is_some_and(|book| {
                d.next.is_none() || book.scores.len() != book.hash.slots as usize
            })
        }) {
            return crate::engine::error::malformed!(
                "the 14-ply book needs the 13-ply book and a score for each of its slots"
            );
        }
        Ok(Books {
            opening: Some(Book {
                keys,
                scores,
                depth,
            }),
            deep,
        })
    }

    /// Does a search of `p` stop at the 12-ply book (fewer stones than it)?
    #[inline]
    pub fn below<B: Bits>(&self, p: &Position<B>) -> bool {
        self.deep.is_some() && p.moves < DEEP_STONES
    }

    /// A book's score of `p` (a game still going on), if one holds it. A score the stones do
    /// not allow (an altered book) is no answer: the search answers instead.
    #[inline(always)]
    pub fn score<B: Bits>(&self, shape: &Shape<B>, p: &Position<B>) -> Option<i32> {
        let score = match (self.opening, self.deep) {
            (Some(book), _) if p.moves <= book.depth => book.score(shape, p),
            // 12 to 14 stones in one comparison: most nodes are past them.
            (_, Some(deep)) if p.moves.wrapping_sub(DEEP_STONES) <= 2 => {
                // The deep books are of 7x6, a 64-bit board.
                let (shape, p) = (B::narrow_shape(shape)?, B::narrow_position(p)?);
                match p.moves - DEEP_STONES {
                    0 => deep.score(p),
                    1 => deep.next_score(shape, p),
                    _ => deep.fourteen_score(shape, p),
                }
            }
            _ => None,
        }?;
        let (cells, moves) = (shape.cells as i32, p.moves as i32);
        // A win at once scores the most there is; otherwise the side to move wins at best
        // with its next stone but one, and loses at worst to the opponent's next stone.
        let top = (cells + 1 - moves) / 2;
        let allowed = if p.wins_somewhere(shape) {
            top..=top
        } else {
            -(cells - moves) / 2..=top - 1
        };
        allowed.contains(&score).then_some(score)
    }

    /// A lower bound of the score of a position one stone past the deepest book (the 12-ply,
    /// the 13-ply or the 14-ply), from the book's scores of the positions it follows (one for each top
    /// stone of the player who moved last): the side to move there chose among moves that
    /// include this one, so this position's score is at least minus theirs. None off that
    /// ply or without the books.
    #[inline(always)]
    pub fn parents_bound<B: Bits>(&self, shape: &Shape<B>, p: &Position<B>) -> Option<i32> {
        let (shape, p) = (B::narrow_shape(shape)?, B::narrow_position(p)?);
        // 13 to 15 stones in one comparison first: this is asked at every node.
        if p.moves.wrapping_sub(DEEP_STONES + 1) > 2 {
            return None;
        }
        let deep = self.deep?;
        let deepest =
            DEEP_STONES + u32::from(deep.next.is_some()) + u32::from(deep.fourteen.is_some());
        if p.moves != deepest + 1 {
            return None;
        }
        parents(shape, p)
            .filter_map(|(_, parent)| self.score(shape, &parent).map(|score| -score))
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::{columns_of_text, from_cells, play_columns};

    #[test]
    fn deep_codes_follow_the_books_format() {
        // The example of bitbully-databases' documentation (the first player wins in 29
        // moves), drawn top row first.
        let shape = Shape::<u64>::new(7, 6).unwrap();
        let rows = [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 1, 0, 2, 0, 0, 0],
            [0, 2, 0, 1, 0, 2, 0],
            [0, 1, 0, 2, 0, 1, 0],
            [0, 2, 0, 1, 0, 2, 0],
        ];
        let p = from_cells(&shape, rows.as_flattened()).unwrap();
        let bits = [
            "0",
            "111011100",
            "0",
            "10111011100",
            "0",
            "1110110",
            "0",
            "0",
        ]
        .concat();
        let expected = u32::from_str_radix(&bits, 2).unwrap() as i32;
        assert_eq!(deep_code(p.current, p.mask, false), expected);
        // The mirror image's key is the key of the board with its columns reversed.
        let mirrored: Vec<u8> = rows
            .iter()
            .flat_map(|row| row.iter().rev().copied())
            .collect();
        let image = from_cells(&shape, &mirrored).unwrap();
        assert_eq!(
            deep_code(p.current, p.mask, true),
            deep_code(image.current, image.mask, false)
        );
    }

    #[test]
    fn book_keys_past_64_bits_tell_positions_apart() {
        use std::collections::HashMap;
        let shape = Shape::<u128>::new(8, 8).unwrap();
        let mut seen: HashMap<u64, (u128, u128)> = HashMap::new();
        for code in 0..8 * 8 * 8 * 8 {
            for stones in 0..=4 {
                let columns: Vec<i64> = (0..stones).map(|i| (code >> (3 * i)) & 7).collect();
                let mirror: Vec<i64> = columns.iter().map(|col| 7 - col).collect();
                let p = play_columns(&shape, &columns, true, 0).unwrap();
                let image = play_columns(&shape, &mirror, true, 0).unwrap();
                let key = book_key(&shape, &p).unwrap();
                assert!(key < 1 << (8 + 2 * stones), "{columns:?}");
                assert_eq!(book_key(&shape, &image), Some(key));
                let canonical = (p.current, p.mask).min((image.current, image.mask));
                assert_eq!(
                    *seen.entry(key).or_insert(canonical),
                    canonical,
                    "{columns:?}"
                );
            }
        }
        // Two columns of 32: 2 * 31 + 2 bits hold 31 stones, not 32.
        let tall = Shape::<u128>::new(2, 32).unwrap();
        let columns: Vec<i64> = (0..32).map(|i| (i / 2) % 2).collect();
        let p = play_columns(&tall, &columns[..31], true, 0).unwrap();
        assert!(book_key(&tall, &p).is_some());
        let p = play_columns(&tall, &columns, true, 0).unwrap();
        assert_eq!(book_key(&tall, &p), None);
    }

    #[test]
    fn a_score_the_stones_do_not_allow_is_no_answer() {
        let shape = Shape::<u64>::new(4, 4).unwrap();
        let p = play_columns(&shape, &columns_of_text("1111").unwrap(), false, 1).unwrap();
        let key = p.key(&shape).min(shape.mirrored_key(p.key(&shape)));
        for (score, answer) in [
            (0, Some(0)),
            (5, Some(5)),
            (6, None),
            (127, None),
            (-6, Some(-6)),
            (-7, None),
        ] {
            let (keys, scores) = ([key], [score]);
            let book = Book {
                keys: &keys,
                scores: &scores,
                depth: 4,
            };
            let books = Books {
                opening: Some(book),
                deep: None,
            };
            assert_eq!(books.score(&shape, &p), answer, "{score}");
        }
    }
}

//! The m,n,k solver: negamax with alpha-beta over (mine, theirs) bitboards.
//!
//! What keeps it fast:
//! * Threats, read off the winning windows at every node: an immediate win ends the search
//!   there; a single threat of the opponent forces the block; two of them lose; a move that
//!   makes two threats at once wins in three plies.
//! * Bounds: with no immediate win the best left is a win in three plies, with no double threat
//!   against us the worst is a loss in four; a side with no window it can still complete cannot
//!   win, and when neither can the game is a draw.
//! * A transposition table keyed by the position in its canonical orientation under the board's
//!   symmetries (8 for square boards, 4 otherwise), found through incrementally kept Zobrist
//!   hashes of every orientation; keys are exact.
//! * Principal-variation search with moves ordered: the stored best move, then moves that
//!   threaten, then centre first.

use crate::engine::budget::{Budget, Stop};
use crate::engine::driver::Answers;
use crate::engine::error::Error;
use crate::engine::score::{self, DRAW, Score};
use crate::engine::symmetry::Symmetries;
use crate::engine::table::{self, Stored, Table};
use crate::engine::window::{Window, cells_of};
use crate::games::mnk::{Board, Geometry};
use std::sync::{Arc, Mutex};

const NO_MOVE: u8 = u8::MAX;

/// Default table size for a board of `cells` cells: about 2^(cells/2 + 8) slots, from 96 KiB
/// for tiny boards to 96 MiB from 28 cells up.
pub fn default_table_bytes(cells: usize) -> usize {
    table::SLOT_BYTES << (cells / 2 + 8).clamp(12, 22)
}

/// Default table size of a batch worker: at least 16 MiB. A worker keeps its table for all its
/// rows, and positions of one batch share much: on 100,000 random 4x4 positions 16 MiB took
/// 2.3x less time than the single-call default of 1.5 MiB.
pub fn default_batch_table_bytes(cells: usize) -> usize {
    default_table_bytes(cells).max(KEPT_TABLE_BYTES)
}

/// The most table a board of `cells` cells can use: a slot for each of its at most 3^cells
/// positions. A bigger request is cut to this (and never allocated and zeroed in vain).
pub fn usable_table_bytes(cells: usize) -> usize {
    3usize
        .checked_pow(cells as u32)
        .map_or(usize::MAX, usize::next_power_of_two)
        .saturating_mul(table::SLOT_BYTES)
}

/// Everything about a geometry the search reads at every node.
pub struct Engine {
    pub geometry: Geometry,
    /// Cell permutations, identity first: `symmetries[s][cell]` is where `cell` goes.
    symmetries: Vec<[u8; 64]>,
    inverses: Vec<[u8; 64]>,
    /// `zobrist[s][colour][cell]`: the key of a stone of that colour at `cell` as seen through
    /// symmetry `s` (the key of the cell it maps to), so one XOR per symmetry keeps every
    /// orientation's hash.
    zobrist: Vec<[[u64; 64]; 2]>,
    /// `byte_maps[s][byte][bits]`: the image under `s` of the cells a byte of a mask holds.
    byte_maps: Vec<[[u64; 256]; 8]>,
    /// Empty cells are tried in this order: nearest the centre first.
    centre_order: Vec<u8>,
}

impl Engine {
    pub fn new(geometry: Geometry) -> Engine {
        let (rows, cols) = (geometry.rows, geometry.cols);
        let cells = geometry.cells();
        let grid = Symmetries::of(rows, cols);
        let symmetries: Vec<[u8; 64]> = (0..grid.count())
            .map(|which| {
                let mut permutation = [0u8; 64];
                for (cell, target) in permutation.iter_mut().enumerate().take(cells) {
                    *target = grid.map(which, cell as u8);
                }
                permutation
            })
            .collect();
        let inverses = (0..grid.count())
            .map(|which| {
                let mut inverse = [0u8; 64];
                for (cell, source) in inverse.iter_mut().enumerate().take(cells) {
                    *source = grid.unmap(which, cell as u8);
                }
                inverse
            })
            .collect();
        let mut seed = 0x5eed_u64;
        let mut base = [[0u64; 64]; 2];
        for key in base.iter_mut().flatten() {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            *key = table::mix(seed);
        }
        let zobrist = symmetries
            .iter()
            .map(|permutation| {
                let mut keys = [[0u64; 64]; 2];
                for colour in 0..2 {
                    for cell in 0..cells {
                        keys[colour][cell] = base[colour][permutation[cell] as usize];
                    }
                }
                keys
            })
            .collect();
        let byte_maps = symmetries
            .iter()
            .map(|permutation| {
                let mut maps = [[0u64; 256]; 8];
                for (byte, map) in maps.iter_mut().enumerate() {
                    for (bits, image) in map.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let cell = byte * 8 + bit;
                            if bits >> bit & 1 == 1 && cell < cells {
                                *image |= 1 << permutation[cell];
                            }
                        }
                    }
                }
                maps
            })
            .collect();
        // Twice the distance to the centre, in integers: (2r - (rows - 1))^2 + ...
        let mut centre_order: Vec<u8> = (0..cells as u8).collect();
        centre_order.sort_by_key(|&cell| {
            let (r, c) = (i64::from(cell) / cols as i64, i64::from(cell) % cols as i64);
            let (dr, dc) = (2 * r - (rows as i64 - 1), 2 * c - (cols as i64 - 1));
            (dr * dr + dc * dc, cell)
        });
        Engine {
            geometry,
            symmetries,
            inverses,
            zobrist,
            byte_maps,
            centre_order,
        }
    }

    /// A node for the position (mine, theirs), `mine` to move.
    pub fn node(&self, mine: u64, theirs: u64) -> Node {
        let mine_is_x = mine.count_ones() == theirs.count_ones();
        let (x, o) = if mine_is_x {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let mut hashes = [0u64; 8];
        for (s, hash) in hashes.iter_mut().enumerate().take(self.symmetries.len()) {
            for (colour, stones) in [x, o].into_iter().enumerate() {
                for cell in cells_of(stones) {
                    *hash ^= self.zobrist[s][colour][cell as usize];
                }
            }
        }
        Node {
            mine,
            theirs,
            hashes,
        }
    }

    /// The node after the side to move plays `cell`.
    #[inline]
    pub fn play(&self, node: &Node, cell: u8) -> Node {
        let colour = usize::from(node.mine.count_ones() != node.theirs.count_ones());
        let mut hashes = node.hashes;
        for (s, hash) in hashes.iter_mut().enumerate().take(self.symmetries.len()) {
            *hash ^= self.zobrist[s][colour][cell as usize];
        }
        Node {
            mine: node.theirs,
            theirs: node.mine | 1 << cell,
            hashes,
        }
    }

    #[inline]
    fn permute(&self, s: usize, mask: u64) -> u64 {
        let maps = &self.byte_maps[s];
        (0..8).fold(0, |image, byte| {
            image | maps[byte][(mask >> (8 * byte)) as usize & 0xff]
        })
    }

    /// The table key of a node (its canonical orientation, exact), the slot hash, and the
    /// symmetry that gives that orientation.
    #[inline]
    fn key(&self, node: &Node) -> ([u64; 2], u64, usize) {
        let count = self.symmetries.len();
        let (s, hash) = node.hashes[..count]
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(_, hash)| hash)
            .expect("at least the identity");
        let key = [self.permute(s, node.mine), self.permute(s, node.theirs)];
        (key, hash, s)
    }
}

/// A position with the side to move's stones first, and its hash in every orientation.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub mine: u64,
    pub theirs: u64,
    hashes: [u64; 8],
}

/// What the winning windows say about a position.
struct Threats {
    /// The opponent has completed a window: the side to move has lost.
    lost: bool,
    /// Cells where the side to move would complete a window.
    my_wins: u64,
    /// Cells where the opponent would.
    their_wins: u64,
    /// Some window can still be completed by the side to move (no opponent stone in it, and
    /// no more empty cells than the moves left to fill them) / by the opponent.
    my_hope: bool,
    their_hope: bool,
    /// The cells of every window with hope for either side. A stone anywhere else completes
    /// and blocks nothing any more: playing there is passing, and an extra stone never hurts
    /// in an m,n,k-game, so some move here scores at least as well (plies included) and the
    /// others need no search.
    live: u64,
}

pub struct Solver<'a, 'b> {
    engine: &'a Engine,
    table: &'a mut Table,
    budget: &'a mut Budget<'b>,
}

/// Tables up to this size are kept per thread for the next search on the same geometry: for
/// small positions clearing a fresh table would cost more than the search. Bigger ones are
/// freed with their search, unless their size was asked for.
const KEPT_TABLE_BYTES: usize = 16 << 20;

/// A table and the (rows, cols, k) its positions belong to: entries are exact facts about
/// positions of that geometry, true for every later search on it.
type KeptTable = ((usize, usize, usize), Table);

thread_local! {
    /// The last table of this thread.
    static KEPT: std::cell::RefCell<Option<KeptTable>> = const { std::cell::RefCell::new(None) };
}

/// Runs `work` with a table of `table_bytes` for `engine`'s geometry: this thread's kept
/// table when it is of that size, else a new one. Small tables, and any table whose size was
/// `asked` for, are kept for the thread's next search on the same geometry (entries are exact
/// facts about positions of the geometry, true for every later search on it); other big ones
/// are freed with the search.
pub fn with_kept_table<T>(
    engine: &Engine,
    table_bytes: usize,
    asked: bool,
    work: impl FnOnce(&mut Table) -> Result<T, Error>,
) -> Result<T, Error> {
    let geometry = &engine.geometry;
    let shape = (geometry.rows, geometry.cols, geometry.k);
    let table_bytes = table_bytes.min(usable_table_bytes(geometry.cells()));
    let kept = KEPT
        .with(|kept| kept.borrow_mut().take())
        .filter(|(kept_shape, table)| {
            *kept_shape == shape && table.bytes() == Table::with_bytes_size(table_bytes)
        });
    let mut table = match kept {
        Some((_, table)) => table,
        None => Table::with_bytes(table_bytes)?,
    };
    let result = work(&mut table);
    if asked || table.bytes() <= KEPT_TABLE_BYTES {
        KEPT.with(|kept| *kept.borrow_mut() = Some((shape, table)));
    }
    result
}

/// Frees this thread's kept table: the next search starts from an empty one.
pub fn free_kept_table() {
    KEPT.with(|kept| kept.borrow_mut().take());
}

/// A batch worker's table: at least 16 MiB, kept for all the worker's rows and freed with it.
pub fn batch_table(engine: &Engine, table_bytes: usize) -> Result<Table, Error> {
    let table_bytes = table_bytes.min(usable_table_bytes(engine.geometry.cells()));
    Ok(Table::with_bytes(table_bytes)?)
}

impl Solver<'_, '_> {
    fn threats(&self, mine: u64, theirs: u64) -> Threats {
        let geometry = &self.engine.geometry;
        let k = geometry.k as u32;
        let empties = (geometry.full & !(mine | theirs)).count_ones();
        // The side to move plays the first of the remaining moves.
        let (my_moves, their_moves) = (empties.div_ceil(2), empties / 2);
        let mut threats = Threats {
            lost: false,
            my_wins: 0,
            their_wins: 0,
            my_hope: false,
            their_hope: false,
            live: 0,
        };
        for &window in &geometry.windows {
            let (my_stones, their_stones) =
                ((window & mine).count_ones(), (window & theirs).count_ones());
            if their_stones == 0 {
                if my_stones + 1 == k {
                    threats.my_wins |= window & !mine;
                }
                if k - my_stones <= my_moves {
                    threats.my_hope = true;
                    threats.live |= window;
                }
            }
            if my_stones == 0 {
                if their_stones == k {
                    threats.lost = true;
                } else if their_stones + 1 == k {
                    threats.their_wins |= window & !theirs;
                }
                if k - their_stones <= their_moves {
                    threats.their_hope = true;
                    threats.live |= window;
                }
            }
        }
        threats
    }

    /// The cells where the side to move would win once it has played `cell` as well.
    #[inline]
    fn wins_after(&self, mine: u64, theirs: u64, cell: u8) -> u64 {
        let geometry = &self.engine.geometry;
        let k = geometry.k as u32;
        let mine = mine | 1 << cell;
        geometry.windows_through[cell as usize]
            .iter()
            .filter(|&&window| window & theirs == 0 && (window & mine).count_ones() + 1 == k)
            .fold(0, |wins, &window| wins | (window & !mine))
    }

    /// The exact score of `node` when it lies in (alpha, beta); otherwise a bound on the side
    /// the window was missed (fail-soft).
    pub fn negamax(
        &mut self,
        node: &Node,
        mut alpha: Score,
        mut beta: Score,
    ) -> Result<Score, Stop> {
        self.budget.visit()?;
        let (mine, theirs) = (node.mine, node.theirs);
        let empty = self.engine.geometry.full & !(mine | theirs);
        let empties = empty.count_ones();
        let threats = self.threats(mine, theirs);
        if threats.lost {
            return Ok(score::loss(empties));
        }
        if empties == 0 {
            return Ok(DRAW);
        }
        if threats.my_wins != 0 {
            return Ok(score::win(empties - 1));
        }
        if threats.their_wins.count_ones() >= 2 {
            // Only one of them can be blocked.
            return Ok(score::loss(empties - 2));
        }
        if !threats.my_hope && !threats.their_hope {
            return Ok(DRAW);
        }
        // No win in one: the fastest left is in three. No double threat against us: the
        // slowest loss left is in four. A side without hope cannot win at all.
        let best_possible = if threats.my_hope && empties >= 3 {
            score::win(empties - 3)
        } else {
            DRAW
        };
        let worst_possible = if threats.their_hope && empties >= 4 {
            score::loss(empties - 4)
        } else {
            DRAW
        };
        alpha = alpha.max(worst_possible);
        beta = beta.min(best_possible);
        if alpha >= beta {
            return Ok(alpha);
        }
        let (key, hash, symmetry) = self.engine.key(node);
        let mut first = NO_MOVE;
        if let Some(stored) = self.table.probe(hash, key) {
            if let Some(score) = table::apply(stored, &mut alpha, &mut beta) {
                return Ok(score);
            }
            if stored.best_move != NO_MOVE {
                first = self.engine.inverses[symmetry][stored.best_move as usize];
            }
        }
        // A single threat of the opponent must be blocked; otherwise every live cell.
        let candidates = if threats.their_wins != 0 {
            threats.their_wins
        } else {
            empty & threats.live
        };
        let mut moves = [0u8; 64];
        let mut count = 0;
        let mut threatening = 0usize;
        let mut push = |cell: u8, moves: &mut [u8; 64], front: bool| {
            if front {
                moves.copy_within(threatening..count, threatening + 1);
                moves[threatening] = cell;
                threatening += 1;
            } else {
                moves[count] = cell;
            }
            count += 1;
        };
        if first != NO_MOVE && candidates >> first & 1 == 1 {
            push(first, &mut moves, true);
        }
        for &cell in &self.engine.centre_order {
            if candidates >> cell & 1 == 0 || cell == first {
                continue;
            }
            let wins = self.wins_after(mine, theirs, cell);
            if wins.count_ones() >= 2 && best_possible == score::win(empties - 3) {
                // Two threats at once: the opponent blocks one, we complete the other.
                return Ok(best_possible);
            }
            push(cell, &mut moves, wins != 0);
        }
        let mut children = Window::new(alpha, beta, NO_MOVE);
        for (index, &cell) in moves[..count].iter().enumerate() {
            let child = self.engine.play(node, cell);
            if children
                .search_child(index, cell, |alpha, beta| self.negamax(&child, alpha, beta))?
            {
                break;
            }
        }
        let stored = Stored {
            score: children.best,
            bound: children.bound(),
            best_move: self.engine.symmetries[symmetry][children.best_move as usize],
        };
        self.table.store(hash, key, empties, stored);
        Ok(children.best)
    }

    /// The exact score: who wins (or a draw) by null windows around zero, then by how much.
    pub fn exact_score(&mut self, node: &Node) -> Result<Score, Stop> {
        let empties = (self.engine.geometry.full & !(node.mine | node.theirs)).count_ones();
        let (low, high) = (score::loss(empties), score::win(empties));
        if self.negamax(node, 0, 1)? > 0 {
            self.negamax(node, 0, high)
        } else if self.negamax(node, -1, 0)? >= 0 {
            Ok(DRAW)
        } else {
            self.negamax(node, low, 0)
        }
    }
}

impl<'a, 'b> Solver<'a, 'b> {
    pub fn new(engine: &'a Engine, table: &'a mut Table, budget: &'a mut Budget<'b>) -> Self {
        Solver {
            engine,
            table,
            budget,
        }
    }
}

impl Answers<Geometry> for Solver<'_, '_> {
    fn exact(&mut self, _: &Geometry, board: &Board) -> Result<Score, Stop> {
        let (mine, theirs) = board.relative();
        let node = self.engine.node(mine, theirs);
        self.exact_score(&node)
    }

    fn window(
        &mut self,
        _: &Geometry,
        board: &Board,
        alpha: Score,
        beta: Score,
    ) -> Result<Score, Stop> {
        let (mine, theirs) = board.relative();
        let node = self.engine.node(mine, theirs);
        self.negamax(&node, alpha, beta)
    }

    fn nodes(&self) -> u64 {
        self.budget.nodes()
    }
}

/// The engine of a geometry, built once per process and shared (threads included).
pub fn engine(rows: usize, cols: usize, k: i128) -> Result<Arc<Engine>, Error> {
    static ENGINES: Mutex<Vec<Arc<Engine>>> = Mutex::new(Vec::new());
    let geometry = Geometry::new(rows, cols, k)?;
    let mut engines = ENGINES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let same = |g: &Geometry| (g.rows, g.cols, g.k as i128) == (rows, cols, k);
    if let Some(engine) = engines.iter().find(|engine| same(&engine.geometry)) {
        return Ok(Arc::clone(engine));
    }
    let engine = Arc::new(Engine::new(geometry));
    // A few recent geometries are plenty; an engine is about 140 KiB.
    if engines.len() >= 16 {
        engines.remove(0);
    }
    engines.push(Arc::clone(&engine));
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::unlimited;
    use crate::engine::driver::{self, AsGiven, Game, Player, Solution};
    use crate::games::mnk::exhaustive::exhaustive_score;
    use std::collections::HashMap;

    fn solve_empty(rows: usize, cols: usize, k: i128) -> Solution {
        let engine = Engine::new(Geometry::new(rows, cols, k).unwrap());
        unlimited(|budget| {
            with_kept_table(&engine, 1 << 22, false, |table| {
                let mut solver = Solver::new(&engine, table, budget);
                let mut game = Game {
                    rules: &engine.geometry,
                    answers: &mut solver,
                };
                Ok(driver::solve(
                    &mut game,
                    &Board { x: 0, o: 0 },
                    Player::First,
                    &AsGiven,
                )?)
            })
        })
        .unwrap()
    }

    #[test]
    fn known_values_from_the_empty_board() {
        assert_eq!(solve_empty(3, 3, 3).value, 0);
        assert_eq!(solve_empty(3, 4, 3).value, 1);
        assert_eq!(solve_empty(4, 4, 3).value, 1);
        assert_eq!(solve_empty(4, 4, 4).value, 0);
    }

    #[test]
    fn symmetric_keys_agree() {
        let engine = Engine::new(Geometry::new(4, 4, 3).unwrap());
        // X on cells 0 and 5, O on 10; O plays 15.
        let node = engine.node(0b0000_0100_0000_0000, 0b0000_0000_0010_0001);
        let moved = engine.play(&node, 15);
        let (key, hash, _) = engine.key(&moved);
        for s in 0..8 {
            let image = engine.node(
                engine.permute(s, moved.mine),
                engine.permute(s, moved.theirs),
            );
            assert_eq!(engine.key(&image).0, key);
            assert_eq!(engine.key(&image).1, hash);
        }
    }

    #[test]
    fn agrees_with_exhaustive_search_from_many_positions() {
        let geometry = Geometry::new(4, 3, 3).unwrap();
        let engine = Engine::new(geometry.clone());
        let mut memo = HashMap::new();
        // Every position two moves in, and every position after one more move.
        for first in 0..12u8 {
            for second in (0..12u8).filter(|&c| c != first) {
                for third in (0..12u8).filter(|&c| c != first && c != second) {
                    let (mine, theirs) = (1u64 << second, 1u64 << first | 1u64 << third);
                    let node = engine.node(mine, theirs);
                    let exact = exhaustive_score(&geometry, mine, theirs, &mut memo);
                    let fast = unlimited(|budget| {
                        with_kept_table(&engine, 1 << 16, false, |table| {
                            Ok(Solver::new(&engine, table, budget).exact_score(&node)?)
                        })
                    });
                    assert_eq!(fast, Ok(exact));
                }
            }
        }
    }
}

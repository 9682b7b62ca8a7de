//! The prover: can Breaker stop Maker from getting k in a row first? A proof is a strategy for
//! Breaker, kept as nodes the certificate checker (`perfectplay.mnk.certificate`) reads without
//! trusting this code. Every node is a position with Maker to move, proven one of six ways:
//!
//! - a **pairing**: disjoint pairs of empty cells, every window still open to Maker holding one
//!   pair (Breaker answers a pair's cell with the other);
//! - the **potential** (Erdős-Selfridge): the open windows, each weighted 2^-(its empty cells),
//!   sum to less than 1/2;
//! - a **split**: a Maker move, Breaker's reply and the node after them, whose *zone* (the cells
//!   its proof relies on) names the only other Maker moves that need answers of their own; every
//!   Maker move outside it is answered by the same reply, because an extra Maker stone outside a
//!   proof's zone leaves the proof standing;
//! - a **mirror**: a symmetry of the board takes the position to one another node proves (the
//!   tables are keyed by a position's least image under the symmetries);
//! - a **forced** move: Breaker's own window lacks only one cell, so Maker must take it (any
//!   other move lets Breaker complete the window and end the game), then Breaker's reply and
//!   the node after them;
//! - **won**: Breaker has completed a window of its own, so Maker never gets one.
//!
//! The last two read the real game, where the first side to complete a window wins: a proof
//! shows that Maker does not complete one first. The zone of either holds two empty cells of
//! every window open to Maker (one for a won node), so no extra Maker stone outside it gives
//! Maker a window first.
//!
//! The search deepens step by step (a split uses a step), so a shallow proof is found before a
//! deep failure is searched out. The twin (`perfectplay.mnk.twin`) runs the same steps in the same order and gives the same
//! nodes; the tests compare them.

use crate::engine::budget::Budget;
use crate::engine::error::{Error, Result};
use crate::engine::memory::OutOfMemory;
use crate::engine::symmetry::Symmetries;
use crate::engine::window::cells_of;
use crate::games::mnk::Geometry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Steps the pairing finder may take at one node before it gives the pairing up (the node is
/// then split instead).
pub const PAIRING_STEPS: u32 = 200;

/// The most urgent replies Breaker tries where Maker has no threat.
pub const REPLIES: usize = 3;

/// The bytes a proof's node or table entry is counted at against the memory it may hold (what
/// one takes here, with the tables' spare room, rounded up).
pub const ENTRY_BYTES: usize = 128;

/// How a node is proven; cells are bit indices (`row * cols + col`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Pairing(Vec<(u8, u8)>),
    Potential,
    /// `(maker move, breaker reply, node after them)`; the first's zone names the others.
    Split(Vec<(u8, u8, u32)>),
    /// `(node, symmetry)`: this position moved by the symmetry (`engine::symmetry`'s numbering)
    /// is the one the node proves.
    Mirror(u32, u8),
    /// `(maker move, breaker reply, node after them)`: Breaker threatens to complete its own
    /// window at the move, so any other Maker move loses at once.
    Forced(u8, u8, u32),
    /// Breaker has completed a window of its own: the game is over before Maker's.
    Won,
}

/// A proof: the root (with Breaker to move first, its reply too) and the nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    pub reply: Option<u8>,
    pub root: u32,
    pub nodes: Vec<Node>,
}

/// What the search of a position found: a proof, or none (`cut`: none within the depth).
#[derive(Debug, Clone, Copy)]
enum Found<T> {
    Proven(T),
    Failed { cut: bool },
}

/// A position's entry in a table: its proof, or the depth no proof was found within
/// (`u32::MAX`: none at any depth).
#[derive(Debug, Clone, Copy)]
enum Known<T> {
    Proven(T),
    FailedWithin(u32),
}

/// A table's entry: what is known, and the symmetry that takes the position the proof was
/// found for to the key (the position's least image).
#[derive(Debug, Clone, Copy)]
struct Entry<T> {
    known: Known<T>,
    symmetry: u8,
}

struct Prover<'g, 'b, 'p> {
    geometry: &'g Geometry,
    symmetries: Symmetries,
    /// `composed[p][q]`: the symmetry that takes a position to the one `q` takes to where `p`
    /// takes it (`q`'s inverse after `p`).
    composed: Vec<Vec<u8>>,
    inverse: Vec<u8>,
    mirrors: HashMap<(u32, u8), u32, BuildHasherDefault<Mixer>>,
    budget: &'b mut Budget<'p>,
    nodes: Vec<Node>,
    zones: Vec<u64>,
    /// Maker-to-move positions: their node, or how deep no proof was found.
    maker_table: Table<Entry<u32>>,
    /// Breaker-to-move positions: the reply and the node after it, or how deep none was found.
    breaker_table: Table<Entry<(u8, u32)>>,
    /// The most nodes and table entries the proof may hold.
    most_entries: usize,
}

/// Positions (Maker's and Breaker's stones) to what is known of them.
type Table<T> = HashMap<(u64, u64), T, BuildHasherDefault<Mixer>>;

/// A hasher for two masks: a multiply and a rotate a word (the keys are not chosen by anyone
/// who could aim at collisions: they are positions the search reaches).
#[derive(Default)]
struct Mixer(u64);

impl Hasher for Mixer {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Room for one more entry in `table`, or the error of memory that ran out.
fn room<T>(table: &mut Table<T>) -> Result<()> {
    let bytes = size_of::<((u64, u64), T)>().saturating_mul(table.len().max(1));
    table.try_reserve(1).map_err(|_| OutOfMemory { bytes })?;
    Ok(())
}

impl<T: Copy> Known<T> {
    fn of(found: Found<T>, depth: u32) -> Known<T> {
        match found {
            Found::Proven(proof) => Known::Proven(proof),
            Found::Failed { cut: true } => Known::FailedWithin(depth),
            Found::Failed { cut: false } => Known::FailedWithin(u32::MAX),
        }
    }

    /// What the entry says at `depth`, if it settles it.
    fn at(self, depth: u32) -> Option<Found<T>> {
        match self {
            Known::Proven(proof) => Some(Found::Proven(proof)),
            Known::FailedWithin(u32::MAX) => Some(Found::Failed { cut: false }),
            Known::FailedWithin(within) if within >= depth => Some(Found::Failed { cut: true }),
            Known::FailedWithin(_) => None,
        }
    }
}

/// Can Breaker (holding `breaker`) stop Maker (holding `maker`) from completing a window first?
/// With `breaker_first`, Breaker moves next, else Maker. `None`: no proof found (where Maker has
/// no threat, Breaker tries only its [`REPLIES`] most urgent replies and its own threats). The
/// nodes and tables may
/// hold `memory` bytes, each entry counted at [`ENTRY_BYTES`]; past that, `MemoryLimit`.
pub fn prove(
    geometry: &Geometry,
    maker: u64,
    breaker: u64,
    breaker_first: bool,
    memory: usize,
    budget: &mut Budget,
) -> Result<Option<Proof>> {
    let symmetries = Symmetries::of(geometry.rows, geometry.cols);
    let count = symmetries.count();
    let same = |a: usize, b: &dyn Fn(u8) -> u8| {
        (0..geometry.cells() as u8).all(|cell| symmetries.map(a, cell) == b(cell))
    };
    let find = |b: &dyn Fn(u8) -> u8| (0..count).find(|&a| same(a, b)).unwrap_or(0) as u8;
    let composed = (0..count)
        .map(|p| {
            (0..count)
                .map(|q| find(&|cell| symmetries.unmap(q, symmetries.map(p, cell))))
                .collect()
        })
        .collect();
    let inverse = (0..count)
        .map(|s| find(&|cell| symmetries.unmap(s, cell)))
        .collect();
    let mut prover = Prover {
        geometry,
        symmetries,
        composed,
        inverse,
        mirrors: HashMap::default(),
        budget,
        nodes: Vec::new(),
        zones: Vec::new(),
        maker_table: Table::default(),
        breaker_table: Table::default(),
        most_entries: memory / ENTRY_BYTES,
    };
    if geometry.has_line(maker) {
        return Ok(None);
    }
    // Deeper and deeper: a shallow proof is found before a deep failure is searched out.
    for depth in 1.. {
        let found = if breaker_first {
            prover.breaker_node(maker, breaker, depth)?
        } else {
            match prover.maker_node(maker, breaker, depth)? {
                Found::Proven(root) => Found::Proven((u8::MAX, root)),
                Found::Failed { cut } => Found::Failed { cut },
            }
        };
        match found {
            Found::Proven((reply, root)) => {
                return Ok(Some(Proof {
                    reply: breaker_first.then_some(reply),
                    root,
                    nodes: prover.nodes,
                }));
            }
            Found::Failed { cut: false } => return Ok(None),
            Found::Failed { cut: true } => {}
        }
    }
    unreachable!("the depth grows until the search settles or stops")
}

impl Prover<'_, '_, '_> {
    fn empty(&self, maker: u64, breaker: u64) -> u64 {
        self.geometry.full & !(maker | breaker)
    }

    /// The windows still open to Maker (no Breaker stone in them).
    fn open(&self, breaker: u64) -> impl Iterator<Item = u64> + '_ {
        self.geometry
            .windows
            .iter()
            .copied()
            .filter(move |&w| w & breaker == 0)
    }

    /// The urgency of each cell: the sum over the open windows through it of 2^(k - empty
    /// cells of the window). The best cell has the largest, then the lowest index.
    fn most_urgent(&self, candidates: u64, breaker: u64, empty: u64) -> Vec<u8> {
        let k = self.geometry.k as u32;
        let mut weight = [0u128; 64];
        for w in self.open(breaker) {
            let gained = 1u128 << (k - (w & empty).count_ones()).min(127);
            for cell in cells_of(w & candidates) {
                weight[cell as usize] = weight[cell as usize].saturating_add(gained);
            }
        }
        let mut cells: Vec<u8> = cells_of(candidates).collect();
        cells
            .sort_unstable_by(|&a, &b| weight[b as usize].cmp(&weight[a as usize]).then(a.cmp(&b)));
        cells
    }

    /// The empty cells of the windows of `mine`'s (none of `theirs` stones in them) that lack
    /// `missing` cells: with 1, where `mine` completes one; with 2, where it threatens to.
    fn lacking(&self, mine: u64, theirs: u64, missing: u32) -> u64 {
        let empty = self.empty(mine, theirs);
        let k = self.geometry.k as u32;
        let windows = self.geometry.windows.iter().copied();
        windows
            .filter(|&w| w & theirs == 0 && (w & mine).count_ones() + missing == k)
            .fold(0, |cells, w| cells | (w & empty))
    }

    /// `Ok` while one more node or table entry fits the memory the proof may hold.
    fn within_memory(&self) -> Result<()> {
        let held = self.nodes.len()
            + self.maker_table.len()
            + self.breaker_table.len()
            + self.mirrors.len();
        if held >= self.most_entries {
            return Err(Error::MemoryLimit(self.most_entries * ENTRY_BYTES));
        }
        Ok(())
    }

    fn add(&mut self, node: Node, zone: u64) -> Result<u32> {
        self.within_memory()?;
        let bytes = size_of::<Node>().saturating_mul(self.nodes.len().max(1));
        self.nodes
            .try_reserve(1)
            .map_err(|_| OutOfMemory { bytes })?;
        self.zones
            .try_reserve(1)
            .map_err(|_| OutOfMemory { bytes })?;
        self.nodes.push(node);
        self.zones.push(zone);
        Ok((self.nodes.len() - 1) as u32)
    }

    /// The position's least image under the board's symmetries, and the symmetry giving it.
    fn canonical(&self, maker: u64, breaker: u64) -> ((u64, u64), u8) {
        (0..self.symmetries.count())
            .map(|s| {
                let image = (
                    self.symmetries.permute(s, maker),
                    self.symmetries.permute(s, breaker),
                );
                (image, s as u8)
            })
            .min()
            .unwrap_or(((maker, breaker), 0))
    }

    /// The proof `node` of the position `found` takes to a table's key, as a node of the
    /// position `seen` takes there.
    fn seen_as(&mut self, node: u32, found: u8, seen: u8) -> Result<u32> {
        if found == seen {
            return Ok(node);
        }
        let symmetry = self.composed[seen as usize][found as usize];
        if let Some(&mirror) = self.mirrors.get(&(node, symmetry)) {
            return Ok(mirror);
        }
        let back = self.inverse[symmetry as usize] as usize;
        let zone = self.symmetries.permute(back, self.zones[node as usize]);
        let mirror = self.add(Node::Mirror(node, symmetry), zone)?;
        self.within_memory()?;
        self.mirrors.try_reserve(1).map_err(|_| OutOfMemory {
            bytes: 16 * self.mirrors.len().max(1),
        })?;
        self.mirrors.insert((node, symmetry), mirror);
        Ok(mirror)
    }

    fn maker_node(&mut self, maker: u64, breaker: u64, depth: u32) -> Result<Found<u32>> {
        let (key, seen) = self.canonical(maker, breaker);
        let entry = self.maker_table.get(&key).copied();
        if let Some(entry) = entry
            && let Some(found) = entry.known.at(depth)
        {
            return Ok(match found {
                Found::Proven(node) => Found::Proven(self.seen_as(node, entry.symmetry, seen)?),
                Found::Failed { cut } => Found::Failed { cut },
            });
        }
        self.budget.visit()?;
        // A position searched before, less deep, has been through the leaves' rules.
        let searched = entry.is_some();
        let found = self.prove_maker_node(maker, breaker, depth, searched)?;
        self.within_memory()?;
        room(&mut self.maker_table)?;
        let known = Known::of(found, depth);
        self.maker_table.insert(
            key,
            Entry {
                known,
                symmetry: seen,
            },
        );
        Ok(found)
    }

    fn prove_maker_node(
        &mut self,
        maker: u64,
        breaker: u64,
        depth: u32,
        searched: bool,
    ) -> Result<Found<u32>> {
        let empty = self.empty(maker, breaker);
        let open: Vec<u64> = self.open(breaker).collect();
        if self.geometry.has_line(breaker) {
            let zone = guard(&open, empty, 1);
            return Ok(Found::Proven(self.add(Node::Won, zone)?));
        }
        if !searched {
            if let Some(found) = self.leaf(&open, empty)? {
                return Ok(found);
            }
        }
        let threats = self.lacking(breaker, maker, 1);
        if threats != 0 {
            // Maker has no window lacking one cell (the leaf's rules): it must block, and a
            // forced move takes no step of the depth.
            let block = threats.trailing_zeros() as u8;
            let (reply, child) = match self.breaker_node(maker | 1 << block, breaker, depth)? {
                Found::Proven(answer) => answer,
                Found::Failed { cut } => return Ok(Found::Failed { cut }),
            };
            let zone = 1u64 << block | 1 << reply | self.zones[child as usize];
            let zone = zone | guard(&open, empty, 2);
            return Ok(Found::Proven(
                self.add(Node::Forced(block, reply, child), zone)?,
            ));
        }
        if depth == 0 {
            return Ok(Found::Failed { cut: true });
        }
        let reach = open.iter().fold(0u64, |reach, &w| reach | w) & empty;
        let first = self.most_urgent(reach, breaker, empty)[0];
        let (reply, child) = match self.breaker_node(maker | 1 << first, breaker, depth - 1)? {
            Found::Proven(answer) => answer,
            Found::Failed { cut } => return Ok(Found::Failed { cut }),
        };
        let mut entries = vec![(first, reply, child)];
        let mut zone = 1u64 << first | 1 << reply | self.zones[child as usize];
        let others = (self.zones[child as usize] | 1 << reply) & empty & !(1u64 << first);
        for cell in cells_of(others) {
            // No window lacks only this cell (those were looked at above).
            let (reply, child) = match self.breaker_node(maker | 1 << cell, breaker, depth - 1)? {
                Found::Proven(answer) => answer,
                Found::Failed { cut } => return Ok(Found::Failed { cut }),
            };
            entries.push((cell, reply, child));
            zone |= 1u64 << cell | 1 << reply | self.zones[child as usize];
        }
        Ok(Found::Proven(self.add(Node::Split(entries), zone)?))
    }

    /// A Maker-to-move position settled without search: Maker wins next move (no proof), no
    /// window is open, the potential is below 1/2, or a pairing is found.
    fn leaf(&mut self, open: &[u64], empty: u64) -> Result<Option<Found<u32>>> {
        let k = self.geometry.k as u32;
        if open.iter().any(|&w| (w & empty).count_ones() <= 1) {
            return Ok(Some(Found::Failed { cut: false }));
        }
        if open.is_empty() {
            return Ok(Some(Found::Proven(self.add(Node::Pairing(Vec::new()), 0)?)));
        }
        let potential = open.iter().fold(0u128, |sum, &w| {
            sum.saturating_add(1u128 << (k - (w & empty).count_ones()))
        });
        if potential < 1u128 << (k - 1) {
            return Ok(Some(Found::Proven(self.add(Node::Potential, empty)?)));
        }
        let Some(pairs) = find_pairing(open, empty) else {
            return Ok(None);
        };
        let zone = pairs
            .iter()
            .fold(0u64, |zone, &(a, b)| zone | 1 << a | 1 << b);
        Ok(Some(Found::Proven(self.add(Node::Pairing(pairs), zone)?)))
    }

    fn breaker_node(&mut self, maker: u64, breaker: u64, depth: u32) -> Result<Found<(u8, u32)>> {
        let (key, seen) = self.canonical(maker, breaker);
        let entry = self.breaker_table.get(&key).copied();
        if let Some(entry) = entry
            && let Some(found) = entry.known.at(depth)
        {
            let Found::Proven((reply, child)) = found else {
                return Ok(found);
            };
            if entry.symmetry == seen {
                return Ok(found);
            }
            // The reply where the symmetry from this position to the proven one takes it back.
            let there = self.composed[seen as usize][entry.symmetry as usize];
            let back = self.inverse[there as usize] as usize;
            let reply = self.symmetries.map(back, reply);
            let child = self.seen_as(child, entry.symmetry, seen)?;
            return Ok(Found::Proven((reply, child)));
        }
        self.budget.visit()?;
        let found = self.prove_breaker_node(maker, breaker, depth)?;
        self.within_memory()?;
        room(&mut self.breaker_table)?;
        let known = Known::of(found, depth);
        self.breaker_table.insert(
            key,
            Entry {
                known,
                symmetry: seen,
            },
        );
        Ok(found)
    }

    fn prove_breaker_node(
        &mut self,
        maker: u64,
        breaker: u64,
        depth: u32,
    ) -> Result<Found<(u8, u32)>> {
        let empty = self.empty(maker, breaker);
        let mut threats = 0u64;
        let mut reach = 0u64;
        for w in self.open(breaker) {
            match (w & empty).count_ones() {
                0 => return Ok(Found::Failed { cut: false }),
                1 => threats |= w & empty,
                _ => {}
            }
            reach |= w & empty;
        }
        let wins = self.lacking(breaker, maker, 1);
        if wins != 0 {
            let reply = wins.trailing_zeros() as u8;
            return match self.maker_node(maker, breaker | 1 << reply, depth)? {
                Found::Proven(child) => Ok(Found::Proven((reply, child))),
                Found::Failed { cut } => Ok(Found::Failed { cut }),
            };
        }
        let candidates = match threats.count_ones() {
            0 if reach == 0 => vec![empty.trailing_zeros() as u8],
            0 => {
                let mut urgent = self.most_urgent(reach, breaker, empty);
                urgent.truncate(REPLIES);
                // Then Breaker's own threats, which leave Maker one move.
                let threatening = self.lacking(breaker, maker, 2) & !cells_mask(&urgent);
                urgent.extend(cells_of(threatening));
                urgent
            }
            1 => vec![threats.trailing_zeros() as u8],
            _ => return Ok(Found::Failed { cut: false }),
        };
        let mut cut = false;
        for reply in candidates {
            match self.maker_node(maker, breaker | 1 << reply, depth)? {
                Found::Proven(child) => return Ok(Found::Proven((reply, child))),
                Found::Failed { cut: by_depth } => cut |= by_depth,
            }
        }
        Ok(Found::Failed { cut })
    }
}

/// The lowest `count` empty cells of every window in `open`: with them in a node's zone, no
/// extra Maker stones outside it fill a window, or with two, leave one lacking a single cell.
fn guard(open: &[u64], empty: u64, count: usize) -> u64 {
    let lowest = |&w: &u64| {
        cells_of(w & empty)
            .take(count)
            .fold(0u64, |m, c| m | 1 << c)
    };
    open.iter().map(lowest).fold(0, |zone, cells| zone | cells)
}

/// The mask of `cells`.
fn cells_mask(cells: &[u8]) -> u64 {
    cells.iter().fold(0, |mask, &cell| mask | 1 << cell)
}

/// Disjoint pairs of empty cells, one pair inside each open window, found by backtracking on
/// the window with the fewest free cells (at most [`PAIRING_STEPS`] steps), or `None`.
/// Windows whose empty cells hold another window's empty cells need no pair of their own.
pub fn find_pairing(open: &[u64], empty: u64) -> Option<Vec<(u8, u8)>> {
    let mut distinct: Vec<u64> = Vec::new();
    for &w in open {
        let cells = w & empty;
        if !distinct.contains(&cells) {
            distinct.push(cells);
        }
    }
    let needed: Vec<u64> = distinct
        .iter()
        .copied()
        .filter(|&a| !distinct.iter().any(|&b| b != a && b & !a == 0))
        .collect();
    let mut search = Pairing {
        windows: needed,
        choices: Vec::new(),
        pairs: Vec::new(),
        steps: 0,
    };
    let all = search.windows.len();
    search.pair_up(0, all, 0).then_some(search.pairs)
}

/// The pairing finder's state: its windows and choices are stacks, each level of the search
/// pushing its own above its caller's and truncating them when done.
struct Pairing {
    windows: Vec<u64>,
    choices: Vec<(usize, u64)>,
    pairs: Vec<(u8, u8)>,
    steps: u32,
}

impl Pairing {
    /// `windows[from..to]`: the windows no chosen pair lies in, in the order given.
    fn pair_up(&mut self, from: usize, to: usize, used: u64) -> bool {
        self.steps += 1;
        if self.steps > PAIRING_STEPS {
            return false;
        }
        let mut tightest: Option<(u32, u64)> = None;
        for &w in &self.windows[from..to] {
            let free = (w & !used).count_ones();
            if tightest.is_none_or(|(least, _)| free < least) {
                tightest = Some((free, w));
            }
        }
        let Some((free, window)) = tightest else {
            return true;
        };
        if free < 2 {
            return false;
        }
        // The pairs of the window's free cells, those inside the most uncovered windows first
        // (then in the order of their cells).
        let base = self.choices.len();
        let free_cells = window & !used;
        for a in cells_of(free_cells) {
            for b in cells_of(free_cells & !((2u64 << a) - 1)) {
                let pair = 1u64 << a | 1 << b;
                let inside = self.windows[from..to]
                    .iter()
                    .filter(|&&w| w & pair == pair)
                    .count();
                self.choices.push((inside, pair));
            }
        }
        self.choices[base..].sort_unstable_by(|x, y| {
            y.0.cmp(&x.0)
                .then(x.1.trailing_zeros().cmp(&y.1.trailing_zeros()))
                .then(x.1.cmp(&y.1))
        });
        for choice in base..self.choices.len() {
            let pair = self.choices[choice].1;
            let next = self.windows.len();
            for i in from..to {
                let w = self.windows[i];
                if w & pair != pair {
                    self.windows.push(w);
                }
            }
            let end = self.windows.len();
            let (a, b) = (
                pair.trailing_zeros() as u8,
                (63 - pair.leading_zeros()) as u8,
            );
            self.pairs.push((a, b));
            let found = self.pair_up(next, end, used | pair);
            self.windows.truncate(next);
            if found {
                self.choices.truncate(base);
                return true;
            }
            self.pairs.pop();
            if self.steps > PAIRING_STEPS {
                break;
            }
        }
        self.choices.truncate(base);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::unlimited;

    #[test]
    fn breaker_holds_five_in_a_row_on_five_by_five() {
        let geometry = Geometry::new(5, 5, 5).unwrap();
        let proof = unlimited(|budget| prove(&geometry, 0, 0, false, usize::MAX, budget)).unwrap();
        assert!(proof.is_some());
    }

    #[test]
    fn breaker_holds_tic_tac_toe_only_by_its_own_threats() {
        // The weak game is Maker's: Breaker's proof needs the real game's forced moves.
        let geometry = Geometry::new(3, 3, 3).unwrap();
        let proof = unlimited(|budget| prove(&geometry, 0, 0, false, usize::MAX, budget)).unwrap();
        let nodes = proof.expect("tic-tac-toe is a draw").nodes;
        assert!(nodes.iter().any(|node| matches!(node, Node::Forced(..))));
    }

    #[test]
    fn breaker_cannot_hold_three_in_a_row_on_three_by_four() {
        let geometry = Geometry::new(3, 4, 3).unwrap();
        let proof = unlimited(|budget| prove(&geometry, 0, 0, false, usize::MAX, budget)).unwrap();
        assert!(proof.is_none());
    }
}

//! The weak-game prover: can Breaker stop Maker from getting k in a row? A proof is a strategy
//! for Breaker, kept as nodes the certificate checker (`perfectplay.mnk.certificate`) reads
//! without trusting this code. Every node is a position with Maker to move, proven one of three
//! ways:
//!
//! - a **pairing**: disjoint pairs of empty cells, every window still open to Maker holding one
//!   pair (Breaker answers a pair's cell with the other);
//! - the **potential** (Erdős–Selfridge): the open windows, each weighted 2^-(its empty cells),
//!   sum to less than 1/2;
//! - a **split**: a Maker move, Breaker's reply and the node after them, whose *zone* (the cells
//!   its proof relies on) names the only other Maker moves that need answers of their own; every
//!   Maker move outside it is answered by the same reply, because an extra Maker stone outside a
//!   proof's zone leaves the proof standing.
//!
//! The twin (`perfectplay.mnk.twin`) runs the same steps in the same order and gives the same
//! nodes; the tests compare them.

use crate::engine::budget::Budget;
use crate::engine::error::Result;
use crate::engine::window::cells_of;
use crate::games::mnk::Geometry;
use std::collections::HashMap;

/// Steps the pairing finder may take at one node before it gives the pairing up (the node is
/// then split instead).
pub const PAIRING_STEPS: u32 = 2_000;

/// The most urgent replies Breaker tries where Maker has no threat.
pub const REPLIES: usize = 3;

/// How a node is proven; cells are bit indices (`row * cols + col`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Pairing(Vec<(u8, u8)>),
    Potential,
    /// `(maker move, breaker reply, node after them)`; the first's zone names the others.
    Split(Vec<(u8, u8, u32)>),
}

/// A proof: the root (with Breaker to move first, its reply too) and the nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    pub reply: Option<u8>,
    pub root: u32,
    pub nodes: Vec<Node>,
}

struct Prover<'g, 'b, 'p> {
    geometry: &'g Geometry,
    budget: &'b mut Budget<'p>,
    nodes: Vec<Node>,
    zones: Vec<u64>,
    /// Maker-to-move positions: their node, or `None` when no proof was found.
    maker_table: HashMap<(u64, u64), Option<u32>>,
    /// Breaker-to-move positions: the reply and the node after it, or `None`.
    breaker_table: HashMap<(u64, u64), Option<(u8, u32)>>,
}

/// Can Breaker (holding `breaker`) stop Maker (holding `maker`) from completing a window? With
/// `breaker_first`, Breaker moves next, else Maker. `None`: no proof found (Breaker tries only
/// its [`REPLIES`] most urgent replies where Maker has no threat).
pub fn prove(
    geometry: &Geometry,
    maker: u64,
    breaker: u64,
    breaker_first: bool,
    budget: &mut Budget,
) -> Result<Option<Proof>> {
    let mut prover = Prover {
        geometry,
        budget,
        nodes: Vec::new(),
        zones: Vec::new(),
        maker_table: HashMap::new(),
        breaker_table: HashMap::new(),
    };
    if geometry.windows.iter().any(|&w| w & !maker == 0) {
        return Ok(None);
    }
    let answer = if breaker_first {
        prover
            .breaker_node(maker, breaker)?
            .map(|(reply, root)| (Some(reply), root))
    } else {
        prover.maker_node(maker, breaker)?.map(|root| (None, root))
    };
    Ok(answer.map(|(reply, root)| Proof {
        reply,
        root,
        nodes: prover.nodes,
    }))
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
        cells.sort_by(|&a, &b| weight[b as usize].cmp(&weight[a as usize]).then(a.cmp(&b)));
        cells
    }

    fn add(&mut self, node: Node, zone: u64) -> u32 {
        self.nodes.push(node);
        self.zones.push(zone);
        (self.nodes.len() - 1) as u32
    }

    fn maker_node(&mut self, maker: u64, breaker: u64) -> Result<Option<u32>> {
        if let Some(&known) = self.maker_table.get(&(maker, breaker)) {
            return Ok(known);
        }
        self.budget.visit()?;
        let answer = self.prove_maker_node(maker, breaker)?;
        self.maker_table.insert((maker, breaker), answer);
        Ok(answer)
    }

    fn prove_maker_node(&mut self, maker: u64, breaker: u64) -> Result<Option<u32>> {
        let empty = self.empty(maker, breaker);
        let k = self.geometry.k as u32;
        let open: Vec<u64> = self.open(breaker).collect();
        if open.iter().any(|&w| (w & empty).count_ones() <= 1) {
            return Ok(None);
        }
        if open.is_empty() {
            return Ok(Some(self.add(Node::Pairing(Vec::new()), 0)));
        }
        let potential = open.iter().fold(0u128, |sum, &w| {
            sum.saturating_add(1u128 << (k - (w & empty).count_ones()))
        });
        if potential < 1u128 << (k - 1) {
            return Ok(Some(self.add(Node::Potential, empty)));
        }
        if let Some(pairs) = find_pairing(&open, empty) {
            let zone = pairs
                .iter()
                .fold(0u64, |zone, &(a, b)| zone | 1 << a | 1 << b);
            return Ok(Some(self.add(Node::Pairing(pairs), zone)));
        }
        let reach = open.iter().fold(0u64, |reach, &w| reach | w) & empty;
        let first = self.most_urgent(reach, breaker, empty)[0];
        let Some((reply, child)) = self.breaker_node(maker | 1 << first, breaker)? else {
            return Ok(None);
        };
        let mut entries = vec![(first, reply, child)];
        let mut zone = 1u64 << first | 1 << reply | self.zones[child as usize];
        let others = (self.zones[child as usize] | 1 << reply) & empty & !(1u64 << first);
        for cell in cells_of(others) {
            // No window lacks only this cell (those were looked at above).
            let Some((reply, child)) = self.breaker_node(maker | 1 << cell, breaker)? else {
                return Ok(None);
            };
            entries.push((cell, reply, child));
            zone |= 1u64 << cell | 1 << reply | self.zones[child as usize];
        }
        Ok(Some(self.add(Node::Split(entries), zone)))
    }

    fn breaker_node(&mut self, maker: u64, breaker: u64) -> Result<Option<(u8, u32)>> {
        if let Some(&known) = self.breaker_table.get(&(maker, breaker)) {
            return Ok(known);
        }
        self.budget.visit()?;
        let answer = self.prove_breaker_node(maker, breaker)?;
        self.breaker_table.insert((maker, breaker), answer);
        Ok(answer)
    }

    fn prove_breaker_node(&mut self, maker: u64, breaker: u64) -> Result<Option<(u8, u32)>> {
        let empty = self.empty(maker, breaker);
        let mut threats = 0u64;
        let mut reach = 0u64;
        for w in self.open(breaker) {
            match (w & empty).count_ones() {
                0 => return Ok(None),
                1 => threats |= w & empty,
                _ => {}
            }
            reach |= w & empty;
        }
        let candidates = match threats.count_ones() {
            0 if reach == 0 => vec![empty.trailing_zeros() as u8],
            0 => {
                let mut urgent = self.most_urgent(reach, breaker, empty);
                urgent.truncate(REPLIES);
                urgent
            }
            1 => vec![threats.trailing_zeros() as u8],
            _ => return Ok(None),
        };
        for reply in candidates {
            if let Some(child) = self.maker_node(maker, breaker | 1 << reply)? {
                return Ok(Some((reply, child)));
            }
        }
        Ok(None)
    }
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
    let mut steps = 0u32;
    let mut pairs = Vec::new();
    pair_up(&needed, 0, &mut pairs, &mut steps).then_some(pairs)
}

/// `uncovered`: the windows no chosen pair lies in, in the order given.
fn pair_up(uncovered: &[u64], used: u64, pairs: &mut Vec<(u8, u8)>, steps: &mut u32) -> bool {
    *steps += 1;
    if *steps > PAIRING_STEPS {
        return false;
    }
    let mut tightest: Option<(u32, u64)> = None;
    for &w in uncovered {
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
    // The pairs of the window's free cells, those inside the most uncovered windows first.
    let cells: Vec<u8> = cells_of(window & !used).collect();
    let mut choices: Vec<(usize, u64, (u8, u8))> = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let pair = 1u64 << a | 1 << b;
            let inside = uncovered.iter().filter(|&&w| w & pair == pair).count();
            choices.push((inside, pair, (a, b)));
        }
    }
    choices.sort_by(|x, y| y.0.cmp(&x.0).then(x.2.cmp(&y.2)));
    for (_, pair, (a, b)) in choices {
        let left: Vec<u64> = uncovered
            .iter()
            .copied()
            .filter(|&w| w & pair != pair)
            .collect();
        pairs.push((a, b));
        if pair_up(&left, used | pair, pairs, steps) {
            return true;
        }
        pairs.pop();
        if *steps > PAIRING_STEPS {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::unlimited;

    #[test]
    fn breaker_holds_five_in_a_row_on_five_by_five() {
        let geometry = Geometry::new(5, 5, 5).unwrap();
        let proof = unlimited(|budget| prove(&geometry, 0, 0, false, budget)).unwrap();
        assert!(proof.is_some());
    }

    #[test]
    fn breaker_cannot_hold_three_in_a_row_on_three_by_three() {
        let geometry = Geometry::new(3, 3, 3).unwrap();
        let proof = unlimited(|budget| prove(&geometry, 0, 0, false, budget)).unwrap();
        assert!(proof.is_none());
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use crate::engine::budget::Budget;

    #[test]
    #[ignore]
    fn time_empty_boards() {
        for (r, c, k) in [(6, 6, 5), (7, 6, 5), (7, 7, 5)] {
            let geometry = Geometry::new(r, c, k).unwrap();
            let start = std::time::Instant::now();
            let mut poll = || false;
            let mut budget = Budget::new(Some(3_000_000), &mut poll);
            let proof = prove(&geometry, 0, 0, false, &mut budget);
            println!(
                "{r}x{c} k={k}: {:?} {} nodes {:.2}s",
                proof.map(|p| p.map(|p| p.nodes.len())),
                budget.nodes(),
                start.elapsed().as_secs_f64()
            );
        }
    }
}

"""The weak-game prover, the twin of ``rust/games/mnk/prover.rs``: can Breaker stop Maker from
getting k in a row? The same steps in the same order, so both backends give the same nodes.

A node is a position with Maker to move, proven by a pairing (``("pairs", [(a, b), ...])``),
by the Erdős-Selfridge potential (``("potential",)``) or by a split
(``("split", [(move, reply, node), ...])``): see the Rust file for why a split's first zone
names every other Maker move that needs an answer of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from perfectplay.mnk.twin import Geometry

#: Steps the pairing finder may take at one node before giving the pairing up.
PAIRING_STEPS = 2_000

#: The most urgent replies Breaker tries where Maker has no threat.
REPLIES = 3

#: ``(reply or None, root, nodes)``: the answer of ``breaker_proof``.
Proof = tuple[int | None, int, list[tuple[Any, ...]]]


def _cells(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class _Prover:
    def __init__(self, geometry: Geometry, count_node: Callable[[], None]) -> None:
        self.geometry = geometry
        self.count_node = count_node
        self.nodes: list[tuple[Any, ...]] = []
        self.zones: list[int] = []
        self.maker_table: dict[tuple[int, int], int | None] = {}
        self.breaker_table: dict[tuple[int, int], tuple[int, int] | None] = {}

    def open(self, breaker: int) -> list[int]:
        return [w for w in self.geometry.windows if w & breaker == 0]

    def most_urgent(self, candidates: int, breaker: int, empty: int) -> list[int]:
        k = self.geometry.k
        weight = [0] * 64
        for w in self.open(breaker):
            gained = 1 << k - (w & empty).bit_count()
            for cell in _cells(w & candidates):
                weight[cell] += gained
        return sorted(_cells(candidates), key=lambda cell: (-weight[cell], cell))

    def add(self, node: tuple[Any, ...], zone: int) -> int:
        self.nodes.append(node)
        self.zones.append(zone)
        return len(self.nodes) - 1

    def maker_node(self, maker: int, breaker: int) -> int | None:
        key = (maker, breaker)
        if key not in self.maker_table:
            self.count_node()
            self.maker_table[key] = self.prove_maker_node(maker, breaker)
        return self.maker_table[key]

    def prove_maker_node(self, maker: int, breaker: int) -> int | None:
        empty = self.geometry.full & ~(maker | breaker)
        k = self.geometry.k
        open_ = self.open(breaker)
        if any((w & empty).bit_count() <= 1 for w in open_):
            return None
        if not open_:
            return self.add(("pairs", []), 0)
        potential = sum(1 << k - (w & empty).bit_count() for w in open_)
        if potential < 1 << k - 1:
            return self.add(("potential",), empty)
        pairs = find_pairing(open_, empty)
        if pairs is not None:
            zone = 0
            for a, b in pairs:
                zone |= 1 << a | 1 << b
            return self.add(("pairs", pairs), zone)
        reach = 0
        for w in open_:
            reach |= w
        reach &= empty
        first = self.most_urgent(reach, breaker, empty)[0]
        answer = self.breaker_node(maker | 1 << first, breaker)
        if answer is None:
            return None
        reply, child = answer
        entries = [(first, reply, child)]
        zone = 1 << first | 1 << reply | self.zones[child]
        others = (self.zones[child] | 1 << reply) & empty & ~(1 << first)
        for cell in _cells(others):
            answer = self.breaker_node(maker | 1 << cell, breaker)
            if answer is None:
                return None
            reply, child = answer
            entries.append((cell, reply, child))
            zone |= 1 << cell | 1 << reply | self.zones[child]
        return self.add(("split", entries), zone)

    def breaker_node(self, maker: int, breaker: int) -> tuple[int, int] | None:
        key = (maker, breaker)
        if key not in self.breaker_table:
            self.count_node()
            self.breaker_table[key] = self.prove_breaker_node(maker, breaker)
        return self.breaker_table[key]

    def prove_breaker_node(self, maker: int, breaker: int) -> tuple[int, int] | None:
        empty = self.geometry.full & ~(maker | breaker)
        threats = reach = 0
        for w in self.open(breaker):
            left = (w & empty).bit_count()
            if left == 0:
                return None
            if left == 1:
                threats |= w & empty
            reach |= w & empty
        if threats.bit_count() > 1:
            return None
        if threats:
            candidates = [threats.bit_length() - 1]
        elif reach:
            candidates = self.most_urgent(reach, breaker, empty)[:REPLIES]
        else:
            candidates = [(empty & -empty).bit_length() - 1]
        for reply in candidates:
            child = self.maker_node(maker, breaker | 1 << reply)
            if child is not None:
                return reply, child
        return None


def prove(
    geometry: Geometry,
    maker: int,
    breaker: int,
    breaker_first: bool,
    count_node: Callable[[], None],
) -> Proof | None:
    """Can Breaker (``breaker``'s stones) stop Maker (``maker``'s)? With ``breaker_first``
    Breaker moves next. ``None``: no proof found (Breaker tries only its ``REPLIES`` most urgent
    replies where Maker has no threat)."""
    if geometry.has_line(maker):
        return None
    prover = _Prover(geometry, count_node)
    if breaker_first:
        answer = prover.breaker_node(maker, breaker)
        if answer is None:
            return None
        return answer[0], answer[1], prover.nodes
    root = prover.maker_node(maker, breaker)
    return None if root is None else (None, root, prover.nodes)


def find_pairing(open_: list[int], empty: int) -> list[tuple[int, int]] | None:
    """Disjoint pairs of empty cells, one inside each open window (backtracking on the window
    with the fewest free cells, at most ``PAIRING_STEPS`` steps), or ``None``."""
    distinct: list[int] = []
    for w in open_:
        if w & empty not in distinct:
            distinct.append(w & empty)
    needed = [a for a in distinct if not any(b != a and b & ~a == 0 for b in distinct)]
    pairs: list[tuple[int, int]] = []
    steps = [0]

    def pair_up(uncovered: list[int], used: int) -> bool:
        steps[0] += 1
        if steps[0] > PAIRING_STEPS:
            return False
        tightest = None
        for w in uncovered:
            free = (w & ~used).bit_count()
            if tightest is None or free < tightest[0]:
                tightest = (free, w)
        if tightest is None:
            return True
        free, window = tightest
        if free < 2:
            return False
        # The pairs of the window's free cells, those inside the most uncovered windows first.
        cells = _cells(window & ~used)
        choices = []
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                pair = 1 << a | 1 << b
                inside = sum(1 for w in uncovered if w & pair == pair)
                choices.append((-inside, (a, b), pair))
        choices.sort()
        for _, (a, b), pair in choices:
            pairs.append((a, b))
            if pair_up([w for w in uncovered if w & pair != pair], used | pair):
                return True
            pairs.pop()
            if steps[0] > PAIRING_STEPS:
                return False
        return False

    return pairs if pair_up(needed, 0) else None

"""The prover, the twin of ``rust/games/mnk/prover.rs``: can Breaker stop Maker from getting
k in a row first? The same steps in the same order, so both backends give the same nodes.

A node is a position with Maker to move, proven by a pairing (``("pairs", [[a, b], ...])``),
by the Erdős-Selfridge potential (``("potential",)``), by a split
(``("split", [[move, reply, node], ...])``), as a mirror image of another node's position
(``("mirror", node, symmetry)``), by Breaker's threat (``("forced", [move, reply, node])``)
or by Breaker's own k in a row (``("won",)``): see the Rust file for why a split's first zone
names every other Maker move that needs an answer of its own, and what a forced or won node's
zone holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from perfectplay._kernel.batch import physical_memory
from perfectplay._kernel.symmetry import permute, symmetries

if TYPE_CHECKING:
    from perfectplay.mnk.twin import Geometry

#: Steps the pairing finder may take at one node before giving the pairing up.
PAIRING_STEPS = 200

#: The most urgent replies Breaker tries where Maker has no threat.
REPLIES = 3

#: The bytes a proof's node or table entry is counted at against the memory it may hold.
ENTRY_BYTES = 128

#: ``(reply or None, root, nodes)``: the answer of ``breaker_proof``.
Proof = tuple[int | None, int, list[tuple[Any, ...]]]

#: What the search of a position found: ``(PROVEN, proof)`` or ``(FAILED, cut)`` (``cut``: no
#: proof within the depth, which a deeper search may still find).
PROVEN, FAILED = "proven", "failed"
Found = tuple[str, Any]


def half_the_machine() -> int | None:
    """Half the machine's physical memory in bytes, where the system says."""
    memory = physical_memory()
    return None if memory is None else memory // 2


def _cells(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class _Prover:
    def __init__(
        self, geometry: Geometry, count_node: Callable[[], None], memory: int | None
    ) -> None:
        self.geometry = geometry
        self.count_node = count_node
        self.most_entries = None if memory is None else memory // ENTRY_BYTES
        self.nodes: list[tuple[Any, ...]] = []
        self.zones: list[int] = []
        self.maps = symmetries(geometry.rows, geometry.cols)
        count, cells = len(self.maps), geometry.cells

        def find(wanted: list[int]) -> int:
            return next(a for a in range(count) if self.maps[a][:cells] == wanted)

        unmaps = []
        for forward in self.maps:
            back = [0] * cells
            for cell in range(cells):
                back[forward[cell]] = cell
            unmaps.append(back)
        # composed[p][q]: q's inverse after p; inverse[s]: s's inverse.
        self.composed = [
            [find([unmaps[q][self.maps[p][cell]] for cell in range(cells)]) for q in range(count)]
            for p in range(count)
        ]
        self.inverse = [find(unmaps[s]) for s in range(count)]
        self.mirrors: dict[tuple[int, int], int] = {}
        # Tables: the least image of a position to (found, depth or None, symmetry); found is
        # the proof, or None with the depth no proof was found within (None: any depth).
        self.maker_table: dict[tuple[int, int], tuple[Any, int | None, int]] = {}
        self.breaker_table: dict[tuple[int, int], tuple[Any, int | None, int]] = {}

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

    def lacking(self, mine: int, theirs: int, missing: int) -> int:
        """The empty cells of the windows of ``mine``'s (none of ``theirs`` in them) that lack
        ``missing`` cells: with 1, where ``mine`` completes one; with 2, where it threatens to."""
        empty, k, cells = self.geometry.full & ~(mine | theirs), self.geometry.k, 0
        for w in self.geometry.windows:
            if w & theirs == 0 and (w & mine).bit_count() + missing == k:
                cells |= w & empty
        return cells

    def within_memory(self) -> None:
        """Raises ``MemoryError`` unless one more node or table entry fits the memory."""
        if self.most_entries is None:
            return
        held = len(self.nodes) + len(self.maker_table) + len(self.breaker_table)
        if held + len(self.mirrors) >= self.most_entries:
            memory = self.most_entries * ENTRY_BYTES
            shown = f"{memory >> 20} MiB" if memory >> 20 else f"{memory} bytes"
            raise MemoryError(
                f"the proof needed more than {shown} of nodes and tables (table_mb; half this "
                "machine's memory when not given): give it a node_limit or a larger table_mb"
            )

    def add(self, node: tuple[Any, ...], zone: int) -> int:
        self.within_memory()
        self.nodes.append(node)
        self.zones.append(zone)
        return len(self.nodes) - 1

    def canonical(self, maker: int, breaker: int) -> tuple[tuple[int, int], int]:
        return min(
            ((permute(forward, maker), permute(forward, breaker)), s)
            for s, forward in enumerate(self.maps)
        )

    def seen_as(self, node: int, found: int, seen: int) -> int:
        """The proof ``node`` of the position ``found`` takes to a key, as a node of the
        position ``seen`` takes there."""
        if found == seen:
            return node
        symmetry = self.composed[seen][found]
        if (node, symmetry) not in self.mirrors:
            back = self.maps[self.inverse[symmetry]]
            zone = permute(back, self.zones[node])
            mirror = self.add(("mirror", node, symmetry), zone)
            self.within_memory()
            self.mirrors[node, symmetry] = mirror
        return self.mirrors[node, symmetry]

    @staticmethod
    def settled(entry: tuple[Any, int | None, int] | None, depth: int) -> Found | None:
        """What a table's entry says at ``depth``, if it settles it."""
        if entry is None:
            return None
        proof, within, _ = entry
        if proof is not None:
            return PROVEN, proof
        if within is None:
            return FAILED, False
        return (FAILED, True) if within >= depth else None

    @staticmethod
    def entry(found: Found, depth: int, symmetry: int) -> tuple[Any, int | None, int]:
        kind, what = found
        if kind == PROVEN:
            return what, None, symmetry
        return None, depth if what else None, symmetry

    def maker_node(self, maker: int, breaker: int, depth: int) -> Found:
        key, seen = self.canonical(maker, breaker)
        entry = self.maker_table.get(key)
        found = self.settled(entry, depth)
        if found is not None:
            if found[0] == PROVEN:
                assert entry is not None
                return PROVEN, self.seen_as(found[1], entry[2], seen)
            return found
        self.count_node()
        # A position searched before, less deep, has been through the leaves' rules.
        found = self.prove_maker_node(maker, breaker, depth, entry is not None)
        self.within_memory()
        self.maker_table[key] = self.entry(found, depth, seen)
        return found

    def leaf(self, open_: list[int], empty: int) -> Found | None:
        """A Maker-to-move position settled without search, or None."""
        k = self.geometry.k
        if any((w & empty).bit_count() <= 1 for w in open_):
            return FAILED, False
        if not open_:
            return PROVEN, self.add(("pairs", []), 0)
        potential = sum(1 << k - (w & empty).bit_count() for w in open_)
        if potential < 1 << k - 1:
            return PROVEN, self.add(("potential",), empty)
        pairs = find_pairing(open_, empty)
        if pairs is None:
            return None
        zone = 0
        for a, b in pairs:
            zone |= 1 << a | 1 << b
        return PROVEN, self.add(("pairs", [[a, b] for a, b in pairs]), zone)

    def prove_maker_node(self, maker: int, breaker: int, depth: int, searched: bool) -> Found:
        empty = self.geometry.full & ~(maker | breaker)
        open_ = self.open(breaker)
        if self.geometry.has_line(breaker):
            return PROVEN, self.add(("won",), _guard(open_, empty, 1))
        if not searched:
            found = self.leaf(open_, empty)
            if found is not None:
                return found
        threats = self.lacking(breaker, maker, 1)
        if threats:
            # Maker has no window lacking one cell (the leaf's rules): it must block, and a
            # forced move takes no step of the depth.
            block = (threats & -threats).bit_length() - 1
            kind, answer = self.breaker_node(maker | 1 << block, breaker, depth)
            if kind == FAILED:
                return kind, answer
            reply, child = answer
            zone = 1 << block | 1 << reply | self.zones[child] | _guard(open_, empty, 2)
            return PROVEN, self.add(("forced", [block, reply, child]), zone)
        if depth == 0:
            return FAILED, True
        reach = 0
        for w in open_:
            reach |= w
        reach &= empty
        first = self.most_urgent(reach, breaker, empty)[0]
        kind, answer = self.breaker_node(maker | 1 << first, breaker, depth - 1)
        if kind == FAILED:
            return kind, answer
        reply, child = answer
        entries = [[first, reply, child]]
        zone = 1 << first | 1 << reply | self.zones[child]
        others = (self.zones[child] | 1 << reply) & empty & ~(1 << first)
        for cell in _cells(others):
            kind, answer = self.breaker_node(maker | 1 << cell, breaker, depth - 1)
            if kind == FAILED:
                return kind, answer
            reply, child = answer
            entries.append([cell, reply, child])
            zone |= 1 << cell | 1 << reply | self.zones[child]
        return PROVEN, self.add(("split", entries), zone)

    def breaker_node(self, maker: int, breaker: int, depth: int) -> Found:
        key, seen = self.canonical(maker, breaker)
        entry = self.breaker_table.get(key)
        found = self.settled(entry, depth)
        if found is not None:
            if found[0] == FAILED or entry is None or entry[2] == seen:
                return found
            reply, child = found[1]
            there = self.composed[seen][entry[2]]
            reply = self.maps[self.inverse[there]][reply]
            return PROVEN, (reply, self.seen_as(child, entry[2], seen))
        self.count_node()
        found = self.prove_breaker_node(maker, breaker, depth)
        self.within_memory()
        self.breaker_table[key] = self.entry(found, depth, seen)
        return found

    def prove_breaker_node(self, maker: int, breaker: int, depth: int) -> Found:
        empty = self.geometry.full & ~(maker | breaker)
        threats = reach = 0
        for w in self.open(breaker):
            left = (w & empty).bit_count()
            if left == 0:
                return FAILED, False
            if left == 1:
                threats |= w & empty
            reach |= w & empty
        wins = self.lacking(breaker, maker, 1)
        if wins:
            reply = (wins & -wins).bit_length() - 1
            kind, answer = self.maker_node(maker, breaker | 1 << reply, depth)
            return (PROVEN, (reply, answer)) if kind == PROVEN else (kind, answer)
        if threats.bit_count() > 1:
            return FAILED, False
        if threats:
            candidates = [threats.bit_length() - 1]
        elif reach:
            candidates = self.most_urgent(reach, breaker, empty)[:REPLIES]
            # Then Breaker's own threats, which leave Maker one move.
            chosen = sum(1 << cell for cell in candidates)
            candidates += _cells(self.lacking(breaker, maker, 2) & ~chosen)
        else:
            candidates = [(empty & -empty).bit_length() - 1]
        cut = False
        for reply in candidates:
            kind, answer = self.maker_node(maker, breaker | 1 << reply, depth)
            if kind == PROVEN:
                return PROVEN, (reply, answer)
            cut |= answer
        return FAILED, cut


def prove(
    geometry: Geometry,
    maker: int,
    breaker: int,
    breaker_first: bool,
    count_node: Callable[[], None],
    memory: int | None = None,
) -> Proof | None:
    """Can Breaker (``breaker``'s stones) stop Maker (``maker``'s) completing a window first?
    With ``breaker_first`` Breaker moves next. ``None``: no proof found (where Maker has no
    threat, Breaker tries only its ``REPLIES`` most urgent replies and its own threats). Deeper
    and deeper: a shallow proof is found before a deep failure is searched out. The nodes and
    tables may hold ``memory`` bytes (None: no bound), each entry counted at ``ENTRY_BYTES``;
    past that, ``MemoryError``."""
    if geometry.has_line(maker):
        return None
    prover = _Prover(geometry, count_node, memory)
    depth = 1
    while True:
        if breaker_first:
            kind, answer = prover.breaker_node(maker, breaker, depth)
        else:
            kind, answer = prover.maker_node(maker, breaker, depth)
            if kind == PROVEN:
                answer = (None, answer)
        if kind == PROVEN:
            return answer[0], answer[1], prover.nodes
        if not answer:
            return None
        depth += 1


def _guard(open_: list[int], empty: int, count: int) -> int:
    """The lowest ``count`` empty cells of every window in ``open_``: with them in a node's
    zone, no extra Maker stones outside it fill a window, or with two, leave one lacking a
    single cell."""
    zone = 0
    for w in open_:
        for cell in _cells(w & empty)[:count]:
            zone |= 1 << cell
    return zone


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

"""Checking an m,n,k certificate without the prover: ``check(certificate)`` returns the value it
proves, or raises ``InvalidCertificate`` saying which part does not hold. The format is
documented in ``docs/guides/proofs.md``; in short:

    {"format": "perfectplay.mnk.certificate", "version": 4,
     "rows": R, "cols": C, "k": K, "board": "x.o/...", "value": 1 | 0 | -1,
     "guarantees": [{"player": "x" | "o", "at_least": 0 | 1, "by": PROOF}, ...],
     "nodes": [NODE, ...]}

``value`` is for the side to move. Each guarantee says what ``player`` gets at least with best
play (1: a win, 0: not a loss); the checker accepts ``value`` only when the guarantees pin it
from both sides. A ``PROOF`` is one of

- ``{"over": true}``: the game is over on the board (no guarantee needed beyond it);
- ``{"strategy_stealing": true}``: X does not lose the empty board (an extra mark never hurts
  in an m,n,k-game, so a second-player win would be X's too);
- ``{"strategy": {"X_HEX.O_HEX": ENTRY, ...}}``: ``player``'s move in each position where it
  is to move (the X and O masks in hex), found under the position or one of its images under
  the board's symmetries (an image's move is moved back); every answer of the other side is
  tried, once a position up to symmetry. Where ``player`` can complete k in a row at once it
  does, and needs no entry. An ENTRY is a cell, or (``at_least`` 0 only) a
  ``{"weak": ...}`` proof as below with ``player`` as Breaker moving first: from there the
  other side never gets k in a row first. Such a proof may leave out its ``nodes``: its ``root``
  then names a node of the certificate's own ``nodes``, which every such proof shares;
- ``{"weak": {"reply": cell | null, "root": i, "nodes": [NODE, ...]}}``: a Breaker strategy
  for ``player``: the other side never gets k in a row first. ``reply`` is ``player``'s first move
  when it moves next, else null. Each NODE is a position with the other side (Maker) to move:
  ``{"pairs": [[a, b], ...]}`` (disjoint pairs of empty cells, one inside every window still
  open to Maker), ``{"potential": true}`` (the open windows, each weighted 2^-(its empty
  cells), sum below 1/2: the Erdős-Selfridge criterion) or ``{"split": [[move, reply, node],
  ...]}`` (the first entry's node proves a *zone*; every Maker move in that zone or on the first
  reply has an entry of its own, and every other Maker move is answered by the first reply) or
  ``{"mirror": [node, symmetry]}`` (the position moved by the board's symmetry, numbered as
  ``perfectplay._kernel.symmetry`` does, is one ``node`` proves) or, from version 4, the real
  game's ``{"forced": [move, reply, node]}`` (a window of Breaker's lacks only ``move``, so
  every other Maker move lets Breaker complete it first) and ``{"won": true}`` (Breaker has
  k in a row: the game is over). A forced or won node's zone holds the lowest two empty cells
  (one for won) of every window open to Maker, so no Maker stone outside a zone completes a
  window first.

Cells are ``row * cols + col``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from perfectplay._kernel.files import open_regular
from perfectplay._kernel.symmetry import permute, symmetries
from perfectplay.errors import InvalidCertificate
from perfectplay.mnk.twin import PLAYING, Geometry, status, x_to_move

FORMAT = "perfectplay.mnk.certificate"
VERSION = 4
#: The versions ``check`` reads: version 3 is version 4 without forced and won nodes, version 2
#: is version 3 without the shared ``nodes``, and version 1 is version 2 without symmetric or
#: weak entries in strategies.
VERSIONS = (1, 2, 3, 4)

#: The most (node, position) pairs ``check`` looks at before refusing a certificate as too
#: large: a bound on the work a hostile file can ask for.
MAX_CHECKED = 20_000_000

#: The largest certificate file ``check`` reads.
MAX_BYTES = 1 << 30


def check(certificate: Any, *, max_checked: int = MAX_CHECKED) -> int:
    """The value (1, 0, -1 for the side to move) that ``certificate`` proves: a dict as
    ``prove`` returns it, its JSON text, or a path to a JSON file. Raises
    ``InvalidCertificate`` when any part of it does not hold."""
    data = _load(certificate)
    if not isinstance(data, dict):
        raise InvalidCertificate("a certificate is a JSON object")
    version = data.get("version")
    if data.get("format") != FORMAT or version not in VERSIONS or isinstance(version, bool):
        raise InvalidCertificate(f"not a certificate of format {FORMAT!r} version 1 to 4")
    rows, cols, k = (_integer(data, name) for name in ("rows", "cols", "k"))
    try:
        geometry = Geometry(rows, cols, k)
    except ValueError as error:
        raise InvalidCertificate(str(error)) from None
    x, o = _board(data.get("board"), rows, cols)
    try:
        state = status(geometry, x, o)
    except ValueError as error:
        raise InvalidCertificate(f"board: {error}") from None
    value = data.get("value")
    if value not in (1, 0, -1) or isinstance(value, bool):
        raise InvalidCertificate("value must be 1, 0 or -1")
    guarantees = data.get("guarantees")
    if not isinstance(guarantees, list):
        raise InvalidCertificate("guarantees must be a list")
    mover = "x" if x_to_move(x, o) else "o"
    if state != PLAYING:
        if guarantees != [{"player": mover, "at_least": value, "by": {"over": True}}]:
            raise InvalidCertificate("a finished game's certificate is its one 'over' guarantee")
        won = geometry.has_line(x) or geometry.has_line(o)
        if value != (-1 if won else 0):
            raise InvalidCertificate(f"the game is over and its value is {-1 if won else 0}")
        return int(value)
    shared = data.get("nodes", [])
    if (version < 3 and "nodes" in data) or not isinstance(shared, list):
        raise InvalidCertificate("nodes (version 3) must be a list")
    checker = _Checker(geometry, max_checked, shared if version >= 3 else None, version >= 4)
    at_least = {"x": -1, "o": -1}
    for number, guarantee in enumerate(guarantees):
        where = f"guarantee {number}"
        if not isinstance(guarantee, dict) or set(guarantee) != {"player", "at_least", "by"}:
            raise InvalidCertificate(f"{where}: needs exactly player, at_least and by")
        player, bound, proof = guarantee["player"], guarantee["at_least"], guarantee["by"]
        if player not in ("x", "o") or bound not in (0, 1) or isinstance(bound, bool):
            raise InvalidCertificate(f"{where}: player is 'x' or 'o', at_least 0 or 1")
        checker.guarantee(x, o, player, bound, proof, where)
        at_least[player] = max(at_least[player], bound)
    other = "o" if mover == "x" else "x"
    low, high = at_least[mover], -at_least[other]
    if low != value or high != value:
        raise InvalidCertificate(
            f"the guarantees pin the value between {low} and {high}, not at {value}"
        )
    return int(value)


def check_weak(
    geometry: Geometry, maker: int, breaker: int, breaker_first: bool, proof: Any
) -> None:
    """Checks one weak proof (a certificate's ``weak`` part) for a position given by masks:
    what a split proof's checkpoint holds. Raises ``InvalidCertificate`` when it does not
    hold."""
    _Checker(geometry, MAX_CHECKED).weak(maker, breaker, breaker_first, proof, "weak proof")


def images(maps: list[list[int]], x: int, o: int) -> list[tuple[int, int, int]]:
    """``(x', o', symmetry)`` for each of the board's symmetries ``maps``, in their order."""
    return [(permute(forward, x), permute(forward, o), s) for s, forward in enumerate(maps)]


def canonical(maps: list[list[int]], x: int, o: int) -> tuple[int, int]:
    """The least image ``(x', o')`` of a position under the board's symmetries ``maps``."""
    least_x, least_o, _ = min(images(maps, x, o))
    return least_x, least_o


def _guard(open_: list[int], empty: int, count: int, where: str) -> int:
    """The lowest ``count`` empty cells of each window open to Maker: a forced or won node's
    zone holds them, so no Maker stones outside it fill a window first (``count`` 1) or leave
    one lacking a single cell (``count`` 2). Raises if a window has fewer."""
    zone = 0
    for w in open_:
        cells = w & empty
        if cells.bit_count() < count:
            raise InvalidCertificate(f"{where}: Maker's window {w:#x} lacks {count} cells")
        for _ in range(count):
            low = cells & -cells
            zone |= low
            cells ^= low
    return zone


def _load(certificate: Any) -> Any:
    if isinstance(certificate, dict):
        return certificate
    text: str | bytes
    if isinstance(certificate, os.PathLike):
        with open_regular(certificate) as file:
            text = file.read(MAX_BYTES + 1)
        if len(text) > MAX_BYTES:
            raise InvalidCertificate(f"{os.fspath(certificate)} is larger than {MAX_BYTES} bytes")
    elif isinstance(certificate, (str, bytes)):
        text = certificate
    else:
        raise TypeError(
            "certificate must be a dict, JSON text or a path (os.PathLike), "
            f"not {type(certificate).__name__}"
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InvalidCertificate(f"certificate is not JSON: {error}") from None


def _integer(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidCertificate(f"{name} must be an integer")
    return value


def _board(board: Any, rows: int, cols: int) -> tuple[int, int]:
    if not isinstance(board, str):
        raise InvalidCertificate("board must be a string of rows of 'x', 'o' and '.' split by '/'")
    lines = board.split("/")
    if len(lines) != rows or any(len(line) != cols for line in lines):
        raise InvalidCertificate(f"board must be {rows} rows of {cols} cells split by '/'")
    x = o = 0
    for cell, mark in enumerate("".join(lines)):
        if mark == "x":
            x |= 1 << cell
        elif mark == "o":
            o |= 1 << cell
        elif mark != ".":
            raise InvalidCertificate(f"board has {mark!r}; cells are 'x', 'o' or '.'")
    return x, o


class _Checker:
    def __init__(
        self,
        geometry: Geometry,
        max_checked: int,
        shared: list[Any] | None = None,
        real_game: bool = True,
    ) -> None:
        self.geometry = geometry
        self.real_game = real_game
        self.shared = shared
        self.max_checked = max_checked
        self.checked = 0
        self.maps = symmetries(geometry.rows, geometry.cols)
        self.unmaps = []
        for forward in self.maps:
            back = [0] * geometry.cells
            for cell, target in enumerate(forward):
                back[target] = cell
            self.unmaps.append(back)

    def count(self) -> None:
        self.checked += 1
        if self.checked > self.max_checked:
            raise InvalidCertificate(
                f"checking needs more than max_checked={self.max_checked} positions"
            )

    def cell(self, value: Any, empty: int, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCertificate(f"{where}: a cell is an integer, got {value!r}")
        if not 0 <= value < self.geometry.cells or not empty >> value & 1:
            raise InvalidCertificate(f"{where}: cell {value} is not an empty cell")
        return value

    def guarantee(self, x: int, o: int, player: str, bound: int, proof: Any, where: str) -> None:
        if not isinstance(proof, dict) or len(proof) != 1:
            raise InvalidCertificate(f"{where}: by is an object of one kind of proof")
        ((kind, body),) = proof.items()
        mine, theirs = (x, o) if player == "x" else (o, x)
        to_move = x_to_move(x, o) == (player == "x")
        if kind == "strategy_stealing":
            if body is not True or x | o or player != "x" or bound != 0:
                raise InvalidCertificate(
                    f"{where}: strategy stealing gives X at least a draw on the empty board only"
                )
        elif kind == "weak":
            if bound != 0:
                raise InvalidCertificate(f"{where}: a weak proof shows at least a draw only")
            self.weak(maker=theirs, breaker=mine, breaker_first=to_move, proof=body, where=where)
        elif kind == "strategy":
            if not isinstance(body, dict):
                raise InvalidCertificate(f"{where}: a strategy maps positions to cells")
            self.strategy(x, o, player, bound, body, where)
        else:
            raise InvalidCertificate(f"{where}: unknown kind of proof {kind!r}")

    # A strategy: player moves as the map says, the other side tries every move; a position
    # is looked at once up to symmetry, as one proven stays proven when the board is turned.
    def strategy(
        self, x: int, o: int, player: str, bound: int, moves: dict[str, Any], where: str
    ) -> None:
        geometry, seen = self.geometry, set()
        stack = [(x, o)]
        while stack:
            x, o = stack.pop()
            turned = images(self.maps, x, o)
            least = min(turned)[:2]
            if least in seen:
                continue
            seen.add(least)
            self.count()
            empty = geometry.full & ~(x | o)
            x_moves = x_to_move(x, o)
            if empty == 0:
                if bound > 0:
                    raise InvalidCertificate(f"{where}: the strategy only draws")
                continue
            if x_moves == (player == "x"):
                if geometry.wins_now(*((x, o) if x_moves else (o, x))):
                    continue  # player completes a line at once: no entry needed
                cell = self.strategy_move(turned, player, bound, moves, where)
                if cell is None:
                    continue
                mine = (x if x_moves else o) | 1 << cell
                if geometry.has_line(mine):
                    continue
                stack.append((mine, o) if x_moves else (x, mine))
                continue
            for cell in range(geometry.cells):
                if empty >> cell & 1:
                    theirs = (x if x_moves else o) | 1 << cell
                    if geometry.has_line(theirs):
                        key = f"{x:x}.{o:x}"
                        raise InvalidCertificate(f"{where}: the other side wins at {key}")
                    stack.append((theirs, o) if x_moves else (x, theirs))

    def strategy_move(
        self,
        turned: list[tuple[int, int, int]],
        player: str,
        bound: int,
        moves: dict[str, Any],
        where: str,
    ) -> int | None:
        """``player``'s move by the strategy's entry for the position or one of its images
        ``turned`` (the first is the position itself), or None once a weak entry proves that
        the other side never gets k in a row first from there."""
        found = next((image for image in turned if f"{image[0]:x}.{image[1]:x}" in moves), None)
        if found is None:
            x, o, _ = turned[0]
            raise InvalidCertificate(f"{where}: the strategy has no move for {x:x}.{o:x}")
        seen_x, seen_o, symmetry = found
        key = f"{seen_x:x}.{seen_o:x}"
        entry, here = moves[key], f"{where}, {key}"
        if isinstance(entry, dict) and entry.keys() == {"weak"}:
            if bound != 0:
                raise InvalidCertificate(f"{here}: a weak proof shows at least a draw only")
            mine, theirs = (seen_x, seen_o) if player == "x" else (seen_o, seen_x)
            proof = entry["weak"]
            shares = self.shared is not None and isinstance(proof, dict)
            if shares and proof.keys() == {"reply", "root"}:
                proof = {**proof, "nodes": self.shared}
            self.weak(theirs, mine, breaker_first=True, proof=proof, where=here)
            return None
        cell = self.cell(entry, self.geometry.full & ~(seen_x | seen_o), here)
        return self.unmaps[symmetry][cell]

    # A weak proof: Breaker's nodes, each checked at every position it is used for.
    def weak(self, maker: int, breaker: int, breaker_first: bool, proof: Any, where: str) -> None:
        if not isinstance(proof, dict) or set(proof) != {"reply", "root", "nodes"}:
            raise InvalidCertificate(f"{where}: a weak proof has reply, root and nodes")
        nodes = proof["nodes"]
        if not isinstance(nodes, list):
            raise InvalidCertificate(f"{where}: nodes must be a list")
        self.nodes, self.where = nodes, where
        self.zones: dict[tuple[Any, int, int], int] = {}
        self.pending: set[tuple[Any, int, int]] = set()
        empty = self.geometry.full & ~(maker | breaker)
        if breaker_first:
            reply = self.cell(proof["reply"], empty, f"{where}, reply")
            breaker |= 1 << reply
        elif proof["reply"] is not None:
            raise InvalidCertificate(f"{where}: Maker moves first here, so reply must be null")
        if self.geometry.has_line(maker):
            raise InvalidCertificate(f"{where}: Maker already has k in a row")
        self.zone(proof["root"], maker, breaker)

    def node(self, index: Any) -> Any:
        if not isinstance(index, int) or isinstance(index, bool):
            raise InvalidCertificate(f"{self.where}: a node is named by its index")
        if not 0 <= index < len(self.nodes):
            raise InvalidCertificate(f"{self.where}: there is no node {index}")
        return self.nodes[index]

    def zone(self, index: Any, maker: int, breaker: int) -> int:
        """The cells the proof of node ``index`` at this position relies on; raises when it
        does not prove that Breaker stops Maker from here with Maker to move."""
        key = (index, maker, breaker)
        if key in self.zones:
            return self.zones[key]
        if key in self.pending:  # only mirrors keep the position: a chain of them came back
            raise InvalidCertificate(f"{self.where}, node {index}: its mirrors lead back to it")
        self.pending.add(key)
        zone = self.proven_zone(index, maker, breaker)
        self.pending.discard(key)
        self.zones[key] = zone
        return zone

    def proven_zone(self, index: Any, maker: int, breaker: int) -> int:
        """``zone``, worked out."""
        node = self.node(index)
        self.count()
        geometry, where = self.geometry, f"{self.where}, node {index}"
        empty = geometry.full & ~(maker | breaker)
        open_ = [w for w in geometry.windows if w & breaker == 0]
        if not isinstance(node, dict) or len(node) != 1:
            raise InvalidCertificate(f"{where}: a node is an object of one kind")
        ((kind, body),) = node.items()
        if kind == "pairs":
            zone = self.pairs(body, open_, empty, where)
        elif kind == "potential":
            k = geometry.k
            if body is not True or sum(1 << k - (w & empty).bit_count() for w in open_) >= (
                1 << k - 1
            ):
                raise InvalidCertificate(f"{where}: the potential is not below 1/2")
            zone = empty
        elif kind == "split":
            zone = self.split(body, maker, breaker, empty, open_, where)
        elif kind == "mirror":
            zone = self.mirror(body, maker, breaker, where)
        elif kind in ("forced", "won") and not self.real_game:
            raise InvalidCertificate(f"{where}: {kind} nodes are version 4's")
        elif kind == "forced":
            zone = self.forced(body, maker, breaker, empty, open_, where)
        elif kind == "won":
            if body is not True or not geometry.has_line(breaker):
                raise InvalidCertificate(f"{where}: Breaker has no k in a row")
            zone = _guard(open_, empty, 1, where)
        else:
            raise InvalidCertificate(f"{where}: unknown kind of node {kind!r}")
        return int(zone)

    def mirror(self, body: Any, maker: int, breaker: int, where: str) -> int:
        if not isinstance(body, list) or len(body) != 2:
            raise InvalidCertificate(f"{where}: a mirror is [node, symmetry]")
        node, symmetry = body
        maps = self.maps
        if not isinstance(symmetry, int) or isinstance(symmetry, bool):
            raise InvalidCertificate(f"{where}: a symmetry is an integer")
        if not 0 <= symmetry < len(maps):
            raise InvalidCertificate(f"{where}: this board has symmetries 0 to {len(maps) - 1}")
        forward, back = maps[symmetry], self.unmaps[symmetry]
        zone = self.zone(node, permute(forward, maker), permute(forward, breaker))
        return permute(back, zone)

    def pairs(self, pairs: Any, open_: list[int], empty: int, where: str) -> int:
        if not isinstance(pairs, list):
            raise InvalidCertificate(f"{where}: pairs must be a list")
        zone = 0
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise InvalidCertificate(f"{where}: a pair is a list of two cells")
            a = self.cell(pair[0], empty & ~zone, where)
            zone |= 1 << a
            b = self.cell(pair[1], empty & ~zone, where)
            zone |= 1 << b
        held = [1 << a | 1 << b for a, b in pairs]
        for w in open_:
            if not any(w & pair == pair for pair in held):
                raise InvalidCertificate(f"{where}: window {w:#x} holds no pair")
        return zone

    def forced(
        self, body: Any, maker: int, breaker: int, empty: int, open_: list[int], where: str
    ) -> int:
        """Maker must take the one cell Breaker's own window lacks: any other move lets
        Breaker complete it first, as Maker cannot complete one of its own at once."""
        if not isinstance(body, list) or len(body) != 3:
            raise InvalidCertificate(f"{where}: a forced node is [move, reply, node]")
        move = self.cell(body[0], empty, where)
        k = self.geometry.k
        if not any(
            w & maker == 0 and w >> move & 1 and (w & breaker).bit_count() == k - 1
            for w in self.geometry.windows
        ):
            raise InvalidCertificate(f"{where}: Breaker does not threaten k in a row at {move}")
        zone = _guard(open_, empty, 2, where)
        reply = self.cell(body[1], empty & ~(1 << move), where)
        child = self.zone(body[2], maker | 1 << move, breaker | 1 << reply)
        return zone | 1 << move | 1 << reply | child

    def split(
        self,
        entries: Any,
        maker: int,
        breaker: int,
        empty: int,
        open_: list[int],
        where: str,
    ) -> int:
        if not isinstance(entries, list) or not entries:
            raise InvalidCertificate(f"{where}: a split is a nonempty list of entries")
        zone = 0
        answered = 0
        first_zone = 0
        for number, entry in enumerate(entries):
            if not isinstance(entry, list) or len(entry) != 3:
                raise InvalidCertificate(f"{where}: an entry is [move, reply, node]")
            move = self.cell(entry[0], empty, where)
            reply = self.cell(entry[1], empty & ~(1 << move), where)
            played = maker | 1 << move
            if any(w & ~played == 0 for w in open_):
                raise InvalidCertificate(f"{where}: Maker's move {move} makes k in a row")
            child = self.zone(entry[2], played, breaker | 1 << reply)
            if number == 0:
                first_zone = (child | 1 << reply) & ~(1 << move)
            answered |= 1 << move
            zone |= 1 << move | 1 << reply | child
        missing = first_zone & empty & ~answered
        if missing:
            cell = (missing & -missing).bit_length() - 1
            raise InvalidCertificate(f"{where}: Maker's move {cell} in the zone has no answer")
        return zone

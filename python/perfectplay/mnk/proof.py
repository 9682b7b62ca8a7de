"""``value`` and ``prove``: an m,n,k position's value, proven by the Breaker prover where it
can (a draw is two Breaker strategies, or one and strategy stealing on the empty board) and by
the search elsewhere; ``prove`` writes the proof as a certificate ``check`` verifies. Both run
above either backend: the prover and the search are the backend's."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perfectplay._kernel import args
from perfectplay._kernel.args import to_item
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._kernel.options import Options, takes
from perfectplay._kernel.symmetry import permute, symmetries
from perfectplay.errors import InvalidCertificate, SearchLimitExceeded
from perfectplay.mnk.certificate import FORMAT, MAX_BYTES, VERSION, canonical, check_weak
from perfectplay.mnk.prover import half_the_machine
from perfectplay.mnk.twin import PLAYING, Geometry, marks_to_masks, status, x_to_move

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from perfectplay._kernel.options import SearchOptions

#: The options of ``value`` and ``prove``: ``node_limit`` caps each search they run,
#: ``table_mb`` the search's table and the prover's memory, ``progress`` draws the prover's
#: nodes as a bar on standard error.
OPTIONS = ("node_limit", "table_mb", "progress")

#: The most positions a strategy from the search may hold in a certificate.
MAX_STRATEGY = 1_000_000

#: Every this many positions, a strategy looks at what the process holds: past half the
#: machine's memory more than at the start, ``prove`` stops (``MemoryError``) before the
#: system's out-of-memory killer would, as the prover does.
MEMORY_EVERY = 4_096

#: The most nodes a winning strategy's search for the quickest win may take before any
#: winning move is taken instead: quickest wins keep a strategy small, but some cost far more.
QUICK_MOVE_NODES = 1_000_000

#: The most nodes the prover spends looking for a Breaker strategy that ends a line of a
#: drawing strategy from the search, six stones in or more: most such positions have one or
#: none soon. Nearer the start it may spend ten times more every two stones fewer (see
#: ``_leaf_nodes``): those positions are few, and each proof found there ends a whole subtree.
LEAF_PROOF_NODES = 20_000

#: The table (MiB) of ``prove``'s searches when ``table_mb`` is not given: the largest a thread
#: keeps between calls, so each search of a strategy starts from what the earlier ones proved.
STRATEGY_TABLE_MB = 16


class _Position:
    """A checked position: its geometry, X and O masks and the board as the backend takes it."""

    def __init__(self, board: Any, k: Any, name: str, options: dict[str, Any]) -> None:
        Options.read(options, name, OPTIONS)
        rows, cols, marks = read_mark_grid(to_item(board))
        self.geometry = Geometry(rows, cols, args.int_arg(k, "k"))
        self.x, self.o = marks_to_masks(marks)
        self.state = status(self.geometry, self.x, self.o)
        self.k = self.geometry.k
        self.options = options
        self.board = self.text(self.x, self.o)
        self.mover = "x" if x_to_move(self.x, self.o) else "o"

    def text(self, x: int, o: int) -> str:
        cols = self.geometry.cols
        cells = [
            "x" if x >> c & 1 else "o" if o >> c & 1 else "." for c in range(self.geometry.cells)
        ]
        return "/".join(
            "".join(cells[r * cols : (r + 1) * cols]) for r in range(self.geometry.rows)
        )

    def won(self) -> bool:
        return self.geometry.has_line(self.x) or self.geometry.has_line(self.o)

    def breaker(self, breaker_first: bool) -> Any:
        backend = implementation("mnk")
        return backend.breaker_proof(self.board, self.k, breaker_first, **self.options)

    def proof_or_none(self, breaker_first: bool) -> Any:
        """``breaker``, with a prover out of memory taken as no proof (the search decides)."""
        try:
            return self.breaker(breaker_first)
        except MemoryError:
            return None

    def search_options(self) -> dict[str, Any]:
        """The options the search takes (all but ``progress``)."""
        return {o: v for o, v in self.options.items() if o != "progress"}

    def strategy_options(self) -> dict[str, Any]:
        """The options of ``prove``'s searches: ``search_options``, in a kept table unless
        ``table_mb`` is given."""
        options = self.search_options()
        if options.get("table_mb") is None:
            options["table_mb"] = STRATEGY_TABLE_MB
        return options


@takes(OPTIONS)
def value(board: Any, k: int, **options: Unpack[SearchOptions]) -> int:
    """The value of an m,n,k position for the side to move: 1 (a win), 0 (a draw) or -1 (a
    loss) with best play. A draw is proven by the weak-game prover where it can be; everything
    else is searched (as ``solve``). ``node_limit`` caps each search it runs; ``table_mb`` is
    the search's table and the most the prover's nodes and tables may hold (not given: half
    the machine's memory: a proof that would need more is given up for the search, never left
    to the system's out-of-memory killer); ``progress=True`` draws the prover's nodes as a bar
    on standard error."""
    position = _Position(board, k, "value", dict(options))
    if position.state != PLAYING:
        return -1 if position.won() else 0
    if position.proof_or_none(False) is not None and (
        not position.x | position.o or position.proof_or_none(True) is not None
    ):
        return 0
    return int(
        implementation("mnk").search_value(position.board, position.k, **position.search_options())
    )


@takes(OPTIONS)
def prove(
    board: Any,
    k: int,
    *,
    checkpoint: str | os.PathLike[str] | None = None,
    client: Any = None,
    **options: Unpack[SearchOptions],
) -> dict[str, Any]:
    """A certificate of the position's value (see ``perfectplay.mnk.certificate`` for its
    format), which ``perfectplay.mnk.check`` verifies without the prover: Breaker strategies
    for a draw where the prover finds them, strategies from the search elsewhere. The
    searches share one table: ``table_mb`` if given, else ``STRATEGY_TABLE_MB``, kept by the
    thread between them.

    With ``checkpoint`` (a directory) or ``client`` (a ``dask.distributed.Client``), the proof
    that the side to move cannot win is split by its first move: one task a move up to the
    position's symmetries, run on the cluster's workers (or here, one after another), each kept
    in ``checkpoint`` as it ends, so a run that is stopped goes on where it was; a kept task is
    checked again when it is read."""
    position = _Position(board, k, "prove", dict(options))
    geometry, mover = position.geometry, position.mover
    other = "o" if mover == "x" else "x"
    certificate: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rows": geometry.rows,
        "cols": geometry.cols,
        "k": geometry.k,
        "board": position.board,
    }
    if position.state != PLAYING:
        won = -1 if position.won() else 0
        over = {"player": mover, "at_least": won, "by": {"over": True}}
        return {**certificate, "value": won, "guarantees": [over]}
    split = checkpoint is not None or client is not None
    upper = _split(position, checkpoint, client) if split else position.breaker(False)
    # X does not lose the empty board, whatever else is proven; elsewhere the side to move's
    # Breaker proof is looked for only once the other side's is found (both make a draw).
    lower: Any = {"strategy_stealing": True} if not position.x | position.o else None
    if upper is not None and lower is None and (found := position.breaker(True)) is not None:
        lower = {"weak": _weak(found)}
    shown_upper = None if upper is None else upper if split else _weak(upper)
    if upper is not None and lower is not None:
        guarantees = [
            {"player": mover, "at_least": 0, "by": lower},
            {"player": other, "at_least": 0, "by": {"weak": shown_upper}},
        ]
        return {**certificate, "value": 0, "guarantees": guarantees}
    backend = implementation("mnk")
    result = int(backend.search_value(position.board, position.k, **position.strategy_options()))
    pool = _Pool()
    if result == 1:
        guarantees = [_strategy(position, mover, 1, pool)]
    elif result == -1:
        guarantees = [_strategy(position, other, 1, pool)]
    else:
        mine = {"player": mover, "at_least": 0, "by": lower} if lower else None
        theirs = {"player": other, "at_least": 0, "by": {"weak": shown_upper}} if upper else None
        guarantees = [
            mine or _strategy(position, mover, 0, pool),
            theirs or _strategy(position, other, 0, pool),
        ]
    shared = {"nodes": pool.nodes} if pool.nodes else {}
    return {**certificate, "value": result, "guarantees": guarantees, **shared}


class _Pool:
    """The Breaker nodes a certificate's strategies share (its ``nodes``): every node of a
    line's ending placed once, however many endings use it."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.placed: dict[str, int] = {}

    def add(self, proof: Any) -> dict[str, Any]:
        """A backend's proof ``(reply, root, nodes)`` as a strategy's ``weak`` entry into the
        pool (the nodes its root reaches, each found again where the pool has it)."""
        reply, root, _ = proof
        shown = _weak(proof)["nodes"]
        at: dict[int, int] = {}

        def place(index: int) -> int:
            if index in at:
                return at[index]
            ((kind, body),) = shown[index].items()
            body = _renamed(kind, body, place)
            key = json.dumps([kind, body])
            if key not in self.placed:
                self.placed[key] = len(self.nodes)
                self.nodes.append({kind: body})
            at[index] = self.placed[key]
            return at[index]

        return {"reply": reply, "root": place(root)}


def _renamed(kind: str, body: Any, rename: Callable[[int], int]) -> Any:
    """A node's body with each node it names renamed by ``rename``."""
    if kind == "split":
        return [[move, reply, rename(child)] for move, reply, child in body]
    if kind == "mirror":
        return [rename(body[0]), body[1]]
    if kind == "forced":
        return [body[0], body[1], rename(body[2])]
    return body


def _task(board: str, k: int, options: dict[str, Any]) -> Any:
    """One first move's proof (Breaker to move), in a worker."""
    return implementation("mnk").breaker_proof(board, k, True, **options)


def _split(
    position: _Position, checkpoint: str | os.PathLike[str] | None, client: Any
) -> dict[str, Any] | None:
    """The weak proof that the side to move (Maker) cannot win, one task a first move: a split
    node with an entry for every move, over the tasks' nodes. ``None`` if a task finds none."""
    geometry, x_moves = position.geometry, position.mover == "x"
    maker, breaker = (position.x, position.o) if x_moves else (position.o, position.x)
    empty = geometry.full & ~(maker | breaker)
    moves = [cell for cell in range(geometry.cells) if empty >> cell & 1]
    boards = {}
    for cell in moves:
        played = 1 << cell
        x, o = (position.x | played, position.o) if x_moves else (position.x, position.o | played)
        boards[cell] = position.text(x, o)
    options = {o: v for o, v in position.options.items() if o in ("node_limit", "table_mb")}
    # A first move that a symmetry of the position takes to an earlier one needs no task: its
    # entry is a mirror of that move's proof. `image[cell]`: (the earlier move, the symmetry).
    maps = symmetries(geometry.rows, geometry.cols)
    keeping = [
        s
        for s, forward in enumerate(maps)
        if permute(forward, maker) == maker and permute(forward, breaker) == breaker
    ]
    image: dict[int, tuple[int, int]] = {}
    for cell in moves:
        image[cell] = (cell, 0)
        for s in keeping:
            to = maps[s][cell]
            if to != cell and image.get(to) == (to, 0):
                image[cell] = (to, s)
                break
    own = [cell for cell in moves if image[cell] == (cell, 0)]
    found: dict[int, Any] = {}
    folder = None if checkpoint is None else Path(checkpoint)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for cell in own:
            kept = _kept(folder / f"{cell}.json", boards[cell], position.k)
            if kept is not None and _holds(geometry, maker | 1 << cell, breaker, kept):
                found[cell] = kept
    todo = [cell for cell in own if cell not in found]

    def keep(cell: int, proof: Any) -> None:
        found[cell] = proof
        if folder is not None:
            text = json.dumps({"board": boards[cell], "k": position.k, "proof": proof})
            write_whole(folder / f"{cell}.json", lambda file: file.write(text.encode()))

    if client is None:
        for cell in todo:
            keep(cell, _task(boards[cell], position.k, options))
    else:
        from distributed import as_completed  # optional: the dask extra

        futures = {
            client.submit(_task, boards[cell], position.k, options, pure=False): cell
            for cell in todo
        }
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            keep(futures[future], future.result())
    if any(found[cell] is None for cell in own):
        return None
    nodes: list[dict[str, Any]] = []
    answers: dict[int, tuple[int, int]] = {}  # a task's move: its reply and root node
    for cell in own:
        reply, root, task_nodes = found[cell]
        offset = len(nodes)
        for node in _weak((reply, root, task_nodes))["nodes"]:
            ((kind, body),) = node.items()
            nodes.append({kind: _renamed(kind, body, offset.__add__)})
        answers[cell] = reply, root + offset
    entries: list[list[int]] = []
    for cell in moves:
        to, s = image[cell]
        reply, root = answers[to]
        if s:  # the reply the symmetry takes to the earlier move's, and its proof moved so
            reply = maps[s].index(reply)
            nodes.append({"mirror": [root, s]})
            root = len(nodes) - 1
        entries.append([cell, reply, root])
    nodes.append({"split": entries})
    return {"reply": None, "root": len(nodes) - 1, "nodes": nodes}


def _kept(path: Path, board: str, k: int) -> Any:
    """A task's proof kept at ``path`` for this board and k, or ``None`` (absent, or not it)."""
    try:
        with open_regular(path) as file:
            data = json.loads(file.read(MAX_BYTES + 1))
    except FileNotFoundError:
        return None
    except ValueError:
        return None  # not JSON, or not a regular file: done again
    if not isinstance(data, dict) or data.get("board") != board or data.get("k") != k:
        return None
    proof = data.get("proof")
    return None if proof is None else proof


def _holds(geometry: Geometry, maker: int, breaker: int, proof: Any) -> bool:
    """Does a kept task's proof (``[reply, root, nodes]``, Breaker to move) hold?"""
    if not isinstance(proof, list) or len(proof) != 3:
        return False
    try:
        check_weak(geometry, maker, breaker, True, _weak(proof))
    except (InvalidCertificate, TypeError, KeyError, IndexError):
        return False
    return True


def _weak(proof: Any) -> dict[str, Any]:
    """A backend's proof ``(reply, root, nodes)`` as a certificate's ``weak`` proof (the nodes'
    lists are the backend's own, not copied)."""
    reply, root, nodes = proof
    shown: list[dict[str, Any]] = []
    for node in nodes:
        kind = node[0]
        if kind in ("potential", "won"):
            shown.append({kind: True})
        elif kind == "mirror":
            shown.append({"mirror": [node[1], node[2]]})
        else:
            shown.append({kind: node[1]})
    return {"reply": reply, "root": root, "nodes": shown}


def _strategy(position: _Position, player: str, bound: int, pool: _Pool) -> dict[str, Any]:
    """``player``'s strategy from the search: its best move wherever it is to move, against
    every move of the other side, once a position up to symmetry (keyed by its least image).
    Where ``player`` needs only a draw and the prover finds it a Breaker strategy within
    ``_leaf_nodes``, that weak proof ends the line, its nodes in ``pool``."""
    backend, geometry = implementation("mnk"), position.geometry
    maps = symmetries(geometry.rows, geometry.cols)
    leaf_options = dict(position.options, progress=False)
    moves: dict[str, Any] = {}
    seen: set[tuple[int, int]] = set()
    stack = [(position.x, position.o)]
    room = _MemoryRoom()
    while stack:
        x, o = canonical(maps, *stack.pop())
        if (x, o) in seen:
            continue
        seen.add((x, o))
        if len(seen) % MEMORY_EVERY == 0:
            room.check()
        empty = geometry.full & ~(x | o)
        if empty == 0:
            continue
        x_moves = x_to_move(x, o)
        if x_moves == (player == "x"):
            if geometry.wins_now(*((x, o) if x_moves else (o, x))):
                continue  # check plays the winning move itself
            if len(moves) >= MAX_STRATEGY:
                raise SearchLimitExceeded(
                    f"the certificate's strategy would hold more than {MAX_STRATEGY} positions"
                )
            key, text = f"{x:x}.{o:x}", position.text(x, o)
            leaf = None
            if bound == 0:
                budget = _capped(leaf_options, _leaf_nodes((x | o).bit_count()))
                leaf = _leaf_proof(backend, text, position.k, budget)
            if leaf is not None:
                moves[key] = {"weak": pool.add(leaf)}
                continue
            cell = _move(position, text, x, o, bound)
            moves[key] = cell
            mine = (x if x_moves else o) | 1 << cell
            if not geometry.has_line(mine):
                stack.append((mine, o) if x_moves else (x, mine))
            continue
        for cell in range(geometry.cells):
            if empty >> cell & 1:
                theirs = (x if x_moves else o) | 1 << cell
                if not geometry.has_line(theirs):
                    stack.append((theirs, o) if x_moves else (x, theirs))
    return {"player": player, "at_least": bound, "by": {"strategy": moves}}


class _MemoryRoom:
    """What the process held when a strategy began, and how much more it may hold: half the
    machine's memory (no bound where the system does not say)."""

    def __init__(self) -> None:
        self.start, self.room = _resident_bytes(), half_the_machine()

    def check(self) -> None:
        now = _resident_bytes()
        if self.start is None or now is None or self.room is None:
            return
        if now - self.start > self.room:
            raise MemoryError(
                f"the certificate's strategy would hold more than half the machine's memory "
                f"({self.room >> 20} MiB)"
            )


def _resident_bytes() -> int | None:
    """The memory the process holds now, where the system says (Linux's ``/proc``)."""
    try:
        with open("/proc/self/statm", "rb") as file:
            pages = int(file.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _move(position: _Position, text: str, x: int, o: int, bound: int) -> int:
    """The side to move's best move, or where that search needs more than ``QUICK_MOVE_NODES``
    and a win is all ``bound`` asks, the first move after which the other side loses. Where a
    draw is all ``bound`` asks, a threat that keeps it comes first (``_drawing_threat``)."""
    backend, geometry = implementation("mnk"), position.geometry
    options = position.strategy_options()
    if bound == 0 and (threat := _drawing_threat(position, x, o)) is not None:
        return threat
    try:
        row, col = backend.best_move(text, position.k, **_capped(options, QUICK_MOVE_NODES))
    except SearchLimitExceeded:
        if bound == 0:
            row, col = backend.best_move(text, position.k, **options)
        else:
            return _a_winning_move(position, x, o)
    return int(row * geometry.cols + col)


def _drawing_threat(position: _Position, x: int, o: int) -> int | None:
    """The first move (by cell) that threatens k in a row at the next move and after which the
    other side cannot win, as searches within ``QUICK_MOVE_NODES`` prove; None if there is
    none. The other side must answer a threat where it stands, so a drawing strategy that
    makes one tries one answer there instead of every move: its strategies are smaller."""
    backend, geometry = implementation("mnk"), position.geometry
    options = _capped(position.strategy_options(), QUICK_MOVE_NODES)
    x_moves = x_to_move(x, o)
    mine, theirs = (x, o) if x_moves else (o, x)
    empty = geometry.full & ~(x | o)
    for cell in range(geometry.cells):
        if not empty >> cell & 1 or not geometry.wins_now(mine | 1 << cell, theirs):
            continue
        after = (x | 1 << cell, o) if x_moves else (x, o | 1 << cell)
        try:
            if backend.search_value(position.text(*after), position.k, **options) <= 0:
                return cell
        except SearchLimitExceeded:
            continue
    return None


def _a_winning_move(position: _Position, x: int, o: int) -> int:
    """A move after which the side to move's opponent loses: the first, nearest the centre,
    that a search proves within ``QUICK_MOVE_NODES``, then within ten times more, and so on up
    to the options' ``node_limit`` (so one hard child does not hold up an easy win)."""
    backend, geometry = implementation("mnk"), position.geometry
    options = position.strategy_options()
    given = options.get("node_limit")
    x_moves = x_to_move(x, o)
    rows, cols = geometry.rows, geometry.cols
    empty = geometry.full & ~(x | o)
    cells = [c for c in range(geometry.cells) if empty >> c & 1]
    cells.sort(key=lambda c: abs(2 * (c // cols) - rows + 1) + abs(2 * (c % cols) - cols + 1))
    budget = QUICK_MOVE_NODES
    while True:
        capped = _capped(options, budget)
        limit = capped["node_limit"]
        over = False
        for cell in cells:
            after = position.text(x | 1 << cell, o) if x_moves else position.text(x, o | 1 << cell)
            try:
                if backend.search_value(after, position.k, **capped) == -1:
                    return cell
            except SearchLimitExceeded:
                over = True
        if not over:  # every move searched out, none a win: the search contradicts itself
            raise AssertionError(f"no winning move in a won position: {position.text(x, o)}")
        if given is not None and limit >= given:
            raise SearchLimitExceeded(
                f"no move of {position.text(x, o)} was proven a win within node_limit={limit}"
            )
        budget *= 10


def _capped(options: dict[str, Any], nodes: int) -> dict[str, Any]:
    """``options`` with ``node_limit`` at most ``nodes``."""
    given = options.get("node_limit")
    return dict(options, node_limit=nodes if given is None else min(given, nodes))


def _leaf_nodes(stones: int) -> int:
    """The prover's budget for a line's ending with ``stones`` on the board:
    ``LEAF_PROOF_NODES`` from six stones, ten times more for every two fewer."""
    return LEAF_PROOF_NODES * int(10 ** max(0, 3 - stones // 2))


def _leaf_proof(backend: Any, board: str, k: int, options: dict[str, Any]) -> Any:
    """The prover's Breaker strategy for the side to move, moving first, or None when it finds
    none within the options' limits."""
    try:
        return backend.breaker_proof(board, k, True, **options)
    except (SearchLimitExceeded, MemoryError):
        return None

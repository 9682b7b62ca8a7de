"""m,n,k proofs: the weak-game prover of both backends gives the same nodes, ``value`` agrees with
the plain search wherever the search finishes, and ``check`` accepts the certificates ``prove``
writes and refuses every one changed by a cell or a move."""

from __future__ import annotations

import _thread
import copy
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from perfectplay import mnk as public
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.symmetry import permute, symmetries
from perfectplay.errors import IllegalPosition, InvalidCertificate, SearchLimitExceeded
from perfectplay.mnk import proof
from perfectplay.mnk.certificate import check_weak
from perfectplay.mnk.twin import Geometry

#: A (4,5,4) draw, O to move, whose halves are both strategies: the prover finds neither side a
#: Breaker strategy from the position itself, only from positions further on (X's half is the
#: second guarantee).
DRAWN = ("oo.xx/...../x..o./x....", 4)

#: A (4,6,4) draw of two stones whose halves are strategies too, their lines ending from three
#: stones on (too slow for the pure-Python search: compiled only).
EARLY_DRAWN = ("..o.../....../...x../......", 4)


def _no_breaker_proof_at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """``prove`` finds no Breaker proof for the position itself (the endings of strategies
    are still looked for): what a board whose proofs lie further on gets."""
    monkeypatch.setattr(proof._Position, "breaker", lambda self, breaker_first: None)


def _empty(rows: int, cols: int) -> str:
    return "/".join("." * cols for _ in range(rows))


def _masks(key: str) -> tuple[int, int]:
    """The X and O masks of a strategy's key ``X_HEX.O_HEX``."""
    x, o = key.split(".")
    return int(x, 16), int(o, 16)


def _text(codes: Any) -> str:
    return "/".join("".join(".xo"[int(c)] for c in row) for row in codes)


def _random(rows: int, cols: int, k: int, n: int, plies: int | None, seed: int) -> list[str]:
    rust = implementation("mnk", "rust")
    codes = rust.random_positions(rows, cols, k, n, seed=seed, plies=plies, ongoing=True)
    return [_text(board) for board in codes]


SAMPLES = [(4, 4, 4, None, 300), (4, 5, 4, None, 200), (5, 5, 4, 8, 60), (5, 5, 5, 8, 60)]


@pytest.mark.both_backends
@pytest.mark.parametrize(("rows", "cols", "k", "plies", "n"), SAMPLES)
def test_the_provers_of_both_backends_give_the_same_nodes(
    rust_mnk: Any, python_mnk: Any, rows: int, cols: int, k: int, plies: int | None, n: int
) -> None:
    proven = 0
    for board in _random(rows, cols, k, n, plies, seed=rows * 100 + cols * 10 + k):
        for breaker_first in (False, True):
            rust = rust_mnk.breaker_proof(board, k, breaker_first)
            assert rust == python_mnk.breaker_proof(board, k, breaker_first), board
            proven += rust is not None
    assert proven > n // 4  # the samples reach the prover's proofs, not only its refusals


@pytest.mark.compiled  # the twin's search is slow on these: its prover is held to Rust's above
@pytest.mark.parametrize(
    ("rows", "cols", "k", "plies", "n"),
    [(4, 4, 4, None, 400), (4, 5, 4, None, 300), (5, 5, 4, 8, 80), (5, 5, 5, 10, 150)],
)
def test_value_agrees_with_the_search(
    rust_mnk: Any, rows: int, cols: int, k: int, plies: int | None, n: int
) -> None:
    for board in _random(rows, cols, k, n, plies, seed=7 + rows + cols + k):
        assert public.value(board, k) == rust_mnk.solve(board, k).value, board


def test_value_agrees_with_the_search_of_the_twin(python_mnk: Any) -> None:
    # The twin's plain search is slow past 4x4: its prover is held to Rust's above.
    for k, boards in ((3, _random(3, 4, 3, 200, None, 11)), (4, _random(4, 4, 4, 200, 9, 12))):
        for board in boards:
            assert public.value(board, k) == python_mnk.solve(board, k).value, board


@pytest.mark.parametrize(
    ("rows", "cols", "k", "published"),
    [(3, 3, 3, 0), (4, 4, 4, 0), (5, 5, 5, 0), (6, 5, 5, 0), (6, 6, 5, 0), (3, 4, 3, 1)],
)
def test_published_values_of_empty_boards_are_proven_and_checked(
    rows: int, cols: int, k: int, published: int
) -> None:
    board = _empty(rows, cols)
    assert public.value(board, k) == published
    certificate = public.prove(board, k)
    assert public.check(certificate) == published
    assert public.check(json.dumps(certificate)) == published


def test_a_drawn_position_has_two_breaker_strategies() -> None:
    certificate = public.prove("x..../...../...../...../.....", 5)
    assert certificate["value"] == 0
    kinds = [next(iter(g["by"])) for g in certificate["guarantees"]]
    assert kinds == ["weak", "weak"]
    assert public.check(certificate) == 0


@pytest.mark.parametrize(
    ("board", "k", "expected"),
    [
        ("xx../oo../..../....", 3, 1),  # X to move completes three
        ("xx.o/o.../..../....", 3, 1),
        ("x.../..../..../....", 4, 0),
        ("xxx/oo./...", 3, -1),  # over: X has three, O to move has lost
        ("xox/xoo/oxx", 3, 0),  # over: a full board
        (".../.x./...", 3, 0),
    ],
)
def test_certificates_of_wins_losses_draws_and_ends_are_checked(
    board: str, k: int, expected: int
) -> None:
    certificate = public.prove(board, k)
    assert certificate["value"] == expected == public.value(board, k)
    assert public.check(certificate) == expected


def _refused(certificate: dict[str, Any], match: str | None = None) -> None:
    with pytest.raises(InvalidCertificate, match=match):
        public.check(certificate)


def test_a_certificate_changed_by_one_cell_or_one_move_is_refused() -> None:
    good = public.prove(_empty(6, 6), 5)
    public.check(good)
    weak = good["guarantees"][1]["by"]["weak"]
    splits = [i for i, node in enumerate(weak["nodes"]) if "split" in node]
    pairings = [i for i, node in enumerate(weak["nodes"]) if node.get("pairs")]
    assert splits and pairings

    # A Breaker reply moved to another cell.
    forged = copy.deepcopy(good)
    entry = forged["guarantees"][1]["by"]["weak"]["nodes"][splits[-1]]["split"][0]
    entry[1] = next(c for c in range(36) if c not in (entry[0], entry[1]))
    _refused(forged)

    # A pair's cell moved by one.
    forged = copy.deepcopy(good)
    pair = forged["guarantees"][1]["by"]["weak"]["nodes"][pairings[0]]["pairs"][0]
    pair[1] = (pair[1] + 1) % 36
    _refused(forged)

    # An answered Maker move dropped from a split.
    forged = copy.deepcopy(good)
    node = next(
        n for n in forged["guarantees"][1]["by"]["weak"]["nodes"] if len(n.get("split", [])) > 1
    )
    node["split"].pop()
    _refused(forged, "has no answer")

    # One mark more on the board, the value claimed, the kind of a node.
    forged = copy.deepcopy(good)
    forged["board"] = "x" + forged["board"][1:]
    _refused(forged)
    forged = copy.deepcopy(good)
    forged["value"] = 1
    _refused(forged, "pin the value")
    forged = copy.deepcopy(good)
    forged["guarantees"][1]["by"]["weak"]["nodes"][pairings[0]] = {"potential": True}
    _refused(forged, "potential")

    # A mirror that names another of the board's symmetries.
    mirrors = [i for i, node in enumerate(weak["nodes"]) if "mirror" in node]
    assert mirrors
    refused = 0
    for index in mirrors:
        forged = copy.deepcopy(good)
        node, symmetry = forged["guarantees"][1]["by"]["weak"]["nodes"][index]["mirror"]
        forged["guarantees"][1]["by"]["weak"]["nodes"][index]["mirror"] = [node, symmetry ^ 1]
        try:
            public.check(forged)
        except InvalidCertificate:
            refused += 1
    assert refused == len(mirrors)  # no other symmetry maps these positions alike


def test_a_forged_strategy_is_refused() -> None:
    good = public.prove("x.../..../..../....", 3)
    assert good["value"] == -1  # 4x4, three in a row: X wins, so O to move loses
    strategy = good["guarantees"][0]["by"]["strategy"]
    key = next(iter(strategy))
    forged = copy.deepcopy(good)
    forged["guarantees"][0]["by"]["strategy"][key] = 0  # X's own first mark
    _refused(forged, "not an empty cell")
    forged = copy.deepcopy(good)
    del forged["guarantees"][0]["by"]["strategy"][key]
    _refused(forged, "no move")
    forged = copy.deepcopy(good)
    forged["guarantees"][0]["by"] = {"strategy_stealing": True}
    _refused(forged, "empty board")

    drawn = public.prove(*DRAWN)
    assert drawn["value"] == 0
    forged = copy.deepcopy(drawn)
    assert drawn["guarantees"][1]["by"].keys() == {"strategy"}
    forged["value"] = -1
    forged["guarantees"][1]["at_least"] = 1  # X's drawing strategy passed off as a win
    _refused(forged, "a weak proof shows at least a draw only")


def test_a_drawing_strategy_of_moves_only_is_not_a_win(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_breaker_proof_at_the_root(monkeypatch)
    monkeypatch.setattr(proof, "_leaf_proof", lambda *_: None)
    drawn = public.prove(".../.../...", 3)
    moves = drawn["guarantees"][1]["by"]["strategy"]
    assert all(isinstance(cell, int) for cell in moves.values())
    assert public.check(drawn) == 0
    forged = copy.deepcopy(drawn)
    forged["value"] = -1
    forged["guarantees"][1]["at_least"] = 1
    _refused(forged, "only draws")


def test_a_strategy_ends_its_lines_in_breaker_strategies_checked_like_any() -> None:
    """X's half of ``DRAWN`` is a strategy from the search, whose lines end where the prover
    finds X a Breaker strategy. Such an ending is checked as any weak proof is, at its own
    position: a reply on a taken cell, or an answered Maker move dropped from a split, is
    refused."""
    drawn = public.prove(*DRAWN)
    assert drawn["value"] == 0 and public.check(drawn) == 0
    moves = drawn["guarantees"][1]["by"]["strategy"]
    leaves = [key for key, entry in moves.items() if isinstance(entry, dict)]
    assert leaves and any(isinstance(entry, int) for entry in moves.values())
    for key in leaves:
        x, o = _masks(key)
        forged = copy.deepcopy(drawn)
        taken = (x | o) & -(x | o)
        forged["guarantees"][1]["by"]["strategy"][key]["weak"]["reply"] = taken.bit_length() - 1
        _refused(forged, "not an empty cell")
    # The endings' nodes are the certificate's shared ones: each is some ending's.
    assert all(moves[key]["weak"].keys() == {"reply", "root"} for key in leaves)
    splits = 0
    for index, node in enumerate(drawn["nodes"]):
        if len(node.get("split", [])) > 1:
            forged = copy.deepcopy(drawn)
            forged["nodes"][index]["split"].pop()
            _refused(forged, "has no answer")
            splits += 1
    assert splits > 0


@pytest.mark.compiled
def test_an_ending_nearer_the_start_is_looked_for_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prover's budget for a line's ending grows toward the start (few positions there, and
    each proof found ends a whole subtree), and a given ``node_limit`` still caps it."""
    asked: list[tuple[int, int]] = []
    looked_for = proof._leaf_proof

    def recorded(backend: Any, board: str, k: int, options: dict[str, Any]) -> Any:
        asked.append((board.count("x") + board.count("o"), options["node_limit"]))
        return looked_for(backend, board, k, options)

    monkeypatch.setattr(proof, "_leaf_proof", recorded)
    assert public.check(public.prove(*EARLY_DRAWN)) == 0
    budgets = dict(asked)
    assert {3, 5, 7} <= set(budgets) and len(set(asked)) == len(budgets)
    assert budgets[3] > budgets[5] > budgets[7] == proof.LEAF_PROOF_NODES
    assert all(budget == proof.LEAF_PROOF_NODES for stones, budget in asked if stones >= 7)
    asked.clear()
    assert public.check(public.prove(*EARLY_DRAWN, node_limit=1_000_000)) == 0
    assert dict(asked)[3] == 1_000_000 < budgets[3]
    assert {stones: limit for stones, limit in asked if stones > 3}.items() <= budgets.items()


def test_a_drawing_strategy_threatens_where_a_threat_keeps_the_draw() -> None:
    """Where the side to move can threaten k in a row and still draw, a drawing strategy plays
    the threat (the other side then has one answer to try, not every move), even where the
    search's best move is another."""
    board = "oox../oxoxx/xxo../ox.x./.o..."  # O to move; (0, 3) is the search's best move
    position = proof._Position(board, 4, "prove", {})
    geometry, x, o = position.geometry, position.x, position.o
    backend = implementation("mnk")
    row, col = backend.best_move(board, 4)
    assert not geometry.wins_now(o | 1 << (row * 5 + col), x)
    cell = proof._move(position, board, x, o, 0)
    assert geometry.wins_now(o | 1 << cell, x)
    assert backend.search_value(position.text(x, o | 1 << cell), 4) <= 0
    assert proof._move(position, board, x, o, 1) == row * 5 + col  # a win asks the best move


def test_a_strategy_stops_before_it_holds_half_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A strategy looks at what the process holds as it grows, and stops with ``MemoryError``
    past half the machine's memory more than at its start; below that it is written."""
    held = iter(range(0, 1 << 60, 1 << 30))  # a GiB more at every look
    monkeypatch.setattr(proof, "MEMORY_EVERY", 1)
    monkeypatch.setattr(proof, "half_the_machine", lambda: 4 << 30)
    monkeypatch.setattr(proof, "_resident_bytes", lambda: next(held))
    with pytest.raises(MemoryError, match="half the machine's memory"):
        public.prove(*DRAWN)
    monkeypatch.setattr(proof, "_resident_bytes", lambda: 1 << 30)
    assert public.check(public.prove(*DRAWN)) == 0


def _embedded(certificate: dict[str, Any], version: int) -> dict[str, Any]:
    """``certificate`` as ``version`` with its shared ``nodes`` held by each ending instead."""
    embedded = copy.deepcopy(certificate)
    nodes = embedded.pop("nodes")
    embedded["version"] = version
    for guarantee in embedded["guarantees"]:
        for entry in guarantee["by"].get("strategy", {}).values():
            if isinstance(entry, dict):
                entry["weak"]["nodes"] = nodes
    return embedded


def test_endings_share_their_nodes_and_version_2_keeps_them_apart() -> None:
    """A node two endings use is kept once in the certificate's ``nodes``. Version 2 has no
    shared nodes: each ending holds its own, and an ending that names a shared node there is
    refused. A version 3 certificate, written before forced and won nodes, is still read; a
    version 2 or 3 one with such nodes is refused."""
    drawn = public.prove(*DRAWN)
    moves = drawn["guarantees"][1]["by"]["strategy"]
    roots = [entry["weak"]["root"] for entry in moves.values() if isinstance(entry, dict)]
    assert len(set(roots)) < len(roots)
    assert len(drawn["nodes"]) == len({json.dumps(node) for node in drawn["nodes"]})
    out_of_reach = copy.deepcopy(drawn)
    key = next(key for key, entry in moves.items() if isinstance(entry, dict))
    out_of_reach["guarantees"][1]["by"]["strategy"][key]["weak"]["root"] = len(drawn["nodes"])
    _refused(out_of_reach, "there is no node")
    assert public.check(_embedded(drawn, 4)) == 0
    _refused(_embedded(drawn, 2), "forced nodes are version 4's")
    older = copy.deepcopy(drawn)
    older["version"] = 3
    _refused(older, "forced nodes are version 4's")

    # Tic-tac-toe's certificate as the release before version 4 wrote it.
    written = json.loads(
        (Path(__file__).parent / "certificates" / "tictactoe-version-3.json").read_text()
    )
    assert written["version"] == 3 and public.check(written) == 0
    old = copy.deepcopy(written)
    old["version"] = 2
    _refused(old, "nodes \\(version 3\\) must be a list")
    del old["nodes"]
    _refused(old, "a weak proof has reply, root and nodes")
    assert public.check(_embedded(written, 2)) == 0


def test_a_strategy_is_read_under_the_boards_symmetries() -> None:
    """A strategy's entry is found under any image of its position, its move moved back: the
    certificate with a key and its move turned by a symmetry is accepted, and with the key
    turned but not the move, refused where that cell is taken in the image."""
    maps = symmetries(4, 4)
    turned = refused = 0
    for board, value in (("x.../..../..../....", -1), (_empty(4, 4), 1)):
        good = public.prove(board, 3)
        strategy = good["guarantees"][0]["by"]["strategy"]
        for key, cell in strategy.items():
            x, o = _masks(key)
            for forward in maps[1:]:
                seen_x, seen_o = permute(forward, x), permute(forward, o)
                image = f"{seen_x:x}.{seen_o:x}"
                if image in strategy:
                    continue
                moved = copy.deepcopy(good)
                moved_strategy = moved["guarantees"][0]["by"]["strategy"]
                del moved_strategy[key]
                moved_strategy[image] = forward[cell]
                assert public.check(moved) == value
                turned += 1
                if (seen_x | seen_o) >> cell & 1:
                    moved_strategy[image] = cell
                    _refused(moved, "not an empty cell")
                    refused += 1
    assert turned >= 150 and refused >= 30


def test_a_strategy_needs_no_entry_where_its_player_wins_at_once() -> None:
    """Where the strategy's player can complete a line at once, check plays that move itself:
    the certificate holds no entry for such a position, though play reaches them (a move of
    the strategy makes a threat, and O's replies that leave it are not in the map)."""
    good = public.prove("x.../..../..../....", 3)
    assert good["guarantees"][0]["player"] == "x"
    strategy = good["guarantees"][0]["by"]["strategy"]
    geometry = Geometry(4, 4, 3)
    threats = 0
    for key, cell in strategy.items():
        x, o = _masks(key)
        assert not geometry.wins_now(x, o)
        threats += geometry.wins_now(x | 1 << cell, o)
    assert threats > 0
    assert public.check(good) == -1


def test_a_strategy_takes_any_winning_move_where_the_quickest_costs_too_much(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``QUICK_MOVE_NODES`` a winning strategy takes the first move after which the other
    side loses, and a drawing one searches on for its best move: both still check."""
    monkeypatch.setattr(proof, "QUICK_MOVE_NODES", 1)
    taken = []
    first_proven = proof._a_winning_move

    def counted(*arguments: Any) -> int:
        taken.append(first_proven(*arguments))
        return taken[-1]

    monkeypatch.setattr(proof, "_a_winning_move", counted)
    won = public.prove(_empty(3, 4), 3)
    assert taken and set(taken) <= set(won["guarantees"][0]["by"]["strategy"].values())
    assert public.check(won) == 1
    drawn = public.prove(_empty(3, 3), 3)
    assert public.check(drawn) == 0


def test_a_strategys_searches_share_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search ``prove`` runs takes a table of ``STRATEGY_TABLE_MB`` (one the thread
    keeps between calls, below) unless ``table_mb`` is given."""
    searching = {"solve", "best_move", "search_value"}
    tables: list[Any] = []

    class Recorded:
        def __init__(self, backend: Any) -> None:
            self.backend = backend

        def __getattr__(self, name: str) -> Any:
            function = getattr(self.backend, name)

            def recorded(*arguments: Any, **options: Any) -> Any:
                tables.append(options.get("table_mb"))
                return function(*arguments, **options)

            return recorded if name in searching else function

    monkeypatch.setattr(proof, "implementation", lambda game: Recorded(implementation(game)))
    monkeypatch.setattr(proof, "QUICK_MOVE_NODES", 1)  # the any-winning-move searches too
    assert public.check(public.prove(_empty(3, 4), 3)) == 1
    assert len(tables) > 10 and set(tables) == {proof.STRATEGY_TABLE_MB}
    tables.clear()
    # None, as the command line passes it when --table-mb is not given, is not given.
    assert public.check(public.prove(_empty(3, 4), 3, table_mb=None)) == 1
    assert tables and set(tables) == {proof.STRATEGY_TABLE_MB}
    tables.clear()
    assert public.check(public.prove(_empty(3, 4), 3, table_mb=2, node_limit=None)) == 1
    assert tables and set(tables) == {2}


@pytest.mark.compiled
@pytest.mark.parametrize("table_mb", [proof.STRATEGY_TABLE_MB, 64])
def test_the_core_keeps_a_strategys_table_between_searches(table_mb: int) -> None:
    """A second search of a position in a table of ``STRATEGY_TABLE_MB``, on the same thread,
    starts from what the first proved; so does one in a bigger table whose size was given."""
    rust = implementation("mnk", "rust")
    nodes = []

    def twice() -> None:  # a new thread: no table kept yet
        for _ in range(2):
            board = "...../...../..x../...../....."
            nodes.append(rust.solve(board, 4, table_mb=table_mb).nodes)

    thread = threading.Thread(target=twice)
    thread.start()
    thread.join()
    assert nodes[1] < nodes[0]


@pytest.mark.compiled
def test_clear_tables_frees_the_kept_table() -> None:
    """After ``mnk.clear_tables()`` the thread's next search starts from an empty table, as its
    first did, however big the table it kept."""
    rust = implementation("mnk", "rust")
    nodes = []

    def searches() -> None:  # a new thread: no table kept yet
        board = "...../...../..x../...../....."
        nodes.append(rust.solve(board, 4, table_mb=64).nodes)
        nodes.append(rust.solve(board, 4, table_mb=64).nodes)
        rust.clear_tables()
        nodes.append(rust.solve(board, 4, table_mb=64).nodes)

    thread = threading.Thread(target=searches)
    thread.start()
    thread.join()
    assert nodes[1] < nodes[0] == nodes[2]


def test_a_version_1_certificate_is_still_read() -> None:
    old = public.prove(_empty(4, 4), 4)
    old["version"] = 1
    assert public.check(old) == 0


@pytest.mark.parametrize(
    "certificate",
    [
        "[]",
        {"format": "perfectplay.mnk.certificate", "version": 4},
        {"format": "perfectplay.mnk.certificate", "version": True},
        "not json",
        b"{",
        {"format": "perfectplay.mnk.certificate", "version": 1, "rows": 3, "cols": 3, "k": 9},
    ],
)
def test_what_is_not_a_certificate_is_refused(certificate: Any) -> None:
    with pytest.raises(InvalidCertificate):
        public.check(certificate)


def test_a_certificate_file_is_read_only_as_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(public.prove(_empty(5, 5), 5)))
    assert public.check(path) == 0
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="FIFO"):
        public.check(fifo)
    with pytest.raises(TypeError, match="certificate must be"):
        public.check(3)


def test_a_hostile_certificate_is_refused_before_it_costs_much() -> None:
    good = public.prove(_empty(6, 6), 5)
    with pytest.raises(InvalidCertificate, match="max_checked"):
        public.check(good, max_checked=10)


def test_bad_input_and_limits(mnk: Any) -> None:
    with pytest.raises(IllegalPosition):
        public.value("xx./.../...", 3)
    with pytest.raises(ValueError, match="k must be"):
        public.prove(_empty(3, 3), 4)
    with pytest.raises(TypeError, match="unexpected keyword"):
        public.value(_empty(3, 3), 3, moves=True)
    with pytest.raises(SearchLimitExceeded):
        mnk.breaker_proof(_empty(6, 7), 5, False, node_limit=50)


@pytest.mark.both_backends
def test_a_proof_stops_at_the_memory_it_may_hold_alike_on_both_backends(
    rust_mnk: Any, python_mnk: Any
) -> None:
    """A proof holds at most ``table_mb`` of nodes and tables (each entry counted at
    ``ENTRY_BYTES``; not given, half the machine's memory): past it, the same ``MemoryError``
    at the same entry on both backends, never the system's out-of-memory killer."""
    from perfectplay.mnk.prover import ENTRY_BYTES

    board = _empty(6, 7)
    proof = rust_mnk.breaker_proof(board, 5, False)
    assert proof is not None and proof == python_mnk.breaker_proof(board, 5, False)
    entries = len(proof[2])  # the nodes alone: the tables hold more
    for table_mb in (1 / 1024, entries * ENTRY_BYTES / 2**20):
        messages = []
        for backend in (rust_mnk, python_mnk):
            with pytest.raises(MemoryError) as raised:
                backend.breaker_proof(board, 5, False, table_mb=table_mb)
            messages.append(str(raised.value))
        assert messages[0] == messages[1]
        memory = int(table_mb * 2**20) // ENTRY_BYTES * ENTRY_BYTES
        shown = f"{memory >> 20} MiB" if memory >> 20 else f"{memory} bytes"
        assert messages[0].startswith(f"the proof needed more than {shown} of nodes")
    assert rust_mnk.breaker_proof(board, 5, False, table_mb=64) == proof
    # value gives a proof that runs out of memory up for the search, which settles it too.
    small, tiny = _empty(4, 5), 2**-20
    assert public.value(small, 4, table_mb=tiny) == 0
    with pytest.raises(MemoryError, match=r"more than 0 bytes .* a larger table_mb"):
        public.prove(small, 4, table_mb=tiny)


@pytest.mark.usefixtures("sigint_handled")
def test_a_proof_is_interrupted_by_ctrl_c(rust_mnk: Any) -> None:
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # (8,8,5) is not proven within 20 M nodes; the limit keeps a failure from hanging.
            rust_mnk.breaker_proof(_empty(8, 8), 5, False, node_limit=10**8)
    finally:
        timer.cancel()


def test_a_proof_draws_its_progress_on_request(mnk: Any, capfd: pytest.CaptureFixture[str]) -> None:
    board = _empty(6, 7)
    assert mnk.breaker_proof(board, 5, False, progress=True) == mnk.breaker_proof(board, 5, False)
    assert "proof nodes" in capfd.readouterr().err
    assert public.value(board, 5, progress=True) == 0


def test_the_proof_command_takes_the_memory_a_proof_may_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from perfectplay.cli import main

    out = tmp_path / "4x5.json"
    assert main(["proof", "prove", "4x5", "4", "-o", str(out), "--table-mb", "64"]) == 0
    assert public.check(out) == 0
    small = tmp_path / "small.json"
    assert main(["proof", "prove", "4x5", "4", "-o", str(small), "--table-mb", "1e-6"]) == 1
    assert "the proof needed more than 0 bytes" in capsys.readouterr().err
    assert not small.exists()


@pytest.mark.parametrize(
    ("board", "k", "tasks"),
    [
        (_empty(6, 6), 5, 6),  # 36 first moves, 8 symmetries
        ("..x../...../...../...../.....", 5, 14),  # 24 moves, the mirror that keeps x
        ("x..../.o.../...../...../.....", 5, 13),  # 23 moves, the diagonal that keeps both
        ("....../..x.../....../....../....../......", 5, 35),  # no symmetry keeps it
    ],
)
def test_a_split_proof_runs_a_task_a_first_move_up_to_symmetry(
    tmp_path: Path, board: str, k: int, tasks: int
) -> None:
    """A first move that a symmetry of the position takes to an earlier one is a mirror of that
    move's proof; ``check`` follows the mirror, and refuses one that leads back to itself."""
    proven = public.prove(board, k, checkpoint=tmp_path)
    assert len(list(tmp_path.iterdir())) == tasks
    assert public.check(proven) == public.prove(board, k)["value"] == 0
    split = proven["guarantees"][1]["by"]["weak"]
    mirrors = [node for node in split["nodes"] if "mirror" in node]
    if tasks == 35:
        assert not mirrors
        return
    forged = copy.deepcopy(proven)
    weak = forged["guarantees"][1]["by"]["weak"]
    index = next(i for i, node in enumerate(weak["nodes"]) if "mirror" in node)
    weak["nodes"][index]["mirror"][0] = index
    with pytest.raises(InvalidCertificate, match="its mirrors lead back to it"):
        public.check(forged)


def test_a_split_proof_of_a_draw_the_search_settles_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O to move cannot win (the split proof finds X's Breaker strategy) but has no Breaker
    strategy of its own: the search settles the draw, and O's side is its strategy."""
    board = ".../.../..x"
    _no_breaker_proof_at_the_root(monkeypatch)
    proven = public.prove(board, 3, checkpoint=tmp_path)
    kinds = [(g["player"], *g["by"]) for g in proven["guarantees"]]
    assert kinds == [("o", "strategy"), ("x", "weak")]
    assert public.check(proven) == 0


def test_the_empty_board_is_x_s_by_strategy_stealing_even_without_a_breaker_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where no Breaker proof shows that X cannot win, the certificate still takes X's half of
    the draw from strategy stealing, O's from the search."""
    _no_breaker_proof_at_the_root(monkeypatch)
    proven = public.prove(_empty(3, 3), 3)
    assert proven["guarantees"][0] == {
        "player": "x",
        "at_least": 0,
        "by": {"strategy_stealing": True},
    }
    assert proven["guarantees"][1]["player"] == "o"
    assert public.check(proven) == 0


def test_forced_and_won_nodes_are_checked_against_the_real_game() -> None:
    """Tic-tac-toe's draw is O's Breaker strategy by its own threats (the weak game is
    Maker's). A forced node on a cell Breaker does not threaten, a won node where Breaker has
    no line, or a forced node where Maker completes a window at once, is refused."""
    drawn = public.prove(_empty(3, 3), 3)
    assert public.check(drawn) == 0
    weak = drawn["guarantees"][1]["by"]["weak"]
    forced = [i for i, node in enumerate(weak["nodes"]) if "forced" in node]
    won = [i for i, node in enumerate(weak["nodes"]) if "won" in node]
    assert forced and won
    not_threatened = 0
    for index in forced:
        move, reply, child = weak["nodes"][index]["forced"]
        forged = copy.deepcopy(drawn)
        forged["guarantees"][1]["by"]["weak"]["nodes"][index]["forced"] = [reply, move, child]
        try:
            public.check(forged)
        except InvalidCertificate as refused:
            not_threatened += "does not threaten" in str(refused)
        forged = copy.deepcopy(drawn)
        forged["guarantees"][1]["by"]["weak"]["nodes"][index] = {"won": True}
        _refused(forged, "Breaker has no k in a row")
    assert not_threatened  # a forced node's move and reply swapped: some such is refused
    # X on 0 and 1 (the top row lacks 2), O on 3 and 4 (the middle row lacks 5): O's threat
    # does not force X, which completes its row first.
    geometry = Geometry(3, 3, 3)
    nodes = [{"forced": [5, 2, 1]}, {"won": True}]
    with pytest.raises(InvalidCertificate, match="lacks 2 cells"):
        check_weak(geometry, 0b11, 0b11000, False, {"reply": None, "root": 0, "nodes": nodes})

"""Positions a user holds (``tictactoe.Position``, ``mnk.Position``, ``footholds.Position``):
lines play out, moves agree with the single-call and batch functions, round trips, drawings.

They answer through the public modules, so they run on whichever backend the run chose (both
CI runs: the default one and ``PERFECTPLAY_BACKEND=python``)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from perfectplay import IllegalPosition, Solution, footholds, mnk, tictactoe
from perfectplay._kernel.position import BasePosition

SVG = "{http://www.w3.org/2000/svg}"


def random_mark_position(rng: random.Random, start: BasePosition[Any], most: int) -> Any:
    """A random game from ``start`` of up to ``most`` moves (it may end sooner)."""
    position = start
    for _ in range(rng.randint(0, most)):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves))
    return position


def random_footholds(rng: random.Random) -> footholds.Position:
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    while True:
        board = [[int(rng.random() < 0.8) for _ in range(cols)] for _ in range(rows)]
        cells = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]]
        if cells:
            break
    start = footholds.Position(board, rng.choice(cells), rng.choice(cells))
    position: footholds.Position = random_mark_position(rng, start, 3)
    return position


def sample_positions(count: int, seed: int) -> list[BasePosition[Any]]:
    rng = random.Random(seed)
    positions: list[BasePosition[Any]] = []
    for index in range(count):
        kind = index % 4
        if kind == 0:
            positions.append(random_mark_position(rng, tictactoe.Position(), 9))
        elif kind == 1:
            rows, cols = rng.choice([(3, 4), (4, 3), (2, 5), (3, 3)])
            start = mnk.Position.empty(rows, cols, rng.randint(2, 3))
            positions.append(random_mark_position(rng, start, rows * cols))
        elif kind == 2:
            # 4x4 with at least four marks keeps the pure twin quick.
            start = random_mark_position(rng, mnk.Position.empty(4, 4, rng.randint(3, 4)), 0)
            for _ in range(4):
                if not start.is_over:
                    start = start.play(rng.choice(start.legal_moves))
            positions.append(random_mark_position(rng, start, 8))
        else:
            positions.append(random_footholds(rng))
    return positions


POSITIONS = sample_positions(240, seed=2026)


@pytest.mark.parametrize("position", POSITIONS, ids=repr)
def test_line_reaches_the_promised_end(position: BasePosition[Any]) -> None:
    solution = position.solve()
    at = position
    for move in solution.line:
        assert move in at.legal_moves
        at = at.play(move)
    assert at.is_over
    assert len(solution.line) == solution.plies
    assert at.winner == solution.winner
    assert position.best_moves() == solution.best_moves
    if position.is_over:
        assert solution.plies == 0 and solution.best_moves == ()
    # The value is the side to move's: +1 exactly when the side to move is the winner.
    assert (
        solution.value
        == (0 if solution.winner is None else (1 if solution.winner == position.to_move else -1))
        or position.is_over
    )


@pytest.mark.parametrize("position", POSITIONS[:120], ids=repr)
def test_moves_agree_with_the_functions(position: BasePosition[Any]) -> None:
    single: Solution[Any]
    analysis = position.analyze()
    assert sorted(analysis) == list(position.legal_moves)
    for move, (value, plies) in analysis.items():
        after = position.play(move).solve()
        assert (value, plies) == (-after.value, after.plies + 1)
    if isinstance(position, tictactoe.Position):
        single = tictactoe.solve(position.text())
        batch = tictactoe.batch_solve(position.to_array()[None], moves=True)
        assert position.to_move == tictactoe.to_move(position.text())
    elif isinstance(position, mnk.Position):
        single = mnk.solve(position.text(), position.k)
        batch = mnk.batch_solve(position.to_array()[None], position.k, moves=True)
    else:
        assert isinstance(position, footholds.Position)
        if position.mover != "A" or not position.standing >> position.a & 1:
            # The functions answer for A on a foothold: B to move is checked below, and a
            # player whose cell has gone has lost (test_illegal_moves_are_rejected...).
            return
        single = footholds.solve(position.text(), position.aloc, position.bloc)
        batch = footholds.batch_solve(
            position.to_array(), [position.aloc], [position.bloc], moves=True
        )
    assert position.solve() == single
    assert batch.move_plies is not None
    legal_cells = np.flatnonzero(batch.move_plies[0] >= 0).tolist()
    assert legal_cells == list(position.legal_actions)
    assert np.flatnonzero(position.action_mask()).tolist() == legal_cells
    assert batch.value[0] == single.value and batch.plies[0] == single.plies
    assert np.flatnonzero(batch.best_mask[0]).tolist() == [
        position.action(move) for move in single.best_moves
    ]


def test_footholds_b_to_move_is_a_to_move_with_names_swapped() -> None:
    rng = random.Random(5)
    for _ in range(60):
        position = random_footholds(rng)
        if position.is_over or position.mover != "B":
            continue
        as_a = footholds.solve(position.text(), position.bloc, position.aloc)
        solution = position.solve()
        assert (solution.value, solution.plies, solution.best_moves, solution.line) == (
            as_a.value,
            as_a.plies,
            as_a.best_moves,
            as_a.line,
        )
        assert solution.winner == {"A": "B", "B": "A"}[as_a.winner or ""]


@pytest.mark.parametrize("position", POSITIONS[:60], ids=repr)
def test_round_trips(position: BasePosition[Any]) -> None:
    for action in range(position.cells):
        assert position.action(position.move(action)) == action
    array = position.to_array()
    assert array.shape == (position.rows, position.cols) and array.dtype == np.uint8
    if isinstance(position, tictactoe.Position):
        assert tictactoe.Position(array) == position
        assert tictactoe.Position(str(position)) == position
    elif isinstance(position, mnk.Position):
        assert mnk.Position(array, position.k) == position
        assert mnk.Position(str(position), position.k) == position
        assert hash(mnk.Position(array, position.k)) == hash(position)


def test_equality_hashing_and_immutability() -> None:
    a = mnk.Position("x./.o", 2)
    assert a == mnk.Position([["x", "."], [".", "o"]], 2)
    assert mnk.Position("x../.o./...", 2) != mnk.Position("x../.o./...", 3)  # another k
    assert len({a, mnk.Position("x.\n.o", 2), mnk.Position("x./o.", 2)}) == 2
    assert tictactoe.Position() != mnk.Position.empty(3, 3, 3)  # different games
    with pytest.raises(AttributeError, match="immutable"):
        a.rows = 5
    assert tictactoe.Position() == tictactoe.Position(".........")
    start = footholds.Position("11", (0, 0), (0, 1))
    assert start == footholds.Position([[1, 1]], [0, 0], [0, 1])
    assert start != footholds.Position("11", (0, 0), (0, 1), to_move="B")


def test_illegal_moves_are_rejected_with_the_reason() -> None:
    position = tictactoe.Position("xx./oo./...")
    with pytest.raises(ValueError, match="cell 0 is taken"):
        position.play(0)
    with pytest.raises(ValueError, match="off the board"):
        position.play(9)
    with pytest.raises(TypeError):
        position.play("2")
    with pytest.raises(ValueError, match="game is over"):
        position.play(2).play(6)
    board = mnk.Position.empty(3, 4, 3)
    with pytest.raises(ValueError, match=r"off the 3x4 board"):
        board.play((3, 0))
    with pytest.raises(TypeError, match="pair"):
        board.play(5)
    with pytest.raises(ValueError, match="off the board"):
        board.move(12)
    with pytest.raises(TypeError):
        board.move(True)
    foot = footholds.Position("111/101/111", (1, 0), (1, 2))
    with pytest.raises(ValueError, match="not next to"):
        foot.play((0, 2))
    with pytest.raises(ValueError, match="is a hole"):
        foot.play((1, 1))
    shared = footholds.Position("11", (0, 0), (0, 0)).play((0, 1))
    assert shared.is_over and shared.winner == "A"
    with pytest.raises(ValueError, match="cell has disappeared"):
        shared.play((0, 0))


def test_construction_errors_match_the_functions() -> None:
    with pytest.raises(IllegalPosition, match="marks"):
        tictactoe.Position("xxx/.../...")
    with pytest.raises(IllegalPosition):
        mnk.Position("xxx./ooo./..../....", 3)
    with pytest.raises(ValueError, match="k must be"):
        mnk.Position.empty(3, 3, 4)
    with pytest.raises(ValueError, match="65 cells"):
        mnk.Position.empty(5, 13, 4)
    with pytest.raises(ValueError, match="hole"):
        footholds.Position("101", (0, 1), (0, 0))
    with pytest.raises(ValueError, match="to_move"):
        footholds.Position("11", (0, 0), (0, 1), to_move="C")
    with pytest.raises(TypeError):
        tictactoe.Position(None)


def test_text_diagrams() -> None:
    assert str(tictactoe.Position("xo./.x./..o")) == "x o .\n. x .\n. . o"
    assert repr(tictactoe.Position("xo./.x./..o")) == (
        "tictactoe.Position('xo./.x./..o')  # x to move"
    )
    assert repr(mnk.Position("xxx/oo./...", 3)) == "mnk.Position('xxx/oo./...', k=3)  # x won"
    foot = footholds.Position("111/101/111", (1, 0), (1, 2))
    assert str(foot) == "1 1 1\nA 0 B\n1 1 1"
    assert str(footholds.Position("1", (0, 0), (0, 0))) == "*"


def _svg_tree(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML or a ParseError
    assert root.tag == f"{SVG}svg"
    return root


def _with_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [node for node in root.iter() if word in node.get("class", "").split()]


@pytest.mark.parametrize("position", POSITIONS[:40], ids=repr)
def test_svg_marks_every_stone_and_annotates_every_move(position: BasePosition[Any]) -> None:
    plain = _svg_tree(position._repr_svg_())
    if isinstance(position, footholds.Position):
        stones = 2
    else:
        stones = int(np.count_nonzero(position.to_array()))
    assert len(_with_class(plain, "stone")) == stones
    assert _with_class(plain, "annotation") == []
    annotated = _svg_tree(position.svg(analysis=True))
    notes = _with_class(annotated, "annotation")
    assert len(notes) == len(position.legal_moves)
    analysis = position.analyze()
    words = {1: "win", 0: "draw", -1: "loss"}
    for note, (_, (value, plies)) in zip(notes, sorted(analysis.items()), strict=True):
        assert words[value] in note.get("class", "")
        label = "".join(note.itertext())
        assert label.endswith(f"{'WDL'[1 - value]}{plies}")

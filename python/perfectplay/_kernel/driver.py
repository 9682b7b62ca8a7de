"""The one solution driver of the twin (the twin of ``rust/engine/driver.rs``): from a game's
exact scores it finds every best move, one optimal line and each move's value and plies.

A game supplies ``moves(position)`` (legal moves as cells, ascending; none once the game is
over), ``play(position, cell)``, ``cells_left(position)`` and ``score(position)``, the exact
score of ``score.py`` from the side to move's point of view. Of several best moves,
``best_move``, the line and a label's best move take the one of lowest ``preference(cell)``
(by default the lowest cell; Rust's ``Rules::preference``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from perfectplay._kernel import score
from perfectplay._kernel.types import Solution

Position = TypeVar("Position")
Move = TypeVar("Move")


class Game(Protocol, Generic[Position]):
    nodes: int

    def moves(self, position: Position) -> list[int]: ...
    def play(self, position: Position, cell: int) -> Position: ...
    def cells_left(self, position: Position) -> int: ...
    def score(self, position: Position) -> int: ...


Preference = Callable[[int], int] | None


def best_moves(game: Game[Position], position: Position) -> list[int]:
    """Every move that keeps both the value and the plies optimal, ascending."""
    best = game.score(position)
    return [c for c in game.moves(position) if -game.score(game.play(position, c)) == best]


def _preferred(cells: list[int], preference: Preference) -> int | None:
    """The cell of lowest preference (ties to the lower cell), None of none."""
    if not cells:
        return None
    return cells[0] if preference is None else min(cells, key=lambda c: (preference(c), c))


def solve(
    game: Game[Position],
    root: Position,
    players: tuple[str, str],
    first_to_move: bool,
    move_form: Callable[[int], Move],
    preference: Preference = None,
) -> Solution[Move]:
    """``root`` solved; ``players`` names the first and second player, ``first_to_move`` says
    which of them moves at the root."""
    result = game.score(root)
    line: list[int] = []
    position = root
    while (move := _preferred(best_moves(game, position), preference)) is not None:
        line.append(move)
        position = game.play(position, move)
    mover, other = players if first_to_move else players[::-1]
    winner = None if result == score.DRAW else mover if result > 0 else other
    return Solution(
        score.value(result),
        winner,
        score.plies(result, game.cells_left(root)),
        tuple(move_form(cell) for cell in best_moves(game, root)),
        tuple(move_form(cell) for cell in line),
        game.nodes,
    )


def plies(game: Game[Position], root: Position) -> int:
    return score.plies(game.score(root), game.cells_left(root))


def analyze(
    game: Game[Position], root: Position, move_form: Callable[[int], Move]
) -> dict[Move, tuple[int, int]]:
    """{move: (value for the player making it, plies from now with it)} for every legal move."""
    answers = {}
    for cell in game.moves(root):
        child = game.play(root, cell)
        result = game.score(child)
        answers[move_form(cell)] = (
            -score.value(result),
            1 + score.plies(result, game.cells_left(child)),
        )
    return answers


def ranked(
    game: Game[Position],
    root: Position,
    move_form: Callable[[int], Move],
    preference: Preference = None,
) -> list[tuple[Move, int, int]]:
    """[(move, value for the player making it, plies from now with it)] for every legal move,
    best first: the higher value; among wins the quicker, among draws and losses the longer;
    then the lowest ``preference`` (Rust's ``driver::rank``), then the lower cell."""
    answers = []
    for cell in game.moves(root):
        child = game.play(root, cell)
        result = game.score(child)
        value, plies = -score.value(result), 1 + score.plies(result, game.cells_left(child))
        quickest = plies if value > 0 else -plies
        order = (-value, quickest, 0 if preference is None else preference(cell), cell)
        answers.append((order, move_form(cell), value, plies))
    answers.sort(key=lambda answer: answer[0])
    return [(move, value, plies) for _, move, value, plies in answers]


def best_move(game: Game[Position], root: Position, preference: Preference = None) -> int | None:
    return _preferred(best_moves(game, root), preference)


def label(
    game: Game[Position], root: Position, moves: bool, preference: Preference = None
) -> tuple[int, int, list[int], dict[int, tuple[int, int]]]:
    """What a batch row needs: (value, plies, best moves as cells, the preferred one first, and
    with ``moves`` each legal move's (value for its player, plies from now with it))."""
    result = game.score(root)
    best = best_moves(game, root)
    first = _preferred(best, preference)
    return (
        score.value(result),
        score.plies(result, game.cells_left(root)),
        best if first is None else [first, *(c for c in best if c != first)],
        analyze(game, root, lambda cell: cell) if moves else {},
    )

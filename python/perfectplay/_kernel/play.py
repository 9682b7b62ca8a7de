"""A game being played, for every game: where it started, the moves since, and
each position's moves ranked best first. The web board and ``perfectplay play`` both read
positions through here, so they answer alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from perfectplay._kernel.game import Game

__all__ = ["Ranked", "explain_line", "options_from_text", "rank", "replay", "value_of"]


@dataclass(frozen=True)
class Ranked:
    """One legal move with its value for the side making it and the plies left with it."""

    action: int
    move: Any
    value: int
    plies: int


def options_from_text(game: Game, given: Mapping[str, str]) -> dict[str, Any]:
    """The game's start options read from text (a query string, the command line); options the
    game does not take are a ``ValueError`` naming them."""
    game.check_options(given, ValueError)
    options = dict(game.options)
    for name, text in given.items():
        try:
            options[name] = game.parse[name](text)
        except ValueError as error:
            raise ValueError(f"option {name}: {error}") from None
    return options


def replay(game: Game, options: Mapping[str, Any], start: str, actions: Sequence[int]) -> Any:
    """The position after playing ``actions`` from the start (``start``: a pasted position, or
    empty for the game's own start); an illegal action is a ``ValueError`` naming its ply."""
    position = game.read_position(start, **options)
    for ply, action in enumerate(actions, 1):
        try:
            position = position.play(position.move(action))
        except (ValueError, TypeError) as error:
            raise type(error)(f"move {ply}: {error}") from None
    return position


def rank(position: Any, **options: Any) -> list[Ranked]:
    """Every legal move, best first, as the core ranks them (``Position.ranked_moves``)."""
    return [
        Ranked(position.action(move), move, value, plies)
        for move, value, plies in position.ranked_moves(**options)
    ]


def value_of(position: Any, ranked: Sequence[Ranked]) -> tuple[int, int]:
    """(value for the side to move, plies left) of a position from its ranked moves; a
    finished game is (-1, 0) after a win and (0, 0) after a draw."""
    if ranked:
        return ranked[0].value, ranked[0].plies
    return (0 if position.winner is None else -1), 0


def explain_line(start: Any) -> str:
    """Every move of ``start`` with its value, best first, then the optimal line from it drawn
    position by position (what the stress tester shows beside a failing case)."""
    words = {1: "wins", 0: "draws", -1: "loses"}
    solution = start.solve()
    outcome = f"{solution.winner} wins" if solution.winner else "a draw"
    frames = [("start", start)]
    position = start
    for ply, move in enumerate(solution.line, start=1):
        mover = position.to_move
        position = position.play(move)
        frames.append((f"{ply}. {mover} {move}", position))
    lines = []
    if not start.is_over:
        ranked = ", ".join(f"{m.move} {words[m.value]} in {m.plies}" for m in rank(start))
        lines.append(f"every move of {start.to_move}, best first: {ranked}")
    lines.append(f"optimal line: {outcome} in {solution.plies} plies")
    for title, frame in frames:
        lines.append(f"  {title}")
        lines.extend("    " + row for row in str(frame).splitlines())
    return "\n".join(lines)


def label(move: Any) -> str:
    """How a person names a move: columns and cells from 1 (as Pons' move strings count them),
    a (row, col) move as ``row,col`` from 1."""
    if isinstance(move, tuple):
        return ",".join(str(part + 1) for part in move)
    return str(move + 1)


def in_words(value: int, plies: int) -> str:
    """A value for the player making the move, in words: "wins in 5 moves" (a move is one
    player's turn), "draw", "loses in 12 moves"."""
    if value == 0:
        return "draw"
    return f"{'wins' if value > 0 else 'loses'} in {plies} move{'' if plies == 1 else 's'}"

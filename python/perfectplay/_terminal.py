"""``perfectplay play``: a game in the terminal against the perfect agent, for every game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from perfectplay._kernel import play as _play
from perfectplay._kernel.args import quoted
from perfectplay._kernel.game import Game
from perfectplay.agents import PerfectAgent
from perfectplay.errors import SearchLimitExceeded

__all__ = ["play"]

HELP = """commands: a move ({form}), hint (every move's value), undo, board, help, quit"""
# Columns and cells count from 1, as on the board and in Pons' move strings.
_FORMS = {"cell": "a cell number from 1", "row-col": "ROW,COL from 1", "column": "a column from 1"}


def _read_move(game: Game, text: str) -> Any:
    parts = text.replace(",", " ").split()
    if not parts or not all(part.lstrip("-").isdigit() for part in parts):
        raise ValueError(f"not a move or a command: {quoted(text)}")
    numbers = [int(part) - 1 for part in parts]
    if any(number < 0 for number in numbers):
        raise ValueError(f"columns and cells count from 1, not {quoted(text)}")
    if game.moves == "row-col":
        if len(numbers) != 2:
            raise ValueError(f"a move is ROW,COL, not {quoted(text)}")
        return tuple(numbers)
    if len(numbers) != 1:
        raise ValueError(f"a move is one number, not {quoted(text)}")
    return numbers[0]


def _hint(position: Any, options: Mapping[str, Any], write: Callable[[str], None]) -> None:
    for move in _play.rank(position, **options):
        write(f"  {_play.label(move.move)}: {_play.in_words(move.value, move.plies)}")


def play(
    game: Game,
    options: Mapping[str, Any],
    *,
    start: str = "",
    human: str | None = None,
    skill: float = 1.0,
    seed: int | None = None,
    node_limit: int | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Plays one game: ``human`` (a player's name; default the first) against the perfect
    agent at ``skill``. Returns the exit status: 0 once the game ends or the player quits."""
    human = game.players[0] if human is None else human
    if human not in game.players:
        raise ValueError(f"--as must be {' or '.join(game.players)}, not {human!r}")
    limits = {"node_limit": node_limit} if node_limit is not None and game.searches else {}
    agent = PerfectAgent(skill, seed, **limits)
    history = [game.read_position(start, **options)]
    write(f"{game.title}: you play {human}; {HELP.format(form=_FORMS[game.moves])}")
    shown = False
    while True:
        position = history[-1]
        if not shown:
            write(str(position))
            shown = True
        if position.is_over:
            write("draw" if position.winner is None else f"{position.winner} won")
            return 0
        if position.to_move != human:
            try:
                move = agent.move(position)
            except SearchLimitExceeded as error:
                write(f"the agent gives up: {error}")
                return 1
            write(f"{position.to_move} plays {_play.label(move)}")
            history.append(position.play(move))
            shown = False
            continue
        try:
            text = read(f"{human}> ").strip()
        except EOFError:
            write("")
            return 0
        if text in ("quit", "q", "exit"):
            return 0
        if text in ("help", "?", ""):
            write(HELP.format(form=_FORMS[game.moves]))
        elif text == "board":
            shown = False
        elif text == "hint":
            try:
                _hint(position, limits, write)
            except SearchLimitExceeded as error:
                write(f"too hard for a hint: {error}")
        elif text == "undo":
            if len(history) == 1:
                write("nothing to undo")
                continue
            # Back to the player's previous turn: their move and the agent's reply.
            history.pop()
            while len(history) > 1 and history[-1].to_move != human:
                history.pop()
            shown = False
        else:
            legal = " ".join(_play.label(move) for move in position.legal_moves)
            try:
                move = _read_move(game, text)
            except ValueError as error:
                write(f"{error}; legal moves: {legal}")
                continue
            if move not in position.legal_moves:
                write(f"{text} is not a legal move here; legal moves: {legal}")
                continue
            history.append(position.play(move))
            shown = False

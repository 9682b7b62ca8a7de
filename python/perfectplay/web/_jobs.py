"""What the board's requests ask, as plain functions of plain data: they run in the server
(``position``, cheap) or in its search processes (everything that searches), and answer with
JSON-ready dicts. Bad input raises the library's own exceptions, which the server maps to 4xx.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from perfectplay._kernel import play as _play
from perfectplay._kernel.game import Game
from perfectplay._kernel.position import _CELL, _MARGIN, VALUE_STYLE
from perfectplay._registry import GAMES, game
from perfectplay.agents import PerfectAgent
from perfectplay.errors import SearchLimitExceeded

__all__ = ["Request", "agent", "analyze", "describe_games", "examples", "position", "stats"]

#: The longest pasted position and move list a request may carry.
MOST_TEXT = 2000
MOST_MOVES = 400


@dataclass(frozen=True)
class Request:
    """A position as a request names it: a game, its options, a pasted start (empty: the
    game's start) and the actions played since. Hashable, so answers can be cached."""

    game_name: str
    options: tuple[tuple[str, Any], ...]
    start: str
    moves: tuple[int, ...]

    @classmethod
    def read(
        cls, game_name: str, options: Mapping[str, str], start: str, moves: Sequence[int]
    ) -> Request:
        """A request from its text form, checked: sizes, the game and its options."""
        if len(start) > MOST_TEXT:
            raise ValueError(f"the pasted position is longer than {MOST_TEXT} characters")
        if len(moves) > MOST_MOVES:
            raise ValueError(f"more than {MOST_MOVES} moves")
        read = _play.options_from_text(game(game_name), options)
        return cls(game_name, tuple(sorted(read.items())), start, tuple(moves))

    @property
    def game(self) -> Game:
        return GAMES[self.game_name]

    def position(self) -> Any:
        return _replayed(self)


@functools.lru_cache(maxsize=4096)
def _replayed(request: Request) -> Any:
    """The position of a request, kept: whether it costs little and its answer both read it,
    and positions are immutable."""
    return _play.replay(request.game, dict(request.options), request.start, request.moves)


def describe_games() -> list[dict[str, Any]]:
    """Every registered game as the page needs it."""
    return [
        {
            "name": each.name,
            "title": each.title,
            "players": list(each.players),
            "names": list(each.display_names),
            "stone_colours": None if each.stone_colours is None else list(each.stone_colours),
            "moves": each.moves,
            "options": {name: _jsonable(value) for name, value in each.options.items()},
            "paste": each.read_help,
        }
        for each in GAMES.values()
    ]


def _jsonable(value: Any) -> Any:
    """An option as its text (``aloc`` ``(1, 0)`` is ``"1,0"``, as the query takes it)."""
    return ",".join(str(part) for part in value) if isinstance(value, tuple) else value


def _move(move: Any) -> Any:
    """A move as JSON: an int, or ``[row, col]``."""
    return list(move) if isinstance(move, tuple) else move


def label(here: Any, action: int) -> str:
    """How a person names the move of an action (from 1)."""
    return _play.label(here.move(action))


def _score(game: Game, here: Any, value: int, plies: int) -> int | None:
    return None if game.move_score is None else game.move_score(here, value, plies)


def position(request: Request) -> dict[str, Any]:
    """The board of a position, without searching: its drawing, who moves, the legal actions
    and the cell each one is drawn on."""
    here = request.position()
    return {
        "game": request.game_name,
        "rows": here.rows,
        "cols": here.cols,
        "codes": [int(code) for code in here.to_array().reshape(-1)],
        "text": str(here),
        "svg": here.svg(),
        "cell_size": _CELL,
        "margin": _MARGIN,
        "to_move": here.to_move,
        "winner": here.winner,
        "over": here.is_over,
        "legal": [
            {
                "action": action,
                "move": _move(here.move(action)),
                "label": label(here, action),
                "cell": here._action_cell(action),
            }
            for action in here.legal_actions
        ],
        "winning_cells": list(here.winning_cells()),
        "styles": {str(value): list(style) for value, style in VALUE_STYLE.items()},
    }


class Searcher:
    """Answers the searching requests in one process, under one node limit, with the
    tablebases it was given and a cache of what it has answered."""

    def __init__(
        self, node_limit: int, tablebases: Sequence[Any], *, game_limits: bool = False
    ) -> None:
        """``game_limits``: a game's ``board_node_limit`` raises ``node_limit`` for its
        positions (the search processes; never the server's own quick searches)."""
        self.node_limit = node_limit
        self.game_limits = game_limits
        self.tablebases = list(tablebases)
        self.analyze = functools.lru_cache(maxsize=4096)(self._analyze)

    def _options(self, request: Request, here: Any) -> tuple[dict[str, Any], str]:
        key = request.game.tablebase_key
        if key is not None:
            table = next((tb for tb in self.tablebases if key(tb) == key(here)), None)
            if table is not None:
                return {"tablebase": table}, "tablebase"
        if request.game.searches:
            limit = self.node_limit
            if self.game_limits and request.game.board_node_limit is not None:
                limit = max(limit, request.game.board_node_limit)
            return {"node_limit": limit}, "search"
        return {}, "table"

    def costs_little(self, request: Request) -> bool:
        """Is the request's answer cheap enough to give in the calling process (the server):
        read from a table, or a search its game says costs little?"""
        here = request.position()
        _, source = self._options(request, here)
        if source != "search" or here.is_over:
            return True
        searches_little = request.game.searches_little
        return searches_little is not None and searches_little(here)

    def _analyze(self, request: Request) -> dict[str, Any]:
        here = request.position()
        options, source = self._options(request, here)
        ranked = _play.rank(here, **options) if not here.is_over else []
        value, plies = _play.value_of(here, ranked)
        return {
            "value": value,
            "plies": plies,
            "to_move": here.to_move,
            "winner": here.winner,
            "source": source,
            "score": None if not ranked else _score(request.game, here, value, plies),
            "moves": [
                {
                    "action": move.action,
                    "move": _move(move.move),
                    "label": label(here, move.action),
                    "value": move.value,
                    "plies": move.plies,
                    "score": _score(request.game, here, move.value, move.plies),
                }
                for move in ranked
            ],
        }

    def agent(self, request: Request, skill: float, seed: int) -> dict[str, Any]:
        here = request.position()
        options, _ = self._options(request, here)
        move = PerfectAgent(skill, seed, **options).move(here)
        return {"action": here.action(move), "move": _move(move)}

    def table(self, rows: int, cols: int, k: int) -> Any:
        table = next(
            (tb for tb in self.tablebases if (tb.rows, tb.cols, tb.k) == (rows, cols, k)), None
        )
        if table is None:
            raise ValueError(f"no tablebase of {rows}x{cols} k={k} is loaded")
        return table


#: What ``run`` answers for a costly request it was asked to answer only if cheap.
COSTLY = object()


def run(searcher: Searcher, job: str, arguments: tuple[Any, ...], if_cheap: bool = False) -> Any:
    """``job(searcher, *arguments)``; with ``if_cheap``, only if the request (the first
    argument) costs little, else ``COSTLY`` (one thread's work: the look and the answer)."""
    if if_cheap and not searcher.costs_little(arguments[0]):
        return COSTLY
    return JOBS[job](searcher, *arguments)


def warm_up(searcher: Searcher) -> None:
    """Answers every game's start once, so that what a game loads on its first answer (Connect
    Four's books: about 0.7 s) is loaded before the first click, not on it."""
    for each in GAMES.values():
        with contextlib.suppress(ValueError, TypeError, SearchLimitExceeded):
            searcher.analyze(Request.read(each.name, {}, "", ()))


def analyze(searcher: Searcher, request: Request) -> dict[str, Any]:
    return dict(searcher.analyze(request))


def agent(searcher: Searcher, request: Request, skill: float, seed: int) -> dict[str, Any]:
    return searcher.agent(request, skill, seed)


def stats(searcher: Searcher, rows: int, cols: int, k: int) -> dict[str, Any]:
    """A tablebase's whole game: counts by value and plies."""
    report = searcher.table(rows, cols, k).stats()
    return {
        "rows": rows,
        "cols": cols,
        "k": k,
        "reachable": report["reachable"],
        "by_value": {str(value): count for value, count in report["by_value"].items()},
        "counts": [
            {"value": value, "plies": plies, "count": count}
            for (value, plies), count in sorted(report["by_value_plies"].items())
        ],
        "longest": report["longest"],
    }


def examples(
    searcher: Searcher, rows: int, cols: int, k: int, value: int, plies: int, most: int
) -> dict[str, Any]:
    """Boards of the tablebase whose side to move has ``value`` with ``plies`` left."""
    boards = searcher.table(rows, cols, k).examples(value, plies, most)
    return {"value": value, "plies": plies, "boards": boards}


#: The jobs ``run`` runs, by the name a request gives (a name crosses to a search process).
JOBS: dict[str, Callable[..., Any]] = {
    "analyze": analyze,
    "agent": agent,
    "stats": stats,
    "examples": examples,
}

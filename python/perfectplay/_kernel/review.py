"""A game reviewed move by move against perfect play, for every game: what each move was worth,
which moves were best, and each player's perfect-move rate, good-move rate, blunders and
accuracy.

Every figure comes from the position before the move: each legal move's value for its player
(1 win, 0 draw, -1 loss) and the plies left with it, as the core ranks them
(``Position.ranked_moves``). A game may judge a move more cheaply with the same answers
(Connect Four scores only the position and the move played, and tests the other moves against
the best score with one null window each). A move is

* **perfect** when it is one of the best moves by the package's rule (the highest value; among
  wins the quickest, among draws and losses the longest: ``solve().best_moves``);
* **good** when it keeps the value the player had (a win stays a win, a draw a draw);
* a **blunder** when it lowers that value.

A player's **accuracy** is ``100 * (perfect + 0.5 * (good - perfect)) / moves``: a perfect move
counts 1, a move that keeps the value more slowly 0.5, a blunder 0.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

__all__ = ["IllegalMove", "PlayerReview", "Review", "ReviewedMove", "review", "review_many"]


@dataclass(frozen=True)
class ReviewedMove:
    """One move of a reviewed game. Values are for ``player``, the side that made the move."""

    #: The move's number in the record, from 1.
    ply: int
    move: Any
    player: str
    #: Every best move of the position before it.
    best_moves: tuple[Any, ...]
    #: The player's value before the move (with perfect play from there) and after it.
    value_before: int
    value_after: int
    #: Plies left with perfect play: from the best move, and from the move played.
    best_plies: int
    plies: int
    perfect: bool
    good: bool
    #: How many plies the move gave away while keeping the value (a slower win, a quicker
    #: loss); None when it changed the value.
    plies_lost: int | None
    #: Connect Four: Pons' score the move gave away (the best move's minus its own, 0 for a
    #: perfect move); None for the other games.
    score_lost: int | None = None

    @property
    def blunder(self) -> bool:
        return self.value_after < self.value_before


@dataclass(frozen=True)
class PlayerReview:
    """One player's moves of a reviewed game, summed up."""

    moves: int
    perfect: int
    good: int
    blunders: int

    @property
    def perfect_rate(self) -> float:
        return self.perfect / self.moves if self.moves else 0.0

    @property
    def good_rate(self) -> float:
        return self.good / self.moves if self.moves else 0.0

    @property
    def accuracy(self) -> float:
        """``100 * (perfect + 0.5 * (good - perfect)) / moves`` (see the module)."""
        if not self.moves:
            return 0.0
        return 100.0 * (self.perfect + 0.5 * (self.good - self.perfect)) / self.moves


@dataclass(frozen=True)
class IllegalMove:
    """The first move of the record the position did not allow: the review stops before it."""

    ply: int
    move: Any
    reason: str


@dataclass(frozen=True)
class Review:
    """A game reviewed: each legal move in order, each player's summary (by the game's mark,
    first player first), the first illegal move if the record has one, and the position the
    legal moves reach."""

    moves: tuple[ReviewedMove, ...]
    players: dict[str, PlayerReview]
    final: Any
    illegal: IllegalMove | None = None
    start: Any = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (moves as lists where a game writes them as tuples)."""

        def plain(value: Any) -> Any:
            return list(value) if isinstance(value, tuple) else value

        return {
            "moves": [
                {
                    "ply": m.ply,
                    "move": plain(m.move),
                    "player": m.player,
                    "best_moves": [plain(best) for best in m.best_moves],
                    "value_before": m.value_before,
                    "value_after": m.value_after,
                    "best_plies": m.best_plies,
                    "plies": m.plies,
                    "perfect": m.perfect,
                    "good": m.good,
                    "blunder": m.blunder,
                    "plies_lost": m.plies_lost,
                    "score_lost": m.score_lost,
                }
                for m in self.moves
            ],
            "players": {
                mark: {
                    "moves": p.moves,
                    "perfect": p.perfect,
                    "good": p.good,
                    "blunders": p.blunders,
                    "perfect_rate": p.perfect_rate,
                    "good_rate": p.good_rate,
                    "accuracy": p.accuracy,
                }
                for mark, p in self.players.items()
            },
            "illegal": None
            if self.illegal is None
            else {
                "ply": self.illegal.ply,
                "move": plain(self.illegal.move),
                "reason": self.illegal.reason,
            },
        }


Score = Callable[[Any, int, int], int]
#: What a review needs of one move: every best move of the position (ascending, as
#: ``best_moves()`` gives them), the best moves' (value, plies) and the move played's.
Judged = tuple[tuple[Any, ...], tuple[int, int], tuple[int, int]]
#: ``judge(position, move, after, options)``: the move judged (``after``: the position it
#: makes), asked once a move in the record's order.
Judge = Callable[[Any, Any, Any, dict[str, Any]], Judged]


def judge_by_ranking(here: Any, move: Any, after: Any, options: dict[str, Any]) -> Judged:
    """A move judged from every move's exact answer (``Position.ranked_moves``)."""
    ranked = here.ranked_moves(**options)
    _, best_value, best_plies = ranked[0]
    played = next((v, p) for m, v, p in ranked if m == move)
    best = tuple(sorted(m for m, v, p in ranked if (v, p) == (best_value, best_plies)))
    return best, (best_value, best_plies), played


def review(
    start: Any,
    moves: Iterable[Any],
    players: Sequence[str],
    *,
    move_score: Score | None = None,
    judge: Judge = judge_by_ranking,
    **options: Any,
) -> Review:
    """Reviews ``moves`` played from the position ``start`` (see the module); ``players`` are
    the game's marks, first player first; ``move_score(position, value, plies)`` gives a move's
    own score where the game has one (Connect Four's Pons score); ``judge`` judges each move.
    ``options`` (``node_limit``, ``book``...) pass on to the searches."""
    here = start
    reviewed: list[ReviewedMove] = []
    illegal = None
    for ply, given in enumerate(moves, 1):
        try:
            after = here.play(given)
        except (ValueError, TypeError) as error:
            illegal = IllegalMove(ply, given, str(error))
            break
        move = here.move(here.action(given))
        judged = judge(here, move, after, options)
        reviewed.append(_reviewed(here, ply, move, judged, move_score))
        here = after
    summaries = {mark: _summary([m for m in reviewed if m.player == mark]) for mark in players}
    return Review(tuple(reviewed), summaries, here, illegal, start)


def _reviewed(
    here: Any, ply: int, move: Any, judged: Judged, move_score: Score | None
) -> ReviewedMove:
    best, (best_value, best_plies), (value, plies) = judged
    kept = value == best_value
    plies_lost = None
    if kept:
        plies_lost = plies - best_plies if value > 0 else best_plies - plies
    score_lost = None
    if move_score is not None:
        score_lost = move_score(here, best_value, best_plies) - move_score(here, value, plies)
    return ReviewedMove(
        ply=ply,
        move=move,
        player=here.to_move,
        best_moves=best,
        value_before=best_value,
        value_after=value,
        best_plies=best_plies,
        plies=plies,
        perfect=move in best,
        good=kept,
        plies_lost=plies_lost,
        score_lost=score_lost,
    )


def _summary(moves: list[ReviewedMove]) -> PlayerReview:
    return PlayerReview(
        moves=len(moves),
        perfect=sum(m.perfect for m in moves),
        good=sum(m.good for m in moves),
        blunders=sum(m.blunder for m in moves),
    )


def review_many(
    review: Callable[..., Review],
    records: Iterable[Any],
    *,
    threads: int | None = None,
    **options: Any,
) -> list[Review]:
    """``review(record, **options)`` of each record (``review`` a game module's, such as
    ``connect4.review``), on ``threads`` threads (default: one a core; the compiled core
    searches without the GIL), in the order given."""
    workers = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda record: review(record, **options), records))

"""The one scoring rule every game here is searched with.

A player who can force a win wins in the fewest moves, a player who must lose survives the most
moves, a draw is a draw. Every move uses up exactly one cell (an m,n,k move fills an empty cell, a
footholds move removes the foothold it leaves), so a finished game is scored, from the side to
move's point of view, by the cells still left when it ends::

    +(1 + cells_left_at_end)   the side to move wins
    -(1 + cells_left_at_end)   the side to move loses
    0                          draw

Faster wins leave more cells and score higher; slower losses score nearer zero. Both players see
the same number up to sign, so negamax is plain negation and a score depends only on the position.
"""

DRAW = 0


def win(cells_left: int) -> int:
    return 1 + cells_left


def loss(cells_left: int) -> int:
    return -(1 + cells_left)


def value(score: int) -> int:
    """+1 the side to move wins, 0 draw, -1 it loses."""
    return (score > 0) - (score < 0)


def plies(score: int, cells_now: int) -> int:
    """Moves still played from a position with ``cells_now`` cells left (a draw fills the board)."""
    return cells_now if score == DRAW else cells_now - (abs(score) - 1)

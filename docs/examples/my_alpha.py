"""A judge solution of BOJ 16571 ("알파 틱택토") with a bug for the stress tester's guide to
find: it takes the side to move to be X whatever the counts say."""

import functools
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@functools.cache
def value(board: tuple[int, ...], mover: int) -> int:
    """+1, 0 or -1 for ``mover`` (1 or 2) to move on ``board``."""
    if any(board[a] == board[b] == board[c] == 3 - mover for a, b, c in LINES):
        return -1
    if 0 not in board:
        return 0
    return max(
        -value((*board[:cell], mover, *board[cell + 1 :]), 3 - mover)
        for cell in range(9)
        if board[cell] == 0
    )


cells = tuple(int(word) for word in sys.stdin.read().split())
print("LDW"[value(cells, 1) + 1])  # the bug: X (1) is not always the one to move

"""BOJ 16571 (alpha tic-tac-toe), solved plainly, for the stress tester's tests.

``--bug parity``: takes the side to move from the parity of the empty cells the wrong way round.
``--bug full-only``: looks for lines only once the board is full.
``--bug crash-center``: crashes when O holds the centre. ``--bug loop-near-end``: never ends
with two or fewer empty cells.
"""

import sys
from functools import cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else ""


def won(board, mark):
    return any(board[i] == board[j] == board[k] == mark for i, j, k in LINES)


@cache
def value(board, mover):
    them = 3 - mover
    if BUG == "full-only":
        if 0 not in board:
            return 1 if won(board, mover) else -1 if won(board, them) else 0
    elif won(board, them):
        return -1
    if 0 not in board:
        return 0
    best = -1
    for cell, mark in enumerate(board):
        if mark == 0:
            best = max(best, -value((*board[:cell], mover, *board[cell + 1 :]), them))
    return best


def main():
    board = tuple(int(token) for token in sys.stdin.read().split())
    empty = board.count(0)
    mover = 1 if board.count(1) == board.count(2) else 2
    if BUG == "parity":
        mover = 1 if empty % 2 == 0 else 2
    if BUG == "crash-center" and board[4] == 2:
        print(1 // 0)
    if BUG == "loop-near-end" and empty <= 2:
        while True:
            pass
    print("LDW"[value(board, mover) + 1])


main()

"""Algospot TICTACTOE, solved plainly (minimax with a memo), for the stress tester's tests.

``--bug swap-o``: swaps x and o in the answer when O is to move.
``--bug ignore-line``: plays on from a board where a line is already complete.
``--bug crash-full``: crashes on a full board. ``--bug loop-o-won``: never ends once O has won.
"""

import sys
from functools import cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else ""


def won(board, mark):
    return any(board[i] == board[j] == board[k] == mark for i, j, k in LINES)


def other(mark):
    return "o" if mark == "x" else "x"


@cache
def value(board, mover):
    """+1 if the mover wins, 0 draw, -1 loss."""
    if won(board, other(mover)):
        return -1
    return play_on(board, mover)


def play_on(board, mover):
    best = -1 if "." in board else 0
    for cell, mark in enumerate(board):
        if mark == ".":
            best = max(best, -value(board[:cell] + mover + board[cell + 1 :], other(mover)))
    return best


def answer(board):
    mover = "x" if board.count("x") == board.count("o") else "o"
    if BUG == "crash-full":
        board.index(".")  # ValueError on a full board
    if BUG == "loop-o-won" and won(board, "o"):
        while True:
            pass
    result = play_on(board, mover) if BUG == "ignore-line" else value(board, mover)
    if result == 0:
        return "TIE"
    winner = mover if result > 0 else other(mover)
    if BUG == "swap-o" and mover == "o":
        winner = other(winner)
    return winner


def main():
    lines = [line.strip() for line in sys.stdin if line.strip()]
    count = int(lines[0])
    for index in range(count):
        print(answer("".join(lines[1 + 3 * index : 4 + 3 * index])))


main()

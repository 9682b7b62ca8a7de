"""BOJ 7682 (is it a valid final tic-tac-toe board?), solved plainly, for the stress tester's
tests.

``--bug both-lines``: accepts a board where both players have a line.
``--bug winner-not-last``: does not check that the winner made the last move.
``--bug crash-empty-row``: crashes on a board with an empty row. ``--bug loop-full``: never ends
on a full board.
``--output crlf|trailing|leading|blank|fewer``: right answers, written with CRLF line ends,
trailing spaces, a leading space, a blank line between answers, or the last answer missing.
"""

import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else ""
OUTPUT = sys.argv[sys.argv.index("--output") + 1] if "--output" in sys.argv else ""


def won(board, mark):
    return any(board[i] == board[j] == board[k] == mark for i, j, k in LINES)


def valid(board):
    x, o = board.count("X"), board.count("O")
    if x not in (o, o + 1):
        return False
    x_line, o_line = won(board, "X"), won(board, "O")
    if BUG == "crash-empty-row" and "..." in (board[0:3], board[3:6], board[6:9]):
        raise RuntimeError("empty row")
    if BUG == "loop-full" and "." not in board:
        while True:
            pass
    if x_line and o_line:
        return BUG == "both-lines"
    if BUG == "winner-not-last" and (x_line or o_line):
        return True
    if x_line:
        return x == o + 1
    if o_line:
        return x == o
    return "." not in board


def main():
    answers = []
    for line in sys.stdin:
        board = line.strip()
        if board == "end":
            break
        if board:
            answers.append("valid" if valid(board) else "invalid")
    if OUTPUT == "fewer":
        answers.pop()
    ends = {"crlf": "\r\n", "trailing": "  \n", "blank": "\n\n"}.get(OUTPUT, "\n")
    start = " " if OUTPUT == "leading" else ""
    sys.stdout.write("".join(start + answer + ends for answer in answers))


main()

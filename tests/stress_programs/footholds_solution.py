"""KAKAO 2022 disappearing footholds, solved by plain backtracking as judge solutions do, for
the stress tester's tests. Reads JSON lines; ``solution(board, aloc, bloc)`` is the Programmers
form.

``--bug loser-minimises``: the losing side also hurries. ``--bug vanished-ok``: forgets that a
player whose cell has disappeared has lost. ``--bug crash-one-row``: crashes on a board of one
row. ``--bug loop-shared``: never ends when both pieces start on one cell. ``--bug
no-holes``: a wrong shortcut for boards without holes (of two cells or more).
"""

import json
import sys

BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else ""


def play(board, me, you):
    """(does the player at ``me``, to move, win; moves played from here)."""
    rows, cols = len(board), len(board[0])
    if not board[me[0]][me[1]] and BUG != "vanished-ok":
        return False, 0
    win_moves, lose_moves = None, None
    row, col = me
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < rows and 0 <= c < cols and board[r][c]:
            board[row][col] = 0
            they_win, moves = play(board, you, (r, c))
            board[row][col] = 1
            moves += 1
            if not they_win:
                win_moves = moves if win_moves is None else min(win_moves, moves)
            elif BUG == "loser-minimises":
                lose_moves = moves if lose_moves is None else min(lose_moves, moves)
            else:
                lose_moves = moves if lose_moves is None else max(lose_moves, moves)
    if win_moves is not None:
        return True, win_moves
    return False, lose_moves or 0


def solution(board, aloc, bloc):
    if BUG == "crash-one-row" and len(board) == 1:
        raise IndexError("one row")
    if BUG == "no-holes" and len(board) * len(board[0]) > 1 and all(map(all, board)):
        return 0
    if BUG == "loop-shared" and list(aloc) == list(bloc):
        while True:
            pass
    return play([list(row) for row in board], tuple(aloc), tuple(bloc))[1]


if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip():
            case = json.loads(line)
            print(solution(case["board"], case["aloc"], case["bloc"]))

"""``perfectplay play``: whole games through piped input, hints, undo, bad input."""

from __future__ import annotations

import subprocess

import pytest

from perfectplay._kernel import play as _play
from perfectplay._registry import GAMES
from tests_support import perfectplay_command


def play(*arguments: str, moves: str) -> subprocess.CompletedProcess[str]:
    return perfectplay_command("play", *arguments, stdin=moves)


def every_cell(count: int, times: int = 1) -> str:
    # Tried in turn: an illegal one is refused with a message and the next line is read.
    return "".join(f"{cell}\n" for _ in range(times) for cell in range(1, count + 1))


def test_a_whole_tictactoe_game_the_agent_never_loses() -> None:
    for seed in range(4):
        result = play("tictactoe", "--seed", str(seed), moves=every_cell(9))
        assert result.returncode == 0, result.stderr
        last = result.stdout.strip().splitlines()[-1].split("> ")[-1]
        assert last in ("o won", "draw")
        assert "o plays" in result.stdout


def test_hint_lists_every_move_best_first() -> None:
    result = play("tictactoe", "--start", "xx./oo./...", moves="hint\nquit\n")
    assert result.returncode == 0
    position = GAMES["tictactoe"].read_position("xx./oo./...")
    expected = [f"  {m.move + 1}: {_play.in_words(m.value, m.plies)}" for m in _play.rank(position)]
    lines = [line.split("> ")[-1] for line in result.stdout.splitlines()]
    start = next(i for i, line in enumerate(lines) if line == expected[0])
    assert lines[start : start + len(expected)] == expected
    assert expected[0] == "  3: wins in 1 move"  # cells count from 1


def test_moves_of_equal_answers_are_ranked_as_best_move_takes_them() -> None:
    from perfectplay import connect4, tictactoe

    # Connect Four: after 333 on 5x4 every column draws in 17 plies; the centre column leads,
    # then outwards, the left one of each two first.
    position = connect4.Position("333", width=5, height=4)
    assert set(position.analyze().values()) == {(0, 17)}
    ranked = _play.rank(position)
    assert [m.action for m in ranked] == [2, 1, 3, 0, 4]
    assert ranked[0].action == connect4.best_move("333", width=5, height=4)
    # Other games: the lowest move first, as their best_move.
    ranked = _play.rank(tictactoe.Position("........."))  # every cell draws
    assert [m.action for m in ranked] == list(range(9))
    assert ranked[0].action == tictactoe.best_move(".........")


def test_undo_takes_back_the_move_and_the_reply() -> None:
    result = play("tictactoe", "--seed", "1", moves="5\nundo\nundo\nquit\n")
    assert result.returncode == 0
    boards = result.stdout.split("x> ")
    empty = ". . .\n. . .\n. . ."
    assert boards[0].rstrip().endswith(empty)
    assert "o plays" in boards[1]
    assert boards[2].strip() == empty  # back at the start, redrawn
    assert boards[3].startswith("nothing to undo")


def test_bad_input_says_why_and_lists_the_legal_moves() -> None:
    result = play("mnk", "--rows", "3", "--cols", "3", "--k", "3", moves="foo\n9,9\n0,1\n1\n")
    out = result.stdout
    assert "not a move or a command: 'foo'" in out
    assert "9,9 is not a legal move here; legal moves: 1,1 1,2" in out
    assert "columns and cells count from 1, not '0,1'" in out
    assert "a move is ROW,COL, not '1'" in out
    assert result.returncode == 0  # the end of input ends the game


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("mnk", "--width", "3"), "mnk takes the options rows, cols, k, not width"),
        (("mnk", "--rows", "x"), "option rows"),
        (("tictactoe", "--as", "z"), "--as must be x or o"),
        (("tictactoe", "--skill", "2"), "skill must be between 0 and 1"),
        (("tictactoe", "--start", "xxx/ooo/..."), "both X and O have 3 in a row"),
        (("footholds", "--aloc", "9,9"), "aloc"),
    ],
)
def test_bad_options_are_one_line_and_status_1(arguments: tuple[str, ...], message: str) -> None:
    result = play(*arguments, moves="")
    assert result.returncode == 1
    assert result.stderr.startswith("perfectplay play: ") and message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_whole_footholds_game() -> None:
    cells = "".join(
        f"{row},{col}\n" for _ in range(8) for row in range(1, 4) for col in range(1, 5)
    )
    result = play(
        "footholds", "--board", "1111/1111/1111", "--aloc", "1,0", "--bloc", "1,3", moves=cells
    )
    assert result.returncode == 0
    assert result.stdout.strip().splitlines()[-1].split("> ")[-1] in ("A won", "B won")


@pytest.mark.compiled
def test_a_whole_connect_four_game_against_the_first_player() -> None:
    # 4x4 Connect Four is a draw: the perfect first player never loses.
    for seed in range(2):
        result = play(
            "connect4",
            "--width",
            "4",
            "--height",
            "4",
            "--as",
            "o",
            "--seed",
            str(seed),
            moves=every_cell(4, times=8),
        )
        assert result.returncode == 0, result.stderr
        last = result.stdout.strip().splitlines()[-1].split("> ")[-1]
        assert last in ("x won", "draw")

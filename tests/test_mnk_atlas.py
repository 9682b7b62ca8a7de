"""The m,n,k atlas (``docs/atlas.json``, written by ``benches/mnk_atlas.py``): every board it
lists, its published values, the monotonicity rule between its entries, and the small boards
settled again here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from perfectplay import mnk

ATLAS = Path(__file__).resolve().parent.parent / "docs" / "atlas.json"
ENTRIES: list[dict[str, Any]] = json.loads(ATLAS.read_text(encoding="utf-8"))
VALUES = {(e["m"], e["n"], e["k"]): e["value"] for e in ENTRIES}

#: Published values of empty boards within 64 cells: all draws (Hsu et al. 2020 and earlier).
PUBLISHED = {(3, 3, 3): 0, (4, 4, 4): 0, (5, 5, 4): 0, **{(n, n, 5): 0 for n in range(5, 9)}}
PUBLISHED |= {(5, 6, 5): 0, (5, 7, 5): 0, (5, 8, 5): 0, (6, 7, 5): 0, (6, 8, 5): 0, (7, 8, 5): 0}


def test_the_atlas_lists_every_board_once() -> None:
    wanted = {
        (m, n, k)
        for m in range(1, 9)
        for n in range(m, 65)
        if m * n <= 64
        for k in range(3, min(6, n) + 1)
    }
    listed = [(e["m"], e["n"], e["k"]) for e in ENTRIES]
    assert sorted(listed) == sorted(wanted)
    assert all(e["value"] in (1, 0, None) for e in ENTRIES)  # O never wins an empty board


def test_every_settled_board_has_a_checked_certificate() -> None:
    """The run wrote a certificate for every board it settled, and ``mnk.check`` accepted it."""
    uncertified = [
        (e["m"], e["n"], e["k"])
        for e in ENTRIES
        if e["value"] is not None and (e["certificate"] or {}).get("check_seconds") is None
    ]
    assert uncertified == []


def test_the_atlas_agrees_with_the_published_values() -> None:
    settled = {board: v for board, v in PUBLISHED.items() if VALUES[board] is not None}
    assert {board: VALUES[board] for board in settled} == settled
    assert (5, 5, 5) in settled and (6, 6, 5) in settled


def _fits(small: tuple[int, int], large: tuple[int, int]) -> bool:
    (a, b), (c, d) = small, large
    return (a <= c and b <= d) or (a <= d and b <= c)


def test_the_atlas_keeps_the_monotonicity_rule() -> None:
    """A first-player win stays a win on a larger board or with a smaller k (an extra cell is
    one O may waste a move on); so a draw stays a draw on a smaller board or a larger k."""
    wins = [b for b, v in VALUES.items() if v == 1]
    draws = [b for b, v in VALUES.items() if v == 0]
    for m, n, k in wins:
        for dm, dn, dk in draws:
            assert not (_fits((m, n), (dm, dn)) and dk <= k), ((m, n, k), (dm, dn, dk))


@pytest.mark.parametrize(
    "entry",
    [e for e in ENTRIES if e["m"] * e["n"] <= 12 and e["value"] is not None],
    ids=lambda e: f"{e['m']}x{e['n']}k{e['k']}",
)
def test_small_boards_are_settled_again(entry: dict[str, Any]) -> None:
    board = "/".join("." * entry["n"] for _ in range(entry["m"]))
    assert mnk.value(board, entry["k"]) == entry["value"]
    assert mnk.check(mnk.prove(board, entry["k"])) == entry["value"]

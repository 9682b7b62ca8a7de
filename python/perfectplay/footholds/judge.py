"""Disappearing footholds' judge format: KAKAO 2022 (Programmers 92345), one JSON case a
line."""

from __future__ import annotations

import json
from collections.abc import Iterator

from perfectplay._kernel.backend import implementation
from perfectplay._kernel.judge import Format, InputError, Options, Write, answer, nonblank

__all__ = ["FORMATS"]


def run_footholds(lines: Iterator[tuple[int, str]], write: Write, options: Options) -> None:
    """KAKAO 2022 disappearing footholds: one JSON object a line with board, aloc and bloc;
    prints the total number of moves under perfect play."""
    api = implementation("footholds", options.backend)
    for number, text in nonblank(lines):
        try:
            case = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(number, f"invalid JSON: {error.msg}") from None
        except ValueError as error:  # an integer of more digits than Python converts
            raise InputError(number, f"invalid JSON: {error}") from None
        except RecursionError:
            raise InputError(number, "invalid JSON: nested too deeply") from None
        if not isinstance(case, dict):
            raise InputError(number, "expected a JSON object with board, aloc and bloc")
        missing = [key for key in ("board", "aloc", "bloc") if key not in case]
        if missing:
            raise InputError(number, f"missing {', '.join(missing)}")
        moves = answer(number, api.total_moves, case["board"], case["aloc"], case["bloc"])
        write(f"{moves}\n")


FORMATS = {
    "footholds": Format(
        run_footholds,
        "KAKAO 2022 disappearing footholds: total moves",
        'input: one JSON object a line, such as {"board": [[1, 1, 1], [1, 1, 1], [1, 1, 1]], '
        '"aloc": [1, 0], "bloc": [1, 2]}',
    ),
}

"""The judge formats of every game, by command name (each game's package defines its own in
its ``judge.py`` and names them in its ``game.py``): each reads a problem's input, line by
line, and writes perfectplay's answers in the problem's output format. The ``perfectplay``
command and the stress tester both answer through these readers, so they print the very same
answers. Bad input raises ``InputError`` naming the input line and the problem.
"""

from __future__ import annotations

from typing import Any

from perfectplay._kernel.judge import Format, InputError, Options, numbered
from perfectplay._registry import GAMES

__all__ = ["FORMATS", "Format", "InputError", "Options", "answers", "numbered"]

FORMATS: dict[str, Format] = {
    name: judge_format for game in GAMES.values() for name, judge_format in game.judge.items()
}


def answers(problem: str, text: str, backend: str, **flags: Any) -> list[str]:
    """perfectplay's answers to a whole input in the format ``problem``, one per case."""
    written: list[str] = []
    lines = enumerate(text.splitlines(), start=1)
    FORMATS[problem].run(lines, written.append, Options(backend, flags))
    return "".join(written).splitlines()

"""What the stress tester asks of a problem (a judge format it can test): how a case is made at
random, written as the judge gives it, read from a user, simplified and explained. A game's
package defines its problems (its ``stress.py``) and names them in its ``game.py``; the stress
tester (``perfectplay.stress``) names no game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Case", "Problem"]

#: One case of a problem, in the form its ``generate`` makes (a board text, a tuple, ...).
Case = Any


@dataclass(frozen=True)
class Problem:
    """One judge format the stress tester can test (its name is its judge format's)."""

    #: A random valid case, on boards of at most ``max_size`` (rows, cols) where that applies.
    generate: Callable[[random.Random, tuple[int, int]], Case]
    #: The input text of cases, exactly as the judge gives it.
    render: Callable[[Sequence[Case]], str]
    #: A case a user gave (``stress.check``), as ``generate`` makes them; a ``ValueError``
    #: naming the case by its index when it is no input of the problem.
    read: Callable[[int, Case], Case]
    #: Is a case (a simplified one) an input of the problem?
    valid: Callable[[Case], bool]
    #: Cases one step simpler (fewer marks, a smaller board, ...), for shrinking.
    simpler: Callable[[Case], Iterator[Case]]
    #: What a reader needs beside a failing case: its moves and optimal line, or why a board
    #: is or is not an answer.
    explain: Callable[[Case], str]
    #: Fresh random cases on boards smaller than the case's, smallest first (the same ones for
    #: the same case), for a shrink that one step at a time can stall on; None when the steps
    #: suffice.
    smaller: Callable[[Case], Iterator[Case]] | None = None
    #: The most cases one run of a program reads (None: as many as asked).
    most_per_run: int | None = None
    #: The Python program that runs ``FUNCTION`` of ``FILE`` on the problem's input (its
    #: argv: FILE, FUNCTION), for ``--python FILE:FUNCTION``; None when there is no such form.
    python_runner: str | None = None

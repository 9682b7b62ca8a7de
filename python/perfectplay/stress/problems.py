"""The problems the stress tester can test: every game's (its ``game.py`` names them), read from
the registry, and what the tester asks of one by name."""

from __future__ import annotations

import random
from collections.abc import Sequence

from perfectplay import judge
from perfectplay._kernel.backend import BACKEND
from perfectplay._kernel.stress import Case, Problem
from perfectplay._registry import GAMES

__all__ = ["PROBLEMS", "Case", "expected_lines", "explain", "generate", "problem_of", "render"]

#: Every problem by name (the name of its judge format).
PROBLEMS: dict[str, Problem] = {
    name: problem for game in GAMES.values() for name, problem in game.stress.items()
}


def problem_of(name: str) -> Problem:
    """The problem of that name; a ``ValueError`` listing them otherwise."""
    try:
        return PROBLEMS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown problem {name!r}; expected one of {', '.join(PROBLEMS)}"
        ) from None


def generate(problem: str, rng: random.Random, max_size: tuple[int, int] = (5, 5)) -> Case:
    """One random valid case of a problem."""
    return problem_of(problem).generate(rng, max_size)


def render(problem: str, cases: Sequence[Case]) -> str:
    """The input text of a list of cases, exactly as the judge gives it."""
    return problem_of(problem).render(cases)


def expected_lines(problem: str, cases: Sequence[Case], backend: str = BACKEND) -> list[str]:
    """perfectplay's answers, from the code of the ``perfectplay PROBLEM`` command."""
    return judge.answers(problem, render(problem, cases), backend)


def explain(problem: str, case: Case) -> str:
    """What a reader needs beside a failing case: for a game, every move of the start position
    with its value and the optimal line drawn as boards; for ``final``, the board and why it
    is or is not a valid final position, naming every line of three."""
    return problem_of(problem).explain(case)

"""Shrinking a failing input: fewer cases, then simpler cases, for as long as the program still
fails the same way; then, where the problem offers them, fresh cases on smaller boards."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from perfectplay.stress.problems import Case, problem_of, render
from perfectplay.stress.processes import Failure, Program, compare

__all__ = ["shrink"]


def shrink(problem: str, failure: Failure, program: Program) -> Failure:
    """The smallest input found that fails the same way: first fewer cases, then simpler ones,
    until no single step keeps it failing; for footholds, then fresh games on smaller boards."""

    def attempt(cases: Sequence[Case]) -> Failure | None:
        if not cases:
            return None
        found = compare(problem, cases, render(problem, cases), program)
        return found if found is not None and found.kind == failure.kind else None

    best = failure
    if best.case is not None and len(best.cases) > 1:
        alone = attempt([best.cases[best.case]])
        if alone is not None:
            best = alone
    best = simplest(problem, best, attempt)
    smaller = problem_of(problem).smaller
    if smaller is not None and len(best.cases) == 1:
        # One step at a time can stall (footholds: a row holding a piece is never dropped), so
        # fresh cases on every smaller board are tried, smallest first.
        for case in smaller(best.cases[0]):
            found = attempt([case])
            if found is not None:
                return simplest(problem, found, attempt)
    return best


def simplest(
    problem: str, best: Failure, attempt: Callable[[Sequence[Case]], Failure | None]
) -> Failure:
    """Fewer cases, then simpler ones, until no single step keeps the failure."""
    rules = problem_of(problem)
    chunk = len(best.cases) // 2
    while chunk >= 1:  # remove runs of cases, halving the run length
        start, shrunk = 0, False
        while start < len(best.cases):
            fewer = list(best.cases[:start]) + list(best.cases[start + chunk :])
            found = attempt(fewer)
            if found is not None:
                best, shrunk = found, True
            else:
                start += chunk
        if not shrunk:
            chunk //= 2
    progress = True
    while progress:  # simpler cases, one step at a time
        progress = False
        for index, case in enumerate(best.cases):
            for simpler in rules.simpler(case):
                if not rules.valid(simpler):
                    continue
                cases = list(best.cases)
                cases[index] = simpler
                found = attempt(cases)
                if found is not None:
                    best, progress = found, True
                    break
            if progress:
                break
    return best

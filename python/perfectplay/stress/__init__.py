"""Stress testing of judge solutions: random inputs, perfectplay's answers, the smallest failing
input.

The documentation's guide runs ``stress.run("alpha", ["python3", "my_alpha.py"], ...)`` on a
solution with a bug, output included.

A run generates random valid inputs of one problem (the formats of the ``perfectplay``
subcommands), runs the program on them (several cases a run where the format has several),
compares its output with perfectplay's, and on the first wrong answer, crash, time limit or
malformed output shrinks the input: fewer cases, then simpler cases (fewer marks, fewer
footholds, a smaller board), for as long as the program still fails the same way. The answers
come from the very code of the ``perfectplay tictactoe|alpha|final|footholds`` commands.

Output is compared as judges do: trailing whitespace on a line, CRLF line ends and blank lines
at the end are accepted; fewer or more lines than cases, blank lines between answers and
leading whitespace are failures of their own kind.

The package is split by job: ``problems`` (what the games offer, read from the registry),
``processes`` (running a program), ``shrinking``, ``report`` and ``runner`` (a whole run).
"""

from perfectplay.stress.problems import PROBLEMS, expected_lines, explain, generate, render
from perfectplay.stress.processes import CRASH, OUTPUT, TIME, WRONG, Failure
from perfectplay.stress.report import StressResult
from perfectplay.stress.runner import check, python_command, run

__all__ = [
    "CRASH",
    "OUTPUT",
    "PROBLEMS",
    "TIME",
    "WRONG",
    "Failure",
    "StressResult",
    "check",
    "expected_lines",
    "explain",
    "generate",
    "python_command",
    "render",
    "run",
]

"""What a stress run found, and the report a reader sees: the minimal failing input, both
outputs, why, and the problem's explanation of the case."""

from __future__ import annotations

import dataclasses

from perfectplay.stress.problems import explain
from perfectplay.stress.processes import Failure

__all__ = ["StressResult"]


@dataclasses.dataclass(frozen=True)
class StressResult:
    """What a stress run found: ``passed`` when every case's answer was right; otherwise
    ``failure`` holds the shrunk failing input."""

    problem: str
    seed: int
    cases: int
    runs: int
    seconds: float
    failure: Failure | None
    program_seconds: float = 0.0  # the runs' wall time, added up (overlapping with jobs > 1)

    @property
    def passed(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        rate = self.runs / self.seconds if self.seconds else 0.0
        if self.failure is None:
            return (
                f"perfectplay stress {self.problem}: all {self.cases} cases passed in "
                f"{self.runs} runs, {self.seconds:.1f} s ({rate:.1f} runs/s), seed {self.seed}"
            )
        return (
            f"perfectplay stress {self.problem}: {self.failure.kind} after {self.cases} cases "
            f"passed, seed {self.seed}"
        )

    def report(self) -> str:
        """For a failure, the minimal input with both outputs and the line; the summary last."""
        if self.failure is None:
            return self.summary()
        failure = self.failure
        parts = [
            f"minimal failing input ({len(failure.cases)} case"
            f"{'s' if len(failure.cases) != 1 else ''}):",
            failure.input.rstrip("\n"),
            "expected output:",
            failure.expected,
            "actual output:",
            failure.actual.rstrip("\n") if failure.actual.strip() else "(nothing)",
            f"why: {failure.detail}",
        ]
        if failure.stderr.strip():
            parts += ["standard error:", failure.stderr.rstrip("\n")]
        index = failure.case if failure.case is not None else 0
        if failure.cases:
            parts.append(explain(self.problem, failure.cases[index]))
        parts.append(self.summary())
        return "\n".join(parts)

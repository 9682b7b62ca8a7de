"""Benchmarks run apart from the tests: `python -m pytest benches` (see README, Benchmarks).

This puts tests/ on the path: the benchmarks use the tests' own helpers (tests_support), so
there is one `in_fresh_thread`, which re-raises what the work raised.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

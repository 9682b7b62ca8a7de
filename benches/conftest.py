"""Benchmarks run apart from the tests: `python -m pytest benches` (see README, Benchmarks)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_fresh_thread(work: Callable[[], T]) -> T:
    """Runs `work` in a new thread: the footholds search keeps what it learnt per thread, so
    this measures a cold start, as a first call in a program sees it."""
    result: list[T] = []
    thread = threading.Thread(target=lambda: result.append(work()))
    thread.start()
    thread.join()
    return result[0]

"""The compiled functions called from 8 threads at once give the single-threaded answers."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

# Compares the backends with each other whatever PERFECTPLAY_BACKEND says.
pytestmark = pytest.mark.both_backends

BOARDS = ["".join(cells) for cells in itertools.product(".xo", repeat=9)][::7]


def answers(api: Any, boards: list[str]) -> list[Any]:
    out: list[Any] = []
    for board in boards:
        if api.is_reachable(board):
            out.append((api.value(board), api.solve(board), api.analyze(board)))
        else:
            out.append(None)
    return out


def test_eight_threads_agree_with_one(rust_ttt: Any) -> None:
    expected = answers(rust_ttt, BOARDS)
    codes = np.array(
        [[".xo".index(c) for c in b] for b in BOARDS if rust_ttt.is_reachable(b)], dtype=np.uint8
    )
    batch = rust_ttt.batch_values(np.repeat(codes, 50, axis=0))
    with ThreadPoolExecutor(max_workers=8) as pool:
        singles = [pool.submit(answers, rust_ttt, BOARDS) for _ in range(8)]
        batches = [
            pool.submit(lambda: rust_ttt.batch_values(np.repeat(codes, 50, axis=0)))
            for _ in range(8)
        ]
        for future in singles:
            assert future.result() == expected
        for future in batches:
            assert np.array_equal(future.result(), batch)

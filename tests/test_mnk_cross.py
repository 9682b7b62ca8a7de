"""m,n,k: the Rust search against the Python twin and the plain exhaustive search on random
legal positions of boards up to 4x4; malformed input raises the same class on both."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay._core import _testing


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, int]:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 4))
    k = draw(st.integers(1, max(rows, cols)))
    cells = rows * cols
    order = draw(st.permutations(range(cells)))
    # Enough stones that the Python twin's exhaustive search stays quick.
    low = max(0, cells - 10)
    length = draw(st.integers(min(low, cells), cells))
    marks = ["."] * cells
    windows = _windows(rows, cols, k)
    for turn, cell in enumerate(order[:length]):
        marks[cell] = "x" if turn % 2 == 0 else "o"
        if any(all(marks[c] == marks[cell] for c in w) for w in windows if cell in w):
            break
    text = "/".join("".join(marks[r * cols : (r + 1) * cols]) for r in range(rows))
    return text, k


def _windows(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.append(tuple(rr * cols + cc for rr, cc in cells))
    return found


@settings(max_examples=1500, deadline=None)
@given(positions())
def test_rust_python_and_exhaustive_agree(
    rust_mnk: Any, python_mnk: Any, position: tuple[str, int]
) -> None:
    board, k = position
    rust = rust_mnk.solve(board, k)
    assert rust == python_mnk.solve(board, k)
    value, plies, best = _testing.exhaustive_mnk(board, k)
    assert (rust.value, rust.plies, rust.best_moves) == (value, plies, tuple(best))
    assert rust_mnk.analyze(board, k) == python_mnk.analyze(board, k)


junk = st.recursive(
    st.one_of(
        st.integers(-1, 3),
        st.booleans(),
        st.none(),
        st.text(max_size=3),
        st.floats(allow_nan=False),
    ),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=1000, deadline=None)
@given(
    st.one_of(junk, st.text(alphabet="xo.012/\n q", max_size=20)),
    st.one_of(st.integers(-1, 6), junk),
)
def test_malformed_input_raises_the_same_class(
    rust_mnk: Any, python_mnk: Any, board: Any, k: Any
) -> None:
    def outcome(api: Any) -> Any:
        try:
            return ("ok", api.is_reachable(board, k))
        except (ValueError, TypeError) as error:
            return ("raises", type(error))

    assert outcome(rust_mnk) == outcome(python_mnk)

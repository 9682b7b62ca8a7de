"""The symmetries of a rectangular board, the twin of ``rust/engine/symmetry.rs``: the identity,
the two mirrors and the half turn, and on a square board also the two diagonal mirrors and the
quarter turns, numbered as there. Cells are numbered ``row * cols + col``."""

from __future__ import annotations


def image(which: int, i: int, j: int, rows: int, cols: int) -> tuple[int, int]:
    """Where symmetry ``which`` takes cell (i, j)."""
    return [
        (i, j),
        (i, cols - 1 - j),
        (rows - 1 - i, j),
        (rows - 1 - i, cols - 1 - j),
        (j, i),
        (cols - 1 - j, i),
        (j, rows - 1 - i),
        (cols - 1 - j, rows - 1 - i),
    ][which]


def symmetries(rows: int, cols: int) -> list[list[int]]:
    """``maps[s][cell]``: where symmetry ``s`` takes ``cell``; 8 on a square, else 4."""
    maps = []
    for which in range(8 if rows == cols else 4):
        images = [image(which, *divmod(cell, cols), rows, cols) for cell in range(rows * cols)]
        maps.append([i * cols + j for i, j in images])
    return maps


def permute(map_: list[int], cells: int) -> int:
    """The image of a set of cells (a mask) under one symmetry's map."""
    image_ = 0
    while cells:
        low = cells & -cells
        image_ |= 1 << map_[low.bit_length() - 1]
        cells ^= low
    return image_

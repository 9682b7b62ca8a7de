"""What every Connect Four book file shares: the one way a shipped file is read (a regular file,
its size and SHA-256), the refusals of a changed book or a wrong array, and the names of the
distribution that ships perfectplay's own books (``perfectplay-books``)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from perfectplay._kernel import score
from perfectplay._kernel.files import open_regular
from perfectplay.connect4.rules import pons_of
from perfectplay.connect4.shipped import _REFETCH as _REFETCH

DEEP_STONES = 12


def _read_whole(
    path: str, where: str, size: int, why: str, fix: str, *, sha256: str | None = None
) -> bytes:
    """A book file's bytes, the one way every file perfectplay ships is read: a
    ``FileNotFoundError`` or ``ValueError`` naming ``where`` and the fix when it is missing,
    not a regular file (a FIFO, a device, a directory), not ``size`` bytes (``why``) or, given
    ``sha256``, not the file of that SHA-256. No more than ``size + 1`` bytes are read."""
    try:
        file = open_regular(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{where} is missing: {fix}") from None
    except ValueError as error:  # a FIFO, a device, a directory
        raise ValueError(f"{where}: {str(error).removeprefix(f'{path}: ')}: {fix}") from None
    with file:
        data: bytes = file.read(size + 1)
    if len(data) != size:
        raise ValueError(
            f"{where} is {len(data):,} bytes{' or more' if len(data) > size else ''}, not "
            f"{size:,}{why}: {fix}"
        )
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{where} is not the one this perfectplay shipped: {fix}")
    return data


#: The data-only distribution that holds perfectplay's own books, pinned in pyproject.toml.
#: A 13-ply book's slot for a child it does not hold (the game over, or a win at once).
NOT_HELD = 127


def _refuse_change(book: object, name: str, fields: tuple[str, ...]) -> None:
    """An ``AttributeError`` for a change to a field a book was made with: the compiled core
    reads the arrays in place, by dtype, and the twin would read any, so a changed book could
    be answered by one backend and refused by the other."""
    if name in fields and name in vars(book):
        kind = type(book).__name__
        raise AttributeError(f"a {kind}'s {name} cannot be changed: make a new {kind}")


def _check_array(what: str, array: Any, dtype: type[np.generic]) -> None:
    """A ``TypeError`` unless ``array`` is a contiguous 1-D numpy array of ``dtype``."""
    if not (
        isinstance(array, np.ndarray)
        and array.dtype == dtype
        and array.ndim == 1
        and array.flags.c_contiguous
    ):
        shown = getattr(array, "dtype", type(array).__name__)
        raise TypeError(
            f"{what} must be a contiguous 1-D {np.dtype(dtype).name} array, not {shown}"
        )


def _pons(value: int, plies: int, moves: int, cells: int) -> int:
    """Pons' score of a solution's value and plies, for a position with ``moves`` stones."""
    return pons_of(value * score.win(cells - moves - plies))

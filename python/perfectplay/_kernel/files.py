"""The files a user names. Read: only regular files, never a FIFO or a device, which would
block forever (a FIFO) or read as endless or changing data (``/dev/zero``, ``/proc``). Written:
whole or not at all, through a private temporary file beside the target."""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def open_regular(path: str | os.PathLike[str]) -> io.BufferedReader:
    """``path`` opened for binary reading; a ``ValueError`` naming it when it is not a regular
    file. Opened without blocking and checked on the open descriptor, so nothing can swap the
    file between the check and the read."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = (
                "a FIFO"
                if stat.S_ISFIFO(mode)
                else "a directory"
                if stat.S_ISDIR(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket"
                if stat.S_ISSOCK(mode)
                else "not a regular file"
            )
            raise ValueError(f"{os.fspath(path)!s}: {kind}, not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def write_whole(path: str | os.PathLike[str], write: Callable[[BinaryIO], object]) -> None:
    """Replaces ``path`` with what ``write`` writes to the file it is given: an unpredictable
    temporary file created exclusively beside ``path`` (no link or name planted there is
    followed), fsynced, renamed over ``path``, the directory fsynced; any failure (a full
    disk, a file-size limit, Ctrl-C) removes it. A ``path`` that exists and is not a regular
    file (a directory, a FIFO, a device) is a ``ValueError``. A replaced file keeps its mode,
    a new one is 0644."""
    path = Path(path)
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise ValueError(f"{path} is not a regular file: it is written only as one")
    directory = path.parent
    descriptor, partial = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".partial", dir=directory
    )
    try:
        with os.fdopen(descriptor, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        # mkstemp makes the file private.
        os.chmod(partial, 0o644 if mode is None else stat.S_IMODE(mode))
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise
    # The rename itself is durable once the directory is.
    directory_descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory_descriptor)
    finally:
        os.close(directory_descriptor)

"""Where the opening books a default 7x6 call reads are, and what each must be: the names,
sizes and SHA-256s of the files in ``perfectplay-books`` and ``bitbully-databases``, found
without importing either (or numpy), and ``shipped_files``, which tells the compiled core what
it reads and checks itself (``rust/games/connect4/shipped.rs``). ``openings`` and the twin read
the same paths through this module, so a path changed here is changed for both."""

from __future__ import annotations

import os
from importlib import resources, util
from typing import Any

BOOKS_DISTRIBUTION = "perfectplay-books"
BOOKS_VERSION = "1.0.0"
_BOOKS_PACKAGE = "perfectplay_books"
_REFETCH = (
    f"reinstall {BOOKS_DISTRIBUTION} (pip install --force-reinstall "
    f"{BOOKS_DISTRIBUTION}=={BOOKS_VERSION}), or pass book=None to search without a book"
)

DEEP_DISTRIBUTION = "bitbully-databases"
DEEP_VERSION = "0.0.2"
DEEP_FILE = "assets/book_12ply_distances.dat"
DEEP_BYTES = 21_004_495
DEEP_SHA256 = "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704"
_REINSTALL = (
    f"reinstall it (pip install --force-reinstall {DEEP_DISTRIBUTION}=={DEEP_VERSION}), or "
    "pass book=None to search without a book"
)

PACKAGED = "connect4-7x6.book"
PACKAGED_BYTES = 99_874
PACKAGED_SHA256 = "e2186470573105308ff71b81c5e867ed700420f2fa0b9381a839a4a6325a6355"
PACKAGED_SIZE = (7, 6)  # the board size of the packaged book

#: The 13-ply book (``perfectplay.connect4.book13`` built it), in ``perfectplay-books``.
NEXT_FILE = "connect4-7x6-13ply.scores"
NEXT_SHA256 = "e857e57eac239578cf765d663e0c3eccc37d71a9ebaa413d024610b4025dd012"
NEXT_BYTES = 29_406_293

#: The 14-ply book (``perfectplay.connect4.book13`` built it), in ``perfectplay-books``.
FOURTEEN_FILE = "connect4-7x6-14ply.book14"
FOURTEEN_SHA256 = "c2e12a32c02e87dea344da584059986b648fc6acf0aac5d1606c164bc7711343"
FOURTEEN_BYTES = 31_315_885


def _data_path(name: str) -> str:
    """Where the installed books package keeps ``name``: a ``FileNotFoundError`` saying how to
    install it when it is not installed (never a silent search of minutes without books)."""
    try:
        books = resources.files(_BOOKS_PACKAGE)
    except ModuleNotFoundError:
        raise FileNotFoundError(
            f"the opening books are missing: {BOOKS_DISTRIBUTION} is not installed; install it "
            f"(pip install {BOOKS_DISTRIBUTION}=={BOOKS_VERSION}; from a clone of perfectplay, "
            "pip install ./books), or pass book=None to search without a book"
        ) from None
    return str(books.joinpath(name))


def next_path() -> str:
    """Where the packaged 13-ply book is."""
    return _data_path(NEXT_FILE)


def fourteen_path() -> str:
    """Where the packaged 14-ply book is."""
    return _data_path(FOURTEEN_FILE)


def _installed_deep_path() -> str:
    path = deep_path()
    if path is None:
        raise FileNotFoundError(
            f"the 12-ply opening book is missing: {DEEP_DISTRIBUTION} is not installed; install "
            f"it (pip install {DEEP_DISTRIBUTION}=={DEEP_VERSION}), or pass book=None to search "
            "without a book"
        )
    return path


def packaged_path() -> str:
    """Where the packaged 7x6 book is."""
    return _data_path(PACKAGED)


def deep_path() -> str | None:
    """Where the installed ``bitbully-databases`` keeps the 12-ply book, or None when it is not
    installed (found without importing it)."""
    try:
        spec = util.find_spec("bitbully_databases")
    except (ImportError, ValueError):  # a broken installation: as good as none
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(next(iter(spec.submodule_search_locations)), *DEEP_FILE.split("/"))


_ROLES = ("opening", "deep", "next", "fourteen")


def shipped_files(roles: tuple[str, ...] | list[str] = _ROLES) -> dict[str, dict[str, Any]]:
    """Where each book of ``roles`` (of ``"opening"``, ``"deep"``, ``"next"``, ``"fourteen"``)
    a default 7x6 call reads is and what it must be, for the compiled core, which reads and
    checks them itself (``rust/games/connect4/shipped.rs``): its path, size, SHA-256, and the
    words of the errors that name it, as this module's readers word them."""
    unknown = set(roles) - set(_ROLES)
    if unknown:
        raise ValueError(f"the shipped books are {', '.join(_ROLES)}, not {', '.join(unknown)}")
    paths = {
        "opening": packaged_path,
        "deep": _installed_deep_path,
        "next": next_path,
        "fourteen": fourteen_path,
    }
    where = {role: paths[role]() for role in _ROLES if role in roles}
    files = {
        "deep": (
            where.get("deep"),
            DEEP_BYTES,
            DEEP_SHA256,
            "the 12-ply opening book",
            "",
            _REINSTALL,
        ),
        "next": (
            where.get("next"),
            NEXT_BYTES,
            NEXT_SHA256,
            "the 13-ply opening book",
            " (seven for each 12-ply entry)",
            _REFETCH,
        ),
        "fourteen": (
            where.get("fourteen"),
            FOURTEEN_BYTES,
            FOURTEEN_SHA256,
            "the 14-ply opening book",
            "",
            _REFETCH,
        ),
        "opening": (
            where.get("opening"),
            PACKAGED_BYTES,
            PACKAGED_SHA256,
            "the opening book",
            "",
            _REFETCH,
        ),
    }
    shipped = {}
    for role, (path, size, sha256, kind, size_means, fix) in files.items():
        if path is None:
            continue
        named = f"{kind} {path}"
        not_ours = (
            f"{named} is not {DEEP_DISTRIBUTION} {DEEP_VERSION}'s: {fix}"
            if role == "deep"
            else f"{named} is not the one this perfectplay shipped: {fix}"
        )
        shipped[role] = {
            "path": os.fspath(path),
            "bytes": size,
            "sha256": sha256,
            "named": named,
            "size_means": size_means,
            "fix": fix,
            "not_ours": not_ours,
        }
    return shipped

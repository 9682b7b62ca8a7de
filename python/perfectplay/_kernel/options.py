"""The one options type of the twin (``rust/input/options.rs`` and ``rust/py/options.rs`` in
the compiled core): every function takes its options as ``**options``, read here once, checked
in ``ORDER`` whatever order they were given in, with the core's rules and messages.

* Integers (``threads``, ``node_limit``, ``width``, ...): an ``int`` or anything with
  ``__index__`` (numpy integers), never a bool.
* ``table_mb``: a real number (``numbers.Real``, or anything with ``__index__``), never a bool,
  more than 0 and at most ``MAX_TABLE_MB``.
* Flags (``moves``, ``weak``, ``progress``, ``best``): a bool (numpy's too).
* ``Options``' fields are the options in the order they are checked, the core's ``ORDER``.
"""

from __future__ import annotations

import dataclasses
import inspect
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

from perfectplay._kernel import args

#: ``book=``'s default: the packaged books (Connect Four).
PACKAGED = "packaged"


class SearchOptions(TypedDict, total=False):
    """Every option a function may take (each function says which it takes)."""

    width: int | None
    height: int | None
    weak: bool
    moves: bool
    best: bool
    node_limit: int | None
    table_mb: float | None
    book: Any
    tablebase: Any
    threads: int | None
    errors: str | None
    progress: bool
    seed: int | None
    plies: int | tuple[int, int] | None
    ongoing: bool


@dataclass
class Options:
    """A call's checked options; those not given keep their defaults."""

    width: int | None = None
    height: int | None = None
    weak: bool = False
    moves: bool = False
    best: bool = True
    node_limit: int | None = None
    table_mb: float | None = None
    book: Any = PACKAGED
    threads: int | None = None
    errors: str = "raise"
    progress: bool = False
    seed: int | None = None
    plies: tuple[int, int] | None = None
    ongoing: bool = False

    @classmethod
    def read(cls, given: Mapping[str, Any], function: str, allowed: Sequence[str]) -> Options:
        """The keyword arguments of ``function``, which takes the options ``allowed``."""
        for key in given:
            if key not in allowed:
                raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")
        options = cls()
        for name in ORDER:
            if name in given:
                setattr(options, name, _CHECKS[name](given[name], name))
        return options


#: Every option, in the order a call's options are checked (the fields' order).
ORDER = tuple(field.name for field in dataclasses.fields(Options))


def flag(value: Any, name: str) -> bool:
    """A bool argument (numpy's bool too), as the compiled core takes it."""
    # A numpy bool exists only once numpy is imported: a start that has none does not pay for it.
    numpy = sys.modules.get("numpy")
    if not (isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_))):
        raise TypeError(f"argument '{name}': '{type(value).__name__}' object is not a bool")
    return bool(value)


def _optional_int(value: Any, name: str) -> int | None:
    return None if value is None else args.int_arg(value, name)


def _threads(value: Any, name: str) -> int | None:
    count = _optional_int(value, name)
    if count is not None and not 1 <= count <= 4096:
        raise ValueError(f"threads must be between 1 and 4096, got {count}")
    return count


def errors_arg(value: Any, name: str = "errors") -> str:
    """``errors=``: None (raise), ``'raise'`` or ``'mask'``."""
    if value is None:
        return "raise"
    if not isinstance(value, str):
        raise TypeError(f"errors must be 'raise' or 'mask', not {type(value).__name__}")
    if value not in ("raise", "mask"):
        raise ValueError(f"errors must be 'raise' or 'mask', got \"{value}\"")
    return value


def _seed(value: Any, name: str) -> int | None:
    seed = _optional_int(value, name)
    if seed is not None and not 0 <= seed < 2**64:
        raise ValueError(f"seed must be between 0 and 2^64 - 1, got {seed}")
    return seed


def _plies(value: Any, name: str) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(
                f"plies must be an int or a (low, high) pair, got a tuple of {len(value)}"
            )
        return args.int_arg(value[0], name), args.int_arg(value[1], name)
    plies = args.int_arg(value, name)
    return plies, plies


_CHECKS: dict[str, Any] = {
    "width": _optional_int,
    "height": _optional_int,
    "weak": flag,
    "moves": flag,
    "best": flag,
    "progress": flag,
    "ongoing": flag,
    "node_limit": lambda value, name: args.node_limit(value),
    "table_mb": lambda value, name: args.table_mb(value),
    "book": lambda value, name: value,
    "threads": _threads,
    "errors": errors_arg,
    "seed": _seed,
    "plies": _plies,
}


def random_args(n: Any, options: Options, most: int) -> tuple[int, int, int, int]:
    """(count, seed, low, high) of ``random_positions``: ``n`` rows of at most ``most`` plies."""
    count = args.int_arg(n, "n")
    if not 0 <= count <= 0xFF_FFFF_FFFF:
        raise ValueError(f"n must be between 0 and 2^40, got {count}")
    seed = secrets.randbits(64) if options.seed is None else options.seed
    low, high = options.plies if options.plies is not None else (0, most)
    if not 0 <= low <= high <= most:
        raise ValueError(f"plies must lie in 0..{most} with low <= high, got ({low}, {high})")
    return count, seed, low, high


Function = TypeVar("Function", bound=Callable[..., Any])
#: What a function that does not take an option behaves as (the options' defaults).
DEFAULTS: dict[str, Any] = {
    **{field.name: field.default for field in dataclasses.fields(Options)},
    "tablebase": None,
}


def takes(allowed: Sequence[str]) -> Callable[[Function], Function]:
    """Shows the options ``allowed`` in a function's signature (``help()``, ``inspect``, an
    editor): keyword-only, with their defaults, in place of ``**options``. The compiled core's
    functions show the same (their text signatures; the tests hold both to it)."""

    def shown(function: Function) -> Function:
        function.__signature__ = with_options(inspect.signature(function), allowed)  # type: ignore[attr-defined]
        return function

    return shown


def with_options(signature: inspect.Signature, allowed: Sequence[str]) -> inspect.Signature:
    """``signature`` with ``**options`` replaced by the keyword-only ``allowed``."""
    kept = [
        parameter
        for parameter in signature.parameters.values()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    shown = [inspect.Parameter(name, keyword, default=DEFAULTS[name]) for name in allowed]
    return signature.replace(parameters=[*kept, *shown])

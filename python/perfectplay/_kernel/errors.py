"""The exceptions perfectplay raises beyond the built-in ``ValueError`` and ``TypeError``,
public as ``perfectplay.errors`` (their home in messages and tracebacks).

Both backends raise these very classes (the compiled core imports them from there).
"""

__all__ = ["IllegalPosition", "InvalidCertificate", "SearchLimitExceeded", "missing_extra"]


class IllegalPosition(ValueError):
    """A well-formed board that cannot arise in play; the message says why."""

    __module__ = "perfectplay.errors"


class InvalidCertificate(ValueError):
    """A proof certificate that does not hold (``perfectplay.mnk.check``); the message names
    the part that fails."""

    __module__ = "perfectplay.errors"


class SearchLimitExceeded(RuntimeError):
    """A search needed more nodes than the caller's ``node_limit``."""

    __module__ = "perfectplay.errors"


def missing_extra(error: ImportError, extra: str) -> ImportError:
    """The error for an integration whose optional dependency is not installed: what is
    missing and the command that installs it (raise it ``from`` the original)."""
    return ImportError(
        f"perfectplay.{extra} needs {error.name or 'a package'}, which is not installed: "
        f"pip install 'perfectplay[{extra}]' (from a clone: pip install '.[{extra}]')"
    )

"""The exceptions perfectplay raises beyond the built-in ``ValueError`` and ``TypeError``.

Both backends raise these very classes (the compiled core imports them from here).
"""

__all__ = ["IllegalPosition", "SearchLimitExceeded"]


class IllegalPosition(ValueError):
    """A well-formed board that cannot arise in play; the message says why."""


class SearchLimitExceeded(RuntimeError):
    """A search needed more nodes than the caller's ``node_limit``."""

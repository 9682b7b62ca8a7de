"""``perfectplay.openings``: Connect Four's opening books, which live in
``perfectplay.connect4.openings``; this name stays importable and is that very module."""

import sys

from perfectplay.connect4.openings import *  # noqa: F403  (what type checkers read)
from perfectplay.connect4.openings import __all__ as __all__

sys.modules[__name__] = sys.modules["perfectplay.connect4.openings"]

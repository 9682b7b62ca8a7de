"""``perfectplay.tablebase``: the m,n,k tablebases, which live in
``perfectplay.mnk.tablebase``; this name stays importable and is that very module."""

import sys

from perfectplay.mnk.tablebase import *  # noqa: F403  (what type checkers read)
from perfectplay.mnk.tablebase import __all__ as __all__

sys.modules[__name__] = sys.modules["perfectplay.mnk.tablebase"]

# The compiled functions take the twin's arguments, name for name and default for default
# (tests/test_backend.py holds them together), so the twin's signatures are their types.
from perfectplay.footholds.twin import *
from perfectplay.footholds.twin import __all__ as __all__

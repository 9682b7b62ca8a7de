"""What every game and every layer above shares, and imports nothing above it: the backend
choice (``backend``), the answer types (``types``), the errors (``errors``), argument checks
(``args``), board reading (``board_input``), the scoring rule (``score``), the twin's solution
driver and batch columns (``driver``, ``batch``), whole-or-nothing files (``files``) and the
``Position`` base with its drawing (``position``). ``tests/test_layers.py`` keeps it a leaf."""

"""perfectplay's Connect Four opening books, as data: ``perfectplay.connect4.openings`` finds
them here through ``importlib.resources`` and checks each by its size and SHA-256."""

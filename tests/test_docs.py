"""The examples in the public modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from perfectplay import footholds, mnk, tictactoe


@pytest.mark.parametrize("module", [tictactoe, footholds, mnk], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0

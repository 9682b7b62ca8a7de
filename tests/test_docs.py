"""The examples in the public modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import perfectplay.gym
import perfectplay.openspiel
import perfectplay.pettingzoo
import perfectplay.textarena
from perfectplay import agents, connect4, footholds, mnk, openings, tablebase, tictactoe

MODULES = [
    tictactoe,
    connect4,
    footholds,
    mnk,
    agents,
    tablebase,
    openings,
    perfectplay.gym,
    perfectplay.openspiel,
    perfectplay.pettingzoo,
    perfectplay.textarena,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0

"""Every public function shows the options it takes in its signature (``help()``,
``inspect``, an editor), alike on both backends, and takes exactly those: the compiled core's
text signatures are held to the twin's, and both to what the functions accept; their docstrings
are the twin's."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from perfectplay import GAMES
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.options import DEFAULTS

FUNCTIONS = [
    (name, function)
    for name in GAMES
    for function in implementation(name, "python").__all__
    if callable(getattr(implementation(name, "python"), function))
]


def shown(function: Any) -> list[tuple[str, Any, Any]]:
    """(name, kind, default) of each parameter, annotations aside."""
    return [
        (parameter.name, parameter.kind, parameter.default)
        for parameter in inspect.signature(function).parameters.values()
    ]


@pytest.mark.both_backends
@pytest.mark.parametrize(("game", "name"), FUNCTIONS)
def test_both_backends_show_the_same_signature_with_every_option(game: str, name: str) -> None:
    rust = getattr(implementation(game, "rust"), name)
    python = getattr(implementation(game, "python"), name)
    assert shown(rust) == shown(python)
    kinds = [kind for _, kind, _ in shown(python)]
    assert inspect.Parameter.VAR_KEYWORD not in kinds, f"{game}.{name} hides its options"
    for option, kind, default in shown(python):
        if kind is inspect.Parameter.KEYWORD_ONLY:
            assert default == DEFAULTS[option], (option, default)


@pytest.mark.both_backends
@pytest.mark.parametrize(("game", "name"), FUNCTIONS)
def test_both_backends_show_the_same_docstring(game: str, name: str) -> None:
    """``help()`` reads one text on either backend: the compiled function's docstring is its
    twin's, written into the core when it is built."""
    rust = getattr(implementation(game, "rust"), name)
    python = getattr(implementation(game, "python"), name)
    assert inspect.getdoc(python), f"{game}.{name} has no docstring"
    assert inspect.getdoc(rust) == inspect.getdoc(python)


@pytest.mark.parametrize(("game", "name"), FUNCTIONS)
def test_the_public_function_shows_its_options(game: str, name: str) -> None:
    """The public module's function (``help(connect4.analyze)``), m,n,k's ``tablebase=`` too."""
    public = getattr(GAMES[game].module(), name)
    twin = getattr(implementation(game, "python"), name)
    options = [
        option for option, kind, _ in shown(public) if kind is inspect.Parameter.KEYWORD_ONLY
    ]
    expected = [option for option, kind, _ in shown(twin) if kind is inspect.Parameter.KEYWORD_ONLY]
    # The searches alone take no table.
    if (
        game == "mnk"
        and expected
        and name not in ("random_positions", "breaker_proof", "search_value")
    ):
        expected.append("tablebase")
    assert options == expected


@pytest.mark.both_backends
@pytest.mark.parametrize("backend", ["rust", "python"])
def test_every_option_shown_is_taken_and_no_other(backend: str) -> None:
    """Each option a signature shows is accepted (a call with it fails, if at all, for another
    reason than the option), and an option it does not show is refused."""
    calls: dict[str, tuple[Any, ...]] = {
        "tictactoe": ("x........",),
        "mnk": ("x../.../...", 3),
        "connect4": ("2252576253462244111563365343671351441",),
        "footholds": ("111/111", (0, 0), (1, 2)),
    }
    firsts: dict[str, tuple[Any, ...]] = {
        "batch_solve": (),
        "random_positions": (),
        "solve_empty": (3, 3, 3),
        "breaker_proof": ("x../.../...", 3, False),
    }
    for game, name in FUNCTIONS:
        function = getattr(implementation(game, backend), name)
        parameters = inspect.signature(function).parameters.values()
        options = [p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
        if not options:
            continue
        positional = firsts.get(name, calls[game])
        if name == "batch_solve":
            positional = ([calls[game][0]], *calls[game][1:])
        if name == "random_positions":
            positional = {
                "tictactoe": (2,),
                "mnk": (3, 3, 3, 2),
                "connect4": (2,),
                "footholds": (*calls["footholds"], 2),
            }[game]
        for option in options:
            value = DEFAULTS[option]
            if option == "book":
                value = None
            function(*positional, **{option: value})
        with pytest.raises(TypeError, match="unexpected keyword argument 'nothing'"):
            function(*positional, nothing=1)

"""Every command and option of the command line explains itself: a help text of its own (no
two options of one command share one), and the default of every option that has one."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from perfectplay import cli


def commands(
    parser: argparse.ArgumentParser, name: str = "perfectplay"
) -> Iterator[tuple[str, argparse.ArgumentParser, str | None]]:
    """(the command's name, its parser, the help its parent gives it) for every command."""
    yield name, parser, None
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for sub, subparser in action.choices.items():
                for found in commands(subparser, f"{name} {sub}"):
                    yield found if found[0] != f"{name} {sub}" else (*found[:2], helps.get(sub))


COMMANDS = list(commands(cli.parser.build_parser()))


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        action
        for action in parser._actions
        if not isinstance(
            action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)
        )
    ]


@pytest.mark.parametrize(("name", "parser", "summary"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_option_has_its_own_help_with_its_default(
    name: str, parser: argparse.ArgumentParser, summary: str | None
) -> None:
    if name != "perfectplay":
        assert summary, f"{name}: the command has no help in its parent's list"
    texts: dict[str, str] = {}
    for action in options(parser):
        shown = "/".join(action.option_strings) or action.dest
        assert action.help and action.help is not argparse.SUPPRESS, f"{name} {shown}: no help"
        assert action.help not in texts, f"{name}: {shown} and {texts[action.help]} share a help"
        texts[action.help] = shown
        optional = bool(action.option_strings) and not action.required
        if optional or action.nargs == "?":
            # Or required by some games, as label's --k is by m,n,k.
            assert "default" in action.help or "(required there)" in action.help, (
                f"{name} {shown}: the help gives no default"
            )


def test_every_command_is_listed() -> None:
    names = {name for name, _, _ in COMMANDS}
    assert {
        "perfectplay connect4",
        "perfectplay play",
        "perfectplay serve",
        "perfectplay stress",
        "perfectplay openings build",
        "perfectplay tablebase probe",
    } <= names
